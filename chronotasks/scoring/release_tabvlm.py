"""TAB-VLM's release scoring, rule for rule: how the release code reads a reply and counts it.

Re-implemented from reading the release (github.com/KHUSHBOO0012/tab-vlm, read at commit 809366a):

- ``src/eval/inference.py``, ``VLMInference.extract_answer``: the answer read from a reply to the
  release's numbered-option prompts (``src/eval/data_prep.py``, ``DataPreparation.prepare_prompt``);
- ``src/eval/main.py``, ``TemporalAnomalyEvaluator.process_question``: a reply that is empty (or
  whose reading raises) is an unsuccessful question, and ``calculate_metrics`` counts accuracy over
  the successful questions only, so such a reply is left out of the denominator, not scored wrong.

The release's answers are 0-based option indices: an int for the single-answer types, a list of
ints for the multi-select types and the sequence. Its rules, including the quirks a careful grader
would not share (see the divergence table in chronotasks/tasks/tabvlm/README.md):

- odd-one-out: a number at the very start wins if it is 1-4; else the first "artifact N" with N in
  1-4; else the first stand-alone number 1-4 ("N", "N)", "N." between spaces or at the ends);
- material / technique: every digit 1-4 in the first 100 characters, in order, without repeats
  (digits inside dates and words count: "1857" reads as option 1);
- grouping: the first three distinct digits 1-5 in the first 200 characters, else nothing;
- sequence: the first run "d, d, d, d" of digits 1-4 anywhere, else the first four digits 1-4 in
  the first 100 characters (repeats allowed), else nothing;
- style-period: the first digit 1-4 after "option" / "choice" / "answer" (with optional "is" and
  ":"), else the first stand-alone digit 1-4; so "1 or 3" reads as 1.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

QUESTION_TYPES = (
    "odd_one_out_period",
    "manufacturing_technique",
    "material_availability",
    "period_grouping",
    "chronological_sequence",
    "style_period_attribution",
)
SINGLE = ("odd_one_out_period", "style_period_attribution")
SETS = ("manufacturing_technique", "material_availability", "period_grouping")

_LEADING_NUMBER = re.compile(r"^(\d+)")
_ODD_ONE_OUT = (re.compile(r"artifact\s*(\d+)"), re.compile(r"(?:^|\s)(\d+)(?:\)|\.|\s|$)"))
_STYLE_PERIOD = (re.compile(r"(?:option|choice|answer)(?:\s+is)?:?\s*([1-4])"), re.compile(r"(?:^|\s)([1-4])(?:\)|\.|\s|$)"))
_SEQUENCE_RUN = re.compile(r"([1-4]\s*,\s*[1-4]\s*,\s*[1-4]\s*,\s*[1-4])")
_DIGIT_1_4 = re.compile(r"[1-4]")
_DIGIT_1_5 = re.compile(r"[1-5]")


@dataclass(frozen=True)
class ReleaseReading:
    """What the release makes of one reply: ``answer`` as ``extract_answer`` returns it (0-based), and
    ``dropped`` when the release leaves the question out of its counts (an empty reply, or a reading
    that raises)."""

    answer: Any
    dropped: bool = False


def _first_in_range(found: Sequence[str], lo: int, hi: int) -> int | None:
    for number in map(int, found):  # int() of a 4,301-digit number raises ValueError, as in the release
        if lo <= number <= hi:
            return number - 1
    return None


def _odd_one_out(text: str) -> int | None:
    lead = _LEADING_NUMBER.match(text)
    if lead and 1 <= int(lead.group(1)) <= 4:
        return int(lead.group(1)) - 1
    lowered = text.lower()
    for pattern in _ODD_ONE_OUT:
        index = _first_in_range(pattern.findall(lowered), 1, 4)
        if index is not None:
            return index
    return None


def _distinct_digits(text: str, pattern: re.Pattern, limit: int | None = None) -> list[int]:
    found: list[int] = []
    for digit in pattern.findall(text):
        if int(digit) - 1 not in found:
            found.append(int(digit) - 1)
            if limit is not None and len(found) >= limit:
                break
    return found


def _grouping(text: str) -> list[int]:
    found = _distinct_digits(text[:200], _DIGIT_1_5, limit=3)
    return found if len(found) >= 3 else []


def _sequence(text: str) -> list[int]:
    run = _SEQUENCE_RUN.search(text)
    if run:
        return [int(d) - 1 for d in _DIGIT_1_4.findall(run.group(1))]
    digits = _DIGIT_1_4.findall(text[:100])
    return [int(d) - 1 for d in digits[:4]] if len(digits) >= 4 else []


def _style_period(text: str) -> int | None:
    lowered = text.lower()
    for pattern in _STYLE_PERIOD:
        found = pattern.findall(lowered)
        if found:
            return int(found[0]) - 1
    return None


_READERS = {
    "odd_one_out_period": _odd_one_out,
    "manufacturing_technique": lambda text: _distinct_digits(text[:100], _DIGIT_1_4),
    "material_availability": lambda text: _distinct_digits(text[:100], _DIGIT_1_4),
    "period_grouping": _grouping,
    "chronological_sequence": _sequence,
    "style_period_attribution": _style_period,
}


def read_release(question_type: str, reply: Any) -> ReleaseReading:
    """The release's reading of ``reply`` to a question of ``question_type`` (the release's names)."""
    if question_type not in _READERS:
        raise ValueError(f"unknown TAB-VLM question type {question_type!r}; expected one of {QUESTION_TYPES}")
    if not reply:  # process_question: "No response from model" -> unsuccessful, out of the counts
        return ReleaseReading(None, dropped=True)
    try:
        return ReleaseReading(_READERS[question_type](str(reply).strip()))
    except ValueError:  # an exception in process_question also makes the question unsuccessful
        return ReleaseReading(None, dropped=True)


def is_correct(question_type: str, answer: Any, gold: Any) -> bool:
    """main.py's comparison: equal index for the single-answer types, equal sets for the multi-select
    types, the equal list for the sequence; no answer (None) is wrong."""
    if answer is None:
        return False
    if question_type in SETS:
        return set(answer) == set(gold)
    return answer == gold


def release_score(question_type: str, reply: Any, gold: Any) -> float | None:
    """1.0 / 0.0 as the release counts the reply, or None when the release leaves it out (its
    accuracy is the mean over the non-None values). ``gold``: 0-based, as the release stores it
    (``correct_index`` int, ``correct_indices`` / ``correct_sequence`` lists)."""
    reading = read_release(question_type, reply)
    if reading.dropped:
        return None
    return float(is_correct(question_type, reading.answer, gold))


def overall_accuracy(tasks: Iterable[tuple[float, int, float]]) -> float:
    """The release's overall accuracy (main.py ``calculate_metrics``: correct / answered over all
    question types) from each task's (accuracy_release, number of questions, dropped_release)."""
    answered = [(accuracy, n * (1.0 - dropped)) for accuracy, n, dropped in tasks]
    total = sum(count for _, count in answered if count)
    return sum(accuracy * count for accuracy, count in answered if count) / total if total else math.nan


def gold_indices(answer: str | Sequence[str]) -> int | list[int]:
    """Option letters as the release's 0-based indices: "C" -> 2, ["B", "D"] -> [1, 3]."""
    if isinstance(answer, str):
        return ord(answer) - ord("A")
    return [ord(letter) - ord("A") for letter in answer]


__all__ = ["QUESTION_TYPES", "ReleaseReading", "gold_indices", "is_correct", "overall_accuracy", "read_release", "release_score"]
