"""The ``chronotasks`` command.

    chronotasks tasks-path                     folder to pass to lmms-eval --include_path
    chronotasks demo-data --out DIR            synthetic demo data for every benchmark
    chronotasks prepare <benchmark> ...        convert a benchmark's release files
    chronotasks report ...                     tables from lmms-eval result files
    chronotasks metaeval <benchmark> ...       judge-vs-human meta-evaluation
    chronotasks build <what> ...               build derived data (e.g. QA sets)
    chronotasks audit RUN_DIR                  parse-failure rates and unreadable replies of a --log_samples run

Benchmark-specific commands live in their own modules, each with
``add_arguments(parser)`` and ``run(args) -> int``; this file only routes.
"""

from __future__ import annotations

import argparse
import importlib
import json
import sys
from pathlib import Path

# command -> {name: "module"}; each module defines add_arguments(parser) and run(args).
SUBCOMMANDS: dict[str, dict[str, str]] = {
    "prepare": {
        "tabvlm": "chronotasks.benchmarks.tabvlm.prepare",
        "chronovision": "chronotasks.benchmarks.chronovision.prepare",
        "musebench": "chronotasks.benchmarks.musebench.prepare",
        "tempviz": "chronotasks.benchmarks.tempviz.prepare",
    },
    "report": {"tabvlm": "chronotasks.benchmarks.tabvlm.report", "chronovision": "chronotasks.benchmarks.chronovision.report"},
    "metaeval": {"tempviz": "chronotasks.benchmarks.tempviz.metaeval"},
    "build": {"musebench-qa": "chronotasks.benchmarks.musebench.build_qa"},
}
# command -> "module" for commands without a target; the module defines add_arguments and run.
COMMANDS: dict[str, str] = {"audit": "chronotasks.audit"}


def _cmd_tasks_path(args: argparse.Namespace) -> int:
    from chronotasks.tasks import TASKS_DIR

    print(TASKS_DIR)
    return 0


def _cmd_demo_data(args: argparse.Namespace) -> int:
    from chronotasks.benchmarks import write_demo_data

    counts = write_demo_data(Path(args.out), seed=args.seed, benchmarks=args.benchmarks)
    print(json.dumps(counts, indent=2))
    print(f"Demo data written under {Path(args.out).resolve()} (synthetic; not the benchmarks' data).")
    print(f"Use it with: export CHRONOTASKS_DATA={Path(args.out).resolve()}")
    return 0


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser. Only the target modules of ``command`` (or of every command, when
    None) are imported: they pull in heavy libraries, and ``tasks-path`` should stay instant."""
    parser = argparse.ArgumentParser(prog="chronotasks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("tasks-path", help="print the task folder for lmms-eval --include_path")
    p.set_defaults(func=_cmd_tasks_path)

    p = sub.add_parser("demo-data", help="write synthetic demo data for the tasks")
    p.add_argument("--out", required=True, help="data root to write (then export CHRONOTASKS_DATA=OUT)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--benchmarks", nargs="*", default=None, help="subset of benchmarks (default: all)")
    p.set_defaults(func=_cmd_demo_data)

    for cmd, module_name in COMMANDS.items():
        module = importlib.import_module(module_name) if command in (None, cmd) else None
        p = sub.add_parser(cmd, help=(module.__doc__ or "").strip().splitlines()[0] if module and module.__doc__ else cmd)
        if module is not None:
            module.add_arguments(p)
            p.set_defaults(func=module.run)

    for cmd, targets in SUBCOMMANDS.items():
        if not targets:
            continue
        p = sub.add_parser(cmd, help=f"{cmd} ({', '.join(targets)})")
        target_sub = p.add_subparsers(dest="target", required=True)
        if command is not None and cmd != command:
            continue
        for name, module_name in targets.items():
            module = importlib.import_module(module_name)
            tp = target_sub.add_parser(name, help=(module.__doc__ or "").strip().splitlines()[0] if module.__doc__ else None)
            module.add_arguments(tp)
            tp.set_defaults(func=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    args = build_parser(command).parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
