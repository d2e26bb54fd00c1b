"""Patterns shared by the readers of option letters: separators ("or", "and" in the languages replies use),
lists of letters at the start of a line, asides in brackets, a letter asked rather than answered.
"""

from __future__ import annotations

import re

# After "A": words that make it the article ("A stone axe"), unless a verb or conjunction follows.
NOT_ARTICLE = frozenset(
    (
        "is",
        "was",
        "are",
        "were",
        "and",
        "or",
        "&",
        "seems",
        "seem",
        "looks",
        "look",
        "appears",
        "appear",
        "belongs",
        "belong",
        "has",
        "had",
        "have",
        "shows",
        "show",
        "would",
        "could",
        "should",
        "might",
        "may",
        "must",
        "will",
        "can",
        "then",
        "to",
        "vs",
        "versus",
        "comes",
        "came",
        "dates",
        "date",
        "precedes",
        "predates",
        "differs",
        "fits",
        "fit",
        "matches",
        "match",
        "stands",
        "remains",
        "also",
        "only",
        "alone",
        "too",
        "first",
        "last",
        "through",
        "being",
        "be",
        "goes",
        "gets",
        "clearly",
        "likely",
        "probably",
        "definitely",
        "seemed",
        "seemingly",
        "represents",
        "shares",
        "share",
        "corresponds",
        "correspond",
        "et",
        "y",
        "und",
        "dan",
        "ve",
        "và",
        "ou",
        "oder",
        "atau",
        "hoặc",
        "veya",
        "est",
        "es",
        "ist",  # ("A et C", "A ou C")
    )
)


ARTICLE_NEXT = re.compile(r"\s+([a-z][a-z'’-]*)")


# "or" in the languages models answer in
OR = r"(?:or|/|或|还是|または|또는|(?<=\s)(?:ou|oder|atau|hoặc|veya|или|أو)(?=\s))"


OR_BETWEEN = re.compile(
    r"(?<![A-Za-z0-9])[A-Z]\)?\s*(?:,\s*)?" + OR + r"\s*\(?(?:option\s+|artifact\s+|image\s+)?[A-Z](?![A-Za-z0-9])", re.IGNORECASE
)


ALL_BUT = re.compile(
    r"(?=[aetAET除])(?:\b(?:all|everything|every\s+(?:option|one|choice)|tou(?:te)?s|alle[sn]?|tod[oa]s|tutt[ei])\b[^.\n]{0,30}?"
    r"\b(?:but|except(?:\s+for)?|other\s+than|apart\s+from|besides|sauf|excepté|hormis|außer|ausser|excepto|salvo|menos"
    r"|tranne|eccetto)\b\s*(.*)|除了?(.*?)(?:以外|之外)?(?:都|均))",
    re.IGNORECASE,
)  # (and in French, German, Spanish, Italian)


OPTION_LINE = re.compile(
    r"(?:^[ \t]*[-*•]?[ \t]*|(?<=[.)])\s+)\(?([A-Z])(?:[.)]|\s*[:\-–—])\s+(?:[A-Z][a-z]|[a-z]|[A-Z]n?\s[a-z]|[\u4e00-\u9fff])", re.MULTILINE
)


# "and" in the languages models answer in: "1 et 3", "B, D dan E", "3と4", "B와 D", "B и D"
AND = r"\band\b|\bet\b|\by\b|\bund\b|\bdan\b|\bve\b|\bvà\b|\bи\b|\bو\b|和|及|与|以及|と|および|및|와|과"


_LIST_SEP = rf"(?>\s*(?:[,;&]|{AND}|\bplus\b)?\s*)"  # atomic: no backtracking through long blanks


LEAD_LIST = re.compile(
    r"^\s*(?:(?:the\s+)?(?:answer|options?|artifacts?|images?|letters?)\s*(?:are|is)?\s*[:.]?\s*)?[\[{'\"]*"
    r"((?:\(?[A-Z](?![A-Za-z0-9])\)?[\]'\"]*"
    + _LIST_SEP
    + r"(?:and\s+)?[\[{'\"]*)?(?:(?:\([A-Z]\)|[A-Z])(?![A-Za-z0-9])[\]'\"]*"
    + _LIST_SEP
    + r"(?:and\s+)?[\[{'\"]*){0,25}(?:\([A-Z]\)|[A-Z]))(?![A-Za-z0-9])",
)


# An aside in brackets ("(A and B came later)", "(iron forging)"); "(A)" alone is a letter.
ASIDE = re.compile(r"\((?=[^()\n]*[A-Za-z]{2}|[^()\n]*[\u4e00-\u9fff\u3040-\u30ff\uac00-\ud7af])[^()\n]{1,120}\)|（[^（）\n]{1,120}）")


LETTER_ASKED = re.compile(r"(?<![A-Za-z0-9])[A-Z]\)?\s*[?？]")  # "C?", "B and C?": asked, not answered


LETTER_STOP = re.compile(r"(?<![A-Za-z0-9])([A-Z])\.\s+(?=[A-Z][a-z])")


LEAD_CHARS = 400


__all__ = [
    "ALL_BUT",
    "AND",
    "ARTICLE_NEXT",
    "ASIDE",
    "LEAD_CHARS",
    "LEAD_LIST",
    "LETTER_ASKED",
    "LETTER_STOP",
    "NOT_ARTICLE",
    "OPTION_LINE",
    "OR",
    "OR_BETWEEN",
]
