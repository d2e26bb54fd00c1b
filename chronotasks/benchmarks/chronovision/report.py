"""Tables III and IV of ChronoVision ("Seeing Time") from lmms-eval result files.

    chronotasks report chronovision FILES... [--label NAME ...] [--csv OUT.csv] [--plot OUT.png]

One row per results file (a model's run of the ``chronovision`` group or of
some of its tasks; a folder is searched for ``*_results.json``). Prints as
markdown:

- Table III: ACC_A, τ and 50×(1+τ) (τ = mean of the intra and cross sort
  levels run), ACC_B, ACC_1, ACC_2, Δ_ACC (``chronovision_shortcut``), ACC_Y,
  MAE, ACC_M and the scores S_A, S_S, S_N, S of §V.C, computed from those
  columns by ``chronotasks.scoring.composite`` (the same S the group reports);
- Table IV: ACC_B, ACC_1, ACC_2, Δ_ACC per SPEED category, a row per prompt
  run (``chronovision_shortcut``; ``chronovision_shortcut_cot`` is Table IV's);
- localization accuracy per dynasty and per artifact category.

Accuracies and scores in %, τ in [−1, 1], MAE in years; "–" where a run lacks
the task. Table III also gives each run's samples per task (lmms-eval's n-samples), its parse-
and image-failure rates and a ⚠ FAILED mark when a task failed (``chronotasks.failures``); runs on
demo data say so first. ``--csv`` writes one wide row per file with every column;
``--plot`` draws Δ_ACC per SPEED category and localization accuracy per
dynasty and per artifact category, one bar series per model (and prompt).
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from chronotasks import reporting
from chronotasks.benchmarks.chronovision import ARTIFACT_CATEGORIES, DYNASTIES
from chronotasks.failures import FAILURE_METRICS, max_failure_rate
from chronotasks.reporting import (
    BarPanel,
    RunResults,
    csv_number,
    csv_text,
    file_names,
    format_number,
    has_task,
    load_runs,
    markdown_table,
    metric_value,
    model_name,
    write_bar_chart,
)
from chronotasks.scoring.composite import chronovision_composite

LOC = "chronovision_artifacts_loc"
SORT_LEVELS = ("chronovision_artifacts_sort_intra", "chronovision_artifacts_sort_cross")
SHORTCUT = "chronovision_shortcut"
NEWS_YEAR = "chronovision_news_year"
NEWS_MULTIMODAL = "chronovision_news_multimodal"
SHORTCUT_PROMPTS = (("plain", SHORTCUT), ("CoT", "chronovision_shortcut_cot"))
TABLE4_CATEGORIES = ("sports", "politics", "emergency", "electronics", "diversity")  # Table IV's column order
SHORTCUT_METRICS = (("ACC_B", "ACC_B"), ("ACC_1", "ACC_1"), ("ACC_2", "ACC_2"), ("Δ_ACC", "delta_ACC"))

# How a column is shown: (scale, decimals).
PERCENT, TAU, PLAIN = (100, 2), (1, 3), (1, 2)
TABLE3_FORMATS = {
    "ACC_A": PERCENT,
    "τ": TAU,
    "50×(1+τ)": PLAIN,
    "ACC_B": PERCENT,
    "ACC_1": PERCENT,
    "ACC_2": PERCENT,
    "Δ_ACC": PERCENT,
    "ACC_Y": PERCENT,
    "MAE": PLAIN,
    "ACC_M": PERCENT,
    "S_A": PERCENT,
    "S_S": PERCENT,
    "S_N": PERCENT,
    "S": PERCENT,
}
TABLE4_COLUMNS = tuple(f"{c.capitalize()} {title}" for c in TABLE4_CATEGORIES for title, _ in SHORTCUT_METRICS)
LOC_COLUMNS = DYNASTIES + tuple(c.capitalize() for c in ARTIFACT_CATEGORIES)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", help="lmms-eval *_results.json files (or folders holding them), one per model run")
    parser.add_argument(
        "--label",
        action="append",
        default=None,
        help="row label, once per results file in the order found (default: model name and model_args)",
    )
    parser.add_argument("--csv", default=None, help="also write every column, one row per file, to this CSV")
    parser.add_argument("--plot", default=None, help="draw Δ_ACC per SPEED category and per-dynasty / per-category accuracy to this PNG")


def _mean_present(values: list[float]) -> float:
    present = [v for v in values if not math.isnan(v)]
    return sum(present) / len(present) if present else math.nan


def table3_values(run: RunResults, release: bool = False) -> dict[str, float]:
    """Table III's columns for one run (fractions; τ in [−1, 1]; MAE in years); NaN where a task is missing.
    ``release``: the release scripts' reading of the shortcut and news tasks (the ``*_release`` metrics);
    the release ships no scorer for the artifacts tasks, so ACC_A and τ (and their part of S) are ours."""
    suffix = "_release" if release else ""
    tau = _mean_present([metric_value(run, level, "tau") for level in SORT_LEVELS])
    values = {"ACC_A": metric_value(run, LOC, "ACC_A"), "τ": tau, "50×(1+τ)": 50.0 * (1.0 + tau)}
    values.update({title: metric_value(run, SHORTCUT, metric + suffix) for title, metric in SHORTCUT_METRICS})
    values.update(
        ACC_Y=metric_value(run, NEWS_YEAR, "ACC_Y" + suffix),
        MAE=metric_value(run, NEWS_YEAR, "MAE" + suffix),
        ACC_M=metric_value(run, NEWS_MULTIMODAL, "ACC_M" + suffix),
    )
    scores = chronovision_composite(values["ACC_A"], tau, values["ACC_B"], values["Δ_ACC"], values["ACC_Y"], values["MAE"], values["ACC_M"])
    return {**values, **scores}


def table4_values(run: RunResults, task: str) -> dict[str, float]:
    """Shortcut metrics per SPEED category of one prompt's task (fractions), keyed by TABLE4_COLUMNS."""
    return {
        f"{c.capitalize()} {title}": metric_value(run, task, f"{metric}_{c}")
        for c in TABLE4_CATEGORIES
        for title, metric in SHORTCUT_METRICS
    }


def localization_values(run: RunResults) -> dict[str, float]:
    """Localization accuracy per dynasty and per artifact category (fractions), keyed by LOC_COLUMNS."""
    dynasties = {d: metric_value(run, LOC, f"acc_{d.lower()}") for d in DYNASTIES}
    return {**dynasties, **{c.capitalize(): metric_value(run, LOC, f"acc_{c}") for c in ARTIFACT_CATEGORIES}}


def row_labels(runs: list[RunResults], labels: list[str] | None) -> list[str]:
    if labels is None:
        return [model_name(run, with_args=True) for run in runs]
    if len(labels) != len(runs):
        raise ValueError(f"--label given {len(labels)} times for {len(runs)} results files: " + file_names(runs))
    return labels


def _cells(values: dict[str, float], formats: dict[str, tuple[int, int]]) -> list[str]:
    return [format_number(values[c] * scale, digits) for c, (scale, digits) in formats.items()]


def build_markdown(runs: list[RunResults], labels: list[str]) -> str:
    if not any(task.startswith("chronovision") for run in runs for task in run.results):
        raise ValueError("none of the files has ChronoVision results (chronovision_* tasks): " + file_names(runs))
    tasks = (LOC, *SORT_LEVELS, SHORTCUT, NEWS_YEAR, NEWS_MULTIMODAL)
    threshold = max_failure_rate()
    health = [reporting.pooled_health([run], tasks, threshold) for run in runs]
    shown = [m for m in FAILURE_METRICS if any(m in counts for counts, _ in health)]
    failures = any(failed for _, failed in health)
    sizes = any(reporting.task_size(run, t) is not None for run in runs for t in tasks)

    def samples(run: RunResults) -> str:
        n = [reporting.task_size(run, t) for t in tasks]
        parts = (n[0], None if None in n[1:3] else n[1] + n[2], *n[3:])
        return "/".join("?" if v is None else str(v) for v in parts)

    extra_header = (
        (["samples (loc/sort/shortcut/year/multi)"] if sizes else [])
        + [reporting.HEALTH_COLUMNS[m] for m in shown]
        + (["status"] if failures else [])
    )
    table3 = [
        [("⚠ " if failed else "") + label]
        + _cells(table3_values(run), TABLE3_FORMATS)
        + ([samples(run)] if sizes else [])
        + [reporting.health_text(counts.get(m)) for m in shown]
        + ([reporting.status_text(failed)] if failures else [])
        for run, label, (counts, failed) in zip(runs, labels, health)
    ]
    table4 = [
        [label, prompt] + _cells(table4_values(run, task), dict.fromkeys(TABLE4_COLUMNS, PERCENT))
        for run, label in zip(runs, labels)
        for prompt, task in SHORTCUT_PROMPTS
        if has_task(run, task)
    ]
    loc = [
        [label] + _cells(localization_values(run), dict.fromkeys(LOC_COLUMNS, PERCENT))
        for run, label in zip(runs, labels)
        if has_task(run, LOC)
    ]
    parts = [
        "Table III (accuracies and scores %, τ in [−1, 1], MAE in years; S = (S_A + S_S + S_N) / 3):",
        "",
        markdown_table(["Model", *TABLE3_FORMATS, *extra_header], table3),
    ]
    if table4:
        parts += [
            "",
            "Table IV (shortcut accuracy % per SPEED category; CoT = chronovision_shortcut_cot):",
            "",
            markdown_table(["Model", "Prompt", *TABLE4_COLUMNS], table4),
        ]
    if loc:
        parts += ["", "Localization accuracy % per dynasty and per artifact category:", "", markdown_table(["Model", *LOC_COLUMNS], loc)]
    return "\n".join(parts)


def build_csv(runs: list[RunResults], labels: list[str]) -> str:
    """One row per file: Table III, localization breakdown and each prompt's Table IV columns, as shown (%)."""
    prompt_columns = [f"{prompt} {c}" for prompt, _ in SHORTCUT_PROMPTS for c in TABLE4_COLUMNS]
    rows = []
    for run, label in zip(runs, labels):
        shown = {c: v * TABLE3_FORMATS[c][0] for c, v in table3_values(run).items()}
        shown.update({c: v * 100 for c, v in localization_values(run).items()})
        for prompt, task in SHORTCUT_PROMPTS:
            shown.update({f"{prompt} {c}": v * 100 for c, v in table4_values(run, task).items()})
        rows.append([label, str(run.path)] + [csv_number(shown[c]) for c in (*TABLE3_FORMATS, *LOC_COLUMNS, *prompt_columns)])
    return csv_text(["model", "file", *TABLE3_FORMATS, *LOC_COLUMNS, *prompt_columns], rows)


def plot_panels(runs: list[RunResults], labels: list[str]) -> list[BarPanel]:
    """Δ_ACC per SPEED category (a series per model and prompt), accuracy per dynasty and per category (per model)."""
    delta = {
        label if prompt == "plain" else f"{label} ({prompt})": [metric_value(run, task, f"delta_ACC_{c}") * 100 for c in TABLE4_CATEGORIES]
        for run, label in zip(runs, labels)
        for prompt, task in SHORTCUT_PROMPTS
        if has_task(run, task)
    }
    located = [(label, localization_values(run)) for run, label in zip(runs, labels) if has_task(run, LOC)]
    categories = tuple(c.capitalize() for c in ARTIFACT_CATEGORIES)
    panels = []
    if delta:
        panels.append(
            BarPanel("Shortcut Δ_ACC = ACC_1 − ACC_2 per SPEED category", [c.capitalize() for c in TABLE4_CATEGORIES], delta, "Δ_ACC (%)")
        )
    if located:
        for title, columns in (("dynasty", DYNASTIES), ("artifact category", categories)):
            panels.append(
                BarPanel(
                    f"Localization accuracy per {title}",
                    list(columns),
                    {label: [values[c] * 100 for c in columns] for label, values in located},
                    "accuracy (%)",
                )
            )
    if not panels:
        raise ValueError("nothing to plot: no chronovision_shortcut(_cot) or chronovision_artifacts_loc results in " + file_names(runs))
    return panels


def run(args: argparse.Namespace) -> int:
    runs = load_runs(args.files)
    labels = row_labels(runs, args.label)
    markdown = build_markdown(runs, labels)
    panels = plot_panels(runs, labels) if args.plot else None  # before any output: a failure writes nothing
    origins = reporting.origins_by_model({label: [run] for run, label in zip(runs, labels)})
    for line in reporting.demo_lines(origins):
        print(line + "\n")
    print(markdown)
    if args.csv:
        Path(args.csv).write_text(build_csv(runs, labels), encoding="utf-8")
        print(f"\ncsv: {args.csv}")
    if panels:
        print(f"plot: {write_bar_chart(args.plot, panels, mark=reporting.demo_mark(origins))}")
    return 0
