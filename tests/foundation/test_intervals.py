"""Bootstrap intervals over questions, paired comparisons and run-to-run spread
(chronotasks/scoring/intervals.py), against hand-worked values and scipy itself."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from chronotasks.scoring import mean_std
from chronotasks.scoring.intervals import (
    Statistic,
    bootstrap_interval,
    figure_of,
    mean_of_ratios,
    paired_difference,
    ratio,
    run_spread,
)


def _units(values, key="accuracy"):
    return [[{key: float(v)}] for v in values]


def _right_and_asked(unit):
    return sum(s["accuracy"] for s in unit), len(unit)


mean_accuracy = Statistic(_right_and_asked, ratio)  # pooled over tasks
mean_of_task_means = Statistic(_right_and_asked, mean_of_ratios)  # TAB-VLM's Overall


def test_bootstrap_of_a_mean_is_scipys_percentile_bootstrap_of_the_values():
    values = [1] * 13 + [0] * 27
    low, high = bootstrap_interval([[_units(values)]], mean_accuracy, seed=0)
    ref = stats.bootstrap(
        (np.array(values, dtype=float),), np.mean, n_resamples=2000, method="percentile", random_state=np.random.default_rng(0)
    ).confidence_interval
    assert (low, high) == pytest.approx((ref.low, ref.high))
    assert low < 13 / 40 < high
    # seeded: the same call gives the same interval; another seed another one
    assert bootstrap_interval([[_units(values)]], mean_accuracy, seed=0) == (low, high)
    assert bootstrap_interval([[_units(values)]], mean_accuracy, confidence=0.5, seed=0)[0] > low


def test_bootstrap_degenerate_and_too_small_samples():
    assert bootstrap_interval([[_units([1, 1, 1, 1])]], mean_accuracy) == (1.0, 1.0)
    low, high = bootstrap_interval([[_units([1])]], mean_accuracy)
    assert math.isnan(low) and math.isnan(high)


def test_stratified_bootstrap_resamples_each_task_separately():
    # Task 1 always right, task 2 always wrong: every resample keeps mean of task means = 0.5,
    # whereas pooling the questions would move it.
    strata = [_units([1] * 10), _units([0] * 30)]
    assert bootstrap_interval([strata], mean_of_task_means) == (0.5, 0.5)
    assert figure_of([strata], mean_of_task_means) == 0.5
    pooled_low, pooled_high = bootstrap_interval([strata], mean_accuracy)
    assert pooled_low == pooled_high == 0.25


def test_repeated_runs_share_the_resampled_questions():
    values = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1]
    one = bootstrap_interval([[_units(values)]], mean_accuracy)
    assert bootstrap_interval([[_units(values)], [_units(values)]], mean_accuracy) == pytest.approx(one)
    # two runs whose answers differ on every question: each resample averages to exactly 0.5
    flipped = [1 - v for v in values]
    assert bootstrap_interval([[_units(values)], [_units(flipped)]], mean_accuracy) == (0.5, 0.5)
    assert figure_of([[_units(values)], [_units(flipped)]], mean_accuracy) == 0.5


def test_paired_permutation_p_values_worked_by_hand():
    # A right on all 4 questions, B wrong on all: of the 2^4 swaps only "none" and "all" give
    # |difference| >= 1, so p = 2/16.
    result = paired_difference([[_units([1, 1, 1, 1])]], [[_units([0, 0, 0, 0])]], mean_accuracy)
    assert result.difference == 1.0 and result.p_value == pytest.approx(2 / 16) and result.questions == 4
    assert (result.low, result.high) == (1.0, 1.0)
    # A = 1110, B = 0010: two discordant questions, difference 0.5; swaps give +0.5, 0, 0, -0.5:
    # two-sided p = 2 * P(T >= 0.5) = 2 * 1/4 = 0.5 (McNemar's exact test on 2 discordant pairs).
    result = paired_difference([[_units([1, 1, 1, 0])]], [[_units([0, 0, 1, 0])]], mean_accuracy)
    assert result.difference == 0.5 and result.p_value == pytest.approx(0.5)
    # identical runs: difference 0, interval [0, 0], p = 1
    same = paired_difference([[_units([1, 0, 1])]], [[_units([1, 0, 1])]], mean_accuracy)
    assert (same.difference, same.low, same.high, same.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_paired_difference_interval_is_the_bootstrap_of_per_question_differences():
    rng = np.random.default_rng(5)
    a, b = rng.integers(0, 2, 80), rng.integers(0, 2, 80)
    result = paired_difference([[_units(a)]], [[_units(b)]], mean_accuracy, seed=3)
    ref = stats.bootstrap(
        ((a - b).astype(float),), np.mean, n_resamples=2000, method="percentile", random_state=np.random.default_rng(3)
    ).confidence_interval
    assert result.difference == pytest.approx(np.mean(a) - np.mean(b))
    assert (result.low, result.high) == pytest.approx((ref.low, ref.high))
    # the permutation p-value of a mean difference is the sign-flip test on the per-question differences
    flip = stats.permutation_test(
        ((a - b).astype(float),), np.mean, permutation_type="samples", n_resamples=2000, random_state=np.random.default_rng(3)
    )
    assert 0 < result.p_value <= 1 and result.p_value == pytest.approx(flip.pvalue, abs=0.05)


def test_paired_difference_needs_the_same_questions():
    with pytest.raises(ValueError, match="differ in questions"):
        paired_difference([[_units([1, 0])]], [[_units([1, 0, 1])]], mean_accuracy)
    # two runs against one: for the permutation test A's per-question results are averaged over its runs,
    # A = (1, .5, 1) vs B = (0, 0, 1): differences 1, .5, 0; the 8 swap patterns give T = (±1 ± .5) / 3,
    # i.e. .5, 1/6, -1/6, -.5 twice each; observed .5: p = 2 * P(T >= .5) = 2 * 2/8 = .5
    unequal = paired_difference([[_units([1, 0, 1])], [_units([1, 1, 1])]], [[_units([0, 0, 1])]], mean_accuracy)
    assert unequal.difference == pytest.approx(5 / 6 - 1 / 3) and unequal.p_value == pytest.approx(0.5)


def test_run_spread_is_undefined_for_one_run():
    assert run_spread([0.5, 0.7]) == pytest.approx((0.6, math.sqrt(0.02)))
    mean, sd = run_spread([0.5])
    assert mean == 0.5 and math.isnan(sd)
    assert run_spread([0.5, math.nan, 0.7]) == pytest.approx((0.6, math.sqrt(0.02)))
    assert math.isnan(mean_std([3.0])[1]) and mean_std([3.0])[0] == 3.0
