"""Data files (generated option tables, model catalog, semantics), each with its provenance."""
