"""The quickstart's report puts a run in context,
rendered from real lmms-eval runs on the demo data and checked against values worked out by hand
from the records and the logged replies: our reading and the release code's side by side with their
n, the chance level of each headline, the papers' published rows, how far off in time (distance,
chance distance), the confusion matrices and the News-Year signed-error histogram.

Two runs, on a copy of the demo data with the image of the first Style-Period question deleted (so the
release's denominator differs from ours: it leaves that question out, we score it wrong):
- ``chrono_random`` on the quickstart's tasks (read from examples/quickstart.sh; MuseBench VQA left out:
  its BERTScore model is exercised by tests/musebench);
- ``chrono_constant`` answering "1 or 3" on tabvlm_style_period_release: a careful grader reads no answer,
  the release code reads option 1.
"""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
from report_page import row, table

from chronotasks.cli import main

REPO_ROOT = Path(__file__).resolve().parents[2]
# the eight periods of TAB-VLM's Table 2, oldest first, as the option texts begin
TABVLM_PERIODS = ("Prehistoric", "Bronze Age", "Iron Age", "Classical", "Early Medieval", "Late Medieval", "Early Modern", "Modern India")
DYNASTIES = ("Tang", "Song", "Yuan", "Ming", "Qing")


def quickstart_tasks() -> list[str]:
    script = (REPO_ROOT / "examples" / "quickstart.sh").read_text(encoding="utf-8")
    return re.search(r'TASKS="\$\{1:-([^}]*)\}"', script).group(1).split(",")


def _samples(out: Path) -> dict[str, list[dict]]:
    found = {}
    for path in out.rglob("*_samples_*.jsonl"):
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
        found[path.stem.split("_samples_", 1)[1]] = sorted(rows, key=lambda s: s["doc_id"])
    return found


def _records(root: Path, benchmark: str, name: str) -> list[dict]:
    return [json.loads(line) for line in (root / benchmark / name).read_text(encoding="utf-8").splitlines()]


@pytest.fixture(scope="module")
def page(demo_root, lmms_eval_runner, tmp_path_factory):
    root = tmp_path_factory.mktemp("context")
    data = root / "data"
    shutil.copytree(demo_root, data)
    style = _records(data, "tabvlm", "style_period.jsonl")
    (data / "tabvlm" / style[0]["images"][0]).unlink()  # used by this question only
    tasks = [t for t in quickstart_tasks() if t != "musebench_vqa"]
    assert "tabvlm_chrono_release" in tasks  # the quickstart runs the release protocol
    lmms_eval_runner("--model", "chrono_random", "--tasks", ",".join(tasks), "--log_samples", data_root=data, output_path=root / "random")
    lmms_eval_runner(
        "--model",
        "chrono_constant",
        "--model_args",
        "answer=1 or 3",
        "--tasks",
        "tabvlm_style_period_release",
        "--log_samples",
        data_root=data,
        output_path=root / "hedge",
    )
    assert main(["report", str(root / "random"), str(root / "hedge"), "--out", str(root / "report")]) == 0
    return {
        "page": (root / "report" / "report.md").read_text(encoding="utf-8"),
        "out": root / "report",
        "data": data,
        "random": _samples(root / "random"),
        "hedge": _samples(root / "hedge"),
    }


def _number(cell: str) -> float:
    return float(cell.split(" ")[0])


def _size(cell: str) -> str:
    return cell.rsplit("(", 1)[1].rstrip(")")


@pytest.mark.slow
def test_our_reading_and_the_release_reading_side_by_side(page):
    text, style = page["page"], _records(page["data"], "tabvlm", "style_period.jsonl")
    ours, release = page["random"]["tabvlm_style_period"], page["random"]["tabvlm_style_period_release"]
    assert [s["target"] for s in ours] == [r["answer"] for r in style]  # doc_id = the records' order
    # ours, letter prompts: the reply letter is the gold letter; question 0's image is gone: scored wrong
    right = sum(s["filtered_resps"] == s["target"] for s in ours[1:])
    # release prompts: the reply is an option number; the release leaves question 0 out (39 counted)
    right_release = sum(int(s["filtered_resps"]) == "ABCD".index(s["target"]) + 1 for s in release[1:])
    rows = table(text, "Table 1 (accuracy")
    visual = row(rows, "chrono_random", "visual")[3]
    assert _number(visual) == round(100 * right / 40, 1) and _size(visual) == "n=40"
    our_release = row(rows, "chrono_random", "release prompts, our reading")[3]
    assert _number(our_release) == round(100 * right_release / 40, 1) and _size(our_release) == "n=40"
    read_by_release = row(rows, "chrono_random", "release prompts, release reading")[3]
    assert _number(read_by_release) == round(100 * right_release / 39, 1) and _size(read_by_release) == "n=39/40 counted"
    # "1 or 3": we read no answer (all wrong, a failed task); the release reads option 1
    gold_a = sum(r["answer"] == "A" for r in style[1:])
    hedge_ours = row(rows, "⚠ chrono_constant (answer=1 or 3)", "release prompts, our reading")
    assert hedge_ours[3] == "–" and hedge_ours[-1].startswith("FAILED: tabvlm_style_period_release: unreadable")
    hedge_release = row(rows, "⚠ chrono_constant (answer=1 or 3)", "release prompts, release reading")[3]
    assert _number(hedge_release) == round(100 * gold_a / 39, 1) and _size(hedge_release) == "n=39/40 counted"
    assert 0 < gold_a < 39
    # ChronoVision: the release scripts' reading in its own row, "–" where the release has no scorer
    results = json.loads(next((page["out"].parent / "random").rglob("*_results.json")).read_text())["results"]
    cv = table(text, "Table III (")
    release_row = row(cv, "chrono_random", "release")
    assert release_row[2:4] == ["–", "–"]
    assert _number(release_row[4]) == round(100 * results["chronovision_shortcut"]["ACC_B_release,none"], 1)
    assert "- **release prompts, release reading**: " in text and "- **counted**: " in text


@pytest.mark.slow
def test_chance_levels_from_the_answer_spaces(page):
    text = page["page"]
    # TAB-VLM: one of 4 letters; one of 4! orders; one of 2^4 subsets (twice); 3 of 5 (C(5,3) = 10); one of 4 letters
    tasks = [1 / 4, 1 / 24, 1 / 16, 1 / 16, 1 / 10, 1 / 4]
    chance = row(table(text, "Table 1 (accuracy"), "*chance*")
    assert chance[2:9] == [f"{100 * sum(tasks) / 6:.1f}", "25.0", "4.2", "6.2", "6.2", "10.0", "25.0"]
    assert chance[2] == "12.8"  # the paper's own Random row
    # ChronoVision: 5 dynasties; a random order (τ = 0); "1" or "2"; Δ 0; one year of 1946-2025 (80); 4 photos;
    # MAE: the expected |random year - true year| over the run's 120 News-Year questions
    years = [r["year"] for r in _records(page["data"], "chronovision", "news_year.jsonl")]
    mae = sum(sum(abs(x - y) for x in range(1946, 2026)) / 80 for y in years) / len(years)
    s_a, s_s, s_n = (0.2 + (1 + 0) / 2) / 2, 0.5 * (1 - 0), (1 / 80 * (1 - mae / 80) + 0.25) / 2  # §V.C
    cv = row(table(text, "Table III ("), "*chance*")
    assert cv[2:12] == [
        "20.0",
        "0.000",
        "50.0",
        "50.0",
        "50.0",
        "0.0",
        f"{100 / 80:.1f}",
        f"{mae:.2f}",
        "25.0",
        f"{100 * (s_a + s_s + s_n) / 3:.1f}",
    ]
    assert row(table(text, "Artifact localization accuracy per dynasty"), "*chance*")[1:6] == ["20.0"] * 5
    assert "- **chance**: " in text


@pytest.mark.slow
def test_the_papers_rows_beside_the_tables(page):
    text = page["page"]
    title = "Published rows — Ranjan et al., TAB-VLM, Table 1 "
    assert f"\n{title}" in text and "**on demo data this comparison is meaningless**" in text.split(title, 1)[1].split("\n")[0]
    assert row(table(text, title), "GPT-5.2")[1:] == ["58.7", "65.0", "37.2", "56.0", "92.1", "45.2", "57.1"]
    assert row(table(text, title), "Random")[1:] == ["12.8", "25.0", "4.2", "6.25", "6.25", "10.0", "25.0"]
    # Table III prints 50 × (1 + τ): Gemini's 64.05 is τ = 64.05 / 50 − 1 = 0.281
    gemini = row(table(text, "Published rows — Zhou et al., Seeing Time (ChronoVision), Table III "), "Gemini-2.5-Pro")
    assert gemini[1:4] == ["44.23", "0.281", "86.25"] and gemini[-1] == "67.17"
    # where the random model falls: below Table 1's lowest model row (Qwen2-VL-2B, 19.7)
    overall = _number(row(table(text, "Table 1 (accuracy"), "chrono_random", "visual")[2])
    assert overall < 19.7
    assert f"- chrono_random · visual: Overall {overall:.1f} — below all 10 model rows (lowest: Qwen2-VL-2B 19.7)" in text


@pytest.mark.slow
def test_how_far_off_in_time_and_the_confusion_matrices(page):
    text, data = page["page"], page["data"]
    style = _records(data, "tabvlm", "style_period.jsonl")

    def rank(option: str) -> int:
        return next(i for i, p in enumerate(TABVLM_PERIODS) if option.startswith(p))

    # by hand: the period of the chosen option, or unread (question 0: its image is gone)
    expected = {p: [0] * 9 for p in TABVLM_PERIODS}
    offsets, chance = [], []
    for record, sample in zip(style, page["random"]["tabvlm_style_period"]):
        gold = rank(record["period"])
        chance.append(sum(abs(rank(o) - gold) for o in record["options"]) / 4)
        if record is style[0]:
            expected[TABVLM_PERIODS[gold]][8] += 1
            continue
        chosen = rank(record["options"]["ABCD".index(sample["filtered_resps"])])
        expected[TABVLM_PERIODS[gold]][chosen] += 1
        offsets.append(chosen - gold)
    matrix = table(text, "Confusion matrix — chrono_random, tabvlm_style_period (")
    for name, counts in expected.items():
        found = next(r for r in matrix if r[0].startswith(name))
        assert [int(c) for c in found[1:]] == counts + [sum(counts)], name
    distances = row(table(text, "Style-Period Attribution: how far off in time"), "chrono_random", "tabvlm_style_period")
    assert distances[2].startswith(f"{sum(map(abs, offsets)) / 39:.2f} [") and _size(distances[2]) == "n=39/40 answered"
    assert distances[3].startswith(f"{sum(chance) / 40:.2f} [") and _size(distances[3]) == "n=40"
    assert distances[4].startswith(f"{sum(offsets) / 39:.2f} [")
    # the hedge: no answer read on any question, so every question sits in "unread"
    hedge = table(text, "Confusion matrix — chrono_constant (answer=1 or 3), tabvlm_style_period_release (")
    for name in TABVLM_PERIODS:
        n = sum(rank(r["period"]) == TABVLM_PERIODS.index(name) for r in style)
        assert [int(c) for c in next(r for r in hedge if r[0].startswith(name))[1:]] == [0] * 8 + [n, n]
    # ChronoVision localization: options are dynasty names
    loc = _records(data, "chronovision", "artifacts_loc.jsonl")
    cells = {d: [0] * 6 for d in DYNASTIES}
    for record, sample in zip(loc, page["random"]["chronovision_artifacts_loc"]):
        cells[record["dynasty"]][DYNASTIES.index(record["options"]["ABCDE".index(sample["filtered_resps"])])] += 1
    matrix = table(text, "Confusion matrix — chrono_random, chronovision_artifacts_loc (")
    assert {r[0]: [int(c) for c in r[1:-1]] for r in matrix} == cells
    assert "- **unread**: " in text and "- **distance**: " in text


@pytest.mark.slow
def test_the_year_error_histogram(page):
    years = [r["year"] for r in _records(page["data"], "chronovision", "news_year.jsonl")]
    errors = [int(s["filtered_resps"]) - year for s, year in zip(page["random"]["chronovision_news_year"], years)]

    def bin_of(e: int) -> int:  # < −20, −20…−11, −10…−6, −5…−2, −1, 0, +1, +2…+5, +6…+10, +11…+20, > +20
        edges = (-21, -11, -6, -2, -1, 0, 1, 5, 10, 20)
        return next((i for i, edge in enumerate(edges) if e <= edge), 10)

    counts = [0] * 11
    for e in errors:
        counts[bin_of(e)] += 1
    histogram = row(table(page["page"], "Signed year error"), "chrono_random", "chronovision_news_year")
    assert [int(c) for c in histogram[2:]] == counts + [0, 120]
    assert 0 < counts[0] < 120
    # and the News-Year distance is the MAE of the same errors
    distance = row(table(page["page"], "News-Year: how far off in time"), "chrono_random", "chronovision_news_year")[2]
    assert distance.startswith(f"{sum(map(abs, errors)) / 120:.2f} [")


@pytest.mark.slow
def test_plots_and_files(page):
    out = page["out"]
    for name in (
        "tabvlm_headlines.png",
        "chronovision_headlines.png",
        "per_period_accuracy.png",
        "time_offsets.png",
        "period_confusion.png",
        "year_errors.png",
    ):
        assert (out / name).read_bytes().startswith(b"\x89PNG") and f"]({name})" in page["page"], name
    published = (out / "published_rows.csv").read_text(encoding="utf-8")
    assert 'tabvlm,"Ranjan et al., TAB-VLM",Table 1,GPT-5.2,Overall,Overall Accuracy,58.7' in published
    assert 'chronovision,"Zhou et al., Seeing Time (ChronoVision)",Table III,Gemini-2.5-Pro,τ,50 × (1 + τ),0.281\n' in published
    with open(out / "tabvlm.csv", encoding="utf-8") as handle:
        chance = [r for r in csv.DictReader(handle) if r["model"] == "chance"]
    assert [(r["column"], r["value"], r["questions"]) for r in chance][:2] == [
        ("Overall", "12.7778", ""),
        ("Style-Period Attribution", "25.0", ""),
    ]
