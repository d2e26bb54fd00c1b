"""When a task's figures are not a result: the failure metrics and the threshold.

Every task counts, per sample, the ways a sample can fail without being the model's fault or
choice: ``parse_failure`` (the reply could not be read), ``image_failure`` (an image could not be
opened), ``judge_failure`` (a TempViz judgement failed). A task whose samples failed at more than
the threshold rate on any of them is a *failed task*: its figures are NaN, shown with the failure
rate beside them, never a score of 0 (see DESIGN.md, "Failures").

The threshold is a share of samples, 0.5 by default (more than half the samples failed), set with
``$CHRONOTASKS_MAX_FAILURE`` (a number in [0, 1]; 1 turns the rule off).
"""

from __future__ import annotations

import os

FAILURE_METRICS = ("parse_failure", "image_failure", "judge_failure")
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
    return [name for name in FAILURE_METRICS if rates.get(name) is not None and rates[name] > limit]
