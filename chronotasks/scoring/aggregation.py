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


def mean_present(values: Iterable[float | None]) -> float:
    """Mean of the values that are not None; NaN when every value is None. A per-group metric
    (e.g. TAB-VLM's accuracy of one period) logs a value for every sample, None outside its group,
    so that every metric of a task has one entry per sample: lmms-eval takes a task's size in a
    group's ``weight_by_size`` from the length of one metric's list (the last it aggregates)."""
    present = [float(v) for v in values if v is not None]
    return sum(present) / len(present) if present else math.nan


def group_means(items: Iterable[Mapping[str, Any]], group: str, value: str) -> dict[Hashable, float]:
    """Mean of ``item[value]`` per ``item[group]``, groups in sorted order (None values skipped)."""
    sums: dict[Hashable, list[float]] = defaultdict(list)
    for item in items:
        if item.get(value) is not None:
            sums[item[group]].append(float(item[value]))
    return {key: sum(vals) / len(vals) for key, vals in sorted(sums.items(), key=lambda kv: str(kv[0]))}
