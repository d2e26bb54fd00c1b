"""Synthetic MuseBench demo data: artifacts of the three museums with 2–4 drawn views,
Chinese structural metadata and descriptions, template and descriptive QA pairs, and
every task file (records.py). Not the benchmark: its numbers mean nothing about a model.
Descriptive QAs are made here from the phrases the description is built of (the real
ones come from ``chronotasks build musebench-qa`` through an LLM).
"""

from __future__ import annotations

import random
from pathlib import Path

from chronotasks.benchmarks.musebench import records
from chronotasks.benchmarks.musebench.schema import MUSEUMS
from chronotasks.data.drawing import save_scene
from chronotasks.scoring.chinese_periods import dynasty_of

PERIODS = ["新石器时代", "商", "西周", "汉", "唐", "北宋", "元", "明·宣德", "清", "清·乾隆", "民国"]
CATEGORIES = ["瓷器", "铜器", "玉器", "书法", "绘画", "漆器"]
AUTHORS = ["郎世宁", "董其昌", "文徵明", "赵孟頫", "王翚"]
GRADES = ["一级", "二级", "三级"]
# (question, answer phrase) pools; a description strings several phrases together.
ASPECTS = [
    ("这件文物的釉色是什么样的？", ["青釉", "白釉", "黄釉", "青花", "粉彩"]),
    ("这件文物的腹部形状如何？", ["圆腹", "鼓腹", "扁腹", "垂腹"]),
    ("这件文物的足部结构是什么？", ["圈足", "三足", "平底", "高足"]),
    ("这件文物的主要纹饰是什么？", ["缠枝莲纹", "云龙纹", "饕餮纹", "卷草纹", "山水人物"]),
    ("这件文物的口部特征是什么？", ["盘口短颈", "撇口", "直口", "侈口"]),
]
NAMES = ["壶", "瓶", "盘", "尊", "璧", "轴", "卷", "盒"]


def _artifact(rng: random.Random, museum_key: str, index: int, out_dir: Path) -> tuple[dict, list[dict]]:
    period = rng.choice(PERIODS)
    category = rng.choice(CATEGORIES)
    picked = rng.sample(ASPECTS, 3)
    phrases = [(q, rng.choice(pool)) for q, pool in picked]
    title = f"{phrases[0][1]}{phrases[1][1]}{rng.choice(NAMES)}"
    structural = {"title": title, "category": category, "period": period}
    if museum_key == "zhejiang":
        structural.update(size=f"高{rng.randint(8, 60)}厘米", grade=rng.choice(GRADES))
    elif museum_key == "palace":
        if category in ("书法", "绘画") or rng.random() < 0.5:
            structural["author"] = rng.choice(AUTHORS)
    else:
        structural["size"] = f"高{rng.randint(8, 60)}公分"
    description = "，".join(p for _, p in phrases) + f"，为{period}{category}之佳作。"
    artifact_id = f"{museum_key}-{index:03d}"
    n_views = rng.randint(2, 4)
    hue = rng.random()
    images = []
    for view in range(n_views):
        rel = f"images/{artifact_id}/view{view}.png"
        save_scene(out_dir / rel, rng, hue=hue + 0.02 * view, size=48)
        images.append(rel)
    artifact = {
        "id": artifact_id,
        "museum": MUSEUMS[museum_key],
        "museum_key": museum_key,
        "unified_number": None,
        "structural_desc": structural,
        "dynasty": dynasty_of(period),
        "descriptive_desc": {"description": description},
        "images": images,
    }
    qas = records.template_qas(artifact)
    qas += [{"artifact_id": artifact_id, "qtype": "descriptive", "source": "demo", "question": q, "answer": a} for q, a in phrases[:2]]
    return artifact, qas


def write_demo(out_dir: Path, seed: int = 0, per_museum: int = 8) -> dict[str, int]:
    rng = random.Random(seed)
    out_dir = Path(out_dir)
    artifacts, qas = [], []
    for museum_key in MUSEUMS:
        for i in range(per_museum):
            artifact, artifact_qas = _artifact(rng, museum_key, i, out_dir)
            artifacts.append(artifact)
            qas.extend(artifact_qas)
    return records.write_all(out_dir, artifacts, qas)
