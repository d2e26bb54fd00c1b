"""Hooks of the ChronoVision tasks: each a few lines over chronotasks.scoring.

Per-sample results are small dicts; the aggregations below, each defined by the name its YAML
uses, turn the lists into figures.
``composite_S`` is each task's additive term of the composite S of §V.C (defined once, in
chronotasks.scoring.composite); the group ``chronovision`` sums the terms (``sum_of_shares``), so
its row is S.
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
from chronotasks.failures import (
    FailedScore,
    mean_unless_failed,  # noqa: F401  (the YAMLs' aggregation of scores)
    unless_failed,
)
from chronotasks.prompts import render
from chronotasks.scoring import extract_json, kendall_tau, mean, within_k
from chronotasks.scoring.composite import localization_term, multimodal_term, shortcut_term, sorting_term, year_term
from chronotasks.scoring.period_distance import bias, chance_bias, chance_distance, distance, offset_item
from chronotasks.scoring.release_chronovision import multimodal_correct, news_year, shortcut_correct
from chronotasks.scoring.shortcut import CONFIDENCE_BINS, confidence_bin, shortcut_metrics
from chronotasks.scoring.strict import strict_match
from chronotasks.tasks.messages import images_then_text, make_doc_to_messages

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


loc_doc_to_messages = make_doc_to_messages(doc_to_visual, loc_doc_to_text)
sort_doc_to_messages = make_doc_to_messages(doc_to_visual, sort_doc_to_text)
news_year_doc_to_messages = make_doc_to_messages(doc_to_visual, news_year_doc_to_text)
news_year_confidence_doc_to_messages = make_doc_to_messages(doc_to_visual, news_year_confidence_doc_to_text)
news_multimodal_doc_to_messages = make_doc_to_messages(doc_to_visual, news_multimodal_doc_to_text)


def gray_cache_dir() -> Path:
    return Path(os.environ.get("CHRONOVISION_GRAY_CACHE") or benchmark_dir(B) / "cache" / "grayscale")


def shortcut_doc_to_visual(doc):
    """The trial's images, grayscaled where ``gray`` says (Algorithm 1); a placeholder for one that cannot be opened."""
    if len(doc["images"]) != len(doc["gray"]):
        raise DataError(f"record {doc.get('id')!r}: 'images' has {len(doc['images'])} paths but 'gray' has {len(doc['gray'])} flags")
    cache = gray_cache_dir()
    return [
        open_doc_image(path, doc.get("id"), lambda p, rid, g=bool(gray): trial_image(p, g, cache, rid))
        for path, gray in zip(doc["images"], doc["gray"])
    ]


def _shortcut_text(doc, cot):
    name = "shortcut_cot" if cot else "shortcut"
    return render(f"chronovision/{name}_system.j2"), render(f"chronovision/{name}_user.j2")


def _messages(doc, system, user):
    return images_then_text(shortcut_doc_to_visual(doc), user, system)


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
    space = AnswerSpace.of_doc(doc)
    pred, logged = read_answer(space, results[0], doc["options"])
    item = {"dynasty": doc["dynasty"], "category": doc["category"], "correct": float(pred == doc["answer"])}
    offset = dynasty_offset(doc, pred)
    # the release ships no scorer for the artifacts tasks: their share of S_release is our reading
    return {
        "ACC_A": item["correct"],
        "composite_S": item["correct"],
        "composite_S_release": ours(item["correct"], pred),
        "strict_match": strict_match(space, results[0], item["correct"]),
        "parse_failure": float(pred is None),
        **logged,
        **{f"acc_{d.lower()}": item for d in DYNASTIES},
        **{f"acc_{c}": item for c in ARTIFACT_CATEGORIES},
        "period_distance": offset,
        "period_bias": offset,
        "period_distance_chance": offset,
        "period_bias_chance": offset,
    }


def ours(score: float, pred: object) -> float:
    """A release-protocol figure that is our reading (the release ships no scorer for the artifacts
    tasks): our parse failure marks it, as it marks our own figures (a ``*_release`` figure is
    otherwise left standing by our parse failure, chronotasks.failures.RELEASE_SUFFIX)."""
    return FailedScore(score, "parse_failure") if pred is None else score


def dynasty_offset(doc, pred):
    """How far the chosen dynasty is from the artifact's, in dynasties (Tang = 0 ... Qing = 4;
    chronotasks/scoring/period_distance.py); a random answer picks one of the five options."""
    positions = [DYNASTIES.index(option) for option in doc["options"]]
    chosen = None if pred is None else positions[ord(pred) - ord("A")]
    return offset_item(DYNASTIES.index(doc["dynasty"]), chosen, positions, doc["dynasty"], None if chosen is None else DYNASTIES[chosen])


@scores_image_failures
def sort_process_results(doc, results):
    gold = list(doc["gold_order"])
    space = AnswerSpace.of_doc(doc)
    space = space if space.base is not None else replace(space, base=0)  # 0-based image indices
    pred, logged = read_answer(space, results[0])
    tau = kendall_tau(pred, gold)
    exact = float(pred is not None and list(pred) == gold)
    return {
        "tau": tau,
        "tau_0_100": {"tau": tau},
        "exact_order": exact,
        "composite_S": tau,
        "composite_S_release": ours(tau, pred),
        "strict_match": strict_match(space, results[0], exact),
        "parse_failure": float(pred is None),
        **logged,
    }


SHORTCUT_RELEASE = ("ACC_B_release", "ACC_1_release", "ACC_2_release", "delta_ACC_release", "composite_S_release")


def _shortcut_scores(doc, reply, cot):
    space = AnswerSpace.of_doc(doc)
    pred, logged = read_answer(space, reply)
    item = {
        "condition": doc["condition"],
        "category": doc["category"],
        "correct": float(pred == doc["answer"]),
        "pair": doc.get("pair_id"),
    }  # the pair's three trials are one unit when `chronotasks report` resamples
    release = {**item, "correct": shortcut_correct(reply, doc["answer"], cot=cot)}
    keys = ["ACC_B", "ACC_1", "ACC_2", "delta_ACC", "composite_S"] + [
        f"{m}_{c}" for c in SPEED_CATEGORIES for m in ("ACC_B", "ACC_1", "ACC_2", "delta_ACC")
    ]
    return {
        **{k: item for k in keys},
        **{k: release for k in SHORTCUT_RELEASE},
        "strict_match": strict_match(space, reply, item["correct"]),
        "parse_failure": float(pred is None),
        **logged,
    }


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
    out.pop("composite_S")  # the CoT prompt is not part of S
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
    offset = offset_item(gold, pred, range(space.lo, space.hi + 1))  # signed error; chance: a random year of the space
    return {
        "ACC_Y": item["correct"],
        "MAE": item["error"],
        "within_1": within_k(pred, gold, 1),
        "within_3": within_k(pred, gold, 3),
        "composite_S": item,
        "strict_match": strict_match(YEAR_SPACE, results[0], item["correct"]),
        "parse_failure": float(pred is None),
        **logged,
        "ACC_Y_release": release["correct"],
        "MAE_release": release["error"],
        "composite_S_release": release,
        "year_bias": offset,
        "MAE_chance": offset,
        "year_bias_chance": offset,
    }


@scores_image_failures
def news_year_confidence_process_results(doc, results):
    obj = extract_json(results[0])
    pred, logged = read_answer(YEAR_SPACE, results[0])
    try:
        confidence = float(obj.get("confidence")) if isinstance(obj, dict) else None
    except (TypeError, ValueError):
        confidence = None
    gold = int(doc["year"])
    item = {
        "bin": confidence_bin(confidence),
        "exact": within_k(pred, gold, 0),
        "w1": within_k(pred, gold, 1),
        "w3": within_k(pred, gold, 3),
    }
    bins = {f"{kind}_conf_{lo}_{hi}": item for lo, hi in CONFIDENCE_BINS for kind in ("n", "acc", "within1", "within3")}
    return {
        "ACC_Y": item["exact"],
        "MAE": None if pred is None else abs(pred - gold),
        **bins,
        "strict_match": strict_match(YEAR_SPACE, results[0], item["exact"], json_key="year"),
        "parse_failure": float(pred is None or item["bin"] is None),
        **logged,
    }


@scores_image_failures
def news_multimodal_process_results(doc, results):
    space = AnswerSpace.of_doc(doc)
    pred, logged = read_answer(space, results[0])
    correct = float(pred == doc["answer"])
    release = multimodal_correct(results[0], doc["answer"])
    return {
        "ACC_M": correct,
        "composite_S": correct,
        "strict_match": strict_match(space, results[0], correct),
        "parse_failure": float(pred is None),
        **logged,
        "ACC_M_release": release,
        "composite_S_release": release,
    }


# ---- aggregations --------------------------------------------------------------------------
# Each figure of a YAML's metric_list is defined here by the name the YAML gives it.
def _group_acc(field, value):
    """Accuracy over the items of one dynasty or artifact category (NaN for a failed task)."""
    return unless_failed(lambda items: mean([i["correct"] for i in items if i[field] == value]))


acc_dynasty_tang = _group_acc("dynasty", "Tang")
acc_dynasty_song = _group_acc("dynasty", "Song")
acc_dynasty_yuan = _group_acc("dynasty", "Yuan")
acc_dynasty_ming = _group_acc("dynasty", "Ming")
acc_dynasty_qing = _group_acc("dynasty", "Qing")
acc_category_china = _group_acc("category", "china")
acc_category_coin = _group_acc("category", "coin")
acc_category_jade = _group_acc("category", "jade")
acc_category_fan = _group_acc("category", "fan")
acc_category_carving = _group_acc("category", "carving")
acc_category_lacquerware = _group_acc("category", "lacquerware")


def mae(values):
    """Over the replies that gave a year (an unreadable one has no error): NaN when none did."""
    return mean(values)


# period / year distance (chronotasks/scoring/period_distance.py): over the answered records; chance over all
period_distance, period_bias, year_bias = unless_failed(distance), unless_failed(bias), unless_failed(bias)  # NaN for a failed task
period_distance_chance, period_bias_chance = chance_distance, chance_bias  # properties of the questions
MAE_chance, year_bias_chance = chance_distance, chance_bias


@unless_failed
def tau_0_100(items):
    """Table III's 50 × (1 + τ), on a 0-100 scale. Its items are {"tau": τ}, not numbers: lmms-eval would
    give it the standard error of τ (a 0-1 figure) otherwise."""
    return 50.0 * (1.0 + mean([item["tau"] for item in items]))


# ``composite_S``: each task's term of S (chronotasks.scoring.composite, the one definition of S)
@unless_failed
def loc_share(values):
    return localization_term(mean(values))


@unless_failed
def sort_share(values):
    """Half of τ's term: τ of S_A is the mean of the intra and cross levels, one task each."""
    return sorting_term(mean(values)) / 2.0


@unless_failed
def shortcut_share(items):
    m = shortcut_metrics(items)
    return shortcut_term(m["ACC_B"], m["delta_ACC"])


@unless_failed
def news_year_share(items):
    return year_term(mean([i["correct"] for i in items]), mean([i["error"] for i in items]))


@unless_failed
def multimodal_share(values):
    return multimodal_term(mean(values))


def sum_of_shares(metrics, sizes, weight_by_size=False):
    """Group aggregation: S = sum of the tasks' composite_S terms (sizes are not used); NaN when a task's is."""
    return float(sum(metrics))


def _shortcut_metric(name, category=None):
    """ACC_B, ACC_1, ACC_2 or delta_ACC over the trials (of one SPEED category), NaN for a failed task."""
    where = {"category": category} if category else {}
    return unless_failed(lambda items: shortcut_metrics(items, **where)[name])


shortcut_ACC_B = _shortcut_metric("ACC_B")
shortcut_ACC_1 = _shortcut_metric("ACC_1")
shortcut_ACC_2 = _shortcut_metric("ACC_2")
shortcut_delta_ACC = _shortcut_metric("delta_ACC")
shortcut_ACC_B_sports = _shortcut_metric("ACC_B", "sports")
shortcut_ACC_1_sports = _shortcut_metric("ACC_1", "sports")
shortcut_ACC_2_sports = _shortcut_metric("ACC_2", "sports")
shortcut_delta_ACC_sports = _shortcut_metric("delta_ACC", "sports")
shortcut_ACC_B_politics = _shortcut_metric("ACC_B", "politics")
shortcut_ACC_1_politics = _shortcut_metric("ACC_1", "politics")
shortcut_ACC_2_politics = _shortcut_metric("ACC_2", "politics")
shortcut_delta_ACC_politics = _shortcut_metric("delta_ACC", "politics")
shortcut_ACC_B_emergency = _shortcut_metric("ACC_B", "emergency")
shortcut_ACC_1_emergency = _shortcut_metric("ACC_1", "emergency")
shortcut_ACC_2_emergency = _shortcut_metric("ACC_2", "emergency")
shortcut_delta_ACC_emergency = _shortcut_metric("delta_ACC", "emergency")
shortcut_ACC_B_electronics = _shortcut_metric("ACC_B", "electronics")
shortcut_ACC_1_electronics = _shortcut_metric("ACC_1", "electronics")
shortcut_ACC_2_electronics = _shortcut_metric("ACC_2", "electronics")
shortcut_delta_ACC_electronics = _shortcut_metric("delta_ACC", "electronics")
shortcut_ACC_B_diversity = _shortcut_metric("ACC_B", "diversity")
shortcut_ACC_1_diversity = _shortcut_metric("ACC_1", "diversity")
shortcut_ACC_2_diversity = _shortcut_metric("ACC_2", "diversity")
shortcut_delta_ACC_diversity = _shortcut_metric("delta_ACC", "diversity")


def _bin_count(label):
    """How many replies gave a confidence in the bin (a count: no failure rule)."""
    return lambda items: float(sum(i["bin"] == label for i in items))


def _bin_mean(field, label):
    """exact / w1 / w3 over the replies whose confidence is in the bin (NaN for a failed task)."""
    return unless_failed(lambda items: mean([i[field] for i in items if i["bin"] == label]))


conf_n_0_59, conf_acc_0_59 = _bin_count("0-59"), _bin_mean("exact", "0-59")
conf_within1_0_59, conf_within3_0_59 = _bin_mean("w1", "0-59"), _bin_mean("w3", "0-59")
conf_n_60_69, conf_acc_60_69 = _bin_count("60-69"), _bin_mean("exact", "60-69")
conf_within1_60_69, conf_within3_60_69 = _bin_mean("w1", "60-69"), _bin_mean("w3", "60-69")
conf_n_70_79, conf_acc_70_79 = _bin_count("70-79"), _bin_mean("exact", "70-79")
conf_within1_70_79, conf_within3_70_79 = _bin_mean("w1", "70-79"), _bin_mean("w3", "70-79")
conf_n_80_89, conf_acc_80_89 = _bin_count("80-89"), _bin_mean("exact", "80-89")
conf_within1_80_89, conf_within3_80_89 = _bin_mean("w1", "80-89"), _bin_mean("w3", "80-89")
conf_n_90_94, conf_acc_90_94 = _bin_count("90-94"), _bin_mean("exact", "90-94")
conf_within1_90_94, conf_within3_90_94 = _bin_mean("w1", "90-94"), _bin_mean("w3", "90-94")
conf_n_95_100, conf_acc_95_100 = _bin_count("95-100"), _bin_mean("exact", "95-100")
conf_within1_95_100, conf_within3_95_100 = _bin_mean("w1", "95-100"), _bin_mean("w3", "95-100")
