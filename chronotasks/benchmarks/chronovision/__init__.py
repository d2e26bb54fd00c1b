"""ChronoVision ("Seeing Time"): CHA artifacts, SPEED shortcut pairs, HistNews news tasks.

- ``grayscale``: the paper's Algorithm 1 (OpenCV BGR->GRAY->BGR), cached on disk.
- ``prepare``: joins the public release files and an image folder into task files.
- ``demo``: a small synthetic release (files + stand-in images) run through ``prepare``.

The answer spaces below are the records' (``prepare`` writes them); the report's chance levels read
them (``chronotasks.scoring.chance``).
"""

from chronotasks.data.answer_space import AnswerSpace

BENCHMARK = "chronovision"
DYNASTIES = ("Tang", "Song", "Yuan", "Ming", "Qing")
ARTIFACT_CATEGORIES = ("carving", "jade", "china", "coin", "fan", "lacquerware")
SPEED_CATEGORIES = ("sports", "politics", "electronics", "emergency", "diversity")
YEAR_RANGE = (1946, 2025)

LOC_SPACE = AnswerSpace("letter", n=5)  # the five dynasties, shuffled per record
SHORTCUT_SPACE = AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier")
MULTIMODAL_SPACE = AnswerSpace("choice", choices=("1", "2", "3", "4"), key="answer")
NEWS_YEAR_SPACE = AnswerSpace("year", lo=YEAR_RANGE[0], hi=YEAR_RANGE[1])


def sort_space(n: int) -> AnswerSpace:
    """A sorting record's space: orderings of its n images, 0-based image indices (as the prompt asks)."""
    return AnswerSpace("ordering", n=n, base=0)
