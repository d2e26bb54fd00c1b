"""The README's test command from a plain virtualenv: the packaging tests' venvs (tests/venvs.py)
must take what they need from the interpreter running the tests, never from its base Python.

Why this proves what a user meets. A user runs ``python3 -m venv .venv && . .venv/bin/activate &&
pip install -e ".[test]" && python3 -m pytest -q``: every dependency is in ``.venv``'s own
site-packages and the base Python has none of them (so a helper venv made with
``--system-site-packages``, which sees the *base* Python, failed with "No module named
'datasets'"). CI runs in the base interpreter, where everything is installed, so it cannot meet
that. This test builds the user's situation: a venv made without system site packages whose own
site-packages holds every installed package (symlinked from the folders this interpreter uses,
nothing downloaded). From inside it, a helper venv is made exactly as the packaging tests make
theirs, and every module the packaging tests rely on must be imported from the user venv's folder:
anything taken from the base Python would be missing for the user, and fails here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from venvs import site_folders

TESTS = Path(__file__).resolve().parents[1]
MODULES = ("datasets", "torch", "lmms_eval", "transformers", "jinja2", "PIL")

CHECK = r"""
import json, sys, sysconfig
sys.path.insert(0, sys.argv[1])                  # tests/, for venvs.py
from venvs import make_venv
nested, _ = make_venv(__import__("pathlib").Path(sys.argv[2]))
import subprocess
probe = ("import json, sys, importlib; print(json.dumps({'path': sys.path, "
         "'files': {m: importlib.import_module(m).__file__ for m in %r}}))") % (tuple(sys.argv[3].split(",")),)
out = subprocess.run([str(nested), "-c", probe], capture_output=True, text=True)
print(json.dumps({"own_site": sysconfig.get_paths()["purelib"], "base_prefix": sys.base_prefix, "prefix": sys.prefix,
                  "nested": json.loads(out.stdout) if out.returncode == 0 else out.stderr[-2000:]}))
"""


def user_venv(path: Path) -> Path:
    """A plain venv (no system site packages) whose site-packages holds every package this
    interpreter sees, as symlinks: a user's .venv after ``pip install -e ".[test]"``."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, capture_output=True)
    python = path / "bin" / "python"
    own = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True, capture_output=True, text=True
        ).stdout.strip()
    )
    for folder in site_folders():  # this interpreter's search order: the first of a name wins
        for entry in Path(folder).iterdir():
            if entry.name != "__pycache__" and not (own / entry.name).exists():
                (own / entry.name).symlink_to(entry)
    return python


def test_packaging_venvs_take_nothing_from_the_base_python(tmp_path):
    python = user_venv(tmp_path / "user_venv")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    done = subprocess.run(
        [str(python), "-c", CHECK, str(TESTS), str(tmp_path / "nested"), ",".join(MODULES)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["prefix"] != seen["base_prefix"]  # the tests ran inside the user's venv
    nested = seen["nested"]
    assert isinstance(nested, dict), f"the packaging venv cannot import what the tests need:\n{nested}"
    user_site = Path(seen["own_site"])
    base = Path(seen["base_prefix"]).resolve()
    for module, file in nested["files"].items():  # every module from the user's venv, none from the base Python
        assert Path(file).is_relative_to(user_site), (module, file)
    base_sites = [
        p for p in nested["path"] if Path(p).resolve().is_relative_to(base) and Path(p).name in ("site-packages", "dist-packages")
    ]
    assert base_sites == [], base_sites
