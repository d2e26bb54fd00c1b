"""Readings of this checkout against another's, for a change meant to read every reply as before (a
speed change, a refactor): every corpus reply, and perturbed copies of each that no rule was written
for (upper and lower case, a sentence of another reply before or after it, a cue phrase put before it,
after it or in its middle, doubled spaces, spaced commas), read by both checkouts, with every
disagreement printed.

    git worktree add /tmp/parser-before HEAD~1
    python tests/foundation/parse_corpus/tools/compare_readings.py /tmp/parser-before [--seed 7]

Exit status 1 when a reading differs. Each row is read as its task reads it (TAB-VLM set questions with
the polarity their task asks), through ``AnswerSpace._parse``.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parents[4]
CORPUS = HERE / "tests" / "foundation" / "parse_corpus"
# phrases put into replies: cues, corrections, conditions, negations, echoes, answers of other kinds
PHRASES = (
    "Wait, ",
    "Actually, ",
    "If the glaze is later, ",
    "not ",
    "重新考虑，",
    "Image 2 ",
    "None of the options fit. ",
    "```json\n",
    "**",
    "On second thought, ",
    "The answer is ",
    "Answer: ",
    "B, D, A, C",
    "A, C",
    "Option B. ",
    "(C) ",
    "I'm not sure. ",
    "No, ",
    "— no, ",
    "Step 1: ",
    'e.g. "1, 3" ',
    "Final answer: ",
    "答案：",
    "不是",
    "如果",
    "assuming ",
    "rather than ",
    "the odd one out is ",
    "stands out",
    "✓ ",
    "✗ ",
    "1. ",
    "\n- ",
    "Correct: ",
    "Let me reconsider. ",
)
ENDINGS = ("B.", "2, 0, 1, 3", "Image 1.", "1972", "C and D.", "A")


def variants(seed: int) -> list[dict]:
    rows = [
        json.loads(line)
        for path in sorted(CORPUS.glob("*.jsonl"))
        for line in path.read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    rows = [row for row in rows if row["answer_space"] is not None]
    rng = random.Random(seed)
    sentences = [part for row in rows for part in row["reply"].replace("\n", " \n ").split(". ") if 3 < len(part) < 200]
    out = []
    for row in rows:
        reply = row["reply"]
        half = len(reply) // 2
        for text in (
            reply,
            reply.upper(),
            reply.lower(),
            reply + " " + rng.choice(sentences),
            rng.choice(sentences) + ". " + reply,
            rng.choice(PHRASES) + reply,
            reply + "\n" + rng.choice(PHRASES) + rng.choice(ENDINGS),
            reply[:half] + rng.choice(PHRASES) + reply[half:],
            reply.replace(" ", "  "),
            reply.replace(",", " ,"),
        ):
            out.append({key: row[key] for key in ("kind", "task", "answer_space", "options")} | {"reply": text})
    return out


def read_all(tree: str, rows_path: str, out_path: str) -> None:
    """Every row's reading with ``tree``'s chronotasks, one repr a line."""
    sys.path.insert(0, tree)
    from dataclasses import replace

    from chronotasks.benchmarks.tabvlm.schema import BY_TASK
    from chronotasks.data.answer_space import AnswerSpace

    def canon(value):
        if isinstance(value, (set, frozenset)):
            return ["set", sorted(value)]
        return [canon(v) for v in value] if isinstance(value, tuple) else value

    lines = []
    for row in json.loads(Path(rows_path).read_text(encoding="utf-8")):
        space = AnswerSpace("dynasty") if row["kind"] == "dynasty" else AnswerSpace.from_json(row["answer_space"])
        if space.asks is None and row["task"] in BY_TASK:
            space = replace(space, asks=BY_TASK[row["task"]].answer_space.asks)
        try:
            value = canon(space._parse(row["reply"], row["options"]))
        except Exception as error:  # (an exception is a reading too: it must not differ either)
            value = f"exception {type(error).__name__}"
        lines.append(repr(value))
    Path(out_path).write_text("\n".join(lines), encoding="utf-8")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("other", nargs="?", help="the other checkout (a git worktree of the commit to compare with)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--read", nargs=3, metavar=("TREE", "ROWS", "OUT"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.read:
        read_all(*args.read)
        return 0
    if not args.other:
        parser.error("name the other checkout")
    rows = variants(args.seed)
    with tempfile.TemporaryDirectory() as folder:
        rows_path = Path(folder, "rows.json")
        rows_path.write_text(json.dumps(rows, ensure_ascii=False), encoding="utf-8")
        outs = {name: str(Path(folder, name)) for name in ("other", "this")}
        readers = [
            subprocess.Popen([sys.executable, __file__, "--read", tree, str(rows_path), outs[name]])
            for name, tree in (("other", str(Path(args.other).resolve())), ("this", str(HERE)))
        ]
        if any(reader.wait() for reader in readers):
            print("a checkout failed to read the rows", file=sys.stderr)
            return 2
        other, this = (Path(outs[name]).read_text(encoding="utf-8").split("\n") for name in ("other", "this"))
    differ = [i for i, (a, b) in enumerate(zip(other, this)) if a != b]
    for i in differ:
        print(f"{rows[i]['kind']} ({rows[i]['task']}): {other[i]} -> {this[i]}\n    {rows[i]['reply'][:400]!r}\n")
    print(f"{len(rows)} replies ({len(rows) // 10} corpus replies and 9 perturbed copies of each): {len(differ)} read differently")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
