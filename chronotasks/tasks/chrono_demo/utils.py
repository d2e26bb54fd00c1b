"""Hooks of the chrono_demo tasks: each a few lines over chronotasks.scoring."""

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import doc_images, make_process_docs, scores_image_failures
from chronotasks.extraction import read_answer
from chronotasks.failures import mean_unless_failed  # noqa: F401  (the YAMLs' aggregation of scores: NaN for a failed task)
from chronotasks.prompts import render
from chronotasks.scoring import exact_match
from chronotasks.scoring.strict import strict_match
from chronotasks.tasks.messages import make_doc_to_messages

period_docs = make_process_docs("chrono_demo", "period.jsonl", required=("id", "images", "options", "answer"))
pair_docs = make_process_docs("chrono_demo", "pair.jsonl", required=("id", "images", "answer"))
doc_to_visual = doc_images


def period_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return render("chrono_demo/single_choice.j2", question=doc["question"], options=doc["options"])


def pair_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return render("chrono_demo/pair_earlier.j2")


period_doc_to_messages = make_doc_to_messages(doc_to_visual, period_doc_to_text)
pair_doc_to_messages = make_doc_to_messages(doc_to_visual, pair_doc_to_text)


@scores_image_failures
def period_process_results(doc, results):
    space = AnswerSpace.of_doc(doc)
    pred, logged = read_answer(space, results[0], doc["options"])
    accuracy = exact_match(pred, doc["answer"])
    return {"accuracy": accuracy, "strict_match": strict_match(space, results[0], accuracy), "parse_failure": float(pred is None), **logged}


@scores_image_failures
def pair_process_results(doc, results):
    space = AnswerSpace.of_doc(doc)
    pred, logged = read_answer(space, results[0])
    accuracy = exact_match(pred, doc["answer"])
    return {"accuracy": accuracy, "strict_match": strict_match(space, results[0], accuracy), "parse_failure": float(pred is None), **logged}
