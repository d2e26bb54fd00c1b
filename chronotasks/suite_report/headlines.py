"""What the suite report shows, gathered from the benchmarks: each benchmark's ``report_spec()``
(``chronotasks/benchmarks/<benchmark>/report_spec.py``, found through ``REPORT_SPECS`` as demo
writers are found; see ``chronotasks.suite_report.spec``), the CircularEval table over every
benchmark's circular tasks, and a generic table for every task no table shows (each task's first
listed metric), so a new benchmark appears on the page with no edit here. ``SYMBOLS`` defines the
symbols of the page itself; each benchmark defines those of its columns."""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable

from chronotasks import benchmarks
from chronotasks.failures import FAILURE_METRICS
from chronotasks.reporting import RunResults
from chronotasks.suite_report.spec import (
    CIRCULAR_ACCURACY,
    BenchmarkReport,
    GrayRow,
    Headline,
    TableSpec,
    choice_rate,
    mean_of,
    metric_point,
)


@functools.cache
def _load(target: str) -> BenchmarkReport:
    module_name, function_name = target.split(":")
    return getattr(importlib.import_module(module_name), function_name)()


def reports() -> dict[str, BenchmarkReport]:
    """Benchmark -> what the report shows of it, in page order (``BenchmarkReport.order``)."""
    found = {name: _load(target) for name, target in benchmarks.REPORT_SPECS.items()}
    return dict(sorted(found.items(), key=lambda kv: (kv[1].order, kv[0])))


def _circular() -> list[TableSpec]:
    variants = []
    for task in (task for report in reports().values() for task in report.circular):
        row = (
            Headline("plain accuracy", (task,), metric_point(task, "accuracy"), mean_of("accuracy")),
            Headline("circular accuracy", (task,), metric_point(task, "circular_accuracy"), CIRCULAR_ACCURACY),
            # no interval: a distance from uniform is biased upward under resampling (its bootstrap
            # interval would sit above the estimate); the choice rates carry the uncertainty
            Headline("position bias", (task,), metric_point(task, "position_bias")),
            *(Headline(f"chose {ch}", (task,), metric_point(task, f"choice_rate_{ch}"), choice_rate(ch), compared=False) for ch in "ABCDE"),
        )
        variants.append((task, row))
    if not variants:
        return []
    return [
        TableSpec(
            "circular",
            "Circular evaluation",
            "CircularEval: plain accuracy over all rotations, circular accuracy "
            "(all N rotations right), position bias (total variation from uniform) and choice rate per "
            "position (%)",
            "Task",
            tuple(variants),
        )
    ]


def tables() -> list[TableSpec]:
    """Every benchmark's tables in page order, then the CircularEval table."""
    return [*(spec for report in reports().values() for spec in report.tables()), *_circular()]


def headline_metric(runs: Iterable[RunResults], task: str) -> str | None:
    """The figure a generic table shows for a task: the first metric of its metric_list (as lmms-eval
    recorded the task's config) that is not a failure rate, else the first such value in its results."""
    for run in runs:
        listed = [
            m.get("metric") for m in ((run.data.get("configs") or {}).get(task) or {}).get("metric_list") or [] if isinstance(m, dict)
        ]
        found = [key.split(",")[0] for key in run.results.get(task) or {} if key.endswith(",none") and "_stderr" not in key]
        for metric in [*listed, *found]:
            if metric and metric not in FAILURE_METRICS and f"{metric},none" in (run.results.get(task) or {}):
                return metric
    return None


def generic_tables(runs: list[RunResults], leaves: list[str], shown: set[str]) -> list[TableSpec]:
    """Tables of the tasks no table of ``tables()`` shows: one per registered benchmark (by task-name
    prefix, ``chronotasks.benchmarks.benchmark_of``) and headline metric, else under "Other tasks"."""
    by_table: dict[tuple[str, str], list[str]] = {}
    for task in leaves:
        if task in shown:
            continue
        metric = headline_metric(runs, task)
        if metric is not None:
            by_table.setdefault((benchmarks.benchmark_of(task) or "", metric), []).append(task)
    order = {name: index for index, name in enumerate(benchmarks.BENCHMARKS)}
    out = []
    for (benchmark, metric), tasks in sorted(by_table.items(), key=lambda kv: (order.get(kv[0][0], len(order)), kv[0][1])):
        variants = tuple((task, (Headline(metric, (task,), metric_point(task, metric), mean_of(metric)),)) for task in tasks)
        section = benchmark or "Other tasks"
        out.append(
            TableSpec(
                f"{benchmark or 'other'}_{metric}".replace("@", "at"),
                section,
                f"{metric} of each task (its first listed metric; %)",
                "Task",
                variants,
                compare=False,
            )
        )
    return out


STRICT_MATCH = "strict_match"


def strict_match_tables(runs: list[RunResults], leaves: list[str]) -> list[TableSpec]:
    """Where a run's tasks report ``strict_match`` (the share of replies giving the answer exactly in the form
    the prompt asks): a table of those tasks, accuracy and strict match side by side; none otherwise."""
    tasks = [task for task in leaves if any(f"{STRICT_MATCH},none" in (run.results.get(task) or {}) for run in runs)]
    if not tasks:
        return []
    variants = tuple(
        (
            task,
            (
                Headline("accuracy", (task,), metric_point(task, "accuracy"), mean_of("accuracy")),
                Headline("strict match", (task,), metric_point(task, STRICT_MATCH), mean_of(STRICT_MATCH), compared=False),
            ),
        )
        for task in tasks
    )
    return [
        TableSpec(
            STRICT_MATCH,
            "Answer form",
            "Accuracy and strict match per task (%; strict match: the answer given exactly in the form the prompt asks)",
            "Task",
            variants,
            compare=False,
        )
    ]


# the symbols of the page itself (each benchmark defines those of its columns: BenchmarkReport.symbols)
SYMBOLS: dict[str, str] = {
    "n": (
        "the questions a figure rests on (from the --log_samples files; a circular question's rotations and a "
        'pair\'s three trials are one question); "N samples" where only the results file is there'
    ),
    "[low, high]": "percentile bootstrap interval over questions",
    "±": "run-to-run standard deviation over a model's runs (n/a for one run)",
    "p": "permutation p-value of a paired difference",
    "parse fail": "share of replies no parser could read (scored wrong), with failed/all samples",
    "image fail": "share of samples whose image could not be opened (scored wrong), with failed/all samples",
    "judge fail": "share of generated images whose judgement failed, with failed/all samples",
    "status": (
        "FAILED: a task of the row failed (more than the threshold of its samples failed, or it has no figure): its numbers are not results"
    ),
    "plain accuracy": "accuracy over every rotation of the options",
    "circular accuracy": "share of questions answered right in all N rotations of their options (CircularEval)",
    "position bias": "total variation distance of the chosen positions from uniform",
    "chose A": "share of readable replies choosing the option in that position",
    "Δ colour − gray": "figure with colour images minus the same figure with the same images in grayscale",
    "strict match": (
        "share of replies that give the answer exactly in the form the prompt asks (accuracy also counts an answer read from another form)"
    ),
    "counted": (
        "n=a/b counted: the figure counts a of the b questions (the release's denominator); n=a/b answered: a "
        "mean over the a questions with a readable answer"
    ),
    "chance": (
        "what a uniformly random answer scores, worked out from the records' answer space "
        "(chronotasks.scoring.chance): 1/4 for one of 4 options, 1/16 for a subset of 4, τ = 0 for a random "
        "order, 1/n for one of n years. Exact, not an estimate (no n); – where the answer is free text or a "
        "ranking"
    ),
    "published rows": (
        "the papers' own rows for the same figures (chronotasks/benchmarks/<benchmark>/paper_tables.py, cited by "
        "table), as printed, on the papers' full data and protocols"
    ),
    "distance": ("mean |predicted − true| position on the ordered scale (periods, dynasties or years) over the answered questions"),
    "chance distance": (
        "the distance a uniformly random answer has on average (over the options' positions, or every year of the"
        " answer space), over all the questions"
    ),
    "bias": (
        "mean signed offset (predicted − true) over the answered questions: > 0 the answers are newer (later) than the truth, < 0 older"
    ),
    "chance bias": (
        "the signed offset a uniformly random answer has on average, over all the questions (not 0 when the "
        "options lie mostly on one side of the truth)"
    ),
    "unread": (
        "questions whose reply gave no answer (unreadable, or an image that could not be opened): a column of the"
        " confusion matrices and the year-error histograms"
    ),
    "signed year error": "predicted − true year of a year answer, counted per bin (< −20 … > +20)",
}
SYMBOL_ALIASES = {**{f"chose {ch}": "chose A" for ch in "BCDE"}, "Δ": "Δ colour − gray", "answered": "counted"}


def symbols_used(columns: Iterable[str]) -> dict[str, str]:
    """The definitions of the symbols among ``columns`` (table columns and plot labels): the page's
    (``SYMBOLS``) first, then each benchmark's in page order."""
    defined, aliases = dict(SYMBOLS), dict(SYMBOL_ALIASES)
    for report in reports().values():
        defined.update(report.symbols)
        aliases.update(report.symbol_aliases)
    wanted = {aliases.get(column, column) for column in columns}
    return {symbol: text for symbol, text in defined.items() if symbol in wanted}


def gray_headlines(base: str) -> list[GrayRow]:
    """The grayscale table's rows for a base task with a ``_gray`` variant, as its benchmark defines them
    (none for a task of no benchmark, or of one that defines none)."""
    report = reports().get(benchmarks.benchmark_of(base) or "")
    return report.gray_rows(base) if report is not None and report.gray_rows is not None else []


__all__ = [
    "STRICT_MATCH",
    "SYMBOLS",
    "generic_tables",
    "gray_headlines",
    "headline_metric",
    "reports",
    "strict_match_tables",
    "symbols_used",
    "tables",
]
