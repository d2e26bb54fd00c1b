"""Metrics checked against values worked out by hand."""

import math

import pytest

from chronotasks.scoring import (
    anls,
    bootstrap_ci,
    cohens_kappa,
    exact_match,
    exact_set_match,
    group_means,
    jaccard,
    kendall_tau,
    macro_prf,
    mean,
    mean_absolute_error,
    mean_std,
    multilabel_f1,
    point_biserial,
    recall_at_k,
    share,
    within_k,
)


def test_exact_match():
    assert exact_match("B", "B") == 1.0
    assert exact_match("C", "B") == 0.0
    assert exact_match(None, "B") == 0.0
    assert exact_match(("A", "C", "B", "D"), ["A", "C", "B", "D"]) == 1.0
    assert exact_match(("A", "B", "C", "D"), ["A", "C", "B", "D"]) == 0.0


def test_exact_set_match():
    assert exact_set_match(frozenset("AC"), ["C", "A"]) == 1.0
    assert exact_set_match(frozenset("A"), ["C", "A"]) == 0.0
    assert exact_set_match(frozenset("ACD"), ["C", "A"]) == 0.0
    assert exact_set_match(None, ["A"]) == 0.0


def test_kendall_tau_hand_values():
    # one discordant pair of 6: (6 - 2*1)/6 = 2/3
    assert kendall_tau(list("BACD"), list("ABCD")) == pytest.approx(2 / 3)
    assert kendall_tau(list("ABCD"), list("ABCD")) == pytest.approx(1.0)
    assert kendall_tau(list("DCBA"), list("ABCD")) == pytest.approx(-1.0)
    # A,C,B,D vs D,A,B,C ... gold order DABC: ranks of pred ACBD in gold = 1,3,2,0
    # pairs: (1,3)+ (1,2)+ (1,0)- (3,2)- (3,0)- (2,0)- -> 2 concordant, 4 discordant -> -2/6
    assert kendall_tau(list("ACBD"), list("DABC")) == pytest.approx(-1 / 3)
    # five items, one adjacent swap: (10 - 2)/10
    assert kendall_tau(list("ABCED"), list("ABCDE")) == pytest.approx(0.8)
    assert kendall_tau(None, list("ABCD")) == 0.0
    with pytest.raises(ValueError):
        kendall_tau(list("ABCE"), list("ABCD"))


def test_kendall_tau_fast_path_equals_scipy_exactly():
    """The short-ranking path gives scipy.stats.kendalltau's float, bit for bit: every permutation
    of 2..7 items, random ones up to the 64-item limit, and just above it (scipy itself)."""
    import itertools
    import random

    from scipy import stats

    def scipy_tau(pred, gold):
        rank = {item: i for i, item in enumerate(gold)}
        return float(stats.kendalltau([rank[x] for x in pred], range(len(gold))).statistic)

    rng = random.Random(0)
    cases = [(list(p), list(range(n))) for n in range(2, 8) for p in itertools.permutations(range(n))]
    for n in (10, 33, 64, 65, 80):
        for _ in range(20):
            gold = [f"item{i}" for i in range(n)]
            cases.append((rng.sample(gold, n), gold))
    for pred, gold in cases:
        assert kendall_tau(pred, gold) == scipy_tau(pred, gold), (pred, gold)
    # a gold order with a repeated item (ties) and a one-item ranking are left to scipy
    assert kendall_tau(list("ABAC"), list("AABC")) == scipy_tau(list("ABAC"), list("AABC"))
    assert math.isnan(kendall_tau(["A"], ["A"]))


def test_multilabel_f1_and_jaccard():
    # P={A,C}, G={A,B}: |P∩G|=1 -> F1 = 2*1/(2+2) = 0.5, Jaccard = 1/3
    assert multilabel_f1({"A", "C"}, {"A", "B"}) == pytest.approx(0.5)
    assert jaccard({"A", "C"}, {"A", "B"}) == pytest.approx(1 / 3)
    # P={A,B,C}, G={A,B}: F1 = 4/5, Jaccard = 2/3
    assert multilabel_f1({"A", "B", "C"}, {"A", "B"}) == pytest.approx(0.8)
    assert jaccard({"A", "B", "C"}, {"A", "B"}) == pytest.approx(2 / 3)
    assert multilabel_f1(set(), set()) == 1.0 and jaccard(set(), set()) == 1.0
    assert multilabel_f1(set(), {"A"}) == 0.0
    assert multilabel_f1(None, {"A"}) == 0.0 and jaccard(None, {"A"}) == 0.0


def test_mae_and_within_k():
    # errors 3, 0, 10 over parsed predictions; the unparsed one is left out
    assert mean_absolute_error([1990, 2000, None, 1950], [1987, 2000, 1999, 1960]) == pytest.approx(13 / 3)
    assert math.isnan(mean_absolute_error([None], [2000]))
    assert within_k(1990, 1987, 3) == 1.0
    assert within_k(1991, 1987, 3) == 0.0
    assert within_k(1987, 1987, 0) == 1.0
    assert within_k(None, 1987, 100) == 0.0


def test_macro_prf_hand_values():
    y_true = [1, 1, 1, 0, 0, 0]
    y_pred = [1, 1, 0, 0, 0, 1]
    # class 1: P=2/3 R=2/3; class 0: P=2/3 R=2/3 -> all 2/3
    got = macro_prf(y_true, y_pred)
    assert got["precision"] == pytest.approx(2 / 3)
    assert got["recall"] == pytest.approx(2 / 3)
    assert got["f1"] == pytest.approx(2 / 3)
    # all predicted 1: class1 P=3/6 R=1 F=2/3; class0 P=0 R=0 F=0 -> macro P=.25 R=.5 F=1/3
    got = macro_prf(y_true, [1] * 6)
    assert got == pytest.approx({"precision": 0.25, "recall": 0.5, "f1": 1 / 3})


def test_cohens_kappa_hand_value():
    a = [1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
    b = [1, 0, 0, 0, 1, 0, 1, 1, 1, 1]
    # observed agreement 8/10; a has 6 ones, b has 6 ones: pe = .6*.6 + .4*.4 = .52
    assert cohens_kappa(a, b) == pytest.approx((0.8 - 0.52) / (1 - 0.52))


def test_point_biserial_hand_value():
    binary = [0, 0, 1, 1]
    scores = [1.0, 2.0, 3.0, 4.0]
    # equals Pearson r of (0,0,1,1) with (1,2,3,4): cov=0.5 (population 0.25*... ) -> r = 2/sqrt(5)
    r, p = point_biserial(binary, scores)
    assert r == pytest.approx(2 / math.sqrt(5))
    # two-sided p of t = r * sqrt((n - 2) / (1 - r^2)) on n - 2 = 2 degrees of freedom, where Student's
    # t has the closed form P(|T| > t) = 1 - t / sqrt(2 + t^2), which is 1 - r here
    assert p == pytest.approx(1 - 2 / math.sqrt(5))


def test_point_biserial_matches_scipy():
    from scipy import stats

    binary = [1, 0, 1, 1, 0, 0, 1, 0, 1, 1, 0, 1]
    scores = [0.31, 0.22, 0.28, 0.35, 0.19, 0.27, 0.24, 0.21, 0.33, 0.30, 0.25, 0.26]
    expected = stats.pointbiserialr(binary, scores)
    r, p = point_biserial(binary, scores)
    assert r == pytest.approx(expected.statistic) and p == pytest.approx(expected.pvalue)
    # the same test as Student's two-sample t-test of the scores of the 1s against those of the 0s
    ones, zeros = [s for b, s in zip(binary, scores) if b], [s for b, s in zip(binary, scores) if not b]
    assert p == pytest.approx(stats.ttest_ind(ones, zeros).pvalue)


def test_recall_at_k():
    ranked = ["x", "y", "z", "w"]
    assert recall_at_k(ranked, "x", 1) == 1.0
    assert recall_at_k(ranked, "z", 1) == 0.0
    assert recall_at_k(ranked, "z", 3) == 1.0
    assert recall_at_k(ranked, {"q", "w"}, 3) == 0.0
    assert recall_at_k(ranked, {"q", "w"}, 4) == 1.0


def test_anls_hand_values():
    assert anls("Qing dynasty", "qing dynasty") == 1.0
    # "Qing" vs "Ming": distance 1 of 4 -> NL 0.25 -> 0.75
    assert anls("Qing", "Ming") == pytest.approx(0.75)
    # "Tang" vs "Song": distance 2 of 4 -> NL 0.5, not below the 0.5 threshold -> 0
    assert anls("Tang", "Song") == 0.0
    # max over gold answers
    assert anls("Ming", ["Song", "Ming dynasty", "ming"]) == 1.0
    assert anls(None, "Ming") == 0.0
    # "abcde" vs "abcxy": distance 2 of 5 -> NL 0.4 -> 0.6
    assert anls("abcde", "abcxy") == pytest.approx(0.6)


def test_mean_std_bootstrap_share_groups():
    m, s = mean_std([10.0, 12.0, 14.0])
    assert m == pytest.approx(12.0) and s == pytest.approx(2.0)
    assert mean([1.0, None, 3.0]) == 2.0
    lo, hi = bootstrap_ci([0, 1] * 50, seed=1)
    assert lo < 0.5 < hi and hi - lo < 0.3
    assert share([True, False, False, True]) == 0.5
    items = [{"p": "Mughal", "c": 1.0}, {"p": "Mughal", "c": 0.0}, {"p": "Gupta", "c": 1.0}]
    assert group_means(items, "p", "c") == {"Gupta": 1.0, "Mughal": 0.5}
