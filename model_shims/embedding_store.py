"""One embedding per image and per text: ``chrono_embed``'s cache, shared by every task and run.

MuseBench embeds the same pictures several times over: each artifact view is a query of the three
image-to-text tasks and a view of the image corpus of the three text-to-image tasks, and the
text-to-image queries are the texts of the text corpora. ``EmbeddingStore`` keeps one L2-normalised
vector per *item* under one model, keyed by what the item is:

- an image file: ``file_key`` — its absolute path, size and modification time (no read, no decode;
  a file changed in place gets a new key);
- a text: ``text_key`` — its SHA-256 with the text encoder's window (truncation changes the vector);
- anything else (an image with no file, or shown otherwise than as its file): no key, encoded each time.

A run asks ``vectors(keys, encode)`` and only the keys never seen under this model are encoded,
once each however often they are asked for. New vectors go to disk in shards of ``flush_every``
(``<uuid>.keys.json`` then ``<uuid>.npy``, each written under a temporary name and renamed;
``launcher.write_atomically``): a later run, or another process, reads every complete shard, so a
crash loses at most one unflushed shard and concurrent writers never see a part of a file.
``requested`` / ``encoded`` count, per kind ("image", "text"), the items asked for and the items
the model had to encode: the log line and ``perf/musebench_retrieval_scaling.py`` report them.
"""

from __future__ import annotations

import hashlib
import json
import os
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from chronotasks.model_shims.launcher import write_atomically

FLUSH_EVERY = 4096


def file_key(path: str) -> str | None:
    """The key of an image file (absolute path, size, mtime), or None when it cannot be stat'ed."""
    try:
        stat = os.stat(path)
    except (OSError, TypeError, ValueError):
        return None
    return f"file:{path if path[:1] == '/' else os.path.abspath(path)}:{stat.st_size}:{stat.st_mtime_ns}"


def text_key(text: str, window: int) -> str:
    return "text:" + hashlib.sha256(f"{window}\0{text}".encode()).hexdigest()


class EmbeddingStore:
    """Vectors of items (images, texts) under one model, in memory and in ``folder``."""

    def __init__(self, folder: Path, flush_every: int = FLUSH_EVERY) -> None:
        self.folder = Path(folder)
        self.flush_every = int(flush_every)
        self.requested: Counter[str] = Counter()
        self.encoded: Counter[str] = Counter()
        self._rows: dict[str, int] = {}
        self._matrix: np.ndarray | None = None
        self._size = 0
        self._unsaved: list[str] = []
        self._load()

    def __len__(self) -> int:
        return self._size

    # -- disk -------------------------------------------------------------------------------------
    def _load(self) -> None:
        """Every complete shard of the folder (keys and vectors of the same length)."""
        if not self.folder.is_dir():
            return
        for keys_file in sorted(self.folder.glob("*.keys.json")):
            vectors_file = keys_file.with_name(keys_file.name.removesuffix(".keys.json") + ".npy")
            if not vectors_file.is_file():
                continue    # its writer has not written the vectors yet
            try:
                keys, vectors = json.loads(keys_file.read_text()), np.load(vectors_file)
            except (OSError, ValueError):
                continue    # not a shard of ours: left alone, its items are encoded again
            if vectors.ndim == 2 and len(keys) == len(vectors):
                self._add(keys, vectors, save=False)

    def flush(self) -> None:
        """Write the vectors added since the last flush as one shard (keys first, then vectors)."""
        if not self._unsaved:
            return
        keys, self._unsaved = self._unsaved, []
        vectors = self._matrix[[self._rows[k] for k in keys]]
        name = uuid.uuid4().hex
        write_atomically(self.folder / f"{name}.keys.json", lambda handle: handle.write(json.dumps(keys).encode()))
        write_atomically(self.folder / f"{name}.npy", lambda handle: np.save(handle, vectors))

    # -- memory -----------------------------------------------------------------------------------
    def _add(self, keys: Sequence[str], vectors: np.ndarray, save: bool = True) -> None:
        vectors = np.asarray(vectors, np.float32)
        if self._matrix is None:
            self._matrix = np.empty((max(1024, len(keys)), vectors.shape[1]), np.float32)
        if vectors.shape[1] != self._matrix.shape[1]:
            raise ValueError(f"{self.folder}: vectors of dimension {vectors.shape[1]} added to a store of dimension {self._matrix.shape[1]}")
        fresh = [n for n, key in enumerate(keys) if key not in self._rows]
        need = self._size + len(fresh)
        if need > len(self._matrix):
            grown = np.empty((max(need, 2 * len(self._matrix)), self._matrix.shape[1]), np.float32)
            grown[:self._size] = self._matrix[:self._size]
            self._matrix = grown
        self._matrix[self._size:need] = vectors[fresh]
        for row, n in enumerate(fresh, self._size):
            self._rows[keys[n]] = row
        self._size = need
        if save:
            self._unsaved.extend(keys[n] for n in fresh)
            if len(self._unsaved) >= self.flush_every:
                self.flush()

    def vectors(self, kind: str, keys: Sequence[str | None], encode: Callable[[list[int]], np.ndarray]) -> np.ndarray:
        """The vectors of ``keys`` in order, shape (len(keys), dim) (read-only where they are a run of the store's own rows).

        Keys not in the store are encoded once each: ``encode(positions)`` gets the positions (in
        ``keys``) of one item per missing key and returns their vectors in that order; they are
        stored (a None key, an item that cannot be keyed, is encoded every time and not stored).
        """
        self.requested[kind] += len(keys)
        rows = self._rows
        missing, seen = [], set()
        for n in [n for n, key in enumerate(keys) if key is None or key not in rows]:    # one item per new key
            key = keys[n]
            if key is None or key not in seen:
                missing.append(n)
                seen.add(key)
        unkeyed: dict[int, np.ndarray] = {}
        if missing:
            fresh = np.asarray(encode(missing), np.float32)
            if len(fresh) != len(missing):
                raise ValueError(f"encode returned {len(fresh)} vectors for {len(missing)} items")
            self.encoded[kind] += len(missing)
            kept = [m for m, n in enumerate(missing) if keys[n] is not None]
            if kept:
                self._add([keys[missing[m]] for m in kept], fresh[kept])
            unkeyed = {n: fresh[m] for m, n in enumerate(missing) if keys[n] is None}
        if self._matrix is None:      # nothing keyed: every vector is in unkeyed
            return np.stack([unkeyed[n] for n in range(len(keys))]) if keys else np.zeros((0, 0), np.float32)
        lookup = map(rows.__getitem__, keys) if not unkeyed else (rows[k] if k is not None else 0 for k in keys)
        where = np.fromiter(lookup, np.int64, len(keys))
        if not unkeyed and len(where) and where[-1] - where[0] == len(where) - 1 and (np.diff(where) == 1).all():
            view = self._matrix[where[0]:where[-1] + 1]     # stored in this order (a corpus, a rerun): no copy
            view.flags.writeable = False
            return view
        out = self._matrix[where]
        for n, vector in unkeyed.items():
            out[n] = vector
        return out

    def summary(self) -> str:
        """"images encoded 71 of 284 requested; texts encoded 0 of 213 requested" (what this run asked)."""
        return "; ".join(f"{kind}s encoded {self.encoded[kind]} of {self.requested[kind]} requested" for kind in sorted(self.requested))


__all__ = ["FLUSH_EVERY", "EmbeddingStore", "file_key", "text_key"]
