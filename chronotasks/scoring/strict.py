"""The strict reading beside the flexible one (as lm-evaluation-harness reports strict-match beside
flexible-extract): the answer only when the reply gives it exactly in the form the prompt asks for, and
nothing else. ``strict_match`` is the task's accuracy counted only for such replies, so the gap between a
task's accuracy and its ``strict_match`` is what the flexible reading (``AnswerSpace.parse``) carries.

The forms, per answer kind (the reply with its surrounding blank space removed):
  letter        one option letter: "B" ("Answer with the option's letter ... directly"); numbered
                options: one number, "2"
  letter_set    the letters separated by commas, "A, C" (the empty set: "None"); numbered: "1, 3"
  k_of_n        the k letters separated by commas, "A, C, E"; numbered: "1, 3, 5"
  ordering      every item once, separated by commas: "A, C, B, D", "1, 3, 2, 4", "3,0,4,1,2"
  year          four digits: "1998"
  dynasty       a Table 6 period's Chinese name or its English name: "宋代", "Song"
  choice / JSON a JSON object (nothing around it) whose answer field holds the answer: {"answer": "1"}
``leads``: the prompt asks for the answer first and lets reasons follow ("Your answer must start with the
numbers ..."): the first line is that form. ``json_key``: the prompt asks for a JSON object with the answer
in this field ({"year": YYYY, "confidence": C}).
"""

from __future__ import annotations

import json
import re
from typing import Any

from chronotasks.scoring.chinese_periods import PERIODS, chinese_name

# ``space`` below: an ``AnswerSpace`` (chronotasks.data.answer_space; scoring imports nothing of the layers above it)
_LETTER_LIST = re.compile(r"[A-Z](?:, ?[A-Z])*")
_NUMBER_LIST = re.compile(r"\d(?:, ?\d)*")
_YEAR = re.compile(r"\d{4}")


def _plain(space: Any, text: str) -> Any:
    """The answer ``text`` gives when it is exactly the plain form of ``space``'s answers, else None."""
    if space.kind == "year":
        return int(text) if _YEAR.fullmatch(text) and space.lo <= int(text) <= space.hi else None
    if space.kind == "dynasty":
        return next((p for p in PERIODS if text in (p, chinese_name(p))), None)
    if space.kind == "choice":
        return text if text in space.choices else None
    numbers = space.numbered or space.base is not None
    if not (_NUMBER_LIST if numbers else _LETTER_LIST).fullmatch(text) and not (space.kind == "letter_set" and text == "None"):
        return None
    if len(text) > 1 and space.kind == "letter":
        return None
    value = space.parse(text)  # (these forms are read exactly; the reading validates them against the space)
    return value if value is not None and space.format(value).replace(" ", "") == _canonical(space, text) else None


def _canonical(space: Any, text: str) -> str:
    """``text`` as ``format`` writes the same answer (a set's members sorted), without spaces."""
    items = text.replace(" ", "").split(",")
    return ",".join(sorted(items)) if space.kind in ("letter_set", "k_of_n") else ",".join(items)


def strict_reading(space: Any, reply: Any, json_key: str | None = None, leads: bool = False) -> Any:
    """The answer ``reply`` gives exactly in the form its prompt asks for (see the module docstring), else None."""
    if not isinstance(reply, str):
        return None
    text = reply.strip()
    if space.kind == "choice" and json_key is None:
        json_key = space.key or "answer"
    if json_key is not None:
        try:
            obj = json.loads(text)
        except ValueError:
            return None
        field = obj.get(json_key) if isinstance(obj, dict) else None
        return None if isinstance(field, (bool, dict, list)) or field is None else _plain(space, str(field))
    if leads:
        text = text.split("\n", 1)[0].strip()
    return _plain(space, text)


def strict_match(space: Any, reply: Any, correct: float | None, json_key: str | None = None, leads: bool = False) -> float:
    """``correct`` (the sample's accuracy under the flexible reading) when the reply gives its answer exactly
    in the asked form, else 0.0."""
    if not correct or strict_reading(space, reply, json_key, leads) is None:
        return 0.0
    return float(correct)


__all__ = ["strict_match", "strict_reading"]
