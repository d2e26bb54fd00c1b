"""The real lmms-eval launcher on the chronovision group: demo data, the
grayscale-prior baseline on the shortcut tasks, release files prepared with
stand-in images, and `chronotasks report chronovision` on a real run's output."""

import csv

import pytest

from chronotasks.benchmarks.chronovision import DYNASTIES, SPEED_CATEGORIES
from chronotasks.benchmarks.chronovision.demo import write_standin_images
from chronotasks.benchmarks.chronovision.prepare import join_release
from chronotasks.cli import main

TASK_METRICS = {
    "chronovision_artifacts_loc": ["ACC_A", "acc_qing", "acc_jade", "composite_S"],
    "chronovision_artifacts_sort_intra": ["tau", "tau_0_100", "exact_order"],
    "chronovision_artifacts_sort_cross": ["tau", "tau_0_100", "exact_order"],
    "chronovision_shortcut": ["ACC_B", "ACC_1", "ACC_2", "delta_ACC", "ACC_1_sports", "delta_ACC_diversity"],
    "chronovision_shortcut_cot": ["ACC_B", "ACC_1", "ACC_2", "delta_ACC"],
    "chronovision_news_year": ["ACC_Y", "MAE", "within_1", "within_3"],
    "chronovision_news_multimodal": ["ACC_M"],
}


def _check_group(results):
    for task, metrics in TASK_METRICS.items():
        for metric in metrics:
            assert f"{metric},none" in results[task], (task, metric)
        assert results[task].get("parse_failure,none", 0.0) == 0.0
    shares = sum(results[t]["composite_S,none"] for t in TASK_METRICS if "composite_S,none" in results[t])
    assert results["chronovision"]["composite_S,none"] == pytest.approx(shares)
    assert 0.0 < results["chronovision"]["composite_S,none"] < 1.0


@pytest.mark.slow
def test_group_on_demo_and_grayscale_prior(chronovision_random_run, lmms_eval_run):
    _check_group(chronovision_random_run[1]["results"])

    prior = lmms_eval_run("--model", "chrono_grayscale_prior", "--tasks", "chronovision_shortcut,chronovision_shortcut_cot")["results"]
    for task in ("chronovision_shortcut", "chronovision_shortcut_cot"):
        # The gray image is always picked as earlier: right when it is the earlier one, wrong otherwise.
        assert prior[task]["ACC_1,none"] == 1.0
        assert prior[task]["ACC_2,none"] == 0.0
        assert prior[task]["delta_ACC,none"] == 1.0


@pytest.mark.slow
def test_group_on_prepared_release(seed_data, tmp_path, lmms_eval_run):
    images = tmp_path / "images"
    write_standin_images(seed_data / "chronovision", images, seed=1)
    report = join_release(seed_data / "chronovision", images, tmp_path / "data" / "chronovision", seed=0)
    assert report["missing"] == [] and report["counts"]["artifacts_loc.jsonl"] == 877
    results = lmms_eval_run("--model", "chrono_random", "--tasks", "chronovision", data_root=tmp_path / "data")["results"]
    _check_group(results)
    assert 0.1 < results["chronovision_artifacts_loc"]["ACC_A,none"] < 0.3  # 5 options at random
    assert abs(results["chronovision_artifacts_sort_cross"]["tau,none"]) < 0.1


@pytest.mark.slow
def test_report_on_the_run_output_matches_its_results(chronovision_random_run, tmp_path, capsys):
    out, data = chronovision_random_run
    results = data["results"]
    table, png = tmp_path / "table.csv", tmp_path / "plot.png"
    assert main(["report", "chronovision", str(out), "--csv", str(table), "--plot", str(png)]) == 0
    printed = capsys.readouterr().out
    (row,) = list(csv.DictReader(table.open(encoding="utf-8")))
    loc, shortcut = results["chronovision_artifacts_loc"], results["chronovision_shortcut"]
    intra, cross = results["chronovision_artifacts_sort_intra"], results["chronovision_artifacts_sort_cross"]
    expected = {  # column -> value in the results JSON, at the table's scale
        "S": 100 * results["chronovision"]["composite_S,none"],  # the group's sum of shares = S from the columns
        "τ": (intra["tau,none"] + cross["tau,none"]) / 2,
        "50×(1+τ)": (intra["tau_0_100,none"] + cross["tau_0_100,none"]) / 2,
        "ACC_A": 100 * loc["ACC_A,none"],
        "ACC_B": 100 * shortcut["ACC_B,none"],
        "ACC_1": 100 * shortcut["ACC_1,none"],
        "ACC_2": 100 * shortcut["ACC_2,none"],
        "Δ_ACC": 100 * shortcut["delta_ACC,none"],
        "ACC_Y": 100 * results["chronovision_news_year"]["ACC_Y,none"],
        "MAE": results["chronovision_news_year"]["MAE,none"],
        "ACC_M": 100 * results["chronovision_news_multimodal"]["ACC_M,none"],
        **{d: 100 * loc[f"acc_{d.lower()},none"] for d in DYNASTIES},
        **{f"CoT {c.capitalize()} Δ_ACC": 100 * results["chronovision_shortcut_cot"][f"delta_ACC_{c},none"] for c in SPEED_CATEGORIES},
    }
    for column, value in expected.items():
        assert float(row[column]) == pytest.approx(value, abs=1e-4), column
    markdown_row = next(line for line in printed.splitlines() if line.startswith("| chrono_random |"))
    # S, then the samples per task, the failure rates and (no task failed) no status column
    n = {t: data["n-samples"][t]["effective"] for t in data["n-samples"]}
    samples = (
        f"{n['chronovision_artifacts_loc']}/{n['chronovision_artifacts_sort_intra'] + n['chronovision_artifacts_sort_cross']}/"
        f"{n['chronovision_shortcut']}/{n['chronovision_news_year']}/{n['chronovision_news_multimodal']}"
    )
    total = sum(n[t] for t in n if t != "chronovision_shortcut_cot")
    assert markdown_row.endswith(f"| {expected['S']:.2f} | {samples} | 0.0 (0/{total}) | 0.0 (0/{total}) |")
    assert f"| {expected['ACC_A']:.2f} | {expected['τ']:.3f} | {expected['50×(1+τ)']:.2f} |" in markdown_row
    assert png.stat().st_size > 1000
