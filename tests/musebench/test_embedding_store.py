"""chrono_embed's item store (model_shims/embedding_store.py): one vector per image or text under a
model, encoded once, kept on disk in whole, checked shards, keyed by an image's bytes so that a changed
file is encoded anew; a damaged shard is named, dropped and encoded again."""

import json
import logging
import os
import shutil
import time

import numpy as np
import pytest

from chronotasks.data import cache_files
from chronotasks.model_shims import embedding_store
from chronotasks.model_shims.embedding_store import EmbeddingStore, text_key


class Encoder:
    """Stands for the model: item n's vector is (n, n+1, n+2) scaled by a per-encoder offset; remembers what it was asked."""

    def __init__(self, items):
        self.items, self.asked = items, []

    def __call__(self, positions):
        self.asked.append(list(positions))
        return np.array([[self.items[p], self.items[p] + 1, self.items[p] + 2] for p in positions], np.float32)


def test_each_key_is_encoded_once_in_a_call_and_across_calls(tmp_path):
    store = EmbeddingStore(tmp_path / "m")
    keys = ["a", "b", "a", "c", "b"]
    encoder = Encoder([10, 20, 10, 30, 20])
    out = store.vectors("text", keys, encoder)
    assert encoder.asked == [[0, 1, 3]]  # one item per distinct key
    assert out[:, 0].tolist() == [10, 20, 10, 30, 20]
    again = Encoder([99] * 4)
    assert store.vectors("text", ["c", "a", "d", "b"], again)[:, 0].tolist() == [30, 10, 99, 20]
    assert again.asked == [[2]]
    assert (store.requested["text"], store.encoded["text"]) == (9, 4)
    assert store.summary() == "texts encoded 4 of 9 requested"


def test_a_rerun_reads_every_whole_shard_and_skips_a_partial_one(tmp_path):
    store = EmbeddingStore(tmp_path / "m", flush_every=2)
    store.vectors("image", ["a", "b"], Encoder([1, 2]))  # two new vectors: written at once
    assert len(list((tmp_path / "m").iterdir())) == 2
    store.vectors("image", ["c"], Encoder([3]))  # one: kept until the next flush
    store.flush()
    shards = sorted(p.name for p in (tmp_path / "m").iterdir())
    assert len(shards) == 4 and not any(name.startswith(".") for name in shards)
    (tmp_path / "m" / "0000.keys.json").write_text('["d"]')  # a writer that has not written its vectors yet
    rerun = EmbeddingStore(tmp_path / "m")
    encoder = Encoder([7, 8, 9, 4])
    assert rerun.vectors("image", ["c", "b", "a", "d"], encoder)[:, 0].tolist() == [3, 2, 1, 4]
    assert encoder.asked == [[3]] and len(rerun) == 4


def test_items_that_cannot_be_keyed_are_encoded_every_time_and_not_stored(tmp_path):
    store = EmbeddingStore(tmp_path / "m")
    encoder = Encoder([5, 6, 7])
    assert store.vectors("image", [None, "x", None], encoder)[:, 0].tolist() == [5, 6, 7]
    assert store.vectors("image", [None], Encoder([8]))[:, 0].tolist() == [8]
    assert len(store) == 1 and store.encoded["image"] == 4
    only_unkeyed = EmbeddingStore(tmp_path / "n")
    assert only_unkeyed.vectors("image", [None, None], Encoder([1, 2]))[:, 0].tolist() == [1, 2]


def test_an_encoder_that_returns_too_few_vectors_is_an_error(tmp_path):
    with pytest.raises(ValueError, match="2 vectors for 3 items"):
        EmbeddingStore(tmp_path / "m").vectors("text", ["a", "b", "c"], lambda positions: np.zeros((2, 3)))


def _replace_keeping_size_and_times(path, content: bytes) -> None:
    """What ``cp -p`` / ``rsync -t`` / ``touch -r`` leave: other bytes of the same size, the old mtime."""
    stat = os.stat(path)
    assert len(content) == stat.st_size
    with open(path, "r+b") as handle:
        handle.write(content)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == stat.st_mtime_ns and os.stat(path).st_size == stat.st_size


def test_an_image_is_keyed_by_its_bytes_and_a_same_size_same_mtime_replacement_is_encoded_anew(tmp_path, monkeypatch):
    """A settled file is known by its signature in a later run (no read); the same file replaced by
    other bytes of the same size with its mtime put back is read, hashed and encoded again."""
    monkeypatch.setattr(cache_files, "SETTLE_SECONDS", 0.2)
    path = tmp_path / "view.png"
    path.write_bytes(b"A" * 64)
    twin = tmp_path / "twin.png"
    twin.write_bytes(b"A" * 64)
    time.sleep(0.3)
    store = EmbeddingStore(tmp_path / "m", dim=3)
    key = store.image_key(str(path))
    assert key == store.image_key(str(twin)) == "image:" + cache_files.sha256_hex(b"A" * 64)  # same bytes, same key
    store.vectors("image", [key], Encoder([1]))
    store.flush()

    cache_files._digests.clear()  # a new process
    monkeypatch.setattr(embedding_store, "file_digest", lambda *a: pytest.fail("a settled, known file was read"))
    assert EmbeddingStore(tmp_path / "m", dim=3).image_key(str(path)) == key
    monkeypatch.undo()

    _replace_keeping_size_and_times(path, b"B" * 64)
    cache_files._digests.clear()
    rerun = EmbeddingStore(tmp_path / "m", dim=3)
    new_key = rerun.image_key(str(path))
    assert new_key == "image:" + cache_files.sha256_hex(b"B" * 64) != key
    encoder = Encoder([2])
    assert rerun.vectors("image", [new_key], encoder)[:, 0].tolist() == [2] and encoder.asked == [[0]]
    assert rerun.image_key(str(tmp_path / "missing.png")) is None


def test_keys_change_with_the_text_window():
    assert text_key("青铜鼎", 77) == text_key("青铜鼎", 77) != text_key("青铜鼎", 52)


def test_a_placeholder_is_never_stored(tmp_path):
    """An item its loader could not open (encoded as the placeholder) is encoded again on every call
    and never written: the next run opens it again and counts it as a failure again."""
    store = EmbeddingStore(tmp_path / "m", dim=3)
    out = store.vectors("image", ["good", "bad", "bad"], Encoder([1, 5, 5]), failed=lambda n: n == 1)
    assert out[:, 0].tolist() == [1, 5, 5] and len(store) == 1
    again = Encoder([6, 9])
    assert store.vectors("image", ["bad", "good"], again, failed=lambda n: True)[:, 0].tolist() == [6, 1]
    assert again.asked == [[0]]
    store.flush()
    assert EmbeddingStore(tmp_path / "m", dim=3)._rows.keys() == {"good"}


KEYS = [f"text:{n}" for n in range(4)]


def _unit(rows):
    rows = np.asarray(rows, np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def _written_store(folder):
    """A store of one shard (KEYS, vectors (n+1, 1, 0) normalised) and its two files."""
    store = EmbeddingStore(folder, dim=3)
    store.vectors("text", KEYS, lambda positions: _unit([[p + 1, 1, 0] for p in positions]))
    store.flush()
    (keys_file,) = folder.glob("*.keys.json")
    return keys_file, keys_file.with_name(keys_file.name.replace(".keys.json", ".npy"))


def _npy_header_over_garbage(keys_file, npy):
    data = npy.read_bytes()
    header = len(data) - 4 * 3 * len(KEYS)
    npy.write_bytes(data[:header] + np.random.default_rng(0).bytes(len(data) - header))


def _flip_one_bit(keys_file, npy):
    data = bytearray(npy.read_bytes())
    data[-5] ^= 0x01
    npy.write_bytes(bytes(data))


def _nan_row(keys_file, npy):
    vectors = np.load(npy)
    vectors[2] = np.nan
    np.save(npy, vectors)


def _integer_zeros(keys_file, npy):
    np.save(npy, np.zeros((len(KEYS), 3), np.int64))


def _shuffled_keys(keys_file, npy):
    text = keys_file.read_text()
    keys_file.write_text(text.replace(json.dumps(KEYS)[1:-1], json.dumps(KEYS[::-1])[1:-1]))


def _second_shard_same_keys(keys_file, npy):
    """(The original shard stays whole: only the copy is damaged, and nothing is encoded again.)"""
    copy = keys_file.with_name("f" * 32 + ".keys.json")
    shutil.copy(keys_file, copy)
    np.save(keys_file.with_name("f" * 32 + ".npy"), _unit([[0, 1, n + 1] for n in range(len(KEYS))]))
    return copy


def _zero_byte_npy(keys_file, npy):
    npy.write_bytes(b"")


def _keys_a_number(keys_file, npy):
    keys_file.write_text("3")


def _keys_an_object(keys_file, npy):
    keys_file.write_text('{"a": 1}')


def _keys_truncated(keys_file, npy):
    keys_file.write_bytes(keys_file.read_bytes()[:-20])


def _npy_truncated(keys_file, npy):
    npy.write_bytes(npy.read_bytes()[:-7])


def _keys_of_an_earlier_format(keys_file, npy):
    keys_file.write_text(json.dumps(KEYS))


DAMAGE = [
    _npy_header_over_garbage,
    _flip_one_bit,
    _nan_row,
    _integer_zeros,
    _shuffled_keys,
    _second_shard_same_keys,
    _zero_byte_npy,
    _keys_a_number,
    _keys_an_object,
    _keys_truncated,
    _npy_truncated,
    _keys_of_an_earlier_format,
]


@pytest.mark.parametrize("damage", DAMAGE, ids=[d.__name__.strip("_") for d in DAMAGE])
def test_a_damaged_shard_is_named_once_dropped_and_encoded_again(tmp_path, caplog, damage):
    folder = tmp_path / "m"
    keys_file, npy = _written_store(folder)
    damaged_file = damage(keys_file, npy) or keys_file
    caplog.set_level(logging.WARNING, logger="chronotasks")
    rerun = EmbeddingStore(folder, dim=3)
    encoder_calls = []

    def encode(positions):
        encoder_calls.append(list(positions))
        return _unit([[p + 1, 1, 0] for p in positions])

    out = rerun.vectors("text", KEYS, encode)
    assert np.allclose(out, _unit([[p + 1, 1, 0] for p in range(len(KEYS))]))  # the fresh values
    assert encoder_calls == ([[0, 1, 2, 3]] if damaged_file == keys_file else [])
    damaged = [r.getMessage() for r in caplog.records if "is damaged" in r.getMessage()]
    named = {m.split()[2] for m in damaged}
    assert str(damaged_file) in named and len(damaged) == len(named), damaged  # each file named, once
    assert not damaged_file.exists()
    assert not damaged_file.with_name(damaged_file.name.replace(".keys.json", ".npy")).exists()
    rerun.flush()
    caplog.clear()
    third = EmbeddingStore(folder, dim=3)
    served = third.vectors("text", KEYS, lambda positions: pytest.fail("encoded again"))
    assert served[:, 0].tolist() == out[:, 0].tolist()
    assert not [r for r in caplog.records if "is damaged" in r.getMessage()]


def test_two_checked_shards_that_disagree_on_a_key_are_both_dropped(tmp_path, caplog):
    folder = tmp_path / "m"
    keys_file, npy = _written_store(folder)
    other = EmbeddingStore(tmp_path / "other", dim=3)
    other.vectors("text", KEYS[:1], lambda positions: _unit([[0, 0, 1]]))
    other.flush()
    for path in (tmp_path / "other").iterdir():
        shutil.move(path, folder / path.name)
    caplog.set_level(logging.WARNING, logger="chronotasks")
    rerun = EmbeddingStore(folder, dim=3)
    assert len(rerun) == 0 and list(folder.iterdir()) == []
    assert sum("another vector" in r.getMessage() for r in caplog.records) == 2


def test_a_shard_of_another_dimension_is_dropped(tmp_path, caplog):
    keys_file, npy = _written_store(tmp_path / "m")
    caplog.set_level(logging.WARNING, logger="chronotasks")
    assert len(EmbeddingStore(tmp_path / "m", dim=5)) == 0
    assert any(str(keys_file) in r.getMessage() and "dimension 5" in r.getMessage() for r in caplog.records)
    with pytest.raises(ValueError, match="dimension 3 added to a store of dimension 5"):
        EmbeddingStore(tmp_path / "n", dim=5).vectors("text", ["a"], lambda positions: np.ones((1, 3)))


def test_a_store_that_cannot_be_written_goes_on_in_memory_with_one_warning(tmp_path, caplog):
    """(The tests run as root, which writes through any mode: the folder sits under a regular file.)"""
    (tmp_path / "file").write_text("not a folder")
    caplog.set_level(logging.WARNING, logger="chronotasks")
    store = EmbeddingStore(tmp_path / "file" / "store", flush_every=1, dim=3)
    assert store.vectors("text", ["a", "b"], Encoder([1, 2]))[:, 0].tolist() == [1, 2]
    assert store.vectors("text", ["c", "a"], Encoder([3, 0]))[:, 0].tolist() == [3, 1]
    store.flush()
    assert [r.getMessage() for r in caplog.records if "cannot be written" in r.getMessage()] == [
        f"embedding store {tmp_path / 'file' / 'store'} cannot be written ([Errno 20] Not a directory: "
        f"'{tmp_path / 'file' / 'store'}'); this run keeps its vectors in memory"
    ]
