"""The `chronotasks` command as a new user meets it: help written for users, every
error one line with exit status 1, and the backends' --model_args listed and checked from one source."""

from __future__ import annotations

import inspect
import os
import re
import subprocess
import sys

import lmms_eval_fork
import pytest
from cli_errors import one_line_error

from chronotasks.cli import main


def test_top_level_help_is_for_users(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    text = capsys.readouterr().out
    assert "this file only routes" not in text and "``" not in text  # was the module's docstring
    assert "chronotasks report out/ --out report/" in text and "chronotasks models" in text
    for command in ("demo-data", "prepare", "check-data", "report", "audit", "models", "new-benchmark"):
        assert re.search(rf"\n    {command}\s", text), command


def test_report_of_a_missing_folder_is_one_line(tmp_path, capsys):
    one_line_error(
        capsys, ["report", str(tmp_path / "nonexistent")], f"^chronotasks report: error: {tmp_path / 'nonexistent'} does not exist\n$"
    )


def test_report_without_a_run_asks_for_run_dir(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["report"])
    assert exit_.value.code == 1
    err = capsys.readouterr().err
    assert err == "chronotasks report: error: the following arguments are required: RUN_DIR (see `chronotasks report --help`)\n"


def test_a_usage_error_is_one_line_with_exit_1(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["no-such-command"])
    assert exit_.value.code == 1 and capsys.readouterr().err.count("\n") == 1


def test_check_data_prints_each_problem_once_and_a_bad_json_line_in_full(demo_root, tmp_path):
    """Each problem once (the loader's own warnings repeated them), and a JSON error with its column and what
    to do ("Invalid control character at" stopped there)."""
    import shutil

    shutil.copytree(demo_root / "tabvlm", tmp_path / "tabvlm")
    first = (tmp_path / "tabvlm" / "style_period.jsonl").read_text().splitlines()[0]
    import json

    image = json.loads(first)["images"][0]
    (tmp_path / "tabvlm" / image).unlink()
    lines = (tmp_path / "tabvlm" / "sequence.jsonl").read_text().splitlines()
    lines[2] = lines[2].replace('"question": "', '"question": "a\ttab: ', 1)
    (tmp_path / "tabvlm" / "sequence.jsonl").write_text("\n".join(lines) + "\n")
    env = {**os.environ, "CHRONOTASKS_DATA": str(tmp_path)}
    proc = subprocess.run(
        [sys.executable, "-m", "chronotasks.cli", "check-data", "tabvlm_style_period", "tabvlm_sequence"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 1
    both = proc.stdout + proc.stderr
    assert both.count(image.rsplit("/", 1)[-1]) == 1
    assert both.count("synthetic demo data") == 1
    assert "sequence.jsonl:3: not valid JSON: Invalid control character at column " in proc.stdout
    assert "write it as \\t, \\n or \\uXXXX" in proc.stdout


def test_models_lists_every_backend_with_its_arguments_and_defaults(capsys):
    from chronotasks.model_shims.arguments import BACKENDS

    assert main(["models"]) == 0
    text = capsys.readouterr().out
    for model_id in BACKENDS:
        assert f"\n{model_id}: " in text
    assert "answer=A (str)" in text  # chrono_constant's default answer, documented
    assert "seed (int, optional)" in text and "pretrained (required, str)" in text
    assert "tolerance=1.0 (float)" in text and "judge_*" in text
    one_line_error(capsys, ["models", "chrono_nothing"], "no chronotasks backend chrono_nothing; ours: chrono_random")


def test_every_argument_has_its_help_and_the_registry_is_lmms_evals():
    """HELP names exactly each backend's parameters (its signature is the source), and the entry point
    registers exactly the backends listed."""
    from chronotasks.model_shims import manifests
    from chronotasks.model_shims.arguments import BACKENDS, HELP, model_args

    assert {m.model_id: m.simple_class_path for m in manifests()} == BACKENDS
    for model_id, path in BACKENDS.items():
        module, _, name = path.rpartition(".")
        cls = getattr(__import__(module, fromlist=[name]), name)
        assert {arg.name for arg in model_args(cls)} == set(HELP[model_id]), model_id
        signature = inspect.signature(cls.__init__).parameters
        for arg in model_args(cls):
            if arg.name in signature:
                assert arg.default == signature[arg.name].default


def test_model_args_are_checked_before_the_backend_is_built():
    """`seed=abc` was a raw int() error, an unknown key did not say which are valid."""
    from chronotasks.model_shims.arguments import ModelArgError
    from chronotasks.model_shims.baselines import ConstantBaseline, RandomBaseline
    from chronotasks.model_shims.chrono_embed import ChronoEmbed

    with pytest.raises(ModelArgError, match=r"^chrono_random: model_arg seed='abc' is not a whole number$"):
        RandomBaseline.create_from_arg_string("seed=abc")
    with pytest.raises(ModelArgError, match=r"^chrono_random: unknown model_arg sed; valid: seed \(int, optional\), device "):
        RandomBaseline.create_from_arg_string("sed=1")
    with pytest.raises(ModelArgError, match=r"^chrono_embed: --model_args needs pretrained=\.\.\. \(hub id or local folder"):
        ChronoEmbed.create_from_arg_string("top_k=5")
    model = ConstantBaseline.create_from_arg_string("answer=2010,seed=3", {"batch_size": 1, "device": None})
    assert model.constant == "2010" and model.seed == 3  # lmms-eval parsed 2010 as a number: the answer is its text
    assert RandomBaseline.create_from_arg_string("seed=none").seed >= 0  # follows lmms-eval's --seed


@pytest.mark.slow
def test_a_bad_model_arg_reaches_the_lmms_eval_log_in_one_line(demo_root, tmp_path):
    from chronotasks.tasks import TASKS_DIR

    env = {**os.environ, "CHRONOTASKS_DATA": str(demo_root)}
    proc = lmms_eval_fork.run(
        [
            "--model",
            "chrono_random",
            "--model_args",
            "seed=abc",
            "--tasks",
            "chrono_demo_period",
            "--include_path",
            TASKS_DIR,
            "--output_path",
            tmp_path / "o",
        ],
        env,
        tmp_path,
        600,
    )
    assert "Error during evaluation: chrono_random: model_arg seed='abc' is not a whole number" in proc.stdout + proc.stderr
