"""``chronotasks check-data [TASKS]``: find bad data before a long run, not in the middle of it.

For every chosen task (task or group names, or benchmark names; default: every task whose
benchmark has data under the data root) the task's own ``process_docs`` hook loads its records
exactly as lmms-eval would (so every record, field and type check of
``chronotasks.data.loading`` runs), then every image the records name is decoded in full
(a missing, unreadable or truncated file is found, and a JPEG whose scan data is missing or
damaged, which decoders fill with grey), including the images of retrieval corpora.
Prints one line per task and one per problem, every one (file, line, record, field, image, why);
the exit status is 1 when anything is wrong.
"""

from __future__ import annotations

import argparse
import importlib
import logging
import sys
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from chronotasks.data.loading import DataError, benchmark_dir, check_records, data_root, full_decode_problem, read_numbered_jsonl
from chronotasks.data.locations import data_root_spec, hub_prefix
from chronotasks.data.progress import Progress
from chronotasks.data.writing import data_kind
from chronotasks.tasks import TASKS_DIR

REPO = TASKS_DIR.parents[1]


class _Loader(yaml.SafeLoader):
    pass


_Loader.add_constructor("!function", lambda loader, node: f"!function {loader.construct_scalar(node)}")


@dataclass
class TaskInfo:
    name: str
    benchmark: str  # the folder under chronotasks/tasks/
    yaml_path: Path
    process_docs: str | None  # "utils.x" as the YAML names it
    hook_dir: Path | None = None  # folder of the YAML that names it (an included YAML's, for a variant)
    groups: list[str] = field(default_factory=list)


def _read_yaml(path: Path) -> dict[str, Any]:
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_Loader) or {}
    if "process_docs" in data:  # lmms-eval resolves `!function utils.x` beside the YAML that names it
        data["_process_docs_dir"] = path.parent.resolve()
    include = data.pop("include", None)
    if include:
        base = _read_yaml(path.parent / include)
        base.update(data)
        data = base
    return data


def discover(tasks_dir: Path = TASKS_DIR) -> tuple[dict[str, TaskInfo], dict[str, list[str]]]:
    """Tasks ({name: TaskInfo}) and groups ({name: member names}) of our YAMLs."""
    tasks, groups = {}, {}
    for path in sorted(tasks_dir.rglob("*.yaml")):
        if path.name.startswith("_"):
            continue
        data = _read_yaml(path)
        benchmark = path.relative_to(tasks_dir).parts[0]
        if "group" in data:
            groups[str(data["group"])] = [str(t) for t in data.get("task") or [] if isinstance(t, str)]
        elif isinstance(data.get("task"), str):
            hook = data.get("process_docs")
            tasks[data["task"]] = TaskInfo(
                data["task"],
                benchmark,
                path,
                hook.split(" ", 1)[1] if isinstance(hook, str) else None,
                hook_dir=data.get("_process_docs_dir"),
            )
    return tasks, groups


def expand(names: list[str], tasks: dict[str, TaskInfo], groups: dict[str, list[str]]) -> list[str]:
    """Task names for task, group and benchmark names (in order, without repeats); unknown names are an error."""
    chosen: list[str] = []

    def add(name: str, seen: tuple[str, ...] = ()) -> None:
        if name in tasks:
            if name not in chosen:
                chosen.append(name)
        elif name in groups and name not in seen:
            for member in groups[name]:
                add(member, seen + (name,))
        elif any(t.benchmark == name for t in tasks.values()):
            for task in tasks.values():
                if task.benchmark == name:
                    add(task.name)
        else:
            raise DataError(f"unknown task, group or benchmark {name!r}")

    for name in names:
        add(name)
    return chosen


def _hook(task: TaskInfo):
    module_name = ".".join((task.hook_dir or task.yaml_path.parent).relative_to(REPO).parts + (task.process_docs.split(".")[0],))
    return getattr(importlib.import_module(module_name), task.process_docs.split(".", 1)[1])


@dataclass
class Result:
    task: str
    records: int = 0
    images: int = 0
    problems: list[str] = field(default_factory=list)


def _check_corpus(corpus: Path, root: Path, checked: dict[str, str | None], problems: list[str], bar: Progress) -> None:
    numbered = read_numbered_jsonl(corpus)
    check_records(corpus, numbered)
    for number, record in numbered:
        for index, relative in enumerate(record.get("images") or []):
            path = str((root / relative).resolve())
            if path not in checked:
                checked[path] = full_decode_problem(path)
                bar.update()
            if checked[path]:
                problems.append(f"{corpus}:{number}: record {record.get('id', '?')!r}, field 'images'[{index}]: {checked[path]}")


def _record_lines(hook: Any, task: TaskInfo) -> Callable[[dict[str, Any]], str]:
    """``doc -> "file:line"`` of the record a document comes from (a variant's document by the record
    it was made from, ``question_id``), or the benchmark and task name where the hook names no file."""
    if not hasattr(hook, "task_data"):
        return lambda doc: f"{task.benchmark}/{task.name}"
    path = benchmark_dir(hook.task_data[0]) / hook.task_data[1]
    lines = {record.get("id"): number for number, record in read_numbered_jsonl(path)}

    def where(doc: dict[str, Any]) -> str:
        line = lines.get(doc.get("question_id", doc.get("id")))
        return f"{path}:{line}" if line else str(path)

    return where


def check_task(task: TaskInfo, checked: dict[str, str | None], corpora: set[str]) -> Result:
    result = Result(task.name)
    if task.process_docs is None:
        result.problems.append(f"{task.yaml_path}: no process_docs hook (not a chronotasks data task)")
        return result
    hook = _hook(task)
    try:
        docs = hook(None)
    except DataError as err:
        result.problems.extend(err.problems)
        return result
    where = _record_lines(hook, task)
    result.records = len(docs)
    paths = [p for doc in docs for p in doc.get("images") or []]
    with Progress(total=len(paths), desc=f"{task.name} images", unit="img") as bar:
        for doc in docs:
            for index, path in enumerate(doc.get("images") or []):
                result.images += 1
                if path not in checked:
                    checked[path] = full_decode_problem(path)
                bar.update()
                if checked[path]:
                    result.problems.append(f"{where(doc)}: record {doc.get('id', '?')!r}, field 'images'[{index}]: {checked[path]}")
            corpus = doc.get("corpus")
            if corpus and corpus not in corpora and doc.get("corpus_root"):
                corpora.add(corpus)
                try:
                    _check_corpus(Path(corpus), Path(doc["corpus_root"]), checked, result.problems, bar)
                except DataError as err:
                    result.problems.extend(err.problems)
                except OSError as err:
                    result.problems.append(f"corpus {corpus}: {err}")
    return result


@contextmanager
def _loader_quiet():
    """The ``chronotasks`` logger silenced: during a run its warnings (missing images, demo data) are
    the only report; here every problem is printed once, by check-data itself."""
    logger = logging.getLogger("chronotasks")
    before = logger.level
    logger.setLevel(logging.CRITICAL + 1)
    try:
        yield
    finally:
        logger.setLevel(before)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "tasks", nargs="*", help="task, group or benchmark names, comma- or space-separated (default: every task whose benchmark has data)"
    )


def default_tasks(tasks: dict[str, TaskInfo]) -> list[str]:
    if hub_prefix():
        return list(tasks)
    root = data_root()
    return [name for name, task in tasks.items() if (root / task.benchmark).is_dir()]


def run(args: argparse.Namespace) -> int:
    tasks, groups = discover()
    names = [n for arg in args.tasks for n in arg.split(",") if n]
    chosen = expand(names, tasks, groups) if names else default_tasks(tasks)
    print(f"data root: {data_root_spec()}")
    if not chosen:
        print("no task has data there; prepare some with `chronotasks prepare <benchmark>` or `chronotasks demo-data`")
        return 1
    checked: dict[str, str | None] = {}
    corpora: set[str] = set()
    bad = 0
    for benchmark in dict.fromkeys(tasks[name].benchmark for name in chosen):
        if not hub_prefix() and data_kind(data_root() / benchmark) == "demo":
            print(f"{benchmark}: synthetic demo data (chronotasks demo-data): its scores say nothing about a model")
    for name in chosen:
        with _loader_quiet():  # the loader's own warnings would repeat the problems listed below
            result = check_task(tasks[name], checked, corpora)
        status = "ok" if not result.problems else f"{len(result.problems)} problem(s)"
        print(f"{name:<44} {result.records:>7} records {result.images:>7} images  {status}", flush=True)
        for problem in result.problems:  # every one: loading names the first 20
            print(f"  {problem}")
        bad += bool(result.problems)
    print(f"{len(chosen) - bad} of {len(chosen)} task(s) ok" + (f"; {bad} with problems" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="chronotasks check-data", description=__doc__)
    add_arguments(parser)
    sys.exit(run(parser.parse_args()))
