"""TempViz release rows -> task records.

One record is one T2I prompt (one of the four paraphrases of Table 5, or the
artworks' category-specific templates). The release's per-category CSVs
(``tempviz/<Category>.csv``) already hold the instantiated prompt of every
(subject, temporal cue, paraphrase); we keep the release's prompt text (trailing
spaces stripped) and add the fields the tasks and judges need:

    id                "<Category>-<index>" (index = the release's ``index`` column)
    category          Landscapes | Animals | Buildings | Maps | Artworks
    index             the release index (rows of judge/annotation files align on it)
    prompt            the full prompt given to the T2I model
    prompt_body       the prompt without its imperative prefix (§4.2: CLIPScore/caption text)
    imperative        Create | Give me | Generate | Produce
    subject           the subject s_i (for Maps: "map of <place>"; for artworks: the style)
    temporal_cue      the temporal cue t_i as worded in the prompt ("in january", "one month old", ...)
    temporal_kind     the release's promptcategory (Seasonality, youth, before, maps, year, ...)
    template          the release's template string
    expected_values   Appendix A.4 expected values (list; empty where the release has none)
    reference_images  reference image URLs / release-relative paths (list; may be empty)
    images            [] (the T2I model gets no input image)
    answer_space      {"kind": "text"} (the "answer" is an image)
"""

from __future__ import annotations

import csv
import math
import re
from pathlib import Path
from typing import Any

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import DataError
from chronotasks.scoring.t2i import strip_imperative

_CUE_PATTERNS = {
    "Landscapes": re.compile(r"\bin europe\s+(.+?)\s*$", re.IGNORECASE),
    "Animals": re.compile(r"\bthat is\s+(.+?\bold)\.?\s*$", re.IGNORECASE),
    "Buildings": re.compile(r"\b((?:before|after|on)\s+\S+)\s*$", re.IGNORECASE),
    "Maps": re.compile(r"\bin\s+(\S+)\s*$", re.IGNORECASE),
    "Artworks": re.compile(r"(\d+\s*(?:AC|BC|AD|BCE|CE))\.?\s*$"),
}


def _text(value: Any) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    return str(value).strip()


def _split_list(value: Any) -> list[str]:
    """A comma-separated release cell as a list, duplicates removed, order kept."""
    seen: dict[str, None] = {}
    for part in _text(value).split(","):
        part = part.strip()
        if part and part.lower() != "nan":
            seen.setdefault(part, None)
    return list(seen)


def _get(row: dict[str, str], *names: str) -> str:
    for name in names:
        if _text(row.get(name)):
            return _text(row.get(name))
    return ""


def temporal_cue(category: str, row: dict[str, str], prompt: str) -> str:
    """The temporal cue t_i as the prompt words it; for artwork period prompts, the period name."""
    if category == "Artworks" and _text(row.get("promptcategory")) == "period":
        return _text(row.get("subject"))
    match = _CUE_PATTERNS[category].search(prompt)
    if match:
        return match.group(1).strip()
    fallback = {
        "Landscapes": ("temporalvalue", "daytimevalue"),
        "Animals": ("time",),
        "Buildings": ("DemolitionDate",),
        "Maps": ("suggestion",),
        "Artworks": ("time",),
    }[category]
    return _get(row, *fallback)


def subject(category: str, row: dict[str, str]) -> str:
    if category == "Maps":
        return f"map of {_text(row.get('place'))}"
    if category == "Buildings":
        country = _text(row.get("BuildingCountry"))
        return f"{_text(row.get('subject'))} ({country})" if country else _text(row.get("subject"))
    return _text(row.get("subject"))


def row_to_record(category: str, row: dict[str, str], where: str) -> dict[str, Any]:
    """One release CSV row as a task record; ``where`` names file and line in errors."""
    index = _text(row.get("index"))
    prompt = _text(row.get("prompt"))
    if not index:
        raise DataError(f"{where}: field 'index' is empty")
    if not prompt:
        raise DataError(f"{where} (index {index}): field 'prompt' is empty")
    try:
        index_int = int(float(index))
    except ValueError as err:
        raise DataError(f"{where}: field 'index' is not an integer: {index!r}") from err
    imperative = _get(row, "imperative", "Imperative")
    references = _split_list(row.get("goldenrecordImages")) + _split_list(row.get("goldenrecordImages.1"))
    return {
        "id": f"{category}-{index_int}",
        "category": category,
        "index": index_int,
        "prompt": prompt,
        "prompt_body": strip_imperative(prompt),
        "imperative": imperative,
        "subject": subject(category, row),
        "temporal_cue": temporal_cue(category, row, prompt),
        "temporal_kind": _text(row.get("promptcategory")),
        "template": _get(row, "prompttemplate", "PromptTemplate"),
        "difficulty": int(float(row["difficulty"])) if _text(row.get("difficulty")) else None,
        "expected_values": _split_list(row.get("expectedValue")),
        "reference_images": references,
        "images": [],
        "answer_space": AnswerSpace(kind="text").to_json(),
    }


def read_category_csv(path: Path, category: str) -> list[dict[str, Any]]:
    """All records of one release CSV, in file order; bad rows raise DataError naming file and line."""
    records = []
    with open(path, encoding="utf-8", newline="") as handle:
        reader = csv.DictReader(handle)
        missing = [name for name in ("index", "prompt") if name not in (reader.fieldnames or [])]
        if missing:
            raise DataError(f"{path}: missing column(s) {', '.join(missing)}")
        for line, row in enumerate(reader, start=2):
            records.append(row_to_record(category, row, f"{path}:{line}"))
    ids = [r["id"] for r in records]
    if len(set(ids)) != len(ids):
        dupes = sorted({i for i in ids if ids.count(i) > 1})[:5]
        raise DataError(f"{path}: duplicate index values {dupes}")
    return records
