"""The repository layout (docs/architecture.md, "Layers"): a benchmark sits in four places, and imports run one way.

    tasks       -> benchmarks, scoring, data, prompts (and the shared chat client / reporting)
    benchmarks  -> scoring, data, prompts, reporting, chat client
    model_shims -> scoring, data, prompts   (installed as chronotasks.model_shims / chronotasks.prompts)
    data        -> scoring
    scoring     -> nothing of ours

Checked on the source (every import statement, also those inside functions), so a lazy import
cannot hide a dependency that runs the wrong way. Modules outside these layers (the command line,
checks, reports, the re-exports of model_shims under chronotasks.models) may import any of them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
OURS = ("chronotasks",)
# repository folders installed under the chronotasks namespace (setup.py)
MAPPED = {"prompts": "chronotasks.prompts", "model_shims": "chronotasks.model_shims"}

# layer -> layers it must not import ("chronotasks.tasks" etc. are prefixes of module names)
FORBIDDEN = {
    "chronotasks.scoring": (
        "chronotasks.data",
        "chronotasks.benchmarks",
        "chronotasks.tasks",
        "chronotasks.model_shims",
        "chronotasks.prompts",
        "chronotasks.reporting",
        "chronotasks.chat_client",
        "chronotasks.cli",
    ),
    "chronotasks.data": ("chronotasks.benchmarks", "chronotasks.tasks", "chronotasks.model_shims", "chronotasks.cli"),
    "chronotasks.benchmarks": ("chronotasks.tasks", "chronotasks.model_shims", "chronotasks.cli"),
    "chronotasks.tasks": ("chronotasks.model_shims", "chronotasks.cli"),
    "chronotasks.model_shims": ("chronotasks.tasks", "chronotasks.benchmarks", "chronotasks.cli"),
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(REPO).with_suffix("").parts)
    parts[:1] = MAPPED.get(parts[0], parts[0]).split(".")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
    return {name for name in found if name.split(".")[0] in OURS}


def _layer(path: Path) -> str | None:
    module = _module_name(path)
    return next((layer for layer in FORBIDDEN if module == layer or module.startswith(layer + ".")), None)


def _layered_sources() -> list[Path]:
    """The source files of the layers: the modules whose imports are restricted."""
    sources = [path for top in ("chronotasks", "model_shims") for path in sorted((REPO / top).rglob("*.py"))]
    return [path for path in sources if _layer(path)]


@pytest.mark.parametrize("path", _layered_sources(), ids=lambda p: str(p.relative_to(REPO)))
def test_imports_run_one_way(path):
    layer = _layer(path)
    bad = sorted(name for name in _imports(path) for f in FORBIDDEN[layer] if name == f or name.startswith(f + "."))
    assert not bad, f"{_module_name(path)} ({layer}) imports {bad}"


def test_every_benchmark_has_its_four_places():
    tasks = {p.name for p in (REPO / "chronotasks" / "tasks").iterdir() if p.is_dir() and not p.name.startswith("_")}
    assert tasks >= {"chrono_demo", "tabvlm", "chronovision", "musebench", "tempviz"}
    for name in tasks:
        assert (REPO / "chronotasks" / "benchmarks" / name / "__init__.py").is_file(), name
        assert list((REPO / "prompts" / name).glob("*.j2")), name
        assert list((REPO / "tests" / name).glob("test_*.py")), name
