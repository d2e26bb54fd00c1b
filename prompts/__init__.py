"""Prompt templates of the papers, one Jinja file per prompt.

Templates live beside this file as ``<benchmark>/<name>.j2`` and are rendered
with ``StrictUndefined``: a missing variable is an error, never an empty hole.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import jinja2

PROMPTS_DIR = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    return jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(PROMPTS_DIR)),
        undefined=jinja2.StrictUndefined,
        keep_trailing_newline=False,
        autoescape=False,
    )


def render(name: str, **variables) -> str:
    """Render ``prompts/<name>`` (e.g. ``"tabvlm/sequence.j2"``) with the given variables."""
    return _environment().get_template(name).render(**variables).strip()


def source(name: str) -> str:
    """The raw template text, for diffing a prompt against its paper."""
    return (PROMPTS_DIR / name).read_text(encoding="utf-8")
