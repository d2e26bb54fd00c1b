"""Glue between a TempViz task's generation reply and the judges (``judges.py`` beside this file);
the task hooks (chronotasks/tasks/tempviz/utils.py) call ``judge_reply``.

The judge configuration of a task comes, lowest priority first, from
``lmms_eval_specific_kwargs`` of the task YAML (keys ``judge``, ``judge_*``; seen
by ``doc_to_text`` and remembered per category), then from the ``judge*`` keys
of the model's ``--model_args`` (the chrono_diffusers backend copies them into
each reply's ``"judge"`` field), so a run can pick its judge on the command line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from chronotasks.benchmarks.tempviz.judges import JudgeConfig, judge_image

_TASK_KWARGS: dict[str, dict[str, Any]] = {}


def remember_task_kwargs(category: str, kwargs: dict[str, Any] | None) -> None:
    if kwargs:
        _TASK_KWARGS[category] = {k: v for k, v in kwargs.items() if k == "judge" or k.startswith("judge_")}


def judge_config(category: str, reply_config: dict[str, Any] | None):
    merged = {**_TASK_KWARGS.get(category, {}), **(reply_config or {})}
    return JudgeConfig.from_mapping(merged)


def judge_reply(doc: dict[str, Any], reply: str) -> dict[str, Any]:
    """Metrics of one doc: acceptance (0/1), score (continuous or None), failure flags."""
    try:
        payload = json.loads(reply)
        images = payload.get("images") or []
    except (json.JSONDecodeError, TypeError, AttributeError):
        payload, images = {}, []
    if not images or not Path(images[0]).is_file():
        return {"acceptance": 0.0, "score": None, "judge_parse_failure": 0.0, "generation_failure": 1.0}
    result = judge_image(images[0], doc, judge_config(doc["category"], payload.get("judge")))
    return {
        "acceptance": float(result["accept"] is True),
        "score": result["score"],
        "judge_parse_failure": float(bool(result["parse_failure"])),
        "generation_failure": 0.0,
    }
