"""What pyproject.toml cannot express: the package map and the wheel's task pack.

Packages: ``chronotasks`` and its sub-packages, plus the repository's top-level ``prompts/`` and
``model_shims/`` folders, installed as ``chronotasks.prompts`` and ``chronotasks.model_shims`` so
the wheel adds no generic top-level names (``prompts``, ``model_shims``) to a user's environment.
``build_py`` additionally writes ``lmms_eval/tasks/chronotasks/`` (our task YAMLs, calling the
installed hooks) into the wheel, so lmms-eval finds the tasks with no flag; see
chronotasks/task_pack.py for why and how. Everything else is declared in pyproject.toml.
"""

import subprocess
import sys
from pathlib import Path

from setuptools import find_namespace_packages, setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from chronotasks.task_pack import write_pack  # noqa: E402  (standard library only)


class BuildPyWithTaskPack(build_py):
    def run(self):
        super().run()
        if not self.editable_mode:  # editable installs use --include_path (a copy would go stale)
            write_pack(HERE / "chronotasks" / "tasks", Path(self.build_lib))
            write_build_commit(Path(self.build_lib) / "chronotasks")


def write_build_commit(package: Path) -> None:
    """The commit the wheel is built from, for the provenance of its results (chronotasks/provenance.py);
    nothing when the source is not a git checkout (an sdist)."""
    proc = subprocess.run(["git", "-C", str(HERE), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    if proc.returncode == 0 and proc.stdout.strip():
        (package / "BUILD_COMMIT").write_text(proc.stdout.strip() + "\n", encoding="utf-8")


# repository folder -> installed package
MAPPED = {"chronotasks.prompts": "prompts", "chronotasks.model_shims": "model_shims"}

setup(
    packages=find_namespace_packages(include=["chronotasks", "chronotasks.*"]) + list(MAPPED),
    package_dir=MAPPED,
    cmdclass={"build_py": BuildPyWithTaskPack},
)
