"""Uncertainty of a benchmark figure: bootstrap intervals over questions, paired comparisons of
two models on the same questions, and the spread between repeated runs.

Data layout. A *unit* is one question's per-sample results (a list of lmms-eval per-sample
dicts: one for a plain task, the N rotations for a circular task). A *run* is a list of
*strata*, each a list of units in a fixed question order (one stratum per task; a figure such
as TAB-VLM's Overall spans six tasks). A *figure* maps a run's strata to a number (e.g. the
mean of ``accuracy``, ChronoVision's Δ_ACC, circular accuracy). Repeated runs of one model have
the same questions in the same order.

- ``bootstrap_interval``: percentile bootstrap (``scipy.stats.bootstrap``, seeded): questions
  are resampled with replacement within each stratum; with repeated runs every run gets the
  same resampled questions and the figure is averaged over runs, so the interval reflects
  question sampling only.
- ``paired_difference``: figure(A) − figure(B) on the same questions; its interval resamples
  questions jointly for A and B (paired bootstrap); its p-value is a paired permutation test
  (``scipy.stats.permutation_test``, permutation_type="samples": under H0 the two models'
  results on a question are exchangeable, so each question's A and B results are swapped at
  random), two-sided.
- ``run_spread``: mean and sample standard deviation (ddof 1) of the figure over repeated
  runs; the standard deviation is undefined (NaN, shown "n/a") for a single run.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats

from chronotasks.scoring.metrics import mean_std

Unit = Sequence[Any]
Strata = Sequence[Sequence[Unit]]
Figure = Callable[[Strata], float]

DEFAULT_CONFIDENCE = 0.95
DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 0


def _sizes(runs: Sequence[Strata]) -> list[int]:
    if not runs:
        raise ValueError("no runs")
    sizes = [len(stratum) for stratum in runs[0]]
    for run in runs[1:]:
        if [len(stratum) for stratum in run] != sizes:
            raise ValueError(f"runs differ in questions per stratum: {sizes} vs {[len(s) for s in run]}")
    return sizes


def _mean_figure(runs: Sequence[Strata], figure: Figure, picks: Sequence[np.ndarray] | None = None) -> float:
    values = []
    for run in runs:
        strata = run if picks is None else [[stratum[j] for j in pick] for stratum, pick in zip(run, picks)]
        values.append(figure(strata))
    return float(np.mean(values))


def figure_of(runs: Sequence[Strata], figure: Figure) -> float:
    """The figure, averaged over repeated runs."""
    return _mean_figure(runs, figure)


def _percentile_bootstrap(sizes: list[int], statistic: Callable[..., float], confidence: float, n_resamples: int,
                          seed: int) -> tuple[float, float]:
    if not sizes or any(n < 2 for n in sizes):
        return math.nan, math.nan
    data = tuple(np.arange(n) for n in sizes)
    result = stats.bootstrap(data, lambda *idx: statistic(*(np.asarray(i, dtype=int) for i in idx)),
                             n_resamples=n_resamples, confidence_level=confidence, method="percentile",
                             vectorized=False, paired=False, batch=256, random_state=np.random.default_rng(seed))
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def bootstrap_interval(runs: Sequence[Strata], figure: Figure, confidence: float = DEFAULT_CONFIDENCE,
                       n_resamples: int = DEFAULT_RESAMPLES, seed: int = DEFAULT_SEED) -> tuple[float, float]:
    """(low, high) of the figure over resampled questions; NaN when a stratum has fewer than 2 questions."""
    sizes = _sizes(runs)
    return _percentile_bootstrap(sizes, lambda *picks: _mean_figure(runs, figure, picks), confidence, n_resamples, seed)


@dataclass(frozen=True)
class Comparison:
    """figure(A) − figure(B) on the same questions, its interval and the paired permutation p-value."""

    difference: float
    low: float
    high: float
    p_value: float
    questions: int


def paired_difference(runs_a: Sequence[Strata], runs_b: Sequence[Strata], figure: Figure,
                      confidence: float = DEFAULT_CONFIDENCE, n_resamples: int = DEFAULT_RESAMPLES,
                      seed: int = DEFAULT_SEED) -> Comparison:
    """Compare two models on the same questions (unit j of a stratum is the same question in A and B).

    The p-value needs the same number of runs on both sides (a question's runs are swapped as a
    whole); it is NaN otherwise, and when there is only one question.
    """
    sizes = _sizes(runs_a)
    if _sizes(runs_b) != sizes:
        raise ValueError(f"the two sides differ in questions per stratum: {sizes} vs {_sizes(runs_b)}")
    difference = _mean_figure(runs_a, figure) - _mean_figure(runs_b, figure)
    low, high = _percentile_bootstrap(
        sizes, lambda *picks: _mean_figure(runs_a, figure, picks) - _mean_figure(runs_b, figure, picks),
        confidence, n_resamples, seed)
    return Comparison(difference, low, high, _permutation_p(runs_a, runs_b, figure, sizes, n_resamples, seed), sum(sizes))


def _permutation_p(runs_a: Sequence[Strata], runs_b: Sequence[Strata], figure: Figure, sizes: list[int],
                   n_resamples: int, seed: int) -> float:
    total = sum(sizes)
    if len(runs_a) != len(runs_b) or total < 2:
        return math.nan
    # pooled[k] = the runs' units of question k (positions 0..total-1: side A, total..2*total-1: side B)
    pooled = [tuple(run[s][j] for run in side) for side in (runs_a, runs_b) for s, n in enumerate(sizes) for j in range(n)]
    bounds = np.cumsum([0, *sizes])

    def side_figure(positions: np.ndarray) -> float:
        units = [pooled[int(k)] for k in positions]
        return float(np.mean([figure([[units[k][r] for k in range(bounds[s], bounds[s + 1])] for s in range(len(sizes))])
                              for r in range(len(runs_a))]))

    result = stats.permutation_test((np.arange(total), np.arange(total, 2 * total)),
                                    lambda x, y: side_figure(x) - side_figure(y), permutation_type="samples",
                                    vectorized=False, n_resamples=n_resamples, alternative="two-sided",
                                    random_state=np.random.default_rng(seed))
    return float(result.pvalue)


def run_spread(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof 1) over the runs that have the figure (NaN values
    skipped); the deviation is NaN for fewer than two."""
    return mean_std([float(v) for v in values if not math.isnan(float(v))])


__all__ = ["Comparison", "DEFAULT_CONFIDENCE", "DEFAULT_RESAMPLES", "DEFAULT_SEED", "bootstrap_interval", "figure_of",
           "paired_difference", "run_spread"]
