"""parse_yes_no and parse_accept on realistic judge outputs."""

import pytest

from chronotasks.scoring import UNPARSED, parse_accept, parse_yes_no

YES_NO_CASES = [
    ("Yes", True),
    ("yes", True),
    ("Yes.", True),
    ("YES", True),
    ("**Yes**", True),
    ("Yes, the image shows a horse-drawn carriage consistent with 1850.", True),
    ("No", False),
    ("no.", False),
    ("No, the buildings are clearly modern.", False),
    ("**No**", False),
    ("NO", False),
    ("Answer: yes", True),
    ("Answer: No", False),
    ("The answer is yes.", True),
    ("The answer is no.", False),
    ("Final answer: Yes", True),
    ("After examining the skyline, my answer is: no", False),
    ("Yes - the subject is present.", True),
    ("No; the map shows modern borders.", False),
    ("Yep", True),
    ("Nope", False),
    ("'Yes'", True),
    ('"No"', False),
    ("Yes\n\nThe architecture matches the period.", True),
    ("No\nReason: anachronistic cars.", False),
    ("The image does depict the subject, so yes.", True),
    ("The temporal cue is not reflected; no.", False),
    ("yes, although the image quality is poor", True),
    ("Yes. No modern elements are visible.", True),
    ("No. Yes, it is a dog, but the era is wrong.", False),
    # undecidable
    ("Maybe", UNPARSED),
    ("It is unclear.", UNPARSED),
    ("Partially.", UNPARSED),
    ("I cannot judge this image.", UNPARSED),
    ("", UNPARSED),
    (None, UNPARSED),
    ("The image shows a castle.", UNPARSED),
    ("Somewhat: the buildings fit but yes and no.", UNPARSED),
    ("N/A", UNPARSED),
    ("Hard to say", UNPARSED),
]


@pytest.mark.parametrize("text,expected", YES_NO_CASES)
def test_parse_yes_no(text, expected):
    assert parse_yes_no(text) is expected


ACCEPT_CASES = [
    ("Accept", True),
    ("accept", True),
    ("Accepted", True),
    ("Not accept", False),
    ("Not Accept", False),
    ("not accepted", False),
    ("RATING: Accept", True),
    ("RATING: Not accept", False),
    ("Rating: accept", True),
    ("Rating = Not Accept", False),
    ("EXPLANATION: the skyline fits 1920.\nRATING: Accept", True),
    ("EXPLANATION: there are modern cars, which were not present then. I accept that the subject is there.\nRATING: Not accept", False),
    ("**RATING:** Accept", True),
    ("**RATING: Not accept**", False),
    ("Reject", False),
    ("Rejected", False),
    ("Unacceptable", False),
    ("I do not accept this image.", False),
    ("The image is acceptable.", True),
    ("Verdict: Accept.", True),
    ("Verdict: Not accept.", False),
    ("RATING: Accept\nThe image depicts the horse and the period clothing.", True),
    ("Accept - the map matches the 1500 borders.", True),
    ("Not accept: wrong era.", False),
    ("RATING:Accept", True),
    ("RATING:Not accept", False),
    ("I'd accept it.", True),
    ("Decision: reject", False),
    ("ACCEPT", True),
    ("NOT ACCEPT", False),
    # no verdict
    ("Outstanding", UNPARSED),
    ("The image shows a dog.", UNPARSED),
    ("", UNPARSED),
    (None, UNPARSED),
    ("RATING: ", UNPARSED),
    ("Maybe", UNPARSED),
    ("I cannot evaluate this.", UNPARSED),
    ("Good", UNPARSED),
    ("Pass", UNPARSED),
    ("Unclear.", UNPARSED),
]


@pytest.mark.parametrize("text,expected", ACCEPT_CASES)
def test_parse_accept(text, expected):
    assert parse_accept(text) is expected
