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
- Each image and text embedded once: the vectors of single items (a corpus text, an artifact
  view, a query image or text) are kept by ``embedding_store.EmbeddingStore`` under the model
  (``cache_dir``, default ``default_cache_dir()``), keyed by the image file's bytes (SHA-256) or
  the text, and shared by every task of a run and by later runs: a view that is a query of the
  three image-to-text tasks and a view of the image corpus is encoded once. The store's folder is
  the model's fingerprint (``cache_files.model_fingerprint``: a local folder by its files, a hub
  name by the commit loaded and its weight files) and its vectors are checked against the model's
  dimension. The log line at the end of ``generate_until`` says how many items were encoded of
  those requested.
- An image that cannot be opened is seen as the placeholder (``loading.open_doc_image``), never
  stored, so every run, warm or cold, opens it again and its samples count in ``image_failure``:
  an image query's own, and a text query whose artifact has such a view in the image corpus (its
  reply names the views: ``{"ranked": [...], "unreadable_views": [paths]}``).
- Ranking: faiss ``IndexFlatIP`` (exact cosine) over the corpus, on a GPU when the model runs on
  CUDA and faiss has GPU support (``faiss_gpu=auto``, the default; ``faiss_gpu=false`` keeps it on
  the CPU); queries searched ``search_block`` (16,384) at a time: one faiss call per block, as
  fast as one call for all queries, memory bounded (``SEARCH_BLOCK``). The query documents are
  read as columns, replies are the corpus ids' JSON strings joined, so what a query costs beyond
  faiss is a few microseconds (``perf/musebench_retrieval_scaling.py`` times it through
  ``generate_until`` at MuseBench scale).
- Multi-view artifacts (image corpus): each view embedding is L2-normalised, the views of an
  artifact are averaged and the mean is L2-normalised again (``scoring.retrieval.pool_views``);
  views are taken ``CORPUS_CHUNK`` at a time and summed into a per-artifact accumulator.
- Texts longer than the text encoder's window are truncated (``max_text_length``).
- Several processes (``torchrun`` / ``accelerate launch``): each embeds the corpus items it needs
  (or reads them from the shared store) and answers its own shard of the queries; store shards are
  written under a name unique to the writer and renamed into place (``launcher.write_atomically``),
  keys before vectors, so concurrent writers and readers never see a partial file.
"""

from __future__ import annotations

import json
import os
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from lmms_eval.api.instance import Instance
from loguru import logger as eval_logger
from tqdm import tqdm

from chronotasks.data.cache_files import model_fingerprint
from chronotasks.data.errors import DataError
from chronotasks.data.locations import cache_home
from chronotasks.model_shims.embedding_store import EmbeddingStore, text_key
from chronotasks.model_shims.launcher import LauncherModel
from chronotasks.scoring.retrieval import l2_normalize


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


CORPUS_CHUNK = 4096
"""Corpus items asked of the store at a time (a progress step; memory for one chunk's vectors)."""
QUERY_FIELDS = ("id", "artifact_id", "corpus", "corpus_modality", "corpus_root", "images")
"""The query documents' fields chrono_embed reads."""


def shows_its_file(doc_to_visual) -> bool:
    """Whether a task's ``doc_to_visual`` shows a document's image files as they are (the plain
    loader ``doc_images``; lmms-eval passes the task's method, whose config holds the function): then
    an image query is keyed by its file in the store; any other function may show other pixels."""
    from chronotasks.data.loading import doc_images

    function = getattr(getattr(getattr(doc_to_visual, "__self__", None), "config", None), "doc_to_visual", doc_to_visual)
    return function is doc_images


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
        raise RuntimeError(
            f"chrono_embed: faiss_gpu={use_gpu} needs a faiss built with GPU support (faiss-gpu) and a cuda device, "
            f"have device={device!r}, GPUs seen by faiss: {getattr(faiss, 'get_num_gpus', lambda: 0)()}"
        )
    return index


def gpu_faiss_available() -> bool:
    import faiss

    return hasattr(faiss, "StandardGpuResources") and getattr(faiss, "get_num_gpus", lambda: 0)() > 0


def search(index, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """(scores, indices) of the top-k rows of ``index`` per query, best first."""
    k = min(int(k), index.ntotal)
    return index.search(np.ascontiguousarray(queries, dtype=np.float32), k)


class ChronoEmbed(LauncherModel):
    def __init__(
        self,
        pretrained: str,
        embed_batch_size: int = 32,
        device: str | None = None,
        top_k: int = 10,
        cache_dir: str | None = None,
        max_text_length: int | None = None,
        dtype: str = "float32",
        search_block: int = SEARCH_BLOCK,
        faiss_gpu: str = "auto",
        **kwargs: Any,
    ) -> None:
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
        self._store: EmbeddingStore | None = None
        self._unreadable_views: dict[str, dict[str, list[str]]] = {}  # image corpus -> artifact id -> views not opened

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
            batch = [t if t else " " for t in texts[start : start + self.batch_size_per_gpu]]
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

    # -- items: each embedded once under this model (EmbeddingStore) ------------------------------
    def _model_key(self) -> str:
        """The model as the cache knows it: what ``pretrained`` resolved to (the commit loaded, for a hub name)."""
        return model_fingerprint(self.pretrained, getattr(self.model.config, "_commit_hash", None))[:32]

    @property
    def store(self) -> EmbeddingStore:
        if self._store is None:
            dim = self.embed_texts(["dimension"]).shape[1]
            self._store = EmbeddingStore(self.cache_dir / self._model_key(), dim=dim)
        return self._store

    def text_vectors(self, texts: list[str]) -> np.ndarray:
        """Embeddings of ``texts`` (each distinct text encoded once, ever, under this model)."""
        return self.store.vectors(
            "text", [text_key(t, self.max_text_length) for t in texts], lambda missing: self.embed_texts([texts[n] for n in missing])
        )

    def image_vectors(self, keys: list[str | None], load: Callable[[list[int]], list], failed: set[int]) -> np.ndarray:
        """Embeddings of images by key; ``load(positions)`` gives the PIL images of the missing ones,
        which are encoded ``embed_batch_size`` at a time, and adds to ``failed`` the positions it gave
        a placeholder for (not stored)."""

        def encode(missing: list[int]) -> np.ndarray:
            out = [
                self.embed_images(load(missing[s : s + self.batch_size_per_gpu])) for s in range(0, len(missing), self.batch_size_per_gpu)
            ]
            return np.concatenate(out)

        return self.store.vectors("image", keys, encode, failed.__contains__)

    @staticmethod
    def open_view(path: str, record_id: Any, unreadable: dict[str, str]) -> Any:
        """An image file as the tasks show it (``loading.open_doc_image``: the placeholder, logged and
        counted, when it cannot be opened); ``unreadable`` gets the path and why."""
        from chronotasks.data.loading import open_doc_image, open_image

        def opener(view: str, rid: Any) -> Any:
            try:
                return open_image(view, rid)
            except DataError as err:
                unreadable[view] = str(err)
                raise

        return open_doc_image(path, record_id, opener)

    # -- corpus -----------------------------------------------------------------------------
    def corpus_embeddings(self, corpus: Path, modality: str, root: Path) -> tuple[list[str], np.ndarray]:
        """Ids and L2-normalised embeddings of a corpus file: texts, or artifacts as the normalised
        mean of their views' embeddings (``scoring.retrieval.pool_views``), views taken from the store."""
        from chronotasks.data.loading import read_jsonl

        rows = read_jsonl(corpus)
        ids = [str(r["id"]) for r in rows]
        if modality == "text":
            texts = [r["text"] for r in rows]
            vectors = (
                np.concatenate(
                    [
                        self.text_vectors(texts[s : s + CORPUS_CHUNK])
                        for s in tqdm(range(0, len(texts), CORPUS_CHUNK), desc=f"embed texts {corpus.name}", disable=self.rank != 0)
                    ]
                )
                if texts
                else np.zeros((0, 1), np.float32)
            )
        elif modality == "image":
            views = [(i, str(root / p), r["id"]) for i, r in enumerate(rows) for p in r["images"]]
            sums, counts = None, np.zeros(len(rows), np.int64)
            unreadable: dict[str, str] = {}
            for start in tqdm(range(0, len(views), CORPUS_CHUNK), desc=f"embed images {corpus.name}", disable=self.rank != 0):
                chunk = views[start : start + CORPUS_CHUNK]
                failed: set[int] = set()

                def load(missing: list[int], chunk: list = chunk, failed: set[int] = failed) -> list:
                    images = [self.open_view(chunk[n][1], chunk[n][2], unreadable) for n in missing]
                    failed.update(n for n in missing if chunk[n][1] in unreadable)
                    return images

                emb = self.image_vectors([self.store.image_key(path) for _, path, _ in chunk], load, failed)
                if sums is None:
                    sums = np.zeros((len(rows), emb.shape[1]), np.float32)
                idx = np.array([i for i, _, _ in chunk])
                np.add.at(sums, idx, emb)
                np.add.at(counts, idx, 1)
            if sums is None or (counts == 0).any():
                empty = [ids[i] for i in np.flatnonzero(counts == 0)] if sums is not None else ids
                raise ValueError(f"{corpus}: artifact(s) without images: {empty[:5]}")
            vectors = l2_normalize(sums / counts[:, None])
            self._unreadable_views[str(corpus)] = {}
            for _, path, artifact in views:
                if path in unreadable:
                    self._unreadable_views[str(corpus)].setdefault(str(artifact), []).append(path)
        else:
            raise ValueError(f"unknown corpus modality {modality!r} (expected 'text' or 'image')")
        self.store.flush()
        return ids, vectors

    def _index(self, corpus: str, modality: str, root: str):
        key = (corpus, modality)
        if key not in self._indexes:
            ids, vectors = self.corpus_embeddings(Path(corpus), modality, Path(root))
            # each id as JSON once: a reply is these strings joined (what json.dumps writes, ensure_ascii=False)
            self._indexes[key] = ([json.dumps(i, ensure_ascii=False) for i in ids], build_index(vectors, self.device_name, self.faiss_gpu))
        return self._indexes[key]

    # -- lmms-eval API ----------------------------------------------------------------------
    def _doc_columns(self, task: str, split: str, doc_ids: list[int]) -> dict[str, list]:
        """The query documents' fields as columns, read in one pass (not a ``datasets`` row per query)."""
        docs = self.task_dict[task][split]
        if hasattr(docs, "select_columns"):  # a datasets.Dataset, as lmms-eval gives it
            wanted = [c for c in QUERY_FIELDS if c in docs.column_names]
            table = docs.select_columns(wanted).with_format("arrow")[0 : len(docs)].take(doc_ids)  # a slice applies any indices mapping
            return {c: table.column(c).to_pylist() for c in wanted}
        rows = [docs[n] for n in doc_ids]
        return {c: [row.get(c) for row in rows] for c in QUERY_FIELDS}

    def generate_until(self, requests: list[Instance]) -> list[str]:
        self.refuse_repeats(requests)
        args = [request.args for request in requests]  # (context, gen_kwargs, doc_to_visual, doc_id, task, split)
        by_task: dict[tuple[str, str], list[int]] = defaultdict(list)
        for n, arg in enumerate(args):
            by_task[(arg[4], arg[5])].append(n)
        groups: dict[tuple[str, str, str], list[int]] = defaultdict(list)
        image_paths: list[str | None] = [None] * len(requests)  # an image query shown as its one file
        query_ids: list[Any] = [None] * len(requests)
        artifacts: list[Any] = [None] * len(requests)
        for (task, split), members in by_task.items():
            columns = self._doc_columns(task, split, [args[n][3] for n in members])
            for field in ("corpus", "corpus_modality"):
                values = columns.get(field) or [None] * len(members)
                if not all(values):
                    doc_id = (columns.get("id") or [None] * len(members))[next(i for i, v in enumerate(values) if not v)]
                    raise ValueError(f"chrono_embed: task {task!r} doc {doc_id!r} has no {field!r}; it answers retrieval tasks only")
            roots = [
                root or str(Path(corpus).parent)
                for corpus, root in zip(columns["corpus"], columns.get("corpus_root") or [None] * len(members))
            ]
            places = list(zip(columns["corpus"], columns["corpus_modality"], roots))
            if places.count(places[0]) == len(places):  # the usual case: one corpus a task
                groups[places[0]].extend(members)
            else:
                for where, n in zip(places, members):
                    groups[where].append(n)
            for n, doc_id, artifact in zip(
                members, columns.get("id") or [None] * len(members), columns.get("artifact_id") or [None] * len(members)
            ):
                query_ids[n], artifacts[n] = doc_id, artifact
            if shows_its_file(args[members[0]][2]):
                for n, paths in zip(members, columns.get("images") or [None] * len(members)):
                    image_paths[n] = paths[0] if paths and len(paths) == 1 else None
        progress = tqdm(total=len(requests), desc="chrono_embed queries", disable=self.rank != 0)
        replies: list[str] = [""] * len(requests)
        add_partial = self.cache_hook.add_partial
        for (corpus, modality, root), members in groups.items():
            json_ids, index = self._index(corpus, modality, root)
            unreadable = self._unreadable_views.get(str(Path(corpus)), {})
            for start in range(0, len(members), self.search_block):
                block = members[start : start + self.search_block]
                if modality == "image":  # text queries
                    queries = self.text_vectors([args[n][0] for n in block])
                else:  # image queries
                    queries = self._image_queries(requests, block, image_paths, query_ids)
                _, found = search(index, queries, self.top_k)  # k <= corpus size: no -1 padding in a flat index
                for n, row in zip(block, found.tolist()):
                    views = unreadable.get(str(artifacts[n])) if unreadable else None
                    tail = f', "unreadable_views": {json.dumps(views, ensure_ascii=False)}' + "}" if views else "}"
                    replies[n] = '{"ranked": [' + ", ".join(map(json_ids.__getitem__, row)) + "]" + tail
                    add_partial("generate_until", args[n], replies[n])
                progress.update(len(block))
        progress.close()
        self.store.flush()
        eval_logger.info(f"chrono_embed: {self.store.summary()}")
        return replies

    def _image_queries(self, requests: list[Instance], block: list[int], paths: list[str | None], ids: list[Any]) -> np.ndarray:
        """Vectors of the image queries ``block``: one shown as its file is keyed by it and opened as
        ``doc_images`` opens it; any other is shown by the task's ``doc_to_visual`` and not stored."""
        failed: set[int] = set()
        unreadable: dict[str, str] = {}

        def load(missing: list[int]) -> list:
            images = [
                self.open_view(paths[block[m]], ids[block[m]], unreadable) if paths[block[m]] else self._query_image(requests[block[m]])
                for m in missing
            ]
            failed.update(m for m in missing if paths[block[m]] in unreadable)
            return images

        keys = [self.store.image_key(paths[n]) if paths[n] else None for n in block]
        return self.image_vectors(keys, load, failed)

    def _query_image(self, request: Instance):
        """The one image of an image query, as the task shows it (lmms-eval's ``doc_to_visual``)."""
        _, _, doc_to_visual, doc_id, task, split = request.args[:6]
        doc = self.task_dict[task][split][doc_id]
        images = doc_to_visual(doc)
        if len(images) != 1:
            raise ValueError(f"chrono_embed: image query {doc.get('id')!r} must have exactly one image, has {len(images)}")
        return images[0]

    def generate_until_multi_round(self, requests: list[Instance]) -> list[str]:
        return self.generate_until(requests)

    def loglikelihood(self, requests: list[Instance]) -> list[tuple[float, bool]]:
        raise NotImplementedError("chrono_embed answers retrieval (generate_until) tasks only")
