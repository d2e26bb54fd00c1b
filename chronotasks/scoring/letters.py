"""Option letters read from a reply: one letter, a set of letters, exactly k letters.

An option may be named by its letter ("B", "(b)", "Ｂ", "Option B", "Artifact B", "选项B"), by
position when letters label images ("Artifact #3", "Image 3", "the fourth one", "第二件", "the
first three"), or by its text when the texts shown to the model are given ("Early Medieval
Period", "宋代" for the option "Song", "手工雕刻" for "hand carving").

Each reader lists the answers the reply states (``Candidate``s, in the order a grader reads them:
a JSON answer field, the text after the last answer cue, an answer in bold, an answer line, a list
of options introduced as the answer, per-option verdicts, a conclusion, the whole reply) and
``candidates.decide`` keeps one only when nothing contradicts it. Within a statement a set is the
one run of options it lists ("C, D (A and B came later)": the aside is not part of the answer);
two runs ("Not available: C, D. Available: A, B."), alternatives ("A or C", "C, D, and maybe B"),
a letter outside the options or no answer at all give ``None``.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterator, Sequence
from functools import lru_cache

from chronotasks.scoring.candidates import CONFLICT, FALLBACKS, Candidate, decide
from chronotasks.scoring.chinese_periods import dynasty_mentions, dynasty_of
from chronotasks.scoring.json_answer import json_answer
from chronotasks.scoring.option_names import translations
from chronotasks.scoring.reply_text import (
    ANYWHERE_LIMIT,
    HEDGE,
    REVERSE_CUE,
    SENTENCE_END,
    STRONG_CUE,
    UNSURE,
    WALKTHROUGH,
    WEAK_CUE,
    cut_off,
    first_clause,
    hedged_after,
    holds_any,
    inside,
    line_around,
    lower,
    negated_spans,
    normalize,
    ordinal_positions,
    regions,
    sentence_start,
    word_gate,
)

_LONE = re.compile(r"(?<![A-Za-z0-9])([A-Za-z])(?![A-Za-z0-9]|-[A-Za-z])")
# After "A": words that make it the article ("A stone axe"), unless a verb or conjunction follows.
_NOT_ARTICLE = frozenset((
    "is", "was", "are", "were", "and", "or", "&", "seems", "seem", "looks", "look", "appears", "appear", "belongs", "belong",
    "has", "had", "have", "shows", "show", "would", "could", "should", "might", "may", "must", "will", "can", "then", "to",
    "vs", "versus", "comes", "came", "dates", "date", "precedes", "predates", "differs", "fits", "fit", "matches", "match",
    "stands", "remains", "also", "only", "alone", "too", "first", "last", "through", "being", "be", "goes", "gets",
    "clearly", "likely", "probably", "definitely", "seemed", "seemingly", "represents", "shares", "share", "corresponds",
    "correspond", "et", "y", "und", "dan", "ve", "và", "ou", "oder", "atau", "hoặc", "veya", "est", "es", "ist",   # ("A et C", "A ou C")
))
_ARTICLE_NEXT = re.compile(r"\s+([a-z][a-z'’-]*)")
_PRONOUN_I = re.compile(r"'|’|\s+(?:am|think|believe|would|will|can|cannot|could|guess|see|notice|say|'d|'ll|'m|feel|suspect|lean|choose|pick|select|estimate|conclude|don't|do|did|have|had|was|must|should|might|may)\b")
_ABBREVIATIONS = re.compile(r"\b(?:A\.D\.|B\.C\.(?:E\.)?|C\.E\.|A\.M\.|P\.M\.|U\.S\.(?:A\.)?|U\.K\.|e\.g\.|i\.e\.|etc\.|vs\.)|\b[A-Z]\.[A-Z]\.", re.IGNORECASE)
_STRONG_MENTION = re.compile(
    r"(?:\b(?:options?|artifacts?|artefacts?|images?|imgs?|pictures?|photos?|objects?|items?|choices?|answers?)\s*#?\s*|选项\s*"
    r"|(?-i:\((?=[A-Z])))([A-Za-z])(?![A-Za-z0-9])",   # ("(B", not "(a cockscomb pot)")
    re.IGNORECASE,
)
# "or" in the languages models answer in
_OR = r"(?:or|/|或|还是|または|또는|(?<=\s)(?:ou|oder|atau|hoặc|veya|или|أو)(?=\s))"
_OR_LINE = re.compile(r"[\s*(\[]*(?:(?i:answer|option)s?\s*:?\s*)?[A-Z]\)?\s*(?:,\s*)?" + _OR + r"\s*\(?[A-Z][\s*)\].?!]*")
_LETTERS_OR = re.compile(r"(?<![A-Za-z0-9])[A-Z]\)?\s*" + _OR + r"\s*\(?[A-Z](?![A-Za-z0-9])")   # "B or D" (letters in capitals)
_OR_BETWEEN = re.compile(r"(?<![A-Za-z0-9])[A-Z]\)?\s*(?:,\s*)?" + _OR + r"\s*\(?(?:option\s+|artifact\s+|image\s+)?[A-Z](?![A-Za-z0-9])", re.IGNORECASE)
# "Artifact #3", "Image 3", "图3": a position, when letters label the images
_POSITION = re.compile(r"(?:\b(?:artifacts?|artefacts?|images?|imgs?|pictures?|photos?|objects?|items?)\s*#?\s*|#|图片?\s*|第)([1-9])(?!\d)(?!\s*(?:st|nd|rd|th)\b)", re.IGNORECASE)
# "A ✓ B ✗", "A – yes, B – no", "- C. lost-wax casting: ✓"
# (one of which each match of _VERDICT holds, in lower case: "ye" and "fal", as "s" also matches "ſ" there)
_VERDICT_WORDS = word_gate("✓", "✗", "ye", "no", "correct", "true", "fal")
_VERDICT = re.compile(r"(?<![A-Za-z0-9])([A-Z])(?![A-Za-z0-9])[^A-Z\n✓✗]{0,50}?(✓|✗|(?i:\byes\b|\bno\b|\bcorrect\b|\bincorrect\b|\btrue\b|\bfalse\b))")
_MARK = re.compile(r"(?=[✓✗yYnNcCiItTfFaAdD])(?:✓|✗|(?<![\w-])(?:yes|no|correct|incorrect|true|false|applies|does\s+not\s+apply|not\s+applicable)(?![\w-]))", re.IGNORECASE)
_NONE_SET = re.compile(
    r"^\s*(?:none\b|no\s+(?:options?|letters?|techniques?|materials?|answers?)\b|neither\b|nothing\b|empty\b)|^\s*(?:都不|均不|全都不|全不|没有|无|以上都不|一个都没有)",
    re.IGNORECASE,
)
_ALL_SET = re.compile(
    r"^\s*(?:all\b(?:\s+(?:of\s+them|of\s+the\s+(?:above|options|listed\s+\w+)|four|five|options|the\s+options|\w+\s+\w+))?|every\s+(?:option|one|choice|letter)|each\s+option|both)"
    r"|^\s*(?:都|全部|全都|均|所有)",
    re.IGNORECASE,
)
_ALL_BUT = re.compile(r"(?=[aetAET除])(?:\b(?:all|everything|every\s+(?:option|one|choice)|tou(?:te)?s|alle[sn]?|tod[oa]s|tutt[ei])\b[^.\n]{0,30}?"
                      r"\b(?:but|except(?:\s+for)?|other\s+than|apart\s+from|besides|sauf|excepté|hormis|außer|ausser|excepto|salvo|menos"
                      r"|tranne|eccetto)\b\s*(.*)|除了?(.*?)(?:以外|之外)?(?:都|均))", re.IGNORECASE)   # (and in French, German, Spanish, Italian)
_K_SPLIT = re.compile(SENTENCE_END + r"|;|,\s*(?:while|whereas|but)\b|\bwhile\b|\bwhereas\b")
_ENUMERATION = re.compile(r"\(?[A-Z][.)]\s+[^,;\n]+(?:(?:[,;]|,?\s+and)\s*\(?[A-Z][.)]\s+[^,;\n]+)+")
_OPTION_LINE = re.compile(r"(?:^[ \t]*[-*•]?[ \t]*|(?<=[.)])\s+)\(?([A-Z])(?:[.)]|\s*[:\-–—])\s+(?:[A-Z][a-z]|[a-z]|[A-Z]n?\s[a-z]|[\u4e00-\u9fff])", re.MULTILINE)
_LEAD = re.compile(r"^\s*[-*•]?\s*[(\[{'\"]*(?:(?:the\s+)?(?:answer|option|choice|artifact|image|img)\s*(?:is\s*)?[:#.]?\s*)?([A-Za-z])(?![A-Za-z0-9])\s*[)\]}'\"]*\s*(?:[.:)\-–—,。，：]|$)", re.IGNORECASE)
# "and" in the languages models answer in: "1 et 3", "B, D dan E", "3と4", "B와 D", "B и D"
_AND = r"\band\b|\bet\b|\by\b|\bund\b|\bdan\b|\bve\b|\bvà\b|\bи\b|\bو\b|和|及|与|以及|と|および|및|와|과"
_LIST_SEP = rf"(?>\s*(?:[,;&]|{_AND}|\bplus\b)?\s*)"  # atomic: no backtracking through long blanks
_LEAD_LIST = re.compile(
    r"^\s*(?:(?:the\s+)?(?:answer|options?|artifacts?|images?|letters?)\s*(?:are|is)?\s*[:.]?\s*)?[\[{'\"]*"
    r"((?:\(?[A-Z](?![A-Za-z0-9])\)?[\]'\"]*" + _LIST_SEP + r"(?:and\s+)?[\[{'\"]*)?(?:(?:\([A-Z]\)|[A-Z])(?![A-Za-z0-9])[\]'\"]*"
    + _LIST_SEP + r"(?:and\s+)?[\[{'\"]*){0,25}(?:\([A-Z]\)|[A-Z]))(?![A-Za-z0-9])",
)
# Between two options of one list: separators only ("A, C and D", "B (iron forging) and C").
_GAP = re.compile(r"(?:[\s,;&/+'\"()\[\]]|\band\b|\bthe\b|\bplus\b|\bas\s+well\s+as\b|\balso\b|\boptions?\b|\bartifacts?\b|"
                  r"\bartefacts?\b|\bimages?\b|\bletters?\b|\bchoices?\b|" + _AND + ")*", re.IGNORECASE)
_GAP_AFTER_TEXT = re.compile(r"(?:[\s,;&/+'\"()\[\]:.\-–—]|\bthe\b|\bplus\b|" + _AND + ")*", re.IGNORECASE)
# An aside in brackets ("(A and B came later)", "(iron forging)"); "(A)" alone is a letter.
_ASIDE = re.compile(r"\((?=[^()\n]*[A-Za-z]{2}|[^()\n]*[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af])[^()\n]{1,120}\)|（[^（）\n]{1,120}）")
# A line that starts with an option: "- B. iron forging", "2. **Artifact E** – ...", "C"
_ITEM = re.compile(r"^[ \t]*(?:[-*•+]|\d{1,2}[.)]|\(\d{1,2}\))?[ \t]*(?:(?i:options?|artifacts?|artefacts?|images?|letters?|choices?)[ \t]*#?[ \t]*)?"
                   r"\(?([A-Z])(?![A-Za-z0-9])\)?[ \t]*(?:[.):\-–—](?![ \t]*\(?[A-Z](?![A-Za-z0-9]))|$)", re.MULTILINE)
# After an option's text at the start of an item line: the line ends or goes on after a separator.
_AFTER_ITEM_TEXT = re.compile(r"[ \t]*(?:\([^()\n]*\)[ \t]*|（[^（）\n]*）[ \t]*)?(?:$|[:：,\-–—]|\.(?:\s|$))")  # not "Stone (B) was available"
_WORDS = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]{2}")
_ITEM_WORDS = 6  # an answer list names each option ("C — lost-wax casting"); more words describe it
_LINE_ENDS_COLON = re.compile(r"[:：][ \t]*(?=\n)")
# A line that introduces the answer as a list: "The correct options are:", "The three ... are:"
_INTRO = re.compile(r"(?=[aicswAICSW答是])(?:\b(?:are|is|answers?|correct|select(?:ed)?|cho(?:ose|sen)|would(?:\s+not)?\s+have\s+been\s+\w+|were)\b[^\n]{0,40}|答案[^\n]{0,10}|是)[:：]\s*$", re.IGNORECASE)


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
# a reply that is only a list of letters: "A, C", "B and D", "(A), (C), (E)", "C & D." (read without looking for cues)
_PLAIN_LIST = re.compile(r"\s*\(?[A-Z]\)?(?:(?:[ \t]*[,&][ \t]*(?:and[ \t]+)?|[ \t]+and[ \t]+)\(?[A-Z]\)?)*[ \t]*\.?\s*")
_PLAIN_LETTER = re.compile(r"[A-Z]")
_ENUM_LETTER = re.compile(r"(?:^|[,;]|\band\b)\s*\(?([A-Z])[.)]")
_OR_NEXT = re.compile(r"\s*" + _OR + r"\s*\(?[A-Z](?![A-Za-z0-9])")
_OR_WORD = re.compile(r"\s*" + _OR)
_DASH_WORD = re.compile(r"\s*[-–]\s*[a-z]")


@lru_cache(maxsize=4096)
def _variants(option: str) -> tuple[str, ...]:
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
        for v in _variants(option):
            owner.setdefault(v, i)
    shared = {v for v in owner if sum(v in _variants(o) for o in options) > 1}
    for v in shared:
        owner.pop(v)
    words = sorted((v for v in owner if v.isascii()), key=len, reverse=True)
    cjk = sorted((v for v in owner if not v.isascii()), key=len, reverse=True)  # no word boundaries in Chinese
    parts = ([r"(?<![\w-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])"] if words else []) + \
        (["(?:" + "|".join(map(re.escape, cjk)) + ")"] if cjk else [])
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
        self._s = s = _mask_abbreviations(text)
        self._n, self._options = n_options, options
        self._neg = neg = negated_spans(s)
        self.letters = [(p, p + 1, c) for p, c in lone_letters(s, n_options, allow_lower) if not inside(p, neg)]

    @_computed_once
    def ordinals(self) -> list[tuple[int, int, str]]:
        letters, s, neg = string.ascii_uppercase, self._s, self._neg
        found = [(a, b, letters[k - 1]) for a, b, nums in ordinal_positions(s, self._n) for k in nums
                 if 1 <= k <= 26 and not inside(a, neg)]
        if not self._options:
            found = sorted(found + [(m.start(), m.end(), letters[int(m.group(1)) - 1])
                                    for m in _POSITION.finditer(s) if not inside(m.start(), neg)])
        return found

    @_computed_once
    def texts(self) -> list[tuple[int, int, str]]:
        return [(a, b, string.ascii_uppercase[i]) for a, b, i in option_mentions(self._s, self._options)
                if not inside(a, self._neg)]

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


_WALKTHROUGH_INTRO = re.compile(r"^[^\n]*[:：][ \t]*\n", re.MULTILINE)


def _is_options_listing(s: str) -> bool:
    """Whether the reply lists the options ("A. ...\\nB. ...", "C. Classical Period. D. Early Modern
    Period.") rather than giving one as its answer, or goes through them ("Let me analyze each
    option:\\n\\nA. Iron Age: ...", even when cut off after the first)."""
    found = set(_OPTION_LINE.findall(s))
    if len(found) >= 2:
        return True
    return bool(found) and any(WALKTHROUGH.search(m.group(0)) for m in _WALKTHROUGH_INTRO.finditer(s))


def _blank(s: str, spans) -> str:
    out, last = [], 0
    for a, b in spans:
        if a < last:
            continue
        out.append(s[last:a] + " " * (b - a))
        last = b
    return "".join(out) + s[last:]


def _content(s: str, lo: int, hi: int) -> int:
    """Where the text of a region starts (after the cue's colon, spaces and line breaks)."""
    return hi - len(s[lo:hi].lstrip(" \t:：=-–—,\n\r\"'"))


# ---- one letter ----------------------------------------------------------------------------------
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
    if len(found) > 1 and _OR_BETWEEN.search(clause) is None and m.letters:
        # "C (Early Medieval)" names one option twice; letters decide when they agree
        found = list(dict.fromkeys(c for _, _, c in m.letters))
    if len(found) > 1 and not m.letters:
        # "Qing (B)" / "the Tang dynasty, option D": an option named by text and letter agrees
        outside = Mentions(_blank(clause, [(a.start(), a.end()) for a in _ASIDE.finditer(clause)]), n, options).primary()
        found = outside if len(outside) == 1 else found
    answer = _single(found, letters_for(n))
    if answer not in (None, CONFLICT) and options and m.letters:
        after = clause[m.letters[0][1]:]
        label = _LABEL_AFTER.match(after if after.strip(" .):-–—*") else rest)   # "C. Qing", "C) Qing", "C - Qing dynasty": the option's text after its letter
        named = [i for a, _, i in option_mentions(label.group(1), options) if a == 0] if label else []
        if named and named[0] < n and letters_for(n)[named[0]] != answer:
            return CONFLICT   # the letter and the text name different options
    if answer not in (None, CONFLICT) and rest and not ranked:
        def other(window: str) -> bool:
            return any(c != answer for c in Mentions(window, n, options).all())
        if hedged_after(rest, other):
            return CONFLICT
    return answer


# A cue that ranks its answer first: "most likely", "my best guess", "if forced", "I lean towards"
_RANKED = re.compile(r"(?:most|more)\s+likely|best\s+(?:guess|bet|answer|option)|lean(?:ing)?\s+towards?|if\s+(?:i\s+(?:had|have)\s+to|forced|pressed)|prefer")
_LETTER_ASKED = re.compile(r"(?<![A-Za-z0-9])[A-Z]\)?\s*[?？]")  # "C?", "B and C?": asked, not answered


def _asked(region: str, clause: str) -> bool:
    """Whether the answer clause ends in a question mark ("C?", "I'm not sure. B?"): no answer."""
    return region[len(clause):len(clause) + 2].lstrip(" *").startswith(("?", "？"))


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


_LABELLED_OPTION = re.compile(r"\(?([a-z])[.):]\s+(.+)")


def _labelled_option(s: str, n: int, options) -> str | None:
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
    return Candidate(value or CONFLICT, pos, "json", True)


_BULLET_LINE = re.compile(r"^[ \t]*[-*•][ \t]+\S", re.MULTILINE)
_CONCESSION = re.compile(r"(?:although|though|while|even\s+though|despite)\b[^,]*,[^,]*$", re.IGNORECASE)
# "Since Artifacts 1, 3 and 4 are all prehistoric, Artifact 2 is the one that belongs to a different
# period.": the options of the reason are evidence; the answer is the subject after its last comma
_REASON_FIRST = re.compile(r"(?:since|because|as|given\s+that)\b[^\n]*,[^,\n]*\w[^,\n]*$", re.IGNORECASE)
_NONE_OF_THE_OPTIONS = re.compile(
    r"\bnone\s+of\s+the\s+(?:given\s+|listed\s+|provided\s+|available\s+|four\s+|five\s+)?(?:options|choices)\s+"
    r"(?:(?:exactly\s+|really\s+|quite\s+)?(?:corresponds?|matche?s?|fits?|is|are|applies|apply)|(?:is|are)\s+(?:correct|right))\b"
    r"|\b(?:is|are)\s+not\s+(?:among|in|one\s+of|listed\s+(?:in|among))\s+the\s+(?:given\s+|listed\s+|provided\s+|available\s+)?(?:options|choices)\b"
    r"|(?:不在|没有在)(?:给出的|所给的)?选项(?:中|之中|里)|选项中(?:没有|都不)", re.IGNORECASE)
_OUTSIDE_WORDS = word_gate("none", "not", "选项")   # (one of which each match holds; no other character folds to their letters)
# None of our single-letter questions asks which is oldest or newest
_AGE_SUPERLATIVE = re.compile(r"\b(?:oldest|earliest|newest|latest|most\s+(?:recent|ancient|modern)|youngest)\b|最早|最晚|最古老|最新")


def letter_candidates(s: str, n: int, options) -> Iterator[Candidate | None]:
    """The letters a normalised reply states, in the order a grader reads them."""
    valid = letters_for(n)
    bare = _bare_letter(s, n, options) or _labelled_option(s, n, options)
    if bare is not None:
        yield Candidate(bare if bare in valid else CONFLICT, 0, "bare")
        return
    if "{" in s:
        yield _json_letter(s, n, options)
    listing = _is_options_listing(s)
    low = lower(s)
    outside = _NONE_OF_THE_OPTIONS.search(s) if holds_any(low, _OUTSIDE_WORDS) else None
    ranked_only = False   # the only "... is X." said which is oldest or newest
    for how, lo, hi, final in regions(s, odd=True):
        if how == "fallbacks":
            if outside:
                # "None of the given options corresponds exactly to the Liao.": the answer is outside the options,
                # unless an answer stated as final comes after it ("Liao is not among the options ... so I lean towards A")
                yield Candidate(CONFLICT, outside.start(), "cue")
            yield FALLBACKS
            continue
        region = s[lo:hi]  # ("odd": "The artifact in image D is the odd one out." is read as a cue)
        if how == "closing" and _AGE_SUPERLATIVE.search(low, sentence_start(low, lo), lo):
            ranked_only = True   # "The oldest artifact is A, a chipped stone tool.": which is oldest, not the asked answer
            continue
        if how == "line":
            if listing and (lo == 0 or lo != s.rfind("\n") + 1 or _bare_letter(region, n, options) is None):
                continue   # (a listing's lines; but a last line that is only a letter, below the listing, is its answer)
            bare = _bare_letter(region, n, options)
            if bare is not None:
                yield Candidate(bare if bare in valid else CONFLICT, lo, how, final)
            elif _OR_LINE.fullmatch(region):   # a line "B or D": a hedge
                yield Candidate(CONFLICT, lo, how, final)
            elif _LEAD.match(region) and not region.lower().startswith(("a ", "i ")):
                clause = first_clause(region[:_LEAD_CHARS])
                if not _asked(region, clause):
                    yield Candidate(_letter_in_clause(clause, n, options, s[lo + len(clause):lo + len(clause) + _LEAD_CHARS]), lo, "lead")
            continue
        if how == "all":  # (not a walkthrough of the options that never says which)
            yield Candidate(None if listing or ranked_only else _letter_anywhere(region, n, options), 0, how)
            return
        if how == "bold":
            bare = _bare_letter(region, n, options)
            if bare is not None:
                line_start, line_end = line_around(s, lo, hi)
                line = s[line_start:line_end]
                others = {c for _, _, c in Mentions(line, n, options).letters} - {bare}
                if others and (_LETTERS_OR.search(line) or HEDGE.search(lower(line))):
                    bare = CONFLICT   # "Probably **B** or **D**.", "**C**, though **A** is possible": its line hedges
                yield Candidate(bare if bare in valid else CONFLICT, lo, how)
            continue
        clause = first_clause(region)
        if _asked(region.lstrip(" \t:：=-–—,\n\r\"'"), clause):
            yield Candidate(CONFLICT, _content(s, lo, hi), how, final)
            continue
        ranked = how == "cue" and _RANKED.search(low, max(0, lo - 40), lo) is not None
        if how == "cue" and REVERSE_CUE.match(low, hi) and _CONCESSION.match(region.lstrip()):
            # "Although C could also be from an earlier period, A is the most likely answer.": the answer
            # is the subject after the concession, the concession's option an alternative ranked below it
            clause, ranked = region[region.rfind(",") + 1:], True
        elif (how == "odd" or how == "cue" and REVERSE_CUE.match(low, hi)) and _REASON_FIRST.match(region.lstrip()):
            clause = region[region.rfind(",") + 1:]
        yield Candidate(_letter_in_clause(clause, n, options, region[len(clause):], how == "closing", ranked), _content(s, lo, hi), how, final)


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
    if len(s) > ANYWHERE_LIMIT or UNSURE.search(s) or _LETTER_ASKED.search(s) or _LETTERS_OR.search(s):
        return None   # (and not "B or D ... Both coins (B and D) ...": a hedge between options)
    masked = _mask_abbreviations(s)
    neg = negated_spans(masked)
    strong = {m.group(1).upper() for m in _STRONG_MENTION.finditer(masked) if not inside(m.start(1), neg)}
    m = Mentions(s, n, options)
    candidates = set(strong) | {c for _, _, c in m.ordinals} | {c for _, _, c in m.texts}
    if len(s) <= 200 and not _OR_BETWEEN.search(s):
        candidates |= {c for _, _, c in m.letters}
    if len(candidates) != 1:
        return None
    answer = candidates.pop()
    return answer if answer in letters_for(n) else None


# ---- several letters -------------------------------------------------------------------------------
def _runs(body: str, mentions: Mentions) -> list[list[str]]:
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
            blanked = _blank(gap, [(a - prev_end, b - prev_end) for a, b in texts if prev_end <= a and b <= start])
            joined = blanked != gap and _GAP_AFTER_TEXT.fullmatch(blanked) is not None
        if joined:
            runs[-1].append(letter)
        else:
            runs.append([letter])
    return runs


_BRACKETED_LETTER = re.compile(r"\(([A-Z])\)")


def _set_in_clause(clause: str, n: int, options) -> frozenset[str] | str | None:
    """The set of letters a statement gives: a letter list, "none", "all", "all but C", ordinals,
    option texts. CONFLICT for alternatives ("A or C", "C, D, and maybe B"), two lists ("C, D ...
    A, B ...") or a letter outside the options; asides in brackets are not part of the list."""
    valid = letters_for(n)
    body = clause.strip()
    if not body:
        return None
    if _LETTER_ASKED.search(body):
        return CONFLICT
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
    hedged = _OR_BETWEEN.search(body) is not None or HEDGE.search(lower(body)) is not None
    plain = _blank(body, [(m.start(), m.end()) for m in _ASIDE.finditer(body)]) if "(" in body or "（" in body else body
    m = Mentions(plain, n, options, allow_lower=len(body) <= 12)
    found = m.primary()
    labels = _BRACKETED_LETTER.findall(body)
    if len(labels) >= 2 and len(set(labels)) == len(labels) and {c for _, _, c in m.letters} <= set(labels):
        # "the rim fragment (B), the pot (D), and the small clay figure (E)": items named with their letters
        return CONFLICT if hedged or not set(labels) <= set(valid) else frozenset(labels)
    if _ALL_SET.search(body) and (not found or set(found) == set(valid)):
        return frozenset(valid)
    if not found:
        return CONFLICT if hedged and Mentions(body, n, options).primary() else None
    if hedged:
        return CONFLICT
    if any(c not in valid for c in found):
        return CONFLICT
    runs = _runs(plain, m)
    if len({frozenset(r) for r in runs}) > 1:
        head = _sentence_after_letter(body, n, options)
        return _set_in_clause(head, n, options) if head else CONFLICT
    return frozenset(found)


_LETTER_STOP = re.compile(r"(?<![A-Za-z0-9])([A-Z])\.\s+(?=[A-Z][a-z])")


def _sentence_after_letter(body: str, n: int, options) -> str | None:
    """The first sentence of "C, D. Terracotta and stone were in use.": a letter's full stop ends
    the sentence when what follows is not that option's text ("C. Early Medieval Period")."""
    for m in _LETTER_STOP.finditer(body):
        after = body[m.end():].lower()
        letter = ord(m.group(1)) - ord("A")
        if options and 0 <= letter < len(options) and any(after.startswith(v) for v in _variants(options[letter])):
            continue
        return body[:m.start() + 1]
    return None


def _compact(s: str, n: int) -> str | None:
    m = _COMPACT.fullmatch(s)
    if m and len(set(m.group(1))) == len(m.group(1)):
        return m.group(1)
    return None


def _verdicts(s: str, n: int) -> frozenset[str] | None:
    """ "A ✓ B ✗ C ✓ D ✗" / "A – yes, B – no": the letters marked yes, when every option has one mark."""
    if not holds_any(lower(s), _VERDICT_WORDS):
        return None
    marks: dict[str, bool] = {}
    for m in _VERDICT.finditer(s):
        letter, mark = m.group(1).upper(), m.group(2).lower()
        if letter in marks:
            return None
        marks[letter] = mark in ("✓", "yes", "correct", "true")
    if len(marks) >= 2 and set(marks) == set(letters_for(n)):
        return frozenset(c for c, ok in marks.items() if ok)
    return None


_ABOUT_AVAILABILITY = re.compile(r"avail|exist|in\s+use|anachron|invented|可用|存在", re.IGNORECASE)
_NOT_AVAILABLE_HEADER = re.compile(r"not\s+avail|unavail|anachron|not\s+(?:yet\s+)?(?:exist|invented)|不可用|不存在", re.IGNORECASE)


def _line_verdicts(s: str, n: int, options, asks: str | None = None) -> frozenset[str] | str | None:
    """Per-option lines or table rows, each naming one option and marking it ("| B | iron forging |
    ✓ |", "- Paper: ✗", "**C. Glass** – No."): the options marked yes, when every option is marked
    (CONFLICT when an option gets two different marks). Marks under a header or beside words about
    availability ("| Available? |") say whether an option was available, not whether it answers:
    they are read with the question's polarity (``asks``), and give CONFLICT without it."""
    marks: dict[str, bool] = {}
    if "\n" not in s or sum(1 for line in s.splitlines() if _MARK.search(line)) < n:
        return None  # fewer marked lines than options: not every option is marked
    context = []
    headers = []  # the lines without marks: what the marks mean ("| Available? |"); a row's own words follow its mark
    for line in s.splitlines():
        if not _MARK.search(line):
            if line.lstrip().startswith("|") or line.rstrip().endswith(":"):
                context.append(line)  # a table header, a line introducing the verdicts
                headers.append(line)
            continue
        m = Mentions(line.replace("|", " "), n, options)
        named = {c for _, _, c in m.letters} or {c for _, _, c in m.texts}
        spans = [sp for sp in m.letters + m.texts if sp[2] in named]
        if len(named) != 1:
            continue
        letter = named.pop()
        # the mark after the option is named ("- A. Screen printing – ✗ Industrial screen printing is ..."
        # names it again after its mark)
        before = [b for a, b, _ in spans if not _MARK.search(line, min(b for _, b, _ in spans), a)]
        after = _MARK.search(line, max(before))
        if after is None:
            continue
        ok = after.group(0).lower() in ("✓", "yes", "correct", "true", "applies")
        if marks.get(letter, ok) != ok:
            return CONFLICT
        marks[letter] = ok
        context.append(line[:max(before)] + " " + line[after.end():])
    if not (len(marks) >= 2 and set(marks) == set(letters_for(n))):
        return None
    described = " ".join(context)
    if _ABOUT_AVAILABILITY.search(described):
        if asks not in POLARITY:
            return CONFLICT
        marked_unavailable = _NOT_AVAILABLE_HEADER.search(" ".join(headers)) is not None
        return frozenset(c for c, ok in marks.items() if (ok == marked_unavailable) == POLARITY[asks])
    return frozenset(c for c, ok in marks.items() if ok)


_MORE_AFTER_ASIDE = re.compile(r"\s*(?:\([^()\n]{1,60}\)|（[^（）\n]{1,60}）)\s*(?:[,;&]|" + _AND + r")\s*\(?[A-Z](?![A-Za-z0-9])")


def _lead_list(line: str, n: int, options) -> frozenset[str] | str | None:
    """A line that starts with the answer: "A, B, C. Lithography (D) is later." -> {A, B, C};
    "C. lost-wax casting, D. coil technique" -> {C, D}; "C, D (A and B came later)" -> {C, D}."""
    if _ENUMERATION.fullmatch(line.strip().rstrip(".")):
        enumerated = frozenset(_ENUM_LETTER.findall(line.strip()))
        return enumerated if enumerated <= set(letters_for(n)) else CONFLICT
    m = _LEAD_LIST.match(line)
    if not m:
        return None
    rest = line[m.end():]
    if re.match(r"\s*:\s*\S", rest) and m.group(1) == line[:m.end()].strip():
        return None  # "A: available" heads a line about option A
    if m.group(1) == "A" and (word := _ARTICLE_NEXT.match(rest)) and word.group(1) not in _NOT_ARTICLE:
        return None  # "A silver coin with a portrait": the article (a caption, not an answer)
    if _OR_NEXT.match(rest) or _DASH_WORD.match(rest):
        return CONFLICT if _OR_WORD.match(rest) else None
    if _MORE_AFTER_ASIDE.match(rest):   # "A（アルミニウム）とD（アクリル絵具）": the list goes on after an aside
        return _set_in_clause(first_clause(line), n, options)
    got = _set_in_clause(m.group(1), n, None)
    if got in (None, CONFLICT):
        return got
    tail = first_clause(rest.lstrip(" .;,)"))  # "B, C. D is also possible." hedges in the next sentence
    if HEDGE.search(lower(tail)) and any(c not in got for c in Mentions(tail, n, options).all()):
        return CONFLICT
    if _list_goes_on(rest, n, options, got):
        return None  # "B. C."
    return got


def _item_block(s: str, start: int, n: int, options) -> tuple[frozenset[str] | None, int, int]:
    """The options of the lines from ``start`` on that each start with one ("- B. iron forging",
    "2. **Artifact E** – a bronze vessel", "C"), blank lines allowed between; (None, start, 0) when
    there are none. Returns the set, where the block ends and the most words an item says after
    its option (a walkthrough says sentences: "B. stone - Stone was widely used for tools.")."""
    picked: list[str] = []
    pos = start
    end = start
    wordiest = 0
    for line in s[start:].split("\n"):
        line_end = pos + len(line)
        if line.strip():
            m = _ITEM.match(line)
            letter = m.group(1).upper() if m else None
            after = m.end() if m else 0
            if letter is None and options:
                texts = option_mentions(line, options)
                head = line.strip(" \t-*•+0123456789.)(")
                if (texts and head.lower().startswith(line[texts[0][0]:texts[0][1]].lower())
                        and _AFTER_ITEM_TEXT.match(line, texts[0][1])):
                    letter = string.ascii_uppercase[texts[0][2]]
                    after = texts[0][1]
            if letter is None:
                break
            picked.append(letter)
            wordiest = max(wordiest, len(_WORDS.findall(line[after:])))
            end = line_end
        pos = line_end + 1
    if not picked or len(set(picked)) != len(picked):
        return None, start, 0
    return frozenset(picked), end, wordiest


def _structures(s: str, n: int, options, k: int | None, covered: list[tuple[int, int]], asks: str | None = None,
                cut: int | None = None) -> Iterator[Candidate]:
    """Answers given as structure: a list of options under a line that introduces the answer ("The
    correct options are:\\n- B. iron forging\\n- C. wheel-thrown pottery"), a reply that is only such
    a list ("C\\nD", "1. C — lost-wax casting\\n2. D — coil"), per-option verdicts."""
    valid = set(letters_for(n))
    starts = [(0, False)] if "\n" in s and _ITEM.match(s) else []
    for m in _LINE_ENDS_COLON.finditer(s):
        line_start = s.rfind("\n", 0, m.start()) + 1
        intro = s[line_start:m.end()]
        if _INTRO.search(intro) and not WALKTHROUGH.search(intro):
            starts.append((m.end() + 1, True))
    for start, introduced in starts:
        got, end, wordiest = _item_block(s, start, n, options)
        if got is None:
            continue
        whole = start == 0 and (end >= len(s.rstrip()) or s[end:end + 2] == "\n\n")
        if not introduced and (not whole or len(got) < 2 or "\n" not in s[:end] or wordiest > _ITEM_WORDS):
            continue  # not a list given as the answer: a walkthrough that says something of each option
        if not introduced and got == valid and k is None:
            continue  # every option, one a line, with no introduction: a walkthrough
        if k is not None and got <= valid and len(got) != k:
            continue
        value: frozenset[str] | str | None = got if got <= valid else CONFLICT
        if end >= len(s.rstrip()) and cut is not None:
            value = None   # the list runs to where the reply was cut off: it may go on ("- Block printing: This technique")
        covered.append((start, end))
        yield Candidate(value, start, "structure")
    verdicts = _line_verdicts(s, n, options, asks)
    if verdicts is not None:
        yield Candidate(verdicts, 0, "structure")
    if k is not None:
        yield from _group_statements(s, n, options, k)


# "Artifacts 2, 3 and 4 all show similar features", "B, C and E share the same glaze": a group of k said to be of one time
_SAME_GROUP = re.compile(r"(?=[sabwcfg])\b(?:share|show\s+(?:a\s+)?(?:similar|the\s+same)|(?:are|were)\s+(?:all\s+)?(?:from|of)\s+the\s+same"
                         r"|belong\s+(?:together|to\s+the\s+same)|(?:were|are)\s+(?:all\s+)?(?:likely\s+|probably\s+)?(?:made|created|produced)\s+(?:in|during)\s+the\s+same"
                         r"|come\s+from\s+the\s+same|form\s+(?:a|the|one)\s+group|go\s+together)\b")   # (on lower(text))
_GROUP_SENTENCE = re.compile(r"[^.!?;。\n]+")


def _group_statements(s: str, n: int, options, k: int) -> Iterator[Candidate]:
    """The groups of k options a reply says are of one time, each a statement of the answer (a reply
    that opens "1, 3, 4" and explains "Artifacts 2, 3 and 4 all show similar features" gives two)."""
    valid = set(letters_for(n))
    low = lower(s)
    if UNSURE.search(s):
        return   # ("I can't determine which three ... A, C and D share some features, but so do B, C and D")
    for sentence in _GROUP_SENTENCE.finditer(low):
        same = _SAME_GROUP.search(low, sentence.start(), sentence.end())
        if same is None:
            continue
        subject = s[sentence.start():same.start()]
        if HEDGE.search(low, sentence.start(), same.start()):
            continue
        named = {c for _, _, c in Mentions(subject, n, options).letters}
        if len(named) == k and named <= valid:
            yield Candidate(frozenset(named), sentence.start(), "closing")


# Availability said of a group of options: "C and D would not have been available", "A and B were
# in use", "Not available: C, D". Which group answers depends on the question (``asks``).
_UNAVAILABLE = re.compile(
    r"(?=[wcdhnuaimWCDHNUAIM不尚没无])(?:\b(?:would\s+not|wouldn't|were\s+not|weren't|was\s+not|wasn't|could\s+not|couldn't|did\s+not|didn't|had\s+not|hadn't|not)"
    r"\s+(?:have\s+been\s+|have\s+|yet\s+(?:be(?:en)?\s+|have\s+(?:been\s+)?)?|be\s+)?(?:available|exist(?:ed)?|in\s+use|known|invented|developed|around|possible)\b"
    r"|\bunavailable\b|\banachronistic\b|\b(?:came|come|appeared|arrived|were\s+(?:invented|developed|introduced))\s+(?:much\s+|far\s+)?later\b"
    r"|\b(?:are|is|were)\s+(?:all\s+|both\s+)?(?:modern|later|too\s+late|much\s+later)\b|\bnot\s+yet\b|不可能|尚未|没有出现|不存在|不可用|无法获得"
    r"|\b(?:would|were|was|did|could|had)\s*(?:not|n't)\s*$)",  # "..., porcelain would not."
    re.IGNORECASE)
_AVAILABLE = re.compile(
    r"(?=[wiaeWIAE已可])(?:\b(?:would\s+have\s+been|were|was|are|is)\s+(?:all\s+|both\s+|already\s+|readily\s+|widely\s+)?(?:available|in\s+use|known|used|practi[cs]ed)\b"
    r"|\b(?:existed|available)\b|已经存在|已有|(?<!不)可用"
    r"|\b(?:would\s+have\s+been|were|was|did|had)\s*$)", re.IGNORECASE)  # "..., while A and B were."
# (a dash before "all"/"none" starts a statement of its own: "None of these — all of them were available")
_GROUP_SPLIT = re.compile(r"[.;!?。；\n]\s*|,\s*(?:while|whereas|but)\b|\s(?:while|whereas|but)\s"
                          r"|\s[—–-]{1,2}\s*(?=(?:all|none|every|each|both|neither)\b)"
                          r"|,\s*(?:so|thus|therefore|hence)\s+(?=(?:all|none|every|each|both|neither|no)\b)"
                          r"|,\s*(?:since|because|as|given\s+that)\s", re.IGNORECASE)   # (a reason is a statement of its own)
# "None of the listed techniques would have been available" says every option was not
_GROUP_NONE = re.compile(r"^\s*(?:none|neither)\s+of\b|^\s*no\s+(?:\w+\s+)?(?:would|were|was|could|had|existed)\b", re.IGNORECASE)
_GROUP_ALL = re.compile(r"^\s*(?:all|every|each|both)\b|\ball\s+(?:of\s+)?(?:these|the|four|five|them)\b|都|全部|均", re.IGNORECASE)
_CONDITIONAL = re.compile(r"\b(?:if|depend(?:s|ing)?\s+on|whether)\b|如果|取决于", re.IGNORECASE)
POLARITY = {"available": False, "unavailable": True}  # asks -> the answer is the group said unavailable?


def _said_unavailable(clause: str) -> bool | None:
    """True when a clause says its options were not available, False when it says they were, None
    when it says neither."""
    if _UNAVAILABLE.search(clause):
        return True
    return False if _AVAILABLE.search(clause) else None


def _availability_groups(s: str, n: int, options) -> list[tuple[bool, frozenset[str]]]:
    """(said unavailable, options) of each statement that says a group of options was (not)
    available: "C and D would not have been available", "Not available: C, D", "A and B were"."""
    groups = []
    for clause in _GROUP_SPLIT.split(_unlabelled(s)):
        if not clause or len(clause) > 300:
            continue
        negative = _said_unavailable(clause)
        if negative is None:
            continue
        m = Mentions(_blank(clause, [(a.start(), a.end()) for a in _ASIDE.finditer(clause)]), n, options)
        found = m.primary()
        if found and len({frozenset(r) for r in _runs(clause, m)}) == 1 and set(found) <= set(letters_for(n)):
            # "Everything except glass and porcelain was unavailable": the group is the others
            groups.append((negative, frozenset(letters_for(n)) - set(found) if _ALL_BUT.search(clause) else frozenset(found)))
        elif not found and _GROUP_NONE.search(clause):  # "None of the listed techniques would have been available."
            groups.append((not negative, frozenset(letters_for(n))))
        elif not found and _GROUP_ALL.search(clause):  # "All of these materials would have been available."
            groups.append((negative, frozenset(letters_for(n))))
    return groups


# "The materials that would not have been available are: A, C": the question's words, then the answer
_ANSWER_AFTER_PREDICATE = re.compile(  # on lower(text)
    r"(?=[aeiku可存出])(?:avail\w*|exist\w*|known|invented|used?|可用|存在|出现)[^.\n:：]{0,40}?(?:(?:\b(?:are|is|were|would\s+be)\b|是)\s*[:：]?|[:：])"
    r"(?=[^.\n]{1,60}(?:[.\n]|$))")


_GROUP_LABEL = re.compile(r"[ \t]*(?:[-*•][ \t]*)?(?:(?:not[ \t]+|un)?available|(?:不)?可用)[ \t]*[:：]")


# an option letter's stop before its text ("A. coil technique and D. hand-molding were available"): no sentence end
_LABEL_STOP = re.compile(r"(?<![A-Za-z0-9])([A-Z])\.(?=[ \t]+[a-z])")


def _unlabelled(s: str) -> str:
    return _LABEL_STOP.sub(r"\1)", s) if "." in s else s


def _said_available(line: str) -> bool:
    """Whether a line says of the options it names that they were (not) available ("C and D would
    not have been available."), rather than giving them as the answer with an aside ("C, D (A and B
    came later)", "B, D. Stone and gold were available.") or after the question's own words ("The
    materials that would not have been available are: A, C")."""
    if _GROUP_LABEL.match(lower(line)):
        return True   # "Available: A, C" / "Not available: B, D": a group under its label
    if _ANSWER_AFTER_PREDICATE.search(lower(line)):
        return False
    line = _unlabelled(line)
    head = first_clause(_blank(line, [(a.start(), a.end()) for a in _ASIDE.finditer(line)]))
    if _GROUP_ALL.match(head) or _GROUP_NONE.match(head):   # "All of these materials — stone, silk, ... — would have been available"
        head = re.split(r"[.;!?。；\n]", line, maxsplit=1)[0]
    lead = _LEAD_LIST.match(head)
    if lead:
        head = head[lead.end():]
        head = head[:m.start()] if (m := _LETTER_STOP.search(head) or re.search(r"[.;]\s", head)) else head
    return _said_unavailable(head) is not None


def _polarity(s: str, n: int, options, asks: str | None, cut: int | None = None) -> Candidate | None:
    """A reply that says which options were and were not available: with the question's polarity
    (``asks``) the group it asks for; without, two groups of opposite polarity are two answers."""
    if len(s) > ANYWHERE_LIMIT:
        return None  # a long reply that states no answer: no reading of it as a whole (as ``_set_anywhere``)
    if asks not in POLARITY and not (_UNAVAILABLE.search(s) and _AVAILABLE.search(s)):
        return None
    if asks in POLARITY and not (_UNAVAILABLE.search(s) or _AVAILABLE.search(s)):
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
                return Candidate(wanted[0], 0, "lead")
            return None
        if wanted and not other & set().union(*wanted):
            return Candidate(frozenset().union(*wanted), 0, "structure")
        if other and not wanted:  # only the other group is said, and it is every option
            return Candidate(frozenset(), 0, "structure")
        return Candidate(CONFLICT, 0, "structure")
    if len({negative for negative, _ in groups}) == 2:
        return Candidate(CONFLICT, 0, "structure")
    return None


def _cue_set(region: str, n: int, options, k: int | None) -> frozenset[str] | str | None:
    """The set after an answer cue: a list of options on the following lines ("are:\\n- B\\n- C"), or
    the first clause."""
    head = region.lstrip(" \t:：=-–—")
    if head.startswith("\n"):
        offset = len(region) - len(head) + len(head) - len(head.lstrip("\n"))
        got, _, _ = _item_block(region, offset, n, options)
        if got is not None and (k is None or len(got) == k):
            return got if got <= set(letters_for(n)) else CONFLICT
    return _set_in_clause(first_clause(region), n, options)


_LEAD_CHARS = 400
_ONLY_SEPARATORS = re.compile(r"[\s,;&/.()*\-–—]*(?:(?:plus|also|" + _AND + r")[\s,;&/.()*\-–—]*)*", re.IGNORECASE)


def _list_goes_on(rest: str, n: int, options, got) -> bool:
    """Whether a sentence after a set answer is itself only more options ("Porcelain. Paper.",
    "B. C."): the answer goes on past its first sentence, so its first sentence alone is not it."""
    for sentence in re.split(r"[.;。；\n]", rest):
        if not sentence.strip():
            continue
        named = Mentions(sentence, n, options, allow_lower=len(sentence.strip()) <= 12)
        spans = sorted((a, b) for a, b, _ in named.letters + named.texts)
        if spans and _ONLY_SEPARATORS.fullmatch(_blank(sentence, spans)) and set(named.all()) - set(got):
            return True
    return False


def _lead_candidate(s: str, lo: int, n: int, options, k: int | None) -> Candidate | None:
    """A line that starts with the answer and goes on ("A, C. Lithography (D) is later.", "None of the
    above. All of these were available."): a fallback reading."""
    hi = s.find("\n", lo)
    region = s[lo:min(len(s) if hi < 0 else hi, lo + _LEAD_CHARS)]  # a line that starts with the answer: its start
    if k is None and _said_available(region):
        return None  # a group said (not) available: which group answers is the polarity's call
    got = _lead_list(region, n, options)
    if got is None and len(first_clause(region)) <= 40:
        clause = first_clause(region)
        got = _set_in_clause(clause, n, options)
        named = got if isinstance(got, frozenset) else frozenset()
        if got not in (None, CONFLICT) and hedged_after(region[len(clause):], lambda w: bool(set(Mentions(w, n, options).all()) - named)):
            got = CONFLICT  # "I would group A, C and E. B might also belong with them"
        if got not in (None, CONFLICT) and _list_goes_on(region[len(clause):], n, options, got):
            got = None  # "Porcelain. Paper."
    if got not in (None, CONFLICT) and k is not None and len(got) != k:
        got = None  # "B and E stand out as outliers: ..." names the other two of five
    return Candidate(got, lo, "lead")


# After an option's text, a word that keeps it the name of an option ("bronze and copper", "paper was
# ..."); any other word makes the text describe a thing ("a bronze coin", "a silk scarf")
_NAMING_NEXT = frozenset((
    "and", "or", "nor", "but", "was", "were", "is", "are", "would", "could", "might", "may", "had", "has", "have", "did",
    "does", "do", "not", "as", "in", "on", "at", "to", "for", "from", "by", "of", "since", "until", "before", "after", "than",
    "then", "also", "only", "already", "being", "been", "be", "existed", "exists", "came", "technique", "techniques",
    "method", "methods", "process", "material", "materials", "option", "options", "would've", "wasn't", "weren't",
    "didn't", "couldn't", "wouldn't", "isn't", "aren't", "hadn't", "became", "appeared", "developed", "emerged",
))
_NEXT_WORD = re.compile(r"[ \t]+([a-z][a-z'’-]*)")


def _caption_only(s: str, n: int, options) -> bool:
    """A short reply that names options only as what a thing is made of or how ("A bronze coin with a
    portrait of a man on it."): a caption of the image, no answer to which options were (not) available."""
    if len(s) > 300 or not options or _ABOUT_AVAILABILITY.search(s):
        return False
    if lone_letters(s, n):   # (the cheaper tests first)
        return False
    named = option_mentions(s, options)
    if not named:
        return False
    low = lower(s)
    if STRONG_CUE.search(low) or WEAK_CUE.search(low):
        return False
    return all((m := _NEXT_WORD.match(s, end)) and m.group(1) not in _NAMING_NEXT for _, end, _ in named)


# Chinese items joined by 和 / 与 / 及 / 、 before what is said of them ("失蜡法和石雕在这个时期都已经可以使用")
_ZH_ITEMS = re.compile(r"[\u4e00-\u9fff]{2,8}(?:(?:和|与|及|以及|、)[\u4e00-\u9fff]{2,8})+")
_ZH_JOINT = re.compile(r"和|与|以及|及|、")
_ANY_LETTER = re.compile(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])")   # a reply that gives option letters is read by them


def _names_unknown_items(s: str, options) -> bool:
    """Whether a reply that names options joins in a Chinese list items that name none (options rendered in words
    our Chinese names do not hold, "泥条盘筑和手捏成型", "施釉和石雕 ..., 失蜡法也有"): the options read would be a part
    of the set the reply gives (read only in a reply that names its options by text alone)."""
    if not option_mentions(s, options):
        return False
    for m in _ZH_ITEMS.finditer(s):
        named = [bool(option_mentions(item, options)) for item in _ZH_JOINT.split(m.group(0))]
        if not all(named[1:]):   # (the first item may run on from the words before the list)
            return True
    return False


def letter_set_candidates(
    s: str, n: int, options, k: int | None = None, asks: str | None = None
) -> Iterator[Candidate | None]:
    """The sets of letters a normalised reply states, in the order a grader reads them. ``asks``:
    "available" or "unavailable", what the question asks for (TAB-VLM technique / material)."""
    valid = letters_for(n)
    # only letters ("A, C"), or one option as the question lists it ("D. coil technique"): read without looking for cues
    letters = _PLAIN_LETTER.findall(s) if _PLAIN_LIST.fullmatch(s) else []
    if not letters and (listed := _labelled_option(s, n, options)):
        letters = [listed]
    if letters and len(set(letters)) == len(letters) and set(letters) <= set(valid) and (k is None or len(letters) == k):
        yield Candidate(frozenset(letters), 0, "bare")
        return
    if asks is not None and _caption_only(s, n, options):
        return
    if options and not s.isascii() and not _ANY_LETTER.search(s) and _names_unknown_items(s, options):
        yield Candidate(CONFLICT, 0, "cue")   # the set would be a part of what the reply names
        return
    cut = cut_off(s)   # (where a reply stopped by the token limit stops: read once)

    def sized(got, committed: bool = True):
        """A set of the wrong size for k-of-n: no answer (CONFLICT when the statement commits to it)."""
        if got in (None, CONFLICT) or k is None or len(got) == k:
            return got
        return CONFLICT if committed else None

    if "{" in s or s.lstrip().startswith("["):
        found = json_answer(s)
        if found is not None:
            inner = normalize(found[1], echoes=False)
            inner_candidates = letter_set_candidates(inner, n, options, k, asks) if inner else iter(())
            value = decide(inner_candidates, None)
            yield Candidate(CONFLICT if value is None else value, found[0], "json", True)
            return
    compact = _compact(s, n)
    if compact is not None:
        yield Candidate(sized(frozenset(compact)) if set(compact) <= set(valid) else CONFLICT, 0, "bare")
        return
    bare = s.strip(" .。!\"'")
    if len(bare) <= 60 and _LEAD_LIST.fullmatch(bare):  # "C, D", "A、C、E", "[B, D]": only the answer
        yield Candidate(sized(_set_in_clause(bare, n, None)), 0, "bare")
        return
    marked = None if _ABOUT_AVAILABILITY.search(s) else _verdicts(s, n)   # (marks said of availability: read with the polarity below)
    if marked is not None:
        yield Candidate(sized(marked), 0, "bare")
        return
    listing = _is_options_listing(s)
    structures_done = False
    covered: list[tuple[int, int]] = []
    leads: list[int] = []  # lines that start with an answer and go on: read after the polarity, if at all
    stated = False  # a committed answer was yielded
    for how, lo, hi, final in regions(s):
        if how == "fallbacks":
            # "C and D would not have been available. A and B would.": with the question's polarity the
            # groups are the answer; without, two groups are no answer. Read only when no answer was
            # stated (what the reply says of each option's availability is its explanation then)
            if not stated:  # fallbacks: read only when no answer was stated
                polarity = _polarity(s, n, options, asks, cut) if k is None else None
                # (not the line a cut-off reply stops in: "• Silk — ... by c. 2450 BCE, so";
                # nor an item of a bulleted walkthrough: "• Stone — available (the tools themselves).")
                walkthrough = len(_BULLET_LINE.findall(s)) >= 2
                lead = [c for c in (_lead_candidate(s, lo_, n, options, k) for lo_ in leads
                                    if (cut is None or s.find("\n", lo_) != -1) and not (walkthrough and _BULLET_LINE.match(s, lo_)))
                        if c is not None]
                if len({c.value for c in [polarity, *lead] if c is not None and c.value is not None}) > 1:
                    # "A, C. Lithography (D) is later.", "Porcelain. Paper was also not available.",
                    # "Porcelain.\nPaper.": the answer the reply opens with, what it says of availability
                    # and the lines that start with options disagree
                    yield Candidate(CONFLICT, 0, "lead")
                yield polarity
                yield from lead
            yield FALLBACKS
            continue
        region = s[lo:hi]
        if how == "bold":
            continue
        if how == "line":
            if not structures_done:
                structures_done = True
                for cand in _structures(s, n, options, k, covered, asks, cut):
                    stated = stated or cand.value is not None
                    yield cand
            if (listing and _OPTION_LINE.match(region)) or any(a <= lo <= b for a, b in covered):
                continue   # (an option line of a listing; a line that is only an answer above a walkthrough is read)
            if _LEAD_LIST.fullmatch(region.strip().rstrip(".")):  # a line that is only the answer
                got = _lead_list(region, n, options)
                stated = stated or got is not None
                yield Candidate(sized(got, True), lo, "line", final)
            else:
                leads.append(lo)
            continue
        if how == "all":
            yield Candidate(_set_anywhere(region, n, options, k), 0, how)
            return
        if how == "closing":  # "... the three from the same period are A, C and D."
            clause = first_clause(region).strip(" .!*")
            if _LEAD_LIST.fullmatch(clause):
                stated = True
                yield Candidate(sized(_set_in_clause(clause, n, None)), _content(s, lo, hi), how, final)
            continue
        got = _cue_set(region, n, options, k)
        clause = first_clause(region)
        if k is not None and how == "cue" and (got is None or (got != CONFLICT and len(got) != k and not _ends_here(clause, region))):
            picked = _k_clause(region, n, options, k)
            if picked is not None:
                got = picked
        if (how == "weak" and asks in POLARITY and got not in (None, CONFLICT) and got
                and _said_unavailable(clause) not in (None, POLARITY[asks])):
            # "..., so lithography and mechanical printing would not have been available." asked which were available:
            # a conclusion about the other group, not the answer (an answer after a cue stands as given)
            got = None
        stated = stated or got is not None
        yield Candidate(sized(got, how == "cue"), _content(s, lo, hi), how, final)


def parse_letter_set(text, n_options: int = 4, options: Sequence[str] | None = None,
                     k: int | None = None, asks: str | None = None) -> frozenset[str] | None:
    """The set of option letters a reply gives, or None.

    "A, C", "A and C", "AC", "[A, C]", "答案：C、D", "A ✓ B ✗ C ✓ D ✗", "A – yes, B – no, ...",
    per-option table rows, "None" (the empty set), "all of them", "every option but C", "the first
    and the third", option texts, a list of options one a line under "The correct options are:".
    Alternatives ("A or C", "C, D, and maybe B"), two different lists, a letter outside the options
    or no answer give None. With ``k``, the answer must have exactly k letters (and a clause naming
    exactly k letters is preferred when the reply names the others too).
    """
    s = normalize(text)
    if not s:
        return None
    return decide(letter_set_candidates(s, n_options, options, k, asks), cut_off(s))


def _ends_here(clause: str, region: str) -> bool:
    return len(region.strip()) - len(clause.strip()) < 3


def _k_clause(s: str, n: int, options, k: int) -> frozenset[str] | str | None:
    """The one clause of s naming exactly k letters ("B, D, E are from the same period; A and C are
    older"); CONFLICT when clauses name different k-sets or one names alternatives."""
    picked = set()
    hedged = False
    for clause in _K_SPLIT.split(s):
        got = _set_in_clause(clause, n, options)
        if got == CONFLICT:
            hedged = hedged or _OR_BETWEEN.search(clause) is not None or HEDGE.search(lower(clause)) is not None
        elif got is not None and len(got) == k:
            picked.add(got)
    if hedged and picked:
        return CONFLICT
    if len(picked) > 1:
        return CONFLICT
    return picked.pop() if picked else None


def _set_anywhere(s: str, n: int, options, k: int | None) -> frozenset[str] | str | None:
    if len(s) > ANYWHERE_LIMIT or UNSURE.search(s):
        return None
    if k is None and (_UNAVAILABLE.search(s) or _AVAILABLE.search(s)) and not _ANSWER_AFTER_PREDICATE.search(lower(s)):
        return None  # which options a statement of availability answers depends on the question (``_polarity``)
    if k is not None:
        got = _k_clause(s, n, options, k)
        if got is not None:
            return None if got == CONFLICT else got
    if len(s) > 200:
        return None
    got = _set_in_clause(s, n, options)
    return None if got == CONFLICT or (k is not None and got is not None and len(got) != k) else got


def parse_k_of_n(text, n_options: int, k: int, options: Sequence[str] | None = None) -> frozenset[str] | None:
    """Exactly k distinct option letters out of n (e.g. the 3 contemporaneous of 5), else None."""
    return parse_letter_set(text, n_options, options, k=k)


__all__ = ["CONFLICT", "Mentions", "letter_candidates", "letter_set_candidates", "letters_for", "lone_letters",
           "option_mentions", "parse_k_of_n", "parse_letter", "parse_letter_set"]
