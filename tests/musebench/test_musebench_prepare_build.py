"""`chronotasks prepare musebench` on catalogs in the Appendix A.1/A.2 formats, and
`chronotasks build musebench-qa` against a local OpenAI-compatible stub (intermittent failures,
malformed replies, crash-resume from the call cache)."""

import json
import random

import pytest
from openai_stub import OpenAIStub, last_user_text

from chronotasks.cli import main
from chronotasks.data.drawing import save_scene
from chronotasks.data.loading import read_jsonl


@pytest.fixture
def catalog(tmp_path):
    rng = random.Random(0)
    root = tmp_path / "catalog"
    for name in ("a1.png", "a2.png", "b1.png", "b2.png", "b3.png", "c1.png", "d1.png", "d2.png", "e1.png", "e2.png", "f1.png", "f2.png"):
        save_scene(root / "img" / name, rng, size=16)
    zhejiang_zh_a1 = {
        "图片": ["img/a1.png", "img/a2.png", "img/a2.png"],
        "名称": "青釉盘口壶",
        "馆藏类型": "瓷器",
        "藏品年代": "唐",
        "尺寸(cm)": "高15",
        "简介": "盘口短颈，圆腹，下承圈足，通体施青釉。",
        "藏品级别": "一级",
    }
    palace_en_a2 = {
        "id": 7,
        "structural_desc.": {"title": "Landscape", "category": "绘画", "period": "清·乾隆", "author": "王翚"},
        "descriptive_desc.": {"description": "绢本设色，山水人物。"},
        "images": ["img/b1.png", "img/b2.png", "img/b3.png"],
    }
    one_view = {
        "images": ["img/c1.png", "https://example.org/c2.jpg"],
        "title": "x",
        "category": "铜器",
        "period": "商",
        "size": "1",
        "description": "饕餮纹",
        "unified artifact number": "故铜001",
    }
    two_missing = {"images": ["img/d1.png", "img/d2.png"], "title": "y", "size": "1", "description": "d", "unified artifact number": "N2"}
    no_description = {
        "images": ["img/e1.png", "img/e2.png"],
        "title": "z",
        "category": "玉器",
        "period": "汉",
        "size": "2",
        "unified artifact number": "N3",
    }
    future_year = {
        "片": ["img/f1.png", "img/f2.png"],
        "文物一": "N4",
        "品名": "w",
        "分": "玉器",
        "代": "汉",
        "尺寸": "3",
        "明": "2999年入藏。",
    }
    (root / "zhejiang.json").write_text(json.dumps(zhejiang_zh_a1, ensure_ascii=False), encoding="utf-8")
    (root / "palace.json").write_text(json.dumps([palace_en_a2], ensure_ascii=False), encoding="utf-8")
    (root / "npm.jsonl").write_text(
        "\n".join(json.dumps(r, ensure_ascii=False) for r in (one_view, two_missing, no_description, future_year)), encoding="utf-8"
    )
    return root


def test_prepare_standardizes_and_reports_drops(catalog, prepare_musebench):
    report, printed, out = prepare_musebench(catalog, "--crawl-year", "2025")
    assert "kept 2 artifacts" in printed and "fewer_than_2_views" in printed
    assert report["dropped_by_reason"] == {
        "fewer_than_2_views": 1,
        "missing_structural_fields": 1,
        "missing_description": 1,
        "year_after_crawl": 1,
    }
    assert report["kept_by_museum"] == {"The Palace Museum": 1, "Zhejiang Provincial Museum": 1}
    one_view = next(d for d in report["dropped_records"] if d["reason"] == "fewer_than_2_views")
    assert one_view["id"] == "故铜001" and "URL not downloaded" in one_view["detail"] and one_view["file"].endswith("npm.jsonl")
    artifacts = {a["museum_key"]: a for a in read_jsonl(out / "artifacts.jsonl")}
    zj, palace = artifacts["zhejiang"], artifacts["palace"]
    assert zj["structural_desc"] == {"title": "青釉盘口壶", "category": "瓷器", "period": "唐", "size": "高15", "grade": "一级"}
    assert zj["dynasty"] == "Tang" and len(zj["images"]) == 2  # the duplicated view is counted once
    assert palace["id"] == "7" and palace["dynasty"] == "Qing" and palace["structural_desc"]["author"] == "王翚"
    # template VQA: title, period, category (+ author for the Palace record); never size
    vqa = read_jsonl(out / "vqa.jsonl")
    assert sorted(r["qtype"] for r in vqa) == sorted(["title", "period", "category", "title", "period", "category", "author"])
    # retrieval: one I2T query per view, one T2I query per artifact
    assert len(read_jsonl(out / "retrieval_i2t_structural.jsonl")) == 5
    t2i = read_jsonl(out / "retrieval_t2i_structural_nl.jsonl")
    assert {r["query_text"] for r in t2i} >= {"这是一件唐的瓷器，名为“青釉盘口壶”，藏品级别为一级。"}


def test_prepare_never_replaces_prepared_data_by_fewer_records(catalog, prepare_musebench, tmp_path):
    _, _, out = prepare_musebench(catalog, "--crawl-year", "2025")
    before = {p.relative_to(out): p.read_bytes() for p in out.rglob("*.jsonl")}
    (catalog / "palace.json").unlink()  # a partial copy of the catalog: one artifact fewer
    assert main(["prepare", "musebench", "--catalog", str(catalog), "--out", str(out), "--crawl-year", "2025"]) == 1
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*.jsonl")} == before  # nothing written, nothing staged left
    assert not list(out.rglob("*.staged-*"))
    report, _, _ = prepare_musebench(catalog, "--crawl-year", "2025", "--force")
    assert report["kept"] == 1 and len(read_jsonl(out / "artifacts.jsonl")) == 1


def _responder(body):
    text = last_user_text(body)
    if "质量核验员" in text:  # C.2 verification: the second pair fails
        pairs = json.loads(text.split("问答对：", 1)[1])
        return json.dumps(
            [{**p, "valid": i != 1, "reason": None if i != 1 else "multi_aspect"} for i, p in enumerate(pairs)], ensure_ascii=False
        )
    if "山水" in text:  # the Palace record's description: a malformed reply
        return "抱歉，我无法完成。"
    return (
        '```json\n[{"question": "这件文物的釉色是什么样的？", "answer": "青釉"}, {"question": "这件文物的腹部形状和足部如何？", '
        '"answer": "圆腹"}, {"question": "这件文物的高度是多少？", "answer": "15厘米"}, {"question": "这件文物的足部结构是什么？", '
        '"answer": "圈足"}]\n```'
    )


def test_build_qa_with_flaky_stub_then_resume_from_cache(catalog, prepare_musebench):
    _, _, out = prepare_musebench(catalog, "--crawl-year", "2025")
    with OpenAIStub(responder=_responder, failures=[429], fail_every=3, fail_status=500) as stub:
        assert (
            main(
                [
                    "build",
                    "musebench-qa",
                    "--data",
                    str(out),
                    "--base-url",
                    stub.base_url,
                    "--model",
                    "stub-gen",
                    "--verify-model",
                    "stub-verify",
                    "--backoff",
                    "0.01",
                ]
            )
            == 0
        )
        assert 429 in stub.statuses and 500 in stub.statuses
        # 3 successful calls: zhejiang generate + verify, palace generate (malformed: no verify)
        assert stub.n_success == 3
    report = json.loads((out / "build_qa_report.json").read_text())
    assert report["rejected_by_reason"] == {"generate:malformed_json": 1}
    assert report["qa_counts"] == {"template": 7, "size_questions_dropped": 1, "generated": 3, "failed_verification": 1, "descriptive": 2}
    descriptive = read_jsonl(out / "vqa_descriptive.jsonl")
    assert [(r["question"], r["answer"]) for r in descriptive] == [
        ("这件文物的釉色是什么样的？", "青釉"),
        ("这件文物的足部结构是什么？", "圈足"),
    ]
    assert all(r["museum_key"] == "zhejiang" and len(r["images"]) == 2 for r in descriptive)
    assert len(read_jsonl(out / "vqa.jsonl")) == 9
    first = (out / "vqa.jsonl").read_text()

    # a rerun (e.g. after a crash) is served from the call cache: the server is gone, nothing fails
    assert (
        main(
            [
                "build",
                "musebench-qa",
                "--data",
                str(out),
                "--base-url",
                stub.base_url,
                "--model",
                "stub-gen",
                "--verify-model",
                "stub-verify",
                "--max-retries",
                "0",
            ]
        )
        == 0
    )
    assert (out / "vqa.jsonl").read_text() == first
    report = json.loads((out / "build_qa_report.json").read_text())
    # every reply was cached, the malformed one too (temperature 0 would give it again): no call at all
    assert report["api"]["generate"] == {"cache_hits": 2, "api_calls": 0, "retries": 0}
    assert report["api"]["verify"] == {"cache_hits": 1, "api_calls": 0, "retries": 0}
