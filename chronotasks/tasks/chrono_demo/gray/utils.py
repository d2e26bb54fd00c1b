"""Hooks of the chrono_demo grayscale variants: the base tasks with every image grayscale
(chronotasks/tasks/variants.py)."""

from chronotasks.tasks.chrono_demo import utils as base
from chronotasks.tasks.messages import make_doc_to_messages
from chronotasks.tasks.variants import make_gray_doc_to_visual

doc_to_visual = make_gray_doc_to_visual("chrono_demo")
period_doc_to_messages = make_doc_to_messages(doc_to_visual, base.period_doc_to_text)
pair_doc_to_messages = make_doc_to_messages(doc_to_visual, base.pair_doc_to_text)
