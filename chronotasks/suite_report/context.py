"""What puts a run in context on the report page: the chance level of each headline and the papers'
published rows for the same table.

- Chance (``Headline.chance``): what a uniformly random answer scores, from the records' answer space
  (chronotasks.scoring.chance); a figure whose chance depends on the questions (a year task's expected
  year error, hence S) reads it from each run's results; models that ran other questions can then
  differ, and the row shows every value ("31.2/30.9").
- Published rows (``TableSpec.papers``): the paper's rows for our columns, as printed (a converted
  column, e.g. Table III's 50 × (1 + τ) shown as τ, in our unit), the table cited by number; then,
  for each of our rows, where its first figure falls among the paper's model rows. The paper's rows
  are on its full data and protocol; on a page built from demo data the comparison is meaningless,
  and the caption says so.
- Reference lines for the plots: chance (dashed) and each paper model row (thin grey; the highest and
  lowest named) across each category's bars.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from chronotasks import reporting
from chronotasks.suite_report.measure import Headline, Model
from chronotasks.suite_report.spec import PaperRows, TableSpec

MEANINGLESS = "on demo data this comparison is meaningless"


# -- chance ---------------------------------------------------------------------------------------
def chance_values(headline: Headline, models: Sequence[Model]) -> tuple[float, ...]:
    """The headline's chance level (a fraction, like its figures); one value per distinct value over the
    models' runs where it depends on the questions; empty when it has none."""
    if headline.chance is None:
        return ()
    if not callable(headline.chance):
        return (float(headline.chance),)
    values = [headline.chance(run.results) for model in models for run in model.runs_with(headline.tasks)]
    return tuple(dict.fromkeys(round(v, 12) for v in values if not math.isnan(v)))


def number(value: float, headline: Headline) -> str:
    return reporting.MISSING if math.isnan(value) else f"{value * headline.scale:.{headline.digits}f}"


def chance_text(values: tuple[float, ...], headline: Headline) -> str:
    return "/".join(dict.fromkeys(number(v, headline) for v in values)) if values else reporting.MISSING


def chance_row(spec: TableSpec, models: Sequence[Model]) -> list[tuple[tuple[float, ...], Headline]] | None:
    """Per column (the first variant's headline), the chance values; None when no column has one."""
    row = [(chance_values(h, models), h) for h in spec.variants[0][1]]
    return row if any(values for values, _ in row) else None


# -- published rows -------------------------------------------------------------------------------
def cited(paper: PaperRows) -> str:
    number = paper.table.number
    return number if number.startswith("§") else f"Table {number}"


def paper_figure_text(paper: PaperRows, row: str, column: str, headline: Headline) -> str:
    value = paper.figure(row, column)
    if value is None:
        return reporting.MISSING
    if column in paper.convert:  # converted to our unit: our precision
        return f"{value:.{headline.digits}f}"
    return str(paper.table.figure(row, paper.columns[column]))  # as printed


def shown_columns(paper: PaperRows, spec: TableSpec) -> list[str]:
    return [c for c in spec.columns if c in paper.columns]


def applies(paper: PaperRows, variant: str) -> bool:
    return paper.variants is None or variant in paper.variants


def placement(value: float, figures: dict[str, tuple[float, str]]) -> str:
    """Where a figure (our unit) falls among a paper column's model rows ({row: (figure, as shown)})."""
    ranked = sorted(figures.items(), key=lambda kv: kv[1][0])
    (low_name, (low, low_text)), (high_name, (high, high_text)) = ranked[0], ranked[-1]
    k = len(ranked)
    if value > high:
        return f"above all {k} model rows (highest: {high_name} {high_text})"
    if value < low:
        return f"below all {k} model rows (lowest: {low_name} {low_text})"
    below = [kv for kv in ranked if kv[1][0] <= value]
    above = [kv for kv in ranked if kv[1][0] > value]
    if not above:
        return f"level with the highest of {k} model rows ({high_name} {high_text})"
    (b_name, (_, b_text)), (a_name, (_, a_text)) = below[-1], above[0]
    return f"between {b_name} ({b_text}) and {a_name} ({a_text}): {len(above)} of {k} model rows higher"


def paper_block(paper: PaperRows, spec: TableSpec, rows: Sequence[Any], demo: bool) -> tuple[str, list[list[Any]]]:
    """Markdown (caption, table of the paper's rows, where our rows fall) and CSV rows of one paper table.
    ``rows``: the page's rows of ``spec`` (labels, cells)."""
    columns = shown_columns(paper, spec)
    headline = {h.column: h for h in spec.variants[0][1]}
    table = paper.table
    variants = "" if paper.variants is None else f"; compare with the rows {' / '.join(paper.variants)}"
    notes = "; ".join(n for n in (paper.note, f"{', '.join(table.summaries)}: not models" if table.summaries else "") if n)
    caption = (
        f"Published rows — {table.paper}, {cited(paper)} ({paper.shows or table.metric}; the paper's caption: "
        f'"{table.caption}"); '
        f"as printed, on the paper's full data and protocol{variants}"
        + (f"; {notes}" if notes else "")
        + (f" — **{MEANINGLESS}**" if demo else "")
        + ":"
    )
    body = [[label] + [paper_figure_text(paper, label, c, headline[c]) for c in columns] for label in table.rows]
    csv_rows = [
        [table.paper, cited(paper), label, c, paper.columns[c], "" if paper.figure(label, c) is None else round(paper.figure(label, c), 6)]
        for label in table.rows
        for c in columns
    ]
    lines = [caption, "", reporting.markdown_table(["Published row", *columns], body)]
    placed = []
    for row in rows if table.models else ():  # a table of baselines and averages only: nothing to place among
        variant = row.labels[1] if len(row.labels) > 1 else ""
        if not applies(paper, variant):
            continue
        for cell, h in row.cells:
            if h.column in columns and cell is not None and not math.isnan(cell.value):
                figures = {
                    name: (paper.figure(name, h.column), paper_figure_text(paper, name, h.column, h))
                    for name in table.models
                    if paper.figure(name, h.column) is not None
                }
                if figures:
                    label = " · ".join(label for label in row.labels if label)
                    placed.append(f"- {label}: {h.column} {number(cell.value, h)} — {placement(cell.value * h.scale, figures)}")
                break
    if placed:
        lines += ["", f"Where each row's first figure falls among {cited(paper)}'s model rows:", "", *placed]
    return "\n".join(lines), csv_rows


PAPER_CSV_HEADER = ["paper", "table", "row", "column", "paper column", "figure"]


# -- plot reference lines -------------------------------------------------------------------------
def references(
    spec: TableSpec, columns: Sequence[str], chance: list[tuple[tuple[float, ...], Headline]] | None, variants: Sequence[str] | None = None
) -> list[reporting.ReferenceLine]:
    """Chance and the papers' model rows across the plotted ``columns`` (in the plot's unit: figure × scale).
    ``variants``: the variants the plot shows (a paper table for other variants is left out)."""
    lines = []
    if chance:
        by_column = {h.column: (values, h) for values, h in chance}
        values = [by_column[c][0][0] * by_column[c][1].scale if c in by_column and len(by_column[c][0]) == 1 else math.nan for c in columns]
        if any(not math.isnan(v) for v in values):
            lines.append(reporting.ReferenceLine("chance (random answer)", values, "chance"))
    for paper in spec.papers:
        if variants is not None and not any(applies(paper, v) for v in variants):
            continue
        mapped = [c if c in paper.columns else None for c in columns]
        if not any(mapped):
            continue
        label = f"published rows ({cited(paper)}" + (f", {paper.note}" if paper.note and len(paper.note) < 30 else "") + ")"
        per_row = {
            name: [math.nan if c is None or paper.figure(name, c) is None else paper.figure(name, c) for c in mapped]
            for name in paper.table.models
        }
        for name, values in per_row.items():
            notes = []
            for index, value in enumerate(values):
                column = [v[index] for v in per_row.values() if not math.isnan(v[index])]
                extreme = not math.isnan(value) and column and value in (max(column), min(column))
                notes.append(name if extreme else "")
            lines.append(reporting.ReferenceLine(label, values, "paper", notes))
    return lines


__all__ = ["MEANINGLESS", "PAPER_CSV_HEADER", "chance_row", "chance_text", "chance_values", "paper_block", "placement", "references"]
