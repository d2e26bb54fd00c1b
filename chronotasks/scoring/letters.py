"""One option letter read from a reply (sets of letters: ``letter_sets``; options named: ``option_texts``).

An option may be named by its letter ("B", "(b)", "Ｂ", "Option B", "Artifact B", "选项B"), by
position when letters label images ("Artifact #3", "Image 3", "the fourth one", "第二件", "the
first three"), or by its text when the texts shown to the model are given ("Early Medieval
Period", "宋代" for the option "Song", "手工雕刻" for "hand carving").

``letter_candidates`` lists the answers the reply states (``Candidate``s, in the order a grader reads
them: a JSON answer field, the text after the last answer cue, an answer in bold, an answer line, a
conclusion, the whole reply) and ``candidates.decide`` keeps one only when nothing contradicts it:
two letters, a hedge, a refusal, a letter outside the options or no answer at all give ``None``.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator, Sequence

from chronotasks.scoring.candidates import CONFLICT, FALLBACKS, Candidate, Kind, decide
from chronotasks.scoring.json_answer import json_answer
from chronotasks.scoring.letter_patterns import ASIDE, LEAD_CHARS, LETTER_ASKED, OPTION_LINE, OR, OR_BETWEEN
from chronotasks.scoring.normalization import holds_any, lower, normalize, word_gate
from chronotasks.scoring.option_texts import Mentions, blank_spans, letters_for, mask_abbreviations, option_mentions, option_variants
from chronotasks.scoring.reply_text import (
    ANYWHERE_LIMIT,
    HEDGE,
    REVERSE_CUE,
    UNSURE,
    WALKTHROUGH,
    cut_off,
    first_clause,
    hedged_after,
    inside,
    line_around,
    negated_spans,
    regions,
    sentence_start,
)

_STRONG_MENTION = re.compile(
    r"(?:\b(?:options?|artifacts?|artefacts?|images?|imgs?|pictures?|photos?|objects?|items?|choices?|answers?)\s*#?\s*|选项\s*"
    r"|(?-i:\((?=[A-Z])))([A-Za-z])(?![A-Za-z0-9])",  # ("(B", not "(a cockscomb pot)")
    re.IGNORECASE,
)


_OR_LINE = re.compile(r"[\s*(\[]*(?:(?i:answer|option)s?\s*:?\s*)?[A-Z]\)?\s*(?:,\s*)?" + OR + r"\s*\(?[A-Z][\s*)\].?!]*")


_LETTERS_OR = re.compile(r"(?<![A-Za-z0-9])[A-Z]\)?\s*" + OR + r"\s*\(?[A-Z](?![A-Za-z0-9])")  # "B or D" (letters in capitals)


_LEAD = re.compile(
    r"^\s*[-*•]?\s*[(\[{'\"]*(?:(?:the\s+)?(?:answer|option|choice|artifact|image|img)\s*(?:is\s*)?[:#.]?\s*)?([A-Za-z])(?![A-Za-z0-9])\s*[)\]}'\"]*\s*(?:[.:)\-–—,。，：]|$)",
    re.IGNORECASE,
)


_BARE = re.compile(r"[\s(\[{'\"]*(?:option\s+|answer\s*:?\s*)?([A-Za-z])[\s)\]}'\".:]*", re.IGNORECASE)


_WALKTHROUGH_INTRO = re.compile(r"^[^\n]*[:：][ \t]*\n", re.MULTILINE)


def is_options_listing(s: str) -> bool:
    """Whether the reply lists the options ("A. ...\\nB. ...", "C. Classical Period. D. Early Modern
    Period.") rather than giving one as its answer, or goes through them ("Let me analyze each
    option:\\n\\nA. Iron Age: ...", even when cut off after the first)."""
    found = set(OPTION_LINE.findall(s))
    if len(found) >= 2:
        return True
    return bool(found) and any(WALKTHROUGH.search(m.group(0)) for m in _WALKTHROUGH_INTRO.finditer(s))


def content_start(s: str, lo: int, hi: int) -> int:
    """Where the text of a region starts (after the cue's colon, spaces and line breaks)."""
    return hi - len(s[lo:hi].lstrip(" \t:：=-–—,\n\r\"'"))


def _single(found: list[str], valid: str) -> str | None:
    if len(found) == 1:
        return found[0] if found[0] in valid else CONFLICT
    return CONFLICT if found else None


_LABEL_AFTER = re.compile(r"[ \t]*[.):\-–—]?[ \t]*\**[ \t]*([^\n.;,(*]{1,40})")


def _letter_in_clause(clause: str, n: int, options, rest: str, strict: bool = False, ranked: bool = False) -> str | None:
    """The one letter a clause gives (CONFLICT for two, None for none), checking the text after it
    for a hedge ("... but it could also be B"). ``strict`` (a closing "... is X." sentence): no
    lower-case letter ("is a coin") and no option text ("The Iron Age was after the Bronze Age.").
    ``ranked``: the answer is stated as the most likely one ("The most likely answer is B, though A
    is also possible."): an alternative conceded after it does not undo it (rule I)."""
    short = len(clause.strip()) <= 14 and not strict
    m = Mentions(clause, n, None if strict else options, allow_lower=short)
    found = m.primary()
    if len(found) > 1 and OR_BETWEEN.search(clause) is None and m.letters:
        # "C (Early Medieval)" names one option twice; letters decide when they agree
        found = list(dict.fromkeys(c for _, _, c in m.letters))
    if len(found) > 1 and not m.letters:
        # "Qing (B)" / "the Tang dynasty, option D": an option named by text and letter agrees
        outside = Mentions(blank_spans(clause, [(a.start(), a.end()) for a in ASIDE.finditer(clause)]), n, options).primary()
        found = outside if len(outside) == 1 else found
    answer = _single(found, letters_for(n))
    if answer not in (None, CONFLICT) and options and m.letters:
        after = clause[m.letters[0][1] :]
        label = _LABEL_AFTER.match(
            after if after.strip(" .):-–—*") else rest
        )  # "C. Qing", "C) Qing", "C - Qing dynasty": the option's text after its letter
        named = [i for a, _, i in option_mentions(label.group(1), options) if a == 0] if label else []
        if named and named[0] < n and letters_for(n)[named[0]] != answer:
            return CONFLICT  # the letter and the text name different options
    if answer not in (None, CONFLICT) and rest and not ranked:

        def other(window: str) -> bool:
            return any(c != answer for c in Mentions(window, n, options).all())

        if hedged_after(rest, other):
            return CONFLICT
    return answer


# A cue that ranks its answer first: "most likely", "my best guess", "if forced", "I lean towards"
_RANKED = re.compile(
    r"(?:most|more)\s+likely|best\s+(?:guess|bet|answer|option)|lean(?:ing)?\s+towards?|if\s+(?:i\s+(?:had|have)\s+to|forced|pressed)|prefer"
)


def _asked(region: str, clause: str) -> bool:
    """Whether the answer clause ends in a question mark ("C?", "I'm not sure. B?"): no answer."""
    return region[len(clause) : len(clause) + 2].lstrip(" *").startswith(("?", "？"))


def _bare_letter(s: str, n: int, options) -> str | None:
    m = _BARE.fullmatch(s)
    if m:
        return m.group(1).upper()
    if options:
        plain = s.strip(" .。!\"'").lower()
        for i, option in enumerate(options):
            if plain in option_variants(option) and sum(plain in option_variants(o) for o in options) == 1:
                return string.ascii_uppercase[i]
    return None


_LABELLED_OPTION = re.compile(r"\(?([a-z])[.):]\s+(.+)")


def labelled_option(s: str, n: int, options) -> str | None:
    """The letter of a reply that is only an option as the question lists it: "B. Qing", "(C) Classical
    Period (200 BCE - 650 AD)" (read without looking for cues)."""
    labelled = _LABELLED_OPTION.fullmatch(s.strip(" .。!\"'").lower()) if options else None
    if labelled is None:
        return None
    i = ord(labelled.group(1)) - ord("a")
    if i < min(n, len(options)) and labelled.group(2) == " ".join(str(options[i]).split()).lower():
        return labelled.group(1).upper()
    return None


def _json_letter(s: str, n: int, options) -> Candidate | None:
    found = json_answer(s)
    if found is None:
        return None
    pos, inner = found
    inner = normalize(inner, echoes=False)
    value = _bare_letter(inner, n, options) if inner else None
    if value is None and inner:
        value = _letter_in_clause(first_clause(inner), n, options, "")
    if value is not None and value != CONFLICT and value not in letters_for(n):
        value = CONFLICT
    return Candidate(value or CONFLICT, pos, Kind.JSON, True)


_CONCESSION = re.compile(r"(?:although|though|while|even\s+though|despite)\b[^,]*,[^,]*$", re.IGNORECASE)


# "Since Artifacts 1, 3 and 4 are all prehistoric, Artifact 2 is the one that belongs to a different
# period.": the options of the reason are evidence; the answer is the subject after its last comma
_REASON_FIRST = re.compile(r"(?:since|because|as|given\s+that)\b[^\n]*,[^,\n]*\w[^,\n]*$", re.IGNORECASE)


_NONE_OF_THE_OPTIONS = re.compile(
    r"\bnone\s+of\s+the\s+(?:given\s+|listed\s+|provided\s+|available\s+|four\s+|five\s+)?(?:options|choices)\s+"
    r"(?:(?:exactly\s+|really\s+|quite\s+)?(?:corresponds?|matche?s?|fits?|is|are|applies|apply)|(?:is|are)\s+(?:correct|right))\b"
    r"|\b(?:is|are)\s+not\s+(?:among|in|one\s+of|listed\s+(?:in|among))\s+the\s+(?:given\s+|listed\s+|provided\s+|available\s+)?(?:options|choices)\b"
    r"|(?:不在|没有在)(?:给出的|所给的)?选项(?:中|之中|里)|选项中(?:没有|都不)",
    re.IGNORECASE,
)


_OUTSIDE_WORDS = word_gate("none", "not", "选项")  # (one of which each match holds; no other character folds to their letters)


# None of our single-letter questions asks which is oldest or newest
_AGE_SUPERLATIVE = re.compile(r"\b(?:oldest|earliest|newest|latest|most\s+(?:recent|ancient|modern)|youngest)\b|最早|最晚|最古老|最新")


def letter_candidates(s: str, n: int, options) -> Iterator[Candidate | None]:
    """The letters a normalised reply states, in the order a grader reads them."""
    valid = letters_for(n)
    bare = _bare_letter(s, n, options) or labelled_option(s, n, options)
    if bare is not None:
        yield Candidate(bare if bare in valid else CONFLICT, 0, Kind.BARE)
        return
    if "{" in s:
        yield _json_letter(s, n, options)
    listing = is_options_listing(s)
    low = lower(s)
    outside = _NONE_OF_THE_OPTIONS.search(s) if holds_any(low, _OUTSIDE_WORDS) else None
    ranked_only = False  # the only "... is X." said which is oldest or newest
    for how, lo, hi, final in regions(s, odd=True):
        if how == Kind.FALLBACKS:
            if outside:
                # "None of the given options corresponds exactly to the Liao.": the answer is outside the options,
                # unless an answer stated as final comes after it ("Liao is not among the options ... so I lean towards A")
                yield Candidate(CONFLICT, outside.start(), Kind.CUE)
            yield FALLBACKS
            continue
        region = s[lo:hi]  # ("odd": "The artifact in image D is the odd one out." is read as a cue)
        if how == Kind.CLOSING and _AGE_SUPERLATIVE.search(low, sentence_start(low, lo), lo):
            ranked_only = True  # "The oldest artifact is A, a chipped stone tool.": which is oldest, not the asked answer
            continue
        if how == Kind.LINE:
            if (cand := _line_letter(s, lo, hi, final, n, options, listing)) is not None:
                yield cand
            continue
        if how == Kind.ALL:  # (not a walkthrough of the options that never says which)
            yield Candidate(None if listing or ranked_only else _letter_anywhere(region, n, options), 0, how)
            return
        if how == Kind.BOLD:
            if (cand := _bold_letter(s, lo, hi, n, options)) is not None:
                yield cand
            continue
        yield _stated_letter(s, low, how, lo, hi, final, n, options)


def _line_letter(s: str, lo: int, hi: int, final: int, n: int, options, listing: bool) -> Candidate | None:
    """The letter of a line that is only an answer ("B", "B or D": a hedge) or starts with one ("B. The jar
    is later": a fallback); none from the lines of a listing of the options, but from a last line that is
    only a letter below it (its answer)."""
    region = s[lo:hi]
    bare = _bare_letter(region, n, options)
    if listing and (lo == 0 or lo != s.rfind("\n") + 1 or bare is None):
        return None
    if bare is not None:
        return Candidate(bare if bare in letters_for(n) else CONFLICT, lo, Kind.LINE, final)
    if _OR_LINE.fullmatch(region):
        return Candidate(CONFLICT, lo, Kind.LINE, final)
    if _LEAD.match(region) and not region.lower().startswith(("a ", "i ")):
        clause = first_clause(region[:LEAD_CHARS])
        if not _asked(region, clause):
            rest = s[lo + len(clause) : lo + len(clause) + LEAD_CHARS]
            return Candidate(_letter_in_clause(clause, n, options, rest), lo, Kind.LEAD)
    return None


def _bold_letter(s: str, lo: int, hi: int, n: int, options) -> Candidate | None:
    """A letter in bold, unless its line hedges ("Probably **B** or **D**.", "**C**, though **A** is possible")."""
    bare = _bare_letter(s[lo:hi], n, options)
    if bare is None:
        return None
    line_start, line_end = line_around(s, lo, hi)
    line = s[line_start:line_end]
    others = {c for _, _, c in Mentions(line, n, options).letters} - {bare}
    if others and (_LETTERS_OR.search(line) or HEDGE.search(lower(line))):
        bare = CONFLICT
    return Candidate(bare if bare in letters_for(n) else CONFLICT, lo, Kind.BOLD)


def _stated_letter(s: str, low: str, how: Kind, lo: int, hi: int, final: int, n: int, options) -> Candidate:
    """The letter after an answer cue, before "is the answer" or "is the odd one out", in a closing sentence or a
    conclusion: none when it is asked ("C?"); after a concession or a reason, the subject after its comma."""
    region = s[lo:hi]
    clause = first_clause(region)
    if _asked(region.lstrip(" \t:：=-–—,\n\r\"'"), clause):
        return Candidate(CONFLICT, content_start(s, lo, hi), how, final)
    ranked = how == Kind.CUE and _RANKED.search(low, max(0, lo - 40), lo) is not None
    if how == Kind.CUE and REVERSE_CUE.match(low, hi) and _CONCESSION.match(region.lstrip()):
        # "Although C could also be from an earlier period, A is the most likely answer.": the answer
        # is the subject after the concession, the concession's option an alternative ranked below it
        clause, ranked = region[region.rfind(",") + 1 :], True
    elif (how == Kind.ODD or how == Kind.CUE and REVERSE_CUE.match(low, hi)) and _REASON_FIRST.match(region.lstrip()):
        clause = region[region.rfind(",") + 1 :]
    answer = _letter_in_clause(clause, n, options, region[len(clause) :], how == Kind.CLOSING, ranked)
    return Candidate(answer, content_start(s, lo, hi), how, final)


def parse_letter(text, n_options: int = 4, options: Sequence[str] | None = None) -> str | None:
    """The one option letter a reply gives, or None.

    "B", "(b)", "Ｂ", "Answer: B", "正确答案是B", "B. Mughal period", "Option B", "the second one",
    "The odd one out is **B**.", {"answer": "B"}, the option's text ("Early Medieval Period", "宋代"
    for "Song" when ``options`` are given); a self-correction counts its last answer; two answers, a
    hedge, a refusal, a letter outside the n options, or a reply cut off before answering give None.
    """
    s = normalize(text)
    if not s:
        return None
    return decide(letter_candidates(s, n_options, options), cut_off(s))


def _letter_anywhere(s: str, n: int, options) -> str | None:
    """No cue, no answer line: one option named unambiguously (a labelled letter "Artifact C", an
    ordinal, an option text, or the only letter of a short reply), none hedged or refused."""
    if len(s) > ANYWHERE_LIMIT or UNSURE.search(s) or LETTER_ASKED.search(s) or _LETTERS_OR.search(s):
        return None  # (and not "B or D ... Both coins (B and D) ...": a hedge between options)
    masked = mask_abbreviations(s)
    neg = negated_spans(masked)
    strong = {m.group(1).upper() for m in _STRONG_MENTION.finditer(masked) if not inside(m.start(1), neg)}
    m = Mentions(s, n, options)
    candidates = set(strong) | {c for _, _, c in m.ordinals} | {c for _, _, c in m.texts}
    if len(s) <= 200 and not OR_BETWEEN.search(s):
        candidates |= {c for _, _, c in m.letters}
    if len(candidates) != 1:
        return None
    answer = candidates.pop()
    return answer if answer in letters_for(n) else None


__all__ = ["content_start", "is_options_listing", "labelled_option", "letter_candidates", "parse_letter"]
