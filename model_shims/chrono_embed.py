"""``chrono_embed``: embedding retrieval with a CLIP-family dual encoder (transformers).

    lmms-eval --model chrono_embed --model_args pretrained=/path/to/chinese-clip,embed_batch_size=64 \
        --tasks musebench_retrieval --include_path "$(chronotasks tasks-path)"

Works on retrieval documents that name their candidate corpus (MuseBench retrieval files):
``corpus`` (a JSONL path: ``{"id", "text"}`` or ``{"id", "images"}`` rows), ``corpus_modality``
("text"/"image") and ``corpus_root`` (folder the corpus' image paths are relative to). The query
is the other modality: a document's images (``doc_to_visual``) for a text corpus, its context
text for an image corpus. The reply to each request is JSON ``{"ranked": [ids, best first]}``
(``top_k`` of them), which the task turns into hits.

- Model: ``AutoModel`` + ``AutoProcessor`` (CLIPModel, ChineseCLIPModel, any model with
  ``get_text_features`` / ``get_image_features``), loaded with ``from_pretrained(pretrained)``;
  tested with tiny CLIPModel and ChineseCLIPModel checkpoints.
- Corpus: embedded once per (model, corpus file content, settings) in batches with a progress
  bar, L2-normalised, cached on disk as ``.npy`` (``cache_dir``, default ``default_cache_dir()``;
  reruns and other tasks that share the corpus reuse it) and indexed with faiss ``IndexFlatIP`` (exact cosine); on a GPU
  when the model runs on CUDA and faiss has GPU support (``faiss_gpu=auto``, the default;
  ``faiss_gpu=false`` keeps it on the CPU).
- Queries: embedded ``embed_batch_size`` at a time, ranked ``search_block`` (16,384) at a time:
  one faiss call per block, as fast as one call for all queries, memory bounded
  (``SEARCH_BLOCK``; ``perf/musebench_retrieval_scaling.py`` measures it at MuseBench scale).
- Multi-view artifacts (image corpus): each view embedding is L2-normalised, the views of an
  artifact are averaged and the mean is L2-normalised again (``scoring.retrieval.pool_views``);
  images are streamed ``batch_size`` at a time, and views are summed into a per-artifact
  accumulator, so memory is O(artifacts × dim) whatever the number of images.
- Texts longer than the text encoder's window are truncated (``max_text_length``).
- Several processes (``torchrun`` / ``accelerate launch``): each embeds the corpus it needs (or
  reads it from the shared cache) and answers its own shard of the queries; cache files are written
  under a name unique to the writer and renamed into place (``launcher.write_atomically``), ids
  before vectors, so concurrent writers and readers never see a partial file.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections import defaultdict
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
from lmms_eval.api.instance import Instance
from tqdm import tqdm

from chronotasks.data.fetch import sha256_of
from chronotasks.data.locations import cache_home
from chronotasks.scoring.retrieval import l2_normalize
from chronotasks.model_shims.launcher import LauncherModel, write_atomically


def default_cache_dir() -> Path:
    """``$CHRONOTASKS_CACHE/embeddings``, else ``embeddings`` in the per-user chronotasks folder
    (``chronotasks.data.locations.cache_home``: moved by ``$CHRONOTASKS_HOME`` / ``$XDG_CACHE_HOME``)."""
    return (Path(os.environ["CHRONOTASKS_CACHE"]) if os.environ.get("CHRONOTASKS_CACHE") else cache_home()) / "embeddings"


SEARCH_BLOCK = 16384
"""Queries per faiss call. faiss's flat search tiles a call itself (4,096 queries x 1,024 corpus
rows per BLAS product), so one call per 16k queries runs as fast as one call for all of them
(perf/musebench_retrieval_scaling.py), while memory stays bounded: the block's query vectors
(16,384 x dim x 4 bytes: 32 MiB at dim 512), its top-k results (16,384 x k x 12 bytes) and faiss's
own tiles (about 16 MiB), whatever the number of queries."""


def build_index(vectors: np.ndarray, device: str | None = None, use_gpu: str | bool = "auto"):
    """A faiss inner-product index over L2-normalised float32 rows (exact: ``IndexFlatIP``).

    On a CUDA ``device`` and with a faiss built with GPU support (``faiss-gpu``), ``use_gpu``
    "auto"/True moves the index to that GPU (exact too; top-k up to 2,048); otherwise, or with
    ``use_gpu=False``, it stays on the CPU.
    """
    import faiss

    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    index = faiss.IndexFlatIP(vectors.shape[1])
    index.add(vectors)
    wanted = str(use_gpu).lower() not in ("false", "0", "no", "cpu")
    if wanted and device and str(device).startswith("cuda") and gpu_faiss_available():
        resources = faiss.StandardGpuResources()
        gpu = int(str(device).split(":")[1]) if ":" in str(device) else 0
        gpu_index = faiss.index_cpu_to_gpu(resources, gpu, index)
        gpu_index.chrono_resources = resources  # the GPU memory pool must live as long as the index
        return gpu_index
    if str(use_gpu).lower() in ("true", "1", "yes", "gpu"):
        raise RuntimeError(f"chrono_embed: faiss_gpu={use_gpu} needs a faiss built with GPU support (faiss-gpu) and a cuda device, "
                           f"have device={device!r}, GPUs seen by faiss: {getattr(faiss, 'get_num_gpus', lambda: 0)()}")
    return index


def gpu_faiss_available() -> bool:
    import faiss

    return hasattr(faiss, "StandardGpuResources") and getattr(faiss, "get_num_gpus", lambda: 0)() > 0


def search(index, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(scores, indices) of the top-k rows of ``index`` per query, best first."""
    k = min(int(k), index.ntotal)
    return index.search(np.ascontiguousarray(queries, dtype=np.float32), k)


def rank_in_blocks(index, batches: Iterable[tuple[list[Any], np.ndarray]], k: int,
                   block: int = SEARCH_BLOCK) -> Iterator[tuple[list[Any], np.ndarray]]:
    """Rank streamed query batches in blocks: one faiss search per ``block`` queries.

    ``batches`` yields ``(owners, vectors)`` as the encoder produces them (a few dozen queries
    each); they are copied into one ``block x dim`` buffer, which is searched when full (and once
    more for the rest). Yields ``(owners, top-k corpus indices)`` per block, in input order; the
    rankings are those of one search over all queries.
    """
    buffer: np.ndarray | None = None
    owners: list[Any] = []
    for batch_owners, vectors in batches:
        vectors = np.asarray(vectors, dtype=np.float32)
        if len(batch_owners) != len(vectors):
            raise ValueError(f"{len(batch_owners)} owners for {len(vectors)} query vectors")
        if buffer is None:
            buffer = np.empty((block, vectors.shape[1]), np.float32)
        done = 0
        while done < len(vectors):
            take = min(block - len(owners), len(vectors) - done)
            buffer[len(owners):len(owners) + take] = vectors[done:done + take]
            owners.extend(batch_owners[done:done + take])
            done += take
            if len(owners) == block:
                yield owners, search(index, buffer, k)[1]
                owners = []
    if owners:
        yield owners, search(index, buffer[:len(owners)], k)[1]


class ChronoEmbed(LauncherModel):
    def __init__(self, pretrained: str, embed_batch_size: int = 32, device: str | None = None, top_k: int = 10,
                 cache_dir: str | None = None, max_text_length: int | None = None, dtype: str = "float32",
                 search_block: int = SEARCH_BLOCK, faiss_gpu: str = "auto", **kwargs: Any) -> None:
        super().__init__(device=device)
        import torch
        from transformers import AutoModel, AutoProcessor

        # lmms-eval passes its --batch_size / --max_batch_size (requests per call); embedding
        # batches are set by embed_batch_size instead.
        unknown = {k for k in kwargs if k not in ("batch_size", "max_batch_size")}
        if unknown:
            raise TypeError(f"chrono_embed got unknown model_args: {sorted(unknown)}")
        self.pretrained = str(pretrained)
        self.batch_size_per_gpu = int(embed_batch_size)
        self.top_k = int(top_k)
        self.search_block = int(search_block)
        self.faiss_gpu = faiss_gpu
        self.device_name = str(self.device)
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
        self._torch = torch
        self.model = AutoModel.from_pretrained(self.pretrained, dtype=getattr(torch, dtype)).to(self.device_name).eval()
        self.processor = AutoProcessor.from_pretrained(self.pretrained)
        text_cfg = getattr(self.model.config, "text_config", None)
        window = getattr(text_cfg, "max_position_embeddings", None) or 77
        tok_max = getattr(getattr(self.processor, "tokenizer", None), "model_max_length", None) or window
        self.max_text_length = int(max_text_length or min(window, tok_max))
        self._indexes: dict[tuple[str, str], tuple[list[str], Any]] = {}

    # -- encoders ---------------------------------------------------------------------------
    def _features(self, output) -> np.ndarray:
        """(n, dim) projected features from ``get_text_features`` / ``get_image_features``.

        transformers 4.x returns the tensor; 5.x a ``BaseModelOutputWithPooling`` whose
        ``pooler_output`` is the projection (CLIP and Chinese-CLIP alike), or, when the checkpoint's
        config says ``return_dict: false``, its tuple (last_hidden_state, pooler_output, ...): then
        the first 2-D tensor is the projection.
        """
        tensor = output if isinstance(output, self._torch.Tensor) else getattr(output, "pooler_output", None)
        if tensor is None and isinstance(output, (tuple, list)):
            tensor = next((t for t in output if isinstance(t, self._torch.Tensor) and t.ndim == 2), None)
        if tensor is None or tensor.ndim != 2:
            raise TypeError(f"chrono_embed: cannot find (batch, dim) features in the model's output {type(output).__name__}")
        return tensor.detach().float().cpu().numpy()

    def embed_texts(self, texts: list[str]) -> np.ndarray:
        """L2-normalised text embeddings, (n, dim)."""
        out = []
        for start in range(0, len(texts), self.batch_size_per_gpu):
            batch = [t if t else " " for t in texts[start:start + self.batch_size_per_gpu]]
            inputs = self.processor(text=batch, padding=True, truncation=True, max_length=self.max_text_length, return_tensors="pt")
            inputs = {k: v.to(self.device_name) for k, v in inputs.items()}
            with self._torch.no_grad():
                out.append(self._features(self.model.get_text_features(**inputs)))
        return l2_normalize(np.concatenate(out)) if out else np.zeros((0, 1), np.float32)

    def embed_images(self, images: list) -> np.ndarray:
        """L2-normalised image embeddings of PIL images (one batch), (n, dim)."""
        inputs = self.processor(images=images, return_tensors="pt")
        inputs = {k: v.to(self.device_name) for k, v in inputs.items()}
        with self._torch.no_grad():
            return l2_normalize(self._features(self.model.get_image_features(**inputs)))

    # -- corpus -----------------------------------------------------------------------------
    def _cache_key(self, corpus: Path, modality: str) -> str:
        model_id = self.pretrained
        config = Path(self.pretrained) / "config.json"
        if config.is_file():
            model_id += "|" + hashlib.sha256(config.read_bytes()).hexdigest()
            weights = sorted(Path(self.pretrained).glob("*.safetensors")) + sorted(Path(self.pretrained).glob("*.bin"))
            model_id += "|" + "|".join(f"{w.name}:{w.stat().st_size}:{int(w.stat().st_mtime)}" for w in weights)
        blob = json.dumps([model_id, sha256_of(corpus), modality, self.max_text_length, "mean-of-normalised-views", 1])
        return hashlib.sha256(blob.encode()).hexdigest()[:32]

    def corpus_embeddings(self, corpus: Path, modality: str, root: Path) -> tuple[list[str], np.ndarray]:
        """Ids and L2-normalised embeddings of a corpus file (from the disk cache when present)."""
        from chronotasks.data.loading import open_image, read_jsonl

        key = self._cache_key(corpus, modality)
        vec_path, ids_path = self.cache_dir / f"{key}.npy", self.cache_dir / f"{key}.ids.json"
        if vec_path.is_file() and ids_path.is_file():
            return json.loads(ids_path.read_text()), np.load(vec_path)
        rows = read_jsonl(corpus)
        ids = [str(r["id"]) for r in rows]
        if modality == "text":
            vectors = self.embed_texts([r["text"] for r in tqdm(rows, desc=f"embed texts {corpus.name}", disable=self.rank != 0)])
        elif modality == "image":
            views = [(i, str((root / p).resolve()), r["id"]) for i, r in enumerate(rows) for p in r["images"]]
            sums, counts = None, np.zeros(len(rows), np.int64)
            for start in tqdm(range(0, len(views), self.batch_size_per_gpu), desc=f"embed images {corpus.name}",
                              disable=self.rank != 0):
                batch = views[start:start + self.batch_size_per_gpu]
                emb = self.embed_images([open_image(path, rid, "images") for _, path, rid in batch])
                if sums is None:
                    sums = np.zeros((len(rows), emb.shape[1]), np.float32)
                idx = np.array([i for i, _, _ in batch])
                np.add.at(sums, idx, emb)
                np.add.at(counts, idx, 1)
            if sums is None or (counts == 0).any():
                empty = [ids[i] for i in np.flatnonzero(counts == 0)] if sums is not None else ids
                raise ValueError(f"{corpus}: artifact(s) without images: {empty[:5]}")
            vectors = l2_normalize(sums / counts[:, None])
        else:
            raise ValueError(f"unknown corpus modality {modality!r} (expected 'text' or 'image')")
        # ids first: a reader takes the cache only when the vectors are there, so both are complete
        write_atomically(ids_path, lambda handle: handle.write(json.dumps(ids).encode()))
        write_atomically(vec_path, lambda handle: np.save(handle, vectors))
        return ids, vectors

    def _index(self, corpus: str, modality: str, root: str):
        key = (corpus, modality)
        if key not in self._indexes:
            ids, vectors = self.corpus_embeddings(Path(corpus), modality, Path(root))
            self._indexes[key] = (ids, build_index(vectors, self.device_name, self.faiss_gpu))
        return self._indexes[key]

    # -- lmms-eval API ----------------------------------------------------------------------
    def generate_until(self, requests: list[Instance]) -> list[str]:
        replies: list[str | None] = [None] * len(requests)
        groups: dict[tuple[str, str, str], list[int]] = defaultdict(list)
        docs = []
        for n, request in enumerate(requests):
            _, _, _, doc_id, task, split = request.args[:6]
            doc = self.task_dict[task][split][doc_id]
            docs.append(doc)
            for field in ("corpus", "corpus_modality"):
                if not doc.get(field):
                    raise ValueError(f"chrono_embed: task {task!r} doc {doc.get('id')!r} has no {field!r}; it answers retrieval tasks only")
            groups[(doc["corpus"], doc["corpus_modality"], doc.get("corpus_root") or str(Path(doc["corpus"]).parent))].append(n)
        progress = tqdm(total=len(requests), desc="chrono_embed queries", disable=self.rank != 0)
        for (corpus, modality, root), members in groups.items():
            ids, index = self._index(corpus, modality, root)
            batches = self._query_batches(requests, docs, members, modality, progress)
            for owners, found in rank_in_blocks(index, batches, self.top_k, self.search_block):
                for n, row in zip(owners, found):
                    replies[n] = json.dumps({"ranked": [ids[j] for j in row if j >= 0]}, ensure_ascii=False)
                    self.cache_hook.add_partial("generate_until", requests[n].args, replies[n])
        progress.close()
        return [r if r is not None else "" for r in replies]

    def _query_batches(self, requests: list[Instance], docs: list[dict], members: list[int], modality: str,
                       progress) -> Iterator[tuple[list[int], np.ndarray]]:
        """(request numbers, query embeddings) of ``members``, ``embed_batch_size`` at a time."""
        for start in range(0, len(members), self.batch_size_per_gpu):
            batch = members[start:start + self.batch_size_per_gpu]
            if modality == "text":  # image queries
                images = []
                for n in batch:
                    doc_images = requests[n].args[2](docs[n])
                    if len(doc_images) != 1:
                        raise ValueError(f"chrono_embed: image query {docs[n].get('id')!r} must have exactly one image, "
                                         f"has {len(doc_images)}")
                    images.append(doc_images[0])
                queries = self.embed_images(images)
            else:  # text queries
                queries = self.embed_texts([requests[n].args[0] for n in batch])
            progress.update(len(batch))
            yield batch, queries

    def generate_until_multi_round(self, requests: list[Instance]) -> list[str]:
        return self.generate_until(requests)

    def loglikelihood(self, requests: list[Instance]) -> list[tuple[float, bool]]:
        raise NotImplementedError("chrono_embed answers retrieval (generate_until) tasks only")
