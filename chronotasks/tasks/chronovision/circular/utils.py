"""Hooks of chronovision_artifacts_loc_circular: the base task's hooks (../utils.py) around every
rotation of each artifact's five dynasty options (chronotasks/tasks/variants.py)."""

from chronotasks.data.circular import make_circular_process_docs
from chronotasks.failures import mean_unless_failed  # noqa: F401  (the YAMLs' aggregation of scores: NaN for a failed task)
from chronotasks.tasks.chronovision import utils as base
from chronotasks.tasks.variants import (  # noqa: F401  (aggregations the YAML names)
    choice_from_options,
    choice_rate_A,
    choice_rate_B,
    choice_rate_C,
    choice_rate_D,
    choice_rate_E,
    circular_accuracy_agg,
    make_circular_process_results,
    position_bias_agg,
)

loc_docs = make_circular_process_docs(base.loc_docs)
loc_process_results = make_circular_process_results(base.loc_process_results, choice_from_options, accuracy_key="ACC_A")
