"""Convert the TAB-VLM release (600 questions, one JSON file) into the task files.

    chronotasks prepare tabvlm --source temporal_anomaly_benchmark.json --out $CHRONOTASKS_DATA/tabvlm [--images DIR]

Each artifact image is taken from ``--images`` by the last path component of
its ``image_url`` (then of its ``alt_image_url``), else from an earlier run's
``OUT/images``, else downloaded (``image_url`` then ``alt_image_url``, with
retries and back-off; ``--no-download`` turns this off). A question with any
missing or unreadable image is reported by id and left out; nothing crashes.
Writes ``OUT/<task>.jsonl`` (see schema.py), ``OUT/images/`` and
``OUT/prepare_report.json``; prints the count per question type.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import time
import urllib.parse
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from PIL import Image
from tqdm import tqdm

from chronotasks.data.loading import write_jsonl
from chronotasks.benchmarks.tabvlm.schema import BY_QUESTION_TYPE, TASK_TYPES, artifacts_of, convert_question

RETRY_STATUS = {408, 425, 429, 500, 502, 503, 504}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--source", required=True, help="the release JSON file, or a folder of release JSON files")
    parser.add_argument("--out", required=True, help="benchmark folder to write, i.e. $CHRONOTASKS_DATA/tabvlm")
    parser.add_argument("--images", default=None, help="folder of already-downloaded images, found by file name")
    parser.add_argument("--no-download", action="store_true", help="never download; missing images drop their question")
    parser.add_argument("--retries", type=int, default=3, help="download attempts per URL (default 3)")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds per download attempt (default 30)")
    parser.add_argument("--backoff", type=float, default=1.0, help="first back-off in seconds, doubled per retry (default 1)")


def load_release(source: Path) -> list[dict[str, Any]]:
    """The questions of a release file, or of every *.json file in a folder (deduplicated by id)."""
    files = sorted(source.glob("*.json")) if source.is_dir() else [source]
    if not files:
        raise FileNotFoundError(f"no release JSON files in {source}")
    questions: dict[str, dict[str, Any]] = {}
    for path in files:
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, json.JSONDecodeError) as err:
            raise ValueError(f"{path}: not a readable JSON file ({err})") from err
        items = data.get("questions") if isinstance(data, dict) else data
        if not isinstance(items, list):
            raise ValueError(f"{path}: expected a list of questions or an object with 'questions'")
        for number, question in enumerate(items):
            key = str(question.get("question_id", f"{path.name}#{number}")) if isinstance(question, dict) else f"{path.name}#{number}"
            questions.setdefault(key, question if isinstance(question, dict) else {"question_id": key})
    return list(questions.values())


def image_name(url: str | None) -> str | None:
    """The file name an image URL's last path component gives ("…/x_01_h.jpg" -> "x_01_h.jpg")."""
    if not url:
        return None
    name = urllib.parse.unquote(urllib.parse.urlsplit(str(url)).path.rstrip("/").rsplit("/", 1)[-1])
    name = "".join(ch if ch.isalnum() or ch in "._-" else "_" for ch in name)
    return name or None


def readable_image(path: Path) -> str | None:
    """None when ``path`` is a readable image, else why not."""
    try:
        with Image.open(path) as image:
            image.verify()
        with Image.open(path) as image:
            image.load()
        return None
    except FileNotFoundError:
        return "missing"
    except Exception as err:  # PIL raises many types for broken files
        return f"unreadable ({type(err).__name__}: {err})"


def download(url: str, target: Path, retries: int = 3, timeout: float = 30.0, backoff: float = 1.0,
             session: Any = None, sleep: Callable[[float], None] = time.sleep) -> str | None:
    """Download ``url`` to ``target`` atomically; None on success, else the last error.

    Retries connection errors, timeouts and 408/425/429/5xx with exponential
    back-off (honouring a numeric Retry-After); other HTTP errors fail at once.
    """
    import requests

    http = session or requests.Session()
    error = "not attempted"
    for attempt in range(max(1, retries)):
        if attempt:
            sleep(backoff * 2 ** (attempt - 1))
        try:
            response = http.get(url, timeout=timeout, headers={"User-Agent": "chronotasks-prepare/0.1"})
        except requests.RequestException as err:
            error = f"{type(err).__name__}: {err}"
            continue
        if response.status_code == 200 and response.content:
            target.parent.mkdir(parents=True, exist_ok=True)
            tmp = target.with_name(target.name + ".part")
            tmp.write_bytes(response.content)
            os.replace(tmp, target)
            return None
        error = f"HTTP {response.status_code}"
        if response.status_code not in RETRY_STATUS:
            return error
        retry_after = response.headers.get("Retry-After", "")
        if retry_after.isdigit():
            sleep(min(float(retry_after), 60.0))
    return error


class ImageResolver:
    """Finds each artifact's image once: local folder, earlier output, then download."""

    def __init__(self, out_images: Path, images_dir: Path | None, allow_download: bool, **download_kwargs: Any) -> None:
        self.out_images, self.images_dir = out_images, images_dir
        self.allow_download, self.download_kwargs = allow_download, download_kwargs
        self.cache: dict[tuple[str | None, str | None], tuple[str | None, str]] = {}
        self.session = None
        self.sources: Counter = Counter()

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
        if self.session is None:
            import requests

            self.session = requests.Session()
        for url, name in zip(urls, names):
            if not url or not name:
                continue
            target = self.out_images / name
            error = download(url, target, session=self.session, **self.download_kwargs)
            if error is None:
                problem = readable_image(target)
                if problem is None:
                    self.sources["download"] += 1
                    return f"images/{name}", ""
                target.unlink(missing_ok=True)
                error = f"downloaded file {problem}"
            problems.append(f"{url}: {error}")
        return None, "; ".join(problems)


def convert_release(questions: Iterable[dict[str, Any]], resolver: ImageResolver) -> tuple[dict[str, list[dict]], list[dict[str, str]]]:
    """Records per task file and the list of dropped questions ({id, type, reason})."""
    records: dict[str, list[dict]] = {t.file: [] for t in TASK_TYPES}
    dropped: list[dict[str, str]] = []
    for question in tqdm(list(questions), desc="tabvlm questions", disable=None):
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
            continue
        records[BY_QUESTION_TYPE[qtype].file].append(record)
    return records, dropped


def prepare(source: Path, out: Path, images: Path | None = None, allow_download: bool = True, **download_kwargs: Any) -> dict[str, Any]:
    """Convert and write; returns the report (also written to OUT/prepare_report.json)."""
    questions = load_release(source)
    resolver = ImageResolver(out / "images", images, allow_download, **download_kwargs)
    records, dropped = convert_release(questions, resolver)
    for file, rows in records.items():
        write_jsonl(out / file, rows)
    total = Counter(str(q.get("question_type", "?")) for q in questions)
    report = {
        "source": str(source),
        "questions": len(questions),
        "kept": sum(len(rows) for rows in records.values()),
        "per_type": {t.question_type: {"kept": len(records[t.file]), "of": total.get(t.question_type, 0), "file": t.file}
                     for t in TASK_TYPES},
        "dropped": dropped,
        "image_sources": dict(resolver.sources),
    }
    (out / "prepare_report.json").write_text(json.dumps(report, indent=2, ensure_ascii=False), encoding="utf-8")
    return report


def format_report(report: dict[str, Any]) -> str:
    lines = [f"TAB-VLM: kept {report['kept']} of {report['questions']} questions "
             f"({len(report['dropped'])} dropped)", "", "| question type | kept | of | task file |", "|---|---|---|---|"]
    for qtype, row in report["per_type"].items():
        lines.append(f"| {qtype} | {row['kept']} | {row['of']} | {row['file']} |")
    if report["dropped"]:
        lines += ["", "Dropped questions:"]
        lines += [f"  {d['id']} ({d['question_type']}): {d['reason']}" for d in report["dropped"]]
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    out = Path(args.out)
    report = prepare(Path(args.source), out, Path(args.images) if args.images else None, allow_download=not args.no_download,
                     retries=args.retries, timeout=args.timeout, backoff=args.backoff)
    print(format_report(report))
    print(f"\nWrote {out.resolve()}. Point the tasks at it with: export CHRONOTASKS_DATA={out.resolve().parent}"
          + ("" if out.name == "tabvlm" else f"  (the tasks read $CHRONOTASKS_DATA/tabvlm: rename {out.name} to tabvlm)"))
    return 0 if report["kept"] else 1
