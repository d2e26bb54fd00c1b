"""`chronotasks prepare tabvlm` on the real release file (the whole copy in $CHRONOTASKS_SEED_DATA)
with locally generated stand-in images, plus every way an image can be
missing: found under its alt_image_url name, downloaded (after a 503) from a
local HTTP server, corrupt locally and 404 remotely, gone entirely. Then the
real lmms-eval launcher runs the group on the prepared folder."""

import http.server
import json
import threading
from collections import Counter
from pathlib import Path

import pytest
from PIL import Image

from chronotasks.benchmarks.tabvlm.prepare import image_name
from chronotasks.benchmarks.tabvlm.schema import TASK_TYPES, artifacts_of
from chronotasks.cli import main
from chronotasks.data.fetch import Downloader

RELEASE = "tabvlm/temporal_anomaly_benchmark.json"


class _Handler(http.server.BaseHTTPRequestHandler):
    hits: Counter = Counter()
    payload = b""

    def do_GET(self):
        _Handler.hits[self.path] += 1
        if self.path.startswith("/flaky/") and _Handler.hits[self.path] == 1:
            self.send_response(503)
            self.end_headers()
            return
        if self.path.startswith(("/flaky/", "/ok/")):
            self.send_response(200)
            self.send_header("Content-Type", "image/jpeg")
            self.send_header("Content-Length", str(len(_Handler.payload)))
            self.end_headers()
            self.wfile.write(_Handler.payload)
            return
        self.send_response(404)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    jpeg = tmp_path_factory.mktemp("payload") / "p.jpg"
    Image.new("RGB", (16, 16), (200, 120, 40)).save(jpeg, format="JPEG")
    _Handler.payload = jpeg.read_bytes()
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def _unique_first_artifact(questions, qtype, counts, untied=False):
    for q in questions:
        if q["question_type"] != qtype:
            continue
        if untied and len({a["metadata"]["simplified_period"] for a in q["artifacts"]}) < 4:
            continue
        art = artifacts_of(q)[0]
        if counts[image_name(art["image_url"])] == 1 and art.get("alt_image_url"):
            return q, art
    raise AssertionError(f"no suitable {qtype} question")


@pytest.fixture(scope="module")
def prepared(seed_data, server, tmp_path_factory):
    release = json.loads((seed_data / RELEASE).read_text())
    questions = release["questions"]
    assert len(questions) == 600
    work = tmp_path_factory.mktemp("tabvlm_prepare")
    images = work / "downloaded"
    images.mkdir()
    counts = Counter(image_name(a["image_url"]) for q in questions for a in artifacts_of(q))
    for name in counts:  # stand-in images under the release's own file names
        Image.new("RGB", (24, 24), (len(name) * 7 % 255, 90, 160)).save(images / name, format="JPEG")
    q_alt, art = _unique_first_artifact(questions, "style_period_attribution", counts)
    (images / image_name(art["image_url"])).rename(images / image_name(art["alt_image_url"]))
    q_dl, art = _unique_first_artifact(questions, "material_availability", counts)
    (images / image_name(art["image_url"])).unlink()
    art["image_url"] = f"{server}/flaky/{image_name(art['image_url'])}"
    art["alt_image_url"] = f"{server}/missing/{image_name(art['alt_image_url'])}"
    q_bad, art = _unique_first_artifact(questions, "period_grouping", counts)
    (images / image_name(art["image_url"])).write_bytes(b"<html>not an image</html>")
    art["image_url"], art["alt_image_url"] = (f"{server}/missing/{image_name(art[k])}" for k in ("image_url", "alt_image_url"))
    q_gone, art = _unique_first_artifact(questions, "chronological_sequence", counts, untied=True)
    (images / image_name(art["image_url"])).unlink()
    art["image_url"], art["alt_image_url"] = (f"{server}/missing/{image_name(art[k])}" for k in ("image_url", "alt_image_url"))
    broken = json.loads(json.dumps(q_alt))
    broken.update(question_id="broken_1", correct_index=7)
    questions.append(broken)
    source = work / "release.json"
    source.write_text(json.dumps(release))
    return {
        "work": work,
        "source": source,
        "images": images,
        "out": work / "data" / "tabvlm",
        "ids": {"alt": q_alt["question_id"], "dl": q_dl["question_id"], "bad": q_bad["question_id"], "gone": q_gone["question_id"]},
    }


def test_prepare_real_release_reports_counts_and_drops(prepared, capsys):
    out, ids = prepared["out"], prepared["ids"]
    code = main(
        [
            "prepare",
            "tabvlm",
            "--source",
            str(prepared["source"]),
            "--out",
            str(out),
            "--images",
            str(prepared["images"]),
            "--retries",
            "3",
            "--backoff",
            "0.01",
            "--timeout",
            "5",
        ]
    )
    printed = capsys.readouterr().out
    assert code == 0
    assert "kept 598 of 601 questions (3 dropped)" in printed
    for qtype, kept in (
        ("style_period_attribution", 100),
        ("chronological_sequence", 99),
        ("manufacturing_technique", 100),
        ("material_availability", 100),
        ("period_grouping", 99),
        ("odd_one_out_period", 100),
    ):
        assert f"| {qtype} | {kept} |" in printed
    report = json.loads((out / "prepare_report.json").read_text())
    dropped = {d["id"]: d["reason"] for d in report["dropped"]}
    assert set(dropped) == {ids["bad"], ids["gone"], "broken_1"}
    assert "unreadable" in dropped[ids["bad"]] and "HTTP 404" in dropped[ids["bad"]]
    assert "HTTP 404" in dropped[ids["gone"]] and "artifact 0 (A)" in dropped[ids["gone"]]
    assert "correct_index" in dropped["broken_1"]
    assert _Handler.hits[f"/flaky/{Path(_flaky_path(prepared)).name}"] == 2  # one 503, then the retry succeeded
    records = {t.file: [json.loads(line) for line in (out / t.file).read_text().splitlines()] for t in TASK_TYPES}
    assert sum(map(len, records.values())) == 598
    by_id = {r["id"]: r for rows in records.values() for r in rows}
    assert (out / by_id[ids["dl"]]["images"][0]).is_file()
    assert by_id[ids["alt"]]["images"][0].endswith("_02_h.jpg")  # the alt image stood in
    sequence = records["sequence.jsonl"]
    assert sum(len(set(r["period_ranks"])) < 4 for r in sequence) == 27  # 27 of the release's 100 have ties
    first = by_id["chronological_ordering_3"]
    assert first["answer"] == ["B", "D", "A", "C"] and first["period_ranks"] == [3, 0, 7, 2]
    style = Counter(r["period"] for r in records["style_period.jsonl"])
    assert sorted(style.values(), reverse=True) == [21, 21, 17, 13, 9, 7, 6, 6]  # Table 9 counts
    # a rerun without --images and without downloads resumes from OUT/images
    assert main(["prepare", "tabvlm", "--source", str(prepared["source"]), "--out", str(out), "--no-download"]) == 0
    assert "kept 598 of 601" in capsys.readouterr().out
    # a --images folder holding none of the images is an error, not passed over for OUT/images
    wrong = prepared["work"] / "wrong_images"
    (wrong / "photos").mkdir(parents=True)
    before = (out / "style_period.jsonl").stat().st_mtime_ns
    assert main(["prepare", "tabvlm", "--source", str(prepared["source"]), "--out", str(out), "--no-download", "--images", str(wrong)]) == 1
    err = capsys.readouterr().err
    assert f"--images {wrong}: none of the release's images is there" in err and "found: photos/" in err
    assert err.count("\n") == 1 and (out / "style_period.jsonl").stat().st_mtime_ns == before


def _flaky_path(prepared):
    release = json.loads(prepared["source"].read_text())
    q = next(q for q in release["questions"] if q["question_id"] == prepared["ids"]["dl"])
    return q["artifact"]["image_url"]


def test_download_gives_up_on_404_retries_5xx_and_finds_an_unreachable_host_once(server, tmp_path):
    waits, unreachable = [], []
    downloader = Downloader(retries=3, backoff=0.5, sleep=waits.append, on_unreachable=lambda host, why: unreachable.append(host))
    assert downloader.get(f"{server}/missing/x.jpg", tmp_path / "x.jpg") == "HTTP 404"
    assert waits == [] and not (tmp_path / "x.jpg").exists()
    assert downloader.get(f"{server}/flaky/y.jpg", tmp_path / "y.jpg") is None
    assert waits == [0.5] and (tmp_path / "y.jpg").read_bytes() == _Handler.payload
    closed = "http://127.0.0.1:9/none.jpg"  # discard port: connection refused, found once, never retried
    first = downloader.get(closed, tmp_path / "z.jpg")
    second = downloader.get("http://127.0.0.1:9/other.jpg", tmp_path / "w.jpg")
    assert first.startswith("skipped: cannot reach 127.0.0.1:9 (ConnectionRefusedError") and second == first
    assert unreachable == ["127.0.0.1:9"] and waits == [0.5]


@pytest.mark.slow
def test_lmms_eval_random_on_prepared_release(prepared, lmms_eval_run):
    if not (prepared["out"] / "sequence.jsonl").exists():  # when run on its own
        assert (
            main(
                [
                    "prepare",
                    "tabvlm",
                    "--source",
                    str(prepared["source"]),
                    "--out",
                    str(prepared["out"]),
                    "--images",
                    str(prepared["images"]),
                    "--backoff",
                    "0.01",
                ]
            )
            == 0
        )
    data = lmms_eval_run("--model", "chrono_random", "--tasks", "tabvlm_chrono", data_root=prepared["out"].parent)
    results = data["results"]
    for task_type in TASK_TYPES:
        assert results[task_type.task]["parse_failure,none"] == 0.0
        assert 0.0 <= results[task_type.task]["accuracy,none"] <= 0.6
    assert results["tabvlm_sequence"]["tied_questions,none"] == 27
    assert results["tabvlm_chrono"]["accuracy,none"] == pytest.approx(sum(results[t.task]["accuracy,none"] for t in TASK_TYPES) / 6)
