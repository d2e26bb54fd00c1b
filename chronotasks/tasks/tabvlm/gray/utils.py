"""Hooks of the TAB-VLM grayscale variants: the base tasks (../utils.py) with every image grayscale,
for simple and chat models alike (chronotasks/tasks/variants.py)."""

from chronotasks.tasks.tabvlm import utils as base
from chronotasks.tasks.variants import make_gray_doc_to_messages, make_gray_doc_to_visual

doc_to_visual = make_gray_doc_to_visual("tabvlm")
doc_to_messages = make_gray_doc_to_messages("tabvlm", base.doc_to_messages)
