"""What a question accepts as an answer, stored with every record.

Each record carries ``answer_space``: a JSON string describing the form of a
valid answer (not the answer itself). The baseline models read it to answer
uniformly at random or with a constant; the tasks read replies with ``parse``.

Kinds:
  letter      one of n option letters                  {"kind": "letter", "n": 4}
  letter_set  any subset of n option letters            {"kind": "letter_set", "n": 4}
              ``asks: "available"`` / ``"unavailable"``: what the question asks for (TAB-VLM
              technique / material), so "A and B were available; C and D were not" is read
              (without it, a reply that states both groups and no answer gives None)
  ordering    a permutation of n option letters         {"kind": "ordering", "n": 4}
              or, with ``base``, of the numbers base..base+n-1 (image indices)
                                                        {"kind": "ordering", "n": 4, "base": 0}
  k_of_n      exactly k of n option letters             {"kind": "k_of_n", "n": 5, "k": 3}
  year        a year in [lo, hi]                        {"kind": "year", "lo": 1900, "hi": 2020}
  choice      one of listed strings, in JSON key `key`  {"kind": "choice", "choices": ["1", "2"], "key": "answer"}
              ``asks: "earlier"``: the choice names the earlier item, so "Image 2 is newer than
              Image 1" answers "1"                      {..., "asks": "earlier"}
  dynasty     one of the Table 6 Chinese periods        {"kind": "dynasty"}
  text        free text (no random answer space)        {"kind": "text"}

``numbered: true`` (letter, letter_set, k_of_n, ordering): the options are shown numbered 1..n
instead of lettered (TAB-VLM's release prompts). Values stay letters; ``format`` writes numbers
("C" -> "3", {A, C} -> "1, 3") and ``parse`` reads them (chronotasks/scoring/numbered_options.py).

``format(value)`` writes an answer as a well-behaved model would; ``parse(reply, options)`` is its
inverse for any realistic reply: the answer in the space, or None when the reply gives none
(hedges, two answers, refusals, replies cut off). ``options`` are the option texts shown to the
model, so a reply naming an option by its text ("Song", "宋代") is read as its letter.

``parse`` reads in three steps, as a careful grader does:
  1. ``normalize``: the reply as plain text (reasoning blocks, markdown, full-width forms);
  2. ``candidates``: every answer the reply states, in the order a grader reads them (JSON field,
     answer cues, bold answers, answer lines, lists and tables, conclusions, the whole reply);
  3. ``decide``: conflicts checked -- one answer when nothing contradicts it (no second answer,
     no alternatives, no answer in an unfinished last sentence), else None.
"""

from __future__ import annotations

import functools
import json
import random
import string
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from chronotasks.scoring import parsing
from chronotasks.scoring.candidates import Candidate, decide
from chronotasks.scoring.chinese_periods import PERIODS, chinese_name, period_candidates
from chronotasks.scoring.choice_parsing import choice_candidates
from chronotasks.scoring.letter_sets import letter_set_candidates
from chronotasks.scoring.letters import letter_candidates
from chronotasks.scoring.normalization import normalize
from chronotasks.scoring.numbered_options import as_letters, number_of
from chronotasks.scoring.order_parsing import ordering_candidates
from chronotasks.scoring.reply_text import cut_off
from chronotasks.scoring.year_parsing import year_candidates


@functools.lru_cache(maxsize=4096)
def _from_json_text(text: str) -> "AnswerSpace":
    """An answer space from its JSON text, made once per distinct text (spaces are frozen; a task's
    records share a handful of them)."""
    return AnswerSpace.from_json(json.loads(text))


SHORT_REPLY = 64


@functools.lru_cache(maxsize=65536)
def _parse_short(space: "AnswerSpace", reply: str, options: tuple[str, ...] | None) -> Any:
    return space._parse(reply, options)


KINDS = ("letter", "letter_set", "ordering", "k_of_n", "year", "choice", "dynasty", "text")
NUMBERED_KINDS = ("letter", "letter_set", "k_of_n", "ordering")


@dataclass(frozen=True)
class AnswerSpace:
    kind: str
    n: int | None = None
    k: int | None = None
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] = field(default_factory=tuple)
    key: str | None = None
    base: int | None = None
    asks: str | None = None
    numbered: bool | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown answer-space kind {self.kind!r}; expected one of {KINDS}")
        needs = {
            "letter": ("n",),
            "letter_set": ("n",),
            "ordering": ("n",),
            "k_of_n": ("n", "k"),
            "year": ("lo", "hi"),
            "choice": ("choices",),
            "dynasty": (),
            "text": (),
        }[self.kind]
        missing = [name for name in needs if getattr(self, name) in (None, ())]
        if missing:
            raise ValueError(f"answer space {self.kind!r} needs {', '.join(missing)}")
        if self.numbered and (self.kind not in NUMBERED_KINDS or self.base is not None):
            raise ValueError(f"answer space {self.kind!r} cannot be numbered (only {', '.join(NUMBERED_KINDS)} without base)")
        problem = self._bounds_problem()
        if problem:
            raise ValueError(f"answer space {self.kind!r}: {problem}")

    def _bounds_problem(self) -> str | None:
        """Why the space holds no answer or a malformed one (n < 1, k > n, lo > hi, no choices), or None:
        a space with nothing in it would fail the random baseline and every reading in mid-run."""

        def integer(value: Any) -> bool:
            return isinstance(value, int) and not isinstance(value, bool)

        for name in ("n", "k", "lo", "hi", "base"):
            value = getattr(self, name)
            if value is not None and not integer(value):
                return f"{name} must be an integer, got {value!r}"
        if self.n is not None and self.n < 1:
            return f"n = {self.n}: a question needs at least one option"
        if self.n is not None and self.base is None and self.n > len(string.ascii_uppercase):
            return f"n = {self.n}: options are lettered A-Z (at most 26)"
        if self.k is not None and not 1 <= self.k <= (self.n or 0):
            return f"k = {self.k} must lie in 1..n ({self.n})"
        if self.lo is not None and self.hi is not None and self.lo > self.hi:
            return f"lo = {self.lo} is after hi = {self.hi}"
        if self.kind == "choice" and len(set(self.choices)) < len(self.choices):
            return f"choices {list(self.choices)} repeat a value"
        return None

    @property
    def letters(self) -> str:
        return string.ascii_uppercase[: self.n or 0]

    @property
    def items(self) -> list:
        """The items of an ordering: option letters, or the numbers base..base+n-1."""
        return list(self.letters) if self.base is None else list(range(self.base, self.base + (self.n or 0)))

    def to_json(self) -> str:
        data = {k: v for k, v in asdict(self).items() if v not in (None, ())}
        if "choices" in data:
            data["choices"] = list(data["choices"])
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | dict) -> "AnswerSpace":
        if isinstance(text, str):
            return _from_json_text(text)
        data = dict(text)
        if "choices" in data:
            data["choices"] = tuple(str(c) for c in data["choices"])
        return cls(**data)

    @classmethod
    def of_doc(cls, doc: dict[str, Any]) -> "AnswerSpace":
        """The answer space of a record; a clear error names the record when it has none."""
        raw = doc.get("answer_space")
        if not raw:
            raise KeyError(f"record {doc.get('id', '?')!r} has no 'answer_space' field")
        return cls.from_json(raw)

    # -- answers, as a model would write them -------------------------------------------
    def format(self, value: Any) -> str:
        """Write an answer value as the reply text a well-behaved model would give."""
        if self.numbered:
            return self._format_numbered(value)
        if self.kind == "letter":
            return str(value)
        if self.kind in ("letter_set", "k_of_n"):
            # The empty set is written "None" (parse_letter_set reads it back as the empty set).
            return ", ".join(sorted(value)) or "None"
        if self.kind == "ordering":
            return ", ".join(str(v) for v in value)
        if self.kind == "year":
            return str(int(value))
        if self.kind == "choice":
            return json.dumps({self.key or "answer": str(value)})
        if self.kind == "dynasty":
            return chinese_name(value)
        return str(value)

    def _format_numbered(self, value: Any) -> str:
        if self.kind == "letter":
            return str(number_of(value))
        if self.kind == "ordering":
            return ", ".join(str(number_of(v)) for v in value)
        return ", ".join(str(number_of(v)) for v in sorted(value)) or "None"

    def parse(self, reply: Any, options: Sequence[str] | None = None) -> Any:
        """The answer a reply gives, in this space (a letter, a frozenset of letters, a tuple, a
        year, a choice, a period name; the cleaned text for free text), or None: the inverse of
        ``format``. ``options``: the option texts shown to the model, if any.

        Reading is a pure function of (space, reply, options): a short reply (``SHORT_REPLY``
        characters, e.g. "B", "A, C", '{"answer": "1"}') is read once per distinct triple and then
        remembered (``_parse_short``), so a model that answers in few forms costs a lookup a sample."""
        if isinstance(reply, str) and len(reply) <= SHORT_REPLY:
            return _parse_short(self, reply, None if options is None else tuple(options))
        return self._parse(reply, options)

    def _parse(self, reply: Any, options: Sequence[str] | None = None) -> Any:
        if self.numbered:  # option numbers written as letters, then read as a lettered reply
            reply = as_letters(reply)
        if self.kind == "text":
            return parsing.clean(reply) or None
        text = normalize(reply)  # 1. the reply as plain text
        if not text:
            return None
        found = self.candidates(text, options)  # 2. every answer it states, in reading order
        return decide(found, cut_off(text))  # 3. conflicts checked: one answer, or None

    def candidates(self, text: str, options: Sequence[str] | None = None) -> Iterator[Candidate | None]:
        """The answers a normalised reply states (``chronotasks.scoring.candidates.Candidate``), in
        the order a grader reads them; the per-kind readers live in ``chronotasks.scoring``."""
        if self.kind == "letter":
            assert self.n is not None  # __post_init__: every numbered kind has n
            return letter_candidates(text, self.n, options)
        if self.kind in ("letter_set", "k_of_n"):
            assert self.n is not None
            return letter_set_candidates(text, self.n, options, self.k if self.kind == "k_of_n" else None, self.asks)
        if self.kind == "ordering":
            assert self.n is not None
            return ordering_candidates(text, self.n, self.base, options)
        if self.kind == "year":
            assert self.lo is not None and self.hi is not None  # __post_init__
            return year_candidates(text, self.lo, self.hi)
        if self.kind == "choice":
            return choice_candidates(text, list(self.choices), self.key or "answer", self.asks)
        if self.kind == "dynasty":
            return period_candidates(text)
        raise ValueError(f"a {self.kind!r} answer space states no candidates")

    def random_value(self, rng: random.Random) -> Any:
        """A uniformly random valid answer: each element of the space equally likely."""
        if self.kind == "letter":
            return rng.choice(self.letters)
        if self.kind == "letter_set":
            # Uniform over all 2^n subsets, the empty set included, as the papers'
            # 1/16 chance baseline for four options assumes.
            return frozenset(ch for ch in self.letters if rng.random() < 0.5)
        if self.kind == "ordering":
            return tuple(rng.sample(self.items, len(self.items)))
        if self.kind == "k_of_n":
            assert self.k is not None  # __post_init__
            return frozenset(rng.sample(self.letters, self.k))
        if self.kind == "year":
            assert self.lo is not None and self.hi is not None  # __post_init__
            return rng.randint(self.lo, self.hi)
        if self.kind == "choice":
            return rng.choice(self.choices)
        if self.kind == "dynasty":
            return rng.choice(PERIODS)
        raise ValueError("a free-text answer space has no random answer")

    def random_reply(self, rng: random.Random) -> str:
        """A random valid answer written as a model would; the empty reply (an abstention) for
        free text, which has no space to draw from."""
        return "" if self.kind == "text" else self.format(self.random_value(rng))
