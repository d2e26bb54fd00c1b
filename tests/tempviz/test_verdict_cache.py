"""The judges' verdict cache serves a verdict only for the image and judge it was made for: keyed by
the image's bytes (a same-size replacement with its mtime put back is judged again) and by the judge
model as it resolves (a hub cache whose refs/main moves is another cache); damaged lines are named once,
dropped and judged again."""

import json
import logging
import os

import pytest

from chronotasks.benchmarks.tempviz.judges import JudgeConfig
from chronotasks.benchmarks.tempviz.judging import VerdictCache, verdict_settings
from chronotasks.data import cache_files

SETTINGS = {"judge": "clipscore", "threshold": 0.2, "version": 2, "model": "m"}


def _item(path):
    return {"image": str(path), "prompt": "a fox in winter", "prompt_body": "a fox", "temporal_cue": "winter"}


def test_an_image_replaced_with_the_same_size_and_mtime_gets_another_key(tmp_path):
    path = tmp_path / "img.png"
    path.write_bytes(b"A" * 100)
    before = VerdictCache.key(_item(path))
    stat = os.stat(path)
    path.write_bytes(b"B" * 100)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert VerdictCache.key(_item(path)) != before
    (tmp_path / "copy.png").write_bytes(b"B" * 100)
    assert VerdictCache.key(_item(tmp_path / "copy.png")) == VerdictCache.key(_item(path))  # the bytes, not the name
    with pytest.raises(OSError):
        VerdictCache.key(_item(tmp_path / "missing.png"))


def test_damaged_lines_are_named_once_dropped_and_judged_again(tmp_path, caplog):
    cache = VerdictCache(tmp_path, SETTINGS)
    for n in range(4):
        cache.put(f"k{n}", {"accept": n % 2 == 0, "score": n / 10})
    cache.flush()
    lines = cache.path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines[0] = lines[0].replace('"score": 0.0', '"score": 0.9')  # an edited value
    lines[1] = json.dumps({"key": "k1", "verdict": {"accept": True}}) + "\n"  # unsealed
    lines[3] = lines[3][:25]  # torn by a crash
    cache.path.write_text("".join(lines), encoding="utf-8")
    caplog.set_level(logging.WARNING, logger="chronotasks")
    again = VerdictCache(tmp_path, SETTINGS)
    assert again.entries == {"k2": {"accept": True, "score": 0.2}}
    assert [r.getMessage().split()[2] for r in caplog.records if "is damaged" in r.getMessage()] == [str(cache.path)]
    assert "3 line(s)" in caplog.records[-1].getMessage()
    caplog.clear()
    assert VerdictCache(tmp_path, SETTINGS).entries == again.entries and not caplog.records  # rewritten without them


def test_a_hub_judge_model_is_keyed_by_the_revision_its_cache_resolves_to(tmp_path, monkeypatch):
    import huggingface_hub

    hub = tmp_path / "hub"
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(hub))
    folder = hub / "models--org--clip"
    for revision, weights in (("1" * 40, b"old"), ("2" * 40, b"new")):
        blob = folder / "blobs" / cache_files.sha256_hex(weights)
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes(weights)
        snapshot = folder / "snapshots" / revision
        snapshot.mkdir(parents=True)
        (snapshot / "model.safetensors").symlink_to(os.path.relpath(blob, snapshot))
    (folder / "refs").mkdir()
    config = JudgeConfig.from_mapping({"judge": "clipscore", "judge_model": "org/clip"})
    keys = []
    for revision in ("1" * 40, "2" * 40, "1" * 40):
        (folder / "refs" / "main").write_text(revision)
        keys.append(verdict_settings(config)["model"])
    assert keys[0] != keys[1] and keys[0] == keys[2]
