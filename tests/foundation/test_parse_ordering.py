"""parse_ordering on realistic chronological-sequence outputs."""

import pytest

from chronotasks.scoring import UNPARSED, parse_ordering

T = tuple

CASES = [
    ("A, C, B, D", T("ACBD")),
    ("A,C,B,D", T("ACBD")),
    ("A C B D", T("ACBD")),
    ("ACBD", T("ACBD")),
    ("A→C→B→D", T("ACBD")),
    ("A -> C -> B -> D", T("ACBD")),
    ("A > C > B > D", T("ACBD")),
    ("A - C - B - D", T("ACBD")),
    ("A – C – B – D", T("ACBD")),
    ("A / C / B / D", T("ACBD")),
    ("[B, A, D, C]", T("BADC")),
    ("(D, C, B, A)", T("DCBA")),
    ("**B, D, A, C**", T("BDAC")),
    ("Answer: D, A, C, B", T("DACB")),
    ("The sequence from oldest to newest is: B, A, D, C.", T("BADC")),
    ("The correct order is C, A, B, D", T("CABD")),
    ("Final answer: C → D → A → B", T("CDAB")),
    ("Oldest to newest: A, B, C, D", T("ABCD")),
    ("Order: B, C, A, D", T("BCAD")),
    ("A, C, B and D", T("ACBD")),
    ("A, then C, then B, then D", T("ACBD")),
    ("Based on the materials, A is the oldest (stone), followed by C, B and finally D.\n\nSequence: A, C, B, D", T("ACBD")),
    ("Looking at the styles:\n- A is Harappan\n- B is Mughal\n- C is Gupta\n- D is colonial\n\nAnswer: A, C, B, D", T("ACBD")),
    ("I think the order is D, B, C, A since D looks prehistoric.", T("DBCA")),
    ("The chronological order would be B → C → A → D.", T("BCAD")),
    ("B; A; C; D", T("BACD")),
    ("b, a, c, d", T("BACD")),  # a clean list in lowercase
    ("1. B\n2. A\n3. D\n4. C", T("BADC")),  # numbered lines are ranks
    # not a permutation
    ("A, B, B, D", UNPARSED),
    ("A, C, B", UNPARSED),
    ("A, B, C, E", UNPARSED),
    ("A, B, C, D, E", UNPARSED),
    # refusals / off-format
    ("", UNPARSED),
    (None, UNPARSED),
    ("I cannot determine the order of these artifacts.", UNPARSED),
    ("The first artifact is the oldest.", UNPARSED),
    ("It is difficult to say without more context.", UNPARSED),
    ("Stone, bronze, iron, steel.", UNPARSED),
    ("A is the oldest, D the newest.", UNPARSED),
    ("Sorry, I can't help with that.", UNPARSED),
]


@pytest.mark.parametrize("text,expected", CASES)
def test_parse_ordering(text, expected):
    assert parse_ordering(text, n_items=4) == expected


def test_five_items_and_example_in_prompt_echo():
    assert parse_ordering("E, D, C, B, A", n_items=5) == T("EDCBA")
    assert parse_ordering("A, B, C, D", n_items=5) is UNPARSED
    # a model that echoes the prompt's example then answers: the answer after the cue wins
    echoed = 'Use letters (e.g., "A, C, B, D").\nAnswer: D, C, B, A'
    assert parse_ordering(echoed, n_items=4) == T("DCBA")
