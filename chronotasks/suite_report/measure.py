"""Runs grouped by model, and one figure of one model (or a difference of two) with its intervals.

A *run* is one lmms-eval results file with the ``--log_samples`` files beside it. Runs are
grouped by a model label (the model and its ``model_args``, or ``--label``); several runs of one
label that hold the same task are repeats (e.g. ``--seed 1`` and ``--seed 2``).

A ``Headline`` is one figure: the tasks it reads, how a run's results file gives it (``point``,
the number lmms-eval printed), and how the same number is computed from the per-question samples
(``figure``, which the bootstrap resamples). The two must agree on every run; where they do not
(say, samples of another run, or a BERTScore model other than the run's), the interval is left
out and a note says why.

Questions are matched by their unit key: a sample's item that names its ``question`` (circular
rotations) or ``pair`` (e.g. a pair's three trials) groups samples into one unit; else the
sample's ``doc_id`` is its own unit. Two models are compared on the questions both ran (the
gold ``target`` must agree on each).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronotasks import reporting
from chronotasks.scoring.intervals import Statistic, Strata, bootstrap_interval, figure_of, paired_difference, run_spread

TOLERANCE = 1e-6


@dataclass
class Run:
    """One lmms-eval results file and (read on demand) its per-task samples."""

    results: reporting.RunResults
    _samples: dict[str, list[dict[str, Any]] | None] = field(default_factory=dict, repr=False)

    def has(self, task: str) -> bool:
        return reporting.has_task(self.results, task)

    def samples(self, task: str) -> list[dict[str, Any]] | None:
        if task not in self._samples:
            path = reporting.samples_file(self.results, task)
            self._samples[task] = sorted(reporting.read_samples(path), key=lambda s: s["doc_id"]) if path else None
        return self._samples[task]

    @property
    def repeats(self) -> int:
        args = (self.results.data.get("config") or {}).get("resolved_cli_args") or {}
        return int(args.get("repeats") or 1)


@dataclass
class Model:
    label: str
    runs: list[Run]

    def runs_with(self, tasks: Iterable[str]) -> list[Run]:
        tasks = list(tasks)
        return [run for run in self.runs if all(run.has(t) for t in tasks)]

    def has_any(self, tasks: Iterable[str]) -> bool:
        return any(run.has(t) for run in self.runs for t in tasks)


def load_models(paths: Sequence[str | Path], labels: Sequence[str] | None = None) -> list[Model]:
    """The runs under ``paths`` (results files or folders), grouped by model (``reporting.group_by_model``)."""
    return [Model(label, [Run(results) for results in runs]) for label, runs in reporting.group_by_model(paths, labels).items()]


@dataclass(frozen=True)
class Settings:
    confidence: float = 0.95
    resamples: int = 2000
    seed: int = 0


@dataclass(frozen=True)
class Headline:
    """One figure of a table column (see the module doc)."""

    column: str
    tasks: tuple[str, ...]
    point: Callable[[reporting.RunResults], float]
    figure: Statistic | None = None  # None: no interval
    select: Callable[[dict[str, Any]], bool] | None = None  # samples the figure reads (e.g. one period's)
    prepare: Callable[[list[dict[str, Any]]], None] | None = None  # adds per-sample fields the figure needs
    scale: float = 100.0
    digits: int = 1
    compared: bool = True  # listed in the paired comparisons between models
    # the share of the questions the figure counts, when ``select`` leaves some out (e.g. "answered": a
    # mean over the readable replies); the cell then shows n of all ("n=97/100 answered")
    counted: str | None = None
    # what a uniformly random answer scores (chronotasks.scoring.chance; a number, or read from a run's
    # results where it depends on the questions, e.g. the expected year error); None: no chance level
    chance: float | Callable[[reporting.RunResults], float] | None = None


@dataclass(frozen=True)
class Cell:
    """A number with its interval (NaN where none), run-to-run sd, counts and (comparisons) p-value.
    ``questions``: the questions the number rests on (from the samples); without samples,
    ``samples``: what lmms-eval scored (a circular question's rotations, a pair's trials
    count each); None where neither is known. ``of``: all the questions, where the figure counts
    only some of them (``Headline.counted``)."""

    value: float
    low: float = math.nan
    high: float = math.nan
    sd: float = math.nan
    runs: int = 1
    questions: int | None = None
    p: float | None = None
    samples: int | None = None
    of: int | None = None


def unit_key(sample: dict[str, Any]) -> Hashable:
    for value in sample.values():
        if isinstance(value, dict):
            if value.get("question") is not None:
                return ("question", value["question"])
            if value.get("pair") is not None:
                return ("pair", value["pair"])
    return ("doc", sample["doc_id"])


def units_of(samples: list[dict[str, Any]], select: Callable | None = None) -> dict[Hashable, list[dict[str, Any]]]:
    units: dict[Hashable, list[dict[str, Any]]] = {}
    for sample in samples:
        if select is None or select(sample):
            units.setdefault(unit_key(sample), []).append(sample)
    return units


def _targets(unit: list[dict[str, Any]]) -> tuple:
    return tuple(str(s.get("target")) for s in unit)


class Unavailable(RuntimeError):
    """A figure's per-sample preparation could not run (the interval is left out, with a note)."""


class Measurer:
    """Computes cells; collects notes (why an interval is missing) for the page."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self.notes: list[str] = []
        self._prepared: set[int] = set()

    def note(self, text: str) -> None:
        if text not in self.notes:
            self.notes.append(text)

    # -- per-question units ------------------------------------------------------------------
    def _units(self, run: Run, headline: Headline, task: str) -> dict[Hashable, list[dict[str, Any]]] | None:
        samples = run.samples(task)
        if samples is None:
            return None
        if headline.prepare is not None and id(samples) not in self._prepared:
            try:
                headline.prepare(samples)
            except Exception as err:  # e.g. the BERTScore model cannot be loaded here
                raise Unavailable(f"{type(err).__name__}: {err}") from err
            self._prepared.add(id(samples))
        return units_of(samples, headline.select)

    def _side(self, runs: list[Run], headline: Headline, label: str) -> list[list[dict[Hashable, list]]] | None:
        """Per run, per task: the units; None (with a note) when a run lacks samples or a check fails."""
        side = []
        for run in runs:
            try:
                per_task = [self._units(run, headline, task) for task in headline.tasks]
            except Unavailable as err:
                self.note(f"{label}, {headline.column}: no interval ({err}).")
                return None
            if any(u is None for u in per_task):
                self.note(f"{label}: {run.results.path.name} has no --log_samples file for {', '.join(headline.tasks)}; no interval.")
                return None
            side.append(per_task)
        for task_index, task in enumerate(headline.tasks):
            keys = [list(per_task[task_index]) for per_task in side]
            if any(set(k) != set(keys[0]) for k in keys[1:]):
                raise ValueError(
                    f"{label}: the runs of {task} differ in questions "
                    f"({', '.join(r.results.path.name for r in runs)}); give repeats of the same questions"
                )
        return side

    def _strata(self, side: list[list[dict]], keys: list[list[Hashable]]) -> list[Strata]:
        return [[[units[k] for k in task_keys] for units, task_keys in zip(per_task, keys)] for per_task in side]

    def _agrees(self, runs: list[Run], strata: list[Strata], headline: Headline, label: str) -> bool:
        for run, run_strata in zip(runs, strata):
            point, figure = headline.point(run.results), figure_of([run_strata], headline.figure)
            if math.isnan(point) != math.isnan(figure) or (not math.isnan(point) and abs(point - figure) > TOLERANCE):
                self.note(
                    f"{label}, {headline.column}: the samples of {run.results.path.name} give {figure:.6g}, its "
                    f"results file {point:.6g}; no interval (samples of another run, or another scorer setting?)."
                )
                return False
        return True

    # -- cells -------------------------------------------------------------------------------
    def measure(self, model: Model, headline: Headline) -> Cell | None:
        """The figure of one model (mean over its runs) with its question-sampling interval."""
        runs = model.runs_with(headline.tasks)
        if not runs:
            return None
        value, sd = run_spread([headline.point(run.results) for run in runs])
        cell = Cell(value, sd=sd, runs=len(runs), **self.size(runs[0], headline))
        if headline.figure is None or math.isnan(value):
            return cell
        side = self._side(runs, headline, model.label)
        if side is None:
            return cell
        keys = [list(units) for units in side[0]]
        strata = self._strata(side, keys)
        if not self._agrees(runs, strata, headline, model.label):
            return cell
        low, high = bootstrap_interval(strata, headline.figure, self.settings.confidence, self.settings.resamples, self.settings.seed)
        return Cell(value, low, high, sd, len(runs), sum(len(k) for k in keys), of=cell.of)

    @staticmethod
    def size(run: Run, headline: Headline) -> dict[str, int | None]:
        """What a figure rests on: ``questions`` (units of the samples it reads; with ``of``, all the
        questions, when the headline counts only some), or without samples ``samples`` (lmms-eval's
        count of the tasks, for a figure over all of a task's samples)."""
        if all(run.samples(task) is not None for task in headline.tasks):
            size = {"questions": sum(len(units_of(run.samples(task), headline.select)) for task in headline.tasks)}
            if headline.counted:
                size["of"] = sum(len(units_of(run.samples(task))) for task in headline.tasks)
            return size
        sizes = [reporting.task_size(run.results, task) for task in headline.tasks]
        if headline.select is None and all(size is not None for size in sizes):
            return {"samples": sum(sizes)}
        return {}

    def compare(self, a: Model, headline_a: Headline, b: Model, headline_b: Headline, label: str) -> Cell | None:
        """figure(a) − figure(b) on the questions both ran, paired interval and permutation p-value."""
        runs_a, runs_b = a.runs_with(headline_a.tasks), b.runs_with(headline_b.tasks)
        if not runs_a or not runs_b or headline_a.figure is None:
            return None
        if any(math.isnan(h.point(run.results)) for h, runs in ((headline_a, runs_a), (headline_b, runs_b)) for run in runs):
            return None
        side_a, side_b = self._side(runs_a, headline_a, a.label), self._side(runs_b, headline_b, b.label)
        if side_a is None or side_b is None:
            return None
        keys = []
        for task_a, task_b, units_a, units_b in zip(headline_a.tasks, headline_b.tasks, side_a[0], side_b[0]):
            common = [k for k in units_a if k in units_b]
            if not common:
                self.note(f"{label}: {a.label} ({task_a}) and {b.label} ({task_b}) share no questions.")
                return None
            if len(common) < max(len(units_a), len(units_b)):
                self.note(f"{label}: compared on the {len(common)} questions of {task_a} that both ran.")
            wrong = [k for k in common if _targets(units_a[k]) != _targets(units_b[k])]
            if wrong:
                raise ValueError(
                    f"{label}: {a.label} ({task_a}) and {b.label} ({task_b}) have different gold answers "
                    f"for question {wrong[0][1]!r}: not the same questions"
                )
            keys.append(common)
        strata_a = self._strata(side_a, keys)
        strata_b = self._strata(side_b, keys)
        full_a = self._strata(side_a, [list(u) for u in side_a[0]])
        full_b = self._strata(side_b, [list(u) for u in side_b[0]])
        if not (self._agrees(runs_a, full_a, headline_a, a.label) and self._agrees(runs_b, full_b, headline_b, b.label)):
            return None
        result = paired_difference(
            strata_a, strata_b, headline_a.figure, self.settings.confidence, self.settings.resamples, self.settings.seed
        )
        return Cell(
            result.difference, result.low, result.high, runs=min(len(runs_a), len(runs_b)), questions=result.questions, p=result.p_value
        )


__all__ = ["Cell", "Headline", "Measurer", "Model", "Run", "Settings", "load_models", "unit_key", "units_of"]
