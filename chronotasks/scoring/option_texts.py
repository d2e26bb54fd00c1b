"""Options named in a piece of text: by letter ("B", "(b)", "Option B"), by position or ordinal ("Image 3",
"the second one", "第二件"), or by the option's text when the texts shown to the model are given ("Early
Medieval Period", "宋代" for the option "Song"); and the runs of options a statement lists.
"""

from __future__ import annotations

import re
import string
from collections.abc import Sequence
from functools import lru_cache

from chronotasks.scoring.chinese_periods import dynasty_mentions, dynasty_of
from chronotasks.scoring.letter_patterns import AND, ARTICLE_NEXT, NOT_ARTICLE
from chronotasks.scoring.option_names import translations
from chronotasks.scoring.ordinals import ordinal_positions
from chronotasks.scoring.reply_text import inside, negated_spans

_LONE = re.compile(r"(?<![A-Za-z0-9])([A-Za-z])(?![A-Za-z0-9]|-[A-Za-z])")


_PRONOUN_I = re.compile(
    r"'|’|\s+(?:am|think|believe|would|will|can|cannot|could|guess|see|notice|say|'d|'ll|'m|feel|suspect|lean|choose|pick|select|estimate|conclude|don't|do|did|have|had|was|must|should|might|may)\b"
)


_ABBREVIATIONS = re.compile(
    r"\b(?:A\.D\.|B\.C\.(?:E\.)?|C\.E\.|A\.M\.|P\.M\.|U\.S\.(?:A\.)?|U\.K\.|e\.g\.|i\.e\.|etc\.|vs\.)|\b[A-Z]\.[A-Z]\.", re.IGNORECASE
)


# "Artifact #3", "Image 3", "图3": a position, when letters label the images
_POSITION = re.compile(
    r"(?:\b(?:artifacts?|artefacts?|images?|imgs?|pictures?|photos?|objects?|items?)\s*#?\s*|#|图片?\s*|第)([1-9])(?!\d)(?!\s*(?:st|nd|rd|th)\b)",
    re.IGNORECASE,
)


# Between two options of one list: separators only ("A, C and D", "B (iron forging) and C").
_GAP = re.compile(
    r"(?:[\s,;&/+'\"()\[\]]|\band\b|\bthe\b|\bplus\b|\bas\s+well\s+as\b|\balso\b|\boptions?\b|\bartifacts?\b|"
    r"\bartefacts?\b|\bimages?\b|\bletters?\b|\bchoices?\b|" + AND + ")*",
    re.IGNORECASE,
)


_GAP_AFTER_TEXT = re.compile(r"(?:[\s,;&/+'\"()\[\]:.\-–—]|\bthe\b|\bplus\b|" + AND + ")*", re.IGNORECASE)


def letters_for(n_options: int) -> str:
    """The option letters of an n-option question: 4 -> "ABCD"."""
    if not 1 <= n_options <= 26:
        raise ValueError(f"n_options must be in 1..26, got {n_options}")
    return string.ascii_uppercase[:n_options]


_PARENTHESIS = re.compile(r"\s*[(（][^()（）]*[)）]\s*")


_GENERIC_TAIL = re.compile(r"\s+(?:period|era|dynasty|epoch)$", re.IGNORECASE)


@lru_cache(maxsize=4096)
def option_variants(option: str) -> tuple[str, ...]:
    """The ways a reply may name an option: its text, without the parenthesised part ("Iron Age"
    for "Iron Age (1800 - 200 BCE)"), without a trailing "Period" ("Early Medieval"), and its
    Chinese names (``option_names``); lower case."""
    text = " ".join(str(option).split())
    core = _PARENTHESIS.sub(" ", text).strip()
    out = {text.lower(), core.lower()}
    short = _GENERIC_TAIL.sub("", core)
    if short != core and len(short) >= 5:
        out.add(short.lower())
    out.update(translations(core))
    return tuple(sorted((v for v in out if len(v) >= 2), key=len, reverse=True))


@lru_cache(maxsize=512)
def _option_matcher(options: tuple[str, ...]) -> tuple[re.Pattern | None, dict[str, int], dict[str, int]]:
    """A pattern finding option texts (longest first, so "Early Modern" is not read as "Modern"),
    the option of each variant, and the option of each dynasty (for options that name one)."""
    owner: dict[str, int] = {}
    for i, option in enumerate(options):
        for v in option_variants(option):
            owner.setdefault(v, i)
    shared = {v for v in owner if sum(v in option_variants(o) for o in options) > 1}
    for v in shared:
        owner.pop(v)
    words = sorted((v for v in owner if v.isascii()), key=len, reverse=True)
    cjk = sorted((v for v in owner if not v.isascii()), key=len, reverse=True)  # no word boundaries in Chinese
    parts = ([r"(?<![\w-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])"] if words else []) + (
        ["(?:" + "|".join(map(re.escape, cjk)) + ")"] if cjk else []
    )
    pattern = re.compile("|".join(parts), re.IGNORECASE) if parts else None
    dynasties: dict[str, int] = {}
    for i, option in enumerate(options):
        d = dynasty_of(option)
        if d is not None:
            dynasties[d] = -1 if d in dynasties else i
    return pattern, owner, {d: i for d, i in dynasties.items() if i >= 0}


def option_mentions(s: str, options: Sequence[str] | None) -> list[tuple[int, int, int]]:
    """(start, end, option index) of each option named by its text (English, Chinese names of
    known options, or Chinese dynasty names for options that are dynasties)."""
    if not options:
        return []
    pattern, owner, dynasties = _option_matcher(tuple(str(o) for o in options))
    found = []
    taken: list[tuple[int, int]] = []
    if pattern is not None:
        for m in pattern.finditer(s):
            found.append((m.start(), m.end(), owner[m.group(0).lower()]))
            taken.append((m.start(), m.end()))
    if dynasties:
        for start, end, name in dynasty_mentions(s):
            if name in dynasties and not any(a < end and start < b for a, b in taken):
                found.append((start, end, dynasties[name]))
    return sorted(found)


def mask_abbreviations(s: str) -> str:
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
            nxt = ARTICLE_NEXT.match(s, m.end())
            if nxt and nxt.group(1) not in NOT_ARTICLE and not (ch == "a" and allow_lower and len(s) <= 12):
                continue
        if up == "I" and (n_options < 9 or _PRONOUN_I.match(s, m.end())):
            continue
        found.append((m.start(), up))
    return found


class _computed_once:
    """``functools.cached_property`` without its lock (Python 3.11 takes one on each first read, a third of a
    microsecond, and a reply makes many ``Mentions``): the value is stored on the instance, which then
    shadows this descriptor."""

    def __init__(self, compute) -> None:
        self.compute, self.name = compute, compute.__name__

    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        value = instance.__dict__[self.name] = self.compute(instance)
        return value


class Mentions:
    """The options a piece of text names, as (start, end, letter): by letter, by position or
    ordinal, by text; those a negation rejects ("not A", "rather than C") dropped. Positions
    ("Image 3") are read only when the question shows no option texts (letters label images)."""

    def __init__(self, text: str, n_options: int, options: Sequence[str] | None, allow_lower: bool = False) -> None:
        self._s = s = mask_abbreviations(text)
        self._n, self._options = n_options, options
        self._neg = neg = negated_spans(s)
        self.letters = [(p, p + 1, c) for p, c in lone_letters(s, n_options, allow_lower) if not inside(p, neg)]

    @_computed_once
    def ordinals(self) -> list[tuple[int, int, str]]:
        letters, s, neg = string.ascii_uppercase, self._s, self._neg
        found = [
            (a, b, letters[k - 1]) for a, b, nums in ordinal_positions(s, self._n) for k in nums if 1 <= k <= 26 and not inside(a, neg)
        ]
        if not self._options:
            found = sorted(
                found + [(m.start(), m.end(), letters[int(m.group(1)) - 1]) for m in _POSITION.finditer(s) if not inside(m.start(), neg)]
            )
        return found

    @_computed_once
    def texts(self) -> list[tuple[int, int, str]]:
        return [(a, b, string.ascii_uppercase[i]) for a, b, i in option_mentions(self._s, self._options) if not inside(a, self._neg)]

    def primary_spans(self) -> list[tuple[int, int, str]]:
        """Letters if any are named, else positions and ordinals, else option texts."""
        if self.letters:
            return self.letters
        return self.ordinals or self.texts

    def primary(self) -> list[str]:
        """The options of ``primary_spans``, in text order, distinct."""
        return list(dict.fromkeys(c for _, _, c in self.primary_spans()))

    def all(self) -> list[str]:
        return list(dict.fromkeys(c for _, _, c in sorted(self.letters + self.ordinals + self.texts)))


def blank_spans(s: str, spans) -> str:
    out, last = [], 0
    for a, b in spans:
        if a < last:
            continue
        out.append(s[last:a] + " " * (b - a))
        last = b
    return "".join(out) + s[last:]


def option_runs(body: str, mentions: Mentions) -> list[list[str]]:
    """The lists of options a statement gives: options joined only by separators form one run
    ("A, C and D"; "B (iron forging) and C"; "paper and synthetic pigments")."""
    spans = mentions.primary_spans()
    if len(spans) < 2:
        return [[c for _, _, c in spans]] if spans else []
    runs = [[spans[0][2]]]
    texts = None
    for (_, prev_end, _), (start, _, letter) in zip(spans, spans[1:]):
        gap = body[prev_end:start]
        joined = _GAP.fullmatch(gap) is not None
        if not joined and mentions._options and spans is not mentions.texts:
            if texts is None:
                texts = [(a, b) for a, b, _ in mentions.texts]
            blanked = blank_spans(gap, [(a - prev_end, b - prev_end) for a, b in texts if prev_end <= a and b <= start])
            joined = blanked != gap and _GAP_AFTER_TEXT.fullmatch(blanked) is not None
        if joined:
            runs[-1].append(letter)
        else:
            runs.append([letter])
    return runs


__all__ = [
    "Mentions",
    "blank_spans",
    "letters_for",
    "lone_letters",
    "mask_abbreviations",
    "option_mentions",
    "option_runs",
    "option_variants",
]
