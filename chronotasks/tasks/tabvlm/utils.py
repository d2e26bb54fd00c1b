"""Hooks of the TAB-VLM tasks (tabvlm_chrono group): each a few lines over
chronotasks.scoring. The question type of a record picks its prompt, parser
and metrics; ``lmms_eval_specific_kwargs`` ``metadata: true`` selects the
visual+metadata variant (Appendix C.5)."""

from chronotasks.benchmarks.tabvlm.schema import BY_QUESTION_TYPE, BY_TASK, PERIOD_KEYS, PERIODS
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import doc_images, make_process_docs, open_doc_image, scores_image_failures
from chronotasks.extraction import read_answer
from chronotasks.failures import mean_unless_failed  # noqa: F401  (the YAMLs' aggregation of scores: NaN for a failed task)
from chronotasks.scoring import exact_match, exact_set_match, jaccard, kendall_tau, multilabel_f1
from chronotasks.scoring.ordering import has_ties, rank_consistent_match
from chronotasks.prompts import render

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
    return render(BY_QUESTION_TYPE[doc["question_type"]].template, question_text=doc["question"], options=doc["options"],
                  image=image, metadata=metadata if kwargs.get("metadata") else None)


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
    The option texts are passed where the prompt shows them (the single-image tasks)."""
    options = doc["options"] if BY_QUESTION_TYPE[doc["question_type"]].n_images == 1 else None
    return read_answer(AnswerSpace.of_doc(doc), reply, options)


@scores_image_failures
def process_results(doc, results):
    (pred, logged), gold, qtype = parse_reply(doc, results[0]), doc["answer"], doc["question_type"]
    out = {"parse_failure": float(pred is None), **logged}
    if qtype == "chronological_sequence":
        ranks = dict(zip("ABCDE", doc["period_ranks"]))
        out.update(accuracy=exact_match(pred, gold), kendall_tau=kendall_tau(pred, gold),
                   exact_tie_aware=rank_consistent_match(pred, ranks), tied_questions=float(has_ties(ranks)))
    elif qtype in ("material_availability", "manufacturing_technique"):
        out.update(accuracy=exact_set_match(pred, gold), f1=multilabel_f1(pred, gold))
    elif qtype == "period_grouping":
        out.update(accuracy=exact_set_match(pred, gold), jaccard=jaccard(pred, gold))
    else:
        out["accuracy"] = exact_match(pred, gold)
    if qtype == "style_period_attribution":
        out["period_acc_" + PERIOD_KEYS[PERIODS.index(doc["period"])]] = out["accuracy"]
    return out


def count(values):
    """Aggregation: how many questions have the flag (e.g. tied periods)."""
    return float(sum(values))
