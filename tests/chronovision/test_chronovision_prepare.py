"""`chronotasks prepare chronovision` on the real release files with generated
stand-in images: counts, missing-image report, triplet construction."""

import json
from collections import Counter

import pytest

from chronotasks.benchmarks.chronovision.demo import write_standin_images
from chronotasks.benchmarks.chronovision.prepare import shortcut_trials
from chronotasks.cli import main
from chronotasks.data.loading import read_jsonl

DROPPED_CHA = "E:\\CHA\\Qing\\Jade\\1.jpg"
DROPPED_SPEED = "2019_CopaAmerica_Brazil_6.jpg"  # named by sports news test1 (and maybe more)


@pytest.fixture(scope="module")
def prepared(seed_data, tmp_path_factory):
    source = seed_data / "chronovision"
    root = tmp_path_factory.mktemp("cv_release")
    images = root / "images"
    write_standin_images(source, images, seed=0, skip=frozenset({DROPPED_CHA, DROPPED_SPEED}))
    out = root / "data" / "chronovision"
    assert main(["prepare", "chronovision", "--source", str(source), "--images", str(images), "--out", str(out)]) == 0
    return source, out


def test_counts_and_missing_report(prepared, capsys):
    source, out = prepared
    report = json.loads((out / "prepare_report.json").read_text())
    sort_records = [
        json.loads(line) for line in (source / "artifacts/sort/sort_test_with_ans.jsonl").read_text().splitlines() if line.strip()
    ]
    lost_sort = Counter(len(r["images"]) for r in sort_records if DROPPED_CHA in r["images"])
    news = [r for f in sorted((source / "news").glob("*/*-MMT-test-information.json")) for r in json.loads(f.read_text())]
    lost_news = sum(any(i["original_name"] == DROPPED_SPEED for i in r["images"]) for r in news)
    counts = report["counts"]
    assert counts["artifacts_loc.jsonl"] == 876
    assert counts["artifacts_sort_intra.jsonl"] == 500 - lost_sort[4] and counts["artifacts_sort_cross.jsonl"] == 500 - lost_sort[5]
    assert counts["news_multimodal.jsonl"] == 1500 - lost_news and lost_news >= 1
    assert report["speed_images_named"] == 1019
    assert counts["news_year.jsonl"] == 1018  # year derived from the original file name, one image dropped
    missing = (out / "missing_images.txt").read_text().splitlines()
    assert f"artifacts_loc\tloc-jade-1\t{DROPPED_CHA}" in missing
    assert sum(line.startswith("news_multimodal\t") for line in missing) == lost_news
    assert report["missing"] == len(missing)
    shortcut = read_jsonl(out / "shortcut.jsonl")
    lost_pairs = sum(line.startswith("shortcut\t") for line in missing)
    assert lost_pairs >= 1 and len(shortcut) == 3 * (1200 - lost_pairs)  # the dropped SPEED image is in shortcut pairs too
    stats = report["news_year"]
    assert (stats["mode"], round(stats["mean"]), stats["median"]) == (2010, 2008, 2012)  # §VII.A's baselines


def test_localization_and_sort_records(prepared):
    _, out = prepared
    loc = read_jsonl(out / "artifacts_loc.jsonl")
    assert all(sorted(r["options"]) == sorted(["Tang", "Song", "Yuan", "Ming", "Qing"]) for r in loc)
    assert all(r["options"]["ABCDE".index(r["answer"])] == r["dynasty"] for r in loc)
    assert len({tuple(r["options"]) for r in loc}) > 50  # option order randomised
    assert Counter(r["dynasty"] for r in loc)["Qing"] == 266 - 1
    assert not any("Qing" in p or "CHA" in p for r in loc for p in r["images"])  # anonymised names
    cross = read_jsonl(out / "artifacts_sort_cross.jsonl")
    order = ["Tang", "Song", "Yuan", "Ming", "Qing"]
    for r in cross[:50]:
        assert [order.index(r["dynasties"][i]) for i in r["gold_order"]] == sorted(order.index(d) for d in r["dynasties"])


def test_triplets_follow_randomised_order(prepared):
    _, out = prepared
    trials = read_jsonl(out / "shortcut.jsonl")
    by_pair = {}
    for t in trials:
        by_pair.setdefault(t["pair_id"], []).append(t)
    assert all(sorted(t["condition"] for t in ts) == ["color", "gray_earlier", "gray_later"] for ts in by_pair.values())
    for t in trials:
        earlier = 0 if t["answer"] == "1" else 1
        assert t["years"][earlier] < t["years"][1 - earlier]  # the answer names the earlier image
        expected_gray = {"color": [False, False], "gray_earlier": [earlier == 0, earlier == 1], "gray_later": [earlier == 1, earlier == 0]}
        assert t["gray"] == expected_gray[t["condition"]]
    for ts in by_pair.values():  # same two files in every trial of a pair
        assert len({frozenset(t["images"]) for t in ts}) == 1
    share_first = sum(t["answer"] == "1" for t in trials) / len(trials)
    assert 0.45 < share_first < 0.55
    assert Counter(t["category"] for t in trials)["diversity"] == 3 * 400


def test_shortcut_trials_hand_worked():
    a = shortcut_trials("sports-test1", "sports", "images/early.jpg", "images/late.jpg", 1990, 2010, seed=0)
    again = shortcut_trials("sports-test1", "sports", "images/early.jpg", "images/late.jpg", 1990, 2010, seed=0)
    assert a == again
    for t in a:
        first_is_early = t["images"][0] == "images/early.jpg"
        assert t["answer"] == ("1" if first_is_early else "2")
        gray_file = [p for p, g in zip(t["images"], t["gray"]) if g]
        assert gray_file == {"color": [], "gray_earlier": ["images/early.jpg"], "gray_later": ["images/late.jpg"]}[t["condition"]]
    orders = {tuple(t["images"]) for seed in range(20) for t in shortcut_trials("p", "sports", "e", "l", 1, 2, seed)}
    assert orders == {("e", "l"), ("l", "e")}


def test_constant_baselines_reproduce_section_vii_a(prepared):
    """§VII.A: always one dynasty scores 11.72/18.49/12.97/26.83/29.99 (Tang..Qing) and always the
    mode/mean/median year has MAE 10.03/10.57/9.85. Scored here through the tasks' own hooks."""
    from chronotasks.tasks.chronovision import utils

    _, out = prepared
    docs = lambda name: [{**r, "images": [str(out / p) for p in r["images"]]} for r in read_jsonl(out / name)]  # noqa: E731
    loc = docs("artifacts_loc.jsonl")  # image paths made absolute, as the tasks' process_docs does
    for dynasty in ("Tang", "Song", "Yuan", "Ming", "Qing"):
        scores = [utils.loc_process_results(doc, [dynasty])["ACC_A"] for doc in loc]
        assert sum(scores) == sum(doc["dynasty"] == dynasty for doc in loc)
    # The paper divides by its 887 records; the release has 877 (10 Ming fans fewer, see README),
    # and one Qing record is dropped here for its missing image.
    hits = Counter(doc["dynasty"] for doc in loc) + Counter({"Qing": 1, "Ming": 10})
    paper = {"Tang": 11.72, "Song": 18.49, "Yuan": 12.97, "Ming": 26.83, "Qing": 29.99}
    assert {d: round(100 * hits[d] / 887, 2) for d in paper} == paper

    news = docs("news_year.jsonl")
    for year, paper_mae in ((2010, 10.03), (2008, 10.57), (2012, 9.85)):
        errors = [utils.news_year_process_results(doc, [str(year)])["MAE"] for doc in news]
        assert utils.mae(errors) == pytest.approx(paper_mae, abs=0.05)  # 1,018 of the paper's 1,028 images


def _snapshot(folder):
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.jsonl"))}


def test_a_folder_without_the_release_fails_and_leaves_prepared_data_untouched(prepared, tmp_path, capsys):
    """This used to report "0 missing images", exit 0 and empty all six task files."""
    import shutil

    _, out = prepared
    copy = tmp_path / "chronovision"
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns("images"))
    before = _snapshot(copy)
    assert len(before) == 6
    elsewhere = tmp_path / "not_a_release"
    (elsewhere / "misc").mkdir(parents=True)
    (elsewhere / "notes.txt").write_text("hello")
    assert main(["prepare", "chronovision", "--source", str(elsewhere), "--images", str(tmp_path), "--out", str(copy)]) == 1
    err = capsys.readouterr().err
    assert f"--source {elsewhere}: not a ChronoVision release. Expected artifacts/, shortcut/ and news/" in err
    assert "found: misc/, notes.txt" in err
    assert _snapshot(copy) == before


def test_an_incomplete_release_names_what_is_missing(release_excerpts, tmp_path, capsys):
    import shutil

    partial = tmp_path / "release"
    shutil.copytree(release_excerpts / "chronovision", partial, ignore=shutil.ignore_patterns("news"))
    assert main(["prepare", "chronovision", "--source", str(partial), "--images", str(tmp_path), "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert "incomplete ChronoVision release, missing news/sports/sports-MMT-test-information.json" in err
    assert not (tmp_path / "o").exists()


def test_empty_localization_files_are_named_as_empty_not_as_missing_images(release_excerpts, tmp_path, capsys):
    """Before: "every record lacks an image (e.g. )" — there was no record to lack one."""
    import shutil

    release = tmp_path / "release"
    shutil.copytree(release_excerpts / "chronovision", release)
    for path in (release / "artifacts" / "localization").glob("*.jsonl"):
        path.write_text("")
    images = tmp_path / "images"
    write_standin_images(release_excerpts / "chronovision", images, seed=0)
    out = tmp_path / "o"
    assert main(["prepare", "chronovision", "--source", str(release), "--images", str(images), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert (
        f"artifacts_loc.jsonl: no records in the release files it is built from ({release / 'artifacts' / 'localization'}/: "
        f"the files are empty); nothing was written to {out}"
    ) in err, err
    assert "(e.g. )" not in err and not list(out.glob("*.jsonl"))  # no task file written


def test_the_repository_root_is_accepted_and_images_that_are_not_there_fail_cleanly(release_excerpts, tmp_path, capsys):
    root = tmp_path / "ChronoVision"  # the repository as cloned: the release sits in 'test & ans/'
    root.mkdir()
    (root / "test & ans").symlink_to(release_excerpts / "chronovision")
    (root / "README.md").write_text("ChronoVision")
    empty_images = tmp_path / "images"
    empty_images.mkdir()
    out = tmp_path / "data" / "chronovision"
    assert main(["prepare", "chronovision", "--source", str(root), "--images", str(empty_images), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"--images {empty_images}: none of the" in err
    # the error pointed to "the prepare docstring"; it states the layout, `--help` shows it in full
    assert "expected CHA/<Dynasty>/<category>/<id>.jpg, SPEED/<category>/<name>, shortcut/<category>/testN/<name>" in err
    assert "docstring" not in err and err.count("\n") == 1
    assert not out.exists()
    with pytest.raises(SystemExit):
        main(["prepare", "chronovision", "--help"])
    assert "CHA/<Dynasty>/<category>/<id>.jpg" in capsys.readouterr().out


def test_fewer_records_never_replace_prepared_data_without_force(seed_data, prepared, tmp_path, capsys):
    import shutil

    source, out = prepared
    copy = tmp_path / "chronovision"
    shutil.copytree(out, copy, ignore=shutil.ignore_patterns("images"))
    images = tmp_path / "images"
    write_standin_images(source, images, seed=0, skip=frozenset({DROPPED_CHA, DROPPED_SPEED, "E:\\CHA\\Song\\Jade\\2.jpg"}))
    before = _snapshot(copy)
    assert main(["prepare", "chronovision", "--source", str(source), "--images", str(images), "--out", str(copy)]) == 1
    err = capsys.readouterr().err
    assert "would replace prepared data" in err and "artifacts_loc.jsonl (876 -> 875 records)" in err and "--force" in err
    assert _snapshot(copy) == before
    assert main(["prepare", "chronovision", "--source", str(source), "--images", str(images), "--out", str(copy), "--force"]) == 0
    assert len(read_jsonl(copy / "artifacts_loc.jsonl")) == 875
    printed = capsys.readouterr().out
    assert printed.count("verified: ") == 22 and "DIFFERS" not in printed
