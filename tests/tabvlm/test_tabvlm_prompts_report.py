"""TAB-VLM prompts (Appendix B; metadata only in the C.5 variant), interleaved
chat messages, and the `chronotasks report tabvlm` table from hand-made
result files whose mean ± std is worked out by hand."""

import json

import pytest
from cli_errors import one_line_error
from PIL import Image

from chronotasks.benchmarks.tabvlm.schema import PERIODS, TASK_TYPES
from chronotasks.cli import main
from chronotasks.data.loading import load_task_docs
from chronotasks.tasks.tabvlm import utils


@pytest.fixture(scope="module")
def docs(demo_root):
    mp = pytest.MonkeyPatch()
    mp.setenv("CHRONOTASKS_DATA", str(demo_root))
    loaded = {t.question_type: load_task_docs("tabvlm", t.file)[0] for t in TASK_TYPES}
    mp.undo()
    return loaded


def test_prompts_follow_appendix_b_and_show_no_metadata(docs):
    seq = utils.doc_to_text(docs["chronological_sequence"], {"metadata": False})
    assert seq.startswith("Below are 4 historical artifacts from different time periods.\n\nQuestion: Arrange these artifacts")
    assert "A. <image>\n\nB. <image>\n\nC. <image>\n\nD. <image>" in seq
    assert seq.endswith('Provide the sequence from oldest to newest using letters (e.g., "A, C, B, D").')
    group = utils.doc_to_text(docs["period_grouping"])
    assert group.count("<image>") == 5 and group.endswith('(e.g., "A, C, E").')
    material = docs["material_availability"]
    text = utils.doc_to_text(material)
    assert text.count("<image>") == 1
    assert "choices:\nA. " + material["options"][0] + "\nB. " in text
    assert text.endswith('List all correct letters separated by commas (e.g., "A, C" if options A and C are correct).')
    for doc in docs.values():
        plain = utils.doc_to_text(doc, {"metadata": False})
        assert "Catalog metadata" not in plain and doc["object_types"][0] not in plain.replace(doc["question"], "")
        if doc["question_type"] != "style_period_attribution":  # the style options are periods by design
            assert not any(p in plain for p in PERIODS)


def test_metadata_variant_appends_object_type_and_material_only(docs):
    doc = docs["odd_one_out_period"]
    text = utils.doc_to_text(doc, {"metadata": True})
    tail = text.split("Catalog metadata:\n", 1)[1]
    assert tail.splitlines() == [
        f"- Artifact {ch}: object type: {o}; main material: {m}" for ch, o, m in zip("ABCD", doc["object_types"], doc["main_materials"])
    ]
    for doc in docs.values():
        assert not any(p in utils.doc_to_text(doc, {"metadata": True}).split("Catalog metadata:")[1] for p in PERIODS)


def test_chat_messages_interleave_every_image_in_order(docs):
    doc = docs["period_grouping"]
    content = utils.doc_to_messages(doc, {"metadata": False})[0]["content"]
    kinds = [part["type"] for part in content]
    assert kinds == ["text", "image", "text", "image", "text", "image", "text", "image", "text", "image", "text"]
    assert content[0]["text"].endswith("A. ") and content[2]["text"] == "\n\nB. "
    images = [part["url"] for part in content if part["type"] == "image"]
    expected = utils.doc_to_visual(doc)
    assert all(isinstance(im, Image.Image) for im in images)
    assert [im.tobytes() for im in images] == [im.tobytes() for im in expected]
    joined = "".join(p["text"] if p["type"] == "text" else "<image>" for p in content)
    assert joined == utils.doc_to_text(doc)


def _results_file(path, accs, extra=None, model="qwen2_5_vl", model_args="", parse_failures=None, n=100):
    shorts = ("style_period", "sequence", "technique", "material", "grouping", "odd_one_out")
    results = {
        f"tabvlm_{short}": {"accuracy,none": a, "parse_failure,none": (parse_failures or [0.0] * 6)[i]}
        for i, (short, a) in enumerate(zip(shorts, accs))
    }
    for task, values in (extra or {}).items():
        results[task].update(values)
    path.write_text(
        json.dumps(
            {
                "results": results,
                "config": {"model": model, "model_args": model_args},
                "n-samples": {t: {"original": n, "effective": n} for t in results},
            }
        )
    )
    return path


def test_report_mean_std_over_runs_by_hand(tmp_path, capsys):
    # Two runs. Run 1 overall = (0.6+0.3+0.5+0.9+0.3+0.5)/6 = 0.5167; run 2 = (0.5+0.1+0.4+0.8+0.2+0.3)/6 = 0.3833.
    # Mean 45.0, sample std = |51.67-38.33|/sqrt(2) = 9.43. Style: 55.0 ± 7.1 (|60-50|/sqrt 2).
    a = _results_file(tmp_path / "a_results.json", [0.6, 0.3, 0.5, 0.9, 0.3, 0.5], {"tabvlm_sequence": {"kendall_tau,none": 0.5}})
    b = _results_file(tmp_path / "b_results.json", [0.5, 0.1, 0.4, 0.8, 0.2, 0.3], {"tabvlm_sequence": {"kendall_tau,none": 0.3}})
    csv_path = tmp_path / "table.csv"
    assert main(["report", "tabvlm", str(a), str(b), "--label", "Qwen2.5-VL-7B", "--label", "Qwen2.5-VL-7B", "--csv", str(csv_path)]) == 0
    printed = capsys.readouterr().out
    assert (
        "| Qwen2.5-VL-7B | visual | 2 | 45.0 ± 9.4 (n=600) | 55.0 ± 7.1 (n=100) | 20.0 ± 14.1 (n=100) | 45.0 ± 7.1 (n=100) | "
        "85.0 ± 7.1 (n=100) | 25.0 ± 7.1 (n=100) | 40.0 ± 14.1 (n=100) | 0.0 (0/1200) |"
    ) in printed  # parse fail: 0 of 2 x 600
    assert "0.400 ± 0.141 (n=100)" in printed  # Kendall τ: mean 0.4, std 0.2/sqrt 2
    assert "visual+metadata" not in printed
    rows = csv_path.read_text().splitlines()
    header, row = rows[0].split(","), rows[1].split(",")
    assert row[:3] == ["Qwen2.5-VL-7B", "visual", "2"]
    assert float(row[header.index("Overall mean")]) == pytest.approx(45.0)
    assert float(row[header.index("Overall std")]) == pytest.approx(9.428, abs=1e-3)
    assert rows[1] in printed


def test_report_of_a_single_run_shows_no_spread(tmp_path, capsys):
    a = _results_file(tmp_path / "a_results.json", [0.6, 0.3, 0.5, 0.9, 0.3, 0.5])
    csv_path = tmp_path / "one.csv"
    assert main(["report", "tabvlm", str(a), "--csv", str(csv_path)]) == 0
    printed = capsys.readouterr().out
    assert "| qwen2_5_vl | visual | 1 | 51.7 ± n/a (n=600) | 60.0 ± n/a (n=100) | 30.0 ± n/a (n=100) |" in printed
    assert "± 0.0" not in printed
    header, row = (line.split(",") for line in csv_path.read_text().splitlines()[:2])
    assert row[header.index("Overall std")] == "" and float(row[header.index("Overall mean")]) == pytest.approx(51.6667, abs=1e-3)


def test_report_rejects_files_without_tabvlm_results(tmp_path, capsys):
    other = tmp_path / "x_results.json"
    other.write_text(json.dumps({"results": {"mme": {"accuracy,none": 0.5}}}))
    one_line_error(capsys, ["report", "tabvlm", str(other)], "none of the files has TAB-VLM task results")


def test_report_per_period_table_and_plot_by_hand(tmp_path, capsys):
    # Classical: 0.5 and 0.7 -> 60.0 ± 14.1 (|50-70|/sqrt 2); Prehistoric only in run 1 -> 100.0 ± n/a (one value
    # has no spread); others absent.
    _results_file(
        tmp_path / "a_results.json",
        [0.6] * 6,
        {"tabvlm_style_period": {"period_acc_classical,none": 0.5, "period_acc_prehistoric,none": 1.0}},
    )
    _results_file(tmp_path / "b_results.json", [0.4] * 6, {"tabvlm_style_period": {"period_acc_classical,none": 0.7}})
    png = tmp_path / "plots" / "periods.png"
    assert main(["report", "tabvlm", str(tmp_path), "--plot", str(png)]) == 0
    printed = capsys.readouterr().out
    header, _, row = printed.split("Table 9):\n\n", 1)[1].splitlines()[:3]
    assert header.startswith("| Model | Variant | Runs | Prehistoric Period | Bronze Age | Iron Age | Classical Period |")
    assert row == "| qwen2_5_vl | visual | 2 | 100.0 ± n/a (n=?) | – | – | 60.0 ± 14.1 (n=?) | – | – | – | – |"  # n: no samples
    assert png.read_bytes().startswith(b"\x89PNG") and png.stat().st_size > 1000


def test_report_never_merges_two_models(tmp_path, capsys):
    """`report tabvlm out/ out_const/` averaged chrono_constant and chrono_random into one
    row. Runs are grouped by model and model_args: two models are two rows; a model's runs are repeats."""
    (tmp_path / "out").mkdir(), (tmp_path / "out_const").mkdir()
    _results_file(tmp_path / "out" / "a_results.json", [0.2] * 6, model="chrono_random")
    _results_file(
        tmp_path / "out_const" / "b_results.json",
        [0.0] * 6,
        model="chrono_constant",
        model_args="answer=A",
        parse_failures=[1.0, 1.0, 0.0, 0.0, 0.0, 0.0],
    )
    _results_file(tmp_path / "out_const" / "c_results.json", [0.1] * 6, model="chrono_constant", model_args="answer=B")
    assert main(["report", "tabvlm", str(tmp_path / "out"), str(tmp_path / "out_const")]) == 0
    table1 = capsys.readouterr().out.split("Table 1", 1)[1].split("\n\n", 2)[1].splitlines()[2:]
    assert [line.split(" | ")[:4] for line in table1] == [
        ["| chrono_random", "visual", "1", "20.0 ± n/a (n=600)"],
        ["| ⚠ chrono_constant (answer=A)", "visual", "1", "0.0 ± n/a (n=600)"],
        ["| chrono_constant (answer=B)", "visual", "1", "10.0 ± n/a (n=600)"],
    ]
    # answer=A: two tasks with every reply unreadable are failed tasks, named in the row
    assert table1[1].endswith(
        "| 33.3 (200/600) | FAILED: tabvlm_style_period: unreadable replies 100% (100/100); "
        "tabvlm_sequence: unreadable replies 100% (100/100) |"
    )
    assert table1[0].endswith("| 0.0 (0/600) | ok |")


def test_report_plot_needs_per_period_metrics(tmp_path, capsys):
    a = _results_file(tmp_path / "a_results.json", [0.5] * 6)
    one_line_error(capsys, ["report", "tabvlm", str(a), "--plot", str(tmp_path / "x.png")], "period_acc")
    assert not (tmp_path / "x.png").exists()
