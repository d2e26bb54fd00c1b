"""Aggregations over per-sample results (lmms-eval ``aggregation`` functions
receive the list of values that ``process_results`` returned for one metric)."""

from __future__ import annotations

import math
from collections import defaultdict
from collections.abc import Hashable, Iterable, Mapping
from typing import Any


def share(flags: Iterable[bool | float]) -> float:
    """Fraction of true flags (e.g. parse failures); NaN for an empty list."""
    values = [float(f) for f in flags]
    return sum(values) / len(values) if values else math.nan


def group_means(items: Iterable[Mapping[str, Any]], group: str, value: str) -> dict[Hashable, float]:
    """Mean of ``item[value]`` per ``item[group]``, groups in sorted order (None values skipped)."""
    sums: dict[Hashable, list[float]] = defaultdict(list)
    for item in items:
        if item.get(value) is not None:
            sums[item[group]].append(float(item[value]))
    return {key: sum(vals) / len(vals) for key, vals in sorted(sums.items(), key=lambda kv: str(kv[0]))}
