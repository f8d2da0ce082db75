"""lint-configs: a static linter for the files that launch SGLang servers.

The package is laid out as ../DESIGN.md describes: ``discover`` finds files, ``extract`` turns each
format into :class:`linter.launch.Launch` objects, ``sglang`` and ``gpus`` hold the knowledge,
``rules`` report diagnostics with fixes, ``fixes`` applies them and ``report`` prints them.
"""

__version__ = "0.1.0"
