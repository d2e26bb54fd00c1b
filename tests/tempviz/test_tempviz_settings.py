"""Settings checked when the backend starts: a judge naming a model that is not there, a few-shot
file that is missing, a cache folder that cannot be written are one line and exit status 1 before
anything is generated (before: exceptions during scoring, lmms-eval's exit status 0, or a judge
failure counted for every image)."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import lmms_eval_fork
import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    from tempviz_tiny import build_all

    return build_all(tmp_path_factory.mktemp("tiny_models"))


@pytest.fixture
def blocked(tmp_path) -> Path:
    """A folder that cannot be made: its parent is a file (root ignores permission bits)."""
    (tmp_path / "a_file").write_text("not a folder\n")
    return tmp_path / "a_file" / "cache"


def test_judge_settings_are_named_when_wrong(tiny, tmp_path, blocked):
    from chronotasks.benchmarks.tempviz.judges import JudgeConfig, check_settings

    good = {"judge": "clipscore", "judge_model": str(tiny["clip"]), "judge_cache_dir": str(tmp_path / "cache")}
    check_settings(JudgeConfig.from_mapping(good))
    cases = {
        "judge_model='/no/such/clip': no such folder": {**good, "judge_model": "/no/such/clip"},
        "judge_model='nobody/no-such-model': not a local folder, and not in the Hugging Face cache": {
            **good,
            "judge_model": "nobody/no-such-model",
        },
        f"judge_cache_dir='{blocked}' cannot be written": {**good, "judge_cache_dir": str(blocked)},
        "judge_shots=3 needs judge_fewshot_file": {
            "judge": "vlm_direct",
            "judge_model": "gpt-4o",
            "judge_shots": "3",
            "judge_cache_dir": str(tmp_path / "cache"),
        },
        f"judge_fewshot_file='{tmp_path / 'shots.jsonl'}': no such file": {
            "judge": "vlm_direct",
            "judge_model": "gpt-4o",
            "judge_shots": "3",
            "judge_fewshot_file": str(tmp_path / "shots.jsonl"),
            "judge_cache_dir": str(tmp_path / "cache"),
        },
        "judge 'vlm_direct' needs judge_model": {"judge": "vlm_direct", "judge_cache_dir": str(tmp_path / "cache")},
    }
    for message, settings in cases.items():
        with pytest.raises(ValueError) as caught:
            check_settings(JudgeConfig.from_mapping(settings))
        assert message in str(caught.value) and "\n" not in str(caught.value), (message, str(caught.value))
    (tmp_path / "shots.jsonl").write_text(json.dumps({"image": "x.png", "prompt": "p", "reply": "Yes."}) + "\n")
    with pytest.raises(ValueError, match="1 exemplars, judge_shots=3"):
        check_settings(JudgeConfig.from_mapping({**cases[f"judge_fewshot_file='{tmp_path / 'shots.jsonl'}': no such file"]}))


def test_backend_settings_are_checked_before_the_pipeline_loads(tiny, tmp_path, blocked):
    from chronotasks.data.errors import SettingsError
    from chronotasks.model_shims.chrono_diffusers import DiffusersT2I, settings_problem

    out = str(tmp_path / "out")
    assert settings_problem(str(tiny["sd"]), out, {"judge_model": str(tiny["clip"])}) is None
    assert settings_problem("/no/such/sd", out, {}) == "pretrained='/no/such/sd': no such folder"
    assert settings_problem(str(tiny["sd"]), str(blocked), {}).startswith(f"output_dir='{blocked}' cannot be written")
    assert (
        settings_problem(str(tiny["sd"]), out, {"judge_fewshot_file": "/no/shots.jsonl"})
        == "judge_fewshot_file='/no/shots.jsonl': no such file"
    )
    # an API judge's model is the server's name, not a hub id to look up
    assert settings_problem(str(tiny["sd"]), out, {"judge_model": "Qwen/Qwen2.5-VL-7B-Instruct", "judge_base_url": "http://x/v1"}) is None
    assert "not in the Hugging Face cache" in settings_problem(str(tiny["sd"]), out, {"judge_model": "Qwen/Qwen2.5-VL-7B-Instruct"})
    with pytest.raises(SettingsError) as caught:
        DiffusersT2I(pretrained=str(tiny["sd"]), output_dir=out, judge="clipscore", judge_cache_dir=str(blocked))
    assert caught.value.code.startswith("chronotasks: error: chrono_diffusers: judge_cache_dir=")


@pytest.mark.slow
@pytest.mark.parametrize("bad", ["judge_model=/no/such/clip", "judge_fewshot_file=/no/such/shots.jsonl", "judge_cache_dir=BLOCKED"])
def test_lmms_eval_exits_1_with_one_line_before_generating(bad, tiny, demo_root, tmp_path, blocked):
    from chronotasks.tasks import TASKS_DIR

    bad = bad.replace("BLOCKED", str(blocked))
    images = tmp_path / "images"
    model_args = (
        f"pretrained={tiny['sd']},num_inference_steps=2,height=64,width=64,output_dir={images},"
        f"judge=clipscore,judge_model={tiny['clip']},{bad}"
    )
    env = {
        **os.environ,
        "CHRONOTASKS_DATA": str(demo_root),
        "HF_HUB_OFFLINE": "1",
        "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), os.environ.get("PYTHONPATH", "")]),
    }
    done = lmms_eval_fork.run(
        [
            "--model",
            "chrono_diffusers",
            "--model_args",
            model_args,
            "--tasks",
            "tempviz_animals",
            "--limit",
            "2",
            "--include_path",
            TASKS_DIR,
            "--output_path",
            tmp_path / "out",
        ],
        env,
        tmp_path,
        600,
    )
    key = bad.split("=", 1)[0]
    assert done.returncode == 1, done.stderr[-3000:]
    assert done.stderr.strip().splitlines()[-1].startswith(f"chronotasks: error: chrono_diffusers: {key}="), done.stderr[-2000:]
    assert not list(images.rglob("*.png"))  # nothing generated
