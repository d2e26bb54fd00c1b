"""Orderings judged against item ranks that may tie.

A chronological-sequence question whose gold order was written from period
labels accepts, strictly, one order; when two items share a period, every
order that keeps the periods non-decreasing is equally right. These
functions score that tie-aware reading beside the strict one.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from itertools import pairwise


def has_ties(ranks: Mapping[Hashable, float] | Sequence[float]) -> bool:
    """True when two items share a rank."""
    values = list(ranks.values()) if isinstance(ranks, Mapping) else list(ranks)
    return len(set(values)) < len(values)


def accepted_orders(ranks: Mapping[Hashable, float] | Sequence[float]) -> int:
    """How many orders of the items are consistent with their ranks (product of tie-group sizes!)."""
    values = list(ranks.values()) if isinstance(ranks, Mapping) else list(ranks)
    return math.prod(math.factorial(size) for size in Counter(values).values())


def rank_consistent_match(pred_order: Sequence[Hashable] | None, ranks: Mapping[Hashable, float]) -> float:
    """1.0 when the predicted order lists every item once with non-decreasing rank.

    ``ranks`` maps each item to its rank (e.g. period index, oldest = 0). An
    unparsed prediction (None) or one that is not a permutation of the items scores 0.
    """
    if pred_order is None:
        return 0.0
    items = list(pred_order)
    if sorted(map(str, items)) != sorted(map(str, ranks)):
        return 0.0
    values = [ranks[item] for item in items]
    return float(all(a <= b for a, b in pairwise(values)))


__all__ = ["accepted_orders", "has_ties", "rank_consistent_match"]
