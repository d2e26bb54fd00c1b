"""lmms-eval's own conventions for a task folder: every ``*.yaml`` file is a task or a group that its
index loads (an included template is named ``_default_template*_yaml``, as in lmms-eval's folders, so
the index never tries it as a task), and a group aggregates each metric once. (That every task has a
``doc_to_messages`` showing its own images is checked in test_every_task_hooks.py.)"""

from __future__ import annotations

import collections
from pathlib import Path

import pytest
import yaml

from chronotasks.tasks import TASKS_DIR


class _TaggedLoader(yaml.SafeLoader):
    """Reads lmms-eval's ``!function`` tags as plain strings."""


_TaggedLoader.add_constructor("!function", lambda loader, node: loader.construct_scalar(node))


def _yaml(path: Path) -> dict:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=_TaggedLoader) or {}


def test_every_yaml_file_is_a_task_or_group_lmms_eval_indexes():
    from lmms_eval.tasks import TaskManager

    index = TaskManager(include_path=str(TASKS_DIR), verbosity="ERROR").task_index
    indexed = {Path(entry["yaml_path"]).resolve() for entry in index.values() if entry.get("yaml_path") not in (None, -1)}
    ours = sorted(p.resolve() for p in TASKS_DIR.rglob("*.yaml"))
    assert ours
    not_indexed = [str(p.relative_to(TASKS_DIR)) for p in ours if p not in indexed]
    assert not not_indexed, f"lmms-eval cannot load these as a task or group (a template? name it _default_template_yaml): {not_indexed}"


def test_every_include_is_a_task_yaml_or_a_template_named_as_lmms_eval_names_them():
    includes = {(p.parent / str(_yaml(p)["include"])).resolve() for p in TASKS_DIR.rglob("*.yaml") if "include" in _yaml(p)}
    includes |= {
        (p.parent / str(_yaml(p)["include"])).resolve() for p in TASKS_DIR.rglob("_default_template*_yaml") if "include" in _yaml(p)
    }
    assert includes and all(p.is_file() for p in includes), sorted(map(str, includes))
    templates = [p for p in includes if p.suffix != ".yaml"]
    assert {p.name for p in templates} == {"_default_template_yaml", "_default_template_retrieval_yaml"}


@pytest.mark.parametrize("group", sorted(p for p in TASKS_DIR.rglob("*.yaml") if "group" in _yaml(p)), ids=lambda p: p.stem)
def test_a_group_aggregates_each_metric_once(group):
    metrics = [entry["metric"] for entry in _yaml(group).get("aggregate_metric_list") or []]
    twice = [name for name, count in collections.Counter(metrics).items() if count > 1]
    assert not twice, f"{group.relative_to(TASKS_DIR)} lists {twice} more than once in aggregate_metric_list"
