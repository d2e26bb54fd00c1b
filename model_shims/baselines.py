"""Baseline models that need no weights and no GPU.

They answer through lmms-eval's real request objects: for each request they
look up the document (``self.task_dict[task][split][doc_id]``, which the
evaluator fills; fetched a chunk of rows at a time), read its ``answer_space`` (chronotasks/data/answer_space.py)
and reply with text a parser reads back.

- ``chrono_random``: uniform over each question's answer space, seeded per
  (seed, task, doc) so a run is reproducible, order-independent and the
  same on any number of processes. lmms-eval's ``-n`` repeats are refused
  (``LauncherModel.refuse_repeats``): lmms-eval would score only the first draw.
- ``seed``: the ``seed=`` model_arg, else one drawn from Python's ``random``
  module as lmms-eval's ``--seed`` left it (lmms-eval seeds it with the first
  ``--seed`` value just before it builds the model), so ``--seed`` changes the
  draws and the same ``--seed`` repeats them.
- ``chrono_constant``: always the same reply, given by ``answer=...``.
- ``chrono_grayscale_prior``: for two-image "which is earlier" questions, picks
  the image with lower colour saturation ("the grayscale photo is older"),
  else answers at random.
"""

from __future__ import annotations

import hashlib
import random
from collections import defaultdict
from collections.abc import Iterator
from typing import Any

import numpy as np
from lmms_eval.api.instance import Instance
from tqdm import tqdm

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.model_shims.launcher import LauncherModel


def _doc_seed(seed: int, *parts: Any) -> int:
    digest = hashlib.sha256("|".join(map(str, (seed, *parts))).encode()).digest()
    return int.from_bytes(digest[:8], "big")


def seed_from_lmms_eval() -> int:
    """A seed taken from Python's ``random`` module as it stands (seeded by lmms-eval's ``--seed``),
    read from a copy of its state so that nothing else's draws change."""
    rng = random.Random()
    rng.setstate(random.getstate())
    return rng.getrandbits(63)


class _Baseline(LauncherModel):
    """Shared request loop: one reply per generate_until request."""

    doc_fields: tuple[str, ...] | None = None
    """The document fields ``answer`` reads (None: the whole document, e.g. for ``doc_to_visual``)."""

    def __init__(self, seed: int | None = None, device: str | None = None, **kwargs: Any) -> None:
        super().__init__(device=device)
        self.seed = seed_from_lmms_eval() if seed is None or str(seed).lower() in ("", "none") else int(seed)
        unknown = {k: v for k, v in kwargs.items() if k not in ("batch_size", "max_batch_size")}
        if unknown:
            raise TypeError(f"{type(self).__name__} got unknown model_args: {sorted(unknown)}")

    def _docs(self, requests: list[Instance], chunk: int = 4096) -> Iterator[dict[str, Any]]:
        """The document of each request, in order, fetched a chunk at a time: a ``datasets.Dataset``
        row read alone costs ~25 µs (one Arrow-to-Python conversion per call); ``select(sorted
        ids).to_list()`` over a chunk costs a few µs a row, and memory stays one chunk of rows."""
        for start in range(0, len(requests), chunk):
            part = requests[start : start + chunk]
            wanted: dict[tuple[str, str], set[int]] = defaultdict(set)
            for request in part:
                _, _, _, doc_id, task, split = request.args[:6]
                wanted[(task, split)].add(doc_id)
            rows: dict[tuple[str, str, int], dict[str, Any]] = {}
            for (task, split), ids in wanted.items():
                source, order = self.task_dict[task][split], sorted(ids)
                if hasattr(source, "select"):
                    fields = [c for c in self.doc_fields or () if c in source.column_names]
                    found = (source.select_columns(fields) if fields else source).select(order).to_list()
                else:
                    found = [source[i] for i in order]
                rows.update(((task, split, i), doc) for i, doc in zip(order, found))
            for request in part:
                _, _, _, doc_id, task, split = request.args[:6]
                yield rows[(task, split, doc_id)]

    def _rng(self, request: Instance) -> random.Random:
        _, _, _, doc_id, task, _ = request.args[:6]
        return random.Random(_doc_seed(self.seed, task, doc_id, 0))  # (0: the draws runs have always had)

    def answer(self, request: Instance, doc: dict[str, Any]) -> str:
        raise NotImplementedError

    def generate_until(self, requests: list[Instance]) -> list[str]:
        self.refuse_repeats(requests)
        replies = []
        for request, doc in zip(tqdm(requests, desc=type(self).__name__, disable=self.rank != 0), self._docs(requests)):
            reply = self.answer(request, doc)
            replies.append(reply)
            self.cache_hook.add_partial("generate_until", request.args, reply)
        return replies

    def generate_until_multi_round(self, requests: list[Instance]) -> list[str]:
        return self.generate_until(requests)

    def loglikelihood(self, requests: list[Instance]) -> list[tuple[float, bool]]:
        raise NotImplementedError(f"{type(self).__name__} answers generate_until tasks only")


class RandomBaseline(_Baseline):
    """Uniform over each question's answer space (``--model chrono_random --model_args seed=0``).

    A free-text question (MuseBench VQA) has no space to draw from: it gets the empty reply,
    an abstention that each text metric scores as it scores any empty answer.
    """

    doc_fields = ("id", "answer_space")

    def answer(self, request: Instance, doc: dict[str, Any]) -> str:
        return AnswerSpace.of_doc(doc).random_reply(self._rng(request))


class ConstantBaseline(_Baseline):
    """The same reply to every question (``--model chrono_constant --model_args answer=Qing``)."""

    doc_fields = ("id",)

    def __init__(self, answer: str = "A", **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.constant = str(answer)

    def answer(self, request: Instance, doc: dict[str, Any]) -> str:
        return self.constant


def mean_saturation(image) -> float:
    """Mean HSV saturation (0..255) of a PIL image; 0 for a grayscale image."""
    hsv = np.asarray(image.convert("RGB").convert("HSV"))
    return float(hsv[..., 1].mean())


class GrayscalePriorBaseline(_Baseline):
    """ "The less colourful image is older": picks the lower-saturation image of two.

    Works on documents with exactly two images whose answer space has two
    choices (a letter out of 2, or "1"/"2"): the first choice stands for the
    first image. Ties (saturations within ``tolerance``) and other questions
    get a random answer.
    """

    def __init__(self, tolerance: float = 1.0, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.tolerance = float(tolerance)

    def answer(self, request: Instance, doc: dict[str, Any]) -> str:
        space = AnswerSpace.of_doc(doc)
        rng = self._rng(request)
        doc_to_visual = request.args[2]
        options = list(space.choices) if space.kind == "choice" else list(space.letters) if space.kind == "letter" else []
        if len(options) == 2:
            images = doc_to_visual(doc)
            if len(images) == 2:
                s1, s2 = (mean_saturation(image) for image in images)
                if abs(s1 - s2) > self.tolerance:
                    return space.format(options[0] if s1 < s2 else options[1])
        return space.random_reply(rng)
