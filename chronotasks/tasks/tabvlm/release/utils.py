"""Hooks of TAB-VLM's release protocol (group ``tabvlm_chrono_release``): the release code's
numbered-option prompts (prompts/tabvlm/release_*.j2) and answer format (option numbers, not
letters), scored twice:

- ``accuracy``: our careful reading (``AnswerSpace.parse`` on the numbered answer space, the base
  task's own ``process_results``), with the base task's partial-credit metrics;
- ``accuracy_release``: the release code's reading and counting (chronotasks/scoring/release_tabvlm.py):
  None for a reply the release leaves out (an empty reply, an image that could not be loaded), so
  the mean over the other replies is the release's accuracy; ``dropped_release`` is the share left out.

The records are the base tasks' (../utils.py) with the answer space marked ``numbered``; the gold
answers stay letters (option 1 = A).
"""

from dataclasses import replace

import datasets

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import open_doc_image
from chronotasks.prompts import render
from chronotasks.scoring import mean
from chronotasks.scoring.release_tabvlm import gold_indices, release_score
from chronotasks.tasks.tabvlm import utils as base
from chronotasks.tasks.tabvlm.utils import (  # noqa: F401  (aggregations the YAMLs name)
    count,
    mean_unless_failed,
    period_bias,
    period_bias_chance,
    period_distance,
    period_distance_chance,
)

TEMPLATES = {
    "style_period_attribution": "release_style_period",
    "chronological_sequence": "release_sequence",
    "manufacturing_technique": "release_select_all",
    "material_availability": "release_select_all",
    "period_grouping": "release_grouping",
    "odd_one_out_period": "release_odd_one_out",
}
PER_PERIOD = "period_acc_"  # the base style-period task's per-period keys: not part of the release protocol


def numbered(base_docs):
    """process_docs: the base task's records, their options numbered 1..n instead of lettered."""

    def process_docs(placeholder: datasets.Dataset) -> datasets.Dataset:
        docs = base_docs(placeholder).to_list()
        return datasets.Dataset.from_list(
            [{**doc, "answer_space": replace(AnswerSpace.of_doc(doc), numbered=True).to_json()} for doc in docs]
        )

    if hasattr(base_docs, "task_data"):  # the records' file, named by check-data's messages
        process_docs.task_data = base_docs.task_data
    return process_docs


style_period_docs = numbered(base.style_period_docs)
sequence_docs = numbered(base.sequence_docs)
technique_docs = numbered(base.technique_docs)
material_docs = numbered(base.material_docs)
grouping_docs = numbered(base.grouping_docs)
odd_one_out_docs = numbered(base.odd_one_out_docs)
doc_to_visual = base.doc_to_visual
accuracy_release = mean  # the mean over the replies the release counts (None = left out)


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    """The release's prompt for the record's question type; the images come after it."""
    return render(f"tabvlm/{TEMPLATES[doc['question_type']]}.j2", question_text=doc["question"], options=doc["options"])


def doc_to_messages(doc, lmms_eval_specific_kwargs=None):
    """Chat models: the prompt text, then the images in order (as the release's OpenAI and Qwen classes send them)."""
    images = [{"type": "image", "url": open_doc_image(path, doc["id"])} for path in doc["images"]]
    return [{"role": "user", "content": [{"type": "text", "text": doc_to_text(doc)}, *images]}]


def process_results(doc, results):
    out = {key: value for key, value in base.process_results(doc, results).items() if not key.startswith(PER_PERIOD)}
    score = None if out.get("image_failure") else release_score(doc["question_type"], results[0], gold_indices(doc["answer"]))
    return {**out, "accuracy_release": score, "dropped_release": float(score is None)}
