"""ChronoVision's grayscale cache serves what Algorithm 1 gives for the file as it is now: keyed by the
source's bytes (a same-size replacement with its mtime put back is converted again), every cached
entry checked (a damaged one is named once, dropped and made again)."""

import logging
import os

import cv2
import numpy as np
import pytest
from PIL import Image

from chronotasks.benchmarks.chronovision.grayscale import gray_cache_path, gray_image, to_gray_bgr
from chronotasks.data import cache_files


def _photo(path, seed):
    """A 40x30 colour photo stored without compression (every such file has the same size); its Algorithm 1 RGB."""
    bgr = np.random.default_rng(seed).integers(0, 256, (30, 40, 3), dtype=np.uint8)
    cv2.imwrite(str(path), bgr, [cv2.IMWRITE_PNG_COMPRESSION, 0])
    return to_gray_bgr(bgr)[..., ::-1]


def test_a_same_size_replacement_with_its_mtime_restored_is_converted_again(tmp_path):
    path, other = tmp_path / "photo.png", tmp_path / "other.png"
    _photo(path, 1)
    expected_other = _photo(other, 2)
    gray_image(path, tmp_path / "cache")
    stat = os.stat(path)
    with open(path, "r+b") as handle:  # cp -p: other bytes, same size, the old times
        handle.write(other.read_bytes())
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (os.stat(path).st_size, os.stat(path).st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)
    cache_files._digests.clear()  # a new run
    assert np.array_equal(np.asarray(gray_image(path, tmp_path / "cache")), expected_other)


def _flip_a_bit_in_the_image_data(entry):
    data = bytearray(entry.read_bytes())
    data[data.index(b"IDAT") + 20] ^= 0x04
    entry.write_bytes(bytes(data))


def _another_valid_png(entry):
    Image.new("L", (40, 30), 7).save(entry)


def _torn(entry):
    entry.write_bytes(entry.read_bytes()[:50])


def _three_channels(entry):
    entry.write_bytes(cache_files.sealed_png(Image.new("RGB", (40, 30), (7, 7, 7))))


DAMAGE = [_flip_a_bit_in_the_image_data, _another_valid_png, _torn, _three_channels]


@pytest.mark.parametrize("damage", DAMAGE, ids=[d.__name__.strip("_") for d in DAMAGE])
def test_a_damaged_entry_is_named_once_dropped_and_made_again(tmp_path, caplog, damage):
    path = tmp_path / "photo.png"
    expected = _photo(path, 3)
    gray_image(path, tmp_path / "cache")
    entry = gray_cache_path(path, tmp_path / "cache")
    damage(entry)
    caplog.set_level(logging.WARNING, logger="chronotasks")
    assert np.array_equal(np.asarray(gray_image(path, tmp_path / "cache")), expected)
    assert np.array_equal(np.asarray(gray_image(path, tmp_path / "cache")), expected)
    assert [r.getMessage().split()[2] for r in caplog.records if "is damaged" in r.getMessage()] == [str(entry)]
    assert np.array_equal(np.asarray(cache_files.open_sealed_png(entry)), expected[..., 0])
