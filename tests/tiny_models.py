"""Tiny CLIP-family dual encoders built from configs (random weights), saved with their
processors, for tests of MuseBench retrieval and TempViz judging/generation: a Chinese-CLIP (BERT
character vocabulary) and a plain CLIP (byte-level BPE tokenizer with no merges, also the text
tokenizer of the tiny Stable Diffusion pipeline). Both load with ``AutoModel`` /
``AutoProcessor.from_pretrained``. No hub access."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

# one tiny shape for both families: 32-wide, one layer, 32x32 images in 8x8 patches
TEXT = {"hidden_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 37, "max_position_embeddings": 77}
VISION = {"hidden_size": 32, "num_hidden_layers": 1, "num_attention_heads": 2, "intermediate_size": 37, "image_size": 32, "patch_size": 8}
IMAGE_SIZES = {"size": {"shortest_edge": 32}, "crop_size": {"height": 32, "width": 32}}
PROJECTION_DIM = 16


def _save(out_dir: Path, processor, model_class, config, seed: int) -> Path:
    import torch

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    processor.save_pretrained(out_dir)
    torch.manual_seed(seed)
    model_class(config).save_pretrained(out_dir)
    return out_dir


def make_tiny_chinese_clip(out_dir: Path, texts: list[str], seed: int = 0) -> Path:
    """Save a tiny ChineseCLIPModel + ChineseCLIPProcessor (BERT char vocab from ``texts``) to out_dir."""
    from transformers import BertTokenizer, ChineseCLIPConfig, ChineseCLIPImageProcessor, ChineseCLIPModel, ChineseCLIPProcessor

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    chars = sorted({ch for text in texts for ch in text if not ch.isspace()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *chars]
    (out_dir / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    # size as real Chinese-CLIP checkpoints give it (height/width): transformers 4 requires that form
    image_processor = ChineseCLIPImageProcessor(size={"height": 32, "width": 32}, crop_size={"height": 32, "width": 32})
    processor = ChineseCLIPProcessor(image_processor=image_processor, tokenizer=BertTokenizer(str(out_dir / "vocab.txt")))
    config = ChineseCLIPConfig(text_config={**TEXT, "vocab_size": len(vocab)}, vision_config=VISION, projection_dim=PROJECTION_DIM)
    return _save(out_dir, processor, ChineseCLIPModel, config, seed)


def tiny_clip_tokenizer():
    """A CLIPTokenizer, byte-level BPE with the 256 byte symbols (plain and word-final ``</w>``) and
    no merges, so any text, Chinese included, tokenizes (one token per UTF-8 byte); start/end of
    text are the last ids, as in CLIP; 77 positions, as in CLIP."""
    from tokenizers.pre_tokenizers import ByteLevel
    from transformers import CLIPTokenizer

    symbols = sorted(ByteLevel.alphabet())
    tokens = [*symbols, *(s + "</w>" for s in symbols), "<|startoftext|>", "<|endoftext|>"]
    vocab = {t: i for i, t in enumerate(tokens)}
    try:
        return CLIPTokenizer(vocab=vocab, merges=[], model_max_length=77)  # transformers 5
    except TypeError:  # transformers 4: the (slow) tokenizer reads its vocabulary and merges from files
        folder = Path(tempfile.mkdtemp(prefix="tiny_clip_tokenizer_"))
        (folder / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
        (folder / "merges.txt").write_text("#version: 0.2\n", encoding="utf-8")
        return CLIPTokenizer(vocab_file=str(folder / "vocab.json"), merges_file=str(folder / "merges.txt"), model_max_length=77)


def make_tiny_clip(out_dir: Path, seed: int = 0) -> Path:
    """Save a tiny CLIPModel + CLIPProcessor (``tiny_clip_tokenizer``) to out_dir."""
    from transformers import CLIPConfig, CLIPImageProcessor, CLIPModel, CLIPProcessor

    tokenizer = tiny_clip_tokenizer()
    processor = CLIPProcessor(image_processor=CLIPImageProcessor(**IMAGE_SIZES), tokenizer=tokenizer)
    n = len(tokenizer)
    text = {**TEXT, "vocab_size": n, "bos_token_id": n - 2, "eos_token_id": n - 1, "pad_token_id": n - 1}
    config = CLIPConfig(text_config=text, vision_config=VISION, projection_dim=PROJECTION_DIM)
    return _save(out_dir, processor, CLIPModel, config, seed)
