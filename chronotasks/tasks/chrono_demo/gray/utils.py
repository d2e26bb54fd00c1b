"""Hooks of the chrono_demo grayscale variants: the base tasks with every image grayscale
(chronotasks/tasks/variants.py)."""

from chronotasks.tasks.variants import make_gray_doc_to_visual

doc_to_visual = make_gray_doc_to_visual("chrono_demo")
