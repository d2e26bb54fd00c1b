"""Pure functions for judging text-to-image generations (TempViz §4.2, App. D).

- ``strip_imperative``: the prompt without its imperative prefix ("Generate ...").
- ``parse_graded_rating``: a judge's RATING on a graded scale (outstanding / very
  good / good / fair / poor / ...) or Accept / Not accept, mapped to accept/reject.
- ``parse_verdict``: the verdict of a judging (graded) or yes/no prompt.
- ``parse_decomposition``: question/answer pairs from the decomposition LLM's reply.
- ``answer_matches``: is a VQA answer right for a decomposed question?
- ``threshold_pass``: share of right answers and the pass verdict at a threshold.
- ``cosine``: cosine similarity of two vectors.

Imports nothing of chronotasks outside chronotasks.scoring.
"""

from __future__ import annotations

import json
import re
import string
from collections.abc import Sequence
from typing import Any

import numpy as np

from chronotasks.scoring.json_answer import extract_json
from chronotasks.scoring.letters import parse_letter
from chronotasks.scoring.normalization import lower, normalize
from chronotasks.scoring.reply_text import corrections
from chronotasks.scoring.verdict_parsing import parse_accept, parse_yes_no

UNPARSED = None

IMPERATIVES = ("Give me", "Produce", "Generate", "Create")
_IMPERATIVE = re.compile(r"^\s*(?:" + "|".join(re.escape(i) for i in IMPERATIVES) + r")\b[\s:,]*", re.IGNORECASE)


def strip_imperative(prompt: str) -> str:
    """ "Give me a photorealistic image of X." -> "a photorealistic image of X." (§4.2).

    Only the four imperatives of Table 5 are removed; surrounding whitespace is trimmed.
    """
    return _IMPERATIVE.sub("", str(prompt), count=1).strip()


# Graded rating levels -> rank, best first (equal ranks are synonyms). A level ranked at or above
# ``accept_from`` is an accept.
_LEVEL_RANK = {
    "outstanding": 0,
    "excellent": 0,
    "very good": 1,
    "good": 2,
    "fair": 3,
    "average": 3,
    "mediocre": 3,
    "poor": 4,
    "bad": 4,
    "very poor": 5,
    "very bad": 5,
    "extremely poor": 5,
    "extremely bad": 5,
}
DEFAULT_ACCEPT_FROM = "good"
# Chinese levels and the Accept / Not accept scale of the paper's prompt
# Other words judges rate with, read as the level they stand for ("Superb", "Great", "Terrible").
_SYNONYMS = {
    "superb": "outstanding",
    "exceptional": "outstanding",
    "perfect": "outstanding",
    "great": "very good",
    "terrible": "very poor",
    "awful": "very poor",
    "horrible": "very poor",
}
_ZH_LEVELS = {
    "优秀": "outstanding",
    "出色": "outstanding",
    "非常好": "very good",
    "很好": "very good",
    "良好": "good",
    "一般": "fair",
    "中等": "fair",
    "尚可": "fair",
    "较差": "poor",
    "很差": "very poor",
    "非常差": "very poor",
    "极差": "extremely poor",
    "差": "poor",
}
_ACCEPT = {
    "not accept": False,
    "not accepted": False,
    "not acceptable": False,
    "unacceptable": False,
    "reject": False,
    "rejected": False,
    "do not accept": False,
    "accept": True,
    "accepted": True,
    "acceptable": True,
    "不接受": False,
    "不通过": False,
    "拒绝": False,
    "接受": True,
    "通过": True,
}
_LEVEL = re.compile(
    r"(?<![\w-])(?:"
    + "|".join(re.escape(k) for k in sorted([*_LEVEL_RANK, *_SYNONYMS, *_ACCEPT], key=len, reverse=True))
    + r")(?![\w-])"
    + "|"
    + "|".join(re.escape(k) for k in sorted([*_ZH_LEVELS, *[k for k in _ACCEPT if not k.isascii()]], key=len, reverse=True)),
    re.IGNORECASE,
)
# "RATING: Good", "rating - very poor", "rating": "Accept" (a JSON or dict field)
_RATING_CUE = re.compile(r"(?:rating|评分|评级|评价|等级|结论|verdict|decision)[\"']?\s*(?:[:=]|[-–—](?=\s))\s*", re.IGNORECASE)
_CLAUSE = re.compile(r"(?<=\w)\.(?=\s|$)|[\n;!?]|\bbut\b|\bbecause\b|，|。")


_PARTLY = re.compile(r"\b(?:partially|partly|somewhat|conditionally|half)[\s-]+$", re.IGNORECASE)


def _levels(segment: str) -> list[str]:
    """The levels named in a segment, in order ("not good" is no level; "partially accept" is
    neither verdict: no level)."""
    found = []
    for m in _LEVEL.finditer(segment):
        word = m.group(0).lower()
        if word in _LEVEL_RANK and re.search(r"\bnot\s+$", segment[: m.start()].lower()):
            continue
        if _PARTLY.search(segment[: m.start()]):
            return []
        found.append(_ZH_LEVELS.get(word) or _SYNONYMS.get(word, word))
    return found


def _clause_levels(segment: str) -> list[str]:
    """The levels of the first clause of ``segment`` (the text after a RATING cue)."""
    segment = segment.lstrip(" \t\n\r\"'[(")
    return _levels(segment[: m.start()] if (m := _CLAUSE.search(segment)) else segment)


def _rated_levels(s: str) -> list[str] | None:
    """The levels of the rating a judging reply gives: those of the first clause after the last
    RATING cue, or of a reply that starts with a level; None when the reply rates nothing."""
    cues = list(_RATING_CUE.finditer(s))
    if cues:
        segment = s[cues[-1].end() :].lstrip(" \t\n\r\"'[(")
        clause = segment[: m.start()] if (m := _CLAUSE.search(segment)) else segment
        return _levels(clause)
    head = s.lstrip(" \"'[(")
    if _LEVEL.match(head) and _levels(head[:40]):
        return _levels(head[: m.start()] if (m := _CLAUSE.search(head)) else head)
    return None


def graded_level(text: Any) -> str | None:
    """The rating a judging reply gives: the first level after the last RATING cue
    ("RATING: Poor. The lighting is very good" -> "poor"), or a reply that starts with a level;
    a segment naming two levels only repeats the scale (None)."""
    s = normalize(text)
    levels = _rated_levels(s) if s else None
    return levels[0] if levels and len(set(levels)) == 1 else None


def _accepts(level: str, accept_from: str) -> bool:
    return _ACCEPT[level] if level in _ACCEPT else _LEVEL_RANK[level] <= _LEVEL_RANK[accept_from]


def parse_graded_rating(text: Any, accept_from: str = DEFAULT_ACCEPT_FROM) -> bool | None:
    """A judging-prompt verdict as accept (True) / reject (False) / unparsed (None).

    The rating is the first clause after the last RATING cue (Chinese cues 评分/评级 too; "RATING:",
    "rating -", a JSON "rating" field): Accept / Not accept (the paper's scale), or a graded level,
    an accept when at least ``accept_from`` (default "good": outstanding, excellent, very good and
    good accept -- and "superb", "great"; fair, average, mediocre, poor, bad, very poor and worse
    reject). Two levels that agree ("Good/Very Good") are that verdict; a clause that repeats the
    scale, or a cue with no rating after it, has none. Without a cue, a reply that starts with a
    level is that rating, and Accept / Not accept stated in prose ("I do not accept this image")
    counts.
    """
    if accept_from not in _LEVEL_RANK:
        raise ValueError(f"accept_from must be one of {sorted(_LEVEL_RANK)}, got {accept_from!r}")
    s = normalize(text)
    if not s:
        return UNPARSED
    levels = _rated_levels(s)
    if levels:
        verdicts = {_accepts(level, accept_from) for level in levels}
        cues = list(_RATING_CUE.finditer(s))
        if cues:  # a line after the rating that is itself only a rating ("RATING: Accept\nNot accept"): a second one
            after = s[cues[-1].end() :].lstrip(" \t\n\r\"'[(").split("\n")[1:]
            lone = next((line for line in after if line.strip()), "")
            if lone and len(lone) <= 20 and (more := _levels(lone.strip(" .*"))):
                verdicts |= {_accepts(level, accept_from) for level in more}
            if not corrections(lower(s[cues[0].start() : cues[-1].start()])):  # an earlier rating not revised: a second one
                verdicts |= {
                    _accepts(level, accept_from)
                    for cue, following in zip(cues, cues[1:])
                    for level in _clause_levels(s[cue.end() : following.start()])
                }  # (up to the next cue: linear)
        return verdicts.pop() if len(verdicts) == 1 else UNPARSED
    if levels is not None or _RATING_CUE.search(s):
        return UNPARSED
    return parse_accept(s)


def parse_verdict(text: Any, prompt: str, accept_from: str = DEFAULT_ACCEPT_FROM) -> bool | None:
    """A VLM judge's verdict for the prompt it was asked with: ``"judging"`` (RATING, read by
    ``parse_graded_rating``) or the Standard/Simple yes/no prompt (``parse_yes_no``)."""
    if prompt == "judging":
        return parse_graded_rating(text, accept_from=accept_from)
    return parse_yes_no(text)


_ITEM = re.compile(r"^\s*(?:\d+[.)]|[-*•])\s+", re.MULTILINE)
_ANSWER_SPLIT = re.compile(r"(?:-\s*)?(?:correct\s+)?answer\s*:\s*", re.IGNORECASE)
_TYPE_LABEL = re.compile(r"^\s*(?:open[- ]ended|multiple[- ]choice)\s+question\s*:\s*", re.IGNORECASE)


def parse_decomposition(text: Any) -> list[dict[str, str]]:
    """Question/answer pairs from the decomposition LLM's reply (App. D.1).

    Reads a JSON list (or {"questions": [...]}) of {"question", "answer"}
    objects, or the numbered markdown the paper shows
    ("1. **Open-ended question:** What ...? - **Answer:** Aardvark"). Items
    without an answer are skipped. Returns [] when nothing is found.
    """
    s = "" if text is None else str(text)
    parsed = _json_pairs(s)
    if parsed:
        return parsed
    body = normalize(s)
    pairs = []
    starts = [m.start() for m in _ITEM.finditer(body)] + [len(body)]
    for begin, end in zip(starts, starts[1:]):
        item = _ITEM.sub("", body[begin:end], count=1).strip()
        parts = _ANSWER_SPLIT.split(item, maxsplit=1)
        if len(parts) != 2:
            continue
        question = _TYPE_LABEL.sub("", parts[0]).strip(" -\n\t")
        answer = parts[1].strip().splitlines()[0].strip(" -") if parts[1].strip() else ""
        if "?" in question and answer:
            pairs.append({"question": " ".join(question.split()), "answer": answer})
    return pairs


def _json_pairs(s: str) -> list[dict[str, str]]:
    candidates: list[Any] = []
    fence = re.search(r"```(?:json)?\s*(\[.*?\])\s*```", s, re.DOTALL)
    bare = re.search(r"(\[\s*\{.*\}\s*\])", s, re.DOTALL)
    for match in (fence, bare):
        if match:
            try:
                candidates.append(json.loads(match.group(1)))
            except json.JSONDecodeError:
                pass
    obj = extract_json(s)
    if isinstance(obj, dict) and isinstance(obj.get("questions"), list):
        candidates.append(obj["questions"])
    for candidate in candidates:
        pairs = [
            {"question": str(item["question"]).strip(), "answer": str(item["answer"]).strip()}
            for item in candidate
            if isinstance(item, dict) and item.get("question") and item.get("answer") not in (None, "")
        ]
        if pairs:
            return pairs
    return []


_OPTION = re.compile(r"(?<![A-Za-z])([A-H])\)\s*")
_ARTICLES = {"a", "an", "the"}


def _normalise(text: str) -> list[str]:
    table = str.maketrans({ch: " " for ch in string.punctuation})
    return [w for w in str(text).lower().translate(table).split() if w not in _ARTICLES]


def options_of(question: str) -> dict[str, str]:
    """The lettered options of a multiple-choice question: {"A": "Lion", ...} ({} if none)."""
    found = list(_OPTION.finditer(question))
    options = {}
    for match, following in zip(found, found[1:] + [None]):
        end = following.start() if following else len(question)
        options[match.group(1)] = question[match.end() : end].strip(" -*\n\t")
    return options if len(options) >= 2 else {}


def answer_matches(predicted: Any, gold: str, question: str = "") -> bool:
    """Is a VQA reply right? Multiple choice: the same option letter, or the
    option's text contained in the reply. Open-ended: the normalised gold text
    is contained in the reply, or the reply is a part of the gold text holding
    at least half of its words ("month old" for "one month old", not "old").
    Case, articles and punctuation are ignored."""
    pred_text = normalize(predicted)
    if not pred_text:
        return False
    options = options_of(question)
    gold_letter = re.match(r"\s*([A-H])\)", gold)
    if options and gold_letter:
        letter = gold_letter.group(1)
        picked = parse_letter(pred_text, n_options=max(len(options), ord(max(options)) - ord("A") + 1))
        if picked is not None:
            return picked == letter
        gold = options.get(letter, gold[gold_letter.end() :])
    g, p = _normalise(gold), _normalise(pred_text)
    if not g or not p:
        return False
    g_str, p_str = " ".join(g), " ".join(p)
    if f" {g_str} " in f" {p_str} ":
        return True
    # a reply that is part of the gold answer counts when it holds at least half of its words
    return f" {p_str} " in f" {g_str} " and 2 * len(p) >= len(g)


def threshold_pass(correct: Sequence[bool], threshold: float) -> tuple[float, bool]:
    """(share of right answers, share >= threshold). No questions: (0.0, False)."""
    if not correct:
        return 0.0, False
    share = sum(bool(c) for c in correct) / len(correct)
    return share, share >= threshold - 1e-12


def cosine(a: Sequence[float], b: Sequence[float]) -> float:
    """Cosine similarity of two vectors (0.0 when one is zero)."""
    return row_cosines([np.asarray(a).ravel()], [np.asarray(b).ravel()])[0]


def row_cosines(a, b) -> list[float]:
    """Cosine similarity of each row of the matrix ``a`` with the same row of ``b`` (0.0 where one
    of the two is zero), in one pass over the matrices."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if x.shape != y.shape or x.ndim != 2:
        raise ValueError(f"row_cosines needs two matrices of one shape, got {x.shape} and {y.shape}")
    dots = np.einsum("ij,ij->i", x, y)
    norms = np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1)
    return [float(dot / norm) if norm else 0.0 for dot, norm in zip(dots, norms)]


__all__ = [
    "DEFAULT_ACCEPT_FROM",
    "IMPERATIVES",
    "answer_matches",
    "cosine",
    "graded_level",
    "options_of",
    "parse_decomposition",
    "parse_graded_rating",
    "parse_verdict",
    "row_cosines",
    "strip_imperative",
    "threshold_pass",
]
