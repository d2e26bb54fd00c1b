"""examples/check_results.py, the quickstart's guard against lmms-eval's exit status 0 after an
evaluation error: it passes a real run's results and fails a run that wrote none."""

from __future__ import annotations

import copy
import importlib.util
import os
import subprocess
import sys

from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[1]

_spec = importlib.util.spec_from_file_location("check_results", REPO_ROOT / "examples" / "check_results.py")
check_results = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_results)


def test_a_real_run_has_results_for_every_task_of_its_group(chronovision_random_run, capsys):
    out, results = chronovision_random_run
    assert check_results.problems(results, ["chronovision"]) == []
    assert check_results.main([str(out), "chronovision"]) == 0
    assert "OK: results for chronovision" in capsys.readouterr().out


def test_missing_tasks_are_named(chronovision_random_run):
    _, results = chronovision_random_run
    broken = copy.deepcopy(results)
    del broken["results"]["chronovision_shortcut"]
    broken["n-samples"]["chronovision_news_year"]["effective"] = 0
    assert check_results.problems(broken, ["chronovision", "tabvlm_chrono"]) == [
        "chronovision_shortcut: no metric values",
        "chronovision_news_year: no evaluated samples",
        "tabvlm_chrono: no results",
    ]


@pytest.mark.slow
def test_lmms_eval_exits_0_after_an_error_but_the_check_fails(demo_root, tmp_path):
    """A BERTScore model that does not exist makes MuseBench's aggregation fail: lmms-eval prints a
    traceback and exits 0 with no results; the check exits 1."""
    from chronotasks.tasks import TASKS_DIR

    out = tmp_path / "out"
    env = {**os.environ, "CHRONOTASKS_DATA": str(demo_root), "HF_HUB_OFFLINE": "1",
           "CHRONOTASKS_BERTSCORE_MODEL": str(tmp_path / "no-such-model"),
           "PYTHONPATH": f"{REPO_ROOT}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    run = subprocess.run([sys.executable, "-m", "lmms_eval", "--model", "chrono_constant", "--model_args", "answer=清代",
                          "--tasks", "musebench_vqa", "--limit", "3", "--include_path", str(TASKS_DIR), "--output_path", str(out)],
                         env=env, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0 and "Error during evaluation" in run.stdout + run.stderr
    check = subprocess.run([sys.executable, str(REPO_ROOT / "examples" / "check_results.py"), str(out), "musebench_vqa"],
                           capture_output=True, text=True, timeout=60)
    assert check.returncode == 1
    assert "FAILED: lmms-eval wrote no results" in check.stderr
