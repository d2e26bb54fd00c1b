"""Parsers for answers given as image indices or option names (kept for their callers; the
readers live in order_parsing.py and letters.py).

- ``parse_index_ordering``: a permutation of 0-based (or 1-based) image indices.
- ``parse_named_option``: an option letter, or the one option the reply names by its text.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chronotasks.scoring.letters import parse_letter
from chronotasks.scoring.order_parsing import parse_index_ordering


def parse_named_option(text: Any, options: Sequence[str]) -> str | None:
    """The letter of the chosen option: a letter reply, or the one option the reply names
    ("Qing" with options [Ming, Qing, ...] -> "B"); two options named without a pick: None."""
    return parse_letter(text, n_options=len(options), options=options)


__all__ = ["parse_index_ordering", "parse_named_option"]
