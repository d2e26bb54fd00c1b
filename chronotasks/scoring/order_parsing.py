"""Orderings read from a reply: a permutation of option letters ("B, D, A, C") or of item numbers
("3,1,0,2", 0-based image indices).

Read forms: a list with any separators ("B → D → A → C", "Img B > Img D", "3 1 0 2", "B、D、A、C"),
numbered or ranked lines ("1) B", "2nd — Artifact D"), a markdown table with a rank column, prose
that names the oldest and the newest and what lies between, and JSON. A list written from newest
to oldest with the direction stated in words ("latest to earliest: ...", "newest first", 由近及远,
从新到旧) is reversed. Two different orderings without a final pick, an incomplete list, or a list
that only echoes the prompt's example give None.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from functools import lru_cache

from chronotasks.scoring.candidates import CONFLICT, FALLBACKS, HYPOTHETICAL, Candidate, Kind, decide
from chronotasks.scoring.json_answer import json_answer
from chronotasks.scoring.normalization import lower, normalize
from chronotasks.scoring.option_texts import letters_for, option_mentions
from chronotasks.scoring.ordinals import LABEL_PREFIX, ZH_DIGITS, blank_label_prefixes
from chronotasks.scoring.reply_text import ANYWHERE_LIMIT, HEDGE, UNSURE, cut_off, regions

_NUM = r"(?:\s*\(\s*(?:#|no\.?\s*)?\d\s*\))?"  # "newest (1) to oldest (4)"
_FWD = (
    r"(?:oldest|earliest|most\s+ancient|old|ancient|early)"
    + _NUM
    + r"\s*(?:up\s+|forward\s+|all\s+the\s+way\s+)?(?:to|→|->|-|–|—|until|through|till)\s*(?:the\s+)?"
    r"(?:newest|latest|most\s+recent|recent|modern|new|late|youngest)|\b(?:oldest|earliest)\s+first|\bascending\b"
    r"|从?(?:最)?(?:早|古|旧|远|老)(?:的)?(?:到|至|→)(?:最)?(?:晚|今|新|近)|由远及近|由古至今|从古至今|由早到晚|由旧到新"
    r"|du\s+plus\s+ancien\s+au\s+plus\s+r[ée]cent|del\s+m[aá]s\s+antiguo\s+al\s+m[aá]s\s+reciente|do\s+mais\s+antigo\s+ao\s+mais\s+recente"
    r"|vom\s+[äa]ltesten\s+zum\s+neuesten|오래된\s*것부터|古い順"
)
_REV = (
    r"(?:newest|latest|most\s+recent|recent|youngest|modern|new|late)"
    + _NUM
    + r"\s*(?:back\s+|down\s+|all\s+the\s+way\s+)?(?:to|→|->|-|–|—|until|through|till)\s*(?:the\s+)?"
    r"(?:oldest|earliest|old|ancient|early)|\b(?:newest|latest|most\s+recent|youngest)\s+first|\breversed?\s+(?:chronological(?:\s+order)?|order)|\bdescending\b"
    r"|从?(?:最)?(?:晚|新|近|今)(?:的)?(?:到|至|→)(?:最)?(?:早|古|旧|远)|由近及远|由今至古|从今到古|由新到旧|由晚到早"
    r"|du\s+plus\s+r[ée]cent\s+au\s+plus\s+ancien|del\s+m[aá]s\s+reciente\s+al\s+m[aá]s\s+antiguo|do\s+mais\s+recente\s+ao\s+mais\s+antigo"
    r"|vom\s+neuesten\s+zum\s+[äa]ltesten|최신(?:부터|순)|新しい順"
)
DIRECTION = re.compile(rf"(?=[oemanlrydtv从由最早古旧远老晚新近今오최])(?:(?P<fwd>{_FWD})|(?P<rev>{_REV}))")  # on lower(text)
_EXAMPLE = re.compile(r"(?:example|e\.g\.|for\s+instance|such\s+as|例如|比如|示例)\s*[:,]?\s*[\"'(\[]*$", re.IGNORECASE)
_END = re.compile(r"(?<=[a-z\d)])\.(?=\s|$)|[!?。]")
_COMPACT = re.compile(r"[A-Za-z]{2,26}")
_LOWER_LIST = re.compile(r"[a-z](?:\s*[,>\-→ ]\s*[a-z])+")
# a reply that is only the order: "B, D, A, C", "3 1 0 2", "0 -> 2 -> 3 -> 4 -> 1" (brackets and a full stop already stripped)
_BARE_LIST = re.compile(r"[A-Z0-9](?:(?:[ \t]*(?:,|->|→|>)[ \t]*|[ \t]+)[A-Z0-9])+")
_BARE_TOKEN = re.compile(r"[A-Z0-9]")
_WORDS = re.compile(r"[A-Za-z]{2,}|[\u4e00-\u9fff]")
_PAREN = re.compile(r"\((?:[^()\n]{2,80}|[\u4e00-\u9fff])\)|\[[^\[\]\n]{2,80}\]")  # (not "(A)": an option)
_PAREN_LETTER = re.compile(r"\(([A-Z])\)")  # "(A), (B), (D), (C)": the brackets of an MMBench-style letter
_SEP = (
    r"\s*(?:,|->|→|⟶|⇒|=>|>|<|-|–|—|/|\||;)?\s*"
    r"(?:(?:and\s+)?(?:then|finally|lastly|next|last)\s*,?\s*|and\s+|followed\s+by\s+|其次是|然后是|最后是|再到|到)?"
)
# matched on lower(text)
_OLDEST = re.compile(r"\b(?:oldest|earliest|most\s+ancient)\b|最早|最古老|最老|最旧")
_NEWEST = re.compile(r"\b(?:newest|latest|most\s+recent|youngest|most\s+modern)\b|最晚|最新|最近|最现代")
# "D before A", not "before it comes D" / "after that": those refer back, they compare no neighbours
_BACK = r"(?!\s+(?:it|that|this|them|those)\b)"
_OLDER = re.compile(r"\b(?:(?:older|earlier)\s+than|(?:comes?\s+|came\s+)?before" + _BACK + r"|precedes|predates)\b|早于|比.{0,3}早")
_NEWER = re.compile(
    r"\b(?:(?:newer|later|more\s+recent|younger)\s+than|(?:comes?\s+|came\s+)?after" + _BACK + r"|follows|postdates)\b|晚于|比.{0,3}晚"
)
_NUMBERED = re.compile(
    r"^\s*(?:[-*•]\s*)?(?:(\d)\s*[.):]|(\d)(?:st|nd|rd|th)\b\s*(?:[:.\-–—]|place)?|#(\d)|第([一二三四五六1-6])\s*(?:名|位|个|件)?\s*[:.,]?|(first|second|third|fourth|fifth|sixth)\s*[:.\-–—])\s*(.*)$",
    re.IGNORECASE | re.MULTILINE,
)
_ORD_WORD = {"first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6}


class _Items:
    """The items of an ordering: option letters, or the numbers base..base+n-1. ``one_based``: a
    list of the numbers base+1..base+n counts as the same items (the reply numbers its images
    from 1: "Image 1 ... Image 4" for indices 0-3)."""

    def __init__(self, n: int, base: int | None, one_based: bool = False) -> None:
        self.n, self.base, self.one_based = n, base, one_based
        if base is None:
            # "I" is the pronoun ("...; I can't choose") unless a ninth item exists
            # (the character first, what precedes it checked behind it: a pattern that starts with a character class is
            # scanned fast)
            self.token = r"[A-Z](?<![A-Za-z0-9][A-Z])(?![A-Za-z0-9])" if n >= 9 else r"[A-HJ-Z](?<![A-Za-z0-9][A-HJ-Z])(?![A-Za-z0-9])"
            self.valid = list(letters_for(n))
        else:
            self.token = r"\d(?<![\w.]\d)(?!\d|\.\d)"
            self.valid = [str(i) for i in range(base, base + n)]
        self.run = re.compile(f"{self.token}(?:{_SEP}{self.token})*+")
        self.single = re.compile(self.token)

    def value(self, tokens: list[str]) -> tuple | None:
        """The ordering a list of tokens gives (a permutation of the items; a 1-based list of image
        numbers, base+1..base+n, counts as the same images), else None."""
        if len(tokens) != self.n:
            return None
        if sorted(tokens) == sorted(self.valid):
            return tuple(tokens) if self.base is None else tuple(int(t) for t in tokens)
        if (
            self.one_based
            and self.base is not None
            and sorted(int(t) for t in tokens) == list(range(self.base + 1, self.base + self.n + 1))
        ):
            return tuple(int(t) - 1 for t in tokens)
        return None


@lru_cache(maxsize=64)
def _items(n: int, base: int | None, one_based: bool = False) -> _Items:
    return _Items(n, base, one_based)


def _numbers_images_from_one(s: str, n: int, base: int) -> bool:
    """Whether the reply names its images "Image 1" ... "Image n" (so base+n is an image, not an
    index outside the range): the highest number appears with a label ("Image 4", "图4")."""
    low = lower(s)
    top = str(base + n)
    return any(low[m.end() : m.end() + 2].strip().startswith(top) for m in LABEL_PREFIX.finditer(low))


def _prepare(s: str) -> str:
    """Label prefixes dropped ("Image 3" -> "3") and parenthesised asides blanked (kept in place)."""
    s = blank_label_prefixes(s)
    if "(" in s:
        s = _PAREN_LETTER.sub(r" \1 ", s)
    return _PAREN.sub(lambda m: " " * len(m.group(0)) if _WORDS.search(m.group(0)) else m.group(0), s)


def _direction(s: str, start: int, end: int) -> int:
    """-1 when the nearest direction stated in words says newest-to-oldest, else +1."""
    before = None
    low = lower(s[max(0, start - 160) : end + 40])
    offset = max(0, start - 160)
    for m in DIRECTION.finditer(low, 0, start - offset):
        before = m
    if before is not None:
        return -1 if before.group("rev") else 1
    same_line, _, later = low[end - offset :].partition("\n")
    after = DIRECTION.search(same_line)
    if after is None and not same_line.strip():  # "4,2,0,1,3\n\n(Order from most recent to oldest.)"
        note = later.lstrip().partition("\n")[0].strip()  # (the next line with words)
        after = DIRECTION.search(note) if len(note) <= 60 else None
    if after is not None and after.group("rev"):
        return -1
    return 1


_SENTENCE_CHARS = 300  # a list's sentence is read at most this far either side of it (a one-line loop of lists stays linear)
_PROSE_AFTER = re.compile(r"\s*[—–;]\s+")  # between the n-th item and more: a dash or semicolon starts prose
_EITHER = re.compile(r"\beither\b|\bor\s+(?:maybe|perhaps|possibly)\b|要么|或者")


def _runs(s: str, items: _Items, lo: int = 0, hi: int | None = None, raw: str | None = None) -> list[tuple[int, tuple | str]]:
    """(position, ordering) of each complete list in s[lo:hi], directions applied (read in ``raw``,
    the text before its asides were blanked)."""
    raw = s if raw is None else raw
    hi = len(s) if hi is None else hi
    found: list[tuple[int, tuple | str]] = []
    read_around: dict[tuple[int, str, str], tuple[bool, bool, bool]] = {}
    for line_start, line in _lines(s, lo, hi):
        for m in items.run.finditer(line):
            if m.end() - m.start() > 100 * items.n:  # far too long for n items: a run-away list
                continue
            tokens = items.single.findall(m.group(0))
            run_end = m.end()
            value = items.value(tokens)
            if value is None and len(tokens) > items.n:
                # "4,2,3,1,0 — images 2 and 3 are close": the list, then prose after a dash or semicolon
                at = list(items.single.finditer(m.group(0)))
                if _PROSE_AFTER.fullmatch(m.group(0)[at[items.n - 1].end() : at[items.n].start()]):
                    value = items.value(tokens[: items.n])
                    run_end = m.start() + at[items.n - 1].end()
            if value is None:
                continue
            start = line_start + m.start()
            # what is read around the list (an example's "e.g.", a direction, a hedge): the same around a list that
            # repeats another's surroundings, so a run-away repetition of lists is read once
            window = slice(max(0, start - _SENTENCE_CHARS), line_start + run_end + _SENTENCE_CHARS)
            around = (start - window.start, raw[window], s[window])  # (where the list is in them: near the reply's start)
            if around not in read_around:
                read_around[around] = _around(s, raw, line, m, start, line_start + run_end, run_end)
            example, reverse, hedged = read_around[around]
            if example:
                continue
            found.append((start, tuple(reversed(value)) if reverse else value))
            if hedged:
                found.append((start, CONFLICT))  # "Either 4,3,2,1,0 or 4,2,3,1,0", "C, A, D, B or maybe ..."
    return found


def _around(s: str, raw: str, line: str, m: re.Match, start: int, end: int, run_end: int) -> tuple[bool, bool, bool]:
    """What the text around a list says of it: (an example, stated newest first, hedged)."""
    if _EXAMPLE.search(s[max(0, start - 25) : start]):
        return True, False, False
    rest = line[run_end : run_end + _SENTENCE_CHARS]
    stop = _END.search(rest)
    back = max(0, m.start() - _SENTENCE_CHARS)
    sentence = line[max(back - 1, line.rfind(".", back, m.start()), line.rfind(";", back, m.start())) + 1 : m.start()]
    hedged = HEDGE.search(lower(rest[: stop.start() if stop else len(rest)])) or _EITHER.search(lower(sentence))
    return False, _direction(raw, start, end) < 0, hedged is not None


def _lines(s: str, lo: int, hi: int):
    pos = lo
    for part in s[lo:hi].split("\n"):
        yield pos, part
        pos += len(part) + 1


_ORDER_INTRO = re.compile(r"order|sequence|chronolog|rank|arrange|sort|oldest|earliest|newest|latest|recent|顺序|排列|排序|最早|最晚|从")
_EACH_ITEM = re.compile(
    r"\b(?:identify|look\s+at|examine|describe|analy[sz]e|go\s+through)\b|\beach\s+(?:one|artifact|image|piece|item|object)\b|逐一|分别"
)


def _numbered(s: str, items: _Items, raw: str | None = None, lo: int = 0, hi: int | None = None) -> tuple | None:
    """ "1) B\\n2) D\\n..." / "1st — Artifact B" lines (in s[lo:hi]): the items by rank."""
    raw = s if raw is None else raw
    ranked: dict[int, str] = {}
    first = last_end = None
    for m in _NUMBERED.finditer(s, lo, len(s) if hi is None else hi):
        token = next(g for g in m.groups()[:5] if g)
        rank = _ORD_WORD.get(token.lower()) or (ZH_DIGITS[token] if token in ZH_DIGITS else int(token))
        tokens = items.single.findall(m.group(6))
        if len(set(tokens)) != 1 or rank in ranked:
            continue
        ranked[rank] = tokens[0]
        first = m.start() if first is None else first
        last_end = m.end()
    if sorted(ranked) != list(range(1, items.n + 1)) or first is None or last_end is None:
        return None
    block = [ranked[r] for r in sorted(ranked)]
    intro = _list_intro(s, first, last_end)
    if block == sorted(block) and intro is not None and (not _ORDER_INTRO.search(intro) or _EACH_ITEM.search(intro)):
        return None  # "### Analysis of Each Image:\n1. Image 0: ...\n2. Image 1: ...": each item described in turn
    value = items.value(block)
    if value is not None and first is not None and _direction(raw, first, first) < 0:
        value = tuple(reversed(value))
    return value


_ITEM_ONLY = re.compile(r"\s*(?:$|[-–—:(,]|\.(?:\s|$))")  # "- C", "- C – Harappan seal", not "- A is Harappan"
_BULLET = re.compile(r"^[ \t]*[-*•+][ \t]*(.*)$", re.MULTILINE)


def _list_intro(s: str, first: int, last_end: int) -> str | None:
    """The line before a list that runs from ``first`` to ``last_end``, in lower case; None when the
    list is the whole reply."""
    intro = s[:first].rstrip()
    intro = intro[intro.rfind("\n") + 1 :]
    return None if not intro and not s[last_end:].strip() else lower(intro)


def _bulleted(s: str, items: _Items, raw: str) -> tuple | None:
    """ "From oldest to newest:\n- C\n- A\n- D\n- B": n bullet lines in a row, each naming one item."""
    block: list[str] = []
    first = None
    last_end = -1
    for m in _BULLET.finditer(s):
        tokens = items.single.findall(m.group(1)[:12])
        contiguous = last_end >= 0 and not s[last_end : m.start()].strip()
        head = items.single.match(m.group(1).strip())
        if len(set(tokens)) != 1 or not head or not _ITEM_ONLY.match(m.group(1).strip(), head.end()):
            if block:
                break
            continue
        if block and not contiguous:
            break
        block.append(tokens[0])
        first = m.start() if first is None else first
        last_end = m.end()
    if len(block) != items.n or first is None or last_end is None:
        return None
    intro = _list_intro(s, first, last_end)
    if intro is not None and not _ORDER_INTRO.search(intro):
        return None  # "- Image 0: Qing ...\n- Image 1: Song ...": a description of each image, not an order
    if block == sorted(block) and intro is not None and _EACH_ITEM.search(intro):
        return None  # "let's identify each artifact:\n- 0: Qing dynasty porcelain\n- 1: Shang ...": the items in turn
    value = items.value(block)
    if value is not None and _direction(raw, first, first) < 0:
        value = tuple(reversed(value))
    return value


def _table(s: str, items: _Items) -> tuple | None:
    """A markdown table with one item cell and one rank cell (1..n) per row."""
    if items.base is not None or "|" not in s:
        return None
    ranked: dict[int, str] = {}
    for line in s.splitlines():
        if not line.strip().startswith("|") or set(line.strip()) <= set("|-: "):
            continue
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        letters = [c for c in cells if re.fullmatch(items.token, c)]
        ranks = [int(c) for c in cells if re.fullmatch(r"\d", c)]
        if len(letters) == 1 and len(ranks) == 1 and ranks[0] not in ranked:
            ranked[ranks[0]] = letters[0]
    if sorted(ranked) != list(range(1, items.n + 1)):
        return None
    return items.value([ranked[r] for r in sorted(ranked)])


_JOINT = re.compile(r"\band\b|和|而")  # between two statements of a clause ("the oldest is B and the newest is C")


def _prose(s: str, items: _Items) -> tuple | None:
    """ "The oldest is B ... then D, then A, and the newest is C" -> (B, D, A, C); no order from a reply that
    says it cannot place some ("C is the oldest and B the newest, but I can't tell A from D")."""
    if UNSURE.search(s):
        return None
    mentions = [(m.start(), m.group(0)) for m in items.single.finditer(s)]
    order = list(dict.fromkeys(t for _, t in mentions))
    if sorted(order) != sorted(items.valid):
        return None

    low = lower(s)

    def attached(pattern: re.Pattern) -> tuple[int, str] | None:
        for m in pattern.finditer(low):
            clause_start = max(s.rfind(ch, 0, m.start()) for ch in ".;,\n") + 1
            clause_end = min([i for i in (s.find(ch, m.end()) for ch in ".;,\n") if i >= 0] + [len(s)])
            clause = s[clause_start:clause_end]
            part_start = 0
            for joint in [*_JOINT.finditer(clause), None]:  # the clause's parts, at their own offsets
                part = clause[part_start : len(clause) if joint is None else joint.start()]
                if clause_start + part_start <= m.start() < clause_start + part_start + len(part) + 1:
                    got = items.single.findall(part)
                    if len(set(got)) == 1:
                        return m.start(), got[0]
                part_start = len(clause) if joint is None else joint.end()
        return None

    old, new = attached(_OLDEST), attached(_NEWEST)
    if not old or not new or old[1] == new[1]:
        return None
    middle = [t for t in order if t not in (old[1], new[1])]
    if new[0] < old[0]:
        middle.reverse()
    for pattern, earlier_first in ((_OLDER, True), (_NEWER, False)):
        for m in pattern.finditer(low):
            left = items.single.findall(s[max(0, m.start() - 12) : m.start()])
            right = items.single.findall(s[m.end() : m.end() + 12])
            if left and right and left[-1] in middle and right[0] in middle:
                a, b = (left[-1], right[0]) if earlier_first else (right[0], left[-1])
                if middle.index(a) > middle.index(b):
                    i, j = middle.index(a), middle.index(b)
                    middle[i], middle[j] = middle[j], middle[i]
    return items.value([old[1], *middle, new[1]])


def _one(found: Sequence[tuple[int, tuple | str]]) -> tuple | str | None:
    distinct = list(dict.fromkeys(v for _, v in found))
    if CONFLICT in distinct or len(distinct) > 1:
        return CONFLICT
    return distinct[0] if distinct else None


def _stated(s: str, items: _Items) -> Iterator[Candidate]:
    """The orderings of ``items`` a normalised reply states, in the order a grader reads them."""
    t = _prepare(s)
    structured_done = False
    line_runs: dict[int, list] = {}  # the lists of each line, found once: cues on one line share them

    def runs_from(start: int, end: int) -> list:
        line_start = t.rfind("\n", 0, start) + 1
        if line_start not in line_runs:
            line_end = t.find("\n", line_start)
            line_runs[line_start] = _runs(t, items, line_start, len(t) if line_end < 0 else line_end, s)
        return [(at, value) for at, value in line_runs[line_start] if start <= at < end]

    supposed: list[tuple[int, int]] = []  # where an order is stated under a condition
    for how, lo, hi, final in regions(t):
        if how == Kind.FALLBACKS:
            yield FALLBACKS
            continue
        if how == Kind.BOLD:
            continue
        if how == HYPOTHETICAL:
            supposed.append((lo, hi))
        if how == Kind.LINE:
            if not structured_done:
                structured_done = True
                for structured in (_numbered(t, items, s), _table(t, items), _bulleted(t, items, s)):
                    yield Candidate(structured, 0, Kind.STRUCTURE)
            stated = [(at, value) for at, value in _runs(t, items, lo, hi, s) if not any(a <= at < b for a, b in supposed)]
            yield Candidate(_one(stated), lo, how, final)
        elif how == Kind.ALL:
            found = _one(_runs(t, items, raw=s))
            if found is None and len(t) <= ANYWHERE_LIMIT:
                found = _prose(t, items)
            yield Candidate(found, 0, how)
            return
        else:
            head = t[lo:hi].lstrip(" \t:=-–—,\n")
            line_start = hi - len(head)
            line_end = t.find("\n", line_start, hi)
            if how == Kind.CLOSING and len(items.single.findall(t, line_start, line_start + 80)) < items.n:
                continue  # "... is C." names one item: no ordering there
            found = _one(runs_from(line_start, hi if line_end < 0 else line_end))
            if (
                found is None and how == Kind.CUE
            ):  # (a direction on the cue's line counts: "the order from most recent to oldest:\n\n1. C ...")
                found = _numbered(t, items, s, lo, hi)
            yield Candidate(found, line_start, how, final)


def _options_as_letters(s: str, n: int, options) -> str | None:
    """``s`` with each option named by its text replaced by its letter (padded, so positions hold:
    "Stone implement, Ram, Image of Narasimha, Coin." -> "A              , B  , D ..."), or None when
    the reply names no option by its text."""
    mentions = [(a, b, i) for a, b, i in option_mentions(s, options) if i < n]
    if not mentions:
        return None
    out, last = [], 0
    for a, b, i in mentions:
        letter = letters_for(n)[i]
        # the option's own letter beside its text ("Stone implement (A)", "(A) Stone implement") is the same item
        after = re.match(rf"[ \t]*\(?{letter}\)(?![\w])", s[b:])
        before = re.search(rf"(?<![\w(])\(?{letter}[).:]?[ \t]*$", s[last:a])
        if before:
            a = last + before.start()
        if after:
            b += after.end()
        out.append(s[last:a] + letter + " " * (b - a - 1))
        last = b
    return "".join(out) + s[last:]


def ordering_candidates(s: str, n: int, base: int | None = None, options=None) -> Iterator[Candidate]:
    """The orderings a normalised reply states: its JSON answer field, a compact "CADB", else the
    lists, numbered lines, tables and prose of ``_stated``. Letters labelling images may be given
    by position ("Image 3 → Image 1 → ..."); indices from 1 count only when the reply names its
    images so ("Image 1, ..., Image 4" for indices 0-3). A reply that gives no order in letters
    may give it in the options' texts ("Stone implement → Ram → Image of Narasimha → Coin"): read so
    only then, with the same rules."""
    found = json_answer(s)
    if found is not None:
        inner = normalize(found[1], echoes=False)
        value = decide(ordering_candidates(inner, n, base, options)) if inner else None
        yield Candidate(CONFLICT if value is None else value, found[0], Kind.JSON, True)
        return
    bare = s.strip(" \t\n.[](){}\"'")
    if _BARE_LIST.fullmatch(bare):  # only the order, on one line: read without looking for cues
        tokens = _BARE_TOKEN.findall(bare)
    else:
        tokens = [line.strip(" \t.") for line in bare.splitlines() if line.strip()]  # one item a line: "4\n2\n1\n3"
    if len(tokens) == n and all(len(token) == 1 for token in tokens):
        items = _items(n, base, base is not None and _numbers_images_from_one(s, n, base))
        value = items.value([token.upper() if base is None else token for token in tokens])
        if value is not None:
            yield Candidate(value, 0, Kind.BARE)
            return
    if base is None and _COMPACT.fullmatch(bare) and (bare.isupper() or bare.islower()):
        yield Candidate(_items(n, None).value(list(bare.upper())) or CONFLICT, 0, Kind.BARE)
        return
    if base is not None:
        yield from _stated(s, _items(n, base, _numbers_images_from_one(s, n, base)))
        return
    if _LOWER_LIST.fullmatch(bare):
        s = s.upper()
    stated = False
    for cand in _stated(s, _items(n, None)):
        stated = stated or (cand.value is not None and cand.how not in (Kind.WEAK, Kind.ALL))
        yield cand
    if not stated and _numbers_images_from_one(s, n, 0):
        letters = letters_for(n)
        for cand in _stated(s, _items(n, 0, True)):
            stated = stated or (cand.value is not None and cand.how not in (Kind.WEAK, Kind.ALL))
            value = cand.value if cand.value in (None, CONFLICT) else tuple(letters[i] for i in cand.value)
            yield Candidate(value, cand.start, cand.how, cand.final)
    if not stated and options and (named := _options_as_letters(s, n, options)) is not None:
        yield from _stated(named, _items(n, None))


def parse_ordering(text, n_items: int = 4, base: int | None = None, options=None) -> tuple | None:
    """The ordering a reply gives, oldest first as asked: a tuple of n option letters, or with
    ``base`` a tuple of the n integers base..base+n-1 (e.g. 0-based image indices); else None
    (see ``ordering_candidates``)."""
    s = normalize(text)
    if not s:
        return None
    return decide(ordering_candidates(s, n_items, base, options), cut_off(s))


def parse_index_ordering(text, n_items: int, base: int = 0) -> tuple[int, ...] | None:
    """A permutation of the indices base..base+n-1 ("2,1,3,0", "Image 2 → Image 1 → ..."),
    returned 0-based; a letter ordering ("C, B, D, A") counts as indices A = 0."""
    found = parse_ordering(text, n_items, base=base)
    if found is not None:
        return tuple(i - base for i in found)
    letters = parse_ordering(text, n_items)
    return None if letters is None else tuple(ord(c) - ord("A") for c in letters)


__all__ = ["DIRECTION", "ordering_candidates", "parse_index_ordering", "parse_ordering"]
