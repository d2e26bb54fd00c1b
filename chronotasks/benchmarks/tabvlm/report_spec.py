"""What `chronotasks report` shows of TAB-VLM: Table 1 (each variant, and the release protocol read by
us and by the release code), Style-Period accuracy per period (Table 9), how far off in time, the
papers' rows beside them, the circular and grayscale variants and the plots."""

from __future__ import annotations

from chronotasks.benchmarks.tabvlm import paper_tables as tabvlm_paper
from chronotasks.benchmarks.tabvlm.schema import BY_TASK, PERIOD_KEYS, PERIODS, TASK_TYPES
from chronotasks.suite_report.spec import (
    BenchmarkReport,
    GrayRow,
    Headline,
    PanelSpec,
    PaperRows,
    PlotSpec,
    TableSpec,
    accuracy_gray_row,
    mean_of,
    mean_of_task_means,
    mean_point,
    metric_point,
    offset_headlines,
    present,
    space_chance,
)

VARIANTS = (("visual", ""), ("visual+metadata", "_metadata"), ("gray", "_gray"))
# the release protocol (tasks/tabvlm/release/): the release code's numbered prompts, read by us and by the release code
RELEASE_OURS, RELEASE_READING = "release prompts, our reading", "release prompts, release reading"
RELEASE_VARIANTS = ((RELEASE_OURS, "_release", "accuracy"), (RELEASE_READING, "_release", "accuracy_release"))
STYLE = "tabvlm_style_period"
PERIOD_NAMES = tuple(name.split(" (")[0] for name in PERIODS)  # "Classical Period", ...
TABLE1_PAPER = PaperRows(
    tabvlm_paper.TABLE_1,
    {"Overall": "Overall Accuracy", **{t.title: t.title for t in TASK_TYPES}},
    variants=("visual", RELEASE_OURS, RELEASE_READING),
)


def task_chance(task: str) -> float:
    """A uniformly random answer's exact-match accuracy on a task (its records' answer space)."""
    return space_chance("accuracy", BY_TASK[task].answer_space)


def table1_row(suffix: str, metric: str) -> tuple[Headline, ...]:
    """Table 1's row of one variant: Overall (unweighted mean of the six tasks) and each task's accuracy.
    ``accuracy_release`` counts the replies the release code reads (it leaves empty ones out): n of all."""
    tasks = tuple(t.task + suffix for t in TASK_TYPES)
    counted = {"select": present(metric), "counted": "counted"} if metric == "accuracy_release" else {}
    overall = sum(task_chance(t.task) for t in TASK_TYPES) / len(TASK_TYPES)
    row = [Headline("Overall", tasks, mean_point(tasks, metric), mean_of_task_means(metric), chance=overall, **counted)]
    row += [
        Headline(
            t.title,
            (t.task + suffix,),
            metric_point(t.task + suffix, metric),
            mean_of(metric),
            chance=task_chance(t.task),
            **counted,
        )
        for t in TASK_TYPES
    ]
    return tuple(row)


def tables() -> list[TableSpec]:
    main, periods = [], []
    style_chance = task_chance(STYLE)
    for variant, suffix in VARIANTS:
        main.append((variant, table1_row(suffix, "accuracy")))
        style = STYLE + suffix
        periods.append(
            (
                variant,
                tuple(
                    Headline(
                        name,
                        (style,),
                        metric_point(style, f"period_acc_{key}"),
                        mean_of(f"period_acc_{key}"),
                        select=lambda s, k=f"period_acc_{key}": s.get(k) is not None,
                        chance=style_chance,
                    )
                    for name, key in zip(PERIOD_NAMES, PERIOD_KEYS)
                ),
            )
        )
    main += [(variant, table1_row(suffix, metric)) for variant, suffix, metric in RELEASE_VARIANTS]
    table9 = tabvlm_paper.TABLE_9
    by_metric = {metric: column for column, (_, metric) in table9.measures.items()}
    period_columns = {name: by_metric[f"period_acc_{key}"] for name, key in zip(PERIOD_NAMES, PERIOD_KEYS)}
    style_tasks = [STYLE + suffix for _, suffix in VARIANTS] + [STYLE + "_release"]
    return [
        TableSpec(
            "tabvlm",
            "TAB-VLM",
            "Table 1 (accuracy %; Overall = unweighted mean of the six tasks)",
            "Variant",
            tuple(main),
            papers=(TABLE1_PAPER,),
        ),
        TableSpec(
            "tabvlm_periods",
            "TAB-VLM",
            "Style-Period Attribution accuracy per period (%, Table 9)",
            "Variant",
            tuple(periods),
            compare=False,
            papers=(PaperRows(table9, period_columns, variants=("visual",)),),
        ),
        TableSpec(
            "tabvlm_offsets",
            "TAB-VLM",
            "Style-Period Attribution: how far off in time (in periods, Table 2's "
            "eight, oldest first; bias > 0: answers newer than the truth)",
            "Task",
            tuple((task, offset_headlines(task)) for task in style_tasks),
            compare=False,
            confusion=tuple((task, "period_bias", PERIOD_NAMES) for task in style_tasks),
            unit="periods",
        ),
    ]


def gray_rows(base: str) -> list[GrayRow]:
    """Accuracy, and for Style-Period its accuracy per period."""
    rows = [accuracy_gray_row(base)]
    if base == STYLE:
        gray = base + "_gray"
        for name, key in zip(PERIODS, PERIOD_KEYS):
            label, metric = name.split(" (")[0], f"period_acc_{key}"
            rows.append(
                GrayRow(
                    label,
                    Headline(label, (base,), metric_point(base, metric), mean_of(metric), present(metric)),
                    Headline(label, (gray,), metric_point(gray, metric), mean_of(metric), present(metric)),
                )
            )
    return rows


SYMBOLS = {
    "Overall": "TAB-VLM: unweighted mean of the six task accuracies (Table 1)",
    RELEASE_OURS: "TAB-VLM asked with the release code's numbered-option prompts (tabvlm_chrono_release), read by us",
    RELEASE_READING: (
        "the same replies read and counted by the release code (accuracy_release): it leaves empty replies and "
        "images it could not load out of the denominator, so its n can be smaller"
    ),
}


def report_spec() -> BenchmarkReport:
    return BenchmarkReport(
        order=1,
        tables=tables,
        circular=("tabvlm_style_period_circular", "tabvlm_odd_one_out_circular"),
        gray_rows=gray_rows,
        symbols=SYMBOLS,
        plots=(
            PlotSpec(
                "tabvlm_headlines.png",
                (PanelSpec("tabvlm", "TAB-VLM Table 1 accuracy", "accuracy (%)", percent_only=True),),
            ),
            PlotSpec(
                "per_period_accuracy.png",
                (PanelSpec("tabvlm_periods", "TAB-VLM Style-Period accuracy per period", "accuracy (%)"),),
            ),
        ),
    )
