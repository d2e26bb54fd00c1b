"""Every registered task, loaded through lmms-eval's own TaskManager on the demo data, in both
task types lmms-eval builds: "simple" (ConfigurableTask, used by our baselines) and "chat"
(ConfigurableMessagesTask, used by chat models such as qwen2_5_vl, which builds messages through
Task.doc_to_visual(doc) -> doc_to_visual(doc, lmms_eval_specific_kwargs))."""

from __future__ import annotations

import random

import pytest
from PIL import Image

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.origin import DATA_ORIGIN, DEMO_ORIGIN
from chronotasks.provenance import BERTSCORE_SAMPLE_KEY

GROUPS = [
    "chrono_demo",
    "tabvlm_chrono",
    "tabvlm_chrono_metadata",
    "chronovision",
    "chronovision_news_year_confidence",
    "musebench_vqa",
    "musebench_vqa_descriptive",
    "musebench_retrieval",
    "tempviz",
    # variants: CircularEval (circular/ sub-folders) and grayscale images (gray/ sub-folders)
    "chrono_demo_circular",
    "tabvlm_chrono_circular",
    "chronovision_circular",
    "chrono_demo_gray",
    "tabvlm_chrono_gray",
    "chronovision_gray",
    "musebench_gray",
    # TAB-VLM under its release protocol (release/ sub-folder)
    "tabvlm_chrono_release",
]


@pytest.fixture(scope="module", params=["simple", "chat"])
def tasks(request, demo_root):
    from lmms_eval.tasks import TaskManager, get_task_dict

    from chronotasks.tasks import TASKS_DIR, leaf_tasks

    patch = pytest.MonkeyPatch()
    patch.setenv("CHRONOTASKS_DATA", str(demo_root))
    try:
        manager = TaskManager(include_path=str(TASKS_DIR), verbosity="ERROR")
        yield request.param, leaf_tasks(get_task_dict(GROUPS, manager, request.param))
    finally:
        patch.undo()


def test_every_task_builds_its_inputs_for_every_doc(tasks):
    task_type, by_name = tasks
    names = {str(name) for name in by_name}
    assert {
        "chrono_demo_pair",
        "tabvlm_sequence_metadata",
        "chronovision_shortcut_cot",
        "musebench_vqa",
        "musebench_retrieval_structural_nl_t2i",
        "tempviz_maps",
    } <= names
    for name, task in by_name.items():
        for doc in task.test_docs():
            visuals = task.doc_to_visual(doc)
            assert all(isinstance(v, Image.Image) for v in visuals), name
            if task_type == "chat":
                # every task says what a chat model sees (lmms-eval's guide), with the task's own images:
                # the same pixels as doc_to_visual (a grayscale variant's messages are grayscale too)
                assert callable(task.config.doc_to_messages), f"{name} has no doc_to_messages"
                messages = task.doc_to_messages(doc)
                parts = [part for message in messages for part in message["content"]]
                images = [p["url"] for p in parts if p["type"] == "image"]
                assert [i.tobytes() for i in images] == [v.tobytes() for v in visuals], (name, doc["id"])
                texts = [p["text"] for p in parts if p["type"] == "text"]
            else:
                texts = [task.doc_to_text(doc)]
            # a query is never empty: text, or (image-to-text retrieval) the image alone
            assert visuals or any(t.strip() for t in texts), (name, doc["id"])


def test_process_results_logs_every_listed_metric_for_every_doc(tasks):
    """Random-baseline replies (empty for free text and retrieval) yield, for every document, every
    metric of the task's metric_list and nothing else that lmms-eval aggregates (a per-group metric such
    as TAB-VLM's period_acc_<period> is None outside its group). lmms-eval takes a task's size in a
    group's ``weight_by_size`` from the length of one metric's list: with every metric logged for
    every sample that size is the task's sample count whichever metric it reads
    (tests/foundation/test_group_aggregates.py checks the group figures of a real run). Each sample
    also logs the demo records' ``data_origin`` (TempViz too; its metrics are items judged on
    generated images, checked in tests/tempviz)."""
    _, by_name = tasks
    rng = random.Random(0)
    for name, task in by_name.items():
        listed = {m["metric"] for m in task.config.metric_list}
        for doc in task.test_docs():
            reply = AnswerSpace.of_doc(doc).random_reply(rng)
            out = task.process_results(doc, [reply])
            # the demo records' origin is logged beside the metrics (a report tells demo data by it)
            assert out.get(DATA_ORIGIN) == DEMO_ORIGIN, (name, doc["id"])
            if str(name).startswith("tempviz"):  # judged on generated images: its items are checked in tests/tempviz
                continue
            keys = set(out) - {DATA_ORIGIN, BERTSCORE_SAMPLE_KEY}  # logged, not aggregated: MuseBench VQA's BERTScore model
            assert keys <= listed, (name, keys - listed)
            assert keys == listed, (name, doc["id"], listed - keys)
