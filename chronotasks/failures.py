"""When a task's figures are not a result: the failure metrics and the threshold.

Every task counts, per sample, the ways a sample can fail without being the model's fault or
choice: ``parse_failure`` (the reply could not be read), ``image_failure`` (an image could not be
opened), ``judge_failure`` (a TempViz judgement failed), and for TempViz also
``judge_parse_failure`` (the judge's reply could not be read) and ``generation_failure`` (the
reply held no usable image). A task whose samples failed at more than the threshold rate on any
of them is a *failed task*: its figures are NaN, shown with the failure rate beside them, never a
score of 0 (see docs/architecture.md, "Failures"); a group with a failed task has NaN figures too (lmms-eval's
group means carry the NaN). ``chronotasks check RUN_DIR`` exits non-zero naming every failed task.

The threshold is a share of samples, 0.5 by default (more than half the samples failed), set with
``$CHRONOTASKS_MAX_FAILURE`` (a number in [0, 1]; 1 turns the rule off) or, for ``chronotasks
check``, ``--max-failure``.

How the aggregations know. lmms-eval hands an aggregation the per-sample values of one metric
only. So ``mark_failures`` (applied to every ``process_results`` output by
``chronotasks.data.loading.scores_image_failures``) marks each score of a failed sample: a number
becomes a ``FailedScore`` (a float equal to the score it had, 0 for a wrong answer, that also
names the failure; sample logs show the plain number), an item dict gets ``"failed": <metric>``.
``unless_failed(aggregation)`` returns NaN when the marked share of its items is over the
threshold, else the aggregation's own value. ``mean_unless_failed`` is lmms-eval's ``mean`` so
guarded; task YAMLs name it for their scores (lmms-eval computes a standard error only for its own
``mean``, so those rows show ``N/A`` there; ``chronotasks report`` gives bootstrap intervals).

What readers of a results file use: ``task_failure_rates(result)`` and ``failed_metrics(rates)``.
"""

from __future__ import annotations

import functools
import math
import os
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

FAILURE_METRICS = ("parse_failure", "image_failure", "judge_failure", "judge_parse_failure", "generation_failure")
MAX_FAILURE_ENV = "CHRONOTASKS_MAX_FAILURE"
DEFAULT_MAX_FAILURE = 0.5


def max_failure_rate() -> float:
    """The threshold: ``$CHRONOTASKS_MAX_FAILURE`` or 0.5; a value that is not a share is an error."""
    raw = os.environ.get(MAX_FAILURE_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_FAILURE
    try:
        value = float(raw)
    except ValueError:
        value = float("nan")
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"${MAX_FAILURE_ENV}={raw!r}: expected a share of samples between 0 and 1 (default {DEFAULT_MAX_FAILURE})")
    return value


def failed_metrics(rates: dict[str, float], threshold: float | None = None) -> list[str]:
    """The failure metrics of ``rates`` ({metric: share of samples}) over the threshold, in
    FAILURE_METRICS order; empty when the task's figures stand."""
    limit = max_failure_rate() if threshold is None else threshold
    return [name for name in FAILURE_METRICS if _number(rates.get(name)) is not None and rates[name] > limit]


def _number(value: Any) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value) else None


# -- per sample: scores of a failed sample are marked -------------------------------------------
class FailedScore(float):
    """The score of a sample that failed: the number it is scored with (0 for a wrong answer) that
    also names the failure metric (``cause``). It is that number in every sum and in the logs."""

    cause: str

    def __new__(cls, value: float, cause: str) -> FailedScore:
        score = super().__new__(cls, value)
        score.cause = cause
        return score

    def __reduce__(self):  # pickled as itself (lmms-eval gathers per-sample values across processes)
        return FailedScore, (float(self), self.cause)

    def __repr__(self) -> str:
        return float.__repr__(self)


def failure_of(result: Mapping[str, Any]) -> str | None:
    """The first failure metric set (1.0) in one sample's ``process_results`` output, or None."""
    for name in FAILURE_METRICS:
        value = result.get(name)  # (NaN >= 0.5 is False; True is no rate)
        if value and value.__class__ is not bool and isinstance(value, (int, float)) and value >= 0.5:
            return name
    return None


RELEASE_SUFFIX = "_release"
"""Metrics named ``*_release`` are the release code's reading of the same reply (docs/architecture.md, "Reading
replies"). ``parse_failure`` says *our* reading found no answer; the release code has its own rule
for such replies (it reads something, or leaves the reply out of its denominator), so a parse
failure does not mark them. Image, judge and generation failures mark them like every score."""


def mark_failures(result: dict[str, Any]) -> dict[str, Any]:
    """One sample's ``process_results`` output with every score of a failed sample marked
    (numbers as ``FailedScore``, item dicts with ``"failed"``; one copy per shared item); the
    failure metrics themselves, text and None are left as they are, and so are the release
    readings (``*_release``) when the failure is our parse failure (``RELEASE_SUFFIX``)."""
    cause = failure_of(result)
    if cause is None:
        return result
    copies: dict[int, dict[str, Any]] = {}
    marked: dict[str, Any] = {}
    for key, value in result.items():
        if key in FAILURE_METRICS or isinstance(value, bool) or (cause == "parse_failure" and key.endswith(RELEASE_SUFFIX)):
            marked[key] = value
        elif isinstance(value, (int, float)):
            marked[key] = FailedScore(value, cause)
        elif isinstance(value, dict):
            marked[key] = copies.setdefault(id(value), {**value, "failed": cause})
        else:
            marked[key] = value
    return marked


def _cause(item: Any) -> str | None:
    if isinstance(item, FailedScore):
        return item.cause
    if isinstance(item, Mapping):
        cause = item.get("failed")
        return cause if isinstance(cause, str) else None
    return None


def item_failure_rates(items: Iterable[Any]) -> dict[str, float]:
    """{failure metric: share of ``items`` marked with it} (only the metrics that occur)."""
    items = list(items)
    counts = Counter(cause for cause in map(_cause, items) if cause)
    return {name: count / len(items) for name, count in counts.items()}


# -- per task: an aggregation that says "not a result" ---------------------------------------------
def unless_failed(aggregate: Callable[[list[Any]], float]) -> Callable[[list[Any]], float]:
    """``aggregate`` that returns NaN when more than the threshold share of its items failed."""

    @functools.wraps(aggregate)
    def guarded(items: list[Any]) -> float:
        if failed_metrics(item_failure_rates(items)):
            return math.nan
        return aggregate(items)

    return guarded


@unless_failed
def mean_unless_failed(values: list[float]) -> float:
    """lmms-eval's ``mean`` (sum / count), NaN for a failed task."""
    return sum(values) / len(values)


def mean_present_unless_failed(values: list[float | None]) -> float:
    """The mean of the values that are not None (a per-group figure, e.g. one TAB-VLM period's
    accuracy, logged as None outside its group), NaN when there are none or when more than the
    threshold share of them failed."""
    present = [value for value in values if value is not None]
    return mean_unless_failed(present) if present else math.nan


# -- reading a results file --------------------------------------------------------------------
def task_failure_rates(task_result: Mapping[str, Any]) -> dict[str, float]:
    """{failure metric: rate} of one task's (or group's) entry in lmms-eval's ``results``
    (keys ``"<metric>,<filter>"``); metrics the task does not have are absent."""
    rates: dict[str, float] = {}
    for key, value in task_result.items():
        name = key.split(",", 1)[0]
        if name in FAILURE_METRICS and "," in key and _number(value) is not None:
            rates[name] = max(rates.get(name, 0.0), float(value))
    return rates


__all__ = [
    "DEFAULT_MAX_FAILURE",
    "FAILURE_METRICS",
    "MAX_FAILURE_ENV",
    "RELEASE_SUFFIX",
    "FailedScore",
    "failed_metrics",
    "failure_of",
    "item_failure_rates",
    "mark_failures",
    "max_failure_rate",
    "mean_present_unless_failed",
    "mean_unless_failed",
    "task_failure_rates",
    "unless_failed",
]
