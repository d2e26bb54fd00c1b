"""Shared pieces of the ``chronotasks report`` commands.

- find lmms-eval ``*_results.json`` files (file or folder arguments) and read them, and the
  ``--log_samples`` files beside them;
- read one task's metric (``results[task]["<metric>,none"]``), its number of samples, its failure
  rates and whether it failed (``chronotasks.failures``), and whether the run read demo data
  (the ``data_origin`` its samples log, ``chronotasks.data.origin``);
- render a table as markdown or CSV;
- draw grouped bar charts (with reference lines: chance, a paper's rows) and count heatmaps to a PNG
  (matplotlib, Agg canvas).

A benchmark's report module picks the tasks and metrics; this module knows
only the lmms-eval results layout. Errors name the file and the field.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chronotasks.data.errors import json_problem
from chronotasks.data.origin import DATA_ORIGIN, DEMO_ORIGIN
from chronotasks.failures import FAILURE_METRICS, failed_metrics

MISSING = "–"
DEMO_WARNING = "synthetic demo data — these numbers say nothing about any model"
# what each failure metric counts, as a reader of the page says it
FAILURE_LABELS = {
    "parse_failure": "unreadable replies",
    "image_failure": "images that could not be opened",
    "judge_failure": "failed judgements",
}


@dataclass(frozen=True)
class RunResults:
    """One lmms-eval results file: where it came from and its parsed JSON."""

    path: Path
    data: dict[str, Any]

    @property
    def results(self) -> dict[str, Any]:
        return self.data["results"]


def result_files(paths: Iterable[str | Path]) -> list[Path]:
    """The ``*_results.json`` files named, or found (recursively, sorted) under the folders named; each once."""
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(path.rglob("*_results.json"))
            if not found:
                raise FileNotFoundError(f"no *_results.json under {path}")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path} does not exist")
    return list(dict.fromkeys(files))


def load_run(path: Path) -> RunResults:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise ValueError(f"{path}: not an lmms-eval results JSON ({err})") from err
    if not isinstance(data, dict) or not isinstance(data.get("results"), dict):
        raise ValueError(f'{path}: no "results" object; not an lmms-eval results JSON')
    return RunResults(Path(path), data)


def samples_file(run: RunResults, task: str) -> Path | None:
    """The ``--log_samples`` file of one task of a run (``<date>_samples_<task>.jsonl`` beside
    ``<date>_results.json``), or None when the run has none."""
    name = run.path.name
    if not name.endswith("_results.json"):
        return None
    path = run.path.with_name(f"{name[: -len('_results.json')]}_samples_{task}.jsonl")
    return path if path.is_file() else None


def read_samples(path: Path) -> list[dict[str, Any]]:
    """The per-sample records of a ``--log_samples`` file; a malformed line is an error naming file and line."""
    samples = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                raise ValueError(f"{path}:{number}: not valid JSON: {json_problem(err)}") from err
            if not isinstance(record, dict) or "doc_id" not in record:
                raise ValueError(f'{path}:{number}: not an lmms-eval sample (no "doc_id")')
            samples.append(record)
    return samples


def load_runs(paths: Iterable[str | Path]) -> list[RunResults]:
    """Every results file named by ``paths`` (files or folders), read."""
    return [load_run(path) for path in result_files(paths)]


def file_names(runs: Iterable[RunResults]) -> str:
    """The runs' file paths, comma-separated, for error messages."""
    return ", ".join(str(run.path) for run in runs)


def has_task(run: RunResults, task: str) -> bool:
    return task in run.results


def metric_value(run: RunResults, task: str, metric: str) -> float:
    """``results[task]["<metric>,none"]`` as a float; NaN when the task or metric is absent (or null)."""
    key = f"{metric},none"
    value = (run.results.get(task) or {}).get(key)
    if value is None:
        return math.nan
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise ValueError(f"{run.path}: results[{task!r}][{key!r}] is {value!r}, not a number")
    return float(value)


def task_size(run: RunResults, task: str) -> int | None:
    """The number of samples lmms-eval scored for ``task`` (``n-samples`` effective), None if not recorded."""
    value = ((run.data.get("n-samples") or {}).get(task) or {}).get("effective")
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def failure_rates(run: RunResults, task: str) -> dict[str, float]:
    """The task's failure metrics (``chronotasks.failures.FAILURE_METRICS``) that the run reports."""
    rates = {name: metric_value(run, task, name) for name in FAILURE_METRICS}
    return {name: rate for name, rate in rates.items() if not math.isnan(rate)}


def _figures(run: RunResults, task: str) -> list[Any]:
    """The task's aggregated values other than failure rates and standard errors."""
    return [
        value
        for key, value in (run.results.get(task) or {}).items()
        if key.endswith(",none") and "_stderr" not in key and key.split(",")[0] not in FAILURE_METRICS
    ]


def failure_reasons(run: RunResults, task: str, threshold: float | None = None) -> list[str]:
    """Why the task of this run is a failed task (docs/architecture.md, "Failures"), empty when its figures stand:
    a failure rate over the threshold (``chronotasks.failures``), or no figure at all (every value NaN)."""
    n = task_size(run, task)
    rates = failure_rates(run, task)
    reasons = [
        f"{FAILURE_LABELS.get(name, name)} {rates[name]:.0%}" + (f" ({round(rates[name] * n)}/{n})" if n else "")
        for name in failed_metrics(rates, threshold)
    ]
    figures = _figures(run, task)
    if not reasons and figures and all(not isinstance(v, (int, float)) or isinstance(v, bool) or math.isnan(v) for v in figures):
        reasons.append("no figure (every value NaN)")
    return reasons


def data_origins(run: RunResults, tasks: Iterable[str]) -> set[str] | None:
    """The ``data_origin`` values the run's samples of ``tasks`` log (read from the first sample of each
    ``--log_samples`` file); None when the run has no samples file for any of them."""
    origins, files = set(), 0
    for task in tasks:
        path = samples_file(run, task)
        if path is None:
            continue
        files += 1
        with open(path, encoding="utf-8") as handle:
            first = next((line for line in handle if line.strip()), "")
        try:
            sample = json.loads(first) if first else {}
        except json.JSONDecodeError as err:
            raise ValueError(f"{path}:1: not valid JSON: {json_problem(err)}") from err
        if isinstance(sample, dict) and sample.get(DATA_ORIGIN):
            origins.add(str(sample[DATA_ORIGIN]))
    return origins if files else None


def is_demo(origins: set[str] | None) -> bool:
    return bool(origins) and DEMO_ORIGIN in origins


# failure metric -> its column in a report table (one for each of FAILURE_METRICS)
HEALTH_COLUMNS = {
    "parse_failure": "parse fail",
    "image_failure": "image fail",
    "judge_failure": "judge fail",
    "judge_parse_failure": "judge reply unread",
    "generation_failure": "no image",
}
assert set(HEALTH_COLUMNS) == set(FAILURE_METRICS), "every failure metric needs its report column"


def pooled_health(
    runs: Iterable[RunResults], tasks: Iterable[str], threshold: float | None = None
) -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Failure counts over ``tasks`` of ``runs`` ({metric: (failed samples, samples)}, pooled), and why a
    task failed ("task: reason", ``failure_reasons``; the file is named when there are several runs)."""
    runs = list(runs)
    counts: dict[str, list[int]] = {}
    failed = []
    for task in dict.fromkeys(tasks):
        for run in runs:
            if not has_task(run, task):
                continue
            n = task_size(run, task)
            for metric, rate in failure_rates(run, task).items():
                if n:
                    total = counts.setdefault(metric, [0, 0])
                    total[0] += round(rate * n)
                    total[1] += n
            reasons = failure_reasons(run, task, threshold)
            if reasons:
                failed.append(f"{task}: {', '.join(reasons)}" + (f" ({run.path.name})" if len(runs) > 1 else ""))
    return {m: (c[0], c[1]) for m, c in counts.items()}, list(dict.fromkeys(failed))


def health_text(counts: tuple[int, int] | None) -> str:
    """ "2.5 (6/240)": the failure rate in % with failed / all samples; "–" when not reported."""
    if counts is None or not counts[1]:
        return MISSING
    failed, total = counts
    return f"{100 * failed / total:.1f} ({failed}/{total})"


def status_text(failed: list[str]) -> str:
    return "FAILED: " + "; ".join(failed) if failed else "ok"


def group_by_model(paths: Sequence[str | Path], labels: Sequence[str] | None = None) -> dict[str, list[RunResults]]:
    """The runs under ``paths`` (results files or folders) by model, in the order first seen: the model
    and its model_args (``model_name(with_args=True)``), or ``labels[i]`` for every run under
    ``paths[i]``. Runs of different models are never merged; several runs of one model are repeats."""
    if labels is not None and len(labels) != len(paths):
        raise ValueError(f"--label given {len(labels)} times for {len(paths)} run paths (once per path)")
    models: dict[str, list[RunResults]] = {}
    seen: set[Path] = set()
    for index, path in enumerate(paths):
        for run in load_runs([path]):
            if run.path.resolve() in seen:  # a results file under two paths is one run
                continue
            seen.add(run.path.resolve())
            label = labels[index] if labels is not None else model_name(run, with_args=True)
            models.setdefault(label, []).append(run)
    return models


def origins_by_model(runs_by_model: dict[str, list[RunResults]]) -> dict[str, set[str] | None]:
    """Model -> the data origins its runs' samples log (``data_origins`` over every task of each run);
    None when none of its runs has a --log_samples file."""
    out: dict[str, set[str] | None] = {}
    for label, runs in runs_by_model.items():
        known = [found for found in (data_origins(run, list(run.results)) for run in runs) if found is not None]
        out[label] = set().union(*known) if known else None
    return out


def demo_lines(origins: dict[str, set[str] | None]) -> list[str]:
    """The first lines of a report when a model read demo data (empty otherwise), from ``origins_by_model``."""
    demo = [label for label, found in origins.items() if is_demo(found)]
    if not demo:
        return []
    who = "Every run on this page" if len(demo) == len(origins) else "The runs of " + ", ".join(demo)
    return [
        f"**{DEMO_WARNING[0].upper() + DEMO_WARNING[1:]}.** {who} read records written by `chronotasks demo-data` "
        "(procedurally drawn, a few dozen per task): they exercise the tasks end to end and measure nothing."
    ]


def demo_mark(origins: dict[str, set[str] | None]) -> str | None:
    """The caveat printed inside every plot when a model read demo data (``origins_by_model``), else None."""
    return DEMO_WARNING if any(is_demo(found) for found in origins.values()) else None


def model_name(run: RunResults, with_args: bool = False) -> str:
    """``config.model`` of the run ("?" if absent), with ``(model_args)`` appended when asked and non-empty."""
    config = run.data.get("config") or {}
    name = str(config.get("model") or "?")
    args = str(config.get("model_args") or "").strip()
    return f"{name} ({args})" if with_args and args else name


def format_number(value: float, digits: int) -> str:
    return MISSING if math.isnan(value) else f"{value:.{digits}f}"


def csv_number(value: float) -> float | str:
    return "" if math.isnan(value) else round(value, 4)


def markdown_table(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    lines = ["| " + " | ".join(map(str, header)) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(map(str, row)) + " |" for row in rows]
    return "\n".join(lines)


def csv_text(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


@dataclass(frozen=True)
class ReferenceLine:
    """A horizontal reference across each category's group of bars (NaN: none there), e.g. the chance
    level or a paper's published row. Lines of one ``label`` share one legend entry; ``notes`` put a
    short text at the line's right end per category (e.g. the name of a paper's highest row)."""

    label: str
    values: Sequence[float]
    style: str = "chance"  # "chance" (dashed black) or "paper" (thin grey)
    notes: Sequence[str] | None = None


@dataclass(frozen=True)
class BarPanel:
    """One grouped bar chart: a group of bars per category, one bar per series (NaN: no bar)."""

    title: str
    categories: Sequence[str]
    series: Mapping[str, Sequence[float]]
    ylabel: str = ""
    errors: Mapping[str, Sequence[float]] | None = None  # same shape as series; error bars where given
    intervals: Mapping[str, Sequence[tuple[float, float]]] | None = None  # (low, high) per bar: asymmetric error bars
    references: Sequence[ReferenceLine] = ()
    sizes: Mapping[str, Sequence[int | None]] | None = None  # questions per bar: "n=k" on bars with few (FEW_N)


@dataclass(frozen=True)
class HeatmapPanel:
    """A matrix of counts (e.g. gold period × predicted period), each cell annotated with its count."""

    title: str
    rows: Sequence[str]
    columns: Sequence[str]
    counts: Sequence[Sequence[int]]
    xlabel: str = ""
    ylabel: str = ""


# a bar resting on fewer questions than this carries its n (a 1-question 100% bar reads as a result)
FEW_N = 10
MISSING_BAR = "no figure"


def _mark(figure: Any, mark: str | None) -> None:
    """The caveat inside the figure (e.g. demo data), so a copied PNG keeps it."""
    if mark:
        figure.suptitle(mark, color="firebrick", fontsize=9, fontweight="bold")


def write_bar_chart(path: str | Path, panels: Sequence[BarPanel], mark: str | None = None) -> Path:
    """Draw the panels one above the other into a PNG at ``path`` (``mark``: a caveat printed at the top
    of the figure); returns the path."""
    if not panels:
        raise ValueError(f"{path}: nothing to plot")
    figure = bar_chart(panels, mark)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", dpi=120)
    return path


def bar_chart(panels: Sequence[BarPanel], mark: str | None = None) -> Any:
    """The matplotlib figure of ``write_bar_chart`` (Agg canvas, 120 dpi), laid out and its notes placed."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    legend = max(len(str(name)) for p in panels for name in p.series) if any(p.series for p in panels) else 0
    width = max(6.0, 1.2 * max(len(p.categories) for p in panels)) + min(6.0, 0.09 * legend + 0.8)
    figure = Figure(figsize=(width, 3.8 * len(panels) + (0.3 if mark else 0.0)), layout="constrained", dpi=120)
    canvas = FigureCanvasAgg(figure)
    _mark(figure, mark)
    notes, fixed = [], []
    for axes, panel in zip(figure.subplots(len(panels), 1, squeeze=False)[:, 0], panels):
        drawn = _draw_panel(axes, panel)
        notes, fixed = notes + drawn[0], fixed + drawn[1]
    canvas.draw()  # the layout, then the notes moved apart within it
    figure.set_layout_engine("none")
    place_notes(figure, notes, fixed)
    return figure


def _draw_panel(axes: Any, panel: BarPanel) -> tuple[list[Any], list[Any]]:
    """Bars (none, and "no figure" written, where a value is missing), error bars, n on bars with few
    questions, reference lines; returns the reference lines' name notes (``place_notes`` moves them apart)
    and the texts written on the bars (which they must not cover)."""
    from matplotlib.patches import Rectangle

    width = 0.8 / max(1, len(panel.series))
    fixed: list[Any] = []
    for index, (label, values) in enumerate(panel.series.items()):
        offsets = [c + (index - (len(panel.series) - 1) / 2) * width for c in range(len(panel.categories))]
        errors = (panel.errors or {}).get(label)
        if (panel.intervals or {}).get(label) is not None:
            errors = [
                [0.0 if math.isnan(v - lo) else v - lo for v, (lo, _) in zip(values, panel.intervals[label])],
                [0.0 if math.isnan(hi - v) else hi - v for v, (_, hi) in zip(values, panel.intervals[label])],
            ]
        elif errors is not None:
            errors = [0.0 if math.isnan(e) else e for e in errors]
        drawn = [i for i, v in enumerate(values) if not math.isnan(v)]
        if errors and isinstance(errors[0], list):  # (low, high) per bar
            errors = [[row[i] for i in drawn] for row in errors]
        elif errors:
            errors = [errors[i] for i in drawn]
        color = f"C{index % 10}"  # by series, also where a series has no bar at all
        if drawn:
            axes.bar(
                [offsets[i] for i in drawn],
                [values[i] for i in drawn],
                width,
                label=label,
                color=color,
                yerr=errors,
                capsize=2 if errors else 0,
            )
        else:  # its legend entry, in its colour (an empty bar set has none)
            axes.add_patch(Rectangle((0.0, 0.0), 0.0, 0.0, color=color, label=label))
        for i, value in enumerate(values):
            if math.isnan(value):  # missing is not 0: no bar, and it says so
                fixed.append(axes.text(offsets[i], 0.0, MISSING_BAR, rotation=90, ha="center", va="bottom", fontsize=6, color="0.35"))
        sizes = (panel.sizes or {}).get(label) or []
        for i, n in zip(drawn, [sizes[i] if i < len(sizes) else None for i in drawn]):
            if n is not None and n < FEW_N:
                fixed.append(
                    axes.annotate(
                        f"n={n}",
                        (offsets[i], values[i]),
                        xytext=(0, 2),
                        textcoords="offset points",
                        ha="center",
                        va="bottom" if values[i] >= 0 else "top",
                        fontsize=6,
                        color=color,
                    )
                )
    notes = _draw_references(axes, panel.references)
    axes.set_xticks(range(len(panel.categories)), list(panel.categories), rotation=20, ha="right")
    axes.set_title(panel.title)
    axes.set_ylabel(panel.ylabel)
    axes.axhline(0.0, color="black", linewidth=0.6)
    # the legend beside the axes, never over the bars: reference lines, then the series in their order
    order = {name: index for index, name in enumerate(panel.series)}
    entries = sorted(zip(*axes.get_legend_handles_labels()), key=lambda entry: order.get(entry[1], -1))
    axes.legend(
        [h for h, _ in entries],
        [label for _, label in entries],
        fontsize="small",
        loc="upper left",
        bbox_to_anchor=(1.01, 1.0),
        borderaxespad=0.0,
    )
    return notes, fixed


def place_notes(figure: Any, notes: Sequence[Any], fixed: Sequence[Any] = ()) -> None:
    """Move the notes (text annotations) so that none overlaps another or a ``fixed`` text and all lie inside
    the figure: from the lowest up, a note that overlaps one already placed moves up past it; one past its
    axes' left or right edge moves back in (so never under the legend beside them), one past the top down."""
    renderer = figure.canvas.get_renderer()
    inside = figure.bbox
    placed: list[Any] = [text.get_window_extent(renderer) for text in fixed]
    points = 72.0 / figure.dpi
    for note in sorted(notes, key=lambda n: (n.xy[1], n.xy[0])):
        for _ in range(len(notes) + 1):
            box, across = note.get_window_extent(renderer), note.axes.bbox  # inside its axes: not under the legend
            dx = min(0.0, across.x1 - 1 - box.x1) + max(0.0, across.x0 + 1 - box.x0)
            hit = next((b for b in placed if b.overlaps(box)), None)
            dy = 0.0 if hit is None else hit.y1 - box.y0 + 1
            if not dx and not dy:
                break
            x, y = note.xyann
            note.xyann = (x + dx * points, y + dy * points)
        box = note.get_window_extent(renderer)
        if box.y1 > inside.y1 - 1:  # past the top: moved down below the lowest note it would meet
            x, y = note.xyann
            note.xyann = (x, y - (box.y1 - inside.y1 + 1) * points)
        placed.append(note.get_window_extent(renderer))


_REFERENCE_STYLES = {
    "chance": {"color": "black", "linestyle": "--", "linewidth": 1.2},
    "paper": {"color": "0.45", "linestyle": "-", "linewidth": 0.8, "alpha": 0.7},
}


def _draw_references(axes: Any, references: Sequence[ReferenceLine]) -> list[Any]:
    """Each reference as a segment across its category's bars; one legend entry per label; returns the
    notes written at the lines' right ends."""
    labelled: set[str] = set()
    notes = []
    for line in references:
        style = _REFERENCE_STYLES[line.style]
        for index, value in enumerate(line.values):
            if value is None or math.isnan(value):
                continue
            label = None if line.label in labelled else line.label
            labelled.add(line.label)
            axes.hlines(value, index - 0.45, index + 0.45, label=label, zorder=3, **style)
            note = line.notes[index] if line.notes else ""
            if note:
                notes.append(
                    axes.annotate(
                        note,
                        (index + 0.45, value),
                        fontsize=6,
                        color=style["color"],
                        va="center",
                        xytext=(2, 0),
                        textcoords="offset points",
                        annotation_clip=False,
                        zorder=5,
                        bbox={"boxstyle": "square,pad=0.1", "fc": "white", "ec": "none", "alpha": 0.8},
                    )
                )  # legible over the bars it may cross
    return notes


def write_heatmaps(path: str | Path, panels: Sequence[HeatmapPanel], mark: str | None = None) -> Path:
    """Draw the count matrices one above the other into a PNG at ``path`` (colour bar beside each; ``mark``: a
    caveat printed at the top of the figure); returns the path."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if not panels:
        raise ValueError(f"{path}: nothing to plot")
    width = 2.5 + 0.9 * max(len(p.columns) for p in panels)
    heights = [1.8 + 0.38 * len(p.rows) for p in panels]
    figure = Figure(figsize=(width, sum(heights) + (0.3 if mark else 0.0)), layout="constrained")
    FigureCanvasAgg(figure)
    _mark(figure, mark)
    for axes, panel in zip(figure.subplots(len(panels), 1, squeeze=False, height_ratios=heights)[:, 0], panels):
        image = axes.imshow(panel.counts, cmap="Blues", aspect="auto", vmin=0)
        top = max((max(row) for row in panel.counts if row), default=0)
        for i, row in enumerate(panel.counts):
            for j, count in enumerate(row):
                axes.text(j, i, str(count), ha="center", va="center", fontsize=7, color="white" if top and count > top / 2 else "black")
        axes.set_xticks(range(len(panel.columns)), list(panel.columns), rotation=30, ha="right", fontsize=7)
        axes.set_yticks(range(len(panel.rows)), list(panel.rows), fontsize=7)
        axes.set_xlabel(panel.xlabel)
        axes.set_ylabel(panel.ylabel)
        axes.set_title(panel.title, fontsize=9)
        figure.colorbar(image, ax=axes, label="questions", fraction=0.05)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", dpi=120)
    return path
