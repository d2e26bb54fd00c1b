"""Hooks shared by the task variants in the ``circular/`` and ``gray/`` sub-folders of a benchmark.

A variant task ``include``s its base task's YAML and replaces a few hooks with the ones built
here around the base task's own hooks (nothing of the base task is copied):

- circular (``<task>_circular``): ``process_docs`` gives the N rotations of every question
  (chronotasks/data/circular.py); ``process_results`` runs the base task's ``process_results``
  on the rotated record (options, images and gold letter moved together) and adds the
  CircularEval items (chronotasks/scoring/circular.py);
- gray (``<task>_gray``): the same records with every image shown grayscale, converted exactly
  as ChronoVision's Algorithm 1 (OpenCV BGR -> GRAY -> BGR, cached on disk as lossless PNG;
  chronotasks/benchmarks/chronovision/grayscale.py).
"""

from __future__ import annotations

import os
import string
from collections.abc import Callable
from pathlib import Path
from typing import Any

from chronotasks.benchmarks.chronovision.grayscale import gray_image
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import DataError, benchmark_dir, open_doc_image
from chronotasks.data.origin import DATA_ORIGIN
from chronotasks.extraction import read_answer
from chronotasks.failures import mark_failures, unless_failed
from chronotasks.scoring.circular import choice_rates, circular_accuracy, position_bias

GRAY_CACHE_ENV = "CHRONOVISION_GRAY_CACHE"


# -- circular ---------------------------------------------------------------------------------
def make_circular_process_results(
    base_process_results: Callable, parse_choice: Callable[[dict, str], str | None], accuracy_key: str = "accuracy"
) -> Callable:
    """``process_results`` of a circular task: the base task's correctness (``accuracy_key``), parse
    and image failure and (LLM extractor on) the deciding ``extractor``, plus the CircularEval item under
    ``circular_accuracy``, ``position_bias`` and ``choice_rate_<letter>``. ``parse_choice(doc, reply)`` is the base task's parse (the letter
    chosen, or None), so the chosen position and the correctness come from one reading."""

    def process_results(doc: dict[str, Any], results: list[str]) -> dict[str, Any]:
        base = base_process_results(doc, results)
        n = len(doc["options"])
        image_failed = bool(base.get("image_failure"))  # the model saw a placeholder: no choice to count
        item = {
            "question": doc["question_id"],
            "rotation": int(doc["rotation"]),
            "n": n,
            "correct": float(base[accuracy_key]),
            "choice": None if image_failed else parse_choice(doc, results[0]),
        }
        passed = {key: base[key] for key in ("image_failure", "extractor", DATA_ORIGIN) if key in base}  # counted, logged
        return mark_failures(
            {
                "accuracy": float(base[accuracy_key]),
                "parse_failure": float(base["parse_failure"]),
                **passed,
                "circular_accuracy": item,
                "position_bias": item,
                **{f"choice_rate_{letter}": item for letter in string.ascii_uppercase[:n]},
            }
        )

    return process_results


def choice_from_options(doc: dict[str, Any], reply: str) -> str | None:
    """The letter a reply chooses, read as the base tasks read it: the record's answer space, with
    its option texts (a reply may name an option instead of its letter)."""
    return read_answer(AnswerSpace.of_doc(doc), reply, doc["options"])[0]


def _choice_rate(letter: str) -> Callable:
    def aggregate(items: list[dict[str, Any]]) -> float:
        return choice_rates(items).get(letter, float("nan"))

    aggregate.__name__ = f"choice_rate_{letter}"
    return aggregate


# lmms-eval aggregations of the circular metrics (a task YAML names them through its utils.py); NaN for a failed task
circular_accuracy_agg = unless_failed(circular_accuracy)
position_bias_agg = unless_failed(position_bias)
choice_rate_A, choice_rate_B, choice_rate_C, choice_rate_D, choice_rate_E = (unless_failed(_choice_rate(ch)) for ch in "ABCDE")


# -- grayscale --------------------------------------------------------------------------------
def gray_cache_dir(benchmark: str) -> Path:
    """Where grayscale copies are cached: $CHRONOVISION_GRAY_CACHE, else <data>/<benchmark>/cache/grayscale."""
    return Path(os.environ.get(GRAY_CACHE_ENV) or benchmark_dir(benchmark) / "cache" / "grayscale")


def gray_doc_images(benchmark: str, doc: dict[str, Any]) -> list:
    """Every image of a record (``images``), in order, grayscale (3 equal channels, PIL RGB); an image
    that cannot be opened becomes the placeholder and the sample an image failure (as for colour)."""
    cache = gray_cache_dir(benchmark)
    return [open_doc_image(path, doc.get("id", "?"), lambda p, rid: gray_image(p, cache, rid)) for path in doc.get("images") or []]


def make_gray_doc_to_visual(benchmark: str) -> Callable:
    def doc_to_visual(doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None) -> list:
        return gray_doc_images(benchmark, doc)

    return doc_to_visual


def make_gray_doc_to_messages(benchmark: str, base_doc_to_messages: Callable) -> Callable:
    """The base task's chat messages with each image part, in order, replaced by its grayscale copy."""

    def doc_to_messages(doc: dict[str, Any], lmms_eval_specific_kwargs: dict[str, Any] | None = None) -> list:
        messages = base_doc_to_messages(doc, lmms_eval_specific_kwargs)
        parts = [part for message in messages for part in message["content"] if part.get("type") == "image"]
        gray = gray_doc_images(benchmark, doc)
        if len(parts) != len(gray):
            raise DataError(f"record {doc.get('id', '?')!r}: the messages hold {len(parts)} images, the record {len(gray)}")
        for part, image in zip(parts, gray):
            part["url"] = image
        return messages

    return doc_to_messages


__all__ = [
    "choice_from_options",
    "choice_rate_A",
    "choice_rate_B",
    "choice_rate_C",
    "choice_rate_D",
    "choice_rate_E",
    "circular_accuracy_agg",
    "gray_cache_dir",
    "gray_doc_images",
    "make_circular_process_results",
    "make_gray_doc_to_messages",
    "make_gray_doc_to_visual",
    "position_bias_agg",
]
