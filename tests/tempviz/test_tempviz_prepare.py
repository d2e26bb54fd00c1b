"""`chronotasks prepare tempviz` on the release CSVs: counts against Table 1, record fields."""

import json
import subprocess
import sys

import pytest

from chronotasks.benchmarks.tempviz.prepare import prepare
from chronotasks.benchmarks.tempviz.records import read_category_csv
from chronotasks.data.loading import DataError, read_jsonl


@pytest.fixture(scope="module")
def prepared(seed_data, tmp_path_factory):
    out = tmp_path_factory.mktemp("tempviz_prepared")
    return out, prepare(seed_data / "tempviz" / "tempviz", out)


def test_counts_match_table1(prepared):
    _, report = prepared
    # Table 1: 460 / 712 / 284 / 256 / 273 prompts x 4 paraphrases = 7,940
    assert {c: r["prompts"] for c, r in report.items()} == {
        "Landscapes": 1840,
        "Animals": 2848,
        "Buildings": 1136,
        "Maps": 1024,
        "Artworks": 1092,
    }
    assert sum(r["prompts"] for r in report.values()) == 7940
    assert all(r["matches"] for r in report.values())


@pytest.fixture(scope="module")
def prepared_excerpt(release_excerpts, tmp_path_factory):
    out = tmp_path_factory.mktemp("tempviz_excerpt")
    return out, prepare(release_excerpts / "tempviz" / "tempviz", out)


def test_record_fields(prepared_excerpt):
    out, _ = prepared_excerpt
    animals = {r["id"]: r for r in read_jsonl(out / "animals.jsonl")}
    first = animals["Animals-0"]
    assert first["prompt"] == "Create a photorealistic image of an Aardvark that is one month old."
    assert first["prompt_body"] == "a photorealistic image of an Aardvark that is one month old."
    assert (first["subject"], first["temporal_cue"], first["temporal_kind"], first["imperative"]) == (
        "Aardvark",
        "one month old",
        "youth",
        "Create",
    )
    # Table 8, "1 month" expected values
    assert first["expected_values"][:3] == ["tiny", "soft", "infant"]
    assert first["reference_images"] == ["http://commons.wikimedia.org/wiki/Special:FilePath/Porc%20formiguer.JPG"]
    assert first["images"] == [] and json.loads(first["answer_space"]) == {"kind": "text"}
    landscapes = read_jsonl(out / "landscapes.jsonl")
    assert landscapes[0]["temporal_cue"] == "in january" and landscapes[0]["subject"] == "a forest"
    assert not any(r["prompt"].endswith(" ") for r in landscapes)  # the release has 1,760 trailing spaces
    maps = read_jsonl(out / "maps.jsonl")
    assert (maps[0]["subject"], maps[0]["temporal_cue"]) == ("map of europe", "1914")
    art = {r["temporal_kind"]: r for r in read_jsonl(out / "artworks.jsonl")}
    assert art["period"]["temporal_cue"] == art["period"]["subject"]
    assert art["year"]["temporal_cue"].endswith(("AC", "BC"))
    for name in ("landscapes", "animals", "buildings", "maps", "artworks"):
        assert all(r["temporal_cue"] for r in read_jsonl(out / f"{name}.jsonl")), name


def test_bad_csv_names_file_and_line(tmp_path):
    bad = tmp_path / "Animals.csv"
    bad.write_text("index,prompt,subject\n0,Create a photorealistic image of a Fox that is one month old.,Fox\n1,,Fox\n")
    with pytest.raises(DataError, match=r"Animals.csv:3 \(index 1\): field 'prompt' is empty"):
        read_category_csv(bad, "Animals")


def test_cli_prints_table1_comparison(seed_data, tmp_path, monkeypatch):
    from chronotasks.tasks import TASKS_DIR

    repo = TASKS_DIR.parents[1]
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "chronotasks.cli",
            "prepare",
            "tempviz",
            "--source",
            str(seed_data / "tempviz"),
            "--out",
            str(tmp_path / "tv"),
            "--categories",
            "Maps",
        ],
        capture_output=True,
        text=True,
        cwd=repo,
        env={"PYTHONPATH": str(repo), "PATH": "/usr/bin:/bin"},
    )
    assert proc.returncode == 0, proc.stderr
    assert "Maps" in proc.stdout and "1024" in proc.stdout
    assert len(read_jsonl(tmp_path / "tv" / "maps.jsonl")) == 1024
