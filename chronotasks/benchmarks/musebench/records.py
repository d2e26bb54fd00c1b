"""Task files of MuseBench, made from canonical artifact records (schema.py) and QA pairs.

Layout of ``$CHRONOTASKS_DATA/musebench/`` (written by ``prepare``, ``build musebench-qa``
and ``demo-data`` alike)::

    artifacts.jsonl                         canonical artifact records
    qa.jsonl                                all QA pairs (template + descriptive), from build
    vqa.jsonl / vqa_descriptive.jsonl       Cultural VQA task files (all QAs / descriptive only)
    retrieval/corpus_images.jsonl           {"id", "images"}: the artifacts as multi-view image sets
    retrieval/corpus_text_<setting>.jsonl   {"id", "text"}: the artifact texts of a setting
    retrieval_i2t_<setting>.jsonl           one query per image view; target = its artifact's text
    retrieval_t2i_<setting>.jsonl           one query per artifact text; target = its image set

Settings: ``structural`` (metadata as "名称：…；年代：…" pairs), ``structural_nl`` (the same
metadata as one natural-language sentence, Fig. 4) and ``descriptive`` (the curator's text).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import write_jsonl
from prompts import render

SETTINGS = ("structural", "structural_nl", "descriptive")
TEMPLATE_FIELDS = ("title", "period", "category", "author")  # never size (§3.2.2)
TEXT_SPACE = AnswerSpace("text").to_json()


def artifact_text(artifact: dict[str, Any], setting: str) -> str:
    s = artifact["structural_desc"]
    if setting == "structural":
        return render("musebench/structural_text.j2", s=s)
    if setting == "structural_nl":
        return render("musebench/structural_nl.j2", s=s)
    if setting == "descriptive":
        return artifact["descriptive_desc"]["description"]
    raise ValueError(f"unknown retrieval setting {setting!r}; expected one of {SETTINGS}")


def template_qas(artifact: dict[str, Any]) -> list[dict[str, Any]]:
    """Template QA pairs from the structured fields title, period, category, author (§3.2.2)."""
    qas = []
    for field in TEMPLATE_FIELDS:
        value = artifact["structural_desc"].get(field)
        if value:
            qas.append({"artifact_id": artifact["id"], "qtype": field, "source": "template",
                        "question": render(f"musebench/qa_{field}.j2"), "answer": value})
    return qas


def vqa_records(artifacts: list[dict[str, Any]], qas: list[dict[str, Any]], descriptive_only: bool = False) -> list[dict[str, Any]]:
    by_id = {a["id"]: a for a in artifacts}
    records, counters = [], {}
    for qa in qas:
        if descriptive_only and qa["qtype"] != "descriptive":
            continue
        artifact = by_id.get(qa["artifact_id"])
        if artifact is None:
            continue
        n = counters[artifact["id"]] = counters.get(artifact["id"], 0) + 1
        records.append({
            "id": f"{artifact['id']}-q{n:03d}" if not qa.get("id") else qa["id"],
            "artifact_id": artifact["id"],
            "museum": artifact["museum"],
            "museum_key": artifact["museum_key"],
            "images": artifact["images"],
            "question": qa["question"],
            "answer": qa["answer"],
            "qtype": qa["qtype"],
            "source": qa.get("source", "template"),
            "dynasty": artifact.get("dynasty"),
            "answer_space": TEXT_SPACE,
        })
    return records


def write_vqa_files(out_dir: Path, artifacts: list[dict[str, Any]], qas: list[dict[str, Any]]) -> dict[str, int]:
    out_dir = Path(out_dir)
    write_jsonl(out_dir / "qa.jsonl", qas)
    full = vqa_records(artifacts, qas)
    descriptive = vqa_records(artifacts, qas, descriptive_only=True)
    write_jsonl(out_dir / "vqa.jsonl", full)
    write_jsonl(out_dir / "vqa_descriptive.jsonl", descriptive)
    return {"qa.jsonl": len(qas), "vqa.jsonl": len(full), "vqa_descriptive.jsonl": len(descriptive)}


def write_retrieval_files(out_dir: Path, artifacts: list[dict[str, Any]]) -> dict[str, int]:
    out_dir = Path(out_dir)
    counts = {}
    write_jsonl(out_dir / "retrieval" / "corpus_images.jsonl", [{"id": a["id"], "images": a["images"]} for a in artifacts])
    counts["retrieval/corpus_images.jsonl"] = len(artifacts)
    for setting in SETTINGS:
        corpus_text = f"retrieval/corpus_text_{setting}.jsonl"
        texts = [{"id": a["id"], "text": artifact_text(a, setting)} for a in artifacts]
        write_jsonl(out_dir / corpus_text, texts)
        counts[corpus_text] = len(texts)
        i2t = []
        for a in artifacts:
            for k, view in enumerate(a["images"]):
                i2t.append({"id": f"{a['id']}#v{k}", "artifact_id": a["id"], "museum": a["museum"], "museum_key": a["museum_key"],
                            "images": [view], "view": k, "query_text": "", "corpus": corpus_text, "corpus_modality": "text",
                            "answer_space": TEXT_SPACE})
        t2i = [{"id": a["id"], "artifact_id": a["id"], "museum": a["museum"], "museum_key": a["museum_key"], "images": [],
                "query_text": text["text"], "corpus": "retrieval/corpus_images.jsonl", "corpus_modality": "image",
                "answer_space": TEXT_SPACE} for a, text in zip(artifacts, texts)]
        write_jsonl(out_dir / f"retrieval_i2t_{setting}.jsonl", i2t)
        write_jsonl(out_dir / f"retrieval_t2i_{setting}.jsonl", t2i)
        counts[f"retrieval_i2t_{setting}.jsonl"] = len(i2t)
        counts[f"retrieval_t2i_{setting}.jsonl"] = len(t2i)
    return counts


def write_all(out_dir: Path, artifacts: list[dict[str, Any]], qas: list[dict[str, Any]] | None = None) -> dict[str, int]:
    """artifacts.jsonl, retrieval files and VQA files (template QAs when no ``qas`` are given)."""
    out_dir = Path(out_dir)
    write_jsonl(out_dir / "artifacts.jsonl", artifacts)
    counts = {"artifacts.jsonl": len(artifacts)}
    counts.update(write_retrieval_files(out_dir, artifacts))
    if qas is None:
        qas = [qa for a in artifacts for qa in template_qas(a)]
    counts.update(write_vqa_files(out_dir, artifacts, qas))
    return counts
