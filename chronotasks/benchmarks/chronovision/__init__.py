"""ChronoVision ("Seeing Time"): CHA artifacts, SPEED shortcut pairs, HistNews news tasks.

- ``grayscale``: the paper's Algorithm 1 (OpenCV BGR->GRAY->BGR), cached on disk.
- ``prepare``: joins the public release files and an image folder into task files.
- ``demo``: a small synthetic release (files + stand-in images) run through ``prepare``.
"""

BENCHMARK = "chronovision"
DYNASTIES = ("Tang", "Song", "Yuan", "Ming", "Qing")
ARTIFACT_CATEGORIES = ("carving", "jade", "china", "coin", "fan", "lacquerware")
SPEED_CATEGORIES = ("sports", "politics", "electronics", "emergency", "diversity")
YEAR_RANGE = (1946, 2025)
