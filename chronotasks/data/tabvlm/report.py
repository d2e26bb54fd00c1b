"""Table 1 of TAB-VLM (mean ± std over runs) from lmms-eval result files.

    chronotasks report tabvlm RUN1_results.json RUN2_results.json ... [--label NAME] [--csv OUT.csv]

Give the result files of repeated runs of one model (e.g. five seeds; a
folder is searched for ``*_results.json``). Per run, each task's accuracy is
read and Overall is the unweighted mean of the six task accuracies; the table
shows mean ± sample standard deviation (ddof = 1) over the runs, in percent.
A row is printed for each variant found: visual only (``tabvlm_chrono``) and
visual + metadata (``tabvlm_chrono_metadata``). A second table gives the
partial-credit metrics of Appendix C.3, the tie-aware sequence accuracy and
the parse-failure rates. Markdown first, then CSV.
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import math
from pathlib import Path
from typing import Any

from chronotasks.data.tabvlm.schema import TASK_TYPES
from chronotasks.scoring import mean_std

VARIANTS = (("visual", ""), ("visual+metadata", "_metadata"))
# (column title, task short name, metric key, scale)
DETAIL_COLUMNS = (
    ("Chron. exact", "sequence", "accuracy", 100), ("Chron. tie-aware", "sequence", "exact_tie_aware", 100),
    ("Chron. τ", "sequence", "kendall_tau", 1),
    ("Mat. exact", "material", "accuracy", 100), ("Mat. F1", "material", "f1", 1),
    ("Tech. exact", "technique", "accuracy", 100), ("Tech. F1", "technique", "f1", 1),
    ("Group. exact", "grouping", "accuracy", 100), ("Group. Jaccard", "grouping", "jaccard", 1),
) + tuple((f"Parse fail {short}", t.task[len("tabvlm_"):], "parse_failure", 100)
          for short, t in zip(("Style", "Chron.", "Tech.", "Mat.", "Group.", "Odd"), TASK_TYPES))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", help="lmms-eval *_results.json files (or folders holding them), one per run")
    parser.add_argument("--label", default=None, help="row label (default: the model name in the result files)")
    parser.add_argument("--csv", default=None, help="also write the CSV to this file")
    parser.add_argument("--digits", type=int, default=1)


def result_files(paths: list[str]) -> list[Path]:
    files: list[Path] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(path.rglob("*_results.json"))
            if not found:
                raise FileNotFoundError(f"no *_results.json under {path}")
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise FileNotFoundError(f"{path} does not exist")
    return files


def _value(results: dict[str, Any], task: str, metric: str) -> float:
    value = (results.get(task) or {}).get(f"{metric},none")
    return float(value) if isinstance(value, (int, float)) else math.nan


def run_scores(data: dict[str, Any], suffix: str) -> dict[str, float] | None:
    """One run's Table 1 row (fractions) for a variant, or None when the run lacks its tasks."""
    results = data.get("results") or {}
    names = [t.task + suffix for t in TASK_TYPES]
    if not any(name in results for name in names):
        return None
    row = {t.title: _value(results, t.task + suffix, "accuracy") for t in TASK_TYPES}
    accs = list(row.values())
    row = {"Overall": sum(accs) / len(accs) if not any(math.isnan(a) for a in accs) else math.nan, **row}
    for title, short, metric, _ in DETAIL_COLUMNS:
        row[title] = _value(results, f"tabvlm_{short}{suffix}", metric)
    return row


def _fmt(mean: float, std: float, scale: float, digits: int) -> str:
    if math.isnan(mean):
        return "–"
    d = digits if scale == 100 else 3
    return f"{mean * scale:.{d}f} ± {std * scale:.{d}f}"


def build_tables(files: list[Path], label: str | None = None, digits: int = 1) -> tuple[str, str]:
    runs = []
    for path in files:
        try:
            runs.append(json.loads(path.read_text(encoding="utf-8")))
        except (OSError, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not an lmms-eval results JSON ({err})") from err
    if label is None:
        models = sorted({str((r.get("config") or {}).get("model", "?")) for r in runs})
        label = "/".join(models)
    main_cols = ["Overall"] + [t.title for t in TASK_TYPES]
    detail_cols = [c[0] for c in DETAIL_COLUMNS]
    scales = {**{c: 100 for c in main_cols}, **{c[0]: c[3] for c in DETAIL_COLUMNS}}
    rows = []
    for variant, suffix in VARIANTS:
        per_run = [s for s in (run_scores(r, suffix) for r in runs) if s is not None]
        if not per_run:
            continue
        stats = {}
        for col in main_cols + detail_cols:
            values = [s[col] for s in per_run if not math.isnan(s[col])]
            stats[col] = mean_std(values) if values else (math.nan, math.nan)
        rows.append((variant, len(per_run), stats))
    if not rows:
        raise ValueError("none of the files has TAB-VLM task results (tabvlm_* tasks)")

    def table(cols: list[str]) -> list[str]:
        lines = ["| Model | Variant | Runs | " + " | ".join(cols) + " |", "|" + "---|" * (len(cols) + 3)]
        for variant, n, stats in rows:
            lines.append(f"| {label} | {variant} | {n} | " + " | ".join(_fmt(*stats[c], scales[c], digits) for c in cols) + " |")
        return lines

    markdown = "\n".join(["Table 1 (accuracy %, mean ± std over runs):", ""] + table(main_cols)
                         + ["", "Partial credit (τ, F1, Jaccard in [0, 1]), tie-aware sequence accuracy and parse failures (%):", ""]
                         + table(detail_cols))
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(["model", "variant", "runs"] + [f"{c} {part}" for c in main_cols + detail_cols for part in ("mean", "std")])
    for variant, n, stats in rows:
        cells = []
        for c in main_cols + detail_cols:
            mean, std = stats[c]
            cells += ["" if math.isnan(mean) else round(mean * scales[c], 4), "" if math.isnan(std) else round(std * scales[c], 4)]
        writer.writerow([label, variant, n] + cells)
    return markdown, buffer.getvalue()


def run(args: argparse.Namespace) -> int:
    markdown, text = build_tables(result_files(args.files), args.label, args.digits)
    print(markdown)
    print()
    print(text, end="")
    if args.csv:
        Path(args.csv).write_text(text, encoding="utf-8")
    return 0
