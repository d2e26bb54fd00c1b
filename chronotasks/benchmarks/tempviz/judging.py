"""Glue between a TempViz task's generation replies and the judges (``judges.py`` beside this file);
the task hooks (chronotasks/tasks/tempviz/utils.py) call ``reply_item`` and ``verdict_summary``.

Judging is batched at aggregation time, the way MuseBench's BERTScore is computed once per task:

- ``process_results`` -> ``reply_item(doc, reply)``: reads the reply (lmms-eval's generation
  convention, ``{"text", "images": [path], "judge": {...}}``) and keeps what judging needs (the
  image path, the prompt fields, the judge settings). No model call. A reply that is not valid
  (not JSON, no image path, an image that does not exist, bad judge settings) is a
  ``generation_failure`` of that doc, never an exception.
- the aggregations -> ``judged(items)``: all images of the task are judged in one pass,
  ``judge_batch_size`` images per model call (API judges: that many requests in flight), once per
  task (memoised: the metrics share the pass). Verdicts are cached on disk (``VerdictCache``), so a
  rerun judges nothing again; a judgement that failed for good (``ChatError``) is counted as a
  ``judge_failure`` of that sample, reported, not cached (a rerun retries it), and the run goes on.
- per-sample verdicts: each item gets a ``verdict`` field, so ``--log_samples`` shows the verdict
  in every metric of every sample (single process; with several processes lmms-eval gathers
  copies before aggregating); and every judged pass writes
  ``<judge_cache_dir>/samples/tempviz_<category>.jsonl`` (one line per sample: id, image, judge,
  verdict), whatever the number of processes.

The judge configuration of a task comes, lowest priority first, from
``lmms_eval_specific_kwargs`` of the task YAML (keys ``judge``, ``judge_*``; seen
by ``doc_to_text`` and remembered per category), then from the ``judge*`` keys
of the model's ``--model_args`` (the chrono_diffusers backend copies them into
each reply's ``"judge"`` field), so a run can pick its judge on the command line.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
from collections import defaultdict
from pathlib import Path
from typing import Any

from chronotasks.benchmarks.tempviz.judges import (
    DEFAULT_BLIP,
    DEFAULT_CLIP,
    JudgeConfig,
    check_settings,
    default_text_model,
    judge_batch,
)
from chronotasks.data.cache_files import CacheDamage, file_digest, model_fingerprint, report_damage, seal, unseal
from chronotasks.data.errors import SettingsError

log = logging.getLogger(__name__)
_TASK_KWARGS: dict[str, dict[str, Any]] = {}
_MEMO: dict[str, list[dict[str, Any]]] = {}
WRITE_EVERY = 8
"""Batches judged between two appends to the verdict cache (a crash loses at most these)."""


def remember_task_kwargs(category: str, kwargs: dict[str, Any] | None) -> None:
    if kwargs:
        _TASK_KWARGS[category] = {k: v for k, v in kwargs.items() if k == "judge" or k.startswith("judge_")}


def judge_config(category: str, reply_config: dict[str, Any] | None) -> JudgeConfig:
    merged = {**_TASK_KWARGS.get(category, {}), **(reply_config or {})}
    return JudgeConfig.from_mapping(merged)


# -- process_results: one reply -> one item ------------------------------------------------------
def _read_reply(reply: Any) -> tuple[str | None, dict[str, Any]]:
    """(image path, judge settings from the reply) or raise ValueError saying what is wrong."""
    if not isinstance(reply, str):
        raise ValueError(f"reply is a {type(reply).__name__}, not JSON text")
    try:
        payload = json.loads(reply)
    except (ValueError, RecursionError) as err:  # JSONDecodeError, a 5,000-digit number, deep nesting
        raise ValueError(f"reply is not JSON ({type(err).__name__})") from None
    if not isinstance(payload, dict):
        raise ValueError(f"reply is a JSON {type(payload).__name__}, not an object")
    images = payload.get("images")
    if not isinstance(images, list) or not images:
        raise ValueError("reply has no 'images' list")
    image = images[0]
    if not isinstance(image, str) or not image:
        raise ValueError(f"reply's first image is {image!r}, not a path")
    if not os.path.isfile(image):
        raise ValueError(f"image {image} does not exist")
    settings = payload.get("judge") or {}
    if not isinstance(settings, dict) or not all(isinstance(v, (str, int, float, bool, type(None))) for v in settings.values()):
        raise ValueError(f"reply's 'judge' is not an object of settings: {str(settings)[:80]!r}")
    return image, settings


def reply_item(doc: dict[str, Any], reply: Any) -> dict[str, Any]:
    """What judging needs from one doc and its reply (no model call): id, prompt fields, image path,
    judge settings, and ``generation_error`` (None, or why the reply is not a usable image)."""
    category = doc["category"]
    task_settings = _TASK_KWARGS.get(category, {})
    item = {
        "id": str(doc.get("id", "?")),
        "category": category,
        "prompt": doc["prompt"],
        "prompt_body": doc.get("prompt_body") or "",
        "temporal_cue": doc.get("temporal_cue") or "",
        "image": None,
        "judge": dict(task_settings),
        "generation_error": None,
    }
    try:
        image, reply_settings = _read_reply(reply)
        merged = {**task_settings, **reply_settings}
        try:
            JudgeConfig.from_mapping(merged)
        except ValueError as err:
            JudgeConfig.from_mapping(task_settings)  # a bad task YAML setting is the user's error: raise it
            raise ValueError(f"reply's judge settings: {err}") from None
        item.update(image=image, judge=merged)
    except ValueError as err:
        item["generation_error"] = str(err)
    return item


# -- aggregation: all items of a task -> verdicts ---------------------------------------------------
def verdict_settings(config: JudgeConfig) -> dict[str, Any]:
    """The settings a verdict depends on: the verdict cache is keyed by them (not by device,
    endpoint, key, retries or batch size, which do not change a verdict)."""
    settings: dict[str, Any] = {"judge": config.judge, "threshold": config.resolved_threshold(), "version": 2}
    if config.judge == "clipscore":
        settings["model"] = model_fingerprint(config.model or DEFAULT_CLIP)
    elif config.judge == "caption":
        settings["model"] = model_fingerprint(config.model or DEFAULT_BLIP)
        settings["text_model"] = model_fingerprint(config.text_model or default_text_model())
    else:
        settings.update(
            model=config.model, prompt=config.prompt, shots=config.shots, accept_from=config.accept_from, max_tokens=config.max_tokens
        )
        if config.judge == "decomp_vqa":
            settings["llm_model"] = config.llm_model or config.model
        if config.shots and config.fewshot_file:
            settings["fewshot"] = hashlib.sha256(Path(config.fewshot_file).read_bytes()).hexdigest()
    return settings


class VerdictCache:
    """Verdicts on disk, one sealed JSON line per judged image (``cache_files.seal``: the line holds
    the SHA-256 of its content), in ``<cache_dir>/verdicts/<hash of verdict_settings>.jsonl`` (the
    settings beside it, as ``.settings.json``). Read once; new verdicts are appended after every few
    batches, each append one ``write`` on a file opened for appending, so concurrent runs interleave
    whole lines. Lines that fail their check (a crash mid-write, a flipped bit, an edit) are named
    in one warning and dropped: the file is rewritten without them and their images judged again."""

    def __init__(self, cache_dir: str | Path, settings: dict[str, Any]) -> None:
        blob = json.dumps(settings, sort_keys=True)
        folder = Path(cache_dir) / "verdicts"
        self.path = folder / f"{hashlib.sha256(blob.encode()).hexdigest()[:24]}.jsonl"
        self.entries: dict[str, dict[str, Any]] = {}
        self._pending: list[str] = []
        if self.path.is_file():
            self._read()
        else:
            folder.mkdir(parents=True, exist_ok=True)
            settings_file = self.path.with_suffix(".settings.json")
            tmp = settings_file.with_name(f".{settings_file.name}.{os.getpid()}.tmp")
            tmp.write_text(blob, encoding="utf-8")
            os.replace(tmp, settings_file)

    def _read(self) -> None:
        good, damaged = [], 0
        with open(self.path, "rb") as handle:
            for line in handle:
                try:
                    record = unseal(line)
                    if not isinstance(record.get("key"), str) or not isinstance(record.get("verdict"), dict):
                        raise CacheDamage("a line without key or verdict")
                except CacheDamage:
                    damaged += 1
                    continue
                self.entries[record["key"]] = record["verdict"]
                good.append(line if line.endswith(b"\n") else line + b"\n")
        if damaged:
            report_damage(self.path, f"{damaged} line(s) fail their check")
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            tmp.write_bytes(b"".join(good))
            os.replace(tmp, self.path)

    @staticmethod
    def key(item: dict[str, Any]) -> str:
        """The image's bytes (SHA-256) and the prompt fields the judge reads; ``OSError`` when the
        image cannot be read."""
        digest = file_digest(item["image"])
        if digest is None:
            raise FileNotFoundError(f"generated image {item['image']} cannot be read")
        fields = [digest, item["prompt"], item["prompt_body"], item["temporal_cue"]]
        return hashlib.sha256(json.dumps(fields, ensure_ascii=False).encode()).hexdigest()

    def get(self, key: str) -> dict[str, Any] | None:
        return self.entries.get(key)

    def put(self, key: str, verdict: dict[str, Any]) -> None:
        self.entries[key] = verdict
        self._pending.append(seal({"key": key, "verdict": verdict}).decode() + "\n")

    def flush(self) -> None:
        if self._pending:
            with open(self.path, "a", encoding="utf-8") as handle:
                handle.write("".join(self._pending))
            self._pending = []


def _failure(kind: str, error: str) -> dict[str, Any]:
    return {
        "accept": None,
        "score": None,
        "parse_failure": False,
        "judge_failure": kind == "judge",
        "generation_failure": kind == "generation",
        "error": error,
    }


def _memo_key(items: list[dict[str, Any]]) -> str:
    fields = [
        [i.get(k) for k in ("id", "image", "prompt", "prompt_body", "temporal_cue", "generation_error")] + [i.get("judge")] for i in items
    ]
    return hashlib.sha256(json.dumps(fields, sort_keys=True, ensure_ascii=False, default=str).encode()).hexdigest()


def judged(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The verdict of every item (from ``reply_item``), judging in batches what the cache lacks.

    Memoised per exact list of items, so the task's metrics share one pass; each item also gets
    its verdict as ``item["verdict"]`` and the pass is written to the per-sample record.
    """
    if items and all("verdict" in item for item in items):
        return [item["verdict"] for item in items]
    memo = _memo_key(items)
    if memo not in _MEMO:
        _MEMO[memo] = _judge_all(items)
    verdicts = _MEMO[memo]
    for item, verdict in zip(items, verdicts):
        item["verdict"] = verdict
    return verdicts


def _judge_all(items: list[dict[str, Any]]) -> list[dict[str, Any]]:
    from tqdm import tqdm

    verdicts: list[dict[str, Any] | None] = [None] * len(items)
    groups: dict[str, list[int]] = defaultdict(list)
    record_dirs: dict[str, str] = {}
    for n, item in enumerate(items):
        if item["generation_error"]:
            verdicts[n] = _failure("generation", item["generation_error"])
        else:
            groups[json.dumps(item["judge"], sort_keys=True, default=str)].append(n)
    for settings_json, members in groups.items():
        config = JudgeConfig.from_mapping(json.loads(settings_json))
        try:
            check_settings(config)  # before any image is judged: one line and exit 1, not a judge failure per image
        except ValueError as err:
            raise SettingsError(f"tempviz_{items[members[0]]['category'].lower()} judge: {err}") from None
        cache = VerdictCache(config.cache_dir, verdict_settings(config))
        todo: list[tuple[int, str]] = []
        for n in members:
            try:
                key = cache.key(items[n])
            except OSError as err:  # the image vanished since process_results
                verdicts[n] = _failure("generation", f"{type(err).__name__}: {err}")
                continue
            hit = cache.get(key)
            if hit is not None:
                verdicts[n] = hit
            else:
                todo.append((n, key))
        category = items[members[0]]["category"]
        step = config.batch_size * WRITE_EVERY
        with tqdm(
            total=len(todo), desc=f"judging tempviz_{category.lower()} ({config.judge}, batch {config.batch_size})", disable=not todo
        ) as bar:
            for start in range(0, len(todo), step):
                part = todo[start : start + step]
                for (n, key), verdict in zip(part, judge_batch([(items[n]["image"], items[n]) for n, _ in part], config, bar)):
                    verdicts[n] = verdict
                    if not (verdict["judge_failure"] or verdict["generation_failure"]):
                        cache.put(key, verdict)
                cache.flush()
        record_dirs.setdefault(category, config.cache_dir)
        failed = [items[n]["id"] for n in members if verdicts[n]["judge_failure"]]
        if failed:
            log.warning(
                "tempviz_%s: %d of %d judgements failed (%s judge; last: %s: %s); counted in judge_failure, not cached: a rerun asks again",
                category.lower(),
                len(failed),
                len(members),
                config.judge,
                failed[-1],
                [verdicts[n]["error"] for n in members if verdicts[n]["judge_failure"]][-1],
            )
    for category in dict.fromkeys(item["category"] for item in items):
        members = [n for n, item in enumerate(items) if item["category"] == category]
        first = items[members[0]]["judge"]
        folder = record_dirs.get(category) or first.get("judge_cache_dir") or first.get("cache_dir") or JudgeConfig.cache_dir
        _write_record(
            Path(folder) / "samples" / f"tempviz_{category.lower()}.jsonl", [items[n] for n in members], [verdicts[n] for n in members]
        )
    return verdicts  # type: ignore[return-value]


def _write_record(path: Path, items: list[dict[str, Any]], verdicts: list[dict[str, Any]]) -> None:
    """``<judge_cache_dir>/samples/tempviz_<category>.jsonl``: this pass's verdict of every sample."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    with open(tmp, "w", encoding="utf-8") as handle:
        for item, verdict in zip(items, verdicts):
            record = {"id": item["id"], "image": item["image"], "prompt": item["prompt"], "judge": item["judge"].get("judge"), **verdict}
            handle.write(json.dumps(record, ensure_ascii=False) + "\n")
    os.replace(tmp, path)


def verdict_summary(items: list[dict[str, Any]]) -> dict[str, list[float | None]]:
    """Per-sample values of the task's metrics, from the verdicts: acceptance (0/1; a failure is not
    accepted), score (None where there is none), judge_parse_failure, judge_failure, generation_failure."""
    verdicts = judged(items)
    return {
        "acceptance": [float(v["accept"] is True) for v in verdicts],
        "score": [v["score"] for v in verdicts],
        "judge_parse_failure": [float(bool(v["parse_failure"])) for v in verdicts],
        "judge_failure": [float(bool(v["judge_failure"])) for v in verdicts],
        "generation_failure": [float(bool(v["generation_failure"])) for v in verdicts],
    }


def judge_reply(doc: dict[str, Any], reply: Any) -> dict[str, Any]:
    """Metrics of one doc judged alone (a batch of one): acceptance, score, failure flags."""
    return {name: values[0] for name, values in verdict_summary([reply_item(doc, reply)]).items()}


__all__ = [
    "VerdictCache",
    "judge_config",
    "judge_reply",
    "judged",
    "remember_task_kwargs",
    "reply_item",
    "verdict_settings",
    "verdict_summary",
]
