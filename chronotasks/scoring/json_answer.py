"""Answers given inside JSON.

Models asked for letters sometimes reply ``{"answer": ["C", "D"]}`` or a fenced ```json block
with a reasoning field; models asked for JSON sometimes give two objects. ``json_answer_text``
returns the answer field as plain text for the ordinary parsers: the one answer object, or the one
marked final ("Final answer: {...}") when there are several that disagree (else "", no answer).

``extract_json`` / ``extract_json_array``: the first JSON object / array in a text (fenced or amid
prose, a trailing comma tolerated). Brackets inside JSON strings are skipped. The scan looks only
at bracket and quote characters, so a long reply costs little.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

ANSWER_KEYS = ("answer", "final_answer", "final answer", "answers", "sequence", "order", "ordering", "selection", "selected",
               "choice", "choices", "letters", "option", "options")
_TOKENS = re.compile(r'[{}\[\]"\\]')
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
_FINAL = re.compile(r"\bfinal\b|最终|最后", re.IGNORECASE)


def _balanced(s: str, open_ch: str, close_ch: str) -> Iterator[tuple[int, int]]:
    """(start, end) of each top-level span of s from ``open_ch`` to its matching ``close_ch``."""
    depth, start, in_str, escape_at = 0, -1, False, -2
    for m in _TOKENS.finditer(s):
        ch, i = m.group(0), m.start()
        if in_str:
            if i == escape_at + 1:  # the character after a backslash
                continue
            if ch == "\\":
                escape_at = i
            elif ch == '"':
                in_str = False
            continue
        if ch == '"':
            in_str = depth > 0
        elif ch == open_ch:
            if depth == 0:
                start = i
            depth += 1
        elif ch == close_ch and depth > 0:
            depth -= 1
            if depth == 0:
                yield start, i + 1


def _loads(candidate: str) -> Any:
    for attempt in (candidate, _TRAILING_COMMA.sub(r"\1", candidate)):
        try:
            return json.loads(attempt)
        except (json.JSONDecodeError, ValueError, RecursionError):
            continue
    return None


def json_values(text: Any, open_ch: str = "{", close_ch: str = "}", kind: type = dict) -> list[tuple[int, Any]]:
    """(position, value) of every top-level JSON ``kind`` in text."""
    s = "" if text is None else str(text)
    if open_ch not in s:
        return []
    found = []
    for start, end in _balanced(s, open_ch, close_ch):
        value = _loads(s[start:end])
        if isinstance(value, kind):
            found.append((start, value))
    return found


def extract_json(text: Any) -> dict | None:
    """The first JSON object in text (inside ```json fences or amid prose), or None."""
    found = json_values(text)
    return found[0][1] if found else None


def extract_json_array(text: Any) -> list | None:
    """The first JSON array in text (inside ```json fences or amid prose), or None."""
    found = json_values(text, "[", "]", list)
    return found[0][1] if found else None


def _as_text(value: Any) -> str | None:
    if isinstance(value, (list, tuple)):
        return ", ".join(str(v).strip() for v in value)
    if value is None or isinstance(value, bool):
        return ""
    if isinstance(value, (str, int, float)):
        return str(value)
    return None


def json_answer_text(text: Any, keys: Iterable[str] = ANSWER_KEYS) -> str | None:
    """The answer field of a JSON reply as text ("C, D" for ["C", "D"]); None when the reply has no
    JSON answer; "" (no answer) when several JSON answers disagree and none is marked final."""
    s = "" if text is None else str(text)
    keys = tuple(keys)
    answers = []
    for pos, obj in json_values(s):
        lowered = {str(k).strip().lower(): v for k, v in obj.items()}
        for key in keys:
            if key in lowered:
                value = _as_text(lowered[key])
                if value is not None:
                    answers.append((pos, value))
                break
    if not answers:
        stripped = s.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            array = extract_json_array(stripped)
            if array is not None and all(isinstance(v, (str, int)) for v in array):
                return ", ".join(str(v).strip() for v in array)
        return None
    distinct = {a for _, a in answers}
    if len(distinct) == 1:
        return answers[0][1]
    final = [a for pos, a in answers if _FINAL.search(s[max(0, pos - 40):pos])]
    return final[-1] if len(set(final)) == 1 else ""


def unwrap_json_answer(text: Any, keys: Iterable[str] = ANSWER_KEYS) -> Any:
    """The answer field of a JSON reply as text, else ``text`` unchanged."""
    found = json_answer_text(text, keys)
    return text if found is None else found


__all__ = ["ANSWER_KEYS", "extract_json", "extract_json_array", "json_answer_text", "json_values", "unwrap_json_answer"]
