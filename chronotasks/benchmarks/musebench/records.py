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
from chronotasks.prompts import render

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
            qas.append(
                {
                    "artifact_id": artifact["id"],
                    "qtype": field,
                    "source": "template",
                    "question": render(f"musebench/qa_{field}.j2"),
                    "answer": value,
                }
            )
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
        records.append(
            {
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
            }
        )
    return records


def vqa_files(artifacts: list[dict[str, Any]], qas: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The VQA task files ({relative name: records}) of the artifacts and their question-answer pairs."""
    return {
        "qa.jsonl": qas,
        "vqa.jsonl": vqa_records(artifacts, qas),
        "vqa_descriptive.jsonl": vqa_records(artifacts, qas, descriptive_only=True),
    }


def write_files(out_dir: Path, files: dict[str, list[dict[str, Any]]]) -> dict[str, int]:
    """Write {relative name: records} under ``out_dir``; returns the record counts."""
    for name, records in files.items():
        write_jsonl(Path(out_dir) / name, records)
    return {name: len(records) for name, records in files.items()}


def write_vqa_files(out_dir: Path, artifacts: list[dict[str, Any]], qas: list[dict[str, Any]]) -> dict[str, int]:
    return write_files(out_dir, vqa_files(artifacts, qas))


def retrieval_files(artifacts: list[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """The retrieval corpora and query files ({relative name: records}) of the artifacts."""
    files: dict[str, list[dict[str, Any]]] = {"retrieval/corpus_images.jsonl": [{"id": a["id"], "images": a["images"]} for a in artifacts]}
    for setting in SETTINGS:
        corpus_text = f"retrieval/corpus_text_{setting}.jsonl"
        texts = [{"id": a["id"], "text": artifact_text(a, setting)} for a in artifacts]
        files[corpus_text] = texts
        i2t = []
        for a in artifacts:
            for k, view in enumerate(a["images"]):
                i2t.append(
                    {
                        "id": f"{a['id']}#v{k}",
                        "artifact_id": a["id"],
                        "museum": a["museum"],
                        "museum_key": a["museum_key"],
                        "images": [view],
                        "view": k,
                        "query_text": "",
                        "corpus": corpus_text,
                        "corpus_modality": "text",
                        "answer_space": TEXT_SPACE,
                    }
                )
        t2i = [
            {
                "id": a["id"],
                "artifact_id": a["id"],
                "museum": a["museum"],
                "museum_key": a["museum_key"],
                "images": [],
                "query_text": text["text"],
                "corpus": "retrieval/corpus_images.jsonl",
                "corpus_modality": "image",
                "answer_space": TEXT_SPACE,
            }
            for a, text in zip(artifacts, texts)
        ]
        files[f"retrieval_i2t_{setting}.jsonl"] = i2t
        files[f"retrieval_t2i_{setting}.jsonl"] = t2i
    return files


def task_files(artifacts: list[dict[str, Any]], qas: list[dict[str, Any]] | None = None) -> dict[str, list[dict[str, Any]]]:
    """artifacts.jsonl, the retrieval files and the VQA files (template QAs when no ``qas`` are given)."""
    if qas is None:
        qas = [qa for a in artifacts for qa in template_qas(a)]
    return {"artifacts.jsonl": artifacts, **retrieval_files(artifacts), **vqa_files(artifacts, qas)}


def write_all(out_dir: Path, artifacts: list[dict[str, Any]], qas: list[dict[str, Any]] | None = None) -> dict[str, int]:
    """Write ``task_files`` under ``out_dir``; returns the record counts."""
    return write_files(out_dir, task_files(artifacts, qas))
