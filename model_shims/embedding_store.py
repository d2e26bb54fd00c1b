"""One embedding per image and per text: ``chrono_embed``'s cache, shared by every task and run.

MuseBench embeds the same pictures several times over: each artifact view is a query of the three
image-to-text tasks and a view of the image corpus of the three text-to-image tasks, and the
text-to-image queries are the texts of the text corpora. ``EmbeddingStore`` keeps one L2-normalised
vector per *item* under one model, keyed by what the item is:

- an image file: ``image_key`` — the SHA-256 of its bytes (``cache_files.file_digest``). Its file
  signature (path, inode, size, mtime, ctime) stands for the digest in this process and, once the
  file is settled, in later runs (the store keeps the signatures it has seen); a replacement, even
  of the same size with its mtime put back, has another ctime and is read and hashed again;
- a text: ``text_key`` — its SHA-256 with the text encoder's window (truncation changes the vector);
- anything else (an image with no file, shown otherwise than as its file, or one that could not be
  opened and was encoded as the placeholder): no key, encoded each time, never stored.

A run asks ``vectors(keys, encode)`` and only the keys never seen under this model are encoded,
once each however often they are asked for. New vectors go to disk in shards of ``flush_every``
(``<uuid>.keys.json`` then ``<uuid>.npy``, each written under a temporary name and renamed;
``launcher.write_atomically``): a later run, or another process, reads every complete shard, so a
crash loses at most one unflushed shard and concurrent writers never see a part of a file. The
keys file is sealed (``cache_files.seal``) and holds the vector file's SHA-256, its dimension and
the signatures it learnt; a shard that fails any check (a seal or hash that disagrees, vectors that
are not finite float32 rows of the store's dimension, keys that are not distinct strings, a key
another shard holds with another vector) is named in one warning, deleted and encoded again. A
folder that cannot be written: the run keeps its vectors in memory, with one warning.
``requested`` / ``encoded`` count, per kind ("image", "text"), the items asked for and the items
the model had to encode: the log line and ``perf/musebench_retrieval_scaling.py`` report them.
"""

from __future__ import annotations

import hashlib
import io
import logging
import uuid
from collections import Counter
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from chronotasks.data.cache_files import (
    CacheDamage,
    drop_damaged,
    file_digest,
    file_signature,
    seal,
    settled,
    sha256_hex,
    unseal,
    usable_vectors,
)
from chronotasks.model_shims.launcher import write_atomically

FLUSH_EVERY = 4096
FORMAT = 2
CONFLICT_TOLERANCE = 1e-3
"""Largest difference of one stored vector's components between two shards holding its key (two
processes may encode an item in different batches: float rounding); more is damage."""
log = logging.getLogger("chronotasks")


def text_key(text: str, window: int) -> str:
    return "text:" + hashlib.sha256(f"{window}\0{text}".encode()).hexdigest()


def _npy_view(data: bytes) -> np.ndarray:
    """The array of a .npy file's bytes, read in place (no copy; read-only)."""
    header = io.BytesIO(data)
    read = {(1, 0): np.lib.format.read_array_header_1_0, (2, 0): np.lib.format.read_array_header_2_0}
    shape, fortran_order, dtype = read[np.lib.format.read_magic(header)](header)
    if fortran_order or dtype.hasobject:
        raise ValueError("not a C-ordered array of numbers")
    return np.frombuffer(data, dtype, count=int(np.prod(shape)), offset=header.tell()).reshape(shape)


class _Shard:
    """One checked shard on disk: its keys, vectors and the file signatures it learnt."""

    def __init__(self, keys_file: Path, vectors_file: Path, dim: int | None) -> None:
        self.files = (keys_file, vectors_file)
        record = unseal(keys_file.read_bytes())
        keys, aliases = record.get("keys"), record.get("aliases", {})
        if record.get("format") != FORMAT or not isinstance(keys, list) or not all(isinstance(k, str) for k in keys):
            raise CacheDamage(f"{keys_file.name}: not a format-{FORMAT} list of string keys")
        if len(set(keys)) != len(keys) or not isinstance(aliases, dict):
            raise CacheDamage(f"{keys_file.name}: repeated keys or malformed signatures")
        data = vectors_file.read_bytes()
        if sha256_hex(data) != record.get("vectors_sha256"):
            raise CacheDamage(f"{vectors_file.name} does not match the SHA-256 in {keys_file.name}")
        try:
            vectors = _npy_view(data)
        except (OSError, ValueError, EOFError, KeyError, TypeError) as err:
            raise CacheDamage(f"{vectors_file.name}: {err!r}") from None
        want = dim or record.get("dim")
        if vectors.dtype != np.float32 or vectors.shape != (len(keys), want) or record.get("dim") != want:
            raise CacheDamage(f"{vectors_file.name}: {vectors.dtype} {vectors.shape}, the store holds float32 rows of dimension {want}")
        if not usable_vectors(vectors):
            raise CacheDamage(f"{vectors_file.name}: a row that is not finite or is all zeros")
        self.keys, self.vectors, self.aliases = keys, vectors, aliases


class EmbeddingStore:
    """Vectors of items (images, texts) under one model, in memory and in ``folder``; ``dim``: the
    model's vector dimension (None: taken from the first shard or vectors)."""

    def __init__(self, folder: Path, flush_every: int = FLUSH_EVERY, dim: int | None = None) -> None:
        self.folder = Path(folder)
        self.flush_every = int(flush_every)
        self.dim = dim
        self.requested: Counter[str] = Counter()
        self.encoded: Counter[str] = Counter()
        self._rows: dict[str, int] = {}
        self._matrix: np.ndarray | None = None
        self._size = 0
        self._unsaved: list[str] = []
        self._aliases: dict[str, str] = {}
        self._unsaved_aliases: dict[str, str] = {}
        self._writable = True
        self._load()

    def __len__(self) -> int:
        return self._size

    def image_key(self, path: str) -> str | None:
        """The key of an image file: the SHA-256 of its bytes (see the module), or None when it cannot be read."""
        signature = file_signature(path)
        if signature is None:
            return None
        digest = self._aliases.get(signature) or file_digest(path, signature)
        if digest is None:
            return None
        if signature not in self._aliases and settled(signature):
            self._aliases[signature] = self._unsaved_aliases[signature] = digest
        return "image:" + digest

    # -- disk -------------------------------------------------------------------------------------
    def _load(self) -> None:
        """Every complete shard of the folder that passes its checks; the others are dropped (``_Shard``)."""
        if not self.folder.is_dir():
            return
        shards: list[_Shard] = []
        for keys_file in sorted(self.folder.glob("*.keys.json")):
            vectors_file = keys_file.with_name(keys_file.name.removesuffix(".keys.json") + ".npy")
            if not vectors_file.is_file():
                continue  # its writer has not written the vectors yet
            try:
                shards.append(_Shard(keys_file, vectors_file, self.dim))
            except (CacheDamage, OSError) as err:
                self._drop(keys_file, vectors_file, str(err))
            else:
                self.dim = self.dim or shards[-1].vectors.shape[1]
        holder: dict[str, tuple[_Shard, int]] = {}
        bad: dict[int, str] = {}
        for shard in shards:
            for row, key in enumerate(shard.keys):
                first, first_row = holder.setdefault(key, (shard, row))
                gap = np.abs(first.vectors[first_row] - shard.vectors[row]).max() if first is not shard else 0
                if gap > CONFLICT_TOLERANCE:
                    why = f"key {key} has another vector in {first.files[1].name}"
                    bad.setdefault(id(first), why)
                    bad.setdefault(id(shard), why)
        for shard in shards:
            if id(shard) in bad:
                self._drop(*shard.files, bad[id(shard)])
            else:
                self._add(shard.keys, shard.vectors, save=False)
                self._aliases.update(shard.aliases)

    def _drop(self, keys_file: Path, vectors_file: Path, why: str) -> None:
        drop_damaged(keys_file, why)
        drop_damaged(vectors_file, f"the other half of {keys_file.name}")

    def flush(self) -> None:
        """Write the vectors and signatures added since the last flush as one shard (keys first, then
        vectors); a folder that cannot be written is said once and the store goes on in memory."""
        if not (self._unsaved or self._unsaved_aliases) or self._matrix is None:
            return
        keys, self._unsaved = self._unsaved, []
        aliases, self._unsaved_aliases = self._unsaved_aliases, {}
        if not self._writable:
            return
        buffer = io.BytesIO()
        np.save(buffer, self._matrix[[self._rows[k] for k in keys]].reshape(len(keys), self._matrix.shape[1]))
        data = buffer.getvalue()
        record = {"format": FORMAT, "dim": int(self._matrix.shape[1]), "keys": keys, "aliases": aliases, "vectors_sha256": sha256_hex(data)}
        name = uuid.uuid4().hex
        try:
            write_atomically(self.folder / f"{name}.keys.json", lambda handle: handle.write(seal(record)))
            write_atomically(self.folder / f"{name}.npy", lambda handle: handle.write(data))
        except OSError as err:
            self._writable = False
            log.warning("embedding store %s cannot be written (%s); this run keeps its vectors in memory", self.folder, err)

    # -- memory -----------------------------------------------------------------------------------
    def _add(self, keys: Sequence[str], vectors: np.ndarray, save: bool = True) -> None:
        vectors = np.asarray(vectors, np.float32)
        if self.dim is not None and vectors.shape[1] != self.dim:
            raise ValueError(f"{self.folder}: vectors of dimension {vectors.shape[1]} added to a store of dimension {self.dim}")
        if self._matrix is None:
            self._matrix = np.empty((max(1024, len(keys)), vectors.shape[1]), np.float32)
            self.dim = vectors.shape[1]
        fresh = [n for n, key in enumerate(keys) if key not in self._rows]
        need = self._size + len(fresh)
        if need > len(self._matrix):
            grown = np.empty((max(need, 2 * len(self._matrix)), self._matrix.shape[1]), np.float32)
            grown[: self._size] = self._matrix[: self._size]
            self._matrix = grown
        self._matrix[self._size : need] = vectors if len(fresh) == len(keys) else vectors[fresh]
        for row, n in enumerate(fresh, self._size):
            self._rows[keys[n]] = row
        self._size = need
        if save:
            self._unsaved.extend(keys[n] for n in fresh)
            if len(self._unsaved) >= self.flush_every:
                self.flush()

    def vectors(
        self, kind: str, keys: Sequence[str | None], encode: Callable[[list[int]], np.ndarray], failed: Callable[[int], bool] | None = None
    ) -> np.ndarray:
        """The vectors of ``keys`` in order, shape (len(keys), dim) (read-only where they are a run of the store's own rows).

        Keys not in the store are encoded once each: ``encode(positions)`` gets the positions (in
        ``keys``) of one item per missing key and returns their vectors in that order; they are
        stored, except an item that cannot be keyed (a None key) and one for which ``failed(position)``
        says, after encoding, that it was not itself (a placeholder): those are encoded every time.
        """
        self.requested[kind] += len(keys)
        rows = self._rows
        missing, seen = [], set()
        for n in [n for n, key in enumerate(keys) if key is None or key not in rows]:  # one item per new key
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
            placeholders = {keys[n] for n in missing if failed is not None and failed(n)} - {None}
            kept = [m for m, n in enumerate(missing) if keys[n] is not None and keys[n] not in placeholders]
            if kept:
                self._add([keys[missing[m]] for m in kept], fresh[kept])
            unkeyed = {n: fresh[m] for m, n in enumerate(missing) if keys[n] is None}
            if placeholders:
                first = {keys[n]: m for m, n in enumerate(missing) if keys[n] in placeholders}
                unkeyed.update({n: fresh[first[key]] for n, key in enumerate(keys) if key in placeholders})
                keys = [None if key in placeholders else key for key in keys]
        if self._matrix is None:  # nothing keyed: every vector is in unkeyed
            return np.stack([unkeyed[n] for n in range(len(keys))]) if keys else np.zeros((0, 0), np.float32)
        lookup = map(rows.__getitem__, keys) if not unkeyed else (rows[k] if k is not None else 0 for k in keys)
        where = np.fromiter(lookup, np.int64, len(keys))
        if not unkeyed and len(where) and where[-1] - where[0] == len(where) - 1 and (np.diff(where) == 1).all():
            view = self._matrix[where[0] : where[-1] + 1]  # stored in this order (a corpus, a rerun): no copy
            view.flags.writeable = False
            return view
        out = self._matrix[where]
        for n, vector in unkeyed.items():
            out[n] = vector
        return out

    def summary(self) -> str:
        """ "images encoded 71 of 284 requested; texts encoded 0 of 213 requested" (what this run asked)."""
        return "; ".join(f"{kind}s encoded {self.encoded[kind]} of {self.requested[kind]} requested" for kind in sorted(self.requested))


__all__ = ["FLUSH_EVERY", "EmbeddingStore", "text_key"]
