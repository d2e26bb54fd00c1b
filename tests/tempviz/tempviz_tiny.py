"""Tiny models built from configs (random weights), saved to a folder and then
loaded by the real ``from_pretrained(local_dir)`` code paths. No hub access."""

from __future__ import annotations

from pathlib import Path

from tiny_models import make_tiny_clip, tiny_clip_tokenizer

WORDS = (
    "a photorealistic image of the in europe that is old one month years map realistic artwork style art "
    "red fox lake forest january july evening city alpaca hippopotamus koala berlin wall germany after before "
    "on tower france africa asia 1914 1880 1500 1938 impressionism baroque rococo realism"
)


def build_tiny_sd(folder: Path) -> Path:
    """A StableDiffusionPipeline (UNet 32 channels, VAE, CLIP text encoder) for 64x64 images."""
    import torch
    from diffusers import AutoencoderKL, DDIMScheduler, StableDiffusionPipeline, UNet2DConditionModel
    from transformers import CLIPTextConfig, CLIPTextModel

    torch.manual_seed(0)
    tokenizer = tiny_clip_tokenizer()
    unet = UNet2DConditionModel(
        block_out_channels=(32, 64),
        layers_per_block=1,
        sample_size=8,
        in_channels=4,
        out_channels=4,
        down_block_types=("CrossAttnDownBlock2D", "DownBlock2D"),
        up_block_types=("UpBlock2D", "CrossAttnUpBlock2D"),
        cross_attention_dim=32,
        attention_head_dim=4,
        norm_num_groups=8,
    )
    vae = AutoencoderKL(
        block_out_channels=(16, 32),
        in_channels=3,
        out_channels=3,
        latent_channels=4,
        norm_num_groups=8,
        down_block_types=("DownEncoderBlock2D",) * 2,
        up_block_types=("UpDecoderBlock2D",) * 2,
        sample_size=64,
    )
    text_encoder = CLIPTextModel(
        CLIPTextConfig(
            vocab_size=len(tokenizer),
            hidden_size=32,
            intermediate_size=37,
            num_attention_heads=4,
            num_hidden_layers=2,
            max_position_embeddings=77,
            bos_token_id=tokenizer.bos_token_id,
            eos_token_id=tokenizer.eos_token_id,
            pad_token_id=tokenizer.pad_token_id,
        )
    )
    scheduler = DDIMScheduler(
        beta_start=0.00085, beta_end=0.012, beta_schedule="scaled_linear", clip_sample=False, set_alpha_to_one=False, steps_offset=1
    )
    pipe = StableDiffusionPipeline(
        vae=vae,
        text_encoder=text_encoder,
        tokenizer=tokenizer,
        unet=unet,
        scheduler=scheduler,
        safety_checker=None,
        feature_extractor=None,
        requires_safety_checker=False,
    )
    pipe.save_pretrained(folder)
    return folder


def build_tiny_blip(folder: Path) -> Path:
    """A BlipForConditionalGeneration + BlipProcessor (tiny BERT WordPiece vocab) saved for from_pretrained."""
    import torch
    from transformers import BertTokenizerFast, BlipConfig, BlipForConditionalGeneration, BlipImageProcessor, BlipProcessor

    torch.manual_seed(0)
    folder.mkdir(parents=True, exist_ok=True)
    vocab = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", "[DEC]"] + sorted(set(WORDS.split()))
    vocab_file = folder.parent / (folder.name + "_vocab.txt")
    vocab_file.write_text("\n".join(vocab) + "\n")
    tokenizer = BertTokenizerFast(vocab_file=str(vocab_file), bos_token="[DEC]", model_max_length=32)
    config = BlipConfig(
        text_config={
            "vocab_size": len(vocab),
            "hidden_size": 32,
            "intermediate_size": 37,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "max_position_embeddings": 64,
            "bos_token_id": vocab.index("[DEC]"),
            "pad_token_id": 0,
            "sep_token_id": vocab.index("[SEP]"),
            "encoder_hidden_size": 32,
        },
        vision_config={
            "hidden_size": 32,
            "intermediate_size": 37,
            "num_attention_heads": 4,
            "num_hidden_layers": 2,
            "image_size": 32,
            "patch_size": 8,
        },
        projection_dim=16,
    )
    model = BlipForConditionalGeneration(config)
    model.save_pretrained(folder)
    image_processor = BlipImageProcessor(size={"height": 32, "width": 32})
    BlipProcessor(image_processor=image_processor, tokenizer=tokenizer).save_pretrained(folder)
    return folder


def build_all(root: Path) -> dict[str, Path]:
    """Tiny SD pipeline, CLIP and BLIP under root (built once per root)."""
    dirs = {"sd": root / "sd", "clip": root / "clip", "blip": root / "blip"}
    builders = {"sd": build_tiny_sd, "clip": make_tiny_clip, "blip": build_tiny_blip}
    for name, folder in dirs.items():
        if not (folder / ("model_index.json" if name == "sd" else "config.json")).is_file():
            builders[name](folder)
    return dirs
