"""How much time chronotasks adds per sample next to the model (not a test).

Times, on this machine: answer parsing for each answer type, loading a task
file of N records (process_docs), and opening one record's images
(doc_to_visual). Run: python benchmarks/harness_overhead.py [--records 20000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import tempfile
import time
from pathlib import Path

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.drawing import save_scene
from chronotasks.data.loading import doc_images, load_task_docs, write_jsonl
from chronotasks.scoring import parse_json_choice, parse_letter, parse_letter_set, parse_ordering, parse_year, parse_yes_no

OUTPUTS = {
    "letter": (lambda t: parse_letter(t, 4), ["B", "The answer is C.", "Looking at the style, I think A. Final answer: A", "I cannot tell."]),
    "letter_set": (lambda t: parse_letter_set(t, 4), ["A, C", "The answers are B and D.", "None", "ACD"]),
    "ordering": (lambda t: parse_ordering(t, 4), ["A, C, B, D", "A→C→B→D", "Oldest first: B, A, D, C.", "unsure"]),
    "year": (lambda t: parse_year(t), ["1987", "It was taken around 1963.", '{"year": 2001}', "the 1980s"]),
    "json_choice": (parse_json_choice, ['{"answer": "1"}', '```json\n{"time_anchors": [], "answer": "2"}\n```', "2", "no idea"]),
    "yes_no": (parse_yes_no, ["Yes", "No, the cars are modern.", "Answer: yes", "maybe"]),
}


def per_call_us(fn, items, repeat: int) -> float:
    start = time.perf_counter()
    for _ in range(repeat):
        for item in items:
            fn(item)
    return (time.perf_counter() - start) / (repeat * len(items)) * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=20000)
    args = parser.parse_args()

    print("| step | per sample |\n|---|---:|")
    for name, (fn, texts) in OUTPUTS.items():
        print(f"| parse {name} | {per_call_us(fn, texts, 2000):.1f} µs |")

    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bench = root / "bench"
        rng = random.Random(0)
        for j in range(4):
            save_scene(bench / f"images/{j}.png", rng, size=256)
        records = [{"id": f"r{i}", "images": [f"images/{j}.png" for j in range(4)], "answer": "A",
                    "answer_space": AnswerSpace("letter", n=4).to_json()} for i in range(args.records)]
        write_jsonl(bench / "task.jsonl", records)
        os.environ["CHRONOTASKS_DATA"] = str(root)
        start = time.perf_counter()
        docs = load_task_docs("bench", "task.jsonl")
        elapsed = time.perf_counter() - start
        print(f"| load {args.records} records (process_docs, once per task) | {elapsed / args.records * 1e6:.1f} µs |")
        start = time.perf_counter()
        for i in range(200):
            doc_images(docs[i])
        print(f"| open 4 images of 256×256 (doc_to_visual) | {(time.perf_counter() - start) / 200 * 1e3:.2f} ms |")
    print(json.dumps({"note": "compare with model time per sample (typically 100 ms to seconds for a VLM)"}))


if __name__ == "__main__":
    main()
