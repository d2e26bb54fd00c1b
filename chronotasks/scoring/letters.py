"""Option letters read from a reply: one letter, a set of letters, exactly k letters.

An option may be named by its letter ("B", "(b)", "Ｂ", "Option B", "Artifact B", "选项B"), by
ordinal ("the fourth one", "第二件"), or by its text when the texts shown to the model are given
("Early Medieval Period", "宋代" for the option "Song"). The reply is read where a grader reads it
(``reply_text.regions``). Two different answers without a final pick, a hedge ("C or maybe A"),
a letter outside the options or no answer at all give ``None``.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from functools import lru_cache

from chronotasks.scoring.chinese_periods import dynasty_mentions, dynasty_of
from chronotasks.scoring.json_answer import json_answer_text
from chronotasks.scoring.reply_text import (
    ANYWHERE_LIMIT,
    HEDGE,
    SENTENCE_END,
    first_clause,
    hedged_after,
    inside,
    lower,
    negated_spans,
    normalize,
    ordinal_positions,
    regions,
)

CONFLICT = "conflict"  # two different answers: the reply gives none

_LONE = re.compile(r"(?<![A-Za-z0-9])([A-Za-z])(?![A-Za-z0-9]|-[A-Za-z])")
# After "A": words that make it the article ("A stone axe"), unless a verb or conjunction follows.
_NOT_ARTICLE = frozenset((
    "is", "was", "are", "were", "and", "or", "&", "seems", "seem", "looks", "look", "appears", "appear", "belongs", "belong",
    "has", "had", "have", "shows", "show", "would", "could", "should", "might", "may", "must", "will", "can", "then", "to",
    "vs", "versus", "comes", "came", "dates", "date", "precedes", "predates", "differs", "fits", "fit", "matches", "match",
    "stands", "remains", "also", "only", "alone", "too", "first", "last", "through", "being", "be", "goes", "gets",
    "clearly", "likely", "probably", "definitely", "seemed", "seemingly", "represents", "shares", "share", "corresponds",
    "correspond",
))
_ARTICLE_NEXT = re.compile(r"\s+([a-z][a-z'’-]*)")
_PRONOUN_I = re.compile(r"'|’|\s+(?:am|think|believe|would|will|can|cannot|could|guess|see|notice|say|'d|'ll|'m|feel|suspect|lean|choose|pick|select|estimate|conclude|don't|do|did|have|had|was|must|should|might|may)\b")
_ABBREVIATIONS = re.compile(r"\b(?:A\.D\.|B\.C\.(?:E\.)?|C\.E\.|A\.M\.|P\.M\.|U\.S\.(?:A\.)?|U\.K\.|e\.g\.|i\.e\.|etc\.|vs\.)|\b[A-Z]\.[A-Z]\.", re.IGNORECASE)
_UNSURE = re.compile(r"\b(?:can(?:no|')t|unable|not\s+(?:sure|certain|possible)|unsure|hard\s+to\s+(?:say|tell)|difficult\s+to|impossible)\b|无法|不确定|难以", re.IGNORECASE)
_STRONG_MENTION = re.compile(
    r"(?:\b(?:options?|artifacts?|artefacts?|images?|imgs?|pictures?|photos?|objects?|items?|choices?|answers?)\s*#?\s*|选项\s*|\()([A-Za-z])(?![A-Za-z0-9])",
    re.IGNORECASE,
)
_OR_BETWEEN = re.compile(r"(?<![A-Za-z0-9])[A-Z]\)?\s*(?:,\s*)?(?:or|/|或|还是)\s*\(?(?:option\s+|artifact\s+|image\s+)?[A-Z](?![A-Za-z0-9])", re.IGNORECASE)
# "A ✓ B ✗", "A – yes, B – no", "- C. lost-wax casting: ✓"
_VERDICT = re.compile(r"(?<![A-Za-z0-9])([A-Z])(?![A-Za-z0-9])[^A-Z\n✓✗]{0,50}?(✓|✗|(?i:\byes\b|\bno\b|\bcorrect\b|\bincorrect\b|\btrue\b|\bfalse\b))")
_NONE_SET = re.compile(
    r"^\s*(?:none\b|no\s+(?:options?|letters?|techniques?|materials?|answers?)\b|neither\b|nothing\b|empty\b)|^\s*(?:都不|均不|全都不|全不|没有|无|以上都不|一个都没有)",
    re.IGNORECASE,
)
_ALL_SET = re.compile(
    r"^\s*(?:all\b(?:\s+(?:of\s+them|of\s+the\s+(?:above|options|listed\s+\w+)|four|five|options|the\s+options|\w+\s+\w+))?|every\s+(?:option|one|choice|letter)|each\s+option|both)"
    r"|^\s*(?:都|全部|全都|均|所有)",
    re.IGNORECASE,
)
_ALL_BUT = re.compile(r"\b(?:all|every\s+(?:option|one|choice))\b[^.\n]{0,30}?\b(?:but|except(?:\s+for)?|other\s+than|apart\s+from|besides)\b\s*(.*)|除了?(.*?)(?:以外|之外)?(?:都|均)", re.IGNORECASE)
_K_SPLIT = re.compile(SENTENCE_END + r"|;|,\s*(?:while|whereas|but)\b|\bwhile\b|\bwhereas\b")
_ENUMERATION = re.compile(r"\(?[A-Z][.)]\s+[^,;\n]+(?:(?:[,;]|,?\s+and)\s*\(?[A-Z][.)]\s+[^,;\n]+)+")
_OPTION_LINE = re.compile(r"(?:^\s*[-*•]?\s*|(?<=[.)])\s+)\(?([A-Z])[.)]\s+(?:[A-Z][a-z]|[a-z])", re.MULTILINE)
_LEAD = re.compile(r"^\s*[-*•]?\s*[(\[{'\"]*(?:(?:the\s+)?(?:answer|option|choice|artifact|image|img)\s*(?:is\s*)?[:#.]?\s*)?([A-Za-z])(?![A-Za-z0-9])\s*[)\]}'\"]*\s*(?:[.:)\-–—,]|$)", re.IGNORECASE)
_LIST_SEP = r"\s*(?:,|;|&|\band\b|\bplus\b|和|及|与|以及|\s)\s*"
_LEAD_LIST = re.compile(
    r"^\s*(?:(?:the\s+)?(?:answer|options?|artifacts?|images?|letters?)\s*(?:are|is)?\s*[:.]?\s*)?[(\[{'\"]*"
    r"((?:[A-Z](?![A-Za-z0-9])[)\]'\"]*" + _LIST_SEP + r"(?:and\s+)?[(\[{'\"]*){0,26}[A-Z])(?![A-Za-z0-9])",
)


def letters_for(n_options: int) -> str:
    """The option letters of an n-option question: 4 -> "ABCD"."""
    if not 1 <= n_options <= 26:
        raise ValueError(f"n_options must be in 1..26, got {n_options}")
    return string.ascii_uppercase[:n_options]


# ---- option texts ------------------------------------------------------------------------------
_PARENTHESIS = re.compile(r"\s*[(（][^()（）]*[)）]\s*")
_GENERIC_TAIL = re.compile(r"\s+(?:period|era|dynasty|epoch)$", re.IGNORECASE)
_BARE = re.compile(r"[\s(\[{'\"]*(?:option\s+|answer\s*:?\s*)?([A-Za-z])[\s)\]}'\".:]*", re.IGNORECASE)
_COMPACT = re.compile(r"[\s(\[{'\"]*([A-Z]{2,26})[\s)\]}'\".]*")
_ENUM_LETTER = re.compile(r"(?:^|[,;]|\band\b)\s*\(?([A-Z])[.)]")
_OR_NEXT = re.compile(r"\s*(?:or|/|或)\s*\(?[A-Z](?![A-Za-z0-9])")
_OR_WORD = re.compile(r"\s*(?:or|/|或)")
_DASH_WORD = re.compile(r"\s*[-–]\s*[a-z]")


@lru_cache(maxsize=4096)
def _variants(option: str) -> tuple[str, ...]:
    """The ways a reply may name an option: its text, without the parenthesised part ("Iron Age"
    for "Iron Age (1800 - 200 BCE)"), without a trailing "Period" ("Early Medieval"); lower case."""
    text = " ".join(str(option).split())
    core = _PARENTHESIS.sub(" ", text).strip()
    out = {text.lower(), core.lower()}
    short = _GENERIC_TAIL.sub("", core)
    if short != core and len(short) >= 5:
        out.add(short.lower())
    return tuple(sorted((v for v in out if len(v) >= 2), key=len, reverse=True))


@lru_cache(maxsize=512)
def _option_matcher(options: tuple[str, ...]) -> tuple[re.Pattern | None, dict[str, int], dict[str, int]]:
    """A pattern finding option texts (longest first, so "Early Modern" is not read as "Modern"),
    the option of each variant, and the option of each dynasty (for options that name one)."""
    owner: dict[str, int] = {}
    for i, option in enumerate(options):
        for v in _variants(option):
            owner.setdefault(v, i)
    shared = {v for v in owner if sum(v in _variants(o) for o in options) > 1}
    for v in shared:
        owner.pop(v)
    alternatives = sorted(owner, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(re.escape(v) for v in alternatives) + r")(?![\w-])", re.IGNORECASE) if alternatives else None
    dynasties: dict[str, int] = {}
    for i, option in enumerate(options):
        d = dynasty_of(option)
        if d is not None:
            dynasties[d] = -1 if d in dynasties else i
    return pattern, owner, {d: i for d, i in dynasties.items() if i >= 0}


def option_mentions(s: str, options: Sequence[str] | None) -> list[tuple[int, int]]:
    """(position, option index) of each option named by its text (English, or Chinese dynasty names
    for options that are dynasties)."""
    if not options:
        return []
    pattern, owner, dynasties = _option_matcher(tuple(str(o) for o in options))
    found = []
    taken: list[tuple[int, int]] = []
    if pattern is not None:
        for m in pattern.finditer(s):
            found.append((m.start(), owner[m.group(0).lower()]))
            taken.append((m.start(), m.end()))
    if dynasties:
        for start, end, name in dynasty_mentions(s):
            if name in dynasties and not any(a < end and start < b for a, b in taken):
                found.append((start, dynasties[name]))
    return sorted(found)


# ---- letters in a piece of text -------------------------------------------------------------------
def _mask_abbreviations(s: str) -> str:
    return _ABBREVIATIONS.sub(lambda m: " " * len(m.group(0)), s) if "." in s else s


def lone_letters(s: str, n_options: int, allow_lower: bool = False) -> list[tuple[int, str]]:
    """(position, letter) of each letter standing alone; the article "A" ("A stone axe") and the
    pronoun "I" are not letters. Letters outside the options are kept (the caller rejects them)."""
    found = []
    for m in _LONE.finditer(s):
        ch = m.group(1)
        if ch.islower() and not allow_lower:
            continue
        up = ch.upper()
        if up == "A":
            nxt = _ARTICLE_NEXT.match(s, m.end())
            if nxt and nxt.group(1) not in _NOT_ARTICLE and not (ch == "a" and allow_lower and len(s) <= 12):
                continue
        if up == "I" and (n_options < 9 or _PRONOUN_I.match(s, m.end())):
            continue
        found.append((m.start(), up))
    return found


class Mentions:
    """The options a piece of text names: by letter, by ordinal, by text; rejected ones dropped."""

    def __init__(self, text: str, n_options: int, options: Sequence[str] | None, allow_lower: bool = False) -> None:
        s = _mask_abbreviations(text)
        neg = negated_spans(s)
        letters = string.ascii_uppercase
        self.letters = [(p, c) for p, c in lone_letters(s, n_options, allow_lower) if not inside(p, neg)]
        self.ordinals = [(p, letters[k - 1]) for p, nums in ordinal_positions(s, n_options) for k in nums
                         if 1 <= k <= 26 and not inside(p, neg)]
        self.texts = [(p, letters[i]) for p, i in option_mentions(s, options) if not inside(p, neg)]

    def primary(self) -> list[str]:
        """Letters if any are named, else ordinals, else option texts; in text order, distinct."""
        for group in (self.letters, self.ordinals, self.texts):
            if group:
                return list(dict.fromkeys(c for _, c in group))
        return []

    def all(self) -> list[str]:
        return list(dict.fromkeys(c for _, c in sorted(self.letters + self.ordinals + self.texts)))


def _is_options_listing(s: str) -> bool:
    """Whether the reply lists the options ("A. ...\\nB. ...", "C. Classical Period. D. Early Modern
    Period.") rather than giving one as its answer."""
    return len(set(_OPTION_LINE.findall(s))) >= 2


# ---- one letter ----------------------------------------------------------------------------------
def _single(found: list[str], valid: str) -> str | None:
    if len(found) == 1:
        return found[0] if found[0] in valid else CONFLICT
    return CONFLICT if found else None


def _letter_in_clause(clause: str, n: int, options, rest: str) -> str | None:
    """The one letter a clause gives (CONFLICT for two, None for none), checking the text after it
    for a hedge ("... but it could also be B")."""
    short = len(clause.strip()) <= 14
    m = Mentions(clause, n, options, allow_lower=short)
    found = m.primary()
    if len(found) > 1 and _OR_BETWEEN.search(clause) is None and m.letters:
        # "C (Early Medieval)" names one option twice; letters decide when they agree
        found = list(dict.fromkeys(c for _, c in m.letters))
    answer = _single(found, letters_for(n))
    if answer not in (None, CONFLICT) and rest:
        def other(window: str) -> bool:
            return any(c != answer for c in Mentions(window, n, options).all())
        if hedged_after(rest, other):
            return CONFLICT
    return answer


def _bare_letter(s: str, n: int, options) -> str | None:
    m = _BARE.fullmatch(s)
    if m:
        return m.group(1).upper()
    if options:
        plain = s.strip(" .。!\"'").lower()
        for i, option in enumerate(options):
            if plain in _variants(option) and sum(plain in _variants(o) for o in options) == 1:
                return string.ascii_uppercase[i]
    return None


def parse_letter(text, n_options: int = 4, options: Sequence[str] | None = None) -> str | None:
    """The one option letter a reply gives, or None.

    "B", "(b)", "Ｂ", "Answer: B", "正确答案是B", "B. Mughal period", "Option B", "the second one",
    the option's text ("Early Medieval Period", "宋代" for "Song" when ``options`` are given);
    a self-correction counts its last answer; two answers, a hedge, a refusal, a letter outside the
    n options, or a reply cut off before answering give None.
    """
    valid = letters_for(n_options)
    s = normalize(text)
    if not s:
        return None
    bare = _bare_letter(s, n_options, options)
    if bare is not None:
        return bare if bare in valid else None
    listing = _is_options_listing(s)
    for how, lo, hi in regions(s):
        region = s[lo:hi]
        if how == "line":
            if listing:
                continue
            bare = _bare_letter(region, n_options, options)
            if bare is not None:
                return bare if bare in valid else None
            if _LEAD.match(region) and not region.lower().startswith(("a ", "i ")):
                clause = first_clause(region)
                answer = _letter_in_clause(clause, n_options, options, s[lo + len(clause):])
                if answer is not None:
                    return answer if answer != CONFLICT else None
            continue
        if how == "all":
            return _letter_anywhere(region, n_options, options)
        clause = first_clause(region)
        answer = _letter_in_clause(clause, n_options, options, region[len(clause):])
        if answer is not None:
            return answer if answer != CONFLICT else None
    return None


def _letter_anywhere(s: str, n: int, options) -> str | None:
    """No cue, no answer line: one option named unambiguously (a labelled letter "Artifact C", an
    ordinal, an option text, or the only letter of a short reply), none hedged or refused."""
    if len(s) > ANYWHERE_LIMIT or _UNSURE.search(s):
        return None
    masked = _mask_abbreviations(s)
    neg = negated_spans(masked)
    strong = {m.group(1).upper() for m in _STRONG_MENTION.finditer(masked) if not inside(m.start(1), neg)}
    m = Mentions(s, n, options)
    candidates = set(strong) | {c for _, c in m.ordinals} | {c for _, c in m.texts}
    if len(s) <= 200 and not _OR_BETWEEN.search(s):
        candidates |= {c for _, c in m.letters}
    if len(candidates) != 1:
        return None
    answer = candidates.pop()
    return answer if answer in letters_for(n) else None


# ---- several letters -------------------------------------------------------------------------------
def _set_in_clause(clause: str, n: int, options) -> frozenset[str] | str | None:
    """The set of letters a clause gives: a letter list, "none", "all", "all but C", ordinals, option
    texts. CONFLICT for alternatives ("A or C", "C, D, and maybe B") or a letter outside the options."""
    valid = letters_for(n)
    body = clause.strip()
    if not body:
        return None
    but = _ALL_BUT.search(body)
    if but:
        rest = but.group(1) if but.group(1) is not None else but.group(2) or ""
        lead = _LEAD_LIST.match(rest)
        excluded = set(Mentions(lead.group(1) if lead else first_clause(rest), n, options).primary())
        if excluded and excluded <= set(valid):
            return frozenset(set(valid) - excluded)
    if _NONE_SET.search(body):
        return frozenset()
    compact = _COMPACT.fullmatch(body)
    if compact and len(set(compact.group(1))) == len(compact.group(1)):  # "AC"
        return frozenset(compact.group(1)) if set(compact.group(1)) <= set(valid) else CONFLICT
    m = Mentions(body, n, options, allow_lower=len(body) <= 12)
    found = m.primary()
    if _ALL_SET.search(body) and (not found or set(found) == set(valid)):
        return frozenset(valid)
    if not found:
        return None
    if _OR_BETWEEN.search(body) or HEDGE.search(lower(body)):
        return CONFLICT
    if any(c not in valid for c in found):
        return CONFLICT
    return frozenset(found)


def _compact(s: str, n: int) -> str | None:
    m = _COMPACT.fullmatch(s)
    if m and len(set(m.group(1))) == len(m.group(1)):
        return m.group(1)
    return None


def _verdicts(s: str, n: int) -> frozenset[str] | None:
    """ "A ✓ B ✗ C ✓ D ✗" / "A – yes, B – no": the letters marked yes, when every option has one mark."""
    marks: dict[str, bool] = {}
    for m in _VERDICT.finditer(s):
        letter, mark = m.group(1).upper(), m.group(2).lower()
        if letter in marks:
            return None
        marks[letter] = mark in ("✓", "yes", "correct", "true")
    if len(marks) >= 2 and set(marks) == set(letters_for(n)):
        return frozenset(c for c, ok in marks.items() if ok)
    return None


def _lead_list(line: str, n: int, options) -> frozenset[str] | str | None:
    """A line that starts with the answer: "A, B, C. Lithography (D) is later." -> {A, B, C};
    "C. lost-wax casting, D. coil technique" -> {C, D}."""
    if _ENUMERATION.fullmatch(line.strip().rstrip(".")):
        got = frozenset(_ENUM_LETTER.findall(line.strip()))
        return got if got <= set(letters_for(n)) else CONFLICT
    m = _LEAD_LIST.match(line)
    if not m:
        return None
    rest = line[m.end():]
    if _OR_NEXT.match(rest) or _DASH_WORD.match(rest):
        return CONFLICT if _OR_WORD.match(rest) else None
    got = _set_in_clause(m.group(1), n, None)
    if got in (None, CONFLICT):
        return got
    tail = first_clause(rest)
    if HEDGE.search(lower(tail)) and any(c not in got for c in Mentions(tail, n, options).all()):
        return CONFLICT
    return got


def parse_letter_set(text, n_options: int = 4, options: Sequence[str] | None = None,
                     k: int | None = None) -> frozenset[str] | None:
    """The set of option letters a reply gives, or None.

    "A, C", "A and C", "AC", "[A, C]", "答案：C、D", "A ✓ B ✗ C ✓ D ✗", "A – yes, B – no, ...",
    "None" (the empty set), "all of them", "every option but C", "the first and the third", option
    texts. Alternatives ("A or C", "C, D, and maybe B"), a letter outside the options or no answer
    give None. With ``k``, the answer must have exactly k letters (and a clause naming exactly k
    letters is preferred when the reply names the others too).
    """
    valid = letters_for(n_options)
    s = normalize(text)
    if not s:
        return None
    inner = json_answer_text(s)
    if inner is not None:
        s = normalize(inner)

    def done(got):
        if got is None or got == CONFLICT:
            return None
        return got if k is None or len(got) == k else None

    compact = _compact(s, n_options)
    if compact is not None:
        return done(frozenset(compact) if set(compact) <= set(valid) else None)
    marked = _verdicts(s, n_options)
    if marked is not None:
        return done(marked)
    listing = _is_options_listing(s)
    for how, lo, hi in regions(s):
        region = s[lo:hi]
        if how == "line":
            if listing:
                continue
            got = _lead_list(region, n_options, options)
            if got is not None:
                return done(got)
            if len(region) <= 40:
                got = _set_in_clause(region, n_options, options)
                if got is not None:
                    return done(got)
            continue
        if how == "all":
            return done(_set_anywhere(region, n_options, options, k))
        clause = first_clause(region)
        got = _set_in_clause(clause, n_options, options)
        if k is not None and how == "cue" and (got is None or (got != CONFLICT and len(got) != k and not _ends_here(clause, region))):
            picked = _k_clause(region, n_options, options, k)
            if picked is not None:
                return done(picked)
        if got is not None:
            return done(got)
    return None


def _ends_here(clause: str, region: str) -> bool:
    return len(region.strip()) - len(clause.strip()) < 3


def _k_clause(s: str, n: int, options, k: int) -> frozenset[str] | None:
    """The one clause of s naming exactly k letters ("B, D, E are from the same period; A and C are older")."""
    picked = set()
    for clause in _K_SPLIT.split(s):
        got = _set_in_clause(clause, n, options)
        if got not in (None, CONFLICT) and len(got) == k:
            picked.add(got)
    return picked.pop() if len(picked) == 1 else None


def _set_anywhere(s: str, n: int, options, k: int | None) -> frozenset[str] | None:
    if len(s) > ANYWHERE_LIMIT or _UNSURE.search(s):
        return None
    if k is not None:
        got = _k_clause(s, n, options, k)
        if got is not None:
            return got
    if len(s) > 200:
        return None
    got = _set_in_clause(s, n, options)
    return None if got == CONFLICT else got


def parse_k_of_n(text, n_options: int, k: int, options: Sequence[str] | None = None) -> frozenset[str] | None:
    """Exactly k distinct option letters out of n (e.g. the 3 contemporaneous of 5), else None."""
    return parse_letter_set(text, n_options, options, k=k)


__all__ = ["CONFLICT", "Mentions", "letters_for", "lone_letters", "option_mentions", "parse_k_of_n", "parse_letter",
           "parse_letter_set"]
