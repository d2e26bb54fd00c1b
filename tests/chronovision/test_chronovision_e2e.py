"""The real lmms-eval launcher on the chronovision group: demo data, the
grayscale-prior baseline on the shortcut tasks, and release files prepared with
stand-in images."""

import pytest

from chronotasks.data.chronovision.demo import write_standin_images
from chronotasks.data.chronovision.prepare import join_release

TASK_METRICS = {
    "chronovision_artifacts_loc": ["ACC_A", "acc_qing", "acc_jade", "composite_S"],
    "chronovision_artifacts_sort_intra": ["tau", "tau_50", "exact_order"],
    "chronovision_artifacts_sort_cross": ["tau", "tau_50", "exact_order"],
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
def test_group_on_demo_and_grayscale_prior(lmms_eval_run):
    results = lmms_eval_run("--model", "chrono_random", "--tasks", "chronovision")["results"]
    _check_group(results)

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
