"""Hooks of the ChronoVision artifact grayscale variants: the base tasks (../utils.py) with every
artifact image grayscale, converted as the shortcut task does (chronotasks/tasks/variants.py)."""

from chronotasks.tasks.chronovision import utils as base
from chronotasks.tasks.messages import make_doc_to_messages
from chronotasks.tasks.variants import make_gray_doc_to_visual

doc_to_visual = make_gray_doc_to_visual("chronovision")
loc_doc_to_messages = make_doc_to_messages(doc_to_visual, base.loc_doc_to_text)
sort_doc_to_messages = make_doc_to_messages(doc_to_visual, base.sort_doc_to_text)
