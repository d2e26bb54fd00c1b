"""Shared loaders every benchmark uses: task records (``loading``), answer spaces
(``answer_space``), image helpers (``image_hash``) and demo drawing (``drawing``).
Per-benchmark code lives in ``chronotasks/benchmarks/<benchmark>/``."""
