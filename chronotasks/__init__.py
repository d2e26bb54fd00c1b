"""chronotasks: temporal-reasoning benchmarks as lmms-eval tasks.

A benchmark lives in chronotasks/tasks/<b>/ (what lmms-eval reads; a regular install also places a
copy in lmms-eval's task folder, see task_pack.py), chronotasks/benchmarks/<b>/ (its data, demo
data and reports), prompts/<b>/ and tests/<b>/. Shared: scoring/ (pure) and data/ (loaders).
"""

__version__ = "0.1.0"
