"""GPU knowledge: the catalog of GPU names -> compute capability (``catalog.py``, ``catalog.json``)."""
