"""The papers' published result tables as data, for setting a run beside them (``chronotasks report``).

A benchmark's tables live in ``chronotasks/benchmarks/<benchmark>/paper_tables.py`` as ``TABLES``
(table number -> ``PaperTable``), typed in from the paper (cited in ``chronotasks/benchmarks/cards.py``) and
checked by the benchmark's tests against every total the paper prints (averages, differences, composite scores).

Figures are as printed: percentages stay percentages (``scale`` says what one unit is), "-" cells
are None. ``measures`` ties a column to the lmms-eval task and metric of ours that measure the same
thing (``(task, metric)``; lmms-eval reports fractions, so a percentage column is ``100 * value``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass(frozen=True)
class PaperTable:
    paper: str  # short citation
    number: str  # "1", "III", or a section for a table in the text ("§VII.A")
    caption: str  # the caption as printed (abridged where long)
    metric: str  # what the figures are
    columns: tuple[str, ...]
    rows: Mapping[str, tuple[float | None, ...]]  # row label (a model, a baseline, an average) -> one figure per column
    scale: str = "percent"  # "percent", "fraction", "years", "mixed" (see metric)
    spread: Mapping[str, tuple[float | None, ...]] = field(default_factory=dict)  # "± std" where printed
    measures: Mapping[str, tuple[str, str]] = field(default_factory=dict)  # column -> (task, metric) of ours
    summaries: tuple[str, ...] = ()  # rows that are not models: baselines, averages

    def __post_init__(self) -> None:
        for label, figures in {**self.rows, **self.spread}.items():
            if len(figures) != len(self.columns):
                raise ValueError(f"Table {self.number}: row {label!r} has {len(figures)} figures for {len(self.columns)} columns")
        unknown = [label for label in (*self.spread, *self.summaries) if label not in self.rows]
        if unknown or any(column not in self.columns for column in self.measures):
            raise ValueError(f"Table {self.number}: unknown rows {unknown} or measured columns")

    def figure(self, row: str, column: str) -> float | None:
        return self.rows[row][self.columns.index(column)]

    def column(self, column: str, models_only: bool = False) -> dict[str, float | None]:
        """{row: figure} of one column (``models_only``: without baseline and average rows)."""
        i = self.columns.index(column)
        return {row: figures[i] for row, figures in self.rows.items() if not (models_only and row in self.summaries)}

    @property
    def models(self) -> list[str]:
        return [row for row in self.rows if row not in self.summaries]


__all__ = ["PaperTable"]
