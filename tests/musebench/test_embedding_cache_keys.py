"""What ``chrono_embed`` takes from its embedding store is what a fresh store would give, in the cases a
user meets: an image replaced by another of the same size with its mtime put back, a hub model whose
cached revision moves (to weights of the same or of another dimension), an image that cannot be
opened (a counted failure in every task that uses it, on every run, never a stored placeholder)."""

import hashlib
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest
from lmms_eval.api.instance import Instance
from PIL import Image
from tiny_models import make_tiny_clip

from chronotasks.data import cache_files, loading
from chronotasks.data.loading import doc_images, write_jsonl

TEXTS = ["bronze ding, Shang dynasty", "jade bi disc", "blue-and-white porcelain vase, Ming", "celadon bowl, Song"]


@pytest.fixture(scope="module")
def clip_dir(tmp_path_factory):
    return make_tiny_clip(tmp_path_factory.mktemp("tiny-clip"))


def _view(path: Path, seed: int) -> None:
    """A 48 px view stored without compression: every view has the same byte size."""
    rng = np.random.default_rng(seed)
    path.parent.mkdir(parents=True, exist_ok=True)
    Image.fromarray(rng.integers(0, 256, (48, 48, 3), dtype=np.uint8)).save(path, compress_level=0)


@pytest.fixture
def corpus(tmp_path):
    root = tmp_path / "corpus"
    artifacts = [{"id": f"art{i}", "images": [f"img/art{i}_v{k}.png" for k in range(2)]} for i in range(len(TEXTS))]
    for i, artifact in enumerate(artifacts):
        for k, view in enumerate(artifact["images"]):
            _view(root / view, 10 * i + k)
    write_jsonl(root / "corpus_images.jsonl", artifacts)
    write_jsonl(root / "corpus_text.jsonl", [{"id": a["id"], "text": t} for a, t in zip(artifacts, TEXTS)])
    return root, artifacts


def _docs(root, artifacts):
    t2i = [
        {
            "id": f"t2i-{a['id']}",
            "artifact_id": a["id"],
            "museum_key": "palace",
            "query_text": text,
            "corpus": str(root / "corpus_images.jsonl"),
            "corpus_modality": "image",
            "corpus_root": str(root),
        }
        for a, text in zip(artifacts, TEXTS)
    ]
    i2t = [
        {
            "id": f"i2t-{a['id']}#{k}",
            "artifact_id": a["id"],
            "museum_key": "palace",
            "images": [str(root / v)],
            "corpus": str(root / "corpus_text.jsonl"),
            "corpus_modality": "text",
        }
        for a in artifacts
        for k, v in enumerate(a["images"])
    ]
    return t2i, i2t


def _run(clip_dir, cache, root, artifacts):
    """One run (a new process: a new model, nothing remembered but the store): replies and the model."""
    from chronotasks.model_shims.chrono_embed import ChronoEmbed

    cache_files._digests.clear()
    loading._image_status.clear()
    model = ChronoEmbed(pretrained=str(clip_dir), embed_batch_size=3, top_k=len(artifacts), cache_dir=str(cache))
    t2i, i2t = _docs(root, artifacts)
    model.task_dict.update({"t2i": {"test": t2i}, "i2t": {"test": i2t}})
    requests = [
        Instance(
            "generate_until",
            (d["query_text"], {}, lambda d: [], n, "t2i", "test"),
            idx=0,
            metadata={"task": "t2i", "doc_id": n, "repeats": 1},
        )
        for n, d in enumerate(t2i)
    ]
    requests += [
        Instance("generate_until", ("", {}, doc_images, n, "i2t", "test"), idx=0, metadata={"task": "i2t", "doc_id": n, "repeats": 1})
        for n, d in enumerate(i2t)
    ]
    return model.generate_until(requests), model, t2i + i2t


def test_a_same_size_replacement_with_its_mtime_restored_is_encoded_again(clip_dir, corpus, tmp_path):
    root, artifacts = corpus
    _run(clip_dir, tmp_path / "cache", root, artifacts)
    target, source = root / artifacts[0]["images"][0], root / artifacts[2]["images"][1]
    stat = os.stat(target)
    with open(target, "r+b") as handle:  # cp -p: other bytes, same size, the old times
        handle.write(source.read_bytes())
    os.utime(target, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert (os.stat(target).st_size, os.stat(target).st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)

    warm, model, _ = _run(clip_dir, tmp_path / "cache", root, artifacts)
    fresh, _, _ = _run(clip_dir, tmp_path / "fresh", root, artifacts)
    assert warm == fresh
    assert model.store.summary().startswith("images encoded 0 of")  # the new bytes are another view's: already stored
    assert model.store.image_key(str(target)) == model.store.image_key(str(source))


def _damaged_png(path: Path) -> None:
    """A PNG whose image data is garbage between a whole header and a whole ending (IEND)."""
    data = bytearray(path.read_bytes())
    data[60:-40] = np.random.default_rng(3).bytes(len(data) - 100)
    path.write_bytes(bytes(data))


def test_an_unreadable_view_is_an_image_failure_in_every_task_on_every_run(clip_dir, corpus, tmp_path):
    """The view is an image query of i2t and a view of the t2i image corpus: both its i2t query and the
    t2i query of its artifact count it in image_failure, on the first run and on a warm rerun; the
    placeholder's vector is never stored."""
    from chronotasks.tasks.musebench.utils import retrieval_process_results

    root, artifacts = corpus
    bad = root / artifacts[1]["images"][0]
    _damaged_png(bad)
    assert loading.header_problem(str(bad)) is None  # the cheap check alone would not see it
    views = sum(len(a["images"]) for a in artifacts)
    for run in ("cold", "warm"):
        replies, model, docs = _run(clip_dir, tmp_path / "cache", root, artifacts)
        failures = {d["id"]: retrieval_process_results(d, [r])["image_failure"] for d, r in zip(docs, replies)}
        assert {i for i, f in failures.items() if f} == {"t2i-art1", "i2t-art1#0"}, run
        # each good view once, ever; the bad one each time it is asked for (corpus and query)
        assert model.store.encoded["image"] == (views - 1 if run == "cold" else 0) + 2, run
        assert len(model.store) == views - 1 + len(TEXTS), run  # no placeholder stored
        assert json.loads(replies[1])["unreadable_views"] == [str(bad)]


def _hub_snapshot(hub: Path, repo: str, revision: str, model_dir: Path) -> None:
    """Put a model folder in a hub cache as huggingface_hub lays it out: blobs named by content hash,
    snapshots/<revision>/ linking to them, refs/main naming the revision."""
    folder = hub / f"models--{repo.replace('/', '--')}"
    for path in model_dir.iterdir():
        data = path.read_bytes()
        blob = folder / "blobs" / hashlib.sha256(data).hexdigest()
        blob.parent.mkdir(parents=True, exist_ok=True)
        blob.write_bytes(data)
        link = folder / "snapshots" / revision / path.name
        link.parent.mkdir(parents=True, exist_ok=True)
        link.symlink_to(os.path.relpath(blob, link.parent))
    (folder / "refs").mkdir(exist_ok=True)
    (folder / "refs" / "main").write_text(revision)


HUB_RUN = textwrap.dedent("""
    import json, sys
    import numpy as np
    from chronotasks.model_shims.chrono_embed import ChronoEmbed
    model = ChronoEmbed(pretrained="museum/tiny-clip", cache_dir=sys.argv[1])
    texts = json.loads(sys.argv[2])
    served = model.text_vectors(texts)
    model.store.flush()
    print(json.dumps({"commit": model.model.config._commit_hash, "dim": model.store.dim,
                      "encoded": model.store.encoded["text"], "folder": model.store.folder.name,
                      "fresh": bool(np.allclose(served, model.embed_texts(texts), atol=1e-6))}))
""")


def _hub_run(hub: Path, cache: Path) -> dict:
    env = {**os.environ, "HF_HUB_CACHE": str(hub), "HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1"}
    proc = subprocess.run(
        [sys.executable, "-c", HUB_RUN, str(cache), json.dumps(TEXTS)], env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def test_a_hub_model_whose_revision_moves_is_keyed_by_the_commit_loaded(clip_dir, tmp_path):
    """refs/main moves to a new snapshot, of other weights of the same dimension, then of another
    dimension: the model from_pretrained loads offline is the new one, and nothing of an old one is served."""
    import torch
    from transformers import CLIPConfig, CLIPModel

    hub, cache = tmp_path / "hub", tmp_path / "cache"
    _hub_snapshot(hub, "museum/tiny-clip", "1" * 40, clip_dir)
    first = _hub_run(hub, cache)
    assert (first["commit"], first["dim"], first["encoded"], first["fresh"]) == ("1" * 40, 16, len(TEXTS), True)
    assert _hub_run(hub, cache)["encoded"] == 0  # the same revision: all from the store

    folders = {first["folder"]}
    for revision, dim in (("2" * 40, 16), ("3" * 40, 8)):
        moved = tmp_path / revision
        shutil.copytree(clip_dir, moved)
        config = CLIPConfig.from_pretrained(clip_dir)
        config.projection_dim = dim
        torch.manual_seed(int(revision[0]))
        CLIPModel(config).save_pretrained(moved)
        _hub_snapshot(hub, "museum/tiny-clip", revision, moved)
        run = _hub_run(hub, cache)
        assert (run["commit"], run["dim"], run["encoded"], run["fresh"]) == (revision, dim, len(TEXTS), True)
        assert run["folder"] not in folders
        folders.add(run["folder"])
