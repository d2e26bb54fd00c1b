"""Synthetic TAB-VLM demo data: questions written in the release's own JSON
format (so the demo runs the real converter of prepare.py) over procedurally
drawn artifacts whose hue follows their period. Not the benchmark; its
numbers say nothing about a model.

Per question type ``n`` questions (default 40). As in the release, about a
quarter of the chronological-sequence questions have two artifacts of the
same period (the release: 27 of 100).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from chronotasks.benchmarks.tabvlm.prepare import ImageResolver, convert_release
from chronotasks.benchmarks.tabvlm.schema import PERIODS, TASK_TYPES
from chronotasks.data.drawing import save_scene
from chronotasks.data.loading import write_jsonl

OBJECTS = [
    ("Terracotta", "Terracotta"),
    ("Sculpture", "Stone"),
    ("Coin", "Silver"),
    ("Coin", "Copper"),
    ("Manuscript", "Paper"),
    ("Pottery", "Burnt clay"),
    ("Decorative Art", "Bronze"),
    ("Textile", "Cotton"),
]
MATERIALS = [
    "stone",
    "clay",
    "copper",
    "bronze",
    "iron",
    "silk",
    "paper",
    "porcelain",
    "glass",
    "plastic",
    "acrylic",
    "synthetic fiber",
    "synthetic pigments",
    "aluminium",
]
TECHNIQUES = [
    "hand-molding",
    "coil technique",
    "lost-wax casting",
    "stone carving",
    "repoussé",
    "glazing",
    "lithography",
    "mechanical printing",
    "electroplating",
    "injection molding",
]
URL = "https://demo.invalid/tabvlm/{}.png"


class _Pool:
    def __init__(self, out_dir: Path, rng: random.Random) -> None:
        self.out_dir, self.rng, self.count = out_dir, rng, 0

    def artifact(self, rank: int) -> dict[str, Any]:
        self.count += 1
        name = f"demo_artifact_{self.count:04d}"
        save_scene(self.out_dir / "images" / f"{name}.png", self.rng, hue=rank / len(PERIODS), size=48, shapes=4)
        object_type, material = self.rng.choice(OBJECTS)
        return {
            "image_url": URL.format(name),
            "alt_image_url": None,
            "metadata": {
                "title": f"Demo object {self.count}",
                "object_type": object_type,
                "main_material": material,
                "period": "demo",
                "simplified_period": PERIODS[rank],
            },
        }


def _questions(pool: _Pool, rng: random.Random, n: int) -> list[dict[str, Any]]:
    questions = []
    for i in range(n):
        # style-period attribution: one artifact, four period options
        ranks = rng.sample(range(len(PERIODS)), 4)
        correct = rng.randrange(4)
        questions.append(
            {
                "question_id": f"demo_style_{i}",
                "question_type": "style_period_attribution",
                "question_text": "Which historical period does this artifact belong to?",
                "artifact": pool.artifact(ranks[correct]),
                "options": [PERIODS[r] for r in ranks],
                "correct_index": correct,
            }
        )
        # chronological sequence: four artifacts, two sharing a period in ~27% of questions
        tied = rng.random() < 0.27
        ranks = sorted(rng.sample(range(len(PERIODS)), 3 if tied else 4))
        if tied:
            ranks.insert(rng.randrange(3), ranks[rng.randrange(3)])
            ranks.sort()
        shown = rng.sample(range(4), 4)  # shown[j] = chronological position of image j
        artifacts = [pool.artifact(ranks[shown[j]]) for j in range(4)]
        sequence = sorted(range(4), key=lambda j: shown[j])
        questions.append(
            {
                "question_id": f"demo_sequence_{i}",
                "question_type": "chronological_sequence",
                "question_text": "Arrange these artifacts in chronological order from oldest to newest:",
                "artifacts": artifacts,
                "options": [a["metadata"]["title"] for a in artifacts],
                "correct_sequence": sequence,
            }
        )
        # material availability / manufacturing technique: 1-2 correct of four
        for qtype, vocabulary, text in (
            ("material_availability", MATERIALS, "Which of these materials would NOT have been available when this artifact was created?"),
            (
                "manufacturing_technique",
                TECHNIQUES,
                "Which manufacturing techniques would have been available when this artifact was created?",
            ),
        ):
            options = rng.sample(vocabulary, 4)
            chosen = sorted(rng.sample(range(4), rng.choice((1, 2, 2))))
            questions.append(
                {
                    "question_id": f"demo_{qtype}_{i}",
                    "question_type": qtype,
                    "question_text": text,
                    "artifact": pool.artifact(rng.randrange(len(PERIODS))),
                    "options": options,
                    "correct_indices": chosen,
                }
            )
        # period grouping: three of one period, two of two other periods
        group, other1, other2 = rng.sample(range(len(PERIODS)), 3)
        members = sorted(rng.sample(range(5), 3))
        others = iter([other1, other2])
        artifacts = [pool.artifact(group if j in members else next(others)) for j in range(5)]
        questions.append(
            {
                "question_id": f"demo_grouping_{i}",
                "question_type": "period_grouping",
                "question_text": "Which three artifacts were likely created during the same time period?",
                "artifacts": artifacts,
                "options": [a["metadata"]["title"] for a in artifacts],
                "correct_indices": members,
            }
        )
        # odd one out: three of one period, one of an adjacent period
        majority = rng.randrange(len(PERIODS))
        odd_rank = majority + 1 if majority == 0 or (majority < len(PERIODS) - 1 and rng.random() < 0.5) else majority - 1
        odd = rng.randrange(4)
        artifacts = [pool.artifact(odd_rank if j == odd else majority) for j in range(4)]
        questions.append(
            {
                "question_id": f"demo_odd_{i}",
                "question_type": "odd_one_out_period",
                "question_text": "Which artifact belongs to a different time period than the others?",
                "artifacts": artifacts,
                "options": [a["metadata"]["title"] for a in artifacts],
                "correct_index": odd,
            }
        )
    return questions


def write_demo(out_dir: Path, seed: int = 0, n: int = 40) -> dict[str, int]:
    out_dir = Path(out_dir)
    rng = random.Random(seed)
    questions = _questions(_Pool(out_dir, rng), rng, n)
    (out_dir / "demo_release.json").write_text(json.dumps({"questions": questions}, indent=1), encoding="utf-8")
    records, dropped = convert_release(questions, ImageResolver(out_dir / "images", None, allow_download=False))
    if dropped:
        raise RuntimeError(f"demo data could not be converted: {dropped[:3]}")
    for task_type in TASK_TYPES:
        write_jsonl(out_dir / task_type.file, records[task_type.file])
    return {t.file: len(records[t.file]) for t in TASK_TYPES}
