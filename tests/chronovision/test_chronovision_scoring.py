"""ChronoVision scoring: composite S against Table III, the grayscale transform
pixel by pixel, the shortcut metrics and the task hooks on hand-worked outputs."""

import math

import cv2
import numpy as np
import pytest

from chronotasks.benchmarks.chronovision.grayscale import gray_image, to_gray_bgr, trial_images
from chronotasks.benchmarks.chronovision.paper_tables import TABLE_III
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.composite import chronovision_composite, tau_from_table
from chronotasks.scoring.letters import parse_letter
from chronotasks.scoring.order_parsing import parse_index_ordering
from chronotasks.scoring.shortcut import confidence_bin, shortcut_metrics


@pytest.mark.parametrize("model", TABLE_III.models)
def test_composite_reproduces_table_iii_overall_score(model):
    f = dict(zip(TABLE_III.columns, TABLE_III.rows[model]))
    scores = chronovision_composite(
        f["ACC_A"] / 100,
        tau_from_table(f["50 × (1 + τ)"]),
        f["ACC_B"] / 100,
        f["Δ_ACC"] / 100,
        f["ACC_Y"] / 100,
        f["MAE"],
        f["ACC_M"] / 100,
    )
    assert scores["S"] * 100 == pytest.approx(f["Score"], abs=0.05)


def test_composite_components_hand_worked():
    # ACC_A .5, tau 0 -> S_A = .5(.5+.5) = .5; ACC_B .8, delta -.25 -> S_S = .8*.75 = .6;
    # ACC_Y .4, MAE 20 -> .4*.75 = .3, ACC_M .5 -> S_N = .4; S = 1.5/3 = .5
    s = chronovision_composite(0.5, 0.0, 0.8, -0.25, 0.4, 20.0, 0.5)
    assert s == pytest.approx({"S_A": 0.5, "S_S": 0.6, "S_N": 0.4, "S": 0.5})


def test_the_tasks_terms_add_up_to_s():
    """S is defined once (chronovision_composite); each task's term is S with the other tasks' parts at
    zero, and the group's sum of the terms is S: checked on Table III's rows, τ split into two levels."""
    from chronotasks.scoring.composite import localization_term, multimodal_term, shortcut_term, sorting_term, year_term

    assert localization_term(0.5) == pytest.approx(0.5 / 6) and multimodal_term(0.3) == pytest.approx(0.3 / 6)
    assert sorting_term(0.2) == pytest.approx(1.2 / 12) and year_term(0.4, 20.0) == pytest.approx(0.4 * 0.75 / 6)
    for model in TABLE_III.models:
        f = {c: v / 100 for c, v in zip(TABLE_III.columns, TABLE_III.rows[model])}
        tau = tau_from_table(100 * f["50 × (1 + τ)"])
        intra, cross = tau + 0.1, tau - 0.1  # the two sort levels, τ their mean
        terms = (
            localization_term(f["ACC_A"])
            + sorting_term(intra) / 2
            + sorting_term(cross) / 2
            + shortcut_term(f["ACC_B"], f["Δ_ACC"])
            + year_term(f["ACC_Y"], 100 * f["MAE"])
            + multimodal_term(f["ACC_M"])
        )
        s = chronovision_composite(f["ACC_A"], tau, f["ACC_B"], f["Δ_ACC"], f["ACC_Y"], 100 * f["MAE"], f["ACC_M"])["S"]
        assert terms == pytest.approx(s, abs=1e-12), model


def test_every_aggregation_a_yaml_names_is_defined_by_that_name():
    """`!function utils.x` in a ChronoVision YAML finds `x` by grep: a def, an assignment or an import in utils.py."""
    import ast
    import re
    from pathlib import Path

    from chronotasks.tasks import TASKS_DIR

    folder = Path(TASKS_DIR) / "chronovision"
    source = (folder / "utils.py").read_text(encoding="utf-8")
    defined = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef):
            defined.add(node.name)
        elif isinstance(node, ast.Assign):
            defined |= {n.id for t in node.targets for n in ast.walk(t) if isinstance(n, ast.Name)}
        elif isinstance(node, ast.ImportFrom):
            defined |= {a.asname or a.name for a in node.names}
    named = {m for path in folder.glob("*.yaml") for m in re.findall(r"!function utils\.(\w+)", path.read_text(encoding="utf-8"))}
    assert len(named) > 60 and named <= defined, sorted(named - defined)
    assert "globals()" not in source


# OpenCV's fixed-point BT.601 luma: Y = (wB*B + wG*G + wR*R + 2^(s-1)) >> s, the weights being
# 0.114 / 0.587 / 0.299 scaled by 2^s. OpenCV 4.x uses s = 14 (1868, 9617, 4899), OpenCV 5.x s = 15
# (3735, 19235, 9798); the two differ by one grey level on ~0.3% of colours.
OPENCV_LUMA = {4: (14, 1868, 9617, 4899), 5: (15, 3735, 19235, 9798)}


def test_grayscale_is_opencv_bt601_fixed_point_pixel_exact(tmp_path):
    shift, wb, wg, wr = OPENCV_LUMA[min(5, int(cv2.__version__.split(".")[0]))]
    assert (wb / 2**shift, wg / 2**shift, wr / 2**shift) == pytest.approx((0.114, 0.587, 0.299), abs=1e-4)
    v = np.arange(256**3, dtype=np.int64)  # every 24-bit colour once
    bgr = np.stack([v & 255, (v >> 8) & 255, (v >> 16) & 255], -1).astype(np.uint8).reshape(4096, 4096, 3)
    b, g, r = (bgr[..., i].astype(np.int64) for i in range(3))
    expected = (b * wb + g * wg + r * wr + (1 << (shift - 1))) >> shift
    out = to_gray_bgr(bgr)
    assert out.shape == bgr.shape and out.dtype == np.uint8
    for channel in range(3):
        assert np.array_equal(out[..., channel], expected.astype(np.uint8))
    assert np.abs(expected - (0.114 * b + 0.587 * g + 0.299 * r)).max() <= 0.51
    del v, b, g, r, out
    rng = np.random.default_rng(0)
    bgr = rng.integers(0, 256, size=(37, 53, 3), dtype=np.uint8)
    bgr[0, :3] = [[255, 255, 255], [0, 0, 0], [255, 0, 0]]
    b, g, r = (bgr[..., i].astype(np.int64) for i in range(3))
    expected = (b * wb + g * wg + r * wr + (1 << (shift - 1))) >> shift
    assert to_gray_bgr(bgr)[0, 2, 0] == 29  # pure blue: 0.114 * 255 = 29.07

    # Through the file cache: decoded, converted, cached as PNG, read back identical.
    path = tmp_path / "colour.png"
    cv2.imwrite(str(path), bgr)
    first = np.asarray(gray_image(path, tmp_path / "cache"))
    assert len(list((tmp_path / "cache").rglob("*.png"))) == 1
    second = np.asarray(gray_image(path, tmp_path / "cache"))
    assert np.array_equal(first[..., 0], expected.astype(np.uint8)) and np.array_equal(first, second)
    colour, gray = trial_images([str(path), str(path)], [False, True], tmp_path / "cache")
    assert np.array_equal(np.asarray(colour)[..., ::-1], bgr) and np.array_equal(np.asarray(gray), first)


def test_shortcut_metrics_hand_worked():
    items = [
        {"condition": "color", "category": "sports", "correct": 1},
        {"condition": "color", "category": "sports", "correct": 0},
        {"condition": "gray_earlier", "category": "sports", "correct": 1},
        {"condition": "gray_earlier", "category": "sports", "correct": 1},
        {"condition": "gray_later", "category": "sports", "correct": 0},
        {"condition": "gray_later", "category": "sports", "correct": 1},
        {"condition": "color", "category": "politics", "correct": 1},
        {"condition": "gray_earlier", "category": "politics", "correct": 1},
        {"condition": "gray_later", "category": "politics", "correct": 0},
    ]
    assert shortcut_metrics(items) == pytest.approx({"ACC_B": 2 / 3, "ACC_1": 1.0, "ACC_2": 1 / 3, "delta_ACC": 2 / 3})
    assert shortcut_metrics(items, category="sports") == pytest.approx({"ACC_B": 0.5, "ACC_1": 1.0, "ACC_2": 0.5, "delta_ACC": 0.5})
    assert math.isnan(shortcut_metrics(items, category="diversity")["ACC_B"])


def test_parsers():
    assert parse_index_ordering("2,1,3,0", 4) == (2, 1, 3, 0)
    assert parse_index_ordering("The order is 1, 0, 2, 3.", 4) == (1, 0, 2, 3)
    assert parse_index_ordering("C, B, D, A", 4) == (2, 1, 3, 0)
    assert parse_index_ordering("2,1,3", 4) is None and parse_index_ordering("2,1,3,3", 4) is None
    options = ["Ming", "Tang", "Qing", "Yuan", "Song"]
    assert parse_letter("C", len(options), options) == "C"
    assert parse_letter("Qing", len(options), options) == "C"
    assert parse_letter("The answer is Song dynasty.", len(options), options) == "E"
    assert parse_letter("Ming or Qing", len(options), options) is None
    assert [confidence_bin(c) for c in (0, 59, 60, 94.5, 95, 100, 101, None)] == [
        "0-59",
        "0-59",
        "60-69",
        "90-94",
        "95-100",
        "95-100",
        None,
        None,
    ]


# ---- hooks of utils.py on hand-worked outputs ---------------------------------------------------
PAIR = AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier").to_json()


@pytest.fixture(scope="module")
def utils():
    from chronotasks.tasks.chronovision import utils as module

    return module


def test_localization_hooks(utils):
    doc = {
        "options": ["Ming", "Tang", "Qing", "Yuan", "Song"],
        "answer": "C",
        "dynasty": "Qing",
        "category": "jade",
        "answer_space": AnswerSpace("letter", n=5).to_json(),
    }
    replies = ["C", "Qing", "A", "no idea"]  # right, right (constant baseline style), wrong, unparsed
    results = [utils.loc_process_results(doc, [r]) for r in replies]
    assert [r["ACC_A"] for r in results] == [1.0, 1.0, 0.0, 0.0]
    assert [r["parse_failure"] for r in results] == [0.0, 0.0, 0.0, 1.0]
    other = utils.loc_process_results({**doc, "answer": "B", "dynasty": "Tang", "category": "coin"}, ["B"])
    items = [r["acc_qing"] for r in results] + [other["acc_tang"]]
    assert utils.acc_dynasty_qing(items) == 0.5 and utils.acc_dynasty_tang(items) == 1.0
    assert utils.acc_category_jade(items) == 0.5 and utils.acc_category_coin(items) == 1.0
    assert utils.loc_share([r["composite_S"] for r in results]) == pytest.approx(0.5 / 6)
    # the release ships no artifacts scorer: S_release's term is our reading, so our parse failure marks it too
    unread = [utils.loc_process_results(doc, ["no idea"]) for _ in range(3)] + results[:1]
    assert math.isnan(utils.loc_share([r["composite_S_release"] for r in unread]))
    assert utils.loc_share([r["composite_S_release"] for r in results]) == pytest.approx(0.5 / 6)


def test_sort_hooks(utils):
    doc = {"gold_order": [0, 2, 1, 3], "n": 4, "answer_space": AnswerSpace("ordering", n=4, base=0).to_json()}
    exact = utils.sort_process_results(doc, ["0,2,1,3"])
    swapped = utils.sort_process_results(doc, ["2,0,1,3"])  # one discordant pair of 6: tau = (5-1)/6
    failed = utils.sort_process_results(doc, ["I cannot tell"])
    assert (exact["tau"], exact["exact_order"]) == (1.0, 1.0)
    assert swapped["tau"] == pytest.approx(2 / 3) and swapped["exact_order"] == 0.0
    assert failed["tau"] == 0.0 and failed["parse_failure"] == 1.0
    taus = [exact["tau"], swapped["tau"], failed["tau"]]  # mean 5/9
    assert utils.tau_0_100([r["tau_0_100"] for r in (exact, swapped, failed)]) == pytest.approx(50 * (1 + 5 / 9))
    assert utils.sort_share(taus) == pytest.approx((1 + 5 / 9) / 2 / 12)
    release_terms = [r["composite_S_release"] for r in (exact, swapped, failed)]
    assert utils.sort_share(release_terms) == pytest.approx((1 + 5 / 9) / 2 / 12)
    assert math.isnan(utils.sort_share([r["composite_S_release"] for r in (exact, failed, failed)]))


def test_shortcut_hooks(utils):
    def run(condition, category, answer, reply):
        return utils.shortcut_process_results(
            {"condition": condition, "category": category, "answer": answer, "answer_space": PAIR}, [reply]
        )

    out = [
        run("color", "sports", "1", '```json\n{"thinking": "...", "answer": "1"}\n```'),
        run("gray_earlier", "sports", "2", '{"answer": 2}'),
        run("gray_later", "sports", "1", '{"answer": "2"}'),
        run("gray_later", "sports", "2", "not JSON"),
    ]
    items = [o["ACC_B"] for o in out]
    assert utils.shortcut_ACC_B(items) == 1.0 and utils.shortcut_ACC_1(items) == 1.0 and utils.shortcut_ACC_2(items) == 0.0
    assert utils.shortcut_delta_ACC_sports(items) == 1.0
    assert [o["parse_failure"] for o in out] == [0.0, 0.0, 0.0, 1.0]
    assert utils.shortcut_share(items) == 0.0  # ACC_B * (1 - |1|)
    cot = utils.shortcut_cot_process_results(
        {"condition": "color", "category": "sports", "answer": "2", "answer_space": PAIR},
        ['{"time_anchors": {"1": "a"}, "historical_context": "x", "reasoning_path": "y", "bias_mitigation": "unchanged", "answer": "2"}'],
    )
    assert cot["ACC_B"]["correct"] == 1.0 and "composite_S" not in cot


def test_news_hooks(utils):
    doc = {"year": 2010, "answer_space": AnswerSpace("year", lo=1946, hi=2025).to_json()}
    out = [utils.news_year_process_results(doc, [r]) for r in ("2010", "Year: 2012", "1990", "unknown")]
    assert [o["ACC_Y"] for o in out] == [1.0, 0.0, 0.0, 0.0]
    assert [o["within_3"] for o in out] == [1.0, 1.0, 0.0, 0.0]
    assert [o["within_1"] for o in out] == [1.0, 0.0, 0.0, 0.0]
    assert utils.mae([o["MAE"] for o in out]) == pytest.approx((0 + 2 + 20) / 3)  # MAE over parsed replies
    # ACC_Y .25 * (1 - (22/3)/80) / 6
    assert utils.news_year_share([o["composite_S"] for o in out]) == pytest.approx(0.25 * (1 - 22 / 3 / 80) / 6)
    mm = {"answer": "3", "answer_space": AnswerSpace("choice", choices=("1", "2", "3", "4"), key="answer").to_json()}
    read = [
        utils.news_multimodal_process_results(mm, [r])["ACC_M"]
        for r in (
            '{"answer": "3"}',
            "3",
            "Image 3 was taken in 2019, so the answer is 3 rather than 1.",
            '{"answer": "2"}',
            "Image 3 shows 2019 and Image 1 shows 2001.",
        )
    ]
    # the answer a grader reads ("3 rather than 1" is 3); a digit merely mentioned is no answer (unlike the release script)
    assert read == [1.0, 1.0, 1.0, 0.0, 0.0]
    conf = [
        utils.news_year_confidence_process_results(doc, [r])
        for r in ('{"year": 2010, "confidence": 96}', '{"year": 2011, "confidence": 97}', '{"year": 2000, "confidence": 75}')
    ]
    items = [c["acc_conf_95_100"] for c in conf]
    assert utils.conf_n_95_100(items) == 2.0 and utils.conf_acc_95_100(items) == 0.5 and utils.conf_within1_95_100(items) == 1.0
    assert utils.conf_acc_70_79(items) == 0.0 and math.isnan(utils.conf_acc_60_69(items))


def test_group_sums_shares(utils):
    assert utils.sum_of_shares([0.1, 0.05, 0.2], [10, 20, 30], False) == pytest.approx(0.35)
