"""The optional LLM answer extractor against a local OpenAI-compatible stub (127.0.0.1): off by
default, used only when the rules find no answer, its output validated by the rules, calls cached
and retried, the deciding extractor logged with each sample of a real lmms-eval run."""

from __future__ import annotations

import glob
import json
from pathlib import Path

import pytest
from openai_stub import OpenAIStub, last_user_text

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.extraction import ExtractorConfig, llm_extract, read_answer

LETTER = AnswerSpace("letter", n=4)
OPTIONS = ["Early Modern", "Modern", "Bronze Age", "Classical"]


def _env(monkeypatch, stub, tmp_path):
    monkeypatch.setenv("CHRONOTASKS_EXTRACTOR_MODEL", "stub-extractor")
    monkeypatch.setenv("CHRONOTASKS_EXTRACTOR_BASE_URL", stub.base_url)
    monkeypatch.setenv("CHRONOTASKS_EXTRACTOR_CACHE", str(tmp_path / "cache"))


def test_off_by_default(monkeypatch):
    monkeypatch.delenv("CHRONOTASKS_EXTRACTOR_MODEL", raising=False)
    assert ExtractorConfig.from_env() is None
    assert read_answer(LETTER, "The answer is C.", OPTIONS) == ("C", {})
    assert read_answer(LETTER, "I honestly have no idea.", OPTIONS) == (None, {})


def test_rules_first_then_llm_validated_and_cached(monkeypatch, tmp_path):
    replies = {"rambling": "B", "bad": "E", "none": "NO ANSWER"}

    def responder(body):
        prompt = last_user_text(body)
        assert "one option letter (A-D)" in prompt and "B. Modern" in prompt
        return next(v for k, v in replies.items() if f"<<{k}>>" in prompt)

    with OpenAIStub(responder=responder) as stub:
        _env(monkeypatch, stub, tmp_path)
        # the rules decide: no call
        assert read_answer(LETTER, "Answer: C", OPTIONS) == ("C", {"extractor": "rules"})
        assert stub.requests == []
        # the rules find nothing; the extractor's "B" is a valid letter
        assert read_answer(LETTER, "<<rambling>> the glaze looks like the later of the two styles", OPTIONS) == ("B", {"extractor": "llm"})
        assert stub.requests[0]["temperature"] == 0
        # an output outside the space ("E" of four options) and "NO ANSWER" are no answer
        assert read_answer(LETTER, "<<bad>> hmm", OPTIONS) == (None, {"extractor": "none"})
        assert read_answer(LETTER, "<<none>> hmm", OPTIONS) == (None, {"extractor": "none"})
        assert len(stub.requests) == 3
        # the same request again comes from the disk cache
        assert read_answer(LETTER, "<<rambling>> the glaze looks like the later of the two styles", OPTIONS)[0] == "B"
        assert len(stub.requests) == 3


def test_retries_and_a_failed_call_is_one_unparsed_sample(monkeypatch, tmp_path):
    config = ExtractorConfig(model="m", base_url=None, cache_dir=str(tmp_path / "c"), max_retries=3, backoff_base=0.01)
    with OpenAIStub(responder=lambda body: "1972", failures=[429, 503]) as stub:
        config = ExtractorConfig(**{**config.__dict__, "base_url": stub.base_url})
        assert llm_extract(AnswerSpace("year", lo=1900, hi=2000), "seventies, early ones I reckon", config=config) == 1972
        assert stub.statuses == [429, 503, 200]
    with OpenAIStub(responder=lambda body: "1972", failures=[400]) as stub:
        config = ExtractorConfig(**{**config.__dict__, "base_url": stub.base_url, "cache_dir": str(tmp_path / "d")})
        assert llm_extract(AnswerSpace("year", lo=1900, hi=2000), "seventies", config=config) is None


@pytest.mark.slow
def test_lmms_eval_run_logs_the_extractor(lmms_eval_run, demo_root, tmp_path):
    """A model whose replies the rules cannot read: with the extractor on, the samples say "llm"."""

    def responder(body):
        prompt = last_user_text(body)
        return "B" if "one option letter" in prompt else "2"

    with OpenAIStub(responder=responder) as stub:
        env = {
            "CHRONOTASKS_EXTRACTOR_MODEL": "stub-extractor",
            "CHRONOTASKS_EXTRACTOR_BASE_URL": stub.base_url,
            "CHRONOTASKS_EXTRACTOR_CACHE": str(tmp_path / "cache"),
        }
        results = lmms_eval_run(
            "--model", "chrono_constant", "--model_args", "answer=hmm tough one", "--tasks", "chrono_demo", "--log_samples", extra_env=env
        )
    assert results["results"]["chrono_demo_period"]["parse_failure,none"] == 0.0
    assert results["results"]["chrono_demo_pair"]["parse_failure,none"] == 0.0
    files = glob.glob(str(tmp_path / "**" / "*_samples_chrono_demo_period.jsonl"), recursive=True)
    samples = [json.loads(line) for f in files for line in Path(f).read_text().splitlines()]
    assert samples and {s["extractor"] for s in samples} == {"llm"}
    period = [json.loads(line) for line in (demo_root / "chrono_demo" / "period.jsonl").read_text().splitlines()]
    expected = sum(d["answer"] == "B" for d in period) / len(period)
    assert results["results"]["chrono_demo_period"]["accuracy,none"] == pytest.approx(expected)
    # one request per distinct prompt: the constant reply is the same for every doc of a task with the same options
    assert 2 <= len(stub.requests) <= len(period) + 40
