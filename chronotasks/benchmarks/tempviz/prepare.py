"""Build the TempViz prompt set from the release CSVs (``chronotasks prepare tempviz``).

    chronotasks prepare tempviz                          download the release (pinned commit, SHA-256 checked)
    chronotasks prepare tempviz --source DIR [--out OUT]

DIR is an offline copy of the release: the repository root, its ``data/`` folder, or the
``tempviz/`` folder holding the ``<Category>.csv`` files. Writes one task file per category
(``landscapes.jsonl`` ...) and prints counts per category against Table 1. The released judge
data (the two annotators' labels, the annotated subset, the GPT-5 judge outputs) is copied to
``OUT/release/`` for ``chronotasks metaeval tempviz`` (the command is printed).
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

from chronotasks.benchmarks.release import (
    add_common_arguments,
    fetched_release,
    first_existing,
    listing,
    make_downloader,
    output_folder,
    published_files,
    verify_against,
    where_tasks_read,
)
from chronotasks.benchmarks.tempviz import CATEGORIES, PARAPHRASES, TABLE1_PROMPTS, TABLE1_TOTAL, task_file
from chronotasks.benchmarks.tempviz.records import read_category_csv
from chronotasks.data.fetch import Release
from chronotasks.data.loading import DataError
from chronotasks.data.writing import replace_task_files

RELEASE = Release(
    repository="CaroHolt/TempViz",
    commit="187a0e64a4397ed2edc3d7ad129a7f44102ccc07",
    inner="data",
    files={
        "data/tempviz/Landscapes.csv": "9851596cb7670f008145f3da8696a766fcbe21baff1f45ca12117d5beefffca9",
        "data/tempviz/Animals.csv": "e48d614478c2ebfbc0ed56c8e1ba264423e226aff0f1e89386fa300bf37bf538",
        "data/tempviz/Buildings.csv": "b3543357f10caac0f0650e99eb673f94e9c8823b43f8132d84a56af1192b26a9",
        "data/tempviz/Maps.csv": "a663fe07641b20e29eac8f866715101d78b847f24b6eeaa7b2a2fba74a3725da",
        "data/tempviz/Artworks.csv": "acd85b9a91610547e9ed45b6ea57de8b25331df4d1b868ef2dc898253e64cac2",
        "data/eval_annotations/annotator_1.xlsx": "c7168fde60e4dbc5ffaf453e1d29152ca0d0d2259c91add0cefdc0f2ca21a082",
        "data/eval_annotations/annotator_2.xlsx": "e1f835ea5a710db769199356ec405894b8e08d30c58032efb0abaec595158985",
        "data/prompts_annotation_subset.csv": "d7c82a0b319f7ed6bd81b58a2e107555d47a9c6ea60b166c9494137b6f956481",
        "data/model_results/vlm_judging_gpt-5_3_shot_simple.csv": "fbff15fe41ba7a26ea548c4128ea9e972f05c376b7f08a83315122e9e82d5e91",
    },
)
JUDGE_DATA = (
    "eval_annotations/annotator_1.xlsx",
    "eval_annotations/annotator_2.xlsx",
    "prompts_annotation_subset.csv",
    "model_results/vlm_judging_gpt-5_3_shot_simple.csv",
)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    add_common_arguments(parser, "tempviz", "the TempViz repository root, its data/ folder, or the folder of <Category>.csv files")
    parser.add_argument("--categories", nargs="*", default=list(CATEGORIES), help="subset of categories")


def find_csv_folder(source: Path, categories=CATEGORIES) -> Path:
    """The folder of the ``<Category>.csv`` files: ``source`` itself, or its tempviz/ or data/tempviz/."""
    folder = first_existing(
        Path(source),
        ["", "tempviz", "data/tempviz", "tempviz/tempviz", "tempviz/data/tempviz"],
        lambda f: all((f / f"{c}.csv").is_file() for c in categories),
    )
    if folder is None:
        raise DataError(
            f"--source {source}: no TempViz release there. Expected {', '.join(f'{c}.csv' for c in categories)} "
            f"(in the folder, its tempviz/ or data/tempviz/ folder, as in {RELEASE.home}); found: {listing(Path(source))}"
        )
    return folder


def prepare(source: Path, out: Path, categories=CATEGORIES, force: bool = False) -> dict[str, dict[str, int]]:
    """Write the task files (all at once, after every CSV was read); return per-category counts with Table 1's."""
    unknown = [c for c in categories if c not in CATEGORIES]
    if unknown:
        raise DataError(f"unknown category {unknown[0]!r}; expected one of {CATEGORIES}")
    folder = find_csv_folder(Path(source), categories)
    files, report = {}, {}
    for category in categories:
        records = read_category_csv(folder / f"{category}.csv", category)
        files[task_file(category)] = records
        expected = TABLE1_PROMPTS[category] * PARAPHRASES
        report[category] = {
            "prompts": len(records),
            "table1": expected,
            "table1_base": TABLE1_PROMPTS[category],
            "matches": int(len(records) == expected),
        }
    replace_task_files(Path(out), files, source=str(folder), force=force, what="prepare tempviz")
    return report


def copy_judge_data(csv_folder: Path, out: Path) -> dict[str, Path]:
    """Copy the released judge data found beside the CSV folder to OUT/release/; {path: copy}."""
    data = csv_folder.parent
    copied = {}
    for relative in JUDGE_DATA:
        found = data / relative
        if found.is_file():
            target = out / "release" / relative
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(found, target)
            copied[relative] = target
    return copied


def run(args: argparse.Namespace) -> int:
    out = output_folder(args, "tempviz")
    source = Path(args.source) if args.source else fetched_release(RELEASE, "tempviz", make_downloader(args))
    report = prepare(source, out, args.categories, force=args.force)
    csv_folder = find_csv_folder(source, args.categories)
    for line in verify_against(RELEASE, published_files(RELEASE, csv_folder.parent)):
        print(line)
    total = sum(r["prompts"] for r in report.values())
    print(f"{'category':<12} {'prompts':>8} {'Table 1 (x4)':>13}")
    for category, r in report.items():
        flag = "" if r["matches"] else "  <-- differs"
        print(f"{category:<12} {r['prompts']:>8} {r['table1']:>13}{flag}")
    print(f"{'total':<12} {total:>8} {TABLE1_TOTAL if len(report) == len(CATEGORIES) else '-':>13}")
    copied = copy_judge_data(csv_folder, out)
    if len(copied) == len(JUDGE_DATA):
        r = out / "release"
        print(
            f"Released judge data copied to {r}; meta-evaluation: chronotasks metaeval tempviz --annotations "
            f"{r / JUDGE_DATA[0]} {r / JUDGE_DATA[1]} --subset {r / JUDGE_DATA[2]} --judgments {r / JUDGE_DATA[3]}"
        )
    elif copied:
        print(f"Judge data found only in part ({', '.join(copied)}); the meta-evaluation needs {', '.join(JUDGE_DATA)}")
    print(json.dumps({"out": str(out.resolve()), "counts": {c: r["prompts"] for c, r in report.items()}}))
    print(f"Wrote {out.resolve()}. {where_tasks_read(out, 'tempviz')}")
    return 0
