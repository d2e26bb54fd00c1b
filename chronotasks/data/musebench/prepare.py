"""Convert MuseBench-format museum catalogs (Appendix A.1 / A.2, English or Chinese keys) into task files.

    chronotasks prepare musebench --catalog CATALOG_DIR --out $CHRONOTASKS_DATA/musebench [--museum palace]

Reads every ``*.json`` (one record or a list of records) and ``*.jsonl`` file under
``--catalog`` (recursively). Image entries must be local files: paths relative to the
catalog file's folder (or ``--image-root``) or absolute; URLs are not downloaded and count as
missing views. Records are validated (§3.2.1: ≥ 2 views, at most one missing structural
field, a description, no year after ``--crawl-year``); the dropped ones are listed with
their reason in ``OUT/prepare_report.json`` and summarised on stdout. Writes artifacts.jsonl,
the retrieval files and template-QA VQA files (``chronotasks build musebench-qa`` adds the
descriptive QAs).
"""

from __future__ import annotations

import argparse
import datetime
import json
from collections import Counter
from pathlib import Path
from typing import Any

from chronotasks.data.loading import DataError, read_jsonl
from chronotasks.data.musebench import records
from chronotasks.data.musebench.schema import Rejected, flatten, museum_key, standardize


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--catalog", required=True, help="folder of catalog files (*.json, *.jsonl)")
    parser.add_argument("--out", required=True, help="output folder, e.g. $CHRONOTASKS_DATA/musebench")
    parser.add_argument("--museum", default=None, help="museum of records that do not say (zhejiang, palace, npm)")
    parser.add_argument("--image-root", default=None, help="folder relative image paths are resolved against (default: the catalog file's folder)")
    parser.add_argument("--crawl-year", type=int, default=datetime.date.today().year, help="year-like tokens after it drop a record")


def _catalog_records(path: Path) -> list[dict[str, Any]]:
    if path.suffix == ".jsonl":
        return read_jsonl(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except json.JSONDecodeError as err:
        raise DataError(f"{path}: not valid JSON ({err.msg}, line {err.lineno})") from err
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


def prepare(catalog: Path, out: Path, museum: str | None = None, image_root: Path | None = None,
            crawl_year: int | None = None) -> dict[str, Any]:
    catalog, out = Path(catalog), Path(out)
    if not catalog.is_dir():
        raise DataError(f"--catalog {catalog} is not a folder")
    if museum and museum_key(museum) is None:
        raise DataError(f"--museum {museum!r} is not one of zhejiang, palace, npm (or their full names)")
    crawl_year = crawl_year or datetime.date.today().year
    files = sorted(p for p in catalog.rglob("*") if p.suffix in (".json", ".jsonl") and p.is_file())
    if not files:
        raise DataError(f"no *.json / *.jsonl catalog files under {catalog}")
    artifacts, dropped, seen = [], [], set()
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
                artifact = standardize(raw, images, museum, record_id, crawl_year)
            except Rejected as rejection:
                detail = str(rejection) + (f" ({'; '.join(problems[:3])})" if problems and rejection.reason == "fewer_than_2_views" else "")
                dropped.append({**where, "reason": rejection.reason, "detail": detail})
                continue
            seen.add(record_id)
            artifacts.append(artifact)
    if not artifacts:
        raise DataError(f"no record of {catalog} passed validation; reasons: {dict(Counter(d['reason'] for d in dropped))}")
    counts = records.write_all(out, artifacts)
    report = {"kept": len(artifacts), "dropped": len(dropped), "dropped_by_reason": dict(Counter(d["reason"] for d in dropped)),
              "kept_by_museum": dict(Counter(a["museum"] for a in artifacts)), "files": counts, "dropped_records": dropped}
    (out / "prepare_report.json").write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    return report


def run(args: argparse.Namespace) -> int:
    report = prepare(Path(args.catalog), Path(args.out), args.museum, Path(args.image_root) if args.image_root else None, args.crawl_year)
    print(f"kept {report['kept']} artifacts {report['kept_by_museum']}; dropped {report['dropped']} {report['dropped_by_reason']}")
    for item in report["dropped_records"][:20]:
        print(f"  dropped {item['file']} record {item['record']} (id {item['id']}): {item['reason']}: {item['detail']}")
    if report["dropped"] > 20:
        print(f"  ... {report['dropped'] - 20} more in {Path(args.out) / 'prepare_report.json'}")
    print(json.dumps(report["files"], indent=2))
    return 0
