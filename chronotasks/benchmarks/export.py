"""``chronotasks export <benchmark> --format hf OUT``: prepared task data as a Hugging Face dataset.

OUT is a dataset folder (parquet per task file, images embedded, a dataset card with the paper's
citation and licence notes; see chronotasks/data/hf_dataset.py). Publish it as it is:

    huggingface-cli upload ORG/PREFIX-<benchmark> OUT --repo-type dataset [--private]

and run the tasks anywhere with ``CHRONOTASKS_DATA=hf://ORG/PREFIX``. A local copy works the same
way: ``CHRONOTASKS_DATA=hf://DIR/PREFIX`` reads the folder ``DIR/PREFIX-<benchmark>``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from chronotasks.benchmarks.cards import CARDS, dataset_card
from chronotasks.data.hf_dataset import write_export
from chronotasks.data.loading import DataError, benchmark_dir


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("benchmark", choices=sorted(CARDS), help="benchmark whose prepared data to export")
    parser.add_argument("out", metavar="OUT", help="dataset folder to write (e.g. chronotasks-tabvlm)")
    parser.add_argument("--format", choices=("hf",), default="hf", help="hf: a Hugging Face datasets folder (parquet + card)")
    parser.add_argument("--data", default=None, help="benchmark folder to export (default: the data root's <benchmark> folder)")
    parser.add_argument("--force", action="store_true", help="replace OUT if it exists")


def run(args: argparse.Namespace) -> int:
    folder = Path(args.data) if args.data else benchmark_dir(args.benchmark)
    if not folder.is_dir():
        raise DataError(f"no prepared {args.benchmark} data at {folder}; prepare it first (chronotasks prepare {args.benchmark})")
    info = write_export(folder, Path(args.out), args.benchmark, dataset_card(args.benchmark), force=args.force)
    print(json.dumps({config: c["records"] for config, c in info["configs"].items()}, indent=2))
    out = Path(args.out).resolve()
    print(
        f"Wrote {out} ({len(info['configs'])} configs). Publish: huggingface-cli upload ORG/PREFIX-{args.benchmark} {out} "
        f"--repo-type dataset; then run with CHRONOTASKS_DATA=hf://ORG/PREFIX."
    )
    return 0
