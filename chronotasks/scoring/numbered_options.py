"""Replies to prompts whose options are numbered 1..n (TAB-VLM's release prompts) instead of lettered.

Such a reply names options by number ("3", "Option 2", "1, 3", "Artifact 4 is different"). It is
read by the letter readers (chronotasks/scoring/letters.py, letter_sets.py, order_parsing.py) after each number
that stands alone as an option number is written as its letter: 1 -> A, 2 -> B, ... A number
stands alone when it is one digit 1-9 with no letter, digit or decimal point joined to it (Chinese
characters may be: "3和4"; not the ordinal and counting ones, "第3件", "3个"), so
the digits of dates and quantities ("1857 AD", "200 BCE", "3rd century", "2.5 cm") stay as they
are. Numbers above n become letters above the options (5 -> E for four options), which the
readers reject as they reject an "E" in a lettered reply. With the letters the readers keep
every rule they apply to lettered replies: hedges ("1 or 3"), two answers, self-corrections.
"""

from __future__ import annotations

import re
import string
from typing import Any

from chronotasks.scoring.normalization import DIGITS

# (ASCII word characters only: in "3和4" the digits stand alone between Chinese words; "第3件", "3世纪",
# "3个" are ordinals and counts, not option numbers)
# (the digit first, what precedes it checked behind it: a pattern that starts with a character class is scanned fast)
_OPTION_NUMBER = re.compile(r"([1-9])(?<![A-Za-z0-9_第][1-9])(?<!\d\.[1-9])(?![A-Za-z0-9_%°件个张幅号世年月日])(?!\.\d)")
_OTHER_DIGITS = re.compile("[" + "".join(DIGITS) + "]")


def as_letters(reply: Any) -> str:
    """The reply with every stand-alone option number written as its letter ("1, 3" -> "A, C")."""
    if reply is None:
        return ""
    text = str(reply)
    if not text.isascii():
        text = _OTHER_DIGITS.sub(lambda m: DIGITS[m.group(0)], text)
    return _OPTION_NUMBER.sub(lambda m: string.ascii_uppercase[int(m.group(1)) - 1], text)


def number_of(letter: str) -> int:
    """The option number of a letter: "C" -> 3."""
    return string.ascii_uppercase.index(letter) + 1


__all__ = ["as_letters", "number_of"]
