"""The ``chronotasks`` command.

    chronotasks tasks-path                     folder to pass to lmms-eval --include_path (editable installs)
    chronotasks data-path                      where the tasks read their data (the data root)
    chronotasks demo-data [--out DIR]          synthetic demo data for every benchmark
    chronotasks prepare <benchmark>|all        download, verify and convert a benchmark's public release
    chronotasks check-data [TASKS]             validate task data and decode every image before a long run
    chronotasks export <benchmark> --format hf OUT   prepared data as a Hugging Face dataset (for the hub)
    chronotasks report RUN_DIR [RUN_DIR ...]   one page (markdown, CSV, PNG) for every benchmark and model
    chronotasks report tabvlm|chronovision ... one benchmark's paper tables
    chronotasks metaeval <benchmark> ...       judge-vs-human meta-evaluation
    chronotasks build <what> ...               build derived data (e.g. QA sets)
    chronotasks new-benchmark NAME             skeleton of a new benchmark in its four places
    chronotasks audit RUN_DIR                  parse-failure rates and unreadable replies of a --log_samples run
    chronotasks check RUN_DIR [TASKS]          exit 1 naming each task of a run without results or failed (judge, images, replies)

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
        "all": "chronotasks.benchmarks.prepare_all",
    },
    "report": {"tabvlm": "chronotasks.benchmarks.tabvlm.report", "chronovision": "chronotasks.benchmarks.chronovision.report",
               "suite": "chronotasks.suite_report"},
    "metaeval": {"tempviz": "chronotasks.benchmarks.tempviz.metaeval"},
    "build": {"musebench-qa": "chronotasks.benchmarks.musebench.build_qa"},
}
# command -> "module" for commands without a target; the module defines add_arguments and run.
COMMANDS: dict[str, str] = {"audit": "chronotasks.audit", "check": "chronotasks.check"}


def _cmd_tasks_path(args: argparse.Namespace) -> int:
    from chronotasks.tasks import TASKS_DIR

    print(TASKS_DIR)
    return 0


def _cmd_data_path(args: argparse.Namespace) -> int:
    from chronotasks.data.locations import data_root_spec

    print(data_root_spec())
    return 0


def _cmd_demo_data(args: argparse.Namespace) -> int:
    from chronotasks.benchmarks import write_demo_data
    from chronotasks.data.loading import data_root

    out = Path(args.out) if args.out else data_root()
    counts = write_demo_data(out, seed=args.seed, benchmarks=args.benchmarks, force=args.force)
    print(json.dumps(counts, indent=2))
    print(f"Demo data written under {out.resolve()} (synthetic; not the benchmarks' data).")
    if args.out:
        print(f"Use it with: export CHRONOTASKS_DATA={out.resolve()}")
    else:
        print("The tasks read it from there (the default data root); `chronotasks prepare <benchmark>` replaces it with real data.")
    return 0


def _cmd_module(module_name: str):
    def run(args: argparse.Namespace) -> int:
        return importlib.import_module(module_name).run(args)

    return run


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser. Only the target modules of ``command`` (or of every command, when
    None) are imported: they pull in heavy libraries, and ``tasks-path`` should stay instant."""
    parser = argparse.ArgumentParser(prog="chronotasks", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("tasks-path", help="print the task folder for lmms-eval --include_path")
    p.set_defaults(func=_cmd_tasks_path)

    p = sub.add_parser("data-path", help="print the data root the tasks read ($CHRONOTASKS_DATA or the per-user cache)")
    p.set_defaults(func=_cmd_data_path)

    p = sub.add_parser("demo-data", help="write synthetic demo data for the tasks")
    p.add_argument("--out", default=None, help="data root to write (default: the data root the tasks read)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--benchmarks", nargs="*", default=None, help="subset of benchmarks (default: all)")
    p.add_argument("--force", action="store_true", help="replace prepared release data too")
    p.set_defaults(func=_cmd_demo_data)

    p = sub.add_parser("new-benchmark", help="write the skeleton of a new benchmark (tasks, benchmarks, prompts, tests)")
    from chronotasks import skeleton

    skeleton.add_arguments(p)
    p.set_defaults(func=skeleton.run)

    for name, module_name, text in (("check-data", "chronotasks.check_data", "validate task data and decode every image"),
                                    ("export", "chronotasks.benchmarks.export", "write prepared data as a Hugging Face dataset")):
        p = sub.add_parser(name, help=text)
        if command in (None, name):
            importlib.import_module(module_name).add_arguments(p)
        p.set_defaults(func=_cmd_module(module_name))
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
    """Run a command; a data problem is one clear line on stderr and exit status 1 (no traceback)."""
    from chronotasks.data.errors import DataError

    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    if command == "report":   # `chronotasks report RUN_DIR ...` is the suite report (`report suite RUN_DIR ...`)
        at = argv.index("report") + 1
        if at < len(argv) and argv[at] not in SUBCOMMANDS["report"] and argv[at] not in ("-h", "--help"):
            argv.insert(at, "suite")
    args = build_parser(command).parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except DataError as err:
        print(f"chronotasks {command}: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"chronotasks {command}: interrupted; finished work is kept on disk and a rerun resumes", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
