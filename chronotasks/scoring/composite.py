"""Composite scores that combine several tasks' figures into one number.

ChronoVision "Seeing Time" (§V.C, Eqs. 6-9): every component is in [0, 1].

    S_A = ½ (ACC_A + (1 + τ) / 2)
    S_S = ACC_B · (1 − |Δ_ACC|)          Δ_ACC = ACC_1 − ACC_2
    S_N = ½ (ACC_Y · (1 − MAE / MAE_max) + ACC_M)     MAE_max = 80 years
    S   = (S_A + S_S + S_N) / 3

S is a sum of one term per task (``*_term``): each is S with the other tasks' parts at zero, so a
task reports its term and a group adds them up. The terms come from the equations above, which
stay the one definition; ``chronovision_composite`` gives S and its components from the columns.
"""

from __future__ import annotations

import math

MAE_MAX = 80.0


def artifacts_score(acc_a: float, tau: float) -> float:
    """S_A from the dynasty accuracy (0..1) and the sort task's Kendall τ (−1..1)."""
    return 0.5 * (acc_a + (1.0 + tau) / 2.0)


def shortcut_score(acc_b: float, delta_acc: float) -> float:
    """S_S from the colour/colour accuracy and Δ_ACC = ACC_1 − ACC_2 (all 0..1)."""
    return acc_b * (1.0 - abs(delta_acc))


def news_score(acc_y: float, mae: float, acc_m: float, mae_max: float = MAE_MAX) -> float:
    """S_N from the exact-year accuracy, the year MAE (years) and the multimodal accuracy.

    A NaN MAE (no year parsed at all) counts as MAE_max, i.e. no precision credit.
    """
    mae = mae_max if mae is None or math.isnan(mae) else mae
    return 0.5 * (acc_y * (1.0 - mae / mae_max) + acc_m)


def chronovision_composite(
    acc_a: float, tau: float, acc_b: float, delta_acc: float, acc_y: float, mae: float, acc_m: float, mae_max: float = MAE_MAX
) -> dict[str, float]:
    """All four scores (fractions, not percent): {"S_A", "S_S", "S_N", "S"}."""
    s_a = artifacts_score(acc_a, tau)
    s_s = shortcut_score(acc_b, delta_acc)
    s_n = news_score(acc_y, mae, acc_m, mae_max)
    return {"S_A": s_a, "S_S": s_s, "S_N": s_n, "S": (s_a + s_s + s_n) / 3.0}


# -- S as a sum of one term per task (each task reports its term; the ChronoVision group adds them) ---
def localization_term(acc_a: float) -> float:
    """ACC_A's term of S: S_A / 3 with τ's part left out (= ACC_A / 6)."""
    return artifacts_score(acc_a, -1.0) / 3.0


def sorting_term(tau: float) -> float:
    """τ's term of S: S_A / 3 with ACC_A's part left out (= (1 + τ) / 12). τ is the mean of the intra-
    and cross-category levels, so each level's task reports half of this with its own τ."""
    return artifacts_score(0.0, tau) / 3.0


def shortcut_term(acc_b: float, delta_acc: float) -> float:
    """The shortcut task's term of S: S_S / 3."""
    return shortcut_score(acc_b, delta_acc) / 3.0


def year_term(acc_y: float, mae: float) -> float:
    """The News-Year task's term of S: S_N / 3 with ACC_M at 0."""
    return news_score(acc_y, mae, 0.0) / 3.0


def multimodal_term(acc_m: float) -> float:
    """The multimodal task's term of S: S_N / 3 with no year credit (= ACC_M / 6)."""
    return news_score(0.0, MAE_MAX, acc_m) / 3.0


def tau_from_table(score_50: float) -> float:
    """τ from Table III's "50 × (1 + τ)" column: 64.05 -> 0.281."""
    return score_50 / 50.0 - 1.0


__all__ = [
    "MAE_MAX",
    "artifacts_score",
    "chronovision_composite",
    "localization_term",
    "multimodal_term",
    "news_score",
    "shortcut_score",
    "shortcut_term",
    "sorting_term",
    "tau_from_table",
    "year_term",
]
