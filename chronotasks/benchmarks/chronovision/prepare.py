"""Join the ChronoVision release files and an image folder into task files.

    chronotasks prepare chronovision --source RELEASE --images IMAGES --out $CHRONOTASKS_DATA/chronovision

RELEASE mirrors the public release (see chronotasks/tasks/chronovision/README.md):

    artifacts/localization/*.jsonl                       877 CHA records {"image": "E:\\CHA\\Qing\\Jade\\1.jpg", "dynasty", "category", ...}
    artifacts/sort/*.jsonl                               1,000 sort records {"images": [...], "ground_truth": [0-based, oldest->newest], ...}
    shortcut/<category>/test.json, ans.json              1,200 pairs {"testN/N_YYYY_name.jpg": "anonymised.jpg"}
    news/<category>/<category>-MMT-test-information.json 1,500 news-multimodal records

IMAGES mirrors the names the release uses (first existing candidate wins):

    CHA/<Dynasty>/<category>/<id>.jpg                    the Windows path without its drive (E:\\CHA\\Qing\\Jade\\1.jpg)
    shortcut/<category>/testN/<anonymised or original>   e.g. shortcut/sports/test1/36847123.jpg
    news/<category>/testN/<new_name>                     e.g. news/sports/test1/1.jpg
    SPEED/<category>/<original_name>                     e.g. SPEED/sports/2018_WorldCup_Russia_7.jpg

Every record whose image is missing is reported (and listed in
OUT/missing_images.txt) and left out; the rest is written. Images are copied
(or symlinked) to OUT/images/ under anonymised names, so no file name leaks a
year or a dynasty.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import re
import shutil
import statistics
from collections import Counter
from pathlib import Path
from typing import Any

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.benchmarks.chronovision import DYNASTIES, SPEED_CATEGORIES, YEAR_RANGE
from chronotasks.data.loading import DataError, read_jsonl, write_jsonl
from chronotasks.scoring import shortcut

TASK_FILES = ("artifacts_loc.jsonl", "artifacts_sort_intra.jsonl", "artifacts_sort_cross.jsonl", "shortcut.jsonl",
              "news_year.jsonl", "news_multimodal.jsonl")


def stable_rng(seed: int, *parts: Any) -> random.Random:
    digest = hashlib.sha256("|".join(map(str, (seed, *parts))).encode()).digest()
    return random.Random(int.from_bytes(digest[:8], "big"))


def release_path_parts(path: str) -> list[str]:
    """'E:\\CHA\\Qing\\Jade\\1.jpg' -> ['CHA', 'Qing', 'Jade', '1.jpg'] (drive letter dropped)."""
    parts = [p for p in re.split(r"[\\/]+", path) if p]
    if parts and re.fullmatch(r"[A-Za-z]:", parts[0]):
        parts = parts[1:]
    return parts


def year_of(name: str) -> int:
    """The year a SPEED file name starts with: '2018_WorldCup_Russia_7.jpg' -> 2018."""
    m = re.match(r"(\d{4})_", name)
    if not m:
        raise DataError(f"SPEED file name {name!r} does not start with a year (YYYY_...)")
    return int(m.group(1))


class ImageStore:
    """Finds release images under IMAGES and places them in OUT/images under anonymised names."""

    def __init__(self, images: Path, out: Path, link: str = "copy") -> None:
        self.images, self.out, self.link = Path(images), Path(out), link
        self.placed: dict[Path, str] = {}

    def find(self, candidates: list[list[str]]) -> Path | None:
        for parts in candidates:
            path = self.images.joinpath(*parts)
            if path.is_file():
                return path
        return None

    def place(self, source: Path) -> str:
        """Relative path (to OUT) of the placed copy of ``source``."""
        if source in self.placed:
            return self.placed[source]
        key = hashlib.sha1(str(source.relative_to(self.images)).encode()).hexdigest()[:16]
        rel = f"images/{key}{source.suffix.lower()}"
        target = self.out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists():
            if self.link == "symlink":
                os.symlink(source.resolve(), target)
            else:
                shutil.copyfile(source, target)
        self.placed[source] = rel
        return rel


def _read_json(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as err:
        raise DataError(f"{path}: cannot read release file ({err})") from err


def _require(record: dict, fields: tuple[str, ...], where: str) -> None:
    missing = [f for f in fields if f not in record]
    if missing:
        raise DataError(f"{where}: record {record.get('id', record.get('test_id', '?'))!r} lacks field(s) {', '.join(missing)}")


def cha_candidates(path: str) -> list[list[str]]:
    parts = release_path_parts(path)
    return [parts, parts[1:]] if parts and parts[0].upper() == "CHA" else [parts, ["CHA", *parts]]


def build_localization(source: Path, store: ImageStore, seed: int, missing: list[str]) -> list[dict]:
    records = []
    for path in sorted((source / "artifacts" / "localization").glob("*.jsonl")):
        for rec in read_jsonl(path):
            _require(rec, ("id", "image", "dynasty", "category"), str(path))
            if rec["dynasty"] not in DYNASTIES:
                raise DataError(f"{path}: record {rec['id']!r}: dynasty {rec['dynasty']!r} is not one of {DYNASTIES}")
            found = store.find(cha_candidates(rec["image"]))
            rid = f"loc-{rec['category'].lower()}-{rec['id']}"
            if found is None:
                missing.append(f"artifacts_loc\t{rid}\t{rec['image']}")
                continue
            options = list(DYNASTIES)
            stable_rng(seed, "loc", rid).shuffle(options)
            records.append({
                "id": rid, "images": [store.place(found)], "options": options,
                "answer": "ABCDE"[options.index(rec["dynasty"])], "dynasty": rec["dynasty"],
                "category": rec["category"].lower(), "answer_space": AnswerSpace("letter", n=5).to_json(),
            })
    return records


def build_sort(source: Path, store: ImageStore, missing: list[str]) -> tuple[list[dict], list[dict]]:
    intra, cross = [], []
    for path in sorted((source / "artifacts" / "sort").glob("*.jsonl")):
        for rec in read_jsonl(path):
            _require(rec, ("id", "images", "ground_truth", "category"), str(path))
            n = len(rec["images"])
            if sorted(rec["ground_truth"]) != list(range(n)):
                raise DataError(f"{path}: record {rec['id']!r}: ground_truth {rec['ground_truth']} is not a permutation of 0..{n - 1}")
            rid = f"sort-{rec['id']}"
            found = [store.find(cha_candidates(p)) for p in rec["images"]]
            lost = [p for p, f in zip(rec["images"], found) if f is None]
            level = "intra" if n == 4 else "cross"
            if lost:
                missing.extend(f"artifacts_sort_{level}\t{rid}\t{p}" for p in lost)
                continue
            (intra if level == "intra" else cross).append({
                "id": rid, "images": [store.place(f) for f in found], "gold_order": list(rec["ground_truth"]),
                "dynasties": rec.get("dynasty_sequence") or [release_path_parts(p)[-3] for p in rec["images"]],
                "category": rec["category"], "n": n, "level": level,
                "answer_space": AnswerSpace("ordering", n=n, base=0).to_json(),  # 0-based image indices, as the prompt asks
            })
    return intra, cross


def speed_candidates(category: str, original: str, copies: list[list[str]]) -> list[list[str]]:
    return [["SPEED", category, original], *copies]


def build_shortcut(source: Path, store: ImageStore, seed: int, missing: list[str], speed: dict) -> list[dict]:
    records = []
    for category in SPEED_CATEGORIES:
        folder = source / "shortcut" / category
        if not (folder / "test.json").is_file():
            continue
        test = _read_json(folder / "test.json")
        answers = _read_json(folder / "ans.json") if (folder / "ans.json").is_file() else {}
        pairs: dict[str, list[tuple[str, str]]] = {}
        for key, anonymised in test.items():
            test_id, _, name = key.replace("\\", "/").partition("/")
            pairs.setdefault(test_id, []).append((name, anonymised))
        for test_id in sorted(pairs, key=lambda t: int(re.sub(r"\D", "", t) or 0)):
            items = pairs[test_id]
            if len(items) != 2:
                raise DataError(f"{folder / 'test.json'}: pair {test_id!r} has {len(items)} images, expected 2")
            if test_id not in answers:
                raise DataError(f"{folder / 'ans.json'}: pair {test_id!r} has no answer")
            images = []
            for name, anonymised in items:
                original = re.sub(r"^\d+_", "", name)
                copies = [["shortcut", category, test_id, anonymised], ["shortcut", category, test_id, name]]
                found = store.find(speed_candidates(category, original, copies))
                speed.setdefault((category, original), []).extend(copies)
                images.append({"original": original, "year": year_of(original), "found": found})
            pair_id = f"{category}-{test_id}"
            lost = [im["original"] for im in images if im["found"] is None]
            if lost:
                missing.extend(f"shortcut\t{pair_id}\t{category}/{test_id}/{o}" for o in lost)
                continue
            if images[0]["year"] == images[1]["year"]:
                raise DataError(f"{folder / 'test.json'}: pair {test_id!r}: both images are from {images[0]['year']}")
            earlier, later = sorted(images, key=lambda im: im["year"])
            records.extend(shortcut_trials(pair_id, category, store.place(earlier["found"]), store.place(later["found"]),
                                           earlier["year"], later["year"], seed))
    return records


def shortcut_trials(pair_id: str, category: str, earlier: str, later: str, earlier_year: int, later_year: int, seed: int) -> list[dict]:
    """The three trials of one pair; image order randomised per trial, the answer follows it."""
    trials = []
    for condition in shortcut.CONDITIONS:  # the conditions the scorer filters on
        earlier_first = stable_rng(seed, "shortcut", pair_id, condition).random() < 0.5
        gray_of = {"color": (False, False), "gray_earlier": (True, False), "gray_later": (False, True)}[condition]
        images, gray = [earlier, later], list(gray_of)
        if not earlier_first:
            images, gray = images[::-1], gray[::-1]
        trials.append({
            "id": f"shortcut-{pair_id}-{condition}", "pair_id": pair_id, "condition": condition, "category": category,
            "images": images, "gray": gray, "answer": "1" if earlier_first else "2",
            "years": [earlier_year, later_year] if earlier_first else [later_year, earlier_year],
            "answer_space": AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier").to_json(),
        })
    return trials


def build_news(source: Path, store: ImageStore, missing: list[str], speed: dict) -> list[dict]:
    records = []
    for category in SPEED_CATEGORIES:
        for path in sorted((source / "news" / category).glob("*-MMT-test-information.json")):
            for rec in _read_json(path):
                _require(rec, ("test_id", "correct_answer", "news", "images"), str(path))
                rid = f"mm-{category}-{rec['test_id']}"
                images = sorted(rec["images"], key=lambda im: im["index"])
                found = []
                for image in images:
                    copies = [["news", category, rec["test_id"], image["new_name"]]]
                    speed.setdefault((category, image["original_name"]), []).extend(copies)
                    found.append(store.find(speed_candidates(category, image["original_name"], copies)))
                if any(f is None for f in found):
                    missing.extend(f"news_multimodal\t{rid}\t{im['original_name']}" for im, f in zip(images, found) if f is None)
                    continue
                records.append({
                    "id": rid, "images": [store.place(f) for f in found], "event": rec["news"]["description"],
                    "answer": str(rec["correct_answer"]), "event_year": rec["news"]["year"],
                    "years": [im["year"] for im in images], "category": category,
                    "answer_space": AnswerSpace("choice", choices=("1", "2", "3", "4"), key="answer").to_json(),
                })
    return records


def build_news_year(store: ImageStore, missing: list[str], speed: dict) -> list[dict]:
    """One record per distinct SPEED image named by the news and shortcut files; year from its file name."""
    records = []
    for (category, original), copies in sorted(speed.items()):
        rid = "year-" + hashlib.sha1(f"{category}/{original}".encode()).hexdigest()[:12]
        found = store.find(speed_candidates(category, original, copies))
        if found is None:
            missing.append(f"news_year\t{rid}\t{category}/{original}")
            continue
        records.append({
            "id": rid, "images": [store.place(found)], "year": year_of(original), "category": category,
            "answer_space": AnswerSpace("year", lo=YEAR_RANGE[0], hi=YEAR_RANGE[1]).to_json(),
        })
    return records


def year_stats(records: list[dict]) -> dict[str, Any]:
    years = [r["year"] for r in records]
    if not years:
        return {"count": 0}
    return {"count": len(years), "mode": Counter(years).most_common(1)[0][0], "mean": statistics.fmean(years),
            "median": statistics.median(years), "min": min(years), "max": max(years)}


def join_release(source: Path, images: Path, out: Path, seed: int = 0, link: str = "copy") -> dict[str, Any]:
    """Write every task file under ``out``; returns counts, missing-image lines and News-Year statistics."""
    source, images, out = Path(source), Path(images), Path(out)
    if not source.is_dir():
        raise DataError(f"--source {source} is not a folder")
    if not images.is_dir():
        raise DataError(f"--images {images} is not a folder")
    store, missing, speed = ImageStore(images, out, link), [], {}
    loc = build_localization(source, store, seed, missing)
    intra, cross = build_sort(source, store, missing)
    shortcut = build_shortcut(source, store, seed, missing, speed)
    news = build_news(source, store, missing, speed)
    year = build_news_year(store, missing, speed)
    files = dict(zip(TASK_FILES, (loc, intra, cross, shortcut, year, news)))
    for name, records in files.items():
        write_jsonl(out / name, records)
    stats = year_stats(year)
    report = {"counts": {name: len(r) for name, r in files.items()}, "missing": missing, "news_year": stats,
              "speed_images_named": len(speed)}
    (out / "missing_images.txt").write_text("".join(line + "\n" for line in missing), encoding="utf-8")
    (out / "prepare_report.json").write_text(json.dumps({**report, "missing": len(missing)}, indent=2), encoding="utf-8")
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", required=True, help="folder mirroring the release files (artifacts/, shortcut/, news/)")
    parser.add_argument("--images", required=True, help="folder of images mirroring the release names (CHA/, shortcut/, news/, SPEED/)")
    parser.add_argument("--out", required=True, help="benchmark folder to write, i.e. $CHRONOTASKS_DATA/chronovision")
    parser.add_argument("--seed", type=int, default=0, help="seed of the option / image-order randomisation (default 0)")
    parser.add_argument("--link", choices=("copy", "symlink"), default="copy", help="how images are placed under OUT/images")


def run(args: argparse.Namespace) -> int:
    report = join_release(Path(args.source), Path(args.images), Path(args.out), seed=args.seed, link=args.link)
    for line in report["missing"]:
        print(f"missing image: {line}")
    print(json.dumps(report["counts"], indent=2))
    stats = report["news_year"]
    print(f"News-Year: {stats['count']} SPEED images with a year from their file name "
          f"({report['speed_images_named']} named by the news and shortcut files; the paper has 1,028)")
    if stats["count"]:
        print(f"  year mode {stats['mode']}, mean {stats['mean']:.2f}, median {stats['median']} "
              f"(constant baselines: --model chrono_constant --model_args answer=<year>)")
    print(f"{len(report['missing'])} missing image reference(s); listed in {Path(args.out) / 'missing_images.txt'}")
    return 0
