"""The strict reading: an answer only when the reply gives it exactly in the form the prompt asks for,
written by hand for each answer kind and prompt; ``strict_match`` beside the tasks' accuracy."""

from __future__ import annotations

import pytest

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.strict import strict_match, strict_reading
from chronotasks.tasks.chrono_demo import utils as demo

LETTER = AnswerSpace("letter", n=4)
NUMBERED = AnswerSpace("letter", n=4, numbered=True)
SET = AnswerSpace("letter_set", n=4)
GROUP = AnswerSpace("k_of_n", n=5, k=3, numbered=True)
ORDER = AnswerSpace("ordering", n=4)
INDICES = AnswerSpace("ordering", n=5, base=0)
YEAR = AnswerSpace("year", lo=1900, hi=2020)
PAIR = AnswerSpace("choice", choices=("1", "2"), key="answer")
PERIOD = AnswerSpace("dynasty")


@pytest.mark.parametrize(
    "space, reply, kwargs, expected",
    [
        # "Answer with the option's letter from the given choices directly."
        (LETTER, "B", {}, "B"),
        (LETTER, "  B\n", {}, "B"),
        (LETTER, "B.", {}, None),
        (LETTER, "(B)", {}, None),
        (LETTER, "The answer is B.", {}, None),
        (LETTER, "**B**", {}, None),
        (LETTER, "E", {}, None),  # not an option
        (LETTER, "b", {}, None),
        # the release prompt: "simply provide the number of the correct option (1, 2, 3, or 4)"
        (NUMBERED, "2", {}, "B"),
        (NUMBERED, "B", {}, None),
        (NUMBERED, "Option 2", {}, None),
        # 'List all correct letters separated by commas (e.g., "A, C" ...)'
        (SET, "A, C", {}, frozenset("AC")),
        (SET, "C, A", {}, frozenset("AC")),
        (SET, "A,C", {}, frozenset("AC")),
        (SET, "None", {}, frozenset()),
        (SET, "A, A", {}, None),
        (SET, "A and C", {}, None),
        (SET, "A, C.", {}, None),
        # release grouping: "Your answer must start with the numbers of the three artifacts ..., separated by commas."
        (GROUP, "1, 3, 5\nThey are all terracotta.", {"leads": True}, frozenset("ACE")),
        (GROUP, "1, 3, 5\nThey are all terracotta.", {}, None),
        (GROUP, "Artifacts 1, 3 and 5\nThey are all terracotta.", {"leads": True}, None),
        (GROUP, "1, 3", {"leads": True}, None),  # two of three
        # 'Provide the sequence from oldest to newest using letters (e.g., "A, C, B, D").'
        (ORDER, "A, C, B, D", {}, ("A", "C", "B", "D")),
        (ORDER, "A, C, B", {}, None),
        (ORDER, "A → C → B → D", {}, None),
        (INDICES, "3,0,4,1,2", {}, (3, 0, 4, 1, 2)),
        (INDICES, "3, 0, 4, 1, 1", {}, None),
        # "Answer with a single four-digit year (for example: 1998) and nothing else."
        (YEAR, "1998", {}, 1998),
        (YEAR, "1998.", {}, None),
        (YEAR, "circa 1998", {}, None),
        (YEAR, "1850", {}, None),  # outside the space
        (YEAR, '{"year": 1998, "confidence": 80}', {"json_key": "year"}, 1998),
        (YEAR, "1998", {"json_key": "year"}, None),
        # 'Answer in JSON: {"answer": "1"} or {"answer": "2"}.'
        (PAIR, '{"answer": "1"}', {}, "1"),
        (PAIR, '{"thinking": "The tram is older.", "answer": "2"}', {}, "2"),
        (PAIR, '```json\n{"answer": "1"}\n```', {}, None),
        (PAIR, "1", {}, None),
        (PAIR, '{"answer": "Image 1"}', {}, None),
        (PAIR, '{"answer": "3"}', {}, None),
        (PERIOD, "Song", {}, "Song"),
        (PERIOD, "宋代 (960-1279)", {}, None),
    ],
)
def test_strict_reading(space, reply, kwargs, expected):
    assert strict_reading(space, reply, **kwargs) == expected


@pytest.mark.parametrize(
    "space, reply, kwargs",
    [
        (LETTER, "B", {}),
        (NUMBERED, "2", {}),
        (SET, "C, A", {}),
        (GROUP, "1, 3, 5\nwhy", {"leads": True}),
        (ORDER, "A, C, B, D", {}),
        (INDICES, "3,0,4,1,2", {}),
        (YEAR, "1998", {}),
        (PAIR, '{"thinking": "x", "answer": "2"}', {}),
    ],
)
def test_a_strict_reading_is_the_flexible_one(space, reply, kwargs):
    """A reply in the asked form is read the same by both readings (strict only drops replies)."""
    assert strict_reading(space, reply, **kwargs) == space.parse(reply)


def test_strict_match_counts_correct_replies_in_the_asked_form_only():
    assert strict_match(LETTER, "B", 1.0) == 1.0
    assert strict_match(LETTER, "The answer is B.", 1.0) == 0.0  # correct, but read only by the flexible reading
    assert strict_match(LETTER, "C", 0.0) == 0.0  # in form, wrong
    assert strict_match(LETTER, None, None) == 0.0


def test_a_task_reports_strict_match_beside_accuracy():
    """chrono_demo_pair (JSON asked): a correct answer in prose counts for accuracy, not for strict_match."""
    doc = {"id": "p1", "images": [], "answer": "1", "answer_space": PAIR.to_json()}
    scored = demo.pair_process_results.__wrapped__(doc, ['{"answer": "1"}'])
    assert (scored["accuracy"], scored["strict_match"]) == (1.0, 1.0)
    scored = demo.pair_process_results.__wrapped__(doc, ["Image 1 is earlier, so the answer is 1."])
    assert (scored["accuracy"], scored["strict_match"]) == (1.0, 0.0)
