"""Text-to-image backend over a diffusers pipeline (``--model chrono_diffusers``).

    --model chrono_diffusers --model_args pretrained=<hub id or local dir>,num_inference_steps=30,
        guidance_scale=7.5,seed=0,batch_size=4,output_dir=./t2i_cache[,height=..,width=..,dtype=..,device=..]
        [,judge=clipscore,judge_model=...]   (judge_* keys are passed on to the task's judge)

For each ``generate_until`` request the context (the T2I prompt) is turned into
one image and the reply is lmms-eval's generation convention, a JSON string
``{"text": "", "images": ["/abs/path.png"], ...}`` (see lmms-eval's imgedit task).

- Loading: ``AutoPipelineForText2Image.from_pretrained`` (SD1.5, SDXL, SDXL-Turbo,
  SD3.5, FLUX), falling back to ``DiffusionPipeline.from_pretrained``.
- Seeding: each image has its own ``torch.Generator`` seeded from
  sha256(seed, prompt), so its noise does not depend on request order or rank.
- Batches: fixed by the prompts, not by rank or cache (``generate_images``): the
  sorted unique prompts of all processes cut into ``batch_size`` runs, so an
  image has the same batch mates in one process, in N, and in a rerun (a
  batched pipeline's pixels can depend on them: one grey level on CPU).
- Cache: the image path is a hash of everything that changes its pixels: the
  model as it resolves (``cache_files.model_fingerprint``: a local folder by its
  files, a hub name by its cached revision's files), the prompt, seed, settings,
  and the batch it is made in (its prompts in order: a batched pipeline's pixels
  depend on the batch size and on an image's batch mates and position) under
  ``output_dir``. A finished image is reused after its check: it is a PNG carrying
  the SHA-256 of its pixels (``cache_files.sealed_png``); one that fails (torn,
  flipped, replaced) is named in a warning, deleted and made again with its
  batch. Images are written to a temporary file then ``os.replace``d, so a crash
  never leaves a partial file under the final name. Each call appends
  {"generated", "cached"} counts to ``output_dir/generation_log.jsonl``.
- Distributed: lmms-eval gives each rank its own shard of the requests
  (``rank``/``world_size``/``device`` come from the Accelerator, as in other
  lmms-eval models: ``launcher.LauncherModel``). The ranks exchange their
  prompts, each generates every world_size-th batch into the shared cache
  (``output_dir``, one folder all processes see), under names unique to the
  writer then renamed, and waits for the others before replying.
"""

from __future__ import annotations

import hashlib
import json
import time
from pathlib import Path
from typing import Any

from lmms_eval.api.instance import Instance
from tqdm import tqdm

from chronotasks.data.cache_files import CacheDamage, drop_damaged, model_fingerprint, open_sealed_png, sealed_png
from chronotasks.data.errors import SettingsError
from chronotasks.data.settings import file_problem, folder_problem, looks_like_path, model_problem
from chronotasks.model_shims.launcher import LauncherModel, write_atomically

_SETTING_KEYS = ("num_inference_steps", "guidance_scale", "height", "width", "dtype")


def _hash(*parts: Any) -> str:
    return hashlib.sha256(json.dumps(parts, sort_keys=True, ensure_ascii=False).encode()).hexdigest()


def prompt_seed(seed: int, prompt: str) -> int:
    """The generator seed of one prompt (63-bit, from sha256(seed, prompt))."""
    return int(_hash("seed", int(seed), prompt)[:15], 16)


def image_key(model: str, prompt: str, seed: int, settings: dict[str, Any], batch: list[str]) -> str:
    """Cache key of one image: (model fingerprint, prompt, seed, settings, the prompts of its batch in order)."""
    return _hash(model, prompt, int(seed), {k: settings.get(k) for k in _SETTING_KEYS}, list(batch))


def settings_problem(pretrained: str, output_dir: str, judge: dict[str, Any]) -> str | None:
    """The first setting the backend cannot run with, checked when it starts: the pipeline and
    judge models (a path that does not exist; with HF_HUB_OFFLINE, a hub id not in the cache; an
    API judge's model, named with judge_base_url, is the server's business), the folders it
    writes, a few-shot file. The judge's own checks (``check_settings`` of the TempViz judges) run
    again before judging, with the task's settings merged in."""
    checks = [lambda: model_problem("pretrained", pretrained), lambda: folder_problem("output_dir", output_dir)]
    for key, value in judge.items():
        value = str(value)
        if key in ("judge_model", "judge_text_model") and (looks_like_path(value) or "judge_base_url" not in judge):
            checks.append(lambda key=key, value=value: model_problem(key, value))
        elif key.endswith("_dir"):
            checks.append(lambda key=key, value=value: folder_problem(key, value))
        elif key.endswith("_file"):
            checks.append(lambda key=key, value=value: file_problem(key, value))
    return next((problem for check in checks if (problem := check())), None)


def _none_or(value: Any, cast):
    if value is None or (isinstance(value, str) and value.lower() in ("", "none", "null")):
        return None
    return cast(value)


class DiffusersT2I(LauncherModel):
    """A diffusers text-to-image pipeline as an lmms-eval generation model."""

    def __init__(
        self,
        pretrained: str,
        num_inference_steps: int = 30,
        guidance_scale: float | None = None,
        seed: int = 0,
        batch_size: int = 1,
        output_dir: str = "./chrono_t2i_images",
        height: int | None = None,
        width: int | None = None,
        dtype: str = "auto",
        device: str | None = None,
        pipeline_class: str = "auto",
        **kwargs: Any,
    ) -> None:
        self.judge_config = {k: v for k, v in kwargs.items() if k == "judge" or k.startswith("judge_")}
        unknown = sorted(k for k in kwargs if k not in self.judge_config and k not in ("max_batch_size",))
        if unknown:
            raise TypeError(f"chrono_diffusers got unknown model_args: {unknown}")
        problem = settings_problem(str(pretrained), output_dir, self.judge_config)
        if problem:
            raise SettingsError(f"chrono_diffusers: {problem}")
        super().__init__(device=device)
        import torch

        self.device_name = str(self.device)
        self.pretrained = str(pretrained)
        local = Path(self.pretrained).expanduser()
        self.model_id = str(local.resolve()) if local.exists() else self.pretrained
        self.model_key = model_fingerprint(self.model_id)
        if dtype == "auto":
            dtype = "float16" if self.device_name.startswith("cuda") else "float32"
        self.settings = {
            "num_inference_steps": int(num_inference_steps),
            "guidance_scale": _none_or(guidance_scale, float),
            "height": _none_or(height, int),
            "width": _none_or(width, int),
            "dtype": str(dtype),
        }
        self.seed = int(seed)
        self.batch_size_per_device = max(1, int(batch_size))
        self.output_dir = Path(output_dir).expanduser().resolve()
        self.image_dir = self.output_dir / "images"
        self.image_dir.mkdir(parents=True, exist_ok=True)
        self._torch_dtype = getattr(torch, self.settings["dtype"])
        self._pipeline_class = pipeline_class
        self._pipe = None  # loaded on first need: a fully cached rerun never loads the weights
        self.generated = 0
        self.cached = 0

    # -- lmms-eval plumbing -------------------------------------------------------------
    @property
    def batch_size(self) -> int:
        return self.batch_size_per_device

    @property
    def pipe(self):
        if self._pipe is None:
            import diffusers

            if self._pipeline_class == "auto":
                try:
                    pipe = diffusers.AutoPipelineForText2Image.from_pretrained(self.pretrained, torch_dtype=self._torch_dtype)
                except (ValueError, KeyError, AttributeError):
                    pipe = diffusers.DiffusionPipeline.from_pretrained(self.pretrained, torch_dtype=self._torch_dtype)
            else:
                pipe = getattr(diffusers, self._pipeline_class).from_pretrained(self.pretrained, torch_dtype=self._torch_dtype)
            pipe = pipe.to(self.device_name)
            pipe.set_progress_bar_config(disable=True)
            self._pipe = pipe
        return self._pipe

    # -- cache ----------------------------------------------------------------------------
    def image_path(self, prompt: str, batch: list[str]) -> Path:
        """Where the image of ``prompt``, made in ``batch`` (prompts in order), is cached."""
        key = image_key(self.model_key, prompt, self.seed, self.settings, batch)
        return self.image_dir / key[:2] / f"{key}.png"

    @staticmethod
    def _finished(path: Path) -> bool:
        """Whether ``path`` holds a whole image that passes its check; a damaged one is named and deleted."""
        try:
            return open_sealed_png(path) is not None
        except CacheDamage as err:
            drop_damaged(path, str(err))
            return False

    def _save(self, image, path: Path, prompt: str, batch: list[str]) -> None:
        write_atomically(path, lambda handle: handle.write(sealed_png(image)))
        meta = {
            "model": self.model_id,
            "prompt": prompt,
            "seed": self.seed,
            "prompt_seed": prompt_seed(self.seed, prompt),
            "batch": batch,
            **self.settings,
        }
        write_atomically(path.with_suffix(".json"), lambda handle: handle.write(json.dumps(meta, ensure_ascii=False).encode()))

    def _generate_batch(self, prompts: list[str]) -> list:
        import torch

        generators = [torch.Generator(device="cpu").manual_seed(prompt_seed(self.seed, p)) for p in prompts]
        kwargs: dict[str, Any] = {"num_inference_steps": self.settings["num_inference_steps"], "generator": generators}
        for key in ("guidance_scale", "height", "width"):
            if self.settings[key] is not None:
                kwargs[key] = self.settings[key]
        with torch.inference_mode():
            return self.pipe(prompt=prompts, **kwargs).images

    def generate_images(self, prompts: list[str]) -> list[Path]:
        """Paths of one image per prompt. Batches are fixed by the prompts, not by rank or cache:
        the unique prompts of every process, sorted, cut into ``batch_size`` runs; batch k is made by
        process k mod world_size, whole whenever one of its images is missing (a batched pipeline's
        pixels can depend on an image's batch mates and position), and only missing images are
        written. So one process, N processes and a rerun after a crash give the same bytes."""
        everyone = sorted(set().union(*self._gather(sorted(dict.fromkeys(prompts)))))
        size = self.batch_size_per_device
        batches = [everyone[start : start + size] for start in range(0, len(everyone), size)]
        batch_of = {prompt: batch for batch in batches for prompt in batch}
        paths = [self.image_path(p, batch_of[p]) for p in prompts]
        finished = {path: self._finished(path) for path in dict.fromkeys(paths)}
        self.cached += sum(finished.values())

        def whole(batch: list[str]) -> bool:
            batch_paths = [self.image_path(p, batch) for p in batch]
            return all(finished[path] if path in finished else self._finished(path) for path in batch_paths)

        todo = [batch for batch in batches[self.rank :: self.world_size] if not whole(batch)]
        bar = tqdm(total=sum(len(b) for b in todo), desc=f"chrono_diffusers rank {self.rank}", disable=not todo)
        for batch in todo:
            for prompt, image in zip(batch, self._generate_batch(batch)):
                path = self.image_path(prompt, batch)
                if not path.is_file():
                    self._save(image, path, prompt, batch)
                    self.generated += 1
            bar.update(len(batch))
        bar.close()
        self._wait_for_everyone()
        lost = [str(path) for path in paths if not path.is_file()]
        if lost:
            raise RuntimeError(
                f"chrono_diffusers rank {self.rank}: {len(lost)} image(s) another process was to write are not in "
                f"{self.image_dir} (e.g. {lost[0]}); output_dir must be one folder all processes share"
            )
        return paths

    def _gather(self, values: list[str]) -> list[list[str]]:
        """``values`` of every process (this one's alone when one process runs)."""
        if self.world_size == 1:
            return [values]
        import torch.distributed as dist

        gathered: list[list[str] | None] = [None] * self.world_size
        dist.all_gather_object(gathered, values)
        return [list(part or []) for part in gathered]

    def _wait_for_everyone(self) -> None:
        if self.world_size > 1:
            import torch.distributed as dist

            dist.barrier()

    def _log_counts(self, n_requests: int) -> None:
        record = {
            "time": time.time(),
            "rank": self.rank,
            "requests": n_requests,
            "generated": self.generated,
            "cached": self.cached,
            "model": self.model_id,
            "seed": self.seed,
            **self.settings,
        }
        with open(self.output_dir / "generation_log.jsonl", "a", encoding="utf-8") as handle:
            handle.write(json.dumps(record) + "\n")

    # -- requests -------------------------------------------------------------------------
    def generate_until(self, requests: list[Instance]) -> list[str]:
        self.refuse_repeats(requests)
        self.generated = self.cached = 0
        prompts = [str(request.args[0]).strip() for request in requests]
        paths = self.generate_images(prompts)
        replies = []
        for request, prompt, path in zip(requests, prompts, paths):
            reply = json.dumps(
                {
                    "text": "",
                    "images": [str(path)],
                    "prompt": prompt,
                    "model": self.model_id,
                    "seed": self.seed,
                    "judge": self.judge_config,
                },
                ensure_ascii=False,
            )
            replies.append(reply)
            self.cache_hook.add_partial("generate_until", request.args, reply)
        self._log_counts(len(requests))
        return replies

    def generate_until_multi_round(self, requests: list[Instance]) -> list[str]:
        return self.generate_until(requests)

    def loglikelihood(self, requests: list[Instance]) -> list[tuple[float, bool]]:
        raise NotImplementedError("chrono_diffusers is a text-to-image backend (generate_until only)")
