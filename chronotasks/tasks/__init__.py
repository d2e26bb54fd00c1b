"""lmms-eval task YAMLs, one folder per benchmark.

``chronotasks.tasks.TASKS_DIR`` is the folder to give lmms-eval's ``--include_path``
(``chronotasks tasks-path`` prints it).
"""

from pathlib import Path

TASKS_DIR = Path(__file__).resolve().parent
