"""One page for every benchmark and model, from lmms-eval output folders: chronotasks report RUN_DIR [RUN_DIR ...].

    chronotasks report RUN_DIR [RUN_DIR ...] [--label NAME ...] [--out DIR]
                       [--confidence 0.95] [--resamples 2000] [--seed 0]

Each RUN_DIR is an lmms-eval ``--output_path`` folder (or one ``*_results.json``); run with
``--log_samples`` to get intervals. Runs are grouped by model (``config.model`` and its
``model_args``, or one ``--label`` per RUN_DIR); several runs of a model on the same task are
repeats. Writes ``DIR/report.md`` (also printed), each table as ``DIR/<table>.csv`` and PNG plots
beside them:

- every benchmark's headline table, models side by side: each number as lmms-eval printed it,
  with a bootstrap interval over questions (``chronotasks.scoring.intervals``) and, for repeated
  runs, the run-to-run standard deviation;
- circular variants (plain vs circular accuracy, position bias, choice rate per position);
- grayscale variants: colour, gray and Δ = colour − gray per task and per period, paired;
- paired comparisons of every model with the first one (difference, interval, p-value);
- a benchmark's meta-evaluation (e.g. judges against human labels) when a ``chronotasks metaeval
  <benchmark> --out`` folder (its ``metaeval.json``) is among the RUN_DIRs.

What is shown of each benchmark is said in its own folder, ``chronotasks/benchmarks/<benchmark>/
report_spec.py`` (``chronotasks.suite_report.spec``), found the way demo writers are found; this
package names no benchmark. Every plot of a page built from demo data carries the demo caveat.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from chronotasks.suite_report.measure import Measurer, Settings, load_models
from chronotasks.suite_report.page import build, metaeval_files, write


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "runs",
        nargs="+",
        metavar="RUN_DIR",
        help="lmms-eval output folders or *_results.json files (and chronotasks metaeval --out folders)",
    )
    parser.add_argument(
        "--label",
        action="append",
        default=None,
        help="model name of each RUN_DIR, once per RUN_DIR in order (default: model and model_args)",
    )
    parser.add_argument("--out", default="chronotasks_report", help="folder for report.md, the CSV tables and the PNG plots")
    parser.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    parser.add_argument("--resamples", type=int, default=2000, help="bootstrap / permutation resamples (default 2000)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the resampling (default 0)")


def _has_results(path: str) -> bool:
    p = Path(path)
    return (p.is_file() and p.name != "metaeval.json") or (p.is_dir() and any(p.rglob("*_results.json")))


def run(args: argparse.Namespace) -> int:
    if not 0 < args.confidence < 1:
        raise ValueError(f"--confidence must be between 0 and 1, got {args.confidence}")
    if args.label is not None and len(args.label) != len(args.runs):
        raise ValueError(f"--label given {len(args.label)} times for {len(args.runs)} RUN_DIRs")
    metaeval = metaeval_files(args.runs)
    # a folder with neither results nor a metaeval.json is passed on: loading it names the problem
    chosen = [i for i, p in enumerate(args.runs) if _has_results(p) or not metaeval_files([p])]
    models = load_models([args.runs[i] for i in chosen], [args.label[i] for i in chosen] if args.label else None)
    measurer = Measurer(Settings(args.confidence, args.resamples, args.seed))
    report = build(models, measurer, metaeval)  # everything is computed before anything is written
    write(report, Path(args.out))
    print(report.markdown)
    print(f"Report: {Path(args.out) / 'report.md'} ({len(report.csv)} CSV table(s), {len(report.plots)} plot(s) in {args.out})")
    return 0


__all__ = ["add_arguments", "run"]
