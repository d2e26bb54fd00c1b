"""The circular and grayscale variant groups under the real lmms-eval launcher on demo data, with
the baselines, against their closed forms:

- ``chrono_random`` answers each rotation independently and uniformly: plain accuracy 1/N and
  circular accuracy (1/N)^N, both within binomial sampling error;
- a constant-letter model is right on exactly one rotation of every question: plain accuracy
  exactly 1/N, circular accuracy exactly 0, choice rate 1 for its letter, position bias 1 - 1/N;
- the grayscale prior (less colourful image = older) sees no colour difference once both images
  are gray: every pair is a tie and it answers exactly as ``chrono_random`` with the same seed.
"""

from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest
from scipy.stats import binomtest


CIRCULAR = {"chrono_demo_period_circular": 4, "tabvlm_style_period_circular": 4, "tabvlm_odd_one_out_circular": 4,
            "chronovision_artifacts_loc_circular": 5}
GROUPS = "chrono_demo_circular,tabvlm_chrono_circular,chronovision_circular"


@pytest.fixture
def run(demo_root, lmms_eval_runner):
    return lambda out, *args: _run(lmms_eval_runner, demo_root, out, *args)


def _run(runner, demo_root, out: Path, *args: str) -> tuple[dict, dict[str, list[dict]]]:
    results = runner(*args, "--log_samples", data_root=demo_root, output_path=out)
    samples = {}
    for path in out.rglob("*_samples_*.jsonl"):
        task = path.stem.split("_samples_", 1)[1]
        samples[task] = [json.loads(line) for line in path.read_text().splitlines()]
    return results, samples


def _questions(samples: list[dict]) -> dict[str, list[dict]]:
    groups = defaultdict(list)
    for sample in samples:
        groups[sample["circular_accuracy"]["question"]].append(sample)
    return groups


@pytest.mark.slow
def test_random_baseline_circular_accuracy_is_one_over_n_to_the_n(run, tmp_path):
    results, samples = run(tmp_path / "random", "--model", "chrono_random", "--tasks", GROUPS)
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
        assert r["position_bias,none"] < 0.2      # uniform choices: far from a fixed letter's 1 - 1/n
    group = results["results"]["tabvlm_chrono_circular"]["circular_accuracy,none"]
    assert group == pytest.approx((results["results"]["tabvlm_style_period_circular"]["circular_accuracy,none"]
                                   + results["results"]["tabvlm_odd_one_out_circular"]["circular_accuracy,none"]) / 2)


@pytest.mark.slow
def test_constant_letter_model_scores_zero_circular(run, tmp_path):
    results, _ = run(tmp_path / "constant", "--model", "chrono_constant", "--model_args", "answer=A",
                      "--tasks", GROUPS)
    for task, n in CIRCULAR.items():
        r = results["results"][task]
        assert r["circular_accuracy,none"] == 0.0
        assert r["accuracy,none"] == pytest.approx(1 / n)       # the gold is at A in exactly one rotation of n
        assert r["choice_rate_A,none"] == 1.0 and r["choice_rate_B,none"] == 0.0
        assert r["position_bias,none"] == pytest.approx(1 - 1 / n)


@pytest.mark.slow
def test_grayscale_prior_loses_its_cue_on_gray_images(run, tmp_path):
    prior, prior_samples = run(tmp_path / "prior", "--model", "chrono_grayscale_prior",
                                "--tasks", "chrono_demo_pair,chrono_demo_pair_gray")
    # in colour the demo draws the earlier image gray in 34 of 40 pairs, and the prior is right on those
    assert prior["results"]["chrono_demo_pair"]["accuracy,none"] == pytest.approx(34 / 40)
    random, random_samples = run(tmp_path / "random", "--model", "chrono_random", "--tasks", "chrono_demo_pair_gray")
    gray = sorted(prior_samples["chrono_demo_pair_gray"], key=lambda s: s["doc_id"])
    assert [s["filtered_resps"] for s in gray] == [s["filtered_resps"] for s in
                                                   sorted(random_samples["chrono_demo_pair_gray"], key=lambda s: s["doc_id"])]
    assert prior["results"]["chrono_demo_pair_gray"]["accuracy,none"] == random["results"]["chrono_demo_pair_gray"]["accuracy,none"]
