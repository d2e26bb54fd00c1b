"""Grayscale variants exactly as the paper's Algorithm 1, made on the fly and cached.

    I_gray = cv2.cvtColor(I_color, cv2.COLOR_BGR2GRAY)     # Y = 0.114 B + 0.587 G + 0.299 R
    I_out  = cv2.cvtColor(I_gray,  cv2.COLOR_GRAY2BGR)     # [Y, Y, Y]

OpenCV computes Y in fixed point (weights ×2^14, +2^13, >>14). Images are
decoded with OpenCV too (cv2.imdecode, as Algorithm 1's ReadImage), so a colour
image and its grayscale version in a trial are pixel-aligned. The grayscale
result is cached losslessly as a one-channel PNG of Y (Algorithm 1 re-encodes with
the source's extension; we do not, so the cached pixels are the transform's exact
output); GRAY2BGR only repeats Y in three channels, so a cached image is read once
(one channel) and converted once (to the RGB the model gets).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import cv2
import numpy as np
from PIL import Image

from chronotasks.data.loading import DataError


def to_gray_bgr(bgr: np.ndarray) -> np.ndarray:
    """Algorithm 1, stage 2: BGR -> GRAY -> BGR (3 equal channels), uint8."""
    if bgr.ndim != 3 or bgr.shape[2] != 3:
        raise ValueError(f"expected an HxWx3 BGR image, got shape {bgr.shape}")
    return cv2.cvtColor(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)


def read_bgr(path: str | Path, record_id: object = "?") -> np.ndarray:
    """Decode an image file with OpenCV (3-channel BGR); a clear error naming record and file."""
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as err:
        raise DataError(f"record {record_id!r}, field 'images': image file {path} does not exist") from err
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise DataError(f"record {record_id!r}, field 'images': image file {path} is not a readable image")
    return image


def bgr_to_pil(bgr: np.ndarray) -> Image.Image:
    return Image.fromarray(cv2.cvtColor(bgr, cv2.COLOR_BGR2RGB))


def gray_to_pil(gray: np.ndarray) -> Image.Image:
    """Y (HxW) as the 3-channel [Y, Y, Y] RGB image stage 2 of Algorithm 1 gives."""
    return Image.fromarray(cv2.cvtColor(gray, cv2.COLOR_GRAY2RGB))


CACHE_FORMAT = "y1"  # one-channel PNG of Y; part of the cache key, so older 3-channel entries are not read


def gray_cache_path(path: str | Path, cache_dir: Path) -> Path:
    """Cache file of one source image's grayscale version (keyed by path, size and mtime)."""
    stat = os.stat(path)
    key = hashlib.sha1(f"{Path(path).resolve()}|{stat.st_size}|{stat.st_mtime_ns}|{CACHE_FORMAT}".encode()).hexdigest()
    return cache_dir / key[:2] / f"{key}.png"


def _read_cached(target: Path) -> np.ndarray | None:
    """The cached Y plane, or None when absent or unreadable (then it is made again)."""
    try:
        data = np.fromfile(str(target), dtype=np.uint8)
    except OSError:
        return None
    return cv2.imdecode(data, cv2.IMREAD_GRAYSCALE) if data.size else None


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
    ok, encoded = cv2.imencode(".png", gray)
    if ok:
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(f".{os.getpid()}.tmp")
        encoded.tofile(str(tmp))
        os.replace(tmp, target)
    return gray_to_pil(gray)


def trial_image(path: str, gray: bool, cache_dir: Path, record_id: object = "?") -> Image.Image:
    """One image of a shortcut trial: its grayscale version when ``gray``, else the colour image (both decoded by OpenCV)."""
    return gray_image(path, cache_dir, record_id) if gray else bgr_to_pil(read_bgr(path, record_id))


def trial_images(paths: list[str], gray: list[bool], cache_dir: Path, record_id: object = "?") -> list[Image.Image]:
    """The images of one shortcut trial, in order: grayscale where ``gray`` says so, else colour."""
    if len(paths) != len(gray):
        raise DataError(f"record {record_id!r}: 'images' has {len(paths)} paths but 'gray' has {len(gray)} flags")
    return [trial_image(p, g, cache_dir, record_id) for p, g in zip(paths, gray)]
