"""A tiny random-weight Qwen2.5-VL checkpoint built locally (no hub): config, a byte-level BPE
tokenizer made with ``tokenizers``, the Qwen2-VL image/video processors and a chat template in the
shape of Qwen2.5-VL's, saved to a folder that ``from_pretrained(folder)`` loads — the path
lmms-eval's ``qwen2_5_vl`` class takes. Its replies are random tokens.

Images are cut to at most ``MAX_PIXELS`` (a few 28x28 tiles) so that generation on CPU is quick.
"""

from __future__ import annotations

import json
from pathlib import Path

SPECIAL = ["<|endoftext|>", "<|im_start|>", "<|im_end|>", "<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]
MIN_PIXELS = 28 * 28
MAX_PIXELS = 4 * 28 * 28

# The structure of Qwen2.5-VL's chat template: system turn (default "You are a helpful assistant."),
# images/videos as <|vision_start|><|image_pad|><|vision_end|> where they stand in the content.
CHAT_TEMPLATE = (
    "{% set image_count = namespace(value=0) %}{% set video_count = namespace(value=0) %}"
    "{% for message in messages %}"
    "{% if loop.first and message['role'] != 'system' %}<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n{% endif %}"
    "<|im_start|>{{ message['role'] }}\n"
    "{% if message['content'] is string %}{{ message['content'] }}<|im_end|>\n"
    "{% else %}{% for content in message['content'] %}"
    "{% if content['type'] == 'image' or 'image' in content or 'image_url' in content %}"
    "{% set image_count.value = image_count.value + 1 %}<|vision_start|><|image_pad|><|vision_end|>"
    "{% elif content['type'] == 'video' or 'video' in content %}"
    "{% set video_count.value = video_count.value + 1 %}<|vision_start|><|video_pad|><|vision_end|>"
    "{% elif 'text' in content %}{{ content['text'] }}{% endif %}"
    "{% endfor %}<|im_end|>\n{% endif %}"
    "{% endfor %}"
    "{% if add_generation_prompt %}<|im_start|>assistant\n{% endif %}"
)


def byte_bpe(special: list[str]):
    """A ``tokenizers.Tokenizer``: byte-level BPE with the 256 byte symbols and no merges (any text
    tokenizes, one token per UTF-8 byte), plus ``special`` tokens."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from tokenizers.pre_tokenizers import ByteLevel

    symbols = sorted(ByteLevel.alphabet())
    backend = Tokenizer(models.BPE(vocab={s: i for i, s in enumerate(symbols)}, merges=[]))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=True)
    backend.decoder = decoders.ByteLevel()
    backend.add_special_tokens(special)
    return backend


def tiny_qwen_tokenizer():
    """``byte_bpe`` with Qwen's special tokens, as a ``Qwen2TokenizerFast``."""
    import transformers

    backend = byte_bpe(SPECIAL)
    cls = getattr(transformers, "Qwen2TokenizerFast", None) or transformers.Qwen2Tokenizer
    return cls(
        tokenizer_object=backend,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        unk_token=None,
        bos_token=None,
        model_max_length=4096,
        errors="replace",
    )


def make_tiny_qwen2_5_vl(out_dir: Path, seed: int = 0, processor_class=None) -> Path:
    """Save a tiny Qwen2_5_VLForConditionalGeneration + processor to out_dir.

    ``processor_class`` (a ``Qwen2_5_VLProcessor`` subclass) is the class whose name is written into
    the processor config; default ``Qwen2_5_VLProcessor``."""
    import torch
    import transformers
    from transformers import Qwen2_5_VLConfig, Qwen2_5_VLForConditionalGeneration, Qwen2_5_VLProcessor, Qwen2VLImageProcessor

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    tokenizer = tiny_qwen_tokenizer()
    ids = {t: tokenizer.convert_tokens_to_ids(t) for t in SPECIAL}
    image_processor = Qwen2VLImageProcessor(
        min_pixels=MIN_PIXELS, max_pixels=MAX_PIXELS, patch_size=14, merge_size=2, temporal_patch_size=2
    )
    parts = {"image_processor": image_processor, "tokenizer": tokenizer, "chat_template": CHAT_TEMPLATE}
    video_cls = getattr(transformers, "Qwen2VLVideoProcessor", None)
    if video_cls is not None:
        parts["video_processor"] = video_cls(
            min_pixels=MIN_PIXELS, max_pixels=MAX_PIXELS, patch_size=14, merge_size=2, temporal_patch_size=2
        )
    processor = (processor_class or Qwen2_5_VLProcessor)(**parts)
    processor.save_pretrained(out_dir)
    tokenizer.save_pretrained(out_dir)

    vocab = len(tokenizer)
    text = {
        "vocab_size": vocab,
        "hidden_size": 64,
        "intermediate_size": 96,
        "num_hidden_layers": 2,
        "num_attention_heads": 2,
        "num_key_value_heads": 1,
        "max_position_embeddings": 4096,
        "rope_theta": 1000000.0,
        "rope_scaling": {"type": "mrope", "mrope_section": [4, 6, 6]},
        "bos_token_id": ids["<|endoftext|>"],
        "eos_token_id": ids["<|im_end|>"],
        "pad_token_id": ids["<|endoftext|>"],
    }
    vision = {
        "depth": 2,
        "hidden_size": 32,
        "intermediate_size": 48,
        "num_heads": 2,
        "out_hidden_size": 64,
        "patch_size": 14,
        "spatial_merge_size": 2,
        "temporal_patch_size": 2,
        "window_size": 56,
        "fullatt_block_indexes": [1],
        "tokens_per_second": 2,
    }
    config = Qwen2_5_VLConfig(
        text_config=text,
        vision_config=vision,
        image_token_id=ids["<|image_pad|>"],
        video_token_id=ids["<|video_pad|>"],
        vision_start_token_id=ids["<|vision_start|>"],
        vision_end_token_id=ids["<|vision_end|>"],
        bos_token_id=ids["<|endoftext|>"],
        eos_token_id=ids["<|im_end|>"],
        pad_token_id=ids["<|endoftext|>"],
        vocab_size=vocab,
        tie_word_embeddings=True,
    )
    torch.manual_seed(seed)
    model = Qwen2_5_VLForConditionalGeneration(config)
    model.generation_config.eos_token_id = ids["<|im_end|>"]
    model.generation_config.pad_token_id = ids["<|endoftext|>"]
    model.save_pretrained(out_dir)
    (out_dir / "tiny_qwen.json").write_text(json.dumps({"built_with_transformers": transformers.__version__}))
    return out_dir
