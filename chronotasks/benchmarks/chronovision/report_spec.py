"""What `chronotasks report` shows of ChronoVision: Table III in our reading and the release scripts'
(with S of §V.C, chronotasks.scoring.composite), localization per dynasty, shortcut Δ_ACC per SPEED
category (Table IV), how far off in time, the papers' rows beside them, the circular and grayscale
variants and the plots."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from chronotasks.benchmarks.chronovision import (
    DYNASTIES,
    LOC_SPACE,
    MULTIMODAL_SPACE,
    NEWS_YEAR_SPACE,
    SHORTCUT_SPACE,
    sort_space,
)
from chronotasks.benchmarks.chronovision import paper_tables as chronovision_paper
from chronotasks.benchmarks.chronovision.report import TABLE4_CATEGORIES, table3_values
from chronotasks.reporting import RunResults, metric_value
from chronotasks.scoring import chance
from chronotasks.scoring.composite import chronovision_composite, tau_from_table
from chronotasks.scoring.intervals import Statistic, Unit
from chronotasks.scoring.shortcut import CONDITIONS
from chronotasks.suite_report.spec import (
    YEAR_OFFSET_METRICS,
    BenchmarkReport,
    GrayRow,
    Headline,
    PanelSpec,
    PaperRows,
    PlotSpec,
    TableSpec,
    in_group,
    mean_of,
    mean_of_task_means,
    metric_point,
    offset_headlines,
    present,
    space_chance,
    sum_count,
)

LOC, INTRA, CROSS = (
    "chronovision_artifacts_loc",
    "chronovision_artifacts_sort_intra",
    "chronovision_artifacts_sort_cross",
)
SHORTCUT, YEAR, MULTI = "chronovision_shortcut", "chronovision_news_year", "chronovision_news_multimodal"
ALL = (LOC, INTRA, CROSS, SHORTCUT, YEAR, MULTI)
# the localization task logs one item {dynasty, category, correct} per sample under every acc_<group> key
LOC_ITEMS = f"acc_{DYNASTIES[0].lower()}"
_CONDITIONS = tuple(CONDITIONS)  # color, gray_earlier, gray_later -> ACC_B, ACC_1, ACC_2


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


def _year_unit(suffix: str) -> Callable[[Unit], tuple[float, ...]]:
    def extract(unit: Unit) -> tuple[float, ...]:
        return (*sum_count("ACC_Y" + suffix)(unit), *sum_count("MAE" + suffix)(unit))

    return extract


def _composite_S(totals: list[np.ndarray]) -> np.ndarray:
    """S (chronovision_composite, the one definition) of each resample's Table III columns."""
    loc, intra, cross, shortcut, year, multi = totals
    with np.errstate(invalid="ignore", divide="ignore"):
        parts = (
            loc[..., 0] / loc[..., 1],
            (intra[..., 0] / intra[..., 1] + cross[..., 0] / cross[..., 1]) / 2,
            _condition_accuracy([shortcut], "ACC_B"),
            _condition_accuracy([shortcut], "ACC_1") - _condition_accuracy([shortcut], "ACC_2"),
            year[..., 0] / year[..., 1],
            year[..., 2] / year[..., 3],
            multi[..., 0] / multi[..., 1],
        )
    return np.vectorize(lambda *args: chronovision_composite(*args)["S"], otypes=[float])(*parts)


def composite_statistic(suffix: str = "") -> Statistic:
    """S of §V.C from the per-question samples; ``suffix`` "_release": the release scripts' readings of the
    shortcut and news tasks (the artifacts tasks have no release scorer: ours)."""
    return Statistic(
        (
            sum_count("ACC_A"),
            sum_count("tau"),
            sum_count("tau"),
            _shortcut_units("ACC_B" + suffix),
            _year_unit(suffix),
            sum_count("ACC_M" + suffix),
        ),
        _composite_S,
    )


def _table3(column: str, release: bool = False) -> Callable[[RunResults], float]:
    return lambda run: table3_values(run, release)[column]


def _no_release_scorer(run: RunResults) -> float:
    return math.nan


# chance levels of Table III's columns, from the records' answer spaces (chronotasks.scoring.chance)
CHANCE = {
    "ACC_A": space_chance("accuracy", LOC_SPACE),
    "τ": (space_chance("kendall_tau", sort_space(4)) + space_chance("kendall_tau", sort_space(5))) / 2,
    **{name: space_chance("accuracy", SHORTCUT_SPACE) for name in ("ACC_B", "ACC_1", "ACC_2")},
    "Δ_ACC": space_chance("accuracy", SHORTCUT_SPACE) - space_chance("accuracy", SHORTCUT_SPACE),
    "ACC_Y": space_chance("accuracy", NEWS_YEAR_SPACE),
    "ACC_M": space_chance("accuracy", MULTIMODAL_SPACE),
}


def year_error_chance(run: RunResults) -> float:
    """The expected |year − gold| of a random year of the answer space over the run's News-Year questions
    (the task's ``MAE_chance``: it depends on the gold years)."""
    return metric_value(run, YEAR, "MAE_chance")


def composite_chance(run: RunResults) -> float:
    """S of a model at chance on every part (S is not linear in its parts: this is S of the chance values)."""
    c = CHANCE
    return chronovision_composite(c["ACC_A"], c["τ"], c["ACC_B"], c["Δ_ACC"], c["ACC_Y"], year_error_chance(run), c["ACC_M"])["S"]


def table3_row(release: bool) -> tuple[Headline, ...]:
    suffix = "_release" if release else ""
    if release:  # the release ships no scorer for the artifacts tasks
        artifacts = (
            Headline("ACC_A", (LOC,), _no_release_scorer, chance=CHANCE["ACC_A"], compared=False),
            Headline("τ", (INTRA, CROSS), _no_release_scorer, scale=1, digits=3, chance=CHANCE["τ"], compared=False),
        )
    else:
        artifacts = (
            Headline("ACC_A", (LOC,), _table3("ACC_A"), mean_of("ACC_A"), chance=CHANCE["ACC_A"]),
            Headline("τ", (INTRA, CROSS), _table3("τ"), mean_of_task_means("tau"), scale=1, digits=3, chance=CHANCE["τ"]),
        )
    mae = "MAE" + suffix
    return (
        *artifacts,
        *(
            Headline(
                name,
                (SHORTCUT,),
                _table3(name, release),
                shortcut_statistic(metric, "ACC_B" + suffix),
                chance=CHANCE[name],
            )
            for name, metric in (("ACC_B", "ACC_B"), ("ACC_1", "ACC_1"), ("ACC_2", "ACC_2"), ("Δ_ACC", "delta_ACC"))
        ),
        Headline("ACC_Y", (YEAR,), _table3("ACC_Y", release), mean_of("ACC_Y" + suffix), chance=CHANCE["ACC_Y"]),
        Headline(
            "MAE",
            (YEAR,),
            _table3("MAE", release),
            mean_of(mae),
            select=present(mae),
            counted="answered",
            scale=1,
            digits=2,
            chance=year_error_chance,
        ),
        Headline("ACC_M", (MULTI,), _table3("ACC_M", release), mean_of("ACC_M" + suffix), chance=CHANCE["ACC_M"]),
        Headline("S", ALL, _table3("S", release), composite_statistic(suffix), chance=composite_chance),
    )


_TABLE3_COLUMNS = {
    "ACC_A": "ACC_A",
    "ACC_B": "ACC_B",
    "ACC_1": "ACC_1",
    "ACC_2": "ACC_2",
    "Δ_ACC": "Δ_ACC",
    "ACC_Y": "ACC_Y",
    "MAE": "MAE",
    "ACC_M": "ACC_M",
    "S": "Score",
    "τ": "50 × (1 + τ)",
}
TABLE3_PAPER = PaperRows(
    chronovision_paper.TABLE_III,
    _TABLE3_COLUMNS,
    convert={"τ": tau_from_table},
    note="the paper prints 50 × (1 + τ); shown here as τ",
)
# Table IV prints ACC_1, ACC_2 and Δ_ACC per category; the table beside it shows Δ_ACC only
TABLE4_PAPER = PaperRows(
    chronovision_paper.TABLE_IV,
    {c.capitalize(): f"{c.capitalize()} Δ_ACC" for c in TABLE4_CATEGORIES},
    variants=("CoT",),
    shows="Δ_ACC = ACC_1 − ACC_2 in points per SPEED category, CoT prompt",
)


def tables() -> list[TableSpec]:
    main = (("ours", table3_row(release=False)), ("release", table3_row(release=True)))
    dynasties = tuple(
        Headline(
            d,
            (LOC,),
            metric_point(LOC, f"acc_{d.lower()}"),
            mean_of(LOC_ITEMS, "correct"),
            select=in_group(LOC_ITEMS, "dynasty", d),
            chance=CHANCE["ACC_A"],
        )
        for d in DYNASTIES
    )
    shortcut = tuple(
        (
            prompt,
            tuple(
                Headline(
                    c.capitalize(),
                    (task,),
                    metric_point(task, f"delta_ACC_{c}"),
                    shortcut_statistic("delta_ACC"),
                    select=in_group("ACC_B", "category", c),
                    chance=CHANCE["Δ_ACC"],
                )
                for c in TABLE4_CATEGORIES
            ),
        )
        for prompt, task in (("plain", SHORTCUT), ("CoT", "chronovision_shortcut_cot"))
    )
    loc_tasks = (LOC, LOC + "_gray")
    return [
        TableSpec(
            "chronovision",
            "ChronoVision",
            "Table III (accuracies and S in %, τ in [−1, 1], MAE in years; release: the release scripts' reading of the same replies)",
            "Reading",
            main,
            papers=(
                TABLE3_PAPER,
                PaperRows(chronovision_paper.TRIVIAL_DYNASTY, {"ACC_A": "ACC_A"}),
                PaperRows(chronovision_paper.TRIVIAL_YEAR, {"MAE": "MAE"}),
            ),
        ),
        TableSpec(
            "chronovision_dynasties",
            "ChronoVision",
            "Artifact localization accuracy per dynasty (%)",
            None,
            (("", dynasties),),
            compare=False,
        ),
        TableSpec(
            "chronovision_shortcut",
            "ChronoVision",
            "Shortcut Δ_ACC = ACC_1 − ACC_2 per SPEED category (%, Table IV)",
            "Prompt",
            shortcut,
            compare=False,
            papers=(TABLE4_PAPER,),
        ),
        TableSpec(
            "chronovision_offsets",
            "ChronoVision",
            "Artifact localization: how far off in time (in dynasties, Tang = 0 … Qing = 4; bias > 0: answers newer than the truth)",
            "Task",
            tuple((task, offset_headlines(task)) for task in loc_tasks),
            compare=False,
            confusion=tuple((task, "period_bias", DYNASTIES) for task in loc_tasks),
            unit="dynasties",
        ),
        TableSpec(
            "chronovision_year_offsets",
            "ChronoVision",
            "News-Year: how far off in time (in years; distance = MAE; bias > 0: years later than the truth)",
            "Task",
            ((YEAR, offset_headlines(YEAR, YEAR_OFFSET_METRICS)),),
            compare=False,
            year_errors=((YEAR, "year_bias"),),
            unit="years",
        ),
    ]


def gray_rows(base: str) -> list[GrayRow]:
    """Localization: ACC_A and its accuracy per dynasty; sorting: τ."""
    gray = base + "_gray"
    if base == LOC:
        rows = [
            GrayRow(
                "ACC_A",
                Headline("ACC_A", (base,), metric_point(base, "ACC_A"), mean_of("ACC_A")),
                Headline("ACC_A", (gray,), metric_point(gray, "ACC_A"), mean_of("ACC_A")),
                plotted=True,
            )
        ]
        for d in DYNASTIES:
            pick = in_group(LOC_ITEMS, "dynasty", d)
            rows.append(
                GrayRow(
                    d,
                    Headline(d, (base,), metric_point(base, f"acc_{d.lower()}"), mean_of(LOC_ITEMS, "correct"), pick),
                    Headline(d, (gray,), metric_point(gray, f"acc_{d.lower()}"), mean_of(LOC_ITEMS, "correct"), pick),
                )
            )
        return rows
    if base in (INTRA, CROSS):
        return [
            GrayRow(
                "τ",
                Headline("τ", (base,), metric_point(base, "tau"), mean_of("tau"), scale=1.0, digits=3),
                Headline("τ", (gray,), metric_point(gray, "tau"), mean_of("tau"), scale=1.0, digits=3),
                plotted=True,
            )
        ]
    return []


SYMBOLS = {
    "ACC_A": "ChronoVision artifact localization accuracy (the dynasty of one artifact)",
    "τ": (
        "Kendall's rank correlation of the predicted and the true chronological order, in [−1, 1] (ChronoVision: "
        "mean of the intra- and cross-category sorting levels)"
    ),
    "ACC_B": "shortcut accuracy (which of two news photos is earlier), both photos in colour",
    "ACC_1": ('shortcut accuracy when the earlier photo is shown grayscale ("grayscale means old" points to the right answer)'),
    "ACC_2": ('shortcut accuracy when the later photo is shown grayscale ("grayscale means old" points to the wrong answer)'),
    "Δ_ACC": ('ACC_1 − ACC_2: how far the model relies on "grayscale means old" (0: not at all, also its chance level)'),
    "ACC_Y": (
        f"news-photo year estimation accuracy (exact year; chance: 1/{chance.answer_count(NEWS_YEAR_SPACE.to_json())}, "
        f"one year of {NEWS_YEAR_SPACE.lo}-{NEWS_YEAR_SPACE.hi})"
    ),
    "MAE": (
        "mean absolute error of the estimated year, in years (over readable replies; the News-Year distance); its"
        " chance: the expected |random year − true year| over the run's questions"
    ),
    "ACC_M": "news multimodal accuracy (the photo matching an event's text)",
    "S": (
        "ChronoVision composite score (§V.C): S = (S_A + S_S + S_N) / 3 from ACC_A, τ, ACC_B, Δ_ACC, ACC_Y, MAE, "
        "ACC_M; its chance: S of the chance values"
    ),
    "ours": "our careful reading of the replies (AnswerSpace.parse: one committed, uncontradicted answer, else none)",
    "release": (
        "the release scripts' reading of the same replies (the `*_release` metrics; every divergence from ours is"
        " listed in the benchmark's README); – where the release ships no scorer (ChronoVision's artifacts tasks:"
        " its S uses our ACC_A and τ)"
    ),
}


def report_spec() -> BenchmarkReport:
    return BenchmarkReport(
        order=2,
        tables=tables,
        circular=("chronovision_artifacts_loc_circular",),
        gray_rows=gray_rows,
        symbols=SYMBOLS,
        plots=(
            PlotSpec(
                "chronovision_headlines.png",
                (PanelSpec("chronovision", "ChronoVision Table III (the figures in %)", "%", percent_only=True),),
            ),
            PlotSpec(
                "per_period_accuracy.png",
                (PanelSpec("chronovision_dynasties", "ChronoVision localization accuracy per dynasty", "accuracy (%)"),),
            ),
            PlotSpec(
                "shortcut_delta.png",
                (
                    PanelSpec(
                        "chronovision_shortcut",
                        "ChronoVision shortcut Δ_ACC = ACC_1 − ACC_2 per SPEED category",
                        "Δ_ACC (points)",
                    ),
                ),
            ),
        ),
    )
