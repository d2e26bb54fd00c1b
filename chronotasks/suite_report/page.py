"""The suite report's tables (markdown and CSV), plots (PNG) and page.

What keeps the page from misleading: rows are keyed by model (and model_args), never merged across
models; every number shows what it rests on (n questions, or N samples without --log_samples); each
benchmark row shows its parse, image and judge failure rates and is marked FAILED when a task of it
failed (``chronotasks.failures``: more than the threshold of its samples failed, or it has no figure);
the page's first lines say so, and say "synthetic demo data" when a run read demo data (the
``data_origin`` its samples log); every symbol shown is defined on the page.

What puts a run in context (``context``, ``offsets``): each table's chance row and the papers' published
rows for it (with where each of our rows falls among them; "meaningless" on demo data); the plots draw
both as reference lines; the tables of how far off in time add confusion matrices (gold × predicted
period) and signed year-error histograms."""

from __future__ import annotations

import math
import os
from dataclasses import dataclass, field, replace
from pathlib import Path

from chronotasks import provenance, reporting
from chronotasks.failures import FAILURE_METRICS, MAX_FAILURE_ENV, max_failure_rate
from chronotasks.suite_report import context, offsets
from chronotasks.suite_report import headlines as specs
from chronotasks.suite_report.measure import Cell, Headline, Measurer, Model, Run
from chronotasks.suite_report.spec import ExtraView, PanelSpec, TableSpec

HEALTH_COLUMNS = reporting.HEALTH_COLUMNS


@dataclass
class Row:
    labels: list[str]
    cells: list[tuple[Cell | None, Headline]]
    health: dict[str, tuple[int, int]] = field(default_factory=dict)  # failure metric -> (failed samples, samples)
    failed: list[str] = field(default_factory=list)  # "task: why", when a task of the row failed
    plotted: bool = False  # a grayscale row drawn in the grayscale plot


@dataclass
class Table:
    id: str
    section: str
    title: str
    row_header: list[str]
    columns: list[str]
    rows: list[Row] = field(default_factory=list)
    spec: TableSpec | None = None
    chance: list[tuple[tuple[float, ...], Headline]] | None = None  # per column: chance values (context.chance_row)

    @property
    def health_metrics(self) -> list[str]:
        return [m for m in FAILURE_METRICS if any(m in row.health for row in self.rows)]

    @property
    def has_failures(self) -> bool:
        return any(row.failed for row in self.rows)


def _number(value: float, headline: Headline, signed: bool = False) -> str:
    if math.isnan(value):
        return reporting.MISSING
    return f"{value * headline.scale:{'+' if signed else ''}.{headline.digits}f}"


def size_text(cell: Cell, counted: str | None = None) -> str:
    """ "n=12"; "n=11/12 answered" where the figure counts only some questions; "N samples" without samples."""
    if cell.questions is not None:
        if cell.of is not None and counted:
            return f"n={cell.questions}/{cell.of} {counted}"
        return f"n={cell.questions}"
    return f"{cell.samples} samples" if cell.samples is not None else "n=?"


def cell_text(cell: Cell | None, headline: Headline, show_sd: bool) -> str:
    if cell is None or math.isnan(cell.value):
        return reporting.MISSING
    signed = cell.p is not None  # a difference (it carries its p-value) shows its sign
    text = _number(cell.value, headline, signed)
    if not math.isnan(cell.low):
        text += f" [{_number(cell.low, headline, signed)}, {_number(cell.high, headline, signed)}]"
    if show_sd and cell.p is None:  # a difference carries its p-value, not a run spread
        text += " ± " + ("n/a" if math.isnan(cell.sd) else _number(cell.sd, headline))
    if cell.p is not None:
        text += ", p " + ("n/a" if math.isnan(cell.p) else f"{cell.p:.3g}")
    return f"{text} ({size_text(cell, headline.counted)})"


def status_text(row: Row) -> str:
    return reporting.status_text(row.failed)


def _show_sd(table: Table) -> bool:
    return any(cell is not None and cell.runs > 1 for row in table.rows for cell, _ in row.cells)


def table_header(table: Table) -> list[str]:
    return table.row_header + table.columns + [HEALTH_COLUMNS[m] for m in table.health_metrics] + (["status"] if table.has_failures else [])


def table_markdown(table: Table) -> str:
    show_sd, health = _show_sd(table), table.health_metrics
    rows = []
    for row in table.rows:
        labels = list(row.labels)
        if row.failed:
            labels[0] = f"⚠ {labels[0]}"
        rows.append(
            labels
            + [cell_text(cell, h, show_sd) for cell, h in row.cells]
            + [reporting.health_text(row.health.get(m)) for m in health]
            + ([status_text(row)] if table.has_failures else [])
        )
    if table.chance:
        rows.append(
            ["*chance*"]
            + [""] * (len(table.row_header) - 1)
            + [context.chance_text(values, h) for values, h in table.chance]
            + [""] * (len(health) + table.has_failures)
        )
    return reporting.markdown_table(table_header(table), rows)


# questions: what a figure rests on; of_questions: all the questions, where it counts only some (e.g. the release's)
CSV_FIELDS = ["column", "value", "ci_low", "ci_high", "run_sd", "runs", "questions", "of_questions", "samples", "p_value", "status"]


def table_csv(table: Table) -> str:
    """One line per cell, numbers as shown (scaled), empty where missing; failure rates as further columns."""
    lines = []
    health = table.health_metrics
    for row in table.rows:
        rates = [reporting.csv_number(100 * row.health[m][0] / row.health[m][1]) if row.health.get(m, (0, 0))[1] else "" for m in health]
        for column, (cell, h) in zip(table.columns, row.cells):
            if cell is None:
                continue
            scaled = [reporting.csv_number(v * h.scale) for v in (cell.value, cell.low, cell.high, cell.sd)]
            p = "" if cell.p is None or math.isnan(cell.p) else round(cell.p, 6)
            counts = ["" if v is None else v for v in (cell.questions, cell.of, cell.samples)]
            lines.append(row.labels + [column, *scaled, cell.runs, *counts, p, status_text(row), *rates])
    for column, (values, h) in zip(table.columns, table.chance or []):
        for value in values:  # the chance row: model "chance", the value as shown (scaled), nothing else
            lines.append(
                ["chance"]
                + [""] * (len(table.row_header) - 1)
                + [column, reporting.csv_number(value * h.scale)]
                + [""] * (len(CSV_FIELDS) - 2 + len(health))
            )
    return reporting.csv_text([h.lower() for h in table.row_header] + CSV_FIELDS + [f"{m} %" for m in health], lines)


# -- building the tables ----------------------------------------------------------------------
def row_health(model: Model, tasks: list[str], threshold: float) -> tuple[dict[str, tuple[int, int]], list[str]]:
    """Failure counts of a model's row, pooled over its tasks and runs, and why a task of it failed."""
    return reporting.pooled_health([run.results for run in model.runs], tasks, threshold)


def shown_specs(models: list[Model]) -> list[TableSpec]:
    """The benchmark tables, then generic tables of the tasks none of them shows, then strict match where reported."""
    known = specs.tables()
    shown = {t for spec in known for _, row in spec.variants for h in row for t in h.tasks}
    runs = [run for model in models for run in model.runs]
    leaves = list(dict.fromkeys(task for run in runs for task in leaf_tasks(run)))
    results = [run.results for run in runs]
    return known + specs.generic_tables(results, leaves, shown) + specs.strict_match_tables(results, leaves)


def benchmark_tables(models: list[Model], measurer: Measurer, threshold: float) -> list[Table]:
    tables = []
    for spec in shown_specs(models):
        table = Table(
            spec.id,
            spec.section,
            spec.title,
            ["Model"] + ([spec.variant_header] if spec.variant_header else []),
            spec.columns,
            spec=spec,
            chance=context.chance_row(spec, models),
        )
        for model in models:
            for variant, headlines in spec.variants:
                tasks = [t for h in headlines for t in h.tasks if model.has_any([t])]
                if not tasks:
                    continue
                cells = [(measurer.measure(model, h), h) for h in headlines]
                health, failed = row_health(model, tasks, threshold)
                if not failed and all(cell is None or math.isnan(cell.value) for cell, _ in cells):
                    continue
                table.rows.append(Row([model.label] + ([variant] if spec.variant_header else []), cells, health, failed))
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
    table = Table(
        "grayscale",
        "Grayscale",
        "Colour vs grayscale images (the same questions; Δ = colour − gray, paired interval and permutation p-value)",
        ["Model", "Task", "Figure"],
        ["colour", "gray", "Δ colour − gray"],
    )
    for model in models:
        for base in gray_bases(models):
            if not (model.runs_with([base]) and model.runs_with([base + "_gray"])):
                continue
            for gray_row in specs.gray_headlines(base):
                colour, gray = gray_row.colour, gray_row.gray
                cells = [
                    measurer.measure(model, colour),
                    measurer.measure(model, gray),
                    measurer.compare(model, colour, model, gray, f"{model.label}, {base} colour vs gray"),
                ]
                if cells[0] is None or math.isnan(cells[0].value):
                    continue
                table.rows.append(Row([model.label, base, gray_row.label], [(c, colour) for c in cells], plotted=gray_row.plotted))
    return table if table.rows else None


def comparison_table(models: list[Model], measurer: Measurer, tables: list[Table]) -> Table | None:
    """Every model against the first one, on each headline figure both have (paired, same questions)."""
    if len(models) < 2:
        return None
    reference = models[0]
    table = Table(
        "comparisons",
        "Paired comparisons",
        f"Paired differences against {reference.label} (model − "
        f"{reference.label} on the questions both ran; bootstrap interval, permutation p-value)",
        ["Model", "Table", "Row", "Figure"],
        ["difference"],
    )
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
                        table.rows.append(Row([model.label, spec.id, variant or "–", h.column], [(cell, h)]))
    return table if table.rows else None


# -- files other than runs: a benchmark's meta-evaluation (metaeval.json) ---------------------------
def metaeval_files(paths: list[str | Path]) -> list[Path]:
    found = []
    for raw in paths:
        path = Path(raw)
        found += [path] if path.name == "metaeval.json" else sorted(path.rglob("metaeval.json")) if path.is_dir() else []
    return list(dict.fromkeys(found))


def extra_views(files: list[Path]) -> list[ExtraView]:
    """What each benchmark with a meta-evaluation shows of the metaeval.json files given."""
    if not files:
        return []
    return [report.metaeval(files) for report in specs.reports().values() if report.metaeval is not None]


# -- plots ----------------------------------------------------------------------------------------
def with_n(category: str, cells: list[Cell | None]) -> str:
    """A plot's category label with what its bars rest on: "Song\n(n=12)", "n=12/10" when the bars differ."""
    sizes = list(dict.fromkeys(size_text(c) for c in cells if c is not None and not math.isnan(c.value)))
    if not sizes:
        return category
    if all(s.startswith("n=") for s in sizes):
        return f"{category}\n(n={'/'.join(s[2:] for s in sizes)})"
    return f"{category}\n({'/'.join(sizes)})"


def _bars(categories: list[str], series_cells: dict[str, list[Cell | None]], scale: float, title: str, ylabel: str) -> reporting.BarPanel:
    """One panel: a bar per series and category (NaN: none), 95% intervals as error bars, n in the labels."""
    series = {name: [math.nan if c is None else c.value * scale for c in cells] for name, cells in series_cells.items()}
    intervals = {
        name: [(math.nan, math.nan) if c is None else (c.low * scale, c.high * scale) for c in cells]
        for name, cells in series_cells.items()
    }
    labels = [with_n(category, [cells[i] for cells in series_cells.values()]) for i, category in enumerate(categories)]
    sizes = {name: [None if c is None else c.questions for c in cells] for name, cells in series_cells.items()}
    return reporting.BarPanel(title, labels, series, ylabel, intervals=intervals, sizes=sizes)


def _panel(table: Table, title: str, ylabel: str, columns: list[str] | None = None) -> reporting.BarPanel:
    """A bar per row (model and variant) and column, with the table's chance and papers' rows as reference lines."""
    columns = columns or table.columns
    index = [table.columns.index(c) for c in columns]
    series_cells = {
        " ".join(label for label in row.labels if label) + (" (FAILED)" if row.failed else ""): [row.cells[i][0] for i in index]
        for row in table.rows
    }
    panel = _bars(columns, series_cells, table.rows[0].cells[index[0]][1].scale, title, ylabel)
    if table.spec is None:
        return panel
    variants = [row.labels[1] for row in table.rows] if len(table.row_header) > 1 else [""]
    return replace(panel, references=context.references(table.spec, columns, table.chance, variants))


def offsets_panel(table: Table) -> reporting.BarPanel:
    """A how-far-off table as bars: distance per task (a bar per model), the chance distance as a reference."""
    tasks = list(dict.fromkeys(row.labels[1] for row in table.rows))
    series_cells: dict[str, list[Cell | None]] = {}
    for model in dict.fromkeys(row.labels[0] for row in table.rows):
        cells = {row.labels[1]: row.cells[0][0] for row in table.rows if row.labels[0] == model}
        series_cells[model] = [cells.get(t) for t in tasks]
    chance = {}
    for row in table.rows:  # the chance distance of each task's questions (the first model's: the questions it ran)
        cell = row.cells[1][0]
        chance.setdefault(row.labels[1], math.nan if cell is None else cell.value)
    unit = table.spec.unit if table.spec is not None else ""
    panel = _bars(tasks, series_cells, 1.0, f"{table.section}: how far off in time", f"distance ({unit})")
    return replace(panel, references=[reporting.ReferenceLine("chance distance (random answer)", [chance[t] for t in tasks])])


def spec_panel(tables: dict[str, Table], panel: PanelSpec) -> reporting.BarPanel | None:
    """A panel a benchmark asks for (None when its table is not on the page)."""
    table = tables.get(panel.table)
    if table is None:
        return None
    cells = zip(table.columns, table.rows[0].cells)
    columns = [c for c, (_, h) in cells if h.scale == 100.0] if panel.percent_only else None
    return _panel(table, panel.title, panel.ylabel, columns)


def plots(tables: dict[str, Table], gray: Table | None) -> dict[str, list[reporting.BarPanel]]:
    """PNG file name -> panels, for the figures people would rather look at (95% intervals as error bars;
    chance and the papers' rows as reference lines): each benchmark's plots (``BenchmarkReport.plots``; the
    panels of one file from several benchmarks one above the other), then plain vs circular accuracy, the
    grayscale Δ and how far off in time. Categories keep the tables' order."""
    out: dict[str, list[reporting.BarPanel]] = {}
    for report in specs.reports().values():
        for plot in report.plots:
            panels = [p for p in (spec_panel(tables, panel) for panel in plot.panels) if p is not None]
            if panels:
                out.setdefault(plot.file, []).extend(panels)
    if "circular" in tables:
        table = tables["circular"]
        tasks = list(dict.fromkeys(row.labels[1] for row in table.rows))
        series_cells = {}
        for model in dict.fromkeys(row.labels[0] for row in table.rows):
            for index, kind in enumerate(("plain", "circular")):
                cells = {row.labels[1]: row.cells[index][0] for row in table.rows if row.labels[0] == model}
                series_cells[f"{model} {kind}"] = [cells.get(t) for t in tasks]
        out["circular_vs_plain.png"] = [_bars(tasks, series_cells, 100.0, "Plain vs circular accuracy", "accuracy (%)")]
    if gray is not None:
        main = [row for row in gray.rows if row.plotted]
        bases = list(dict.fromkeys(f"{row.labels[1]} {row.labels[2]}" for row in main))
        series_cells = {}
        for model in dict.fromkeys(row.labels[0] for row in main):
            delta = {f"{row.labels[1]} {row.labels[2]}": row.cells[2][0] for row in main if row.labels[0] == model}
            series_cells[model] = [delta.get(b) for b in bases]  # in points: accuracies in %, τ × 100
        out["grayscale_delta.png"] = [_bars(bases, series_cells, 100.0, "Δ = colour − gray (τ ×100)", "Δ (points)")]
    distance = [offsets_panel(table) for table in tables.values() if table.spec is not None and table.spec.unit]
    if distance:
        out["time_offsets.png"] = distance
    return out


# -- the page ----------------------------------------------------------------------------------------
@dataclass
class ContextViews:
    """What the page adds under a table (``add``): the papers' published rows, and for a how-far-off
    table the confusion matrices and year-error histograms; then their CSV files, plots and symbols."""

    paper_rows: list[list] = field(default_factory=list)
    matrices: list[offsets.Confusion] = field(default_factory=list)
    histograms: list[offsets.YearErrors] = field(default_factory=list)

    def add(self, table: Table, models: list[Model], demo: bool) -> list[str]:
        spec, parts = table.spec, []
        if spec is None:
            return parts
        variants = [row.labels[1] if len(row.labels) > 1 else "" for row in table.rows]
        for paper in spec.papers:
            if context.shown_columns(paper, spec) and any(context.applies(paper, v) for v in variants):
                markdown, rows = context.paper_block(paper, spec, table.rows, demo)
                parts += ["", markdown]
                self.paper_rows += [[table.id, *row] for row in rows]
        for task, key, names in spec.confusion:
            for model in models:
                matrix = offsets.confusion(model, task, key, names)
                if matrix is not None:
                    self.matrices.append(matrix)
                    pooled = f", {matrix.runs} runs pooled" if matrix.runs > 1 else ""
                    parts += [
                        "",
                        (
                            f"Confusion matrix — {model.label}, {task} (n={matrix.n} questions{pooled}; rows: the true "
                            "period, columns: the period of the answer, unread: no answer read; counts):"
                        ),
                        "",
                        offsets.confusion_markdown(matrix),
                    ]
        histograms = [h for task, key in spec.year_errors for model in models if (h := offsets.year_errors(model, task, key)) is not None]
        if histograms:
            self.histograms += histograms
            parts += [
                "",
                ("Signed year error (predicted − true year), questions per bin (the bins widen away from 0; repeated runs pooled):"),
                "",
                offsets.year_errors_markdown(histograms),
            ]
        return parts

    def csv(self) -> dict[str, str]:
        out = {}
        if self.paper_rows:
            out["published_rows.csv"] = reporting.csv_text(["table", *context.PAPER_CSV_HEADER], self.paper_rows)
        if self.matrices:
            out["period_confusion.csv"] = reporting.csv_text(
                ["model", "task", "gold", "predicted", "count"], [r for m in self.matrices for r in offsets.confusion_csv_rows(m)]
            )
        if self.histograms:
            out["year_errors.csv"] = offsets.year_errors_csv(self.histograms)
        return out

    def panels(self) -> dict[str, list]:
        out: dict[str, list] = {}
        if self.matrices:
            out["period_confusion.png"] = [offsets.confusion_panel(m) for m in self.matrices]
        if self.histograms:
            tasks = list(dict.fromkeys(h.task for h in self.histograms))
            out["year_errors.png"] = [offsets.year_errors_panel([h for h in self.histograms if h.task == t], t) for t in tasks]
        return out

    def symbols(self, tables: list[Table]) -> list[str]:
        used = ["chance"] if any(t.chance for t in tables) else []
        used += ["published rows"] if self.paper_rows else []
        used += ["unread"] if self.matrices or self.histograms else []
        used += ["signed year error"] if self.histograms else []
        used += [
            h.counted for t in tables for row in t.rows for cell, h in row.cells if h.counted and cell is not None and cell.of is not None
        ]
        return used


@dataclass
class Report:
    markdown: str
    csv: dict[str, str]  # file name -> text
    plots: dict[str, list]  # file name -> panels (bar panels, or count heatmaps)
    mark: str | None = None  # printed inside every plot (demo data)


def runs_table(models: list[Model]) -> str:
    rows = []
    for model in models:
        for run in model.runs:
            config = run.results.data.get("config") or {}
            tasks = leaf_tasks(run)
            logged = sum(reporting.samples_file(run.results, t) is not None for t in tasks)
            found = reporting.data_origins(run.results, tasks)
            data = "?" if found is None else "demo (synthetic)" if reporting.is_demo(found) else "not demo"
            scored = "1" if run.repeats == 1 else f"1 (-n {run.repeats}: the first reply)"  # lmms-eval's take_first
            rows.append(
                [model.label, str(run.results.path), len(tasks), f"{logged}/{len(tasks)}", data, config.get("random_seed", "?"), scored]
            )
    return reporting.markdown_table(["Model", "Results file", "Tasks", "Samples logged", "Data", "Seed", "Replies scored"], rows)


def read_first(tables: list[Table], models: list[Model], model_origins: dict[str, set[str] | None], threshold: float) -> list[str]:
    """The page's first paragraphs: demo data, failed tasks, runs whose data cannot be told."""
    lines = reporting.demo_lines(model_origins)
    failed = {}
    for table in tables:
        for row in table.rows:
            for reason in row.failed:
                failed.setdefault(row.labels[0], []).append(reason)
    if failed:
        lines.append(
            "\n".join(
                [
                    f"**Failed tasks: their numbers are not results** (a task fails when more than {threshold:.0%} "
                    f"of its samples failed — ${MAX_FAILURE_ENV} sets the share — or it has no figure; the rows "
                    "are marked ⚠):",
                    "",
                ]
                + [f"- {label}: {'; '.join(dict.fromkeys(reasons))}" for label, reasons in failed.items()]
            )
        )
    unknown = [label for label, found in model_origins.items() if found is None]
    if unknown:
        lines.append(
            f"Whether {', '.join(unknown)} ran on demo data cannot be told: no --log_samples files "
            "(demo records log their origin with every sample)."
        )
    return lines


def symbols_markdown(tables: list[Table], panels: dict[str, list], extras: list[ExtraView], used_too: list[str] = ()) -> str:
    used = ["n", "[low, high]", *used_too]
    used += ["±"] if any(_show_sd(t) for t in tables) else []
    used += ["p"] if any(cell is not None and cell.p is not None for t in tables for row in t.rows for cell, _ in row.cells) else []
    for table in tables:
        used += table.columns + [HEALTH_COLUMNS[m] for m in table.health_metrics] + (["status"] if table.has_failures else [])
        used += [label for row in table.rows for label in row.labels]
    used += [
        word
        for panels_ in panels.values()
        for panel in panels_
        for word in panel.title.replace(",", " ").split()
        if isinstance(panel, reporting.BarPanel)
    ]
    defined = specs.symbols_used(used)
    for extra in extras:
        defined.update(extra.symbols)
    return "\n".join(f"- **{symbol}**: {text}" for symbol, text in defined.items())


def build(models: list[Model], measurer: Measurer, metaeval: list[Path]) -> Report:
    threshold = max_failure_rate()
    model_origins = reporting.origins_by_model({model.label: [run.results for run in model.runs] for model in models})
    tables = benchmark_tables(models, measurer, threshold)
    gray = gray_table(models, measurer)
    comparisons = comparison_table(models, measurer, tables)
    extras = extra_views(metaeval)
    settings = measurer.settings
    demo_page = any(reporting.is_demo(found) for found in model_origins.values())
    parts = ["# chronotasks report" + (f" ({reporting.DEMO_WARNING})" if demo_page else ""), ""]
    for paragraph in read_first(tables, models, model_origins, threshold):
        parts += [paragraph, ""]
    parts += [
        f"Numbers are lmms-eval's (from each results file); [low, high] is a {settings.confidence:.0%} percentile "
        f"bootstrap interval over questions (scipy.stats.bootstrap, {settings.resamples} resamples, seed "
        f"{settings.seed}; from the --log_samples files); n is the number of questions a figure rests on. Where a "
        "model has several runs of a task, the number is their mean, the interval resamples questions only, and ± "
        "gives the run-to-run standard deviation (n/a for a single run). Failure rates are pooled over the row's "
        "samples (failed/all). Symbols: the end of this page; definitions of the figures: the benchmark READMEs "
        "(chronotasks/tasks/<benchmark>/README.md).",
        "",
        "## Runs",
        "",
        runs_table(models),
    ]
    parts += provenance.report_section([(m.label, r.results.path.name, r.results.data) for m in models for r in m.runs])
    results_by_model = {m.label: [r.results.data for r in m.runs] for m in models}
    section = None
    all_tables = tables + [t for t in (gray, comparisons) if t is not None]
    views = ContextViews()
    for table in all_tables:
        if table.section != section:
            section = table.section
            parts += ["", f"## {section}"]
        demo = any(reporting.is_demo(model_origins.get(row.labels[0])) for row in table.rows)
        title = table.title + (f" — {reporting.DEMO_WARNING}" if demo else "")
        parts += ["", f"{title}:", "", table_markdown(table)]
        parts += provenance.stand_in_marks(table.rows, results_by_model)
        parts += views.add(table, models, demo)
        last_of_section = table is all_tables[-1] or all_tables[all_tables.index(table) + 1].section != table.section
        parts += [
            part
            for extra in extras
            if last_of_section and extra.section == table.section
            for part in ("", extra.caption, "", extra.markdown)
        ]
    for extra in extras:
        if not any(t.section == extra.section for t in all_tables):
            parts += ["", f"## {extra.section}", "", extra.caption, "", extra.markdown]
    panels = {**plots({t.id: t for t in tables}, gray), **{n: p for extra in extras for n, p in extra.plots.items()}, **views.panels()}
    if panels:
        parts += [
            "",
            "## Plots",
            "",
            (
                "Error bars: the intervals of the tables; n under each category; dashed lines: "
                "chance; thin grey lines: the papers' published rows (the highest and lowest named)."
            ),
        ]
        parts += [""] + [f"![{name[:-4].replace('_', ' ')}]({name})" for name in panels]
    if any(run.repeats > 1 for model in models for run in model.runs):
        measurer.note(
            "Some runs used lmms-eval -n: lmms-eval 0.7.3 scores only the first reply of each question of a "
            "generate_until task (take_first filter), so repeats there add no information; run-to-run spread "
            "comes from separate runs (e.g. --seed), given as several RUN_DIRs of one model."
        )
    if measurer.notes:
        parts += ["", "## Notes", ""] + [f"- {note}" for note in measurer.notes]
    parts += ["", "## Symbols", "", symbols_markdown(all_tables, panels, extras, views.symbols(all_tables))]
    csv = {f"{t.id}.csv": table_csv(t) for t in all_tables} | views.csv()
    for extra in extras:
        csv.update(extra.csv)
    return Report("\n".join(parts) + "\n", csv, panels, reporting.demo_mark(model_origins))


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
        draw = reporting.write_heatmaps if isinstance(panels[0], reporting.HeatmapPanel) else reporting.write_bar_chart
        draw(tmp, panels, mark=report.mark)
        os.replace(tmp, out / name)
        written.append(out / name)
    return written


__all__ = ["Report", "Table", "build", "cell_text", "metaeval_files", "write"]
