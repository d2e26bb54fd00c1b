"""Hooks of the MuseBench tasks: each a few lines over chronotasks.scoring.

VQA: process_results keeps (prediction, reference, museum, question type, ANLS, accuracy)
per sample; the aggregations compute BERTScore once, batched, over all samples (memoised,
so the overall, per-museum and Score metrics share one pass).
Retrieval: the backend replies with ranked candidate ids; process_results keeps the rank of
the sample's artifact; the aggregations give Recall@K overall and per museum.
"""

from __future__ import annotations

import json

from chronotasks import provenance
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import benchmark_dir, doc_images, load_task_docs, make_process_docs, scores_image_failures
from chronotasks.extraction import read_answer
from chronotasks.failures import unless_failed
from chronotasks.prompts import render
from chronotasks.scoring import anls, mean
from chronotasks.scoring.chinese_periods import dynasty_of
from chronotasks.scoring.retrieval import hit_rank, parse_ranking, recall_at
from chronotasks.scoring.text_similarity import bertscore_f1, contains_answer
from chronotasks.tasks.messages import make_doc_to_messages

BENCHMARK = "musebench"
VQA_FIELDS = ("id", "images", "question", "answer", "qtype", "museum_key")
RETRIEVAL_FIELDS = ("id", "artifact_id", "museum_key", "corpus", "corpus_modality", "query_text")
doc_to_visual = doc_images


def _retrieval_docs(task_file):
    def process_docs(_placeholder):
        root = benchmark_dir(BENCHMARK)
        docs = load_task_docs(BENCHMARK, task_file, RETRIEVAL_FIELDS)
        provenance.attach(BENCHMARK, root, task_file)

        def absolute(batch):  # one call for all rows; each corpus file (a handful) resolved once
            resolved = {c: str((root / c).resolve()) for c in set(batch["corpus"])}
            return {"corpus": [resolved[c] for c in batch["corpus"]], "corpus_root": [str(root)] * len(batch["corpus"])}

        return docs.map(absolute, batched=True, batch_size=None)

    process_docs.task_data = (BENCHMARK, task_file)  # the records' file, named by check-data's messages
    return process_docs


vqa_docs = make_process_docs(BENCHMARK, "vqa.jsonl", VQA_FIELDS)
vqa_descriptive_docs = make_process_docs(BENCHMARK, "vqa_descriptive.jsonl", VQA_FIELDS)
retrieval_docs = {
    f"{d}_{s}": _retrieval_docs(f"retrieval_{d}_{s}.jsonl") for d in ("i2t", "t2i") for s in ("structural", "structural_nl", "descriptive")
}
i2t_structural_docs = retrieval_docs["i2t_structural"]
i2t_structural_nl_docs = retrieval_docs["i2t_structural_nl"]
i2t_descriptive_docs = retrieval_docs["i2t_descriptive"]
t2i_structural_docs = retrieval_docs["t2i_structural"]
t2i_structural_nl_docs = retrieval_docs["t2i_structural_nl"]
t2i_descriptive_docs = retrieval_docs["t2i_descriptive"]


# -- Cultural VQA ------------------------------------------------------------------------
def vqa_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return render("musebench/vqa_question.j2", question=doc["question"], n_views=len(doc["images"]))


PERIOD_SPACE = AnswerSpace("dynasty")


def vqa_accuracy(qtype, pred, gold, period=None):
    """Single-answer structured questions: the period read from the reply (``period``) at dynasty
    level, the author by containment in the answer text ``pred``."""
    if qtype == "period":
        return float(period is not None and period == dynasty_of(gold))
    if qtype == "author":
        return contains_answer(pred, gold)
    return None


@scores_image_failures
def vqa_process_results(doc, results):
    pred = AnswerSpace.of_doc(doc).parse(results[0]) or ""  # the answer text: reasoning blocks and markdown removed
    period, logged = read_answer(PERIOD_SPACE, results[0]) if doc["qtype"] == "period" else (None, {})
    item = {
        "pred": pred,
        "ref": doc["answer"],
        "museum": doc["museum_key"],
        "qtype": doc["qtype"],
        "anls": anls(pred, doc["answer"]),
        "acc": vqa_accuracy(doc["qtype"], pred, doc["answer"], period),
    }
    metrics = (
        "bertscore",
        "anls",
        "score",
        "accuracy",
        "period_accuracy",
        "author_accuracy",
        *(f"{m}_{k}" for k in ("zhejiang", "palace", "npm") for m in ("bertscore", "anls", "score")),
    )
    # the BERTScore model the aggregations score with, in every sample: the report's intervals use it, never another
    return {
        **{name: item for name in metrics},
        "empty_answer": float(not pred),
        **logged,
        provenance.BERTSCORE_SAMPLE_KEY: provenance.bertscore_provenance(),
    }


def vqa_descriptive_process_results(doc, results):
    """As vqa_process_results, without the structured-question accuracies (Table 3 setting)."""
    out = vqa_process_results(doc, results)
    return {k: v for k, v in out.items() if k not in ("accuracy", "period_accuracy", "author_accuracy")}


def _bert(items):
    return bertscore_f1([i["pred"] for i in items], [i["ref"] for i in items])


def _select(items, museum=None):
    return [i for i in items if museum is None or i["museum"] == museum]


def _vqa_bert(items, museum=None):
    all_scores = _bert(items)  # one batched pass over every sample, memoised
    return mean([s for i, s in zip(items, all_scores) if museum is None or i["museum"] == museum])


def _vqa_anls(items, museum=None):
    return mean([i["anls"] for i in _select(items, museum)])


def _vqa_score(items, museum=None):
    return (_vqa_bert(items, museum) + _vqa_anls(items, museum)) / 2


def vqa_bertscore(items):
    return _vqa_bert(items)


def vqa_anls(items):
    return _vqa_anls(items)


def vqa_score(items):
    return _vqa_score(items)


def vqa_accuracy_agg(items):
    return mean([i["acc"] for i in items])


def vqa_period_accuracy(items):
    return mean([i["acc"] for i in items if i["qtype"] == "period"])


def vqa_author_accuracy(items):
    return mean([i["acc"] for i in items if i["qtype"] == "author"])


def bertscore_zhejiang(items):
    return _vqa_bert(items, "zhejiang")


def bertscore_palace(items):
    return _vqa_bert(items, "palace")


def bertscore_npm(items):
    return _vqa_bert(items, "npm")


def anls_zhejiang(items):
    return _vqa_anls(items, "zhejiang")


def anls_palace(items):
    return _vqa_anls(items, "palace")


def anls_npm(items):
    return _vqa_anls(items, "npm")


def score_zhejiang(items):
    return _vqa_score(items, "zhejiang")


def score_palace(items):
    return _vqa_score(items, "palace")


def score_npm(items):
    return _vqa_score(items, "npm")


VQA_AGGREGATIONS = (
    "vqa_bertscore",
    "vqa_anls",
    "vqa_score",
    "vqa_accuracy_agg",
    "vqa_period_accuracy",
    "vqa_author_accuracy",
    *(f"{m}_{k}" for m in ("bertscore", "anls", "score") for k in ("zhejiang", "palace", "npm")),
)
for _name in VQA_AGGREGATIONS:  # NaN for a failed task (chronotasks/failures.py)
    globals()[_name] = unless_failed(globals()[_name])


# -- Cultural Retrieval ---------------------------------------------------------------------
def retrieval_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return doc["query_text"]  # the text query (T2I); empty for image queries (I2T)


vqa_doc_to_messages = make_doc_to_messages(doc_to_visual, vqa_doc_to_text)
retrieval_doc_to_messages = make_doc_to_messages(doc_to_visual, retrieval_doc_to_text)


@scores_image_failures
def _retrieval_scores(doc, results):
    ranked = parse_ranking(results[0])
    item = {"rank": hit_rank(ranked, doc["artifact_id"]), "museum": doc["museum_key"]}
    metrics = [f"recall@{k}{suffix}" for k in (1, 5, 10) for suffix in ("", "_zhejiang", "_palace", "_npm")]
    return {**{name: item for name in metrics}, "parse_failure": float(ranked is None)}


def retrieval_process_results(doc, results):
    """Recall of one query. A text query whose artifact has a view in the image corpus that the
    backend could not open (its reply lists them in ``unreadable_views``) is an image failure, as an
    image query whose own file cannot be opened is: those views are taken as the query's images."""
    reply = results[0]
    views = None
    if isinstance(reply, str) and '"unreadable_views"' in reply:
        try:
            views = json.loads(reply).get("unreadable_views")
        except (ValueError, AttributeError):
            views = None
    return _retrieval_scores({**doc, "images": list(views)} if isinstance(views, list) and views else doc, results)


def _recall(items, k, museum=None):
    return recall_at([i["rank"] for i in _select(items, museum)], k)


def recall_at_1(items):
    return _recall(items, 1)


def recall_at_5(items):
    return _recall(items, 5)


def recall_at_10(items):
    return _recall(items, 10)


def recall_at_1_zhejiang(items):
    return _recall(items, 1, "zhejiang")


def recall_at_5_zhejiang(items):
    return _recall(items, 5, "zhejiang")


def recall_at_10_zhejiang(items):
    return _recall(items, 10, "zhejiang")


def recall_at_1_palace(items):
    return _recall(items, 1, "palace")


def recall_at_5_palace(items):
    return _recall(items, 5, "palace")


def recall_at_10_palace(items):
    return _recall(items, 10, "palace")


def recall_at_1_npm(items):
    return _recall(items, 1, "npm")


def recall_at_5_npm(items):
    return _recall(items, 5, "npm")


def recall_at_10_npm(items):
    return _recall(items, 10, "npm")


RECALL_AGGREGATIONS = tuple(f"recall_at_{k}{suffix}" for k in (1, 5, 10) for suffix in ("", "_zhejiang", "_palace", "_npm"))
for _name in RECALL_AGGREGATIONS:  # NaN for a failed task (chronotasks/failures.py)
    globals()[_name] = unless_failed(globals()[_name])
