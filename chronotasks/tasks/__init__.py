"""lmms-eval task YAMLs, one folder per benchmark.

``chronotasks.tasks.TASKS_DIR`` is the folder to give lmms-eval's ``--include_path``
(``chronotasks tasks-path`` prints it): needed with an editable install; a regular install also
places these YAMLs in lmms-eval's own task folder (chronotasks/task_pack.py), found with no flag.
"""

from pathlib import Path

TASKS_DIR = Path(__file__).resolve().parent


def leaf_tasks(task_dict: dict) -> dict:
    """The tasks of an lmms-eval ``get_task_dict`` result, groups flattened: {name: task}."""
    leaves = {}
    for name, value in task_dict.items():
        leaves.update(leaf_tasks(value) if isinstance(value, dict) else {name: value})
    return leaves
