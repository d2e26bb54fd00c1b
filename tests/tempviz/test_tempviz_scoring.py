"""Pure judging helpers (chronotasks/scoring/t2i.py) on texts written by hand."""

import pytest

from chronotasks.scoring import parse_yes_no
from chronotasks.scoring.t2i import (
    answer_matches,
    cosine,
    graded_level,
    options_of,
    parse_decomposition,
    parse_graded_rating,
    row_cosines,
    strip_imperative,
    threshold_pass,
)


@pytest.mark.parametrize(
    "prompt, body",
    [
        ("Give me a photorealistic image of a lake in europe in july", "a photorealistic image of a lake in europe in july"),
        ("Produce a realistic map of europe in 1914", "a realistic map of europe in 1914"),
        ("Generate an artwork in the style of Rococo.", "an artwork in the style of Rococo."),
        (
            "Create a photorealistic image of the Berlin Wall in Germany on 10/23/1983 ",
            "a photorealistic image of the Berlin Wall in Germany on 10/23/1983",
        ),
        ("a photorealistic image of a Create", "a photorealistic image of a Create"),
    ],
)
def test_strip_imperative(prompt, body):
    assert strip_imperative(prompt) == body


@pytest.mark.parametrize(
    "reply, verdict",
    [
        ("ANALYSIS: The fox is clearly a cub. RATING: Outstanding", True),
        ("ANALYSIS: Mostly right. RATING: Very good", True),
        ("ANALYSIS: Season is visible. RATING: good", True),
        ("ANALYSIS: It is a good image but the borders are modern. RATING: Fair", False),
        ("ANALYSIS: Wrong era.\nRATING: poor", False),
        ("ANALYSIS: nothing matches. RATING: Very poor", False),
        ("ANALYSIS: ... RATING: Accept", True),
        ("ANALYSIS: ... RATING: Not accept", False),
        ("RATING: **Excellent**", True),
        ("Average", False),
        ("ANALYSIS: I cannot tell.", None),
        ("", None),
    ],
)
def test_graded_rating_mapping(reply, verdict):
    assert parse_graded_rating(reply) is verdict


def test_graded_rating_cut_is_configurable():
    assert graded_level("ANALYSIS: a good start. RATING: very good") == "very good"
    assert parse_graded_rating("RATING: good", accept_from="very good") is False
    assert parse_graded_rating("RATING: fair", accept_from="fair") is True
    with pytest.raises(ValueError):
        parse_graded_rating("RATING: good", accept_from="superb")


def test_simple_prompt_replies():
    assert parse_yes_no("yes") is True and parse_yes_no("No.") is False
    assert parse_yes_no("I am not sure about that.") is None


PAPER_EXAMPLE = """[...] ### Questions for Each Element:
#### For Aardvark (Animal):
1. **Open-ended question:** What type of animal is the main subject of the image? - **Answer:** Aardvark
2. **Multiple-choice question:** What is the main animal in the image? - **A)** Lion - **B)** Elephant - **C)** Aardvark - **D)** Giraffe - **Correct answer:** C) Aardvark
#### For One month old (Attribute - Age):
1. **Open-ended question:** How old is the Aardvark in the image? - **Answer:** One month old
2. **Multiple-choice question:** What is the age of the Aardvark depicted in the image? - **A)** One week old - **B)** One month old - **C)** Three months old - **D)** Six months old - **Correct answer:** B) One month old
[...]"""


def test_parse_decomposition_of_the_papers_example():
    pairs = parse_decomposition(PAPER_EXAMPLE)
    assert [p["answer"] for p in pairs] == ["Aardvark", "C) Aardvark", "One month old", "B) One month old"]
    assert pairs[0]["question"] == "What type of animal is the main subject of the image?"
    assert options_of(pairs[1]["question"]) == {"A": "Lion", "B": "Elephant", "C": "Aardvark", "D": "Giraffe"}
    assert parse_decomposition('[{"question": "Is it winter?", "answer": "yes"}]') == [{"question": "Is it winter?", "answer": "yes"}]
    assert parse_decomposition("no questions here") == []


def test_answer_matches():
    mc = "What is the main animal in the image? - A) Lion - B) Elephant - C) Aardvark - D) Giraffe"
    assert answer_matches("C", "C) Aardvark", mc)
    assert answer_matches("C) Aardvark", "C) Aardvark", mc)
    assert not answer_matches("B) Elephant", "C) Aardvark", mc)
    assert answer_matches("It is an aardvark.", "C) Aardvark", mc)
    assert answer_matches("An aardvark", "Aardvark")
    assert answer_matches("about one month old", "One month old")
    assert not answer_matches("a lion", "Aardvark")
    assert not answer_matches("About one week old", "One month old")
    assert answer_matches("month old", "One month old") and not answer_matches("old", "One month old")
    assert answer_matches("Java mouse deer", "Java Mouse-deer")
    assert not answer_matches("", "Aardvark")


def test_threshold_and_cosine():
    assert threshold_pass([True, True, True, False], 0.75) == (0.75, True)
    assert threshold_pass([True, True, True, False], 0.8) == (0.75, False)
    assert threshold_pass([], 0.5) == (0.0, False)
    assert cosine([1, 0], [1, 1]) == pytest.approx(2**-0.5)
    assert cosine([0, 0], [1, 1]) == 0.0


def test_row_cosines_pair_rows_of_two_matrices():
    # rows: 45 degrees apart; opposite; a zero row; 3-4-5 against the x axis (cos = 3/5)
    a = [[1, 0], [2, 0], [0, 0], [3, 4]]
    b = [[1, 1], [-5, 0], [1, 1], [1, 0]]
    assert row_cosines(a, b) == pytest.approx([2**-0.5, -1.0, 0.0, 0.6])
    with pytest.raises(ValueError, match="one shape"):
        row_cosines([[1, 0]], [[1, 0], [0, 1]])
