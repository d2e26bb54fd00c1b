"""`chronotasks report chronovision` on result files written by hand, with the
expected cells (and S) worked out by hand from the values chosen here."""

import csv
import json

import pytest
from cli_errors import one_line_error

from chronotasks.cli import main

CATEGORIES = ("sports", "politics", "emergency", "electronics", "diversity")  # Table IV's order


def _write(path, tasks, model="qwen3_vl", model_args=""):
    """A results JSON holding ``{task: {metric: value}}`` as lmms-eval writes it (``"<metric>,none"``)."""
    results = {task: {f"{metric},none": value for metric, value in metrics.items()} for task, metrics in tasks.items()}
    path.write_text(json.dumps({"results": results, "config": {"model": model, "model_args": model_args}}))
    return path


# S_A = ½(0.40 + (1 + 0.3)/2) = 0.525 (τ = mean of 0.2 and 0.4); S_S = 0.80 · (1 − 0.30) = 0.56;
# S_N = ½(0.50 · (1 − 4/80) + 0.30) = 0.3875; S = (0.525 + 0.56 + 0.3875)/3 = 0.490833.
FULL_RUN = {
    "chronovision_artifacts_loc": {"ACC_A": 0.40, "acc_tang": 0.10, "acc_qing": 0.55, "acc_jade": 0.25, "acc_lacquerware": 1.0},
    "chronovision_artifacts_sort_intra": {"tau": 0.2},
    "chronovision_artifacts_sort_cross": {"tau": 0.4},
    "chronovision_shortcut": {
        "ACC_B": 0.80,
        "ACC_1": 0.90,
        "ACC_2": 0.60,
        "delta_ACC": 0.30,
        **{f"delta_ACC_{c}": d for c, d in zip(CATEGORIES, (0.1, 0.2, 0.3, 0.4, -0.5))},
        "ACC_B_sports": 0.7,
        "ACC_1_sports": 0.6,
        "ACC_2_sports": 0.5,
    },
    "chronovision_shortcut_cot": {"delta_ACC_politics": 0.05},
    "chronovision_news_year": {"ACC_Y": 0.50, "MAE": 4.0},
    "chronovision_news_multimodal": {"ACC_M": 0.30},
}
TABLE3_FULL = (
    "| qwen3_vl (pretrained=x) | 40.00 | 0.300 | 65.00 | 80.00 | 90.00 | 60.00 | 30.00 | 50.00 | 4.00 | 30.00"
    " | 52.50 | 56.00 | 38.75 | 49.08 |"
)


def _table(printed, title):
    """Header and rows (lists of cells) of the markdown table printed under the line starting with ``title``."""
    lines = printed.split("\n" + title, 1)[1].split("\n\n", 2)[1].splitlines()
    cells = [[c.strip() for c in line.strip("|").split("|")] for line in lines]
    return cells[0], cells[2:]


def test_table3_row_and_composite_by_hand(tmp_path, capsys):
    full = _write(tmp_path / "a_results.json", FULL_RUN, model_args="pretrained=x")
    # Only the shortcut run: S_S = 0.6 · (1 − 0.1) = 0.54; no news or artifacts, so S_A, S_N and S are missing.
    part = _write(
        tmp_path / "b_results.json", {"chronovision_shortcut": {"ACC_B": 0.6, "ACC_1": 0.7, "ACC_2": 0.6, "delta_ACC": 0.1}}, model="gpt"
    )
    assert main(["report", "chronovision", str(full), str(part)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("Table III")
    assert TABLE3_FULL in printed
    assert "| gpt | – | – | – | 60.00 | 70.00 | 60.00 | 10.00 | – | – | – | – | 54.00 | – | – |" in printed


def test_table4_and_localization_rows(tmp_path, capsys):
    assert main(["report", "chronovision", str(_write(tmp_path / "a_results.json", FULL_RUN))]) == 0
    printed = capsys.readouterr().out
    header, rows = _table(printed, "Table IV")
    assert header[:6] == ["Model", "Prompt", "Sports ACC_B", "Sports ACC_1", "Sports ACC_2", "Sports Δ_ACC"]
    plain, cot = (dict(zip(header, row)) for row in rows)
    assert [plain["Model"], plain["Prompt"], cot["Prompt"]] == ["qwen3_vl", "plain", "CoT"]
    assert [plain[f"Sports {m}"] for m in ("ACC_B", "ACC_1", "ACC_2", "Δ_ACC")] == ["70.00", "60.00", "50.00", "10.00"]
    assert [plain[f"{c.capitalize()} Δ_ACC"] for c in CATEGORIES] == ["10.00", "20.00", "30.00", "40.00", "-50.00"]
    assert cot["Politics Δ_ACC"] == "5.00" and cot["Sports Δ_ACC"] == "–"
    header, rows = _table(printed, "Localization accuracy")
    loc = dict(zip(header, rows[0]))
    shown = [loc[c] for c in ("Tang", "Song", "Qing", "Jade", "Lacquerware", "Coin")]
    assert shown == ["10.00", "–", "55.00", "25.00", "100.00", "–"]


def test_csv_and_plot_are_written(tmp_path, capsys):
    (tmp_path / "runs").mkdir()
    full = _write(tmp_path / "runs" / "a_results.json", FULL_RUN)
    _write(tmp_path / "runs" / "b_results.json", {"chronovision_artifacts_loc": {"ACC_A": 0.2, "acc_song": 0.3}}, model="gpt")
    out_csv, png = tmp_path / "table.csv", tmp_path / "plots" / "chronovision.png"
    assert (
        main(
            [
                "report",
                "chronovision",
                str(tmp_path / "runs"),
                "--label",
                "Qwen3-VL",
                "--label",
                "GPT",
                "--csv",
                str(out_csv),
                "--plot",
                str(png),
            ]
        )
        == 0
    )
    rows = list(csv.DictReader(out_csv.open(encoding="utf-8")))
    assert [r["model"] for r in rows] == ["Qwen3-VL", "GPT"] and rows[0]["file"] == str(full)
    assert float(rows[0]["S"]) == pytest.approx(49.0833, abs=1e-4)
    assert float(rows[0]["τ"]) == pytest.approx(0.3) and float(rows[0]["MAE"]) == 4.0
    assert float(rows[0]["plain Diversity Δ_ACC"]) == -50.0 and float(rows[0]["CoT Politics Δ_ACC"]) == 5.0
    assert rows[1]["S"] == "" and float(rows[1]["Song"]) == 30.0 and rows[1]["plain Sports ACC_B"] == ""
    assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 1000
    assert f"plot: {png}" in capsys.readouterr().out


def test_errors_name_the_file_and_field(tmp_path, capsys):
    bad_json = tmp_path / "x_results.json"
    bad_json.write_text("{not json")
    one_line_error(capsys, ["report", "chronovision", str(bad_json)], "x_results.json: not an lmms-eval results JSON")
    text_metric = _write(tmp_path / "y_results.json", {"chronovision_artifacts_loc": {"ACC_A": "N/A"}})
    one_line_error(
        capsys,
        ["report", "chronovision", str(text_metric)],
        r"y_results.json: results\['chronovision_artifacts_loc'\]\['ACC_A,none'\] is 'N/A'",
    )
    other = _write(tmp_path / "z_results.json", {"mme": {"accuracy": 0.5}})
    one_line_error(capsys, ["report", "chronovision", str(other)], "no.*ChronoVision.*z_results.json")
    one_line_error(
        capsys,
        ["report", "chronovision", str(_write(tmp_path / "w_results.json", FULL_RUN)), "--label", "a", "--label", "b"],
        "--label given 2 times for 1 results files",
    )
    (tmp_path / "empty").mkdir()
    one_line_error(capsys, ["report", "chronovision", str(tmp_path / "empty")], "no \\*_results.json under .*empty")
    one_line_error(
        capsys,
        [
            "report",
            "chronovision",
            str(_write(tmp_path / "v_results.json", {"chronovision_news_year": {"ACC_Y": 0.1}})),
            "--plot",
            str(tmp_path / "p.png"),
        ],
        "nothing to plot.*v_results.json",
    )


def test_failed_tasks_samples_and_failure_rates(tmp_path, capsys):
    """Each run's samples per task and failure rates; a run whose shortcut replies were all unreadable is marked."""
    path = _write(
        tmp_path / "c_results.json",
        {"chronovision_artifacts_loc": {"ACC_A": 0.4, "parse_failure": 0.1}, "chronovision_shortcut": {"ACC_B": 0.0, "parse_failure": 1.0}},
        model="chrono_constant",
        model_args="answer=A",
    )
    data = json.loads(path.read_text())
    data["n-samples"] = {"chronovision_artifacts_loc": {"effective": 30}, "chronovision_shortcut": {"effective": 60}}
    path.write_text(json.dumps(data))
    assert main(["report", "chronovision", str(path)]) == 0
    header, rows = _table("\n" + capsys.readouterr().out, "Table III")
    assert header[-3:] == ["samples (loc/sort/shortcut/year/multi)", "parse fail", "status"]
    assert rows[0][0] == "⚠ chrono_constant (answer=A)"
    # 3 of 30 + 60 of 60 replies unreadable: 63 of 90
    assert rows[0][-3:] == ["30/?/60/?/?", "70.0 (63/90)", "FAILED: chronovision_shortcut: unreadable replies 100% (60/60)"]
