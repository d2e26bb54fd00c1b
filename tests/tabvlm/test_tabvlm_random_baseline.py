"""The random baseline reproduces the paper's Random row (Table 1: Overall 12.8;
Style 25.0, Sequence 4.2, Technique 6.25, Material 6.25, Grouping 10.0,
Odd-one-out 25.0), checked three ways on the demo data (40 questions a task):

1. exactly: every answer of each question's answer space goes through the real
   ``process_results``; the mean is the expected score of a uniform guess;
2. statistically: the chrono_random shim's own replies over 200 seeds
   (8,000 draws a task) through ``process_results`` land within 4 standard errors;
3. end to end: one real lmms-eval run prints all six scores and Overall.
"""

import itertools
import math

import pytest
from lmms_eval.api.instance import Instance

from chronotasks.benchmarks.tabvlm.report import build_tables
from chronotasks.benchmarks.tabvlm.schema import PERIOD_KEYS, TASK_TYPES
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import load_task_docs
from chronotasks.model_shims.baselines import RandomBaseline
from chronotasks.scoring.ordering import accepted_orders
from chronotasks.tasks.tabvlm import utils

PAPER_RANDOM = {
    "tabvlm_style_period": 25.0,
    "tabvlm_sequence": 4.2,
    "tabvlm_technique": 6.25,
    "tabvlm_material": 6.25,
    "tabvlm_grouping": 10.0,
    "tabvlm_odd_one_out": 25.0,
}


def _all_answers(space: AnswerSpace):
    letters = space.letters
    if space.kind == "letter":
        return list(letters)
    if space.kind == "ordering":
        return list(itertools.permutations(letters))
    if space.kind == "k_of_n":
        return [frozenset(c) for c in itertools.combinations(letters, space.k)]
    return [frozenset(c) for r in range(len(letters) + 1) for c in itertools.combinations(letters, r)]


@pytest.fixture(scope="module")
def demo_docs(demo_root):
    mp = pytest.MonkeyPatch()
    mp.setenv("CHRONOTASKS_DATA", str(demo_root))
    docs = {t.task: list(load_task_docs("tabvlm", t.file)) for t in TASK_TYPES}
    mp.undo()
    return docs


def test_expected_accuracy_of_a_uniform_guess_is_the_papers_random_row(demo_docs):
    expected = {}
    for task, docs in demo_docs.items():
        assert len(docs) == 40
        per_doc = []
        for doc in docs:
            space = AnswerSpace.of_doc(doc)
            answers = _all_answers(space)
            assert len(answers) == {"letter": 4, "ordering": 24, "letter_set": 16, "k_of_n": 10}[space.kind]
            scores = [utils.process_results(doc, [space.format(a)]) for a in answers]
            assert all(s["parse_failure"] == 0.0 for s in scores)
            per_doc.append(sum(s["accuracy"] for s in scores) / len(scores))
            if task == "tabvlm_sequence":  # tie-aware: every order consistent with the periods counts
                tie_aware = sum(s["exact_tie_aware"] for s in scores) / len(scores)
                assert tie_aware == pytest.approx(accepted_orders(doc["period_ranks"]) / 24)
        expected[task] = 100 * sum(per_doc) / len(per_doc)
    for task, value in PAPER_RANDOM.items():
        assert round(expected[task], 2 if task in ("tabvlm_technique", "tabvlm_material") else 1) == value
    assert expected["tabvlm_sequence"] == pytest.approx(100 / 24)
    overall = sum(expected.values()) / 6
    assert overall == pytest.approx(100 * (1 / 4 + 1 / 24 + 1 / 16 + 1 / 16 + 1 / 10 + 1 / 4) / 6)
    assert round(overall, 1) == 12.8


def test_random_shim_draws_match_the_random_row_statistically(demo_docs):
    model = RandomBaseline(seed=0)
    seeds = range(200)
    overall = 0.0
    for task, docs in demo_docs.items():
        hits, n = 0.0, 0
        for seed in seeds:
            model.seed = seed
            for doc_id, doc in enumerate(docs):
                request = Instance(
                    "generate_until", ("ctx", {}, None, doc_id, task, "test"), 0, metadata={"task": task, "doc_id": doc_id, "repeats": 0}
                )
                result = utils.process_results(doc, [model.answer(request, doc)])
                assert result["parse_failure"] == 0.0
                hits += result["accuracy"]
                n += 1
        p = PAPER_RANDOM[task] / 100 if task != "tabvlm_sequence" else 1 / 24
        observed = hits / n
        assert abs(observed - p) < 4 * math.sqrt(p * (1 - p) / n), (task, observed, p)
        overall += observed / 6
    assert abs(100 * overall - 12.78) < 0.5


@pytest.mark.slow
def test_lmms_eval_random_run_on_demo_prints_six_scores_and_overall(lmms_eval_run, demo_docs, tmp_path):
    data = lmms_eval_run("--model", "chrono_random", "--model_args", "seed=0", "--tasks", "tabvlm_chrono,tabvlm_chrono_metadata")
    results = data["results"]
    for suffix in ("", "_metadata"):
        accs = [results[t.task + suffix]["accuracy,none"] for t in TASK_TYPES]
        assert all(results[t.task + suffix]["parse_failure,none"] == 0.0 for t in TASK_TYPES)
        assert results["tabvlm_chrono" + suffix]["accuracy,none"] == pytest.approx(sum(accs) / 6)
        ties = sum(1 for doc in demo_docs["tabvlm_sequence"] if len(set(doc["period_ranks"])) < 4)
        assert results["tabvlm_sequence" + suffix]["tied_questions,none"] == ties
        assert 0.0 < results["tabvlm_chrono" + suffix]["accuracy,none"] < 0.35
    # the report reads the real results file
    path = tmp_path / "run_results.json"
    import json

    path.write_text(json.dumps(data))
    markdown, csv_text = build_tables([path])
    overall = 100 * results["tabvlm_chrono"]["accuracy,none"]
    n = sum(len(demo_docs[t.task]) for t in TASK_TYPES)  # the six tasks' questions
    assert f"| chrono_random (seed=0) | visual | 1 | {overall:.1f} ± n/a (n={n}) |" in markdown  # one run: no spread
    assert "visual+metadata" in markdown and csv_text.splitlines()[1].startswith("chrono_random (seed=0),visual,1,")
    style = results["tabvlm_style_period"]
    # without the --log_samples file the questions of a period are not known: n=?; a period without questions is NaN
    periods = [
        f"{100 * style[f'period_acc_{k},none']:.1f} ± n/a (n=?)" if not math.isnan(style[f"period_acc_{k},none"]) else "–"
        for k in PERIOD_KEYS
    ]
    assert f"| chrono_random (seed=0) | visual | 1 | {' | '.join(periods)} |" in markdown.split("per period")[1]
