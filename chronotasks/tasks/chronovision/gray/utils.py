"""Hooks of the ChronoVision artifact grayscale variants: the base tasks (../utils.py) with every
artifact image grayscale, converted as the shortcut task does (chronotasks/tasks/variants.py)."""

from chronotasks.tasks.variants import make_gray_doc_to_visual

doc_to_visual = make_gray_doc_to_visual("chronovision")
