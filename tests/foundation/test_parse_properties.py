"""Properties of AnswerSpace.parse that hold for every input: it never raises, whatever it returns
is an answer of the space, and it is the exact inverse of AnswerSpace.format."""

from __future__ import annotations

import random

import pytest

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.chinese_periods import PERIODS
from chronotasks.scoring.t2i import parse_verdict

SPACES = [
    (AnswerSpace("letter", n=4), ["Iron Age (1800 - 200 BCE)", "Song", "Modern", "Early Modern"]),
    (AnswerSpace("letter", n=5), None),
    (AnswerSpace("letter_set", n=4), ["paper", "plastic", "synthetic fiber", "silver"]),
    (AnswerSpace("k_of_n", n=5, k=3), None),
    (AnswerSpace("ordering", n=4), None),
    (AnswerSpace("ordering", n=5, base=0), None),
    (AnswerSpace("year", lo=1946, hi=2025), None),
    (AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier"), None),
    (AnswerSpace("choice", choices=("1", "2", "3", "4"), key="answer"), None),
    (AnswerSpace("dynasty"), None),
]
PIECES = (
    list("ABCDEFabcde0123456789 ,.;:()[]{}\"'\n-→>|/?!*_`$#<>\\")
    + list("答案是选项第一二三四张图清明宋元唐年代，。、：（）")
    + [
        "Answer:",
        "The answer is",
        "wait",
        "actually",
        "not",
        "or",
        "maybe",
        "Image",
        "Option",
        "oldest",
        "newest",
        " to ",
        "<think>",
        "</think>",
        '{"answer": ',
        '{"year": ',
        "RATING:",
        "yes",
        "no",
        "1987",
        "'07",
        "nineteen",
        "first",
        "second",
        "\\boxed{",
        "}",
        "Ａ",
        "１",
        "None",
        "all of them",
        "except",
        "Poor",
        "Accept",
        "Not accept",
    ]
)


def valid(space: AnswerSpace, value) -> bool:
    if space.kind == "letter":
        return value in space.letters
    if space.kind in ("letter_set", "k_of_n"):
        return isinstance(value, frozenset) and value <= set(space.letters) and (space.kind == "letter_set" or len(value) == space.k)
    if space.kind == "ordering":
        return isinstance(value, tuple) and sorted(value) == sorted(space.items)
    if space.kind == "year":
        return isinstance(value, int) and space.lo <= value <= space.hi
    if space.kind == "choice":
        return value in space.choices
    return value in PERIODS


def test_never_raises_and_returns_only_answers_of_the_space():
    rng = random.Random(0)
    for _ in range(1500):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40)))
        for space, options in SPACES:
            value = space.parse(text, options)
            assert value is None or valid(space, value), (text, space, value)
        for prompt in ("standard", "judging"):
            assert parse_verdict(text, prompt) in (None, True, False)
    for odd in (None, 5, 3.7, ["A"], {"answer": "B"}, "", " ", "\x00", "A" * 50_000, "<think>" + "x" * 50_000):
        for space, options in SPACES:
            value = space.parse(odd, options)
            assert value is None or valid(space, value)


@pytest.mark.parametrize("space,options", SPACES, ids=lambda x: getattr(x, "kind", ""))
def test_parse_is_the_inverse_of_format(space, options):
    rng = random.Random(1)
    for _ in range(200):
        value = space.random_value(rng)
        assert space.parse(space.format(value), options) == value
