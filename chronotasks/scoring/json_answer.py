"""Answers given inside a JSON object.

Models asked for letters sometimes reply ``{"answer": ["C", "D"]}`` or a
fenced ```json block with a reasoning field. ``unwrap_json_answer`` pulls out
the answer field as plain text so the ordinary letter parsers read it; any
other reply is returned unchanged.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from chronotasks.scoring.parsing import extract_json

ANSWER_KEYS = ("answer", "final_answer", "answers", "sequence", "order", "ordering", "selection", "selected",
               "choice", "choices", "letters", "option", "options")


def unwrap_json_answer(text: Any, keys: Iterable[str] = ANSWER_KEYS) -> Any:
    """The answer field of a JSON reply as text ("C, D" for ["C", "D"]), else ``text`` unchanged."""
    obj = extract_json(text)
    if not isinstance(obj, dict):
        return text
    lowered = {str(k).strip().lower(): v for k, v in obj.items()}
    for key in keys:
        if key in lowered:
            value = lowered[key]
            if isinstance(value, (list, tuple)):
                return ", ".join(str(v).strip() for v in value)
            if isinstance(value, (str, int, float)) and not isinstance(value, bool):
                return str(value)
    return text


__all__ = ["ANSWER_KEYS", "unwrap_json_answer"]
