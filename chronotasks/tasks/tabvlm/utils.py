"""Hooks of the TAB-VLM tasks (tabvlm_chrono group): each a few lines over
chronotasks.scoring. The question type of a record picks its prompt, parser
and metrics; ``lmms_eval_specific_kwargs`` ``metadata: true`` selects the
visual+metadata variant (Appendix C.5)."""

from dataclasses import replace

from chronotasks.benchmarks.tabvlm.schema import BY_QUESTION_TYPE, BY_TASK, PERIOD_KEYS, PERIODS, period_rank
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import doc_images, make_process_docs, open_doc_image, scores_image_failures
from chronotasks.extraction import read_answer
from chronotasks.failures import mean_present_unless_failed, mean_unless_failed, unless_failed  # noqa: F401  (the YAMLs' aggregations of scores: NaN for a failed task)
from chronotasks.prompts import render
from chronotasks.scoring import exact_match, exact_set_match, jaccard, kendall_tau, multilabel_f1
from chronotasks.scoring.ordering import has_ties, rank_consistent_match
from chronotasks.scoring.period_distance import bias, chance_bias, chance_distance, distance, offset_item
from chronotasks.scoring.strict import strict_match

_REQUIRED = ("id", "question_type", "question", "images", "options", "answer", "answer_space", "period_ranks")
_docs = {t.task: make_process_docs("tabvlm", t.file, required=_REQUIRED) for t in BY_TASK.values()}
style_period_docs = _docs["tabvlm_style_period"]
sequence_docs = _docs["tabvlm_sequence"]
technique_docs = _docs["tabvlm_technique"]
material_docs = _docs["tabvlm_material"]
grouping_docs = _docs["tabvlm_grouping"]
odd_one_out_docs = _docs["tabvlm_odd_one_out"]
doc_to_visual = doc_images
_IMAGE_SLOT = "\x00<image>\x00"


def _prompt(doc, kwargs, image):
    kwargs = kwargs or {}
    metadata = [{"object_type": o, "main_material": m} for o, m in zip(doc["object_types"], doc["main_materials"])]
    return render(
        BY_QUESTION_TYPE[doc["question_type"]].template,
        question_text=doc["question"],
        options=doc["options"],
        image=image,
        metadata=metadata if kwargs.get("metadata") else None,
    )


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    """The Appendix B prompt; each image's place is marked ``<image>`` (``image_token`` overrides)."""
    return _prompt(doc, lmms_eval_specific_kwargs, (lmms_eval_specific_kwargs or {}).get("image_token", "<image>"))


def doc_to_messages(doc, lmms_eval_specific_kwargs=None):
    """Chat models: one user turn with every image interleaved where the template puts it."""
    pieces = _prompt(doc, lmms_eval_specific_kwargs, _IMAGE_SLOT).split(_IMAGE_SLOT)
    content = [{"type": "text", "text": pieces[0]}] if pieces[0] else []
    for path, text in zip(doc["images"], pieces[1:]):
        content.append({"type": "image", "url": open_doc_image(path, doc["id"])})
        if text:
            content.append({"type": "text", "text": text})
    return [{"role": "user", "content": content}]


def doc_to_target(doc):
    return ", ".join(doc["answer"]) if isinstance(doc["answer"], list) else doc["answer"]


def parse_reply(doc, reply):
    """(the parsed answer: a letter, a frozenset of letters, a tuple ordering, or None; fields to log).
    The option texts are passed where the prompt shows them (the single-image tasks); records
    prepared before answer spaces said what a technique / material question asks get it here."""
    spec = BY_QUESTION_TYPE[doc["question_type"]]
    options = doc["options"] if spec.n_images == 1 else None
    return read_answer(_space(doc), reply, options)


def _space(doc):
    spec = BY_QUESTION_TYPE[doc["question_type"]]
    space = AnswerSpace.of_doc(doc)
    return replace(space, asks=spec.answer_space.asks) if space.asks is None and spec.answer_space.asks is not None else space


# the release prompts that ask for the answer first and its reasons after ("Your answer must start with ...")
_LEADS = ("odd_one_out_period", "period_grouping")


@scores_image_failures
def process_results(doc, results):
    (pred, logged), gold, qtype = parse_reply(doc, results[0]), doc["answer"], doc["question_type"]
    out = {"parse_failure": float(pred is None), **logged}
    if qtype == "chronological_sequence":
        ranks = dict(zip("ABCDE", doc["period_ranks"]))
        out.update(
            accuracy=exact_match(pred, gold),
            kendall_tau=kendall_tau(pred, gold),
            exact_tie_aware=rank_consistent_match(pred, ranks),
            tied_questions={"flag": float(has_ties(ranks))},
        )
    elif qtype in ("material_availability", "manufacturing_technique"):
        out.update(accuracy=exact_set_match(pred, gold), f1=multilabel_f1(pred, gold))
    elif qtype == "period_grouping":
        out.update(accuracy=exact_set_match(pred, gold), jaccard=jaccard(pred, gold))
    else:
        out["accuracy"] = exact_match(pred, gold)
    space = _space(doc)
    out["strict_match"] = strict_match(space, results[0], out["accuracy"], leads=bool(space.numbered) and qtype in _LEADS)
    if qtype == "style_period_attribution":  # every period's key on every sample (None outside it): mean_present
        own = PERIOD_KEYS[PERIODS.index(doc["period"])]
        out.update({f"period_acc_{key}": out["accuracy"] if key == own else None for key in PERIOD_KEYS})
        item = period_offset(doc, pred)
        out.update(period_distance=item, period_bias=item, period_distance_chance=item, period_bias_chance=item)
    return out


def period_offset(doc, pred):
    """How far the chosen option's period is from the artifact's (periods, oldest = 0; see
    chronotasks/scoring/period_distance.py); a random answer picks one of the four options."""
    ranks = [period_rank(option) for option in doc["options"]]
    chosen = None if pred is None else ranks[ord(pred) - ord("A")]
    return offset_item(PERIODS.index(doc["period"]), chosen, ranks, doc["period"], None if chosen is None else PERIODS[chosen])


# aggregations of the period-distance items (means over the answered replies; chance over all records)
period_distance, period_bias = unless_failed(distance), unless_failed(bias)  # NaN for a failed task
period_distance_chance, period_bias_chance = chance_distance, chance_bias  # a property of the questions


def count(items):
    """Aggregation: how many questions have the flag (e.g. tied periods). Each item is {"flag": 0 or 1}, not a
    number, so lmms-eval gives the count no standard error (it computes one for every number)."""
    return float(sum(item["flag"] for item in items))
