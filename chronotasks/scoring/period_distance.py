"""How far off in time an answer is, on an ordered scale: periods (TAB-VLM's eight, oldest = 0),
dynasties (ChronoVision's Tang = 0 ... Qing = 4) or years.

One record gives one item (``offset_item``): the gold and predicted positions (and names, for a
confusion matrix), the signed offset ``pred - gold`` (positive = the answer is newer than the
truth; None when the reply gave no answer) and the chance values of a uniformly random answer
over ``positions`` (the positions the answer space allows: the options' periods, every year of
the range). The aggregations turn a task's items into

    distance         mean |pred - gold| over the answered records (in periods / dynasties / years)
    bias             mean (pred - gold) over the answered records: > 0 = answers newer than the truth
    chance_distance  mean over all records of the expected |random - gold|
    chance_bias      mean over all records of the expected (random - gold)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def offset_item(
    gold: int, pred: int | None, positions: Sequence[int], gold_name: str | None = None, pred_name: str | None = None
) -> dict[str, Any]:
    """One record's item; ``positions``: where a random answer can land, each equally likely (an
    option listed twice counts twice)."""
    if not positions:
        raise ValueError("a random answer needs at least one position")
    if isinstance(positions, range) and positions.step == 1:  # every year of a span: closed form (exact)
        lo, hi, n = positions.start, positions.stop - 1, len(positions)
        below, above = max(0, min(gold, hi + 1) - lo), max(0, hi - max(gold, lo - 1))  # positions under / over gold
        # sum of |p - gold| = sum over the positions below (gold - p) + over those above (p - gold)
        total = below * gold - (lo + lo + below - 1) * below / 2 + (hi + hi - above + 1) * above / 2 - above * gold
        chance = (total / n, (lo + hi) / 2 - gold)
    else:
        chance = (math.fsum(abs(p - gold) for p in positions) / len(positions), math.fsum(p - gold for p in positions) / len(positions))
    return {
        "gold": gold,
        "pred": pred,
        "offset": None if pred is None else pred - gold,
        "gold_name": gold_name,
        "pred_name": pred_name,
        "chance_distance": chance[0],
        "chance_bias": chance[1],
    }


def _mean(values: Iterable[float]) -> float:
    kept = list(values)
    return math.fsum(kept) / len(kept) if kept else math.nan


def distance(items: Iterable[Mapping[str, Any]]) -> float:
    """Mean absolute offset over the answered items; NaN when none was answered."""
    return _mean(abs(i["offset"]) for i in items if i["offset"] is not None)


def bias(items: Iterable[Mapping[str, Any]]) -> float:
    """Mean signed offset over the answered items (> 0: newer than the truth)."""
    return _mean(i["offset"] for i in items if i["offset"] is not None)


def chance_distance(items: Iterable[Mapping[str, Any]]) -> float:
    return _mean(i["chance_distance"] for i in items)


def chance_bias(items: Iterable[Mapping[str, Any]]) -> float:
    return _mean(i["chance_bias"] for i in items)


__all__ = ["bias", "chance_bias", "chance_distance", "distance", "offset_item"]
