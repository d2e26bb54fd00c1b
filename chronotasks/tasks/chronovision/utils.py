"""Hooks of the ChronoVision tasks: each a few lines over chronotasks.scoring.

Per-sample results are small dicts; the aggregations below (built in loops for
the per-dynasty / per-category breakdowns) turn the lists into figures.
``composite_S`` is each task's additive share of the composite S of §V.C; the
group ``chronovision`` sums the shares (``sum_of_shares``), so its row is S.
"""

import functools
import os
from dataclasses import replace
from pathlib import Path

from chronotasks.benchmarks.chronovision import ARTIFACT_CATEGORIES, BENCHMARK, DYNASTIES, SPEED_CATEGORIES
from chronotasks.benchmarks.chronovision.grayscale import trial_image
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.data.loading import DataError, benchmark_dir, doc_images, make_process_docs, open_doc_image, scores_image_failures
from chronotasks.extraction import read_answer
from chronotasks.failures import mean_unless_failed, unless_failed  # noqa: F401  (mean_unless_failed: the YAMLs' aggregation of scores)
from chronotasks.scoring import extract_json, kendall_tau, mean, within_k
from chronotasks.scoring.composite import news_score, shortcut_score
from chronotasks.scoring.period_distance import bias, chance_bias, chance_distance, distance, offset_item
from chronotasks.scoring.release_chronovision import multimodal_correct, news_year, shortcut_correct
from chronotasks.scoring.shortcut import CONFIDENCE_BINS, confidence_bin, shortcut_metrics
from chronotasks.prompts import render

B = BENCHMARK
loc_docs = make_process_docs(B, "artifacts_loc.jsonl", ("id", "images", "options", "answer", "dynasty", "category"))
sort_intra_docs = make_process_docs(B, "artifacts_sort_intra.jsonl", ("id", "images", "gold_order", "n"), "gold_order")
sort_cross_docs = make_process_docs(B, "artifacts_sort_cross.jsonl", ("id", "images", "gold_order", "n"), "gold_order")
shortcut_docs = make_process_docs(B, "shortcut.jsonl", ("id", "images", "gray", "answer", "condition", "category"))
news_year_docs = make_process_docs(B, "news_year.jsonl", ("id", "images", "year"), "year")
news_multimodal_docs = make_process_docs(B, "news_multimodal.jsonl", ("id", "images", "event", "answer"))
doc_to_visual = doc_images
# A year is read in 1000-2100, not only in the 1946-2025 span the records' answer space gives for the
# random baseline: a model's estimate outside the span is a (wrong) answer, not an unreadable one.
YEAR_SPACE = AnswerSpace("year", lo=1000, hi=2100)


# ---- prompts -------------------------------------------------------------------------------
def loc_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return render("chronovision/artifacts_loc.j2", options=doc["options"])


def sort_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return render("chronovision/artifacts_sort.j2", n=int(doc["n"]), category=doc.get("category", "artifacts"))


def news_year_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return render("chronovision/news_year.j2")


def news_year_confidence_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return render("chronovision/news_year_confidence.j2")


def news_multimodal_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return render("chronovision/news_multimodal.j2", event=doc["event"])


def gray_cache_dir() -> Path:
    return Path(os.environ.get("CHRONOVISION_GRAY_CACHE") or benchmark_dir(B) / "cache" / "grayscale")


def shortcut_doc_to_visual(doc):
    """The trial's images, grayscaled where ``gray`` says (Algorithm 1); a placeholder for one that cannot be opened."""
    if len(doc["images"]) != len(doc["gray"]):
        raise DataError(f"record {doc.get('id')!r}: 'images' has {len(doc['images'])} paths but 'gray' has {len(doc['gray'])} flags")
    cache = gray_cache_dir()
    return [open_doc_image(path, doc.get("id"), lambda p, rid, g=bool(gray): trial_image(p, g, cache, rid))
            for path, gray in zip(doc["images"], doc["gray"])]


def _shortcut_text(doc, cot):
    name = "shortcut_cot" if cot else "shortcut"
    return render(f"chronovision/{name}_system.j2"), render(f"chronovision/{name}_user.j2")


def _messages(doc, system, user):
    content = [{"type": "image", "url": image} for image in shortcut_doc_to_visual(doc)] + [{"type": "text", "text": user}]
    return [{"role": "system", "content": [{"type": "text", "text": system}]}, {"role": "user", "content": content}]


def shortcut_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    """Simple (non-chat) models get the system prompt and the user prompt as one text."""
    return "\n\n".join(_shortcut_text(doc, cot=False))


def shortcut_cot_doc_to_text(doc, lmms_eval_specific_kwargs=None):
    return "\n\n".join(_shortcut_text(doc, cot=True))


def shortcut_doc_to_messages(doc, lmms_eval_specific_kwargs=None):
    """Chat models get Fig. 13's system prompt as a system turn."""
    return _messages(doc, *_shortcut_text(doc, cot=False))


def shortcut_cot_doc_to_messages(doc, lmms_eval_specific_kwargs=None):
    return _messages(doc, *_shortcut_text(doc, cot=True))


# ---- per-sample results --------------------------------------------------------------------
@scores_image_failures
def loc_process_results(doc, results):
    pred, logged = read_answer(AnswerSpace.of_doc(doc), results[0], doc["options"])
    item = {"dynasty": doc["dynasty"], "category": doc["category"], "correct": float(pred == doc["answer"])}
    offset = dynasty_offset(doc, pred)
    # the release ships no scorer for the artifacts tasks: their share of S_release is our reading
    return {"ACC_A": item["correct"], "composite_S": item["correct"], "composite_S_release": item["correct"],
            "parse_failure": float(pred is None), **logged,
            **{f"acc_{d.lower()}": item for d in DYNASTIES}, **{f"acc_{c}": item for c in ARTIFACT_CATEGORIES},
            "period_distance": offset, "period_bias": offset, "period_distance_chance": offset, "period_bias_chance": offset}


def dynasty_offset(doc, pred):
    """How far the chosen dynasty is from the artifact's, in dynasties (Tang = 0 ... Qing = 4;
    chronotasks/scoring/period_distance.py); a random answer picks one of the five options."""
    positions = [DYNASTIES.index(option) for option in doc["options"]]
    chosen = None if pred is None else positions[ord(pred) - ord("A")]
    return offset_item(DYNASTIES.index(doc["dynasty"]), chosen, positions, doc["dynasty"],
                       None if chosen is None else DYNASTIES[chosen])


@scores_image_failures
def sort_process_results(doc, results):
    gold = list(doc["gold_order"])
    space = AnswerSpace.of_doc(doc)
    pred, logged = read_answer(space if space.base is not None else replace(space, base=0), results[0])  # 0-based image indices
    tau = kendall_tau(pred, gold)
    exact = float(pred is not None and list(pred) == gold)
    return {"tau": tau, "tau_50": tau, "exact_order": exact, "composite_S": tau, "composite_S_release": tau,
            "parse_failure": float(pred is None), **logged}


SHORTCUT_RELEASE = ("ACC_B_release", "ACC_1_release", "ACC_2_release", "delta_ACC_release", "composite_S_release")


def _shortcut_scores(doc, reply, cot):
    pred, logged = read_answer(AnswerSpace.of_doc(doc), reply)
    item = {"condition": doc["condition"], "category": doc["category"], "correct": float(pred == doc["answer"]),
            "pair": doc.get("pair_id")}   # the pair's three trials are one unit when `chronotasks report` resamples
    release = {**item, "correct": shortcut_correct(reply, doc["answer"], cot=cot)}
    keys = ["ACC_B", "ACC_1", "ACC_2", "delta_ACC", "composite_S"] + [f"{m}_{c}" for c in SPEED_CATEGORIES for m in ("ACC_B", "ACC_1", "ACC_2", "delta_ACC")]
    return {**{k: item for k in keys}, **{k: release for k in SHORTCUT_RELEASE}, "parse_failure": float(pred is None), **logged}


def release_skips_image_failures(process_results):
    """The release scripts skip a trial whose image they cannot encode (``if None in b64_list:
    continue``): such a trial is left out of the ``_release`` figures (its item's correct is None)."""

    @functools.wraps(process_results)
    def wrapped(doc, results):
        out = process_results(doc, results)
        if out.get("image_failure"):
            left_out = {**out[SHORTCUT_RELEASE[0]], "correct": None}
            out.update({key: left_out for key in SHORTCUT_RELEASE if key in out})
        return out

    return wrapped


@release_skips_image_failures
@scores_image_failures
def shortcut_process_results(doc, results):
    return _shortcut_scores(doc, results[0], cot=False)


@release_skips_image_failures
@scores_image_failures
def shortcut_cot_process_results(doc, results):
    out = _shortcut_scores(doc, results[0], cot=True)
    out.pop("composite_S")             # the CoT prompt is not part of S
    out.pop("composite_S_release")
    return out


@scores_image_failures
def news_year_process_results(doc, results):
    pred, logged = read_answer(YEAR_SPACE, results[0])
    gold = int(doc["year"])
    item = {"correct": within_k(pred, gold, 0), "error": None if pred is None else abs(pred - gold)}
    released = news_year(results[0])
    release = {"correct": float(released == gold), "error": None if released is None else abs(released - gold)}
    space = AnswerSpace.of_doc(doc)
    offset = offset_item(gold, pred, range(space.lo, space.hi + 1))   # signed error; chance: a random year of the space
    return {"ACC_Y": item["correct"], "MAE": item["error"], "within_1": within_k(pred, gold, 1), "within_3": within_k(pred, gold, 3),
            "composite_S": item, "parse_failure": float(pred is None), **logged,
            "ACC_Y_release": release["correct"], "MAE_release": release["error"], "composite_S_release": release,
            "year_bias": offset, "MAE_chance": offset, "year_bias_chance": offset}


@scores_image_failures
def news_year_confidence_process_results(doc, results):
    obj = extract_json(results[0])
    pred, logged = read_answer(YEAR_SPACE, results[0])
    try:
        confidence = float(obj.get("confidence")) if isinstance(obj, dict) else None
    except (TypeError, ValueError):
        confidence = None
    gold = int(doc["year"])
    item = {"bin": confidence_bin(confidence), "exact": within_k(pred, gold, 0), "w1": within_k(pred, gold, 1), "w3": within_k(pred, gold, 3)}
    bins = {f"{kind}_conf_{lo}_{hi}": item for lo, hi in CONFIDENCE_BINS for kind in ("n", "acc", "within1", "within3")}
    return {"ACC_Y": item["exact"], "MAE": None if pred is None else abs(pred - gold), **bins,
            "parse_failure": float(pred is None or item["bin"] is None), **logged}


@scores_image_failures
def news_multimodal_process_results(doc, results):
    pred, logged = read_answer(AnswerSpace.of_doc(doc), results[0])
    correct = float(pred == doc["answer"])
    release = multimodal_correct(results[0], doc["answer"])
    return {"ACC_M": correct, "composite_S": correct, "parse_failure": float(pred is None), **logged,
            "ACC_M_release": release, "composite_S_release": release}


# ---- aggregations --------------------------------------------------------------------------
def _share(fraction):
    @unless_failed
    def agg(values):
        return fraction * mean(values)
    return agg


def _group_acc(field, value):
    def agg(items):
        return mean([i["correct"] for i in items if i[field] == value])
    agg.__name__ = f"acc_{field}_{value}"
    return unless_failed(agg)


def mae(values):
    """Over the replies that gave a year (an unreadable one has no error): NaN when none did."""
    return mean(values)


# period / year distance (chronotasks/scoring/period_distance.py): over the answered records; chance over all
period_distance, period_bias, year_bias = unless_failed(distance), unless_failed(bias), unless_failed(bias)  # NaN for a failed task
period_distance_chance, period_bias_chance = chance_distance, chance_bias   # properties of the questions
MAE_chance, year_bias_chance = chance_distance, chance_bias


@unless_failed
def tau_50(values):
    return 50.0 * (1.0 + mean(values))


loc_share = _share(1 / 6)                   # S_A/3 = (ACC_A + (1+τ)/2) / 6
multimodal_share = _share(1 / 6)            # S_N/3 = (ACC_Y(1-MAE/80) + ACC_M) / 6


@unless_failed
def sort_share(values):
    """(1+τ_level)/2 / 6 / 2: τ of S_A is the mean of the intra and cross levels (500 records each)."""
    return (1.0 + mean(values)) / 2.0 / 12.0


@unless_failed
def news_year_share(items):
    """The year part of S_N/3: news_score with ACC_M = 0 (the multimodal task adds its own share)."""
    return news_score(mean([i["correct"] for i in items]), mean([i["error"] for i in items]), 0.0) / 3.0


def _shortcut_metric(name, category=None):
    def agg(items):
        where = {"category": category} if category else {}
        return shortcut_metrics(items, **where)[name]
    agg.__name__ = f"{name}_{category or 'all'}"
    return unless_failed(agg)


@unless_failed
def shortcut_share(items):
    m = shortcut_metrics(items)
    return shortcut_score(m["ACC_B"], m["delta_ACC"]) / 3.0


def _bin_metric(kind, label):
    def agg(items):
        chosen = [i for i in items if i["bin"] == label]
        if kind == "n":
            return float(len(chosen))
        return mean([i[{"acc": "exact", "within1": "w1", "within3": "w3"}[kind]] for i in chosen])
    return agg if kind == "n" else unless_failed(agg)


def sum_of_shares(metrics, sizes, weight_by_size=False):
    """Group aggregation: S = sum of the tasks' composite_S shares (sizes are not used)."""
    return float(sum(metrics))


for _d in DYNASTIES:
    globals()[f"acc_dynasty_{_d.lower()}"] = _group_acc("dynasty", _d)
for _c in ARTIFACT_CATEGORIES:
    globals()[f"acc_category_{_c}"] = _group_acc("category", _c)
for _name in ("ACC_B", "ACC_1", "ACC_2", "delta_ACC"):
    globals()[f"shortcut_{_name}"] = _shortcut_metric(_name)
    for _c in SPEED_CATEGORIES:
        globals()[f"shortcut_{_name}_{_c}"] = _shortcut_metric(_name, _c)
for _lo, _hi in CONFIDENCE_BINS:
    for _kind in ("n", "acc", "within1", "within3"):
        globals()[f"conf_{_kind}_{_lo}_{_hi}"] = _bin_metric(_kind, f"{_lo}-{_hi}")
