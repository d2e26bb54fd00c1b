"""Baseline shims answering lmms-eval's real Instance objects."""

import random

import pytest
from lmms_eval.api.instance import Instance
from PIL import Image

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.model_shims.baselines import ConstantBaseline, GrayscalePriorBaseline, RandomBaseline, mean_saturation
from chronotasks.scoring import (
    exact_match,
    exact_set_match,
    parse_json_choice,
    parse_k_of_n,
    parse_letter,
    parse_letter_set,
    parse_ordering,
    parse_year,
)


def make_requests(model, docs, task="t", doc_to_visual=lambda doc: []):
    model.task_dict = {task: {"test": docs}}
    return [
        Instance(
            request_type="generate_until",
            arguments=("ctx", {}, doc_to_visual, i, task, "test"),
            idx=0,
            metadata={"task": task, "doc_id": i, "repeats": 1},
        )
        for i in range(len(docs))
    ]


def test_random_four_options_over_2000_draws_is_25_percent():
    rng = random.Random(7)
    docs = [{"id": i, "answer": rng.choice("ABCD"), "answer_space": AnswerSpace("letter", n=4).to_json()} for i in range(2000)]
    model = RandomBaseline(seed=0)
    replies = model.generate_until(make_requests(model, docs))
    accuracy = sum(exact_match(parse_letter(r, 4), d["answer"]) for r, d in zip(replies, docs)) / len(docs)
    assert accuracy == pytest.approx(0.25, abs=0.02)


def test_random_is_reproducible_and_seed_dependent():
    docs = [{"id": i, "answer_space": AnswerSpace("ordering", n=4).to_json()} for i in range(50)]
    first = RandomBaseline(seed=1)
    again = RandomBaseline(seed=1)
    other = RandomBaseline(seed=2)
    a = first.generate_until(make_requests(first, docs))
    assert a == again.generate_until(make_requests(again, docs))
    assert a != other.generate_until(make_requests(other, docs))
    # reversed request order gives each document the same answer
    requests = make_requests(again, docs)[::-1]
    assert again.generate_until(requests) == a[::-1]


@pytest.mark.parametrize(
    "space,parse,gold,chance",
    [
        (AnswerSpace("letter_set", n=4), lambda r: parse_letter_set(r, 4), frozenset("AC"), 1 / 16),
        (AnswerSpace("ordering", n=4), lambda r: parse_ordering(r, 4), tuple("BADC"), 1 / 24),
        (AnswerSpace("k_of_n", n=5, k=3), lambda r: parse_k_of_n(r, 5, 3), frozenset("ACE"), 1 / 10),
        (AnswerSpace("choice", choices=("1", "2"), key="answer"), parse_json_choice, "2", 1 / 2),
    ],
)
def test_random_answers_parse_and_hit_chance_rate(space, parse, gold, chance):
    docs = [{"id": i, "answer_space": space.to_json()} for i in range(3000)]
    model = RandomBaseline(seed=0)
    replies = model.generate_until(make_requests(model, docs))
    parsed = [parse(r) for r in replies]
    assert all(p is not None for p in parsed)
    score = exact_set_match if isinstance(gold, frozenset) else exact_match
    rate = sum(score(p, gold) for p in parsed) / len(parsed)
    # 4 standard errors of a binomial proportion over 3000 draws
    assert rate == pytest.approx(chance, abs=4 * (chance * (1 - chance) / 3000) ** 0.5)


def test_random_abstains_on_free_text_and_draws_elsewhere():
    docs = [{"id": 0, "answer_space": AnswerSpace("text").to_json()}, {"id": 1, "answer_space": AnswerSpace("letter", n=4).to_json()}]
    model = RandomBaseline(seed=0)
    text_reply, letter_reply = model.generate_until(make_requests(model, docs))
    assert text_reply == ""
    assert parse_letter(letter_reply, 4) in set("ABCD")


def test_random_year_stays_in_range():
    docs = [{"id": i, "answer_space": AnswerSpace("year", lo=1950, hi=1960).to_json()} for i in range(200)]
    model = RandomBaseline(seed=0)
    years = [parse_year(r) for r in model.generate_until(make_requests(model, docs))]
    assert set(years) == set(range(1950, 1961))


def test_constant_answers_the_given_text_and_rejects_unknown_args():
    docs = [{"id": 0, "answer_space": AnswerSpace("letter", n=5).to_json()}]
    model = ConstantBaseline(answer="Qing")
    assert model.generate_until(make_requests(model, docs)) == ["Qing"]
    with pytest.raises(TypeError, match="unknown model_args"):
        ConstantBaseline(answer="Qing", anwser="typo")


def test_grayscale_prior_picks_the_less_saturated_image():
    colour = Image.new("RGB", (8, 8), (200, 30, 30))
    gray = colour.convert("L").convert("RGB")
    assert mean_saturation(gray) == 0.0 and mean_saturation(colour) > 100
    docs = [
        {"id": 0, "pair": [colour, gray], "answer_space": AnswerSpace("choice", choices=("1", "2"), key="answer").to_json()},
        {"id": 1, "pair": [gray, colour], "answer_space": AnswerSpace("choice", choices=("1", "2"), key="answer").to_json()},
        {"id": 2, "pair": [gray, colour], "answer_space": AnswerSpace("letter", n=2).to_json()},
    ]
    model = GrayscalePriorBaseline()
    replies = model.generate_until(make_requests(model, docs, doc_to_visual=lambda doc: doc["pair"]))
    assert [parse_json_choice(r) for r in replies[:2]] == ["2", "1"]
    assert replies[2] == "A"


def test_repeats_are_refused_before_anything_is_generated():
    """lmms-eval's ``-n K`` hands the model each request K times (``Instance.repeats`` = K) and scores only
    the first reply: every backend stops with one line, exit status 1, before answering anything."""
    docs = [{"id": i, "answer_space": AnswerSpace("ordering", n=4).to_json()} for i in range(4)]
    model = RandomBaseline(seed=3)
    requests = make_requests(model, docs)
    for request in requests:
        request.repeats = 3
    answered = []
    model.answer = lambda request, doc: answered.append(doc) or "A"
    with pytest.raises(SystemExit) as info:
        model.generate_until([request for request in requests for _ in range(3)])
    assert str(info.value.code).startswith(
        "chronotasks: error: lmms-eval -n 3: lmms-eval scores only the first of the 3 replies to each question"
    )
    assert answered == []
    for request in requests:
        request.repeats = 1
    assert len(model.generate_until(requests)) == 4 == len(answered)


def _replies(run_lmms_eval, demo_root, out, *args):
    """Per document, the reply of a real lmms-eval run of chrono_random."""
    import glob
    import json

    run_lmms_eval(
        "--model",
        "chrono_random",
        "--tasks",
        "chrono_demo_period",
        "--limit",
        "12",
        "--log_samples",
        *args,
        data_root=demo_root,
        output_path=out,
    )
    (path,) = glob.glob(str(out / "**" / "*_samples_chrono_demo_period.jsonl"), recursive=True)
    return {s["doc_id"]: s["filtered_resps"] for s in map(json.loads, open(path))}


def test_seed_follows_the_random_module_lmms_eval_seeds_unless_given():
    """lmms-eval's --seed seeds Python's ``random`` just before it builds the model; with no seed=
    the baseline takes its seed from there (without drawing from it), a seed= model_arg wins."""
    state = random.getstate()
    try:
        random.seed(5)
        before = random.getstate()
        five, five_again = RandomBaseline().seed, RandomBaseline().seed
        assert random.getstate() == before  # nobody else's draws change
        random.seed(6)
        six = RandomBaseline().seed
        assert five == five_again != six
        assert RandomBaseline(seed=7).seed == 7
        random.seed(5)
        assert RandomBaseline(seed=7).seed == 7
    finally:
        random.setstate(state)


@pytest.mark.slow
def test_random_follows_lmms_eval_seed_and_refuses_repeats(demo_root, tmp_path, lmms_eval_runner):
    seed5 = _replies(lmms_eval_runner, demo_root, tmp_path / "a", "--seed", "5")
    assert _replies(lmms_eval_runner, demo_root, tmp_path / "b", "--seed", "5") == seed5  # same --seed, same draws
    seed6 = _replies(lmms_eval_runner, demo_root, tmp_path / "c", "--seed", "6")
    assert list(seed6.values()) != list(seed5.values())  # --seed changes the draws
    with pytest.raises(
        AssertionError,
        match=r"(?s)lmms-eval failed \(exit 1\).*chronotasks: error: lmms-eval -n 3: "
        r"lmms-eval scores only the first of the 3 replies",
    ):
        _replies(lmms_eval_runner, demo_root, tmp_path / "d", "--seed", "5", "-n", "3")
    assert not list((tmp_path / "d").rglob("*_results.json"))  # nothing claims 3 draws
