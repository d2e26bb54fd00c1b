"""TempViz (Holtermann et al.): temporal knowledge in text-to-image models.

``records.py`` turns the release's per-category CSV rows into task records,
``prepare.py`` is ``chronotasks prepare tempviz``, ``demo.py`` writes demo
data, ``metaeval.py`` is ``chronotasks metaeval tempviz``.
"""

CATEGORIES = ("Landscapes", "Animals", "Buildings", "Maps", "Artworks")

# Table 1 of the paper: distinct prompts per category before the x4 paraphrases.
TABLE1_PROMPTS = {"Landscapes": 460, "Animals": 712, "Buildings": 284, "Maps": 256, "Artworks": 273}
TABLE1_TOTAL = 7940
PARAPHRASES = 4


def task_file(category: str) -> str:
    """The task file of a category: ``animals.jsonl``."""
    return f"{category.lower()}.jsonl"
