"""Shortcut-bias metrics over colour/grayscale trial triplets (ChronoVision §IV.B, Table III/IV).

Each pair (I1 earlier than I2) is asked three times:

    condition "color"         (I1,  I2)    -> ACC_B
    condition "gray_earlier"  (I1′, I2)    -> ACC_1  (the shortcut "gray = old" agrees)
    condition "gray_later"    (I1,  I2′)   -> ACC_2  (the shortcut conflicts)

Δ_ACC = ACC_1 − ACC_2. An item is ``{"condition": ..., "correct": 0/1, ...}``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from chronotasks.scoring.aggregation import share

CONDITIONS = {"color": "ACC_B", "gray_earlier": "ACC_1", "gray_later": "ACC_2"}


def condition_accuracy(items: Iterable[Mapping[str, Any]], condition: str, **where: Any) -> float:
    """Mean ``correct`` over the items of one condition (and matching ``where`` fields); NaN if none.
    An item whose ``correct`` is None (a trial the release scripts skip) is left out."""
    if condition not in CONDITIONS:
        raise ValueError(f"unknown condition {condition!r}; expected one of {sorted(CONDITIONS)}")
    return share(
        item["correct"]
        for item in items
        if item["correct"] is not None and item["condition"] == condition and all(item.get(k) == v for k, v in where.items())
    )


def shortcut_metrics(items: Iterable[Mapping[str, Any]], **where: Any) -> dict[str, float]:
    """{"ACC_B", "ACC_1", "ACC_2", "delta_ACC"} over the items (filtered by ``where``, e.g. category="sports")."""
    items = list(items)
    out = {name: condition_accuracy(items, cond, **where) for cond, name in CONDITIONS.items()}
    out["delta_ACC"] = out["ACC_1"] - out["ACC_2"]
    return out


# Table V of the paper: confidence bins (inclusive bounds); 100 joins the top bin.
CONFIDENCE_BINS = ((0, 59), (60, 69), (70, 79), (80, 89), (90, 94), (95, 100))


def confidence_bin(confidence: float | None) -> str | None:
    """The Table V bin label ("95-100") of a 0..100 confidence; None when missing or out of range.

    A fractional confidence falls in the bin whose range it lies in (94.5 -> "90-94").
    """
    if confidence is None or not 0 <= confidence <= 100:
        return None
    for (lo, hi), (next_lo, _) in zip(CONFIDENCE_BINS, CONFIDENCE_BINS[1:] + ((101, 101),)):
        if lo <= confidence < next_lo:
            return f"{lo}-{hi}"
    return None


__all__ = ["CONDITIONS", "CONFIDENCE_BINS", "condition_accuracy", "confidence_bin", "shortcut_metrics"]
