"""What a question accepts as an answer, stored with every record.

Each record carries ``answer_space``: a JSON string describing the form of a
valid answer (not the answer itself). The baseline models read it to answer
uniformly at random or with a constant; tasks may read it to parse replies.

Kinds:
  letter      one of n option letters                  {"kind": "letter", "n": 4}
  letter_set  any subset of n option letters            {"kind": "letter_set", "n": 4}
  ordering    a permutation of n option letters         {"kind": "ordering", "n": 4}
  k_of_n      exactly k of n option letters             {"kind": "k_of_n", "n": 5, "k": 3}
  year        a year in [lo, hi]                        {"kind": "year", "lo": 1900, "hi": 2020}
  choice      one of listed strings, in JSON key `key`  {"kind": "choice", "choices": ["1", "2"], "key": "answer"}
  text        free text (no random answer space)        {"kind": "text"}
"""

from __future__ import annotations

import json
import random
import string
from dataclasses import asdict, dataclass, field
from typing import Any

KINDS = ("letter", "letter_set", "ordering", "k_of_n", "year", "choice", "text")


@dataclass(frozen=True)
class AnswerSpace:
    kind: str
    n: int | None = None
    k: int | None = None
    lo: int | None = None
    hi: int | None = None
    choices: tuple[str, ...] = field(default_factory=tuple)
    key: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown answer-space kind {self.kind!r}; expected one of {KINDS}")
        needs = {"letter": ("n",), "letter_set": ("n",), "ordering": ("n",), "k_of_n": ("n", "k"),
                 "year": ("lo", "hi"), "choice": ("choices",), "text": ()}[self.kind]
        missing = [name for name in needs if getattr(self, name) in (None, ())]
        if missing:
            raise ValueError(f"answer space {self.kind!r} needs {', '.join(missing)}")

    @property
    def letters(self) -> str:
        return string.ascii_uppercase[: self.n or 0]

    def to_json(self) -> str:
        data = {k: v for k, v in asdict(self).items() if v not in (None, ())}
        if "choices" in data:
            data["choices"] = list(data["choices"])
        return json.dumps(data, sort_keys=True)

    @classmethod
    def from_json(cls, text: str | dict) -> "AnswerSpace":
        data = json.loads(text) if isinstance(text, str) else dict(text)
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
        if self.kind == "letter":
            return str(value)
        if self.kind in ("letter_set", "k_of_n"):
            # The empty set is written "None" (parse_letter_set reads it back as the empty set).
            return ", ".join(sorted(value)) or "None"
        if self.kind == "ordering":
            return ", ".join(value)
        if self.kind == "year":
            return str(int(value))
        if self.kind == "choice":
            return json.dumps({self.key or "answer": str(value)})
        return str(value)

    def random_value(self, rng: random.Random) -> Any:
        """A uniformly random valid answer: each element of the space equally likely."""
        if self.kind == "letter":
            return rng.choice(self.letters)
        if self.kind == "letter_set":
            # Uniform over all 2^n subsets, the empty set included, as the papers'
            # 1/16 chance baseline for four options assumes.
            return frozenset(ch for ch in self.letters if rng.random() < 0.5)
        if self.kind == "ordering":
            return tuple(rng.sample(self.letters, len(self.letters)))
        if self.kind == "k_of_n":
            return frozenset(rng.sample(self.letters, self.k))
        if self.kind == "year":
            return rng.randint(self.lo, self.hi)
        if self.kind == "choice":
            return rng.choice(self.choices)
        raise ValueError("a free-text answer space has no random answer")

    def random_reply(self, rng: random.Random) -> str:
        """A random valid answer written as a model would; the empty reply (an abstention) for
        free text, which has no space to draw from."""
        return "" if self.kind == "text" else self.format(self.random_value(rng))
