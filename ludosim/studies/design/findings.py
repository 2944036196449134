"""What a design's page states (`study_findings`, `decide`): the screening's effects and
the confirmation's differences decided in one family (`decided`), each candidate's
standing (`standings`), the recommendation as a family reads it at the table
(`rules_card`, in the plain words of `rule_words`), the model's check and the front.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.contrasts import (
    ALPHA,
    BELOW,
    EQUIVALENT,
    OPEN,
    POSSIBLY_BELOW,
    PRACTICAL,
    Family,
    Test,
    practical_size,
)
from ludosim.report.coverage import CONSISTENT, Coverage, coverage_check
from ludosim.report.finding import Finding, PageFindings
from ludosim.report.wording import amount, estimate, listing, of, p_text
from ludosim.results.measures import DESIGN_MEASURES, MEASURES
from ludosim.results.stats import z_for
from ludosim.studies.design.effects import alias_table
from ludosim.studies.design.spec import GOALS, MAX_FREE, WEAK, DesignStudy
from ludosim.studies.design.tables import DesignTables
from ludosim.studies.design.words import GOAL_WORDS, rule_words

TITLES = {
    "recommend": "Recommended rule sets",
    "about": "How to read these findings",
    "screening": "What each house rule does",
    "model": "How well the model predicts",
    "front": "What one goal costs of another",
}


def _set_line(study: DesignStudy, label: str) -> str:
    """The `--set` options of a rule set: the study's fixed changes and its free ones."""
    changed = [] if label.startswith("(") else label.split()
    return " ".join(["--preset", study.preset, *(f"--set {x}" for x in [*study.sets, *changed])])


def _value(table: pd.DataFrame, point: str, measure: str, stage: str | None = None) -> pd.Series:
    rows = table[(table["point"] == point) & (table["measure"] == measure)]
    if stage is not None:
        rows = rows[rows["stage"] == stage]
    return rows.iloc[-1]


def _est(row: Any, unit: str | None = None) -> str:

    unit = row["unit"] if unit is None else unit
    sign = unit in ("pp",) and False
    return estimate(row["estimate"], row["ci_low"], row["ci_high"], unit, sign=sign)


def study_findings(tables: DesignTables) -> list[Any]:
    """The findings of a design's page, in the order the page states them."""
    return decide(tables).findings


@dataclass(frozen=True)
class Decided:
    """The page's one family, decided: the screening's effects and the confirmation's
    differences, each with `p_adjusted`, `resolved` and `size` (`practical_size`:
    where its interval stands against the measure's smallest effect of interest)."""

    family: Family
    effects: pd.DataFrame
    comparisons: pd.DataFrame


def _size(rows: pd.DataFrame) -> list[str]:
    return [
        practical_size(bool(r.resolved), r.ci_low, r.ci_high, MEASURES[r.measure].smallest)
        for r in rows.itertuples(index=False)
    ]


def decided(tables: DesignTables) -> Decided:
    """Every comparison the page states, in one family decided by Holm's correction."""
    family = Family("differences", "screening effects and confirmation differences")

    def tests(frame: pd.DataFrame, key: Callable[[Any], str]) -> list[Test]:
        return [
            family.add(Test(key(r), r.estimate, r.ci_low, r.ci_high, r.p_value, int(r.games)))
            for r in frame.itertuples(index=False)
        ]

    effect_tests = tests(tables.effects, lambda r: f"effect:{r.measure}:{r.term}")
    compare_tests = tests(tables.comparisons, lambda r: f"{r.kind}:{r.measure}:{r.point}|{r.other}")
    family.adjust()
    effects = tables.effects.drop(columns=["practical"], errors="ignore")
    effects = effects.rename(columns={"p_adjusted": "p_screening"}).drop(columns="resolved")
    effects = effects.assign(
        p_adjusted=[t.p_adjusted for t in effect_tests],
        resolved=[t.resolved for t in effect_tests],
    )
    effects["size"] = _size(effects)
    effects["practical"] = effects["size"] == PRACTICAL
    comparisons = tables.comparisons.assign(
        p_adjusted=[t.p_adjusted for t in compare_tests],
        resolved=[t.resolved for t in compare_tests],
    )
    comparisons["size"] = _size(comparisons)
    return Decided(family, effects, comparisons)


def decide(tables: DesignTables) -> Any:
    """What the design says, decided in one family per page (Holm over the screening's
    effects and the confirmation's differences): a `PageFindings`."""
    study, plan = tables.study, tables.plan
    page = decided(tables)
    family, effects, comparisons = page.family, page.effects, page.comparisons
    effect_tests = [t for t in family.tests if t.key.startswith("effect:")]
    compare_tests = [t for t in family.tests if not t.key.startswith("effect:")]
    out: list[Finding] = []
    total = sum(tables.games.values())
    k = len(plan.free)
    out.append(
        Finding(
            "about",
            (
                f"This page decides {family.size} comparisons together by Holm's correction (the "
                f"chance of any false claim of a difference is at most {round(100 * ALPHA)}%): the "
                f"screening's {len(effect_tests)} effects of {k} free house rules on "
                f"{len(DESIGN_MEASURES)} measures, and the confirmation's {len(compare_tests)} "
                "differences. A change matters only when its whole 95% interval clears the "
                "measure's smallest effect of interest, and is ruled out only when the "
                "interval lies within it. Model predictions are stated with 95% prediction "
                "intervals."
            ),
            True,
            headline=True,
            kind="note",
        )
    )
    stages = "; ".join(f"{name}: {n:,} games" for name, n in tables.games.items())
    dropped = (
        f" Dropped: {'; '.join(f'{t} ({w})' for t, w in plan.dropped)}." if plan.dropped else ""
    )
    aliases = alias_table(plan)
    aliased = (
        f" Resolution V keeps main effects and two-toggle interactions apart from one another, "
        f"not from higher ones: {len(aliases)} pairs of a two-toggle interaction and a "
        "three-toggle one share a column of the design (aliases.csv), and the model reads "
        "each pair as the two-toggle interaction."
        if len(aliases)
        else ""
    )
    out.append(
        Finding(
            "about",
            (
                f"The design screens {k} house rules of {study.preset} "
                f"({listing([f.text(1) for f in plan.free], most=MAX_FREE)}, "
                f"each against the preset's own value) in {len(plan.codes)} rule sets, a two-level "
                f"fractional factorial of resolution V.{aliased} Every rule set plays games with "
                f"every seat random, and games of two players each in one seat against {WEAK} "
                "ones, the seat rotated through every position: the optimal player is "
                f"{study.optimal}, the fictive player {study.fictive} (who knows the dice in "
                "advance). Skill is their relative skill level RS = (W(optimal) - 1/n) / "
                "(W(fictive) - 1/n) of Dreef, Borm and van der Genugten (2004), as on the skill "
                "page, with its delta-method standard error, from "
                f"{study.skill_games:,} games of each player per rule set (twice as many in the "
                "confirmation): 0 where the optimal player wins no more than random play, 1 where "
                "knowing the dice adds nothing. Each stage "
                f"plays games of its own (stages.csv gives its seeds): {stages}; {total:,} games "
                f"decided in all.{dropped}"
            ),
            True,
            headline=True,
            kind="note",
        )
    )
    # The answer first, then how to read it: a reader sees the recommendation on the
    # first screen, before the method.
    out = _recommendation(tables, comparisons) + out
    out += _screening(tables, effects)
    out += _model_checks(tables)
    out += _front(tables)
    # The page's table of effects: every term on every measure, as the page decided it.
    return PageFindings(out, [family], [], False, effects)


# A candidate's standing against the best measured on the first goal.
RECOMMENDED = "recommended"  # the fewest changes among the best and those equivalent to it


EQUALLY_GOOD = "equally good"  # the best measured, or equivalent to it; more changes


NOT_APART = "not told apart"  # neither resolved worse nor shown equivalent at this size


WORSE = "worse"  # resolved worse by the page's correction, by more than the smallest effect


STANDINGS = (RECOMMENDED, EQUALLY_GOOD, NOT_APART, WORSE)


def standing(resolved: bool, estimate: float, se: float, smallest: float, tests: int) -> str:
    """A candidate against the best measured on the first goal (`estimate` = the
    candidate's shortfall, in the goal's direction of worse, with its standard error).

    `EQUALLY_GOOD` when its interval lies within the smallest effect of interest (an
    equivalence test on the interval: two one-sided tests, Schuirmann 1987, each at
    2.5% / `tests`, Bonferroni over the candidates compared with the best), whether or
    not the difference is resolved: a difference too small to matter is no reason to
    prefer a rule set. Else `WORSE` when the page's correction resolved it, else
    `NOT_APART`."""
    half = z_for(ALPHA / max(tests, 1)) * se
    if practical_size(False, estimate - half, estimate + half, smallest) == EQUIVALENT:
        return EQUALLY_GOOD
    return WORSE if resolved else NOT_APART


def _goal_value(tables: DesignTables, point: str, measure: str) -> pd.Series:
    return _value(tables.measures, point, measure, "confirm")


def standings(tables: DesignTables, comparisons: pd.DataFrame) -> dict[str, str]:
    """Each confirmed candidate's standing (`STANDINGS`), as the page decided it
    (`comparisons` from `decided`). The recommended one is the candidate with the fewest
    changes from the preset among the best measured and those equally good (ties to
    the better measured)."""
    measure, direction = GOALS[tables.study.goals[0]]
    confirmed = tables.confirmed
    if confirmed.empty:
        return {}
    points = [str(p) for p in confirmed["point"]]
    changes = dict(zip(points, confirmed["changes"].astype(int), strict=True))
    value = {p: float(_goal_value(tables, p, measure)["estimate"]) for p in points}
    best = min(points, key=lambda p: -direction * value[p])
    vs_best = comparisons[(comparisons["kind"] == "vs best") & (comparisons["measure"] == measure)]
    smallest = MEASURES[measure].smallest
    out = {best: EQUALLY_GOOD}
    for row in vs_best.itertuples(index=False):
        out[str(row.point)] = standing(
            bool(row.resolved), float(row.estimate), float(row.se), smallest, len(vs_best)
        )
    group = [p for p in points if out.get(p) == EQUALLY_GOOD]
    pick = min(group, key=lambda p: (changes[p], -direction * value[p]))
    out[pick] = RECOMMENDED
    return {p: out.get(p, NOT_APART) for p in points}


def with_standings(tables: DesignTables) -> DesignTables:
    """The tables with each confirmed candidate's standing, as the page decides it."""
    if tables.confirmed.empty:
        return tables
    stand = standings(tables, decided(tables).comparisons)
    confirmed = tables.confirmed.assign(standing=tables.confirmed["point"].astype(str).map(stand))
    return replace(tables, confirmed=confirmed)


def _size_text(size: str, smallest: str) -> str:
    return {
        PRACTICAL: f"a change of at least {smallest}",
        POSSIBLY_BELOW: f"resolved, possibly smaller than {smallest}",
        BELOW: f"resolved, but smaller than {smallest}, the smallest that matters",
        EQUIVALENT: f"no change of {smallest} or more (the interval lies within it)",
        OPEN: "not resolved at this size",
    }[size]


def _secondary(row: Any, direction: int) -> str:
    """A secondary goal against the preset's own rules: its size, and whether a loss that
    matters is still possible (the interval reaching the smallest effect the wrong way)."""
    m = MEASURES[row.measure]
    smallest = amount(m.smallest, m.unit)
    said = _size_text(row.size, smallest)
    worst = row.ci_high if direction < 0 else -row.ci_low
    if worst >= m.smallest:
        said += f"; a loss of {smallest} or more cannot be ruled out"
    return said


# The pace a rules card turns rounds into minutes at: one player turn (its rolls and
# moves) in this many seconds at a family table. An assumption the page states, not a
# measurement.
SECONDS_PER_TURN = 6.0


def rules_card(tables: DesignTables, pick: str, comparisons: pd.DataFrame) -> str:
    """The recommendation as a family reads it at the table: one sentence per changed
    rule, what the change does to a game in rounds and in minutes (at `SECONDS_PER_TURN`),
    and the options that paste into any ludosim command."""
    study, plan = tables.study, tables.plan
    goal = study.goals[0]
    players = study.base().players
    points = tables.points.drop_duplicates("point").set_index("point")
    codes = [float(x) for x in str(points.loc[pick, "codes"]).split()]
    changed = [f for f, x in zip(plan.free, codes, strict=True) if x > 0]
    sentences = []
    for f in changed:
        topic, now = rule_words(f.toggle, f.values[1])
        _, was = rule_words(f.toggle, f.values[0])
        sentences.append(f"{topic}: {now} (was: {was}).")
    length = {p: float(_goal_value(tables, p, "length")["estimate"]) for p in (pick, "preset")}
    minutes = {p: x * players * SECONDS_PER_TURN / 60 for p, x in length.items()}
    pace = (
        f"at {SECONDS_PER_TURN:g} seconds per player turn with {players} players (an assumed pace)"
    )
    if not changed:
        others = len(tables.confirmed) - 1
        return (
            f"For {GOAL_WORDS[goal]}, keep {study.preset}'s own rules: none of the {others} "
            "other candidates confirmed does better by the smallest difference that matters. "
            f"A game lasts {length['preset']:.0f} rounds on average, about "
            f"{minutes['preset']:.0f} minutes {pace}."
        )
    vs = comparisons[
        (comparisons["kind"] == "vs preset") & (comparisons["point"] == pick)
    ].set_index("measure")
    row = vs.loc["length"]
    change = estimate(row["estimate"], row["ci_low"], row["ci_high"], "rounds")
    text = (
        f"For {GOAL_WORDS[goal]}, play {study.preset} with {len(changed)} house "
        f"rule{'s' if len(changed) > 1 else ''} changed. "
        + " ".join(sentences)
        + f" A game then lasts {length[pick]:.0f} rounds on average instead of "
        f"{length['preset']:.0f} ({change}), about {minutes[pick]:.0f} minutes instead of "
        f"{minutes['preset']:.0f} {pace}."
    )
    measure = GOALS[goal][0]
    if measure != "length" and measure in vs.index:
        m, r = MEASURES[measure], vs.loc[measure]
        text += (
            f" Its {m.title} moves by {estimate(r['estimate'], r['ci_low'], r['ci_high'], m.unit)}"
            f" against {study.preset}'s own rules."
        )
    return text + f" Paste: ludosim simulate {_set_line(study, plan.label(codes))}"


def _recommendation(tables: DesignTables, comparisons: pd.DataFrame) -> list[Any]:

    study = tables.study
    goal = study.goals[0]
    measure = GOALS[goal][0]
    m0 = MEASURES[measure]
    limits = " and ".join(x.text for x in study.limits)
    feasible = tables.search[tables.search["feasible"].astype(bool)]
    space = len(tables.search)
    if tables.confirmed.empty:
        return [
            Finding(
                "recommend",
                (
                    f"None of the {space:,} rule sets of the space is predicted to meet {limits}; "
                    "relax a limit or free other house rules."
                ),
                False,
                headline=True,
                kind="note",
            )
        ]
    confirmed = tables.confirmed
    stand = standings(tables, comparisons)
    labels = dict(zip(confirmed["point"].astype(str), confirmed["label"], strict=True))
    (pick,) = [p for p, x in stand.items() if x == RECOMMENDED]
    equal = [p for p, x in stand.items() if x == EQUALLY_GOOD]
    apart = [p for p, x in stand.items() if x == NOT_APART]
    worse = [p for p, x in stand.items() if x == WORSE]
    meets = [
        p
        for p in stand
        if all(x.holds(_goal_value(tables, p, x.measure)["estimate"]) for x in study.limits)
    ]
    distinct = int((tables.search["same_as"] == "").sum())  # search and read_tables set it
    repeats = (
        f" ({space - distinct:,} more play the same games as one with fewer changes)"
        if distinct < space
        else ""
    )
    if limits:
        meet = f"{len(feasible):,} of the {distinct:,} distinct rule sets{repeats} are predicted "
        meet += f"to meet {limits}"
    else:
        meet = f"the space holds {distinct:,} distinct rule sets{repeats} (no limits asked)"
    front = int(tables.search["front"].astype(bool).sum())
    pool = int((tables.search["front"] & tables.search["may_be_best"]).astype(bool).sum())
    games = int(confirmed["games"].iloc[0])
    within = amount(m0.smallest, m0.unit)
    b = _goal_value(tables, pick, measure)
    if len(stand) == 1:
        said = f"The one candidate for {goal}"
    elif not apart and not equal:
        said = f"Best for {goal}, resolved against every other candidate by the page's correction"
    else:
        said = f"Recommended for {goal}"
    text = f"{said}: {labels[pick]} ({m0.title} {_stated(b)}, {int(b['games']):,} games)"
    if equal:
        text += (
            f", the fewest changes among the best measured and those within {within} of it "
            f"(equally good: {listing([labels[p] for p in equal])})"
        )
    if apart:
        text += (
            f". Not told apart from it at this size (neither resolved worse nor shown within "
            f"{within}): {listing([labels[p] for p in apart])}"
        )
    if worse:
        text += f". Resolved worse: {listing([labels[p] for p in worse])}"
    text += (
        f". Under {study.preset}, {meet}; {front:,} are on the front of "
        f"{listing(list(study.goals))} by the model's 95% prediction intervals, {pool:,} of "
        f"those may be within {within} of the best for {goal}, and {len(stand)} of them, drawn "
        f"far apart, were replayed once with {study.preset}'s own rules on games of their own "
        f"({games:,} games each, fixed before the first"
        + (f"; {of(len(meets), len(stand))} measured within the limits)" if limits else ")")
    )
    vs_preset = comparisons[(comparisons["kind"] == "vs preset") & (comparisons["point"] == pick)]
    goal_measures = [GOALS[g][0] for g in study.goals]
    said, costs = [], []
    for row in vs_preset.itertuples(index=False):
        m = MEASURES[row.measure]
        change = estimate(row.estimate, row.ci_low, row.ci_high, m.unit)
        if row.measure in goal_measures:
            aim = study.goals[goal_measures.index(row.measure)]
            said.append(
                f"for {aim}, its {m.title} moves by {change} against {study.preset}'s own rules "
                f"(unadjusted interval; {_secondary(row, GOALS[aim][1])})"
            )
        elif row.size == PRACTICAL:
            costs.append(f"{m.title} {change}")
    if said:
        text += ". " + "; ".join(said)[0].upper() + "; ".join(said)[1:]
    text += (
        f". It also changes, by at least the smallest effect that matters: {'; '.join(costs)}."
        if costs
        else ". No other measure changes by an interval that clears its smallest effect."
    )
    out = [
        Finding(
            "recommend",
            rules_card(tables, pick, comparisons),
            True,
            headline=True,
            kind="ranking",
            estimate=float(b["estimate"]),
            ci_low=float(b["ci_low"]),
            ci_high=float(b["ci_high"]),
            unit=str(b["unit"]),
            family="differences",
            games=int(b["games"]),
        ),
        Finding("recommend", text, True, headline=True, kind="note"),
    ]

    for p, x in stand.items():
        parts = []
        for name in DESIGN_MEASURES:
            row = _goal_value(tables, p, name)
            parts.append(f"{MEASURES[name].title} {_stated(row)}")
        out.append(
            Finding(
                "recommend",
                (
                    f"{labels[p]} ({x}; {games:,} games with random seats): "
                    + "; ".join(parts)
                    + f". {_set_line(study, labels[p])}"
                ),
                True,
                kind="value",
            )
        )
    return out


def _screening(tables: DesignTables, effects: pd.DataFrame) -> list[Any]:
    """Per measure: the house rules (and interactions) whose interval clears the
    smallest effect of interest, largest first; how many are shown smaller; each
    such effect behind its headline."""

    out = []
    for name in DESIGN_MEASURES:
        m = MEASURES[name]
        rows = effects[effects["measure"] == name]
        practical = rows[rows["practical"]].sort_values("estimate", key=abs, ascending=False)
        mains = practical[practical["factors"] == 1]
        inter = practical[practical["factors"] == 2]
        main_rows = rows[rows["factors"] == 1]
        small = int(main_rows["size"].isin([BELOW, EQUIVALENT]).sum())
        listed = "; ".join(
            f"{r.term} {estimate(r.estimate, r.ci_low, r.ci_high, m.unit)}"
            for r in mains.head(6).itertuples(index=False)
        )
        count = len(main_rows)
        smallest = amount(m.smallest, m.unit)
        verb = "moves" if len(mains) == 1 else "move"
        text = (
            f"The {m.title}: {of(len(mains), count)} house rules {verb} it by at least "
            f"{smallest} (resolved, the whole interval beyond {smallest}; Holm over the page)"
            + (f": {listed}" if listed else "")
        )
        rest = count - len(mains) - small
        text += (
            f"; {small} move it by less than {smallest} (interval within it)" if small else ""
        ) + (f"; for {rest}, a change of {smallest} is not ruled out at this size" if rest else "")
        if len(inter):
            top = inter.iloc[0]
            text += (
                f"; {len(inter)} interaction{'s' if len(inter) > 1 else ''} clear it too, the "
                f"largest {top['term']} "
                f"{estimate(top['estimate'], top['ci_low'], top['ci_high'], m.unit)}"
            )
        out.append(
            Finding("screening", text + ".", True, headline=True, kind="note", family="differences")
        )
        for r in practical.itertuples(index=False):
            out.append(
                Finding(
                    "screening",
                    f"{r.term} on the {m.title}: "
                    f"{estimate(r.estimate, r.ci_low, r.ci_high, m.unit)}; "
                    f"resolved (Holm-adjusted {p_text(r.p_adjusted)}), at least {smallest}.",
                    True,
                    kind="difference",
                    estimate=float(r.estimate),
                    ci_low=float(r.ci_low),
                    ci_high=float(r.ci_high),
                    unit=m.unit,
                    family="differences",
                    p_adjusted=float(r.p_adjusted),
                    games=int(r.games),
                )
            )
    return out


def coverage_by_measure(checks: pd.DataFrame, stage: str = "holdout") -> dict[str, Coverage]:
    """Per measure, the two-sided check of the 95% prediction intervals on one stage's
    rule sets (`ludosim.report.coverage`). The holdout is drawn at random from the
    space, so it checks the model where it was not fitted; the confirmed candidates
    are the model's own picks, chosen for their predictions, and are shown apart."""
    part = checks[checks["stage"] == stage]
    return {
        name: coverage_check(int(rows["inside"].astype(bool).sum()), len(rows))
        for name in DESIGN_MEASURES
        if len(rows := part[part["measure"] == name])
    }


def check_summary(tables: DesignTables) -> pd.DataFrame:
    """Per measure: the lack of fit, the held-out rule sets checked, those held by the
    95% prediction interval with the two-sided check, the confirmed ones held, and the
    root mean square error of the predictions."""
    checks = tables.checks
    held = coverage_by_measure(checks)
    rows = []
    for name in DESIGN_MEASURES:
        part = checks[checks["measure"] == name]
        if part.empty:
            continue
        m = MEASURES[name]
        mine = part[part["stage"] == "confirm"]
        rows.append(
            {
                "measure": m.title,
                "unit": m.unit,
                "lack of fit (sd)": f"{math.sqrt(tables.models[name].misfit):.3g}",
                "holdout inside": held[name].text().split(":")[0] if name in held else "-",
                "coverage": held[name].verdict if name in held else "-",
                "confirmed inside": f"{int(mine['inside'].astype(bool).sum())} of {len(mine)}",
                "rms error": float(np.sqrt(((part["predicted"] - part["measured"]) ** 2).mean())),
            }
        )
    return pd.DataFrame(rows)


def _stated(row: Any) -> str:
    """A measured value with its interval, in its unit: `87.2 rounds (95% CI 86.5 to 88.0)`."""

    return estimate(row["estimate"], row["ci_low"], row["ci_high"], row["unit"], sign=False)


def _predicted(row: Any, measure: str) -> str:
    m = MEASURES[measure]
    return f"{m.title} {row[measure]:.3g} {m.unit}"


def _model_checks(tables: DesignTables) -> list[Any]:

    checks = tables.checks
    if checks.empty:
        return []
    held = coverage_by_measure(checks)
    out = []
    if held:
        off = {n: c for n, c in held.items() if c.verdict != CONSISTENT}
        n = next(iter(held.values())).checked
        text = (
            f"Checked on {n} rule sets held out at random, on games of their own, the models' "
            f"95% prediction intervals held the measurement as stated for "
            f"{of(len(held) - len(off), len(held))} measures"
        )
        if off:
            text += ", not for " + "; ".join(
                f"the {MEASURES[k].title}: {c.text()}" for k, c in off.items()
            )
            text += " (read those predictions as rough)"
        text += (
            ". Each measure is checked two-sided (too wide a miss as much as too narrow), with "
            f"an exact interval over its {n} rule sets; with so few, only a large miss shows."
        )
        out.append(Finding("model", text, True, headline=True, kind="note"))
    for name in DESIGN_MEASURES:
        rows = checks[checks["measure"] == name]
        if rows.empty:
            continue
        error = float(np.sqrt(((rows["predicted"] - rows["measured"]) ** 2).mean()))
        m = MEASURES[name]
        mine = rows[rows["stage"] == "confirm"]
        said = held[name].text() if name in held else "no rule set held out"
        out.append(
            Finding(
                "model",
                (
                    f"The {m.title}: held-out rule sets inside their interval {said}; confirmed "
                    f"candidates (the model's own picks) {int(mine['inside'].sum())} of "
                    f"{len(mine)}; lack of fit sd {math.sqrt(tables.models[name].misfit):.3g} "
                    f"{m.unit} (a part of every interval that does not shrink with games); root "
                    f"mean square error {error:.3g} {m.unit}."
                ),
                True,
                kind="value",
            )
        )
    return out


def _front(tables: DesignTables) -> list[Any]:

    study = tables.study
    goals = study.goals if len(study.goals) > 1 else (study.goals[0], "skill")
    front = tables.search[tables.search["front"].astype(bool)]
    if front.empty:
        return []
    names = [GOALS[g][0] for g in goals[:2]]
    shown = [
        f"{r['label']} ({', '.join(_predicted(r, m) for m in names)})"
        for _, r in front.head(5).iterrows()
    ]
    return [
        Finding(
            "front",
            (
                f"On {listing(list(study.goals))}, {len(front)} rule set"
                f"{'s are' if len(front) != 1 else ' is'} not beaten on every goal once the 95% "
                "prediction intervals are counted (no other is predicted better on all of them "
                "beyond both intervals): a trade-off between goals is only shown where the "
                "intervals part"
                + (f"; the {len(shown)} first by {goals[0]}: " if len(front) > len(shown) else ": ")
                + f"{listing(shown)} (every one in search.csv, front = True). Predictions, not "
                "measurements: the confirmed rule sets above are measured."
            ),
            True,
            headline=True,
            kind="note",
        )
    ]
