"""What chronotasks adds per record next to the model, per task family (not a test).

    PYTHONPATH=. python perf/harness_overhead.py [--records 3000 30000] [--families chrono_demo tabvlm_chrono ...]
        [--no-runs] [--threads 1] [--repeats 2] [--unique-images 1024 768]

Demo data (``chronotasks demo-data``) is scaled up: each family gets --records records, spread
over its task files (demo records repeated, ids made unique; the same images, or with
--unique-images W H a JPEG file of its own, W x H, for every image of every record (hard links
of one file per demo image), so that nothing is learnt once per path: ``process_results`` checks each image the model did not open).
Then, per family:

1. our hooks, in this process, on the larger size, taken from lmms-eval's own Task objects
   (``TaskManager``) and called as its evaluator calls them, without its wrappers (its retry
   decorator, its row iteration): ``process_docs`` (our loader) once per task, ``doc_to_text`` and
   ``process_results`` per record, the aggregations once per task, and the ``chrono_random``
   backend's ``generate_until`` (our model shim, its document lookup included) per record, at both
   --records sizes in turn (the small one twice): the slope between the warm passes is what a record
   costs; warm-up (imports, template compilation, first-call caches: once per run) is the first
   pass less the second, shown apart. The slopes' sum
   is **our share** of a chrono_random run; the target is <= 0.15 ms per record.
   ``doc_to_visual`` (opening the record's images; a VLM calls it, chrono_random does not) is shown
   beside it, not in the share.
2. whole runs: ``python -m lmms_eval --model chrono_random --tasks FAMILY`` in a subprocess at each
   --records size (--repeats times; the fastest counts): wall time, the time inside lmms-eval's
   ``simple_evaluate`` (loading, requests, model, scoring, aggregation; not lmms-eval's start-up:
   imports and its task index), and peak RSS (``os.wait4``). Per record: the large run's
   simple_evaluate time / records, and the slope between the sizes; RSS per 1,000 records is the
   slope of the peaks (flat = close to 0; lmms-eval itself keeps every request and result).

Results are printed as a markdown table. Times are of this machine with --threads (torch, BLAS)
threads; a shared machine adds noise to the whole-run slope.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
FAMILIES = {  # family -> its benchmark folder and task files (the files its tasks read)
    "chrono_demo": ("chrono_demo", ["pair.jsonl", "period.jsonl"]),
    "tabvlm_chrono": (
        "tabvlm",
        ["style_period.jsonl", "sequence.jsonl", "technique.jsonl", "material.jsonl", "grouping.jsonl", "odd_one_out.jsonl"],
    ),
    "chronovision": (
        "chronovision",
        [
            "artifacts_loc.jsonl",
            "artifacts_sort_intra.jsonl",
            "artifacts_sort_cross.jsonl",
            "shortcut.jsonl",
            "news_year.jsonl",
            "news_multimodal.jsonl",
        ],
    ),
    "musebench_vqa": ("musebench", ["vqa.jsonl"]),
    "musebench_retrieval": (
        "musebench",
        [f"retrieval_{d}_{s}.jsonl" for d in ("i2t", "t2i") for s in ("structural", "structural_nl", "descriptive")],
    ),
    "tempviz": ("tempviz", ["landscapes.jsonl", "animals.jsonl", "buildings.jsonl", "maps.jsonl", "artworks.jsonl"]),
}
# variant groups (circular/ and gray/ sub-folders): the same task files as their base family
VARIANTS = (
    "chrono_demo_circular",
    "tabvlm_chrono_circular",
    "chronovision_circular",
    "tabvlm_chrono_gray",
    "chronovision_gray",
    "musebench_gray",
)
TARGET_MS = 0.15


def scaled_data(demo: Path, out: Path, records: int, unique_size: tuple[int, int] | None = None) -> Path:
    """A copy of the demo data in which every family has about ``records`` records, spread evenly
    over its task files (demo records repeated, ids made unique); with ``unique_size`` (w, h) every
    image of every record is a JPEG file of its own of that size (copies of the demo image, enlarged)."""
    from chronotasks.data.loading import read_jsonl, write_jsonl

    shutil.copytree(demo, out, symlinks=True)
    enlarged: dict[tuple[str, str], Path] = {}
    for benchmark, files in FAMILIES.values():
        for name in files:
            rows = read_jsonl(demo / benchmark / name)
            n = max(1, records // len(files))
            scaled = [{**rows[i % len(rows)], "id": f"{rows[i % len(rows)]['id']}~{i // len(rows)}"} for i in range(n)]
            if unique_size:
                for i, row in enumerate(scaled):
                    row["images"] = [
                        _unique_jpeg(out / benchmark, rel, f"{Path(name).stem}_{i}_{k}", unique_size, enlarged)
                        for k, rel in enumerate(row.get("images") or [])
                    ]
            write_jsonl(out / benchmark / name, scaled)
    return out


def _unique_jpeg(folder: Path, rel: str, stem: str, size: tuple[int, int], enlarged: dict) -> str:
    """A new file ``unique/<stem>.jpg`` under ``folder``: the image ``rel`` enlarged to ``size``, made
    once and hard-linked (a path of its own, as every check and cache sees files, without the disk
    space of a copy)."""
    from PIL import Image

    (folder / "unique").mkdir(exist_ok=True)
    key = (str(folder), rel)
    if key not in enlarged:
        enlarged[key] = folder / "unique" / f"source_{len(enlarged)}.jpg"
        with Image.open(folder / rel) as image:
            image.convert("RGB").resize(size, Image.BICUBIC).save(enlarged[key], format="JPEG", quality=90)
    os.link(enlarged[key], folder / "unique" / f"{stem}.jpg")
    return f"unique/{stem}.jpg"


def time_hooks(family: str) -> dict[str, float]:
    """Seconds of each of our steps over all records of one family (data root from the environment),
    and ``records``."""
    import datasets
    from lmms_eval.api.instance import Instance
    from lmms_eval.tasks import TaskManager, get_task_dict

    from chronotasks.model_shims.baselines import RandomBaseline
    from chronotasks.tasks import TASKS_DIR, leaf_tasks

    datasets.disable_progress_bars()
    tasks = leaf_tasks(get_task_dict([family], TaskManager(include_path=str(TASKS_DIR), verbosity="ERROR")))
    model = RandomBaseline(seed=0)
    totals = dict.fromkeys(("process_docs", "doc_to_text", "model", "process_results", "aggregations", "doc_to_visual"), 0.0)
    n_records = 0
    for name, task in tasks.items():
        config, kwargs = task.config, task.lmms_eval_specific_kwargs
        start = time.perf_counter()
        dataset = config.process_docs(None)
        totals["process_docs"] += time.perf_counter() - start
        docs = dataset.to_list()  # lmms-eval iterates the rows itself: not ours, not timed
        n_records += len(docs)
        model.task_dict[name] = {"test": dataset}
        start = time.perf_counter()
        contexts = [config.doc_to_text(doc, kwargs) for doc in docs]
        totals["doc_to_text"] += time.perf_counter() - start
        requests = [
            Instance(
                "generate_until", (ctx, {}, task.doc_to_visual, n, name, "test"), idx=0, metadata={"task": name, "doc_id": n, "repeats": 1}
            )
            for n, ctx in enumerate(contexts)
        ]
        start = time.perf_counter()
        replies = [reply.strip() for reply in model.generate_until(requests)]
        totals["model"] += time.perf_counter() - start
        start = time.perf_counter()
        per_metric: dict[str, list] = {}
        for doc, reply in zip(docs, replies):
            for metric, value in config.process_results(doc, [reply]).items():
                per_metric.setdefault(metric, []).append(value)
        totals["process_results"] += time.perf_counter() - start
        start = time.perf_counter()
        aggregations = task.aggregation()
        for metric, values in per_metric.items():
            if metric in aggregations:  # (process_results also logs fields that are no metric, e.g. data_origin)
                aggregations[metric](values)
        totals["aggregations"] += time.perf_counter() - start
        sample = list(range(0, len(docs), max(1, len(docs) // 200)))  # images: a sample of records is enough
        start = time.perf_counter()
        for n in sample:
            task.doc_to_visual(docs[n])
        totals["doc_to_visual"] += (time.perf_counter() - start) * len(docs) / len(sample)
    return totals | {"records": n_records}


STEPS = ("process_docs", "doc_to_text", "model", "process_results", "aggregations")


def per_record(first: dict[str, float], small: dict[str, float], large: dict[str, float]) -> dict[str, float]:
    """Per step, what a record costs apart from warm-up: the slope (ms per record) between the warm
    hook times of two sizes, and ``<step>_warmup``, the one-off part (ms: the first, cold pass over the
    small size less the second, warm one; imports, template compilation, first-call caches)."""
    extra = large["records"] - small["records"]
    out = {}
    for step in (*STEPS, "doc_to_visual"):
        out[step] = (large[step] - small[step]) / extra * 1e3
        out[f"{step}_warmup"] = (first[step] - small[step]) * 1e3
    return out


RUNNER = """
import runpy, sys, time
import lmms_eval.evaluator as evaluator
timing_file = sys.argv.pop(1)
inner = evaluator.simple_evaluate
def timed(*args, **kwargs):
    start = time.perf_counter()
    try:
        return inner(*args, **kwargs)
    finally:
        with open(timing_file, "w") as handle:
            handle.write(str(time.perf_counter() - start))
evaluator.simple_evaluate = timed
sys.argv[0] = "lmms_eval"
runpy.run_module("lmms_eval", run_name="__main__", alter_sys=True)
"""


def whole_run(family: str, data_root: Path, work: Path, threads: int) -> tuple[float, float, float, int]:
    """(wall seconds, seconds inside ``simple_evaluate``, peak RSS MiB, exit status) of one
    chrono_random lmms-eval run of a family. ``simple_evaluate`` is timed by a wrapper that calls
    lmms-eval's own CLI: its time excludes lmms-eval's start-up (imports, task index)."""
    from chronotasks.tasks import TASKS_DIR

    env = {
        **os.environ,
        "CHRONOTASKS_DATA": str(data_root),
        "PYTHONPATH": f"{REPO}{os.pathsep}{os.environ.get('PYTHONPATH', '')}",
        "OMP_NUM_THREADS": str(threads),
        "HF_HUB_OFFLINE": "1",
        "HF_DATASETS_OFFLINE": "1",
        "TOKENIZERS_PARALLELISM": "false",
    }
    out = work / f"out_{family}_{time.monotonic_ns()}"
    timing = out.with_suffix(".seconds")
    command = [
        sys.executable,
        "-c",
        RUNNER,
        str(timing),
        "--model",
        "chrono_random",
        "--tasks",
        family,
        "--include_path",
        str(TASKS_DIR),
        "--output_path",
        str(out),
    ]
    start = time.perf_counter()
    with open(work / "run.log", "ab") as log:
        proc = subprocess.Popen(command, env=env, cwd=work, stdout=log, stderr=subprocess.STDOUT)
        _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if not list(out.glob("**/*_results.json")):
        status = status or 1
    evaluate = float(timing.read_text()) if timing.is_file() else float("nan")
    return wall, evaluate, usage.ru_maxrss / 1024, status


def best_run(family: str, data_root: Path, work: Path, threads: int, repeats: int) -> tuple[float, float, float, int]:
    """The fastest of ``repeats`` whole runs (a shared machine adds noise), peak RSS the largest,
    status the worst."""
    runs = [whole_run(family, data_root, work, threads) for _ in range(repeats)]
    return min(r[0] for r in runs), min(r[1] for r in runs), max(r[2] for r in runs), max(r[3] for r in runs)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument(
        "--records",
        type=int,
        nargs=2,
        default=[3000, 30000],
        metavar=("SMALL", "LARGE"),
        help="records per family in the two whole runs (hooks are timed on LARGE)",
    )
    parser.add_argument(
        "--families",
        nargs="+",
        default=list(FAMILIES),
        choices=[*FAMILIES, *VARIANTS],
        help="task families (groups) to time; the variant groups read their base family's files",
    )
    parser.add_argument("--no-runs", action="store_true", help="only our hooks, no lmms-eval subprocess runs")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--repeats", type=int, default=2, help="whole runs per size; the fastest counts")
    parser.add_argument(
        "--unique-images",
        type=int,
        nargs=2,
        metavar=("W", "H"),
        help="every image of every record a JPEG file of its own, W x H (e.g. 1024 768)",
    )
    args = parser.parse_args()
    os.environ.update(OMP_NUM_THREADS=str(args.threads), HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1", TOKENIZERS_PARALLELISM="false")
    import torch

    torch.set_num_threads(args.threads)
    from chronotasks.benchmarks import write_demo_data

    small, large = args.records
    print(
        f"machine: {platform.machine()}, {os.cpu_count()} CPUs, {args.threads} thread(s), Python {platform.python_version()}, "
        f"torch {torch.__version__}; records per family: {small:,} and {large:,}"
        + (f"; every image a JPEG of its own, {args.unique_images[0]}x{args.unique_images[1]}" if args.unique_images else "")
    )
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        write_demo_data(work / "demo", seed=0)
        roots = {n: scaled_data(work / "demo", work / f"data_{n}", n, args.unique_images) for n in sorted({small, large})}
        os.environ.setdefault("CHRONOTASKS_CACHE", str(work / "cache"))
        os.chdir(work)  # TempViz writes its per-sample record under ./chrono_judge_cache
        rows = []
        for family in args.families:
            timed = []
            for n in (small, small, large):  # the small size twice: the first pass holds the one-off warm-up
                os.environ["CHRONOTASKS_DATA"] = str(roots[n])
                timed.append(time_hooks(family))
            hooks = per_record(*timed)
            timed = {small: timed[1], large: timed[2]}
            ours = sum(hooks[s] for s in STEPS)
            row = {
                "family": family,
                "records": timed[large]["records"],
                **hooks,
                "ours": ours,
                "warmup": sum(hooks[f"{s}_warmup"] for s in STEPS),
            }
            if not args.no_runs:
                (t1, e1, m1, s1), (t2, e2, m2, s2) = (best_run(family, roots[n], work, args.threads, args.repeats) for n in (small, large))
                records = (timed[small]["records"], timed[large]["records"])
                # (chronovision's shortcut file feeds two tasks, so a family can have more records than --records)
                extra = records[1] - records[0]
                row.update(
                    run_records=records,
                    wall=(t1, t2),
                    evaluate=(e1, e2),
                    evaluate_ms=e2 / records[1] * 1e3,
                    slope_ms=(e2 - e1) / extra * 1e3,
                    rss=(m1, m2),
                    rss_per_1k=(m2 - m1) / extra * 1e3,
                    status=max(s1, s2),
                )
            rows.append(row)
            print(json.dumps({k: (round(v, 4) if isinstance(v, float) else v) for k, v in row.items()}), flush=True)
        print_table(rows, args.no_runs)


def print_table(rows: list[dict], no_runs: bool) -> None:
    print(
        "\nOur hooks per record (ms; the slope between the two sizes) — in a chrono_random run; doc_to_visual is what a "
        "VLM adds by opening images; warm-up: the one-off part, ms per run:\n"
    )
    print(
        "| family | records | process_docs | doc_to_text | chrono_random | process_results | aggregations | **our share** "
        f"| / {TARGET_MS} ms target | warm-up ms | doc_to_visual |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(
            f"| {r['family']} | {r['records']:,} | {r['process_docs']:.3f} | {r['doc_to_text']:.3f} | {r['model']:.3f} "
            f"| {r['process_results']:.3f} | {r['aggregations']:.3f} | **{r['ours']:.3f}** | {r['ours'] / TARGET_MS:.2f} "
            f"| {r['warmup']:.0f} | {r['doc_to_visual']:.2f} |"
        )
    if not no_runs:
        print(
            "\nWhole chrono_random lmms-eval runs (the per-record times exclude lmms-eval's start-up: time inside "
            "simple_evaluate; slope = between the two sizes):\n"
        )
        print(
            "| family | records (small, large) | wall s | simple_evaluate s | ms / record (large run) | ms / record (slope) "
            "| our share | peak RSS MiB | RSS MiB / 1k records | exit |"
        )
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in rows:
            print(
                f"| {r['family']} | {r['run_records'][0]:,}, {r['run_records'][1]:,} | {r['wall'][0]:.1f}, {r['wall'][1]:.1f} "
                f"| {r['evaluate'][0]:.1f}, {r['evaluate'][1]:.1f} | {r['evaluate_ms']:.3f} | {r['slope_ms']:.3f} "
                f"| {r['ours'] / r['evaluate_ms']:.0%} | {r['rss'][0]:.0f}, {r['rss'][1]:.0f} | {r['rss_per_1k']:.1f} | {r['status']} |"
            )
    worst = max(rows, key=lambda r: r["ours"])
    print(
        f"\nRESULT our share per record: max {worst['ours']:.3f} ms ({worst['family']}); target <= {TARGET_MS} ms: "
        f"{'met' if worst['ours'] <= TARGET_MS else 'NOT met'} on every family"
        if all(r["ours"] <= TARGET_MS for r in rows)
        else f"\nRESULT our share per record: max {worst['ours']:.3f} ms ({worst['family']}); target <= {TARGET_MS} ms: NOT met on "
        + ", ".join(r["family"] for r in rows if r["ours"] > TARGET_MS)
    )


if __name__ == "__main__":
    main()
