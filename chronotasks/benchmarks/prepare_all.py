"""Prepare every public benchmark (TAB-VLM, ChronoVision, TempViz) in one go.

    chronotasks prepare all [--source DIR] [--out-root DIR] [--mirror URL] [--force]

Each benchmark runs as ``chronotasks prepare <benchmark>`` would (downloading its release, or
reading ``DIR`` / ``DIR/<benchmark>`` as an offline copy), one after the other; a failure is
reported and the others still run; the exit status is non-zero if any failed. MuseBench is not
public and is skipped with a note on how to prepare it.
"""

from __future__ import annotations

import argparse
import importlib
from pathlib import Path

from chronotasks.data.loading import DataError

PUBLIC = {
    "tabvlm": "chronotasks.benchmarks.tabvlm.prepare",
    "chronovision": "chronotasks.benchmarks.chronovision.prepare",
    "tempviz": "chronotasks.benchmarks.tempviz.prepare",
}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", default=None, help="offline copies: a folder holding each release (or <benchmark>/ folders)")
    parser.add_argument("--out-root", default=None, help="data root to write <benchmark>/ folders under (default: the data root)")
    parser.add_argument("--mirror", default=None, help="fetch https://HOST/PATH as MIRROR/HOST/PATH")
    parser.add_argument("--force", action="store_true", help="replace prepared task files even by fewer records")
    parser.add_argument("--retries", type=int, default=3)
    parser.add_argument("--timeout", type=float, default=30.0)
    parser.add_argument("--backoff", type=float, default=1.0)


def _arguments_for(benchmark: str, module, args: argparse.Namespace) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=f"chronotasks prepare {benchmark}")
    module.add_arguments(parser)
    argv = ["--retries", str(args.retries), "--timeout", str(args.timeout), "--backoff", str(args.backoff)]
    if args.source:
        argv += ["--source", args.source]
    if args.out_root:
        argv += ["--out", str(Path(args.out_root) / benchmark)]
    if args.mirror:
        argv += ["--mirror", args.mirror]
    if args.force:
        argv.append("--force")
    return parser.parse_args(argv)


def run(args: argparse.Namespace) -> int:
    from chronotasks.benchmarks.musebench.prepare import NOT_PUBLIC

    failed = {}
    for benchmark, module_name in PUBLIC.items():
        print(f"\n=== chronotasks prepare {benchmark} ===", flush=True)
        module = importlib.import_module(module_name)
        try:
            code = module.run(_arguments_for(benchmark, module, args))
        except DataError as err:
            print(f"error: {err}")
            code = 1
        if code:
            failed[benchmark] = code
    print(f"\n=== musebench ===\n{NOT_PUBLIC}")
    print(
        "\nprepared: " + (", ".join(b for b in PUBLIC if b not in failed) or "none") + ("; FAILED: " + ", ".join(failed) if failed else "")
    )
    return 1 if failed else 0
