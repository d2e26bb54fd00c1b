"""TAB-VLM scoring: realistic recorded model replies (chatty, wrong letters,
arrows, JSON, refusals) through the tasks' real ``process_results``, each
metric checked against a value worked out by hand."""

import math
import tempfile
from pathlib import Path

import pytest
from PIL import Image

from chronotasks.benchmarks.tabvlm.schema import PERIODS
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.aggregation import mean_present
from chronotasks.scoring.ordering import accepted_orders, has_ties, rank_consistent_match
from chronotasks.tasks.tabvlm import utils

_IMAGE = Path(tempfile.mkdtemp(prefix="tabvlm_metrics_")) / "artifact.png"  # a readable image: these docs score replies
Image.new("RGB", (8, 8), (90, 60, 30)).save(_IMAGE)


def _doc(qtype, answer, n_options=4, ranks=None, **extra):
    space = {
        "chronological_sequence": AnswerSpace("ordering", n=4),
        "odd_one_out_period": AnswerSpace("letter", n=4),
        "style_period_attribution": AnswerSpace("letter", n=4),
        "material_availability": AnswerSpace("letter_set", n=4),
        "manufacturing_technique": AnswerSpace("letter_set", n=4),
        "period_grouping": AnswerSpace("k_of_n", n=5, k=3),
    }[qtype]
    n_images = {"chronological_sequence": 4, "odd_one_out_period": 4, "period_grouping": 5}.get(qtype, 1)
    return {
        "id": f"{qtype}_x",
        "question_type": qtype,
        "question": "q?",
        "options": [f"opt{i}" for i in range(n_options)],
        "images": [str(_IMAGE)] * n_images,
        "answer": answer,
        "answer_space": space.to_json(),
        "period_ranks": ranks or [0] * n_images,
        "object_types": ["Coin"] * n_images,
        "main_materials": ["Silver"] * n_images,
        **extra,
    }


def _mean_metrics(doc, replies):
    """What lmms-eval's ``mean`` aggregation gives for each metric over these replies."""
    rows = [utils.process_results(doc, [reply]) for reply in replies]
    keys = {k for row in rows for k in row}
    keys = {k for k in keys if all(not isinstance(row.get(k), dict) for row in rows)}  # a count's items: not means
    return {k: sum(row[k] for row in rows if k in row) / sum(1 for row in rows if k in row) for k in keys}, rows


def test_chronological_sequence_exact_tie_aware_and_kendall_tau():
    # Images A..D have periods Classical(3), Prehistoric(0), Classical(3), Iron Age(2): A and C share a period.
    # The release's single gold order is B, D, A, C; B, D, C, A is just as consistent with the periods.
    doc = _doc("chronological_sequence", ["B", "D", "A", "C"], ranks=[3, 0, 3, 2])
    replies = [
        (
            "Looking at the artifacts, B is a prehistoric vase and C a later sculpture. "
            "The chronological order from oldest to newest is: B, D, A, C."
        ),  # exact; τ = 1
        "B → D → C → A",  # tie-swap: tie-aware only; τ = (5-1)/6
        '```json\n{"sequence": ["D", "B", "A", "C"]}\n```',  # one adjacent swap of different periods; τ = 2/3
        "I cannot determine the order of these artifacts from the images alone.",  # unparsed: 0, τ 0, counted
        "C -> A -> D -> B",  # reversed; τ = -1
    ]
    means, rows = _mean_metrics(doc, replies)
    assert [r["accuracy"] for r in rows] == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert [r["exact_tie_aware"] for r in rows] == [1.0, 1.0, 0.0, 0.0, 0.0]
    assert [r["kendall_tau"] for r in rows] == pytest.approx([1.0, 2 / 3, 2 / 3, 0.0, -1.0])
    assert [r["parse_failure"] for r in rows] == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert all(r["tied_questions"]["flag"] == 1.0 for r in rows)  # (an unread reply's item also names its failure)
    assert means["accuracy"] == pytest.approx(0.2)
    assert means["exact_tie_aware"] == pytest.approx(0.4)
    assert means["kendall_tau"] == pytest.approx((1 + 2 / 3 + 2 / 3 + 0 - 1) / 5)  # 0.2667
    assert means["parse_failure"] == pytest.approx(0.2)
    untied = _doc("chronological_sequence", ["B", "D", "A", "C"], ranks=[3, 0, 7, 2])
    assert utils.process_results(untied, ["B, D, C, A"])["exact_tie_aware"] == 0.0
    assert utils.process_results(untied, ["B, D, C, A"])["tied_questions"] == {"flag": 0.0}
    assert utils.count([{"flag": 1.0}, {"flag": 0.0}, {"flag": 1.0}]) == 2.0


def test_odd_one_out_single_letter():
    doc = _doc("odd_one_out_period", "B")
    replies = [
        "B",
        "The answer is (C).",  # wrong letter
        "Artifact B is an 18th-century bronze while A, C and D are early medieval stone sculptures. Answer: B",
        "E",  # not an option: unparsed
        '{"answer": "B", "reason": "A different style from the rest"}',
    ]
    means, rows = _mean_metrics(doc, replies)
    assert [r["accuracy"] for r in rows] == [1.0, 0.0, 1.0, 0.0, 1.0]
    assert [r["parse_failure"] for r in rows] == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert means["accuracy"] == pytest.approx(3 / 5) and means["parse_failure"] == pytest.approx(1 / 5)


def test_material_availability_exact_set_and_f1():
    doc = _doc("material_availability", ["C", "D"])
    replies = [
        "C, D",  # exact, F1 1
        "The materials that would NOT have been available are plastic and synthetic fiber. Answer: C",  # F1 2·1/(1+2)
        "A, C, D",  # F1 2·2/(3+2) = 0.8
        '{"answer": ["B", "C"]}',  # F1 2·1/(2+2) = 0.5
        "None of the options",  # the empty set: parsed, F1 0
        "Sorry, I can't help with identifying that.",  # unparsed
    ]
    means, rows = _mean_metrics(doc, replies)
    assert [r["accuracy"] for r in rows] == [1.0, 0.0, 0.0, 0.0, 0.0, 0.0]
    assert [r["f1"] for r in rows] == pytest.approx([1.0, 2 / 3, 0.8, 0.5, 0.0, 0.0])
    assert [r["parse_failure"] for r in rows] == [0.0, 0.0, 0.0, 0.0, 0.0, 1.0]
    assert means["accuracy"] == pytest.approx(1 / 6)
    assert means["f1"] == pytest.approx((1 + 2 / 3 + 0.8 + 0.5) / 6)  # 0.4944
    assert means["parse_failure"] == pytest.approx(1 / 6)


def test_manufacturing_technique_exact_set_and_f1():
    doc = _doc("manufacturing_technique", ["C", "D"])
    replies = [
        ("Lost-wax casting (C) and the coil technique (D) were both in use in the Classical period, so the answer is C, D."),
        "A, B, C, D",  # F1 2·2/(4+2)
        "**D**",  # F1 2·1/(1+2)
    ]
    means, rows = _mean_metrics(doc, replies)
    assert [r["accuracy"] for r in rows] == [1.0, 0.0, 0.0]
    assert [r["f1"] for r in rows] == pytest.approx([1.0, 2 / 3, 2 / 3])
    assert means["f1"] == pytest.approx(7 / 9)


def test_period_grouping_exact_set_and_jaccard():
    doc = _doc("period_grouping", ["A", "D", "E"], n_options=5)
    replies = [
        "A, D, E",
        "The three artifacts from the same period are A, C and E.",  # Jaccard |{A,E}| / |{A,C,D,E}|
        "A, D",  # two letters, not three: unparsed
        '{"answer": "B, C, D"}',  # Jaccard 1/5
    ]
    means, rows = _mean_metrics(doc, replies)
    assert [r["accuracy"] for r in rows] == [1.0, 0.0, 0.0, 0.0]
    assert [r["jaccard"] for r in rows] == pytest.approx([1.0, 0.5, 0.0, 0.2])
    assert [r["parse_failure"] for r in rows] == [0.0, 0.0, 1.0, 0.0]
    assert means["accuracy"] == pytest.approx(0.25) and means["jaccard"] == pytest.approx(1.7 / 4)


def test_style_period_accuracy_per_period():
    options = [PERIODS[5], PERIODS[1], PERIODS[3], PERIODS[0]]
    classical = _doc("style_period_attribution", "C", period=PERIODS[3], options=options)
    prehistoric = _doc("style_period_attribution", "D", period=PERIODS[0], options=options)
    rows = [
        utils.process_results(classical, ["C"]),
        utils.process_results(classical, ["The terracotta style suggests the Kushan era... **Answer: A**"]),
        utils.process_results(classical, ["C. Classical Period (200 BCE - 650 AD)"]),
        utils.process_results(prehistoric, ["D. Prehistoric Period"]),
    ]
    assert [r["accuracy"] for r in rows] == [1.0, 0.0, 1.0, 1.0]
    # Each question counts under its own period only (Table 9 rows); every period's key is on every
    # sample (None outside its period), so lmms-eval sizes the task by its samples in a group.
    periods = {k for k in rows[0] if k.startswith("period_acc_")}
    assert len(periods) == 8 and all({k for k in r if k.startswith("period_acc_")} == periods for r in rows)
    assert [[k for k in sorted(periods) if r[k] is not None] for r in rows] == [["period_acc_classical"]] * 3 + [["period_acc_prehistoric"]]
    assert mean_present([r["period_acc_classical"] for r in rows]) == pytest.approx(2 / 3)
    assert math.isnan(mean_present([r["period_acc_modern_india"] for r in rows]))  # no question of that period
    common = {
        "accuracy",
        "strict_match",
        "parse_failure",
        "image_failure",
        "period_distance",
        "period_bias",
        "period_distance_chance",
        "period_bias_chance",
    }
    assert all(set(r) - periods == common for r in rows)


def test_ordering_helpers_by_hand():
    assert has_ties([3, 0, 3, 2]) and not has_ties([0, 1, 2, 3])
    assert accepted_orders([3, 0, 3, 2]) == 2 and accepted_orders([1, 1, 1, 2]) == 6 and accepted_orders([0, 1, 2, 3]) == 1
    ranks = {"A": 3, "B": 0, "C": 3, "D": 2}
    assert rank_consistent_match(("B", "D", "C", "A"), ranks) == 1.0
    assert rank_consistent_match(("B", "D", "C"), ranks) == 0.0  # not a permutation
    assert rank_consistent_match(None, ranks) == 0.0


def test_random_baseline_writes_empty_set_as_parseable_none():
    # A uniform draw over the 16 subsets gives the empty set 1 time in 16; it must read back as the
    # empty set (a wrong answer), not as an unparseable reply.
    space = AnswerSpace("letter_set", n=4)
    doc = _doc("material_availability", ["C", "D"])
    result = utils.process_results(doc, [space.format(frozenset())])
    assert space.format(frozenset()) == "None"
    assert result == {"parse_failure": 0.0, "accuracy": 0.0, "strict_match": 0.0, "f1": 0.0, "image_failure": 0.0}
    assert not math.isnan(result["f1"])
