"""Where task data lives and how a task reads it.

A data root holds one folder per benchmark, written by ``chronotasks prepare``
(real release files) or ``chronotasks demo-data`` (synthetic demo data):

    $CHRONOTASKS_DATA/<benchmark>/<task file>.jsonl     one record per line
    $CHRONOTASKS_DATA/<benchmark>/images/...             image files the records name

The data root is the environment variable ``CHRONOTASKS_DATA``. Each task YAML
reads its records through ``process_docs`` (see ``make_process_docs``), so the
same installed YAMLs run on demo data, on prepared release data, or on any
folder of the same format, with no YAML edits.

Records name images by path relative to the benchmark folder, in the list field
``images``. Images are opened only when a document is sent to the model, so a
corpus is streamed, never held in memory.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import datasets
from PIL import Image, UnidentifiedImageError

DATA_ENV = "CHRONOTASKS_DATA"


class DataError(RuntimeError):
    """Bad or missing task data; the message names the file, record and field."""


def data_root() -> Path:
    value = os.environ.get(DATA_ENV)
    if not value:
        raise DataError(
            f"{DATA_ENV} is not set. Point it at a folder written by `chronotasks demo-data --out DIR` "
            f"or `chronotasks prepare <benchmark> --out DIR/<benchmark>`, e.g. `export {DATA_ENV}=DIR`."
        )
    root = Path(value).expanduser().resolve()
    if not root.is_dir():
        raise DataError(f"{DATA_ENV}={value} is not a folder")
    return root


def benchmark_dir(benchmark: str, root: Path | None = None) -> Path:
    return (root or data_root()) / benchmark


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of a JSONL file; a malformed line is an error naming file and line."""
    records = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                records.append(json.loads(line))
            except json.JSONDecodeError as err:
                raise DataError(f"{path}:{number}: not valid JSON ({err.msg})") from err
    return records


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    """Write records atomically (a crash never leaves a half-written task file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    os.replace(tmp, path)


def load_task_docs(benchmark: str, task_file: str, required: tuple[str, ...] = ("id",)) -> datasets.Dataset:
    """The records of one task as a ``datasets.Dataset``, validated.

    ``images`` are rewritten to absolute paths; every record must have the
    ``required`` fields.
    """
    folder = benchmark_dir(benchmark)
    path = folder / task_file
    if not path.is_file():
        raise DataError(
            f"task file {path} does not exist. Write it with `chronotasks demo-data` or "
            f"`chronotasks prepare {benchmark}` (data root: ${DATA_ENV}={os.environ.get(DATA_ENV)})"
        )
    records = read_jsonl(path)
    resolve = _path_resolver(folder)
    for number, record in enumerate(records, start=1):
        missing = [name for name in required if name not in record]
        if missing:
            raise DataError(f"{path}: record {record.get('id', f'#{number}')!r} lacks field(s) {', '.join(missing)}")
        if "images" in record:
            if not isinstance(record["images"], list):
                raise DataError(f"{path}: record {record.get('id')!r}: field 'images' must be a list of paths")
            record["images"] = [resolve(rel) for rel in record["images"]]
    for record in records:  # nested values are stored as JSON text so every task has a flat, typed schema
        for key, value in list(record.items()):
            if isinstance(value, dict):
                record[key] = json.dumps(value, ensure_ascii=False)
    return datasets.Dataset.from_list(records)


def _path_resolver(folder: Path) -> Callable[[str], str]:
    """``rel -> absolute path`` under ``folder``, as ``str((folder / rel).resolve())`` gives it for a
    file that is not itself a symlink, resolving each distinct parent folder once (``Path.resolve``
    per image costs a system call per path component; a task has few folders and many images)."""
    resolved: dict[str, str] = {}

    def resolve(rel: str) -> str:
        head, _, name = rel.rpartition("/")
        if name in ("", ".", ".."):
            return str((folder / rel).resolve())
        if head not in resolved:
            resolved[head] = str((folder / head).resolve()) if head else str(folder.resolve())
        return os.path.join(resolved[head], name)

    return resolve


def make_process_docs(benchmark: str, task_file: str, required: tuple[str, ...] = ("id",)) -> Callable:
    """A ``process_docs`` hook that replaces the YAML's placeholder rows with the task's records."""

    def process_docs(_placeholder: datasets.Dataset) -> datasets.Dataset:
        return load_task_docs(benchmark, task_file, required)

    return process_docs


def open_image(path: str, record_id: Any = "?", field: str = "images", mode: str = "RGB",
               draft: tuple[int, int] | None = None) -> Image.Image:
    """Open one image as ``mode`` (RGB); a missing or unreadable file is an error naming it.

    ``draft`` (w, h) lets a JPEG decode at the smallest 1/2^k scale still at least that size.
    """
    try:
        with Image.open(path) as image:
            if draft:
                image.draft(mode, draft)
            if image.mode == mode and not getattr(image, "is_animated", False):  # decode in place, no converted copy
                image.load()
                return image
            return image.convert(mode)
    except FileNotFoundError as err:
        raise DataError(f"record {record_id!r}, field {field!r}: image file {path} does not exist") from err
    except (UnidentifiedImageError, OSError) as err:
        raise DataError(f"record {record_id!r}, field {field!r}: image file {path} is not a readable image ({err})") from err


def doc_images(doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None) -> list[Image.Image]:
    """All images of a record (its ``images`` field), in order: the default ``doc_to_visual``.

    lmms-eval calls a two-parameter ``doc_to_visual`` with the task's
    ``lmms_eval_specific_kwargs`` (``Task.doc_to_visual``, used by chat models to
    build messages) and with the document alone elsewhere; both work.
    """
    return [open_image(path, doc.get("id", "?"), "images") for path in doc.get("images") or []]
