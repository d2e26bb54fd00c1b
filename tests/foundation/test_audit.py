"""`chronotasks audit RUN_DIR` on the sample logs of a real lmms-eval run (--log_samples)."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tests"))


def _audit(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT)}
    return subprocess.run(
        [sys.executable, "-m", "chronotasks.cli", "audit", *args], capture_output=True, text=True, env=env, cwd=REPO_ROOT, check=False
    )


@pytest.mark.slow
def test_audit_of_a_real_run(lmms_eval_run, tmp_path):
    # "B" is a letter (read for the period questions) but no "1"/"2" choice (unreadable for the pair questions)
    results = lmms_eval_run("--model", "chrono_constant", "--model_args", "answer=B", "--tasks", "chrono_demo", "--log_samples")["results"]
    out = tmp_path  # the fixture writes the run under tmp_path
    assert results["chrono_demo_period"]["parse_failure,none"] == 0.0
    assert results["chrono_demo_pair"]["parse_failure,none"] == 1.0
    proc = _audit(str(out), "--csv", str(tmp_path.parent / f"{tmp_path.name}_audit.csv"))
    assert proc.returncode == 0, proc.stderr
    assert "| chrono_demo_pair | 40 | 0 (0.0%) | off | 40 (100.0%) |" in proc.stdout
    assert "| chrono_demo_period | 40 | 40 (100.0%) | off | 0 (0.0%) |" in proc.stdout
    assert "chrono_demo_pair: most common unreadable replies\n     40 x 'B'" in proc.stdout
    rows = list(csv.DictReader((tmp_path.parent / f"{tmp_path.name}_audit.csv").open()))
    assert {(r["task"], r["row"], r["rules"], r["unreadable"], r["rate"]) for r in rows if r["row"] == "task"} == {
        ("chrono_demo_pair", "task", "0", "40", "1.0000"),
        ("chrono_demo_period", "task", "40", "0", "0.0000"),
    }
    assert [(r["count"], r["reply"]) for r in rows if r["row"] == "unreadable_reply"] == [("40", "B")]


def test_audit_errors_exit_nonzero(tmp_path):
    proc = _audit(str(tmp_path / "missing"))
    assert proc.returncode == 2 and "is not a folder" in proc.stderr
    proc = _audit(str(tmp_path))
    assert proc.returncode == 2 and "--log_samples" in proc.stderr
    (tmp_path / "20250101_samples_x.jsonl").write_text('{"doc_id": 0, "parse_failure": 0.0}\nnot json\n')
    proc = _audit(str(tmp_path))
    assert proc.returncode == 2 and "20250101_samples_x.jsonl:2" in proc.stderr


def test_audit_counts_tempviz_judge_replies_without_a_verdict(tmp_path):
    """TempViz samples hold the task's item under every metric; the judge's verdict is added at
    aggregation. The audit reads each verdict: a judge reply with no verdict is unreadable."""
    from openai_stub import OpenAIStub, last_user_text

    from chronotasks.audit import audit
    from chronotasks.tasks.tempviz import utils

    image = tmp_path / "fox.png"
    Image.new("RGB", (32, 32), (180, 90, 40)).save(image)
    subjects = ["a red fox in europe in january", "a koala that is 36 years old", "a lake in europe in july"]
    docs = [
        {
            "id": f"Animals-{n}",
            "category": "Animals",
            "prompt": f"Create a photorealistic image of {s}.",
            "prompt_body": f"a photorealistic image of {s}.",
            "temporal_cue": s.split(" ", 3)[-1],
        }
        for n, s in enumerate(subjects)
    ]
    rambling = "The image shows an animal in a natural setting with soft lighting and a blurred background."

    def judge(body):  # the koala reply states no verdict
        return rambling if "koala" in last_user_text(body) else "Yes."

    with OpenAIStub(responder=judge) as stub:
        reply = json.dumps(
            {
                "text": "",
                "images": [str(image)],
                "judge": {
                    "judge": "vlm_direct",
                    "judge_model": "stub-vlm",
                    "judge_base_url": stub.base_url,
                    "judge_cache_dir": str(tmp_path / "judge_cache"),
                },
            }
        )
        per_doc = [utils.process_results(doc, [reply]) for doc in docs]
        assert utils.judge_parse_failure([m["judge_parse_failure"] for m in per_doc]) == pytest.approx(1 / 3)
    # the samples file as lmms-eval writes it after aggregation: each metric's value is the judged item
    with open(tmp_path / "20250101_samples_tempviz_animals.jsonl", "w", encoding="utf-8") as handle:
        for doc_id, (doc, metrics) in enumerate(zip(docs, per_doc)):
            handle.write(json.dumps({"doc_id": doc_id, "target": doc["prompt"], "filtered_resps": reply, **metrics}) + "\n")
    audited = audit(tmp_path)["tempviz_animals"]
    assert (audited.samples, audited.scored, audited.failures) == (3, 3, 1)
    assert audited.unread == {rambling: 1}


def test_audit_shares_decided_by_rules_extractor_and_abstained(tmp_path):
    """Samples logged with the extractor on say which decided: 6 by the rules, 3 by the LLM
    extractor, 1 by neither (a parse failure); the report gives each share of the 10."""
    from chronotasks.audit import audit, report

    with open(tmp_path / "20250101_samples_tabvlm_grouping.jsonl", "w", encoding="utf-8") as handle:
        for n, who in enumerate(["rules"] * 6 + ["llm"] * 3 + ["none"]):
            handle.write(
                json.dumps({"doc_id": n, "filtered_resps": [f"reply {n}"], "parse_failure": float(who == "none"), "extractor": who}) + "\n"
            )
    with open(tmp_path / "20250101_samples_tabvlm_sequence.jsonl", "w", encoding="utf-8") as handle:
        for n in range(4):  # the extractor off: no field; one reply unreadable
            handle.write(json.dumps({"doc_id": n, "filtered_resps": [f"reply {n}"], "parse_failure": float(n == 3)}) + "\n")
    tasks = audit(tmp_path)
    grouping, sequence = tasks["tabvlm_grouping"], tasks["tabvlm_sequence"]
    assert (grouping.by_rules, grouping.by_llm, grouping.failures) == (6, 3, 1)
    assert (sequence.by_rules, sequence.by_llm, sequence.failures) == (3, 0, 1)
    table = report(tasks, top=3, width=40)
    assert "| tabvlm_grouping | 10 | 6 (60.0%) | 3 (30.0%) | 1 (10.0%) | 0 |" in table
    assert "| tabvlm_sequence | 4 | 3 (75.0%) | off | 1 (25.0%) | 0 |" in table
    assert "tabvlm_grouping: most common unreadable replies\n      1 x 'reply 9'" in table


def test_audit_counts_judgements_that_failed(tmp_path):
    """An API judge answering HTTP 500 to every call: no verdict to read, so nothing is "unreadable";
    the audit counts the failed judgements instead (before: 0% and nothing else said)."""
    from openai_stub import OpenAIStub

    from chronotasks.audit import audit, report
    from chronotasks.tasks.tempviz import utils

    image = tmp_path / "fox.png"
    Image.new("RGB", (32, 32), (180, 90, 40)).save(image)
    docs = [
        {
            "id": f"Animals-{n}",
            "category": "Animals",
            "prompt": f"Create a photorealistic image of a fox in {m}.",
            "prompt_body": f"a photorealistic image of a fox in {m}.",
            "temporal_cue": m,
        }
        for n, m in enumerate(("january", "july"))
    ]
    with OpenAIStub(fail_every=1, fail_status=500) as stub:
        reply = json.dumps(
            {
                "text": "",
                "images": [str(image)],
                "judge": {
                    "judge": "vlm_direct",
                    "judge_model": "stub-vlm",
                    "judge_base_url": stub.base_url,
                    "judge_max_retries": 1,
                    "judge_cache_dir": str(tmp_path / "judge_cache"),
                },
            }
        )
        per_doc = [utils.process_results(doc, [reply]) for doc in docs]
        assert utils.judge_failure([m["judge_failure"] for m in per_doc]) == 1.0
    with open(tmp_path / "20250101_samples_tempviz_animals.jsonl", "w", encoding="utf-8") as handle:
        for doc_id, (doc, metrics) in enumerate(zip(docs, per_doc)):
            handle.write(json.dumps({"doc_id": doc_id, "target": doc["prompt"], "filtered_resps": reply, **metrics}) + "\n")
    audited = audit(tmp_path)
    assert (audited["tempviz_animals"].samples, audited["tempviz_animals"].failures, audited["tempviz_animals"].judge_failures) == (2, 0, 2)
    assert "| tempviz_animals | 2 | n/a | off | n/a | 2 |" in report(audited, top=5, width=80)
