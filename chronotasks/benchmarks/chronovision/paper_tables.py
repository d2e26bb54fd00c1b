"""ChronoVision's published tables (Zhou et al., "Seeing Time: Benchmarking Chronological Reasoning and
Shortcut Biases in VLMs"; github.com/LuoRenqiang/ChronoVision), typed in from the paper.

Checked in tests/chronovision/test_chronovision_paper_tables.py against what the paper lets one
recompute: Δ_ACC = ACC_1 - ACC_2 in every row of Tables III and IV; Table III's Score is the composite
S of §V.C from its own columns and its Rank follows the Score; its average rows are the means of their
model rows; Table IV's Average row; Table VII's Δ and its w/o-CoT column against Table III; Table
VIII's zero-shot columns against Table III. Not typed: Table I (data counts), Table II (an SFT study
on a held-out split), Table VI (confidence by year range).
"""

from __future__ import annotations

from chronotasks.benchmarks.paper_tables import PaperTable

PAPER = "Zhou et al., Seeing Time (ChronoVision)"
CLOSED = ("Gemini-2.5-Pro", "GPT-5.2")
OPEN = (
    "InternVL3.5-8B",
    "MiniCPM-V-4.5",
    "GLM-4.1V-9B-Thinking",
    "Qwen2.5-VL-7B-Instruct",
    "Qwen3-VL-2B-Instruct",
    "Qwen3-VL-4B-Instruct",
    "Qwen3-VL-8B-Instruct",
    "Qwen3-VL-235B-A22B-Instruct",
)

TABLE_III = PaperTable(
    paper=PAPER,
    number="III",
    caption="Evaluation results of VLMs on the benchmark. Artifacts (887 + 1000), Shortcut (1200), News (1028 + 1500).",
    metric="accuracies and scores (%); 50 × (1 + τ); MAE in years; Rank (1 = best)",
    scale="mixed",
    columns=("ACC_A", "50 × (1 + τ)", "ACC_B", "ACC_1", "ACC_2", "Δ_ACC", "ACC_Y", "MAE", "ACC_M", "Score", "Rank"),
    rows={
        "Gemini-2.5-Pro": (44.23, 64.05, 86.25, 88.17, 78.75, 9.42, 55.58, 1.91, 84.27, 67.17, 1),
        "GPT-5.2": (40.14, 62.21, 77.00, 86.33, 56.83, 29.50, 40.98, 3.62, 49.73, 49.96, 2),
        "Closed-Source Average": (42.19, 63.01, 81.63, 87.25, 67.79, 19.46, 48.28, 2.77, 67.00, 58.57, None),
        "InternVL3.5-8B": (24.86, 54.56, 64.92, 90.58, 24.92, 65.66, 13.43, 12.43, 39.00, 29.06, 10),
        "MiniCPM-V-4.5": (44.93, 55.57, 71.42, 86.67, 40.08, 46.57, 31.53, 3.34, 25.07, 38.68, 6),
        "GLM-4.1V-9B-Thinking": (36.53, 59.37, 67.67, 89.33, 32.08, 57.25, 34.26, 5.10, 38.27, 37.35, 7),
        "Qwen2.5-VL-7B-Instruct": (44.01, 56.78, 66.08, 83.67, 40.83, 42.84, 34.12, 3.35, 12.47, 36.91, 8),
        "Qwen3-VL-2B-Instruct": (25.88, 53.27, 52.42, 63.58, 39.17, 24.41, 28.22, 3.43, 25.27, 35.11, 9),
        "Qwen3-VL-4B-Instruct": (40.14, 58.23, 68.92, 81.67, 47.58, 34.09, 32.86, 3.06, 26.33, 41.19, 5),
        "Qwen3-VL-8B-Instruct": (38.43, 61.32, 76.42, 87.00, 56.75, 30.25, 35.80, 3.34, 26.13, 44.47, 4),
        "Qwen3-VL-235B-A22B-Instruct": (49.94, 62.36, 77.83, 87.50, 55.75, 31.75, 48.48, 2.16, 33.80, 49.92, 3),
        "Open-Source Average": (38.09, 57.68, 68.21, 83.75, 42.15, 41.60, 32.34, 4.53, 28.29, 39.09, None),
        "Total Average Performance": (38.91, 58.75, 70.89, 84.45, 47.28, 37.18, 35.53, 4.17, 36.03, 42.98, None),
    },
    measures={
        "ACC_A": ("chronovision_artifacts_loc", "ACC_A"),
        "ACC_B": ("chronovision_shortcut", "ACC_B"),
        "ACC_1": ("chronovision_shortcut", "ACC_1"),
        "ACC_2": ("chronovision_shortcut", "ACC_2"),
        "Δ_ACC": ("chronovision_shortcut", "delta_ACC"),
        "ACC_Y": ("chronovision_news_year", "ACC_Y"),
        "MAE": ("chronovision_news_year", "MAE"),
        "ACC_M": ("chronovision_news_multimodal", "ACC_M"),
        "Score": ("chronovision", "composite_S"),
    },
    summaries=("Closed-Source Average", "Open-Source Average", "Total Average Performance"),
)

CATEGORIES = ("Sports", "Politics", "Emergency", "Electronics", "Diversity")  # Table IV's order
TABLE_IV = PaperTable(
    paper=PAPER,
    number="IV",
    caption="Detailed performance on Shortcut Task with CoT.",
    metric="accuracy (%) per SPEED category, CoT prompt",
    columns=tuple(f"{c} {m}" for c in CATEGORIES for m in ("ACC_1", "ACC_2", "Δ_ACC")),
    rows={
        "InternVL3.5": (76.50, 24.00, 52.50, 81.00, 41.00, 40.00, 71.00, 33.50, 37.50, 78.50, 68.50, 10.00, 74.25, 44.50, 29.75),
        "MiniCPM": (76.00, 40.00, 36.00, 82.50, 39.50, 43.00, 80.00, 31.50, 48.50, 88.50, 74.50, 14.00, 86.75, 54.75, 32.00),
        "GLM": (76.50, 27.00, 49.50, 78.00, 34.50, 43.50, 70.00, 33.50, 36.50, 79.50, 73.50, 6.00, 77.50, 47.25, 30.25),
        "Qwen2.5": (71.50, 38.00, 33.50, 68.00, 44.50, 23.50, 67.50, 50.00, 17.50, 80.00, 74.50, 5.50, 73.50, 50.00, 23.50),
        "Qwen3-8B": (66.50, 50.00, 16.50, 65.00, 49.00, 16.00, 59.50, 39.50, 20.00, 87.00, 82.00, 5.00, 77.25, 57.00, 20.25),
        "Average": (73.40, 35.80, 37.60, 74.90, 41.70, 33.20, 69.60, 37.60, 32.00, 82.70, 74.60, 8.10, 77.85, 50.70, 27.15),
    },
    measures={
        f"{c} {m}": ("chronovision_shortcut_cot", f"{metric}_{c.lower()}")
        for c in CATEGORIES
        for m, metric in (("ACC_1", "ACC_1"), ("ACC_2", "ACC_2"), ("Δ_ACC", "delta_ACC"))
    },
    summaries=("Average",),
)

TABLE_V = PaperTable(
    paper=PAPER,
    number="V",
    caption="Prediction accuracy under different confidence intervals (Qwen3-8B, News-Year with a 0-100 confidence).",
    metric="per confidence bin: Num (replies), exact accuracy, within 1 year, within 3 years (%)",
    scale="mixed",
    columns=("Num", "Acc", "≤1y", "≤3y"),
    rows={
        "0–59": (0, None, None, None),
        "60–69": (2, 0.00, 0.00, 0.00),
        "70–79": (140, 17.14, 29.29, 51.43),
        "80–89": (251, 24.70, 40.24, 62.95),
        "90–94": (281, 32.74, 48.40, 68.93),
        "95–99": (354, 58.19, 70.34, 81.92),
    },
)  # ours: chronovision_news_year_confidence, one metric per bin and column (n_conf_*, acc_conf_*, within1_conf_*, within3_conf_*)

TABLE_VII = PaperTable(
    paper=PAPER,
    number="VII",
    caption="The Δ_Acc with or without chain-of-thought.",
    metric="Δ_ACC (%) without and with the CoT prompt; Δ = with − without",
    columns=("w/o CoT", "with CoT", "Δ"),
    rows={
        "InternVL3.5-8B": (65.66, 33.25, -32.41),
        "MiniCPM-V-4.5": (46.57, 34.25, -12.32),
        "GLM-4.1V-9B-Thinking": (57.25, 32.67, -24.58),
        "Qwen2.5-VL-7B-Instruct": (42.84, 21.17, -21.67),
        "Qwen3-VL-8B-Instruct": (30.25, 16.33, -13.92),
        "Total Average Performance": (48.51, 27.53, -20.98),
    },
    measures={"w/o CoT": ("chronovision_shortcut", "delta_ACC"), "with CoT": ("chronovision_shortcut_cot", "delta_ACC")},
    summaries=("Total Average Performance",),
)

TABLE_VIII = PaperTable(
    paper=PAPER,
    number="VIII",
    caption="Comparison between zero-shot (ZS) and retrieval-augmented settings.",
    metric="ACC_A (Dynasty) and ACC_Y (Year), %",
    columns=("Dynasty_ZS", "Dynasty_RAG", "Year_ZS", "Year_RAG"),
    rows={
        "Qwen3-VL-4B": (40.14, 38.22, 32.86, 34.34),
        "Qwen3-VL-8B": (38.43, 32.81, 35.80, 36.96),
        "MiniCPM-V-4.5": (44.93, 40.92, 31.53, 29.57),
    },
    measures={"Dynasty_ZS": ("chronovision_artifacts_loc", "ACC_A"), "Year_ZS": ("chronovision_news_year", "ACC_Y")},
)

TRIVIAL_DYNASTY = PaperTable(
    paper=PAPER,
    number="§VII.A (dynasty)",
    caption="Trivial constant-answer baselines: always predicting one dynasty (887 CHA images).",
    metric="ACC_A (%)",
    columns=("ACC_A",),
    rows={
        "always Tang": (11.72,),
        "always Song": (18.49,),
        "always Yuan": (12.97,),
        "always Ming": (26.83,),
        "always Qing": (29.99,),
        "10-model average": (38.91,),
    },
    measures={"ACC_A": ("chronovision_artifacts_loc", "ACC_A")},
    summaries=("always Tang", "always Song", "always Yuan", "always Ming", "always Qing", "10-model average"),
)

TRIVIAL_YEAR = PaperTable(
    paper=PAPER,
    number="§VII.A (year)",
    caption="Trivial constant-answer baselines: always predicting one year (all 1,028 News images).",
    metric="MAE (years)",
    scale="years",
    columns=("MAE",),
    rows={"mode year (2010)": (10.03,), "mean year (2008)": (10.57,), "median year (2012)": (9.85,), "10-model average": (4.17,)},
    measures={"MAE": ("chronovision_news_year", "MAE")},
    summaries=("mode year (2010)", "mean year (2008)", "median year (2012)", "10-model average"),
)

TABLES = {t.number: t for t in (TABLE_III, TABLE_IV, TABLE_V, TABLE_VII, TABLE_VIII, TRIVIAL_DYNASTY, TRIVIAL_YEAR)}

__all__ = [
    "CATEGORIES",
    "CLOSED",
    "OPEN",
    "TABLES",
    "TABLE_III",
    "TABLE_IV",
    "TABLE_V",
    "TABLE_VII",
    "TABLE_VIII",
    "TRIVIAL_DYNASTY",
    "TRIVIAL_YEAR",
]
