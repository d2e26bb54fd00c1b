"""Build the TempViz prompt set from the release CSVs (``chronotasks prepare tempviz``).

    chronotasks prepare tempviz --source DIR --out $CHRONOTASKS_DATA/tempviz

DIR holds the release's ``<Category>.csv`` files (``tempviz/`` of the release,
or that folder's parent). Writes one task file per category
(``landscapes.jsonl`` ...) and prints counts per category against Table 1.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from chronotasks.data.loading import DataError, write_jsonl
from chronotasks.benchmarks.tempviz import CATEGORIES, PARAPHRASES, TABLE1_PROMPTS, TABLE1_TOTAL, task_file
from chronotasks.benchmarks.tempviz.records import read_category_csv


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", required=True, help="folder with the release's <Category>.csv files (or its parent)")
    parser.add_argument("--out", required=True, help="output folder, e.g. $CHRONOTASKS_DATA/tempviz")
    parser.add_argument("--categories", nargs="*", default=list(CATEGORIES), help="subset of categories")


def find_csv(source: Path, category: str) -> Path:
    for candidate in (source / f"{category}.csv", source / "tempviz" / f"{category}.csv"):
        if candidate.is_file():
            return candidate
    raise DataError(f"{category}.csv not found in {source} or {source / 'tempviz'}")


def prepare(source: Path, out: Path, categories=CATEGORIES) -> dict[str, dict[str, int]]:
    """Write the task files; return per-category counts with Table 1's expectation."""
    report = {}
    for category in categories:
        if category not in CATEGORIES:
            raise DataError(f"unknown category {category!r}; expected one of {CATEGORIES}")
        records = read_category_csv(find_csv(source, category), category)
        write_jsonl(out / task_file(category), records)
        expected = TABLE1_PROMPTS[category] * PARAPHRASES
        report[category] = {
            "prompts": len(records),
            "table1": expected,
            "table1_base": TABLE1_PROMPTS[category],
            "matches": int(len(records) == expected),
        }
    return report


def run(args: argparse.Namespace) -> int:
    report = prepare(Path(args.source), Path(args.out), args.categories)
    total = sum(r["prompts"] for r in report.values())
    print(f"{'category':<12} {'prompts':>8} {'Table 1 (x4)':>13}")
    for category, r in report.items():
        flag = "" if r["matches"] else "  <-- differs"
        print(f"{category:<12} {r['prompts']:>8} {r['table1']:>13}{flag}")
    print(f"{'total':<12} {total:>8} {TABLE1_TOTAL if len(report) == len(CATEGORIES) else '-':>13}")
    print(json.dumps({"out": str(Path(args.out).resolve()), "counts": {c: r["prompts"] for c, r in report.items()}}))
    return 0
