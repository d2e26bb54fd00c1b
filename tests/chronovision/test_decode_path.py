"""One decode path for every task, whatever the process imported first.

After ``import decord`` (lmms-eval's ``openai`` and Qwen classes import it), OpenCV's own PNG
decoder fails ("libpng error: bad parameters to zlib"). Our images are decoded by PIL
(``chronotasks.data.loading.open_image``); ChronoVision's grayscale keeps OpenCV's colour
conversion (Algorithm 1) on those pixels. Import order only means something in a fresh
interpreter, so both the reference (OpenCV's ``imdecode`` as Algorithm 1's ReadImage, in a
process that imports nothing but cv2 and numpy) and the decoding under test (decord, torchvision
and cv2 imported first, in either order) run in subprocesses.
"""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from extras import require
from PIL import Image

require("decord")  # the import-order fault needs it

REFERENCE = r"""
import json, sys
import cv2, numpy as np
folder = sys.argv[1]
names = json.loads(sys.argv[2])
for name in names:
    bgr = cv2.imdecode(np.fromfile(f"{folder}/{name}", dtype=np.uint8), cv2.IMREAD_COLOR)   # Algorithm 1's ReadImage
    gray = cv2.cvtColor(cv2.cvtColor(bgr, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    np.save(f"{folder}/{name}.colour.npy", bgr[:, :, ::-1])
    np.save(f"{folder}/{name}.gray.npy", gray[:, :, ::-1])
"""

UNDER_TEST = r"""
import json, sys
for module in sys.argv[3].split(","):
    __import__(module)
import numpy as np
from chronotasks.benchmarks.chronovision.grayscale import gray_image, trial_images
from chronotasks.data.loading import open_image
folder = sys.argv[1]
failures = []
for name in json.loads(sys.argv[2]):
    path = f"{folder}/{name}"
    colour, gray = trial_images([path, path], [False, True], __import__("pathlib").Path(folder) / "cache")
    cached = gray_image(path, __import__("pathlib").Path(folder) / "cache")   # the second read comes from the PNG cache
    from chronotasks.benchmarks.chronovision.grayscale import _read_cached, gray_cache_path
    if _read_cached(gray_cache_path(path, __import__("pathlib").Path(folder) / "cache")) is None:
        failures.append(f"{name}: its grayscale cache entry cannot be read back (it would be made again every time)")
    for what, got in (("colour", colour), ("open_image", open_image(path)), ("gray", gray), ("gray cached", cached)):
        expected = np.load(f"{path}.{'colour' if what in ('colour', 'open_image') else 'gray'}.npy")
        if got.mode != "RGB" or not np.array_equal(np.asarray(got), expected):
            failures.append(f"{name}: {what} differs from OpenCV's")
print(json.dumps(failures))
"""


def _photo(h: int = 61, w: int = 83) -> np.ndarray:
    """Smooth gradients and noise: what JPEG's chroma subsampling and rounding meet in a photo."""
    rng = np.random.default_rng(7)
    y, x = np.mgrid[0:h, 0:w]
    rgb = np.stack([(3 * x) % 256, (5 * y) % 256, (x + 2 * y) % 256], -1) + rng.normal(0, 25, (h, w, 3))
    return np.clip(rgb, 0, 255).astype(np.uint8)


def release_formats(folder: Path) -> list[str]:
    """One file of each image format the releases hold (and their usual variants)."""
    rgb = _photo()
    images = {
        "rgb.png": Image.fromarray(rgb),
        "gray.png": Image.fromarray(rgb[..., 1]),
        "rgba.png": Image.fromarray(np.dstack([rgb, rgb[..., 2]]), "RGBA"),
        "palette.png": Image.fromarray(rgb).quantize(32),
        "photo.jpg": Image.fromarray(rgb),
        "photo_444.jpg": Image.fromarray(rgb),
        "gray.jpg": Image.fromarray(rgb[..., 0]),
    }
    for name, image in images.items():
        image.save(folder / name, **({"quality": 95, "subsampling": 0} if name == "photo_444.jpg" else {}))
    # 16-bit grayscale PNG (PIL's own convert would clip it to white)
    Image.fromarray((rgb[..., 0].astype(np.uint16) * 257 + rgb[..., 1]).astype(np.uint16)).save(folder / "gray16.png")
    # a phone photo stored sideways, with EXIF Orientation 6 (OpenCV's imread turns it upright)
    turned = Image.fromarray(rgb)
    exif = turned.getexif()
    exif[0x0112] = 6
    turned.save(folder / "exif_rotated.jpg", exif=exif.tobytes())
    return [*images, "gray16.png", "exif_rotated.jpg"]


def _run(code: str, *args: str) -> str:
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout


@pytest.mark.parametrize("first", ["decord,torchvision,cv2", "cv2,decord,torchvision", "torchvision,decord"])
def test_every_format_decodes_as_opencv_does_whatever_was_imported_first(tmp_path, first):
    names = release_formats(tmp_path)
    _run(REFERENCE, str(tmp_path), json.dumps(names))
    assert json.loads(_run(UNDER_TEST, str(tmp_path), json.dumps(names), first).strip().splitlines()[-1]) == []


def test_the_fault_is_real_opencv_png_decoding_fails_after_decord():
    """What the decode path avoids (if a later decord or OpenCV fixes it, this test says so)."""
    code = (
        "import decord, cv2, numpy as np; ok, data = cv2.imencode('.png', np.zeros((8, 8), np.uint8)); "
        "print(cv2.imdecode(data, cv2.IMREAD_GRAYSCALE) is None)"
    )
    assert _run(code).strip().splitlines()[-1] == "True"


def test_sixteen_bit_png_keeps_its_picture(tmp_path):
    from chronotasks.data.loading import open_image

    values = np.arange(0, 65536, 257, dtype=np.uint16).reshape(16, 16)  # 0, 257, ..., 65535: high bytes 0..255
    Image.fromarray(values).save(tmp_path / "ramp16.png")
    with Image.open(tmp_path / "ramp16.png") as stored:
        assert stored.mode.startswith("I")  # really 16 bits on disk
    got = np.asarray(open_image(str(tmp_path / "ramp16.png")))
    assert np.array_equal(got[..., 0], np.arange(256, dtype=np.uint8).reshape(16, 16))
    assert np.array_equal(got[..., 0], got[..., 2])


def test_a_truncated_png_is_still_an_error(tmp_path):
    from chronotasks.data.loading import DataError, open_image

    buffer = io.BytesIO()
    Image.fromarray(_photo()).save(buffer, format="PNG")
    path = tmp_path / "cut.png"
    path.write_bytes(buffer.getvalue()[: len(buffer.getvalue()) // 2])
    with pytest.raises(DataError, match="cut.png is not a readable image"):
        open_image(str(path))
