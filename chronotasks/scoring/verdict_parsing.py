"""Judge verdicts read from a reply: yes / no (the Standard prompt), Accept / Not accept.

A verdict is the reply's first word when that word is "yes"/"no" standing alone ("No." -- not
"No modern elements are visible"), the word after an answer cue, or the only verdict the reply
states (a sentence "Yes." / "No." counts before words inside prose). Chinese verdicts (是 / 否 /
不是) are read too. Informal verdicts count ("Y", "N", "Negative.", "Not really.", "Absolutely."). "Yes and no", both
verdicts, or none give None.
"""

from __future__ import annotations

import re

from chronotasks.scoring.normalization import lower, normalize
from chronotasks.scoring.reply_text import UNSURE, corrections

_FIRST = re.compile(
    r"^\W*(yes|yeah|yep|yup|no|nope|correct|incorrect|true|false|y|n|affirmative|negative|absolutely|definitely|certainly|indeed|"
    r"not\s+(?:really|quite|at\s+all|exactly)|(?:definitely|absolutely|certainly|of\s+course)\s+not)(?=\s*(?:[.,!;:\-–—)\n]|$))",
    re.IGNORECASE,
)
# yes / no in the other languages a model tuned on them answers in ("Sí.", "Oui, ...", "Nein.", "いいえ", "نعم", "아니요",
# "Да.", "Không.", "Evet.", "Tidak.", "ใช่")
_OTHER_FIRST = re.compile(
    r"^\W*(?:(sí|si|sì|sim|oui|ja|да|có|ya|evet|ใช่|はい|نعم|네|예|हाँ|हां)"
    r"|(non|não|nein|нет|không|tidak|hayır|ไม่|いいえ|لا|아니요|아니오|아니|नहीं))(?=\s*(?:[.,!;:)\n、。،]|$))",
    re.IGNORECASE,
)
_SENTENCE_VERDICT = re.compile(r"[.!?\n]\s*(yes|no)\s*[,.:;!]", re.IGNORECASE)  # a sentence that opens with a verdict
_CONCEDED = re.compile(r"[^.!?\n]*\b(?:but|however|although|though|yet)\b", re.IGNORECASE)  # "No. Yes, it is a dog, but the era is wrong."
_ZH_LAST_LINE = re.compile(r"\n\s*(?:(不是|否|不对|不正确)|是|对|正确)[。.!！]?\s*$")  # a last line that is only the verdict
_PARTIAL = re.compile(r"^\W*(?:partially|partly|somewhat|mostly|kind\s+of|sort\s+of|half|部分|一半)\b", re.IGNORECASE)
_ZH_FIRST = re.compile(r"^\W*(?:(不是|不对|不正确|否|没有|不)|(是的|是|对|正确))")
_BOTH = re.compile(r"\byes\s+(?:and|or|/)\s+no\b|\bno\s+(?:and|or|/)\s+yes\b|\byes\s+no\b|\bno\s+yes\b|是或否|是否", re.IGNORECASE)
_CUE = re.compile(
    r"(?:final\s+answer|answer|verdict|i\s*(?:would|'d)?\s*say|my\s+answer\s+is|decision|conclusion|答案|结论|回答)\s*(?:is|would\s+be|:|=|-)?\s*",
    re.IGNORECASE,
)
_STANDALONE = re.compile(r"(?:^|[.!?\n:]\s*)(yes|no|yeah|nope)\s*(?:[.!]|$)", re.IGNORECASE | re.MULTILINE)
_YES = re.compile(r"\byes\b", re.IGNORECASE)
_NO = re.compile(r"\bno\b(?!\s+(?:longer|more|less|doubt|signs?|visible|modern|clear|evidence|other|obvious|such))", re.IGNORECASE)
# a verdict concluded later in the reply ("..., so no.", "Final answer: yes")
_CONCLUDED = re.compile(r"(?:\b(?:so|therefore|thus|hence|overall|final\s+answer|answer)\s*[:,]?\s*)(yes|no)\b", re.IGNORECASE)
# The Standard prompt asks two questions (is the image right for the prompt; is the temporal knowledge
# applied). A first verdict the reply then takes back for the second one -- "Yes, the fox is right,
# but no, the temporal knowledge is not applied" -- answers them differently: no single verdict.
_TAKEN_BACK = {
    True: re.compile(
        r"\b(?:but|however|although|though|yet)\b[\s,]*(?:no\b|[^.\n]{0,80}?\b(?:temporal|time|season|age|period|era|date)"
        r"[^.\n]{0,40}?\b(?:not|isn't|wasn't|incorrect|wrong|missing|lacking|absent)\b)",
        re.IGNORECASE,
    ),
    False: re.compile(
        r"\b(?:but|however|although|though|yet)\b[\s,]*(?:yes\b|[^.\n]{0,80}?\b(?:temporal|time|season|age|period|era|date)"
        r"[^.\n]{0,40}?\b(?:is|was|are|were)\s+(?:correctly\s+|well\s+|properly\s+)?(?:applied|correct|right|accurate|shown)\b)",
        re.IGNORECASE,
    ),
}
_YES_WORDS = {"yes", "yeah", "yep", "yup", "correct", "true", "y", "affirmative", "absolutely", "definitely", "certainly", "indeed"}
_NO_WORDS = {"no", "nope", "incorrect", "false", "n", "negative"}


def parse_yes_no(text) -> bool | None:
    """A yes/no verdict: "Yes.", "**No**", "Answer: yes", "No, the image ...", "是", "不是。...";
    "Partially." is none; a verdict revised after "wait" / "actually" is the revised one."""
    s = normalize(text)
    if not s or _BOTH.search(s):
        return None
    if _PARTIAL.match(s):  # "Partially. The fox is accurate, but the season is ambiguous": none, unless concluded
        concluded = {m.group(1).lower() == "yes" for m in _CONCLUDED.finditer(s)}  # ("Mostly. ... Overall: yes.")
        return concluded.pop() if len(concluded) == 1 else None
    revisions = corrections(lower(s))
    if revisions:
        later = parse_yes_no(s[revisions[-1].end() :])
        if later is not None:
            return later  # "yes\n\nWait, let me recheck ... not consistent with January.\n\nno"
    first = _FIRST.match(s)
    if first:
        verdict = " ".join(first.group(1).lower().split()) in _YES_WORDS
        conclusion = _CONCLUDED.search(s, first.end())
        if conclusion and (conclusion.group(1).lower() in _YES_WORDS) != verdict:
            return None  # "Yes. However, the eyes look young, so no."
        if _TAKEN_BACK[verdict].search(s, first.end()):
            return None  # "Yes, the image is right. However, the temporal knowledge is not applied."
        if any(
            (m.group(1).lower() == "yes") != verdict and not _CONCEDED.match(s, m.end()) for m in _SENTENCE_VERDICT.finditer(s, first.end())
        ):
            return None  # "Yes, the image is correct for the prompt: ... No, the temporal knowledge is not applied."
        return verdict
    other = _OTHER_FIRST.match(s)
    if other:
        return other.group(1) is not None
    zh = _ZH_FIRST.match(s)
    if zh:
        return zh.group(2) is not None
    cues = list(_CUE.finditer(s))
    if cues:
        head = re.match(r"\W*(\w+)", s[cues[-1].end() :])
        if head and head.group(1).lower() in _YES_WORDS | _NO_WORDS:
            return head.group(1).lower() in _YES_WORDS
    standalone = {m.group(1).lower() in _YES_WORDS | {"yeah"} for m in _STANDALONE.finditer(s)}
    standalone |= {m.group(1) is None for m in _ZH_LAST_LINE.finditer(s)}  # "...符合欧洲一月冬季的特征。\n\n是"
    if len(standalone) == 1:
        return standalone.pop()
    if standalone:
        return None
    if UNSURE.search(s):
        return None  # "... so it's hard to say definitively whether the temporal knowledge is applied."
    has_yes = _YES.search(s)
    has_no = _NO.search(s)
    if has_yes and not has_no:
        return True
    if has_no and not has_yes:
        return False
    return None


_NEGATIVE = re.compile(
    r"\b(?:not\s+accept(?:ed|able)?|unaccept(?:ed|able)|reject(?:ed)?|do\s+not\s+accept|don't\s+accept|cannot\s+accept|can't\s+accept)\b|不接受|不通过|拒绝",
    re.IGNORECASE,
)
_POSITIVE = re.compile(r"\baccept(?:ed|able)?\b|(?<!不)接受|(?<!不)通过", re.IGNORECASE)
_RATING_CUE = re.compile(r"(?:rating|评分|评级|评价|结论|verdict|decision)\s*[:=]\s*", re.IGNORECASE)


def parse_accept(text) -> bool | None:
    """An Accept / Not accept verdict ("RATING: Accept", "Not Accept", "Rejected", "评级：接受")."""
    s = normalize(text)
    if not s:
        return None
    cues = list(_RATING_CUE.finditer(s))
    segment = s[cues[-1].end() :] if cues else s
    negative = _NEGATIVE.search(segment)
    positive = _POSITIVE.search(segment)
    if negative and (not positive or negative.start() <= positive.start()):
        return False
    if positive:
        return True
    return None


__all__ = ["parse_accept", "parse_yes_no"]
