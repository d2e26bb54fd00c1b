"""Procedurally drawn stand-in images for demo data and tests.

Deterministic for a given random generator: the same seed gives the same
pixels. Nothing here is meant to look like a real artifact or photo.
"""

from __future__ import annotations

import colorsys
import random

from PIL import Image, ImageDraw


def draw_scene(rng: random.Random, size: int = 64, hue: float | None = None, saturation: float = 0.7, shapes: int = 6) -> Image.Image:
    """A background gradient with a few ellipses and rectangles in one hue family.

    ``saturation`` 0 draws a grayscale scene; ``hue`` in [0, 1) picks the
    colour family (random when None).
    """
    hue = rng.random() if hue is None else hue % 1.0

    def colour(lightness: float) -> tuple[int, int, int]:
        r, g, b = colorsys.hls_to_rgb((hue + rng.uniform(-0.05, 0.05)) % 1.0, lightness, saturation)
        return int(r * 255), int(g * 255), int(b * 255)

    image = Image.new("RGB", (size, size), colour(0.85))
    draw = ImageDraw.Draw(image)
    for row in range(0, size, 4):
        draw.rectangle([0, row, size, row + 3], fill=colour(0.6 + 0.3 * row / size))
    for _ in range(shapes):
        x0, y0 = rng.randrange(size), rng.randrange(size)
        x1, y1 = min(size, x0 + rng.randrange(4, size // 2)), min(size, y0 + rng.randrange(4, size // 2))
        box = [x0, y0, x1, y1]
        fill = colour(rng.uniform(0.2, 0.7))
        (draw.ellipse if rng.random() < 0.5 else draw.rectangle)(box, fill=fill)
    return image


def save_scene(path, rng: random.Random, **kwargs) -> None:
    """Draw a scene and save it as PNG at ``path`` (folders created)."""
    from pathlib import Path

    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    draw_scene(rng, **kwargs).save(target, format="PNG")
