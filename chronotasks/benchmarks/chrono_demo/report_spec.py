"""What `chronotasks report` shows of the demo tasks: their accuracies, their circular and grayscale variants."""

from __future__ import annotations

from chronotasks.benchmarks.chrono_demo.demo import PAIR_SPACE, PERIOD_SPACE
from chronotasks.suite_report.spec import (
    BenchmarkReport,
    GrayRow,
    Headline,
    TableSpec,
    accuracy_gray_row,
    mean_of,
    metric_point,
    space_chance,
)


def tables() -> list[TableSpec]:
    headlines = tuple(
        Headline(
            f"{name} accuracy",
            (task,),
            metric_point(task, "accuracy"),
            mean_of("accuracy"),
            chance=space_chance("accuracy", space),
        )
        for name, task, space in (
            ("period", "chrono_demo_period", PERIOD_SPACE),
            ("pair", "chrono_demo_pair", PAIR_SPACE),
        )
    )
    return [TableSpec("chrono_demo", "chrono_demo", "Demo tasks (accuracy %)", None, (("", headlines),))]


def gray_rows(base: str) -> list[GrayRow]:
    return [accuracy_gray_row(base)]


def report_spec() -> BenchmarkReport:
    return BenchmarkReport(order=0, tables=tables, circular=("chrono_demo_period_circular",), gray_rows=gray_rows)
