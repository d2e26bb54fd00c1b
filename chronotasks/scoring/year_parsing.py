"""A year read from a reply: the model's estimate, not the years it cites as evidence.

Forms: "1987", "1983年", "二〇〇五年", "nineteen sixty-two", "'07" (2007; "'69" is 1969), "c. 1985",
{"year": 1987}.
Years cited in the reasoning ("the iPhone 4 came out in 2010", "a 1957 Chevrolet") do not count
when an estimate is stated ("taken in 2012", "Year: 2012", "most likely 2012", a line that is only
the year). A hedge ("2003/2004", "1985 or 1986", "between 2015 and 2017", "1978-1982") gives None
unless one final pick is stated ("1970-75, most likely 1972"); a decade ("the late 1970s",
"七十年代") is not a year; a year outside [lo, hi] is outside the answer space.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterator

from chronotasks.scoring.candidates import CONFLICT, Candidate, Kind, decide
from chronotasks.scoring.json_answer import json_answer
from chronotasks.scoring.normalization import lower, normalize
from chronotasks.scoring.ordinals import ZH_DIGITS
from chronotasks.scoring.reply_text import UNSURE, corrections, cut_off, line_around, negated_spans

_ZH_YEAR = re.compile(r"([一二三四五六七八九〇零○Ｏ]{4})\s*年")
_UNITS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90}
_TWO = (
    r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[\s-]+(?:one|two|three|four|five|six|seven|eight|nine))?"
    r"|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen"
    r"|oh[\s-]+(?:one|two|three|four|five|six|seven|eight|nine))"
)
_WORD_YEAR = re.compile(  # on lower(text)
    r"\b(?:(nineteen|eighteen|seventeen|sixteen|twenty)[\s-]+(" + _TWO + r"|hundred)"
    r"|two\s+thousand(?:\s+and)?(?:[\s-]+(" + _TWO + r"|one|two|three|four|five|six|seven|eight|nine))?)\b",
)
_APOSTROPHE = re.compile(r"(?<![\w'’])['’](\d{2})(?![\d'’s])")
_YEAR = re.compile(r"(?<![\d.])(?<!\d,)(\d{4})(?!\d|\s*(?:s\b|'s\b|’s\b)|\s*年代|\s*[.,]\d)")
_RANGE = re.compile(
    r"(?<![\d.])(\d{4})\s*(?:年)?\s*(?:-|–|—|~|～|to|until|through|至|到|或|or|/|and)\s*(?:早期|晚期)?(\d{4}|\d{2})(?![\d])(?!\s*(?:s\b|年代))"
    r"|\bbetween\s+(\d{4})\s+and\s+(\d{4})",
)  # on lower(text)
# the nearest cue before a year says what the year is: the pick, an estimate, or evidence
_PICK = (
    r"final\s+answer|answer|estimated\s+year|year(?!\s+(?:of|when|in\s+which|that)\b)|estimate(?:d)?|my\s+(?:best\s+)?guess|best\s+guess|most\s+likely|"
    r"probably|i'?d\s+say|i\s+would\s+say|i'?ll\s+say|i\s+think|i\s+believe|revise\s+(?:it\s+|my\s+answer\s+)?to|"
    r"go\s+with|going\s+with|settle\s+on|i\s+estimate|final|答案|估计|推测|判断|应该是|应为|年份|我认为"
)
_ESTIMATE = (
    r"taken|shot|photographed|captured|snapped|dates?\s+(?:to|from)|dated|from|around|about|circa|c\.|ca\.|approx\.?|"
    r"approximately|roughly|likely|in\s+the\s+year|~|拍摄于|拍摄|摄于|大约|约|大概|左右"
)
_EVIDENCE = (
    r"released|introduced|launched|came\s+out|invented|built|founded|model|since|before|after|until|debuted|"
    r"began|begun|started|opened|first|produced|manufactured|established|"
    r"between|born|died|ended|won|held|hosted|创立|发布|推出|上市|成立|举办|之后|以前|之前|以后"
)
_CUE = re.compile(
    rf"(?:\b|(?=~|[\u4e00-\u9fff]))(?:(?P<pick>{_PICK})|(?P<estimate>{_ESTIMATE})|(?P<evidence>{_EVIDENCE}))"
)  # on lower(text)
_SENTENCE_START = re.compile(r"[.!?;\n。]\s*")
# a dash before a year starts what the year answers ("the cars look slightly newer — 1994"): a cue
# before it is not the year's
_CLAUSE_START = re.compile(r"\s[—–]\s*")
_BARE_LINE = re.compile(
    r"^\W*(?:(?:estimated\s+)?year\s*[:=]?\s*|answer\s*[:=]?\s*|c\.|ca\.|circa|around|about|approx\.?|approximately|~|约|大约)?\s*"
    r"(\d{4})\s*(?:年)?\s*(?:左右)?\s*(?:\([^()]*\)|\[[^\[\]]*\]|ad|ce)?\W*$",
    re.IGNORECASE,
)
# "..., or possibly 2017", "maybe 1986": a year offered as an alternative to another
_ALTERNATIVE = re.compile(
    r"\b(?:or|maybe|perhaps|possibly)\s+(?:possibly\s+|perhaps\s+|maybe\s+|even\s+|also\s+)?(?:in\s+|around\s+)?(\d{4})(?!\d)"
)
# an explicit pick, which an admission of doubt does not undo ("I can't be sure; my best guess is 1985")
_COMMITTED_PICK = re.compile(
    r"final\s+answer|\banswer\b|best\s+(?:guess|estimate)|my\s+guess|i'?d\s+say|i\s+would\s+say|i'?ll\s+(?:say|go)|"
    r"i\s+estimate|most\s+likely|go(?:ing)?\s+with|settle\s+on|revise|答案|估计|推测"
)
_MODEL_AFTER = re.compile(r"\s+[A-Z][a-z]")  # "a 1957 Chevrolet", "the 2008 Olympics"
_BOUND_AFTER = re.compile(
    r"\s*(?:or\s+(?:later|after|earlier|before)|at\s+the\s+(?:earliest|latest)|onwards?|and\s+(?:later|after|beyond))\b|年以后|年以前|年之后|年之前"
)
# "2012-05-14", "2012/05/14", "2012年5月": a date stands for its year
# ("2016-08" is a month; "2010-12" stays a range)
_DATE = re.compile(
    r"(?<![\d.])(\d{4})(?:[-/.](?:0?[1-9]|1[0-2])[-/.](?:0?[1-9]|[12]\d|3[01])(?!\d)|-0[1-9](?![\d-])|年\s*\d{1,2}\s*月(?:\s*\d{1,2}\s*日)?)"
)


def _two_digit_words(text: str) -> int | None:
    words = text.lower().replace("-", " ").split()
    if not words:
        return None
    if words[0] == "oh" and len(words) == 2:
        return _UNITS.get(words[1])
    if words[0] in _TENS:
        return _TENS[words[0]] + (_UNITS[words[1]] if len(words) == 2 else 0)
    return _UNITS.get(words[0]) if len(words) == 1 else None


def _words_to_digits(s: str) -> str:
    def convert(m: re.Match) -> str:
        if m.group(1):
            century = {"nineteen": 19, "eighteen": 18, "seventeen": 17, "sixteen": 16, "twenty": 20}[m.group(1).lower()]
            rest = 0 if m.group(2).lower() == "hundred" else _two_digit_words(m.group(2))
            return m.group(0) if rest is None else str(century * 100 + rest)
        rest = 0 if not m.group(3) else (_two_digit_words(m.group(3)) if m.group(3).lower() not in _UNITS else _UNITS[m.group(3).lower()])
        return m.group(0) if rest is None else str(2000 + rest)

    low = lower(s)
    if "teen" not in low and "twenty" not in low and "thousand" not in low:
        return s
    out, last = [], 0
    for m in _WORD_YEAR.finditer(low):
        out.append(s[last : m.start()] + convert(m))
        last = m.end()
    return "".join(out) + s[last:]


def _zh_to_digits(s: str) -> str:
    def convert(m: re.Match) -> str:
        digits = "".join(str(ZH_DIGITS.get(ch, 0)) for ch in m.group(1))
        return digits + "年"

    return _ZH_YEAR.sub(convert, s)


def _apostrophes(s: str) -> str:
    """ "'07" -> 2007, "'69" -> 1969 (a two-digit year under 30 is read in the 2000s)."""
    return _APOSTROPHE.sub(lambda m: str((2000 if int(m.group(1)) < 30 else 1900) + int(m.group(1))), s)


class _Cues:
    """The cues and sentence starts of a text, found once; ``tier`` of a year at a position:
    3 pick, 2 estimate, 1 plain, 0 evidence (the nearest cue before it in its sentence decides)."""

    def __init__(self, s: str, low: str) -> None:
        self.s, self.low = s, low
        self.cues: list[tuple[int, str | None]] | None = None
        self.negated: list[tuple[int, int]] = []  # "not 1968": a year rejected is evidence

    def _find(self) -> None:
        self.cues = [(m.end(), m.lastgroup) for m in _CUE.finditer(self.low)]
        self.cue_ends = [end for end, _ in self.cues]
        self.sentences = [m.end() for m in _SENTENCE_START.finditer(self.s)]
        self.sentences = sorted(self.sentences + [m.end() for m in _CLAUSE_START.finditer(self.s)])

    def tier(self, pos: int, end: int) -> int:
        if self.cues is None:
            self._find()
        assert self.cues is not None
        k = bisect_left(self.sentences, pos + 1) - 1
        lo = max(self.sentences[k] if k >= 0 else 0, pos - 80)
        i = bisect_left(self.cue_ends, pos + 1) - 1
        kind = self.cues[i][1] if i >= 0 and self.cue_ends[i] > lo else None
        if (_MODEL_AFTER.match(self.s, end) and kind != "pick") or any(a <= pos < b for a, b in self.negated):
            return 0
        if _BOUND_AFTER.match(self.low, end):
            return 0  # "from 2014 or later", "2014 at the earliest": a bound, not the estimate
        return {"pick": 3, "estimate": 2, "evidence": 0, None: 1}[kind]


def _read(s: str, lo: int, hi: int) -> int | None:
    """The year of a plain text (no JSON), or None."""
    if not s:
        return None
    s = _apostrophes(_zh_to_digits(_words_to_digits(s)))
    if "-" in s or "/" in s or "." in s or "月" in s:
        s = _DATE.sub(lambda m: m.group(1) + " " * (len(m.group(0)) - 4), s)
    bare = _BARE_LINE.match(s)
    if bare:
        year = int(bare.group(1))
        return year if lo <= year <= hi else None
    low = lower(s)
    cues = _Cues(s, low)
    cues.negated = negated_spans(s)
    cuts = [0] + [m.end() for m in corrections(low)]
    for start in reversed(cuts):
        picked = _pick(s, low, cues, start, lo, hi)
        if picked is not None:
            return None if picked == CONFLICT else picked
        if start and any(lo <= int(m.group(1)) <= hi for m in _YEAR.finditer(s, start)):
            return None  # "2011\n\nActually, ... came out in late 2012, so **2013** is more likely": revised, not back to 2011
    return None


MAX_MENTIONS = 64  # a run-away reply citing hundreds of years: only its last ones are read


def _pick(s: str, low: str, cues: _Cues, start: int, lo: int, hi: int):
    mentions: list[tuple[float, int | str, int]] = []  # (tier, year or "range", position)
    ranged: set[int] = set()
    final_line = None  # the year of the reply's last line, when that line is only the year
    found = list(_YEAR.finditer(s, start))
    if len(found) > MAX_MENTIONS:
        start = found[-MAX_MENTIONS].start()
        found = found[-MAX_MENTIONS:]
    for m in _RANGE.finditer(low, start):
        ranged.update(range(m.start(), m.end()))
        tier: float = cues.tier(m.start(), m.end())
        line_start, line_end = line_around(s, m.start(), m.end())
        if not s[line_start : m.start()].strip(" *>-") and not s[m.end() : line_end].strip(" .*"):
            tier = max(tier, 2) + 0.5  # a line that is only two years ("1989 or 1990"): the answer line hedges
        mentions.append((tier, "range", m.start()))
    for m in found:
        if m.start() in ranged or m.start(1) in ranged:
            continue
        year = int(m.group(1))
        if not lo <= year <= hi:
            continue
        tier = cues.tier(m.start(), m.end())
        line_start, line_end = line_around(s, m.start(), m.end())
        if line_end - line_start <= 80 and _BARE_LINE.match(s[line_start:line_end]):
            # a line that is only the year; the reply's last line is its final answer, above a range it narrowed
            # ("... most likely taken between 1955 and 1960.\n\n1958")
            if line_end == len(s.rstrip()) and line_start > start:
                tier, final_line = max(tier, 3) + 0.75, year
            else:
                tier = max(tier, 2) + 0.5
        mentions.append((tier, year, m.start()))
    if not mentions:
        return None
    top = max(t for t, _, _ in mentions)
    if top == 0:
        return None
    chosen = {y for t, y, _ in mentions if t == top}
    if len(chosen) != 1 or "range" in chosen:
        return CONFLICT
    year = int(chosen.pop())  # not "range" (a conflict above)
    if len({y for _, y, _ in mentions if y != "range"} | {year}) > 1 and UNSURE.search(s, start) and not _COMMITTED_PICK.search(low, start):
        return CONFLICT  # "I can't pin down the year ... nothing distinguishes 2018 from 2019"
    if top < 3 and {y for t, y, _ in mentions if t >= 2} - {year}:
        return CONFLICT  # "2017\n\n... the photo was taken in 2018": two estimates, none picked
    if final_line is not None and {y for t, y, _ in mentions if t >= 2 and y != "range"} - {year}:
        return CONFLICT  # "... the photo was taken in 2018.\n\n2017": the last line against the estimate before it
    alternatives = {int(m.group(1)) for m in _ALTERNATIVE.finditer(low, start)} & {y for _, y, _ in mentions}
    if alternatives - {year}:
        return CONFLICT  # "2016, ... or possibly 2017"
    return year


def year_candidates(s: str, lo: int, hi: int) -> Iterator[Candidate]:
    """The year a normalised reply states: its JSON year field, else its estimate in prose."""
    found = json_answer(s, ("year", "final_answer", "answer", "estimated_year", "estimate", "年份"))
    if found is not None:
        after = s[s.rfind("}") + 1 :]
        revision = next(iter(corrections(lower(after))), None) if after.strip(" \n`") else None
        if revision:  # '{"year": 2010, ...}\n\nOn reflection, the phone is an iPhone 4S (2011), so the year must be 2011.'
            yield Candidate(_read(after[revision.end() :], lo, hi), len(s) - len(after) + revision.end(), Kind.CUE, 2)
        year = _read(normalize(found[1], echoes=False), lo, hi)
        yield Candidate(CONFLICT if year is None else year, found[0], Kind.JSON, True)
        return
    cut = cut_off(s)
    year = _read(s if cut is None else s[:cut], lo, hi)
    yield Candidate(year, 0, Kind.CUE)


def parse_year(text, lo: int = 1000, hi: int = 2100) -> int | None:
    """The year a reply estimates, in [lo, hi], or None (see the module docstring)."""
    s = normalize(text)
    if not s:
        return None
    return decide(year_candidates(s, lo, hi))


__all__ = ["parse_year"]
