"""A run that judged nothing is not a result (chronotasks/failures.py, `chronotasks check`).

When more than the threshold share (0.5 by default) of a task's samples failed — unreadable
replies, images that could not be opened, judgements that failed — the task's figures are NaN with
the failure rate beside them, its group's too, and `chronotasks check` exits 1 naming the task and
the cause. Under the threshold a failed sample is scored wrong and the figure stands.
"""

from __future__ import annotations

import copy
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import lmms_eval_fork
import pytest

from chronotasks.check import last_error
from chronotasks.cli import main
from chronotasks.failures import MAX_FAILURE_ENV, FailedScore, mark_failures, mean_unless_failed

REPO_ROOT = Path(__file__).resolve().parents[1]


# -- the rule, by hand ------------------------------------------------------------------------------
@pytest.fixture
def period_docs(demo_root, monkeypatch):
    monkeypatch.setenv("CHRONOTASKS_DATA", str(demo_root))
    from chronotasks.tasks.tabvlm import utils

    return utils, list(utils.style_period_docs(None))[:4]


def test_under_the_threshold_failed_samples_score_zero_over_it_the_figure_is_nan(period_docs, monkeypatch):
    monkeypatch.delenv(MAX_FAILURE_ENV, raising=False)
    utils, docs = period_docs
    gold = [doc["answer"] for doc in docs]
    wrong = [next(o for o in "ABCD" if o != g) for g in gold]
    unreadable = "I'm not able to date this artifact from the photograph alone."
    half = [
        utils.process_results(docs[0], [gold[0]]),
        utils.process_results(docs[1], [wrong[1]]),
        utils.process_results(docs[2], [unreadable]),
        utils.process_results(docs[3], [unreadable]),
    ]
    values = [r["accuracy"] for r in half]
    assert [r["parse_failure"] for r in half] == [0.0, 0.0, 1.0, 1.0]
    assert mean_unless_failed(values) == 0.25  # 2 of 4 failed: exactly half, the figure stands (1 right of 4)
    assert all(isinstance(v, FailedScore) and v.cause == "parse_failure" for v in values[2:])
    assert json.dumps(values) == "[1.0, 0.0, 0.0, 0.0]"  # the logged samples show plain scores
    most = half[:1] + [utils.process_results(docs[1], [unreadable])] + half[2:]
    assert math.isnan(mean_unless_failed([r["accuracy"] for r in most]))  # 3 of 4 failed
    monkeypatch.setenv(MAX_FAILURE_ENV, "0.8")
    assert mean_unless_failed([r["accuracy"] for r in most]) == 0.25


def test_our_parse_failure_leaves_the_release_reading_standing_an_image_failure_does_not():
    """'{"answer": "1 or 2"}': we read no answer, the release's shortcut script reads 1. The
    release reading is a result of its own (its rules decide what it reads); an image that could
    not be opened fails both readings."""
    unread = {
        "ACC_B": {"correct": 0.0, "condition": "color"},
        "ACC_B_release": {"correct": 1.0, "condition": "color"},
        "composite_S_release": 0.5,
        "parse_failure": 1.0,
        "image_failure": 0.0,
    }
    marked = mark_failures(unread)
    assert marked["ACC_B"]["failed"] == "parse_failure"
    assert "failed" not in marked["ACC_B_release"] and not isinstance(marked["composite_S_release"], FailedScore)
    no_image = mark_failures({**unread, "parse_failure": 0.0, "image_failure": 1.0})
    assert no_image["ACC_B_release"]["failed"] == "image_failure" == no_image["composite_S_release"].cause


def test_a_failed_task_makes_its_group_nan_in_lmms_evals_own_group_mean():
    from lmms_eval.api.metrics import aggregate_subtask_metrics

    assert math.isnan(aggregate_subtask_metrics([0.5, float("nan"), 0.25], [10, 10, 10], weight_by_size=False))


def test_the_real_error_is_read_from_under_lmms_evals_retry_wrapper():
    log = """\x1b[32m2026-11-25 05:40:11\x1b[0m | INFO | lmms_eval.evaluator:simple_evaluate:486 - Setting random seed to 0
Traceback (most recent call last):
  File "/x/lmms_eval/api/task.py", line 1166, in download
    self.dataset[split] = self.config.process_docs(self.dataset[split])
chronotasks.data.errors.DataError: no tabvlm data: /d/tabvlm/style_period.jsonl does not exist; prepare it with `chronotasks prepare tabvlm`

The above exception was the direct cause of the following exception:

Traceback (most recent call last):
    raise retry_exc from fut.exception()
tenacity.RetryError: RetryError[<Future at 0x7fa87a9adf10 state=finished raised DataError>]
\x1b[31mERROR\x1b[0m | lmms_eval.__main__:cli_evaluate:614 - Error during evaluation: RetryError[<Future at 0x7f state=finished raised DataError>]. Please set `--verbosity=DEBUG` to get more information."""
    import re

    lines = [re.sub(r"\x1b\[[0-9;]*m", "", line) for line in log.splitlines()]
    assert last_error(lines) == (
        "DataError: no tabvlm data: /d/tabvlm/style_period.jsonl does not exist; prepare it with `chronotasks prepare tabvlm`"
    )


def test_check_refuses_what_it_cannot_read_in_one_line(tmp_path, monkeypatch, capsys):
    # a --output_path that lmms-eval never created: it failed before writing (and exited 0)
    status, text = check(str(tmp_path / "nowhere"), capsys=capsys)
    assert status == 1 and text.count("\n") == 1
    assert text.startswith(f"chronotasks check: error: {tmp_path / 'nowhere'} does not exist: lmms-eval most likely failed")
    assert "the traceback above the last line it printed" in text and "not the run's" not in text
    (tmp_path / "a_file").write_text("")
    assert check(str(tmp_path / "a_file"), capsys=capsys) == (
        1,
        f"chronotasks check: error: {tmp_path / 'a_file'} is a file, not a folder (give the run's --output_path)\n",
    )
    (tmp_path / "a_file").unlink()
    assert check(str(tmp_path), "--max-failure", "2", capsys=capsys)[0] == 1
    monkeypatch.setenv(MAX_FAILURE_ENV, "half")
    status, text = check(str(tmp_path), capsys=capsys)
    assert status == 1 and text.startswith("chronotasks check: error: $CHRONOTASKS_MAX_FAILURE='half'") and text.count("\n") == 1
    monkeypatch.delenv(MAX_FAILURE_ENV)
    status, text = check(str(tmp_path), capsys=capsys)  # an empty folder: no results
    assert status == 1 and "no lmms-eval results" in text


# -- real runs ---------------------------------------------------------------------------------------
def lmms_eval_logged(out: Path, *args: str, data_root: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    """lmms-eval as the quickstart runs it: its output kept in OUT/lmms_eval.log."""
    from chronotasks.tasks import TASKS_DIR

    out.mkdir(parents=True)
    environment = {
        **os.environ,
        "CHRONOTASKS_DATA": str(data_root),
        "HF_HUB_OFFLINE": "1",
        "NO_PROXY": "127.0.0.1",
        "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]),
        **(env or {}),
    }
    done = lmms_eval_fork.run([*args, "--include_path", TASKS_DIR, "--output_path", out], environment, out, 900, log=out / "lmms_eval.log")
    assert done.returncode == 0, (out / "lmms_eval.log").read_text()[-5000:]
    return done


def results_of(out: Path) -> dict:
    (path,) = out.rglob("*_results.json")
    return json.loads(path.read_text())


def check(*args: str, capsys) -> tuple[int, str]:
    status = main(["check", *args])
    captured = capsys.readouterr()
    return status, captured.out + captured.err


@pytest.mark.slow
def test_replies_all_unreadable_make_the_tasks_and_group_nan_and_check_fails(demo_root, tmp_path, capsys):
    out = tmp_path / "out"
    lmms_eval_logged(
        out,
        "--model",
        "chrono_constant",
        "--model_args",
        "answer=I cannot tell from these photos.",
        "--tasks",
        "chrono_demo",
        "--limit",
        "6",
        "--log_samples",
        data_root=demo_root,
    )
    results = results_of(out)["results"]
    for task in ("chrono_demo_period", "chrono_demo_pair", "chrono_demo"):
        assert math.isnan(results[task]["accuracy,none"]), task
        assert results[task]["parse_failure,none"] == 1.0, task
    status, text = check(str(out), "chrono_demo", capsys=capsys)
    assert status == 1
    assert "chrono_demo_period: parse_failure 1.00 > 0.50" in text and "chrono_demo_pair: parse_failure 1.00 > 0.50" in text
    assert "commonest unreadable reply (6 of 6): 'I cannot tell from these photos.'" in text
    assert check(str(out), "chrono_demo", "--max-failure", "1", capsys=capsys)[0] == 0  # the rule off


@pytest.mark.slow
def test_unreadable_replies_make_chronovision_s_and_s_release_nan(demo_root, tmp_path):
    """Every reply unreadable: each task's S term and the group's S are NaN, in both readings. The artifacts
    tasks have no release scorer (S_release uses our reading there), so their S_release terms fail with ours;
    before, they stood at 0.0 and 0.0417 and the group's S_release at 0.0833."""
    out = tmp_path / "out"
    lmms_eval_logged(
        out,
        "--model",
        "chrono_constant",
        "--model_args",
        "answer=I cannot tell from these photos.",
        "--tasks",
        "chronovision",
        "--limit",
        "6",
        data_root=demo_root,
    )
    results = results_of(out)["results"]
    terms = (
        "chronovision_artifacts_loc",
        "chronovision_artifacts_sort_intra",
        "chronovision_artifacts_sort_cross",
        "chronovision_shortcut",
        "chronovision_news_year",
        "chronovision_news_multimodal",
    )
    for task in terms:
        assert results[task]["parse_failure,none"] == 1.0, task
        assert math.isnan(results[task]["composite_S,none"]), task
    for task in terms[:3]:
        assert math.isnan(results[task]["composite_S_release,none"]), (task, results[task])
    assert math.isnan(results["chronovision"]["composite_S,none"])
    assert math.isnan(results["chronovision"]["composite_S_release,none"]), results["chronovision"]


def test_a_task_run_on_its_own_is_checked_too():
    """lmms-eval lists a task given alone in --tasks under group_subtasks with no subtasks."""
    from chronotasks.check import task_problems
    from chronotasks.reporting import RunResults

    results = {
        "results": {"musebench_vqa": {"alias": "musebench_vqa", "bertscore,none": 0.5, "image_failure,none": 0.75}},
        "group_subtasks": {"musebench_vqa": []},
        "n-samples": {"musebench_vqa": {"original": 4, "effective": 4}},
    }
    from chronotasks.check import _leaves

    assert _leaves("musebench_vqa", results["group_subtasks"]) == ["musebench_vqa"]
    (problem,) = task_problems(RunResults(Path("x_results.json"), results), ["musebench_vqa"], 0.5, [])
    assert problem.line() == "musebench_vqa: image_failure 0.75 > 0.50: a failed task, its figures are NaN"


@pytest.mark.slow
def test_a_healthy_run_passes_and_missing_tasks_are_named(chronovision_random_run, capsys):
    out, results = chronovision_random_run
    status, text = check(str(out), "chronovision", capsys=capsys)
    assert status == 0 and "OK: 7 task(s)" in text, text
    status, text = check(str(out), "chronovision,tabvlm_chrono", capsys=capsys)
    assert status == 1 and "tabvlm_chrono: no results" in text
    from chronotasks.check import task_problems
    from chronotasks.reporting import RunResults

    broken = copy.deepcopy(results)
    del broken["results"]["chronovision_shortcut"]
    broken["n-samples"]["chronovision_news_year"]["effective"] = 0
    problems = task_problems(
        RunResults(out / "x_results.json", broken),
        ["chronovision_shortcut", "chronovision_news_year", "chronovision_artifacts_loc"],
        0.5,
        [],
    )
    assert [p.line() for p in problems] == ["chronovision_shortcut: no results", "chronovision_news_year: no results"]


@pytest.mark.slow
def test_lmms_eval_exits_0_after_an_error_but_check_fails_with_the_real_error(demo_root, tmp_path, capsys):
    """A BERTScore model that does not exist makes MuseBench's aggregation fail, and missing data
    makes task loading fail: lmms-eval prints a traceback and exits 0 with no results; the check
    exits 1 with the error itself, not the RetryError that wraps it."""
    out = tmp_path / "bertscore"
    lmms_eval_logged(
        out,
        "--model",
        "chrono_constant",
        "--model_args",
        "answer=清代",
        "--tasks",
        "musebench_vqa",
        "--limit",
        "3",
        data_root=demo_root,
        env={"CHRONOTASKS_BERTSCORE_MODEL": str(tmp_path / "no-such-model")},
    )
    assert "Error during evaluation" in (out / "lmms_eval.log").read_text()
    status, text = check(str(out), "musebench_vqa", capsys=capsys)
    assert status == 1 and "no lmms-eval results" in text and "no-such-model" in text, text
    # a task whose data is missing: lmms-eval exits 0 with no results file; the log holds the DataError
    empty = tmp_path / "empty_root"
    empty.mkdir()
    broken = tmp_path / "broken"
    lmms_eval_logged(broken, "--model", "chrono_random", "--tasks", "tabvlm_style_period", data_root=empty)
    status, text = check(str(broken), "tabvlm_style_period", capsys=capsys)
    assert status == 1 and "no lmms-eval results" in text
    assert "DataError: no tabvlm data:" in text and "RetryError" not in text


@pytest.fixture(scope="module")
def tiny_sd(tmp_path_factory):
    sys.path.insert(0, str(REPO_ROOT / "tests" / "tempviz"))
    from tempviz_tiny import build_tiny_sd

    return build_tiny_sd(tmp_path_factory.mktemp("tiny_sd") / "sd")


@pytest.mark.slow
def test_a_judge_that_always_fails_is_not_a_score(tiny_sd, demo_root, tmp_path, capsys):
    """An API judge answering HTTP 500 to every call. Before: exit 0, acceptance 0 in the
    group row, `check` OK, `audit` 0% unreadable."""
    from openai_stub import OpenAIStub

    out = tmp_path / "out"
    with OpenAIStub(responder=lambda body: "Yes.", fail_every=1, fail_status=500) as stub:
        model_args = (
            f"pretrained={tiny_sd},num_inference_steps=2,height=64,width=64,seed=0,batch_size=1,"
            f"output_dir={tmp_path / 'images'},judge=vlm_direct,judge_model=stub-vlm,judge_base_url={stub.base_url},"
            f"judge_api_key=sk-test,judge_max_retries=1,judge_cache_dir={tmp_path / 'judge_cache'}"
        )
        lmms_eval_logged(
            out,
            "--model",
            "chrono_diffusers",
            "--model_args",
            model_args,
            "--tasks",
            "tempviz",
            "--limit",
            "2",
            "--log_samples",
            data_root=demo_root,
        )
    assert stub.statuses and set(stub.statuses) == {500}
    results = results_of(out)["results"]
    tasks = ("tempviz_landscapes", "tempviz_animals", "tempviz_buildings", "tempviz_maps", "tempviz_artworks")
    for task in (*tasks, "tempviz"):  # every task and the group row: NaN, with the failure rate beside
        assert results[task]["judge_failure,none"] == 1.0, (task, results[task])
        assert math.isnan(results[task]["acceptance,none"]) and math.isnan(results[task]["score,none"]), (task, results[task])
    status, text = check(str(out), "tempviz", capsys=capsys)
    assert status == 1
    for task in tasks:
        line = next(line for line in text.splitlines() if line.strip().startswith(f"{task}:"))
        assert "judge_failure 1.00 > 0.50" in line and "2 of 2 judgements failed" in line and "500" in line, line
    from chronotasks.audit import audit

    audited = audit(out)
    assert (audited["tempviz_animals"].samples, audited["tempviz_animals"].judge_failures) == (2, 2)
