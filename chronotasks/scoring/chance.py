"""Chance levels: what a uniformly random answer scores, worked out from the answer space.

The answer space is given as the records store it (``answer_space``: a JSON string or the dict,
e.g. ``{"kind": "letter", "n": 4}``; see chronotasks/data/answer_space.py). A random answer is
uniform over the space, as the ``chrono_random`` baseline draws it: one of n letters, any of the
2^n subsets (the empty set included), one of the C(n, k) k-subsets, one of the n! orderings, one
year of [lo, hi], one listed choice. So the chance accuracy of a 4-option letter is 1/4, of a
4-option set 1/16 (the papers' 6.25%), of 3 of 5 1/10, of a 4-item ordering 1/24 (4.2%); the
expected Kendall tau of a random ordering is 0.

``chance_level(metric, space, gold)`` gives one record's chance value of a metric (``gold`` is
needed where it depends on the gold answer: F1, Jaccard, year error); ``mean_chance`` averages it
over a task's records, which is the chance level of the task's figure.
"""

from __future__ import annotations

import itertools
import json
import math
import string
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from chronotasks.scoring.chinese_periods import PERIODS
from chronotasks.scoring.metrics import jaccard, kendall_tau, multilabel_f1


def _space(space: Mapping[str, Any] | str) -> dict[str, Any]:
    data = json.loads(space) if isinstance(space, str) else dict(space)
    if "kind" not in data:
        raise ValueError(f"answer space {space!r} has no 'kind'")
    return data


def answers(space: Mapping[str, Any] | str) -> list[Any]:
    """Every answer of the space, each as likely as the others under the random baseline."""
    s = _space(space)
    kind, n = s["kind"], s.get("n")
    letters = string.ascii_uppercase[: n or 0]
    if kind == "letter":
        return list(letters)
    if kind == "letter_set":
        return [frozenset(c) for r in range(len(letters) + 1) for c in itertools.combinations(letters, r)]
    if kind == "k_of_n":
        return [frozenset(c) for c in itertools.combinations(letters, s["k"])]
    if kind == "ordering":
        items = list(letters) if s.get("base") is None else list(range(s["base"], s["base"] + n))
        return list(itertools.permutations(items))
    if kind == "year":
        return list(range(int(s["lo"]), int(s["hi"]) + 1))
    if kind == "choice":
        return [str(c) for c in s["choices"]]
    if kind == "dynasty":
        return list(PERIODS)
    raise ValueError(f"an answer space of kind {kind!r} has no random answer")


def answer_count(space: Mapping[str, Any] | str) -> int:
    """How many answers the space has (the inverse of the chance accuracy)."""
    s = _space(space)
    kind = s["kind"]
    n: Any = s.get("n")  # an int for the kinds counted by it
    counts = {
        "letter": lambda: n,
        "letter_set": lambda: 2**n,
        "k_of_n": lambda: math.comb(n, s["k"]),
        "ordering": lambda: math.factorial(n),
        "year": lambda: int(s["hi"]) - int(s["lo"]) + 1,
        "choice": lambda: len(s["choices"]),
        "dynasty": lambda: len(PERIODS),
    }
    if kind not in counts:
        raise ValueError(f"an answer space of kind {kind!r} has no random answer")
    return int(counts[kind]())


def expected_score(space: Mapping[str, Any] | str, score: Callable[[Any, Any], float], gold: Any) -> float:
    """The mean of ``score(answer, gold)`` over every answer of the space."""
    values = [score(answer, gold) for answer in answers(space)]
    return math.fsum(values) / len(values)


def _year_error(answer: int, gold: Any) -> float:
    return float(abs(answer - int(gold)))


# metric -> score(answer, gold) whose mean over the space is the chance value; "accuracy" has a closed form.
_EXPECTED: dict[str, Callable[[Any, Any], float]] = {
    "kendall_tau": lambda answer, gold: kendall_tau(answer, gold),
    "f1": lambda answer, gold: multilabel_f1(answer, gold),
    "jaccard": lambda answer, gold: jaccard(answer, gold),
    "MAE": _year_error,
}
METRICS = ("accuracy", *_EXPECTED)


def chance_level(metric: str, space: Mapping[str, Any] | str, gold: Any = None) -> float:
    """One record's chance value of ``metric``: "accuracy" (exact match: 1 / number of answers; the
    same for exact order, exact set, exact year), "kendall_tau" (0 for a random ordering), "f1" and
    "jaccard" (against ``gold``), "MAE" (expected |random year - gold| in years)."""
    if metric == "accuracy":
        return 1.0 / answer_count(space)
    if metric not in _EXPECTED:
        raise ValueError(f"no chance level for metric {metric!r}; known: {METRICS}")
    if gold is None and metric != "kendall_tau":
        raise ValueError(f"the chance level of {metric!r} depends on the gold answer; pass gold")
    if metric == "kendall_tau":
        gold = answers(space)[0]  # the same for every gold ordering
    return expected_score(space, _EXPECTED[metric], gold)


def mean_chance(metric: str, records: Iterable[tuple[Mapping[str, Any] | str, Any]]) -> float:
    """The chance level of a task's figure: ``chance_level`` averaged over its (space, gold) records."""
    values = [chance_level(metric, space, gold) for space, gold in records]
    return math.fsum(values) / len(values) if values else math.nan


__all__ = ["METRICS", "answer_count", "answers", "chance_level", "expected_score", "mean_chance"]
