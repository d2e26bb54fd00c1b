"""lmms-eval's own table shows a count as a count and a 0-100 figure as such: ``tied_questions`` (how many
sequence questions have tied periods) carries no direction arrow and no standard error in both TAB-VLM
sequence tasks; ChronoVision's Table III figure 50 × (1 + τ) is named for its 0-100 scale (``tau_0_100``)
and gets no standard error computed from τ's 0-1 values."""

from __future__ import annotations

import pytest


@pytest.mark.slow
def test_counts_have_no_direction_or_stderr_and_the_0_100_figure_says_so(lmms_eval_run):
    data = lmms_eval_run(
        "--model",
        "chrono_random",
        "--tasks",
        "tabvlm_sequence,tabvlm_sequence_release,chronovision_artifacts_sort_intra",
        "--limit",
        "8",
    )
    results = data["results"]
    for task in ("tabvlm_sequence", "tabvlm_sequence_release"):
        assert data["higher_is_better"][task]["tied_questions"] is None, task
        figures = results[task]
        assert float(figures["tied_questions,none"]).is_integer(), task
        assert {figures[f"tied_questions_{kind},none"] for kind in ("stderr", "stderr_clt")} == {"N/A"}, task
    sort = results["chronovision_artifacts_sort_intra"]
    assert "tau_50,none" not in sort
    assert sort["tau_0_100,none"] == pytest.approx(50 * (1 + sort["tau,none"]))
    assert sort["tau_0_100_stderr_clt,none"] == "N/A" and isinstance(sort["tau_stderr_clt,none"], float)
