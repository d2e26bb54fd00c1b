"""The suite report's tables (markdown and CSV), plots (PNG) and page."""

from __future__ import annotations

import json
import math
import os
from dataclasses import dataclass, field
from pathlib import Path

from chronotasks import reporting
from chronotasks.benchmarks.tempviz import CATEGORIES as TEMPVIZ_CATEGORIES
from chronotasks.suite_report import headlines as specs
from chronotasks.suite_report.measure import Cell, Headline, Measurer, Model, Run


@dataclass
class Table:
    id: str
    section: str
    title: str
    row_header: list[str]
    columns: list[str]
    rows: list[tuple[list[str], list[tuple[Cell | None, Headline]]]] = field(default_factory=list)


def _number(value: float, headline: Headline, signed: bool = False) -> str:
    if math.isnan(value):
        return reporting.MISSING
    return f"{value * headline.scale:{'+' if signed else ''}.{headline.digits}f}"


def cell_text(cell: Cell | None, headline: Headline, show_sd: bool) -> str:
    if cell is None or math.isnan(cell.value):
        return reporting.MISSING
    signed = cell.p is not None      # a difference (it carries its p-value) shows its sign
    text = _number(cell.value, headline, signed)
    if not math.isnan(cell.low):
        text += f" [{_number(cell.low, headline, signed)}, {_number(cell.high, headline, signed)}]"
    if show_sd and cell.p is None:   # a difference carries its p-value, not a run spread
        text += " ± " + ("n/a" if math.isnan(cell.sd) else _number(cell.sd, headline))
    if cell.p is not None:
        text += ", p " + ("n/a" if math.isnan(cell.p) else f"{cell.p:.3g}")
    return text


def _show_sd(table: Table) -> bool:
    return any(cell is not None and cell.runs > 1 for _, cells in table.rows for cell, _ in cells)


def table_markdown(table: Table) -> str:
    show_sd = _show_sd(table)
    rows = [labels + [cell_text(cell, h, show_sd) for cell, h in cells] for labels, cells in table.rows]
    return reporting.markdown_table(table.row_header + table.columns, rows)


CSV_FIELDS = ["column", "value", "ci_low", "ci_high", "run_sd", "runs", "questions", "p_value"]


def table_csv(table: Table) -> str:
    """One line per cell, numbers as shown (scaled), empty where missing."""
    lines = []
    for labels, cells in table.rows:
        for column, (cell, h) in zip(table.columns, cells):
            if cell is None:
                continue
            scaled = [reporting.csv_number(v * h.scale) for v in (cell.value, cell.low, cell.high, cell.sd)]
            p = "" if cell.p is None or math.isnan(cell.p) else round(cell.p, 6)
            lines.append(labels + [column, *scaled, cell.runs, cell.questions, p])
    return reporting.csv_text([h.lower() for h in table.row_header] + CSV_FIELDS, lines)


# -- building the tables ----------------------------------------------------------------------
def benchmark_tables(models: list[Model], measurer: Measurer) -> list[Table]:
    tables = []
    for spec in specs.tables():
        table = Table(spec.id, spec.section, spec.title, ["Model"] + ([spec.variant_header] if spec.variant_header else []),
                      spec.columns)
        for model in models:
            for variant, row in spec.variants:
                if not model.has_any(t for h in row for t in h.tasks):
                    continue
                cells = [(measurer.measure(model, h), h) for h in row]
                if all(cell is None or math.isnan(cell.value) for cell, _ in cells):
                    continue
                table.rows.append(([model.label] + ([variant] if spec.variant_header else []), cells))
        if table.rows:
            tables.append(table)
    return tables


def leaf_tasks(run: Run) -> list[str]:
    """The run's tasks, groups left out (lmms-eval lists a group's tasks under ``group_subtasks``)."""
    groups = run.results.data.get("group_subtasks") or {}
    return [task for task in run.results.results if not groups.get(task)]


def gray_bases(models: list[Model]) -> list[str]:
    """Base tasks that some model ran both in colour and as ``<task>_gray``, in the order first seen."""
    seen = {}
    for model in models:
        for run in model.runs:
            for task in leaf_tasks(run):
                if task.endswith("_gray") and model.runs_with([task[: -len("_gray")]]):
                    seen.setdefault(task[: -len("_gray")], None)
    return list(seen)


def gray_table(models: list[Model], measurer: Measurer) -> Table | None:
    table = Table("grayscale", "Grayscale", "Colour vs grayscale images (the same questions; Δ = colour − gray, "
                  "paired interval and permutation p-value)", ["Model", "Task", "Figure"], ["colour", "gray", "Δ colour − gray"])
    for model in models:
        for base in gray_bases(models):
            if not (model.runs_with([base]) and model.runs_with([base + "_gray"])):
                continue
            for label, colour, gray in specs.gray_headlines(base):
                cells = [measurer.measure(model, colour), measurer.measure(model, gray),
                         measurer.compare(model, colour, model, gray, f"{model.label}, {base} colour vs gray")]
                if cells[0] is None or math.isnan(cells[0].value):
                    continue
                table.rows.append(([model.label, base, label], [(c, colour) for c in cells]))
    return table if table.rows else None


def comparison_table(models: list[Model], measurer: Measurer, tables: list[Table]) -> Table | None:
    """Every model against the first one, on each headline figure both have (paired, same questions)."""
    if len(models) < 2:
        return None
    reference = models[0]
    table = Table("comparisons", "Paired comparisons", f"Paired differences against {reference.label} (model − "
                  f"{reference.label} on the questions both ran; bootstrap interval, permutation p-value)",
                  ["Model", "Table", "Row", "Figure"], ["difference"])
    shown = {t.id for t in tables}
    for model in models[1:]:
        for spec in specs.tables():
            if not spec.compare or spec.id not in shown:
                continue
            for variant, row in spec.variants:
                for h in row:
                    if not (h.compared and model.runs_with(h.tasks) and reference.runs_with(h.tasks)):
                        continue
                    cell = measurer.compare(model, h, reference, h, f"{model.label} vs {reference.label}, {spec.id} {h.column}")
                    if cell is not None and not math.isnan(cell.value):
                        table.rows.append(([model.label, spec.id, variant or "–", h.column], [(cell, h)]))
    return table if table.rows else None


# -- TempViz meta-evaluation (chronotasks metaeval tempviz --out DIR writes metaeval.json) ----------
def metaeval_files(paths: list[str | Path]) -> list[Path]:
    found = []
    for raw in paths:
        path = Path(raw)
        found += [path] if path.name == "metaeval.json" else sorted(path.rglob("metaeval.json")) if path.is_dir() else []
    return list(dict.fromkeys(found))


def judges_markdown(files: list[Path]) -> tuple[str, str, dict[str, dict[str, float]]]:
    """Markdown, CSV and F1 per (judge, category) of the judge-vs-human meta-evaluations found."""
    rows, f1 = [], {}
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            entries = [*data["judges"].items(), (f"random baseline (seed {data['random_baseline']['seed']})", data["random_baseline"])]
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise ValueError(f"{path}: not a `chronotasks metaeval tempviz` metaeval.json ({err})") from err
        for name, result in entries:
            if "overall" not in result:
                continue
            label = name if len(files) == 1 else f"{name} ({path.parent.name})"
            for category, m in [("Overall", result["overall"]), *result["per_category"].items()]:
                rows.append([label, category, f"{m['precision']:.1f}", f"{m['recall']:.1f}", f"{m['f1']:.1f}", m["n"]])
                f1.setdefault(label, {})[category] = float(m["f1"])
    header = ["Judge", "Category", "P", "R", "F1", "n"]
    return reporting.markdown_table(header, rows), reporting.csv_text(header, rows), f1


# -- plots ----------------------------------------------------------------------------------------
def _series(table: Table, rows=None) -> tuple[dict[str, list[float]], dict[str, list[tuple[float, float]]]]:
    series, intervals = {}, {}
    for labels, cells in rows if rows is not None else table.rows:
        name = " ".join(label for label in labels if label)
        series[name] = [math.nan if c is None else c.value * h.scale for c, h in cells]
        intervals[name] = [(math.nan, math.nan) if c is None else (c.low * h.scale, c.high * h.scale) for c, h in cells]
    return series, intervals


def _panel(table: Table, title: str, ylabel: str) -> reporting.BarPanel:
    series, intervals = _series(table)
    return reporting.BarPanel(title, table.columns, series, ylabel, intervals=intervals)


def plots(tables: dict[str, Table], gray: Table | None, judges_f1: dict[str, dict[str, float]]) -> dict[str, list[reporting.BarPanel]]:
    """PNG file name -> panels, for the figures people would rather look at (95% intervals as error bars)."""
    out: dict[str, list[reporting.BarPanel]] = {}
    periods = [_panel(tables[t], title, "accuracy (%)") for t, title in
               (("tabvlm_periods", "TAB-VLM Style-Period accuracy per period"),
                ("chronovision_dynasties", "ChronoVision localization accuracy per dynasty")) if t in tables]
    if periods:
        out["per_period_accuracy.png"] = periods
    if "chronovision_shortcut" in tables:
        out["shortcut_delta.png"] = [_panel(tables["chronovision_shortcut"], "ChronoVision shortcut Δ_ACC per SPEED category", "Δ_ACC (%)")]
    if "circular" in tables:
        table = tables["circular"]
        tasks = list(dict.fromkeys(labels[1] for labels, _ in table.rows))
        series, intervals = {}, {}
        for model in dict.fromkeys(labels[0] for labels, _ in table.rows):
            for index, kind in enumerate(("plain", "circular")):
                cells = {labels[1]: cells[index] for labels, cells in table.rows if labels[0] == model}
                series[f"{model} {kind}"] = [cells[t][0].value * 100 if t in cells and cells[t][0] else math.nan for t in tasks]
                intervals[f"{model} {kind}"] = [(cells[t][0].low * 100, cells[t][0].high * 100) if t in cells and cells[t][0]
                                                else (math.nan, math.nan) for t in tasks]
        out["circular_vs_plain.png"] = [reporting.BarPanel("Plain vs circular accuracy", tasks, series, "accuracy (%)",
                                                           intervals=intervals)]
    if gray is not None:
        main = [(labels, cells) for labels, cells in gray.rows if labels[2] in ("accuracy", "ACC_A", "τ", "ANLS")]
        bases = list(dict.fromkeys(f"{labels[1]} {labels[2]}" for labels, _ in main))
        series, intervals = {}, {}
        for model in dict.fromkeys(labels[0] for labels, _ in main):
            delta = {f"{labels[1]} {labels[2]}": cells[2] for labels, cells in main if labels[0] == model}
            # in points: accuracies in %, τ × 100
            series[model] = [delta[b][0].value * 100 if b in delta and delta[b][0] else math.nan for b in bases]
            intervals[model] = [(delta[b][0].low * 100, delta[b][0].high * 100) if b in delta and delta[b][0]
                                else (math.nan, math.nan) for b in bases]
        out["grayscale_delta.png"] = [reporting.BarPanel("Δ = colour − gray (τ ×100)", bases, series, "Δ (points)",
                                                         intervals=intervals)]
    if "tempviz" in tables:
        out["tempviz_acceptance.png"] = [_panel(tables["tempviz"], "TempViz acceptance per category", "accepted (%)")]
    if judges_f1:
        categories = ["Overall", *TEMPVIZ_CATEGORIES]
        out["tempviz_judges.png"] = [reporting.BarPanel(
            "TempViz judges vs human labels (macro F1)", categories,
            {judge: [scores.get(c, math.nan) for c in categories] for judge, scores in judges_f1.items()}, "macro F1 (%)")]
    return out


# -- the page ----------------------------------------------------------------------------------------
@dataclass
class Report:
    markdown: str
    csv: dict[str, str]                                   # file name -> text
    plots: dict[str, list[reporting.BarPanel]]            # file name -> panels


def runs_table(models: list[Model]) -> str:
    rows = []
    for model in models:
        for run in model.runs:
            config = run.results.data.get("config") or {}
            tasks = leaf_tasks(run)
            logged = sum(reporting.samples_file(run.results, t) is not None for t in tasks)
            rows.append([model.label, str(run.results.path), len(tasks), f"{logged}/{len(tasks)}",
                         config.get("random_seed", "?"), run.repeats])
    return reporting.markdown_table(["Model", "Results file", "Tasks", "Samples logged", "Seed", "-n"], rows)


def build(models: list[Model], measurer: Measurer, metaeval: list[Path]) -> Report:
    tables = benchmark_tables(models, measurer)
    gray = gray_table(models, measurer)
    comparisons = comparison_table(models, measurer, tables)
    judges_md, judges_csv, judges_f1 = judges_markdown(metaeval) if metaeval else ("", "", {})
    settings = measurer.settings
    parts = ["# chronotasks report", "",
             f"Numbers are lmms-eval's (from each results file); [low, high] is a {settings.confidence:.0%} percentile "
             f"bootstrap interval over questions (scipy.stats.bootstrap, {settings.resamples} resamples, seed "
             f"{settings.seed}; from the --log_samples files). Where a model has several runs of a task, the number is "
             "their mean, the interval resamples questions only, and ± gives the run-to-run standard deviation "
             "(n/a for a single run). Definitions: the benchmark READMEs (chronotasks/tasks/<benchmark>/README.md).",
             "", "## Runs", "", runs_table(models)]
    section = None
    for table in tables + [t for t in (gray, comparisons) if t is not None]:
        if table.section != section:
            section = table.section
            parts += ["", f"## {section}"]
        parts += ["", f"{table.title}:", "", table_markdown(table)]
        if table.section == "TempViz" and judges_md:
            parts += ["", "Judges against human labels (`chronotasks metaeval tempviz`; macro P/R/F1 %, Q2 AND Q3):", "",
                      judges_md]
    if judges_md and not any(t.section == "TempViz" for t in tables):
        parts += ["", "## TempViz", "", "Judges against human labels (`chronotasks metaeval tempviz`; macro P/R/F1 %):", "",
                  judges_md]
    panels = plots({t.id: t for t in tables}, gray, judges_f1)
    if panels:
        parts += ["", "## Plots", ""] + [f"![{name[:-4].replace('_', ' ')}]({name})" for name in panels]
    if any(run.repeats > 1 for model in models for run in model.runs):
        measurer.note("Some runs used lmms-eval -n: lmms-eval 0.7.3 scores only the first reply of each question of a "
                      "generate_until task (take_first filter), so repeats there add no information; run-to-run spread "
                      "comes from separate runs (e.g. --seed), given as several RUN_DIRs of one model.")
    if measurer.notes:
        parts += ["", "## Notes", ""] + [f"- {note}" for note in measurer.notes]
    csv = {f"{t.id}.csv": table_csv(t) for t in tables + [t for t in (gray, comparisons) if t is not None]}
    if judges_csv:
        csv["tempviz_judges.csv"] = judges_csv
    return Report("\n".join(parts) + "\n", csv, panels)


def write(report: Report, out: Path) -> list[Path]:
    """Write the page, its CSV tables and PNG plots under ``out`` (each file atomically)."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in [("report.md", report.markdown), *report.csv.items()]:
        tmp = out / f".{name}.{os.getpid()}.tmp"
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, out / name)
        written.append(out / name)
    for name, panels in report.plots.items():
        tmp = out / f".{name[:-4]}.{os.getpid()}.tmp.png"
        reporting.write_bar_chart(tmp, panels)
        os.replace(tmp, out / name)
        written.append(out / name)
    return written


__all__ = ["Report", "Table", "build", "cell_text", "metaeval_files", "write"]
