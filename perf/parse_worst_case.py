"""Worst-case reading time (not a test): replies built to make the readers do the most work, timed in CPU
seconds (``time.process_time``) per reply, 1 KB to 1 MB.

The inputs are the ones that cost the most before reading was bounded: an answer cue repeated until the
reply is full (every cue opens a region that a reader searches, so a reader that searched each to the end
of the reply was quadratic), in English, Chinese and other scripts, with an answer of each kind after it;
two answers alternating; brackets nested deep; a long JSON object; judge verdicts and ratings repeated.
The target: no reply up to 1 MB over 50 ms.

Run: python perf/parse_worst_case.py [--sizes 1000,10000,100000,1000000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.t2i import parse_verdict

SPACES = {
    "letter": (AnswerSpace("letter", n=4), ["Iron Age", "Early Modern", "Classical", "Prehistoric"]),
    "letter_set": (AnswerSpace("letter_set", n=4, asks="unavailable"), ["paper", "silver", "synthetic fiber", "plastic"]),
    "k_of_n": (AnswerSpace("k_of_n", n=5, k=3), None),
    "ordering": (AnswerSpace("ordering", n=4), None),
    "ordering (indices)": (AnswerSpace("ordering", n=4, base=0), None),
    "year": (AnswerSpace("year", lo=1000, hi=2100), None),
    "choice": (AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier"), None),
    "dynasty": (AnswerSpace("dynasty"), None),
}
# an answer of each kind, and a second, different one (for replies that alternate)
ANSWERS = {
    "letter": ("A", "C"),
    "letter_set": ("A, C", "B, D"),
    "k_of_n": ("A, C, D", "B, C, E"),
    "ordering": ("B, D, A, C", "A, B, C, D"),
    "ordering (indices)": ("2, 0, 3, 1", "0, 1, 2, 3"),
    "year": ("1987", "1962"),
    "choice": ("Image 1", "Image 2"),
    "dynasty": ("宋代", "明代"),
}
# answer cues, each repeated until the reply is full ({} is the answer)
CUES = {
    "English 'The answer is X. '": "The answer is {}. ",
    "English 'Answer: X' lines": "Answer: {}\n",
    "English 'Wait, actually X,'": "Wait, actually {}, ",
    "Chinese '正确答案是X，'": "正确答案是{}，",
    "Chinese '答案：X。'": "答案：{}。",
    "Chinese '因此选X，所以'": "因此选{}，所以",
    "Russian 'Ответ: X. '": "Ответ: {}. ",
    "Japanese '答えはX。'": "答えは{}。",
    "Korean '정답: X '": "정답: {} ",
    "French 'La réponse est X, '": "La réponse est {}, ",
}
JUDGE = {
    "judge 'Answer: Yes. '": ("Answer: Yes. ", "standard"),
    "judge 'Yes, no, yes'": ("Yes, no, yes, ", "standard"),
    "judge '是的，'": ("是的，", "standard"),
    "judge 'RATING: Good '": ("RATING: Good ", "judging"),
    "judge 'RATING: Good / Poor'": ("RATING: Good\nRATING: Poor\n", "judging"),
}


def fill(unit: str, size: int) -> str:
    return (unit * (size // len(unit) + 1))[:size]


def structured(size: int) -> dict[str, str]:
    """Replies whose shape, not their cues, makes the work: nesting, JSON, lists, tables."""
    half = size // 2
    return {
        "nested brackets '((((( A )))))'": "(" * half + " A " + ")" * (size - half - 3),
        "nested brackets '[{(' unclosed": fill("[{(", size - 10) + "Answer: B",
        "long JSON, reasoning first": '{"reasoning": "' + fill("the glaze is later; ", size - 40) + '", "answer": "B"}',
        "JSON objects repeated": fill('{"answer": "B"}, ', size),
        'JSON nested \'{"a": {"a": ...\'': fill('{"answer": ', size - 10) + '"B"' + "}" * 7,
        "numbered list lines '1. A'": fill("1. A\n2. B\n3. C\n4. D\n", size),
        "table rows '| A | ✓ |'": fill("| A | ✓ |\n| B | ✗ |\n", size),
        "bold answers '**A**'": fill("**A**\n", size),
        "Chinese lists '失蜡法和手捏成型、石雕，'": fill("失蜡法和手捏成型、石雕，", size),
    }


def cpu_time(fn: Callable[[], object], repeat: int) -> float:
    """CPU seconds of one call: the best of ``repeat`` (a shared machine's noise only adds time)."""
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        fn()
        best = min(best, time.process_time() - start)
    return best


def rows(sizes: list[int]) -> list[tuple[str, str, dict[int, Callable[[], object]]]]:
    """(input, kind, {size: call}) for every worst input."""
    out = []
    for cue_name, cue in CUES.items():
        for kind, (space, options) in SPACES.items():
            one, other = ANSWERS[kind]
            out.append((cue_name, kind, {n: _reader(space, options, fill(cue.format(one), n)) for n in sizes}))
            out.append(
                (cue_name + " two answers", kind, {n: _reader(space, options, fill(cue.format(one) + cue.format(other), n)) for n in sizes})
            )
    for name, (unit, mode) in JUDGE.items():
        out.append((name, "judge", {n: _verdict(fill(unit, n), mode) for n in sizes}))
    for name in structured(1000):
        for kind, (space, options) in SPACES.items():
            out.append((name, kind, {n: _reader(space, options, structured(n)[name]) for n in sizes}))
    return out


def _reader(space: AnswerSpace, options: list[str] | None, reply: str) -> Callable[[], object]:
    return lambda: space._parse(reply, options)  # the reading itself, not parse's memo of short replies


def _verdict(reply: str, mode: str) -> Callable[[], object]:
    return lambda: parse_verdict(reply, mode)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000,1000000", help="reply sizes in characters, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--limit-ms", type=float, default=50.0)
    args = parser.parse_args()
    sizes = [int(x) for x in args.sizes.split(",")]
    worst: dict[str, dict[int, tuple[float, str]]] = {}
    for name, kind, calls in rows(sizes):
        cells = worst.setdefault(name, {})
        for n, call in calls.items():
            ms = cpu_time(call, args.repeat) * 1e3
            if ms > cells.get(n, (-1.0, ""))[0]:
                cells[n] = (ms, kind)
    print(f"CPU ms per reply, the slowest answer kind for each input (best of {args.repeat})")
    print(f"{'input':<46}" + "".join(f"{n:>12,}" for n in sizes) + "  slowest kind at the largest size")
    overall = 0.0
    for name, cells in worst.items():
        overall = max(overall, *(ms for ms, _ in cells.values()))
        print(f"{name:<46}" + "".join(f"{cells[n][0]:>12.2f}" for n in sizes) + f"  {cells[sizes[-1]][1]}")
    verdict = "within" if overall <= args.limit_ms else "OVER"
    print(f"worst reply: {overall:.2f} ms ({verdict} the {args.limit_ms:.0f} ms limit)")


if __name__ == "__main__":
    main()
