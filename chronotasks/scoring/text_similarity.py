"""Free-text answer similarity: BERTScore (batched, via the bert-score library) and
normalised containment for short single answers (e.g. an author's name).

BERTScore is expensive: call ``bertscore_f1`` once with all (prediction, reference)
pairs of a run. Results are memoised per exact input so several aggregations over the
same samples (overall, per museum, Score) pay for one pass.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import unicodedata
from collections.abc import Sequence

# Default: the model bert-score itself uses for lang="zh" (a Chinese BERT); any local
# folder or hub id works (set CHRONOTASKS_BERTSCORE_MODEL / _LAYERS, or pass arguments).
DEFAULT_BERTSCORE_MODEL = "bert-base-chinese"
MODEL_ENV = "CHRONOTASKS_BERTSCORE_MODEL"
LAYERS_ENV = "CHRONOTASKS_BERTSCORE_LAYERS"
BATCH_ENV = "CHRONOTASKS_BERTSCORE_BATCH"

_MEMO: dict[str, list[float]] = {}


@functools.lru_cache(maxsize=None)
def bertscore_layers(model_type: str) -> int:
    """The layer whose embeddings BERTScore compares for ``model_type``.

    bert-score's own choice for the models in its table (``bert_score.utils.model2layers``, e.g. 8
    for bert-base-chinese, 17 for roberta-large); for any other model (a local folder, a hub id
    not in the table) its depth, read from its config: the last layer.
    """
    from bert_score.utils import model2layers

    if model_type in model2layers:
        return int(model2layers[model_type])
    from transformers import AutoConfig

    config = AutoConfig.from_pretrained(model_type)
    for part in (config, getattr(config, "text_config", None)):
        for name in ("num_hidden_layers", "n_layer", "num_layers"):
            depth = getattr(part, name, None)
            if isinstance(depth, int) and depth > 0:
                return depth
    raise ValueError(f"BERTScore: cannot tell the depth of {model_type!r} from its config; set {LAYERS_ENV}")


def bertscore_settings() -> tuple[str, int]:
    """(model, layer): ``CHRONOTASKS_BERTSCORE_MODEL`` (default bert-base-chinese) and
    ``CHRONOTASKS_BERTSCORE_LAYERS``, else the model's layer from ``bertscore_layers``."""
    model = os.environ.get(MODEL_ENV) or DEFAULT_BERTSCORE_MODEL
    layers = os.environ.get(LAYERS_ENV)
    return model, int(layers) if layers else bertscore_layers(model)


def bertscore_f1(
    preds: Sequence[str | None],
    refs: Sequence[str],
    model_type: str | None = None,
    num_layers: int | None = None,
    batch_size: int | None = None,
) -> list[float]:
    """BERTScore F1 (no baseline rescaling, no idf) of each prediction against its reference.

    ``model_type``/``num_layers`` default to ``bertscore_settings()`` (the layer count of another
    model comes from ``bertscore_layers``). One batched ``bert_score.score`` call over all pairs. An empty/None prediction scores 0
    without being sent to the model. Values are in the model's raw cosine scale.
    """
    if len(preds) != len(refs):
        raise ValueError(f"{len(preds)} predictions for {len(refs)} references")
    env_model = os.environ.get(MODEL_ENV) or DEFAULT_BERTSCORE_MODEL
    model_type = model_type or env_model
    if not num_layers:  # the environment's layer count belongs to the environment's model
        num_layers = bertscore_settings()[1] if model_type == env_model else bertscore_layers(model_type)
    num_layers = int(num_layers)
    batch_size = int(batch_size or os.environ.get(BATCH_ENV) or 64)
    texts = [("" if p is None else str(p).strip(), str(r).strip()) for p, r in zip(preds, refs)]
    key = hashlib.sha256(json.dumps([model_type, num_layers, texts], ensure_ascii=False).encode()).hexdigest()
    if key in _MEMO:
        return list(_MEMO[key])
    scored = [i for i, (p, r) in enumerate(texts) if p and r]
    values = [0.0] * len(texts)
    if scored:
        import bert_score

        _, _, f1 = bert_score.score(
            [texts[i][0] for i in scored],
            [texts[i][1] for i in scored],
            model_type=model_type,
            num_layers=num_layers,
            batch_size=batch_size,
            verbose=False,
        )
        for i, value in zip(scored, f1.tolist()):
            values[i] = float(value)
    _MEMO[key] = values
    return list(values)


_PUNCT = re.compile(r"[\s\W_]+", re.UNICODE)


def normalize_text(text: str | None) -> str:
    """NFKC, lower case, whitespace and punctuation removed ("《 郎世宁 》" -> "郎世宁")."""
    if text is None:
        return ""
    return _PUNCT.sub("", unicodedata.normalize("NFKC", str(text)).lower())


def contains_answer(pred: str | None, gold: str | None) -> float:
    """1.0 when the normalised gold answer occurs in the normalised prediction.

    For single-answer fields (an author's name) given in a free-text reply:
    "作者是郎世宁。" is right for "郎世宁". An empty gold or prediction is wrong.
    """
    p, g = normalize_text(pred), normalize_text(gold)
    return float(bool(p) and bool(g) and g in p)


__all__ = ["DEFAULT_BERTSCORE_MODEL", "bertscore_f1", "bertscore_layers", "bertscore_settings", "contains_answer", "normalize_text"]
