"""The wheel's task pack (chronotasks/task_pack.py): what it holds, and that every hook it names
resolves the way lmms-eval resolves it. The installed wheel itself is run in test_wheel_install.py."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import yaml

from chronotasks.task_pack import installed_pack, is_yaml, pack_files, pack_yaml
from chronotasks.tasks import TASKS_DIR

FUNCTION = re.compile(r"!function\s+(\S+)")


def test_pack_holds_every_task_file_and_no_python():
    """Every file of chronotasks/tasks/ but the Python hooks: a YAML may name a sibling file (the
    placeholder data, an included template), and a file type the pack skips would break it."""
    packed = pack_files(TASKS_DIR)
    files = {
        p.relative_to(TASKS_DIR).as_posix()
        for p in TASKS_DIR.rglob("*")
        if p.is_file() and p.suffix not in (".py", ".pyc") and "__pycache__" not in p.parts
    }
    assert any(name.endswith(".yaml") for name in files)
    assert set(packed) == files
    assert "_placeholder.jsonl" in packed  # the templates' `data_files: ../_placeholder.jsonl`
    # the included templates, named as lmms-eval names its own (not indexed as tasks)
    assert {"tabvlm/_default_template_yaml", "musebench/_default_template_retrieval_yaml"} <= set(packed)
    assert not [name for name in packed if name.endswith((".py", ".pyc"))]


def test_pack_yamls_differ_from_the_source_only_in_hook_module_names():
    for relative, content in pack_files(TASKS_DIR).items():
        if not is_yaml(Path(relative)):
            assert content == (TASKS_DIR / relative).read_bytes(), relative
            continue
        source_lines = (TASKS_DIR / relative).read_text(encoding="utf-8").splitlines()
        packed_lines = content.decode("utf-8").splitlines()
        assert len(source_lines) == len(packed_lines), relative
        package = "chronotasks.tasks." + ".".join((TASKS_DIR / relative).parent.relative_to(TASKS_DIR).parts)
        for source, packed in zip(source_lines, packed_lines):
            if source != packed:
                assert packed == source.replace("!function utils.", f"!function {package}.utils."), (relative, source, packed)


def test_every_packed_hook_imports_as_lmms_eval_will_import_it():
    """In the pack no utils.py lies beside a YAML, so lmms-eval imports `module.attr` by name."""
    for relative, content in pack_files(TASKS_DIR).items():
        if not is_yaml(Path(relative)):
            continue
        for target in FUNCTION.findall(content.decode("utf-8")):
            module, _, attr = target.rpartition(".")
            assert module.startswith("chronotasks."), (relative, target)
            assert callable(getattr(importlib.import_module(module), attr)), (relative, target)
        yaml.load(content, Loader=_TaggedLoader)  # still valid YAML


class _TaggedLoader(yaml.SafeLoader):
    pass


_TaggedLoader.add_constructor("!function", lambda loader, node: loader.construct_scalar(node))


def test_hook_names_that_are_already_absolute_stay_as_they_are(tmp_path):
    folder = tmp_path / "bench"
    folder.mkdir()
    (folder / "utils.py").write_text("def f(doc):\n    return doc\n")
    text = "process_docs: !function utils.f\ndoc_to_text: !function other_pkg.hooks.g\n"
    assert pack_yaml(text, folder / "t.yaml", tmp_path) == (
        "process_docs: !function chronotasks.tasks.bench.utils.f\ndoc_to_text: !function other_pkg.hooks.g\n"
    )


def test_no_installed_pack_shadows_this_checkout():
    """lmms-eval indexes its own folder first, so a pack left there by a regular install of
    chronotasks would be used instead of this checkout's YAMLs by every --include_path run in these
    tests. Development installs are editable, which ship no pack."""
    pack = installed_pack()
    assert pack is None, (
        f"{pack} holds task YAMLs of a regular chronotasks install; they shadow this checkout's tasks. "
        "Run `pip uninstall chronotasks` and reinstall with `pip install -e .`"
    )
