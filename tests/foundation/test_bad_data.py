"""Bad task data gives one clear error (file, line, record, field, expected type), never a library
error from deep inside; a missing or truncated image is a scored, counted failure, never a crash;
`chronotasks check-data` finds all of it before a run."""

import io
import json
import random
import re
import shutil
from collections import Counter

import numpy as np
import pytest
from PIL import Image, ImageFile

from chronotasks import check_data
from chronotasks.cli import main
from chronotasks.data import loading
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import DataError, doc_images, image_failure, load_task_docs, open_image


@pytest.fixture
def bench(tmp_path, monkeypatch):
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    folder = tmp_path / "bench"
    folder.mkdir()
    return folder


def _lines(*records):
    return "".join(json.dumps(r) + "\n" for r in records)


def test_a_field_of_the_wrong_type_names_file_line_record_field_and_types(bench):
    (bench / "t.jsonl").write_text(_lines({"id": "a", "answer": "B"}, {"id": "b", "answer": "C"}, {"id": "c", "answer": 2}))
    with pytest.raises(DataError) as info:
        load_task_docs("bench", "t.jsonl")
    assert str(info.value) == f"{bench / 't.jsonl'}:3: record 'c', field 'answer': expected string (as on line 1), got number 2"
    (bench / "t.jsonl").write_text(_lines({"id": "a", "options": ["x", "y"]}, {"id": "b", "options": ["x", 7]}))
    with pytest.raises(
        DataError, match=r"t.jsonl:2: record 'b', field 'options' \(list items\): expected string \(as on line 1\), got number 7"
    ):
        load_task_docs("bench", "t.jsonl")
    (bench / "t.jsonl").write_text(_lines({"id": "a", "images": "images/a.png"}))
    with pytest.raises(DataError, match=r"t.jsonl:1: record 'a', field 'images': expected a list of image paths"):
        load_task_docs("bench", "t.jsonl")
    (bench / "t.jsonl").write_text(_lines({"id": "a", "n": 1}, {"id": "b", "n": 2.5}, {"id": "c", "n": None}))
    assert load_task_docs("bench", "t.jsonl")["n"] == [1.0, 2.5, None]  # numbers mix, null is allowed


def test_a_bad_answer_space_is_named_at_load_time_not_in_the_middle_of_scoring(bench):
    good = '{"kind": "letter", "n": 4}'
    a = {"id": "a", "answer": "A", "answer_space": good}
    (bench / "t.jsonl").write_text(_lines(a, {"id": "b", "answer_space": '{"kind": "letters", "n": 4}'}))
    with pytest.raises(
        DataError,
        match=r"t.jsonl:2: record 'b', field 'answer_space': .* is not a valid answer space \(unknown answer-space kind 'letters'",
    ):
        load_task_docs("bench", "t.jsonl")
    (bench / "t.jsonl").write_text(_lines(a, {"id": "b", "answer_space": '{"kind": "ordering"}'}))
    with pytest.raises(DataError, match=r"t.jsonl:2: record 'b', field 'answer_space': .*needs n"):
        load_task_docs("bench", "t.jsonl")
    (bench / "t.jsonl").write_text(_lines({"id": "a", "answer": "A", "answer_space": '{"kind": "letter", "n": 4'}))
    with pytest.raises(DataError, match=r"t.jsonl:1: record 'a', field 'answer_space'"):
        load_task_docs("bench", "t.jsonl")
    (bench / "t.jsonl").write_text(_lines(a, {"id": "b", "answer": "D", "answer_space": good}))
    assert load_task_docs("bench", "t.jsonl")["answer_space"] == [good, good]


def _rewrite(path, change):
    """Rewrite a task file as a broken prepare would write it: one JSON object a line, ``change(lines)``
    applied to the records (a list, in line order); the lines of the records changed are returned."""
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    change(records)
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records), encoding="utf-8")
    return records


def _set(index, **fields):
    return lambda records: records[index].update(fields)


YEAR_SPACE = '{"hi": 2000, "kind": "year", "lo": 1900}'
NO_OPTIONS, SIX_OF_FIVE = '{"kind": "letter", "n": 0}', '{"k": 6, "kind": "k_of_n", "n": 5}'
# (task, its file, the change to its third record, the field the error must name)
BAD_RECORDS = [
    ("tabvlm_style_period", "tabvlm/style_period.jsonl", {"answer": "E"}, "answer"),
    ("tabvlm_style_period", "tabvlm/style_period.jsonl", {"answer": "Z"}, "answer"),
    ("tabvlm_style_period", "tabvlm/style_period.jsonl", {"answer": ""}, "answer"),
    ("tabvlm_style_period", "tabvlm/style_period.jsonl", {"answer": "a"}, "answer"),
    ("tabvlm_style_period", "tabvlm/style_period.jsonl", {"answer": "AB"}, "answer"),
    ("tabvlm_style_period", "tabvlm/style_period.jsonl", {"options": ["Bronze Age", "Iron Age", "Modern"]}, "options"),
    ("tabvlm_style_period", "tabvlm/style_period.jsonl", {"answer_space": YEAR_SPACE}, "answer_space"),
    ("tabvlm_style_period", "tabvlm/style_period.jsonl", {"answer_space": NO_OPTIONS}, "answer_space"),
    ("tabvlm_grouping", "tabvlm/grouping.jsonl", {"answer": ["A", "B"]}, "answer"),
    ("tabvlm_grouping", "tabvlm/grouping.jsonl", {"answer_space": SIX_OF_FIVE}, "answer_space"),
    ("tabvlm_technique", "tabvlm/technique.jsonl", {"answer": ["A", "A"]}, "answer"),
    ("tabvlm_technique", "tabvlm/technique.jsonl", {"answer": ["F"]}, "answer"),
    ("tabvlm_sequence", "tabvlm/sequence.jsonl", {"answer": ["A", "B", "C", "C"]}, "answer"),
    ("chronovision_artifacts_sort_intra", "chronovision/artifacts_sort_intra.jsonl", {"gold_order": [1, 2, 3, 4]}, "gold_order"),
    ("chronovision_news_year", "chronovision/news_year.jsonl", {"year": 2031}, "year"),
    ("chronovision_news_year", "chronovision/news_year.jsonl", {"year": 1900}, "year"),
    (
        "chronovision_news_year",
        "chronovision/news_year.jsonl",
        {"answer_space": '{"hi": 1946, "kind": "year", "lo": 2025}'},
        "answer_space",
    ),
    ("chronovision_shortcut", "chronovision/shortcut.jsonl", {"answer": "3"}, "answer"),
    ("chronovision_artifacts_loc", "chronovision/artifacts_loc.jsonl", {"id": {"museum": "cha", "n": 3}}, "id"),
]


@pytest.mark.parametrize("task, file, change, field", BAD_RECORDS, ids=[f"{t}-{json.dumps(c)}" for t, _, c, _ in BAD_RECORDS])
def test_a_record_that_does_not_fit_its_task_is_refused_naming_file_line_record_and_field(
    demo_root, tmp_path, monkeypatch, capsys, task, file, change, field
):
    """Through the task's own process_docs (as lmms-eval loads it) and `chronotasks check-data`."""
    benchmark = file.split("/")[0]
    shutil.copytree(demo_root / benchmark, tmp_path / benchmark)
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    records = _rewrite(tmp_path / file, _set(2, **change))
    shown = records[2]["id"] if isinstance(records[2]["id"], str) else "#3"
    named = f"{tmp_path / file}:3: record {shown!r}, field {field!r}: "
    assert main(["check-data", task]) == 1
    out = capsys.readouterr().out
    assert named in out and "1 problem(s)" in out
    tasks, _ = check_data.discover()
    with pytest.raises(DataError) as info:
        check_data._hook(tasks[task])(None)
    assert str(info.value).startswith(named)


def test_a_repeated_id_and_a_repeated_line_are_refused(demo_root, tmp_path, monkeypatch, capsys):
    shutil.copytree(demo_root / "chrono_demo", tmp_path / "chrono_demo")
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    path = tmp_path / "chrono_demo" / "period.jsonl"

    def repeat(records):
        records[4]["id"] = records[0]["id"]  # two questions, one id
        records.insert(7, dict(records[1]))  # one question listed twice: line 8 repeats line 2

    _rewrite(path, repeat)
    assert main(["check-data", "chrono_demo_period"]) == 1
    out = capsys.readouterr().out
    assert f"{path}:5: record 'demo-period-000', field 'id': 'demo-period-000' is also the id on line 1 (ids must be unique)" in out
    assert f"{path}:8: record 'demo-period-001': line 8 repeats line 2 (a record listed twice is scored twice)" in out
    assert "2 problem(s)" in out


def test_check_data_lists_every_bad_record_and_loading_names_them_all(demo_root, tmp_path, monkeypatch, capsys):
    shutil.copytree(demo_root / "chrono_demo", tmp_path / "chrono_demo")
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    path = tmp_path / "chrono_demo" / "period.jsonl"

    def break_all(records):  # 40 answers out of the space, 39 repeated ids
        for record in records:
            record.update(answer="E", id=records[0]["id"])

    _rewrite(path, break_all)
    assert main(["check-data", "chrono_demo_period"]) == 1
    out = capsys.readouterr().out
    assert "79 problem(s)" in out
    assert [
        int(n)
        for n in re.findall(
            r"period.jsonl:(\d+): record 'demo-period-000', field 'answer': \"E\" is not one of the 4 "
            r"option letters A-D",
            out,
        )
    ] == list(range(1, 41))
    assert [
        int(n)
        for n in re.findall(
            r"period.jsonl:(\d+): record 'demo-period-000', field 'id': 'demo-period-000' is also "
            r"the id on line 1",
            out,
        )
    ] == list(range(2, 41))
    with pytest.raises(DataError) as info:
        load_task_docs("chrono_demo", "period.jsonl", ("id", "images", "options", "answer"))
    assert str(info.value).startswith("79 problems (`chronotasks check-data` lists every one):")
    assert len(info.value.problems) == 79 and str(info.value).count("\n  ") == 21  # the message: the first 20, and a count
    assert str(info.value).endswith("\n  ... and 59 more")


def test_an_answer_space_with_nothing_in_it_is_not_a_space():
    """Each of these once loaded and then failed mid-run (``IndexError: Cannot choose from an empty
    sequence`` in the random baseline) or could never be answered."""
    for text, why in [
        ('{"kind": "letter", "n": 0}', "n = 0: a question needs at least one option"),
        ('{"kind": "ordering", "n": -1, "base": 0}', "n = -1"),
        ('{"kind": "letter_set", "n": 27}', "at most 26"),
        ('{"kind": "k_of_n", "n": 4, "k": 5}', "k = 5 must lie in 1..n (4)"),
        ('{"kind": "k_of_n", "n": 4, "k": 0}', "k = 0"),
        ('{"kind": "year", "lo": 2000, "hi": 1999}', "lo = 2000 is after hi = 1999"),
        ('{"kind": "choice", "choices": []}', "needs choices"),
        ('{"kind": "choice", "choices": ["1", "1"]}', "repeat a value"),
        ('{"kind": "letter", "n": "4"}', "n must be an integer"),
        ('{"kind": "letter", "n": true}', "n must be an integer"),
    ]:
        with pytest.raises(ValueError, match=re.escape(why)):
            AnswerSpace.from_json(text)
    assert AnswerSpace.from_json('{"kind": "k_of_n", "n": 1, "k": 1}').random_value(random.Random(0)) == frozenset("A")


def test_an_empty_task_file_is_named_with_the_command_that_writes_it(bench):
    (bench / "t.jsonl").write_bytes(b"")
    with pytest.raises(DataError, match=r"t.jsonl: no records \(the file is empty\); write it again with `chronotasks prepare bench"):
        load_task_docs("bench", "t.jsonl")
    (bench / "t.jsonl").write_text("\n  \n")
    with pytest.raises(DataError, match="no records"):
        load_task_docs("bench", "t.jsonl")


def test_bytes_that_are_not_utf8_are_named_with_file_and_line(bench):
    (bench / "t.jsonl").write_bytes(_lines({"id": "a"}).encode() + b'{"id": "\xe9t\xe9"}\n')
    with pytest.raises(DataError, match=r"t.jsonl:2: not UTF-8 text \(byte 0xe9 at column 9\)"):
        load_task_docs("bench", "t.jsonl")
    (bench / "t.jsonl").write_bytes(b"\xef\xbb\xbf" + _lines({"id": "a"}).encode())  # a UTF-8 BOM is fine
    assert load_task_docs("bench", "t.jsonl")["id"] == ["a"]
    (bench / "t.jsonl").write_text('["not", "a record"]\n')
    with pytest.raises(DataError, match=r"t.jsonl:1: expected a JSON object \(one record per line\), got list"):
        load_task_docs("bench", "t.jsonl")


@pytest.fixture
def broken_images(bench):
    """Three records: a good image, a missing one, a truncated one (half a JPEG)."""
    images = bench / "images"
    images.mkdir()
    for name in ("good", "truncated"):
        Image.effect_noise((96, 96), 40).convert("RGB").save(images / f"{name}.jpg", quality=95)
    data = (images / "truncated.jpg").read_bytes()
    (images / "truncated.jpg").write_bytes(data[: len(data) // 2])
    (bench / "t.jsonl").write_text(_lines(*({"id": n, "images": [f"images/{n}.jpg"]} for n in ("good", "missing", "truncated"))))
    return bench


def test_missing_and_truncated_images_give_placeholders_and_are_remembered(broken_images, caplog):
    docs = load_task_docs("bench", "t.jsonl")
    assert "1 image file(s) do not exist (record 'missing'" in caplog.text
    ImageFile.LOAD_TRUNCATED_IMAGES = True  # as lmms-eval sets it when it is imported
    try:
        with pytest.raises(DataError, match="truncated.jpg is not a readable image .*truncated"):
            open_image(docs[2]["images"][0], "truncated")
        assert ImageFile.LOAD_TRUNCATED_IMAGES is True  # restored after
        images = [doc_images(doc)[0] for doc in docs]
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = False
    assert images[0].size == (96, 96)
    assert [im.size for im in images[1:]] == [loading.PLACEHOLDER_SIZE] * 2
    assert images[1].getpixel((5, 5)) == (128, 128, 128)
    assert image_failure(docs[0]) is None
    assert "missing.jpg does not exist" in image_failure(docs[1])
    assert "truncated.jpg is not a readable image" in image_failure(docs[2])


def test_image_failure_is_found_even_when_the_model_never_opened_the_image(broken_images):
    docs = load_task_docs("bench", "t.jsonl")
    loading._image_status.clear()  # a baseline never calls doc_to_visual
    assert [image_failure(doc) is not None for doc in docs] == [False, True, True]


def test_the_cheap_image_check_agrees_with_a_full_decode(tmp_path):
    """process_results checks images the model never opened by header and file ending (JPEG's EOI,
    PNG's IEND), not by decoding them; its verdict must be the full decode's on every kind of file."""
    from chronotasks.data.loading import decode_problem, header_problem

    photo = Image.effect_noise((120, 90), 50).convert("RGB")
    files = {}
    for name, fmt in (("a.jpg", "JPEG"), ("a.png", "PNG"), ("a.webp", "WEBP"), ("a.bmp", "BMP")):
        buffer = io.BytesIO()
        photo.save(buffer, format=fmt)
        files[name] = buffer.getvalue()
        files["half_" + name] = buffer.getvalue()[: len(buffer.getvalue()) // 2]
        files["cut_" + name] = buffer.getvalue()[:-20]  # only the ending lost
    files["trailing.jpg"] = files["a.jpg"] + b"\0" * 64  # bytes after the end-of-image marker: still valid
    buffer = io.BytesIO()
    Image.fromarray(np.arange(0, 65536, 64, dtype=np.uint16).reshape(32, 32)).save(buffer, format="PNG")
    files["gray16.png"], files["empty.jpg"], files["text.png"] = buffer.getvalue(), b"", b"not an image\n"
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    files["missing.jpg"] = None
    verdicts = {name: (header_problem(str(tmp_path / name)) is None, decode_problem(str(tmp_path / name)) is None) for name in files}
    assert all(cheap == full for cheap, full in verdicts.values()), verdicts
    # a PNG that lost only its IEND chunk and a few bytes still decodes (PIL does not need them): the check
    # then decodes it and agrees
    assert [name for name, (ok, _) in verdicts.items() if ok] == [
        "a.jpg",
        "a.png",
        "cut_a.png",
        "a.webp",
        "a.bmp",
        "trailing.jpg",
        "gray16.png",
    ]


def test_a_failed_image_is_scored_wrong_not_a_parse_failure_and_counted(demo_root, tmp_path, monkeypatch):
    """Through the real TAB-VLM hook: the gold answer after a failed image still scores 0."""
    from chronotasks.tasks.tabvlm import utils

    shutil.copytree(demo_root / "tabvlm", tmp_path / "tabvlm")
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    docs = utils.style_period_docs(None)
    first, second = docs[0], docs[1]
    gold = lambda doc: ", ".join(doc["answer"]) if isinstance(doc["answer"], list) else doc["answer"]  # noqa: E731
    assert utils.process_results(first, [gold(first)])["accuracy"] == 1.0
    (tmp_path / "tabvlm" / "images" / first["images"][0].rsplit("/", 1)[1]).unlink()
    loading._image_status.clear()
    scored = utils.process_results(first, [gold(first)])
    assert (scored["accuracy"], scored["parse_failure"], scored["image_failure"]) == (0.0, 0.0, 1.0)
    assert utils.process_results(second, [gold(second)])["image_failure"] == 0.0
    assert utils.process_results(second, ["no idea"])["parse_failure"] == 1.0


def test_check_data_finds_every_problem_and_exits_nonzero(demo_root, tmp_path, monkeypatch, capsys):
    shutil.copytree(demo_root / "chrono_demo", tmp_path / "chrono_demo")
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    assert main(["check-data", "chrono_demo"]) == 0
    assert re.search(r"chrono_demo_period +40 records +40 images  ok\nchrono_demo_pair +40 records +80 images  ok", capsys.readouterr().out)
    images = tmp_path / "chrono_demo" / "images"
    (images / "period_003.png").unlink()
    data = (images / "pair_005_2.png").read_bytes()
    (images / "pair_005_2.png").write_bytes(data[: len(data) // 2])
    assert main(["check-data", "chrono_demo_period,chrono_demo_pair"]) == 1
    out = capsys.readouterr().out
    assert "chrono_demo/period.jsonl:4: record 'demo-period-003', field 'images'[0]: image file" in out
    assert "period_003.png does not exist" in out
    assert "chrono_demo/pair.jsonl:6: record 'demo-pair-005', field 'images'[1]: image file" in out
    assert "pair_005_2.png is not a readable image" in out
    assert "0 of 2 task(s) ok; 2 with problems" in out
    (tmp_path / "chrono_demo" / "pair.jsonl").write_bytes(b"")
    assert main(["check-data", "chrono_demo_pair"]) == 1
    assert "pair.jsonl: no records (the file is empty)" in capsys.readouterr().out
    assert main(["check-data", "no_such_task"]) == 1
    assert "unknown task, group or benchmark 'no_such_task'" in capsys.readouterr().err


def _scan_start(data: bytes) -> int:
    """Where a baseline JPEG's scan data begins: after the start-of-scan marker's segment."""
    sos = data.index(b"\xff\xda")
    return sos + 2 + int.from_bytes(data[sos + 2 : sos + 4], "big")


def _broken_jpegs(data: bytes) -> dict[str, bytes]:
    """The ways a JPEG's scan data goes missing with its end marker kept (a copy cut short and closed
    again, a scan written empty, a block of bytes lost to zeros)."""
    start, end = _scan_start(data), len(data) - 2
    zeroed = bytearray(data)
    zeroed[(start + end) // 2 : (start + end) // 2 + 64] = bytes(64)
    return {
        "no_scan": data[:start] + b"\xff\xd9",
        "half_scan": data[: (start + end) // 2] + b"\xff\xd9",
        "first_bytes_of_scan": data[: start + 16] + b"\xff\xd9",
        "zeroed_scan": bytes(zeroed),
    }


def test_a_jpeg_with_missing_scan_data_decodes_grey_without_error_and_the_full_check_finds_it(tmp_path):
    from chronotasks.data.loading import decode_problem, full_decode_problem

    photo = Image.radial_gradient("L").resize((320, 240)).convert("RGB")
    noise = np.random.default_rng(0).normal(128, 50, (120, 160, 3)).clip(0, 255).astype(np.uint8)
    photo.paste(Image.fromarray(noise), (80, 60))
    good = {}
    for name, options in {"baseline": {}, "progressive": {"progressive": True}, "no_subsampling": {"subsampling": 0}}.items():
        buffer = io.BytesIO()
        photo.save(buffer, format="JPEG", quality=90, **options)
        good[name] = buffer.getvalue()
    dqt = good["baseline"].index(b"\xff\xdb")  # stray bytes before a header marker: harmless, decodes whole
    good["stray_header_bytes"] = good["baseline"][:dqt] + b"\x00\x00" + good["baseline"][dqt:]
    good["png"] = _png(photo)  # not a JPEG: PIL's decode alone decides
    for name, data in {**good, **_broken_jpegs(good["baseline"])}.items():
        (tmp_path / f"{name}.jpg").write_bytes(data)
    for name in good:
        assert full_decode_problem(str(tmp_path / f"{name}.jpg")) is None, name
    for name in _broken_jpegs(good["baseline"]):
        path = str(tmp_path / f"{name}.jpg")
        assert decode_problem(path) is None, name  # PIL decodes it, no error ...
        pixels = np.asarray(open_image(path))
        if name != "zeroed_scan":  # ... its last rows one flat colour (lost bytes: garbage) ...
            assert (pixels[-16:] == pixels[-1, -1]).all(), name
        assert np.abs(pixels[-16:].astype(int) - np.asarray(photo)[-16:]).max() > 40, name  # ... not the photo's
        assert re.fullmatch(
            rf"image file {re.escape(path)} has missing or damaged JPEG scan data \(.+\): "
            r"parts decode as flat grey",
            full_decode_problem(path),
        ), name


def _png(image: Image.Image) -> bytes:
    buffer = io.BytesIO()
    image.save(buffer, format="PNG")
    return buffer.getvalue()


def test_check_data_names_the_records_of_jpegs_with_missing_scan_data(demo_root, tmp_path, monkeypatch, capsys):
    shutil.copytree(demo_root / "chronovision", tmp_path / "chronovision")
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    path = tmp_path / "chronovision" / "artifacts_loc.jsonl"
    assert main(["check-data", "chronovision_artifacts_loc"]) == 0
    records = [json.loads(line) for line in path.read_text().splitlines()]
    uses = Counter(image for record in records for image in record["images"])
    lines = [n for n, record in enumerate(records, start=1) if uses[record["images"][0]] == 1][:4]
    for line, data in zip(lines, _broken_jpegs((path.parent / records[lines[0] - 1]["images"][0]).read_bytes()).values()):
        (path.parent / records[line - 1]["images"][0]).write_bytes(data)
    capsys.readouterr()
    assert main(["check-data", "chronovision_artifacts_loc"]) == 1
    out = capsys.readouterr().out
    found = re.findall(
        rf"{re.escape(str(path))}:(\d+): record '([^']+)', field 'images'\[0\]: image file \S+ has missing or "
        r"damaged JPEG scan data",
        out,
    )
    assert found == [(str(line), records[line - 1]["id"]) for line in lines], out


def test_check_data_names_the_file_line_of_a_variant_or_retrieval_record_with_a_bad_image(demo_root, tmp_path, monkeypatch, capsys):
    """A circular variant's documents come from its base task's records; a retrieval task's hook adds
    corpus paths: their image problems are named by the record's file and line all the same."""
    for benchmark in ("chrono_demo", "musebench"):
        shutil.copytree(demo_root / benchmark, tmp_path / benchmark)
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    for file, line in (("chrono_demo/period.jsonl", 3), ("musebench/retrieval_i2t_structural.jsonl", 5)):
        record = json.loads((tmp_path / file).read_text().splitlines()[line - 1])
        (tmp_path / file).parent.joinpath(record["images"][0]).unlink()
    assert main(["check-data", "chrono_demo_period_circular", "musebench_retrieval_structural_i2t"]) == 1
    out = capsys.readouterr().out
    rotations = re.findall(
        rf"{re.escape(str(tmp_path / 'chrono_demo/period.jsonl'))}:3: record 'demo-period-002@r(\d)', "
        r"field 'images'\[0\]: image file \S+ does not exist",
        out,
    )
    assert rotations == ["0", "1", "2", "3"]
    assert re.search(
        rf"{re.escape(str(tmp_path / 'musebench/retrieval_i2t_structural.jsonl'))}:5: record '[^']+', "
        r"field 'images'\[0\]: image file \S+ does not exist",
        out,
    )


@pytest.mark.slow
def test_lmms_eval_run_survives_a_missing_and_a_truncated_image(demo_root, tmp_path, lmms_eval_runner):
    """The real launcher with a baseline that opens the images (grayscale prior, pair questions) and
    one that never does (random, period questions): the run finishes, both samples are scored wrong
    and counted in image_failure."""
    shutil.copytree(demo_root / "chrono_demo", tmp_path / "data" / "chrono_demo")
    images = tmp_path / "data" / "chrono_demo" / "images"
    (images / "period_003.png").unlink()
    data = (images / "pair_005_2.png").read_bytes()
    (images / "pair_005_2.png").write_bytes(data[: len(data) // 2])
    out = tmp_path / "out"
    results = lmms_eval_runner(
        "--model", "chrono_grayscale_prior", "--tasks", "chrono_demo", "--log_samples", data_root=tmp_path / "data", output_path=out
    )["results"]
    assert results["chrono_demo_period"]["image_failure,none"] == pytest.approx(1 / 40)
    assert results["chrono_demo_pair"]["image_failure,none"] == pytest.approx(1 / 40)
    assert results["chrono_demo"]["image_failure,none"] == pytest.approx(2 / 80)
    samples = {}
    for path in out.rglob("*_samples_*.jsonl"):
        task = path.stem.rsplit("_samples_", 1)[1]
        for line in path.read_text().splitlines():
            sample = json.loads(line)
            samples[(task, sample["doc_id"])] = sample
    for key in (("chrono_demo_period", 3), ("chrono_demo_pair", 5)):  # period_003.png, pair_005_2.png
        assert (samples[key]["image_failure"], samples[key]["accuracy"], samples[key]["parse_failure"]) == (1.0, 0.0, 0.0)
    assert len(samples) == 80 and sum(s["image_failure"] for s in samples.values()) == 2


def test_variants_score_and_count_a_failed_image_like_their_base_tasks(demo_root, tmp_path, monkeypatch):
    """Circular and gray variants: a missing image is a placeholder for the model and a counted image
    failure in scoring (no exception, no choice counted for position bias)."""
    from chronotasks.tasks.tabvlm.circular import utils as circular
    from chronotasks.tasks.tabvlm.gray import utils as gray

    shutil.copytree(demo_root / "tabvlm", tmp_path / "tabvlm")
    monkeypatch.setenv("CHRONOTASKS_DATA", str(tmp_path))
    monkeypatch.setenv("CHRONOVISION_GRAY_CACHE", str(tmp_path / "gray_cache"))
    doc = circular.style_period_docs(None)[0]
    (tmp_path / "tabvlm" / "images" / doc["images"][0].rsplit("/", 1)[1]).unlink()
    loading._image_status.clear()
    visuals = gray.doc_to_visual(doc)
    assert visuals[0].size == loading.PLACEHOLDER_SIZE
    scored = circular.process_results(doc, [f"The answer is {doc['answer']}."])
    assert (scored["accuracy"], scored["parse_failure"], scored["image_failure"]) == (0.0, 0.0, 1.0)
    assert scored["circular_accuracy"]["choice"] is None
