"""docs/upstream/lmms-eval-plugin-task-paths.patch, proved on a copy of the installed lmms-eval:
its own test (test/eval/test_plugin_task_paths.py, in lmms-eval's style) fails on the released
code and passes once the fix is applied."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PATCH = REPO / "docs" / "upstream" / "lmms-eval-plugin-task-paths.patch"
UPSTREAM_TEST = "test/eval/test_plugin_task_paths.py"


def _apply(checkout: Path, *only: str) -> None:
    includes = [f"--include={pattern}" for pattern in only]
    subprocess.run(["git", "apply", "--verbose", *includes, str(PATCH)], cwd=checkout, check=True, capture_output=True, text=True)


def _run_upstream_test(checkout: Path) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "LMMS_EVAL_PLUGINS"}
    env["PYTHONPATH"] = str(checkout)  # this copy of lmms_eval, not the installed one
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", str(checkout), UPSTREAM_TEST],
        cwd=checkout,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_patch_test_fails_on_released_lmms_eval_and_passes_with_the_fix(tmp_path):
    import lmms_eval

    checkout = tmp_path / "lmms-eval"
    shutil.copytree(Path(lmms_eval.__file__).parent, checkout / "lmms_eval", ignore=shutil.ignore_patterns("__pycache__"))

    _apply(checkout, "test/*")  # the test alone, on the released code
    before = _run_upstream_test(checkout)
    assert before.returncode == 1, before.stdout[-3000:]
    assert "4 failed, 1 passed" in before.stdout, before.stdout[-3000:]
    assert "zzz_plugin_a_task" in before.stdout  # failed because the plugin task was not indexed

    _apply(checkout, "lmms_eval/*")  # then the fix
    after = _run_upstream_test(checkout)
    assert after.returncode == 0, after.stdout[-3000:] + after.stderr[-3000:]
    assert "5 passed" in after.stdout


HF_PATCH = REPO / "docs" / "upstream" / "lmms-eval-hf-chat-media.patch"
HF_TEST = "test/eval/test_huggingface_chat_media.py"


@pytest.mark.slow
def test_hf_chat_patch_test_fails_on_released_lmms_eval_and_passes_with_the_fix(tmp_path):
    """docs/upstream/lmms-eval-hf-chat-media.patch: ``--model huggingface`` loads a VLM with its
    generation head and runs requests without videos (a tiny Qwen2.5-VL built by the test)."""
    import lmms_eval

    checkout = tmp_path / "lmms-eval"
    shutil.copytree(Path(lmms_eval.__file__).parent, checkout / "lmms_eval", ignore=shutil.ignore_patterns("__pycache__"))
    env = {**os.environ, "PYTHONPATH": str(checkout), "HF_HUB_OFFLINE": "1"}
    run = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "addopts=", "--rootdir", str(checkout), HF_TEST]

    subprocess.run(["git", "apply", "--include=test/*", str(HF_PATCH)], cwd=checkout, check=True, capture_output=True, text=True)
    before = subprocess.run(run, cwd=checkout, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert "2 failed" in before.stdout, before.stdout[-3000:]
    assert "has no attribute 'generate'" in before.stdout or "Qwen2_5_VLModel" in before.stdout, before.stdout[-3000:]

    subprocess.run(["git", "apply", "--include=lmms_eval/*", str(HF_PATCH)], cwd=checkout, check=True, capture_output=True, text=True)
    after = subprocess.run(run, cwd=checkout, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert after.returncode == 0 and "2 passed" in after.stdout, after.stdout[-3000:] + after.stderr[-3000:]
