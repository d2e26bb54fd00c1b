"""What a reply says of the availability of groups of options ("C and D would not have been available", "Not
available: C, D", "A and B were"): which group answers depends on the question's polarity (``POLARITY``).
"""

from __future__ import annotations

import re

from chronotasks.scoring.candidates import CONFLICT, Candidate, Kind
from chronotasks.scoring.letter_patterns import ALL_BUT, ASIDE, LEAD_LIST, LETTER_STOP
from chronotasks.scoring.normalization import lower
from chronotasks.scoring.option_texts import Mentions, blank_spans, letters_for, lone_letters, option_mentions, option_runs
from chronotasks.scoring.reply_text import ANYWHERE_LIMIT, STRONG_CUE, WEAK_CUE, first_clause

ABOUT_AVAILABILITY = re.compile(r"avail|exist|in\s+use|anachron|invented|可用|存在", re.IGNORECASE)


NOT_AVAILABLE_HEADER = re.compile(r"not\s+avail|unavail|anachron|not\s+(?:yet\s+)?(?:exist|invented)|不可用|不存在", re.IGNORECASE)


# Availability said of a group of options: "C and D would not have been available", "A and B were
# in use", "Not available: C, D". Which group answers depends on the question (``asks``).
UNAVAILABLE = re.compile(
    r"(?=[wcdhnuaimWCDHNUAIM不尚没无])(?:\b(?:would\s+not|wouldn't|were\s+not|weren't|was\s+not|wasn't|could\s+not|couldn't|did\s+not|didn't|had\s+not|hadn't|not)"
    r"\s+(?:have\s+been\s+|have\s+|yet\s+(?:be(?:en)?\s+|have\s+(?:been\s+)?)?|be\s+)?(?:available|exist(?:ed)?|in\s+use|known|invented|developed|around|possible)\b"
    r"|\bunavailable\b|\banachronistic\b|\b(?:came|come|appeared|arrived|were\s+(?:invented|developed|introduced))\s+(?:much\s+|far\s+)?later\b"
    r"|\b(?:are|is|were)\s+(?:all\s+|both\s+)?(?:modern|later|too\s+late|much\s+later)\b|\bnot\s+yet\b|不可能|尚未|没有出现|不存在|不可用|无法获得"
    r"|\b(?:would|were|was|did|could|had)\s*(?:not|n't)\s*$)",  # "..., porcelain would not."
    re.IGNORECASE,
)


AVAILABLE = re.compile(
    r"(?=[wiaeWIAE已可])(?:\b(?:would\s+have\s+been|were|was|are|is)\s+(?:all\s+|both\s+|already\s+|readily\s+|widely\s+)?(?:available|in\s+use|known|used|practi[cs]ed)\b"
    r"|\b(?:existed|available)\b|已经存在|已有|(?<!不)可用"
    r"|\b(?:would\s+have\s+been|were|was|did|had)\s*$)",
    re.IGNORECASE,
)  # "..., while A and B were."


# (a dash before "all"/"none" starts a statement of its own: "None of these — all of them were available")
_GROUP_SPLIT = re.compile(
    r"[.;!?。；\n]\s*|,\s*(?:while|whereas|but)\b|\s(?:while|whereas|but)\s"
    r"|\s[—–-]{1,2}\s*(?=(?:all|none|every|each|both|neither)\b)"
    r"|,\s*(?:so|thus|therefore|hence)\s+(?=(?:all|none|every|each|both|neither|no)\b)"
    r"|,\s*(?:since|because|as|given\s+that)\s",
    re.IGNORECASE,
)  # (a reason is a statement of its own)


# "None of the listed techniques would have been available" says every option was not
_GROUP_NONE = re.compile(r"^\s*(?:none|neither)\s+of\b|^\s*no\s+(?:\w+\s+)?(?:would|were|was|could|had|existed)\b", re.IGNORECASE)


_GROUP_ALL = re.compile(r"^\s*(?:all|every|each|both)\b|\ball\s+(?:of\s+)?(?:these|the|four|five|them)\b|都|全部|均", re.IGNORECASE)


_CONDITIONAL = re.compile(r"\b(?:if|depend(?:s|ing)?\s+on|whether)\b|如果|取决于", re.IGNORECASE)


POLARITY = {"available": False, "unavailable": True}  # asks -> the answer is the group said unavailable?


def said_unavailable(clause: str) -> bool | None:
    """True when a clause says its options were not available, False when it says they were, None
    when it says neither."""
    if UNAVAILABLE.search(clause):
        return True
    return False if AVAILABLE.search(clause) else None


def _availability_groups(s: str, n: int, options) -> list[tuple[bool, frozenset[str]]]:
    """(said unavailable, options) of each statement that says a group of options was (not)
    available: "C and D would not have been available", "Not available: C, D", "A and B were"."""
    groups = []
    for clause in _GROUP_SPLIT.split(_unlabelled(s)):
        if not clause or len(clause) > 300:
            continue
        negative = said_unavailable(clause)
        if negative is None:
            continue
        m = Mentions(blank_spans(clause, [(a.start(), a.end()) for a in ASIDE.finditer(clause)]), n, options)
        found = m.primary()
        if found and len({frozenset(r) for r in option_runs(clause, m)}) == 1 and set(found) <= set(letters_for(n)):
            # "Everything except glass and porcelain was unavailable": the group is the others
            groups.append((negative, frozenset(letters_for(n)) - set(found) if ALL_BUT.search(clause) else frozenset(found)))
        elif not found and _GROUP_NONE.search(clause):  # "None of the listed techniques would have been available."
            groups.append((not negative, frozenset(letters_for(n))))
        elif not found and _GROUP_ALL.search(clause):  # "All of these materials would have been available."
            groups.append((negative, frozenset(letters_for(n))))
    return groups


# "The materials that would not have been available are: A, C": the question's words, then the answer
ANSWER_AFTER_PREDICATE = re.compile(  # on lower(text)
    r"(?=[aeiku可存出])(?:avail\w*|exist\w*|known|invented|used?|可用|存在|出现)[^.\n:：]{0,40}?(?:(?:\b(?:are|is|were|would\s+be)\b|是)\s*[:：]?|[:：])"
    r"(?=[^.\n]{1,60}(?:[.\n]|$))"
)


_GROUP_LABEL = re.compile(r"[ \t]*(?:[-*•][ \t]*)?(?:(?:not[ \t]+|un)?available|(?:不)?可用)[ \t]*[:：]")


# an option letter's stop before its text ("A. coil technique and D. hand-molding were available"): no sentence end
_LABEL_STOP = re.compile(r"(?<![A-Za-z0-9])([A-Z])\.(?=[ \t]+[a-z])")


def _unlabelled(s: str) -> str:
    return _LABEL_STOP.sub(r"\1)", s) if "." in s else s


def said_available(line: str) -> bool:
    """Whether a line says of the options it names that they were (not) available ("C and D would
    not have been available."), rather than giving them as the answer with an aside ("C, D (A and B
    came later)", "B, D. Stone and gold were available.") or after the question's own words ("The
    materials that would not have been available are: A, C")."""
    if _GROUP_LABEL.match(lower(line)):
        return True  # "Available: A, C" / "Not available: B, D": a group under its label
    if ANSWER_AFTER_PREDICATE.search(lower(line)):
        return False
    line = _unlabelled(line)
    head = first_clause(blank_spans(line, [(a.start(), a.end()) for a in ASIDE.finditer(line)]))
    if _GROUP_ALL.match(head) or _GROUP_NONE.match(head):  # "All of these materials — stone, silk, ... — would have been available"
        head = re.split(r"[.;!?。；\n]", line, maxsplit=1)[0]
    lead = LEAD_LIST.match(head)
    if lead:
        head = head[lead.end() :]
        head = head[: m.start()] if (m := LETTER_STOP.search(head) or re.search(r"[.;]\s", head)) else head
    return said_unavailable(head) is not None


def polarity_candidate(s: str, n: int, options, asks: str | None, cut: int | None = None) -> Candidate | None:
    """A reply that says which options were and were not available: with the question's polarity
    (``asks``) the group it asks for; without, two groups of opposite polarity are two answers."""
    if len(s) > ANYWHERE_LIMIT:
        return None  # a long reply that states no answer: no reading of it as a whole (as ``_set_anywhere``)
    if asks not in POLARITY and not (UNAVAILABLE.search(s) and AVAILABLE.search(s)):
        return None
    if asks in POLARITY and not (UNAVAILABLE.search(s) or AVAILABLE.search(s)):
        return None
    if _CONDITIONAL.search(s):
        return None  # "If it is Neolithic, porcelain and iron would not have been available; if ..."
    if cut is not None:
        return None  # a reply cut off mid-deliberation: what it said so far of each option is no answer
    groups = _availability_groups(s, n, options)
    if not groups:
        return None
    if asks in POLARITY:
        wanted = [g for negative, g in groups if negative == POLARITY[asks]]
        other = {c for negative, g in groups if negative != POLARITY[asks] for c in g}
        said = other.union(*wanted)
        if said != set(letters_for(n)):
            # not every option is said: one statement naming the asked group answers (never against
            # a stated answer); option-by-option statements that stop short ("Paper was not
            # available. Stone was widely used. ...") do not
            if len(groups) == 1 and wanted:
                return Candidate(wanted[0], 0, Kind.LEAD)
            return None
        if wanted and not other & set().union(*wanted):
            return Candidate(frozenset().union(*wanted), 0, Kind.STRUCTURE)
        if other and not wanted:  # only the other group is said, and it is every option
            return Candidate(frozenset(), 0, Kind.STRUCTURE)
        return Candidate(CONFLICT, 0, Kind.STRUCTURE)
    if len({negative for negative, _ in groups}) == 2:
        return Candidate(CONFLICT, 0, Kind.STRUCTURE)
    return None


# After an option's text, a word that keeps it the name of an option ("bronze and copper", "paper was
# ..."); any other word makes the text describe a thing ("a bronze coin", "a silk scarf")
_NAMING_NEXT = frozenset(
    (
        "and",
        "or",
        "nor",
        "but",
        "was",
        "were",
        "is",
        "are",
        "would",
        "could",
        "might",
        "may",
        "had",
        "has",
        "have",
        "did",
        "does",
        "do",
        "not",
        "as",
        "in",
        "on",
        "at",
        "to",
        "for",
        "from",
        "by",
        "of",
        "since",
        "until",
        "before",
        "after",
        "than",
        "then",
        "also",
        "only",
        "already",
        "being",
        "been",
        "be",
        "existed",
        "exists",
        "came",
        "technique",
        "techniques",
        "method",
        "methods",
        "process",
        "material",
        "materials",
        "option",
        "options",
        "would've",
        "wasn't",
        "weren't",
        "didn't",
        "couldn't",
        "wouldn't",
        "isn't",
        "aren't",
        "hadn't",
        "became",
        "appeared",
        "developed",
        "emerged",
    )
)


_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z'’-]*)")


def caption_only(s: str, n: int, options) -> bool:
    """A short reply that names options only as what a thing is made of or how ("A bronze coin with a
    portrait of a man on it."): a caption of the image, no answer to which options were (not) available."""
    if len(s) > 300 or not options or ABOUT_AVAILABILITY.search(s):
        return False
    if lone_letters(s, n):  # (the cheaper tests first)
        return False
    named = option_mentions(s, options)
    if not named:
        return False
    low = lower(s)
    if STRONG_CUE.search(low) or WEAK_CUE.search(low):
        return False
    return all((m := _NEXT_WORD.match(s, end)) and m.group(1) not in _NAMING_NEXT for _, end, _ in named)


__all__ = [
    "ABOUT_AVAILABILITY",
    "ANSWER_AFTER_PREDICATE",
    "AVAILABLE",
    "NOT_AVAILABLE_HEADER",
    "POLARITY",
    "UNAVAILABLE",
    "caption_only",
    "polarity_candidate",
    "said_available",
    "said_unavailable",
]
