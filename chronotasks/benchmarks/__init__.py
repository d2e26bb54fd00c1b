"""One sub-package per benchmark: its schema, `prepare` (release -> task records), demo-data
writer, reports and meta-evaluation. What lmms-eval reads (task YAMLs and hooks) is in
``chronotasks/tasks/<benchmark>/``; prompts in ``prompts/<benchmark>/``; tests in ``tests/<benchmark>/``.

`chronotasks demo-data`: small, deterministic, synthetic datasets.

Each benchmark has a ``write_demo(out_dir: Path, seed: int) -> dict[str, int]``
that writes its task files (same on-disk format as prepared real data, see
chronotasks/data/loading.py) under ``out_dir`` and returns the record count per task file. The
demo data exercises the tasks end to end; it is not the benchmark and its
numbers mean nothing about a model. Every record written gets ``data_origin`` = "chronotasks
demo-data (synthetic)", which each task logs with its samples, so ``chronotasks report`` can say
that a page was built from demo data.
"""

from __future__ import annotations

import importlib
from pathlib import Path

_HERE = Path(__file__).resolve().parent
# The registry of benchmarks: every package here (a new benchmark needs no registration). Its task
# names start with "<benchmark>_"; `chronotasks report` finds each benchmark's tasks by that prefix, what
# to show of them in its report_spec.py, and `chronotasks report <benchmark>` its paper tables in report.py.
BENCHMARKS: tuple[str, ...] = tuple(folder.name for folder in sorted(_HERE.iterdir()) if (folder / "__init__.py").is_file())
# benchmark -> "module:function" writing its demo data: those with a demo.py (which defines write_demo)
DEMO_WRITERS = {name: f"{__name__}.{name}.demo:write_demo" for name in BENCHMARKS if (_HERE / name / "demo.py").is_file()}
# benchmark -> "module:function" saying what the suite report shows of it (`chronotasks report RUN_DIR`): those
# with a report_spec.py (which defines report_spec, returning a chronotasks.suite_report.spec.BenchmarkReport)
REPORT_SPECS = {name: f"{__name__}.{name}.report_spec:report_spec" for name in BENCHMARKS if (_HERE / name / "report_spec.py").is_file()}
# benchmark -> module of its paper tables (`chronotasks report <benchmark>`): those with a report.py
REPORT_MODULES = {name: f"{__name__}.{name}.report" for name in BENCHMARKS if (_HERE / name / "report.py").is_file()}
# benchmark -> module converting its release (`chronotasks prepare <benchmark>`): those with a prepare.py
PREPARE_MODULES = {name: f"{__name__}.{name}.prepare" for name in BENCHMARKS if (_HERE / name / "prepare.py").is_file()}


def benchmark_of(task: str) -> str | None:
    """The registered benchmark a task belongs to (the longest name that is the task's prefix), or None."""
    owners = [name for name in BENCHMARKS if task == name or task.startswith(name + "_")]
    return max(owners, key=len) if owners else None


def write_demo_data(out_dir: Path, seed: int = 0, benchmarks: list[str] | None = None, force: bool = False) -> dict[str, dict[str, int]]:
    """Write the demo data of the chosen benchmarks (all by default) under out_dir/<benchmark>/.

    A benchmark folder holding task files that demo-data did not write (prepared release data,
    or task files with no record of what wrote them) is not overwritten (unless ``force``): the
    demo data would silently stand in for the real benchmark.
    """
    from chronotasks.data.loading import DataError
    from chronotasks.data.origin import DEMO_ORIGIN
    from chronotasks.data.writing import data_kind, stamp_origin, write_marker

    chosen = benchmarks or list(DEMO_WRITERS)
    unknown = sorted(set(chosen) - set(DEMO_WRITERS))
    if unknown:
        raise ValueError(f"no demo data for {unknown}; known: {sorted(DEMO_WRITERS)}")
    kinds = {name: data_kind(Path(out_dir) / name) for name in chosen}
    prepared = [name for name, kind in kinds.items() if kind == "release"]
    unmarked = [name for name, kind in kinds.items() if kind not in (None, "demo", "release")]
    if (prepared or unmarked) and not force:
        held = ([f"{', '.join(str(Path(out_dir) / n) for n in prepared)} hold(s) prepared release data"] if prepared else []) + (
            [f"{', '.join(str(Path(out_dir) / n) for n in unmarked)} hold(s) task files that demo-data did not write"] if unmarked else []
        )
        raise DataError(f"{'; '.join(held)}; demo data would replace it. Write the demo data elsewhere (--out DIR), or pass --force")
    counts = {}
    for name in chosen:
        module_name, function_name = DEMO_WRITERS[name].split(":")
        writer = getattr(importlib.import_module(module_name), function_name)
        write_marker(Path(out_dir) / name, "demo", seed=seed)  # first: the writers may run prepare's own checks
        counts[name] = writer(Path(out_dir) / name, seed)
        stamp_origin(Path(out_dir) / name, list(counts[name]), DEMO_ORIGIN)  # logged with every sample of a run
        write_marker(Path(out_dir) / name, "demo", seed=seed, counts=counts[name])
    return counts
