"""What the suite report shows of each benchmark: its headline tables, each column a ``Headline``
(how lmms-eval's results file gives the number, and how the per-question samples give it again
for the bootstrap), and the grayscale pairs (colour task, ``_gray`` task) it compares.

One place defines a benchmark's headline rows: ``SPECS`` (benchmark -> its tables). Every benchmark
of the registry (``chronotasks.benchmarks.BENCHMARKS``) without an entry there, and any task no table
shows, gets a generic table (``generic_tables``: each task's first listed metric), so a new benchmark
appears on the page with no edit. ``SYMBOLS`` defines every symbol a column or plot uses."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from chronotasks.benchmarks import BENCHMARKS, benchmark_of
from chronotasks.benchmarks.chronovision import DYNASTIES
from chronotasks.benchmarks.chronovision.report import TABLE4_CATEGORIES, table3_values
from chronotasks.benchmarks.tabvlm.schema import PERIOD_KEYS, PERIODS, TASK_TYPES
from chronotasks.benchmarks.tempviz import CATEGORIES as TEMPVIZ_CATEGORIES
from chronotasks.failures import FAILURE_METRICS
from chronotasks.reporting import RunResults, metric_value
from chronotasks.scoring.circular import question_correct
from chronotasks.scoring.composite import chronovision_composite
from chronotasks.scoring.intervals import Statistic, Unit, mean_of_ratios, ratio
from chronotasks.scoring.shortcut import CONDITIONS
from chronotasks.suite_report.measure import Headline


# -- figures from per-question samples, as sums over questions (chronotasks.scoring.intervals) ----------
def _numbers(unit: Unit, key: str, field: str | None = None) -> list[float]:
    """The unit's per-sample values ``sample[key]`` (or ``sample[key][field]``); None and NaN skipped."""
    out = []
    for sample in unit:
        value = sample.get(key)
        if field is not None:
            value = value.get(field) if isinstance(value, dict) else None
        if isinstance(value, (int, float)) and not isinstance(value, bool) and not math.isnan(value):
            out.append(float(value))
    return out


def _sum_count(key: str, field: str | None = None) -> Callable[[Unit], tuple[float, float]]:
    def extract(unit: Unit) -> tuple[float, float]:
        values = _numbers(unit, key, field)
        return sum(values), len(values)
    return extract


def mean_of(key: str, field: str | None = None) -> Statistic:
    """Mean of a per-sample value over all samples (None skipped), pooled over the tasks: lmms-eval's ``mean``."""
    return Statistic(_sum_count(key, field), ratio)


def mean_of_task_means(key: str) -> Statistic:
    """Unweighted mean over the tasks of each task's mean (TAB-VLM's Overall, ChronoVision's τ)."""
    return Statistic(_sum_count(key), mean_of_ratios)


def _circular_unit(unit: Unit) -> tuple[float, float]:
    score = question_correct([s["circular_accuracy"] for s in unit])
    return (0.0, 0.0) if score is None else (score, 1.0)


CIRCULAR_ACCURACY = Statistic(_circular_unit, ratio)


def choice_rate(letter: str) -> Statistic:
    def extract(unit: Unit) -> tuple[float, float]:
        chosen = [s["circular_accuracy"]["choice"] for s in unit if s["circular_accuracy"].get("choice") is not None]
        return sum(c == letter for c in chosen), len(chosen)
    return Statistic(extract, ratio)


def in_group(key: str, field: str, value: str) -> Callable[[dict[str, Any]], bool]:
    """Select the samples of one group (a per-group figure resamples that group's questions only, so
    no resample lacks the group)."""
    return lambda sample: isinstance(sample.get(key), dict) and sample[key].get(field) == value


_CONDITIONS = tuple(CONDITIONS)    # color, gray_earlier, gray_later -> ACC_B, ACC_1, ACC_2


def _shortcut_unit(unit: Unit) -> list[float]:
    """Per condition: right answers and trials of the pair (3 trials)."""
    out = []
    for condition in _CONDITIONS:
        trials = [s["ACC_B"] for s in unit if s["ACC_B"]["condition"] == condition]
        out += [sum(float(t["correct"]) for t in trials), len(trials)]
    return out


def _condition_accuracy(totals: list[np.ndarray], name: str) -> np.ndarray:
    index = 2 * [CONDITIONS[c] for c in _CONDITIONS].index(name)
    with np.errstate(invalid="ignore", divide="ignore"):
        return totals[0][..., index] / totals[0][..., index + 1]


def shortcut_statistic(name: str) -> Statistic:
    """ACC_B, ACC_1, ACC_2 or delta_ACC = ACC_1 − ACC_2 (scoring.shortcut) over the pairs' trials."""
    if name == "delta_ACC":
        return Statistic(_shortcut_unit, lambda t: _condition_accuracy(t, "ACC_1") - _condition_accuracy(t, "ACC_2"))
    return Statistic(_shortcut_unit, lambda t: _condition_accuracy(t, name))


def recall_statistic(k: int) -> Statistic:
    def extract(unit: Unit) -> tuple[float, float]:
        ranks = [s[f"recall@{k}"]["rank"] for s in unit]
        return sum(r is not None and r < k for r in ranks), len(ranks)
    return Statistic(extract, ratio)


def add_bertscore(samples: list[dict[str, Any]]) -> None:
    """Per-sample BERTScore F1 (``bertscore_f1``) of MuseBench VQA samples, in one batched pass with the
    scorer the task uses (``CHRONOTASKS_BERTSCORE_MODEL``); lmms-eval logs only the (pred, ref) pairs."""
    from chronotasks.scoring.text_similarity import bertscore_f1

    pairs = [s["bertscore"] for s in samples]
    for sample, value in zip(samples, bertscore_f1([p["pred"] for p in pairs], [p["ref"] for p in pairs])):
        sample["bertscore_f1"] = value


def _bert_anls_unit(unit: Unit) -> tuple[float, ...]:
    return (*_sum_count("bertscore_f1")(unit), *_sum_count("anls", "anls")(unit))


def _half_sum(totals: list[np.ndarray]) -> np.ndarray:
    t = totals[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (t[..., 0] / t[..., 1] + t[..., 2] / t[..., 3]) / 2


VQA_SCORE = Statistic(_bert_anls_unit, _half_sum)      # Score = (BERTScore + ANLS) / 2


# -- points from results files --------------------------------------------------------------------
def metric_point(task: str, metric: str) -> Callable[[RunResults], float]:
    return lambda run: metric_value(run, task, metric)


def mean_point(tasks: Iterable[str], metric: str) -> Callable[[RunResults], float]:
    tasks = tuple(tasks)
    return lambda run: sum(metric_value(run, t, metric) for t in tasks) / len(tasks)


def pooled_point(tasks: Iterable[str], metric: str) -> Callable[[RunResults], float]:
    """Mean over the tasks weighted by their number of samples (lmms-eval's ``weight_by_size``)."""
    tasks = tuple(tasks)

    def point(run: RunResults) -> float:
        sizes = [float(((run.data.get("n-samples") or {}).get(t) or {}).get("effective") or math.nan) for t in tasks]
        values = [metric_value(run, t, metric) for t in tasks]
        return sum(s * v for s, v in zip(sizes, values)) / sum(sizes)
    return point


# -- tables ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class TableSpec:
    """A table: one row per model and variant (a variant whose tasks the model ran), one column per headline."""

    id: str
    section: str
    title: str
    variant_header: str | None          # None: one variant, no variant column
    variants: tuple[tuple[str, tuple[Headline, ...]], ...]
    compare: bool = True                 # include in the paired comparisons between models

    @property
    def columns(self) -> list[str]:
        return [h.column for h in self.variants[0][1]]


def _demo() -> list[TableSpec]:
    headlines = tuple(Headline(f"{name} accuracy", (task,), metric_point(task, "accuracy"), mean_of("accuracy"))
                      for name, task in (("period", "chrono_demo_period"), ("pair", "chrono_demo_pair")))
    return [TableSpec("chrono_demo", "chrono_demo", "Demo tasks (accuracy %)", None, (("", headlines),))]


TABVLM_VARIANTS = (("visual", ""), ("visual+metadata", "_metadata"), ("gray", "_gray"))


def _tabvlm() -> list[TableSpec]:
    main, periods = [], []
    for variant, suffix in TABVLM_VARIANTS:
        tasks = tuple(t.task + suffix for t in TASK_TYPES)
        row = [Headline("Overall", tasks, mean_point(tasks, "accuracy"), mean_of_task_means("accuracy"))]
        row += [Headline(t.title, (t.task + suffix,), metric_point(t.task + suffix, "accuracy"), mean_of("accuracy"))
                for t in TASK_TYPES]
        main.append((variant, tuple(row)))
        style = "tabvlm_style_period" + suffix
        periods.append((variant, tuple(
            Headline(name.split(" (")[0], (style,), metric_point(style, f"period_acc_{key}"), mean_of(f"period_acc_{key}"),
                     select=lambda s, k=f"period_acc_{key}": s.get(k) is not None)
            for name, key in zip(PERIODS, PERIOD_KEYS))))
    return [TableSpec("tabvlm", "TAB-VLM", "Table 1 (accuracy %; Overall = unweighted mean of the six tasks)", "Variant",
                      tuple(main)),
            TableSpec("tabvlm_periods", "TAB-VLM", "Style-Period Attribution accuracy per period (%, Table 9)", "Variant",
                      tuple(periods), compare=False)]


CV_LOC, CV_INTRA, CV_CROSS = "chronovision_artifacts_loc", "chronovision_artifacts_sort_intra", "chronovision_artifacts_sort_cross"
CV_SHORTCUT, CV_YEAR, CV_MULTI = "chronovision_shortcut", "chronovision_news_year", "chronovision_news_multimodal"
CV_ALL = (CV_LOC, CV_INTRA, CV_CROSS, CV_SHORTCUT, CV_YEAR, CV_MULTI)


# ChronoVision's localization logs one item {dynasty, category, correct} per sample under every acc_<group> key
LOC_ITEMS = f"acc_{DYNASTIES[0].lower()}"


def _year_unit(unit: Unit) -> tuple[float, ...]:
    return (*_sum_count("ACC_Y")(unit), *_sum_count("MAE")(unit))


def _composite_S(totals: list[np.ndarray]) -> np.ndarray:
    loc, intra, cross, shortcut, year, multi = totals
    with np.errstate(invalid="ignore", divide="ignore"):
        parts = (loc[..., 0] / loc[..., 1], (intra[..., 0] / intra[..., 1] + cross[..., 0] / cross[..., 1]) / 2,
                 _condition_accuracy([shortcut], "ACC_B"),
                 _condition_accuracy([shortcut], "ACC_1") - _condition_accuracy([shortcut], "ACC_2"),
                 year[..., 0] / year[..., 1], year[..., 2] / year[..., 3], multi[..., 0] / multi[..., 1])
    return np.vectorize(lambda *args: chronovision_composite(*args)["S"], otypes=[float])(*parts)


COMPOSITE_S = Statistic((_sum_count("ACC_A"), _sum_count("tau"), _sum_count("tau"), _shortcut_unit, _year_unit,
                         _sum_count("ACC_M")), _composite_S)


def _table3(column: str) -> Callable[[RunResults], float]:
    return lambda run: table3_values(run)[column]


def _chronovision() -> list[TableSpec]:
    main = (
        Headline("ACC_A", (CV_LOC,), _table3("ACC_A"), mean_of("ACC_A")),
        Headline("τ", (CV_INTRA, CV_CROSS), _table3("τ"), mean_of_task_means("tau"), scale=1, digits=3),
        *(Headline(name, (CV_SHORTCUT,), _table3(name), shortcut_statistic(metric))
          for name, metric in (("ACC_B", "ACC_B"), ("ACC_1", "ACC_1"), ("ACC_2", "ACC_2"), ("Δ_ACC", "delta_ACC"))),
        Headline("ACC_Y", (CV_YEAR,), _table3("ACC_Y"), mean_of("ACC_Y")),
        Headline("MAE", (CV_YEAR,), _table3("MAE"), mean_of("MAE"), scale=1, digits=2),
        Headline("ACC_M", (CV_MULTI,), _table3("ACC_M"), mean_of("ACC_M")),
        Headline("S", CV_ALL, _table3("S"), COMPOSITE_S),
    )
    dynasties = tuple(Headline(d, (CV_LOC,), metric_point(CV_LOC, f"acc_{d.lower()}"), mean_of(LOC_ITEMS, "correct"),
                               select=in_group(LOC_ITEMS, "dynasty", d)) for d in DYNASTIES)
    shortcut = tuple((prompt, tuple(Headline(c.capitalize(), (task,), metric_point(task, f"delta_ACC_{c}"),
                                             shortcut_statistic("delta_ACC"), select=in_group("ACC_B", "category", c))
                                    for c in TABLE4_CATEGORIES))
                     for prompt, task in (("plain", CV_SHORTCUT), ("CoT", "chronovision_shortcut_cot")))
    return [TableSpec("chronovision", "ChronoVision", "Table III (accuracies and S in %, τ in [−1, 1], MAE in years)", None,
                      (("", main),)),
            TableSpec("chronovision_dynasties", "ChronoVision", "Artifact localization accuracy per dynasty (%)", None,
                      (("", dynasties),), compare=False),
            TableSpec("chronovision_shortcut", "ChronoVision", "Shortcut Δ_ACC = ACC_1 − ACC_2 per SPEED category (%, Table IV)",
                      "Prompt", shortcut, compare=False)]


MUSEBENCH_VQA = ("musebench_vqa", "musebench_vqa_descriptive", "musebench_vqa_gray", "musebench_vqa_descriptive_gray")
MUSEBENCH_RETRIEVAL = tuple(f"musebench_retrieval_{s}_{d}" for s in ("structural", "structural_nl", "descriptive")
                            for d in ("i2t", "t2i"))


def _musebench() -> list[TableSpec]:
    vqa = tuple((task, (
        Headline("BERTScore", (task,), metric_point(task, "bertscore"), mean_of("bertscore_f1"), prepare=add_bertscore),
        Headline("ANLS", (task,), metric_point(task, "anls"), mean_of("anls", "anls")),
        Headline("Score", (task,), metric_point(task, "score"), VQA_SCORE, prepare=add_bertscore),
        Headline("Accuracy", (task,), metric_point(task, "accuracy"), mean_of("accuracy", "acc")),
    )) for task in MUSEBENCH_VQA)
    retrieval = tuple((task, tuple(Headline(f"R@{k}", (task,), metric_point(task, f"recall@{k}"), recall_statistic(k))
                                   for k in (1, 5, 10))) for task in MUSEBENCH_RETRIEVAL)
    return [TableSpec("musebench_vqa", "MuseBench", "Cultural VQA (BERTScore F1, ANLS, Score = their mean, accuracy; %)",
                      "Task", vqa),
            TableSpec("musebench_retrieval", "MuseBench", "Cultural Retrieval (Recall@K %)", "Task", retrieval)]


TEMPVIZ_TASKS = tuple(f"tempviz_{c.lower()}" for c in TEMPVIZ_CATEGORIES)


def add_acceptance(samples: list[dict[str, Any]]) -> None:
    """Per-sample ``accepted`` (0/1) of TempViz samples, as the task's ``acceptance`` counts it: a
    logged sample holds the task's item under each metric, and the aggregation adds the judge's
    ``verdict`` to it (chronotasks/benchmarks/tempviz/judging.py); a failed judgement or generation
    is not accepted. A run on several processes logs items without verdicts: no interval then."""
    for sample in samples:
        value = sample.get("acceptance")
        if isinstance(value, dict):
            verdict = value.get("verdict")
            if not isinstance(verdict, dict):
                raise ValueError("the logged samples carry no judge verdicts (a run on several processes: lmms-eval "
                                 "judges gathered copies; the verdicts are in <judge_cache_dir>/samples/)")
            sample["accepted"] = float(verdict.get("accept") is True)
        elif isinstance(value, (int, float)):
            sample["accepted"] = float(value)


def _tempviz() -> list[TableSpec]:
    row = tuple(Headline(c, (t,), metric_point(t, "acceptance"), mean_of("accepted"), prepare=add_acceptance)
                for c, t in zip(TEMPVIZ_CATEGORIES, TEMPVIZ_TASKS))
    row += (Headline("All", TEMPVIZ_TASKS, pooled_point(TEMPVIZ_TASKS, "acceptance"), mean_of("accepted"), prepare=add_acceptance),)
    return [TableSpec("tempviz", "TempViz", "Judge acceptance per category (% of generated images accepted)", None, (("", row),))]


CIRCULAR_TASKS = ("chrono_demo_period_circular", "tabvlm_style_period_circular", "tabvlm_odd_one_out_circular",
                  "chronovision_artifacts_loc_circular")


def _circular() -> list[TableSpec]:
    variants = []
    for task in CIRCULAR_TASKS:
        row = (Headline("plain accuracy", (task,), metric_point(task, "accuracy"), mean_of("accuracy")),
               Headline("circular accuracy", (task,), metric_point(task, "circular_accuracy"), CIRCULAR_ACCURACY),
               # no interval: a distance from uniform is biased upward under resampling (its bootstrap
               # interval would sit above the estimate); the choice rates carry the uncertainty
               Headline("position bias", (task,), metric_point(task, "position_bias")),
               *(Headline(f"chose {ch}", (task,), metric_point(task, f"choice_rate_{ch}"), choice_rate(ch), compared=False)
                 for ch in "ABCDE"))
        variants.append((task, row))
    return [TableSpec("circular", "Circular evaluation", "CircularEval: plain accuracy over all rotations, circular accuracy "
                      "(all N rotations right), position bias (total variation from uniform) and choice rate per "
                      "position (%)", "Task", tuple(variants))]


# benchmark -> its tables: the one place that defines a benchmark's headline rows (a further column,
# e.g. a release-protocol reading or a chance level, is one more Headline in its row)
SPECS: dict[str, Callable[[], list[TableSpec]]] = {
    "chrono_demo": _demo, "tabvlm": _tabvlm, "chronovision": _chronovision, "musebench": _musebench, "tempviz": _tempviz,
}


def tables() -> list[TableSpec]:
    return [*(spec for make in SPECS.values() for spec in make()), *_circular()]


def headline_metric(runs: Iterable[RunResults], task: str) -> str | None:
    """The figure a generic table shows for a task: the first metric of its metric_list (as lmms-eval
    recorded the task's config) that is not a failure rate, else the first such value in its results."""
    for run in runs:
        listed = [m.get("metric") for m in ((run.data.get("configs") or {}).get(task) or {}).get("metric_list") or []
                  if isinstance(m, dict)]
        found = [key.split(",")[0] for key in run.results.get(task) or {} if key.endswith(",none") and "_stderr" not in key]
        for metric in [*listed, *found]:
            if metric and metric not in FAILURE_METRICS and f"{metric},none" in (run.results.get(task) or {}):
                return metric
    return None


def generic_tables(runs: list[RunResults], leaves: list[str], shown: set[str]) -> list[TableSpec]:
    """Tables of the tasks no table of ``tables()`` shows: one per registered benchmark (by task-name
    prefix, ``chronotasks.benchmarks.benchmark_of``) and headline metric, else under "Other tasks"."""
    by_table: dict[tuple[str, str], list[str]] = {}
    for task in leaves:
        if task in shown:
            continue
        metric = headline_metric(runs, task)
        if metric is not None:
            by_table.setdefault((benchmark_of(task) or "", metric), []).append(task)
    order = {name: index for index, name in enumerate(BENCHMARKS)}
    out = []
    for (benchmark, metric), tasks in sorted(by_table.items(), key=lambda kv: (order.get(kv[0][0], len(order)), kv[0][1])):
        variants = tuple((task, (Headline(metric, (task,), metric_point(task, metric), mean_of(metric)),)) for task in tasks)
        section = benchmark or "Other tasks"
        out.append(TableSpec(f"{benchmark or 'other'}_{metric}".replace("@", "at"), section,
                             f"{metric} of each task (its first listed metric; %)", "Task", variants, compare=False))
    return out


# every symbol a table column or plot uses, defined once (the page lists those it shows)
SYMBOLS: dict[str, str] = {
    "n": "the questions a figure rests on (from the --log_samples files; a circular question's rotations and a shortcut "
         "pair's three trials are one question); \"N samples\" where only the results file is there",
    "[low, high]": "percentile bootstrap interval over questions",
    "±": "run-to-run standard deviation over a model's runs (n/a for one run)",
    "p": "permutation p-value of a paired difference",
    "parse fail": "share of replies no parser could read (scored wrong), with failed/all samples",
    "image fail": "share of samples whose image could not be opened (scored wrong), with failed/all samples",
    "judge fail": "share of TempViz images whose judgement failed, with failed/all samples",
    "status": "FAILED: a task of the row failed (more than the threshold of its samples failed, or it has no figure): "
              "its numbers are not results",
    "Overall": "TAB-VLM: unweighted mean of the six task accuracies (Table 1)",
    "ACC_A": "ChronoVision artifact localization accuracy (the dynasty of one artifact)",
    "τ": "Kendall's rank correlation of the predicted and the true chronological order, in [−1, 1] (ChronoVision: mean of "
         "the intra- and cross-category sorting levels)",
    "ACC_B": "shortcut accuracy (which of two news photos is earlier), both photos in colour",
    "ACC_1": "shortcut accuracy when the earlier photo is shown grayscale (\"grayscale means old\" points to the right answer)",
    "ACC_2": "shortcut accuracy when the later photo is shown grayscale (\"grayscale means old\" points to the wrong answer)",
    "Δ_ACC": "ACC_1 − ACC_2: how far the model relies on \"grayscale means old\" (0: not at all)",
    "ACC_Y": "news-photo year estimation accuracy (exact year)",
    "MAE": "mean absolute error of the estimated year, in years (over readable replies)",
    "ACC_M": "news multimodal accuracy (the photo matching an event's text)",
    "S": "ChronoVision composite score (§V.C): S = (S_A + S_S + S_N) / 3 from ACC_A, τ, ACC_B, Δ_ACC, ACC_Y, MAE, ACC_M",
    "BERTScore": "MuseBench VQA: BERTScore F1 of the answer against the reference",
    "ANLS": "MuseBench VQA: average normalized Levenshtein similarity to the reference",
    "Score": "MuseBench VQA: (BERTScore + ANLS) / 2",
    "Accuracy": "MuseBench VQA: structured-field accuracy (period, author)",
    "R@1": "Recall@K: share of queries whose target is among the top K retrieved (K = 1, 5, 10)",
    "plain accuracy": "accuracy over every rotation of the options",
    "circular accuracy": "share of questions answered right in all N rotations of their options (CircularEval)",
    "position bias": "total variation distance of the chosen positions from uniform",
    "chose A": "share of readable replies choosing the option in that position",
    "Δ colour − gray": "figure with colour images minus the same figure with the same images in grayscale",
}
SYMBOL_ALIASES = {"R@5": "R@1", "R@10": "R@1", **{f"chose {ch}": "chose A" for ch in "BCDE"}, "Δ": "Δ colour − gray"}


def symbols_used(columns: Iterable[str]) -> dict[str, str]:
    """The definitions of the symbols among ``columns`` (table columns and plot labels), in SYMBOLS order."""
    wanted = {SYMBOL_ALIASES.get(column, column) for column in columns}
    return {symbol: text for symbol, text in SYMBOLS.items() if symbol in wanted}


# -- grayscale pairs -------------------------------------------------------------------------------
def gray_headlines(base: str) -> list[tuple[str, Headline, Headline]]:
    """(row label, colour headline, gray headline) for a base task with a ``_gray`` variant: the task's
    main figure and its per-period / per-dynasty figures."""
    gray = base + "_gray"

    def pair(label, metric, figure, select=None, scale=100.0, digits=1):
        return (label, Headline(label, (base,), metric_point(base, metric), figure, select, scale=scale, digits=digits),
                Headline(label, (gray,), metric_point(gray, metric), figure, select, scale=scale, digits=digits))

    if base.startswith("tabvlm_") or base.startswith("chrono_demo_"):
        rows = [pair("accuracy", "accuracy", mean_of("accuracy"))]
        if base == "tabvlm_style_period":
            rows += [pair(name.split(" (")[0], f"period_acc_{key}", mean_of(f"period_acc_{key}"),
                          select=lambda s, k=f"period_acc_{key}": s.get(k) is not None) for name, key in zip(PERIODS, PERIOD_KEYS)]
        return rows
    if base == CV_LOC:
        return [pair("ACC_A", "ACC_A", mean_of("ACC_A"))] + [
            pair(d, f"acc_{d.lower()}", mean_of(LOC_ITEMS, "correct"), in_group(LOC_ITEMS, "dynasty", d))
            for d in DYNASTIES]
    if base in (CV_INTRA, CV_CROSS):
        return [pair("τ", "tau", mean_of("tau"), scale=1.0, digits=3)]
    if base.startswith("musebench_vqa"):
        rows = [pair("ANLS", "anls", mean_of("anls", "anls"))]
        return rows if "descriptive" in base else [pair("accuracy", "accuracy", mean_of("accuracy", "acc"))] + rows
    return []


__all__ = ["CIRCULAR_TASKS", "SPECS", "SYMBOLS", "TableSpec", "generic_tables", "gray_headlines", "symbols_used", "tables"]
