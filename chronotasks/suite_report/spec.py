"""What a benchmark tells the suite report to show, and the building blocks it says it with.

Each benchmark says it in its own folder: ``chronotasks/benchmarks/<benchmark>/report_spec.py``
defines ``report_spec() -> BenchmarkReport`` and is found the way demo writers are found
(``chronotasks.benchmarks.REPORT_SPECS``: every benchmark with that module, no registration). A
``BenchmarkReport`` gives the benchmark's tables (each column a ``Headline``: how lmms-eval's results
file gives the number, and how the per-question samples give it again for the bootstrap), the papers'
rows beside them, its plots, its variant rows (circular tasks, grayscale pairs), the symbols its
columns use, and what it shows of a meta-evaluation file. The report itself names no benchmark.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronotasks.benchmarks.paper_tables import PaperTable
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.reporting import RunResults, metric_value
from chronotasks.scoring import chance
from chronotasks.scoring.circular import question_correct
from chronotasks.scoring.intervals import Statistic, Unit, mean_of_ratios, ratio
from chronotasks.suite_report.measure import Headline


# -- figures from per-question samples, as sums over questions (chronotasks.scoring.intervals) ----------
def numbers(unit: Unit, key: str, field: str | None = None) -> list[float]:
    """The unit's per-sample values ``sample[key]`` (or ``sample[key][field]``); None and NaN skipped."""
    out = []
    for sample in unit:
        value = sample.get(key)
        if field is not None:
            value = value.get(field) if isinstance(value, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value):
            out.append(float(value))
    return out


def sum_count(key: str, field: str | None = None) -> Callable[[Unit], tuple[float, float]]:
    """Per unit: (sum, count) of the values under ``key`` (``field``)."""

    def extract(unit: Unit) -> tuple[float, float]:
        values = numbers(unit, key, field)
        return sum(values), len(values)

    return extract


def mean_of(key: str, field: str | None = None) -> Statistic:
    """Mean of a per-sample value over all samples (None skipped), pooled over the tasks: lmms-eval's ``mean``."""
    return Statistic(sum_count(key, field), ratio)


def mean_of_task_means(key: str) -> Statistic:
    """Unweighted mean over the tasks of each task's mean (e.g. an Overall of several tasks)."""
    return Statistic(sum_count(key), mean_of_ratios)


def _circular_unit(unit: Unit) -> tuple[float, float]:
    score = question_correct([s["circular_accuracy"] for s in unit])
    return (0.0, 0.0) if score is None else (score, 1.0)


CIRCULAR_ACCURACY = Statistic(_circular_unit, ratio)


def choice_rate(letter: str) -> Statistic:
    def extract(unit: Unit) -> tuple[float, float]:
        chosen = [s["circular_accuracy"]["choice"] for s in unit if s["circular_accuracy"].get("choice") is not None]
        return sum(c == letter for c in chosen), len(chosen)

    return Statistic(extract, ratio)


def in_group(key: str, field: str, value: str) -> Callable[[dict[str, Any]], bool]:
    """Select the samples of one group (a per-group figure resamples that group's questions only, so
    no resample lacks the group)."""
    return lambda sample: isinstance(sample.get(key), dict) and sample[key].get(field) == value


def present(key: str) -> Callable[[dict[str, Any]], bool]:
    """Select the samples whose ``key`` holds a value (e.g. the replies the release counts, the readable ones)."""
    return lambda sample: sample.get(key) is not None


def answered(key: str) -> Callable[[dict[str, Any]], bool]:
    """Select the samples whose period-distance item (chronotasks.scoring.period_distance) has an answer."""
    return lambda sample: isinstance(sample.get(key), dict) and sample[key].get("offset") is not None


def offset_statistic(key: str, absolute: bool) -> Statistic:
    """Mean (absolute: distance; signed: bias) offset of the period-distance items under ``key``, answered ones only."""

    def extract(unit: Unit) -> tuple[float, float]:
        offsets = numbers(unit, key, "offset")
        return sum(abs(o) if absolute else o for o in offsets), len(offsets)

    return Statistic(extract, ratio)


def space_chance(metric: str, space: AnswerSpace) -> float:
    """The chance level of a metric on records of one answer space (chronotasks.scoring.chance)."""
    return chance.chance_level(metric, space.to_json())


# -- points from results files --------------------------------------------------------------------
def metric_point(task: str, metric: str) -> Callable[[RunResults], float]:
    return lambda run: metric_value(run, task, metric)


def mean_point(tasks: Iterable[str], metric: str) -> Callable[[RunResults], float]:
    tasks = tuple(tasks)
    return lambda run: sum(metric_value(run, t, metric) for t in tasks) / len(tasks)


def pooled_point(tasks: Iterable[str], metric: str) -> Callable[[RunResults], float]:
    """Mean over the tasks weighted by their number of samples (lmms-eval's ``weight_by_size``)."""
    tasks = tuple(tasks)

    def point(run: RunResults) -> float:
        sizes = [float(((run.data.get("n-samples") or {}).get(t) or {}).get("effective") or math.nan) for t in tasks]
        values = [metric_value(run, t, metric) for t in tasks]
        return sum(s * v for s, v in zip(sizes, values)) / sum(sizes)

    return point


PERIOD_OFFSET_METRICS = ("period_distance", "period_bias", "period_distance_chance", "period_bias_chance")
YEAR_OFFSET_METRICS = ("MAE", "year_bias", "MAE_chance", "year_bias_chance")


def offset_headlines(task: str, metrics: tuple[str, str, str, str] = PERIOD_OFFSET_METRICS) -> tuple[Headline, ...]:
    """distance, chance distance, bias, chance bias of a task that logs period-distance items (chronotasks/
    scoring/period_distance.py): ``metrics`` name the four in its results; each sample holds the item under
    the bias metric. Distance and bias count the answered questions, the chance values all of them."""
    distance, bias, distance_chance, bias_chance = metrics
    return (
        Headline(
            "distance",
            (task,),
            metric_point(task, distance),
            offset_statistic(bias, absolute=True),
            select=answered(bias),
            counted="answered",
            scale=1,
            digits=2,
        ),
        Headline(
            "chance distance",
            (task,),
            metric_point(task, distance_chance),
            mean_of(bias, "chance_distance"),
            scale=1,
            digits=2,
            compared=False,
        ),
        Headline(
            "bias",
            (task,),
            metric_point(task, bias),
            offset_statistic(bias, absolute=False),
            select=answered(bias),
            counted="answered",
            scale=1,
            digits=2,
        ),
        Headline(
            "chance bias",
            (task,),
            metric_point(task, bias_chance),
            mean_of(bias, "chance_bias"),
            scale=1,
            digits=2,
            compared=False,
        ),
    )


# -- what a benchmark shows -----------------------------------------------------------------------
@dataclass(frozen=True)
class PaperRows:
    """A paper's published rows beside a table (``chronotasks.benchmarks.paper_tables``): which paper
    column each of our columns is, and the variants (rows) of ours it compares with."""

    table: PaperTable
    columns: Mapping[str, str]  # our column -> the paper's column
    variants: tuple[str, ...] | None = None  # None: every variant of the table
    convert: Mapping[str, Callable[[float], float]] = field(default_factory=dict)  # paper figure -> our unit, where they differ
    note: str = ""  # what the reader must know (e.g. "CoT prompt")
    shows: str = ""  # what the rows shown are, where not the table's metric

    def figure(self, row: str, column: str) -> float | None:
        """The paper's figure for our ``column`` in our displayed unit (None: not printed)."""
        value = self.table.figure(row, self.columns[column])
        return None if value is None else self.convert.get(column, float)(value)


@dataclass(frozen=True)
class TableSpec:
    """A table: one row per model and variant (a variant whose tasks the model ran), one column per headline.
    ``papers``: the papers' rows set beside it; ``confusion`` / ``year_errors``: tasks whose logged
    period-distance items the page also shows as confusion matrices / signed year-error histograms."""

    id: str
    section: str
    title: str
    variant_header: str | None  # None: one variant, no variant column
    variants: tuple[tuple[str, tuple[Headline, ...]], ...]
    compare: bool = True  # include in the paired comparisons between models
    papers: tuple[PaperRows, ...] = ()
    confusion: tuple[tuple[str, str, tuple[str, ...]], ...] = ()  # (task, item key, period names oldest first)
    year_errors: tuple[tuple[str, str], ...] = ()  # (task, item key) of signed year-error histograms
    unit: str = ""  # a how-far-off table's unit (periods, dynasties, years)

    @property
    def columns(self) -> list[str]:
        return [h.column for h in self.variants[0][1]]


@dataclass(frozen=True)
class GrayRow:
    """A row of the grayscale table: one figure of a base task in colour and of its ``_gray`` variant.
    ``plotted``: the task's main figure, drawn in the grayscale plot."""

    label: str
    colour: Headline
    gray: Headline
    plotted: bool = False


@dataclass(frozen=True)
class PanelSpec:
    """A plot panel of one table: a bar per row and column (``percent_only``: the columns in %)."""

    table: str
    title: str
    ylabel: str
    percent_only: bool = False


@dataclass(frozen=True)
class PlotSpec:
    """A PNG of panels; panels of one file name from several benchmarks are drawn one above the other."""

    file: str
    panels: tuple[PanelSpec, ...]


@dataclass(frozen=True)
class ExtraView:
    """What a benchmark shows of other files given to the report (e.g. a meta-evaluation's metaeval.json):
    markdown under its section's tables, CSV files, plots (file -> panels) and symbols."""

    section: str
    caption: str
    markdown: str
    csv: Mapping[str, str] = field(default_factory=dict)
    plots: Mapping[str, list] = field(default_factory=dict)
    symbols: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class BenchmarkReport:
    """Everything the suite report shows of one benchmark (see the module doc). ``order``: its place
    on the page (lower first); ``circular``: its circular tasks (the CircularEval table); ``gray_rows``:
    the grayscale table's rows for a base task with a ``_gray`` variant; ``metaeval``: the view of the
    ``metaeval.json`` files given (None: the benchmark has none)."""

    order: int
    tables: Callable[[], list[TableSpec]]
    circular: tuple[str, ...] = ()
    gray_rows: Callable[[str], list[GrayRow]] | None = None
    plots: tuple[PlotSpec, ...] = ()
    symbols: Mapping[str, str] = field(default_factory=dict)
    symbol_aliases: Mapping[str, str] = field(default_factory=dict)
    metaeval: Callable[[list[Path]], ExtraView] | None = None


def accuracy_gray_row(base: str) -> GrayRow:
    """The grayscale row of a task's ``accuracy``, its main figure."""
    gray = base + "_gray"
    return GrayRow(
        "accuracy",
        Headline("accuracy", (base,), metric_point(base, "accuracy"), mean_of("accuracy")),
        Headline("accuracy", (gray,), metric_point(gray, "accuracy"), mean_of("accuracy")),
        plotted=True,
    )


__all__ = [
    "CIRCULAR_ACCURACY",
    "PERIOD_OFFSET_METRICS",
    "YEAR_OFFSET_METRICS",
    "BenchmarkReport",
    "ExtraView",
    "GrayRow",
    "Headline",
    "PanelSpec",
    "PaperRows",
    "PlotSpec",
    "TableSpec",
    "accuracy_gray_row",
    "answered",
    "choice_rate",
    "in_group",
    "mean_of",
    "mean_of_task_means",
    "mean_point",
    "metric_point",
    "numbers",
    "offset_headlines",
    "offset_statistic",
    "pooled_point",
    "present",
    "space_chance",
    "sum_count",
]
