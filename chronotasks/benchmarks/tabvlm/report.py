"""Table 1 of TAB-VLM (mean ± std over runs) from lmms-eval result files.

    chronotasks report tabvlm RUN1_results.json RUN2_results.json ... [--label NAME] [--csv OUT.csv] [--plot OUT.png]

Give the result files of repeated runs of one model (e.g. five seeds; a
folder is searched for ``*_results.json``). Per run, each task's accuracy is
read and Overall is the unweighted mean of the six task accuracies; the table
shows mean ± sample standard deviation (ddof = 1) over the runs, in percent
("± n/a" where only one run has a value: the spread of one run is undefined).
A row is printed for each variant found: visual only (``tabvlm_chrono``) and
visual + metadata (``tabvlm_chrono_metadata``). A second table gives the
partial-credit metrics of Appendix C.3, the tie-aware sequence accuracy and
the parse-failure rates; a third the Style-Period accuracy per period
(``period_acc_<period>``, Table 9) when the runs have it. Markdown first, then
CSV. ``--plot`` draws the per-period accuracy (mean, std bars) as a PNG.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from chronotasks import reporting
from chronotasks.benchmarks.tabvlm.schema import PERIOD_KEYS, PERIODS, TASK_TYPES
from chronotasks.scoring import mean_std

VARIANTS = (("visual", ""), ("visual+metadata", "_metadata"))
# (column title, task short name, metric key, scale)
DETAIL_COLUMNS = (
    ("Chron. exact", "sequence", "accuracy", 100), ("Chron. tie-aware", "sequence", "exact_tie_aware", 100),
    ("Chron. τ", "sequence", "kendall_tau", 1),
    ("Mat. exact", "material", "accuracy", 100), ("Mat. F1", "material", "f1", 1),
    ("Tech. exact", "technique", "accuracy", 100), ("Tech. F1", "technique", "f1", 1),
    ("Group. exact", "grouping", "accuracy", 100), ("Group. Jaccard", "grouping", "jaccard", 1),
) + tuple((f"Parse fail {short}", t.task[len("tabvlm_"):], "parse_failure", 100)
          for short, t in zip(("Style", "Chron.", "Tech.", "Mat.", "Group.", "Odd"), TASK_TYPES))
# (column title, metric of tabvlm_style_period): Table 9, periods oldest first
PERIOD_COLUMNS = tuple((name.split(" (")[0], f"period_acc_{key}") for name, key in zip(PERIODS, PERIOD_KEYS))
MAIN_COLUMNS = ("Overall",) + tuple(t.title for t in TASK_TYPES)
# (variant, number of runs, {column: (mean, std)}): one row of the tables
VariantRow = tuple[str, int, dict[str, tuple[float, float]]]
SCALES = {**{c: 100 for c in MAIN_COLUMNS}, **{c[0]: c[3] for c in DETAIL_COLUMNS}, **{c[0]: 100 for c in PERIOD_COLUMNS}}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", help="lmms-eval *_results.json files (or folders holding them), one per run")
    parser.add_argument("--label", default=None, help="row label (default: the model name in the result files)")
    parser.add_argument("--csv", default=None, help="also write the CSV to this file")
    parser.add_argument("--plot", default=None, help="draw the per-period Style-Period accuracy to this PNG")
    parser.add_argument("--digits", type=int, default=1)


def run_scores(run: reporting.RunResults, suffix: str) -> dict[str, float] | None:
    """One run's row (fractions) for a variant, or None when the run lacks its tasks."""
    if not any(reporting.has_task(run, t.task + suffix) for t in TASK_TYPES):
        return None
    row = {t.title: reporting.metric_value(run, t.task + suffix, "accuracy") for t in TASK_TYPES}
    accs = list(row.values())
    row = {"Overall": sum(accs) / len(accs) if not any(math.isnan(a) for a in accs) else math.nan, **row}
    for title, short, metric, _ in DETAIL_COLUMNS:
        row[title] = reporting.metric_value(run, f"tabvlm_{short}{suffix}", metric)
    for title, metric in PERIOD_COLUMNS:
        row[title] = reporting.metric_value(run, "tabvlm_style_period" + suffix, metric)
    return row


def variant_stats(runs: list[reporting.RunResults]) -> list[VariantRow]:
    """A row per variant found, mean and std over the runs that have it."""
    rows = []
    for variant, suffix in VARIANTS:
        per_run = [s for s in (run_scores(r, suffix) for r in runs) if s is not None]
        if not per_run:
            continue
        stats = {}
        for col in SCALES:
            values = [s[col] for s in per_run if not math.isnan(s[col])]
            stats[col] = mean_std(values)  # (nan, nan) when no run has it
        rows.append((variant, len(per_run), stats))
    if not rows:
        raise ValueError("none of the files has TAB-VLM task results (tabvlm_* tasks): " + reporting.file_names(runs))
    return rows


def default_label(runs: list[reporting.RunResults]) -> str:
    return "/".join(sorted({reporting.model_name(r) for r in runs}))


def _fmt(mean: float, std: float, scale: float, digits: int) -> str:
    if math.isnan(mean):
        return "–"
    d = digits if scale == 100 else 3
    spread = "n/a" if math.isnan(std) else f"{std * scale:.{d}f}"   # one run: no spread
    return f"{mean * scale:.{d}f} ± {spread}"


def _has_periods(rows: list[VariantRow]) -> bool:
    return any(not math.isnan(stats[title][0]) for _, _, stats in rows for title, _ in PERIOD_COLUMNS)


def build_tables(files: list[Path], label: str | None = None, digits: int = 1) -> tuple[str, str]:
    """Markdown and CSV of the result files of one model's runs (label: the model name when not given)."""
    runs = reporting.load_runs(files)
    return render_tables(variant_stats(runs), label or default_label(runs), digits)


def render_tables(rows: list[VariantRow], label: str, digits: int = 1) -> tuple[str, str]:
    """Markdown (Table 1, partial credit, per period when present) and CSV of the variant rows."""
    def table(cols: list[str]) -> str:
        return reporting.markdown_table(["Model", "Variant", "Runs"] + cols,
                                        ([label, variant, n] + [_fmt(*stats[c], SCALES[c], digits) for c in cols]
                                         for variant, n, stats in rows))

    parts = ["Table 1 (accuracy %, mean ± std over runs):", "", table(list(MAIN_COLUMNS)),
             "", "Partial credit (τ, F1, Jaccard in [0, 1]), tie-aware sequence accuracy and parse failures (%):", "",
             table([c[0] for c in DETAIL_COLUMNS])]
    if _has_periods(rows):
        parts += ["", "Style-Period Attribution accuracy per period (%, Table 9):", "", table([c[0] for c in PERIOD_COLUMNS])]
    header = ["model", "variant", "runs"] + [f"{c} {part}" for c in SCALES for part in ("mean", "std")]
    csv_rows = ([label, variant, n] + [reporting.csv_number(v * SCALES[c]) for c in SCALES for v in stats[c]]
                for variant, n, stats in rows)
    return "\n".join(parts), reporting.csv_text(header, csv_rows)


def period_panel(rows: list[VariantRow], label: str) -> reporting.BarPanel:
    """Per-period accuracy (%), one bar series per variant; std bars when there are several runs."""
    if not _has_periods(rows):
        raise ValueError("no per-period accuracy (tabvlm_style_period period_acc_*) in the result files")
    titles = [c[0] for c in PERIOD_COLUMNS]
    series = {f"{label} {variant}": [stats[t][0] * 100 for t in titles] for variant, _, stats in rows}
    errors = {f"{label} {variant}": [stats[t][1] * 100 for t in titles] for variant, n, stats in rows if n > 1}
    return reporting.BarPanel("Style-Period Attribution accuracy per period", titles, series, "accuracy (%)", errors)


def run(args: argparse.Namespace) -> int:
    runs = reporting.load_runs(args.files)
    label = args.label or default_label(runs)
    rows = variant_stats(runs)
    markdown, text = render_tables(rows, label, args.digits)
    panel = period_panel(rows, label) if args.plot else None   # before any output: a failure writes nothing
    print(markdown)
    print()
    print(text, end="")
    if args.csv:
        Path(args.csv).write_text(text, encoding="utf-8")
    if panel:
        print(f"plot: {reporting.write_bar_chart(args.plot, [panel])}")
    return 0
