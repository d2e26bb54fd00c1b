"""Per-option marks: "A ✓ B ✗ C ✓ D ✗", "A – yes, B – no", one line or table row per option ("| B | iron
forging | ✓ |"); marks said of availability are read with the question's polarity.
"""

from __future__ import annotations

import re

from chronotasks.scoring.availability import ABOUT_AVAILABILITY, NOT_AVAILABLE_HEADER, POLARITY
from chronotasks.scoring.candidates import CONFLICT
from chronotasks.scoring.normalization import holds_any, lower, word_gate
from chronotasks.scoring.option_texts import Mentions, letters_for

# "A ✓ B ✗", "A – yes, B – no", "- C. lost-wax casting: ✓"
# (one of which each match of _VERDICT holds, in lower case: "ye" and "fal", as "s" also matches "ſ" there)
_VERDICT_WORDS = word_gate("✓", "✗", "ye", "no", "correct", "true", "fal")


_VERDICT = re.compile(
    r"(?<![A-Za-z0-9])([A-Z])(?![A-Za-z0-9])[^A-Z\n✓✗]{0,50}?(✓|✗|(?i:\byes\b|\bno\b|\bcorrect\b|\bincorrect\b|\btrue\b|\bfalse\b))"
)


_MARK = re.compile(
    r"(?=[✓✗yYnNcCiItTfFaAdD])(?:✓|✗|(?<![\w-])(?:yes|no|correct|incorrect|true|false|applies|does\s+not\s+apply|not\s+applicable)(?![\w-]))",
    re.IGNORECASE,
)


def letter_verdicts(s: str, n: int) -> frozenset[str] | None:
    """ "A ✓ B ✗ C ✓ D ✗" / "A – yes, B – no": the letters marked yes, when every option has one mark."""
    if not holds_any(lower(s), _VERDICT_WORDS):
        return None
    marks: dict[str, bool] = {}
    for m in _VERDICT.finditer(s):
        letter, mark = m.group(1).upper(), m.group(2).lower()
        if letter in marks:
            return None
        marks[letter] = mark in ("✓", "yes", "correct", "true")
    if len(marks) >= 2 and set(marks) == set(letters_for(n)):
        return frozenset(c for c, ok in marks.items() if ok)
    return None


def line_verdicts(s: str, n: int, options, asks: str | None = None) -> frozenset[str] | str | None:
    """Per-option lines or table rows, each naming one option and marking it ("| B | iron forging |
    ✓ |", "- Paper: ✗", "**C. Glass** – No."): the options marked yes, when every option is marked
    (CONFLICT when an option gets two different marks). Marks under a header or beside words about
    availability ("| Available? |") say whether an option was available, not whether it answers:
    they are read with the question's polarity (``asks``), and give CONFLICT without it."""
    marks: dict[str, bool] = {}
    if "\n" not in s or sum(1 for line in s.splitlines() if _MARK.search(line)) < n:
        return None  # fewer marked lines than options: not every option is marked
    context = []
    headers = []  # the lines without marks: what the marks mean ("| Available? |"); a row's own words follow its mark
    for line in s.splitlines():
        if not _MARK.search(line):
            if line.lstrip().startswith("|") or line.rstrip().endswith(":"):
                context.append(line)  # a table header, a line introducing the verdicts
                headers.append(line)
            continue
        m = Mentions(line.replace("|", " "), n, options)
        named = {c for _, _, c in m.letters} or {c for _, _, c in m.texts}
        spans = [sp for sp in m.letters + m.texts if sp[2] in named]
        if len(named) != 1:
            continue
        letter = named.pop()
        # the mark after the option is named ("- A. Screen printing – ✗ Industrial screen printing is ..."
        # names it again after its mark)
        before = [b for a, b, _ in spans if not _MARK.search(line, min(b for _, b, _ in spans), a)]
        after = _MARK.search(line, max(before))
        if after is None:
            continue
        ok = after.group(0).lower() in ("✓", "yes", "correct", "true", "applies")
        if marks.get(letter, ok) != ok:
            return CONFLICT
        marks[letter] = ok
        context.append(line[: max(before)] + " " + line[after.end() :])
    if not (len(marks) >= 2 and set(marks) == set(letters_for(n))):
        return None
    described = " ".join(context)
    if ABOUT_AVAILABILITY.search(described):
        if asks not in POLARITY:
            return CONFLICT
        marked_unavailable = NOT_AVAILABLE_HEADER.search(" ".join(headers)) is not None
        return frozenset(c for c, ok in marks.items() if (ok == marked_unavailable) == POLARITY[asks])
    return frozenset(c for c, ok in marks.items() if ok)


__all__ = ["letter_verdicts", "line_verdicts"]
