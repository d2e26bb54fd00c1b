"""Perceptual hashes of image files, for finding near-duplicate views (MuseBench §3.2.1 (3)).

The hash is the DCT perceptual hash (pHash) as OpenCV contrib's ``cv2.img_hash.PHash``
computes it — grayscale, 32×32, 2-D DCT, the 8×8 lowest frequencies with the DC term set to
0, one bit per coefficient: above their mean or not — 64 bits. ``cv2.img_hash`` is only in
the opencv-contrib wheels, which cannot be installed beside ``opencv-python-headless`` (both
provide ``cv2``), so the same steps are done here with core OpenCV (``cv2.resize``,
``cv2.dct``). One difference: the 32×32 thumbnail is made with ``INTER_AREA`` (an average
over each cell) rather than ``INTER_LINEAR_EXACT``, which samples a few pixels and aliases
when a large photo is shrunk 100-fold.

Two images are near-duplicates when the Hamming distance of their hashes is small: a
re-encoded or rescaled copy is 0–3 bits away, a small (5 %) crop 8–9, unrelated images
≥ 20 (about 32 for random bits).
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from chronotasks.data.loading import open_image

HASH_BITS = 64
_THUMB = 32
_LOW = 8


def phash(gray: np.ndarray) -> int:
    """64-bit DCT perceptual hash of a 2-D (grayscale) image array."""
    if gray.ndim != 2:
        raise ValueError(f"expected a 2-D grayscale array, got shape {gray.shape}")
    thumb = cv2.resize(gray, (_THUMB, _THUMB), interpolation=cv2.INTER_AREA).astype(np.float32)
    low = cv2.dct(thumb)[:_LOW, :_LOW].copy()
    low[0, 0] = 0.0  # the DC term is the mean brightness, not structure
    bits = (low > low.mean()).ravel()
    return int.from_bytes(np.packbits(bits).tobytes(), "big")


def file_phash(path: str | Path, record_id: object = "?", field: str = "images") -> int:
    """pHash of an image file, opened as the tasks open it (Pillow); ``DataError`` if unreadable.

    JPEGs are decoded at a reduced scale (``draft``), which the 32×32 thumbnail does not see,
    so hashing a large corpus is fast; one image is open at a time.
    """
    return phash(np.asarray(open_image(str(path), record_id, field, mode="L", draft=(4 * _THUMB, 4 * _THUMB))))


def hamming(a: int, b: int) -> int:
    """Number of differing bits of two hashes."""
    return (a ^ b).bit_count()
