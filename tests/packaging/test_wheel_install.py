"""The card's command after a regular install of the built wheel, in a fresh virtualenv:

    pip install chronotasks
    lmms-eval --model chrono_random --tasks tabvlm_chrono,chronovision_shortcut

finds and runs our tasks with neither --include_path nor LMMS_EVAL_PLUGINS, `lmms-eval tasks` lists
them, adding --include_path "$(chronotasks tasks-path)" changes nothing, and `pip uninstall
chronotasks` leaves lmms-eval's folder exactly as it was.

To stay fast the virtualenv sees the packages of the interpreter running the tests (torch & co. are
not reinstalled; tests/venvs.py) and gets its own lmms-eval (same version, --no-deps) and our wheel. Every command runs the venv's
console scripts from a temporary folder with no PYTHONPATH, and the test checks that the venv's
lmms_eval, chronotasks, chronotasks.model_shims and chronotasks.prompts are the ones imported (not the
system's, not this checkout's), and that the wheel adds no other top-level name (the repository's
prompts/ and model_shims/ folders are installed under the chronotasks namespace).
"""

from __future__ import annotations

import glob
import hashlib
import importlib.metadata
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from venvs import make_venv, pip_command

REPO = Path(__file__).resolve().parents[2]
CARD_TASKS = "tabvlm_chrono,chronovision_shortcut"
SKIP = shutil.ignore_patterns(".git", "__pycache__", "*.pyc", "build", "dist", "*.egg-info", ".pytest_cache")


def _run(command: list[str], cwd: Path, env: dict, timeout: int = 600) -> subprocess.CompletedProcess:
    proc = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise AssertionError(f"{' '.join(command)} exited {proc.returncode}:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
    return proc


def _run_together(*commands: tuple[list[str], dict], cwd: Path, timeout: int = 600) -> list[subprocess.CompletedProcess]:
    """Run independent commands side by side; each must exit 0."""
    procs = [
        (command, subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True))
        for command, env in commands
    ]
    done = []
    for command, proc in procs:
        stdout, stderr = proc.communicate(timeout=timeout)
        if proc.returncode != 0:
            raise AssertionError(f"{' '.join(command)} exited {proc.returncode}:\n{stdout[-4000:]}\n{stderr[-4000:]}")
        done.append(subprocess.CompletedProcess(command, proc.returncode, stdout, stderr))
    return done


def _pip(venv_python: Path, *args: str, cwd: Path, env: dict) -> subprocess.CompletedProcess:
    return _run(pip_command(venv_python, *args), cwd, env)


def _snapshot(folder: Path) -> dict[str, str]:
    """Every file and folder under `folder`: {relative path: sha256 of the file, or '<dir>'}."""
    state = {}
    for path in sorted(folder.rglob("*")):
        relative = path.relative_to(folder).as_posix()
        state[relative] = "<dir>" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
    return state


def _results(output_path: Path) -> dict:
    files = sorted(glob.glob(str(output_path / "**" / "*_results.json"), recursive=True))
    assert len(files) == 1, f"expected one results file under {output_path}, found {files}"
    return json.loads(Path(files[0]).read_text())


def _placeholder_folder(task_config: dict) -> Path:
    """The folder of the placeholder data file a task was configured with (lmms-eval makes it absolute)."""
    return Path(os.path.normpath(task_config["dataset_kwargs"]["data_files"]["test"])).parent


def _listed(stdout: str) -> list[str]:
    """Names in `lmms-eval tasks` output (one indented name a line after the header)."""
    return [line.strip() for line in stdout.splitlines() if line.startswith("  ") and line.strip()]


@pytest.mark.slow
def test_card_command_runs_from_the_installed_wheel_and_uninstall_is_clean(tmp_path):
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "LMMS_EVAL_PLUGINS", "CHRONOTASKS_DATA")}

    # 1. Build the wheel from a copy of this checkout (the build writes build/ and *.egg-info).
    source = tmp_path / "source"
    shutil.copytree(REPO, source, ignore=SKIP)
    _run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "-q",
            "-w",
            str(tmp_path / "dist"),
            str(source),
        ],
        tmp_path,
        env,
    )
    (wheel,) = (tmp_path / "dist").glob("chronotasks-*.whl")

    # 2. A fresh venv with its own lmms-eval (the version installed here), then our wheel. It sees the
    # packages of the interpreter running this test (tests/venvs.py), so it works from a plain venv too.
    venv = tmp_path / "venv"
    python, site = make_venv(venv)
    bin_dir = venv / "bin"
    lmms_eval_version = importlib.metadata.version("lmms-eval")
    _pip(python, "install", "-q", "--no-deps", "--ignore-installed", f"lmms-eval=={lmms_eval_version}", cwd=tmp_path, env=env)
    lmms_eval_dir = site / "lmms_eval"
    before = _snapshot(lmms_eval_dir)
    assert "tasks/chronotasks" not in before

    _pip(python, "install", "-q", "--no-deps", str(wheel), cwd=tmp_path, env=env)
    where = json.loads(
        _run(
            [
                str(python),
                "-c",
                "import json, lmms_eval, chronotasks, chronotasks.model_shims as m, chronotasks.prompts as p; "
                "print(json.dumps([x.__file__ for x in (lmms_eval, chronotasks, m, p)]))",
            ],
            tmp_path,
            env,
        ).stdout
    )
    assert all(Path(path).is_relative_to(site) for path in where), where
    record = next(site.glob("chronotasks-*.dist-info")) / "RECORD"
    top_level = {line.split("/")[0].split(",")[0] for line in record.read_text().splitlines()}
    # the console script aside (../../../bin/chronotasks), only our package, its metadata and the task pack
    assert top_level - {".."} == {"chronotasks", record.parent.name, "lmms_eval"}, top_level
    pack = lmms_eval_dir / "tasks" / "chronotasks"
    assert (pack / "tabvlm" / "tabvlm_chrono.yaml").is_file()
    assert not list(pack.rglob("*.py")), "the pack holds YAMLs only; hooks come from the installed chronotasks"
    assert (site / "chronotasks" / "skeleton" / "test.py.j2").is_file()  # `chronotasks new-benchmark` templates

    # 3. Demo data through the installed CLI; the card's command with no flag and no variable.
    data = tmp_path / "data"
    _run([str(bin_dir / "chronotasks"), "demo-data", "--out", str(data), "--benchmarks", "tabvlm", "chronovision"], tmp_path, env)
    run_env = {**env, "CHRONOTASKS_DATA": str(data)}
    card = _run(
        [str(bin_dir / "lmms-eval"), "--model", "chrono_random", "--tasks", CARD_TASKS, "--output_path", str(tmp_path / "out")],
        tmp_path,
        run_env,
    )
    results = _results(tmp_path / "out")
    assert {"tabvlm_chrono", "tabvlm_sequence", "tabvlm_style_period", "chronovision_shortcut"} <= set(results["results"])
    assert results["results"]["chronovision_shortcut"]["parse_failure,none"] == 0.0
    assert results["results"]["tabvlm_chrono"]["parse_failure,none"] == 0.0
    assert "|tabvlm_chrono" in card.stdout and "chronovision_shortcut" in card.stdout  # the results table
    task_folders = {_placeholder_folder(c) for c in results["configs"].values()}
    assert task_folders == {pack}, task_folders  # read from the pack inside the venv's lmms-eval

    # 4. `lmms-eval tasks` lists them, once; with --include_path as well, the same listing. 5. The card's
    # command with --include_path too: same tasks, same numbers, still read from the pack. (Run side by side.)
    tasks_path = _run([str(bin_dir / "chronotasks"), "tasks-path"], tmp_path, env).stdout.strip()
    assert Path(tasks_path).is_relative_to(site)
    listing, listing_with_include, _ = _run_together(
        ([str(bin_dir / "lmms-eval"), "tasks"], env),
        ([str(bin_dir / "lmms-eval"), "tasks", "--include-path", tasks_path], env),
        (
            [
                str(bin_dir / "lmms-eval"),
                "--model",
                "chrono_random",
                "--tasks",
                CARD_TASKS,
                "--include_path",
                tasks_path,
                "--output_path",
                str(tmp_path / "out_include"),
            ],
            run_env,
        ),
        cwd=tmp_path,
    )
    names = _listed(listing.stdout)
    for name in ("tabvlm_chrono", "tabvlm_sequence", "chronovision_shortcut", "chronovision", "musebench_vqa", "tempviz", "chrono_demo"):
        assert names.count(name) == 1, name
    assert _listed(listing_with_include.stdout) == names
    with_include = _results(tmp_path / "out_include")
    assert with_include["results"] == results["results"]
    assert {_placeholder_folder(c) for c in with_include["configs"].values()} == {pack}

    # 6. Uninstall: lmms-eval's folder is exactly as before (no pack, no bytecode, no empty folder), ours are gone.
    _pip(python, "uninstall", "-y", "chronotasks", cwd=tmp_path, env=env)
    assert _snapshot(lmms_eval_dir) == before
    left = sorted(p.name for p in site.iterdir() if p.name.split("-")[0] in ("chronotasks", "model_shims", "prompts"))
    assert left == [], left
