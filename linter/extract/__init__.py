"""One module per file format; each turns a file into launches and knows nothing of the rules."""
