"""Output formats: ``text`` (rich), ``concise``, ``json``, ``sarif`` and ``github``."""
