"""Hooks of the TempViz tasks: a doc is one T2I prompt; the model returns a
generated image (lmms-eval's {"text", "images"} JSON); process_results hands it
to the configured judge (chronotasks/benchmarks/tempviz/judges.py) and scores it."""

from chronotasks.benchmarks.tempviz import task_file
from chronotasks.benchmarks.tempviz.judging import judge_reply, remember_task_kwargs
from chronotasks.data.loading import make_process_docs
from chronotasks.scoring import mean

_REQUIRED = ("id", "category", "prompt", "temporal_cue")
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


def process_results(doc, results):
    return judge_reply(doc, results[0] if results else "")


def mean_skip_none(values):
    return mean(values)
