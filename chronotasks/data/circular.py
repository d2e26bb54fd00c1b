"""Circular variants of single-answer multiple-choice records (CircularEval).

A record with N options becomes N records, one per circular shift r = 0..N-1 of its options:
position i shows the option that was at (i + r) % N. Every per-option field named (the option
texts, and where options are images the images and their metadata) moves with its option, the
gold letter is remapped, and the new record says where it came from:

    question_id    the original record's ``id``
    rotation       r (0 is the original order)
    id             "<question_id>@r<r>"

Records come out question-major (all shifts of a question together), so ``--limit k*N``
keeps whole questions. The answer space (a letter out of N) is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import datasets

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import DataError
from chronotasks.scoring.circular import rotated_letter, rotation_of


def rotations(record: dict[str, Any], option_fields: Sequence[str] = ("options",)) -> list[dict[str, Any]]:
    """The N shifted copies of one record (``option_fields[0]`` holds the options)."""
    rid = record.get("id", "?")
    space = AnswerSpace.of_doc(record)
    if space.kind != "letter":
        raise DataError(f"record {rid!r}: circular variants need a single-letter answer space, got {space.kind!r}")
    assert space.n is not None  # a letter space has n
    n = space.n
    for name in option_fields:
        if not isinstance(record.get(name), list) or len(record[name]) != n:
            raise DataError(f"record {rid!r}: field {name!r} must list one entry per option ({n}), got {record.get(name)!r}")
    answer = record.get("answer")
    if not isinstance(answer, str) or answer not in list(space.letters):
        raise DataError(f"record {rid!r}: field 'answer' must be one of {list(space.letters)}, got {answer!r}")
    shifted = []
    for r in range(n):
        order = rotation_of(n, r)
        copy = dict(record)
        copy.update({name: [record[name][i] for i in order] for name in option_fields})
        copy.update(answer=rotated_letter(answer, n, r), question_id=str(rid), rotation=r, id=f"{rid}@r{r}")
        shifted.append(copy)
    return shifted


def circular_records(records: Iterable[dict[str, Any]], option_fields: Sequence[str] = ("options",)) -> list[dict[str, Any]]:
    return [copy for record in records for copy in rotations(record, option_fields)]


def make_circular_process_docs(base_process_docs: Callable, option_fields: Sequence[str] = ("options",)) -> Callable:
    """A ``process_docs`` hook: the base task's records, each expanded into its N rotations."""

    def process_docs(placeholder: datasets.Dataset) -> datasets.Dataset:
        return datasets.Dataset.from_list(circular_records(base_process_docs(placeholder).to_list(), option_fields))

    if hasattr(base_process_docs, "task_data"):  # the records' file, named by check-data's messages
        process_docs.task_data = base_process_docs.task_data  # type: ignore[attr-defined]
    return process_docs


__all__ = ["circular_records", "make_circular_process_docs", "rotations"]
