"""`chrono_embed` with a plain transformers CLIPModel (tiny, from a config, saved and loaded with
from_pretrained; CLIPTokenizer built locally): its faiss rankings, asked through generate_until
for both directions on a small multi-view corpus, equal a numpy brute-force cosine ranking."""

import json
import random

import numpy as np
import pytest
from lmms_eval.api.instance import Instance
from tiny_models import PROJECTION_DIM, TEXT, make_tiny_clip

from chronotasks.data.drawing import save_scene
from chronotasks.data.loading import doc_images, open_image, write_jsonl
from chronotasks.scoring.retrieval import brute_force_rank, pool_views

TEXTS = [
    "bronze ding, Shang dynasty",
    "jade bi disc",
    "blue-and-white porcelain vase, Ming",
    "landscape scroll by Wang Hui",
    "celadon bowl, Song",
    "青铜鼎，商代",
]


@pytest.fixture(scope="module")
def clip_dir(tmp_path_factory):
    return make_tiny_clip(tmp_path_factory.mktemp("tiny-clip"))


@pytest.fixture
def corpus(tmp_path):
    rng = random.Random(0)
    root = tmp_path / "corpus"
    artifacts = [{"id": f"art{i}", "images": [f"img/art{i}_v{k}.png" for k in range(2 + i % 2)]} for i in range(len(TEXTS))]
    for artifact in artifacts:
        for view in artifact["images"]:
            save_scene(root / view, rng, size=48)
    write_jsonl(root / "corpus_images.jsonl", artifacts)
    write_jsonl(root / "corpus_text.jsonl", [{"id": a["id"], "text": t} for a, t in zip(artifacts, TEXTS)])
    return root, artifacts


def _requests(model, task, docs, context, visual):
    model.task_dict[task] = {"test": docs}
    return [
        Instance("generate_until", (context(d), {}, visual, n, task, "test"), idx=0, metadata={"task": task, "doc_id": n, "repeats": 1})
        for n, d in enumerate(docs)
    ]


def test_clip_model_faiss_ranking_matches_numpy(clip_dir, corpus, tmp_path):
    from chronotasks.model_shims.chrono_embed import ChronoEmbed

    root, artifacts = corpus
    ids = [a["id"] for a in artifacts]
    model = ChronoEmbed(pretrained=str(clip_dir), embed_batch_size=4, top_k=len(ids), cache_dir=str(tmp_path / "cache"))
    assert type(model.model).__name__ == "CLIPModel" and model.max_text_length == TEXT["max_position_embeddings"]
    t2i = [
        {"id": a["id"], "corpus": str(root / "corpus_images.jsonl"), "corpus_modality": "image", "corpus_root": str(root)}
        for a in artifacts
    ]
    i2t = [
        {"id": f"{a['id']}#{k}", "images": [str(root / v)], "corpus": str(root / "corpus_text.jsonl"), "corpus_modality": "text"}
        for a in artifacts
        for k, v in enumerate(a["images"])
    ]
    requests = _requests(model, "t2i", t2i, lambda d: TEXTS[ids.index(d["id"])], lambda d: []) + _requests(
        model, "i2t", i2t, lambda d: "", doc_images
    )
    replies = [json.loads(r)["ranked"] for r in model.generate_until(requests)]
    # the i2t query images are the corpus' views and the t2i query texts the corpus' texts: each encoded once
    views = sum(len(a["images"]) for a in artifacts)
    assert (model.store.encoded, model.store.requested) == (
        {"image": views, "text": len(TEXTS)},
        {"image": 2 * views, "text": 2 * len(TEXTS)},
    )

    # a rerun (a new process: a new model on the same cache) encodes nothing and answers the same,
    # also when its queries are searched 3 at a time (blocks that split each task's queries)
    rerun = ChronoEmbed(pretrained=str(clip_dir), embed_batch_size=4, top_k=len(ids), cache_dir=str(tmp_path / "cache"), search_block=3)
    requests = _requests(rerun, "t2i", t2i, lambda d: TEXTS[ids.index(d["id"])], lambda d: []) + _requests(
        rerun, "i2t", i2t, lambda d: "", doc_images
    )
    assert [json.loads(r)["ranked"] for r in rerun.generate_until(requests)] == replies
    assert sum(rerun.store.encoded.values()) == 0 and rerun.store.requested == model.store.requested

    # numpy brute force: texts, single views, and artifacts pooled from their views one artifact at a time
    texts = model.embed_texts(TEXTS)
    pooled = np.stack([pool_views(model.embed_images([open_image(str(root / v)) for v in a["images"]])) for a in artifacts])
    views = np.concatenate([model.embed_images([open_image(d["images"][0])]) for d in i2t])
    assert texts.shape == (len(TEXTS), PROJECTION_DIM) and np.allclose(np.linalg.norm(views, axis=1), 1, atol=1e-5)
    for queries, corpus_vectors, got in ((texts, pooled, replies[: len(t2i)]), (views, texts, replies[len(t2i) :])):
        scores, order = brute_force_rank(queries, corpus_vectors, len(ids))
        gaps = -np.diff(scores, axis=1)
        assert gaps.min() > 1e-5  # no near-ties, so the orders must be equal
        assert got == [[ids[j] for j in row] for row in order]

    # a checkpoint whose config says return_dict: false gives tuples; the features are the same
    model.model.config.return_dict = False
    assert np.allclose(model.embed_texts(TEXTS), texts, atol=1e-6)
    assert np.allclose(model.embed_images([open_image(d["images"][0]) for d in i2t[:3]]), views[:3], atol=1e-6)


def test_one_faiss_search_equals_the_numpy_brute_force():
    from chronotasks.model_shims.chrono_embed import build_index, search

    rng = np.random.default_rng(0)
    corpus = rng.normal(size=(300, 16)).astype(np.float32)
    corpus /= np.linalg.norm(corpus, axis=1, keepdims=True)
    queries = rng.normal(size=(123, 16)).astype(np.float32)
    queries /= np.linalg.norm(queries, axis=1, keepdims=True)
    _, one_call = search(build_index(corpus), queries, 10)
    scores, reference = brute_force_rank(queries, corpus, 11)
    assert (-np.diff(scores, axis=1)).min() > 1e-6  # no near-ties: both must agree exactly
    assert np.array_equal(one_call, reference[:, :10])


def test_an_image_shown_otherwise_than_as_its_file_is_never_taken_from_the_store(clip_dir, corpus, tmp_path):
    """A task whose doc_to_visual is not the plain file loader (here: a grayscale copy) may show other
    pixels than the file's: its queries are encoded every time, never stored under the file's key."""
    from chronotasks.model_shims.chrono_embed import ChronoEmbed

    root, artifacts = corpus
    model = ChronoEmbed(pretrained=str(clip_dir), embed_batch_size=4, cache_dir=str(tmp_path / "cache"))
    i2t = [
        {"id": f"{a['id']}#0", "images": [str(root / a["images"][0])], "corpus": str(root / "corpus_text.jsonl"), "corpus_modality": "text"}
        for a in artifacts
    ]

    def gray(doc):
        return [image.convert("L").convert("RGB") for image in doc_images(doc)]

    first = model.generate_until(_requests(model, "i2t_gray", i2t, lambda d: "", gray))
    again = model.generate_until(_requests(model, "i2t_gray", i2t, lambda d: "", gray))
    assert again == first and model.store.encoded["image"] == 2 * len(i2t) and len(model.store) == len(TEXTS)
    gray_views = model.embed_images([open_image(d["images"][0]).convert("L").convert("RGB") for d in i2t])
    _, order = brute_force_rank(gray_views, model.text_vectors(TEXTS), len(TEXTS))
    ids = [a["id"] for a in artifacts]
    assert [json.loads(r)["ranked"] for r in first] == [[ids[j] for j in row] for row in order]


def test_faiss_gpu_setting_falls_back_or_says_why():
    """faiss_gpu=auto keeps the index on the CPU without a CUDA device or a GPU build of faiss;
    faiss_gpu=true there is an error naming what is missing (the GPU path itself needs a GPU)."""
    import faiss

    from chronotasks.model_shims.chrono_embed import build_index, gpu_faiss_available

    vectors = np.eye(4, dtype=np.float32)
    assert isinstance(build_index(vectors, "cpu", "auto"), faiss.IndexFlatIP)
    assert isinstance(build_index(vectors, "cuda:0", "false"), faiss.IndexFlatIP)
    if not gpu_faiss_available():
        assert isinstance(build_index(vectors, "cuda:0", "auto"), faiss.IndexFlatIP)
        with pytest.raises(RuntimeError, match="faiss-gpu"):
            build_index(vectors, "cuda:0", "true")


def test_embedding_cache_defaults_to_the_per_user_chronotasks_folder(tmp_path, monkeypatch):
    """Corpus embeddings go where the data root and downloads go (CHRONOTASKS_HOME, XDG_CACHE_HOME),
    unless CHRONOTASKS_CACHE says otherwise; never into the real ~/.cache of a test or of a moved home."""
    from chronotasks.model_shims.chrono_embed import default_cache_dir

    monkeypatch.delenv("CHRONOTASKS_CACHE", raising=False)
    monkeypatch.setenv("CHRONOTASKS_HOME", str(tmp_path / "home"))
    assert default_cache_dir() == tmp_path / "home" / "embeddings"
    monkeypatch.delenv("CHRONOTASKS_HOME")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "chronotasks" / "embeddings"
    monkeypatch.setenv("CHRONOTASKS_CACHE", str(tmp_path / "explicit"))
    assert default_cache_dir() == tmp_path / "explicit" / "embeddings"
