"""ChronoVision's ``*_release`` metrics under the real lmms-eval launcher (demo data): both readings
reported by one run, checked against counts from the logged gold answers."""

from __future__ import annotations

import json
import math

import pytest

TASKS = ("chronovision_shortcut", "chronovision_shortcut_cot", "chronovision_news_multimodal", "chronovision_news_year")


@pytest.mark.slow
def test_a_hedging_model_is_read_differently(demo_root, lmms_eval_runner, tmp_path):
    """Every reply is {"answer": "1 or 2"}. A careful grader reads no answer. The plain shortcut
    script checks for a "1" first (right when image 1 is the earlier), the CoT script takes the first
    1 or 2 (the same here); the News-Multimodal script credits the reply when the gold digit appears
    in it (gold 1 or 2); no year is in it."""
    out = tmp_path / "hedge"
    results = lmms_eval_runner(
        "--model",
        "chrono_constant",
        "--model_args",
        'answer={"answer": "1 or 2"}',
        "--tasks",
        ",".join(TASKS),
        "--log_samples",
        data_root=demo_root,
        output_path=out,
    )["results"]
    samples = {
        path.stem.split("_samples_", 1)[1]: [json.loads(line) for line in path.read_text().splitlines()]
        for path in out.rglob("*_samples_*.jsonl")
    }
    for task in ("chronovision_shortcut", "chronovision_shortcut_cot"):
        rows = samples[task]
        for condition, metric in (("color", "ACC_B"), ("gray_earlier", "ACC_1"), ("gray_later", "ACC_2")):
            trials = [r for r in rows if r["ACC_B"]["condition"] == condition]
            right = sum(r["target"] == "1" for r in trials)
            assert 0 < right < len(trials)
            assert results[task][f"{metric}_release,none"] == pytest.approx(right / len(trials)), (task, metric)
            assert math.isnan(results[task][f"{metric},none"])  # ours: every reply unreadable, a failed task
        delta = results[task]["ACC_1_release,none"] - results[task]["ACC_2_release,none"]
        assert results[task]["delta_ACC_release,none"] == pytest.approx(delta)
        assert results[task]["parse_failure,none"] == 1.0
    rows = samples["chronovision_news_multimodal"]
    right = sum(r["target"] in ("1", "2") for r in rows)
    assert results["chronovision_news_multimodal"]["ACC_M_release,none"] == pytest.approx(right / len(rows))
    assert math.isnan(results["chronovision_news_multimodal"]["ACC_M,none"])
    year = results["chronovision_news_year"]
    assert year["ACC_Y_release,none"] == 0.0 and math.isnan(year["ACC_Y,none"])


@pytest.mark.slow
def test_group_reports_the_release_composite(chronovision_random_run):
    results = chronovision_random_run[1]["results"]
    shares = [results[t]["composite_S_release,none"] for t in results if t != "chronovision" and "composite_S_release,none" in results[t]]
    assert len(shares) == 6  # loc, two sort levels, shortcut, news year, news multimodal (not the CoT prompt)
    assert results["chronovision"]["composite_S_release,none"] == pytest.approx(sum(shares))
    # the random baseline's replies are clean: both readings agree on every task, so S_release = S
    assert results["chronovision"]["composite_S_release,none"] == pytest.approx(results["chronovision"]["composite_S,none"])
    for task, metric in (
        ("chronovision_shortcut", "ACC_B"),
        ("chronovision_news_multimodal", "ACC_M"),
        ("chronovision_news_year", "ACC_Y"),
        ("chronovision_news_year", "MAE"),
    ):
        assert results[task][f"{metric}_release,none"] == pytest.approx(results[task][f"{metric},none"]), (task, metric)
