"""Writing a benchmark's task files so that nothing good on disk is replaced by something worse.

``replace_task_files`` writes all task files of one ``prepare`` run as a unit: every file first
under a temporary name, then renamed into place, and only after these checks pass:

- no task file is empty (unless the caller allows it): an empty result means the source was not
  what was expected, and the error says so instead of wiping the task;
- no task file of earlier *prepared* data would shrink (fewer records than on disk), unless
  ``force``: a rerun with missing images or a partial source cannot silently lose records.
  Demo data (``chronotasks demo-data``) may always be replaced.

``chronotasks_data.json`` beside the task files records what wrote them (kind "release" or
"demo", the source, the date), so the checks and ``load_task_docs`` can tell real data from demo data.
"""

from __future__ import annotations

import datetime
import json
import os
from pathlib import Path
from typing import Any

from chronotasks.data.loading import DATA_MARKER, DataError, read_jsonl, write_jsonl
from chronotasks.data.origin import DATA_ORIGIN


def data_kind(folder: Path) -> str | None:
    """ "release", "demo", ... as recorded beside the task files; "unknown" for task files without a record; None if empty."""
    marker = Path(folder) / DATA_MARKER
    if marker.is_file():
        try:
            return json.loads(marker.read_text(encoding="utf-8")).get("kind") or "unknown"
        except (OSError, ValueError):
            return "unknown"
    return "unknown" if Path(folder).is_dir() and any(Path(folder).glob("*.jsonl")) else None


def write_marker(folder: Path, kind: str, **info: Any) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    record = {"kind": kind, "written": datetime.datetime.now().isoformat(timespec="seconds"), **info}
    (folder / DATA_MARKER).write_text(json.dumps(record, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")


def stamp_origin(folder: Path, names: list[str], origin: str) -> None:
    """Put ``data_origin`` = ``origin`` into every record of the named files under ``folder`` (each
    file rewritten atomically): the tasks log it with every sample (``loading.origin_of``)."""
    for name in names:
        path = Path(folder) / name
        write_jsonl(path, [{**record, DATA_ORIGIN: origin} for record in read_jsonl(path)])


def _count_records(path: Path) -> int:
    with open(path, "rb") as handle:
        return sum(1 for line in handle if line.strip())


def replace_task_files(
    out: Path,
    files: dict[str, list[dict[str, Any]]],
    source: str,
    force: bool = False,
    allow_empty: tuple[str, ...] = (),
    what: str = "prepare",
) -> None:
    """Write ``files`` ({relative name: records}) under ``out`` (see the module docstring)."""
    out = Path(out)
    empty = [name for name, records in files.items() if not records and name not in allow_empty]
    if empty:
        raise DataError(f"{what}: no records for {', '.join(empty)}; nothing was written to {out}")
    if not force and data_kind(out) not in (None, "demo"):
        shrinking = [
            (name, _count_records(out / name), len(records))
            for name, records in files.items()
            if (out / name).is_file() and _count_records(out / name) > len(records)
        ]
        if shrinking:
            listed = ", ".join(f"{name} ({old} -> {new} records)" for name, old, new in shrinking)
            raise DataError(
                f"{what}: would replace prepared data in {out} with fewer records: {listed}; nothing was "
                f"written. Fix the source (see the messages above) or pass --force to replace it anyway"
            )
    staged = []
    try:
        for name, records in files.items():
            tmp = out / f"{name}.staged-{os.getpid()}"
            write_jsonl(tmp, records)
            staged.append((tmp, out / name))
        for tmp, target in staged:
            os.replace(tmp, target)
    finally:
        for tmp, _ in staged:
            tmp.unlink(missing_ok=True)
    write_marker(out, "release", source=source, counts={name: len(records) for name, records in files.items()})
