"""Hooks of the MuseBench VQA grayscale variants: the base tasks (../utils.py) with every view
grayscale (chronotasks/tasks/variants.py)."""

from chronotasks.tasks.variants import make_gray_doc_to_visual

doc_to_visual = make_gray_doc_to_visual("musebench")
