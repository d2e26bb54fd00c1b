"""Join the ChronoVision release files and its images into task files.

    chronotasks prepare chronovision                                  download the release (pinned commit, SHA-256 checked)
    chronotasks prepare chronovision --source RELEASE --images IMAGES [--out OUT]

RELEASE is the public release: the repository root or its ``test & ans/`` folder, holding

    artifacts/localization/*.jsonl                       877 CHA records {"image": "E:\\CHA\\Qing\\Jade\\1.jpg", "dynasty", "category", ...}
    artifacts/sort/*.jsonl                              1,000 sort records {"images": [...], "ground_truth": [0-based, oldest->newest], ...}
    shortcut/<category>/test.json, ans.json              1,200 pairs {"testN/N_YYYY_name.jpg": "anonymised.jpg"}
    news/<category>/<category>-MMT-test-information.json 1,500 news-multimodal records

The layout is checked first (a folder without it is an error naming what was expected and
found; nothing is written) and the counts are compared with the release's.

IMAGES mirrors the names the release uses (first existing candidate wins):

    CHA/<Dynasty>/<category>/<id>.jpg                    the Windows path without its drive (E:\\CHA\\Qing\\Jade\\1.jpg)
    shortcut/<category>/testN/<anonymised or original>   e.g. shortcut/sports/test1/36847123.jpg
    news/<category>/testN/<new_name>                     e.g. news/sports/test1/1.jpg
    SPEED/<category>/<original_name>                     e.g. SPEED/sports/2018_WorldCup_Russia_7.jpg

Without ``--images`` the images are downloaded from the dataset the release points to
(``Q1anK/ChronoVision`` on the Hugging Face hub) and the folder holding CHA/, SPEED/, shortcut/
or news/ inside it is used. Every record whose image is missing is reported (and listed in
OUT/missing_images.txt) and left out; the rest is written, all task files at once, and never
over prepared data with more records (``--force`` overrides). A task left with no record is an
error. Images are copied (or symlinked) to OUT/images/ under anonymised names, so no file name
leaks a year or a dynasty.
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

from chronotasks.benchmarks.chronovision import (
    DYNASTIES,
    LOC_SPACE,
    MULTIMODAL_SPACE,
    NEWS_YEAR_SPACE,
    SHORTCUT_SPACE,
    SPEED_CATEGORIES,
    sort_space,
)
from chronotasks.benchmarks.release import (
    add_common_arguments,
    fetched_release,
    first_existing,
    listing,
    make_downloader,
    output_folder,
    published_files,
    verify_against,
    where_tasks_read,
)
from chronotasks.data.fetch import Downloader, Release
from chronotasks.data.loading import DataError, read_jsonl
from chronotasks.data.locations import downloads_dir
from chronotasks.data.writing import replace_task_files
from chronotasks.scoring import shortcut

TASK_FILES = (
    "artifacts_loc.jsonl",
    "artifacts_sort_intra.jsonl",
    "artifacts_sort_cross.jsonl",
    "shortcut.jsonl",
    "news_year.jsonl",
    "news_multimodal.jsonl",
)

_INNER = "test & ans"
RELEASE = Release(
    repository="LuoRenqiang/ChronoVision",
    commit="becc2b4",  # the release's commit; every file is checked by SHA-256 below
    inner=_INNER,
    files={
        f"{_INNER}/{path}": sha
        for path, sha in {
            "artifacts/localization/carving.jsonl": "93deb8fd30153e1f4abb4284b957c6aa4800d4d12f593f488b20949326cb04dd",
            "artifacts/localization/china.jsonl": "3b3a1fdea4d8381b71e1513a52b59da34508b97609a4c2d1bf5fa83f44deac4b",
            "artifacts/localization/coin.jsonl": "feab7cb37a936edaffefd71147a90f7c0960ea34837e4a82a17356c15e42a81d",
            "artifacts/localization/fan.jsonl": "9150daf80086c7969f8d3fec82149bc8147938904489770ae106a52e54c5f074",
            "artifacts/localization/jade.jsonl": "2002804dfd06cb95731e2fbc1d9d72f80260979dc21c88a05211f790c2a61942",
            "artifacts/localization/lacquerware.jsonl": "132a9fcac32809b30292bc108b91d8d39b8a722d7e5ca995195400271e6ace9c",
            "artifacts/sort/sort_test_with_ans.jsonl": "ad0de5a43309dc8de7220d9e8dcb5e870869d33a839bc24087c29aab05011726",
            "news/diversity/diversity-MMT-test-information.json": "691d4eba62601ed14ab0ffd927ded83cae85c99d74cd1068ee6ca018817eb105",
            "news/electronics/electronics-MMT-test-information.json": "ff544420f856a8657575d965864510ee6a90bbee69f4437e8ea7d81531ed32e5",
            "news/emergency/emergency-MMT-test-information.json": "a7b9d01944c5efc955b3b0239c1d750b0ff9af9b6ecff71c60206c27e28b39d3",
            "news/politics/politics-MMT-test-information.json": "967260d289fbff0f1dde592b316ebc5dca667c25bc468ef34ceabbd31fc6e7b0",
            "news/sports/sports-MMT-test-information.json": "b18b0b95278eb1e455b632836e5a0cd722bc38d356bd9b7b6cda15d5cd50e3b2",
            "shortcut/diversity/ans.json": "fe6818b1ba1eff369a88b47f6c65cb49064a0beed20cd161da252147817d43a0",
            "shortcut/diversity/test.json": "a38aedcc26ed27a698cb283366ed1f286972599f48b0b18350da78995e27a12b",
            "shortcut/electronics/ans.json": "8adc69b8b15e3d6139995171d33dded71a0e8a96fa6d93c5aebb7c624c287e28",
            "shortcut/electronics/test.json": "9d8e9685aa241ef7df0c2dc473add7ae53b764fc7c83cd3288c3b24fb2f3ac73",
            "shortcut/emergency/ans.json": "2e66c4bd8347d3964e01647d5b67b3e8b348d80131db54779fc6a32fef3287d4",
            "shortcut/emergency/test.json": "690e64244002f4f57a59b93a076a3981b5372d1f041a29391c7535bd2754cd15",
            "shortcut/politics/ans.json": "e960e05b99d4bfc9526b78188d56363c1df48b8aae5c30ae24619ac72ab259d4",
            "shortcut/politics/test.json": "7e1b01be9d5768162b2060c00c9dd9755c8be33caafaf57c1c855e5e2d82f00b",
            "shortcut/sports/ans.json": "2f404d8e6f131b2109090c23565004aa791cdcbc21b8d08964cf594bc38f7b09",
            "shortcut/sports/test.json": "b8a5d7413e2102f0e1ecb6af85bd73b01eddbe979a6c7afbdd41f5207f42a159",
        }.items()
    },
)
IMAGES_DATASET = "Q1anK/ChronoVision"  # the release README: "The datasets of images are available at" this hub dataset
PUBLISHED_COUNTS = {"localization records": 877, "sort records": 1000, "shortcut pairs": 1200, "news records": 1500}
IMAGE_FOLDERS = ("CHA", "SPEED", "shortcut", "news")


def layout_problems(folder: Path) -> list[str]:
    """What a release folder lacks (empty when the layout is complete)."""
    missing = []
    for part in ("artifacts/localization", "artifacts/sort"):
        if not list((folder / part).glob("*.jsonl")):
            missing.append(f"{part}/*.jsonl")
    for category in SPEED_CATEGORIES:
        for name in ("test.json", "ans.json"):
            if not (folder / "shortcut" / category / name).is_file():
                missing.append(f"shortcut/{category}/{name}")
        if not list((folder / "news" / category).glob("*-MMT-test-information.json")):
            missing.append(f"news/{category}/{category}-MMT-test-information.json")
    return missing


def find_release(source: Path) -> Path:
    """The release folder of ``source``: the repository root (its ``test & ans/``) or that folder itself."""
    source = Path(source)
    if not source.is_dir():
        raise DataError(f"--source {source} is not a folder")
    candidates = ["", _INNER, "chronovision", f"chronovision/{_INNER}"]
    complete = first_existing(source, candidates, lambda f: not layout_problems(f))
    if complete is not None:
        return complete
    partial = first_existing(source, candidates, lambda f: any((f / p).is_dir() for p in ("artifacts", "shortcut", "news")))
    if partial is None:
        raise DataError(
            f"--source {source}: not a ChronoVision release. Expected artifacts/, shortcut/ and news/ (in the "
            f"folder or in its '{_INNER}/' folder, as in {RELEASE.home}); found: {listing(source)}"
        )
    missing = layout_problems(partial)
    raise DataError(
        f"--source {partial}: incomplete ChronoVision release, missing {', '.join(missing[:8])}"
        + (f" and {len(missing) - 8} more" if len(missing) > 8 else "")
        + f"; found: {listing(partial)}"
    )


def release_counts(folder: Path) -> dict[str, int]:
    """The release's own counts (records, pairs), to compare with PUBLISHED_COUNTS."""
    pairs = 0
    for category in SPEED_CATEGORIES:
        keys = _read_json(folder / "shortcut" / category / "test.json")
        pairs += len({key.replace("\\", "/").partition("/")[0] for key in keys})
    return {
        "localization records": sum(len(read_jsonl(p)) for p in (folder / "artifacts" / "localization").glob("*.jsonl")),
        "sort records": sum(len(read_jsonl(p)) for p in (folder / "artifacts" / "sort").glob("*.jsonl")),
        "shortcut pairs": pairs,
        "news records": sum(
            len(_read_json(p)) for c in SPEED_CATEGORIES for p in (folder / "news" / c).glob("*-MMT-test-information.json")
        ),
    }


def image_root(folder: Path, depth: int = 4) -> Path | None:
    """The folder under ``folder`` (itself included, breadth first) that holds CHA/, SPEED/, shortcut/ or news/."""
    level = [Path(folder)]
    for _ in range(depth + 1):
        for candidate in level:
            if any((candidate / name).is_dir() for name in IMAGE_FOLDERS):
                return candidate
        level = [child for candidate in level for child in sorted(candidate.iterdir()) if child.is_dir()]
    return None


def download_images(downloader: Downloader, show=print) -> Path:
    """The release's images from the hub dataset (``huggingface_hub.snapshot_download``, which resumes
    and shows progress), archives unpacked; the folder holding CHA/, SPEED/, shortcut/ or news/."""
    import os
    import shutil as _shutil

    endpoint = os.environ.get("HF_ENDPOINT", "https://huggingface.co")
    why = downloader.probe(endpoint)
    if why:
        raise DataError(
            f"cannot download the ChronoVision images ({IMAGES_DATASET} on the Hugging Face hub): no network? {why}. "
            f"Give --images DIR with a copy of them"
        )
    from huggingface_hub import snapshot_download

    folder = downloads_dir("chronovision") / "images"
    show(f"Downloading the ChronoVision images ({IMAGES_DATASET}, Hugging Face hub) to {folder}")
    try:
        snapshot_download(repo_id=IMAGES_DATASET, repo_type="dataset", local_dir=str(folder))
    except Exception as err:  # offline, gated, moved
        raise DataError(
            f"cannot download the ChronoVision images ({IMAGES_DATASET}): {type(err).__name__}: {err}. Download them "
            f"yourself (huggingface-cli download {IMAGES_DATASET} --repo-type dataset --local-dir DIR) and give --images DIR"
        ) from err
    for archive in sorted(p for p in folder.rglob("*") if p.suffix in (".zip", ".tar", ".gz", ".tgz") and p.is_file()):
        done = archive.with_name(archive.name + ".unpacked")
        if not done.exists():
            _shutil.unpack_archive(str(archive), str(archive.parent))
            done.touch()
    root = image_root(folder)
    if root is None:
        raise DataError(
            f"the downloaded {IMAGES_DATASET} ({folder}) has no folder with {', '.join(IMAGE_FOLDERS)}; found: "
            f"{listing(folder)}. Arrange them as {IMAGE_LAYOUT} and give --images DIR"
        )
    return root


IMAGE_LAYOUT = (
    "CHA/<Dynasty>/<category>/<id>.jpg, SPEED/<category>/<name>, shortcut/<category>/testN/<name> and "
    "news/<category>/testN/<name> under one folder (`chronotasks prepare chronovision --help` shows the layout)"
)


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
            records.append(
                {
                    "id": rid,
                    "images": [store.place(found)],
                    "options": options,
                    "answer": "ABCDE"[options.index(rec["dynasty"])],
                    "dynasty": rec["dynasty"],
                    "category": rec["category"].lower(),
                    "answer_space": LOC_SPACE.to_json(),
                }
            )
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
            (intra if level == "intra" else cross).append(
                {
                    "id": rid,
                    "images": [store.place(f) for f in found],
                    "gold_order": list(rec["ground_truth"]),
                    "dynasties": rec.get("dynasty_sequence") or [release_path_parts(p)[-3] for p in rec["images"]],
                    "category": rec["category"],
                    "n": n,
                    "level": level,
                    "answer_space": sort_space(n).to_json(),
                }
            )
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
            records.extend(
                shortcut_trials(
                    pair_id, category, store.place(earlier["found"]), store.place(later["found"]), earlier["year"], later["year"], seed
                )
            )
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
        trials.append(
            {
                "id": f"shortcut-{pair_id}-{condition}",
                "pair_id": pair_id,
                "condition": condition,
                "category": category,
                "images": images,
                "gray": gray,
                "answer": "1" if earlier_first else "2",
                "years": [earlier_year, later_year] if earlier_first else [later_year, earlier_year],
                "answer_space": SHORTCUT_SPACE.to_json(),
            }
        )
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
                records.append(
                    {
                        "id": rid,
                        "images": [store.place(f) for f in found],
                        "event": rec["news"]["description"],
                        "answer": str(rec["correct_answer"]),
                        "event_year": rec["news"]["year"],
                        "years": [im["year"] for im in images],
                        "category": category,
                        "answer_space": MULTIMODAL_SPACE.to_json(),
                    }
                )
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
        records.append(
            {
                "id": rid,
                "images": [store.place(found)],
                "year": year_of(original),
                "category": category,
                "answer_space": NEWS_YEAR_SPACE.to_json(),
            }
        )
    return records


def year_stats(records: list[dict]) -> dict[str, Any]:
    years = [r["year"] for r in records]
    if not years:
        return {"count": 0}
    return {
        "count": len(years),
        "mode": Counter(years).most_common(1)[0][0],
        "mean": statistics.fmean(years),
        "median": statistics.median(years),
        "min": min(years),
        "max": max(years),
    }


# the release folder each task file is built from (``_why_empty`` names it when a task has no records)
TASK_SOURCES = {
    "artifacts_loc.jsonl": ("artifacts/localization",),
    "artifacts_sort_intra.jsonl": ("artifacts/sort",),
    "artifacts_sort_cross.jsonl": ("artifacts/sort",),
    "shortcut.jsonl": ("shortcut",),
    "news_year.jsonl": ("shortcut", "news"),
    "news_multimodal.jsonl": ("news",),
}


def _why_empty(task_file: str, missing: list[str], source: Path) -> str:
    """Why a task file would have no records: its images were not found, or the release files it
    is built from hold none."""
    lost = [line.replace("\t", " ") for line in missing if line.split("\t")[0] + ".jsonl" == task_file][:3]
    if lost:
        return f"every record of {task_file} lacks an image (e.g. {'; '.join(lost)})"
    folders = ", ".join(f"{source / folder}/" for folder in TASK_SOURCES[task_file])
    return f"{task_file}: no records in the release files it is built from ({folders}: the files are empty)"


def join_release(source: Path, images: Path, out: Path, seed: int = 0, link: str = "copy", force: bool = False) -> dict[str, Any]:
    """Write every task file under ``out``; returns counts, missing-image lines and News-Year statistics.

    ``source`` may be the repository root or its release folder (see ``find_release``). Raises
    DataError, writing nothing, when the layout is wrong, when no image is found at all, when a
    task would be left empty, or when the result would shrink prepared data (unless ``force``).
    """
    source, images, out = find_release(Path(source)), Path(images), Path(out)
    if not images.is_dir():
        raise DataError(f"--images {images} is not a folder")
    store, missing, speed = ImageStore(images, out, link), [], {}
    loc = build_localization(source, store, seed, missing)
    intra, cross = build_sort(source, store, missing)
    shortcut = build_shortcut(source, store, seed, missing, speed)
    news = build_news(source, store, missing, speed)
    year = build_news_year(store, missing, speed)
    files = dict(zip(TASK_FILES, (loc, intra, cross, shortcut, year, news)))
    if not store.placed:
        raise DataError(
            f"--images {images}: none of the {len(missing)} image references of the release was found there "
            f"(expected {IMAGE_LAYOUT}; e.g. "
            f"{missing[0].split(chr(9))[-1] if missing else '?'}); found: {listing(images)}. Nothing was written"
        )
    empty = [name for name, records in files.items() if not records]
    if empty:
        raise DataError(f"{'; '.join(_why_empty(name, missing, source) for name in empty)}; nothing was written to {out}")
    replace_task_files(out, files, source=str(source), force=force, what="prepare chronovision")
    stats = year_stats(year)
    counts = release_counts(source)
    report = {
        "counts": {name: len(r) for name, r in files.items()},
        "missing": missing,
        "news_year": stats,
        "speed_images_named": len(speed),
        "source": str(source),
        "verified": verify_against(RELEASE, published_files(RELEASE, source)),
        "count_differences": [f"{what}: {counts[what]} (the release has {n})" for what, n in PUBLISHED_COUNTS.items() if counts[what] != n],
    }
    (out / "missing_images.txt").write_text("".join(line + "\n" for line in missing), encoding="utf-8")
    (out / "prepare_report.json").write_text(json.dumps({**report, "missing": len(missing)}, indent=2), encoding="utf-8")
    return report


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser, "chronovision", f"the ChronoVision repository root or its '{_INNER}/' folder")
    parser.add_argument(
        "--images",
        default=None,
        help=f"folder of images mirroring the release names (CHA/, shortcut/, news/, SPEED/) (default: downloaded from {IMAGES_DATASET})",
    )
    parser.add_argument("--seed", type=int, default=0, help="seed of the option / image-order randomisation (default 0)")
    parser.add_argument("--link", choices=("copy", "symlink"), default="copy", help="how images are placed under OUT/images")


def run(args: argparse.Namespace) -> int:
    out = output_folder(args, "chronovision")
    downloader = make_downloader(args)
    source = find_release(Path(args.source)) if args.source else fetched_release(RELEASE, "chronovision", downloader)
    images = Path(args.images) if args.images else download_images(downloader)
    report = join_release(source, images, out, seed=args.seed, link=args.link, force=args.force)
    for line in report["verified"]:
        print(line)
    for note in report["count_differences"]:
        print(f"differs from the published counts: {note}")
    for line in report["missing"]:
        print(f"missing image: {line}")
    print(json.dumps(report["counts"], indent=2))
    stats = report["news_year"]
    print(
        f"News-Year: {stats['count']} SPEED images with a year from their file name "
        f"({report['speed_images_named']} named by the news and shortcut files; the paper has 1,028)"
    )
    if stats["count"]:
        print(
            f"  year mode {stats['mode']}, mean {stats['mean']:.2f}, median {stats['median']} "
            f"(constant baselines: --model chrono_constant --model_args answer=<year>)"
        )
    print(f"{len(report['missing'])} missing image reference(s); listed in {out / 'missing_images.txt'}")
    print(f"Wrote {out.resolve()}. {where_tasks_read(out, 'chronovision')}")
    return 0
