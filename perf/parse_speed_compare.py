"""Reply-reading speed of this checkout against another (not a test): the same corpus replies timed by
two worker processes, one per checkout, taking turns every 20 replies, so that a shared machine's
drift in speed falls on both alike. Each reply's time is its best over ``--passes`` × 25 runs.

The rewrite bounded this parser at 2× the one before it (6cc9052) on that parser's own 871 replies:

    git worktree add /tmp/parser-6cc9052 6cc9052
    python perf/parse_speed_compare.py /tmp/parser-6cc9052            # the 871 replies it was written beside
    python perf/parse_speed_compare.py /tmp/parser-6cc9052 --all      # every non-judge reply of the corpus

The corpus is this checkout's (tests/foundation/parse_corpus); answer spaces are built from each row
with the fields the other checkout knows, and read with ``AnswerSpace._parse`` (not ``parse``'s memo
of short replies), as ``perf/parse_speed.py`` does.
"""

from __future__ import annotations

import argparse
import inspect
import json
import statistics
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
CORPUS = HERE / "tests" / "foundation" / "parse_corpus"
CHUNK = 20


def corpus_rows(every: bool) -> list[dict]:
    rows = [
        json.loads(line)
        for path in sorted(CORPUS.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    if every:  # (judges' verdicts were read by another function before the rewrite)
        return [row for row in rows if row["answer_space"] is not None]
    return [row for row in rows if "batch" not in row]  # the replies written beside the rules, before the blind batches


def reader(row: dict):
    """A call that reads one reply with the checkout on sys.path (whichever answer-space fields it knows)."""
    from chronotasks.data.answer_space import AnswerSpace
    from chronotasks.scoring.t2i import parse_verdict

    if row["kind"] in ("judge_yes_no", "judge_rating"):
        mode = "standard" if row["kind"] == "judge_yes_no" else "judging"
        return lambda: parse_verdict(row["reply"], mode)
    known = inspect.signature(AnswerSpace).parameters
    space = AnswerSpace(**{key: value for key, value in row["answer_space"].items() if key in known})
    try:
        from chronotasks.benchmarks.tabvlm.schema import BY_TASK

        if "asks" in known and space.asks is None and row["task"] in BY_TASK:  # as the TAB-VLM hook reads its set questions
            from dataclasses import replace

            space = replace(space, asks=BY_TASK[row["task"]].answer_space.asks)
    except ImportError:
        pass
    read = getattr(space, "_parse", space.parse)
    return lambda: read(row["reply"], row["options"])


def worker(tree: str, every: bool) -> None:
    """Times the replies of each "start end" line read from stdin, with ``tree``'s chronotasks."""
    sys.path.insert(0, tree)
    from parse_speed import time_call  # (this checkout's perf/parse_speed.py, importing ``tree``'s chronotasks)

    calls = [reader(row) for row in corpus_rows(every)]
    print(len(calls), flush=True)
    for line in sys.stdin:
        start, end = map(int, line.split())
        print(" ".join(f"{time_call(calls[i], 25) * 1e6:.3f}" for i in range(start, end)), flush=True)


def compare(other: str, every: bool, passes: int) -> None:
    trees = {"other": other, "this": str(HERE)}
    workers = {
        name: subprocess.Popen(
            [sys.executable, __file__, "--worker", tree] + (["--all"] if every else []),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            cwd=str(HERE),
        )
        for name, tree in trees.items()
    }
    sizes = {name: int(proc.stdout.readline()) for name, proc in workers.items()}
    n = sizes["this"]
    best = {name: [float("inf")] * n for name in workers}
    for _ in range(passes):
        for start in range(0, n, CHUNK):
            end = min(n, start + CHUNK)
            for name, proc in workers.items():
                proc.stdin.write(f"{start} {end}\n")
                proc.stdin.flush()
                for i, value in zip(range(start, end), map(float, proc.stdout.readline().split())):
                    best[name][i] = min(best[name][i], value)
    for proc in workers.values():
        proc.stdin.close()
        proc.wait()
    rows = corpus_rows(every)
    by_kind = defaultdict(list)
    for i, row in enumerate(rows):
        by_kind[row["kind"]].append(i)
    print(f"{n} replies, microseconds per reply (best of {passes} × 25): {other} against {HERE}")
    print(f"{'kind':<14}{'n':>5}{'other med':>11}{'mean':>8}{'this med':>10}{'mean':>8}{'× med':>8}{'× mean':>8}")
    for kind, index in sorted(by_kind.items()) + [("all", list(range(n)))]:
        old = [best["other"][i] for i in index]
        new = [best["this"][i] for i in index]
        print(
            f"{kind:<14}{len(index):>5}{statistics.median(old):>11.1f}{statistics.mean(old):>8.1f}"
            f"{statistics.median(new):>10.1f}{statistics.mean(new):>8.1f}"
            f"{statistics.median(new) / statistics.median(old):>8.2f}{statistics.mean(new) / statistics.mean(old):>8.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", nargs="?", help="the other checkout (a git worktree of the commit to compare with)")
    parser.add_argument("--all", action="store_true", help="every non-judge corpus reply, not only the 871 written before the rewrite")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--worker", metavar="TREE", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker, args.all)
    elif args.other:
        compare(str(Path(args.other).resolve()), args.all, args.passes)
    else:
        parser.error("name the other checkout")


if __name__ == "__main__":
    main()
