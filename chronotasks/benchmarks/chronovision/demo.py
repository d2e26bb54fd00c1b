"""Demo data for ChronoVision: a small synthetic release in the public release's
own file formats, stand-in images named as the release names them, and the
task files that ``prepare`` joins from them (so the demo runs the real join).

``write_standin_images`` also draws stand-ins for the real release files, so
``prepare`` can be tried end to end without the images.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

from chronotasks.benchmarks.chronovision import DYNASTIES, SPEED_CATEGORIES
from chronotasks.benchmarks.chronovision.prepare import join_release, release_path_parts
from chronotasks.data.drawing import draw_scene
from chronotasks.data.loading import read_jsonl

DEMO_CHA = ("carving", "Jade", "china", "coin", "fan", "lacquerware")


def _save(path: Path, rng: random.Random, **kwargs) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    image = draw_scene(rng, size=32, **kwargs)
    image.save(path, format="PNG" if path.suffix.lower() == ".png" else "JPEG", quality=90)


def write_standin_images(source: Path, images: Path, seed: int = 0, skip: frozenset[str] = frozenset()) -> int:
    """Draw one stand-in image for every image the release files under ``source`` name.

    CHA images go to CHA/<Dynasty>/<category>/<id>.jpg; SPEED images named by the
    news files to SPEED/<category>/<original_name>; the rest of the shortcut
    images to shortcut/<category>/testN/<anonymised>. Names in ``skip`` (as the
    release writes them) are left out, to exercise the missing-image report.
    """
    rng = random.Random(seed)
    written: set[Path] = set()

    def save(parts: list[str], name: str, **kwargs) -> None:
        path = images.joinpath(*parts)
        if name in skip or path in written:
            return
        written.add(path)
        _save(path, rng, **kwargs)

    cha = [rec["image"] for f in sorted((source / "artifacts" / "localization").glob("*.jsonl")) for rec in read_jsonl(f)]
    cha += [p for f in sorted((source / "artifacts" / "sort").glob("*.jsonl")) for rec in read_jsonl(f) for p in rec["images"]]
    for path in cha:
        parts = release_path_parts(path)
        parts = parts if parts[0].upper() == "CHA" else ["CHA", *parts]
        save(parts, path, hue=DYNASTIES.index(parts[1]) / 5 if parts[1] in DYNASTIES else None)
    news_named = set()
    for category in SPEED_CATEGORIES:
        for f in sorted((source / "news" / category).glob("*-MMT-test-information.json")):
            for rec in json.loads(f.read_text(encoding="utf-8")):
                for image in rec["images"]:
                    news_named.add((category, image["original_name"]))
                    save(["SPEED", category, image["original_name"]], image["original_name"])
        test = source / "shortcut" / category / "test.json"
        if test.is_file():
            for key, anonymised in json.loads(test.read_text(encoding="utf-8")).items():
                test_id, _, name = key.partition("/")
                original = re.sub(r"^\d+_", "", name)
                if (category, original) not in news_named:
                    save(["shortcut", category, test_id, anonymised], original)
    return len(written)


def write_demo_release(source: Path, seed: int = 0, per_category: int = 4) -> None:
    """A small release in the public formats (localization, sort, shortcut, news)."""
    rng = random.Random(seed)
    loc_dir, sort_dir = source / "artifacts" / "localization", source / "artifacts" / "sort"
    loc_dir.mkdir(parents=True, exist_ok=True)
    sort_dir.mkdir(parents=True, exist_ok=True)
    for category in DEMO_CHA:
        lines = []
        for i in range(1, per_category + 2):
            dynasty = rng.choice(DYNASTIES)
            lines.append(
                json.dumps(
                    {
                        "id": str(i),
                        "image": f"E:\\CHA\\{dynasty}\\{category}\\{i}.jpg",
                        "dynasty": dynasty,
                        "category": category,
                        "label": dynasty,
                        "name": f"demo {category} {i}",
                    }
                )
            )
        (loc_dir / f"{category.lower()}.jsonl").write_text("\n".join(lines) + "\n", encoding="utf-8")
    sort_lines, sid = [], 0
    for category, n in (("Jade", 4), ("china", 4), ("Artifacts_Mixed", 5), ("Artifacts_Mixed", 5)):
        for _ in range(per_category // 2 + 1):
            sid += 1
            dynasties = rng.sample(DYNASTIES, n)
            crafts = [category if n == 4 else rng.choice(DEMO_CHA) for _ in dynasties]
            paths = [f"E:\\CHA\\{d}\\{c}\\{100 + sid * 5 + k}.jpg" for k, (d, c) in enumerate(zip(dynasties, crafts))]
            truth = sorted(range(n), key=lambda k: DYNASTIES.index(dynasties[k]))
            sort_lines.append(
                json.dumps(
                    {
                        "id": sid,
                        "category": category,
                        "images": paths,
                        "ground_truth": truth,
                        "dynasty_sequence": dynasties,
                        "prompt": "(release prompt)",
                    }
                )
            )
    (sort_dir / "sort_test_with_ans.jsonl").write_text("\n".join(sort_lines), encoding="utf-8")
    for category in SPEED_CATEGORIES:
        test, ans = {}, {}
        for t in range(1, per_category + 1):
            y1, y2 = sorted(rng.sample(range(1950, 2025), 2))
            names = [f"{t}_{y1}_Event{category}_{t}a.jpg", f"{t}_{y2}_Event{category}_{t}b.jpg"]
            rng.shuffle(names)
            for name in names:
                test[f"test{t}/{name}"] = f"{rng.randrange(10**7, 10**8)}.jpg"
            ans[f"test{t}"] = 1 if str(y1) in names[0] else 2
        folder = source / "shortcut" / category
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "test.json").write_text(json.dumps(test, indent=4), encoding="utf-8")
        (folder / "ans.json").write_text(json.dumps(ans, indent=4), encoding="utf-8")
        news = []
        for t in range(1, per_category + 1):
            years = rng.sample(range(1950, 2025), 4)
            target = rng.randrange(4)
            news.append(
                {
                    "test_id": f"test{t}",
                    "correct_answer": target + 1,
                    "matched_year": years[target],
                    "news": {
                        "year": years[target],
                        "date": f"May 1, {years[target]}",
                        "description": f"A demo {category} event number {t} happens.",
                        "source": "demo",
                    },
                    "images": [
                        {
                            "index": k + 1,
                            "original_name": f"{y}_News{category}_{t}{k}.jpg",
                            "new_name": f"{k + 1}.jpg",
                            "year": y,
                            "is_target": k == target,
                        }
                        for k, y in enumerate(years)
                    ],
                }
            )
        folder = source / "news" / category
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{category}-MMT-test-information.json").write_text(json.dumps(news, indent=4), encoding="utf-8")


def write_demo(out_dir: Path, seed: int = 0) -> dict[str, int]:
    out_dir = Path(out_dir)
    source, images = out_dir / "_release" / "files", out_dir / "_release" / "images"
    write_demo_release(source, seed)
    write_standin_images(source, images, seed)
    report = join_release(source, images, out_dir, seed=seed)
    if report["missing"]:
        raise RuntimeError(f"demo data lost images: {report['missing'][:5]}")
    return report["counts"]
