"""TempViz's published tables (Holtermann et al.; github.com/TAI-HAMBURG/TempViz), typed in from the paper: the human
agreement (Table 2) and the meta-evaluation of automatic judges against the human labels (Tables 3
and 4; ours: ``chronotasks metaeval tempviz``, which computes the same statistics). Not typed:
Tables 1 and 5-11 (data, templates, licences, models), Tables 12-13 (Table 4 per category).

Checked in tests/tempviz/test_tempviz_paper_tables.py. Table 2's "Average" row is printed as is: it
is not the mean of the five category rows (0.5016 for image quality, whose category mean is 0.4392).
"""

from __future__ import annotations

from chronotasks.benchmarks.paper_tables import PaperTable

PAPER = "TempViz"

TABLE_2 = PaperTable(
    paper=PAPER,
    number="2",
    caption="Inter Annotator Agreement of the Human Evaluation: Cohen's κ for each question individually and the average per category.",
    metric="Cohen's κ",
    scale="fraction",
    columns=("Image Quality", "Subject", "Temporal"),
    rows={
        "Landscape": (0.8160, 1.0, 0.9122),
        "Animals": (0.5508, 1.0, 0.9189),
        "Buildings": (0.2801, 0.7626, 1.0),
        "Maps": (0.2412, 0.9054, 1.0),
        "Artworks": (0.3080, 1.0, 0.9192),
        "Average": (0.5016, 0.8970, 0.9502),
    },
    summaries=("Landscape", "Animals", "Buildings", "Maps", "Artworks", "Average"),  # rows are categories, not models
)

TABLE_3 = PaperTable(
    paper=PAPER,
    number="3",
    caption="Results for traditional evaluation approaches: point biserial correlations with human annotations for Q2 "
    "and Q3, plus their combined judgment (* = statistically significant).",
    metric="point-biserial correlation with the human labels",
    scale="fraction",
    columns=("Q2 (Subject)", "Q3 (Temporal)", "Q2+Q3 (Subj+Temp)"),
    rows={"ClipScore": (0.0158, -0.0329, -0.0394), "Captioning": (0.1571, -0.1841, -0.0955)},
)
TABLE_3_SIGNIFICANT = {"ClipScore": (False, False, False), "Captioning": (True, True, True)}

TABLE_4 = PaperTable(
    paper=PAPER,
    number="4",
    caption="Direct VLM Judging: macro Precision (P), Recall (R), and F1 against human annotations for the combined "
    "judgments of Q2 and Q3 (full prompt).",
    metric="macro P / R / F1 (%)",
    columns=("P", "R", "F1"),
    rows={
        "Baseline": (48.4, 48.3, 47.7),
        "Qwen-VL 0-Shot Simple": (64.3, 60.1, 60.0),
        "Qwen-VL 0-Shot Instr.": (64.8, 64.4, 64.6),
        "Qwen-VL 3-Shot Simple": (61.9, 62.7, 62.0),
        "Qwen-VL 3-Shot Instr.": (65.9, 67.2, 65.8),
        "GPT-4o mini 0-Shot Simple": (64.4, 61.2, 61.5),
        "GPT-4o mini 0-Shot Instr.": (61.0, 59.5, 59.8),
        "GPT-4o mini 3-Shot Simple": (62.7, 61.7, 62.0),
        "GPT-4o mini 3-Shot Instr.": (59.3, 58.0, 58.1),
        "GPT-5 0-Shot Simple": (73.2, 66.0, 66.8),
        "GPT-5 0-Shot Instr.": (75.5, 68.3, 69.4),
        "GPT-5 3-Shot Simple": (75.7, 70.9, 72.0),
        "GPT-5 3-Shot Instr.": (74.6, 69.5, 70.5),
    },
    summaries=("Baseline",),
)

TABLES = {t.number: t for t in (TABLE_2, TABLE_3, TABLE_4)}

__all__ = ["TABLES", "TABLE_2", "TABLE_3", "TABLE_3_SIGNIFICANT", "TABLE_4"]
