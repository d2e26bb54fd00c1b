"""A task's ``metadata.version`` changes whenever what its figures mean changes: its prompt, its answer
space or its scoring rule. ``tests/task_versions.json`` pins, per task and version, a digest of each
of these; a change under an unchanged version fails here with "bump metadata.version of TASK and
update the pin".

What each digest covers, per task (computed on the demo data):
- ``config``: the task's YAML with its includes merged, without ``metadata`` (hook names, metric_list,
  aggregations, generation_kwargs, lmms_eval_specific_kwargs);
- ``prompts``: the text of every ``prompts/`` template rendered for its documents (included templates
  too), and of the judge prompts that score TempViz's images;
- ``answer_space``: each distinct ``answer_space`` of its records;
- ``scoring``: the code of its ``process_results`` and aggregation functions, of the task-layer
  functions they reach (a variant's base hook too), and of the functions of ``chronotasks.scoring``,
  ``chronotasks.benchmarks`` and ``chronotasks.failures`` those call (compared as syntax trees:
  comments, docstrings and layout do not count).
The reply reader (``AnswerSpace.parse``, reached through ``chronotasks.extraction.read_answer``) is not
part of a task's version: it serves every task and is measured on its own corpus of labelled replies.

To pin a new version after bumping it: ``python tests/test_task_versions.py --update`` (it adds the
entries of new task versions and never rewrites an existing one). Only for a change that keeps every
figure of a task (a refactor of its scoring code, a prompt template split in two that renders the same
text), ``--repin`` rewrites the pins of the current versions; the pin file's diff shows it in review.
"""

from __future__ import annotations

import ast
import hashlib
import inspect
import json
import os
import sys
import tempfile
import textwrap
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import jinja2
import pytest
import yaml

from chronotasks.tasks import TASKS_DIR, leaf_tasks

REPO = TASKS_DIR.parents[1]
PINS = Path(__file__).resolve().parent / "task_versions.json"
PARTS = ("config", "prompts", "answer_space", "scoring")
SCORING_MODULES = ("chronotasks.scoring", "chronotasks.benchmarks", "chronotasks.failures")
# prompts rendered when a task's aggregation judges its generated images, not for its documents
JUDGE_PROMPTS = {"tempviz": ("tempviz/judging.j2", "tempviz/decomposition.j2", "tempviz/standard.j2", "tempviz/vqa_answer.j2")}


class _TaggedLoader(yaml.SafeLoader):
    """Reads lmms-eval's ``!function`` tags as plain strings."""


_TaggedLoader.add_constructor("!function", lambda loader, node: f"!function {loader.construct_scalar(node)}")


def resolved_yaml(path: Path) -> dict[str, Any]:
    """A task YAML with its ``include`` merged under it, as lmms-eval merges it."""
    data = yaml.load(path.read_text(encoding="utf-8"), Loader=_TaggedLoader) or {}
    include = data.pop("include", None)
    return {**resolved_yaml(path.parent / include), **data} if include else data


def _digest(value: Any) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()[:16]


def _tree(node: Any) -> Any:
    """A syntax tree as nested lists, the same on every Python version (empty fields left out)."""
    if isinstance(node, ast.AST):
        return [type(node).__name__] + [
            [key, _tree(value)] for key, value in ast.iter_fields(node) if value not in (None, []) and key != "type_comment"
        ]
    return [_tree(item) for item in node] if isinstance(node, list) else repr(node)


def _code(function: Callable) -> Any:
    """A function's code as a syntax tree, without its docstring: comments, docstring and layout do not count."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(inspect.unwrap(function)))).body[0]
    body = getattr(tree, "body", [])
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
        tree.body = body[1:]
    return _tree(tree)


def _names(code: types.CodeType) -> Iterator[str]:
    """The global and attribute names a function's code (and the functions defined in it) uses."""
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _names(const)


def _callees(function: Callable) -> Iterator[Callable]:
    """The functions a function refers to: by global name, as an attribute of a module it names
    (``base.process_results``), or through its closure (a variant made from its base task's hook)."""
    names = set(_names(function.__code__))
    for name in names:
        value = function.__globals__.get(name)
        if isinstance(value, types.ModuleType):
            yield from (getattr(value, attr) for attr in names if callable(getattr(value, attr, None)))
        elif callable(value):
            yield value
    yield from (cell.cell_contents for cell in function.__closure__ or () if callable(cell.cell_contents))


def _in_task_layer(function: Callable) -> bool:
    """Defined under chronotasks/tasks/ (lmms-eval imports a YAML's utils.py under the name ``utils``)."""
    return Path(inspect.getsourcefile(function) or "").resolve().is_relative_to(TASKS_DIR)


def scoring_functions(task: Any) -> dict[str, Callable]:
    """{file:name: function}: the task's process_results and aggregations, the task-layer functions
    they reach, and the functions of SCORING_MODULES those call (their own code, not what they call)."""
    todo = [task.config.process_results] + [m["aggregation"] for m in task.config.metric_list if callable(m["aggregation"])]
    found: dict[str, Callable] = {}
    while todo:
        function = inspect.unwrap(todo.pop())
        if not inspect.isfunction(function):
            continue
        key = f"{Path(inspect.getsourcefile(function)).resolve().relative_to(REPO)}:{function.__qualname__}"
        if key in found:
            continue
        found[key] = function
        if _in_task_layer(function):
            todo.extend(
                f
                for f in map(inspect.unwrap, _callees(function))
                if inspect.isfunction(f) and (_in_task_layer(f) or f.__module__.startswith(SCORING_MODULES))
            )
    return found


@contextmanager
def recorded_prompts() -> Iterator[set[str]]:
    """Every template ``chronotasks.prompts.render`` loads (included ones too) while the block runs."""
    import chronotasks.prompts as prompts

    names: set[str] = set()

    class RecordingLoader(jinja2.FileSystemLoader):
        def get_source(self, environment: jinja2.Environment, template: str) -> tuple:
            names.add(template)
            return super().get_source(environment, template)

    environment = jinja2.Environment(
        loader=RecordingLoader(str(prompts.PROMPTS_DIR)),
        undefined=jinja2.StrictUndefined,
        autoescape=False,
        cache_size=0,
    )
    real = prompts._environment
    prompts._environment = lambda: environment
    try:
        yield names
    finally:
        prompts._environment = real


def task_digests(demo_root: Path) -> dict[str, dict[str, Any]]:
    """{task: {"version": str, part: digest for each of PARTS}} for every task of chronotasks/tasks/."""
    from lmms_eval.tasks import TaskManager, get_task_dict

    from chronotasks.prompts import source

    old = os.environ.get("CHRONOTASKS_DATA")
    os.environ["CHRONOTASKS_DATA"] = str(demo_root)
    try:
        manager = TaskManager(include_path=str(TASKS_DIR), verbosity="ERROR")
        paths = {
            name: Path(entry["yaml_path"])
            for name, entry in manager.task_index.items()
            if entry["type"] == "task" and str(entry["yaml_path"]).startswith(str(TASKS_DIR))
        }
        tasks = leaf_tasks(get_task_dict(sorted(paths), manager))
        out = {}
        for name, task in sorted(tasks.items(), key=lambda item: str(item[0])):
            name = str(name)
            with recorded_prompts() as rendered:
                docs = list(task.test_docs())
                for doc in docs:
                    task.doc_to_text(doc)
            rendered.update(JUDGE_PROMPTS.get(name.split("_", 1)[0], ()))
            config = {key: value for key, value in resolved_yaml(paths[name]).items() if key != "metadata"}
            spaces = sorted({json.dumps(doc.get("answer_space"), sort_keys=True) for doc in docs})
            out[name] = {
                "version": str(task.config.metadata["version"]),
                "config": _digest(config),
                "prompts": _digest({template: source(template) for template in sorted(rendered)}),
                "answer_space": _digest(spaces),
                "scoring": _digest({key: _code(f) for key, f in sorted(scoring_functions(task).items())}),
            }
        return out
    finally:
        if old is None:
            os.environ.pop("CHRONOTASKS_DATA", None)
        else:
            os.environ["CHRONOTASKS_DATA"] = old


def problems(current: dict[str, dict[str, Any]], pins: dict[str, dict[str, dict[str, str]]]) -> list[str]:
    """What is wrong with the pins for the current tasks: one line per task."""
    found = []
    for task, now in sorted(current.items()):
        pinned = pins.get(task, {}).get(now["version"])
        if pinned is None:
            found.append(f"{task}: version {now['version']} is not pinned; run `python tests/test_task_versions.py --update`")
            continue
        changed = [part for part in PARTS if pinned[part] != now[part]]
        if changed:
            found.append(
                f"{task}: its {', '.join(changed)} changed under version {now['version']}: "
                f"bump metadata.version of {task} and update the pin (`python tests/test_task_versions.py --update`)"
            )
    return found


def updated(current: dict[str, dict[str, Any]], pins: dict[str, dict[str, dict[str, str]]]) -> dict:
    """The pins with every new (task, version) added; an existing one is never rewritten."""
    out = {task: dict(versions) for task, versions in pins.items()}
    for task, now in current.items():
        out.setdefault(task, {}).setdefault(now["version"], {part: now[part] for part in PARTS})
    return {task: dict(sorted(versions.items())) for task, versions in sorted(out.items())}


@pytest.fixture(scope="module")
def current(demo_root):
    return task_digests(demo_root)


def test_every_task_version_is_pinned_with_what_it_covers(current):
    assert len(current) >= 58
    found = problems(current, json.loads(PINS.read_text(encoding="utf-8")))
    assert not found, "\n".join(found)


def test_a_change_under_the_same_version_is_caught_and_a_bump_is_not():
    now = {"t": {"version": "0.1", "config": "a", "prompts": "b", "answer_space": "c", "scoring": "d"}}
    pins = updated(now, {})
    assert problems(now, pins) == []
    edited = {"t": {**now["t"], "prompts": "B"}}
    assert problems(edited, pins) == [
        "t: its prompts changed under version 0.1: bump metadata.version of t and update "
        "the pin (`python tests/test_task_versions.py --update`)"
    ]
    assert updated(edited, pins) == pins  # --update never rewrites a pinned version
    bumped = {"t": {**edited["t"], "version": "0.2"}}
    assert problems(bumped, pins) and problems(bumped, updated(bumped, pins)) == []


def test_scoring_code_is_compared_without_comments_or_layout():
    def rule(pred, gold):
        return float(pred == gold)

    def same_rule(pred, gold):  # a comment
        """The same rule."""
        return float(pred == gold)

    def other_rule(pred, gold):
        return float(pred != gold)

    def name(tree: Any) -> str:
        return json.dumps(tree).replace("same_rule", "rule").replace("other_rule", "rule")

    assert name(_code(same_rule)) == name(_code(rule))
    assert name(_code(other_rule)) != name(_code(rule))


if __name__ == "__main__":
    if sys.argv[1:] not in (["--update"], ["--repin"]):
        sys.exit(__doc__)
    from chronotasks.benchmarks import write_demo_data

    with tempfile.TemporaryDirectory() as folder:
        write_demo_data(Path(folder), seed=0)
        digests = task_digests(Path(folder))
    pins = json.loads(PINS.read_text(encoding="utf-8")) if PINS.exists() else {}
    if sys.argv[1] == "--repin":
        pins = {task: {v: d for v, d in versions.items() if v != digests.get(task, {}).get("version")} for task, versions in pins.items()}
    pins = updated(digests, pins)
    PINS.write_text(json.dumps(pins, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    left = problems(digests, pins)
    print("\n".join(left) or f"{PINS}: every task version pinned")
    sys.exit(1 if left else 0)
