"""chrono_embed's item store (model_shims/embedding_store.py): one vector per image or text under a
model, encoded once, kept on disk in whole shards, keyed so that a changed file is encoded anew."""

import os

import numpy as np
import pytest

from chronotasks.model_shims.embedding_store import EmbeddingStore, file_key, text_key


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
    assert encoder.asked == [[0, 1, 3]]                      # one item per distinct key
    assert out[:, 0].tolist() == [10, 20, 10, 30, 20]
    again = Encoder([99] * 4)
    assert store.vectors("text", ["c", "a", "d", "b"], again)[:, 0].tolist() == [30, 10, 99, 20]
    assert again.asked == [[2]]
    assert (store.requested["text"], store.encoded["text"]) == (9, 4)
    assert store.summary() == "texts encoded 4 of 9 requested"


def test_a_rerun_reads_every_whole_shard_and_skips_a_partial_one(tmp_path):
    store = EmbeddingStore(tmp_path / "m", flush_every=2)
    store.vectors("image", ["a", "b"], Encoder([1, 2]))    # two new vectors: written at once
    assert len(list((tmp_path / "m").iterdir())) == 2
    store.vectors("image", ["c"], Encoder([3]))              # one: kept until the next flush
    store.flush()
    shards = sorted(p.name for p in (tmp_path / "m").iterdir())
    assert len(shards) == 4 and not any(name.startswith(".") for name in shards)
    (tmp_path / "m" / "0000.keys.json").write_text('["d"]')          # a writer that has not written its vectors yet
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


def test_keys_change_with_the_file_and_the_text_window(tmp_path):
    from PIL import Image

    path = tmp_path / "view.png"
    Image.new("RGB", (8, 8), (1, 2, 3)).save(path)
    before = file_key(str(path))
    assert before == file_key(str(path)) and str(path) in before
    Image.new("RGB", (8, 8), (9, 9, 9)).save(path)
    os.utime(path, ns=(1, 1))                     # rewritten in place: another time
    assert file_key(str(path)) != before
    assert file_key(str(tmp_path / "missing.png")) is None
    assert text_key("青铜鼎", 77) == text_key("青铜鼎", 77) != text_key("青铜鼎", 52)
