"""Where chronotasks keeps data: the data root and the per-user cache.

The data root holds one folder per benchmark (task files + images). It is, in order:

1. ``$CHRONOTASKS_DATA`` when set: a folder, or ``hf://ORG/PREFIX`` for copies published with
   ``chronotasks export`` (benchmark ``b`` is then the dataset ``ORG/PREFIX-b``, on the Hugging Face
   hub or, when ``ORG/PREFIX-b`` is an existing local folder, that folder);
2. otherwise ``<cache>/data``, where ``<cache>`` is ``$CHRONOTASKS_HOME``, else
   ``$XDG_CACHE_HOME/chronotasks``, else ``~/.cache/chronotasks``.

``chronotasks prepare`` and ``chronotasks demo-data`` write to the local data root by default,
so a task finds prepared data with no environment variable.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "CHRONOTASKS_DATA"
HOME_ENV = "CHRONOTASKS_HOME"
HF_SCHEME = "hf://"


def cache_home() -> Path:
    """The per-user chronotasks folder (downloads, data, materialised hub copies)."""
    if os.environ.get(HOME_ENV):
        return Path(os.environ[HOME_ENV]).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "chronotasks"


def default_data_root() -> Path:
    return cache_home() / "data"


def data_root_spec() -> str:
    """``$CHRONOTASKS_DATA`` if set, else the default data root (as text: it may be an ``hf://`` id)."""
    return os.environ.get(DATA_ENV) or str(default_data_root())


def hub_prefix() -> str | None:
    """``ORG/PREFIX`` when the data root is ``hf://ORG/PREFIX``, else None."""
    spec = data_root_spec()
    return spec[len(HF_SCHEME) :].rstrip("/") if spec.startswith(HF_SCHEME) else None


def local_data_root() -> Path:
    """The data root as a local folder (where ``prepare`` writes); an ``hf://`` root is not one."""
    spec = data_root_spec()
    if spec.startswith(HF_SCHEME):
        raise ValueError(f"{DATA_ENV}={spec} is a hub copy, not a local folder; give --out DIR to write prepared data")
    return Path(spec).expanduser().resolve()


def downloads_dir(benchmark: str) -> Path:
    """Where release downloads of a benchmark are kept between runs (so an interrupted prepare resumes)."""
    return cache_home() / "downloads" / benchmark
