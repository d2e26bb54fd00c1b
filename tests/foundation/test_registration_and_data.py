"""Registration with lmms-eval (no patching) and data-loading errors."""

import json
import os
import subprocess
import sys

import pytest

from chronotasks.data.loading import DataError, load_task_docs, open_image
from chronotasks.tasks import TASKS_DIR

REPO_ROOT = TASKS_DIR.parents[1]


def _lmms_eval(*args, env_extra=None):
    env = {**os.environ, "PYTHONPATH": str(REPO_ROOT), **(env_extra or {})}
    return subprocess.run([sys.executable, "-m", "lmms_eval", *args], env=env, capture_output=True, text=True, timeout=300)


def test_model_entry_point_resolves_every_shim():
    from lmms_eval.models import get_model

    for name, cls in [
        ("chrono_random", "RandomBaseline"),
        ("chrono_constant", "ConstantBaseline"),
        ("chrono_grayscale_prior", "GrayscalePriorBaseline"),
    ]:
        assert get_model(name).__name__ == cls


def test_lmms_eval_models_lists_the_shims_with_the_plugin_variable():
    listing = _lmms_eval("models", env_extra={"LMMS_EVAL_PLUGINS": "chronotasks"}).stdout
    for name in ("chrono_random", "chrono_constant", "chrono_grayscale_prior"):
        assert name in listing


def test_lmms_eval_tasks_lists_demo_tasks_with_include_path():
    listing = _lmms_eval("tasks", "--include-path", str(TASKS_DIR)).stdout
    for name in ("chrono_demo", "chrono_demo_period", "chrono_demo_pair"):
        assert f"  {name}\n" in listing


def test_missing_data_names_the_command_that_prepares_it(tmp_path, monkeypatch):
    monkeypatch.delenv("CHRONOTASKS_DATA", raising=False)
    monkeypatch.setenv("CHRONOTASKS_HOME", str(tmp_path / "home"))
    with pytest.raises(DataError) as info:
        load_task_docs("tabvlm", "sequence.jsonl")
    message = str(info.value)
    assert "\n" not in message
    assert f"{tmp_path / 'home' / 'data' / 'tabvlm' / 'sequence.jsonl'} does not exist (the default data root" in message
    assert "prepare it with `chronotasks prepare tabvlm" in message
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    with pytest.raises(DataError, match=r"chrono_demo/period.jsonl does not exist \(\$CHRONOTASKS_DATA=.*`chronotasks demo-data"):
        load_task_docs("chrono_demo", "period.jsonl")
    with pytest.raises(DataError, match=r"MuseBench is not public"):
        load_task_docs("musebench", "vqa.jsonl")


def test_malformed_record_and_missing_image_are_named(tmp_path, monkeypatch):
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    folder = tmp_path / "bench"
    folder.mkdir()
    (folder / "bad.jsonl").write_text('{"id": "q1", "images": []}\n{"id": "q2", "images": [\n')
    with pytest.raises(DataError, match=r"bad.jsonl:2: not valid JSON"):
        load_task_docs("bench", "bad.jsonl")
    (folder / "lacking.jsonl").write_text(json.dumps({"id": "q7"}) + "\n")
    with pytest.raises(DataError, match=r"lacking.jsonl:1: record 'q7' lacks field\(s\) answer"):
        load_task_docs("bench", "lacking.jsonl", required=("id", "answer"))
    (folder / "ok.jsonl").write_text(json.dumps({"id": "q9", "images": ["images/gone.png"], "meta": {"a": 1}}) + "\n")
    docs = load_task_docs("bench", "ok.jsonl")
    assert json.loads(docs[0]["meta"]) == {"a": 1}
    with pytest.raises(DataError, match=r"record 'q9', field 'images': image file .*gone.png does not exist"):
        open_image(docs[0]["images"][0], "q9")
    (folder / "images").mkdir()
    (folder / "images" / "gone.png").write_text("not a png")
    with pytest.raises(DataError, match=r"record 'q9', field 'images': image file .*gone.png is not a readable image"):
        open_image(docs[0]["images"][0], "q9")


def test_demo_data_is_deterministic(tmp_path):
    from chronotasks.benchmarks import write_demo_data

    write_demo_data(tmp_path / "a", seed=5, benchmarks=["chrono_demo"])
    write_demo_data(tmp_path / "b", seed=5, benchmarks=["chrono_demo"])
    for name in ("period.jsonl", "pair.jsonl", "images/pair_003_1.png"):
        assert (tmp_path / "a" / "chrono_demo" / name).read_bytes() == (tmp_path / "b" / "chrono_demo" / name).read_bytes()


def test_demo_data_goes_to_the_default_root_but_never_over_prepared_data(tmp_path, monkeypatch, capsys):
    from chronotasks.cli import main
    from chronotasks.data.writing import write_marker

    monkeypatch.delenv("CHRONOTASKS_DATA", raising=False)
    monkeypatch.setenv("CHRONOTASKS_HOME", str(tmp_path / "home"))
    assert main(["demo-data", "--benchmarks", "chrono_demo"]) == 0
    root = tmp_path / "home" / "data"
    assert len(load_task_docs("chrono_demo", "period.jsonl")) == 40 and (root / "chrono_demo" / "period.jsonl").is_file()
    assert "The tasks read it from there" in capsys.readouterr().out
    write_marker(root / "chrono_demo", "release", source="a real release")
    before = (root / "chrono_demo" / "period.jsonl").read_bytes()
    assert main(["demo-data", "--benchmarks", "chrono_demo"]) == 1
    assert "hold(s) prepared release data; demo data would replace it" in capsys.readouterr().err
    assert (root / "chrono_demo" / "period.jsonl").read_bytes() == before
    assert main(["demo-data", "--benchmarks", "chrono_demo", "--force"]) == 0
    # task files with no record of what wrote them (an older chronotasks, a hand-made copy) are kept too
    (root / "chrono_demo" / "chronotasks_data.json").unlink()
    before = (root / "chrono_demo" / "period.jsonl").read_bytes()
    assert main(["demo-data", "--benchmarks", "chrono_demo"]) == 1
    assert "hold(s) task files that demo-data did not write; demo data would replace it" in capsys.readouterr().err
    assert (root / "chrono_demo" / "period.jsonl").read_bytes() == before
