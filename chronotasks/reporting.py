"""Shared pieces of the ``chronotasks report`` commands.

- find lmms-eval ``*_results.json`` files (file or folder arguments) and read them, and the
  ``--log_samples`` files beside them;
- read one task's metric (``results[task]["<metric>,none"]``);
- render a table as markdown or CSV;
- draw grouped bar charts to a PNG (matplotlib, Agg canvas).

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

MISSING = "–"


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
        raise ValueError(f"{path}: no \"results\" object; not an lmms-eval results JSON")
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
                raise ValueError(f"{path}:{number}: not an lmms-eval sample (no \"doc_id\")")
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
class BarPanel:
    """One grouped bar chart: a group of bars per category, one bar per series (NaN: no bar)."""

    title: str
    categories: Sequence[str]
    series: Mapping[str, Sequence[float]]
    ylabel: str = ""
    errors: Mapping[str, Sequence[float]] | None = None   # same shape as series; error bars where given
    intervals: Mapping[str, Sequence[tuple[float, float]]] | None = None   # (low, high) per bar: asymmetric error bars


def write_bar_chart(path: str | Path, panels: Sequence[BarPanel]) -> Path:
    """Draw the panels one above the other into a PNG at ``path``; returns the path."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    if not panels:
        raise ValueError(f"{path}: nothing to plot")
    figure = Figure(figsize=(max(6.0, 1.2 * max(len(p.categories) for p in panels)), 3.6 * len(panels)), layout="constrained")
    FigureCanvasAgg(figure)
    for axes, panel in zip(figure.subplots(len(panels), 1, squeeze=False)[:, 0], panels):
        _draw_panel(axes, panel)
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", dpi=120)
    return path


def _draw_panel(axes: Any, panel: BarPanel) -> None:
    width = 0.8 / max(1, len(panel.series))
    for index, (label, values) in enumerate(panel.series.items()):
        offsets = [c + (index - (len(panel.series) - 1) / 2) * width for c in range(len(panel.categories))]
        errors = (panel.errors or {}).get(label)
        if (panel.intervals or {}).get(label) is not None:
            errors = [[0.0 if math.isnan(v - lo) else v - lo for v, (lo, _) in zip(values, panel.intervals[label])],
                      [0.0 if math.isnan(hi - v) else hi - v for v, (_, hi) in zip(values, panel.intervals[label])]]
        elif errors is not None:
            errors = [0.0 if math.isnan(e) else e for e in errors]
        axes.bar(offsets, [0.0 if math.isnan(v) else v for v in values], width, label=label,
                 yerr=errors, capsize=2 if errors else 0)
    axes.set_xticks(range(len(panel.categories)), list(panel.categories), rotation=20, ha="right")
    axes.set_title(panel.title)
    axes.set_ylabel(panel.ylabel)
    axes.axhline(0.0, color="black", linewidth=0.6)
    axes.legend(fontsize="small")
