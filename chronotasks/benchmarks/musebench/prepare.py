"""Convert MuseBench-format museum catalogs (Appendix A.1 / A.2, English or Chinese keys) into task files.

    chronotasks prepare musebench --catalog CATALOG_DIR [--out OUT] [--museum palace]

MuseBench's data is not public: there is nothing to download, so ``prepare musebench`` always
reads a catalog folder you provide (OUT defaults to ``<data root>/musebench``).

Reads every ``*.json`` (one record or a list of records) and ``*.jsonl`` file under
``--catalog`` (recursively). Image entries must be local files: paths relative to the
catalog file's folder (or ``--image-root``) or absolute; URLs are not downloaded and count as
missing views. Records are validated (§3.2.1: ≥ 2 views, at most one missing structural
field, a description, no year after ``--crawl-year``); the dropped ones are listed with
their reason in ``OUT/prepare_report.json`` and summarised on stdout.

Near-duplicate views (§3.2.1 (3)): the views of each record that passed are opened one at a
time and hashed (64-bit DCT perceptual hash, ``chronotasks.data.image_hash``); a view whose
hash is at most ``--dedup-max-distance`` bits from an earlier kept view of the same artifact
is removed, and an artifact left with fewer than 2 views is dropped
(``fewer_than_2_views_after_dedup``). A view that cannot be read is left out and reported
by file, record and field. Every removed pair is listed in the report with its distance, so
it can be checked by eye (the paper's expert verification). ``--no-dedup`` skips the step
(no image is opened then).

Writes artifacts.jsonl, the retrieval files and template-QA VQA files (``chronotasks build
musebench-qa`` adds the descriptive QAs).
"""

from __future__ import annotations

import argparse
import datetime
import json
from collections import Counter
from pathlib import Path
from typing import Any

from chronotasks.benchmarks.musebench import records
from chronotasks.benchmarks.musebench.schema import Rejected, flatten, museum_key, standardize
from chronotasks.benchmarks.release import output_folder
from chronotasks.data.errors import json_problem
from chronotasks.data.image_hash import HASH_BITS, file_phash, hamming
from chronotasks.data.loading import DataError, read_jsonl
from chronotasks.data.writing import replace_task_files

# Hamming distance (of 64 bits) up to which two views are near-duplicates: re-encoded or
# rescaled copies are 0-3 bits apart, a 5 % crop 8-9, different images >= 20 (README).
DEDUP_MAX_DISTANCE = 8


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--catalog", default=None, help="folder of catalog files (*.json, *.jsonl); required: MuseBench is not public")
    parser.add_argument("--out", default=None, help="output folder (default: <data root>/musebench)")
    parser.add_argument("--museum", default=None, help="museum of records that do not say (zhejiang, palace, npm)")
    parser.add_argument(
        "--image-root", default=None, help="folder relative image paths are resolved against (default: the catalog file's folder)"
    )
    parser.add_argument("--crawl-year", type=int, default=datetime.date.today().year, help="year-like tokens after it drop a record")
    parser.add_argument(
        "--dedup-max-distance",
        type=int,
        default=DEDUP_MAX_DISTANCE,
        metavar="BITS",
        help=f"a view whose perceptual hash is at most BITS of {HASH_BITS} bits from an earlier view of the same "
        f"artifact is a near-duplicate and removed (default {DEDUP_MAX_DISTANCE})",
    )
    parser.add_argument("--no-dedup", action="store_true", help="keep near-duplicate views (images are then not opened)")
    parser.add_argument("--force", action="store_true", help="replace prepared task files even by fewer records")


def _catalog_records(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        return read_jsonl(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise DataError(f"{path}: not valid JSON (line {err.lineno}: {json_problem(err)})") from err
    if isinstance(data, dict):
        for key in ("records", "artifacts", "data", "items"):
            if isinstance(data.get(key), list):
                return data[key]
        return [data]
    if isinstance(data, list):
        return data
    raise DataError(f"{path}: expected a record or a list of records, got {type(data).__name__}")


def _views(raw_images: Any, base: Path) -> tuple[list[str], list[str]]:
    """(usable local image paths, problems) of a record's image list."""
    if isinstance(raw_images, str):
        raw_images = [raw_images]
    usable, problems = [], []
    for entry in raw_images or []:
        entry = str(entry).strip()
        if entry.startswith(("http://", "https://")):
            problems.append(f"URL not downloaded: {entry}")
            continue
        path = Path(entry) if Path(entry).is_absolute() else base / entry
        if not path.is_file():
            problems.append(f"missing file: {path}")
            continue
        resolved = str(path.resolve())
        if resolved not in usable:
            usable.append(resolved)
    return usable, problems


def _drop_near_duplicates(images: list[str], where: dict[str, Any], max_distance: int) -> tuple[list[str], list[dict], list[dict]]:
    """(kept views, removed near-duplicates, unreadable views) of one artifact, in view order.

    Each view is compared with the views kept before it; the closest one within
    ``max_distance`` bits makes it a near-duplicate. Images are opened one at a time.
    """
    kept: list[tuple[str, int]] = []
    removed, unreadable = [], []
    for view in images:
        try:
            code = file_phash(view, where["id"], where["field"])
        except DataError as err:
            unreadable.append({**where, "image": view, "error": str(err)})
            continue
        distance, original = min(((hamming(code, h), path) for path, h in kept), key=lambda pair: pair[0], default=(None, None))
        if distance is not None and distance <= max_distance:
            removed.append({**where, "view": view, "duplicate_of": original, "distance": distance})
        else:
            kept.append((view, code))
    return [view for view, _ in kept], removed, unreadable


def prepare(
    catalog: Path,
    out: Path,
    museum: str | None = None,
    image_root: Path | None = None,
    crawl_year: int | None = None,
    dedup_max_distance: int | None = DEDUP_MAX_DISTANCE,
    force: bool = False,
) -> dict[str, Any]:
    """Catalog folder -> task files in ``out``; returns the report. ``dedup_max_distance=None`` turns
    near-duplicate view removal off. Earlier prepared data is not replaced by fewer records unless ``force``."""
    catalog, out = Path(catalog), Path(out)
    if not catalog.is_dir():
        raise DataError(f"--catalog {catalog} is not a folder")
    if museum and museum_key(museum) is None:
        raise DataError(f"--museum {museum!r} is not one of zhejiang, palace, npm (or their full names)")
    crawl_year = crawl_year or datetime.date.today().year
    files = sorted(p for p in catalog.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file())
    if not files:
        raise DataError(f"no *.json / *.jsonl catalog files under {catalog}")
    artifacts, dropped, seen, near_duplicates, unreadable = [], [], set(), [], []
    for path in files:
        for number, raw in enumerate(_catalog_records(path), start=1):
            fields = flatten(raw) if isinstance(raw, dict) else {}
            record_id = str(fields.get("id") or fields.get("unified_number") or f"{path.stem}-{number}")
            where = {"file": str(path), "record": number, "id": record_id}
            if not isinstance(raw, dict):
                dropped.append({**where, "reason": "not_a_record", "detail": f"expected an object, got {type(raw).__name__}"})
                continue
            if record_id in seen:
                dropped.append({**where, "reason": "duplicate_id", "detail": f"id {record_id!r} already used"})
                continue
            images, problems = _views(fields.get("images"), Path(image_root) if image_root else path.parent)
            try:
                artifact = standardize(fields, images, museum, record_id, crawl_year)
            except Rejected as rejection:
                detail = str(rejection) + (f" ({'; '.join(problems[:3])})" if problems and rejection.reason == "fewer_than_2_views" else "")
                dropped.append({**where, "reason": rejection.reason, "detail": detail})
                continue
            if dedup_max_distance is not None:
                where["field"] = fields["_keys"].get("images", "images")
                views, removed, broken = _drop_near_duplicates(artifact["images"], where, dedup_max_distance)
                near_duplicates += removed
                unreadable += broken
                if len(views) < 2:
                    reason = "fewer_than_2_views_after_dedup" if removed else "fewer_than_2_readable_views"
                    dropped.append(
                        {
                            **where,
                            "reason": reason,
                            "detail": f"{len(views)} view(s) left of {len(artifact['images'])}: "
                            f"{len(removed)} near-duplicate(s), {len(broken)} unreadable",
                        }
                    )
                    continue
                artifact["images"] = views
            seen.add(record_id)
            artifacts.append(artifact)
    if not artifacts:
        raise DataError(f"no record of {catalog} passed validation; reasons: {dict(Counter(d['reason'] for d in dropped))}")
    files = records.task_files(artifacts)
    # all files as a unit, and never fewer records over earlier prepared data (unless force)
    replace_task_files(out, files, source=str(catalog), force=force, allow_empty=("vqa_descriptive.jsonl",), what="prepare musebench")
    counts = {name: len(rows) for name, rows in files.items()}
    report = {
        "kept": len(artifacts),
        "dropped": len(dropped),
        "dropped_by_reason": dict(Counter(d["reason"] for d in dropped)),
        "kept_by_museum": dict(Counter(a["museum"] for a in artifacts)),
        "dedup": None if dedup_max_distance is None else {"method": f"phash-dct-{HASH_BITS}", "max_distance": dedup_max_distance},
        "near_duplicate_views_removed": len(near_duplicates),
        "unreadable_views": len(unreadable),
        "files": counts,
        "dropped_records": dropped,
        "near_duplicates": near_duplicates,
        "unreadable_images": unreadable,
    }
    (out / "prepare_report.json").write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    return report


def _print_some(items: list[dict], out: str, line, most: int = 20) -> None:
    for item in items[:most]:
        print("  " + line(item))
    if len(items) > most:
        print(f"  ... {len(items) - most} more in {Path(out) / 'prepare_report.json'}")


NOT_PUBLIC = (
    "MuseBench's data is not public, so there is no release to download: prepare it from your own museum "
    "catalog folder with `chronotasks prepare musebench --catalog DIR` (format: Appendix A.1/A.2 of the paper; "
    "see chronotasks/tasks/musebench/README.md), or try the tasks on synthetic data: "
    "`chronotasks demo-data --benchmarks musebench`"
)


def run(args: argparse.Namespace) -> int:
    if not args.catalog:
        raise DataError(NOT_PUBLIC)
    args.out = str(output_folder(args, "musebench"))
    report = prepare(
        Path(args.catalog),
        Path(args.out),
        args.museum,
        Path(args.image_root) if args.image_root else None,
        args.crawl_year,
        None if args.no_dedup else args.dedup_max_distance,
        force=args.force,
    )
    print(f"kept {report['kept']} artifacts {report['kept_by_museum']}; dropped {report['dropped']} {report['dropped_by_reason']}")
    if report["dedup"]:
        print(
            f"near-duplicate views removed: {report['near_duplicate_views_removed']} (pHash distance <= "
            f"{report['dedup']['max_distance']} bits); unreadable views left out: {report['unreadable_views']}"
        )
    _print_some(
        report["dropped_records"],
        args.out,
        lambda d: f"dropped {d['file']} record {d['record']} (id {d['id']}): {d['reason']}: {d['detail']}",
    )
    _print_some(
        report["unreadable_images"],
        args.out,
        lambda u: f"unreadable {u['file']} record {u['record']} (id {u['id']}) field {u['field']!r}: {u['image']}",
    )
    print(json.dumps(report["files"], indent=2))
    return 0
