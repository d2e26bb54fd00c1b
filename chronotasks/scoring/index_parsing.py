"""Parsers for answers given as image indices or option names.

- ``parse_index_ordering``: a permutation of 0-based (or 1-based) image indices,
  "2,1,3,0" or "[2, 1, 3, 0]"; falls back to option letters ("C, B, D, A"
  = indices 2,1,3,0) read by ``parse_ordering``.
- ``parse_named_option``: an option letter, or else exactly one option named in
  the reply ("Qing", "The answer is Ming dynasty").
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from chronotasks.scoring.parsing import (
    UNPARSED,
    after_last_cue,
    clean,
    first_after_cue_else_last,
    indices_to_letters,
    letters_to_indices,
    parse_letter,
    parse_ordering,
)


def parse_index_ordering(text: Any, n_items: int, base: int = 0) -> tuple[int, ...] | None:
    """A permutation of the indices base..base+n-1, returned 0-based; UNPARSED otherwise.

    The run of n indices after the last answer cue wins, else the last run in the
    text that is a permutation. Without digits, a letter ordering ("B, A, C, D")
    is read as indices (A = 0).
    """
    s = clean(text)
    if not s:
        return UNPARSED
    valid = [str(i) for i in range(base, base + n_items)]
    run = re.compile(r"(?<!\d)(?<!\d\.)\d+(?:\s*(?:,|->|→|>|<|-|–|/|\||;|\s)\s*\d+){%d}(?!\d|\.\d)" % (n_items - 1))

    def permutations_in(segment: str) -> list[tuple[int, ...]]:
        found = []
        for m in run.finditer(segment):
            digits = re.findall(r"\d+", m.group(0))
            if sorted(digits) == sorted(valid):
                found.append(tuple(int(d) - base for d in digits))
        return found

    found = first_after_cue_else_last(s, permutations_in)
    if found is not UNPARSED:
        return found
    letters = parse_ordering(s, n_items)
    return UNPARSED if letters is UNPARSED else tuple(letters_to_indices(letters))


def parse_named_option(text: Any, options: Sequence[str]) -> str | None:
    """The letter of the chosen option: a letter reply, or the one option the reply names.

    "B" -> "B"; "Qing" with options [Ming, Qing, ...] -> "B"; a reply naming two
    different options (without a letter) is UNPARSED.
    """
    letter = parse_letter(text, n_options=len(options))
    if letter is not UNPARSED:
        return letter
    s = clean(text)
    segment = after_last_cue(s) or s
    for part in dict.fromkeys((segment, s)):  # the answer after the cue first, then the whole reply
        named = {i for i, option in enumerate(options) if re.search(r"(?<![A-Za-z])" + re.escape(option) + r"(?![A-Za-z])", part, re.IGNORECASE)}
        if len(named) == 1:
            return indices_to_letters(named)[0]
    return UNPARSED


__all__ = ["parse_index_ordering", "parse_named_option"]
