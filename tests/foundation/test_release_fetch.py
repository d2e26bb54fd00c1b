"""`chronotasks prepare` fetching a published release, against a local HTTP server serving a copy
of it (the whole release files of $CHRONOTASKS_SEED_DATA, at the URLs the release pins): checksums,
a dropped connection resumed with Range, a corrupt file, no network found once."""

import time

import pytest
from release_server import ReleaseServer

from chronotasks.benchmarks.tempviz.prepare import RELEASE as TEMPVIZ
from chronotasks.cli import main
from chronotasks.data.fetch import Downloader, DownloadError, sha256_of
from chronotasks.data.loading import read_jsonl
from chronotasks.data.progress import Progress

CSV = f"/github.com/{TEMPVIZ.repository}/raw/{TEMPVIZ.commit}/data/tempviz/Animals.csv"


@pytest.fixture
def server(seed_data, tmp_path, monkeypatch):
    monkeypatch.setenv("CHRONOTASKS_HOME", str(tmp_path / "home"))  # an empty download cache per test
    served = ReleaseServer()
    served.add_release(TEMPVIZ, seed_data / "tempviz")
    served.start()
    yield served
    served.stop()


def _prepare_tempviz(server, out, *extra):
    return main(["prepare", "tempviz", "--mirror", server.url, "--out", str(out), "--backoff", "0.01", *extra])


def test_fetch_verifies_every_file_and_a_rerun_downloads_nothing(server, tmp_path, capsys):
    assert _prepare_tempviz(server, tmp_path / "tv") == 0
    printed = capsys.readouterr().out
    assert printed.count("verified: ") == len(TEMPVIZ.files) == 9
    assert "DIFFERS" not in printed
    counts = {
        name: len(read_jsonl(tmp_path / "tv" / name))
        for name in ("landscapes.jsonl", "animals.jsonl", "buildings.jsonl", "maps.jsonl", "artworks.jsonl")
    }
    assert sum(counts.values()) == 7940 and counts["animals.jsonl"] == 2848  # Table 1 x 4 paraphrases
    assert (tmp_path / "tv" / "release" / "eval_annotations" / "annotator_1.xlsx").is_file()
    assert "chronotasks metaeval tempviz --annotations" in printed
    hits = sum(server.hits.values())
    assert hits == 9
    assert _prepare_tempviz(server, tmp_path / "tv2") == 0  # the verified download cache is reused
    assert sum(server.hits.values()) == hits


def test_a_dropped_connection_resumes_where_it_stopped(server, tmp_path):
    server.drop[CSV] = 1
    size = len(server.files[CSV])
    downloader = Downloader(retries=3, backoff=0.01)
    target = tmp_path / "Animals.csv"
    downloader.fetch(f"{server.url}{CSV}", target, TEMPVIZ.files["data/tempviz/Animals.csv"])
    assert server.hits[CSV] == 2
    ((path, header),) = server.ranges  # the second request asked only for the bytes not yet on disk
    start = int(header.removeprefix("bytes=").removesuffix("-"))
    assert path == CSV and 0 < start <= size // 2
    assert sha256_of(target) == TEMPVIZ.files["data/tempviz/Animals.csv"]


def test_a_corrupt_download_is_fetched_again_once_then_refused(server, tmp_path, capsys):
    server.corrupt[CSV] = 1
    assert _prepare_tempviz(server, tmp_path / "once") == 0
    assert server.hits[CSV] == 2

    server.corrupt[CSV] = -1  # always corrupt (e.g. a proxy rewriting it)
    home_copy = tmp_path / "corrupt.csv"
    with pytest.raises(DownloadError, match="does not match the published file"):
        Downloader(backoff=0.01).fetch(f"{server.url}{CSV}", home_copy, TEMPVIZ.files["data/tempviz/Animals.csv"])
    assert not home_copy.exists() and (tmp_path / "corrupt.csv.corrupt").is_file()


def test_no_network_is_found_once_and_fails_fast_without_writing(tmp_path, capsys):
    start = time.monotonic()
    code = main(["prepare", "tempviz", "--mirror", "http://127.0.0.1:9", "--out", str(tmp_path / "tv")])
    elapsed = time.monotonic() - start
    err = capsys.readouterr().err
    assert code == 1 and elapsed < 15
    assert err.count("cannot reach 127.0.0.1:9") == 1 and "No network?" in err
    assert "--source DIR" in err and "\n" == err[-1] and err.count("\n") == 1
    assert not (tmp_path / "tv").exists()


def test_progress_prints_periodic_lines_when_not_a_terminal(tmp_path):
    log = (tmp_path / "log.txt").open("w+")
    with Progress(total=4, desc="files", unit="file", file=log, interval=0) as bar:
        for _ in range(4):
            bar.update(note="x.csv")
    log.seek(0)
    lines = log.read().splitlines()
    assert lines[0].startswith("files: 1/4 file (25%)") and "left [x.csv]" in lines[0]
    assert lines[-1].startswith("files: 4/4 file (100%)") and lines[-1].endswith("(done)")
    assert len(lines) == 5 and "\r" not in "".join(lines)


def test_prepare_all_runs_every_public_benchmark_and_reports_each(seed_data, tmp_path, capsys):
    """Offline copies for all three (the seed-data root holds tabvlm/, chronovision/, tempviz/); the
    images TAB-VLM and ChronoVision need are "downloaded" from an unreachable mirror, so those two fail
    cleanly and TempViz is prepared; the exit status says that not everything was."""
    code = main(["prepare", "all", "--source", str(seed_data), "--out-root", str(tmp_path / "data"), "--mirror", "http://127.0.0.1:9"])
    out = capsys.readouterr().out
    assert code == 1
    assert "prepared: tempviz; FAILED: tabvlm, chronovision" in out
    assert "MuseBench's data is not public" in out
    assert len(read_jsonl(tmp_path / "data" / "tempviz" / "maps.jsonl")) == 1024
    assert not list((tmp_path / "data").glob("tabvlm/*.jsonl")) and not (tmp_path / "data" / "chronovision").exists()
