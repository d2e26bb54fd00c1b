"""`chronotasks prepare tabvlm` with no --source: the release JSON (pinned commit, SHA-256) and every
artifact image come from a local server standing in for GitHub and the museum site. An
interrupted run resumes without downloading again; an unreachable image host is found once."""

import hashlib
import io
import json
import os
import signal
import subprocess
import sys
import time
import urllib.parse
from collections import Counter

import pytest
from PIL import Image
from release_server import ReleaseServer

from chronotasks.benchmarks.tabvlm.prepare import RELEASE
from chronotasks.benchmarks.tabvlm.schema import TASK_TYPES, artifacts_of
from chronotasks.cli import main
from chronotasks.data.loading import read_jsonl

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _jpeg(name: str) -> bytes:
    shade = hashlib.sha1(name.encode()).digest()
    buffer = io.BytesIO()
    Image.new("RGB", (12, 12), tuple(shade[:3])).save(buffer, format="JPEG")
    return buffer.getvalue()


@pytest.fixture
def museum(seed_data, tmp_path, monkeypatch):
    """The release on "github.com" and every image_url on "museumsofindia.gov.in", served locally."""
    monkeypatch.setenv("CHRONOTASKS_HOME", str(tmp_path / "home"))
    served = ReleaseServer()
    served.add_release(RELEASE, seed_data / "tabvlm")
    questions = json.loads((seed_data / "tabvlm" / "temporal_anomaly_benchmark.json").read_text())["questions"]
    images = set()
    for question in questions:
        for artifact in artifacts_of(question):
            url = urllib.parse.urlsplit(artifact["image_url"])
            path = f"/{url.netloc}{urllib.parse.unquote(url.path)}"
            served.files[path] = _jpeg(path)
            images.add(path)
    served.start()
    yield served, images
    served.stop()


def _image_hits(served, images):
    return Counter({path: served.hits[path] for path in images if served.hits[path]})


@pytest.mark.slow
def test_fetch_is_interrupted_then_resumes_without_downloading_again(museum, tmp_path):
    served, images = museum
    out = tmp_path / "data" / "tabvlm"
    served.delay = 0.005
    env = {**os.environ, "PYTHONPATH": REPO, "CHRONOTASKS_PROGRESS_SECONDS": "1"}
    command = [sys.executable, "-m", "chronotasks.cli", "prepare", "tabvlm", "--mirror", served.url, "--out", str(out)]
    first = subprocess.Popen(command, env=env, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.monotonic() + 120
    while len(_image_hits(served, images)) < 150 and time.monotonic() < deadline and first.poll() is None:
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)  # as a power cut: no clean-up at all
    first.wait()
    before = _image_hits(served, images)
    assert 150 <= len(before) < len(images)
    assert not (out / "sequence.jsonl").exists()  # task files are written only at the end

    served.delay = 0
    assert main(["prepare", "tabvlm", "--mirror", served.url, "--out", str(out)]) == 0
    after = _image_hits(served, images)
    assert set(after) == images  # every artifact image, once ...
    assert sum(after.values()) - len(images) <= 1  # ... except at most the one in flight at the kill
    assert served.hits[f"/github.com/{RELEASE.repository}/raw/{RELEASE.commit}/data/temporal_anomaly_benchmark.json"] == 1
    records = {t.file: read_jsonl(out / t.file) for t in TASK_TYPES}
    assert {name: len(rows) for name, rows in records.items()} == {t.file: 100 for t in TASK_TYPES}
    report = json.loads((out / "prepare_report.json").read_text())
    assert report["verified"] == [
        f"verified: {tmp_path / 'home' / 'downloads' / 'tabvlm' / RELEASE.commit[:12] / 'data' / 'temporal_anomaly_benchmark.json'}"
    ]
    assert report["count_differences"] == [] and report["dropped"] == []


def test_unreachable_image_host_is_found_once_and_nothing_is_written(release_excerpts, tmp_path, capsys):
    out = tmp_path / "tabvlm"
    start = time.monotonic()
    code = main(["prepare", "tabvlm", "--source", str(release_excerpts / "tabvlm"), "--out", str(out), "--mirror", "http://127.0.0.1:9"])
    elapsed = time.monotonic() - start
    captured = capsys.readouterr()
    assert code == 1 and elapsed < 60  # was ~6.7 s of retries per artifact, ~55 min in all
    assert captured.out.count("no network: cannot reach 127.0.0.1:9") == 1
    assert "could not be downloaded because their host could not be reached" in captured.err
    assert "task files were not written" in captured.err
    assert not any(out.glob("*.jsonl"))
    # the message named "kept in OUT/images", a folder that did not exist; now it says
    # what happened and what to do, naming only folders that exist
    assert not (out / "images").exists()
    assert "no image was found or downloaded" in captured.err and "kept in" not in captured.err
    assert "give --images DIR: a folder with the release's image files" in captured.err
