"""The ``chronotasks`` command: routes each sub-command to the module that implements it.

Benchmark-specific commands live in their own modules, each with ``add_arguments(parser)`` and
``run(args) -> int``; the benchmarks of ``prepare`` and ``report`` come from the registry
(``chronotasks.benchmarks``). Every error a user can cause (bad data, a missing file, a bad
argument) is one line on stderr and exit status 1; ``CHRONOTASKS_DEBUG=1`` shows the traceback.
"""

from __future__ import annotations

import argparse
import ast
import importlib
import importlib.util
import json
import os
import sys
from pathlib import Path

from chronotasks.benchmarks import PREPARE_MODULES, REPORT_MODULES

DESCRIPTION = """\
chronotasks: data, checks and reports for the chronotasks benchmarks in lmms-eval
(TAB-VLM, ChronoVision, MuseBench, TempViz).

A first session:
  chronotasks demo-data                    synthetic data to try every task (or: chronotasks prepare tabvlm)
  chronotasks check-data tabvlm_chrono     every record and image readable?
  lmms-eval --model chrono_random --tasks tabvlm_chrono --log_samples --output_path out/
  chronotasks report out/ --out report/    one page: numbers with intervals, n and failure rates
  chronotasks models                       our --model backends and their --model_args

`chronotasks COMMAND --help` describes a command."""

# command -> {target: module}; each module defines add_arguments(parser) and run(args); its docstring's
# first line is the target's help.
SUBCOMMANDS: dict[str, dict[str, str]] = {
    "prepare": {**PREPARE_MODULES, "all": "chronotasks.benchmarks.prepare_all"},
    "report": {**REPORT_MODULES, "suite": "chronotasks.suite_report"},
    "metaeval": {"tempviz": "chronotasks.benchmarks.tempviz.metaeval"},
    "build": {"musebench-qa": "chronotasks.benchmarks.musebench.build_qa"},
}
SUBCOMMAND_HELP = {
    "prepare": "download and convert a benchmark's public release into task files",
    "report": "report runs: `report RUN_DIR ...` (one page), `report tabvlm|chronovision FILES` (paper tables)",
    "metaeval": "measure TempViz judges against human labels",
    "build": "build derived data (MuseBench QA pairs)",
}
# command -> (module, help) for commands without a target; the module defines add_arguments and run.
COMMANDS: dict[str, tuple[str, str]] = {
    "check-data": ("chronotasks.check_data", "check that every record loads and every image decodes, before a long run"),
    "export": ("chronotasks.benchmarks.export", "write prepared task data as a Hugging Face dataset (to host it on the hub)"),
    "audit": ("chronotasks.audit", "how many replies of a --log_samples run no parser could read, and the common ones"),
    "check": ("chronotasks.check", "exit 1 naming each task of a run without results or failed (judge, images, replies)"),
}


def docstring(module_name: str) -> str:
    """A module's docstring, read without importing the module, without reStructuredText's double backticks."""
    spec = importlib.util.find_spec(module_name)
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8")) if spec and spec.origin else None
    return ((ast.get_docstring(tree) if tree else None) or "").strip().replace("``", "")


def summary(module_name: str) -> str:
    """The first line of a module's docstring (a target's one-line help)."""
    text = docstring(module_name)
    return text.splitlines()[0].replace("`", "") if text else ""


class Parser(argparse.ArgumentParser):
    """argparse, with a usage error as one line and exit status 1 (argparse prints the usage and exits 2)."""

    def error(self, message: str):
        self.exit(1, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


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


def _cmd_models(args: argparse.Namespace) -> int:
    from chronotasks.model_shims.arguments import BACKENDS, describe

    unknown = [name for name in args.names if name not in BACKENDS]
    if unknown:
        raise ValueError(f"no chronotasks backend {', '.join(unknown)}; ours: {', '.join(BACKENDS)}")
    print(
        "chronotasks backends for `lmms-eval --model NAME --model_args key=value,...` (registered on install; "
        "lmms-eval's own models, e.g. qwen2_5_vl, work with every task too):\n"
    )
    print("\n\n".join(describe(name) for name in args.names or BACKENDS))
    return 0


def _cmd_module(module_name: str):
    def run(args: argparse.Namespace) -> int:
        return importlib.import_module(module_name).run(args)

    return run


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The argument parser. Only the target modules of ``command`` (or of every command, when
    None) are imported: they pull in heavy libraries, and ``tasks-path`` should stay instant."""
    parser = Parser(prog="chronotasks", description=DESCRIPTION, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    p = sub.add_parser("tasks-path", help="print the task folder (for lmms-eval --include_path from an editable install)")
    p.set_defaults(func=_cmd_tasks_path)

    p = sub.add_parser("data-path", help="print where the tasks read their data ($CHRONOTASKS_DATA or the per-user cache)")
    p.set_defaults(func=_cmd_data_path)

    p = sub.add_parser("demo-data", help="write synthetic demo data for every task (its numbers say nothing about a model)")
    p.add_argument("--out", default=None, help="data root to write (default: the data root the tasks read)")
    p.add_argument("--seed", type=int, default=0, help="seed of the drawn records and images (default 0)")
    p.add_argument("--benchmarks", nargs="*", default=None, help="only these benchmarks (default: all)")
    p.add_argument("--force", action="store_true", help="replace prepared release data too")
    p.set_defaults(func=_cmd_demo_data)

    p = sub.add_parser("models", help="list our --model backends with their --model_args and defaults")
    p.add_argument("names", nargs="*", help="only these backends (default: all)")
    p.set_defaults(func=_cmd_models)

    p = sub.add_parser("new-benchmark", help="write a working skeleton of a new benchmark (tasks, data, prompt, tests)")
    from chronotasks import skeleton

    skeleton.add_arguments(p)
    p.set_defaults(func=skeleton.run)

    for name, (module_name, text) in COMMANDS.items():
        p = sub.add_parser(name, help=text, description=text)
        if command in (None, name):
            importlib.import_module(module_name).add_arguments(p)
        p.set_defaults(func=_cmd_module(module_name))

    for cmd, targets in SUBCOMMANDS.items():
        p = sub.add_parser(cmd, help=SUBCOMMAND_HELP[cmd], description=SUBCOMMAND_HELP[cmd])
        target_sub = p.add_subparsers(dest="target", required=True, metavar="TARGET")
        if command is not None and cmd != command:
            continue
        for name, module_name in targets.items():
            tp = target_sub.add_parser(
                name,
                help=summary(module_name),
                description=docstring(module_name),
                formatter_class=argparse.RawDescriptionHelpFormatter,
                **({"prog": "chronotasks report"} if (cmd, name) == ("report", "suite") else {}),
            )
            importlib.import_module(module_name).add_arguments(tp)
            tp.set_defaults(func=_cmd_module(module_name))
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run a command; a problem the user can fix is one clear line on stderr and exit status 1."""
    from chronotasks.data.errors import DataError

    argv = sys.argv[1:] if argv is None else list(argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    if command == "report":  # `chronotasks report RUN_DIR ...` is the suite report (`report suite RUN_DIR ...`)
        at = argv.index("report") + 1
        if at == len(argv) or (argv[at] not in SUBCOMMANDS["report"] and argv[at] not in ("-h", "--help")):
            argv.insert(at, "suite")
    args = build_parser(command).parse_args(argv)
    name = " ".join(part for part in (command, getattr(args, "target", None)) if part and part != "suite")
    try:
        return int(args.func(args) or 0)
    except (DataError, OSError, ValueError) as err:
        if os.environ.get("CHRONOTASKS_DEBUG"):
            raise
        print(f"chronotasks {name}: error: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"chronotasks {name}: interrupted; finished work is kept on disk and a rerun resumes", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
