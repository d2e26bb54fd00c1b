"""parse_letter_set and parse_k_of_n on realistic multi-select outputs."""

import pytest

from chronotasks.scoring import UNPARSED, parse_k_of_n, parse_letter_set

S = frozenset

SET_CASES = [
    ("A, C", S("AC")),
    ("A,C", S("AC")),
    ("A and C", S("AC")),
    ("A & C", S("AC")),
    ("AC", S("AC")),
    ("ACD", S("ACD")),
    ("[A, C]", S("AC")),
    ("(A), (C)", S("AC")),
    ("B", S("B")),
    ("b", S("B")),
    ("A, B, C, D", S("ABCD")),
    ("Answer: A, C", S("AC")),
    ("Answer: B and D", S("BD")),
    ("The answer is A, C.", S("AC")),
    ("The correct answers are B and C.", S("BC")),
    ("Final answer: A, B, D", S("ABD")),
    ("**A, D**", S("AD")),
    ("Answer:\nC, D", S("CD")),
    ("Selections: A; C", S("AC")),
    ("Aluminium and plastic were not available then, so the answer is C, D.", S("CD")),
    ("Considering the period, options B and D would not have been available.\nAnswer: B, D", S("BD")),
    ("The answers are A and B because both came later.", S("AB")),
    ("A, C, D", S("ACD")),
    ("C and A", S("AC")),
    ("D, A", S("AD")),
    ("None", S()),
    ("None of them", S()),
    ("Answer: none of the above", S()),
    ("The answer is A, A, C", S("AC")),
    ("Option A and option C", S("AC")),
    # invalid letters for four options
    ("A, E", UNPARSED),
    ("The answer is B, F.", UNPARSED),
    ("ABCDE", UNPARSED),
    # refusals / off-format
    ("", UNPARSED),
    (None, UNPARSED),
    ("I cannot tell which materials were available.", UNPARSED),
    ("Bronze and gold were available.", UNPARSED),
    ("It depends on the region.", UNPARSED),
    ("Sorry, I can't answer that.", UNPARSED),
    ("aluminium", UNPARSED),
]


@pytest.mark.parametrize("text,expected", SET_CASES)
def test_parse_letter_set(text, expected):
    assert parse_letter_set(text, n_options=4) == expected


K_CASES = [
    ("A, C, E", S("ACE")),
    ("ACE", S("ACE")),
    ("B, C and D", S("BCD")),
    ("Answer: A, B, E", S("ABE")),
    ("The three contemporaneous artifacts are A, D and E.", S("ADE")),
    ("Images B, C, E share the same period.\nFinal answer: B, C, E", S("BCE")),
    ("(A), (B), (C)", S("ABC")),
    ("**C, D, E**", S("CDE")),
    ("The answer is E, C, A.", S("ACE")),
    ("[B, D, E]", S("BDE")),
    # wrong count
    ("A, C", UNPARSED),
    ("A, B, C, D", UNPARSED),
    ("A", UNPARSED),
    # invalid letter for five options
    ("A, C, F", UNPARSED),
    ("I am unable to group these artifacts.", UNPARSED),
]


@pytest.mark.parametrize("text,expected", K_CASES)
def test_parse_k_of_n(text, expected):
    assert parse_k_of_n(text, n_options=5, k=3) == expected
