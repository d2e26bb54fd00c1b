"""Write the prompt catalog a blind-batch writer works from (see ../README.md, "Blind batches").

    python tests/foundation/parse_corpus/tools/catalog.py DATA_ROOT OUT.md

DATA_ROOT is a chronotasks data root (release data where prepared, else `chronotasks demo-data`).
For every task whose replies `AnswerSpace.parse` (or the TempViz verdict reader) reads, the page
shows three prompts exactly as lmms-eval renders them, the record's answer space and options, and
how to write a label. It shows nothing of the parser: the writer sees what a model sees.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from chronotasks.scoring.chinese_periods import PERIODS

# task -> (answer kind, how the writer labels a reply to it)
LETTERS = 'a letter string like "B"'
TASKS = {
    "tabvlm_style_period": ("letter", LETTERS),
    "tabvlm_odd_one_out": ("letter", LETTERS),
    "chronovision_artifacts_loc": ("letter", LETTERS),
    "tabvlm_style_period_release": ("letter", "the option NUMBER as an integer, like 2"),
    "tabvlm_odd_one_out_release": ("letter", "the option NUMBER as an integer, like 2"),
    "tabvlm_technique": ("letter_set", 'a list of letters, like ["A", "C"] ([] = the reply says none)'),
    "tabvlm_material": ("letter_set", 'a list of letters, like ["A", "C"] ([] = the reply says none)'),
    "tabvlm_technique_release": ("letter_set", "a list of option numbers, like [1, 3]"),
    "tabvlm_grouping": ("k_of_n", 'a list of the three letters, like ["A", "C", "E"]'),
    "tabvlm_grouping_release": ("k_of_n", "a list of the three option numbers, like [1, 3, 5]"),
    "tabvlm_sequence": ("ordering", 'the letters from oldest to newest, like ["B", "D", "A", "C"]'),
    "tabvlm_sequence_release": ("ordering", "the artifact numbers from oldest to newest, like [2, 4, 1, 3]"),
    "chronovision_artifacts_sort_intra": ("ordering", "the 0-based image indices from oldest to newest, like [3, 1, 0, 2]"),
    "chronovision_artifacts_sort_cross": ("ordering", "the 0-based image indices from oldest to newest, like [1, 0, 2, 4, 3]"),
    "chronovision_news_year": ("year", "the year as an integer, like 2014"),
    "chronovision_news_year_confidence": ("year", "the year as an integer, like 2014"),
    "chronovision_shortcut": ("choice", 'the string "1" or "2" (the image the reply says is earlier)'),
    "chronovision_shortcut_cot": ("choice", 'the string "1" or "2" (the image the reply says is earlier)'),
    "chronovision_news_multimodal": ("choice", 'the string "1", "2", "3" or "4"'),
    "musebench_vqa": (
        "dynasty",
        "the period, one of MuseBench's Table 6 names: "
        + ", ".join(PERIODS)
        + " (a reply naming a period with no row there, e.g. Liao or the Jurchen Jin, is null; "
        "only questions asking 这件文物属于哪个年代？)",
    ),
}
JUDGES = {
    "tempviz_judge_simple": ("judge_yes_no", "standard", "true (the judge says yes) or false (no)"),
    "tempviz_judge_instructed": ("judge_rating", "judging", "true (the rating accepts the image) or false (it does not)"),
}


def main(root: str, out: str) -> None:
    os.environ["CHRONOTASKS_DATA"] = str(Path(root).resolve())
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    from lmms_eval.tasks import TaskManager, get_task_dict

    from chronotasks.prompts import render
    from chronotasks.tasks import TASKS_DIR

    tasks = get_task_dict(list(TASKS), TaskManager(include_path=str(TASKS_DIR)))
    lines = [
        "# Prompt catalog",
        "",
        "Each section: a task, the kind of answer it asks for, how to label a reply, and three",
        "prompts exactly as the model receives them (images are shown to the model where the prompt says so).",
        "",
    ]
    for name, (kind, label) in TASKS.items():
        task = tasks[name]
        docs = [d for d in task.test_docs() if name != "musebench_vqa" or d.get("qtype") == "period"][:3]
        lines += [f"## {name}", "", f"- answer kind: `{kind}`", f"- label: {label}", ""]
        for number, doc in enumerate(docs, 1):
            text = task.doc_to_text(doc)
            lines += [
                f"### {name} example {number}",
                "",
                f"answer_space: `{doc.get('answer_space')}`",
                f"options: `{json.dumps(doc.get('options'), ensure_ascii=False)}`",
                "",
                "```",
                str(text),
                "```",
                "",
            ]
    subject = "Create a photorealistic image of a red fox in Europe in January."
    for name, (kind, template, label) in JUDGES.items():
        prompt = render(f"tempviz/{template}.j2", prompt=subject, temporal_cue="in Europe in January")
        lines += [
            f"## {name}",
            "",
            f"- answer kind: `{kind}`",
            f"- label: {label}",
            "",
            "The judge (a VLM) sees a generated image and this prompt:",
            "",
            "```",
            prompt,
            "```",
            "",
        ]
    Path(out).write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:3])
