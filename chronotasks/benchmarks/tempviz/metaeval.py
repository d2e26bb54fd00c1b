"""Judge-vs-human meta-evaluation of TempViz (§5.3, Tables 2-4, 12-13).

    chronotasks metaeval tempviz --annotations annotator_1.xlsx annotator_2.xlsx \\
        --subset prompts_annotation_subset.csv --judgments FILE.csv [FILE2.csv ...] [--json] [--out DIR]

- Ground truth: ONE annotator's combined label, Q2 (subject present) AND Q3
  (temporal knowledge applied); Q1 (image quality) is not used. The paper's
  Table 4 / 12 / 13 numbers come from annotator 1 (the first file): with it the
  release judge file (GPT-5, 3-shot, Simple) gives P 75.66 / R 70.87 / F1 72.01,
  with annotator 2 P 77.14 / R 72.02 / F1 73.25. ``--gt-annotator`` picks another.
- Rows align on (model, category, index); prompt strings are never joined on
  (they differ by trailing spaces in about 100 rows).
- Judge files: Simple-prompt files (reply column
  ``model_response_annotation_prompt_2``, yes/no, read with parse_yes_no) and
  Judging-prompt files (reply column ``model_response_vlm_prompt``; the RATING is
  read with parse_graded_rating: Accept / Not accept, or a graded level where
  outstanding, excellent, very good and good accept and fair, average,
  mediocre, poor, bad, very poor, very bad reject; ``--accept-from`` moves the
  cut). A reply with no verdict is dropped and counted. A file with a numeric
  ``--score-column`` (e.g. CLIPScore, caption similarity) gets point-biserial r
  (with p) against Q2, Q3 and Q2+Q3 (Table 3).
- Cohen's κ between the two annotators per category and question (Table 2);
  the "Average" row of Table 2 is κ over all 500 items pooled (that is what
  reproduces its numbers), reported here as "overall".
- Random baseline: uniform 0/1 predictions from numpy.random.default_rng(seed),
  seed 0 by default; the paper does not give its seed, so its 48.4/48.3/47.7
  is not reproduced exactly (we get a value near 50 as expected of chance).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from chronotasks.benchmarks.tempviz import CATEGORIES
from chronotasks.data.loading import DataError
from chronotasks.reporting import markdown_table
from chronotasks.scoring import cohens_kappa, macro_prf, point_biserial
from chronotasks.scoring.t2i import DEFAULT_ACCEPT_FROM, parse_verdict

KEY = ["model", "category", "index"]
QUESTIONS = {  # question id -> a phrase identifying its column in the annotator files
    "Q1": "without any visual generation errors",
    "Q2": "subject present",
    "Q3": "applying the required temporal knowledge",
}
SIMPLE_COLUMN = "model_response_annotation_prompt_2"
JUDGING_COLUMN = "model_response_vlm_prompt"
DEFAULT_BASELINE_SEED = 0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--annotations", nargs=2, required=True, metavar=("A1.xlsx", "A2.xlsx"), help="the two annotators' files")
    parser.add_argument("--subset", required=True, help="prompts_annotation_subset.csv (the annotated items)")
    parser.add_argument("--judgments", nargs="+", required=True, help="judge output CSV file(s)")
    parser.add_argument(
        "--gt-annotator", type=int, choices=(1, 2), default=1, help="annotator whose Q2 AND Q3 label is the ground truth (paper: 1)"
    )
    parser.add_argument(
        "--reply-column", default=None, help=f"reply column (default: {SIMPLE_COLUMN} or {JUDGING_COLUMN}, whichever exists)"
    )
    parser.add_argument("--score-column", default=None, help="numeric column for point-biserial r (continuous judges)")
    parser.add_argument("--accept-from", default=DEFAULT_ACCEPT_FROM, help="lowest graded RATING that counts as accept")
    parser.add_argument("--seed", type=int, default=DEFAULT_BASELINE_SEED, help="seed of the random baseline")
    parser.add_argument("--out", default="tempviz_metaeval", help="folder for the markdown table and PNG charts")
    parser.add_argument("--json", action="store_true", help="print the results as JSON (percent)")


# -- reading ----------------------------------------------------------------------------------
def _yes_no_column(frame: pd.DataFrame, column: str, path: Path) -> pd.Series:
    values = frame[column].astype(str).str.strip().str.lower()
    bad = values[~values.isin(["yes", "no"])]
    if len(bad):
        row = bad.index[0]
        raise DataError(f"{path}: row {row + 2}, column {column!r}: expected yes/no, got {frame[column].iloc[row]!r}")
    return values == "yes"


def read_annotations(path: Path) -> pd.DataFrame:
    """One annotator's file as columns model, category, index, Q1, Q2, Q3 (booleans)."""
    try:
        frame = pd.read_excel(path)
    except FileNotFoundError as err:
        raise DataError(f"annotation file {path} does not exist") from err
    missing = [k for k in KEY if k not in frame.columns]
    if missing:
        raise DataError(f"{path}: missing column(s) {missing}")
    out = frame[KEY].copy()
    for qid, phrase in QUESTIONS.items():
        matches = [c for c in frame.columns if phrase.lower() in str(c).lower()]
        if len(matches) != 1:
            raise DataError(f"{path}: expected one column containing {phrase!r} ({qid}), found {matches}")
        out[qid] = _yes_no_column(frame, matches[0], path)
    if out.duplicated(KEY).any():
        dup = out[out.duplicated(KEY)].iloc[0][KEY].tolist()
        raise DataError(f"{path}: duplicate item {dup}")
    out["combined"] = out["Q2"] & out["Q3"]
    return out


def read_subset(path: Path) -> pd.DataFrame:
    frame = pd.read_csv(path)
    missing = [k for k in KEY if k not in frame.columns]
    if missing:
        raise DataError(f"{path}: missing column(s) {missing}")
    return frame[KEY].drop_duplicates()


def judge_verdicts(
    path: Path, reply_column: str | None = None, accept_from: str = DEFAULT_ACCEPT_FROM, score_column: str | None = None
) -> tuple[pd.DataFrame, dict[str, Any]]:
    """A judge file as (model, category, index, pred[, score]) with unparsed replies dropped; and info."""
    frame = pd.read_csv(path)
    missing = [k for k in KEY if k not in frame.columns]
    if missing:
        raise DataError(f"{path}: missing column(s) {missing}")
    info: dict[str, Any] = {"file": str(path), "rows": len(frame)}
    out = frame[KEY].copy()
    if score_column:
        if score_column not in frame.columns:
            raise DataError(f"{path}: no column {score_column!r}")
        out["score"] = pd.to_numeric(frame[score_column], errors="coerce")
    column = reply_column or (
        SIMPLE_COLUMN if SIMPLE_COLUMN in frame.columns else JUDGING_COLUMN if JUDGING_COLUMN in frame.columns else None
    )
    if column is None and not score_column:
        raise DataError(f"{path}: no reply column ({SIMPLE_COLUMN} or {JUDGING_COLUMN}) and no --score-column")
    if column is not None:
        if column not in frame.columns:
            raise DataError(f"{path}: no column {column!r}")
        prompt_type = "judging" if column == JUDGING_COLUMN else "simple"
        verdicts = [parse_verdict(None if isinstance(r, float) and math.isnan(r) else r, prompt_type, accept_from) for r in frame[column]]
        out["pred"] = [None if v is None else int(v) for v in verdicts]
        info.update(reply_column=column, prompt_type=prompt_type, dropped=int(sum(v is None for v in verdicts)))
        out = out[out["pred"].notna()].copy()
        out["pred"] = out["pred"].astype(int)
    if "model_name" in frame.columns and frame["model_name"].nunique() == 1:
        info["judge_model"] = str(frame["model_name"].iloc[0])
    if out.duplicated(KEY).any():
        raise DataError(f"{path}: duplicate rows for {out[out.duplicated(KEY)].iloc[0][KEY].tolist()}")
    return out, info


# -- metrics ----------------------------------------------------------------------------------
def _pct(prf: dict[str, float]) -> dict[str, float]:
    return {k: 100 * v for k, v in prf.items()}


def prf_table(y_true, y_pred, categories) -> dict[str, Any]:
    frame = pd.DataFrame({"y": np.asarray(y_true, dtype=int), "p": np.asarray(y_pred, dtype=int), "category": list(categories)})
    overall = {**_pct(macro_prf(frame.y, frame.p, labels=[0, 1])), "n": int(len(frame))}
    per_category = {}
    for category in [c for c in CATEGORIES if c in set(frame.category)] + sorted(set(frame.category) - set(CATEGORIES)):
        part = frame[frame.category == category]
        per_category[category] = {**_pct(macro_prf(part.y, part.p, labels=[0, 1])), "n": int(len(part))}
    return {"overall": overall, "per_category": per_category}


def kappa_table(a1: pd.DataFrame, a2: pd.DataFrame) -> dict[str, dict[str, float]]:
    both = a1.merge(a2, on=KEY, suffixes=("_1", "_2"))
    table = {}
    for category in [c for c in CATEGORIES if c in set(both.category)]:
        part = both[both.category == category]
        table[category] = {q: cohens_kappa(part[f"{q}_1"], part[f"{q}_2"]) for q in QUESTIONS}
    table["overall"] = {q: cohens_kappa(both[f"{q}_1"], both[f"{q}_2"]) for q in QUESTIONS}
    return table


def random_baseline(truth: pd.DataFrame, seed: int) -> dict[str, Any]:
    rng = np.random.default_rng(seed)
    pred = rng.integers(0, 2, size=len(truth))
    return {**prf_table(truth["combined"].astype(int), pred, truth["category"]), "seed": seed, "generator": "numpy.random.default_rng"}


def evaluate_judge(truth: pd.DataFrame, judged: pd.DataFrame, info: dict[str, Any]) -> dict[str, Any]:
    merged = truth.merge(judged, on=KEY, how="inner")
    result: dict[str, Any] = {"info": {**info, "aligned": int(len(merged)), "unmatched_rows": int(len(judged) - len(merged))}}
    if "pred" in merged.columns:
        table = prf_table(merged["combined"].astype(int), merged["pred"], merged["category"])
        table["overall"]["dropped"] = int(info.get("dropped", 0))
        result.update(table)
    if "score" in merged.columns:
        scored = merged[merged["score"].notna()]
        result["point_biserial"] = {}
        for label, column in (("Q2", "Q2"), ("Q3", "Q3"), ("Q2+Q3", "combined")):
            r, p = point_biserial(scored[column].astype(int), scored["score"])
            result["point_biserial"][label] = {"r": r, "p": p, "n": int(len(scored))}
    return result


def run_metaeval(
    annotations: list[Path],
    subset: Path,
    judgments: list[Path],
    gt_annotator: int = 1,
    reply_column: str | None = None,
    score_column: str | None = None,
    accept_from: str = DEFAULT_ACCEPT_FROM,
    seed: int = DEFAULT_BASELINE_SEED,
) -> dict[str, Any]:
    a1, a2 = (read_annotations(Path(p)) for p in annotations)
    items = read_subset(Path(subset))
    truth = (a1 if gt_annotator == 1 else a2).merge(items, on=KEY, how="inner")
    if len(truth) != len(items):
        raise DataError(f"{subset}: {len(items) - len(truth)} item(s) have no annotation in {annotations[gt_annotator - 1]}")
    judges = {}
    for path in judgments:
        judged, info = judge_verdicts(Path(path), reply_column, accept_from, score_column)
        judges[Path(path).stem] = evaluate_judge(truth, judged, info)
    return {
        "ground_truth": {
            "annotator": gt_annotator,
            "file": str(annotations[gt_annotator - 1]),
            "label": "Q2 AND Q3",
            "items": int(len(truth)),
            "positives": int(truth["combined"].sum()),
        },
        "judges": judges,
        "random_baseline": random_baseline(truth, seed),
        "kappa": kappa_table(a1, a2),
    }


# -- output -----------------------------------------------------------------------------------
def markdown(results: dict[str, Any]) -> str:
    rows = [(name, r) for name, r in results["judges"].items() if "overall" in r]
    rows.append((f"Random baseline (seed {results['random_baseline']['seed']})", results["random_baseline"]))
    lines = [
        f"# TempViz meta-evaluation (ground truth: annotator {results['ground_truth']['annotator']}, Q2 AND Q3)",
        "",
        markdown_table(
            ["Judge", "Category", "P", "R", "F1", "n"],
            [
                (name, category, f"{m['precision']:.1f}", f"{m['recall']:.1f}", f"{m['f1']:.1f}", m["n"])
                for name, r in rows
                for category, m in [("Overall", r["overall"]), *r["per_category"].items()]
            ],
        ),
    ]
    for name, r in results["judges"].items():
        if "dropped" in r.get("overall", {}):
            lines.append(f"\n{name}: {r['overall']['dropped']} unparsed repl(ies) dropped.")
        if "point_biserial" in r:
            lines += [
                "",
                f"Point-biserial r of {name}:",
                "",
                markdown_table(
                    ["Question", "r", "p", "n"], [(q, f"{v['r']:.4f}", f"{v['p']:.3g}", v["n"]) for q, v in r["point_biserial"].items()]
                ),
            ]
    lines += [
        "",
        "Cohen's κ between the annotators:",
        "",
        markdown_table(
            ["Category", "Image quality (Q1)", "Subject (Q2)", "Temporal (Q3)"],
            [(category, f"{k['Q1']:.4f}", f"{k['Q2']:.4f}", f"{k['Q3']:.4f}") for category, k in results["kappa"].items()],
        ),
    ]
    return "\n".join(lines) + "\n"


def bar_charts(results: dict[str, Any], out: Path) -> list[Path]:
    """One PNG per category (and overall): P/R/F1 bars for each judge and the baseline."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = {name: r for name, r in results["judges"].items() if "overall" in r}
    rows["random baseline"] = results["random_baseline"]
    categories = ["overall", *results["random_baseline"]["per_category"]]
    written = []
    for category in categories:
        fig, ax = plt.subplots(figsize=(1.8 + 1.6 * len(rows), 3.2))
        width = 0.25
        for i, metric in enumerate(("precision", "recall", "f1")):
            values = [
                (r["overall"] if category == "overall" else r["per_category"].get(category, {})).get(metric, 0.0) for r in rows.values()
            ]
            ax.bar(np.arange(len(rows)) + (i - 1) * width, values, width, label=metric)
        ax.set_xticks(np.arange(len(rows)), list(rows), fontsize=7)
        ax.set_ylim(0, 100)
        ax.set_ylabel("macro %")
        ax.set_title(f"TempViz judges vs humans: {category}")
        ax.legend(fontsize=7)
        fig.tight_layout()
        path = out / f"metaeval_{category.lower()}.png"
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def run(args: argparse.Namespace) -> int:
    results = run_metaeval(
        args.annotations, args.subset, args.judgments, args.gt_annotator, args.reply_column, args.score_column, args.accept_from, args.seed
    )
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "metaeval.md").write_text(markdown(results), encoding="utf-8")
    (out / "metaeval.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    charts = bar_charts(results, out)
    if args.json:
        judges = [r for r in results["judges"].values() if "overall" in r]
        payload: dict[str, Any] = dict(judges[0]) if len(judges) == 1 else {"judges": results["judges"]}
        payload.pop("info", None)
        payload.update(random_baseline=results["random_baseline"], kappa=results["kappa"], ground_truth=results["ground_truth"])
        print(json.dumps(payload, indent=2))
    else:
        print(markdown(results))
        print(f"Written: {out / 'metaeval.md'}, {out / 'metaeval.json'}, {len(charts)} PNG chart(s) in {out}")
    return 0
