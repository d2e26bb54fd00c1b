"""The ``--model_args`` of our backends: what each accepts, checked once, listed by ``chronotasks models``.

The arguments themselves are each backend's ``__init__`` parameters (name, default, type), read
from its signature (and its base classes', up to ``LauncherModel``): the one source of truth. This
module adds what a signature cannot say, a sentence per argument (``HELP``; a test checks that it
names exactly the parameters), and:

- ``check_model_args(cls, args)``: what lmms-eval parsed from ``--model_args`` (``key=value,...``),
  checked before the backend is built. An unknown key is an error that lists the valid ones with
  their defaults; a value of the wrong type (``seed=abc``) is an error naming the argument and the
  type it needs. Both are one line (``ModelArgError``), raised from
  ``LauncherModel.create_from_arg_string``;
- ``describe(model_id)``: the listing of ``chronotasks models``.

lmms-eval's launcher adds ``batch_size``, ``max_batch_size`` and ``device`` itself; they pass
through. A backend whose extra keys form a family (``chrono_diffusers``: ``judge`` and ``judge_*``,
handed to the TempViz judge) names the family's prefix in ``ARG_FAMILIES``.
"""

from __future__ import annotations

import inspect
import typing
from dataclasses import dataclass
from typing import Any

LAUNCHER_ARGS = ("batch_size", "max_batch_size", "device")  # lmms-eval's --batch_size / --device, passed to every model

# model id -> its class (as registered in model_shims/__init__.py's manifests)
BACKENDS: dict[str, str] = {
    "chrono_random": "chronotasks.model_shims.baselines.RandomBaseline",
    "chrono_constant": "chronotasks.model_shims.baselines.ConstantBaseline",
    "chrono_grayscale_prior": "chronotasks.model_shims.baselines.GrayscalePriorBaseline",
    "chrono_embed": "chronotasks.model_shims.chrono_embed.ChronoEmbed",
    "chrono_diffusers": "chronotasks.model_shims.chrono_diffusers.DiffusersT2I",
}

SUMMARY: dict[str, str] = {
    "chrono_random": "uniform over each question's answer space (a letter, any subset, any permutation, a year in range, "
    '"1"/"2"); the empty reply to free-text questions. No weights',
    "chrono_constant": 'the same reply to every question (e.g. always "Qing", always "2010"). No weights',
    "chrono_grayscale_prior": 'two-image "which is earlier" questions: the less colourful image ("grayscale is old"); '
    "else random. No weights",
    "chrono_embed": "embedding retrieval (MuseBench retrieval tasks) with a CLIP-family dual encoder and a faiss index",
    "chrono_diffusers": "text-to-image generation (TempViz tasks) with a diffusers pipeline; images cached on disk",
}

SEED_HELP = "seed of the draws (default: follows lmms-eval's --seed)"
HELP: dict[str, dict[str, str]] = {
    "chrono_random": {"seed": SEED_HELP, "device": "torch device (default: the accelerator's)"},
    "chrono_constant": {
        "answer": "the reply given to every question",
        "seed": SEED_HELP,
        "device": "torch device (default: the accelerator's)",
    },
    "chrono_grayscale_prior": {
        "tolerance": "saturation difference (0-255) below which the two images count as equally colourful (then: a random answer)",
        "seed": SEED_HELP,
        "device": "torch device (default: the accelerator's)",
    },
    "chrono_embed": {
        "pretrained": "hub id or local folder of the dual encoder (transformers AutoModel + AutoProcessor)",
        "embed_batch_size": "texts or images embedded per forward pass",
        "device": "torch device (default: the accelerator's)",
        "top_k": "ranked ids returned per query",
        "cache_dir": "folder of the cached corpus embeddings (default: $CHRONOTASKS_CACHE/embeddings, else the per-user "
        "chronotasks folder)",
        "max_text_length": "tokens per text (default: the text encoder's window)",
        "dtype": "torch dtype of the model",
        "search_block": "queries per faiss search",
        "faiss_gpu": "auto: the index on the model's GPU when faiss has GPU support; true: require it; false: CPU",
    },
    "chrono_diffusers": {
        "pretrained": "hub id or local folder of the diffusers pipeline",
        "num_inference_steps": "denoising steps",
        "guidance_scale": "classifier-free guidance (default: the pipeline's)",
        "seed": "seed; each image's generator is seeded from (seed, prompt)",
        "batch_size": "prompts generated per pipeline call (wins over lmms-eval's --batch_size)",
        "output_dir": "folder of the generated images (the cache a rerun reuses)",
        "height": "image height in pixels (default: the pipeline's)",
        "width": "image width in pixels (default: the pipeline's)",
        "dtype": "auto: float16 on CUDA, else float32",
        "device": "torch device (default: the accelerator's)",
        "pipeline_class": "auto: AutoPipelineForText2Image, else DiffusionPipeline; or a diffusers class name",
    },
}
# model id -> (prefix, what the keys of that family are for)
ARG_FAMILIES: dict[str, tuple[str, str]] = {
    "chrono_diffusers": (
        "judge",
        "judge=NAME and judge_*=...: the TempViz judge and its settings, handed to the task (chronotasks/tasks/tempviz/README.md)",
    ),
}


class ModelArgError(ValueError):
    """A --model_args value a backend cannot take; the message is one line."""


@dataclass(frozen=True)
class ModelArg:
    name: str
    kind: type  # int, float, str or bool
    optional: bool  # None (or "none"/"") allowed
    default: Any  # inspect.Parameter.empty: required
    help: str = ""

    @property
    def required(self) -> bool:
        return self.default is inspect.Parameter.empty

    def shown(self) -> str:
        if self.required:
            return f"{self.name} (required, {self.kind.__name__})"
        if self.default is None:
            return f"{self.name} ({self.kind.__name__}, optional)"
        return f"{self.name}={self.default} ({self.kind.__name__})"


def model_id_of(cls: type) -> str:
    path = f"{cls.__module__}.{cls.__qualname__}"
    return next((model_id for model_id, target in BACKENDS.items() if target == path), cls.__name__)


def _kind(hint: Any) -> tuple[type, bool]:
    """(base type, None allowed) of an annotation such as ``int | None``."""
    args = typing.get_args(hint)
    if args:
        kinds = [a for a in args if a is not type(None)]
        return (kinds[0] if len(kinds) == 1 and isinstance(kinds[0], type) else str), type(None) in args
    return (hint if isinstance(hint, type) else str), False


def model_args(cls: type) -> list[ModelArg]:
    """The arguments of a backend class: its ``__init__`` parameters and its bases' (up to LauncherModel),
    first definition wins, ``self``/``*args``/``**kwargs`` left out."""
    from chronotasks.model_shims.launcher import LauncherModel

    found: dict[str, ModelArg] = {}
    helps = HELP.get(model_id_of(cls), {})
    for klass in cls.__mro__:
        if klass is LauncherModel or not issubclass(klass, LauncherModel) or "__init__" not in vars(klass):
            continue
        hints = typing.get_type_hints(klass.__init__)
        for name, parameter in inspect.signature(klass.__init__).parameters.items():
            if name == "self" or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD) or name in found:
                continue
            kind, optional = _kind(hints.get(name, str))
            found[name] = ModelArg(name, kind, optional or parameter.default is None, parameter.default, helps.get(name, ""))
    return list(found.values())


def _convert(arg: ModelArg, value: Any, model_id: str) -> Any:
    """``value`` (a string, or the number/bool lmms-eval made of it) as the argument's type."""
    text = str(value).strip()
    if value is None or (arg.optional and text.lower() in ("", "none")):
        if arg.optional:
            return None
        raise ModelArgError(f"{model_id}: model_arg {arg.name} needs a value ({arg.kind.__name__})")
    try:
        if arg.kind is bool:
            return (
                value
                if isinstance(value, bool)
                else {"true": True, "yes": True, "1": True, "false": False, "no": False, "0": False}[text.lower()]
            )
        if arg.kind is int:
            if isinstance(value, float) and not value.is_integer():
                raise ValueError(value)
            return int(text) if isinstance(value, str) else int(value)
        if arg.kind is float:
            return float(text) if isinstance(value, str) else float(value)
    except (KeyError, TypeError, ValueError):
        need = {int: "a whole number", float: "a number", bool: "true or false"}[arg.kind]
        raise ModelArgError(f"{model_id}: model_arg {arg.name}={value!r} is not {need}") from None
    return text if arg.kind is str else value


def check_model_args(cls: type, given: dict[str, Any]) -> dict[str, Any]:
    """``given`` (as lmms-eval parsed --model_args) checked against the backend's arguments and converted
    to their types; an unknown or missing argument or a wrong type is a one-line ``ModelArgError``."""
    model_id = model_id_of(cls)
    declared = {arg.name: arg for arg in model_args(cls)}
    family = ARG_FAMILIES.get(model_id, ("", ""))[0]
    unknown = [
        key
        for key in given
        if key not in declared and key not in LAUNCHER_ARGS and not (family and (key == family or key.startswith(family + "_")))
    ]
    if unknown:
        valid = ", ".join(arg.shown() for arg in declared.values())
        extra = f"; and {family}, {family}_*" if family else ""
        raise ModelArgError(
            f"{model_id}: unknown model_arg{'s' if len(unknown) > 1 else ''} {', '.join(unknown)}; "
            f"valid: {valid}{extra} (`chronotasks models` lists them)"
        )
    missing = [arg.name for arg in declared.values() if arg.required and arg.name not in given]
    if missing:
        raise ModelArgError(
            f"{model_id}: --model_args needs {', '.join(f'{m}=...' for m in missing)} "
            f"({'; '.join(declared[m].help for m in missing if declared[m].help)})"
        )
    return {key: _convert(declared[key], value, model_id) if key in declared else value for key, value in given.items()}


def describe(model_id: str) -> str:
    """A backend with its arguments, defaults and what each is for (``chronotasks models``)."""
    import importlib

    module, _, name = BACKENDS[model_id].rpartition(".")
    cls = getattr(importlib.import_module(module), name)
    lines = [f"{model_id}: {SUMMARY.get(model_id, '')}", f"  --model_args (class {BACKENDS[model_id]}):"]
    for arg in model_args(cls):
        lines.append(f"    {arg.shown():<42} {arg.help}")
    if model_id in ARG_FAMILIES:
        lines.append(f"    {ARG_FAMILIES[model_id][0] + '_*':<42} {ARG_FAMILIES[model_id][1]}")
    return "\n".join(lines)


__all__ = ["BACKENDS", "HELP", "ModelArg", "ModelArgError", "check_model_args", "describe", "model_args"]
