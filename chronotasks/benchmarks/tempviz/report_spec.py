"""What `chronotasks report` shows of TempViz: judge acceptance per category, and the judges against
human labels when a ``chronotasks metaeval tempviz --out`` folder (its metaeval.json) is given."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

from chronotasks import reporting
from chronotasks.benchmarks.tempviz import CATEGORIES
from chronotasks.suite_report.spec import (
    BenchmarkReport,
    ExtraView,
    Headline,
    PanelSpec,
    PlotSpec,
    TableSpec,
    mean_of,
    metric_point,
    pooled_point,
)

TASKS = tuple(f"tempviz_{c.lower()}" for c in CATEGORIES)
SECTION = "TempViz"


def add_acceptance(samples: list[dict[str, Any]]) -> None:
    """Per-sample ``accepted`` (0/1) of TempViz samples, as the task's ``acceptance`` counts it: a
    logged sample holds the task's item under each metric, and the aggregation adds the judge's
    ``verdict`` to it (chronotasks/benchmarks/tempviz/judging.py); a failed judgement or generation
    is not accepted. A run on several processes logs items without verdicts: no interval then."""
    for sample in samples:
        value = sample.get("acceptance")
        if isinstance(value, dict):
            verdict = value.get("verdict")
            if not isinstance(verdict, dict):
                raise ValueError(
                    "the logged samples carry no judge verdicts (a run on several processes: lmms-eval "
                    "judges gathered copies; the verdicts are in <judge_cache_dir>/samples/)"
                )
            sample["accepted"] = float(verdict.get("accept") is True)
        elif isinstance(value, (int, float)):
            sample["accepted"] = float(value)


def tables() -> list[TableSpec]:
    row = tuple(
        Headline(c, (t,), metric_point(t, "acceptance"), mean_of("accepted"), prepare=add_acceptance) for c, t in zip(CATEGORIES, TASKS)
    )
    row += (Headline("All", TASKS, pooled_point(TASKS, "acceptance"), mean_of("accepted"), prepare=add_acceptance),)
    return [TableSpec("tempviz", SECTION, "Judge acceptance per category (% of generated images accepted)", None, (("", row),))]


def judges(files: list[Path]) -> ExtraView:
    """The judge-vs-human meta-evaluations found (``chronotasks metaeval tempviz`` writes metaeval.json):
    a table of macro P / R / F1 per judge and category, its CSV and an F1 plot."""
    rows, f1 = [], {}
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            entries = [
                *data["judges"].items(),
                (f"random baseline (seed {data['random_baseline']['seed']})", data["random_baseline"]),
            ]
        except (OSError, ValueError, KeyError, TypeError) as err:
            raise ValueError(f"{path}: not a `chronotasks metaeval tempviz` metaeval.json ({err})") from err
        for name, result in entries:
            if "overall" not in result:
                continue
            label = name if len(files) == 1 else f"{name} ({path.parent.name})"
            for category, m in [("Overall", result["overall"]), *result["per_category"].items()]:
                rows.append([label, category, f"{m['precision']:.1f}", f"{m['recall']:.1f}", f"{m['f1']:.1f}", m["n"]])
                f1.setdefault(label, {})[category] = (float(m["f1"]), int(m["n"]))
    header = ["Judge", "Category", "P", "R", "F1", "n"]
    plots = {}
    if f1:
        categories = ["Overall", *CATEGORIES]
        sizes = {c: list(dict.fromkeys(scores[c][1] for scores in f1.values() if c in scores)) for c in categories}
        labels = [f"{c}\n(n={'/'.join(map(str, sizes[c]))})" if sizes[c] else c for c in categories]
        plots["tempviz_judges.png"] = [
            reporting.BarPanel(
                "TempViz judges vs human labels (macro F1)",
                labels,
                {judge: [scores.get(c, (math.nan, 0))[0] for c in categories] for judge, scores in f1.items()},
                "macro F1 (%)",
            )
        ]
    return ExtraView(
        SECTION,
        "Judges against human labels (`chronotasks metaeval tempviz`; macro P/R/F1 %, Q2 AND Q3):",
        reporting.markdown_table(header, rows),
        {"tempviz_judges.csv": reporting.csv_text(header, rows)},
        plots,
        {"P / R / F1": "macro precision, recall and F1 of a judge's verdicts against the human labels"},
    )


def report_spec() -> BenchmarkReport:
    return BenchmarkReport(
        order=4,
        tables=tables,
        metaeval=judges,
        plots=(PlotSpec("tempviz_acceptance.png", (PanelSpec("tempviz", "TempViz acceptance per category", "accepted (%)"),)),),
    )
