"""Table 1 of TAB-VLM (mean ± std over runs) from lmms-eval result files.

    chronotasks report tabvlm RUN_DIR|RESULTS_JSON ... [--label NAME ...] [--csv OUT.csv] [--plot OUT.png]

Give the result files (or folders holding ``*_results.json``) of one or several models. Runs are
grouped by model and model_args (or ``--label``, once per path): runs of one model are repeats (e.g.
five seeds), runs of different models are separate rows, never averaged together. Per run, each
task's accuracy is read and Overall is the unweighted mean of the six task accuracies; the table
shows mean ± sample standard deviation (ddof = 1) over a model's runs, in percent ("± n/a" where
only one run has a value: the spread of one run is undefined), and n, the questions each figure
rests on. A row is printed for each model and variant found: visual only (``tabvlm_chrono``) and
visual + metadata (``tabvlm_chrono_metadata``), with its parse- and image-failure rates and a ⚠
FAILED mark when a task failed (``chronotasks.failures``). A second table gives the partial-credit
metrics of Appendix C.3, the tie-aware sequence accuracy and the parse-failure rates; a third the
Style-Period accuracy per period (``period_acc_<period>``, Table 9) when the runs have it (n per
period from the --log_samples files). Runs on demo data say so first. Markdown first, then CSV.
``--plot`` draws the per-period accuracy (mean, std bars) as a PNG.
"""

from __future__ import annotations

import argparse
import math
from dataclasses import dataclass
from pathlib import Path

from chronotasks import reporting
from chronotasks.benchmarks.tabvlm.schema import PERIOD_KEYS, PERIODS, TASK_TYPES
from chronotasks.failures import FAILURE_METRICS, max_failure_rate
from chronotasks.scoring import mean_std

VARIANTS = (("visual", ""), ("visual+metadata", "_metadata"))
# (column title, task short name, metric key, scale)
DETAIL_COLUMNS = (
    ("Chron. exact", "sequence", "accuracy", 100),
    ("Chron. tie-aware", "sequence", "exact_tie_aware", 100),
    ("Chron. τ", "sequence", "kendall_tau", 1),
    ("Mat. exact", "material", "accuracy", 100),
    ("Mat. F1", "material", "f1", 1),
    ("Tech. exact", "technique", "accuracy", 100),
    ("Tech. F1", "technique", "f1", 1),
    ("Group. exact", "grouping", "accuracy", 100),
    ("Group. Jaccard", "grouping", "jaccard", 1),
) + tuple(
    (f"Parse fail {short}", t.task[len("tabvlm_") :], "parse_failure", 100)
    for short, t in zip(("Style", "Chron.", "Tech.", "Mat.", "Group.", "Odd"), TASK_TYPES)
)
# (column title, metric of tabvlm_style_period): Table 9, periods oldest first
PERIOD_COLUMNS = tuple((name.split(" (")[0], f"period_acc_{key}") for name, key in zip(PERIODS, PERIOD_KEYS))
MAIN_COLUMNS = ("Overall",) + tuple(t.title for t in TASK_TYPES)
SCALES = {**{c: 100 for c in MAIN_COLUMNS}, **{c[0]: c[3] for c in DETAIL_COLUMNS}, **{c[0]: 100 for c in PERIOD_COLUMNS}}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="RUN", help="lmms-eval *_results.json files or the folders holding them")
    parser.add_argument(
        "--label",
        action="append",
        default=None,
        help="model name of the runs under each RUN, once per RUN in order (default: model and model_args)",
    )
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


@dataclass
class VariantRow:
    """One row of the tables: a model's runs of one variant."""

    label: str
    variant: str
    runs: int
    stats: dict[str, tuple[float, float]]  # column -> (mean, std) over the runs
    sizes: dict[str, int | None]  # column -> questions it rests on (None: unknown)
    health: dict[str, tuple[int, int]]  # failure metric -> (failed samples, samples)
    failed: list[str]  # why a task failed ("task: reason")


def _period_sizes(run: reporting.RunResults, suffix: str) -> dict[str, int]:
    """Questions per period of the style-period task, from its --log_samples file (empty without one)."""
    path = reporting.samples_file(run, "tabvlm_style_period" + suffix)
    samples = reporting.read_samples(path) if path else []
    return {title: sum(s.get(metric) is not None for s in samples) for title, metric in PERIOD_COLUMNS} if samples else {}


def _sizes(run: reporting.RunResults, suffix: str) -> dict[str, int | None]:
    tasks = {t.title: t.task + suffix for t in TASK_TYPES}
    sizes = {title: reporting.task_size(run, task) for title, task in tasks.items()}
    sizes["Overall"] = sum(sizes.values()) if all(v is not None for v in sizes.values()) else None
    sizes.update({title: reporting.task_size(run, f"tabvlm_{short}{suffix}") for title, short, _, _ in DETAIL_COLUMNS})
    periods = _period_sizes(run, suffix)
    sizes.update({title: periods.get(title) for title, _ in PERIOD_COLUMNS})
    return sizes


def variant_stats(runs_by_model: dict[str, list[reporting.RunResults]]) -> list[VariantRow]:
    """A row per model and variant found, mean and std over the model's runs that have it."""
    threshold = max_failure_rate()
    rows = []
    for label, runs in runs_by_model.items():
        for variant, suffix in VARIANTS:
            having = [r for r in runs if run_scores(r, suffix) is not None]
            if not having:
                continue
            per_run = [run_scores(r, suffix) for r in having]
            stats = {col: mean_std([s[col] for s in per_run if not math.isnan(s[col])]) for col in SCALES}  # (nan, nan): none
            health, failed = reporting.pooled_health(having, [t.task + suffix for t in TASK_TYPES], threshold)
            rows.append(VariantRow(label, variant, len(having), stats, _sizes(having[0], suffix), health, failed))
    if not rows:
        files = [run for runs in runs_by_model.values() for run in runs]
        raise ValueError("none of the files has TAB-VLM task results (tabvlm_* tasks): " + reporting.file_names(files))
    return rows


def _fmt(mean: float, std: float, scale: float, digits: int, n: int | None = None) -> str:
    if math.isnan(mean):
        return "–"
    d = digits if scale == 100 else 3
    spread = "n/a" if math.isnan(std) else f"{std * scale:.{d}f}"  # one run: no spread
    return f"{mean * scale:.{d}f} ± {spread} (n={'?' if n is None else n})"


def _has_periods(rows: list[VariantRow]) -> bool:
    return any(not math.isnan(row.stats[title][0]) for row in rows for title, _ in PERIOD_COLUMNS)


def build_tables(files: list[Path], labels: list[str] | None = None, digits: int = 1) -> tuple[str, str]:
    """Markdown and CSV of the result files (a row per model and variant)."""
    return render_tables(variant_stats(reporting.group_by_model(files, labels)), digits)


def render_tables(rows: list[VariantRow], digits: int = 1) -> tuple[str, str]:
    """Markdown (Table 1, partial credit, per period when present) and CSV of the variant rows."""
    health = [m for m in FAILURE_METRICS if any(m in row.health for row in rows)]
    failures = any(row.failed for row in rows)

    def table(cols: list[str], with_health: bool = False) -> str:
        extra = ([reporting.HEALTH_COLUMNS[m] for m in health] + (["status"] if failures else [])) if with_health else []
        return reporting.markdown_table(
            ["Model", "Variant", "Runs"] + cols + extra,
            (
                [("⚠ " if row.failed else "") + row.label, row.variant, row.runs]
                + [_fmt(*row.stats[c], SCALES[c], digits, row.sizes.get(c)) for c in cols]
                + (
                    [reporting.health_text(row.health.get(m)) for m in health] + ([reporting.status_text(row.failed)] if failures else [])
                    if with_health
                    else []
                )
                for row in rows
            ),
        )

    parts = [
        "Table 1 (accuracy %, mean ± std over runs; n: questions; failure rates with failed/all samples):",
        "",
        table(list(MAIN_COLUMNS), with_health=True),
        "",
        "Partial credit (τ, F1, Jaccard in [0, 1]), tie-aware sequence accuracy and parse failures (%):",
        "",
        table([c[0] for c in DETAIL_COLUMNS]),
    ]
    if _has_periods(rows):
        parts += ["", "Style-Period Attribution accuracy per period (%, Table 9):", "", table([c[0] for c in PERIOD_COLUMNS])]
    header = ["model", "variant", "runs"] + [f"{c} {part}" for c in SCALES for part in ("mean", "std", "n")] + ["status"]
    csv_rows = (
        [row.label, row.variant, row.runs]
        + [
            v
            for c in SCALES
            for v in (*(reporting.csv_number(x * SCALES[c]) for x in row.stats[c]), "" if row.sizes.get(c) is None else row.sizes[c])
        ]
        + [reporting.status_text(row.failed)]
        for row in rows
    )
    return "\n".join(parts), reporting.csv_text(header, csv_rows)


def period_panel(rows: list[VariantRow]) -> reporting.BarPanel:
    """Per-period accuracy (%), one bar series per model and variant; std bars when there are several runs."""
    if not _has_periods(rows):
        raise ValueError("no per-period accuracy (tabvlm_style_period period_acc_*) in the result files")
    titles = [c[0] for c in PERIOD_COLUMNS]
    sizes = [list(dict.fromkeys(row.sizes.get(t) for row in rows if row.sizes.get(t) is not None)) for t in titles]
    categories = [f"{t}\n(n={'/'.join(map(str, n))})" if n else t for t, n in zip(titles, sizes)]
    series = {f"{row.label} {row.variant}": [row.stats[t][0] * 100 for t in titles] for row in rows}
    errors = {f"{row.label} {row.variant}": [row.stats[t][1] * 100 for t in titles] for row in rows if row.runs > 1}
    return reporting.BarPanel("Style-Period Attribution accuracy per period", categories, series, "accuracy (%)", errors)


def run(args: argparse.Namespace) -> int:
    runs_by_model = reporting.group_by_model(args.files, args.label)
    rows = variant_stats(runs_by_model)
    markdown, text = render_tables(rows, args.digits)
    panel = period_panel(rows) if args.plot else None  # before any output: a failure writes nothing
    origins = reporting.origins_by_model(runs_by_model)
    for line in reporting.demo_lines(origins):
        print(line + "\n")
    print(markdown)
    print()
    print(text, end="")
    if args.csv:
        Path(args.csv).write_text(text, encoding="utf-8")
    if panel:
        print(f"plot: {reporting.write_bar_chart(args.plot, [panel], mark=reporting.demo_mark(origins))}")
    return 0
