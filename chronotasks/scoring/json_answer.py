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

import ast
import json
import re
from collections.abc import Iterable, Iterator
from typing import Any

ANSWER_KEYS = (
    "answer",
    "final_answer",
    "final answer",
    "finalanswer",
    "answers",
    "sequence",
    "order",
    "ordering",
    "selection",
    "selected",
    "choice",
    "choices",
    "letters",
    "option",
    "options",
    "答案",
    "最终答案",
    "选项",
    "回答",
    "答え",
    "답변",
    "정답",
    "réponse",
    "respuesta",
    "resposta",
    "risposta",
    "antwort",
    "ответ",
    "jawaban",
    "đáp án",
)
# A key that names the answer without being one of ANSWER_KEYS ("selected_option", "answer_letter",
# "最终选择"): used when no object has one of the keys asked for.
_ANSWER_LIKE = re.compile(
    r"answer|final|choice|chosen|select|option|pick|result|prediction|答案|选|结果|回答|答え|답|réponse|respuesta|resposta|antwort|ответ|jawaban|đáp"
)
_TOKENS = re.compile(r'[{}\[\]"\\]')
_TRAILING_COMMA = re.compile(r",\s*([}\]])")
# a JSON answer marked as the one that counts: "Final answer: {...}", "Corrected:\n{...}"
_FINAL = re.compile(r"\bfinal\b|\bcorrect(?:ed|ion)\b|\brevised\b|\bupdated\b|\bactually\b|最终|最后|更正|修正", re.IGNORECASE)


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


def _attempts(candidate: str) -> Iterator[str]:
    yield candidate
    yield _TRAILING_COMMA.sub(r"\1", candidate)  # (built only when the text as given does not load)


def _loads(candidate: str) -> Any:
    for attempt in _attempts(candidate):
        try:
            return json.loads(attempt)
        except (json.JSONDecodeError, ValueError, RecursionError):
            continue
    if "'" in candidate and len(candidate) < 20_000:  # a Python dict: {'answer': 'B'}
        try:
            return ast.literal_eval(_TRAILING_COMMA.sub(r"\1", candidate))
        except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
            return None
    return None


def json_values(text: Any, open_ch: str = "{", close_ch: str = "}", kind: type = dict) -> list[tuple[int, Any]]:
    """(position, value) of every top-level JSON ``kind`` in text."""
    s = "" if text is None else str(text)
    if open_ch not in s:
        return []
    whole = s.strip()
    if whole[0] == open_ch and whole[-1] == close_ch:  # the reply is one JSON value, as most JSON replies are: no scan
        try:
            value = json.loads(whole)
        except (json.JSONDecodeError, ValueError, RecursionError):
            value = None
        if isinstance(value, kind):
            return [(s.index(open_ch), value)]
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


def json_answer(text: Any, keys: Iterable[str] = ANSWER_KEYS, objects: list | None = None) -> tuple[int, str] | None:
    """(position, the answer field as text) of a JSON reply ("C, D" for ["C", "D"]); None when the
    reply has no JSON answer; "" (no answer) when several JSON answers disagree and none is marked
    final. Keys are matched in any case; when no object has one of ``keys``, a key that names an
    answer ("selected_option", "最终选择") counts. ``objects``: ``json_values(text)``, if the caller
    has them already."""
    s = "" if text is None else str(text)
    keys = tuple(keys)
    objects = json_values(s) if objects is None else objects
    answers = _answers(objects, lambda key: key in keys, keys)
    if not answers:
        answers = _answers(objects, lambda key: _ANSWER_LIKE.search(key) is not None, ())
    if not answers:
        stripped = s.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            array = _loads(stripped)  # the whole reply is one array (not "[3,1,2,0]\n[3,1,0,2]")
            if isinstance(array, list) and all(isinstance(v, (str, int)) for v in array):
                return s.find("["), ", ".join(str(v).strip() for v in array)
        return None
    distinct = {a for _, a in answers}
    if len(distinct) == 1:
        return answers[0]
    # final: marked so just before it, or revised since the answer before it ("Actually, ... suggests 2003.\n{...}")
    final = [
        (pos, a)
        for n, (pos, a) in enumerate(answers)
        if _FINAL.search(s[max(0, pos - 40) : pos]) or (n and _FINAL.search(s[answers[n - 1][0] : pos]))
    ]
    return final[-1] if len({a for _, a in final}) == 1 else (answers[-1][0], "")


def _answers(objects, wanted, order) -> list[tuple[int, str]]:
    answers = []
    for pos, obj in objects:
        lowered = {str(k).strip().lower(): v for k, v in obj.items()}
        hits = [k for k in order if k in lowered] if order else [k for k in lowered if wanted(k)]
        for key in hits[:1]:
            value = _as_text(lowered[key])
            if value is not None and (order or len(value) <= 40):  # a long text under another key is reasoning
                answers.append((pos, value))
    return answers


def json_answer_text(text: Any, keys: Iterable[str] = ANSWER_KEYS) -> str | None:
    """The answer field of a JSON reply as text (see ``json_answer``), or None."""
    found = json_answer(text, keys)
    return None if found is None else found[1]


def unwrap_json_answer(text: Any, keys: Iterable[str] = ANSWER_KEYS) -> Any:
    """The answer field of a JSON reply as text, else ``text`` unchanged."""
    found = json_answer_text(text, keys)
    return text if found is None else found


__all__ = ["ANSWER_KEYS", "extract_json", "extract_json_array", "json_answer", "json_answer_text", "json_values", "unwrap_json_answer"]
