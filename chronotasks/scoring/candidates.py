"""One answer or none: the conflict check every reader ends with.

A reader lists the answers a reply states -- ``Candidate``s, in the order a grader reads them (a
bare reply; a JSON answer field; the text after the last answer cue, then earlier cues; an answer
line; an answer in bold; a numbered list, table or per-option verdicts; a conclusion after "so";
the whole reply) -- and ``decide`` keeps the first one only when nothing in the reply contradicts
it:

- the statement itself names alternatives ("C or maybe A", "between 2010 and 2014", a letter
  outside the options): its value is ``CONFLICT``;
- another committed statement gives a different answer ("Answer: C ... Answer: B", a last line
  that differs from the answer cue) and the answer read is not marked as the final one ("Final
  answer:", "so", "therefore", or it follows a self-correction such as "wait" or "actually"), or
  a later answer statement names alternatives ("Answer: C. ... The answer could be B or D."). Two
  answers after cues of equal force contradict each other at any distance ("Answer: B. Answer: C.",
  "Final answer: B ... Final answer: C."); only a self-correction before the later one revises;
- the reply was cut off and the answer would come from its unfinished last sentence.

An answer stated under a condition ("if image 3 is Song, then the order would be 0, 1, 2, 3, 4") is
never the answer, and once one is stated no fallback reading is taken (it may be reading the hypothesis).

Candidates from weaker readings (a line that starts with an answer and goes on, a conclusion after
"so", the whole reply) never contradict a committed one: they are fallbacks, read only when no
committed statement was found.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import Any, NamedTuple

CONFLICT = "conflict"  # a statement that gives no single answer: the reply gives none


class Kind(str, Enum):
    """How an answer was found: the kinds of region ``reply_text.regions`` yields (``CUE`` .. ``ALL``, and
    ``FALLBACKS``, where its fallback regions begin) and the readings the readers add (``BARE`` .. ``LEAD``).
    A ``str`` so that kinds compare, hash and print as their names."""

    CUE = "cue"  # after an answer cue, before "is the correct answer", or inside a self-correction
    HYPOTHETICAL = "hypothetical"  # a cue or closing in a sentence that sets a condition ("if image 3 is Song, ...")
    ODD = "odd"  # before "is the odd one out", "belongs to a different period"
    CLOSING = "closing"  # the end of a last sentence "... is X."
    BOLD = "bold"  # a bold span ending its line
    LINE = "line"  # the first or the last line, or a line after a self-correction or "... are:"
    WEAK = "weak"  # after a conclusion cue such as "so" or "因此"
    ALL = "all"  # the whole reply
    FALLBACKS = "fallbacks"  # the mark before the fallback regions
    BARE = "bare"  # a reply that is only the answer
    JSON = "json"  # a JSON answer field
    STRUCTURE = "structure"  # a list, a table or per-option verdicts
    LEAD = "lead"  # a line that starts with an answer and goes on

    __str__ = str.__str__

    def __format__(self, format_spec: str) -> str:
        return str.__format__(self.value, format_spec)


# Committed statements of an answer: a bare reply, a JSON answer field, the text after an answer cue,
# a closing "... is X." sentence, an answer in bold, a list or per-option verdicts, a line that is only
# an answer. Fallbacks: a line that starts with an answer and goes on ("B. The jar is later"), a
# conclusion after "so", the whole reply.
COMMITTED = frozenset((Kind.BARE, Kind.JSON, Kind.CUE, Kind.CLOSING, Kind.BOLD, Kind.STRUCTURE, Kind.LINE))
FALLBACK = frozenset((Kind.LEAD, Kind.WEAK, Kind.ALL))
# An answer stated under a condition: never the answer, and no fallback reading is taken after one.
HYPOTHETICAL = Kind.HYPOTHETICAL
# Read as committed when first, but never against another kind of answer: "C stands out at first glance,
# but ... the real outlier is A" ("X is the odd one out", "X stands out"); two of them that differ are two answers.
SOFT = frozenset((Kind.ODD,))


class Candidate(NamedTuple):
    """An answer the reply states: ``value`` (an answer of the space, or ``CONFLICT``), where it
    starts in the normalised reply, how it was found (``COMMITTED`` or ``FALLBACK`` kinds), and
    whether it is stated as the final answer (after a self-correction, "Final answer:", "so")."""

    value: Any
    start: int
    how: str
    final: int = 0  # 0: stated plainly; 1: marked final ("Final answer:", "so"); 2k or 2k+1: after k self-corrections


# Yielded by a reader before its fallback readings: once a committed answer was found they cannot
# change the decision, so ``decide`` stops reading there (the whole-reply reading is the costly one).
FALLBACKS = Candidate(None, 0, Kind.FALLBACKS)


def _equal_force(earlier: Candidate, later: Candidate) -> bool:
    """Whether two answers are stated with the same force: both after an answer cue marked final ("Final
    answer: B. ... Final answer: C."), neither after a self-correction (``final`` counts the corrections
    before an answer: ``regions``)."""
    return earlier.how == later.how == Kind.CUE and earlier.final == later.final == 1


def decide(candidates: Iterable[Candidate | None], cut: int | None = None) -> Any:
    """The first candidate's answer when no other committed statement contradicts it, else None.

    A committed statement contradicts the answer when it gives a different answer (or names
    alternatives) and does not come before an answer marked final. Fallback readings are used only
    when no committed statement was found, and are then checked against nothing further.
    ``cut``: where the unfinished last sentence of a reply cut off by the token limit starts
    (``reply_text.cut_off``): nothing from there counts, and no fallback reading of such a reply.
    """
    primary: Candidate | None = None
    supposed = False  # an answer was stated under a condition ("if ..., the order would be ...")
    for cand in candidates:
        if cand is FALLBACKS and primary is not None:
            break
        if cand is None or cand.value is None:
            continue
        if cand.how == HYPOTHETICAL:
            supposed = supposed or primary is None
            continue
        if cut is not None and (cand.start >= cut or cand.how in FALLBACK - {Kind.LEAD}):
            continue
        if primary is None:
            primary = cand
            if cand.value == CONFLICT:
                return None
            if cand.how in FALLBACK:
                return None if supposed else cand.value  # (a fallback may be reading the hypothesis)
            if cand.how == Kind.BARE:
                return cand.value
            continue
        if cand.how in FALLBACK or (cand.how in SOFT and primary.how not in SOFT) or cand.value == primary.value:
            continue  # (two "X belongs to a different period" of different X: two answers)
        if cand.value == CONFLICT:
            # a statement naming alternatives after the answer ("Answer: C ... it could be B or D")
            if cand.how in (Kind.CUE, Kind.JSON, Kind.CLOSING) and cand.start > primary.start:
                return None
            continue
        if cand.start < primary.start and primary.final and not _equal_force(cand, primary):
            continue  # an earlier answer, revised by the final one
        return None
    return None if primary is None else primary.value


__all__ = ["COMMITTED", "CONFLICT", "FALLBACK", "FALLBACKS", "HYPOTHETICAL", "SOFT", "Candidate", "Kind", "decide"]
