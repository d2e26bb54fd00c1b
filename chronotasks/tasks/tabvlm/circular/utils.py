"""Hooks of the TAB-VLM circular variants (single-letter tasks: Style-Period Attribution, Odd-One-Out
Period): the base tasks' hooks (../utils.py) around every rotation of each question's options
(chronotasks/tasks/variants.py). Odd-One-Out's options are its images: each image moves with its
option, and so do its period and catalog metadata."""

from chronotasks.data.circular import make_circular_process_docs
from chronotasks.failures import mean_unless_failed  # noqa: F401  (the YAMLs' aggregation of scores: NaN for a failed task)
from chronotasks.tasks.tabvlm import utils as base
from chronotasks.tasks.variants import (  # noqa: F401  (aggregations the YAMLs name)
    choice_rate_A,
    choice_rate_B,
    choice_rate_C,
    choice_rate_D,
    circular_accuracy_agg,
    make_circular_process_results,
    position_bias_agg,
)

PER_IMAGE = ("images", "periods", "period_ranks", "object_types", "main_materials")
style_period_docs = make_circular_process_docs(base.style_period_docs, ("options",))
odd_one_out_docs = make_circular_process_docs(base.odd_one_out_docs, ("options", *PER_IMAGE))
process_results = make_circular_process_results(base.process_results, lambda doc, reply: base.parse_reply(doc, reply)[0])
