"""The task pack: our task YAMLs placed inside lmms-eval's own task folder by the wheel.

lmms-eval 0.7.3 finds tasks by walking its own ``lmms_eval/tasks/`` folder and the folders given
with ``--include_path``. So that ``lmms-eval --tasks tabvlm_chrono`` works with no flag after
``pip install chronotasks``, the wheel ships a copy of ``chronotasks/tasks/`` (task YAMLs; the
templates they include, named ``_default_template*_yaml`` as in lmms-eval's own folders, so that
its indexer does not take them for tasks; the placeholder data file; READMEs) at
``lmms_eval/tasks/chronotasks/``: plain files listed in the wheel's RECORD, so ``pip uninstall
chronotasks`` removes them and nothing else.

The copy holds no Python. A YAML line ``!function utils.NAME`` (lmms-eval loads ``utils.py`` from
the YAML's own folder) becomes ``!function chronotasks.tasks.<benchmark>.utils.NAME``, which
lmms-eval resolves by importing the installed module (its fallback when no ``utils.py`` lies
beside the YAML). Nothing is therefore compiled or cached inside lmms-eval's tree, and the hooks
run from the one installed copy of chronotasks. Everything else is copied byte for byte.

An editable install gets no pack (it would be a stale copy that shadows the source tree, because
lmms-eval's own folder is indexed first); development runs use ``--include_path`` instead. Giving
``--include_path "$(chronotasks tasks-path)"`` next to an installed pack is harmless: every name
is indexed once, from lmms-eval's folder, which lmms-eval reads first.

Standard library only: ``setup.py`` imports this module while building the wheel.
"""

from __future__ import annotations

import re
from pathlib import Path

TASKS_PACKAGE = "chronotasks.tasks"
PACK_FOLDER = ("lmms_eval", "tasks", "chronotasks")  # relative to site-packages / the wheel root
PACKED_SUFFIXES = (".yaml", ".jsonl", ".md")
TEMPLATE_ENDING = "_yaml"  # an included template: YAML, but not a task lmms-eval indexes (``_default_template_yaml``)

# `!function module.attr` as lmms-eval's YAML loader reads it (module may be dotted).
_FUNCTION_TAG = re.compile(r"(!function\s+)([A-Za-z_][\w.]*)\.([A-Za-z_]\w*)")


def _package_of(folder: Path, tasks_dir: Path) -> str:
    parts = folder.relative_to(tasks_dir).parts
    bad = [part for part in parts if not part.isidentifier()]
    if bad:
        raise ValueError(f"task folder {folder} cannot be imported as a package (not identifiers: {bad})")
    return ".".join((TASKS_PACKAGE, *parts))


def pack_yaml(text: str, yaml_path: Path, tasks_dir: Path) -> str:
    """The pack's version of one task YAML: every ``!function M.f`` whose ``M.py`` lies beside the
    YAML (lmms-eval's first rule) names the installed module instead; other lines are unchanged."""
    folder = yaml_path.parent

    def absolute(match: re.Match) -> str:
        tag, module, attr = match.groups()
        if not (folder / f"{module}.py").is_file():
            return match.group(0)  # already an absolute module name: lmms-eval imports it as is
        return f"{tag}{_package_of(folder, tasks_dir)}.{module}.{attr}"

    return _FUNCTION_TAG.sub(absolute, text)


def is_yaml(path: Path) -> bool:
    """A task or group YAML, or a template the YAMLs include."""
    return path.suffix == ".yaml" or (path.suffix == "" and path.name.endswith(TEMPLATE_ENDING))


def pack_files(tasks_dir: Path) -> dict[str, bytes]:
    """{path relative to the pack folder (POSIX): content} for every file the pack ships."""
    tasks_dir = Path(tasks_dir).resolve()
    files = {}
    for path in sorted(tasks_dir.rglob("*")):
        if not path.is_file() or not (is_yaml(path) or path.suffix in PACKED_SUFFIXES) or "__pycache__" in path.parts:
            continue
        relative = path.relative_to(tasks_dir).as_posix()
        if is_yaml(path):
            files[relative] = pack_yaml(path.read_text(encoding="utf-8"), path, tasks_dir).encode("utf-8")
        else:
            files[relative] = path.read_bytes()
    return files


def write_pack(tasks_dir: Path, root: Path) -> list[Path]:
    """Write the pack under ``root`` (a wheel's build folder) at ``lmms_eval/tasks/chronotasks/``."""
    written = []
    for relative, content in pack_files(tasks_dir).items():
        target = Path(root, *PACK_FOLDER, relative)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(content)
        written.append(target)
    return written


def installed_pack() -> Path | None:
    """The pack inside the importable lmms-eval's task folder, or None when there is none
    (editable install, or chronotasks installed in another environment than lmms-eval)."""
    import importlib.util

    spec = importlib.util.find_spec("lmms_eval")
    if spec is None or not spec.submodule_search_locations:
        return None
    folder = Path(spec.submodule_search_locations[0], *PACK_FOLDER[1:])
    return folder if folder.is_dir() else None
