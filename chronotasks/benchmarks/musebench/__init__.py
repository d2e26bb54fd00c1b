"""MuseBench (Chinese museum artifacts, multi-view): schema, task files, prepare, QA build, demo data."""
