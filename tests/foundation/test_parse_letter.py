"""parse_letter on realistic model outputs (single choice, 4 options unless stated)."""

import pytest

from chronotasks.scoring import UNPARSED, parse_letter

CASES = [
    ("B", "B"),
    ("b", "B"),
    ("(B)", "B"),
    ("B.", "B"),
    ("B)", "B"),
    ("[C]", "C"),
    (" D \n", "D"),
    ("**C**", "C"),
    ("Answer: B", "B"),
    ("Answer: (d)", "D"),
    ("The answer is B.", "B"),
    ("The correct answer is C", "C"),
    ("The correct option is (A).", "A"),
    ("Final answer: D", "D"),
    ("B. Mughal period", "B"),
    ("C) Gupta Empire", "C"),
    ("(A) Bronze Age", "A"),
    ("A. The artifact is from the Bronze Age.", "A"),
    ("Option C", "C"),
    ("Option D is the odd one out.", "D"),
    ("I would choose B.", "B"),
    ("Looking at the carving style and the patina, the artifact most likely dates to the Maurya period. The answer is A.", "A"),
    ("Image C differs from the others: its glaze is far more modern. Answer: C", "C"),
    ("Based on the brushwork, I believe this is from the Mughal era.\n\nFinal answer: B", "B"),
    ("The answer is **D**", "D"),
    ("Answer:\nB", "B"),
    ("My answer is C because the style is later.", "C"),
    ("The artifact in image (B) belongs to a different period.", "B"),
    ("It has to be C", "C"),
    ("A", "A"),
    ("A bronze figure like this one is typical of the Chola period, so the answer is B.", "B"),
    # invalid letters for a four-option question
    ("E", UNPARSED),
    ("The answer is E.", UNPARSED),
    ("Answer: F", UNPARSED),
    ("(G)", UNPARSED),
    # refusals and off-format replies
    ("I cannot determine the period from this image.", UNPARSED),
    ("I'm sorry, but I can't help with identifying this artifact.", UNPARSED),
    ("", UNPARSED),
    (None, UNPARSED),
    ("The artifact appears to be made of bronze with fine detailing.", UNPARSED),
    ("It could be A or C; it is hard to say.", UNPARSED),
    ("Mughal period", UNPARSED),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_parse_letter(text, expected):
    assert parse_letter(text, n_options=4) == expected


def test_letter_validity_follows_option_count():
    assert parse_letter("E", n_options=5) == "E"
    assert parse_letter("The answer is E.", n_options=5) == "E"
    assert parse_letter("C", n_options=2) is UNPARSED
    assert parse_letter("B", n_options=2) == "B"
