"""tabvlm_chrono_release under the real lmms-eval launcher, on demo data cut to unequal task sizes,
so that the group figures (weighted by each task's number of questions) can be checked against a
hand count from the logged samples; lmms-eval takes a task's size from its last metric, which would
be wrong if any metric had fewer values than questions."""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

SIZES = {"style_period": 40, "sequence": 7, "technique": 13, "material": 21, "grouping": 5, "odd_one_out": 30}
TASKS = {f"tabvlm_{name}_release": count for name, count in SIZES.items()}


@pytest.fixture(scope="module")
def unequal_data(demo_root, tmp_path_factory) -> Path:
    """The demo TAB-VLM records, each task cut to its SIZES count."""
    root = tmp_path_factory.mktemp("tabvlm_release_data")
    shutil.copytree(demo_root / "tabvlm" / "images", root / "tabvlm" / "images")
    for name, count in SIZES.items():
        lines = (demo_root / "tabvlm" / f"{name}.jsonl").read_text(encoding="utf-8").splitlines()
        assert len(lines) >= count
        (root / "tabvlm" / f"{name}.jsonl").write_text("\n".join(lines[:count]) + "\n", encoding="utf-8")
    return root


def _run(runner, data_root: Path, out: Path, *model: str) -> tuple[dict, dict[str, list[dict]]]:
    results = runner(*model, "--tasks", "tabvlm_chrono_release", "--log_samples", data_root=data_root, output_path=out)
    samples = {}
    for path in out.rglob("*_samples_*.jsonl"):
        samples[path.stem.split("_samples_", 1)[1]] = [json.loads(line) for line in path.read_text().splitlines()]
    assert {task: results["n-samples"][task]["effective"] for task in TASKS} == TASKS
    return results["results"], samples


@pytest.mark.slow
def test_random_baseline_group_figures_match_a_hand_count(unequal_data, lmms_eval_runner, tmp_path):
    results, samples = _run(lmms_eval_runner, unequal_data, tmp_path / "random", "--model", "chrono_random", "--model_args", "seed=3")
    assert {task: len(rows) for task, rows in samples.items()} == TASKS
    for task, rows in samples.items():
        # clean numbered replies: the two readings agree on every sample
        assert all(r["accuracy_release"] == r["accuracy"] and r["parse_failure"] == 0.0 for r in rows), task
        assert all(r["filtered_resps"].replace(",", "").replace(" ", "").isdigit() or r["filtered_resps"] == "None" for r in rows), (
            task
        )  # chrono_random answers in numbers
        assert results[task]["accuracy_release,none"] == pytest.approx(sum(r["accuracy"] for r in rows) / len(rows))
    correct = sum(r["accuracy"] for rows in samples.values() for r in rows)
    group = results["tabvlm_chrono_release"]
    assert sum(SIZES.values()) == 116
    # weighted by the number of questions (the unweighted mean of the six would differ with these sizes)
    assert group["accuracy,none"] == pytest.approx(correct / 116)  # share of all questions answered right
    assert group["accuracy_release,none"] == pytest.approx(correct / 116)
    unweighted = sum(results[task]["accuracy,none"] for task in TASKS) / 6
    assert abs(unweighted - correct / 116) > 0.005  # so the check above tells the two weightings apart
    assert group["dropped_release,none"] == 0.0 and group["parse_failure,none"] == 0.0


@pytest.mark.slow
def test_a_hedging_model_is_read_differently(unequal_data, lmms_eval_runner, tmp_path):
    """Every reply is "1 or 3". A careful grader reads no answer; the release reads option 1 where one
    number is asked (style-period, odd-one-out), the set {1, 3} for technique and material, and
    nothing for the sequence and the grouping (fewer digits than they need)."""
    results, samples = _run(
        lmms_eval_runner, unequal_data, tmp_path / "hedge", "--model", "chrono_constant", "--model_args", "answer=1 or 3"
    )
    # the gold answers as logged (doc_to_target: "C", "A, C", "B, D, A, C")
    expected = {
        "tabvlm_style_period_release": lambda gold: gold == "A",
        "tabvlm_odd_one_out_release": lambda gold: gold == "A",
        "tabvlm_technique_release": lambda gold: gold == "A, C",
        "tabvlm_material_release": lambda gold: gold == "A, C",
        "tabvlm_sequence_release": lambda gold: False,
        "tabvlm_grouping_release": lambda gold: False,
    }
    answered_right = 0
    for task, rows in samples.items():
        right = sum(expected[task](r["target"]) for r in rows)  # counted from the gold answers
        answered_right += right
        assert results[task]["accuracy_release,none"] == pytest.approx(right / len(rows)), task
        # every reply unreadable to us: a failed task (NaN, docs/architecture.md, "Failures"), not a score of 0
        assert math.isnan(results[task]["accuracy,none"]) and results[task]["parse_failure,none"] == 1.0
    assert answered_right > 0
    assert results["tabvlm_chrono_release"]["accuracy_release,none"] == pytest.approx(answered_right / 116)
