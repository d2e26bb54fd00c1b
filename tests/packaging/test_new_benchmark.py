"""`chronotasks new-benchmark NAME`: in a temporary copy of this checkout, the skeleton lands in
the four places, `chronotasks demo-data` finds its writer with no registration, and its own tests
pass, including a real lmms-eval run of its task and `chronotasks report` showing it (with the layout
test still passing); a name lmms-eval or chronotasks already has is refused."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest
from venvs import make_venv, pip_command

from chronotasks.skeleton import SkeletonError, create, name_clashes

REPO = Path(__file__).resolve().parents[2]
SKIP = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", "build", "dist", "*.egg-info", ".pytest_cache")
EXPECTED = [
    "chronotasks/benchmarks/zzbench/__init__.py",
    "chronotasks/benchmarks/zzbench/demo.py",
    "chronotasks/benchmarks/zzbench/report_spec.py",
    "chronotasks/tasks/zzbench/README.md",
    "chronotasks/tasks/zzbench/_default_template_yaml",
    "chronotasks/tasks/zzbench/zzbench.yaml",
    "chronotasks/tasks/zzbench/zzbench_period.yaml",
    "chronotasks/tasks/zzbench/utils.py",
    "prompts/zzbench/period.j2",
    "tests/zzbench/test_zzbench.py",
]


def _in_copy(python: Path, copy: Path, *command: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "CHRONOTASKS_DATA")}
    return subprocess.run([str(python), *command], cwd=copy, env=env, capture_output=True, text=True, timeout=900)


@pytest.mark.slow
def test_new_benchmark_skeleton_passes_its_tests_and_runs_in_lmms_eval(tmp_path):
    copy = tmp_path / "repo"
    shutil.copytree(REPO, copy, ignore=SKIP)
    # A contributor's set-up: the copy installed editable (prompts/ and model_shims/ are mapped to
    # chronotasks.prompts / chronotasks.model_shims by the install, so the copy's own folders are used).
    python, _ = make_venv(tmp_path / "venv")
    subprocess.run(
        pip_command(python, "install", "-q", "--no-deps", "--no-build-isolation", "-e", str(copy)), check=True, capture_output=True
    )

    made = _in_copy(python, copy, "-m", "chronotasks.cli", "new-benchmark", "zzbench")
    assert made.returncode == 0, made.stderr
    assert sorted(made.stdout.split("\n\n")[0].splitlines()) == sorted(EXPECTED)

    demo = _in_copy(python, copy, "-m", "chronotasks.cli", "demo-data", "--out", str(tmp_path / "data"), "--benchmarks", "zzbench")
    assert demo.returncode == 0, demo.stderr
    assert len((tmp_path / "data" / "zzbench" / "period.jsonl").read_text().splitlines()) == 20

    tests = _in_copy(python, copy, "-m", "pytest", "-v", "-n", "0", "-p", "no:cacheprovider", "tests/zzbench", "tests/test_layout.py")
    assert tests.returncode == 0, tests.stdout[-6000:] + tests.stderr[-3000:]
    assert "test_zzbench.py::test_random_baseline_runs_in_lmms_eval_and_in_the_report PASSED" in tests.stdout
    assert "test_layout.py::test_every_benchmark_has_its_four_places PASSED" in tests.stdout


def _checkout(root: Path) -> Path:
    for place in ("chronotasks/tasks", "chronotasks/benchmarks", "prompts", "tests"):
        (root / place).mkdir(parents=True)
    return root


def test_existing_benchmark_is_never_overwritten(tmp_path):
    root = _checkout(tmp_path)
    (root / "prompts" / "taken").mkdir()
    with pytest.raises(SkeletonError, match=r"'taken' already exists: prompts/taken \(nothing was written\)"):
        create("taken", root)
    assert sorted(p.relative_to(root).as_posix() for p in root.rglob("*")) == [
        "chronotasks",
        "chronotasks/benchmarks",
        "chronotasks/tasks",
        "prompts",
        "prompts/taken",
        "tests",
    ]


@pytest.mark.parametrize("name", ["My-Bench", "2bench", "bench.v2", ""])
def test_name_must_be_a_package_and_task_prefix(tmp_path, name):
    with pytest.raises(SkeletonError, match="must be lowercase letters"):
        create(name, _checkout(tmp_path))


def test_outside_a_checkout_is_an_error(tmp_path):
    with pytest.raises(SkeletonError, match="is not a chronotasks checkout"):
        create("fine_name", tmp_path)


def test_names_taken_by_lmms_eval_or_chronotasks_are_named():
    known = {
        "mmmu": "lmms-eval group",
        "mmmu_val": "lmms-eval task",
        "chrono_demo": "chronotasks benchmark",
        "chrono_demo_period": "chronotasks task",
        "tabvlm": "chronotasks benchmark",
    }
    assert name_clashes("mmmu", known) == ["mmmu (lmms-eval group)", "1 task name(s) already start with mmmu_: mmmu_val (lmms-eval task)"]
    assert name_clashes("chrono", known) == [
        "2 task name(s) already start with chrono_: chrono_demo (chronotasks benchmark), chrono_demo_period (chronotasks task)"
    ]
    assert name_clashes("tabvlm_extra", known) == ["tabvlm_extra_ starts with the task prefix of chronotasks benchmark tabvlm"]
    assert name_clashes("zzbench", known) == []


@pytest.mark.slow
def test_a_name_lmms_eval_has_is_refused(tmp_path):
    """`new-benchmark mmmu` was accepted and lmms-eval's own mmmu silently won."""
    root = _checkout(tmp_path)
    with pytest.raises(SkeletonError, match=r"'mmmu' is taken: mmmu \(lmms-eval group\); \d+ task name\(s\) already start with mmmu_"):
        create("mmmu", root)
    assert not any(list((root / place).iterdir()) for place in ("chronotasks/tasks", "prompts", "tests"))
