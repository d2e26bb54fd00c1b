"""Chat messages of a task (``doc_to_messages``): what lmms-eval's chat models are sent.

lmms-eval builds a chat model's request from a task's ``doc_to_messages`` (its guide asks every
image task for one); without one it falls back to the images, then the ``doc_to_text`` prompt, in
one user turn. ``images_then_text`` makes that turn explicit, so each task says what a chat model
sees, and a variant that changes the images (grayscale, ``make_gray_doc_to_messages``) changes
them in the messages too. Tasks whose prompt places its images (TAB-VLM) build their own.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from PIL import Image

Messages = list[dict[str, Any]]


def images_then_text(images: list[Image.Image], text: str, system: str | None = None) -> Messages:
    """One user turn: every image in order, then the prompt; a system turn before it when given."""
    user = {
        "role": "user",
        "content": [*({"type": "image", "url": image} for image in images), {"type": "text", "text": text}],
    }
    return ([{"role": "system", "content": [{"type": "text", "text": system}]}] if system is not None else []) + [user]


def make_doc_to_messages(doc_to_visual: Callable[..., list], doc_to_text: Callable[..., str]) -> Callable[..., Messages]:
    """A task's ``doc_to_messages`` from its ``doc_to_visual`` and ``doc_to_text``: the record's
    images, then its prompt, in one user turn."""

    def doc_to_messages(doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None) -> Messages:
        return images_then_text(doc_to_visual(doc), doc_to_text(doc, lmms_eval_specific_kwargs))

    return doc_to_messages
