"""Harness fast paths give the same results as the plain code they replace (the reference is
computed here the plain way: Path.resolve per image, Image.convert, Algorithm 1's two cvtColor
calls, one Dataset row per request). Kendall τ's fast path is checked in test_metrics.py."""

from __future__ import annotations

import os
from pathlib import Path

import cv2
import datasets
import numpy as np
from lmms_eval.api.instance import Instance
from PIL import Image

from chronotasks.benchmarks.chronovision.grayscale import gray_cache_path, gray_image, to_gray_bgr
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import load_task_docs, open_image, write_jsonl


def test_task_image_paths_equal_path_resolve(tmp_path, monkeypatch):
    bench = tmp_path / "data" / "bench"
    (bench / "images" / "sub").mkdir(parents=True)
    (tmp_path / "elsewhere").mkdir()
    os.symlink(tmp_path / "elsewhere", bench / "linked")  # a symlinked image folder
    rels = [
        "images/a.png",
        "images/sub/b.png",
        "./images//c.png",
        "images/sub/../d.png",
        "../bench/images/e.png",
        "linked/f.png",
        str(tmp_path / "absolute.png"),
        "top.png",
        "images/sub/..",
    ]
    write_jsonl(bench / "t.jsonl", [{"id": f"r{i}", "images": rels[i:] + rels[:i]} for i in range(len(rels))])
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path / "data"))
    docs = load_task_docs("bench", "t.jsonl")
    for i, doc in enumerate(docs):
        assert doc["images"] == [str((bench / rel).resolve()) for rel in rels[i:] + rels[:i]]
    assert docs[0]["images"][5] == str(tmp_path / "elsewhere" / "f.png")


def test_open_image_gives_the_converted_pixels_without_a_copy_for_rgb(tmp_path):
    rng = np.random.default_rng(0)
    rgb = rng.integers(0, 256, (20, 30, 3), dtype=np.uint8)
    files = {
        "rgb.png": Image.fromarray(rgb),
        "rgb.jpg": Image.fromarray(rgb),
        "gray.png": Image.fromarray(rgb[..., 0]),
        "rgba.png": Image.fromarray(np.dstack([rgb, rgb[..., :1]])),
        "palette.png": Image.fromarray(rgb).quantize(16),
    }
    for name, image in files.items():
        path = tmp_path / name
        image.save(path)
        with Image.open(path) as reference_file:
            reference = np.asarray(reference_file.convert("RGB"))
        opened = open_image(str(path))
        os.remove(path)  # the pixels were read before the file was closed
        assert opened.mode == "RGB" and np.array_equal(np.asarray(opened), reference), name


def test_grayscale_cache_is_one_channel_and_reads_back_algorithm_1(tmp_path):
    rng = np.random.default_rng(1)
    bgr = rng.integers(0, 256, (33, 47, 3), dtype=np.uint8)
    path = tmp_path / "photo.png"
    cv2.imwrite(str(path), bgr)
    expected_rgb = to_gray_bgr(bgr)[..., ::-1]  # Algorithm 1 (BGR -> GRAY -> BGR), as RGB
    made = gray_image(path, tmp_path / "cache")
    cached_file = gray_cache_path(path, tmp_path / "cache")
    assert cv2.imread(str(cached_file), cv2.IMREAD_UNCHANGED).shape == (33, 47)  # Y only
    read_back = gray_image(path, tmp_path / "cache")
    assert np.array_equal(np.asarray(made), expected_rgb) and np.array_equal(np.asarray(read_back), expected_rgb)
    cached_file.write_bytes(b"torn")  # an unreadable cache entry is made again, not returned
    assert np.array_equal(np.asarray(gray_image(path, tmp_path / "cache")), expected_rgb)
    assert cv2.imread(str(cached_file), cv2.IMREAD_UNCHANGED).shape == (33, 47)


def test_baseline_chunked_doc_lookup_equals_row_lookup():
    from chronotasks.model_shims.baselines import RandomBaseline

    space = AnswerSpace("letter", n=4).to_json()
    rows = {name: [{"id": f"{name}{i}", "answer_space": space, "n": i} for i in range(10)] for name in ("t1", "t2")}
    model = RandomBaseline(seed=3)
    model.task_dict = {"t1": {"test": datasets.Dataset.from_list(rows["t1"])}, "t2": {"test": rows["t2"]}}  # a Dataset and a plain list
    order = [("t1", 7), ("t2", 2), ("t1", 0), ("t1", 7), ("t2", 9), ("t1", 3), ("t2", 0), ("t1", 9)]
    requests = [
        Instance("generate_until", ("q", {}, None, doc_id, task, "test"), idx=0, metadata={"task": task, "doc_id": doc_id, "repeats": 1})
        for task, doc_id in order
    ]
    expected = [model.task_dict[task]["test"][doc_id] for task, doc_id in order]
    fields = model.doc_fields  # the baseline reads the answer space (and the id) only
    for chunk in (1, 3, 4096):
        docs = list(model._docs(requests, chunk=chunk))
        assert [{k: d[k] for k in fields} for d in docs] == [{k: e[k] for k in fields} for e in expected]
        assert all(set(d) == set(fields) for d, (task, _) in zip(docs, order) if task == "t1")  # from a Dataset: those columns
    # ("t1", 7) comes twice: the same document, the same draw
    replies = model.generate_until(requests)
    assert replies == [AnswerSpace.of_doc(d).random_reply(model._rng(r)) for r, d in zip(requests, expected)]
    assert replies[0] == replies[3]


def test_load_task_docs_keeps_paths_of_missing_files(tmp_path, monkeypatch):
    """Paths are resolved as strings; a missing image is found when it is opened, as before."""
    bench = tmp_path / "bench"
    write_jsonl(bench / "t.jsonl", [{"id": "r0", "images": ["images/none.png"]}])
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    assert load_task_docs("bench", "t.jsonl")[0]["images"] == [str(Path(bench, "images", "none.png").resolve())]
