"""Build step that pyproject.toml cannot express: the wheel's task pack.

Everything else about the package is declared in pyproject.toml. ``build_py`` additionally writes
``lmms_eval/tasks/chronotasks/`` (our task YAMLs, calling the installed hooks) into the wheel, so
lmms-eval finds the tasks with no flag; see chronotasks/task_pack.py for why and how.
"""

import sys
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from chronotasks.task_pack import write_pack  # noqa: E402  (standard library only)


class BuildPyWithTaskPack(build_py):
    def run(self):
        super().run()
        if not self.editable_mode:  # editable installs use --include_path (a copy would go stale)
            write_pack(HERE / "chronotasks" / "tasks", Path(self.build_lib))


setup(cmdclass={"build_py": BuildPyWithTaskPack})
