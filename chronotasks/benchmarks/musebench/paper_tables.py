"""MuseBench's published tables (the ACL submission "MuseBench: A Comprehensive Benchmark for Multimodal Cultural
Understanding of Chinese Museum Artifacts"), typed in from the paper.

Checked in tests/musebench/test_musebench_paper_tables.py against what the paper lets one recompute:
Table 2's Overall lies between its three museums and is within 0.15 of their average weighted by Table
3's QA counts (Table 2's own counts are not printed). Model names are given as in the tables, without
their citations. Not typed: Table 1 (benchmark comparison), Tables 6-7 (data statistics), Tables 8-14
(per-museum retrieval).
"""

from __future__ import annotations

from chronotasks.benchmarks.paper_tables import PaperTable

PAPER = "MuseBench"
MUSEUMS = ("Zhejiang Provincial Museum", "The Palace Museum", "National Palace Museum")
_SUFFIX = {"Zhejiang Provincial Museum": "_zhejiang", "The Palace Museum": "_palace", "National Palace Museum": "_npm"}
DESCRIPTIVE_QA_COUNTS = {"National Palace Museum": 15882, "The Palace Museum": 3085, "Zhejiang Provincial Museum": 3298}  # Table 3

TABLE_2 = PaperTable(
    paper=PAPER,
    number="2",
    caption="Cultural VQA results on the MuseBench golden set (%). Overall is computed as a QA-count-weighted average "
    "over the three museum subsets.",
    metric="Score, BERTScore, ANLS (%)",
    columns=tuple(f"{part} {m}" for part in ("Overall", *MUSEUMS) for m in ("Score", "BERT", "ANLS")),
    rows={
        "Gemini-2.5-Pro": (34.96, 67.41, 4.25, 36.56, 67.47, 5.78, 35.27, 68.16, 7.05, 34.52, 67.25, 3.33),
        "Gemini-2.5-Flash": (34.34, 66.37, 3.98, 35.48, 66.35, 5.61, 34.15, 66.54, 5.94, 34.11, 66.34, 3.20),
        "GPT-5.1": (34.47, 67.16, 2.75, 34.09, 66.47, 3.72, 34.00, 67.25, 4.04, 34.66, 67.30, 2.27),
        "Doubao-seed-1.6-Thinking": (34.49, 67.49, 5.36, 36.50, 67.42, 7.98, 35.19, 67.61, 7.04, 33.87, 67.49, 4.40),
        "Qwen2.5VL-3B-Instruct": (30.83, 62.06, 2.57, 35.77, 63.22, 5.62, 31.67, 63.34, 4.54, 29.49, 61.53, 1.45),
        "Qwen2.5VL-7B-Instruct": (32.08, 64.94, 2.60, 34.82, 65.30, 5.14, 31.81, 64.67, 3.13, 31.48, 64.91, 1.89),
        "Qwen2.5VL-72B-Instruct": (33.46, 66.51, 4.82, 36.01, 66.96, 7.41, 32.94, 66.02, 5.57, 32.96, 66.50, 4.06),
        "Qwen3VL-8B-Instruct": (33.36, 67.20, 4.19, 36.67, 67.94, 8.07, 33.76, 66.92, 5.52, 32.50, 67.08, 3.01),
        "Qwen3VL-30B-A3B-Instruct": (34.57, 67.86, 5.02, 38.05, 68.61, 8.39, 34.63, 67.82, 5.70, 33.73, 67.69, 4.09),
        "Qwen3VL-32B-Instruct": (34.60, 68.02, 5.19, 37.77, 68.59, 8.04, 35.03, 67.97, 6.68, 33.76, 67.89, 4.21),
        "Qwen3VL-235B-A22B-Instruct": (36.89, 68.98, 7.44, 39.93, 69.74, 11.64, 37.75, 69.06, 9.73, 36.00, 68.78, 5.99),
        "Qwen3VL-235B-A22B-Thinking": (34.97, 67.43, 5.53, 37.74, 68.23, 8.93, 35.09, 67.54, 7.74, 34.28, 67.21, 4.29),
        "InternVL3-2B": (27.76, 58.39, 0.25, 29.16, 58.96, 0.77, 28.92, 60.29, 0.60, 27.20, 57.88, 0.05),
        "InternVL3-8B": (31.23, 64.27, 2.73, 31.82, 63.50, 3.60, 31.95, 64.92, 3.48, 30.95, 64.32, 2.38),
        "InternVL3.5-1B": (27.63, 58.91, 0.51, 28.95, 59.16, 1.45, 28.71, 59.78, 0.93, 27.10, 58.68, 0.21),
        "InternVL3.5-2B": (28.45, 60.41, 0.96, 29.81, 61.70, 2.07, 29.77, 61.51, 1.98, 27.86, 59.89, 0.49),
        "Deepseek-VL-2-Tiny": (28.89, 61.20, 0.76, 29.44, 60.28, 1.02, 29.79, 60.60, 1.15, 28.58, 61.54, 0.62),
    },
    measures={
        f"{part} {m}": ("musebench_vqa", f"{metric}{'' if part == 'Overall' else _SUFFIX[part]}")
        for part in ("Overall", *MUSEUMS)
        for m, metric in (("Score", "score"), ("BERT", "bertscore"), ("ANLS", "anls"))
    },
)

TABLE_3 = PaperTable(
    paper=PAPER,
    number="3",
    caption="Overall performance on descriptive Cultural VQA evaluation over the MuseBench golden set (QA-count-weighted "
    "averages across Taiwan (15,882), the Palace Museum (3,085), and Zhejiang Provincial Museum (3,298)).",
    metric="BERTScore, ANLS, Score (%)",
    columns=("BERT", "ANLS", "Score"),
    rows={
        "Gemini-2.5-Pro": (67.64, 3.98, 35.81),
        "Gemini-2.5-Flash": (66.64, 3.54, 35.09),
        "GPT-5.1": (67.03, 2.38, 34.71),
        "Doubao-seed-1.6": (67.49, 4.83, 36.16),
        "Qwen2.5VL-7B-Instruct": (64.90, 2.57, 33.74),
        "Qwen2.5VL-72B-Instruct": (66.39, 4.87, 35.63),
        "Qwen3VL-235B-A22B-Instruct": (69.12, 8.88, 38.99),
        "Qwen3VL-235B-A22B-Thinking": (67.62, 6.63, 37.12),
        "InternVL3-8B": (64.01, 3.09, 33.55),
        "InternVL3.5-2B": (60.63, 1.79, 31.21),
        "DeepSeek-VL2-Tiny": (61.88, 1.02, 31.45),
    },
    measures={
        "BERT": ("musebench_vqa_descriptive", "bertscore"),
        "ANLS": ("musebench_vqa_descriptive", "anls"),
        "Score": ("musebench_vqa_descriptive", "score"),
    },
)

_RETRIEVAL = tuple(
    f"{kind} {direction} R@{k}" for kind in ("Structural", "Descriptive") for direction in ("I2T", "T2I") for k in (1, 5, 10)
)
TABLE_4 = PaperTable(
    paper=PAPER,
    number="4",
    caption="Cultural retrieval performance on MuseBench in terms of R@K (%), Structural and Descriptive queries under "
    "I2T and T2I settings.",
    metric="Recall@K (%); Text dim / Image dim: embedding sizes",
    scale="mixed",
    columns=("Text dim", "Image dim", *_RETRIEVAL),
    rows={
        "CN-CLIP": (1024, 1024, 3.31, 9.85, 14.86, 3.91, 10.50, 15.50, 3.01, 8.93, 13.34, 4.25, 10.56, 15.71),
        "multimodal-embedding-v1": (1024, 1024, 6.00, 15.86, 22.44, 6.31, 13.74, 18.84, 5.25, 13.13, 18.15, 7.93, 15.78, 21.00),
        "tongyi-embedding-vision-flash": (768, 768, 1.59, 4.97, 7.67, 1.09, 3.27, 5.18, 2.63, 7.26, 10.64, 2.50, 6.07, 8.58),
        "tongyi-embedding-vision-plus": (1152, 1152, 2.68, 7.88, 11.68, 2.00, 5.51, 8.36, 4.21, 10.77, 15.33, 4.10, 9.54, 13.44),
        "qwen2.5-vl-embedding (512)": (512, 512, 4.76, 13.59, 19.68, 4.33, 10.78, 15.38, 5.38, 14.21, 20.15, 8.00, 16.87, 22.23),
        "qwen2.5-vl-embedding (768)": (768, 768, 5.04, 14.03, 20.10, 5.00, 11.95, 16.78, 5.73, 14.77, 20.76, 8.62, 17.98, 23.78),
        "qwen2.5-vl-embedding (1024)": (1024, 1024, 5.24, 14.53, 20.73, 5.06, 12.26, 17.30, 5.90, 15.22, 21.39, 9.09, 18.55, 24.49),
        "qwen2.5-vl-embedding (2048)": (2048, 2048, 5.48, 15.04, 21.35, 5.88, 13.68, 19.31, 5.95, 15.17, 21.45, 9.55, 19.51, 25.62),
    },
    measures={
        column: (f"musebench_retrieval_{column.split()[0].lower()}_{column.split()[1].lower()}", f"recall@{column.split('@')[1]}")
        for column in _RETRIEVAL
    },
)

TABLE_5 = PaperTable(
    paper=PAPER,
    number="5",
    caption="Cultural VQA performance comparison across category, period, and author prediction tasks.",
    metric="category BERTScore, period and author accuracy (%)",
    columns=("Category BERT", "Period Acc", "Author Acc"),
    rows={
        "Gemini-2.5-Pro": (73.13, 24.70, 15.01),
        "Gemini-2.5-Flash": (72.78, 24.54, 9.36),
        "GPT-5.1": (71.83, 27.62, 1.80),
        "Doubao-seed-1.6-Thinking": (71.52, 15.79, 14.50),
        "Qwen2.5VL-7B-Instruct": (70.92, 15.67, 14.75),
        "Qwen2.5VL-72B-Instruct": (74.18, 12.71, 16.50),
        "Qwen3VL-235B-A22B-Instruct": (71.64, 22.53, 25.47),
        "Qwen3VL-235B-A22B-Thinking": (71.37, 19.19, 25.06),
        "InternVL3-8B": (69.94, 8.73, 5.97),
        "InternVL3.5-2B": (71.99, 7.11, 1.82),
        "DeepSeek-VL2-Tiny": (72.43, 7.43, 5.78),
    },
    measures={"Period Acc": ("musebench_vqa", "period_accuracy"), "Author Acc": ("musebench_vqa", "author_accuracy")},
)

TABLES = {t.number: t for t in (TABLE_2, TABLE_3, TABLE_4, TABLE_5)}

__all__ = ["DESCRIPTIVE_QA_COUNTS", "MUSEUMS", "TABLES", "TABLE_2", "TABLE_3", "TABLE_4", "TABLE_5"]
