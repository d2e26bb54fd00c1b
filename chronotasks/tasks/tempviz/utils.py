"""Hooks of the TempViz tasks: a doc is one T2I prompt; the model returns a
generated image (lmms-eval's {"text", "images"} JSON). process_results keeps the
reply's image and judge settings; the aggregations judge all of a task's images
in one batched, cached pass (chronotasks/benchmarks/tempviz/judging.py) and score them."""

from chronotasks.benchmarks.tempviz import task_file
from chronotasks.benchmarks.tempviz.judging import remember_task_kwargs, reply_item, verdict_summary
from chronotasks.data.loading import make_process_docs
from chronotasks.data.origin import origin_of
from chronotasks.failures import failed_metrics
from chronotasks.scoring import mean
from chronotasks.tasks.messages import make_doc_to_messages

_REQUIRED = ("id", "category", "prompt", "temporal_cue")
METRICS = ("acceptance", "score", "judge_parse_failure", "judge_failure", "generation_failure")
landscapes_docs = make_process_docs("tempviz", task_file("Landscapes"), required=_REQUIRED)
animals_docs = make_process_docs("tempviz", task_file("Animals"), required=_REQUIRED)
buildings_docs = make_process_docs("tempviz", task_file("Buildings"), required=_REQUIRED)
maps_docs = make_process_docs("tempviz", task_file("Maps"), required=_REQUIRED)
artworks_docs = make_process_docs("tempviz", task_file("Artworks"), required=_REQUIRED)


def doc_to_visual(doc):
    return []  # text-to-image: the model gets no image


def doc_to_text(doc, lmms_eval_specific_kwargs=None):
    remember_task_kwargs(doc["category"], lmms_eval_specific_kwargs)
    return doc["prompt"]


doc_to_messages = make_doc_to_messages(doc_to_visual, doc_to_text)


def process_results(doc, results):
    item = reply_item(doc, results[0] if results else None)
    return {**{name: item for name in METRICS}, **origin_of(doc)}


def _unless_failed(metric):
    """A task's figure from its verdicts, NaN when more than the threshold share of its samples got
    no judgement (judge_failure, judge_parse_failure, generation_failure; chronotasks/failures.py)."""

    def aggregate(items):
        summary = verdict_summary(items)
        failures = {name: mean(summary[name]) for name in ("judge_failure", "judge_parse_failure", "generation_failure")}
        return float("nan") if failed_metrics(failures) else mean(summary[metric])

    aggregate.__name__ = metric
    return aggregate


acceptance = _unless_failed("acceptance")
score = _unless_failed("score")


def judge_parse_failure(items):
    return mean(verdict_summary(items)["judge_parse_failure"])


def judge_failure(items):
    return mean(verdict_summary(items)["judge_failure"])


def generation_failure(items):
    return mean(verdict_summary(items)["generation_failure"])
