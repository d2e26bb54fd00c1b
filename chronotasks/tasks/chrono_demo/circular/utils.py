"""Hooks of chrono_demo_period_circular: the base task's hooks (../utils.py) around every rotation
of each question's options (chronotasks/tasks/variants.py)."""

from chronotasks.data.circular import make_circular_process_docs
from chronotasks.failures import mean_unless_failed  # noqa: F401  (the YAMLs' aggregation of scores: NaN for a failed task)
from chronotasks.tasks.chrono_demo import utils as base
from chronotasks.tasks.variants import (  # noqa: F401  (aggregations the YAML names)
    choice_from_options,
    choice_rate_A,
    choice_rate_B,
    choice_rate_C,
    choice_rate_D,
    circular_accuracy_agg,
    make_circular_process_results,
    position_bias_agg,
)

period_docs = make_circular_process_docs(base.period_docs)
period_process_results = make_circular_process_results(base.period_process_results, choice_from_options)
