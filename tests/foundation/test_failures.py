"""chronotasks.failures: which failure rates make a task's figures not a result."""

import pytest

from chronotasks.failures import DEFAULT_MAX_FAILURE, MAX_FAILURE_ENV, failed_metrics, max_failure_rate


def test_over_the_default_half_fails_at_half_stands(monkeypatch):
    monkeypatch.delenv(MAX_FAILURE_ENV, raising=False)
    assert max_failure_rate() == DEFAULT_MAX_FAILURE == 0.5
    # 3 of 4 judgements failed, 1 of 5 replies unreadable, 2 of 4 images missing (exactly half: stands)
    assert failed_metrics({"judge_failure": 3 / 4, "parse_failure": 1 / 5, "image_failure": 2 / 4}) == ["judge_failure"]
    assert failed_metrics({"parse_failure": 1.0, "image_failure": 1.0}) == ["parse_failure", "image_failure"]
    assert failed_metrics({"accuracy": 0.0}) == []


def test_the_threshold_is_set_by_the_environment_or_the_caller(monkeypatch):
    monkeypatch.setenv(MAX_FAILURE_ENV, "0.1")
    assert failed_metrics({"parse_failure": 0.2}) == ["parse_failure"]
    assert failed_metrics({"parse_failure": 0.2}, threshold=1.0) == []
    for bad in ("abc", "1.5", "-0.1", "nan"):
        monkeypatch.setenv(MAX_FAILURE_ENV, bad)
        with pytest.raises(ValueError, match=MAX_FAILURE_ENV):
            max_failure_rate()
