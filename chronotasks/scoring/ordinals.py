"""Options named by position: ordinals in English and Chinese ("the second one", "the first and the third",
"the first three", "第二件") and label prefixes ("Option", "Artifact", "Image", "图") before an option's letter
or number. Matched on ``normalization.lower`` of the reply."""

from __future__ import annotations

import re

from chronotasks.scoring.normalization import lower

ORDINAL_WORDS = {
    "first": 1,
    "second": 2,
    "third": 3,
    "fourth": 4,
    "fifth": 5,
    "sixth": 6,
    "1st": 1,
    "2nd": 2,
    "3rd": 3,
    "4th": 4,
    "5th": 5,
    "6th": 6,
}
ZH_DIGITS = {"一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9, "〇": 0, "零": 0}
_ITEM_NOUN = (
    r"(?:ones?|options?|choices?|artifacts?|artefacts?|images?|pictures?|photos?|photographs?|items?|objects?|pieces?"
    r"|answers?|alternatives?)"
)
# "the third one", "the first and third artifacts", "1st, 3rd and 5th images"
_ORD = r"(?:first|second|third|fourth|fifth|sixth|last|1st|2nd|3rd|4th|5th|6th)"
_ORD_CHAIN = _ORD + r"(?:\s*(?:,|and|&|,\s*and)\s*(?:the\s+)?" + _ORD + r")*"
ORDINAL_LIST = re.compile(
    r"(?=[fstl1-6])(?:\b(" + _ORD_CHAIN + r")\s+" + _ITEM_NOUN + r"\b|\bthe\s+(" + _ORD_CHAIN + r")\s*(?=[.,;!)]|$))",
)
# 第三件文物, 第二张, 第一、第二和第四件
ZH_ORDINAL_LIST = re.compile(
    r"(第[一二三四五六1-6](?:\s*(?:、|,|和|及|与|以及)\s*第[一二三四五六1-6])*)\s*(?:个|件|张|幅|项|只|副)?\s*"
    r"(?:选项|文物|图片|图像|照片|器物|物品|图|件)|(第[一二三四五六1-6](?:\s*(?:、|,|和|及|与|以及)\s*第[一二三四五六1-6])*)\s*(?:个|件|张|幅|项|只|副)"
)
_ORD_TOKEN = re.compile(r"first|second|third|fourth|fifth|sixth|last|1st|2nd|3rd|4th|5th|6th")
_ZH_ORD_TOKEN = re.compile(r"第([一二三四五六1-6])")


_FIRST_K = re.compile(r"(?=[tfl])\bthe\s+(first|last)\s+(two|three|four)\b(?!\s+(?:of|centur|years?|decades?|millenni))")  # on lower(text)
_COUNTS = {"two": 2, "three": 3, "four": 4}


def ordinal_positions(s: str, n: int) -> list[tuple[int, int, list[int]]]:
    """(start, end, [1-based numbers]) of each ordinal mention ("the third one" -> [3];
    "第一、第二和第四件" -> [1, 2, 4]; "the first three" -> [1, 2, 3]). "last" is n."""
    found = []
    low = lower(s)
    for m in ORDINAL_LIST.finditer(low):
        group = m.group(1) or m.group(2)
        nums = []
        for tok in _ORD_TOKEN.findall(group):
            tok = tok.lower()
            nums.append(n if tok == "last" else ORDINAL_WORDS[tok])
        found.append((m.start(), m.end(), nums))
    if "the " in low:
        for m in _FIRST_K.finditer(low):
            k = _COUNTS[m.group(2)]
            nums = list(range(1, k + 1)) if m.group(1) == "first" else list(range(n - k + 1, n + 1))
            found.append((m.start(), m.end(), nums))
    if not s.isascii():
        for m in ZH_ORDINAL_LIST.finditer(s):
            group = m.group(1) or m.group(2)
            nums = [int(d) if d.isdigit() else ZH_DIGITS[d] for d in _ZH_ORD_TOKEN.findall(group)]
            found.append((m.start(), m.end(), nums))
    return sorted(found)


LABEL_PREFIX = re.compile(
    r"(?=[oaipcf选图照文])(?:\b(?:options?|artifacts?|artefacts?|images?|imgs?|pictures?|pics?|photos?|photographs?|objects?|items?|choices?|figures?|fig\.)"
    r"\s*#?\s*(?=[a-z0-9](?![a-z0-9]))|(?:选项|图片|图像|照片|图|文物)\s*(?=[a-z0-9]))",
)
# matched on lower(text): "Image B" and "image b" alike


def blank_label_prefixes(s: str) -> str:
    """ "Image 3, Image 1" -> "      3,       1"; "Option B" -> "       B"; "图3" -> " 3": label prefixes
    blanked (positions kept)."""
    out, last = [], 0
    for m in LABEL_PREFIX.finditer(lower(s)):
        out.append(s[last : m.start()] + " " * (m.end() - m.start()))
        last = m.end()
    return "".join(out) + s[last:]


__all__ = ["LABEL_PREFIX", "ORDINAL_LIST", "ORDINAL_WORDS", "ZH_DIGITS", "ZH_ORDINAL_LIST", "blank_label_prefixes", "ordinal_positions"]
