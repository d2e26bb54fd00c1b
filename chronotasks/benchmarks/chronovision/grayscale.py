"""Grayscale variants exactly as the paper's Algorithm 1, made on the fly and cached.

    I_gray = cv2.cvtColor(I_color, cv2.COLOR_BGR2GRAY)     # Y = 0.114 B + 0.587 G + 0.299 R
    I_out  = cv2.cvtColor(I_gray,  cv2.COLOR_GRAY2BGR)     # [Y, Y, Y]

OpenCV computes Y in fixed point (weights ×2^14, +2^13, >>14). Files are decoded by
the one decode path of every task (``chronotasks.data.loading.open_image``, PIL), whose
pixels equal Algorithm 1's ReadImage (``cv2.imdecode(..., IMREAD_COLOR)``: EXIF orientation
applied, alpha dropped, 16 bits reduced to the high byte) on JPEG and PNG, and which, unlike
OpenCV's PNG decoder, still works after ``import decord`` (lmms-eval's ``openai`` and Qwen
classes import it). Only the colour conversion is OpenCV's. A colour image and its grayscale
version in a trial are therefore pixel-aligned. The grayscale result is cached losslessly as a
one-channel PNG of Y, written and read by PIL (Algorithm 1 re-encodes with the source's extension;
we do not, so the cached pixels are the transform's exact output); GRAY2BGR only repeats Y in three
channels, so a cached image is read once (one channel) and converted once (to the RGB the model gets).
The cache is keyed by the source's bytes (SHA-256, ``cache_files.file_digest``) and each cached PNG
carries the SHA-256 of its pixels (``cache_files.sealed_png``): one that fails its check is named
in a warning, deleted and made again; a new entry is written whole under a temporary name, then renamed.
"""

from __future__ import annotations

import hashlib
import os
import threading
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from chronotasks.data.cache_files import CacheDamage, drop_damaged, file_digest, open_sealed_png, sealed_png
from chronotasks.data.loading import DataError, open_image


def to_gray_bgr(bgr: np.ndarray) -> np.ndarray:
    """Algorithm 1, stage 2: BGR -> GRAY -> BGR (3 equal channels), uint8."""
    if bgr.ndim != 3 or bgr.shape[2] != 3:
        raise ValueError(f"expected an HxWx3 BGR image, got shape {bgr.shape}")
    return cv2.cvtColor(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def read_bgr(path: str | Path, record_id: object = "?") -> np.ndarray:
    """An image file as 3-channel BGR (Algorithm 1's ReadImage), decoded by the shared decode path;
    a clear error naming record and file."""
    return np.ascontiguousarray(np.asarray(open_image(str(path), record_id))[:, :, ::-1])


def gray_to_pil(gray: np.ndarray) -> Image.Image:
    """Y (HxW) as the 3-channel [Y, Y, Y] RGB image stage 2 of Algorithm 1 gives."""
    return Image.fromarray(cv2.cvtColor(gray, cv2.COLOR_GRAY2RGB))


CACHE_FORMAT = "y2"  # sealed one-channel PNG of Y; part of the cache key, so older entries are not read


def gray_cache_path(path: str | Path, cache_dir: Path) -> Path:
    """Cache file of one source image's grayscale version (keyed by the source's bytes);
    ``FileNotFoundError`` when the source cannot be read."""
    digest = file_digest(str(path))
    if digest is None:
        raise FileNotFoundError(path)
    key = hashlib.sha256(f"{digest}|{CACHE_FORMAT}".encode()).hexdigest()
    return cache_dir / key[:2] / f"{key}.png"


def _read_cached(target: Path) -> np.ndarray | None:
    """The cached Y plane, or None when absent or damaged (then it is named, dropped and made again)."""
    try:
        image = open_sealed_png(target)
    except CacheDamage as err:
        drop_damaged(target, str(err))
        return None
    if image is not None and image.mode != "L":
        drop_damaged(target, f"mode {image.mode}, not one channel")
        return None
    return None if image is None else np.asarray(image)


def gray_image(path: str | Path, cache_dir: Path, record_id: object = "?") -> Image.Image:
    """The grayscale (3-channel) version of an image file, from the cache or made and cached now."""
    try:
        target = gray_cache_path(path, cache_dir)
    except FileNotFoundError as err:
        raise DataError(f"record {record_id!r}, field 'images': image file {path} does not exist") from err
    cached = _read_cached(target)
    if cached is not None:
        return gray_to_pil(cached)
    gray = cv2.cvtColor(read_bgr(path, record_id), cv2.COLOR_BGR2GRAY)  # Algorithm 1, stage 2 (first half)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
    tmp.write_bytes(sealed_png(Image.fromarray(gray, "L")))
    os.replace(tmp, target)
    return gray_to_pil(gray)


def trial_image(path: str, gray: bool, cache_dir: Path, record_id: object = "?") -> Image.Image:
    """One image of a shortcut trial: its grayscale version when ``gray``, else the colour image."""
    return gray_image(path, cache_dir, record_id) if gray else open_image(path, record_id)


def trial_images(paths: list[str], gray: list[bool], cache_dir: Path, record_id: object = "?") -> list[Image.Image]:
    """The images of one shortcut trial, in order: grayscale where ``gray`` says so, else colour."""
    if len(paths) != len(gray):
        raise DataError(f"record {record_id!r}: 'images' has {len(paths)} paths but 'gray' has {len(gray)} flags")
    return [trial_image(p, g, cache_dir, record_id) for p, g in zip(paths, gray)]
