"""parse_year and parse_json_choice on realistic outputs."""

import pytest

from chronotasks.scoring import UNPARSED, extract_json, parse_json_choice, parse_year

YEAR_CASES = [
    ("1987", 1987),
    ("1987.", 1987),
    ("Year: 1987", 1987),
    ("The photo was taken in 1963.", 1963),
    ("circa 1920", 1920),
    ("c. 1945", 1945),
    ("Around 2004", 2004),
    ("I estimate the year is 1999.", 1999),
    ("**2011**", 2011),
    ("Answer: 1976", 1976),
    ('{"year": 1988}', 1988),
    ('{"year": "1988"}', 1988),
    ('```json\n{"year": 2002, "reason": "digital camera"}\n```', 2002),
    ('{"answer": 1971, "confidence": 60}', 1971),
    ("The cars and clothing suggest the 1970s; my estimate is 1974.", 1974),
    ("Based on the uniforms this is probably from 1944, late in the war.", 1944),
    ("1990-1995", UNPARSED),  # a range is a hedge
    ("It was likely taken in the year 2008 during the Olympics.", 2008),
    ("Estimated year: 1958\nReasoning: black-and-white film, car models.", 1958),
    ("2015 (based on the smartphone models visible)", 2015),
    ("The event occurred in 1969", 1969),
    ("1912", 1912),
    ("I'd guess 1985, give or take a few years.", 1985),
    ("My answer: 2020", 2020),
    ("Year 1933", 1933),
    ("Probably 1964 or 1965.", UNPARSED),  # two candidate years
    ("From about 1950.", 1950),
    ("The photograph dates to 1899.", 1899),
    ("Final answer: 2001", 2001),
    ("Answer - 1977", 1977),
    # decades, out of range, no year, refusals
    ("The 1980s", UNPARSED),
    ("the 1960's", UNPARSED),
    ("3021", UNPARSED),
    ("0042", UNPARSED),
    ("12345", UNPARSED),
    ("I cannot determine the year from this image.", UNPARSED),
    ("", UNPARSED),
    (None, UNPARSED),
    ("Sometime in the late twentieth century.", UNPARSED),
    ("19.87", UNPARSED),
]


@pytest.mark.parametrize("text,expected", YEAR_CASES)
def test_parse_year(text, expected):
    assert parse_year(text, lo=1800, hi=2030) == expected


CHOICE_CASES = [
    ('{"answer": "1"}', "1"),
    ('{"answer": "2"}', "2"),
    ('{"answer": 1}', "1"),
    ('{"answer": 2}', "2"),
    ('{"Answer": "2"}', "2"),
    ('{"answer": "Image 1"}', "1"),
    ('{"answer": "image 2"}', "2"),
    ('```json\n{"answer": "1"}\n```', "1"),
    ('```\n{"answer": "2"}\n```', "2"),
    ('```json\n{\n  "time_anchors": ["car models", "clothing"],\n  "answer": "2"\n}\n```\nThe second image is earlier.', "2"),
    ('{"answer": "1"} The first photo shows older cars.', "1"),
    ('Here is my answer:\n{"reasoning": "film grain", "answer": "2"}', "2"),
    ('{"time_anchors": ["1960s cars"], "color_analysis": "image 1 is grayscale", "bias_mitigation": "ignored color", "answer": "1"}', "1"),
    ('{"answer": "2",}', "2"),
    ('{"reason": "The {braces} in text", "answer": "1"}', "1"),
    ('"answer": "2"', "2"),
    ("answer: 1", "1"),
    ("1", "1"),
    ("2", "2"),
    ("**2**", "2"),
    ('{"answer": "1", "note": "image 2 is newer"}', "1"),
    ('Sure! {"answer": 2}', "2"),
    ('{"answer": " 2 "}', "2"),
    ('{"result": {"x": 1}, "answer": "1"}', "1"),
    ('{"answer": "1"}\n{"answer": "2"}', UNPARSED),  # two JSON answers, none marked final
    # invalid / off-format
    ('{"answer": "3"}', UNPARSED),
    ('{"answer": "1 or 2"}', UNPARSED),
    ('{"answer": "both"}', UNPARSED),
    ('{"choice": "1"}', "1"),  # another key that names the answer
    ('{"answer": ""}', UNPARSED),
    ("Image 1 is earlier.", "1"),  # the image named in prose
    ("The first one.", "1"),
    ("", UNPARSED),
    (None, UNPARSED),
    ("I cannot determine which image is earlier.", UNPARSED),
    ("{answer: }", UNPARSED),
    ("3", UNPARSED),
    ('```json\n{"answer": \n```', UNPARSED),
    ("12", UNPARSED),
    ("Both images are from the same year.", UNPARSED),
]


@pytest.mark.parametrize("text,expected", CHOICE_CASES)
def test_parse_json_choice(text, expected):
    assert parse_json_choice(text, choices=("1", "2")) == expected


def test_json_choice_other_key_and_letters():
    assert parse_json_choice('{"pick": "B"}', choices=("A", "B", "C", "D"), key="pick") == "B"
    assert parse_json_choice('{"answer": "3"}', choices=("1", "2", "3", "4")) == "3"


def test_extract_json_forms():
    assert extract_json('prose {"a": [1, {"b": 2}]} more prose') == {"a": [1, {"b": 2}]}
    assert extract_json("no json here") is None
    assert extract_json('```json\n{"a": 1,}\n```') == {"a": 1}
