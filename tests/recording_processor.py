"""lmms-eval's own CLI, with a Qwen2.5-VL processor that records what the model class gives it.

    python tests/recording_processor.py RECORD_DIR <lmms-eval arguments>

``RecordingQwenProcessor`` is transformers' ``Qwen2_5_VLProcessor``; its ``__call__`` first writes
down what it was handed — the texts, and each image as a PNG — to RECORD_DIR/calls.jsonl, then
processes them exactly as its parent does. A checkpoint saved with this class as its processor
(``tiny_vlms.make_tiny_qwen2_5_vl(..., processor_class=RecordingQwenProcessor)``) names it in its
processor config; this script registers the class with ``AutoProcessor`` before it hands over to
``lmms_eval.__main__.cli_evaluate``, so lmms-eval's ``AutoProcessor.from_pretrained(checkpoint)``
builds it. Nothing of lmms-eval or transformers is replaced: the model class, the chat template,
the vision pre-processing and the model all run as they would on a real checkpoint.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

from transformers import Qwen2_5_VLProcessor

RECORD_ENV = "CHRONOTASKS_RECORD_DIR"


class RecordingQwenProcessor(Qwen2_5_VLProcessor):
    def __call__(self, *args, **kwargs):
        record_dir = os.environ.get(RECORD_ENV)
        if record_dir:
            record(
                Path(record_dir), kwargs.get("images", args[0] if args else None), kwargs.get("text", args[1] if len(args) > 1 else None)
            )
        return super().__call__(*args, **kwargs)


def record(record_dir: Path, images, text) -> None:
    record_dir.mkdir(parents=True, exist_ok=True)
    log = record_dir / "calls.jsonl"
    call = sum(1 for _ in open(log)) if log.exists() else 0
    names = []
    for i, image in enumerate(images or []):
        name = f"call{call:04d}_image{i}.png"
        image.convert("RGB").save(record_dir / name)
        names.append(name)
    texts = [text] if isinstance(text, str) else list(text or [])
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(json.dumps({"texts": texts, "images": names}, ensure_ascii=False) + "\n")


def register() -> None:
    from transformers import AutoProcessor, Qwen2_5_VLConfig

    AutoProcessor.register(Qwen2_5_VLConfig, RecordingQwenProcessor, exist_ok=True)


if __name__ == "__main__":
    os.environ[RECORD_ENV] = sys.argv[1]
    register()
    sys.argv = ["lmms_eval", *sys.argv[2:]]
    from lmms_eval.__main__ import cli_evaluate

    cli_evaluate()
