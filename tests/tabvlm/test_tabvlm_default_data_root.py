"""From nothing to a real lmms-eval run with no environment variable: `chronotasks prepare tabvlm
--source <offline release copy>` writes to the per-user data root, and the card's command finds it.
HOME, XDG_CACHE_HOME and CHRONOTASKS_HOME point into a temporary folder (never the real cache)."""

import glob
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from chronotasks.benchmarks.tabvlm.prepare import image_name
from chronotasks.benchmarks.tabvlm.schema import TASK_TYPES, artifacts_of
from chronotasks.tasks import TASKS_DIR

REPO = TASKS_DIR.parents[1]


def _env(home: Path, **extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in ("CHRONOTASKS_DATA", "CHRONOTASKS_HOME", "XDG_CACHE_HOME")}
    return {**env, "HOME": str(home), "PYTHONPATH": str(REPO), **extra}


def _chronotasks(*args, env):
    return subprocess.run([sys.executable, "-m", "chronotasks.cli", *args], env=env, cwd=REPO, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def standin_images(tmp_path_factory, request):
    """A stand-in image for every artifact of the release excerpt, and of the whole release when it is given."""
    folder = tmp_path_factory.mktemp("tabvlm_images")
    releases = [request.getfixturevalue("release_excerpts")]
    if os.environ.get("CHRONOTASKS_SEED_DATA"):
        releases.append(request.getfixturevalue("seed_data"))
    questions = [q for r in releases for q in json.loads((r / "tabvlm" / "temporal_anomaly_benchmark.json").read_text())["questions"]]
    for name in {image_name(a["image_url"]) for q in questions for a in artifacts_of(q)}:
        Image.new("RGB", (16, 16), (len(name) * 5 % 255, 80, 140)).save(folder / name, format="JPEG")
    return folder


def test_wrong_layouts_fail_clearly_and_nonzero(tmp_path):
    env = _env(tmp_path / "home")
    (tmp_path / "somewhere").mkdir()
    (tmp_path / "somewhere" / "README.md").write_text("not a release")
    proc = _chronotasks("prepare", "tabvlm", "--source", str(tmp_path / "somewhere"), env=env)
    assert proc.returncode == 1 and proc.stderr.count("\n") == 1
    assert "no TAB-VLM release there. Expected temporal_anomaly_benchmark.json (in the folder or its data/ folder" in proc.stderr
    assert "found: README.md" in proc.stderr
    proc = _chronotasks("prepare", "tempviz", "--source", str(tmp_path / "somewhere"), env=env)
    assert proc.returncode == 1 and "no TempViz release there. Expected Landscapes.csv" in proc.stderr
    proc = _chronotasks("prepare", "musebench", env=env)
    assert proc.returncode == 1 and "MuseBench's data is not public" in proc.stderr
    assert not (tmp_path / "home" / ".cache" / "chronotasks" / "data").exists()


def test_the_repository_root_is_accepted(release_excerpts, standin_images, tmp_path):
    root = tmp_path / "tab-vlm"  # the repository as cloned: the release is data/<file>
    (root / "data").mkdir(parents=True)
    release = release_excerpts / "tabvlm" / "temporal_anomaly_benchmark.json"
    (root / "data" / "temporal_anomaly_benchmark.json").symlink_to(release)
    n = len(json.loads(release.read_text())["questions"])
    proc = _chronotasks(
        "prepare",
        "tabvlm",
        "--source",
        str(root),
        "--images",
        str(standin_images),
        "--out",
        str(tmp_path / "o"),
        "--no-download",
        env=_env(tmp_path / "home"),
    )
    assert proc.returncode == 0, proc.stderr
    # an excerpt: its checksum is not the published file's, and prepare says so without refusing it
    assert "DIFFERS from the published release" in proc.stdout and f"kept {n} of {n} questions (0 dropped)" in proc.stdout


@pytest.mark.slow
def test_prepare_then_the_card_command_with_no_environment_variable(seed_data, standin_images, tmp_path):
    home = tmp_path / "home"
    env = _env(home, XDG_CACHE_HOME=str(tmp_path / "xdg"))
    # the whole offline release copy, named as a user would: relative to the folder the command runs in
    source = os.path.relpath(seed_data / "tabvlm", REPO)
    proc = _chronotasks("prepare", "tabvlm", "--source", source, "--images", str(standin_images), env=env)
    assert proc.returncode == 0, proc.stderr
    data = tmp_path / "xdg" / "chronotasks" / "data" / "tabvlm"  # $XDG_CACHE_HOME/chronotasks/data
    assert "kept 600 of 600 questions" in proc.stdout and "(no environment variable needed)" in proc.stdout
    assert Counter(len(open(data / t.file).readlines()) for t in TASK_TYPES) == Counter({100: 6})
    assert not (home / ".cache").exists()

    out = tmp_path / "out"
    command = [
        sys.executable,
        "-m",
        "lmms_eval",
        "--model",
        "chrono_random",
        "--tasks",
        "tabvlm_chrono",
        "--include_path",
        str(TASKS_DIR),
        "--output_path",
        str(out),
    ]
    run = subprocess.run(command, env=env, cwd=tmp_path, capture_output=True, text=True, timeout=900)
    files = glob.glob(str(out / "**" / "*_results.json"), recursive=True)
    assert run.returncode == 0 and files, run.stderr[-3000:]
    results = json.loads(Path(files[0]).read_text())["results"]
    assert set(results) >= {t.task for t in TASK_TYPES} | {"tabvlm_chrono"}
    assert results["tabvlm_sequence"]["tied_questions,none"] == 27  # the release's 27 tied sequence questions
    assert all(results[t.task]["image_failure,none"] == 0.0 for t in TASK_TYPES)
    assert json.loads(Path(files[0]).read_text())["n-samples"]["tabvlm_style_period"]["effective"] == 100

    # CHRONOTASKS_HOME moves the data root
    moved = _chronotasks("data-path", env={**env, "CHRONOTASKS_HOME": str(tmp_path / "elsewhere")})
    assert moved.stdout.strip() == str(tmp_path / "elsewhere" / "data")
