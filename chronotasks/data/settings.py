"""Checks of settings that name a model, a file or a folder, made when a backend or judge starts
(before anything is generated), each giving one line that names the setting, or None.

Used by the backends (``chronotasks.model_shims``: ``pretrained``, ``output_dir`` and the
``judge_*`` paths they pass on) and by the TempViz judges (``check_settings`` in
``chronotasks/benchmarks/tempviz/judges.py``, which knows which judge needs which model).
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def looks_like_path(name: str) -> bool:
    """A value meant as a local path rather than a Hugging Face id or a served model's name."""
    return name.startswith(("/", ".", "~")) or name.count("/") > 1


def hub_offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "").strip().lower() in ("1", "true", "yes", "on")


def model_problem(setting: str, name: str) -> str | None:
    """Why a model that ``from_pretrained`` loads (a local folder or a Hugging Face id) is not there:
    a path that does not exist, or, while ``HF_HUB_OFFLINE`` is set, an id not in the local cache."""
    if Path(name).expanduser().exists():
        return None
    if looks_like_path(name):
        return f"{setting}={name!r}: no such folder"
    if hub_offline():
        from huggingface_hub import try_to_load_from_cache

        if not any(isinstance(try_to_load_from_cache(name, f), str) for f in ("config.json", "model_index.json")):
            return (
                f"{setting}={name!r}: not a local folder, and not in the Hugging Face cache while HF_HUB_OFFLINE "
                f"is set (download it first, or give a local folder)"
            )
    return None


def file_problem(setting: str, path: str) -> str | None:
    return None if Path(path).expanduser().is_file() else f"{setting}={path!r}: no such file"


def folder_problem(setting: str, folder: str | Path) -> str | None:
    """Why ``folder`` (made if missing) cannot be written: a file is created and removed in it."""
    where = Path(folder).expanduser()
    try:
        where.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=where, prefix=".write-check-"):
            pass
    except OSError as err:
        return f"{setting}={str(folder)!r} cannot be written ({err.strerror or err})"
    return None


__all__ = ["file_problem", "folder_problem", "hub_offline", "looks_like_path", "model_problem"]
