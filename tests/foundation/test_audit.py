"""`chronotasks audit RUN_DIR` on the sample logs of a real lmms-eval run (--log_samples)."""

from __future__ import annotations

import csv
import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]


def _audit(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run([sys.executable, "-m", "chronotasks.cli", "audit", *args], capture_output=True, text=True, env=env, cwd=REPO_ROOT, check=False)


@pytest.mark.slow
def test_audit_of_a_real_run(lmms_eval_run, tmp_path):
    # "B" is a letter (read for the period questions) but no "1"/"2" choice (unreadable for the pair questions)
    results = lmms_eval_run("--model", "chrono_constant", "--model_args", "answer=B", "--tasks", "chrono_demo", "--log_samples")["results"]
    out = tmp_path  # the fixture writes the run under tmp_path
    assert results["chrono_demo_period"]["parse_failure,none"] == 0.0
    assert results["chrono_demo_pair"]["parse_failure,none"] == 1.0
    proc = _audit(str(out), "--csv", str(tmp_path.parent / f"{tmp_path.name}_audit.csv"))
    assert proc.returncode == 0, proc.stderr
    assert "| chrono_demo_pair | 40 | 40 | 100.0% | off |" in proc.stdout
    assert "| chrono_demo_period | 40 | 0 | 0.0% | off |" in proc.stdout
    assert "chrono_demo_pair: most common unreadable replies\n     40 x 'B'" in proc.stdout
    rows = list(csv.DictReader((tmp_path.parent / f"{tmp_path.name}_audit.csv").open()))
    assert {(r["task"], r["row"], r["unreadable"], r["rate"]) for r in rows if r["row"] == "task"} == {
        ("chrono_demo_pair", "task", "40", "1.0000"), ("chrono_demo_period", "task", "0", "0.0000")}
    assert [(r["count"], r["reply"]) for r in rows if r["row"] == "unreadable_reply"] == [("40", "B")]


def test_audit_errors_exit_nonzero(tmp_path):
    proc = _audit(str(tmp_path / "missing"))
    assert proc.returncode == 2 and "is not a folder" in proc.stderr
    proc = _audit(str(tmp_path))
    assert proc.returncode == 2 and "--log_samples" in proc.stderr
    (tmp_path / "20250101_samples_x.jsonl").write_text('{"doc_id": 0, "parse_failure": 0.0}\nnot json\n')
    proc = _audit(str(tmp_path))
    assert proc.returncode == 2 and "20250101_samples_x.jsonl:2" in proc.stderr
