"""Virtualenvs for the packaging tests that work the same from the base interpreter (CI) and from
inside a plain ``python3 -m venv`` (how users install).

``--system-site-packages`` would let a test venv see the *base* interpreter's packages, which a user
working in a venv does not have (lmms-eval, torch, datasets... live in their venv). Instead the test
venv gets a ``.pth`` line naming the site-packages of the interpreter running the tests: what is
installed into the test venv comes first, everything else (torch & co., not reinstalled) is found
where the tests found it. A ``.pth`` line only adds a folder to ``sys.path``; the ``.pth`` files in
that folder (e.g. this checkout's editable install) are not run, so the test venv's own install is
the one imported.
"""

from __future__ import annotations

import site
import subprocess
import sys
from pathlib import Path


def make_venv(path: Path) -> tuple[Path, Path]:
    """Create the venv at ``path`` (no pip of its own: use ``pip_install``); return (python, site-packages)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(path)], check=True, capture_output=True)
    python = path / "bin" / "python"
    site = Path(
        subprocess.run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True, capture_output=True, text=True
        ).stdout.strip()
    )
    (site / "_outer_site_packages.pth").write_text("".join(folder + "\n" for folder in site_folders()))
    return python, site


def site_folders() -> list[str]:
    """The running interpreter's site-packages folders (a venv's own, and the base interpreter's when
    the venv was made with --system-site-packages), in its search order."""
    return [folder for folder in site.getsitepackages() if Path(folder).is_dir()]


def pip_command(python: Path, *args: str) -> list[str]:
    """The running interpreter's pip acting on the venv's interpreter."""
    return [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check", *args]
