"""Score a blind batch with the committed parser, before any fix (see ../README.md, "Blind batches").

    python tests/foundation/parse_corpus/tools/score_batch.py BATCH.jsonl [--fold N]

A batch row is written from the prompt catalog (catalog.py): ``kind``, ``task``, ``style``,
``answer_space`` and ``options`` as the catalog shows them, the ``reply`` and its ``label`` in the
catalog's terms (option numbers for the release prompts). Prints agreement and silent wrong
answers (read as a different answer than the label, or an answer where the label is null), per
kind, and every disagreement. Each row is read as its task reads it (a TAB-VLM set question with
the polarity its task asks, ``asks``). ``--fold N`` writes the rows in the corpus' form (labels as
the parser's values: letters for option numbers; ``batch`` = ``blind-N:LINE``) to stdout.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

from chronotasks.benchmarks.tabvlm.schema import BY_TASK
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.scoring.t2i import parse_verdict

LETTERS = "ABCDEFGHIJ"
# The first catalog (batches 8 and 9) listed period names of its own for MuseBench labels, not Table 6's:
# --v1-periods reads them as Table 6 names (Liao and the Jurchen Jin have no Table 6 row: no answer).
V1_PERIODS = {
    "Prehistoric": "Neolithic",
    "Northern and Southern": "Northern and Southern Dynasties",
    "Republic": "Republic of China",
    "PRC": "People's Republic of China",
    "Liao": None,
    "Jin (Jurchen)": None,
}
JUDGE_PROMPTS = {"judge_yes_no": "standard", "judge_rating": "judging"}


def base_task(task: str) -> str:
    return task.removesuffix("_release")


def space_of(row: dict) -> AnswerSpace:
    if row["kind"] == "dynasty":
        return AnswerSpace(kind="dynasty")
    space = AnswerSpace.from_json(row["answer_space"])
    if space.asks is None and base_task(row["task"]) in BY_TASK:
        space = replace(space, asks=BY_TASK[base_task(row["task"])].answer_space.asks)
    return space


def label_value(row: dict, v1_periods: bool = False):
    """The label as the parser's value: letters for numbered options, sets for sets, tuples for orders."""
    label, kind = row["label"], row["kind"]
    if kind == "dynasty" and v1_periods:
        label = V1_PERIODS.get(label, label)
    if label is None or kind.startswith("judge"):
        return label
    numbered = bool(row.get("answer_space") and AnswerSpace.from_json(row["answer_space"]).numbered)
    letter = (lambda v: LETTERS[int(v) - 1]) if numbered else (lambda v: v)
    if kind == "letter":
        return letter(label)
    if kind in ("letter_set", "k_of_n"):
        return frozenset(letter(v) for v in label)
    if kind == "ordering":
        return tuple(letter(v) for v in label)
    if kind == "year":
        return int(label)
    return str(label) if kind == "choice" else label


def read(row: dict):
    if row["kind"] in JUDGE_PROMPTS:
        return parse_verdict(row["reply"], JUDGE_PROMPTS[row["kind"]])
    return space_of(row).parse(row["reply"], row.get("options"))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("batch")
    parser.add_argument("--fold", type=int, help="write the rows in the corpus' form, batch blind-N")
    parser.add_argument("--v1-periods", action="store_true", help="MuseBench labels use the first catalog's period names")
    args = parser.parse_args(argv)
    rows = [(n, json.loads(line)) for n, line in enumerate(Path(args.batch).read_text(encoding="utf-8").splitlines(), 1) if line.strip()]
    if args.fold is not None:
        for n, row in rows:
            value = label_value(row, args.v1_periods)
            label = sorted(value) if isinstance(value, frozenset) else list(value) if isinstance(value, tuple) else value
            out = {k: row.get(k) for k in ("kind", "task", "style", "answer_space", "options", "reply")}
            if out["kind"] == "dynasty":
                out["answer_space"] = {"kind": "dynasty"}
            print(json.dumps({**out, "label": label, "note": row.get("note", ""), "batch": f"blind-{args.fold}:{n}"}, ensure_ascii=False))
        return 0
    agree, silent, total = Counter(), Counter(), Counter()
    misses = []
    for n, row in rows:
        want, got = label_value(row, args.v1_periods), read(row)
        total[row["kind"]] += 1
        if got == want:
            agree[row["kind"]] += 1
            continue
        wrong = got is not None
        silent[row["kind"]] += wrong
        misses.append(
            f"{'SILENT WRONG' if wrong else 'abstained   '} line {n} [{row['task']}, {row.get('style')}] "
            f"label {want!r} read {got!r}\n    {row['reply']!r}"
        )
    n_all = sum(total.values())
    print(
        f"{n_all} replies: agreement {100 * sum(agree.values()) / n_all:.1f}% ({sum(agree.values())}/{n_all}), "
        f"silent wrong {sum(silent.values())}"
    )
    for kind in sorted(total):
        print(f"  {kind:14s} {agree[kind]:4d}/{total[kind]:<4d} silent wrong {silent[kind]}")
    print("\n".join(misses))
    return 0


if __name__ == "__main__":
    sys.exit(main())
