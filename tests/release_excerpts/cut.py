"""Cut the committed release excerpts from whole copies of the public releases.

    python tests/release_excerpts/cut.py RELEASES_DIR

RELEASES_DIR holds tabvlm/temporal_anomaly_benchmark.json, chronovision/ (the release's "test & ans"
folder) and tempviz/tempviz/*.csv, as README.md beside this file describes. Records are copied
unchanged; only a handful of each file is kept.
"""

from __future__ import annotations

import csv
import json
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
# TAB-VLM questions the tests name (hand-worked replies and word-for-word prompts), then the first two of each type
TABVLM_NAMED = ("style_period_matching_3", "material_consistency_1", "object_grouping_2", "chronological_ordering_3", "odd_period_1")


def cut_tabvlm(source: Path, out: Path) -> None:
    release = json.loads((source / "temporal_anomaly_benchmark.json").read_text(encoding="utf-8"))
    per_type: dict[str, int] = defaultdict(int)
    kept = []
    for question in release["questions"]:
        per_type[question["question_type"]] += 1
        if question["question_id"] in TABVLM_NAMED or per_type[question["question_type"]] <= 2:
            kept.append(question)
    out.mkdir(parents=True, exist_ok=True)
    excerpt = {**release, "questions": kept}
    (out / "temporal_anomaly_benchmark.json").write_text(json.dumps(excerpt, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")


def _first_lines(path: Path, keep) -> list[str]:
    return [line for line in path.read_text(encoding="utf-8").splitlines() if line.strip() and keep(json.loads(line))]


def cut_chronovision(source: Path, out: Path) -> None:
    for path in sorted((source / "artifacts" / "localization").glob("*.jsonl")):
        seen: set[str] = set()

        def one_per_dynasty(record: dict, seen: set[str] = seen) -> bool:
            new = record["dynasty"] not in seen
            seen.add(record["dynasty"])
            return new

        _write_lines(out / "artifacts" / "localization" / path.name, _first_lines(path, one_per_dynasty))
    sizes: dict[int, int] = defaultdict(int)

    def two_of_each_size(record: dict) -> bool:
        sizes[len(record["images"])] += 1
        return sizes[len(record["images"])] <= 2

    sort = source / "artifacts" / "sort" / "sort_test_with_ans.jsonl"
    _write_lines(out / "artifacts" / "sort" / sort.name, _first_lines(sort, two_of_each_size))
    for path in sorted((source / "news").glob("*/*-MMT-test-information.json")):
        target = out / "news" / path.parent.name / path.name
        target.parent.mkdir(parents=True, exist_ok=True)
        records = json.loads(path.read_text(encoding="utf-8"))[:3]
        target.write_text(json.dumps(records, ensure_ascii=False, indent=4) + "\n", encoding="utf-8")
    for folder in sorted((source / "shortcut").iterdir()):
        tests = {f"test{i}" for i in (1, 2, 3)}
        pairs = json.loads((folder / "test.json").read_text(encoding="utf-8"))
        answers = json.loads((folder / "ans.json").read_text(encoding="utf-8"))
        target = out / "shortcut" / folder.name
        target.mkdir(parents=True, exist_ok=True)
        kept_pairs = {k: v for k, v in pairs.items() if k.split("/")[0] in tests}
        (target / "test.json").write_text(json.dumps(kept_pairs, indent=4) + "\n", encoding="utf-8")
        (target / "ans.json").write_text(json.dumps({k: v for k, v in answers.items() if k in tests}, indent=4) + "\n", encoding="utf-8")


def _write_lines(path: Path, lines: list[str]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("".join(line + "\n" for line in lines), encoding="utf-8")


def cut_tempviz(source: Path, out: Path) -> None:
    """The first four rows (one prompt's paraphrases) of each prompt category of each category file."""
    out.mkdir(parents=True, exist_ok=True)
    for path in sorted(source.glob("*.csv")):
        with path.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.reader(handle))
        column = rows[0].index("promptcategory")
        seen: dict[str, int] = defaultdict(int)
        kept = [rows[0]]
        for row in rows[1:]:
            seen[row[column]] += 1
            if seen[row[column]] <= 4:
                kept.append(row)
        with (out / path.name).open("w", newline="", encoding="utf-8") as handle:
            csv.writer(handle).writerows(kept)


def main(releases: Path) -> None:
    cut_tabvlm(releases / "tabvlm", HERE / "tabvlm")
    cut_chronovision(releases / "chronovision", HERE / "chronovision")
    cut_tempviz(releases / "tempviz" / "tempviz", HERE / "tempviz" / "tempviz")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
