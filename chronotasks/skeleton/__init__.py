"""``chronotasks new-benchmark NAME``: a working skeleton of a new benchmark in its four places.

    chronotasks/tasks/NAME/        _default_template_yaml, NAME.yaml (group), NAME_period.yaml, utils.py, README.md
    chronotasks/benchmarks/NAME/   __init__.py, demo.py (found by `chronotasks demo-data`), report_spec.py (what
                                   `chronotasks report` shows of it; found the same way, no registration)
    prompts/NAME/period.j2
    tests/NAME/test_NAME.py

A name lmms-eval or chronotasks already has (a task, group or tag, or a task-name prefix: ``mmmu``,
``chrono``) is refused: lmms-eval would silently run the other task, and ``chronotasks report``
finds a benchmark's tasks by their ``NAME_`` prefix.

One multiple-choice task (one image, four period options, a letter answer), ready to run:
``chronotasks demo-data --benchmarks NAME`` writes its demo data and ``lmms-eval --tasks NAME
--include_path "$(chronotasks tasks-path)"`` runs it. The files are rendered from the Jinja
templates beside this module (``*.j2``); see CONTRIBUTING.md for what to change next.
"""

from __future__ import annotations

import argparse
import functools
import re
import sys
from pathlib import Path

TEMPLATES_DIR = Path(__file__).resolve().parent

# template file -> where it goes, relative to the repository root ({name}: the benchmark, {task}: its task)
FILES = {
    "task_template.yaml.j2": "chronotasks/tasks/{name}/_default_template_yaml",
    "group.yaml.j2": "chronotasks/tasks/{name}/{name}.yaml",
    "task.yaml.j2": "chronotasks/tasks/{name}/{task}.yaml",
    "task_utils.py.j2": "chronotasks/tasks/{name}/utils.py",
    "task_readme.md.j2": "chronotasks/tasks/{name}/README.md",
    "benchmark_init.py.j2": "chronotasks/benchmarks/{name}/__init__.py",
    "benchmark_demo.py.j2": "chronotasks/benchmarks/{name}/demo.py",
    "benchmark_report_spec.py.j2": "chronotasks/benchmarks/{name}/report_spec.py",
    "prompt.j2.j2": "prompts/{name}/period.j2",
    "test.py.j2": "tests/{name}/test_{name}.py",
}
# the four places, which must all be new
PLACES = ("chronotasks/tasks/{name}", "chronotasks/benchmarks/{name}", "prompts/{name}", "tests/{name}")
NAME_PATTERN = re.compile(r"[a-z][a-z0-9_]*")


class SkeletonError(ValueError):
    """A name or a target repository the skeleton cannot be written to."""


def _check(name: str, root: Path) -> None:
    if not NAME_PATTERN.fullmatch(name):
        raise SkeletonError(
            f"benchmark name {name!r} must be lowercase letters, digits and '_', starting with a letter "
            "(it becomes a Python package and the lmms-eval task prefix)"
        )
    missing = [p for p in ("chronotasks/tasks", "chronotasks/benchmarks", "prompts", "tests") if not (root / p).is_dir()]
    if missing:
        raise SkeletonError(f"{root} is not a chronotasks checkout (no {', '.join(missing)}); run from the repository root or pass --root")
    taken = [place.format(name=name) for place in PLACES if (root / place.format(name=name)).exists()]
    if taken:
        raise SkeletonError(f"benchmark {name!r} already exists: {', '.join(taken)} (nothing was written)")
    clashes = name_clashes(name, known_task_names(root))
    if clashes:
        raise SkeletonError(
            f"benchmark name {name!r} is taken: {'; '.join(clashes)}. lmms-eval would run the task it "
            "indexed first under that name, and `chronotasks report` finds a benchmark's tasks by the "
            "prefix NAME_: choose another name (nothing was written)"
        )


def name_clashes(name: str, known: dict[str, str]) -> list[str]:
    """How the benchmark's names (the group NAME, its task NAME_period, the task prefix NAME_) collide with
    ``known`` ({task, group or tag name: who has it}); empty when the name is free."""
    clashes = [f"{wanted} ({known[wanted]})" for wanted in (name, f"{name}_period") if wanted in known]
    prefixed = sorted(other for other in known if other.startswith(name + "_") and other != f"{name}_period")
    if prefixed:
        shown = ", ".join(f"{other} ({known[other]})" for other in prefixed[:3]) + (", ..." if len(prefixed) > 3 else "")
        clashes.append(f"{len(prefixed)} task name(s) already start with {name}_: {shown}")
    prefixes = sorted(other for other in known if name.startswith(other + "_") and known[other].startswith("chronotasks"))
    clashes += [f"{name}_ starts with the task prefix of chronotasks benchmark {other}" for other in prefixes]
    return clashes


@functools.lru_cache(maxsize=None)
def _lmms_eval_names() -> dict[str, str]:
    """lmms-eval's own task, group and tag names (its task index, as `lmms-eval --tasks` resolves them)."""
    from lmms_eval.tasks import TaskManager
    from loguru import logger

    logger.disable("lmms_eval")  # its indexer logs every YAML it skips
    try:
        manager = TaskManager(verbosity="ERROR")
    finally:
        logger.enable("lmms_eval")
    kinds = {
        **{n: "group" for n in manager.all_groups},
        **{n: "tag" for n in manager.all_tags},
        **{n: "task" for n in manager.all_subtasks},
    }
    return {n: f"lmms-eval {kind}" for n, kind in kinds.items()}


def known_task_names(root: Path) -> dict[str, str]:
    """Task, group and tag names that lmms-eval or this checkout's chronotasks already has, and the benchmark
    names of the checkout (their tasks' prefix): {name: who has it}."""
    from chronotasks.check_data import discover

    names = dict(_lmms_eval_names())
    tasks, groups = discover(root / "chronotasks" / "tasks")
    names.update({n: "chronotasks task" for n in tasks})
    names.update({n: "chronotasks group" for n in groups})
    benchmarks = root / "chronotasks" / "benchmarks"
    names.update({p.name: "chronotasks benchmark" for p in benchmarks.iterdir() if (p / "__init__.py").is_file()})
    return names


def create(name: str, root: Path) -> list[Path]:
    """Write the skeleton of benchmark ``name`` into the checkout at ``root``; the written files.
    Nothing is written when the name is invalid or any of its four places exists."""
    import jinja2

    root = Path(root).resolve()
    _check(name, root)
    environment = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES_DIR)), undefined=jinja2.StrictUndefined, keep_trailing_newline=True, autoescape=False
    )
    variables = {"name": name, "task": f"{name}_period"}
    rendered = {
        root / target.format(**variables): environment.get_template(template).render(**variables) for template, target in FILES.items()
    }  # all rendered before anything is written
    for path, text in rendered.items():
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return sorted(rendered)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("name", help="benchmark name: lowercase, digits and '_' (the lmms-eval task prefix)")
    parser.add_argument("--root", default=".", help="root of the chronotasks checkout (default: the current folder)")


def run(args: argparse.Namespace) -> int:
    try:
        written = create(args.name, Path(args.root))
    except SkeletonError as err:
        print(f"chronotasks new-benchmark: error: {err}", file=sys.stderr)
        return 1
    root = Path(args.root).resolve()
    print("\n".join(str(path.relative_to(root)) for path in written))
    print(
        f"\nNext: python3 -m pytest tests/{args.name}   (demo data, hooks and a real lmms-eval run); "
        f"then see CONTRIBUTING.md to turn it into the real benchmark."
    )
    return 0
