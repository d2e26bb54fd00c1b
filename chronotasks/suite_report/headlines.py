"""What the suite report shows of each benchmark: its headline tables, each column a ``Headline``
(how lmms-eval's results file gives the number, and how the per-question samples give it again
for the bootstrap), and the grayscale pairs (colour task, ``_gray`` task) it compares.

One place defines a benchmark's headline rows: ``SPECS`` (benchmark -> its tables). Every benchmark
of the registry (``chronotasks.benchmarks.BENCHMARKS``) without an entry there, and any task no table
shows, gets a generic table (``generic_tables``: each task's first listed metric), so a new benchmark
appears on the page with no edit. ``SYMBOLS`` defines every symbol a column or plot uses."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from chronotasks.benchmarks import BENCHMARKS, benchmark_of
from chronotasks.benchmarks.chrono_demo.demo import PAIR_SPACE, PERIOD_SPACE
from chronotasks.benchmarks.chronovision import DYNASTIES, LOC_SPACE, MULTIMODAL_SPACE, NEWS_YEAR_SPACE, SHORTCUT_SPACE, sort_space
from chronotasks.benchmarks.chronovision import paper_tables as chronovision_paper
from chronotasks.benchmarks.chronovision.report import TABLE4_CATEGORIES, table3_values
from chronotasks.benchmarks.musebench import paper_tables as musebench_paper
from chronotasks.benchmarks.paper_tables import PaperTable
from chronotasks.benchmarks.tabvlm import paper_tables as tabvlm_paper
from chronotasks.benchmarks.tabvlm.schema import BY_TASK, PERIOD_KEYS, PERIODS, TASK_TYPES
from chronotasks.benchmarks.tempviz import CATEGORIES as TEMPVIZ_CATEGORIES
from chronotasks.data.answer_space import AnswerSpace
from chronotasks.failures import FAILURE_METRICS
from chronotasks.reporting import RunResults, metric_value
from chronotasks.scoring import chance
from chronotasks.scoring.circular import question_correct
from chronotasks.scoring.composite import chronovision_composite, tau_from_table
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


def _shortcut_units(key: str) -> Callable[[Unit], list[float]]:
    """Per condition: right answers and trials of the pair (3 trials) in the items under ``key``
    ("ACC_B": ours, "ACC_B_release": the release scripts'; a trial they skip, correct None, is left out)."""
    def extract(unit: Unit) -> list[float]:
        out = []
        for condition in _CONDITIONS:
            trials = [s[key] for s in unit if s[key]["condition"] == condition and s[key]["correct"] is not None]
            out += [sum(float(t["correct"]) for t in trials), len(trials)]
        return out
    return extract


def _condition_accuracy(totals: list[np.ndarray], name: str) -> np.ndarray:
    index = 2 * [CONDITIONS[c] for c in _CONDITIONS].index(name)
    with np.errstate(invalid="ignore", divide="ignore"):
        return totals[0][..., index] / totals[0][..., index + 1]


def shortcut_statistic(name: str, key: str = "ACC_B") -> Statistic:
    """ACC_B, ACC_1, ACC_2 or delta_ACC = ACC_1 − ACC_2 (scoring.shortcut) over the pairs' trials
    (``key``: the items of our reading, or "ACC_B_release" for the release scripts')."""
    if name == "delta_ACC":
        return Statistic(_shortcut_units(key), lambda t: _condition_accuracy(t, "ACC_1") - _condition_accuracy(t, "ACC_2"))
    return Statistic(_shortcut_units(key), lambda t: _condition_accuracy(t, name))


def recall_statistic(k: int) -> Statistic:
    def extract(unit: Unit) -> tuple[float, float]:
        ranks = [s[f"recall@{k}"]["rank"] for s in unit]
        return sum(r is not None and r < k for r in ranks), len(ranks)
    return Statistic(extract, ratio)


def add_bertscore(samples: list[dict[str, Any]]) -> None:
    """Per-sample BERTScore F1 (``bertscore_f1``) of MuseBench VQA samples, in one batched pass with the
    model and layer the run scored with, as its samples log them (lmms-eval logs only the (pred, ref) pairs,
    not the values); never with another model: a run that did not log its scorer gets no interval."""
    from chronotasks.provenance import run_bertscore
    from chronotasks.scoring.text_similarity import bertscore_f1

    model, layer = run_bertscore(samples)
    pairs = [s["bertscore"] for s in samples]
    values = bertscore_f1([p["pred"] for p in pairs], [p["ref"] for p in pairs], model_type=model, num_layers=layer)
    for sample, value in zip(samples, values):
        sample["bertscore_f1"] = value


def _bert_anls_unit(unit: Unit) -> tuple[float, ...]:
    return (*_sum_count("bertscore_f1")(unit), *_sum_count("anls", "anls")(unit))


def _half_sum(totals: list[np.ndarray]) -> np.ndarray:
    t = totals[0]
    with np.errstate(invalid="ignore", divide="ignore"):
        return (t[..., 0] / t[..., 1] + t[..., 2] / t[..., 3]) / 2


VQA_SCORE = Statistic(_bert_anls_unit, _half_sum)      # Score = (BERTScore + ANLS) / 2


def present(key: str) -> Callable[[dict[str, Any]], bool]:
    """Select the samples whose ``key`` holds a value (e.g. the replies the release counts, the readable ones)."""
    return lambda sample: sample.get(key) is not None


def answered(key: str) -> Callable[[dict[str, Any]], bool]:
    """Select the samples whose period-distance item (chronotasks.scoring.period_distance) has an answer."""
    return lambda sample: isinstance(sample.get(key), dict) and sample[key].get("offset") is not None


def offset_statistic(key: str, absolute: bool) -> Statistic:
    """Mean (absolute: distance; signed: bias) offset of the period-distance items under ``key``, answered ones only."""
    def extract(unit: Unit) -> tuple[float, float]:
        offsets = _numbers(unit, key, "offset")
        return sum(abs(o) if absolute else o for o in offsets), len(offsets)
    return Statistic(extract, ratio)


def space_chance(metric: str, space: AnswerSpace) -> float:
    """The chance level of a metric on records of one answer space (chronotasks.scoring.chance)."""
    return chance.chance_level(metric, space.to_json())


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
class PaperRows:
    """A paper's published rows beside a table (``chronotasks.benchmarks.paper_tables``): which paper
    column each of our columns is, and the variants (rows) of ours it compares with."""

    table: PaperTable
    columns: Mapping[str, str]                                    # our column -> the paper's column
    variants: tuple[str, ...] | None = None                       # None: every variant of the table
    convert: Mapping[str, Callable[[float], float]] = field(default_factory=dict)   # paper figure -> our unit, where they differ
    note: str = ""                                                # what the reader must know (e.g. "CoT prompt")

    def figure(self, row: str, column: str) -> float | None:
        """The paper's figure for our ``column`` in our displayed unit (None: not printed)."""
        value = self.table.figure(row, self.columns[column])
        return None if value is None else self.convert.get(column, float)(value)


@dataclass(frozen=True)
class TableSpec:
    """A table: one row per model and variant (a variant whose tasks the model ran), one column per headline.
    ``papers``: the papers' rows set beside it; ``confusion`` / ``year_errors``: tasks whose logged
    period-distance items the page also shows as confusion matrices / signed year-error histograms."""

    id: str
    section: str
    title: str
    variant_header: str | None          # None: one variant, no variant column
    variants: tuple[tuple[str, tuple[Headline, ...]], ...]
    compare: bool = True                 # include in the paired comparisons between models
    papers: tuple[PaperRows, ...] = ()
    confusion: tuple[tuple[str, str, tuple[str, ...]], ...] = ()   # (task, item key, period names oldest first)
    year_errors: tuple[tuple[str, str], ...] = ()  # (task, item key) of signed year-error histograms
    unit: str = ""                                 # a how-far-off table's unit (periods, dynasties, years)

    @property
    def columns(self) -> list[str]:
        return [h.column for h in self.variants[0][1]]


def _demo() -> list[TableSpec]:
    headlines = tuple(Headline(f"{name} accuracy", (task,), metric_point(task, "accuracy"), mean_of("accuracy"),
                               chance=space_chance("accuracy", space))
                      for name, task, space in (("period", "chrono_demo_period", PERIOD_SPACE),
                                                ("pair", "chrono_demo_pair", PAIR_SPACE)))
    return [TableSpec("chrono_demo", "chrono_demo", "Demo tasks (accuracy %)", None, (("", headlines),))]


TABVLM_VARIANTS = (("visual", ""), ("visual+metadata", "_metadata"), ("gray", "_gray"))
# the release protocol (tasks/tabvlm/release/): the release code's numbered prompts, read by us and by the release code
RELEASE_OURS, RELEASE_READING = "release prompts, our reading", "release prompts, release reading"
TABVLM_RELEASE_VARIANTS = ((RELEASE_OURS, "_release", "accuracy"), (RELEASE_READING, "_release", "accuracy_release"))


def _tabvlm_chance(task: str) -> float:
    """A uniformly random answer's exact-match accuracy on a task (its records' answer space)."""
    return space_chance("accuracy", BY_TASK[task].answer_space)


def _tabvlm_row(suffix: str, metric: str) -> tuple[Headline, ...]:
    """Table 1's row of one variant: Overall (unweighted mean of the six tasks) and each task's accuracy.
    ``accuracy_release`` counts the replies the release code reads (it leaves empty ones out): n of all."""
    tasks = tuple(t.task + suffix for t in TASK_TYPES)
    counted = {"select": present(metric), "counted": "counted"} if metric == "accuracy_release" else {}
    overall = sum(_tabvlm_chance(t.task) for t in TASK_TYPES) / len(TASK_TYPES)
    row = [Headline("Overall", tasks, mean_point(tasks, metric), mean_of_task_means(metric), chance=overall, **counted)]
    row += [Headline(t.title, (t.task + suffix,), metric_point(t.task + suffix, metric), mean_of(metric),
                     chance=_tabvlm_chance(t.task), **counted) for t in TASK_TYPES]
    return tuple(row)


TABVLM_STYLE = "tabvlm_style_period"
PERIOD_NAMES = tuple(name.split(" (")[0] for name in PERIODS)      # "Classical Period", ...
TABLE1_PAPER = PaperRows(tabvlm_paper.TABLE_1, {"Overall": "Overall Accuracy", **{t.title: t.title for t in TASK_TYPES}},
                         variants=("visual", RELEASE_OURS, RELEASE_READING))


def _tabvlm() -> list[TableSpec]:
    main, periods = [], []
    style_chance = _tabvlm_chance(TABVLM_STYLE)
    for variant, suffix in TABVLM_VARIANTS:
        main.append((variant, _tabvlm_row(suffix, "accuracy")))
        style = TABVLM_STYLE + suffix
        periods.append((variant, tuple(
            Headline(name, (style,), metric_point(style, f"period_acc_{key}"), mean_of(f"period_acc_{key}"),
                     select=lambda s, k=f"period_acc_{key}": s.get(k) is not None, chance=style_chance)
            for name, key in zip(PERIOD_NAMES, PERIOD_KEYS))))
    main += [(variant, _tabvlm_row(suffix, metric)) for variant, suffix, metric in TABVLM_RELEASE_VARIANTS]
    table9 = tabvlm_paper.TABLE_9
    by_metric = {metric: column for column, (_, metric) in table9.measures.items()}
    period_columns = {name: by_metric[f"period_acc_{key}"] for name, key in zip(PERIOD_NAMES, PERIOD_KEYS)}
    style_tasks = [TABVLM_STYLE + suffix for _, suffix in TABVLM_VARIANTS] + [TABVLM_STYLE + "_release"]
    return [TableSpec("tabvlm", "TAB-VLM", "Table 1 (accuracy %; Overall = unweighted mean of the six tasks)", "Variant",
                      tuple(main), papers=(TABLE1_PAPER,)),
            TableSpec("tabvlm_periods", "TAB-VLM", "Style-Period Attribution accuracy per period (%, Table 9)", "Variant",
                      tuple(periods), compare=False, papers=(PaperRows(table9, period_columns, variants=("visual",)),)),
            TableSpec("tabvlm_offsets", "TAB-VLM", "Style-Period Attribution: how far off in time (in periods, Table 2's "
                      "eight, oldest first; bias > 0: answers newer than the truth)", "Task",
                      tuple((task, offset_headlines(task)) for task in style_tasks),
                      compare=False, confusion=tuple((task, "period_bias", PERIOD_NAMES) for task in style_tasks),
                      unit="periods")]


PERIOD_OFFSET_METRICS = ("period_distance", "period_bias", "period_distance_chance", "period_bias_chance")
YEAR_OFFSET_METRICS = ("MAE", "year_bias", "MAE_chance", "year_bias_chance")


def offset_headlines(task: str, metrics: tuple[str, str, str, str] = PERIOD_OFFSET_METRICS) -> tuple[Headline, ...]:
    """distance, chance distance, bias, chance bias of a task that logs period-distance items (chronotasks/
    scoring/period_distance.py): ``metrics`` name the four in its results; each sample holds the item under
    the bias metric. Distance and bias count the answered questions, the chance values all of them."""
    distance, bias, distance_chance, bias_chance = metrics
    return (Headline("distance", (task,), metric_point(task, distance), offset_statistic(bias, absolute=True),
                     select=answered(bias), counted="answered", scale=1, digits=2),
            Headline("chance distance", (task,), metric_point(task, distance_chance), mean_of(bias, "chance_distance"),
                     scale=1, digits=2, compared=False),
            Headline("bias", (task,), metric_point(task, bias), offset_statistic(bias, absolute=False),
                     select=answered(bias), counted="answered", scale=1, digits=2),
            Headline("chance bias", (task,), metric_point(task, bias_chance), mean_of(bias, "chance_bias"),
                     scale=1, digits=2, compared=False))


CV_LOC, CV_INTRA, CV_CROSS = "chronovision_artifacts_loc", "chronovision_artifacts_sort_intra", "chronovision_artifacts_sort_cross"
CV_SHORTCUT, CV_YEAR, CV_MULTI = "chronovision_shortcut", "chronovision_news_year", "chronovision_news_multimodal"
CV_ALL = (CV_LOC, CV_INTRA, CV_CROSS, CV_SHORTCUT, CV_YEAR, CV_MULTI)


# ChronoVision's localization logs one item {dynasty, category, correct} per sample under every acc_<group> key
LOC_ITEMS = f"acc_{DYNASTIES[0].lower()}"


def _year_unit(suffix: str) -> Callable[[Unit], tuple[float, ...]]:
    def extract(unit: Unit) -> tuple[float, ...]:
        return (*_sum_count("ACC_Y" + suffix)(unit), *_sum_count("MAE" + suffix)(unit))
    return extract


def _composite_S(totals: list[np.ndarray]) -> np.ndarray:
    loc, intra, cross, shortcut, year, multi = totals
    with np.errstate(invalid="ignore", divide="ignore"):
        parts = (loc[..., 0] / loc[..., 1], (intra[..., 0] / intra[..., 1] + cross[..., 0] / cross[..., 1]) / 2,
                 _condition_accuracy([shortcut], "ACC_B"),
                 _condition_accuracy([shortcut], "ACC_1") - _condition_accuracy([shortcut], "ACC_2"),
                 year[..., 0] / year[..., 1], year[..., 2] / year[..., 3], multi[..., 0] / multi[..., 1])
    return np.vectorize(lambda *args: chronovision_composite(*args)["S"], otypes=[float])(*parts)


def composite_statistic(suffix: str = "") -> Statistic:
    """S of §V.C from the per-question samples; ``suffix`` "_release": the release scripts' readings of the
    shortcut and news tasks (the artifacts tasks have no release scorer: ours)."""
    return Statistic((_sum_count("ACC_A"), _sum_count("tau"), _sum_count("tau"), _shortcut_units("ACC_B" + suffix),
                      _year_unit(suffix), _sum_count("ACC_M" + suffix)), _composite_S)


def _table3(column: str, release: bool = False) -> Callable[[RunResults], float]:
    return lambda run: table3_values(run, release)[column]


def _no_release_scorer(run: RunResults) -> float:
    return math.nan


# chance levels of Table III's columns, from the records' answer spaces (chronotasks.scoring.chance)
CV_CHANCE = {"ACC_A": space_chance("accuracy", LOC_SPACE),
             "τ": (space_chance("kendall_tau", sort_space(4)) + space_chance("kendall_tau", sort_space(5))) / 2,
             **{name: space_chance("accuracy", SHORTCUT_SPACE) for name in ("ACC_B", "ACC_1", "ACC_2")},
             "Δ_ACC": space_chance("accuracy", SHORTCUT_SPACE) - space_chance("accuracy", SHORTCUT_SPACE),
             "ACC_Y": space_chance("accuracy", NEWS_YEAR_SPACE), "ACC_M": space_chance("accuracy", MULTIMODAL_SPACE)}


def year_error_chance(run: RunResults) -> float:
    """The expected |year − gold| of a random year of the answer space over the run's News-Year questions
    (the task's ``MAE_chance``: it depends on the gold years)."""
    return metric_value(run, CV_YEAR, "MAE_chance")


def composite_chance(run: RunResults) -> float:
    """S of a model at chance on every part (S is not linear in its parts: this is S of the chance values)."""
    c = CV_CHANCE
    return chronovision_composite(c["ACC_A"], c["τ"], c["ACC_B"], c["Δ_ACC"], c["ACC_Y"], year_error_chance(run), c["ACC_M"])["S"]


def _table3_row(release: bool) -> tuple[Headline, ...]:
    suffix = "_release" if release else ""
    if release:   # the release ships no scorer for the artifacts tasks
        artifacts = (Headline("ACC_A", (CV_LOC,), _no_release_scorer, chance=CV_CHANCE["ACC_A"], compared=False),
                     Headline("τ", (CV_INTRA, CV_CROSS), _no_release_scorer, scale=1, digits=3, chance=CV_CHANCE["τ"],
                              compared=False))
    else:
        artifacts = (Headline("ACC_A", (CV_LOC,), _table3("ACC_A"), mean_of("ACC_A"), chance=CV_CHANCE["ACC_A"]),
                     Headline("τ", (CV_INTRA, CV_CROSS), _table3("τ"), mean_of_task_means("tau"), scale=1, digits=3,
                              chance=CV_CHANCE["τ"]))
    mae = "MAE" + suffix
    return (
        *artifacts,
        *(Headline(name, (CV_SHORTCUT,), _table3(name, release), shortcut_statistic(metric, "ACC_B" + suffix),
                   chance=CV_CHANCE[name])
          for name, metric in (("ACC_B", "ACC_B"), ("ACC_1", "ACC_1"), ("ACC_2", "ACC_2"), ("Δ_ACC", "delta_ACC"))),
        Headline("ACC_Y", (CV_YEAR,), _table3("ACC_Y", release), mean_of("ACC_Y" + suffix), chance=CV_CHANCE["ACC_Y"]),
        Headline("MAE", (CV_YEAR,), _table3("MAE", release), mean_of(mae), select=present(mae), counted="answered",
                 scale=1, digits=2, chance=year_error_chance),
        Headline("ACC_M", (CV_MULTI,), _table3("ACC_M", release), mean_of("ACC_M" + suffix), chance=CV_CHANCE["ACC_M"]),
        Headline("S", CV_ALL, _table3("S", release), composite_statistic(suffix), chance=composite_chance),
    )


_TABLE3_COLUMNS = {"ACC_A": "ACC_A", "ACC_B": "ACC_B", "ACC_1": "ACC_1", "ACC_2": "ACC_2", "Δ_ACC": "Δ_ACC", "ACC_Y": "ACC_Y",
                   "MAE": "MAE", "ACC_M": "ACC_M", "S": "Score", "τ": "50 × (1 + τ)"}
TABLE3_PAPER = PaperRows(chronovision_paper.TABLE_III, _TABLE3_COLUMNS, convert={"τ": tau_from_table},
                         note="the paper prints 50 × (1 + τ); shown here as τ")


def _chronovision() -> list[TableSpec]:
    main = (("ours", _table3_row(release=False)), ("release", _table3_row(release=True)))
    dynasties = tuple(Headline(d, (CV_LOC,), metric_point(CV_LOC, f"acc_{d.lower()}"), mean_of(LOC_ITEMS, "correct"),
                               select=in_group(LOC_ITEMS, "dynasty", d), chance=CV_CHANCE["ACC_A"]) for d in DYNASTIES)
    shortcut = tuple((prompt, tuple(Headline(c.capitalize(), (task,), metric_point(task, f"delta_ACC_{c}"),
                                             shortcut_statistic("delta_ACC"), select=in_group("ACC_B", "category", c),
                                             chance=CV_CHANCE["Δ_ACC"])
                                    for c in TABLE4_CATEGORIES))
                     for prompt, task in (("plain", CV_SHORTCUT), ("CoT", "chronovision_shortcut_cot")))
    table4 = chronovision_paper.TABLE_IV
    loc_tasks = (CV_LOC, CV_LOC + "_gray")
    return [TableSpec("chronovision", "ChronoVision", "Table III (accuracies and S in %, τ in [−1, 1], MAE in years; "
                      "release: the release scripts' reading of the same replies)", "Reading", main,
                      papers=(TABLE3_PAPER,
                              PaperRows(chronovision_paper.TRIVIAL_DYNASTY, {"ACC_A": "ACC_A"}),
                              PaperRows(chronovision_paper.TRIVIAL_YEAR, {"MAE": "MAE"}))),
            TableSpec("chronovision_dynasties", "ChronoVision", "Artifact localization accuracy per dynasty (%)", None,
                      (("", dynasties),), compare=False),
            TableSpec("chronovision_shortcut", "ChronoVision", "Shortcut Δ_ACC = ACC_1 − ACC_2 per SPEED category (%, Table IV)",
                      "Prompt", shortcut, compare=False,
                      papers=(PaperRows(table4, {c.capitalize(): f"{c.capitalize()} Δ_ACC" for c in TABLE4_CATEGORIES},
                                        variants=("CoT",)),)),
            TableSpec("chronovision_offsets", "ChronoVision", "Artifact localization: how far off in time (in dynasties, "
                      "Tang = 0 … Qing = 4; bias > 0: answers newer than the truth)", "Task",
                      tuple((task, offset_headlines(task)) for task in loc_tasks),
                      compare=False, confusion=tuple((task, "period_bias", DYNASTIES) for task in loc_tasks),
                      unit="dynasties"),
            TableSpec("chronovision_year_offsets", "ChronoVision", "News-Year: how far off in time (in years; distance = "
                      "MAE; bias > 0: years later than the truth)", "Task",
                      ((CV_YEAR, offset_headlines(CV_YEAR, YEAR_OFFSET_METRICS)),),
                      compare=False, year_errors=((CV_YEAR, "year_bias"),), unit="years")]


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
    table4 = musebench_paper.TABLE_4
    by_task = {}
    for column, (task, metric) in table4.measures.items():
        by_task.setdefault(task, {})[f"R@{metric.split('@')[1]}"] = column
    # Table 2's Score is not (BERT + ANLS) / 2 as printed (chronotasks/tasks/musebench/README.md): only its BERT and ANLS
    vqa_papers = (PaperRows(musebench_paper.TABLE_2, {"BERTScore": "Overall BERT", "ANLS": "Overall ANLS"},
                            variants=("musebench_vqa",), note="Table 2's Score is not (BERT + ANLS) / 2: left out"),
                  PaperRows(musebench_paper.TABLE_3, {"BERTScore": "BERT", "ANLS": "ANLS", "Score": "Score"},
                            variants=("musebench_vqa_descriptive",)))
    retrieval_papers = tuple(PaperRows(table4, columns, variants=(task,), note=task) for task, columns in by_task.items())
    return [TableSpec("musebench_vqa", "MuseBench", "Cultural VQA (BERTScore F1, ANLS, Score = their mean, accuracy; %)",
                      "Task", vqa, papers=vqa_papers),
            TableSpec("musebench_retrieval", "MuseBench", "Cultural Retrieval (Recall@K %)", "Task", retrieval,
                      papers=retrieval_papers)]


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
    "ours": "our careful reading of the replies (AnswerSpace.parse: one committed, uncontradicted answer, else none)",
    "release": "the release scripts' reading of the same replies (the `*_release` metrics; every divergence from ours is "
               "listed in the benchmark's README); – where the release ships no scorer (ChronoVision's artifacts tasks: its S "
               "uses our ACC_A and τ)",
    RELEASE_OURS: "TAB-VLM asked with the release code's numbered-option prompts (tabvlm_chrono_release), read by us",
    RELEASE_READING: "the same replies read and counted by the release code (accuracy_release): it leaves empty replies and "
                     "images it could not load out of the denominator, so its n can be smaller",
    "counted": "n=a/b counted: the figure counts a of the b questions (the release's denominator); n=a/b answered: a mean "
               "over the a questions with a readable answer",
    "chance": "what a uniformly random answer scores, worked out from the records' answer space (chronotasks.scoring.chance): "
              f"1/4 for one of 4 options, 1/16 for a subset of 4, τ = 0 for a random order, 1/{chance.answer_count(NEWS_YEAR_SPACE.to_json())} "
              f"for a year of {NEWS_YEAR_SPACE.lo}-{NEWS_YEAR_SPACE.hi}; "
              "Δ_ACC 0; MAE: the expected |random year − true year| over the run's questions; S: S of those chance values. "
              "Exact, not an estimate (no n); – where the answer is free text or a ranking",
    "published rows": "the papers' own rows for the same figures (chronotasks/benchmarks/<benchmark>/paper_tables.py, cited "
                      "by table), as printed, on the papers' full data and protocols",
    "distance": "mean |predicted − true| position on the ordered scale (periods, dynasties or years) over the answered "
                "questions; for News-Year it is the MAE",
    "chance distance": "the distance a uniformly random answer has on average (over the options' positions, or every year "
                       "of the answer space), over all the questions",
    "bias": "mean signed offset (predicted − true) over the answered questions: > 0 the answers are newer (later) than "
            "the truth, < 0 older",
    "chance bias": "the signed offset a uniformly random answer has on average, over all the questions (not 0 when the "
                   "options lie mostly on one side of the truth)",
    "unread": "questions whose reply gave no answer (unreadable, or an image that could not be opened): a column of the "
              "confusion matrices and the year-error histograms",
    "signed year error": "predicted − true year of a News-Year answer, counted per bin (< −20 … > +20)",
}
SYMBOL_ALIASES = {"R@5": "R@1", "R@10": "R@1", **{f"chose {ch}": "chose A" for ch in "BCDE"}, "Δ": "Δ colour − gray",
                  "answered": "counted"}


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
