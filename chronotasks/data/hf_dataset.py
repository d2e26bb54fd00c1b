"""Prepared task data as a Hugging Face ``datasets`` dataset, and back.

``write_export`` turns a benchmark folder (task files + images) into a dataset folder that can be
published as it is (``huggingface-cli upload ORG/PREFIX-<benchmark> OUT --repo-type dataset``):

    OUT/README.md                           dataset card; its YAML header lists one config per task file
    OUT/<config>/test-0000N-of-0000M.parquet  the records of one task file, images embedded
    OUT/chronotasks_export.json             what was exported (benchmark, configs, record counts)

A config is a task file's path without ``.jsonl``, "/" written as "--" (``style_period``,
``retrieval--corpus_images``). A file whose records have ``images`` gets two columns for them:
``images`` (``datasets.Image``: the bytes, shown by the hub's viewer) and ``image_paths`` (the
relative paths the records used). Nested objects are stored as JSON text, as the tasks read them.

``materialize`` reads such a dataset (a local folder, or a hub id, through the same
``datasets.load_dataset`` call) into the ordinary layout under the per-user cache, once per
process, so every task hook, cache and baseline works on it unchanged: the tasks get the
same documents as from the folder that was exported.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import tempfile
from pathlib import Path
from typing import Any

import datasets

from chronotasks.data.loading import DATA_MARKER, DataError, check_records, read_numbered_jsonl, write_jsonl
from chronotasks.data.locations import cache_home

EXPORT_MARKER = "chronotasks_export.json"
SPLIT = "test"
SHARD_BYTES = 400 * 2**20  # the hub's viewer prefers parquet files well under 1 GB


def config_name(relative: str) -> str:
    return relative.removesuffix(".jsonl").replace("/", "--")


def task_file_of(config: str) -> str:
    return config.replace("--", "/") + ".jsonl"


def task_files(folder: Path) -> list[str]:
    """Task files of a benchmark folder (relative paths); caches and ``_``-folders are not data."""
    found = []
    for path in sorted(folder.rglob("*.jsonl")):
        rel = path.relative_to(folder)
        if any(part.startswith("_") or part in ("cache", "release") for part in rel.parts[:-1]):
            continue
        found.append(rel.as_posix())
    return found


def is_export(folder: Path) -> bool:
    return (Path(folder) / EXPORT_MARKER).is_file()


# -- export ---------------------------------------------------------------------------------
def _rows(folder: Path, relative: str) -> tuple[list[dict[str, Any]], bool]:
    path = folder / relative
    numbered = read_numbered_jsonl(path)
    check_records(path, numbered, required=())
    records = [record for _, record in numbered]
    has_images = any("images" in record for record in records)
    for number, record in numbered:
        for key, value in list(record.items()):
            if isinstance(value, dict):
                record[key] = json.dumps(value, ensure_ascii=False)
        if has_images:
            paths = record.pop("images", None) or []
            missing = [p for p in paths if not (folder / p).is_file()]
            if missing:
                raise DataError(
                    f"{path}:{number}: record {record.get('id', '?')!r}, field 'images': "
                    f"image file {folder / missing[0]} does not exist; nothing exported"
                )
            record["image_paths"] = paths
    return records, has_images


def _write_config(folder: Path, relative: str, out: Path) -> int:
    records, has_images = _rows(folder, relative)
    if not records:
        return 0
    features = datasets.Dataset.from_list(records).features
    if has_images:
        features["image_paths"] = datasets.List(datasets.Value("string"))
        features["images"] = datasets.List(datasets.Image())

    def generate():
        for record in records:
            if has_images:
                record = {**record, "images": [{"bytes": (folder / p).read_bytes(), "path": p} for p in record["image_paths"]]}
            yield record

    dataset = datasets.Dataset.from_generator(generate, features=features, cache_dir=str(out / ".build_cache"))
    size = sum((folder / p).stat().st_size for r in records for p in r.get("image_paths", [])) if has_images else 0
    shards = max(1, -(-size // SHARD_BYTES))
    target = out / config_name(relative)
    target.mkdir(parents=True, exist_ok=True)
    for index in range(shards):
        part = dataset.shard(shards, index, contiguous=True)
        part.to_parquet(str(target / f"{SPLIT}-{index:05d}-of-{shards:05d}.parquet"))
    return len(records)


def write_export(folder: Path, out: Path, benchmark: str, card: str, force: bool = False) -> dict[str, Any]:
    """Export every task file of ``folder`` to the dataset folder ``out`` (see the module docstring).

    ``card`` is the dataset card's markdown body; the YAML header is written here. ``out`` is
    built beside itself and moved into place at the end; an existing ``out`` is replaced only
    with ``force``.
    """
    folder, out = Path(folder), Path(out)
    files = task_files(folder)
    if not files:
        raise DataError(f"no task files (*.jsonl) under {folder}: nothing to export")
    if out.exists() and any(out.iterdir()) and not force:
        raise DataError(f"{out} exists and is not empty; choose another folder or pass --force to replace it")
    building = out.with_name(f".{out.name}.building-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir(parents=True)
    counts = {}
    for relative in files:
        n = _write_config(folder, relative, building)
        if n:
            counts[config_name(relative)] = {"file": relative, "records": n}
    shutil.rmtree(building / ".build_cache", ignore_errors=True)
    marker = folder / DATA_MARKER
    source = json.loads(marker.read_text(encoding="utf-8")) if marker.is_file() else {}
    info = {"format": 1, "benchmark": benchmark, "split": SPLIT, "configs": counts, "source": source}
    (building / EXPORT_MARKER).write_text(json.dumps(info, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    header = ["---", "license: other", f"pretty_name: chronotasks {benchmark}", "tags:", "- chronotasks", "- lmms-eval", "configs:"]
    for config in counts:
        header += [f"- config_name: {config}", "  data_files:", f"  - split: {SPLIT}", f"    path: {config}/{SPLIT}-*.parquet"]
    (building / "README.md").write_text("\n".join(header + ["---", "", card.strip(), ""]), encoding="utf-8")
    if out.exists():
        shutil.rmtree(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    os.replace(building, out)
    return info


# -- load -----------------------------------------------------------------------------------
_materialized: dict[tuple[str, str], Path] = {}


def _slug(source: str) -> str:
    readable = re.sub(r"[^A-Za-z0-9._-]+", "_", source.strip("/"))[-60:]
    return f"{readable}-{hashlib.sha1(source.encode()).hexdigest()[:8]}"


def _safe_target(root: Path, relative: str, source: str, config: str) -> Path:
    target = (root / relative).resolve()
    if Path(relative).is_absolute() or not target.is_relative_to(root.resolve()):
        raise DataError(f"{source} (config {config!r}): path {relative!r} points outside the data folder")
    return target


def _write_bytes(target: Path, data: bytes) -> None:
    if target.is_file() and target.stat().st_size == len(data):
        return
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f"{target.name}.{os.getpid()}.tmp")
    tmp.write_bytes(data)
    os.replace(tmp, target)


def materialize(source: str, benchmark: str) -> Path:
    """The local folder (task files + images) of the exported dataset ``source``: a local folder
    written by ``write_export`` or a hub dataset id. Written under the per-user cache, once per process."""
    key = (source, benchmark)
    if key in _materialized:
        return _materialized[key]
    root = cache_home() / "hf" / _slug(source) / benchmark
    try:
        configs = datasets.get_dataset_config_names(source)
    except Exception as err:  # offline hub, unknown id, not a dataset
        raise DataError(
            f"cannot read the {benchmark} data copy {source!r} ({type(err).__name__}: {err}); a local copy "
            f"is a folder written by `chronotasks export {benchmark} --format hf OUT`, a hub copy is "
            f"that folder uploaded as a dataset"
        ) from err
    local = Path(source).is_dir()
    for config in configs:
        # a local folder may have been exported again under the same name, with other columns: `datasets`
        # keys its cache (and the features it keeps there) by the folder's name, not its content, so a
        # local copy is read through a cache of its own, dropped after (a hub copy is keyed by its revision)
        with tempfile.TemporaryDirectory(prefix="chronotasks_hf_") if local else contextlib.nullcontext() as cache:
            try:
                dataset = datasets.load_dataset(source, name=config, split=SPLIT, cache_dir=cache)
            except Exception as err:
                raise DataError(f"cannot load config {config!r} of {source!r} ({type(err).__name__}: {err})") from err
            has_images = "images" in dataset.features and "image_paths" in dataset.features
            if has_images:
                dataset = dataset.cast_column("images", datasets.List(datasets.Image(decode=False)))
            records = []
            for row in dataset:
                if has_images:
                    for relative, image in zip(row["image_paths"], row.pop("images")):
                        _write_bytes(_safe_target(root, relative, source, config), image["bytes"])
                    row["images"] = row.pop("image_paths")
                records.append(row)
            del dataset
        write_jsonl(_safe_target(root, task_file_of(config), source, config), records)
    (root / DATA_MARKER).write_text(json.dumps({"kind": "hf-copy", "source": source}) + "\n", encoding="utf-8")
    _materialized[key] = root
    return root
