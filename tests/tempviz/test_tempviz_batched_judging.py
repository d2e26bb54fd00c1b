"""Batched TempViz judging (judge_batch / the aggregation-time pass of judging.py) against
per-image judging: the same verdicts with a tiny CLIP, a tiny BLIP + the real MiniLM and an API
judge behind a local OpenAI-compatible stub; a rerun judges nothing; a failed API judgement is
that sample's counted judge failure and the run goes on; replies that are not valid are counted
generation failures, never exceptions."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openai_stub import OpenAIStub, last_user_text  # noqa: E402
from tempviz_tiny import build_tiny_blip  # noqa: E402
from tiny_models import make_tiny_clip  # noqa: E402

from chronotasks.benchmarks.tempviz import judges, judging  # noqa: E402
from chronotasks.benchmarks.tempviz.judges import JudgeConfig, judge_batch, judge_image  # noqa: E402
from chronotasks.tasks.tempviz import utils  # noqa: E402

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


def _doc(n: int) -> dict:
    subject = SUBJECTS[n % len(SUBJECTS)]
    return {
        "id": f"Animals-{n}",
        "category": "Animals",
        "prompt": f"Create a photorealistic image of {subject}.",
        "prompt_body": f"a photorealistic image of {subject}.",
        "temporal_cue": subject.split(" ", 3)[-1],
    }


@pytest.fixture(scope="module")
def models(tmp_path_factory):
    root = tmp_path_factory.mktemp("judge_models")
    return {"clip": make_tiny_clip(root / "clip"), "blip": build_tiny_blip(root / "blip")}


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    """36 distinct 64x64 images (the tiny SD pipeline's size) with their docs."""
    folder = tmp_path_factory.mktemp("generated")
    rng = np.random.default_rng(0)
    pairs = []
    for n in range(36):
        path = folder / f"{n}.png"
        base = rng.integers(0, 256, 3)
        pixels = np.clip(base + rng.normal(0, 40, (64, 64, 3)), 0, 255).astype(np.uint8)
        Image.fromarray(pixels).save(path)
        pairs.append((str(path), _doc(n)))
    return pairs


def _reply(path: str, **settings) -> str:
    return json.dumps({"text": "", "images": [path], "judge": settings})


def _threshold_between(scores: list[float]) -> float:
    """A threshold in the widest gap near the median, so verdicts are mixed and no score is near it."""
    ordered = sorted(scores)
    mid = len(ordered) // 2
    gaps = [(ordered[i + 1] - ordered[i], i) for i in range(max(1, mid - 6), min(len(ordered) - 2, mid + 6))]
    gap, i = max(gaps)
    assert gap > 1e-4
    return (ordered[i] + ordered[i + 1]) / 2


@pytest.mark.parametrize("judge", ["clipscore", "caption"])
def test_model_judge_batches_give_per_image_verdicts(judge, models, generated):
    pairs = generated if judge == "clipscore" else generated[:12]  # BLIP + MiniLM one image at a time is slow on CPU
    base = {"judge": judge, "judge_model": str(models["clip" if judge == "clipscore" else "blip"]), "judge_device": "cpu"}
    single = JudgeConfig.from_mapping({**base, "judge_threshold": "0", "judge_batch_size": "1"})
    per_image = [judge_image(path, doc, single) for path, doc in pairs]
    scores = [v["score"] for v in per_image]
    threshold = _threshold_between(scores)
    for batch_size in (8, 32):
        config = JudgeConfig.from_mapping({**base, "judge_threshold": str(threshold), "judge_batch_size": str(batch_size)})
        batched = judge_batch(pairs, config)
        assert [v["accept"] for v in batched] == [s >= threshold for s in scores]  # the per-image verdicts at this threshold
        assert 0 < sum(v["accept"] for v in batched) < len(batched)  # the threshold splits them
        assert [v["score"] for v in batched] == pytest.approx(scores, abs=1e-5)
        if judge == "caption":
            assert [v["caption"] for v in batched] == [v["caption"] for v in per_image]
        assert not any(v["judge_failure"] or v["generation_failure"] for v in batched)


@pytest.mark.parametrize("kind", ["clip", "blip"])
def test_images_of_one_size_are_processed_together_to_the_processors_own_values(kind, models, generated):
    import torch
    from transformers import AutoImageProcessor

    images = [Image.open(path).convert("RGB") for path, _ in generated[:5]] + [Image.open(generated[5][0]).convert("L")]
    processor = AutoImageProcessor.from_pretrained(models[kind], use_fast=True)
    expected = processor(images=[image.convert("RGB") for image in images], return_tensors="pt")["pixel_values"]
    assert torch.equal(judges.pixel_values(images, kind, str(models[kind])), expected)


def test_a_batch_of_images_of_different_sizes_is_judged_as_one_at_a_time(models, generated, tmp_path):
    pairs = []
    for n, (w, h) in enumerate([(64, 64), (48, 80), (64, 64), (120, 40)]):
        path = tmp_path / f"{w}x{h}.png"
        Image.open(generated[n][0]).resize((w, h)).save(path)
        pairs.append((str(path), generated[n][1]))
    config = JudgeConfig.from_mapping(
        {"judge": "clipscore", "judge_model": str(models["clip"]), "judge_threshold": "0", "judge_batch_size": "4", "judge_device": "cpu"}
    )
    scores = [v["score"] for v in judge_batch(pairs, config)]
    assert scores == pytest.approx([judge_image(path, doc, config)["score"] for path, doc in pairs], abs=1e-5)
    assert len(set(np.round(scores, 4))) == 4  # four different images, four different scores


def test_aggregation_judges_each_image_once_and_a_rerun_none(models, generated, tmp_path):
    settings = {
        "judge": "clipscore",
        "judge_model": str(models["clip"]),
        "judge_threshold": "0.0",
        "judge_batch_size": "8",
        "judge_device": "cpu",
        "judge_cache_dir": str(tmp_path / "cache"),
    }
    replies = [_reply(path, **settings) for path, _ in generated] + ["not json", _reply(str(tmp_path / "deleted.png"), **settings)]
    docs = [doc for _, doc in generated] + [_doc(36), _doc(37)]

    def run():
        per_doc = [utils.process_results(doc, [reply]) for doc, reply in zip(docs, replies)]
        return {name: getattr(utils, name)([metrics[name] for metrics in per_doc]) for name in utils.METRICS}, per_doc

    before = judges.JUDGED.get("clipscore", 0)
    first, per_doc = run()
    assert judges.JUDGED["clipscore"] - before == 36  # five metrics, one pass, each valid image once
    reference = [judge_image(path, doc, JudgeConfig.from_mapping(settings)) for path, doc in generated]
    assert first["generation_failure"] == pytest.approx(2 / 38) and first["judge_failure"] == 0.0
    assert first["acceptance"] == pytest.approx(sum(v["accept"] for v in reference) / 38)
    assert first["score"] == pytest.approx(np.mean([v["score"] for v in reference]), abs=1e-6)
    # every sample's verdict is in its logged metric values, and in the per-sample record
    assert per_doc[0]["acceptance"]["verdict"]["score"] == pytest.approx(reference[0]["score"], abs=1e-5)
    assert per_doc[36]["score"]["verdict"]["generation_failure"] is True
    record = [json.loads(line) for line in (tmp_path / "cache" / "samples" / "tempviz_animals.jsonl").read_text().splitlines()]
    assert len(record) == 38 and record[1]["id"] == "Animals-1" and record[1]["score"] == pytest.approx(reference[1]["score"], abs=1e-5)

    judging._MEMO.clear()  # a new process: only the disk cache remains
    again, _ = run()
    assert judges.JUDGED["clipscore"] - before == 36 + 36  # the reference judged 36 more; the rerun judged none
    assert again == first


def test_failed_api_judgement_is_counted_and_the_run_goes_on(generated, tmp_path):
    pairs = generated[:8]
    dead = "koala"  # the server drops every request about the koala image

    def flaky(body):
        if dead in last_user_text(body):
            raise ConnectionError("server dropped the request")
        return "Yes."

    settings = {
        "judge": "vlm_direct",
        "judge_model": "stub-vlm",
        "judge_max_retries": "1",
        "judge_batch_size": "4",
        "judge_cache_dir": str(tmp_path / "cache"),
    }
    with OpenAIStub(responder=flaky) as stub:
        settings["judge_base_url"] = stub.base_url
        per_doc = [utils.process_results(doc, [_reply(path, **settings)]) for path, doc in pairs]
        values = {name: getattr(utils, name)([m[name] for m in per_doc]) for name in utils.METRICS}
        failed = [m["acceptance"]["verdict"]["judge_failure"] for m in per_doc]
        assert failed == [dead in doc["prompt"] for _, doc in pairs] and sum(failed) == 1
        assert values["judge_failure"] == pytest.approx(1 / 8) and values["acceptance"] == pytest.approx(7 / 8)
        assert values["generation_failure"] == 0.0 and values["judge_parse_failure"] == 0.0
        assert "ChatError" in per_doc[1]["score"]["verdict"]["error"]
        assert len(stub.requests) == 7 + 2  # seven answered; the koala request tried twice (one retry)
        # batched API verdicts are the per-image ones (same requests, same replies: from the chat cache)
        config = JudgeConfig.from_mapping(settings)
        batched = judge_batch([p for p in pairs if dead not in p[1]["prompt"]], config)
        alone = [judge_image(path, doc, config) for path, doc in pairs if dead not in doc["prompt"]]
        assert batched == alone
    with OpenAIStub(responder=lambda body: "Yes.") as healthy:
        settings["judge_base_url"] = healthy.base_url
        judging._MEMO.clear()
        per_doc = [utils.process_results(doc, [_reply(path, **settings)]) for path, doc in pairs]
        values = {name: getattr(utils, name)([m[name] for m in per_doc]) for name in utils.METRICS}
        assert len(healthy.requests) == 1  # only the failed judgement is asked again
        assert values["judge_failure"] == 0.0 and values["acceptance"] == 1.0


@pytest.mark.parametrize(
    "reply",
    [
        '{"images": [null]}',
        '{"judge": "x"}',
        "1" * 5000,
        "[" * 100000,
        "[]",
        "null",
        '"a string"',
        '{"images": "a.png"}',
        '{"images": []}',
        '{"images": [{"path": "a.png"}]}',
        "",
        None,
        42,
        ["a.png"],
    ],
)
def test_invalid_replies_are_counted_generation_failures(reply, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the per-sample record goes to ./chrono_judge_cache (no judge_cache_dir here)
    metrics = utils.process_results(_doc(0), [reply])
    values = {name: getattr(utils, name)([metrics[name]]) for name in utils.METRICS}
    # the task's only sample has no image: a failed task (NaN), not an acceptance of 0
    assert values["generation_failure"] == 1.0 and math.isnan(values["acceptance"]) and values["judge_failure"] == 0.0
    assert metrics["acceptance"]["verdict"]["error"]
    monkeypatch.setenv("CHRONOTASKS_MAX_FAILURE", "1")  # the rule off: the failed sample is scored as not accepted
    assert utils.acceptance([metrics["acceptance"]]) == 0.0


def test_invalid_judge_settings_in_a_valid_reply_are_counted(generated, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    path, doc = generated[0]
    for reply in (
        json.dumps({"images": [path], "judge": "x"}),
        _reply(path, judge="no-such-judge"),
        json.dumps({"images": [path], "judge": {"judge_threshold": [1]}}),
        _reply(path, judge_batch_size="0"),
    ):
        metrics = utils.process_results(doc, [reply])
        assert utils.generation_failure([metrics["generation_failure"]]) == 1.0, reply
    assert utils.process_results(doc, [])["acceptance"]["generation_error"]  # no reply at all


def test_unreadable_image_in_a_batch_is_that_samples_generation_failure(models, generated, tmp_path):
    truncated = tmp_path / "truncated.png"
    truncated.write_bytes(Path(generated[0][0]).read_bytes()[:40])
    not_an_image = tmp_path / "notes.png"
    not_an_image.write_text("not an image")
    pairs = [generated[1], (str(truncated), _doc(50)), generated[2], (str(not_an_image), _doc(51)), generated[3]]
    for batch_size in ("2", "5"):  # failures last in their batch; failures between good images in one batch
        config = JudgeConfig.from_mapping(
            {
                "judge": "clipscore",
                "judge_model": str(models["clip"]),
                "judge_threshold": "0",
                "judge_batch_size": batch_size,
                "judge_device": "cpu",
            }
        )
        verdicts = judge_batch(pairs, config)
        assert [v["generation_failure"] for v in verdicts] == [False, True, False, True, False]
        assert "truncated.png" in verdicts[1]["error"] and verdicts[1]["accept"] is None
        for n in (0, 2, 4):
            assert verdicts[n]["score"] == pytest.approx(judge_image(*pairs[n], config)["score"], abs=1e-5)
    # a batch with no readable image at all, then a good one: the next batch is still judged
    verdicts = judge_batch([(str(truncated), _doc(50)), (str(not_an_image), _doc(51)), generated[1]], config)
    assert [v["generation_failure"] for v in verdicts] == [True, True, False]
    assert verdicts[2]["score"] == pytest.approx(judge_image(*generated[1], config)["score"], abs=1e-5)
