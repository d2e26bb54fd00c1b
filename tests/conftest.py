"""Shared test fixtures. Tests run offline on CPU: no hub, no GPU."""

from __future__ import annotations

import glob
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import lmms_eval_fork
import pytest

os.environ["HF_HUB_OFFLINE"] = "1"
os.environ["HF_DATASETS_OFFLINE"] = "1"
os.environ["TRANSFORMERS_OFFLINE"] = "1"
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
# The per-user cache (default data root, downloads) of this test session: never the real ~/.cache.
os.environ["CHRONOTASKS_HOME"] = tempfile.mkdtemp(prefix="chronotasks_home_")
_SESSION_HOME = os.environ["CHRONOTASKS_HOME"]
os.environ.pop("CHRONOTASKS_MIRROR", None)

REPO_ROOT = Path(__file__).resolve().parents[1]
# Whole copies of the public releases (tabvlm/, chronovision/, tempviz/ as tests/release_excerpts/README.md
# describes): the checks that need every record run only when this names them.
SEED_DATA = os.environ.get("CHRONOTASKS_SEED_DATA", "")
RELEASE_EXCERPTS = Path(__file__).resolve().parent / "release_excerpts"


@pytest.fixture(scope="session")
def demo_root(tmp_path_factory) -> Path:
    """Demo data of every benchmark, written once per test session."""
    from chronotasks.benchmarks import write_demo_data

    root = tmp_path_factory.mktemp("demo_data")
    write_demo_data(root, seed=0)
    return root


@pytest.fixture(scope="session")
def release_excerpts() -> Path:
    """A handful of records of each public release, committed under tests/release_excerpts/, read-only."""
    return RELEASE_EXCERPTS


@pytest.fixture(scope="session")
def seed_data() -> Path:
    """Whole copies of the public releases, read-only: the checks of every record (counts, the papers' tables)."""
    if not SEED_DATA:
        pytest.skip(
            "needs the whole public releases: set CHRONOTASKS_SEED_DATA to a folder with tabvlm/, chronovision/ "
            "and tempviz/ (see tests/release_excerpts/README.md)"
        )
    if not Path(SEED_DATA).is_dir():
        pytest.fail(f"CHRONOTASKS_SEED_DATA={SEED_DATA}: no such folder")
    return Path(SEED_DATA)


def run_lmms_eval(
    *args: str, data_root: Path, output_path: Path, extra_env: dict | None = None, timeout: int = 600, nproc: int = 1
) -> dict:
    """Run the real ``lmms-eval`` launcher in a subprocess with our tasks, return its results JSON.

    ``args`` are lmms-eval arguments (``--model``, ``--tasks``, ...); the task
    folder and the output path are added here. ``nproc`` > 1 starts that many
    processes with ``torchrun --standalone`` (gloo on CPU; a free port) and checks
    that the last rank ran.
    """
    from chronotasks.tasks import TASKS_DIR

    env = {**os.environ, "CHRONOTASKS_DATA": str(data_root), "PYTHONPATH": f"{REPO_ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    env.update(extra_env or {})
    launcher = ["-m", "torch.distributed.run", "--standalone", "--nproc_per_node", str(nproc)] if nproc > 1 else []
    arguments = [*args, "--include_path", str(TASKS_DIR), "--output_path", str(output_path)]
    if nproc == 1:
        proc = lmms_eval_fork.run(arguments, env, output_path.parent, timeout)
    else:
        command = [sys.executable, *launcher, "-m", "lmms_eval", *arguments]
        proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=timeout, cwd=output_path.parent, check=False)
    output_path.mkdir(parents=True, exist_ok=True)
    (output_path / "lmms_eval.log").write_text(proc.stdout + proc.stderr, encoding="utf-8")  # what the run printed
    files = sorted(glob.glob(str(output_path / "**" / "*_results.json"), recursive=True))
    if proc.returncode != 0 or not files:
        raise AssertionError(f"lmms-eval failed (exit {proc.returncode}):\n{proc.stdout[-6000:]}\n{proc.stderr[-6000:]}")
    if nproc > 1 and f"Running on rank {nproc - 1}" not in proc.stdout + proc.stderr:
        raise AssertionError(f"lmms-eval did not start {nproc} processes:\n{proc.stderr[-6000:]}")
    return json.loads(Path(files[-1]).read_text())


@pytest.fixture(scope="session")
def lmms_eval_runner():
    """``run_lmms_eval`` itself, for runs that pick their own data root, output folder or process count
    (test modules cannot ``import conftest``: several conftest modules share the name)."""
    return run_lmms_eval


@pytest.fixture
def lmms_eval_run(demo_root, tmp_path):
    """Call as ``lmms_eval_run("--model", "chrono_random", "--tasks", "x")`` -> results JSON (demo data)."""

    def _run(*args: str, data_root: Path | None = None, extra_env: dict | None = None) -> dict:
        out = tmp_path / f"out_{len(list(tmp_path.iterdir()))}"
        return run_lmms_eval(*args, data_root=data_root or demo_root, output_path=out, extra_env=extra_env)

    return _run


@pytest.fixture(scope="session")
def chronovision_random_run(demo_root, tmp_path_factory) -> tuple[Path, dict]:
    """``chrono_random`` on the whole ``chronovision`` group (demo data), run once per session: (output folder, results JSON)."""
    out = tmp_path_factory.mktemp("chronovision_random") / "out"
    return out, run_lmms_eval("--model", "chrono_random", "--tasks", "chronovision", data_root=demo_root, output_path=out)


def pytest_sessionfinish(session, exitstatus):
    """The session's per-user folder goes when the session ends (one per run otherwise piles up in /tmp)."""
    import shutil

    shutil.rmtree(_SESSION_HOME, ignore_errors=True)
