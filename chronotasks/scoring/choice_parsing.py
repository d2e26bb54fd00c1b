"""One of a few listed choices ("1"/"2", "1"-"4") read from a reply, usually asked for in JSON.

The JSON field decides when the reply has one (``{"answer": "2"}``, ``{"answer": "Image 2"}``,
fenced, or cut off after the field); several JSON answers count only when they agree or one is
marked final. A reply in prose names its choice by number, "Image 2", "图2", "the second one" or
"第二张"; for "which image is earlier" questions (``asks="earlier"``) also by comparison: "Image 1
is older", "the second photo is more recent than the first" (-> 1), "第一张更早". Two choices, a
hedge ("1 or 2") or a reply that stops inside its JSON give None.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from functools import lru_cache

from chronotasks.scoring.candidates import CONFLICT, FALLBACKS, Candidate, Kind, decide
from chronotasks.scoring.json_answer import json_answer, json_values
from chronotasks.scoring.normalization import lower, normalize
from chronotasks.scoring.ordinals import ORDINAL_WORDS, ZH_DIGITS
from chronotasks.scoring.reply_text import (
    ANYWHERE_LIMIT,
    corrections,
    cut_off,
    first_clause,
    inside,
    negated_spans,
    regions,
)

_LABELLED = re.compile(  # on lower(text)
    r"(?=[ipocnfst1-5图选照第画이사hảgифصا])(?:\b(?:images?|imgs?|pictures?|photos?|photographs?|options?|choices?|candidates?|no\.)[\s_]*#?\s*(\d+)(?!\d)"
    r"|(?:图片|图像|照片|图|选项|画像|이미지|사진|hình|ảnh|imagen|foto|gambar|изображение|фото|صورة|الصورة)\s*(\d+)(?!\d)"
    r"|\b(first|second|third|fourth|fifth|1st|2nd|3rd|4th|5th)\s+(?:one|image|picture|photo|photograph|option|choice)s?\b"
    r"|\bthe\s+(first|second|third|fourth|fifth|former|latter)\b(?!\s+(?:of|half|time|step|decade|century|world|place|glance|look))"
    r"|第\s*([一二三四五1-5])\s*(?:张|幅|个|项)?\s*(?:图片|图像|照片|图|选项)?)",
)
# a reply that is only a choice's label: "Image 1", "Image 2.", "图2" (read without looking for cues)
_BARE_LABEL = re.compile(r"(?:image|picture|photo|图片?|图像|照片)\s*(\d)\.?", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])(\d{1,2})(?![\w]|\.\d|\s*(?:st|nd|rd|th)\b|\s*%)")  # a year or a percentage is no choice
# "(2019)", "(the 1963 photo)": an aside in brackets is not the answer
_NUMBER_ASIDE = re.compile(r"[(（]\s*\d\s*[)）]")  # "(2)" names a choice
_ASIDE = re.compile(r"\([^()\n]{1,80}\)|（[^（）\n]{1,80}）")
_EARLIER = r"\b(?:earlier|older|oldest|earliest|first|more\s+(?:dated|old)|predates|precedes)\b"
_LATER = r"\b(?:later|newer|newest|latest|more\s+recent|most\s+recent|more\s+modern|younger|postdates)\b"
_COMPARE = re.compile(  # on lower(text)
    rf"(?=[eofpmlny更较早在晚])(?:(?P<earlier>{_EARLIER})|(?P<later>{_LATER})|(?P<zh_earlier>更早|较早|更旧|更古老|更老|早于|在前)|(?P<zh_later>更新|更晚|较晚|更近|更现代|晚于|在后))",
)
_UNSURE = re.compile(r"\b(?:can(?:no|')t|unable|not\s+(?:sure|possible)|unsure|hard\s+to\s+(?:say|tell))\b|无法|不确定", re.IGNORECASE)
# for "which is earlier": the two are of one time
_SAME_TIME = re.compile(r"\b(?:same\s+(?:time|year|era|period)|both)\b|相同|同一时期", re.IGNORECASE)


def _choice_of(m: re.Match, choices: list[str]) -> str:
    raw = next(g for g in m.groups() if g)
    low = raw.lower()
    if raw.isdigit():
        value = raw
    elif low in ORDINAL_WORDS:
        value = str(ORDINAL_WORDS[low])
    elif low == "former":
        value = choices[0]
    elif low == "latter":
        value = choices[-1]
    else:
        value = str(ZH_DIGITS.get(raw, raw))
    return value


def _mentions(s: str, choices: list[str], bare_numbers: bool) -> list[tuple[int, int, str]]:
    """(start, end, choice) of each choice named in s (numbers only when ``bare_numbers``); asides
    in brackets ("Image 1 (2019)") are skipped."""
    if "(" in s or "（" in s:
        s = _ASIDE.sub(lambda m: m.group(0) if _NUMBER_ASIDE.fullmatch(m.group(0)) else " " * len(m.group(0)), s)
    neg = negated_spans(s)
    found = []
    taken = []
    for m in _LABELLED.finditer(lower(s)):
        if inside(m.start(), neg):
            continue
        found.append((m.start(), m.end(), _choice_of(m, choices)))
        taken.append((m.start(), m.end()))
    if bare_numbers:
        for m in _NUMBER.finditer(s):
            if inside(m.start(), neg) or any(a <= m.start() < b for a, b in taken):
                continue
            found.append((m.start(), m.end(), m.group(1)))
    return sorted(found)


def _value(text: str, choices: list[str], asks: str | None) -> str | None:
    """A JSON field or a short answer: exactly one choice named ("2", "Image 2", "2 (Image 2 is earlier)")."""
    s = normalize(text, echoes=False)
    word = s.strip(" .!\"'").lower().replace("_", " ")
    exact = {c.lower(): c for c in choices}.get(word)
    if exact is not None:
        return exact
    if word in ORDINAL_WORDS:  # {"answer": "first"}
        return str(ORDINAL_WORDS[word])
    label = _BARE_LABEL.fullmatch(word)
    if label and label.group(1) in choices:  # {"answer": "Image 2"}
        return label.group(1)
    compared = _compared(s, choices, asks) if asks else None
    if compared is not None:  # {"answer": "Image 2 is more recent"} for "which is earlier": the question asked is answered
        return compared
    named = {c for _, _, c in _mentions(s, choices, bare_numbers=True)}
    if len(named) == 1:
        c = named.pop()
        return c if c in choices else None
    return None


_THAN = re.compile(r"\s+than\s+")
_NEGATED_COMPARISON = re.compile(r"\b(?:no|not|never)\s+$")
_LABEL_HEADING = re.compile(r"\s*(?:image|picture|photo|图片?|图像|照片)\s*\d\s*[:：]\s*(?:a|an|the|this)?\s*\w+\s+\w+", re.IGNORECASE)
_IT_BEFORE = re.compile(
    r"\b(?:it|it's|this\s+one)\s+(?:is|was|'s|must\s+be|should\s+be|would\s+be|looks|seems|appears)?\s*(?:to\s+be\s+)?(?:much\s+|clearly\s+|likely\s+)?$",
    re.IGNORECASE,
)


def _compared(s: str, choices: list[str], asks: str) -> str | None:
    """ "Image 1 is earlier" -> 1; "Image 2 is newer than Image 1" -> 1 (two choices); "it is older
    than the second image" -> 1 (what it is compared with is the other one); "第一张更早" -> 1."""
    votes = set()
    mentions = _mentions(s, choices, bare_numbers=False)
    for m in _COMPARE.finditer(lower(s)):
        if _NEGATED_COMPARISON.search(lower(s), max(0, m.start() - 8), m.start()):
            continue  # "places it no later than the mid-20th century" says no "later"
        earlier = m.lastgroup in ("earlier", "zh_earlier")
        # (a Chinese clause ends at its comma: "图2中为手机，胶片相机早于..." says nothing of 图2)
        zh = (m.lastgroup or "").startswith("zh")
        than = _THAN.match(s, m.end())
        compared_with = [c for start, end, c in mentions if than and start == than.end()] if not zh else []
        if compared_with and len(choices) == 2 and compared_with[0] in choices:
            other = choices[1 - choices.index(compared_with[0])]
            votes.add(other if earlier else compared_with[0])
            continue
        before = [
            c
            for start, end, c in mentions
            if end <= m.start() and m.start() - end <= 25 and not re.search(r"[.;\n，,]" if zh else r"[.;\n]", s[end : m.start()])
        ]
        if not before and _IT_BEFORE.search(s[max(0, m.start() - 30) : m.start()]):
            # "The first image is black and white, so it is older.": "it" is the one image the sentence named
            named = {c for start, end, c in mentions if end <= m.start()}
            before = list(named) if len(named) == 1 else []
        if not before:
            continue
        subject = before[-1]
        if zh and len(before) >= 2:
            # "第二张比第一张更新": the subject comes before 比
            prev = [(start, end) for start, end, c in mentions if end <= m.start()]
            if "比" in s[prev[-2][1] : prev[-1][0]]:
                subject = before[-2]
        if earlier:
            votes.add(subject)
        elif len(choices) == 2 and subject in choices:
            votes.add(choices[1 - choices.index(subject)])
    if asks == "earlier" and len(votes) == 1:
        c = votes.pop()
        return c if c in choices else None
    return None


@lru_cache(maxsize=32)
def _key_field(key: str) -> re.Pattern:
    """A JSON reply's answer field, however broken: 'answer: 2', "'answer'=2", '"answer": "2' (no closing brace)."""
    return re.compile(r'["\']?' + re.escape(key) + r'["\']?\s*[:=]\s*["\']?([^"\'},\n]+)', re.IGNORECASE)


_JSON_START = re.compile(r"\s*(?:(?:```)?json\s*)?\{")


# the CoT prompt's self-check ("bias_mitigation"): counterfactual by design ("if the colours were swapped,
# Image 1 would look older"), so never a conclusion against the answer; read only for a revision to it
_CHECK_KEYS = re.compile(r"bias|reflect|verif|check", re.IGNORECASE)
_REVISED = re.compile(
    r"(?=[rcnaoif重修更])(?:re-?evaluat|\bconclusion\s+(?:would|will|should|does|could)\s+change|\bnot\s+(?:a\s+)?reliable|\brevis|\bactually\b|\bon\s+reflection\b|\breconsider|\bcorrect(?:ed|ion)\b|\binitial(?:ly)?\b"
    r"|\bfirst\s+(?:conclusion|judg(?:e)?ment|impression|inclination)|\brel(?:ied|ying)\s+(?:on|upon)\b|re-?examin|重新|修正|更正)"
)


def choice_candidates(s: str, choices: list[str], key: str, asks: str | None) -> Iterator[Candidate]:
    """The choices a normalised reply states, in the order a grader reads them."""
    objects = json_values(s)
    field = json_answer(s, (key.lower(), "final_answer", "answer"), objects)
    if field is not None:
        yield from _json_field_choices(s, field, objects, choices, key, asks)
        return
    if asks and objects:
        role = _role_answer(objects, choices, asks)
        if role is not None:  # {"earlier_image": "Image 1", "later_image": "Image 2"}
            yield role
            return
    fragments = list(_key_field(key).finditer(s)) if ":" in s or "=" in s else []
    values = {_value(fragment.group(1), choices, asks) for fragment in fragments}
    if len(values) == 1:  # (two fields that differ, "Answer: 1 ... Answer: 2", are read as prose below)
        yield Candidate(values.pop() or CONFLICT, fragments[0].start(), Kind.JSON, True)
        return
    if "{" in s and _JSON_START.match(s):  # (its code fence's backticks are gone by now: "json\n{...")
        return  # a JSON reply that stops before its answer field
    stripped = s.strip(" .!\"'")
    if stripped in choices:
        yield Candidate(stripped, 0, Kind.BARE)
        return
    label = _BARE_LABEL.fullmatch(stripped)
    if label and label.group(1) in choices:
        yield Candidate(label.group(1), 0, Kind.BARE)
        return
    for how, lo, hi, final in regions(s):
        if how == Kind.FALLBACKS:
            yield FALLBACKS
            continue
        region = s[lo:hi]
        if how == Kind.ALL:
            yield Candidate(_anywhere(region, choices, asks), 0, how)
            return
        clause = first_clause(region) if how not in (Kind.LINE, Kind.BOLD) else region
        if how == Kind.LINE and (len(clause) > 60 or _LABEL_HEADING.match(clause)):
            continue  # (not "Image 1: A woman using a laptop in a coffee shop.", a description under its label)
        if asks:
            compared = _compared(clause, choices, asks)
            if compared is not None:
                yield Candidate(compared, lo, how, final)
                continue
        named = {c for _, _, c in _mentions(clause, choices, bare_numbers=how in (Kind.CUE, Kind.LINE, Kind.BOLD))}
        if len(named) == 1:
            c = named.pop()
            yield Candidate(c if c in choices else CONFLICT, lo, how, final)
        elif len(named) > 1:
            yield Candidate(CONFLICT, lo, how, final)


def _json_field_choices(s: str, field: tuple[int, str], objects, choices: list[str], key: str, asks: str | None) -> Iterator[Candidate]:
    """The choice of a JSON answer field, a revision or a second answer after the JSON, and (for a question
    that asks which is earlier or later) what the reply's own reasoning concludes otherwise."""
    answer = _value(field[1], choices, asks) if field[1] else None
    after = s[s.rfind("}") + 1 :]
    revision = next(iter(corrections(lower(after))), None) if after.strip(" \n`") else None
    if revision:  # '{"answer": "1"} ... Actually, on reflection, Image 2 is earlier.': the revision, read first, outranks it
        yield Candidate(_revised_choice(after[revision.end() :], choices, asks), len(s) - len(after) + revision.end(), Kind.CUE, 2)
    yield Candidate(answer or CONFLICT, field[0], Kind.JSON, True)
    if not revision and after.strip(" \n`"):  # '{"answer": "1"}\n\nFinal answer: 2': a second answer after the JSON one
        yield Candidate(decide(choice_candidates(after, choices, key, asks)), len(s) - len(after), Kind.CUE)
    if asks:
        concluded = [_concluded(text, choices, asks) for text in _reasoning(s, field[0], objects)]
        checks = [text for text in _reasoning(s, field[0], objects, _CHECK_KEYS) if _REVISED.search(lower(text))]
        if answer is not None and any(_revised_to(text, choices, asks) == answer for text in checks):
            # the self-check revised the reasoning's conclusion to the answer given ("Re-evaluating: ... So Image 2
            # is actually earlier.")
            return
        for value in concluded:
            # the reply's own reasoning concludes otherwise ("Image 1 is earlier ... {"answer": "2"}")
            yield Candidate(value, s.rfind("}") + 1, Kind.CUE)


def _revised_choice(text: str, choices: list[str], asks: str | None) -> str | None:
    """The choice a revision after a JSON answer names: the one its sentences name ("Correction: I swapped the
    images — the box cameras are in Image 1 ... Image 1 is the earlier one."), None when they name none or two."""
    found = set()
    for sentence in re.split(r"(?<=[.!?。])\s+", text.strip())[:6]:
        clause = first_clause(sentence)
        value = ((_compared(clause, choices, asks) if asks else None) or _value(clause, choices, asks)) if clause.strip() else None
        if value is not None:
            found.add(value)
    return found.pop() if len(found) == 1 else None


_EARLIER_KEY = re.compile(r"earl|old|first|prior|前|早")
_LATER_KEY = re.compile(r"later|new|recent|modern|second|后|晚")


def _role_answer(objects: list, choices: list[str], asks: str) -> Candidate | None:
    """A JSON reply that names the images by their role instead of an answer field:
    {"earlier_image": "Image 1", "later_image": "Image 2"} answers 1 for "which is earlier"."""
    votes = set()
    for pos, obj in objects:
        for key, value in obj.items():
            if not isinstance(value, (str, int)) or len(str(value)) > 20:
                continue
            named = _value(str(value), choices, None)
            key = str(key).lower()
            if named is None or not (("image" in key or "photo" in key or "图" in key) or key in ("earlier", "later", "older", "newer")):
                continue
            if _EARLIER_KEY.search(key) and not _LATER_KEY.search(key):
                votes.add((pos, named))
            elif _LATER_KEY.search(key) and len(choices) == 2:
                votes.add((pos, choices[1 - choices.index(named)]))
    found = {v for _, v in votes}
    if not found:
        return None
    return Candidate(found.pop() if len(found) == 1 else CONFLICT, min(p for p, _ in votes), Kind.JSON, True)


_REASONING_KEYS = re.compile(r"think|reason|analy|conclu|step_?3|summary|分析|推理|结论", re.IGNORECASE)


_SENTENCE_MARK = re.compile(r"[.!?。\n]")


_CONCLUSION = re.compile(
    r"(?=[sthoimwSTHOIMW])\b(?:so|therefore|thus|hence|overall|in\s+conclusion|suggesting|indicating|meaning"
    r"|which\s+(?:suggests|indicates|means))\b,?",
    re.IGNORECASE,
)


def _concluded(text: str, choices: list[str], asks: str) -> str | None:
    """The choice the last sentence of a reasoning text states by comparison ("Therefore Image 1
    predates Image 2."), or None."""
    text = text[-400:].rstrip(" \n.!?。")
    marks = [m.end() for m in _SENTENCE_MARK.finditer(text)]
    sentence = normalize(text[marks[-1] if marks else 0 :], echoes=False)
    if not _COMPARE.search(lower(sentence)):
        return None
    cue = _CONCLUSION.search(sentence)  # ("..., suggesting Image 2 is older")
    concluded = _compared(first_clause(sentence[cue.end() :]), choices, asks) if cue else None
    return concluded or _compared(first_clause(sentence), choices, asks)


def _revised_to(check: str, choices: list[str], asks: str) -> str | None:
    """The choice a self-check revises to: the conclusion of its last sentence that compares the
    images ("... Without the colour cue, Image 2 is earlier. My conclusion changes.")."""
    text = check[-400:].rstrip(" \n.!?。")
    for _ in range(3):
        found = _concluded(text, choices, asks)
        if found is not None:
            return found
        marks = [m.start() for m in _SENTENCE_MARK.finditer(text)]
        if not marks:
            return None
        text = text[: marks[-1]].rstrip(" \n.!?。")
    return None


def _reasoning(s: str, json_at: int, objects: list, keys: re.Pattern = _REASONING_KEYS) -> list[str]:
    """The reasoning around a JSON answer: the prose before it, and its reasoning fields
    ("thinking", "reasoning_path", "conclusion"; with ``keys``, the fields it names)."""
    texts = [s[:json_at]] if s[:json_at].strip() and keys is _REASONING_KEYS else []
    obj = next((value for at, value in objects if at == json_at), None)
    if isinstance(obj, dict):
        texts += [v for k, v in obj.items() if isinstance(v, str) and keys.search(str(k))]
    return texts


def parse_choice(text, choices: Iterable[str] = ("1", "2"), key: str = "answer", asks: str | None = None) -> str | None:
    """The choice a reply gives (see the module docstring), or None."""
    s = normalize(text)
    if not s:
        return None
    return decide(choice_candidates(s, [str(c) for c in choices], key, asks), cut_off(s))


def _anywhere(s: str, choices: list[str], asks: str | None) -> str | None:
    if len(s) > ANYWHERE_LIMIT or _UNSURE.search(s) or (asks and _SAME_TIME.search(s)):
        return None
    if asks:
        compared = _compared(s, choices, asks)
        if compared is not None:
            return compared
    named = {c for _, _, c in _mentions(s, choices, bare_numbers=len(s) <= 40)}
    if len(named) == 1 and not asks:
        c = named.pop()
        return c if c in choices else None
    if len(named) == 1 and len(s) <= 60:
        c = named.pop()
        return c if c in choices else None
    return None


def parse_json_choice(text, choices: Iterable[str] = ("1", "2"), key: str = "answer") -> str | None:
    """A choice given in a JSON reply's ``key`` field, or in prose (``parse_choice`` without comparisons)."""
    return parse_choice(text, choices, key)


__all__ = ["parse_choice", "parse_json_choice"]
