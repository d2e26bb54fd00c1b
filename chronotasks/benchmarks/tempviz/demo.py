"""Synthetic TempViz demo data: a few prompts per category, same format as prepared data.

The subjects and cues are invented; the records have every field that
``chronotasks prepare tempviz`` writes.
"""

from __future__ import annotations

import random
from pathlib import Path

from chronotasks.benchmarks.tempviz import CATEGORIES, task_file
from chronotasks.benchmarks.tempviz.records import row_to_record
from chronotasks.data.loading import write_jsonl

_ROWS = {
    "Landscapes": [
        ("a lake", "in january", "Seasonality"),
        ("a forest", "in july", "Seasonality"),
        ("mountains", "on 10/12/1901", "Seasonality"),
        ("a city", "in the evening", "Daytime"),
    ],
    "Animals": [
        ("Red Fox", "that is one month old", "youth"),
        ("Alpaca", "that is 10 years old", "realistic age"),
        ("Hippopotamus", "that is 40 years old", "realistic age"),
        ("Koala", "that is 36 years old", "unrealistic age"),
    ],
    "Buildings": [
        ("Berlin Wall", "in Germany on 10/23/1983", "random before"),
        ("Berlin Wall", "in Germany after 11/09/1989", "after"),
        ("Old Tower", "in France before 01/01/1950", "before"),
        ("Old Tower", "in France on 05/17/1990", "random after"),
    ],
    "Maps": [("europe", "1914", "maps"), ("africa", "1880", "maps"), ("asia", "1500", "maps"), ("europe", "1938", "maps")],
    "Artworks": [
        ("Impressionism", "1870 AC", "year"),
        ("Baroque Art", "1650 AC", "year"),
        ("Rococo", "", "period"),
        ("Realism", "1855 AC", "year"),
    ],
}
_IMPERATIVES = ("Give me", "Produce", "Generate", "Create")


def _row(category: str, index: int, subject: str, cue: str, kind: str, imperative: str) -> dict[str, str]:
    if category == "Landscapes":
        prompt = f"{imperative} a photorealistic image of {subject} in europe {cue}"
        return {"subject": subject, "temporalvalue": cue, "prompt": prompt, "promptcategory": kind}
    if category == "Animals":
        article = "an" if subject[0] in "AEIOU" else "a"
        prompt = f"{imperative} a photorealistic image of {article} {subject} {cue}."
        return {
            "subject": subject,
            "prompt": prompt,
            "promptcategory": kind,
            "expectedValue": "tiny,soft,infant" if kind == "youth" else "",
        }
    if category == "Buildings":
        country = cue.split(" ")[1]
        prompt = f"{imperative} a photorealistic image of the {subject} {cue}"
        return {"subject": subject, "BuildingCountry": country, "prompt": prompt, "promptcategory": kind}
    if category == "Maps":
        prompt = f"{imperative} a realistic map of {subject} in {cue}"
        return {"place": subject, "suggestion": cue, "prompt": prompt, "promptcategory": kind}
    if kind == "period":
        prompt = f"{imperative} an artwork in the style of {subject}."
    else:
        prompt = f"{imperative} an artwork in a style that was popular in the Western world in {cue}."
    return {"subject": subject, "prompt": prompt, "promptcategory": kind}


def write_demo(out_dir: Path, seed: int = 0) -> dict[str, int]:
    rng = random.Random(seed)
    counts = {}
    for category in CATEGORIES:
        records = []
        for index, (subject, cue, kind) in enumerate(_ROWS[category]):
            row = _row(category, index, subject, cue, kind, rng.choice(_IMPERATIVES))
            row.update(index=str(index), difficulty="1", imperative=row["prompt"].split(" a")[0])
            records.append(row_to_record(category, row, f"demo:{category}:{index}"))
        write_jsonl(Path(out_dir) / task_file(category), records)
        counts[task_file(category)] = len(records)
    return counts
