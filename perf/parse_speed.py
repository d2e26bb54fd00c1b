"""How fast replies are read (not a test): AnswerSpace.parse on every reply of the labelled corpus
(tests/foundation/parse_corpus, real-style replies of every answer kind) and on 1 MB replies.

Targets: < 50 us per typical reply, < 5 ms for a 1 MB reply. The 1 MB replies are
built to stress the regular expressions: a rambling reply with its answer at the end, a run-away
repetition of option letters / digits / JSON braces, an unclosed reasoning block, a reply with
no whitespace at all, and a degenerate model's blank padding (runs of spaces or blank lines: 0.8-7 s
before blank runs were shortened in ``normalize``).
The corpus replies are timed through ``AnswerSpace._parse``: ``parse`` remembers the reading of a
short reply (a lookup when it comes again), which would make every repeat after the first free.
Run: python perf/parse_speed.py [--repeat 20]
"""

from __future__ import annotations

import argparse
import functools
import json
import statistics
import time
from collections import defaultdict
from dataclasses import replace
from pathlib import Path

from chronotasks.benchmarks.tabvlm.schema import BY_TASK
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.t2i import parse_verdict

CORPUS = Path(__file__).resolve().parents[1] / "tests" / "foundation" / "parse_corpus"
MB = 1 << 20


def reader(row: dict):
    if row["kind"] == "judge_yes_no":
        return lambda: parse_verdict(row["reply"], "standard")
    if row["kind"] == "judge_rating":
        return lambda: parse_verdict(row["reply"], "judging")
    space = AnswerSpace.from_json(row["answer_space"])
    if space.asks is None and row["task"] in BY_TASK:  # as the TAB-VLM hook reads its set questions
        space = replace(space, asks=BY_TASK[row["task"]].answer_space.asks)
    return lambda: space._parse(row["reply"], row["options"])  # the reading itself, not parse's memo of short replies


def time_call(fn, repeat: int) -> float:
    """Seconds per call: the best of ``repeat`` rounds (noise on a shared machine only adds time)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def corpus_figures(repeat: int) -> None:
    rows = [
        json.loads(line)
        for path in sorted(CORPUS.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    by_kind = defaultdict(list)
    for row in rows:
        by_kind[row["kind"]].append(time_call(reader(row), repeat) * 1e6)
    every = [t for times in by_kind.values() for t in times]
    print(f"corpus replies ({len(rows)}), microseconds per reply")
    print(f"{'kind':<14}{'n':>5}{'median':>9}{'mean':>9}{'p95':>9}{'max':>9}")
    for kind, times in sorted(by_kind.items()) + [("all", every)]:
        times = sorted(times)
        p95 = times[int(0.95 * (len(times) - 1))]
        print(f"{kind:<14}{len(times):>5}{statistics.median(times):>9.1f}{statistics.mean(times):>9.1f}{p95:>9.1f}{times[-1]:>9.1f}")


def long_replies() -> dict[str, str]:
    prose = "The glaze, the carving and the patina all suggest a later date than the first piece, though the rim is older. "
    ramble = (prose * (MB // len(prose) + 1))[: MB - 30] + "\nFinal answer: C"
    return {
        "rambling, answer at the end": ramble,
        "letters repeated (A, B, C, D, ...)": ("A, B, C, D, " * (MB // 12 + 1))[:MB],
        "digits repeated (3,1,0,2,...)": ("3,1,0,2," * (MB // 8 + 1))[:MB],
        "JSON braces repeated": ('{"answer": "1"' * (MB // 14 + 1))[:MB],
        "unclosed <think> block": "<think>" + ("x " * (MB // 2))[: MB - 7],
        "no whitespace": ("Ab1" * (MB // 3 + 1))[:MB],
        "blank padding, answer at both ends": "Answer: B" + " " * (MB - 20) + "Answer: B",
        "blank lines, answer at the end": ("\n " * (MB // 2))[: MB - 9] + "Answer: B",
        "years repeated": ("1987 or 1988? " * (MB // 14 + 1))[:MB],
        "Chinese rambling, answer at the end": ("这件文物的釉色和纹饰都很有特点，可能是宋代，也可能更晚。" * (MB // 28 + 1))[: MB - 10]
        + "答案：C",
    }


SPACES = {
    "letter": (AnswerSpace("letter", n=4), ["Iron Age", "Early Modern", "Classical", "Prehistoric"]),
    "letter_set": (AnswerSpace("letter_set", n=4), ["paper", "silver", "synthetic fiber", "plastic"]),
    "k_of_n": (AnswerSpace("k_of_n", n=5, k=3), None),
    "ordering": (AnswerSpace("ordering", n=4), None),
    "ordering (indices)": (AnswerSpace("ordering", n=4, base=0), None),
    "year": (AnswerSpace("year", lo=1000, hi=2100), None),
    "choice": (AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier"), None),
    "dynasty": (AnswerSpace("dynasty"), None),
}


def long_figures(repeat: int) -> None:
    replies = long_replies()
    print(f"\n1 MB replies, milliseconds per reply (best of {repeat})")
    kinds = list(SPACES) + ["judge rating"]
    print(f"{'reply':<38}" + "".join(f"{k[:12]:>13}" for k in kinds))
    worst = 0.0
    for name, reply in replies.items():
        cells = []
        for kind in kinds:
            if kind == "judge rating":
                ms = time_call(functools.partial(parse_verdict, reply, "judging"), repeat) * 1e3
            else:
                space, options = SPACES[kind]
                ms = time_call(functools.partial(space.parse, reply, options), repeat) * 1e3
            worst = max(worst, ms)
            cells.append(f"{ms:>13.2f}")
        print(f"{name:<38}" + "".join(cells))
    print(f"worst 1 MB reply: {worst:.2f} ms")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeat", type=int, default=20)
    args = parser.parse_args()
    corpus_figures(args.repeat)
    long_figures(max(3, args.repeat // 4))


if __name__ == "__main__":
    main()
