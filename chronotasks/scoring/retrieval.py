"""Retrieval scoring and the pure-numpy pieces of embedding retrieval.

- ``parse_ranking``: a retrieval backend's reply (JSON ``{"ranked": [ids...]}`` or a list)
  -> the ranked candidate ids, or None when unreadable (scored as a miss, counted).
- ``hit_rank``: 0-based rank of the relevant id in a ranking (None when absent).
- ``recall_at``: Recall@K over per-query ranks.
- ``l2_normalize`` / ``pool_views``: how one artifact's several views become one vector:
  each view embedding is L2-normalised, the views are averaged, and the mean is
  L2-normalised again (so an artifact's score against a text is the cosine with its
  mean view direction; views count equally whatever their norms).
- ``brute_force_rank``: exact inner-product top-k in numpy (the reference faiss must match).
"""

from __future__ import annotations

import json
from collections.abc import Hashable, Iterable, Sequence
from typing import Any

import numpy as np

from chronotasks.scoring.aggregation import share


def parse_ranking(reply: Any) -> list[str] | None:
    """Ranked ids from ``{"ranked": [...]}`` JSON, a JSON list, or a list; None if unreadable."""
    value = reply
    if isinstance(reply, str):
        try:
            value = json.loads(reply)
        except (json.JSONDecodeError, ValueError):
            return None
    if isinstance(value, dict):
        value = value.get("ranked")
    if isinstance(value, (list, tuple)) and all(isinstance(v, (str, int)) for v in value):
        return [str(v) for v in value]
    return None


def hit_rank(ranked: Sequence[Hashable] | None, relevant: str | int | Iterable[Hashable]) -> int | None:
    """0-based position of the first relevant id in the ranking; None if absent or unparsed."""
    if ranked is None:
        return None
    targets = {str(relevant)} if isinstance(relevant, (str, int)) else {str(r) for r in relevant}
    for position, item in enumerate(ranked):
        if str(item) in targets:
            return position
    return None


def recall_at(ranks: Iterable[int | None], k: int) -> float:
    """Share of queries whose relevant item is in the top k (rank < k); NaN for no queries."""
    return share(r is not None and r < k for r in ranks)


def l2_normalize(x: np.ndarray, eps: float = 1e-12) -> np.ndarray:
    """Rows scaled to unit L2 norm (float32); a zero row stays zero."""
    arr = np.asarray(x, dtype=np.float32)
    norms = np.linalg.norm(arr, axis=-1, keepdims=True)
    return arr / np.maximum(norms, eps)


def pool_views(view_embeddings: np.ndarray) -> np.ndarray:
    """One unit vector for a multi-view artifact: normalise each view, average, renormalise."""
    views = l2_normalize(np.atleast_2d(view_embeddings))
    return l2_normalize(views.mean(axis=0, keepdims=True))[0]


def brute_force_rank(queries: np.ndarray, corpus: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """Exact top-k by inner product: (scores, indices), each (n_queries, k), best first.

    Ties are broken by the lower corpus index (stable sort).
    """
    sims = np.asarray(queries, dtype=np.float32) @ np.asarray(corpus, dtype=np.float32).T
    k = min(k, sims.shape[1])
    order = np.argsort(-sims, axis=1, kind="stable")[:, :k]
    return np.take_along_axis(sims, order, axis=1), order


__all__ = ["brute_force_rank", "hit_rank", "l2_normalize", "parse_ranking", "pool_views", "recall_at"]
