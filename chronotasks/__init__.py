"""chronotasks: temporal-reasoning benchmarks as lmms-eval tasks.

Tasks live in ``chronotasks/tasks`` (found by lmms-eval through
``--include_path``; see README), scoring in ``chronotasks/scoring`` and data
loading, preparation and demo data in ``chronotasks/data``.
"""

__version__ = "0.1.0"
