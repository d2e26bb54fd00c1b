"""Hooks of the MuseBench VQA grayscale variants: the base tasks (../utils.py) with every view
grayscale (chronotasks/tasks/variants.py)."""

from chronotasks.tasks.messages import make_doc_to_messages
from chronotasks.tasks.musebench import utils as base
from chronotasks.tasks.variants import make_gray_doc_to_visual

doc_to_visual = make_gray_doc_to_visual("musebench")
vqa_doc_to_messages = make_doc_to_messages(doc_to_visual, base.vqa_doc_to_text)
