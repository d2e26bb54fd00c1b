"""Uncertainty of a benchmark figure: bootstrap intervals over questions, paired comparisons of
two models on the same questions, and the spread between repeated runs.

Data layout. A *unit* is one question's per-sample results (a list of lmms-eval per-sample
dicts: one for a plain task, the N rotations for a circular task, the three trials of a
ChronoVision shortcut pair). A *run* is a list of *strata*, each a list of units in a fixed
question order (one stratum per task; a figure such as TAB-VLM's Overall spans six tasks).
Repeated runs of one model have the same questions in the same order.

A ``Statistic`` is a figure written as a function of per-stratum sums of per-question numbers:
``extract(unit)`` gives a question's k numbers (e.g. its number of right answers and of
answers), ``combine(totals)`` turns each stratum's summed numbers into the figure (e.g. their
ratio). Means, shares, ratios of means, Δ_ACC, recall@k, circular accuracy and composites of
them are all of this form, and resampling then needs only sums over resampled rows, vectorised
over all resamples.

- ``bootstrap_interval``: percentile bootstrap (``scipy.stats.bootstrap``, seeded): questions
  are resampled with replacement within each stratum; with repeated runs every run gets the
  same resampled questions and the figure is averaged over runs, so the interval reflects
  question sampling only.
- ``paired_difference``: figure(A) − figure(B) on the same questions; its interval resamples
  questions jointly for A and B (paired bootstrap); its p-value is a paired permutation test
  (``scipy.stats.permutation_test``, permutation_type="samples": under H0 the two models'
  results on a question are exchangeable, so each question's A and B results are swapped at
  random; exact when 2^questions <= resamples), two-sided.
- ``run_spread``: mean and sample standard deviation (ddof 1) of the figure over repeated
  runs; the standard deviation is undefined (NaN, shown "n/a") for a single run.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, cast

import numpy as np
from scipy import stats

from chronotasks.scoring.metrics import mean_std

Unit = Sequence[Any]
Strata = Sequence[Sequence[Unit]]

DEFAULT_CONFIDENCE = 0.95
DEFAULT_RESAMPLES = 2000
DEFAULT_SEED = 0
BATCH = 128


@dataclass(frozen=True)
class Statistic:
    """A figure from per-stratum sums: ``extract`` (one function, or one per stratum) maps a unit to
    its k numbers; ``combine`` maps the list of per-stratum totals, arrays of shape (..., k), to the
    figure, an array of shape (...)."""

    extract: Callable[[Unit], Sequence[float]] | Sequence[Callable[[Unit], Sequence[float]]]
    combine: Callable[[list[np.ndarray]], np.ndarray]

    def extractor(self, stratum: int) -> Callable[[Unit], Sequence[float]]:
        return self.extract if callable(self.extract) else self.extract[stratum]


def ratio(totals: list[np.ndarray]) -> np.ndarray:
    """Σ numerators / Σ denominators over all strata (columns 0 and 1): a pooled mean or share."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return cast(np.ndarray, sum(t[..., 0] for t in totals) / sum(t[..., 1] for t in totals))


def mean_of_ratios(totals: list[np.ndarray]) -> np.ndarray:
    """Unweighted mean over strata of each stratum's ratio (e.g. the mean of six task accuracies)."""
    with np.errstate(invalid="ignore", divide="ignore"):
        return sum(t[..., 0] / t[..., 1] for t in totals) / len(totals)


def _arrays(runs: Sequence[Strata], statistic: Statistic) -> list[np.ndarray]:
    """Per stratum: an array (runs, questions, k) of the extracted numbers."""
    if not runs:
        raise ValueError("no runs")
    sizes = [len(stratum) for stratum in runs[0]]
    for run in runs[1:]:
        if [len(stratum) for stratum in run] != sizes:
            raise ValueError(f"runs differ in questions per stratum: {sizes} vs {[len(s) for s in run]}")
    arrays = []
    for s, n in enumerate(sizes):
        extract = statistic.extractor(s)
        rows = [[list(map(float, extract(unit))) for unit in run[s]] for run in runs]
        k = len(rows[0][0]) if n else 0
        arrays.append(np.asarray(rows, dtype=float).reshape(len(runs), n, k))
    return arrays


def _figure(arrays: list[np.ndarray], statistic: Statistic, picks: Sequence[np.ndarray] | None = None) -> np.ndarray:
    """The figure averaged over runs; with ``picks`` (per stratum, shape (..., n) of question indices)
    one value per resample."""
    if picks is None:
        totals = [a.sum(axis=1) for a in arrays]  # (runs, k)
    else:
        totals = [np.moveaxis(a[:, p].sum(axis=-2), 0, -2) for a, p in zip(arrays, picks)]  # (..., runs, k)
    return np.asarray(statistic.combine(totals)).mean(axis=-1)


def figure_of(runs: Sequence[Strata], statistic: Statistic) -> float:
    """The figure, averaged over repeated runs."""
    return float(_figure(_arrays(runs, statistic), statistic))


def _percentile_bootstrap(
    sizes: list[int], value: Callable[..., np.ndarray], confidence: float, n_resamples: int, seed: int
) -> tuple[float, float]:
    if not sizes or any(n < 2 for n in sizes):
        return math.nan, math.nan

    def statistic(*idx: np.ndarray, axis: int = -1) -> np.ndarray:
        return value(*(np.asarray(i, dtype=int) for i in idx))

    with warnings.catch_warnings():  # all resamples equal (e.g. every answer right): the interval is that value
        warnings.simplefilter("ignore", stats.DegenerateDataWarning)
        result = stats.bootstrap(
            tuple(np.arange(n) for n in sizes),
            statistic,
            n_resamples=n_resamples,
            confidence_level=confidence,
            method="percentile",
            vectorized=True,
            paired=False,
            batch=BATCH,
            random_state=np.random.default_rng(seed),
        )
    return float(result.confidence_interval.low), float(result.confidence_interval.high)


def bootstrap_interval(
    runs: Sequence[Strata],
    statistic: Statistic,
    confidence: float = DEFAULT_CONFIDENCE,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> tuple[float, float]:
    """(low, high) of the figure over resampled questions; NaN when a stratum has fewer than 2 questions."""
    arrays = _arrays(runs, statistic)
    return _percentile_bootstrap(
        [a.shape[1] for a in arrays], lambda *picks: _figure(arrays, statistic, picks), confidence, n_resamples, seed
    )


@dataclass(frozen=True)
class Comparison:
    """figure(A) − figure(B) on the same questions, its interval and the paired permutation p-value."""

    difference: float
    low: float
    high: float
    p_value: float
    questions: int


def paired_difference(
    runs_a: Sequence[Strata],
    runs_b: Sequence[Strata],
    statistic: Statistic,
    confidence: float = DEFAULT_CONFIDENCE,
    n_resamples: int = DEFAULT_RESAMPLES,
    seed: int = DEFAULT_SEED,
) -> Comparison:
    """Compare two models on the same questions (unit j of a stratum is the same question in A and B).

    With the same number of runs on both sides a question's runs are swapped as a whole; with
    different numbers each side's per-question numbers are first averaged over its runs. The
    p-value is NaN for a single question.
    """
    a, b = _arrays(runs_a, statistic), _arrays(runs_b, statistic)
    sizes = [x.shape[1] for x in a]
    if [x.shape[1] for x in b] != sizes:
        raise ValueError(f"the two sides differ in questions per stratum: {sizes} vs {[x.shape[1] for x in b]}")
    difference = float(_figure(a, statistic) - _figure(b, statistic))
    low, high = _percentile_bootstrap(sizes, lambda *p: _figure(a, statistic, p) - _figure(b, statistic, p), confidence, n_resamples, seed)
    if len(runs_a) != len(runs_b):
        a, b = [x.mean(axis=0, keepdims=True) for x in a], [x.mean(axis=0, keepdims=True) for x in b]
    return Comparison(difference, low, high, _permutation_p(a, b, statistic, sizes, n_resamples, seed), sum(sizes))


def _permutation_p(a: list[np.ndarray], b: list[np.ndarray], statistic: Statistic, sizes: list[int], n_resamples: int, seed: int) -> float:
    total = sum(sizes)
    if total < 2:
        return math.nan
    bounds = np.cumsum([0, *sizes])

    def side(x: np.ndarray) -> np.ndarray:
        """The figure of the side holding positions ``x`` (shape (..., total)): at position k, x = k
        takes A's question k, x = k + total takes B's."""
        totals = []
        for s, (a_s, b_s) in enumerate(zip(a, b)):
            swapped = x[..., bounds[s] : bounds[s + 1]] >= total  # (..., n)
            chosen = np.where(swapped[..., None, :, None], b_s, a_s)  # (..., runs, n, k)
            totals.append(chosen.sum(axis=-2))
        return np.asarray(statistic.combine(totals)).mean(axis=-1)

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        result = stats.permutation_test(
            (np.arange(total), np.arange(total, 2 * total)),
            lambda x, y, axis=-1: side(np.asarray(x)) - side(np.asarray(y)),
            permutation_type="samples",
            vectorized=True,
            n_resamples=n_resamples,
            batch=BATCH,
            alternative="two-sided",
            random_state=np.random.default_rng(seed),
        )
    return float(result.pvalue)


def run_spread(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof 1) over the runs that have the figure (NaN values
    skipped); the deviation is NaN for fewer than two."""
    return mean_std([float(v) for v in values if not math.isnan(float(v))])


__all__ = [
    "Comparison",
    "DEFAULT_CONFIDENCE",
    "DEFAULT_RESAMPLES",
    "DEFAULT_SEED",
    "Statistic",
    "bootstrap_interval",
    "figure_of",
    "mean_of_ratios",
    "paired_difference",
    "ratio",
    "run_spread",
]
