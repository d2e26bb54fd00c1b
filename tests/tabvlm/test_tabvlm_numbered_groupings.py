"""TAB-VLM grouping replies written as numbered lines, through lmms-eval's own ``openai`` model
class against the local OpenAI-compatible stub (tests/openai_stub.py), as a model served behind an
API answers: every ``1. C\\n2. A\\n3. B`` reply used to be a parse failure.
"""

from __future__ import annotations

import json

import pytest
from openai_stub import OpenAIStub, count_images

from chronotasks.scoring import jaccard


@pytest.mark.slow
@pytest.mark.parametrize(
    "reply,picked",
    [
        ("1. C\n2. A\n3. B", {"A", "B", "C"}),  # in no particular order
        (
            "The three from the same period are:\n\n1. **Artifact A** – a bronze figure\n2. **Artifact C** – a bronze lamp\n"
            "3. **Artifact D** – a bronze vessel\n\nB and E are later.",
            {"A", "C", "D"},
        ),
    ],
)
def test_numbered_line_groupings_are_read_through_the_openai_class(reply, picked, demo_root, tmp_path, lmms_eval_runner):
    docs = [json.loads(line) for line in (demo_root / "tabvlm" / "grouping.jsonl").read_text().splitlines()]
    with OpenAIStub(responder=lambda body: reply) as stub:
        results = lmms_eval_runner(
            "--model",
            "openai",
            "--model_args",
            f"model=stub-vlm,base_url={stub.base_url},api_key=sk-test",
            "--tasks",
            "tabvlm_grouping",
            data_root=demo_root,
            output_path=tmp_path / "out",
            extra_env={"HF_HUB_OFFLINE": "1", "NO_PROXY": "127.0.0.1"},
        )
    assert len(stub.requests) == len(docs) and all(count_images(body) == 5 for body in stub.requests)
    scores = results["results"]["tabvlm_grouping"]
    assert scores["parse_failure,none"] == 0.0
    assert scores["accuracy,none"] == pytest.approx(sum(set(d["answer"]) == picked for d in docs) / len(docs))
    assert scores["jaccard,none"] == pytest.approx(sum(jaccard(frozenset(picked), d["answer"]) for d in docs) / len(docs))
