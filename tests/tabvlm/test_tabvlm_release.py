"""TAB-VLM's release protocol (tasks/tabvlm/release/, chronotasks/scoring/release_tabvlm.py).

Real release questions (the committed excerpt of the release) converted as ``chronotasks prepare`` converts them,
asked with the release's numbered prompts; replies written as models answer those prompts. Each
reply carries two hand-worked values: what the release code makes of it (its rules, worked out by
hand from src/eval/inference.py and main.py: 1 / 0, or None when the release leaves the reply out
of its counts) and what a careful grader reads (our ``accuracy``). These are the examples of the
divergence table in chronotasks/tasks/tabvlm/README.md."""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import pytest
from PIL import Image

from chronotasks.benchmarks.tabvlm.schema import convert_question
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.prompts import render
from chronotasks.scoring.release_tabvlm import gold_indices, overall_accuracy, read_release, release_score
from chronotasks.tasks.tabvlm.release import utils as release

# (release question id, reply, release's value, careful grader's value)
CASES = [
    # style_period_matching_3: options 1 Prehistoric, 2 Bronze Age, 3 Modern India (1857 AD - Present), 4 Early Medieval; gold 3
    ("style_period_matching_3", "3", 1.0, 1.0),
    ("style_period_matching_3", "Answer: 3", 1.0, 1.0),
    ("style_period_matching_3", "The answer is 3 (Modern India (1857 AD - Present)).", 1.0, 1.0),
    ("style_period_matching_3", "3 or 1", 1.0, 0.0),  # a hedge: the first number wins
    ("style_period_matching_3", "1 or 3", 0.0, 0.0),
    ("style_period_matching_3", "I'd say option 3, though it could also be 4.", 1.0, 0.0),  # "option 3" wins
    ("style_period_matching_3", "Modern India (1857 AD - Present)", 0.0, 1.0),  # the option named by its text
    ("style_period_matching_3", "Option C", 0.0, 1.0),  # a letter: the release reads numbers only
    ("style_period_matching_3", "", None, 0.0),  # empty: left out of the release's denominator
    ("style_period_matching_3", "   ", 0.0, 0.0),  # blank but not empty: counted wrong
    # material_consistency_1: options paper, silver, synthetic fiber, plastic; NOT available: 3, 4
    ("material_consistency_1", "3, 4", 1.0, 1.0),
    ("material_consistency_1", "Options 3 and 4 (synthetic fiber and plastic) would not have been available.", 1.0, 1.0),
    # the "1" of "1857" is read as option 1 and the answer after the first 100 characters is never seen
    (
        "material_consistency_1",
        ("The brass lamp was made in Modern India (1857 AD - Present); synthetic fiber and plastic were still rare then.\nAnswer: 3, 4"),
        0.0,
        1.0,
    ),
    ("material_consistency_1", "3, 4 or maybe 2", 0.0, 0.0),
    ("material_consistency_1", "", None, 0.0),
    # object_grouping_2: five artifacts, 1, 3 and 5 of one period
    ("object_grouping_2", "1, 3, 5", 1.0, 1.0),
    ("object_grouping_2", "Artifacts 1, 3 and 5 are modern; 2 and 4 are prehistoric pottery.", 1.0, 1.0),
    ("object_grouping_2", "Artifacts 2 and 4 are prehistoric; 1, 3 and 5 belong together.", 0.0, 1.0),  # first three digits
    ("object_grouping_2", "1, 3", 0.0, 0.0),
    # chronological_ordering_3: oldest to newest 2, 4, 1, 3
    ("chronological_ordering_3", "2, 4, 1, 3", 1.0, 1.0),
    ("chronological_ordering_3", "2 → 4 → 1 → 3", 1.0, 1.0),  # no comma run: the first four digits 1-4
    ("chronological_ordering_3", "2, 4, 3, 1", 0.0, 0.0),
    # odd_period_1: artifact 2 is the odd one
    ("odd_period_1", "2", 1.0, 1.0),
    ("odd_period_1", "Artifact 2 is different: it is a later Mughal-era piece.", 1.0, 1.0),
    ("odd_period_1", "12th-century bronze (artifact 2) is the odd one out.", 1.0, 1.0),  # "12" at the start is out of range
    ("odd_period_1", "The second one.", 0.0, 1.0),
    ("odd_period_1", "2 or 3", 1.0, 0.0),
    ("odd_period_1", "1" * 5000, None, 0.0),  # a degenerate repetition: int() of 5,000 digits raises, the question is dropped
]


@pytest.fixture(scope="module")
def release_questions(release_excerpts):
    return _questions(release_excerpts)


def _questions(releases: Path) -> dict[str, dict]:
    data = json.loads((releases / "tabvlm" / "temporal_anomaly_benchmark.json").read_text(encoding="utf-8"))
    return {q["question_id"]: q for q in data["questions"]}


@pytest.fixture(scope="module")
def image(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("tabvlm_release") / "artifact.png"
    Image.new("RGB", (8, 8), (90, 60, 30)).save(path)
    return path


def _doc(release_questions, image, qid, images=None):
    """The record of release question ``qid`` as the release variant's process_docs gives it."""
    question = release_questions[qid]
    n = len(question["artifacts"]) if "artifacts" in question else 1
    record = convert_question(question, images or [str(image)] * n)
    return {**record, "answer_space": replace(AnswerSpace.of_doc(record), numbered=True).to_json()}


@pytest.mark.parametrize("qid, reply, release_value, grader_value", CASES)
def test_both_readings_on_hand_worked_replies(release_questions, image, qid, reply, release_value, grader_value):
    out = release.process_results(_doc(release_questions, image, qid), [reply])
    assert out["accuracy_release"] == release_value
    assert out["dropped_release"] == float(release_value is None)
    assert out["accuracy"] == grader_value


def test_release_answers_as_the_release_stores_them():
    # 0-based indices, as extract_answer returns them
    assert read_release("manufacturing_technique", "13").answer == [0, 2]  # every digit 1-4 in the first 100 chars
    assert read_release("material_availability", "None of them").answer == []
    assert read_release("period_grouping", "2, 2, 4, 1").answer == [1, 3, 0]  # distinct, in order
    assert read_release("period_grouping", "2 and 4").answer == []  # fewer than three: nothing
    assert read_release("chronological_sequence", "1, 1, 2, 3").answer == [0, 0, 1, 2]  # repeats kept
    assert read_release("chronological_sequence", "see 4 then 3, 2, 1, 4").answer == [2, 1, 0, 3]  # the comma run first
    assert read_release("odd_one_out_period", "5").answer is None
    assert read_release("style_period_attribution", "choice is: 4").answer == 3
    assert read_release("style_period_attribution", "1857").answer is None
    assert read_release("odd_one_out_period", "").dropped and read_release("odd_one_out_period", None).dropped
    assert gold_indices("C") == 2 and gold_indices(["B", "D"]) == [1, 3]
    with pytest.raises(ValueError, match="unknown TAB-VLM question type"):
        read_release("letters", "A")


def test_release_accuracy_leaves_dropped_replies_out_of_the_denominator(release_questions, image):
    doc = _doc(release_questions, image, "odd_period_1")
    replies = ["2", "", "3", "Artifact 2 is different.", "", "4"]  # right, dropped, wrong, right, dropped, wrong
    rows = [release.process_results(doc, [r]) for r in replies]
    assert release.accuracy_release([r["accuracy_release"] for r in rows]) == 2 / 4  # the release: 2 correct of 4 answered
    assert sum(r["dropped_release"] for r in rows) / len(rows) == 2 / 6
    assert sum(r["accuracy"] for r in rows) / len(rows) == 2 / 6  # ours counts every question
    assert math.isnan(release.accuracy_release([None, None]))


def test_overall_accuracy_pools_answered_questions():
    # style 60/100 answered 100; sequence 30% of the 90 answered (10 dropped): (60 + 27) / 190
    assert overall_accuracy([(0.6, 100, 0.0), (0.3, 100, 0.1)]) == pytest.approx(87 / 190)
    assert math.isnan(overall_accuracy([(0.5, 10, 1.0)]))


def test_a_sample_whose_image_failed_is_left_out_as_the_release_does(release_questions, tmp_path):
    doc = _doc(release_questions, None, "style_period_matching_3", images=[str(tmp_path / "missing.jpg")])
    out = release.process_results(doc, ["3"])
    assert out["image_failure"] == 1.0 and out["accuracy_release"] is None and out["dropped_release"] == 1.0
    assert out["accuracy"] == 0.0


def test_prompts_are_the_release_prompts_word_for_word(release_questions, image):
    style = _doc(release_questions, image, "style_period_matching_3")
    # src/eval/data_prep.py DataPreparation.prepare_prompt, style_period_attribution branch, typed from the release source
    assert release.doc_to_text(style) == (
        "Look at this historical artifact and answer the following question:\n\n"
        "Question: Which historical period does this Philately belong to?\n\n"
        "Please select the correct option from the following choices:\n"
        "1. Prehistoric Period (Before 3300 BCE)\n2. Bronze Age (3300 - 1800 BCE)\n"
        "3. Modern India (1857 AD - Present)\n4. Early Medieval Period (650 - 1200 AD)\n\n"
        "For your answer, simply provide the number of the correct option (1, 2, 3, or 4)."
    )
    sequence = _doc(release_questions, image, "chronological_ordering_3")
    assert release.doc_to_text(sequence) == (
        "Below are 4 historical artifacts from different time periods.\n\n"
        "Question: Arrange these artifacts in chronological order from oldest to newest:\n\n"
        "Please provide the sequence from oldest to newest by listing the artifact numbers (1-4) in chronological order.\n\n"
        'Your answer must be in the format: "1, 3, 2, 4" (where these numbers represent the order from oldest to newest).'
    )
    material = release.doc_to_text(_doc(release_questions, image, "material_consistency_1"))
    assert "choices:\n1. paper\n2. silver\n3. synthetic fiber\n4. plastic\n\nFor your answer, simply list the numbers" in material
    assert render("tabvlm/release_select_all.j2", question_text="Q", options=["a"]).endswith(
        'simply list the numbers of all correct options (e.g., "1, 3" if options 1 and 3 are correct).'
    )
    messages = release.doc_to_messages(sequence)
    assert [part["type"] for part in messages[0]["content"]] == ["text", "image", "image", "image", "image"]


def test_numbered_answer_space_round_trip():
    letter, subset = AnswerSpace("letter", n=4, numbered=True), AnswerSpace("letter_set", n=4, numbered=True)
    order, triple = AnswerSpace("ordering", n=4, numbered=True), AnswerSpace("k_of_n", n=5, k=3, numbered=True)
    assert letter.format("C") == "3" and letter.parse("3") == "C" and letter.parse("5") is None
    assert subset.format(frozenset("AC")) == "1, 3" and subset.parse("1, 3") == frozenset("AC")
    assert subset.format(frozenset()) == "None" and subset.parse("None") == frozenset()
    assert subset.parse("13") is None  # digits run together: one number, not options 1 and 3
    assert order.format(("B", "D", "A", "C")) == "2, 4, 1, 3" and order.parse("2, 4, 1, 3") == ("B", "D", "A", "C")
    assert triple.parse("Artifacts 1, 3 and 5 are from the same period.") == frozenset("ACE")
    # dates and quantities are not option numbers
    assert letter.parse("2. Classical Period (200 BCE - 650 AD)") == "B"
    assert letter.parse("The carving dates to the 3rd century, so option 2.") == "B"
    assert AnswerSpace.from_json(letter.to_json()) == letter
    with pytest.raises(ValueError, match="cannot be numbered"):
        AnswerSpace("year", lo=1, hi=2, numbered=True)


def test_duplicate_style_period_options_in_the_release(seed_data):
    """The README's count: 32 style-period questions list an option text twice, 18 of them the correct one."""
    style = [q for q in _questions(seed_data).values() if q["question_type"] == "style_period_attribution"]
    duplicated = [q for q in style if len(set(q["options"])) < len(q["options"])]
    correct_twice = [q for q in duplicated if q["options"].count(q["options"][q["correct_index"]]) > 1]
    assert (len(style), len(duplicated), len(correct_twice)) == (100, 32, 18)
    # the release credits only correct_index: the other copy of the right period is scored wrong, by both readings
    q = correct_twice[0]
    other = next(i for i, o in enumerate(q["options"]) if o == q["options"][q["correct_index"]] and i != q["correct_index"])
    assert release_score("style_period_attribution", str(other + 1), q["correct_index"]) == 0.0


def test_style_period_distance_items(release_questions, image):
    # style_period_matching_3: options Prehistoric (0), Bronze Age (1), Modern India (7), Early Medieval (4); gold Modern India
    doc = _doc(release_questions, image, "style_period_matching_3")
    rows = [release.process_results(doc, [reply]) for reply in ("3", "1", "4", "1 or 3")]
    items = [row["period_distance"] for row in rows]
    assert [i["offset"] for i in items] == [0, -7, -3, None]
    assert [i["pred_name"] for i in items] == [
        "Modern India (1857 AD - Present)",
        "Prehistoric Period (Before 3300 BCE)",
        "Early Medieval Period (650 - 1200 AD)",
        None,
    ]
    assert release.period_distance(items) == pytest.approx(10 / 3) and release.period_bias(items) == pytest.approx(-10 / 3)
    # a random option: (7 + 6 + 0 + 3) / 4 periods away, all older: -4
    assert release.period_distance_chance(items) == 4.0 and release.period_bias_chance(items) == -4.0
