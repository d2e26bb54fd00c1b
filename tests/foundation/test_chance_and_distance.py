"""Chance levels from the answer space (chronotasks/scoring/chance.py) and the period distance
(chronotasks/scoring/period_distance.py), against values worked out by hand and the papers'
random rows."""

from __future__ import annotations

import math

import pytest

from chronotasks.benchmarks.tabvlm.schema import TASK_TYPES
from chronotasks.scoring.chance import answer_count, answers, chance_level, mean_chance
from chronotasks.scoring.period_distance import bias, chance_bias, chance_distance, distance, offset_item


def test_tabvlm_random_row_of_table_1():
    # Table 1, Random: Style 25.0, Sequence 4.2, Technique 6.25, Material 6.25, Grouping 10.0, Odd-One-Out 25.0, Overall 12.8
    chance = {t.title: 100 * chance_level("accuracy", t.answer_space.to_json()) for t in TASK_TYPES}
    assert chance == pytest.approx(
        {
            "Style-Period Attribution": 25.0,
            "Chronological Sequence": 100 / 24,
            "Manufacturing Technique": 6.25,
            "Material Availability": 6.25,
            "Period Grouping": 10.0,
            "Odd-One-Out Period": 25.0,
        }
    )
    assert round(chance["Chronological Sequence"], 1) == 4.2
    assert round(sum(chance.values()) / 6, 1) == 12.8


def test_counts_and_exact_chance_of_each_kind():
    assert answer_count({"kind": "letter", "n": 5}) == 5 == len(answers({"kind": "letter", "n": 5}))
    assert answer_count('{"kind": "letter_set", "n": 4}') == 16 == len(answers('{"kind": "letter_set", "n": 4}'))
    assert answer_count({"kind": "k_of_n", "n": 5, "k": 3}) == 10
    assert answer_count({"kind": "ordering", "n": 5, "base": 0}) == 120 and answers({"kind": "ordering", "n": 2, "base": 0}) == [
        (0, 1),
        (1, 0),
    ]
    assert chance_level("accuracy", {"kind": "year", "lo": 1946, "hi": 2025}) == 1 / 80
    assert chance_level("accuracy", {"kind": "choice", "choices": ["1", "2"], "key": "answer"}) == 0.5
    assert frozenset() in answers({"kind": "letter_set", "n": 2})  # the empty set is an answer (hence 1/16)
    with pytest.raises(ValueError, match="no random answer"):
        answer_count({"kind": "text"})


def test_expected_partial_credit_by_hand():
    # Kendall tau of a random ordering: 0 (each discordant count d pairs with 6 - d)
    assert chance_level("kendall_tau", {"kind": "ordering", "n": 4}) == 0.0
    assert chance_level("kendall_tau", {"kind": "ordering", "n": 5, "base": 0}) == 0.0
    # Jaccard, 3 of 5 against a gold triple: overlap 3 (1 of 10) -> 1, 2 (6) -> 2/4, 1 (3) -> 1/5: .1 + .3 + .06
    assert chance_level("jaccard", {"kind": "k_of_n", "n": 5, "k": 3}, gold=["A", "C", "E"]) == pytest.approx(0.46)
    # F1 of a random subset of 4 against a gold pair: sum over a = |P∩G|, b = |P\G| of C(2,a) C(2,b) 2a/(a+b+2) / 16
    f1 = sum(math.comb(2, a) * math.comb(2, b) * (2 * a / (a + b + 2)) for a in range(3) for b in range(3)) / 16
    assert f1 == pytest.approx(7.4 / 16)
    assert chance_level("f1", {"kind": "letter_set", "n": 4}, gold=["C", "D"]) == pytest.approx(0.4625)
    # a random year of 1946-2025: against 1946, mean |y - 1946| = (0 + ... + 79) / 80; against 1985, (780 + 820) / 80
    assert chance_level("MAE", {"kind": "year", "lo": 1946, "hi": 2025}, gold=1946) == pytest.approx(39.5)
    assert chance_level("MAE", {"kind": "year", "lo": 1946, "hi": 2025}, gold=1985) == pytest.approx(20.0)
    assert mean_chance("MAE", [({"kind": "year", "lo": 1946, "hi": 2025}, g) for g in (1946, 1985)]) == pytest.approx(29.75)
    assert math.isnan(mean_chance("accuracy", []))
    with pytest.raises(ValueError, match="pass gold"):
        chance_level("f1", {"kind": "letter_set", "n": 4})


def test_period_distance_by_hand():
    # TAB-VLM style-period: options Iron Age (2), Classical (3), Iron Age (2), Prehistoric (0); gold Classical (3)
    options = [2, 3, 2, 0]
    items = [
        offset_item(3, 3, options, "Classical", "Classical"),  # right
        offset_item(3, 2, options, "Classical", "Iron Age"),  # one period older: -1
        offset_item(3, 0, options, "Classical", "Prehistoric"),  # -3
        offset_item(3, None, options, "Classical"),
    ]  # no answer: no distance
    assert [i["offset"] for i in items] == [0, -1, -3, None]
    assert distance(items) == pytest.approx(4 / 3) and bias(items) == pytest.approx(-4 / 3)
    # a random option: |2-3| + 0 + |2-3| + |0-3| = 5 over 4; signed (-1 + 0 - 1 - 3) / 4
    assert chance_distance(items) == pytest.approx(1.25) and chance_bias(items) == pytest.approx(-1.25)
    assert math.isnan(distance([items[3]])) and math.isnan(bias([]))
    with pytest.raises(ValueError):
        offset_item(0, 0, [])


def test_year_chance_over_a_span_by_hand():
    # a random year of 1946-2025 (80 years; a range is summed in closed form, a list term by term)
    for years in (range(1946, 2026), list(range(1946, 2026))):
        assert offset_item(2010, None, years)["chance_distance"] == pytest.approx((64 * 65 / 2 + 15 * 16 / 2) / 80)  # 27.5
        assert offset_item(1900, None, years)["chance_distance"] == pytest.approx(85.5)  # all later: 46 ... 125
        assert offset_item(2030, None, years)["chance_distance"] == pytest.approx(44.5)  # all earlier: 5 ... 84
        assert offset_item(1946, None, years)["chance_bias"] == pytest.approx(39.5)
