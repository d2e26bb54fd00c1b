"""`chronotasks export <benchmark> --format hf OUT` and reading such a copy back: every task gets the
same documents (same fields, same image bytes) from the copy as from the folder it was exported
from, and a baseline run scores identically. The hub path (CHRONOTASKS_DATA=hf://ORG/PREFIX) runs
the same `datasets.load_dataset` code on a local folder ORG/PREFIX-<benchmark> (no hub in tests)."""

import glob
import hashlib
import json
import os
from pathlib import Path

import datasets
import pytest
from PIL import Image

from chronotasks.check_data import _hook, discover
from chronotasks.cli import main
from chronotasks.data.loading import DataError, benchmark_dir

BENCHMARKS = ("chrono_demo", "tabvlm", "chronovision", "musebench", "tempviz")


@pytest.fixture(scope="module")
def exported(demo_root, tmp_path_factory):
    hub = tmp_path_factory.mktemp("hub")
    patch = pytest.MonkeyPatch()
    patch.setenv("CHRONOTASKS_DATA", str(demo_root))
    try:
        for benchmark in BENCHMARKS:
            assert main(["export", benchmark, "--format", "hf", str(hub / f"chronotasks-{benchmark}")]) == 0
    finally:
        patch.undo()
    return hub


def _portable(doc, folder: Path) -> dict:
    """A doc with local paths made relative to its benchmark folder, images as (path, sha256 of bytes)."""
    doc = dict(doc)
    doc["images"] = [(str(Path(p).relative_to(folder)), hashlib.sha256(Path(p).read_bytes()).hexdigest()) for p in doc.get("images") or []]
    for key in ("corpus", "corpus_root"):
        if key in doc:
            doc[key] = str(Path(doc[key]).relative_to(folder)) if doc[key] != str(folder) else "."
    return doc


def _all_docs(monkeypatch, data_root: str) -> dict:
    monkeypatch.setenv("CHRONOTASKS_DATA", data_root)
    tasks, _ = discover()
    found = {}
    for name, task in tasks.items():
        if task.benchmark in BENCHMARKS:
            folder = benchmark_dir(task.benchmark)
            found[name] = [_portable(doc, folder) for doc in _hook(task)(None)]
    return found


def test_every_task_reads_identical_docs_from_the_exported_copy(exported, demo_root, monkeypatch):
    original = _all_docs(monkeypatch, str(demo_root))
    copied = _all_docs(monkeypatch, f"hf://{exported}/chronotasks")
    assert len(original) >= 35 and set(copied) == set(original)
    for name in original:
        assert copied[name] == original[name], name
    folder = benchmark_dir("tabvlm")
    assert folder != demo_root / "tabvlm" and folder.is_relative_to(Path(os.environ["CHRONOTASKS_HOME"]))


def test_the_export_is_a_plain_hub_dataset_with_a_card(exported, demo_root):
    out = exported / "chronotasks-tabvlm"
    card = (out / "README.md").read_text()
    assert card.startswith("---\nlicense: other\n") and "- config_name: style_period" in card
    assert "On the Cultural Anachronism and Temporal Reasoning in Vision Language Models" in card
    assert "Museums of India" in card and "CHRONOTASKS_DATA=hf://ORG/PREFIX" in card
    assert sorted(datasets.get_dataset_config_names(str(out))) == sorted(
        ["style_period", "sequence", "technique", "material", "grouping", "odd_one_out"]
    )
    rows = datasets.load_dataset(str(out), name="sequence", split="test")
    assert isinstance(rows.features["images"], datasets.List) and isinstance(rows.features["images"].feature, datasets.Image)
    first = demo_root / "tabvlm" / rows[0]["image_paths"][0]
    assert len(rows) == 40 and rows[0]["image_paths"][0].startswith("images/")
    assert rows[0]["images"][0].tobytes() == Image.open(first).tobytes()
    musebench = json.loads((exported / "chronotasks-musebench" / "chronotasks_export.json").read_text())
    assert musebench["configs"]["retrieval--corpus_images"] == {"file": "retrieval/corpus_images.jsonl", "records": 24}
    assert musebench["source"]["kind"] == "demo"
    assert "not public" in (exported / "chronotasks-musebench" / "README.md").read_text()


def test_a_local_export_folder_under_a_plain_data_root_is_read_too(exported, tmp_path, monkeypatch):
    (tmp_path / "tabvlm").symlink_to(exported / "chronotasks-tabvlm")
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    folder = benchmark_dir("tabvlm")
    assert folder != tmp_path / "tabvlm" and (folder / "sequence.jsonl").is_file()


def test_export_refuses_to_overwrite_and_to_export_missing_images(exported, demo_root, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CHRONOTASKS_DATA", str(demo_root))
    assert main(["export", "chrono_demo", str(exported / "chronotasks-chrono_demo")]) == 1
    assert "exists and is not empty; choose another folder or pass --force" in capsys.readouterr().err
    broken = tmp_path / "chrono_demo"
    broken.mkdir()
    (broken / "pair.jsonl").write_text(json.dumps({"id": "p1", "images": ["images/nope.png"], "answer": "1"}) + "\n")
    assert main(["export", "chrono_demo", str(tmp_path / "out"), "--data", str(broken)]) == 1
    assert "pair.jsonl:1: record 'p1', field 'images': image file" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_a_copy_whose_paths_leave_its_folder_is_refused(tmp_path, monkeypatch):
    out = tmp_path / "evil-bench"
    (out / "t").mkdir(parents=True)
    datasets.Dataset.from_list([{"id": "a", "image_paths": ["../../outside.png"], "images": [{"bytes": b"x", "path": "x"}]}]).cast_column(
        "images", datasets.List(datasets.Image())
    ).to_parquet(str(out / "t" / "test-00000-of-00001.parquet"))
    (out / "README.md").write_text("---\nconfigs:\n- config_name: t\n  data_files:\n  - split: test\n    path: t/test-*.parquet\n---\n")
    monkeypatch.setenv("CHRONOTASKS_DATA", f"hf://{tmp_path}/evil")
    with pytest.raises(DataError, match=r"path '../../outside.png' points outside the data folder"):
        benchmark_dir("bench")
    monkeypatch.setenv("CHRONOTASKS_DATA", f"hf://{tmp_path}/missing")
    with pytest.raises(DataError, match=r"cannot read the bench data copy '.*missing-bench'"):
        benchmark_dir("bench")


def test_a_local_copy_exported_again_is_read_anew_not_from_the_datasets_cache(demo_root, tmp_path, monkeypatch):
    """`datasets` caches a local folder's dataset by name, not content: a folder exported again under
    the same name (same parquet size and all) must give the new records, not the cached old ones."""
    from chronotasks.data import hf_dataset

    data = tmp_path / "data" / "chrono_demo"
    import shutil

    shutil.copytree(demo_root / "chrono_demo", data)
    out = tmp_path / "hub" / "copy-chrono_demo"

    def export_and_read(answer):
        lines = [json.loads(line) for line in (data / "pair.jsonl").read_text().splitlines()]
        lines[0]["answer"] = answer
        (data / "pair.jsonl").write_text("".join(json.dumps(r) + "\n" for r in lines))
        assert main(["export", "chrono_demo", str(out), "--data", str(data), "--force"]) == 0
        hf_dataset._materialized.clear()  # a new process
        monkeypatch.setenv("CHRONOTASKS_DATA", f"hf://{tmp_path}/hub/copy")
        return (benchmark_dir("chrono_demo") / "pair.jsonl").read_text().splitlines()[0]

    assert json.loads(export_and_read("1"))["answer"] == "1"
    assert json.loads(export_and_read("2"))["answer"] == "2"


@pytest.mark.slow
def test_a_baseline_scores_identically_on_the_exported_copy(exported, demo_root, tmp_path, lmms_eval_runner):
    args = ("--model", "chrono_grayscale_prior", "--tasks", "tabvlm_chrono,chronovision_shortcut,musebench_vqa")
    local = lmms_eval_runner(*args, data_root=demo_root, output_path=tmp_path / "local")["results"]
    hub = lmms_eval_runner(
        *args, data_root=demo_root, output_path=tmp_path / "hub", extra_env={"CHRONOTASKS_DATA": f"hf://{exported}/chronotasks"}
    )["results"]
    assert local == hub
    assert local["chronovision_shortcut"]["ACC_1,none"] > local["chronovision_shortcut"]["ACC_2,none"]  # the images mattered
    assert glob.glob(str(tmp_path / "hub" / "**" / "*_results.json"), recursive=True)
