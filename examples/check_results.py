"""Fail loudly when an lmms-eval run produced no results for a task it was asked to run.

    python3 examples/check_results.py OUTPUT_PATH TASKS

lmms-eval 0.7.3 exits 0 even after an evaluation error (the real message is in a traceback above
its last line), so a script cannot trust its exit status. This reads the ``*_results.json`` that
lmms-eval wrote under OUTPUT_PATH (the newest one) and checks that every task of TASKS (a comma
list of task and group names, as given to ``--tasks``; groups are expanded through the file's
``group_subtasks``) has evaluated samples and at least one metric value. Exit status 0 if so,
1 otherwise, with the missing tasks named. Standard library only.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def leaf_tasks(name: str, group_subtasks: dict[str, list[str]]) -> list[str]:
    """The tasks under a task or group name (itself when it is a task)."""
    if name not in group_subtasks:
        return [name]
    return [leaf for sub in group_subtasks[name] for leaf in leaf_tasks(sub, group_subtasks)]


def problems(results: dict, requested: list[str]) -> list[str]:
    """What is missing from one results file for the requested task and group names."""
    found, group_subtasks = results.get("results", {}), results.get("group_subtasks", {})
    samples = results.get("n-samples", {})
    missing = []
    for name in requested:
        if name not in found:
            missing.append(f"{name}: no results")
            continue
        for task in leaf_tasks(name, group_subtasks):
            metrics = {k: v for k, v in found.get(task, {}).items() if "," in k and "stderr" not in k and v != "N/A"}
            if not metrics:
                missing.append(f"{task}: no metric values")
            elif not samples.get(task, {}).get("effective"):
                missing.append(f"{task}: no evaluated samples")
    return missing


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    out, requested = Path(argv[0]), [t.strip() for t in argv[1].split(",") if t.strip()]
    files = sorted(out.rglob("*_results.json"), key=lambda p: p.stat().st_mtime)
    if not files:
        print(f"FAILED: lmms-eval wrote no results under {out} (it exits 0 after an evaluation error: "
              "read the traceback above its last line)", file=sys.stderr)
        return 1
    missing = problems(json.loads(files[-1].read_text(encoding="utf-8")), requested)
    if missing:
        print(f"FAILED: {files[-1]} lacks results for:\n  " + "\n  ".join(missing), file=sys.stderr)
        return 1
    print(f"OK: results for {', '.join(requested)} in {files[-1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
