"""Every record fits its task: the checks run on a task file's records when they are loaded.

A record is refused (with file, line, record id and field) when

- it lacks a field the task needs, or its ``images`` are not a list of paths;
- its ``id`` is not a string or an integer, or another record has the same id;
- it repeats an earlier line (a record listed twice would be scored twice);
- its ``answer_space`` is not a valid answer space (``AnswerSpace`` checks n >= 1, k <= n, lo <= hi ...);
- its question shows ``options`` but the space is not an option space of that many options
  (a year space on a letter question, four options where the space says five);
- its answer (``answer_field``: "answer", or the field a task names) is not an answer of its space:
  a letter outside the first n (or lower case), a set with repeats or letters outside n, an ordering
  that is not a permutation, a year outside [lo, hi], a choice not listed.

``record_problems`` lists every problem of a file, in line order; ``chronotasks check-data`` prints
them all, and loading refuses the file with them.
"""

from __future__ import annotations

import json
from typing import Any

from chronotasks.data.answer_space import NUMBERED_KINDS, AnswerSpace
from chronotasks.scoring.chinese_periods import PERIODS

Numbered = list[tuple[int, dict[str, Any]]]


def _shown(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)[:60]


def _letters_problem(space: AnswerSpace, value: Any) -> str | None:
    """Why ``value`` is not a list of distinct option letters of ``space``, or None."""
    if not isinstance(value, list):
        return f"expected a list of option letters, got {_shown(value)}"
    outside = [v for v in value if not (isinstance(v, str) and v in space.letters and len(v) == 1)]
    if outside:
        return f"{_shown(outside[0])} is not one of the {space.n} option letters {space.letters[0]}-{space.letters[-1]}"
    if len(set(value)) < len(value):
        return f"{_shown(value)} names a letter twice"
    return None


def answer_problem(space: AnswerSpace, value: Any) -> str | None:
    """Why ``value`` is not an answer in ``space`` (as a record stores its gold answer), or None."""
    if space.kind == "letter":
        if isinstance(value, str) and len(value) == 1 and value in space.letters:
            return None
        return f"{_shown(value)} is not one of the {space.n} option letters {space.letters[0]}-{space.letters[-1]}"
    if space.kind in ("letter_set", "k_of_n"):
        problem = _letters_problem(space, value)
        if problem is None and space.kind == "k_of_n" and len(value) != space.k:
            problem = f"{_shown(value)} names {len(value)} options, the answer space asks for exactly {space.k}"
        return problem
    if space.kind == "ordering":
        items = space.items
        if (
            isinstance(value, list)
            and len(value) == len(items)
            and all(type(v) is type(items[0]) for v in value)
            and sorted(value) == items
        ):
            return None
        what = "option letters" if space.base is None else f"the numbers {space.base}-{space.base + len(items) - 1}"
        return f"{_shown(value)} is not an ordering of {what} (each once)"
    if space.kind == "year":
        if (
            isinstance(value, int)
            and not isinstance(value, bool)
            and space.lo is not None
            and space.hi is not None
            and space.lo <= value <= space.hi
        ):
            return None
        return f"{_shown(value)} is not a year in [{space.lo}, {space.hi}]"
    if space.kind == "choice":
        return (
            None
            if isinstance(value, str) and value in space.choices
            else f"{_shown(value)} is not one of the choices {_shown(list(space.choices))}"
        )
    if space.kind == "dynasty":
        return None if value in PERIODS else f"{_shown(value)} is not one of the periods {', '.join(PERIODS)}"
    return None  # free text: any reference answer


def _space_problem(space: AnswerSpace, record: dict[str, Any]) -> tuple[str, str] | None:
    """(field, why) when the space does not fit the record's question: a question showing options
    needs an option space (letter, letter set, k of n, ordering of letters) of that many options."""
    options = record.get("options")
    if not isinstance(options, list):
        return None
    if space.kind not in NUMBERED_KINDS or space.base is not None:
        return "answer_space", f"a {space.kind!r} answer space does not fit a question with {len(options)} options"
    if len(options) != space.n:
        return "options", f"lists {len(options)} options but the answer space has n = {space.n}"
    return None


def _where(path: Any, number: int, record: dict[str, Any]) -> str:
    rid = record.get("id")
    shown = rid if isinstance(rid, (str, int)) and not isinstance(rid, bool) else f"#{number}"
    return f"{path}:{number}: record {shown!r}"


def record_problems(path: Any, numbered: Numbered, required: tuple[str, ...] = ("id",), answer_field: str | None = "answer") -> list[str]:
    """Every problem of a task file's records (``numbered``: (line, record) as read), in line order.
    ``answer_field`` None: the answer spaces are checked, not the answers (a file of unknown task)."""
    problems: list[str] = []
    ids: dict[Any, int] = {}  # id -> first line
    lines: dict[str, int] = {}  # record as canonical JSON -> first line
    spaces: dict[str, AnswerSpace | str] = {}  # answer_space text -> the space, or why it is not one
    for number, record in numbered:
        where = _where(path, number, record)
        text = json.dumps(record, sort_keys=True, ensure_ascii=False)
        if text in lines:
            problems.append(f"{where}: line {number} repeats line {lines[text]} (a record listed twice is scored twice)")
            continue
        lines[text] = number
        missing = [name for name in required if name not in record]
        if missing:
            problems.append(f"{where} lacks field(s) {', '.join(missing)}")
        images = record.get("images")
        if images is not None and not (isinstance(images, list) and all(isinstance(p, str) for p in images)):
            problems.append(f"{where}, field 'images': expected a list of image paths, got {_shown(images)}")
        rid = record.get("id")
        if "id" in record and (not isinstance(rid, (str, int)) or isinstance(rid, bool) or rid == ""):
            problems.append(f"{where}, field 'id': expected a string or an integer, got {_shown(rid)}")
        elif rid in ids:
            problems.append(f"{where}, field 'id': {rid!r} is also the id on line {ids[rid]} (ids must be unique)")
        elif "id" in record:
            ids[rid] = number
        problems.extend(f"{where}, {p}" for p in _answer_problems(record, spaces, answer_field))
    return problems


def _answer_problems(record: dict[str, Any], spaces: dict[str, AnswerSpace | str], answer_field: str | None) -> list[str]:
    """ "field 'x': why" for the record's answer space and answer."""
    raw = record.get("answer_space")
    if raw is None:
        return []
    key = raw if isinstance(raw, str) else json.dumps(raw, sort_keys=True)
    if key not in spaces:
        try:
            if not isinstance(raw, (str, dict)):
                raise TypeError(f"expected a JSON object (as text), got {type(raw).__name__}")
            spaces[key] = AnswerSpace.from_json(raw)
        except (ValueError, TypeError) as err:
            spaces[key] = f"{str(raw)[:80]!r} is not a valid answer space ({err})"
    space = spaces[key]
    if isinstance(space, str):
        return [f"field 'answer_space': {space}"]
    misfit = _space_problem(space, record)
    if misfit:
        return [f"field {misfit[0]!r}: {misfit[1]}"]
    if space.kind == "text" or answer_field is None:
        return []
    if record.get(answer_field) is None:
        return [f"field {answer_field!r}: missing (a {space.kind!r} question needs its answer)"]
    problem = answer_problem(space, record[answer_field])
    return [f"field {answer_field!r}: {problem} (answer space {space.to_json()})"] if problem else []
