"""Answer extraction from free-form model output: the per-kind readers behind
``AnswerSpace.parse`` (chronotasks/data/answer_space.py), gathered in one place.

Every ``parse_*`` function is pure and total: it never raises on model text. When the reply gives
no answer -- it refuses, hedges between candidates, commits to two different answers, or stops
before answering -- it returns ``UNPARSED`` (``None``), which the metrics score as wrong and the
tasks count as a parse failure. Answers are validated against the space: an "E" answer to a
four-option question is unparseable, not a wrong letter silently dropped.

Each reader lists the answers a reply states (``Candidate``s, in the order a grader reads them)
and ``candidates.decide`` keeps one only when nothing in the reply contradicts it
(``AnswerSpace.parse`` shows the steps).

Where the parts live:
  candidates.py      Candidate, the kinds of answer (Kind) and decide: the conflict check every reader ends with
  normalization.py   the reply as plain text (<think> blocks, full-width forms, markdown, bold spans, echoes
                     of our prompts' instructions) and the word gates in front of the scans
  reply_text.py      where answers are (cues, closing sentences, answer lines), self-corrections,
                     hedges, negations, replies cut off -- shared by all readers
  ordinals.py        ordinals ("the second one", "第二件") and label prefixes ("Image 3")
  option_texts.py    options named by letter, position or text; the runs of options a statement lists
  letters.py         one letter
  letter_sets.py     a set of letters, k of n letters, built on option_lists.py (lists of options one a
                     line), option_marks.py (per-option verdicts), availability.py (groups said (not)
                     available, read with the question's polarity) and letter_patterns.py
  option_names.py    Chinese names of the TAB-VLM option texts
  order_parsing.py   orderings of letters or of item numbers
  year_parsing.py    years
  choice_parsing.py  one of listed choices, JSON answers, "which image is earlier"
  verdict_parsing.py yes/no and Accept/Not accept verdicts
  chinese_periods.py Chinese dynasties (parse_period)
  json_answer.py     JSON objects in replies
"""

from __future__ import annotations

import string
from collections.abc import Iterable
from typing import Any

from chronotasks.scoring.chinese_periods import parse_period
from chronotasks.scoring.choice_parsing import parse_choice, parse_json_choice
from chronotasks.scoring.json_answer import extract_json, extract_json_array
from chronotasks.scoring.letter_sets import parse_k_of_n, parse_letter_set
from chronotasks.scoring.letters import parse_letter
from chronotasks.scoring.normalization import plain_text
from chronotasks.scoring.option_texts import letters_for
from chronotasks.scoring.order_parsing import parse_index_ordering, parse_ordering
from chronotasks.scoring.verdict_parsing import parse_accept, parse_yes_no
from chronotasks.scoring.year_parsing import parse_year

UNPARSED = None
"""Sentinel returned when an output cannot be parsed (scores 0, counted)."""


def clean(text: Any) -> str:
    """Model output as plain text: None -> "", reasoning blocks and markdown emphasis removed."""
    return plain_text(text)


def letters_to_indices(letters: Iterable[str]) -> list[int]:
    """["A", "C"] -> [0, 2]."""
    return [ord(ch) - ord("A") for ch in letters]


def indices_to_letters(indices: Iterable[int]) -> list[str]:
    """[0, 2] -> ["A", "C"]."""
    return [string.ascii_uppercase[i] for i in indices]


__all__ = [
    "UNPARSED",
    "clean",
    "extract_json",
    "extract_json_array",
    "indices_to_letters",
    "letters_for",
    "letters_to_indices",
    "parse_accept",
    "parse_choice",
    "parse_index_ordering",
    "parse_json_choice",
    "parse_k_of_n",
    "parse_letter",
    "parse_letter_set",
    "parse_ordering",
    "parse_period",
    "parse_year",
    "parse_yes_no",
]
