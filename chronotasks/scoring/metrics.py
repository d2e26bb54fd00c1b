"""Per-sample metrics and dataset-level statistics, as the four papers define them.

Per-sample functions take one prediction and its gold answer and return a
float (an unparsed prediction, ``None``, scores 0). Dataset-level functions
take lists. Library implementations are used where they exist (scipy,
scikit-learn, rapidfuzz); this module only pins the definitions.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np
from rapidfuzz.distance import Levenshtein
from scipy import stats
from sklearn.metrics import cohen_kappa_score, precision_recall_fscore_support


def exact_match(pred: Any, gold: Any) -> float:
    """1.0 when the parsed prediction equals the gold answer (ordering-sensitive)."""
    if pred is None:
        return 0.0
    return float(tuple(pred) == tuple(gold)) if isinstance(gold, (list, tuple)) else float(pred == gold)


def exact_set_match(pred: Iterable[Hashable] | None, gold: Iterable[Hashable]) -> float:
    """1.0 when the predicted set is exactly the gold set: all correct, none wrong."""
    if pred is None:
        return 0.0
    return float(set(pred) == set(gold))


_SHORT_RANKING = 64


def kendall_tau(pred_order: Sequence[Hashable] | None, gold_order: Sequence[Hashable], unparsed: float = 0.0) -> float:
    """Kendall's τ between a predicted and the gold ordering of the same items.

    Both orderings list item ids from first to last. τ = 1 for the same order,
    −1 for the reverse ("B,A,C,D" vs "A,B,C,D" gives 2/3). An unparsed
    prediction scores ``unparsed`` (0 = no better than chance, by default).
    The value is ``scipy.stats.kendalltau``'s (τ-b); short rankings of distinct
    items (every task's) take ``_kendall_tau_distinct``, which gives the same
    float without scipy's per-call overhead (tests compare the two).
    """
    if pred_order is None:
        return unparsed
    if sorted(map(str, pred_order)) != sorted(map(str, gold_order)):
        raise ValueError(f"orderings are not of the same items: {pred_order!r} vs {gold_order!r}")
    rank = {item: i for i, item in enumerate(gold_order)}
    ranks = [rank[item] for item in pred_order]
    if 2 <= len(ranks) <= _SHORT_RANKING and len(rank) == len(ranks):
        return _kendall_tau_distinct(ranks)
    return float(stats.kendalltau(ranks, range(len(gold_order))).statistic)


def _kendall_tau_distinct(ranks: Sequence[int]) -> float:
    """τ of a permutation of 0..n-1 against the identity, n >= 2, computed as scipy does with no ties.

    τ-b = (concordant − discordant) / sqrt(n0) / sqrt(n0) with n0 = n(n−1)/2 pairs, clipped to
    [−1, 1]: the same operations in the same order as scipy, so the same float.
    """
    n = len(ranks)
    discordant = sum(1 for i in range(n) for j in range(i + 1, n) if ranks[i] > ranks[j])
    pairs = n * (n - 1) // 2
    tau = (pairs - 2 * discordant) / math.sqrt(pairs) / math.sqrt(pairs)
    return min(1.0, max(-1.0, tau))


def multilabel_f1(pred: Iterable[Hashable] | None, gold: Iterable[Hashable]) -> float:
    """Per-sample F1 between a predicted and a gold label set: 2|P∩G| / (|P|+|G|).

    Two empty sets agree perfectly (1.0); an unparsed prediction scores 0.
    """
    if pred is None:
        return 0.0
    p, g = set(pred), set(gold)
    if not p and not g:
        return 1.0
    return 2 * len(p & g) / (len(p) + len(g))


def jaccard(pred: Iterable[Hashable] | None, gold: Iterable[Hashable]) -> float:
    """|P∩G| / |P∪G|; two empty sets give 1.0, an unparsed prediction 0."""
    if pred is None:
        return 0.0
    p, g = set(pred), set(gold)
    if not p and not g:
        return 1.0
    return len(p & g) / len(p | g)


def absolute_error(pred: float | None, gold: float) -> float | None:
    """|pred − gold|, or None for an unparsed prediction (MAE is over parsed ones)."""
    return None if pred is None else abs(float(pred) - float(gold))


def mean_absolute_error(preds: Sequence[float | None], golds: Sequence[float]) -> float:
    """MAE over the predictions that parsed; NaN when none did."""
    errors = [e for e in map(absolute_error, preds, golds) if e is not None]
    return float(np.mean(errors)) if errors else math.nan


def within_k(pred: float | None, gold: float, k: float) -> float:
    """1.0 when the prediction is within ±k of the gold value (k=0 is exact)."""
    return 0.0 if pred is None else float(abs(float(pred) - float(gold)) <= k)


def macro_prf(y_true: Sequence[Hashable], y_pred: Sequence[Hashable], labels: Sequence[Hashable] | None = None) -> dict[str, float]:
    """Macro-averaged precision, recall and F1 (scikit-learn, zero_division=0)."""
    p, r, f, _ = precision_recall_fscore_support(y_true, y_pred, labels=labels, average="macro", zero_division=0)
    return {"precision": float(p), "recall": float(r), "f1": float(f)}


def cohens_kappa(rater_a: Sequence[Hashable], rater_b: Sequence[Hashable]) -> float:
    """Cohen's κ between two raters' labels of the same items."""
    return float(cohen_kappa_score(rater_a, rater_b))


def point_biserial(binary: Sequence[int | bool], continuous: Sequence[float]) -> tuple[float, float]:
    """Point-biserial correlation r and its two-sided p-value."""
    result = stats.pointbiserialr(np.asarray(binary, dtype=float), np.asarray(continuous, dtype=float))
    return float(result.statistic), float(result.pvalue)


def recall_at_k(ranked_ids: Sequence[Hashable], relevant: str | int | Iterable[Hashable], k: int) -> float:
    """1.0 when a relevant id is among the first k ranked ids (per query)."""
    targets = {relevant} if isinstance(relevant, (str, int)) else set(relevant)
    return float(any(item in targets for item in list(ranked_ids)[:k]))


def anls(pred: str | None, golds: str | Iterable[str], threshold: float = 0.5) -> float:
    """Average Normalized Levenshtein Similarity for one answer (Biten et al., 2019).

    s = 1 − NL(pred, gold) when NL < threshold, else 0, maximised over the gold
    answers; NL = edit distance / max(len). Strings are compared stripped and
    lower-cased. An unparsed (None) prediction scores 0.
    """
    if pred is None:
        return 0.0
    candidates = [golds] if isinstance(golds, str) else list(golds)
    p = " ".join(str(pred).strip().lower().split())
    best = 0.0
    for gold in candidates:
        g = " ".join(str(gold).strip().lower().split())
        if not p and not g:
            return 1.0
        nl = Levenshtein.normalized_distance(p, g)
        best = max(best, 1.0 - nl if nl < threshold else 0.0)
    return best


def mean(values: Iterable[float | None]) -> float:
    """Mean of the values that are not None; NaN for none."""
    kept = [float(v) for v in values if v is not None]
    return float(np.mean(kept)) if kept else math.nan


def mean_std(values: Sequence[float]) -> tuple[float, float]:
    """Mean and sample standard deviation (ddof=1) over repeated runs; the deviation of a single
    run is undefined (NaN, shown "n/a"), not 0."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0:
        return math.nan, math.nan
    return float(arr.mean()), float(arr.std(ddof=1)) if arr.size > 1 else math.nan


def bootstrap_ci(values: Sequence[float], confidence: float = 0.95, n_resamples: int = 2000, seed: int = 0) -> tuple[float, float]:
    """Percentile bootstrap confidence interval of the mean (scipy.stats.bootstrap)."""
    arr = np.asarray(values, dtype=float)
    if arr.size < 2 or np.all(arr == arr[0]):
        return float(arr.mean()) if arr.size else math.nan, float(arr.mean()) if arr.size else math.nan
    res = stats.bootstrap(
        (arr,), np.mean, confidence_level=confidence, n_resamples=n_resamples, method="percentile", random_state=np.random.default_rng(seed)
    )
    return float(res.confidence_interval.low), float(res.confidence_interval.high)


__all__ = [
    "absolute_error",
    "anls",
    "bootstrap_ci",
    "cohens_kappa",
    "exact_match",
    "exact_set_match",
    "jaccard",
    "kendall_tau",
    "macro_prf",
    "mean",
    "mean_absolute_error",
    "mean_std",
    "multilabel_f1",
    "point_biserial",
    "recall_at_k",
    "within_k",
]
