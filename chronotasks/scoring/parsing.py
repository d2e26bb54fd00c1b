"""Answer extraction from free-form model output.

Every ``parse_*`` function is pure and total: it never raises on model text.
When nothing valid can be read it returns ``UNPARSED`` (``None``), which the
metrics score as wrong and the tasks count as a parse failure.

Letters are validated against the options that existed: an "E" answer to a
four-option question is unparseable, not a wrong letter silently dropped.
"""

from __future__ import annotations

import json
import re
import string
from typing import Any, Callable, Iterable

UNPARSED = None
"""Sentinel returned when an output cannot be parsed (scores 0, counted)."""

_MARKUP = re.compile(r"[*_`#]+")
# Phrases that introduce the final answer; the text after the *last* one wins.
_ANSWER_CUE = re.compile(
    r"(?:final\s+answer|correct\s+(?:answer|option|choice|order|sequence)s?|answers?|"
    r"choices?|selections?|sequence|order(?:ing)?|my\s+pick|i\s+(?:would\s+)?(?:choose|select|pick))"
    r"\s*(?:is|are|would\s+be|should\s+be|:|=|-)\s*",
    re.IGNORECASE,
)
# A capital letter standing alone: not part of a word.
_LONE_CAPITAL = re.compile(r"(?<![A-Za-z0-9])([A-Z])(?![A-Za-z0-9])")
_LONE_ANY_CASE = re.compile(r"(?<![A-Za-z0-9])([A-Za-z])(?![A-Za-z0-9])")
_ARTICLE_FOLLOWER = re.compile(r"\s+(?!and\b|or\b|&)[a-z]")


def letters_for(n_options: int) -> str:
    """The option letters of an n-option question: 4 -> "ABCD"."""
    if not 1 <= n_options <= 26:
        raise ValueError(f"n_options must be in 1..26, got {n_options}")
    return string.ascii_uppercase[:n_options]


def clean(text: Any) -> str:
    """Model output as plain text: None -> "", markdown emphasis removed."""
    if text is None:
        return ""
    return _MARKUP.sub("", str(text)).strip()


def after_last_cue(text: str) -> str | None:
    """The text after the last answer cue ("Answer:", "The answer is", ...), or None."""
    matches = list(_ANSWER_CUE.finditer(text))
    if not matches:
        return None
    return text[matches[-1].end():]


def _first_clause(segment: str) -> str:
    """The answer part of a segment: up to the first sentence end or newline."""
    return re.split(r"(?<=[^A-Z])\.(?:\s|$)|\n|(?<=\))\.|;\s+because|\s+because\b", segment, maxsplit=1)[0]


def _lone_letters(segment: str, allow_lower: bool = False) -> list[tuple[str, int]]:
    """Standalone letters in a segment, skipping the article "A" before a word."""
    pattern = _LONE_ANY_CASE if allow_lower else _LONE_CAPITAL
    found = []
    for m in pattern.finditer(segment):
        letter = m.group(1)
        if letter in "Aa" and _ARTICLE_FOLLOWER.match(segment, m.end()):
            continue
        if letter in "Ii" and re.match(r"\s+(?:am|think|believe|would|cannot|can't|guess)\b", segment[m.end():]):
            continue
        found.append((letter.upper(), m.start()))
    return found


def parse_letter(text: Any, n_options: int = 4) -> str | None:
    """One option letter: "B", "(B)", "Answer: B", "The answer is B.", "B. Mughal".

    Returns the letter, or UNPARSED when no letter (or an invalid one) is given,
    or when several different letters are offered without a marked answer.
    """
    valid = letters_for(n_options)
    s = clean(text)
    if not s:
        return UNPARSED
    whole = re.fullmatch(r"[\s(\[{'\"]*(?:option\s+)?([A-Za-z])[\s)\]}'\".:]*", s, re.IGNORECASE)
    if whole:
        letter = whole.group(1).upper()
        return letter if letter in valid else UNPARSED
    cue = after_last_cue(s)
    if cue is not None:
        letters = _lone_letters(_first_clause(cue)[:40], allow_lower=True)
        if letters:
            letter = letters[0][0]
            return letter if letter in valid else UNPARSED
    lead = re.match(r"[\s(\[]*([A-Z])\s*[).:\]](?:\s|$)", s)
    if lead:
        letter = lead.group(1)
        return letter if letter in valid else UNPARSED
    marked = re.findall(r"\(([A-Z])\)|\boption\s+([A-Z])\b|\b([A-Z])\)", s, re.IGNORECASE)
    distinct = {next(g for g in groups if g).upper() for groups in marked}
    if len(distinct) == 1:
        letter = distinct.pop()
        return letter if letter in valid else UNPARSED
    if len(s) <= 60:
        distinct = {letter for letter, _ in _lone_letters(s)}
        if len(distinct) == 1:
            letter = distinct.pop()
            return letter if letter in valid else UNPARSED
    return UNPARSED


_NONE_ANSWER = re.compile(r"^\s*(?:none|none of (?:them|the above|these)|no options?)\b", re.IGNORECASE)


def _letter_candidates(s: str) -> str:
    cue = after_last_cue(s)
    if cue is not None:
        return _first_clause(cue)
    return s if len(s) <= 80 else _first_clause(s)


def parse_letter_set(text: Any, n_options: int = 4) -> frozenset[str] | None:
    """A set of option letters: "A, C", "A and C", "AC", "[A, C]", "Answer: A & C".

    An explicit "None" gives the empty set. Any letter outside the options makes
    the answer unparseable.
    """
    valid = letters_for(n_options)
    s = clean(text)
    if not s:
        return UNPARSED
    segment = _letter_candidates(s).strip()
    if _NONE_ANSWER.match(segment):
        return frozenset()
    compact = re.fullmatch(r"[\s(\[{'\"]*([A-Za-z]{1,26})[\s)\]}'\".]*", segment)
    if compact and (compact.group(1).isupper() or len(compact.group(1)) == 1):
        letters = compact.group(1).upper()
        if len(set(letters)) == len(letters) and all(ch in valid for ch in letters):
            return frozenset(letters)
        return UNPARSED
    letters = [letter for letter, _ in _lone_letters(segment, allow_lower=len(segment) <= 20)]
    if not letters:
        return UNPARSED
    if any(ch not in valid for ch in letters):
        return UNPARSED
    return frozenset(letters)


_ORDER_SEP = r"\s*(?:,|->|→|⟶|=>|>|<|-|–|—|/|\||;)?\s*(?:then\s+|and\s+)?"
_ORDER_RUN = r"[A-Z](?:" + _ORDER_SEP + r"[A-Z]){%d}"


def parse_ordering(text: Any, n_items: int = 4) -> tuple[str, ...] | None:
    """An ordering of all n option letters: "A, C, B, D", "A→C→B→D", "ACBD", "A > C > B > D".

    The answer must be a permutation of the n letters. When several different
    orderings appear, the one after the last answer cue wins, else the last one.
    """
    valid = letters_for(n_items)
    s = clean(text)
    if not s:
        return UNPARSED
    # a run of exactly n letters: not preceded or followed by a further listed letter
    run = re.compile(r"(?<![A-Za-z])(?<![A-Z][,>;/] )(?<![A-Z],)" + _ORDER_RUN % (n_items - 1)
                     + r"(?![A-Za-z])(?!" + _ORDER_SEP + r"[A-Z](?![A-Za-z]))")

    def permutations_in(segment: str) -> list[tuple[str, ...]]:
        found = []
        for m in run.finditer(segment):
            letters = tuple(re.findall(r"[A-Z]", m.group(0)))
            if len(letters) == n_items and sorted(letters) == sorted(valid):
                found.append(letters)
        return found

    return first_after_cue_else_last(s, permutations_in)


def first_after_cue_else_last(s: str, find: Callable[[str], list]) -> Any:
    """``find`` applied to the answer after the last cue (first hit wins), else to the whole
    text (last hit wins, as a model's final answer usually comes last); UNPARSED if none."""
    cue = after_last_cue(s)
    if cue is not None:
        found = find(cue[:80])
        if found:
            return found[0]
    found = find(s)
    return found[-1] if found else UNPARSED


def parse_k_of_n(text: Any, n_options: int, k: int) -> frozenset[str] | None:
    """Exactly k distinct option letters out of n (e.g. the 3 contemporaneous of 5)."""
    picked = parse_letter_set(text, n_options)
    if picked is UNPARSED or len(picked) != k:
        return UNPARSED
    return picked


_YEAR = re.compile(r"(?<![\d.])(\d{4})(?![\d]|s\b|'s\b|’s\b)")


def parse_year(text: Any, lo: int = 1000, hi: int = 2100) -> int | None:
    """A 4-digit year in [lo, hi]: "1987", "Year: 1987", "circa 1987.", {"year": 1987}.

    The year after the last answer cue wins, else the first year in the text.
    A decade ("the 1980s") is not a year.
    """
    s = clean(text)
    if not s:
        return UNPARSED
    obj = extract_json(s)
    if isinstance(obj, dict):
        for key in ("year", "answer", "Year", "Answer"):
            if key in obj:
                value = parse_year(str(obj[key]), lo, hi)
                if value is not UNPARSED:
                    return value
    cue = re.search(r"(?:year|answer|estimate|taken in|from)\s*(?:is|was|:|=|would be|of)?\s*(?:around|about|circa|c\.|approximately|~)?\s*", s, re.IGNORECASE)
    candidates = []
    if cue:
        candidates = [int(m.group(1)) for m in _YEAR.finditer(s, cue.end())]
    if not candidates:
        candidates = [int(m.group(1)) for m in _YEAR.finditer(s)]
    for year in candidates:
        if lo <= year <= hi:
            return year
    return UNPARSED


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)


def _balanced(s: str, open_ch: str, close_ch: str) -> Iterable[str]:
    """Each top-level span of s from ``open_ch`` to its matching ``close_ch``, skipping
    brackets inside JSON strings."""
    depth, start, in_str, escaped = 0, None, False, False
    for i, ch in enumerate(s):
        if in_str:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_str = False
            continue
        if ch == '"' and depth > 0:
            in_str = True
        elif ch == open_ch:
            if depth == 0:
                start = i
            depth += 1
        elif ch == close_ch and depth > 0:
            depth -= 1
            if depth == 0 and start is not None:
                yield s[start:i + 1]


def _first_json(text: Any, open_ch: str, close_ch: str, kind: type) -> Any:
    """The first ``kind`` value found as JSON in text: ```json fences first, then the raw
    text; a trailing comma before a closing bracket is tolerated."""
    s = "" if text is None else str(text)
    bodies = [m.group(1) for m in _FENCE.finditer(s)] + [s]
    for body in bodies:
        for candidate in _balanced(body, open_ch, close_ch):
            for attempt in (candidate, re.sub(r",\s*([}\]])", r"\1", candidate)):
                try:
                    value = json.loads(attempt)
                except (json.JSONDecodeError, ValueError):
                    continue
                if isinstance(value, kind):
                    return value
    return None


def extract_json(text: Any) -> Any:
    """The first JSON object in text (inside ```json fences or followed by prose), or None."""
    return _first_json(text, "{", "}", dict)


def extract_json_array(text: Any) -> list | None:
    """The first JSON array in text (inside ```json fences or amid prose), or None."""
    return _first_json(text, "[", "]", list)


def parse_json_choice(text: Any, choices: Iterable[str] = ("1", "2"), key: str = "answer") -> str | None:
    """A choice such as "1"/"2" given in a JSON reply's ``key`` field.

    Accepts fenced JSON, JSON followed by prose, numbers or strings ("1", 1,
    "Image 1"). Without valid JSON, falls back to a '"answer": "1"' fragment,
    then to a bare reply that is only the choice.
    """
    valid = [str(c) for c in choices]
    s = "" if text is None else str(text)

    def pick(value: Any) -> str | None:
        found = re.findall(r"(?<![\w.])(" + "|".join(map(re.escape, valid)) + r")(?![\w.])", str(value))
        return found[0] if len(set(found)) == 1 else UNPARSED

    obj = extract_json(s)
    if isinstance(obj, dict):
        lowered = {str(k).lower(): v for k, v in obj.items()}
        if key.lower() in lowered:
            return pick(lowered[key.lower()])
        return UNPARSED
    fragment = re.search(r'["\']?' + re.escape(key) + r'["\']?\s*[:=]\s*["\']?([^"\',}\n]+)', s, re.IGNORECASE)
    if fragment:
        return pick(fragment.group(1))
    bare = clean(s)
    if bare in valid:
        return bare
    return UNPARSED


_YES = re.compile(r"\b(yes|yeah|yep|correct|true)\b", re.IGNORECASE)
_NO = re.compile(r"\b(no|nope|incorrect|false)\b", re.IGNORECASE)


def parse_yes_no(text: Any) -> bool | None:
    """A yes/no verdict: "Yes.", "**No**", "Answer: yes", "No, the image ...".

    The first word decides when it is yes or no; otherwise the answer after the
    last cue; otherwise a text that contains only one of the two.
    """
    s = clean(text)
    if not s:
        return UNPARSED
    first = re.match(r"\W*(\w+)", s)
    if first:
        word = first.group(1).lower()
        if word in ("yes", "yeah", "yep"):
            return True
        if word in ("no", "nope"):
            return False
    cue = after_last_cue(s)
    if cue is not None:
        head = re.match(r"\W*(\w+)", cue)
        if head and head.group(1).lower() in ("yes", "no"):
            return head.group(1).lower() == "yes"
    has_yes = re.search(r"\byes\b", s, re.IGNORECASE)
    has_no = re.search(r"\bno\b", s, re.IGNORECASE)
    if has_yes and not has_no:
        return True
    if has_no and not has_yes:
        return False
    return UNPARSED


def parse_accept(text: Any) -> bool | None:
    """An Accept / Not accept verdict ("RATING: Accept", "Not Accept", "Rejected")."""
    s = clean(text)
    if not s:
        return UNPARSED
    rating = re.search(r"rating\s*[:=]\s*(.+)", s, re.IGNORECASE)
    segment = rating.group(1) if rating else s
    negative = re.search(r"\b(not\s+accept(?:ed|able)?|unaccept(?:ed|able)|reject(?:ed)?|do\s+not\s+accept)\b", segment, re.IGNORECASE)
    positive = re.search(r"\baccept(?:ed|able)?\b", segment, re.IGNORECASE)
    if negative and (not positive or negative.start() <= positive.start()):
        return False
    if positive:
        return True
    return UNPARSED


def letters_to_indices(letters: Iterable[str]) -> list[int]:
    """["A", "C"] -> [0, 2]."""
    return [ord(ch) - ord("A") for ch in letters]


def indices_to_letters(indices: Iterable[int]) -> list[str]:
    """[0, 2] -> ["A", "C"]."""
    return [string.ascii_uppercase[i] for i in indices]


__all__ = [
    "UNPARSED", "after_last_cue", "clean", "extract_json", "extract_json_array", "first_after_cue_else_last",
    "indices_to_letters", "letters_for", "letters_to_indices",
    "parse_accept", "parse_json_choice", "parse_k_of_n", "parse_letter", "parse_letter_set",
    "parse_ordering", "parse_year", "parse_yes_no",
]
