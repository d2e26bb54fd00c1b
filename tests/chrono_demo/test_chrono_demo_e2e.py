"""The foundation end to end: the real lmms-eval launcher runs a chronotasks
task on demo data with each baseline shim, found through the entry point."""

import pytest


@pytest.mark.slow
def test_chrono_demo_group_with_random_and_grayscale_prior(lmms_eval_run):
    results = lmms_eval_run("--model", "chrono_random", "--model_args", "seed=3", "--tasks", "chrono_demo")["results"]
    assert results["chrono_demo_period"]["parse_failure,none"] == 0.0
    assert results["chrono_demo_pair"]["parse_failure,none"] == 0.0
    # 40 four-option questions and 40 two-option questions, answered at random.
    assert 0.05 <= results["chrono_demo_period"]["accuracy,none"] <= 0.5
    assert 0.2 <= results["chrono_demo_pair"]["accuracy,none"] <= 0.8

    prior = lmms_eval_run("--model", "chrono_grayscale_prior", "--tasks", "chrono_demo_pair")["results"]
    # The demo draws the earlier image gray in ~80% of pairs (and the later one in the rest),
    # so the saturation prior is right exactly on those pairs.
    assert prior["chrono_demo_pair"]["accuracy,none"] == pytest.approx(34 / 40)
