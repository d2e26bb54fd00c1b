"""Build the TAB-VLM task files from the release (600 questions in one JSON file) and its images.

    chronotasks prepare tabvlm                         download the release (pinned commit, SHA-256 checked) and its images
    chronotasks prepare tabvlm --source DIR [--images IMAGES] [--out OUT]

``--source`` is an offline copy: the release JSON itself, the repository root (which holds
``data/temporal_anomaly_benchmark.json``) or its ``data/`` folder. The questions are checked
against the release's own counts (600; 100 per question type).

``--source`` holds the questions only: each artifact image is taken from ``--images`` (else
``SOURCE/images``) by the last path component of its ``image_url`` (then of its
``alt_image_url``), else from an earlier run's ``OUT/images``, else downloaded (``image_url``
then ``alt_image_url``, from the museums' servers: offline, give ``--images``; ``--no-download``
turns downloads off). A ``--images`` folder holding none of the images is an error, never
passed over for images cached by an earlier run. Downloads go straight to ``OUT/images``, so an interrupted run resumes where it
stopped. A host that cannot be reached is reported once and not retried for every image; the
task files are then not written (rerun when online). A question with a missing or unreadable
image (gone from the server, not an image) is reported by id and left out.

Writes ``OUT/<task>.jsonl`` (see schema.py), ``OUT/images/`` and ``OUT/prepare_report.json``;
prints the count per question type. OUT defaults to ``<data root>/tabvlm``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import urllib.parse
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from PIL import Image

from chronotasks.benchmarks.release import (
    add_common_arguments,
    fetched_release,
    first_existing,
    listing,
    make_downloader,
    output_folder,
    verify_against,
    where_tasks_read,
)
from chronotasks.benchmarks.tabvlm.schema import BY_QUESTION_TYPE, TASK_TYPES, artifacts_of, convert_question
from chronotasks.data.fetch import Downloader, Release
from chronotasks.data.loading import DataError, strict_decoding
from chronotasks.data.progress import Progress
from chronotasks.data.writing import replace_task_files

RELEASE_FILE = "temporal_anomaly_benchmark.json"
RELEASE = Release(
    repository="KHUSHBOO0012/tab-vlm",
    commit="038e270cbe27fab5dde2a73ad7c552f5366463cc",
    files={f"data/{RELEASE_FILE}": "54f0e81c79f42567b2e0edd8ebea38a150a374d6d3f47bc46665cb38e7fc5906"},
    inner="data",
)
PUBLISHED_COUNTS = {"total": 600, "per_type": 100}  # the paper (§3) and the release's own metadata


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser, "tabvlm", "the release JSON, the tab-vlm repository root, or its data/ folder")
    parser.add_argument(
        "--images", default=None, help="folder of already-downloaded images, found by file name (default: SOURCE/images when it exists)"
    )
    parser.add_argument("--no-download", action="store_true", help="never download; missing images drop their question")


def find_release(source: Path) -> list[Path]:
    """The release JSON file(s) of ``source`` (a file, the repository root or its data/ folder)."""
    if source.is_file():
        return [source]
    folder = first_existing(source, ["", "data", "tabvlm", "tabvlm/data"], lambda f: (f / RELEASE_FILE).is_file())
    if folder is not None:
        return [folder / RELEASE_FILE]
    files = sorted(source.glob("*.json")) if source.is_dir() else []
    if not files:
        raise DataError(
            f"--source {source}: no TAB-VLM release there. Expected {RELEASE_FILE} (in the folder or its data/ "
            f"folder, as in {RELEASE.home}) or release *.json files; found: {listing(source)}"
        )
    return files


def load_release(source: Path) -> list[dict[str, Any]]:
    """The questions of the release file(s) of ``source`` (deduplicated by id)."""
    questions: dict[str, dict[str, Any]] = {}
    for path in find_release(source):
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
            raise DataError(f"{path}: not a readable JSON file ({err})") from err
        items = data.get("questions") if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise DataError(f"{path}: expected a list of questions or an object with 'questions' (the TAB-VLM release format)")
        for number, question in enumerate(items):
            key = str(question.get("question_id", f"{path.name}#{number}")) if isinstance(question, dict) else f"{path.name}#{number}"
            questions.setdefault(key, question if isinstance(question, dict) else {"question_id": key})
    return list(questions.values())


def check_counts(questions: list[dict[str, Any]]) -> list[str]:
    """Differences from the published counts (600 questions, 100 per type); empty when they match."""
    per_type = Counter(str(q.get("question_type", "?")) for q in questions)
    notes = []
    if len(questions) != PUBLISHED_COUNTS["total"]:
        notes.append(f"{len(questions)} questions (the release has {PUBLISHED_COUNTS['total']})")
    for task_type in TASK_TYPES:
        if per_type.get(task_type.question_type, 0) != PUBLISHED_COUNTS["per_type"]:
            notes.append(
                f"{per_type.get(task_type.question_type, 0)} {task_type.question_type} (the release has {PUBLISHED_COUNTS['per_type']})"
            )
    unknown = sorted(set(per_type) - set(BY_QUESTION_TYPE))
    if unknown:
        notes.append(f"unknown question types {unknown}")
    return notes


def image_name(url: str | None) -> str | None:
    """The file name an image URL's last path component gives ("…/x_01_h.jpg" -> "x_01_h.jpg")."""
    if not url:
        return None
    name = urllib.parse.unquote(urllib.parse.urlsplit(str(url)).path.rstrip("/").rsplit("/", 1)[-1])
    name = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in name)
    return name or None


def readable_image(path: Path) -> str | None:
    """None when ``path`` is a readable, complete image, else why not."""
    try:
        with strict_decoding():
            with Image.open(path) as image:
                image.verify()
            with Image.open(path) as image:
                image.load()
        return None
    except FileNotFoundError:
        return "missing"
    except Exception as err:  # PIL raises many types for broken files
        return f"unreadable ({type(err).__name__}: {err})"


class ImageResolver:
    """Finds each artifact's image once: local folder, earlier output, then download."""

    def __init__(self, out_images: Path, images_dir: Path | None, allow_download: bool, downloader: Downloader | None = None) -> None:
        self.out_images, self.images_dir = out_images, images_dir
        self.allow_download = allow_download
        self.downloader = downloader or Downloader()
        self.cache: dict[tuple[str | None, str | None], tuple[str | None, str]] = {}
        self.sources: Counter = Counter()
        self.unreachable = 0  # artifacts not downloaded because their host could not be reached

    def _local(self, name: str) -> tuple[Path | None, str]:
        errors = []
        for folder, label in ((self.images_dir, "images"), (self.out_images, "out")):
            if folder is None:
                continue
            candidate = folder / name
            if candidate.exists():
                problem = readable_image(candidate)
                if problem is None:
                    return candidate, label
                errors.append(f"{candidate} {problem}")
        return None, "; ".join(errors)

    def resolve(self, artifact: dict[str, Any]) -> tuple[str | None, str]:
        """(path relative to the benchmark folder, "") or (None, why not)."""
        urls = [artifact.get("image_url"), artifact.get("alt_image_url")]
        key = (urls[0], urls[1])
        if key not in self.cache:
            self.cache[key] = self._resolve(urls)
        return self.cache[key]

    def _resolve(self, urls: list[str | None]) -> tuple[str | None, str]:
        names = [image_name(u) for u in urls]
        problems = []
        for name in names:
            if not name:
                continue
            found, why = self._local(name)
            if found is not None:
                target = self.out_images / name
                if found.resolve() != target.resolve():
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(found, target)
                self.sources[why] += 1
                return f"images/{name}", ""
            if why:
                problems.append(why)
        if not any(names):
            return None, "artifact has no image_url or alt_image_url"
        if not self.allow_download:
            return None, "; ".join(problems) or f"not found locally ({', '.join(n for n in names if n)}) and downloads are off"
        skipped = False
        for url, name in zip(urls, names):
            if not url or not name:
                continue
            target = self.out_images / name
            error = self.downloader.get(url, target)
            if error is None:
                problem = readable_image(target)
                if problem is None:
                    self.sources["download"] += 1
                    return f"images/{name}", ""
                target.unlink(missing_ok=True)
                error = f"downloaded file {problem}"
            skipped = skipped or error.startswith("skipped:")
            problems.append(f"{url}: {error}")
        if skipped:
            self.unreachable += 1
        return None, "; ".join(problems)


def convert_release(questions: Iterable[dict[str, Any]], resolver: ImageResolver) -> tuple[dict[str, list[dict]], list[dict[str, str]]]:
    """Records per task file and the list of dropped questions ({id, type, reason})."""
    records: dict[str, list[dict]] = {t.file: [] for t in TASK_TYPES}
    dropped: list[dict[str, str]] = []
    questions = list(questions)
    with Progress(total=len(questions), desc="tabvlm questions (images found/downloaded)", unit="q") as bar:
        for question in questions:
            qid = str(question.get("question_id", "?"))
            qtype = str(question.get("question_type", "?"))
            try:
                artifacts = artifacts_of(question)
                paths, missing = [], []
                for index, artifact in enumerate(artifacts):
                    path, why = resolver.resolve(artifact if isinstance(artifact, dict) else {})
                    paths.append(path)
                    if path is None:
                        missing.append(f"artifact {index} ({'ABCDE'[index] if index < 5 else index}): {why}")
                if missing:
                    raise ValueError("image missing or unreadable: " + " | ".join(missing))
                record = convert_question(question, paths)
            except ValueError as err:
                dropped.append({"id": qid, "question_type": qtype, "reason": str(err)})
            else:
                records[BY_QUESTION_TYPE[qtype].file].append(record)
            bar.update(note=f"{len(dropped)} dropped, {resolver.sources['download']} downloaded")
    return records, dropped


def image_example(questions: list[dict[str, Any]]) -> str:
    """The file name the first artifact image of the release is looked up by (for messages)."""
    for question in questions:
        for artifact in artifacts_of(question):
            name = image_name(artifact.get("image_url")) if isinstance(artifact, dict) else None
            if name:
                return name
    return "?"


IMAGES_HELP = "a folder with the release's image files, named as the last part of each artifact's image_url"


def prepare(
    source: Path,
    out: Path,
    images: Path | None = None,
    allow_download: bool = True,
    downloader: Downloader | None = None,
    force: bool = False,
    images_required: bool = False,
) -> dict[str, Any]:
    """Convert and write; returns the report (also written to OUT/prepare_report.json).

    Raises DataError (nothing written) when no question is left for a task type, when images
    could not be downloaded because their host was unreachable, when ``images_required`` (the
    user named ``--images``) and not one image came from that folder, or when the result would
    replace prepared data with fewer records (unless ``force``).
    """
    questions = load_release(source)
    files = find_release(source)
    verified = verify_against(RELEASE, {next(iter(RELEASE.files)): files[0]}) if len(files) == 1 else []
    resolver = ImageResolver(out / "images", images, allow_download, downloader)
    records, dropped = convert_release(questions, resolver)
    total = Counter(str(q.get("question_type", "?")) for q in questions)
    report = {
        "source": str(source),
        "verified": verified,
        "count_differences": check_counts(questions),
        "questions": len(questions),
        "kept": sum(len(rows) for rows in records.values()),
        "per_type": {
            t.question_type: {"kept": len(records[t.file]), "of": total.get(t.question_type, 0), "file": t.file} for t in TASK_TYPES
        },
        "dropped": dropped,
        "image_sources": dict(resolver.sources),
    }
    if images_required and images is not None and not resolver.sources["images"]:
        raise DataError(
            f"--images {images}: none of the release's images is there ({IMAGES_HELP}, e.g. "
            f"{image_example(questions)}); found: {listing(images)}. Nothing was written"
        )
    if resolver.unreachable:
        kept = [p for p in (out / "images").iterdir() if p.is_file()] if (out / "images").is_dir() else []
        so_far = (
            f"the {len(kept)} image(s) found so far are kept in {out / 'images'} and a rerun resumes from them"
            if kept
            else "no image was found or downloaded"
        )
        raise DataError(
            f"{resolver.unreachable} artifact image(s) could not be downloaded because their host could not be "
            f"reached (see 'no network' above); the task files were not written and {so_far}. Rerun when "
            f"online, or give --images DIR: {IMAGES_HELP} (e.g. {image_example(questions)})"
        )
    missing_types = [t.question_type for t in TASK_TYPES if total.get(t.question_type) and not records[t.file]]
    if missing_types or not report["kept"]:
        raise DataError(
            f"no question kept for {', '.join(missing_types) or 'any question type'} (every image missing or "
            f"unreadable: {dropped[0]['reason'] if dropped else 'no questions'}); nothing was written to {out}"
        )
    replace_task_files(
        out,
        {t.file: records[t.file] for t in TASK_TYPES if total.get(t.question_type)},
        source=str(source),
        force=force,
        what="prepare tabvlm",
    )
    (out / "prepare_report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return report


def format_report(report: dict[str, Any]) -> str:
    lines = [
        *report.get("verified", []),
        *(f"differs from the published counts: {note}" for note in report.get("count_differences", [])),
        f"TAB-VLM: kept {report['kept']} of {report['questions']} questions ({len(report['dropped'])} dropped)",
        "",
        "| question type | kept | of | task file |",
        "|---|---|---|---|",
    ]
    for qtype, row in report["per_type"].items():
        lines.append(f"| {qtype} | {row['kept']} | {row['of']} | {row['file']} |")
    if report["dropped"]:
        lines += ["", "Dropped questions:"]
        lines += [f"  {d['id']} ({d['question_type']}): {d['reason']}" for d in report["dropped"]]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    out = output_folder(args, "tabvlm")
    downloader = make_downloader(args)
    source = Path(args.source) if args.source else fetched_release(RELEASE, "tabvlm", downloader)
    images = Path(args.images) if args.images else None
    if images is None and source.is_dir() and (source / "images").is_dir():
        images = source / "images"
    if images is not None and not images.is_dir():
        raise DataError(f"--images {images} is not a folder")
    report = prepare(
        source, out, images, allow_download=not args.no_download, downloader=downloader, force=args.force, images_required=bool(args.images)
    )
    print(format_report(report))
    print(f"\nWrote {out.resolve()}. {where_tasks_read(out, 'tabvlm')}")
    return 0
