"""Answers given as a list of options one a line: under a line that introduces the answer ("The correct options
are:\\n- B. iron forging\\n- C. wheel-thrown pottery"), or a reply that is only such a list ("C\\nD", "1. C — lost-wax
casting\\n2. D — coil").
"""

from __future__ import annotations

import re
import string

from chronotasks.scoring.candidates import CONFLICT, Candidate, Kind
from chronotasks.scoring.option_texts import letters_for, option_mentions
from chronotasks.scoring.reply_text import WALKTHROUGH

# A line that starts with an option: "- B. iron forging", "2. **Artifact E** – ...", "C"
_ITEM = re.compile(
    r"^[ \t]*(?:[-*•+]|\d{1,2}[.)]|\(\d{1,2}\))?[ \t]*(?:(?i:options?|artifacts?|artefacts?|images?|letters?|choices?)[ \t]*#?[ \t]*)?"
    r"\(?([A-Z])(?![A-Za-z0-9])\)?[ \t]*(?:[.):\-–—](?![ \t]*\(?[A-Z](?![A-Za-z0-9]))|$)",
    re.MULTILINE,
)


# After an option's text at the start of an item line: the line ends or goes on after a separator.
_AFTER_ITEM_TEXT = re.compile(
    r"[ \t]*(?:\([^()\n]*\)[ \t]*|（[^（）\n]*）[ \t]*)?(?:$|[:：,\-–—]|\.(?:\s|$))"
)  # not "Stone (B) was available"


_WORDS = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]{2}")


_ITEM_WORDS = 6  # an answer list names each option ("C — lost-wax casting"); more words describe it


_LINE_ENDS_COLON = re.compile(r"[:：][ \t]*(?=\n)")


# A line that introduces the answer as a list: "The correct options are:", "The three ... are:"
_INTRO = re.compile(
    r"(?=[aicswAICSW答是])(?:\b(?:are|is|answers?|correct|select(?:ed)?|cho(?:ose|sen)|would(?:\s+not)?\s+have\s+been\s+\w+|were)\b[^\n]{0,40}|答案[^\n]{0,10}|是)[:：]\s*$",
    re.IGNORECASE,
)


def item_block(s: str, start: int, n: int, options) -> tuple[frozenset[str] | None, int, int]:
    """The options of the lines from ``start`` on that each start with one ("- B. iron forging",
    "2. **Artifact E** – a bronze vessel", "C"), blank lines allowed between; (None, start, 0) when
    there are none. Returns the set, where the block ends and the most words an item says after
    its option (a walkthrough says sentences: "B. stone - Stone was widely used for tools.")."""
    picked: list[str] = []
    pos = start
    end = start
    wordiest = 0
    for line in s[start:].split("\n"):
        line_end = pos + len(line)
        if line.strip():
            m = _ITEM.match(line)
            letter = m.group(1).upper() if m else None
            after = m.end() if m else 0
            if letter is None and options:
                texts = option_mentions(line, options)
                head = line.strip(" \t-*•+0123456789.)(")
                if texts and head.lower().startswith(line[texts[0][0] : texts[0][1]].lower()) and _AFTER_ITEM_TEXT.match(line, texts[0][1]):
                    letter = string.ascii_uppercase[texts[0][2]]
                    after = texts[0][1]
            if letter is None:
                break
            picked.append(letter)
            wordiest = max(wordiest, len(_WORDS.findall(line[after:])))
            end = line_end
        pos = line_end + 1
    if not picked or len(set(picked)) != len(picked):
        return None, start, 0
    return frozenset(picked), end, wordiest


def item_lists(s: str, n: int, options, k: int | None, cut: int | None) -> list[tuple[Candidate, tuple[int, int]]]:
    """Answers given as a list of options, each with the span of the list: a list under a line that introduces
    the answer ("The correct options are:\\n- B. iron forging\\n- C. wheel-thrown pottery"), a reply that is
    only such a list ("C\\nD", "1. C — lost-wax casting\\n2. D — coil")."""
    valid = set(letters_for(n))
    starts = [(0, False)] if "\n" in s and _ITEM.match(s) else []
    for m in _LINE_ENDS_COLON.finditer(s):
        line_start = s.rfind("\n", 0, m.start()) + 1
        intro = s[line_start : m.end()]
        if _INTRO.search(intro) and not WALKTHROUGH.search(intro):
            starts.append((m.end() + 1, True))
    found = []
    for start, introduced in starts:
        got, end, wordiest = item_block(s, start, n, options)
        if got is None:
            continue
        whole = start == 0 and (end >= len(s.rstrip()) or s[end : end + 2] == "\n\n")
        if not introduced and (not whole or len(got) < 2 or "\n" not in s[:end] or wordiest > _ITEM_WORDS):
            continue  # not a list given as the answer: a walkthrough that says something of each option
        if not introduced and got == valid and k is None:
            continue  # every option, one a line, with no introduction: a walkthrough
        if k is not None and got <= valid and len(got) != k:
            continue
        value: frozenset[str] | str | None = got if got <= valid else CONFLICT
        if end >= len(s.rstrip()) and cut is not None:
            value = None  # the list runs to where the reply was cut off: it may go on ("- Block printing: This technique")
        found.append((Candidate(value, start, Kind.STRUCTURE), (start, end)))
    return found


__all__ = ["item_block", "item_lists"]
