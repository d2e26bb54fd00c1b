"""Near-duplicate view removal of `chronotasks prepare musebench` (§3.2.1 (3)) on generated images:
an exact copy and a re-encoded, resized copy are removed, a different view stays, an artifact
left with one view is dropped, an unreadable image is reported by file, record and field."""

import json
import random
import shutil

import pytest

from chronotasks.benchmarks.musebench.prepare import DEDUP_MAX_DISTANCE
from chronotasks.data.drawing import draw_scene
from chronotasks.data.image_hash import file_phash, hamming
from chronotasks.data.loading import read_jsonl


@pytest.fixture
def catalog(tmp_path):
    root = tmp_path / "catalog"
    img = root / "img"
    img.mkdir(parents=True)
    for name, seed, hue in (("a_front", 1, 0.1), ("a_side", 2, 0.1), ("b_front", 3, 0.6), ("c1", 4, 0.3), ("c2", 5, 0.3)):
        draw_scene(random.Random(seed), size=96, hue=hue).save(img / f"{name}.png")
    shutil.copy(img / "a_front.png", img / "a_copy.png")  # exact copy under another name
    draw_scene(random.Random(1), size=96, hue=0.1).resize((72, 72)).save(img / "a_small.jpg", quality=70)  # resized, re-encoded
    draw_scene(random.Random(3), size=96, hue=0.6).save(img / "b_jpeg.jpg", quality=60)  # re-encoded
    (img / "c_broken.jpg").write_bytes(b"not an image")
    palace = [
        {
            "id": "A",
            "title": "花鸟图",
            "category": "绘画",
            "period": "清",
            "author": "恽寿平",
            "description": "绢本设色。",
            "images": ["img/a_front.png", "img/a_copy.png", "img/a_small.jpg", "img/a_side.png"],
        },
        {
            "id": "B",
            "title": "山水图",
            "category": "绘画",
            "period": "明",
            "author": "文徵明",
            "description": "纸本水墨。",
            "images": ["img/b_front.png", "img/b_jpeg.jpg"],
        },
    ]
    zhejiang = {
        "编号": "C",
        "图片": ["img/c1.png", "img/c_broken.jpg", "img/c2.png"],
        "名称": "青瓷碗",
        "馆藏类型": "瓷器",
        "藏品年代": "宋",
        "尺寸(cm)": "口径12",
        "简介": "敞口，圈足。",
        "藏品级别": "二级",
    }
    (root / "palace.json").write_text(json.dumps(palace, ensure_ascii=False), encoding="utf-8")
    (root / "zhejiang.json").write_text(json.dumps(zhejiang, ensure_ascii=False), encoding="utf-8")
    return root


def test_generated_views_are_clear_of_the_threshold(catalog):
    code = {p.stem: file_phash(p) for p in (catalog / "img").iterdir() if p.stem != "c_broken"}
    assert hamming(code["a_front"], code["a_copy"]) == 0
    assert hamming(code["a_front"], code["a_small"]) <= DEDUP_MAX_DISTANCE // 2
    assert hamming(code["b_front"], code["b_jpeg"]) <= DEDUP_MAX_DISTANCE // 2
    assert hamming(code["a_front"], code["a_side"]) > 2 * DEDUP_MAX_DISTANCE
    assert hamming(code["c1"], code["c2"]) > 2 * DEDUP_MAX_DISTANCE


def test_prepare_removes_near_duplicate_views(catalog, prepare_musebench):
    report, printed, out = prepare_musebench(catalog)
    assert "near-duplicate views removed: 3" in printed and "c_broken.jpg" in printed
    assert report["dedup"] == {"method": "phash-dct-64", "max_distance": DEDUP_MAX_DISTANCE}
    assert report["near_duplicate_views_removed"] == 3 and report["unreadable_views"] == 1
    removed = {(d["id"], d["view"].rsplit("/", 1)[1], d["duplicate_of"].rsplit("/", 1)[1]) for d in report["near_duplicates"]}
    assert removed == {("A", "a_copy.png", "a_front.png"), ("A", "a_small.jpg", "a_front.png"), ("B", "b_jpeg.jpg", "b_front.png")}
    # §3.2.1: after redundancy removal each artifact keeps >= 2 views; B has one left and is dropped
    assert report["dropped_by_reason"] == {"fewer_than_2_views_after_dedup": 1}
    assert report["dropped_records"][0]["id"] == "B" and report["dropped_records"][0]["file"].endswith("palace.json")
    broken = report["unreadable_images"][0]
    assert (broken["file"].endswith("zhejiang.json"), broken["record"], broken["id"], broken["field"]) == (True, 1, "C", "图片")
    assert broken["image"].endswith("c_broken.jpg") and "not a readable image" in broken["error"]
    views = {a["id"]: [p.rsplit("/", 1)[1] for p in a["images"]] for a in read_jsonl(out / "artifacts.jsonl")}
    assert views == {"A": ["a_front.png", "a_side.png"], "C": ["c1.png", "c2.png"]}
    assert len(read_jsonl(out / "retrieval_i2t_structural.jsonl")) == 4


def test_dedup_threshold_flag_and_switch_off(catalog, prepare_musebench):
    report, _, _ = prepare_musebench(catalog, "--dedup-max-distance", "0", name="strict")
    assert report["dedup"]["max_distance"] == 0 and {d["distance"] for d in report["near_duplicates"]} == {0}
    assert any(d["view"].endswith("a_copy.png") for d in report["near_duplicates"])

    report, _, out = prepare_musebench(catalog, "--no-dedup", name="off")
    assert report["dedup"] is None and report["near_duplicate_views_removed"] == 0 and report["dropped"] == 0
    assert {a["id"]: len(a["images"]) for a in read_jsonl(out / "artifacts.jsonl")} == {"A": 4, "B": 2, "C": 3}
