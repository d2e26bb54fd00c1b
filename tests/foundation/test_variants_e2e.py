"""The circular and grayscale variant groups under the real lmms-eval launcher on demo data, with
the baselines, against their closed forms:

- ``chrono_random`` answers each rotation independently and uniformly: plain accuracy 1/N and
  circular accuracy (1/N)^N, both within binomial sampling error;
- a constant-letter model is right on exactly one rotation of every question: plain accuracy
  exactly 1/N, circular accuracy exactly 0, choice rate 1 for its letter, position bias 1 - 1/N;
- the grayscale prior (less colourful image = older) sees no colour difference once both images
  are gray: every pair is a tie and it answers exactly as ``chrono_random`` with the same seed;

and `chronotasks report` on the runs.
"""

from __future__ import annotations

import json
import math
from collections import defaultdict
from pathlib import Path

import pytest
from scipy.stats import binomtest

CIRCULAR = {
    "chrono_demo_period_circular": 4,
    "tabvlm_style_period_circular": 4,
    "tabvlm_odd_one_out_circular": 4,
    "chronovision_artifacts_loc_circular": 5,
}
TASKS = "chrono_demo,chrono_demo_gray,chrono_demo_circular,tabvlm_chrono_circular,chronovision_circular"


def _run(runner, demo_root, out: Path, *args: str) -> tuple[dict, dict[str, list[dict]]]:
    results = runner(*args, "--log_samples", data_root=demo_root, output_path=out)
    samples = {}
    for path in out.rglob("*_samples_*.jsonl"):
        task = path.stem.split("_samples_", 1)[1]
        samples[task] = [json.loads(line) for line in path.read_text().splitlines()]
    return results, samples


@pytest.fixture(scope="module")
def random_run(demo_root, lmms_eval_runner, tmp_path_factory):
    out = tmp_path_factory.mktemp("variants") / "random"
    return (out, *_run(lmms_eval_runner, demo_root, out, "--model", "chrono_random", "--tasks", TASKS))


@pytest.fixture(scope="module")
def constant_run(demo_root, lmms_eval_runner, tmp_path_factory):
    out = tmp_path_factory.mktemp("variants") / "constant"
    return (out, *_run(lmms_eval_runner, demo_root, out, "--model", "chrono_constant", "--model_args", "answer=A", "--tasks", TASKS))


def _questions(samples: list[dict]) -> dict[str, list[dict]]:
    groups = defaultdict(list)
    for sample in samples:
        groups[sample["circular_accuracy"]["question"]].append(sample)
    return groups


@pytest.mark.slow
def test_random_baseline_circular_accuracy_is_one_over_n_to_the_n(random_run):
    _, results, samples = random_run
    for task, n in CIRCULAR.items():
        r = results["results"][task]
        questions = _questions(samples[task])
        q = len(questions)
        assert all(len(rot) == n for rot in questions.values()) and len(samples[task]) == n * q
        # counted from the logged replies by hand: a question counts when all n rotations are right
        all_right = sum(all(s["accuracy"] == 1.0 for s in rot) for rot in questions.values())
        assert r["circular_accuracy,none"] == pytest.approx(all_right / q)
        right = sum(s["accuracy"] for s in samples[task])
        assert r["accuracy,none"] == pytest.approx(right / (n * q))
        assert binomtest(int(right), n * q, 1 / n).pvalue > 1e-3, (task, right, n * q)
        assert binomtest(all_right, q, (1 / n) ** n).pvalue > 1e-3, (task, all_right, q)
        rates = [r[f"choice_rate_{ch},none"] for ch in "ABCDE"[:n]]
        assert sum(rates) == pytest.approx(1.0) and r["parse_failure,none"] == 0.0
        assert r["position_bias,none"] < 0.2  # uniform choices: far from a fixed letter's 1 - 1/n
    group = results["results"]["tabvlm_chrono_circular"]["circular_accuracy,none"]
    assert group == pytest.approx(
        (
            results["results"]["tabvlm_style_period_circular"]["circular_accuracy,none"]
            + results["results"]["tabvlm_odd_one_out_circular"]["circular_accuracy,none"]
        )
        / 2
    )


@pytest.mark.slow
def test_constant_letter_model_scores_zero_circular(constant_run):
    _, results, _ = constant_run
    for task, n in CIRCULAR.items():
        r = results["results"][task]
        assert r["circular_accuracy,none"] == 0.0
        assert r["accuracy,none"] == pytest.approx(1 / n)  # the gold is at A in exactly one rotation of n
        assert r["choice_rate_A,none"] == 1.0 and r["choice_rate_B,none"] == 0.0
        assert r["position_bias,none"] == pytest.approx(1 - 1 / n)


@pytest.mark.slow
def test_grayscale_prior_loses_its_cue_on_gray_images(random_run, demo_root, lmms_eval_runner, tmp_path):
    prior, prior_samples = _run(
        lmms_eval_runner,
        demo_root,
        tmp_path / "prior",
        "--model",
        "chrono_grayscale_prior",
        "--tasks",
        "chrono_demo_pair,chrono_demo_pair_gray",
    )
    # in colour the demo draws the earlier image gray in 34 of 40 pairs, and the prior is right on those
    assert prior["results"]["chrono_demo_pair"]["accuracy,none"] == pytest.approx(34 / 40)
    _, random, random_samples = random_run
    gray = sorted(prior_samples["chrono_demo_pair_gray"], key=lambda s: s["doc_id"])
    assert [s["filtered_resps"] for s in gray] == [
        s["filtered_resps"] for s in sorted(random_samples["chrono_demo_pair_gray"], key=lambda s: s["doc_id"])
    ]
    assert prior["results"]["chrono_demo_pair_gray"]["accuracy,none"] == random["results"]["chrono_demo_pair_gray"]["accuracy,none"]


@pytest.mark.slow
def test_suite_report_of_real_runs(random_run, constant_run, tmp_path):
    """`chronotasks report` on the two real runs: lmms-eval's numbers, intervals from the logged samples, the
    circular, grayscale and comparison tables, and the plots."""
    from report_page import interval, row, table

    from chronotasks.cli import main

    (random_out, random, _), (constant_out, constant, _) = random_run, constant_run
    out = tmp_path / "report"
    assert main(["report", str(random_out), str(constant_out), "--out", str(out)]) == 0
    page = (out / "report.md").read_text()
    assert "## Notes" not in page  # every figure reproduced from the samples
    # the runs read demo data: their samples log the records' data_origin, and the page says so first
    assert page.startswith(
        "# chronotasks report (synthetic demo data — these numbers say nothing about any model)\n\n"
        "**Synthetic demo data — these numbers say nothing about any model.** Every run on this page"
    )
    demo = table(page, "Demo tasks")
    # "A" is no answer to the pair questions ("1" or "2"): every reply unreadable, a failed task, marked
    for label, run in (("chrono_random", random), ("⚠ chrono_constant (answer=A)", constant)):
        value, low, high = interval(row(demo, label)[1])
        assert value == round(run["results"]["chrono_demo_period"]["accuracy,none"] * 100, 1) and low <= value <= high
    assert row(demo, "⚠ chrono_constant (answer=A)")[-1] == "FAILED: chrono_demo_pair: unreadable replies 100% (40/40)"
    assert "- chrono_constant (answer=A): chrono_demo_pair: unreadable replies 100% (40/40)" in page.split("## Runs")[0]
    circular = row(table(page, "CircularEval"), "chrono_constant (answer=A)", "chronovision_artifacts_loc_circular")
    assert circular[2].startswith("20.0 [20.0, 20.0]") and circular[3].startswith("0.0 [0.0, 0.0]")
    assert circular[4] == "80.0 (n=30)" and circular[5].startswith("100.0")  # position bias of the 30 demo questions
    gray = table(page, "Colour vs grayscale")
    assert {tuple(r[:2]) for r in gray} >= {("chrono_random", "chrono_demo_pair"), ("chrono_random", "chrono_demo_period")}
    comparison = row(
        table(page, "Paired differences"), "chrono_constant (answer=A)", "circular", "chrono_demo_period_circular", "plain accuracy"
    )[4]
    expected = (
        constant["results"]["chrono_demo_period_circular"]["accuracy,none"]
        - random["results"]["chrono_demo_period_circular"]["accuracy,none"]
    ) * 100
    assert math.isclose(float(comparison.split(" [")[0]), round(expected, 1), abs_tol=0.051)
    for name in ("circular_vs_plain.png", "grayscale_delta.png"):
        assert (out / name).read_bytes().startswith(b"\x89PNG")
