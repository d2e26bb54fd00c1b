"""The six TAB-VLM task types, the period taxonomy, and the conversion of one
release question into the record a task reads.

Release format (temporal_anomaly_benchmark.json, ``questions[]``): each
question has ``question_id``, ``question_type``, ``question_text``,
``options``, either ``artifact`` (one image) or ``artifacts`` (several), each
with ``image_url``, ``alt_image_url`` and catalog ``metadata``, and the answer
as ``correct_index``, ``correct_indices`` or ``correct_sequence`` (0-based
image indices, oldest to newest).

Record format (one JSON line per question, ``$CHRONOTASKS_DATA/tabvlm/<file>``):

    id, question_type, question          the release's id, type and question text
    images                               image paths relative to the tabvlm folder, in option order
    options                              option texts (material, technique, style-period); the
                                         artifact titles for the multi-image tasks (never shown)
    answer                               "B" | ["C", "D"] | ["B", "D", "A", "C"] (letters)
    answer_space                         AnswerSpace JSON (letter / letter_set / ordering / k_of_n)
    periods, period_ranks                per image: canonical period (Table 2) and its rank 0..7
    object_types, main_materials         per image: catalog metadata (only the metadata variant shows them)
    period                               style-period only: the gold period (Table 9 rows)
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from chronotasks.data.answer_space import AnswerSpace

LETTERS = "ABCDEFGHIJ"

# Table 2 (after McLeod, 2015): eight periods, oldest first. The release writes
# some bounds differently ("1526 - 1858 AD"); records use these names.
PERIODS: tuple[str, ...] = (
    "Prehistoric Period (Before 3300 BCE)",
    "Bronze Age (3300 - 1800 BCE)",
    "Iron Age (1800 - 200 BCE)",
    "Classical Period (200 BCE - 650 AD)",
    "Early Medieval Period (650 - 1200 AD)",
    "Late Medieval Period (1200 - 1526 AD)",
    "Early Modern Period (1526 - 1857 AD)",
    "Modern India (1857 AD - Present)",
)
PERIOD_KEYS: tuple[str, ...] = (
    "prehistoric",
    "bronze_age",
    "iron_age",
    "classical",
    "early_medieval",
    "late_medieval",
    "early_modern",
    "modern_india",
)
_PERIOD_PREFIXES = ("prehistoric", "bronze age", "iron age", "classical", "early medieval", "late medieval", "early modern", "modern india")


def period_rank(name: str) -> int:
    """Rank 0..7 of a period name as the release writes it ("Early Modern Period (1526 - 1858 AD)" -> 6)."""
    text = re.sub(r"\s+", " ", str(name or "")).strip().lower()
    for rank, prefix in enumerate(_PERIOD_PREFIXES):
        if text.startswith(prefix):
            return rank
    raise ValueError(f"unknown period {name!r}; expected one of the eight periods of Table 2")


def canonical_period(name: str) -> str:
    return PERIODS[period_rank(name)]


@dataclass(frozen=True)
class TaskType:
    question_type: str  # the release's question_type
    task: str  # lmms-eval task name
    file: str  # task file under $CHRONOTASKS_DATA/tabvlm/
    template: str  # prompts/tabvlm/<template>
    n_images: int
    n_options: int
    answer_space: AnswerSpace
    title: str  # Table 1 column


TASK_TYPES: tuple[TaskType, ...] = (
    TaskType(
        "style_period_attribution",
        "tabvlm_style_period",
        "style_period.jsonl",
        "tabvlm/style_period.j2",
        1,
        4,
        AnswerSpace("letter", n=4),
        "Style-Period Attribution",
    ),
    TaskType(
        "chronological_sequence",
        "tabvlm_sequence",
        "sequence.jsonl",
        "tabvlm/sequence.j2",
        4,
        4,
        AnswerSpace("ordering", n=4),
        "Chronological Sequence",
    ),
    TaskType(
        "manufacturing_technique",
        "tabvlm_technique",
        "technique.jsonl",
        "tabvlm/technique.j2",
        1,
        4,
        AnswerSpace("letter_set", n=4, asks="available"),
        "Manufacturing Technique",
    ),
    TaskType(
        "material_availability",
        "tabvlm_material",
        "material.jsonl",
        "tabvlm/material.j2",
        1,
        4,
        AnswerSpace("letter_set", n=4, asks="unavailable"),
        "Material Availability",
    ),
    TaskType(
        "period_grouping",
        "tabvlm_grouping",
        "grouping.jsonl",
        "tabvlm/grouping.j2",
        5,
        5,
        AnswerSpace("k_of_n", n=5, k=3),
        "Period Grouping",
    ),
    TaskType(
        "odd_one_out_period",
        "tabvlm_odd_one_out",
        "odd_one_out.jsonl",
        "tabvlm/odd_one_out.j2",
        4,
        4,
        AnswerSpace("letter", n=4),
        "Odd-One-Out Period",
    ),
)
BY_QUESTION_TYPE = {t.question_type: t for t in TASK_TYPES}
BY_TASK = {t.task: t for t in TASK_TYPES}


def artifacts_of(question: dict[str, Any]) -> list[dict[str, Any]]:
    """The artifacts of a question, in option order (``artifact`` or ``artifacts``)."""
    if isinstance(question.get("artifacts"), list):
        return question["artifacts"]
    if isinstance(question.get("artifact"), dict):
        return [question["artifact"]]
    raise ValueError("has neither 'artifact' nor 'artifacts'")


def _meta(artifact: dict[str, Any], key: str) -> str:
    value = (artifact.get("metadata") or {}).get(key)
    text = re.sub(r"\s+", " ", str(value)).strip() if value is not None else ""
    return "unknown" if text.lower() in ("", "nan", "none", "n.a.", "not known") else text


def _letters(indices: Any, n: int, field: str) -> list[str]:
    if not isinstance(indices, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in indices):
        raise ValueError(f"field {field!r} must be a list of integers, got {indices!r}")
    if any(not 0 <= i < n for i in indices) or len(set(indices)) != len(indices):
        raise ValueError(f"field {field!r} has indices out of range 0..{n - 1} or repeated: {indices!r}")
    return [LETTERS[i] for i in indices]


def convert_question(question: dict[str, Any], image_paths: list[str]) -> dict[str, Any]:
    """One release question -> one task record. ``image_paths`` are the resolved
    images (relative to the benchmark folder), one per artifact in order.

    Raises ValueError naming the field when the question is malformed.
    """
    qtype = question.get("question_type")
    spec = BY_QUESTION_TYPE.get(qtype)
    if spec is None:
        raise ValueError(f"unknown question_type {qtype!r}")
    artifacts = artifacts_of(question)
    if len(artifacts) != spec.n_images:
        raise ValueError(f"{qtype} needs {spec.n_images} artifact(s), has {len(artifacts)}")
    if len(image_paths) != len(artifacts):
        raise ValueError("one image per artifact is needed")
    options = question.get("options")
    if not isinstance(options, list) or len(options) != spec.n_options:
        raise ValueError(f"field 'options' must list {spec.n_options} options, got {options!r}")
    periods = [canonical_period(_meta(a, "simplified_period")) for a in artifacts]
    record: dict[str, Any] = {
        "id": str(question.get("question_id") or ""),
        "question_type": qtype,
        "question": str(question.get("question_text") or ""),
        "images": list(image_paths),
        "options": [str(o) for o in options],
        "answer_space": spec.answer_space.to_json(),
        "periods": periods,
        "period_ranks": [PERIODS.index(p) for p in periods],
        "object_types": [_meta(a, "object_type") for a in artifacts],
        "main_materials": [_meta(a, "main_material") for a in artifacts],
    }
    if not record["id"]:
        raise ValueError("field 'question_id' is missing")
    kind = spec.answer_space.kind
    if kind == "letter":
        index = question.get("correct_index")
        record["answer"] = _letters([index], spec.n_options, "correct_index")[0]
    elif kind == "ordering":
        order = _letters(question.get("correct_sequence"), spec.n_options, "correct_sequence")
        if len(order) != spec.n_options:
            raise ValueError(f"field 'correct_sequence' must order all {spec.n_options} artifacts")
        ranks = [record["period_ranks"][LETTERS.index(ch)] for ch in order]
        if ranks != sorted(ranks):
            raise ValueError(f"field 'correct_sequence' {order} contradicts the artifacts' periods")
        record["answer"] = order
    else:
        chosen = _letters(question.get("correct_indices"), spec.n_options, "correct_indices")
        if kind == "k_of_n" and len(chosen) != spec.answer_space.k:
            raise ValueError(f"field 'correct_indices' must name {spec.answer_space.k} artifacts")
        record["answer"] = sorted(chosen)
    if qtype == "style_period_attribution":
        for option in options:  # every option is a period (the period distance of an answer needs it)
            canonical_period(option)
        gold = canonical_period(options[LETTERS.index(record["answer"])])
        if gold != periods[0]:
            raise ValueError(f"the correct option {gold!r} is not the artifact's period {periods[0]!r}")
        record["period"] = gold
    return record


__all__ = [
    "BY_QUESTION_TYPE",
    "BY_TASK",
    "LETTERS",
    "PERIODS",
    "PERIOD_KEYS",
    "TASK_TYPES",
    "TaskType",
    "artifacts_of",
    "canonical_period",
    "convert_question",
    "period_rank",
]
