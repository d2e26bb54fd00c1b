"""Demo data for the `chrono_demo` tasks: the smallest complete example of a
chronotasks benchmark (see CONTRIBUTING.md, "How a task is written").

- period.jsonl: one image, four period options, one correct letter.
- pair.jsonl: two images, which is earlier ("1"/"2"). The earlier image is
  drawn desaturated in about 80% of pairs, so the grayscale prior pays off.
"""

from __future__ import annotations

import random
from pathlib import Path

from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.drawing import save_scene
from chronotasks.data.loading import write_jsonl

PERIODS = ["Bronze Age", "Classical", "Medieval", "Early Modern", "Modern"]
PERIOD_SPACE = AnswerSpace("letter", n=4)  # the records' answer spaces (the report's chance levels read them)
PAIR_SPACE = AnswerSpace("choice", choices=("1", "2"), key="answer", asks="earlier")


def write_demo(out_dir: Path, seed: int = 0, n: int = 40) -> dict[str, int]:
    rng = random.Random(seed)
    period_records, pair_records = [], []
    for i in range(n):
        options = rng.sample(PERIODS, 4)
        answer_index = rng.randrange(4)
        image = f"images/period_{i:03d}.png"
        save_scene(out_dir / image, rng, hue=PERIODS.index(options[answer_index]) / len(PERIODS))
        period_records.append(
            {
                "id": f"demo-period-{i:03d}",
                "images": [image],
                "question": "Which period does this object come from?",
                "options": options,
                "answer": "ABCD"[answer_index],
                "period": options[answer_index],
                "answer_space": PERIOD_SPACE.to_json(),
            }
        )
    for i in range(n):
        earlier_first = rng.random() < 0.5
        earlier_gray = rng.random() < 0.8
        paths = [f"images/pair_{i:03d}_{j}.png" for j in (1, 2)]
        earlier, later = (0, 1) if earlier_first else (1, 0)
        save_scene(out_dir / paths[earlier], rng, saturation=0.0 if earlier_gray else 0.7)
        save_scene(out_dir / paths[later], rng, saturation=0.7 if earlier_gray else 0.0)
        pair_records.append(
            {
                "id": f"demo-pair-{i:03d}",
                "images": paths,
                "answer": "1" if earlier_first else "2",
                "earlier_is_gray": earlier_gray,
                "answer_space": PAIR_SPACE.to_json(),
            }
        )
    write_jsonl(out_dir / "period.jsonl", period_records)
    write_jsonl(out_dir / "pair.jsonl", pair_records)
    return {"period.jsonl": len(period_records), "pair.jsonl": len(pair_records)}
