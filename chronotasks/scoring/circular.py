"""CircularEval (MMBench / VLMEvalKit): a multiple-choice question is asked once per circular
shift of its options and counts as right only when every shift is answered right.

Per-sample items (what a circular task's ``process_results`` returns for these metrics):

    {"question": <id of the original question>, "rotation": r, "n": N,
     "correct": 0.0 | 1.0, "choice": <position letter the reply chose> | None}

- circular accuracy: the share of questions whose N rotations are all right. Only questions
  with all N rotations present are counted (``--limit`` may cut one short);
- choice rate of a position: the share of parsed replies that chose that letter. Over the N
  rotations of a question the gold answer sits at every position once, so an unbiased model
  chooses each letter 1/N of the time;
- position bias: the total variation distance between the choice rates and the uniform 1/N,
  ``0.5 * sum_i |rate_i - 1/N|``: 0 for no preference, ``1 - 1/N`` for a model that always
  answers the same letter.
"""

from __future__ import annotations

import math
import string
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any


def rotation_of(n: int, r: int) -> list[int]:
    """Source index of each position after shifting ``n`` options by ``r``: position i shows option (i + r) % n."""
    return [(i + r) % n for i in range(n)]


def rotated_letter(letter: str, n: int, r: int) -> str:
    """Where the option at ``letter`` sits after the shift by ``r`` (``rotation_of``)."""
    return string.ascii_uppercase[(string.ascii_uppercase.index(letter) - r) % n]


def question_correct(rotations: Sequence[Mapping[str, Any]]) -> float | None:
    """1.0 when the question's rotations are all present and all right, 0.0 when present and one is
    wrong, None when some rotation is missing (not scorable)."""
    if not rotations:
        return None
    n = int(rotations[0]["n"])
    if {int(item["rotation"]) for item in rotations} != set(range(n)):
        return None
    return float(all(float(item["correct"]) == 1.0 for item in rotations))


def by_question(items: Iterable[Mapping[str, Any]]) -> dict[Any, list[Mapping[str, Any]]]:
    groups: dict[Any, list[Mapping[str, Any]]] = defaultdict(list)
    for item in items:
        groups[item["question"]].append(item)
    return dict(groups)


def circular_accuracy(items: Iterable[Mapping[str, Any]]) -> float:
    """Share of questions with every rotation right (complete questions only); NaN for none."""
    scores = [s for s in (question_correct(group) for group in by_question(items).values()) if s is not None]
    return sum(scores) / len(scores) if scores else math.nan


def choice_rates(items: Iterable[Mapping[str, Any]]) -> dict[str, float]:
    """Share of parsed replies choosing each position letter (A.. up to the items' n); NaN letters if none parsed."""
    items = list(items)
    n = max((int(item["n"]) for item in items), default=0)
    letters = string.ascii_uppercase[:n]
    chosen = [item["choice"] for item in items if item.get("choice") is not None]
    if not chosen:
        return {letter: math.nan for letter in letters}
    return {letter: sum(c == letter for c in chosen) / len(chosen) for letter in letters}


def position_bias(items: Iterable[Mapping[str, Any]]) -> float:
    """Total variation distance between the choice rates and uniform (see module doc); NaN if nothing parsed."""
    rates = choice_rates(items)
    if not rates or any(math.isnan(r) for r in rates.values()):
        return math.nan
    return 0.5 * sum(abs(r - 1.0 / len(rates)) for r in rates.values())


__all__ = ["by_question", "choice_rates", "circular_accuracy", "position_bias", "question_correct", "rotated_letter", "rotation_of"]
