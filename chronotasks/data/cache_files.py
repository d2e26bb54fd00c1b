"""Files of the caches that outlive a run, keyed by what they hold and checked when they are read.

Every cache of ours (``chrono_embed``'s embedding store, ``chrono_diffusers``' images, ChronoVision's
grayscale images, the judges' verdicts, the chat client's replies) goes through these helpers:

- Keys. An image file is keyed by its bytes (``file_digest``: SHA-256). ``file_signature`` (path,
  inode, size, mtime, ctime) may stand for the digest only where it cannot stand for another
  content: in this process, and across runs once the file is *settled* (``settled``: its last
  change is older than ``SETTLE_SECONDS``), as git trusts its index. A replacement of the same size
  whose mtime is put back (``cp -p``, ``rsync -t``, ``touch -r``, unpacking an archive) still gets a
  new ctime, which no tool can set, so it never matches a remembered signature. A model is keyed by
  what it resolves to (``model_fingerprint``): a local folder by its files, a hub name by the commit
  loaded and the content hashes of that snapshot's files.
- Checks. A cache file carries a SHA-256 of what it holds: JSON records through ``seal`` /
  ``unseal``, PNG images through a text chunk holding the hash of their pixels (``sealed_png`` /
  ``open_sealed_png``). A file that fails its check is ``CacheDamage``: the reader calls
  ``drop_damaged``, which names the file in one warning, deletes it, and the entry is made again.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import os
import time
from pathlib import Path
from typing import Any

import numpy as np
from PIL import Image, PngImagePlugin

from chronotasks.data.fetch import sha256_of

log = logging.getLogger("chronotasks")

SETTLE_SECONDS = 2.0
"""A file whose last change (ctime) is at least this old may be known by its signature in later runs:
any later change gets a later ctime (file systems stamp ctime with a clock of a few ms at worst)."""
PNG_SEAL = "chronotasks-pixels-sha256"

_digests: dict[str, str] = {}  # file_signature -> file_digest, this process
_reported: set[str] = set()


class CacheDamage(ValueError):
    """A cache file that does not hold what its check says (torn, flipped, foreign, of another format)."""


def sha256_hex(*chunks: bytes) -> str:
    digest = hashlib.sha256()
    for chunk in chunks:
        digest.update(chunk)
    return digest.hexdigest()


def file_signature(path: str, stat: os.stat_result | None = None) -> str | None:
    """ "<absolute path>:<inode>:<size>:<mtime ns>:<ctime ns>", or None when the file cannot be stat'ed."""
    try:
        stat = stat or os.stat(path)
    except (OSError, TypeError, ValueError):
        return None
    where = path if path[:1] == "/" else os.path.abspath(path)
    return f"{where}:{stat.st_ino}:{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ctime_ns}"


def settled(signature: str, now: float | None = None) -> bool:
    """Whether the file of ``signature`` last changed ``SETTLE_SECONDS`` or more ago (see the module)."""
    ctime_ns = int(signature.rsplit(":", 1)[1])
    return (time.time() if now is None else now) - ctime_ns / 1e9 >= SETTLE_SECONDS


def file_digest(path: str, signature: str | None = None) -> str | None:
    """SHA-256 of a file's bytes (remembered in this process by its signature); None when it cannot be read."""
    signature = signature or file_signature(path)
    if signature is None:
        return None
    known = _digests.get(signature)
    if known is None:
        try:
            known = sha256_of(Path(path))
        except OSError:
            return None
        _digests[signature] = known
    return known


def report_damage(path: Path, why: str) -> None:
    """Say once per process that a cache file is damaged, naming it and why."""
    if str(path) not in _reported:
        _reported.add(str(path))
        log.warning("cache file %s is damaged (%s); the damaged part is dropped and computed again", path, why)


def drop_damaged(path: Path, why: str) -> None:
    """Report a damaged cache file (``report_damage``) and delete it, so it is made again."""
    report_damage(path, why)
    try:
        Path(path).unlink()
    except OSError:
        pass  # already gone, or a folder we cannot write: it is skipped on every read


_SEAL_HEAD, _SEAL_MID = b'{"sha256": "', b'", "body": '


def seal(payload: dict[str, Any]) -> bytes:
    """``payload`` as one line of JSON, ``{"sha256": <hash of body>, "body": <payload>}``: the hash
    is taken over the body's bytes as written, so checking it needs no re-encoding."""
    body = json.dumps(payload, ensure_ascii=False).encode()
    return _SEAL_HEAD + sha256_hex(body).encode() + _SEAL_MID + body + b"}"


def unseal(data: bytes | str) -> dict[str, Any]:
    """The payload of a ``seal``ed record (a trailing newline allowed); ``CacheDamage`` when it is not
    one or its hash disagrees."""
    data = (data.encode() if isinstance(data, str) else data).rstrip(b"\n")
    start = len(_SEAL_HEAD) + 64
    if not (data.startswith(_SEAL_HEAD) and data[start : start + len(_SEAL_MID)] == _SEAL_MID and data.endswith(b"}")):
        raise CacheDamage("not a sealed record")
    body = data[start + len(_SEAL_MID) : -1]
    if sha256_hex(body).encode() != data[len(_SEAL_HEAD) : start]:
        raise CacheDamage("its content does not match its SHA-256")
    try:
        record = json.loads(body)
    except ValueError as err:
        raise CacheDamage(f"not JSON: {err}") from None
    if not isinstance(record, dict):
        raise CacheDamage(f"a {type(record).__name__}, not a record")
    return record


def _pixels_hash(image: Image.Image) -> str:
    return sha256_hex(f"{image.mode}:{image.size}".encode(), image.tobytes())


def sealed_png(image: Image.Image) -> bytes:
    """``image`` as PNG bytes carrying the SHA-256 of its pixels (mode, size, bytes) in a text chunk."""
    info = PngImagePlugin.PngInfo()
    info.add_text(PNG_SEAL, _pixels_hash(image))
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", pnginfo=info)
    return buffer.getvalue()


def open_sealed_png(path: Path) -> Image.Image | None:
    """The image of a ``sealed_png`` file, decoded and checked; None when the file does not exist,
    ``CacheDamage`` when it cannot be decoded, has no seal or its pixels do not match it."""
    try:
        with Image.open(path) as image:
            image.load()
            claimed = image.info.get(PNG_SEAL)
            image = image.copy()
    except FileNotFoundError:
        return None
    except Exception as err:  # PIL raises many types for a broken file
        raise CacheDamage(f"not a readable PNG: {err}") from None
    if claimed is None or _pixels_hash(image) != claimed:
        raise CacheDamage("no pixel hash" if claimed is None else "its pixels do not match their SHA-256")
    return image


def _hub_snapshot(name: str, revision: str | None) -> Path | None:
    """The local snapshot folder of a hub model at ``revision`` (None: the cache's refs/main), or None."""
    try:
        from huggingface_hub import snapshot_download

        return Path(snapshot_download(name, revision=revision, local_files_only=True))
    except Exception:  # not in the cache, not a repo id: the name (and revision) alone key it
        return None


def model_fingerprint(name: str, revision: str | None = None) -> str:
    """What a model name resolves to, as a hex key. A local folder: its path, the content of its small
    files (configs, tokenizers) and the size and times of its weight files. A hub name: the commit
    (``revision``, the one loaded; else the cache's refs/main) and, per file of that snapshot, the blob
    it points to (the blob's name is its content hash), so a moved ref or a changed weight file is
    another key."""
    folder = Path(name).expanduser()
    parts: list[str] = [name]
    if folder.is_dir():
        for path in sorted(p for p in folder.rglob("*") if p.is_file()):
            stat = path.stat()
            small = path.suffix in (".json", ".txt", ".model") and stat.st_size < 1 << 24
            times = f"{stat.st_size}:{stat.st_mtime_ns}:{stat.st_ctime_ns}"
            parts.append(f"{path.relative_to(folder)}:{sha256_hex(path.read_bytes()) if small else times}")
        return sha256_hex(json.dumps(parts).encode())
    snapshot = _hub_snapshot(name, revision)
    parts.append(f"revision:{snapshot.name if snapshot else revision}")
    if snapshot is not None:
        for path in sorted(p for p in snapshot.rglob("*") if p.is_file()):
            blob = Path(os.path.realpath(path))  # blobs/<content hash> in the hub cache's layout
            times = f"{blob.stat().st_size}:{blob.stat().st_mtime_ns}"
            parts.append(f"{path.relative_to(snapshot)}:{blob.name if blob != path else times}")
    return sha256_hex(json.dumps(parts).encode())


def usable_vectors(vectors: np.ndarray) -> bool:
    """Whether every row is finite and not all zero (what an embedding is): its squared norm, one pass
    with no copy, is finite (a NaN or an infinity spreads to it) and positive."""
    squared = np.einsum("ij,ij->i", vectors, vectors)
    return bool(np.isfinite(squared).all() and (squared > 0).all())


__all__ = [
    "CacheDamage",
    "SETTLE_SECONDS",
    "drop_damaged",
    "file_digest",
    "file_signature",
    "model_fingerprint",
    "open_sealed_png",
    "report_damage",
    "seal",
    "sealed_png",
    "settled",
    "sha256_hex",
    "unseal",
    "usable_vectors",
]
