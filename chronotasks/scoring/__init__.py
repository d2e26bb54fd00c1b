"""Pure scoring functions shared by every benchmark: answer parsing, metrics,
aggregations. Imports nothing else of chronotasks and nothing of lmms-eval."""

from chronotasks.scoring.aggregation import group_means, share
from chronotasks.scoring.metrics import (
    absolute_error,
    anls,
    bootstrap_ci,
    cohens_kappa,
    exact_match,
    exact_set_match,
    jaccard,
    kendall_tau,
    macro_prf,
    mean,
    mean_absolute_error,
    mean_std,
    multilabel_f1,
    point_biserial,
    recall_at_k,
    within_k,
)
from chronotasks.scoring.parsing import (
    UNPARSED,
    clean,
    extract_json,
    indices_to_letters,
    letters_for,
    letters_to_indices,
    parse_accept,
    parse_choice,
    parse_index_ordering,
    parse_json_choice,
    parse_k_of_n,
    parse_letter,
    parse_letter_set,
    parse_ordering,
    parse_period,
    parse_year,
    parse_yes_no,
)

__all__ = [name for name in dir() if not name.startswith("_")]
