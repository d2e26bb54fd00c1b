"""What `chronotasks report` shows of MuseBench: Cultural VQA (BERTScore, ANLS, Score, accuracy) and
Cultural Retrieval (Recall@K), the papers' rows beside them, and the grayscale variants."""

from __future__ import annotations

from typing import Any

import numpy as np

from chronotasks.benchmarks.musebench import paper_tables as musebench_paper
from chronotasks.scoring.intervals import Statistic, Unit, ratio
from chronotasks.suite_report.spec import (
    BenchmarkReport,
    GrayRow,
    Headline,
    PaperRows,
    TableSpec,
    mean_of,
    metric_point,
    sum_count,
)

VQA = ("musebench_vqa", "musebench_vqa_descriptive", "musebench_vqa_gray", "musebench_vqa_descriptive_gray")
RETRIEVAL = tuple(f"musebench_retrieval_{s}_{d}" for s in ("structural", "structural_nl", "descriptive") for d in ("i2t", "t2i"))


def recall_statistic(k: int) -> Statistic:
    def extract(unit: Unit) -> tuple[float, float]:
        ranks = [s[f"recall@{k}"]["rank"] for s in unit]
        return sum(r is not None and r < k for r in ranks), len(ranks)

    return Statistic(extract, ratio)


def _ratio(t: np.ndarray, index: int) -> np.ndarray:
    with np.errstate(invalid="ignore", divide="ignore"):
        return t[..., index] / t[..., index + 1]


def add_bertscore(samples: list[dict[str, Any]]) -> None:
    """Per-sample BERTScore F1 (``bertscore_f1``) of MuseBench VQA samples, in one batched pass with the
    model and layer the run scored with, as its samples log them (lmms-eval logs only the (pred, ref) pairs,
    not the values); never with another model: a run that did not log its scorer gets no interval."""
    from chronotasks.provenance import run_bertscore
    from chronotasks.scoring.text_similarity import bertscore_f1

    model, layer = run_bertscore(samples)
    pairs = [s["bertscore"] for s in samples]
    values = bertscore_f1([p["pred"] for p in pairs], [p["ref"] for p in pairs], model_type=model, num_layers=layer)
    for sample, value in zip(samples, values):
        sample["bertscore_f1"] = value


def _bert_anls_unit(unit: Unit) -> tuple[float, ...]:
    return (*sum_count("bertscore_f1")(unit), *sum_count("anls", "anls")(unit))


VQA_SCORE = Statistic(_bert_anls_unit, lambda totals: (_ratio(totals[0], 0) + _ratio(totals[0], 2)) / 2)  # (BERT + ANLS) / 2


def tables() -> list[TableSpec]:
    vqa = tuple(
        (
            task,
            (
                Headline(
                    "BERTScore",
                    (task,),
                    metric_point(task, "bertscore"),
                    mean_of("bertscore_f1"),
                    prepare=add_bertscore,
                ),
                Headline("ANLS", (task,), metric_point(task, "anls"), mean_of("anls", "anls")),
                Headline("Score", (task,), metric_point(task, "score"), VQA_SCORE, prepare=add_bertscore),
                Headline("Accuracy", (task,), metric_point(task, "accuracy"), mean_of("accuracy", "acc")),
            ),
        )
        for task in VQA
    )
    retrieval = tuple(
        (
            task,
            tuple(Headline(f"R@{k}", (task,), metric_point(task, f"recall@{k}"), recall_statistic(k)) for k in (1, 5, 10)),
        )
        for task in RETRIEVAL
    )
    table4 = musebench_paper.TABLE_4
    by_task: dict[str, dict[str, str]] = {}
    for column, (task, metric) in table4.measures.items():
        by_task.setdefault(task, {})[f"R@{metric.split('@')[1]}"] = column
    # Table 2's Score is not (BERT + ANLS) / 2 as printed (chronotasks/tasks/musebench/README.md):
    # only its BERT and ANLS
    vqa_papers = (
        PaperRows(
            musebench_paper.TABLE_2,
            {"BERTScore": "Overall BERT", "ANLS": "Overall ANLS"},
            variants=("musebench_vqa",),
            note="Table 2's Score is not (BERT + ANLS) / 2: left out",
        ),
        PaperRows(
            musebench_paper.TABLE_3,
            {"BERTScore": "BERT", "ANLS": "ANLS", "Score": "Score"},
            variants=("musebench_vqa_descriptive",),
        ),
    )
    retrieval_papers = tuple(PaperRows(table4, columns, variants=(task,), note=task) for task, columns in by_task.items())
    return [
        TableSpec(
            "musebench_vqa",
            "MuseBench",
            "Cultural VQA (BERTScore F1, ANLS, Score = their mean, accuracy; %)",
            "Task",
            vqa,
            papers=vqa_papers,
        ),
        TableSpec(
            "musebench_retrieval",
            "MuseBench",
            "Cultural Retrieval (Recall@K %)",
            "Task",
            retrieval,
            papers=retrieval_papers,
        ),
    ]


def gray_rows(base: str) -> list[GrayRow]:
    """VQA: accuracy (the structured questions) and ANLS."""
    if not base.startswith("musebench_vqa"):
        return []
    gray = base + "_gray"

    def row(label: str, metric: str, figure: Statistic) -> GrayRow:
        return GrayRow(
            label,
            Headline(label, (base,), metric_point(base, metric), figure),
            Headline(label, (gray,), metric_point(gray, metric), figure),
            plotted=True,
        )

    anls = [row("ANLS", "anls", mean_of("anls", "anls"))]
    return anls if "descriptive" in base else [row("accuracy", "accuracy", mean_of("accuracy", "acc"))] + anls


SYMBOLS = {
    "BERTScore": "MuseBench VQA: BERTScore F1 of the answer against the reference",
    "ANLS": "MuseBench VQA: average normalized Levenshtein similarity to the reference",
    "Score": "MuseBench VQA: (BERTScore + ANLS) / 2",
    "Accuracy": "MuseBench VQA: structured-field accuracy (period, author)",
    "R@1": "Recall@K: share of queries whose target is among the top K retrieved (K = 1, 5, 10)",
}


def report_spec() -> BenchmarkReport:
    return BenchmarkReport(order=3, tables=tables, gray_rows=gray_rows, symbols=SYMBOLS, symbol_aliases={"R@5": "R@1", "R@10": "R@1"})
