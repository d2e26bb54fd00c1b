"""Time MuseBench retrieval at 1k / 10k / 100k candidates (not a test).

    PYTHONPATH=. python perf/musebench_retrieval_scaling.py [--sizes 1000 10000 100000] [--dim 512] [--queries 1000]

- Ranking: random unit vectors as corpus and queries, faiss IndexFlatIP (what chrono_embed
  uses) top-10 for --queries queries, vs the numpy brute force, per corpus size.
- Corpus embedding: a tiny Chinese-CLIP (random weights, built from a config) embeds
  --embed-images drawn images in batches, to give images/second; the time to embed N
  candidates is extrapolated linearly (embedding is linear in N, streamed in batches).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 100000])
    parser.add_argument("--dim", type=int, default=512)
    parser.add_argument("--queries", type=int, default=1000)
    parser.add_argument("--embed-images", type=int, default=256)
    parser.add_argument("--batch", type=int, default=64)
    args = parser.parse_args()

    from chronotasks.scoring.retrieval import brute_force_rank, l2_normalize
    from model_shims.chrono_embed import build_index, search

    rng = np.random.default_rng(0)
    queries = l2_normalize(rng.normal(size=(args.queries, args.dim)))
    print(f"ranking: {args.queries} queries, dim {args.dim}, top-10")
    print(f"{'candidates':>11} {'faiss build s':>14} {'faiss search s':>15} {'numpy s':>9} {'agree':>6}")
    for n in args.sizes:
        corpus = l2_normalize(rng.normal(size=(n, args.dim)))
        t0 = time.perf_counter()
        index = build_index(corpus)
        t1 = time.perf_counter()
        _, f_idx = search(index, queries, 10)
        t2 = time.perf_counter()
        _, n_idx = brute_force_rank(queries, corpus, 10)
        t3 = time.perf_counter()
        print(f"{n:>11} {t1 - t0:>14.3f} {t2 - t1:>15.3f} {t3 - t2:>9.3f} {bool((f_idx == n_idx).all()):>6}")

    from tiny_models import make_tiny_chinese_clip

    from chronotasks.data.drawing import draw_scene
    from model_shims.chrono_embed import ChronoEmbed

    with tempfile.TemporaryDirectory() as tmp:
        model_dir = make_tiny_chinese_clip(Path(tmp) / "clip", ["青釉圆腹圈足"])
        model = ChronoEmbed(pretrained=str(model_dir), embed_batch_size=args.batch, cache_dir=str(Path(tmp) / "cache"))
        r = random.Random(0)
        images = [draw_scene(r, size=224) for _ in range(args.embed_images)]
        t0 = time.perf_counter()
        for start in range(0, len(images), args.batch):
            model.embed_images(images[start:start + args.batch])
        rate = len(images) / (time.perf_counter() - t0)
    print(f"\ncorpus embedding (tiny Chinese-CLIP, CPU, batch {args.batch}): {rate:.1f} images/s")
    for n in args.sizes:
        print(f"{n:>11} candidates x 4.38 views (paper's mean): ~{n * 4.38 / rate:.1f} s (a real CLIP is far slower per image)")


if __name__ == "__main__":
    main()
