"""ChronoVision's release-protocol metrics beside ours (``*_release``; chronotasks/scoring/release_chronovision.py).

Replies written as models answer our prompts (the shortcut prompts are Fig. 13's, JSON asked for);
each carries the release scripts' value, worked out by hand from their rules (code/shortcut/
shortcut_test.py, code/shortcut_with_CoT/shortcut_with_CoT.py, code/news/*.py), and a careful
grader's. These are the examples of the divergence table in chronotasks/tasks/chronovision/README.md."""

from __future__ import annotations

import math

import pytest
from PIL import Image

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.release_chronovision import news_year, shortcut_correct, shortcut_cot_prediction, shortcut_prediction
from chronotasks.tasks.chronovision import utils

# (reply, plain release value, CoT release value, careful grader's value); gold: image 2 is earlier
SHORTCUT = [
    ('{"thinking": "The jerseys look older in Image 2.", "answer": "2"}', 1.0, 1.0, 1.0),
    ('{"thinking": "...", "answer": "Image 2 is earlier than Image 1"}', 0.0, 1.0, 1.0),  # plain: a "1" anywhere wins
    ('{"answer": "2 or 1"}', 0.0, 1.0, 0.0),  # plain checks "1" first; CoT takes the first 1 or 2
    ('{"answer": "1 or 2"}', 0.0, 0.0, 0.0),
    ("Image 2 is earlier.", 0.0, 0.0, 1.0),  # not JSON
    ('```json\n{"thinking": "older kit", "answer": "2"}\n```', 1.0, 0.0, 1.0),  # plain: "answer": "<digit>" fallback; CoT: none
    ('```json\n{"thinking": "older kit", "answer": 2}\n```', 0.0, 0.0, 1.0),  # the fallback needs a quoted digit
    ('{"answer": 2}', 1.0, 1.0, 1.0),
    ('{"thinking": "Image 1 shows a 2018 kit", "answer": "2"}', 1.0, 1.0, 1.0),  # only the answer field is read
    ("", 0.0, 0.0, 0.0),  # counted wrong, not left out
]
# (reply, release value, grader's value); gold: image 1
MULTIMODAL = [
    ('{"answer": "1"}', 1.0, 1.0),
    ("Image 1", 1.0, 1.0),
    ('{"answer": "3"}', 0.0, 0.0),
    ("Image 3 was taken in 2019, the same year as the event, so the answer is 3.", 1.0, 0.0),  # the "1" of 2019
    ("", 0.0, 0.0),
]
# (reply, release year, grader's year); gold 2010
NEWS_YEAR = [
    ("2010", 2010, 2010),
    ("2010.", 2010, 2010),
    ("Around 2010-2012", 2010, None),  # a range: the first year
    ("Between 2008 and 2012, most likely 2010.", 2008, 2010),  # the first year, not the committed one
    ("The photo is from the 1990s; I estimate 1994.", 1990, 1994),
    ("c. 1850", None, 1850),  # outside 1900-2025: no year (not in MAE)
    ("20100", 2010, None),  # four digits inside a longer number
    ("I cannot determine the year.", None, None),
]


@pytest.fixture(scope="module")
def image(tmp_path_factory):
    path = tmp_path_factory.mktemp("chronovision_release") / "photo.png"
    Image.new("RGB", (8, 8), (120, 120, 120)).save(path)
    return str(path)


def _shortcut(image, condition="color", answer="2", images=None):
    return {
        "id": f"s-{condition}",
        "pair_id": "sports-test1",
        "condition": condition,
        "category": "sports",
        "images": images or [image, image],
        "gray": [False, False],
        "answer": answer,
        "answer_space": AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier").to_json(),
    }


@pytest.mark.parametrize("reply, plain, cot, grader", SHORTCUT)
def test_shortcut_both_readings(image, reply, plain, cot, grader):
    out, out_cot = utils.shortcut_process_results(_shortcut(image), [reply]), utils.shortcut_cot_process_results(_shortcut(image), [reply])
    assert out["ACC_B"]["correct"] == grader and out_cot["ACC_B"]["correct"] == grader
    assert out["ACC_B_release"]["correct"] == plain and out["composite_S_release"]["correct"] == plain
    assert out_cot["ACC_B_release"]["correct"] == cot
    assert "composite_S_release" not in out_cot  # the CoT prompt is not part of S
    assert out["ACC_B_release"]["condition"] == "color" and out["ACC_B_release"]["pair"] == "sports-test1"


def test_release_predictions_as_the_scripts_record_them():
    assert shortcut_prediction('{"answer": "Image 2"}') == "2"
    assert shortcut_prediction('{"answer": "neither"}') == "neither"
    assert shortcut_prediction('["1"]') == "Exception"  # parsed.get on a list raises in the script
    assert shortcut_prediction('Reasoning... "answer": "3"') == "3"
    assert shortcut_cot_prediction("Image 2") == "Parse Fail"
    assert shortcut_correct('{"answer": "1 or 2"}', "1") == 1.0  # a hedge, credited when image 1 is the earlier
    # a degenerate "111...1" reply: json.loads raises ValueError (not a JSONDecodeError); the scripts record "Exception"
    assert shortcut_prediction("1" * 5000) == "Exception" == shortcut_cot_prediction("1" * 5000)
    assert shortcut_cot_prediction('{"answer": "Image 1 or 2"}') == "1"


def test_shortcut_release_figures_and_skipped_trials(image, tmp_path):
    # a pair's three trials (gold: image 2) and one trial whose image could not be read
    trials = [
        (_shortcut(image, "color"), '{"answer": "2"}'),  # ours 1, release 1
        (_shortcut(image, "gray_earlier"), '{"answer": "Image 2 is earlier than Image 1"}'),  # ours 1, release 0
        (_shortcut(image, "gray_later"), '{"answer": "1"}'),  # ours 0, release 0
        (_shortcut(image, "color", images=[image, str(tmp_path / "gone.jpg")]), '{"answer": "2"}'),
    ]
    rows = [utils.shortcut_process_results(doc, [reply]) for doc, reply in trials]
    assert rows[3]["image_failure"] == 1.0 and rows[3]["ACC_B_release"]["correct"] is None  # skipped, as the script does
    assert rows[3]["ACC_B"]["correct"] == 0.0  # ours: scored wrong, counted
    release = [r["ACC_B_release"] for r in rows]
    ours = [r["ACC_B"] for r in rows]
    assert utils.shortcut_ACC_B(release) == 1.0 and utils.shortcut_ACC_B(ours) == 0.5
    assert utils.shortcut_ACC_1(release) == 0.0 and utils.shortcut_ACC_1(ours) == 1.0
    assert utils.shortcut_delta_ACC(release) == 0.0 and utils.shortcut_delta_ACC(ours) == 1.0
    # S_S / 3 = ACC_B (1 - |delta|) / 3
    assert utils.shortcut_share([r["composite_S_release"] for r in rows]) == pytest.approx(1.0 / 3)
    assert utils.shortcut_share([r["composite_S"] for r in rows]) == pytest.approx(0.0)


@pytest.mark.parametrize("reply, release_value, grader", MULTIMODAL)
def test_news_multimodal_both_readings(image, reply, release_value, grader):
    doc = {
        "id": "mm",
        "images": [image] * 4,
        "event": "e",
        "answer": "1",
        "answer_space": AnswerSpace("choice", choices=("1", "2", "3", "4"), key="answer").to_json(),
    }
    out = utils.news_multimodal_process_results(doc, [reply])
    assert (out["ACC_M_release"], out["composite_S_release"], out["ACC_M"]) == (release_value, release_value, grader)


def test_news_year_both_readings_and_denominators(image):
    doc = {"id": "y", "images": [image], "year": 2010, "answer_space": AnswerSpace("year", lo=1946, hi=2025).to_json()}
    for reply, release_year, _ in NEWS_YEAR:
        assert news_year(reply) == release_year, reply
    rows = [utils.news_year_process_results(doc, [reply]) for reply, _, _ in NEWS_YEAR]
    assert [r["ACC_Y_release"] for r in rows] == [1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0]
    assert [r["ACC_Y"] for r in rows] == [1.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0]
    # ACC_Y over all 8 replies; MAE over the replies that gave a year: release 0,0,0,2,20,0 (6), ours 0,0,0,16,160 (5)
    assert utils.mae([r["MAE_release"] for r in rows]) == pytest.approx(22 / 6)
    assert utils.mae([r["MAE"] for r in rows]) == pytest.approx(176 / 5)
    no_year = [r["MAE_release"] for r in rows if r["ACC_Y_release"] == 0.0 and r["MAE_release"] is None]
    assert len(no_year) == 2 and math.isnan(utils.mae(no_year))  # the script would print 0.00
    # S_N's year part / 3 = ACC_Y (1 - MAE / 80) / 6
    assert utils.news_year_share([r["composite_S_release"] for r in rows]) == pytest.approx(4 / 8 * (1 - 22 / 6 / 80) / 6)
    # signed error over the parsed replies: 0, 0, 0, -16, -160 -> mean -35.2 (answers older than the truth)
    assert utils.year_bias([r["year_bias"] for r in rows]) == pytest.approx(-176 / 5)
    # a random year of 1946-2025 against 2010: mean |y - 2010| = (sum 1..64 + sum 1..15) / 80; mean y - 2010 = 1985.5 - 2010
    assert utils.MAE_chance([r["MAE_chance"] for r in rows]) == pytest.approx((64 * 65 / 2 + 15 * 16 / 2) / 80)
    assert utils.year_bias_chance([r["year_bias_chance"] for r in rows]) == pytest.approx(-24.5)


def test_dynasty_distance_on_localization(image):
    doc = {
        "id": "loc",
        "images": [image],
        "options": ["Yuan", "Qing", "Tang", "Song", "Ming"],
        "answer": "E",
        "dynasty": "Ming",
        "category": "china",
        "answer_space": AnswerSpace("letter", n=5).to_json(),
    }
    rows = [utils.loc_process_results(doc, [reply]) for reply in ("E", "B", "C", "I cannot tell.")]
    items = [r["period_distance"] for r in rows]
    assert [i["offset"] for i in items] == [0, 1, -3, None]  # Ming = 3: Ming, Qing (+1), Tang (-3), none
    assert [i["pred_name"] for i in items] == ["Ming", "Qing", "Tang", None] and items[0]["gold_name"] == "Ming"
    assert utils.period_distance(items) == pytest.approx(4 / 3) and utils.period_bias(items) == pytest.approx(-2 / 3)
    # a random option against Ming: |0-3| + |1-3| + |2-3| + 0 + |4-3| = 7 over 5; signed (2 - 3) = -1
    assert utils.period_distance_chance(items) == pytest.approx(1.4) and utils.period_bias_chance(items) == pytest.approx(-1.0)
    assert [r["composite_S_release"] for r in rows] == [r["composite_S"] for r in rows]  # no release scorer: ours
