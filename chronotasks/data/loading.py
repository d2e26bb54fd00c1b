"""Where task data lives and how a task reads it.

A data root holds one folder per benchmark, written by ``chronotasks prepare``
(real release files) or ``chronotasks demo-data`` (synthetic demo data):

    <data root>/<benchmark>/<task file>.jsonl     one record per line
    <data root>/<benchmark>/images/...             image files the records name

The data root is ``$CHRONOTASKS_DATA`` when set, else the per-user cache
(``~/.cache/chronotasks/data``; see ``chronotasks.data.locations``), so data that
``chronotasks prepare`` wrote is found with no environment variable. A root of the
form ``hf://ORG/PREFIX`` (or a benchmark folder holding a ``chronotasks export``)
is read through ``chronotasks.data.hf_dataset`` into the same layout.

Why ``process_docs``: lmms-eval reads a task's ``dataset_path`` from the YAML, fixed
when the package is installed; where the data is (the cache, ``$CHRONOTASKS_DATA``,
a hub copy) is known only when the task runs. So each task YAML names a one-row
placeholder file for lmms-eval's loader, and its ``process_docs`` hook
(``make_process_docs``) replaces the rows with the task's records, validated here
(clear errors naming file, line, record and field), with image paths made absolute.

Records name images by path relative to the benchmark folder, in the list field
``images``. Images are opened only when a document is sent to the model, so a
corpus is streamed, never held in memory. An image that cannot be opened at that
point does not stop the run: the model gets a grey placeholder (so a chat
message keeps its structure), the failure is remembered, and
``scores_image_failures`` scores the sample as wrong and counts it in the task's
``image_failure`` metric. ``chronotasks check-data`` finds such images before a run.
"""

from __future__ import annotations

import functools
import json
import logging
import os
import threading
from collections.abc import Callable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import datasets
import numpy as np
from PIL import ExifTags, Image, ImageFile, ImageOps, UnidentifiedImageError

from chronotasks.data.errors import DataError, json_problem
from chronotasks.data.locations import DATA_ENV, data_root_spec, hub_prefix, local_data_root
from chronotasks.data.origin import origin_of
from chronotasks.failures import mark_failures

logger = logging.getLogger("chronotasks")

# How to write a benchmark's data, named in every "data missing" message.
PREPARE_HINTS = {
    "chrono_demo": "`chronotasks demo-data --benchmarks chrono_demo`",
    "musebench": "`chronotasks prepare musebench --catalog DIR` (MuseBench is not public: prepare it from your own "
    "catalog folder; `chronotasks demo-data --benchmarks musebench` writes synthetic demo data)",
}
DATA_MARKER = "chronotasks_data.json"  # {"kind": "demo" | "release", ...}, written beside the task files


def prepare_hint(benchmark: str) -> str:
    return PREPARE_HINTS.get(
        benchmark, f"`chronotasks prepare {benchmark}` (or synthetic demo data: `chronotasks demo-data --benchmarks {benchmark}`)"
    )


# -- where ----------------------------------------------------------------------------------
def data_root() -> Path:
    """The local data root (``$CHRONOTASKS_DATA`` or the per-user default)."""
    try:
        return local_data_root()
    except ValueError as err:
        raise DataError(str(err)) from err


def benchmark_dir(benchmark: str, root: Path | None = None) -> Path:
    """The local folder of a benchmark's data; a hub or exported copy is materialised first."""
    if root is not None:
        return Path(root) / benchmark
    from chronotasks.data import hf_dataset

    prefix = hub_prefix()
    if prefix:
        return hf_dataset.materialize(f"{prefix}-{benchmark}", benchmark)
    folder = data_root() / benchmark
    if hf_dataset.is_export(folder):
        return hf_dataset.materialize(str(folder), benchmark)
    return folder


def missing_data_message(benchmark: str, path: Path) -> str:
    where = f"${DATA_ENV}={os.environ[DATA_ENV]}" if os.environ.get(DATA_ENV) else f"the default data root {data_root_spec()}"
    return f"no {benchmark} data: {path} does not exist ({where}); prepare it with {prepare_hint(benchmark)}"


# -- reading records ------------------------------------------------------------------------
def read_numbered_jsonl(path: Path) -> list[tuple[int, dict[str, Any]]]:
    """(line number, record) of every non-blank line; bytes that are not UTF-8, a line that is
    not JSON, or a line that is not a JSON object is an error naming file and line (every such
    line, in one error)."""
    records, problems = [], []
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as err:
                problems.append(
                    f"{path}:{number}: not UTF-8 text (byte {raw[err.start]:#04x} at column "
                    f"{err.start + 1}); task files must be UTF-8 JSON lines"
                )
                continue
            if number == 1:
                line = line.removeprefix("\ufeff")
            if not line.strip():
                continue
            try:
                record = json.loads(line)
            except json.JSONDecodeError as err:
                problems.append(f"{path}:{number}: not valid JSON: {json_problem(err)}")
                continue
            if not isinstance(record, dict):
                problems.append(f"{path}:{number}: expected a JSON object (one record per line), got {type(record).__name__}")
                continue
            records.append((number, record))
    if problems:
        raise DataError.listing(problems)
    return records


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    """Records of a JSONL file; a malformed line is an error naming file and line."""
    return [record for _, record in read_numbered_jsonl(path)]


def write_jsonl(path: Path, records: list[dict[str, Any]]) -> None:
    """Write records atomically (a crash never leaves a half-written task file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(record, ensure_ascii=False) + "\n" for record in records)
    os.replace(tmp, path)


def _kind(value: Any) -> str | None:
    """The JSON type of a value as Arrow sees it (int and float are one kind, an object is stored as text)."""
    if value is None:
        return None
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, (str, dict)):
        return "string"
    if isinstance(value, list):
        return "list"
    return type(value).__name__


def check_records(path: Path, numbered: list[tuple[int, dict[str, Any]]], required: tuple[str, ...] = ("id",)) -> None:
    """The records' shape (``record_problems`` without answers: fields, ids, repeated lines, answer
    spaces), and every field keeps one type (as a table column must): every record that breaks this
    is listed in one error naming file, line, record, field and types. (Loading runs the type check
    only when Arrow refuses the records: it finds every mix this check finds.)"""
    from chronotasks.data.record_checks import record_problems

    problems = record_problems(path, numbered, required, answer_field=None)
    seen: dict[str, tuple[str, int]] = {}  # field (or "field[]" for list items) -> (kind, first line)
    for number, record in numbered:
        where = f"{path}:{number}: record {record.get('id', f'#{number}')!r}"
        for key, value in record.items():
            items = [("", value)] + ([("[]", item) for item in value] if isinstance(value, list) else [])
            for suffix, item in items:
                kind = _kind(item)
                if kind is None:
                    continue
                expected = seen.setdefault(key + suffix, (kind, number))
                if expected[0] != kind:
                    what = f"field {key!r}" + (" (list items)" if suffix else "")
                    problems.append(
                        f"{where}, {what}: expected {expected[0]} (as on line {expected[1]}), "
                        f"got {kind} {json.dumps(item, ensure_ascii=False)[:60]}"
                    )
    if problems:
        raise DataError.listing(problems)


def _to_dataset(path: Path, records: list[dict[str, Any]], numbered: list[tuple[int, dict[str, Any]]] | None = None) -> datasets.Dataset:
    """The records as a table. When Arrow refuses them (a field whose type changes), ``check_records``
    names the first record and field that break the table (``numbered``: the records with their
    lines, as read), else the error says what Arrow said."""
    try:
        return datasets.Dataset.from_list(records)
    except Exception as err:  # pyarrow's ArrowInvalid / ArrowTypeError
        if numbered is not None:
            check_records(path, numbered)
        raise DataError(
            f"{path}: records do not form a table ({type(err).__name__}: {err}); each field must keep one type in every record"
        ) from err


def _note_demo_data(folder: Path) -> None:
    marker = folder / DATA_MARKER
    if folder not in _noted and marker.is_file():
        _noted.add(folder)
        try:
            kind = json.loads(marker.read_text(encoding="utf-8")).get("kind")
        except (OSError, ValueError):
            return
        if kind == "demo":
            logger.warning("%s holds synthetic demo data (chronotasks demo-data): its scores say nothing about a model", folder)


_noted: set = set()  # folders and messages already reported in this process


def _log_once(message: str) -> None:
    """lmms-eval retries process_docs and shows a generic last line: say what is wrong once, plainly."""
    if message not in _noted:
        _noted.add(message)
        logger.error(message)


def load_task_docs(benchmark: str, task_file: str, required: tuple[str, ...] = ("id",), answer_field: str = "answer") -> datasets.Dataset:
    """The records of one task as a ``datasets.Dataset``, validated.

    ``images`` are rewritten to absolute paths; every record must have the
    ``required`` fields and fit its answer space (its answer, in ``answer_field``, among them:
    ``chronotasks.data.record_checks``); every problem is listed in one error. Image files that do
    not exist are listed in a warning (those samples are scored as image failures; see
    ``scores_image_failures``).
    """
    from chronotasks.data.record_checks import record_problems

    folder = benchmark_dir(benchmark)
    path = folder / task_file
    if not path.is_file():
        message = missing_data_message(benchmark, path)
        _log_once(message)
        raise DataError(message)
    numbered = read_numbered_jsonl(path)
    if not numbered:
        raise DataError(f"{path}: no records (the file is empty); write it again with {prepare_hint(benchmark)}")
    problems = record_problems(path, numbered, required, answer_field)
    if problems:
        error = DataError.listing(problems)
        _log_once(str(error))
        raise error
    records = [record for _, record in numbered]
    resolve = _path_resolver(folder)
    for record in records:
        if "images" in record:
            record["images"] = [resolve(rel) for rel in record["images"]]
    _warn_missing_images(path, records)
    _note_demo_data(folder)
    for record in records:  # nested values are stored as JSON text so every task has a flat, typed schema
        for key, value in list(record.items()):
            if isinstance(value, dict):
                record[key] = json.dumps(value, ensure_ascii=False)
    return _to_dataset(path, records, numbered)  # (the rewrites keep each field's kind: the lines still name it)


def _warn_missing_images(path: Path, records: list[dict[str, Any]]) -> None:
    missing = [(record.get("id"), image) for record in records for image in record.get("images") or [] if not os.path.isfile(image)]
    if missing:
        shown = "; ".join(f"record {rid!r}: {image}" for rid, image in missing[:5])
        logger.warning(
            "%s: %d image file(s) do not exist (%s%s); those samples are scored wrong and counted in "
            "image_failure. `chronotasks check-data` lists every problem.",
            path,
            len(missing),
            shown,
            ", ..." if len(missing) > 5 else "",
        )


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


def make_process_docs(benchmark: str, task_file: str, required: tuple[str, ...] = ("id",), answer_field: str = "answer") -> Callable:
    """A ``process_docs`` hook that replaces the YAML's placeholder rows with the task's records
    (``answer_field``: the field holding a record's gold answer)."""

    def process_docs(_placeholder: datasets.Dataset) -> datasets.Dataset:
        from chronotasks import provenance

        docs = load_task_docs(benchmark, task_file, required, answer_field)
        provenance.attach(benchmark, benchmark_dir(benchmark), task_file)  # into the results file's "configs"
        return docs

    process_docs.task_data = (benchmark, task_file)  # type: ignore[attr-defined]  # read by check-data
    return process_docs


# -- images ---------------------------------------------------------------------------------
_decoding = threading.RLock()


@contextmanager
def strict_decoding():
    """Decode with truncation as an error. lmms-eval sets PIL's ``LOAD_TRUNCATED_IMAGES`` globally,
    which turns a truncated file into a silently grey-padded image; we restore its value after."""
    with _decoding:
        before = ImageFile.LOAD_TRUNCATED_IMAGES
        ImageFile.LOAD_TRUNCATED_IMAGES = False
        try:
            yield
        finally:
            ImageFile.LOAD_TRUNCATED_IMAGES = before


def _upright(image: Image.Image) -> Image.Image:
    """The image as it is meant to be seen: turned by its EXIF ``Orientation`` tag (2-8), as image
    viewers and OpenCV's ``imread`` (Algorithm 1's ReadImage) do; unchanged (no copy) without one."""
    if image.getexif().get(ExifTags.Base.Orientation, 1) in (2, 3, 4, 5, 6, 7, 8):
        return ImageOps.exif_transpose(image)
    return image


def _eight_bit(image: Image.Image) -> Image.Image:
    """A 16-bit (or 32-bit integer) grayscale image as 8-bit ``L`` by its high byte, as OpenCV and
    libpng reduce a 16-bit PNG (PIL's own ``convert`` clips every value above 255 to white)."""
    if image.mode in ("I;16", "I;16L", "I;16B", "I;16N"):
        return Image.fromarray((np.asarray(image, dtype=np.uint16) >> 8).astype(np.uint8), "L")
    if image.mode == "I":  # PIL opens some 16-bit grayscale PNGs as 32-bit "I" holding 0..65535
        return Image.fromarray((np.clip(np.asarray(image), 0, 65535) >> 8).astype(np.uint8), "L")
    return image


def open_image(
    path: str, record_id: Any = "?", field: str = "images", mode: str = "RGB", draft: tuple[int, int] | None = None
) -> Image.Image:
    """Open one image as ``mode`` (RGB); a missing, unreadable or truncated file is an error naming it.

    The one decode path of every task (colour, grayscale variants, judges, retrieval): PIL only, so
    it gives the same pixels whatever else the process has loaded (after ``import decord``,
    OpenCV's own PNG decoder fails: libpng is handed another zlib). The pixels equal OpenCV's
    ``imdecode(..., IMREAD_COLOR)`` for JPEG and PNG (tests/chronovision/test_decode_path.py):
    EXIF orientation applied, alpha dropped, 16-bit reduced to its high byte.
    ``draft`` (w, h) lets a JPEG decode at the smallest 1/2^k scale still at least that size.
    """
    try:
        with strict_decoding(), Image.open(path) as image:
            if draft:
                image.draft(mode, draft)
            image.load()
            upright = _eight_bit(_upright(image))
            if upright.mode == mode and not getattr(upright, "is_animated", False):  # decoded in place, no converted copy
                return upright
            return upright.convert(mode)
    except FileNotFoundError as err:
        raise DataError(f"record {record_id!r}, field {field!r}: image file {path} does not exist") from err
    except (UnidentifiedImageError, OSError, ValueError) as err:
        raise DataError(f"record {record_id!r}, field {field!r}: image file {path} is not a readable image ({err})") from err


PLACEHOLDER_SIZE = (224, 224)
_image_status: dict[str, str | None] = {}  # path -> None (opened fine) or why it could not be opened


def placeholder_image() -> Image.Image:
    """What the model sees instead of an image that cannot be opened: plain mid-grey."""
    return Image.new("RGB", PLACEHOLDER_SIZE, (128, 128, 128))


def open_doc_image(path: str, record_id: Any = "?", opener: Callable[[str, Any], Image.Image] | None = None) -> Image.Image:
    """An image of a document for the model: ``opener(path, record_id)`` (default ``open_image``), or,
    when that fails, the placeholder; the failure is remembered for ``image_failure`` and logged."""
    try:
        image = (opener or open_image)(path, record_id)
    except DataError as err:
        if path not in _image_status or _image_status[path] is None:
            logger.warning("%s; the sample gets a placeholder image and is scored as an image failure", err)
        _image_status[path] = str(err)
        return placeholder_image()
    _image_status[path] = None
    return image


def doc_images(doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None) -> list[Image.Image]:
    """All images of a record (its ``images`` field), in order: the default ``doc_to_visual``.

    lmms-eval calls a two-parameter ``doc_to_visual`` with the task's
    ``lmms_eval_specific_kwargs`` (``Task.doc_to_visual``, used by chat models to
    build messages) and with the document alone elsewhere; both work.
    """
    return [open_doc_image(path, doc.get("id", "?")) for path in doc.get("images") or []]


def decode_problem(path: str) -> str | None:
    """None if ``path`` decodes as an image (fully: truncation is found), else why not ("image file ... does not exist")."""
    try:
        with strict_decoding(), Image.open(path) as image:
            image.draft("RGB", (64, 64))  # JPEG: decode at 1/8 scale (every block is still read)
            image.load()
        return None
    except FileNotFoundError:
        return f"image file {path} does not exist"
    except Exception as err:  # PIL raises many types for broken files
        return f"image file {path} is not a readable image ({err})"


# libjpeg's warnings that pixels were lost: the scan data (the compressed pixels, between the start-of-scan
# marker and the end) is missing, cut short or damaged. libjpeg fills what it could not decode with grey
# and carries on; PIL never hears of it. Extraneous bytes before a header marker are harmless.
_LOST_SCAN_DATA = ("Corrupt JPEG data", "Premature end of JPEG file", "Invalid SOS parameters", "Inconsistent progression")
_SCAN_END_MARKERS = ("0xd9",) + tuple(f"0xd{i}" for i in range(8))  # end of image, restart markers


def scan_data_problem(path: str) -> str | None:
    """None unless ``path`` is a JPEG whose scan data is missing, cut short or damaged (it decodes, in
    part or wholly, as flat grey), else why. libjpeg-turbo's strict decode (``simplejpeg``) raises on
    the first warning; a harmless one found first (stray bytes in the header) hides any after it."""
    import simplejpeg

    with open(path, "rb") as handle:
        data = handle.read()
    if not data.startswith(b"\xff\xd8"):
        return None
    try:
        simplejpeg.decode_jpeg(data, strict=True, min_factor=8)
    except ValueError as err:
        message = str(err)
        if "extraneous bytes before marker" in message:  # harmless before a header marker, not in the scan
            lost = message.rstrip().endswith(_SCAN_END_MARKERS)
        else:
            lost = message.startswith(_LOST_SCAN_DATA)
        if lost:
            return f"image file {path} has missing or damaged JPEG scan data ({message}): parts decode as flat grey"
    return None


def full_decode_problem(path: str) -> str | None:
    """``decode_problem``, and for a JPEG ``scan_data_problem``: the check of ``chronotasks check-data``."""
    return decode_problem(path) or scan_data_problem(path)


def image_problem(path: str, record_id: Any = "?", field: str = "images") -> str | None:
    """``decode_problem`` naming the record and field."""
    problem = decode_problem(path)
    return problem and f"record {record_id!r}, field {field!r}: {problem}"


# a format's first bytes -> the bytes a complete file of it ends with
_COMPLETE_FILES = {
    b"\xff\xd8\xff": b"\xff\xd9",  # JPEG: SOI ... EOI marker
    b"\x89PNG\r\n\x1a\n": b"\x00\x00\x00\x00IEND\xaeB`\x82",
}  # PNG: signature ... IEND chunk


def header_problem(path: str) -> str | None:
    """``decode_problem`` at the cost of reading a file's first and last bytes: a JPEG or PNG that
    starts with its format's signature and ends as a complete file of it does (JPEG's end-of-image
    marker, PNG's IEND chunk) is taken as readable, so a missing, empty, foreign or truncated file
    is found without decoding (about 15 µs instead of milliseconds). Any other file (other formats,
    a JPEG with bytes after its end marker) is decoded to decide. Damage inside a complete file is
    left to the decode the model does, and to ``chronotasks check-data``, which decodes every pixel."""
    try:
        fd = os.open(path, os.O_RDONLY)  # (os-level reads: a third of the cost of a Python file object)
    except FileNotFoundError:
        return f"image file {path} does not exist"
    except OSError:
        return decode_problem(path)  # a folder, no permission: the decode says what
    try:
        head = os.pread(fd, 8, 0)
        for signature, ending in _COMPLETE_FILES.items():
            if head.startswith(signature):
                size = os.fstat(fd).st_size
                if size > len(signature) + len(ending) and os.pread(fd, len(ending), size - len(ending)) == ending:
                    return None
    except OSError:
        pass  # a device, a folder on some systems: the decode says what
    finally:
        os.close(fd)
    return decode_problem(path)


def image_failure(doc: dict[str, Any]) -> str | None:
    """Why an image of ``doc`` could not be used, or None. An image the model already opened in
    this process is judged by that decode; others (a baseline never opens them) by their header and
    ending (``header_problem``): ``chronotasks check-data`` decodes every pixel before a run."""
    for path in doc.get("images") or []:
        if path not in _image_status:
            problem = header_problem(path)
            _image_status[path] = problem and f"record {doc.get('id', '?')!r}, field 'images': {problem}"
        if _image_status[path]:
            return _image_status[path]
    return None


def scores_image_failures(process_results: Callable) -> Callable:
    """Decorate a task's ``process_results``: a sample with an image that could not be opened is
    scored as an empty reply (wrong; the model answered a placeholder), not counted as a parse
    failure, and counted in ``image_failure`` (listed in each task's metric_list). Every score of a
    sample that failed (image or reply) is marked as such (``chronotasks.failures.mark_failures``),
    so a task's aggregations can tell a failed task from one that scored 0. The record's
    ``data_origin`` (demo data) is logged beside the metrics (``origin_of``)."""

    @functools.wraps(process_results)
    def wrapped(doc: dict[str, Any], results: list[Any]) -> dict[str, Any]:
        if image_failure(doc) is None:
            return {**mark_failures({**process_results(doc, results), "image_failure": 0.0}), **origin_of(doc)}
        scored = process_results(doc, [""] * max(1, len(results)))
        if "parse_failure" in scored:
            scored["parse_failure"] = 0.0
        return {**mark_failures({**scored, "image_failure": 1.0}), **origin_of(doc)}

    return wrapped
