"""A tiny Chinese-CLIP built from a config (random weights), saved with its processor, for tests."""

from __future__ import annotations

from pathlib import Path


def make_tiny_chinese_clip(out_dir: Path, texts: list[str], seed: int = 0) -> Path:
    """Save a tiny ChineseCLIPModel + ChineseCLIPProcessor (BERT char vocab from ``texts``) to out_dir."""
    import torch
    from transformers import BertTokenizer, ChineseCLIPConfig, ChineseCLIPImageProcessor, ChineseCLIPModel, ChineseCLIPProcessor

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    chars = sorted({ch for text in texts for ch in text if not ch.isspace()})
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *chars]
    (out_dir / "vocab.txt").write_text("\n".join(vocab) + "\n", encoding="utf-8")
    tokenizer = BertTokenizer(str(out_dir / "vocab.txt"))
    image_processor = ChineseCLIPImageProcessor(size={"shortest_edge": 32}, crop_size={"height": 32, "width": 32})
    ChineseCLIPProcessor(image_processor=image_processor, tokenizer=tokenizer).save_pretrained(out_dir)
    config = ChineseCLIPConfig(
        text_config=dict(vocab_size=len(vocab), hidden_size=32, num_hidden_layers=1, num_attention_heads=2,
                         intermediate_size=37, max_position_embeddings=64),
        vision_config=dict(hidden_size=32, num_hidden_layers=1, num_attention_heads=2, intermediate_size=37,
                           image_size=32, patch_size=8),
        projection_dim=16,
    )
    torch.manual_seed(seed)
    ChineseCLIPModel(config).save_pretrained(out_dir)
    return out_dir
