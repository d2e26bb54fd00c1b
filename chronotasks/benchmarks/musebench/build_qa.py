"""Build MuseBench QA pairs: template QAs from structured fields and LLM-generated, LLM-verified descriptive QAs.

    chronotasks build musebench-qa --data $CHRONOTASKS_DATA/musebench \
        --base-url http://localhost:8000/v1 --model gpt-4o-mini [--verify-model gpt-4o] [--api-key KEY]

§3.2.2: template questions for title, period, category and author (never size); descriptive
questions generated from each curator description with the Appendix C.1 prompt and checked
with the C.2 prompt (prompts/musebench/qa_generate.j2, qa_verify.j2; Chinese originals),
through any OpenAI-compatible chat API. Without --base-url only template QAs are built.

Every API call is cached on disk (``--cache-dir``, default DATA/.qa_cache) keyed by the
request, so a rerun after a crash repeats no finished call; 429/5xx errors are retried with
backoff. A reply that is not a JSON array of {"question", "answer"} objects (or, for
verification, of {"valid", ...} results matching the pairs) rejects that artifact's
descriptive QAs, counted in DATA/build_qa_report.json; the build goes on.
Writes qa.jsonl, vqa.jsonl and vqa_descriptive.jsonl in DATA.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any

from tqdm import tqdm

from chronotasks.benchmarks.musebench import records
from chronotasks.data.loading import DataError, read_jsonl
from chronotasks.prompts import render
from chronotasks.scoring.parsing import extract_json_array

SIZE_WORDS = ("尺寸", "厘米", "毫米", "公分", "规格", "开本", "高度", "长度", "宽度", "大小", "比例")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--data", required=True, help="the musebench data folder holding artifacts.jsonl (written by prepare)")
    parser.add_argument(
        "--base-url", default=None, help="OpenAI-compatible endpoint, e.g. http://localhost:8000/v1 (none: template QAs only)"
    )
    parser.add_argument("--model", default="gpt-4o-mini", help="generation model (paper: GPT-4o-mini)")
    parser.add_argument("--verify-model", default=None, help="verification model (paper: GPT-4o; default: --model)")
    parser.add_argument("--api-key", default=None, help="API key (default: $OPENAI_API_KEY, or none for local servers)")
    parser.add_argument("--no-verify", action="store_true", help="skip the C.2 verification stage")
    parser.add_argument("--cache-dir", default=None, help="API call cache (default: DATA/.qa_cache)")
    parser.add_argument("--max-retries", type=int, default=5)
    parser.add_argument("--timeout", type=float, default=60)
    parser.add_argument("--backoff", type=float, default=1.0, help="first retry delay in seconds (doubles each retry)")
    parser.add_argument("--limit", type=int, default=None, help="only the first N artifacts")


def parse_generated(reply: str) -> list[dict[str, str]] | None:
    """QA pairs of a C.1 reply: a JSON array of {"question", "answer"} string objects; None if malformed."""
    items = extract_json_array(reply)
    if items is None or not items:
        return None
    pairs = []
    for item in items:
        if not isinstance(item, dict) or not isinstance(item.get("question"), str) or not isinstance(item.get("answer"), str):
            return None
        question, answer = item["question"].strip(), item["answer"].strip()
        if question and answer:
            pairs.append({"question": question, "answer": answer})
    return pairs or None


def parse_verdicts(reply: str, pairs: list[dict[str, str]]) -> list[bool] | None:
    """Per-pair validity of a C.2 reply (one result per pair, in order; "valid" a boolean); None if malformed."""
    items = extract_json_array(reply)
    if items is None or len(items) != len(pairs):
        return None
    verdicts = []
    for item, pair in zip(items, pairs):
        if not isinstance(item, dict) or not isinstance(item.get("valid"), bool):
            return None
        if "question" in item and str(item["question"]).strip() != pair["question"]:
            return None
        verdicts.append(item["valid"])
    return verdicts


def _user(text: str) -> list[dict[str, Any]]:
    return [{"role": "user", "content": text}]


def build(
    data: Path,
    base_url: str | None = None,
    model: str = "gpt-4o-mini",
    verify_model: str | None = None,
    api_key: str | None = None,
    verify: bool = True,
    cache_dir: Path | None = None,
    max_retries: int = 5,
    timeout: float = 60,
    backoff: float = 1.0,
    limit: int | None = None,
) -> dict[str, Any]:
    data = Path(data)
    path = data / "artifacts.jsonl"
    if not path.is_file():
        raise DataError(f"{path} does not exist; run `chronotasks prepare musebench --out {data}` first")
    artifacts = read_jsonl(path)[:limit]
    qas: list[dict[str, Any]] = []
    stats: Counter = Counter()
    rejected: list[dict[str, str]] = []
    generator = checker = None
    if base_url:
        from chronotasks.chat_client import CachedChatClient, ChatError

        cache = Path(cache_dir) if cache_dir else data / ".qa_cache"
        kwargs = dict(api_key=api_key, cache_dir=cache, max_retries=max_retries, timeout=timeout, backoff_base=backoff)
        generator = CachedChatClient(base_url, model, **kwargs)
        checker = CachedChatClient(base_url, verify_model or model, **kwargs) if verify else None
    for artifact in tqdm(artifacts, desc="musebench QA"):
        template = records.template_qas(artifact)
        qas.extend(template)
        stats["template"] += len(template)
        if generator is None:
            continue
        description = artifact["descriptive_desc"]["description"]
        try:
            reply = generator.chat(_user(render("musebench/qa_generate.j2", description=description)), temperature=0)
        except ChatError as err:
            rejected.append({"id": artifact["id"], "stage": "generate", "reason": "api_error", "detail": str(err)[:300]})
            continue
        pairs = parse_generated(reply)
        if pairs is None:
            rejected.append({"id": artifact["id"], "stage": "generate", "reason": "malformed_json", "detail": reply[:300]})
            continue
        kept = [p for p in pairs if not any(word in p["question"] for word in SIZE_WORDS)]
        stats["size_questions_dropped"] += len(pairs) - len(kept)
        stats["generated"] += len(kept)
        if kept and checker is not None:
            qa_json = json.dumps(kept, ensure_ascii=False, indent=2)
            try:
                verdict_reply = checker.chat(
                    _user(render("musebench/qa_verify.j2", description=description, qa_json=qa_json)), temperature=0
                )
            except ChatError as err:
                rejected.append({"id": artifact["id"], "stage": "verify", "reason": "api_error", "detail": str(err)[:300]})
                continue
            verdicts = parse_verdicts(verdict_reply, kept)
            if verdicts is None:
                rejected.append({"id": artifact["id"], "stage": "verify", "reason": "malformed_json", "detail": verdict_reply[:300]})
                continue
            stats["failed_verification"] += verdicts.count(False)
            kept = [p for p, ok in zip(kept, verdicts) if ok]
        for pair in kept:
            qas.append({"artifact_id": artifact["id"], "qtype": "descriptive", "source": "llm", **pair})
        stats["descriptive"] += len(kept)
    counts = records.write_vqa_files(data, artifacts, qas)
    report = {
        "artifacts": len(artifacts),
        "qa_counts": dict(stats),
        "rejected_artifacts": len(rejected),
        "rejected_by_reason": dict(Counter(f"{r['stage']}:{r['reason']}" for r in rejected)),
        "files": counts,
        "api": {"generate": generator.stats if generator else None, "verify": checker.stats if checker else None},
        "rejected": rejected,
    }
    (data / "build_qa_report.json").write_text(json.dumps(report, ensure_ascii=False, indent=2), encoding="utf-8")
    return report


def run(args: argparse.Namespace) -> int:
    report = build(
        Path(args.data),
        args.base_url,
        args.model,
        args.verify_model,
        args.api_key,
        not args.no_verify,
        Path(args.cache_dir) if args.cache_dir else None,
        args.max_retries,
        args.timeout,
        args.backoff,
        args.limit,
    )
    print(json.dumps({k: v for k, v in report.items() if k != "rejected"}, ensure_ascii=False, indent=2))
    return 0
