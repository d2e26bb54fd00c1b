"""How far off in time, beyond the distance table: read from the --log_samples files, the
period-distance items a task logs for every question (chronotasks/scoring/period_distance.py:
gold and predicted position, signed offset, None where no answer was read).

- ``confusion``: gold period × predicted period, counts of questions; a reply from which no period
  was read (unreadable, or an image that could not be opened) counts in its own column, "unread";
- ``year_errors``: how many year answers fall in each bin of the signed error (predicted −
  true year; ``YEAR_BINS``), and how many were unread.

A model's repeated runs are pooled (each question counted once per run).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chronotasks import reporting
from chronotasks.suite_report.measure import Model

UNREAD = "unread"
# signed year error bins (inclusive bounds), symmetric around the exact year
YEAR_BINS: tuple[tuple[str, float, float], ...] = (
    ("< −20", -float("inf"), -21),
    ("−20…−11", -20, -11),
    ("−10…−6", -10, -6),
    ("−5…−2", -5, -2),
    ("−1", -1, -1),
    ("0", 0, 0),
    ("+1", 1, 1),
    ("+2…+5", 2, 5),
    ("+6…+10", 6, 10),
    ("+11…+20", 11, 20),
    ("> +20", 21, float("inf")),
)


def _items(model: Model, task: str, key: str) -> list[dict[str, Any]] | None:
    """The period-distance items of every logged sample of ``task`` over the model's runs; None when a
    run has no samples of it or logs no such items (a run made before the task logged them)."""
    runs = model.runs_with([task])
    if not runs or any(run.samples(task) is None for run in runs):
        return None
    if not any(isinstance(s.get(key), dict) for run in runs for s in run.samples(task)):
        return None
    items = []
    for run in runs:
        for sample in run.samples(task):
            item = sample.get(key)
            if not isinstance(item, dict) or "gold" not in item or "pred" not in item:
                raise ValueError(
                    f"{reporting.samples_file(run.results, task)}: the sample with doc_id {sample.get('doc_id')} "
                    f"logs no period-distance item under {key!r} (gold, pred, offset), other samples do"
                )
            items.append(item)
    return items


@dataclass(frozen=True)
class Confusion:
    model: str
    task: str
    rows: tuple[str, ...]  # gold periods, oldest first
    columns: tuple[str, ...]  # predicted periods, then "unread"
    counts: tuple[tuple[int, ...], ...]
    runs: int

    @property
    def n(self) -> int:
        return sum(map(sum, self.counts))


def confusion(model: Model, task: str, key: str, names: Sequence[str]) -> Confusion | None:
    """The gold × predicted matrix of one model's task (None when it has no samples of it)."""
    items = _items(model, task, key)
    if items is None:
        return None
    counts = [[0] * (len(names) + 1) for _ in names]
    for item in items:
        counts[item["gold"]][len(names) if item["pred"] is None else item["pred"]] += 1
    return Confusion(model.label, task, tuple(names), (*names, UNREAD), tuple(map(tuple, counts)), len(model.runs_with([task])))


def confusion_markdown(matrix: Confusion) -> str:
    header = ["gold \\ predicted", *matrix.columns, "n"]
    rows = [[name, *counts, sum(counts)] for name, counts in zip(matrix.rows, matrix.counts)]
    return reporting.markdown_table(header, rows)


def confusion_csv_rows(matrix: Confusion) -> list[list[Any]]:
    return [
        [matrix.model, matrix.task, gold, predicted, count]
        for gold, counts in zip(matrix.rows, matrix.counts)
        for predicted, count in zip(matrix.columns, counts)
    ]


@dataclass(frozen=True)
class YearErrors:
    model: str
    task: str
    counts: tuple[int, ...]  # per YEAR_BINS bin
    unread: int
    runs: int

    @property
    def n(self) -> int:
        return sum(self.counts) + self.unread


def year_bin(error: int) -> int:
    """The index in YEAR_BINS of a signed year error."""
    return next(index for index, (_, low, high) in enumerate(YEAR_BINS) if low <= error <= high)


def year_errors(model: Model, task: str, key: str) -> YearErrors | None:
    items = _items(model, task, key)
    if items is None:
        return None
    counts = [0] * len(YEAR_BINS)
    for item in items:
        if item["offset"] is not None:
            counts[year_bin(item["offset"])] += 1
    return YearErrors(model.label, task, tuple(counts), sum(item["offset"] is None for item in items), len(model.runs_with([task])))


def year_errors_markdown(histograms: list[YearErrors]) -> str:
    header = ["Model", "Task", *(label for label, _, _ in YEAR_BINS), UNREAD, "n"]
    return reporting.markdown_table(header, [[h.model, h.task, *h.counts, h.unread, h.n] for h in histograms])


def year_errors_csv(histograms: list[YearErrors]) -> str:
    header = ["model", "task", *(label for label, _, _ in YEAR_BINS), UNREAD, "n"]
    return reporting.csv_text(header, [[h.model, h.task, *h.counts, h.unread, h.n] for h in histograms])


def year_errors_panel(histograms: list[YearErrors], task: str) -> reporting.BarPanel:
    categories = [label for label, _, _ in YEAR_BINS] + [UNREAD]
    return reporting.BarPanel(
        f"{task}: signed year error (predicted − true year), questions per bin (wider away from 0)",
        categories,
        {f"{h.model} (n={h.n})": [*map(float, h.counts), float(h.unread)] for h in histograms},
        "questions",
    )


def confusion_panel(matrix: Confusion) -> reporting.HeatmapPanel:
    runs = f", {matrix.runs} runs pooled" if matrix.runs > 1 else ""
    return reporting.HeatmapPanel(
        f"{matrix.model}: {matrix.task} (n={matrix.n}{runs})", matrix.rows, matrix.columns, matrix.counts, "predicted", "gold"
    )


__all__ = [
    "UNREAD",
    "YEAR_BINS",
    "Confusion",
    "YearErrors",
    "confusion",
    "confusion_csv_rows",
    "confusion_markdown",
    "confusion_panel",
    "year_bin",
    "year_errors",
    "year_errors_csv",
    "year_errors_markdown",
    "year_errors_panel",
]
