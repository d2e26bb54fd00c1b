"""CircularEval scoring worked by hand, the rotated records (options, images and gold moving
together), and the grayscale variants' images (ChronoVision's Algorithm 1) for simple and chat
models."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from chronotasks.benchmarks.chronovision.grayscale import read_bgr, to_gray_bgr
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.circular import rotations
from chronotasks.data.loading import DataError
from chronotasks.scoring.circular import choice_rates, circular_accuracy, position_bias, rotated_letter, rotation_of


def _item(q, r, correct, choice, n=4):
    return {"question": q, "rotation": r, "n": n, "correct": float(correct), "choice": choice}


def test_rotation_moves_position_i_to_option_i_plus_r():
    assert rotation_of(4, 0) == [0, 1, 2, 3]
    assert rotation_of(4, 1) == [1, 2, 3, 0]  # shift 1 of ABCD shows B C D A
    assert rotation_of(5, 3) == [3, 4, 0, 1, 2]
    # the option at B is shown at A after shift 1, at D after shift 2 of four
    assert rotated_letter("B", 4, 1) == "A" and rotated_letter("B", 4, 2) == "D" and rotated_letter("A", 5, 1) == "E"


def test_circular_accuracy_choice_rates_and_bias_by_hand():
    # q1: all four shifts right -> 1; q2: one wrong -> 0; q3: rotation 3 missing -> not counted.
    items = [_item("q1", r, 1, "ABCD"[(1 - r) % 4]) for r in range(4)]
    items += [_item("q2", 0, 1, "A"), _item("q2", 1, 0, "A"), _item("q2", 2, 1, "C"), _item("q2", 3, 1, "B")]
    items += [_item("q3", 0, 1, "A"), _item("q3", 1, 1, None), _item("q3", 2, 0, "A")]
    assert circular_accuracy(items) == pytest.approx(1 / 2)
    # parsed choices: q1 B A D C, q2 A A C B, q3 A A  -> A 5, B 2, C 2, D 1 of 10
    assert choice_rates(items) == pytest.approx({"A": 0.5, "B": 0.2, "C": 0.2, "D": 0.1})
    # total variation from 1/4: (0.25 + 0.05 + 0.05 + 0.15) / 2 = 0.25
    assert position_bias(items) == pytest.approx(0.25)
    constant = [_item(q, r, r == 0, "A") for q in ("x", "y") for r in range(4)]
    assert circular_accuracy(constant) == 0.0 and position_bias(constant) == pytest.approx(0.75)
    assert math.isnan(circular_accuracy([_item("z", 0, 1, "A")]))
    assert math.isnan(position_bias([_item("z", 0, 0, None)]))


def _odd_record():
    return {
        "id": "q7",
        "options": ["t0", "t1", "t2", "t3"],
        "images": ["a.png", "b.png", "c.png", "d.png"],
        "periods": ["P1", "P2", "P1", "P1"],
        "answer": "B",
        "answer_space": AnswerSpace("letter", n=4).to_json(),
    }


def test_rotations_move_every_per_option_field_and_remap_the_gold():
    shifted = rotations(_odd_record(), ("options", "images", "periods"))
    assert [r["id"] for r in shifted] == ["q7@r0", "q7@r1", "q7@r2", "q7@r3"]
    assert {r["question_id"] for r in shifted} == {"q7"} and [r["rotation"] for r in shifted] == [0, 1, 2, 3]
    assert shifted[0]["images"] == ["a.png", "b.png", "c.png", "d.png"] and shifted[0]["answer"] == "B"
    assert shifted[1]["images"] == ["b.png", "c.png", "d.png", "a.png"] and shifted[1]["answer"] == "A"
    assert shifted[1]["options"] == ["t1", "t2", "t3", "t0"] and shifted[1]["periods"] == ["P2", "P1", "P1", "P1"]
    assert shifted[3]["images"] == ["d.png", "a.png", "b.png", "c.png"] and shifted[3]["answer"] == "C"
    assert [r["answer"] for r in shifted] == ["B", "A", "D", "C"]  # the gold visits every position once


def test_rotations_reject_records_that_are_not_single_letter():
    record = _odd_record()
    with pytest.raises(DataError, match="'q7'.*'images'"):
        rotations({**record, "images": ["a.png"]}, ("options", "images"))
    with pytest.raises(DataError, match="'q7'.*single-letter"):
        rotations({**record, "answer_space": AnswerSpace("letter_set", n=4).to_json()})
    for answer in ("E", None, "AB", ""):  # one letter of the options (None once raised a TypeError; "AB" and "" passed)
        with pytest.raises(DataError, match="'q7'.*'answer'"):
            rotations({**record, "answer": answer})


@pytest.fixture
def demo_env(demo_root, monkeypatch, tmp_path):
    monkeypatch.setenv("CHRONOTASKS_DATA", str(demo_root))
    monkeypatch.setenv("CHRONOVISION_GRAY_CACHE", str(tmp_path / "gray_cache"))
    return demo_root


def test_tabvlm_odd_one_out_circular_docs_keep_image_and_gold_together(demo_env):
    from chronotasks.tasks.tabvlm import utils as base
    from chronotasks.tasks.tabvlm.circular import utils

    originals = {d["id"]: d for d in base.odd_one_out_docs(None).to_list()}
    docs = utils.odd_one_out_docs(None).to_list()
    assert len(docs) == 4 * len(originals)
    for doc in docs:
        orig = originals[doc["question_id"]]
        gold = "ABCD".index(doc["answer"])
        assert doc["images"][gold] == orig["images"]["ABCD".index(orig["answer"])]
        odd = [p for p in doc["period_ranks"] if doc["period_ranks"].count(p) == 1]
        assert doc["period_ranks"][gold] == odd[0]  # the gold is still the odd period out
        assert sorted(zip(doc["images"], doc["object_types"])) == sorted(zip(orig["images"], orig["object_types"]))
    # a right reply on a shifted doc is scored right by the base task's own process_results
    doc = next(d for d in docs if d["rotation"] == 2)
    out = utils.process_results(doc, [f"The answer is {doc['answer']}."])
    assert out["accuracy"] == 1.0 and out["circular_accuracy"]["choice"] == doc["answer"]
    assert utils.process_results(doc, ["I am not sure."])["circular_accuracy"]["choice"] is None


def test_style_period_circular_prompt_lists_the_shifted_options(demo_env):
    from chronotasks.tasks.tabvlm import utils as base
    from chronotasks.tasks.tabvlm.circular import utils

    docs = utils.style_period_docs(None).to_list()[:4]
    texts = [base.doc_to_text(d) for d in docs]
    options = docs[0]["options"]
    assert f"A. {options[1]}\nB. {options[2]}\nC. {options[3]}\nD. {options[0]}" in texts[1]
    assert {d["period"] for d in docs} == {docs[0]["options"]["ABCD".index(docs[0]["answer"])]}
    assert all(d["options"]["ABCD".index(d["answer"])] == d["period"] for d in docs)


def test_chronovision_loc_circular_scores_dynasty_names_and_letters(demo_env):
    from chronotasks.tasks.chronovision.circular import utils

    docs = utils.loc_docs(None).to_list()
    doc = docs[3]
    named = doc["options"]["ABCDE".index(doc["answer"])]
    assert doc["rotation"] == 3 and named == doc["dynasty"]
    out = utils.loc_process_results(doc, [f"This looks like {named} dynasty work."])
    assert out["accuracy"] == 1.0 and out["circular_accuracy"]["choice"] == doc["answer"]
    assert out.pop("data_origin") == "chronotasks demo-data (synthetic)"  # the demo record's origin, logged
    assert set(out) == {
        "accuracy",
        "parse_failure",
        "image_failure",
        "circular_accuracy",
        "position_bias",
        "choice_rate_A",
        "choice_rate_B",
        "choice_rate_C",
        "choice_rate_D",
        "choice_rate_E",
    }


def _algorithm_1(path):
    return to_gray_bgr(read_bgr(path))[..., ::-1]  # BGR -> RGB, as PIL gives it


def test_gray_variants_show_algorithm_1_images_to_simple_and_chat_models(demo_env, tmp_path):
    from chronotasks.tasks.tabvlm import utils as base
    from chronotasks.tasks.tabvlm.gray import utils as gray

    doc = base.sequence_docs(None)[0]
    visuals = gray.doc_to_visual(doc)
    assert len(visuals) == 4
    for image, colour, path in zip(visuals, base.doc_to_visual(doc), doc["images"]):
        pixels = np.asarray(image)
        assert (pixels[..., 0] == pixels[..., 1]).all() and (pixels[..., 1] == pixels[..., 2]).all()
        assert np.array_equal(pixels, _algorithm_1(path))
        assert np.asarray(colour).std(axis=2).max() > 0  # the source is in colour
    content = gray.doc_to_messages(doc)[0]["content"]
    base_content = base.doc_to_messages(doc)[0]["content"]
    assert [p["type"] for p in content] == [p["type"] for p in base_content]
    assert [p.get("text") for p in content] == [p.get("text") for p in base_content]
    images = [p["url"] for p in content if p["type"] == "image"]
    assert all(np.array_equal(np.asarray(a), np.asarray(b)) for a, b in zip(images, visuals))
    assert list((tmp_path / "gray_cache").rglob("*.png"))  # cached as ChronoVision caches


def test_gray_variants_of_musebench_and_chronovision_use_the_same_conversion(demo_env):
    from chronotasks.tasks.chronovision import utils as cv_base
    from chronotasks.tasks.chronovision.gray import utils as cv_gray
    from chronotasks.tasks.musebench import utils as mb_base
    from chronotasks.tasks.musebench.gray import utils as mb_gray

    for base_docs, hook in ((mb_base.vqa_docs, mb_gray.doc_to_visual), (cv_base.sort_cross_docs, cv_gray.doc_to_visual)):
        doc = base_docs(None)[0]
        images = hook(doc)
        assert len(images) == len(doc["images"]) >= 2
        assert all(np.array_equal(np.asarray(im), _algorithm_1(p)) for im, p in zip(images, doc["images"]))


def test_circular_records_keep_json_fields_readable(demo_env):
    from chronotasks.tasks.chrono_demo.circular import utils

    docs = utils.period_docs(None).to_list()
    assert len(docs) == 4 * 40
    assert AnswerSpace.from_json(docs[5]["answer_space"]) == AnswerSpace("letter", n=4)
    assert json.loads(docs[5]["answer_space"])["n"] == 4


def test_circular_samples_log_the_deciding_extractor_as_their_base_tasks_do(demo_env, monkeypatch, tmp_path):
    """With the LLM extractor on, every sample says which extractor decided (chronotasks audit counts
    it); the circular hooks pass it on, and the choice they count is the extractor's answer."""
    from openai_stub import OpenAIStub

    from chronotasks.tasks.chrono_demo import utils as base
    from chronotasks.tasks.chrono_demo.circular import utils

    doc = utils.period_docs(None).to_list()[1]
    reply = "Hard to say from the photo; the glaze and the wear point to the later of the listed periods."
    with OpenAIStub(responder=lambda body: "B") as stub:
        monkeypatch.setenv("CHRONOTASKS_EXTRACTOR_MODEL", "stub-extractor")
        monkeypatch.setenv("CHRONOTASKS_EXTRACTOR_BASE_URL", stub.base_url)
        monkeypatch.setenv("CHRONOTASKS_EXTRACTOR_CACHE", str(tmp_path / "extractor_cache"))
        assert base.period_process_results(doc, [reply])["extractor"] == "llm"
        out = utils.period_process_results(doc, [reply])
        assert out["extractor"] == "llm" and out["circular_accuracy"]["choice"] == "B"
        assert out["accuracy"] == float(doc["answer"] == "B")
        assert len(stub.requests) == 1  # the circular hook's reading came from the extractor's cache
