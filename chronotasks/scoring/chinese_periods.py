"""Chinese historical period labels -> the 18 dynasty-level periods of MuseBench (Table 6).

``dynasty_of("清·雍正")`` -> ``"Qing"``: a reign, sub-period or "X dynasty" phrasing of a dynasty
maps to that dynasty (the dynasty-level matching of MuseBench §5.4). ``dynasties_in(text)``
finds every dynasty a free-text answer mentions; ``same_dynasty(pred, gold)`` is the
per-answer accuracy: the answer names exactly one dynasty, the gold one.

Sub-periods are folded into the Table 6 periods: Western/Eastern Zhou, Spring and Autumn and
Warring States -> Zhou; Western/Eastern Han and Xin -> Han; Western/Eastern Jin and the Sixteen
Kingdoms -> Jin; Northern/Southern Song -> Song. The Liao 辽, Western Xia 西夏 and Jurchen Jin 金
have no row in Table 6 and stay unmapped (None); 晋 / "Jin dynasty" is the Jin of 265-420 CE.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator

from chronotasks.scoring.candidates import CONFLICT, FALLBACKS, Candidate, Kind, decide
from chronotasks.scoring.normalization import normalize
from chronotasks.scoring.reply_text import cut_off, first_clause, inside, line_around, negated_spans, regions

# canonical name, year range (Table 6), aliases (Chinese and English, matched as substrings
# for Chinese, as words for English). Order matters for overlapping aliases: longer first.
DYNASTIES: list[tuple[str, str, tuple[str, ...]]] = [
    (
        "Neolithic",
        "–",
        (
            "新石器时代",
            "新石器",
            "neolithic",
            "良渚文化",
            "河姆渡文化",
            "仰韶文化",
            "龙山文化",
            "红山文化",
            "马家窑文化",
            "大汶口文化",
            "崧泽文化",
            "马家浜文化",
            "石器时代",
        ),
    ),
    ("Xia", "2070–1600 BCE", ("하나라", "夏代", "夏朝", "二里头文化", "xia dynasty", "xia")),
    ("Shang", "1600–1046 BCE", ("상나라", "商代", "商朝", "殷商", "商晚期", "商早期", "商中期", "殷墟", "shang dynasty", "shang")),
    (
        "Zhou",
        "1046–221 BCE",
        (
            "주나라",
            "西周",
            "东周",
            "周代",
            "周朝",
            "春秋战国",
            "春秋",
            "战国",
            "zhou dynasty",
            "western zhou",
            "eastern zhou",
            "spring and autumn",
            "warring states",
            "zhou",
        ),
    ),
    ("Qin", "221–207 BCE", ("秦代", "秦朝", "qin dynasty", "qin")),
    ("Han", "206 BCE–220 CE", ("한나라", "西汉", "东汉", "汉代", "汉朝", "新莽", "han dynasty", "western han", "eastern han", "han")),
    ("Three Kingdoms", "220–265 CE", ("三国", "曹魏", "蜀汉", "孙吴", "three kingdoms")),
    ("Jin", "265–420 CE", ("西晋", "东晋", "晋代", "晋朝", "十六国", "western jin", "eastern jin", "jin dynasty")),
    (
        "Northern and Southern Dynasties",
        "420–589 CE",
        (
            "南北朝",
            "北魏",
            "东魏",
            "西魏",
            "北齐",
            "北周",
            "南朝",
            "北朝",
            "刘宋",
            "南齐",
            "萧梁",
            "南陈",
            "northern and southern dynasties",
            "northern wei",
            "northern qi",
            "northern zhou",
            "southern dynasties",
            "northern dynasties",
            "six dynasties",
            "六朝",
        ),
    ),
    ("Sui", "581–618 CE", ("수나라", "隋代", "隋朝", "sui dynasty", "sui")),
    ("Tang", "618–907 CE", ("당나라", "唐代", "唐朝", "盛唐", "初唐", "中唐", "晚唐", "tang dynasty", "tang")),
    (
        "Five Dynasties",
        "907–960 CE",
        ("五代十国", "五代", "后梁", "后唐", "后晋", "后汉", "后周", "吴越", "南唐", "前蜀", "后蜀", "five dynasties"),
    ),
    ("Song", "960–1279 CE", ("송나라", "北宋", "南宋", "宋代", "宋朝", "northern song", "southern song", "song dynasty", "song")),
    ("Yuan", "1271–1368 CE", ("원나라", "元代", "元朝", "yuan dynasty", "yuan")),
    (
        "Ming",
        "1368–1644 CE",
        (
            "명나라",
            "明代",
            "明朝",
            "ming dynasty",
            "ming",
            "洪武",
            "建文",
            "永乐",
            "洪熙",
            "宣德",
            "正统",
            "景泰",
            "天顺",
            "成化",
            "弘治",
            "正德",
            "嘉靖",
            "隆庆",
            "万历",
            "泰昌",
            "天启",
            "崇祯",
        ),
    ),
    (
        "Qing",
        "1644–1911 CE",
        ("청나라", "清代", "清朝", "qing dynasty", "qing", "顺治", "康熙", "雍正", "乾隆", "嘉庆", "道光", "咸丰", "同治", "光绪", "宣统"),
    ),
    ("Republic of China", "1912–1949 CE", ("中华民国", "民国", "republic of china", "republican period")),
    (
        "People's Republic of China",
        "1949–present",
        ("中华人民共和国", "新中国", "当代", "现代", "people's republic of china", "prc", "contemporary"),
    ),
]

PERIODS: tuple[str, ...] = tuple(name for name, _, _ in DYNASTIES)

# single-character dynasty names: matched only when they stand as a period label
# ("清", "清·雍正", "明 宣德", "宋/元"), not inside any word ("清晰", "明亮").
_SINGLE = {
    "夏": "Xia",
    "商": "Shang",
    "周": "Zhou",
    "秦": "Qin",
    "汉": "Han",
    "晋": "Jin",
    "隋": "Sui",
    "唐": "Tang",
    "宋": "Song",
    "元": "Yuan",
    "明": "Ming",
    "清": "Qing",
}
_LABEL_SEP = r"[\s·•・,，、/／()（）\[\]【】:：;；\-—~～]"

# "people's republic of china" contains "republic of china"; "中华人民共和国" does not contain "中华民国".
_PRC_EN = re.compile(r"people'?s\s+republic\s+of\s+china", re.IGNORECASE)


def _is_cjk(s: str) -> bool:
    return any("\u4e00" <= ch <= "\u9fff" for ch in s)


def _aliases() -> list[tuple[str, str, re.Pattern | None]]:
    """(alias, period, pattern), longest alias first; pattern is None for a Chinese alias (a plain
    substring), else a word-bounded regex, compiled once."""
    pairs = sorted(((alias, name) for name, _, aliases in DYNASTIES for alias in aliases), key=lambda p: -len(p[0]))
    return [(alias, name, None if _is_cjk(alias) else re.compile(r"(?<![a-z])" + re.escape(alias) + r"(?![a-z])")) for alias, name in pairs]


_ALIASES = _aliases()
_SINGLE_LABELS = {char: re.compile(rf"(?:^|{_LABEL_SEP}){char}(?:$|{_LABEL_SEP}|[代朝])") for char in _SINGLE}


def _alias_pattern() -> tuple[re.Pattern, re.Pattern, dict[str, str]]:
    """One pattern for the Chinese names (plain substrings), one for the English ones (whole words),
    each trying the longest name first at every position; and the period of each name."""
    owner = {alias: name for alias, name, _ in _ALIASES}
    zh = sorted((a for a in owner if _is_cjk(a)), key=len, reverse=True)
    en = sorted((a for a in owner if not _is_cjk(a)), key=len, reverse=True)

    def first(names: list[str]) -> str:
        return "(?=[" + "".join(sorted({re.escape(a[0]) for a in names})) + "])"

    zh_pattern = re.compile(first(zh) + "(?:" + "|".join(map(re.escape, zh)) + ")")
    en_pattern = re.compile(first(en) + r"(?<![a-z])(?:" + "|".join(map(re.escape, en)) + r")(?![a-z])")
    return zh_pattern, en_pattern, owner


_ZH_NAMES, _EN_NAMES, _OWNER = _alias_pattern()
# a lone character, between separators ("清", "明/清") or before 代 / 朝; or a part of its period ("明初": early Ming)
# at the start, after a separator, "or", "and", "to", another part or a word that goes before a period ("元代或明初",
# "明末清初", "清末民初", "属于明末清初时期", "约为清初"), not inside a word ("说明初步", "人民初期")
_PART = r"初期|初年|初|末期|末年|末|中期|中叶|早期|晚期|前期|后期"
_PART_OF = {
    **{char: name for char, name in _SINGLE.items() if char not in "周夏"},
    "民": "Republic of China",
}  # (not 周末 a weekend, 夏末 late summer)
_SINGLE_LABEL = re.compile(
    rf"(?:^|(?<={_LABEL_SEP}))([{''.join(_SINGLE)}])(?=$|{_LABEL_SEP}|[代朝]|时代)"
    rf"|(?:^|(?<={_LABEL_SEP})|(?<=[或和与及至到末初期年叶于为是在自从约的]))([{''.join(_PART_OF)}])(?={_PART})"
)


# traditional and Japanese forms of the characters in period names, one for one ("東周", "唐時代", "漢代")
_TRADITIONAL_CHARS = "東漢晉齊陳萬曆慶統啟禎豐緒順蕭劉後戰國時遼"
_SIMPLIFIED = str.maketrans(_TRADITIONAL_CHARS, "东汉晋齐陈万历庆统启祯丰绪顺萧刘后战国时辽")
_TRADITIONAL = re.compile(f"[{_TRADITIONAL_CHARS}]")


def dynasty_mentions(text: str | None) -> list[tuple[int, int, str]]:
    """(start, end, period) of every Table 6 period a text names (Chinese or English), reigns mapped
    to their dynasty, in text order; overlapping names count once (the longest)."""
    if not text:
        return []
    low = str(text).lower()
    if not low.isascii() and _TRADITIONAL.search(low):  # (translate costs ~50 ns a character of a non-ASCII text)
        low = low.translate(_SIMPLIFIED)
    found: list[tuple[int, int, str]] = []
    taken: list[tuple[int, int]] = []
    for m in _PRC_EN.finditer(low):
        found.append((m.start(), m.end(), "People's Republic of China"))
        taken.append((m.start(), m.end()))
    for pattern in (_ZH_NAMES, _EN_NAMES):
        if pattern is _ZH_NAMES and low.isascii():
            continue
        earlier = sorted(taken)  # the names of the patterns before: a name overlapping one is skipped
        starts = [a for a, _ in earlier]
        for m in pattern.finditer(low):
            k = bisect_right(starts, m.start())
            near = earlier[max(0, k - 1) : k + 1]  # (a pattern's own matches never overlap each other)
            if not any(a < m.end() and m.start() < b for a, b in near) and not any(a < m.end() for a, _ in earlier[k : k + 3]):
                found.append((m.start(), m.end(), _OWNER[m.group(0)]))
                taken.append((m.start(), m.end()))
    if not low.isascii():
        masked = list(low)
        for a, b in taken:
            masked[a:b] = " " * (b - a)
        masked_text = "".join(masked)
        # lone single-character labels: the whole text, or a character delimited by separators / 代朝
        for m in _SINGLE_LABEL.finditer(masked_text):
            if m.group(1):
                found.append((m.start(1), m.end(1), _SINGLE[m.group(1)]))
            else:
                found.append((m.start(2), m.end(2), _PART_OF[m.group(2)]))
    return sorted(found)


def dynasties_in(text: str | None) -> set[str]:
    """Every Table 6 period a text names (Chinese or English), reigns mapped to their dynasty."""
    return {name for _, _, name in dynasty_mentions(text)}


def dynasty_of(label: str | None) -> str | None:
    """The one Table 6 period a period label maps to, or None (unknown, or several named)."""
    found = dynasties_in(label)
    return next(iter(found)) if len(found) == 1 else None


def same_dynasty(pred: str | None, gold: str | None) -> float:
    """1.0 when the answer names exactly one dynasty and it is the gold label's dynasty.

    A reign counts as its dynasty ("清·雍正" is right for "清代"); a hedge naming two
    dynasties ("明末清初") is wrong; an answer naming none is wrong.
    """
    gold_dynasty = dynasty_of(gold)
    if gold_dynasty is None:
        return 0.0
    found = dynasties_in(pred)
    return float(found == {gold_dynasty})


# "清代仿明宣德款" (a Qing piece with an imitation Ming mark), "a Qing copy in the style of the Ming":
# a period the piece imitates is not its period
_IMITATION = re.compile(
    r"(?=[仿摹模ic])(?:仿|摹|模仿|\bimitat\w*\s+(?:of\s+)?(?:the\s+)?|\bcopy\s+of\s+(?:a\s+|the\s+)?"
    r"|\bin\s+the\s+style\s+of\s+(?:the\s+)?)",
    re.IGNORECASE,
)
_STYLE_AFTER = re.compile(r"\s*(?:-|\s)?style\b|\s*风格|\s*式样|\s*款", re.IGNORECASE)


_ANSWER_LINE_CHARS = 40


def period_candidates(s: str) -> Iterator[Candidate]:
    """The periods a normalised reply states, in the order a grader reads them (a period named only
    to reject it, "应为唐代，而非宋代", not counted; two periods in one statement: CONFLICT)."""
    for how, lo, hi, final in regions(s):
        if how == Kind.FALLBACKS:
            yield FALLBACKS
            continue
        if how == Kind.LINE and hi - lo > _ANSWER_LINE_CHARS:
            continue  # a paragraph, not an answer line (its periods are weighed in it)
        if how == Kind.BOLD:  # the line a bold period stands in ("可能属于**商代晚期**或**西周早期**。" names two)
            lo, hi = line_around(s, lo, hi)
        part = s[lo:hi] if how in (Kind.ALL, Kind.LINE, Kind.BOLD) else first_clause(s[lo:hi])
        neg = negated_spans(part) + [(m.end(), m.end() + 8) for m in _IMITATION.finditer(part)]
        found = {name for start, end, name in dynasty_mentions(part) if not inside(start, neg) and not _STYLE_AFTER.match(part, end)}
        if len(found) == 1:
            yield Candidate(found.pop(), lo, how, final)
        elif found:
            yield Candidate(CONFLICT, lo, how, final)
        if how == Kind.ALL:
            return


def parse_period(text) -> str | None:
    """The one Table 6 period a free-text reply gives ("清代", "清乾隆年间", "Qing dynasty"), read as a
    grader reads it: after an answer cue when there is one, a period named only to reject it
    ("应为唐代，而非宋代") not counted; two periods ("明末清初", "明代或清代") or none give None."""
    s = normalize(text)
    return decide(period_candidates(s), cut_off(s)) if s else None


def chinese_name(period: str) -> str:
    """The Chinese name of a Table 6 period ("Qing" -> "清代")."""
    for name, _, aliases in DYNASTIES:
        if name == period:
            return next(a for a in aliases if _is_cjk(a))
    raise ValueError(f"unknown period {period!r}; expected one of {PERIODS}")


__all__ = [
    "DYNASTIES",
    "PERIODS",
    "chinese_name",
    "dynasties_in",
    "dynasty_mentions",
    "dynasty_of",
    "parse_period",
    "period_candidates",
    "same_dynasty",
]
