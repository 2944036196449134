"""What a design's page states (`study_findings`, `decide`): the screening's effects and
the confirmation's differences decided in one family (`decided`), the recommendation
those decide (`recommendation`: the preset as it is unless a change is resolved better,
`ludosim.studies.design.decision`) as a family reads it at the table (`rules_card`, in the
plain words of `rule_words`), the model's check and the front; when no rule set can meet
the limits, that (`unmet_limits`).
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
from ludosim.report.coverage import CONSISTENT, Coverage, coverage_check, coverage_reach
from ludosim.report.finding import Finding, PageFindings
from ludosim.report.wording import amount, estimate, listing, of, p_text
from ludosim.results.measures import DESIGN_MEASURES, MEASURES
from ludosim.studies.design.confirmation import PRESET
from ludosim.studies.design.decision import (
    BETTER,
    EQUALLY_GOOD,
    NOT_APART,
    SMALL_BETTER,
    SMALL_WORSE,
    WORSE,
    Recommendation,
    recommend,
)
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
    family, effects = page.family, page.effects
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
    out = _recommendation(tables, page) + out
    out += _screening(tables, effects)
    out += _model_checks(tables)
    out += _front(tables)
    # The page's table of effects: every term on every measure, as the page decided it.
    return PageFindings(out, [family], [], False, effects)


def recommendation(tables: DesignTables, page: Decided | None = None) -> Recommendation:
    """The page's decision (`ludosim.studies.design.decision.recommend`) from the
    comparisons as the page decided them (`decided`)."""
    page = decided(tables) if page is None else page
    goal = tables.study.goals[0]
    measure = GOALS[goal][0]
    values = {
        str(p): float(_goal_value(tables, str(p), measure)["estimate"])
        for p in tables.confirmed["point"]
    }
    return recommend(tables.confirmed, page.comparisons, goal, page.family.size, values)


def _goal_value(tables: DesignTables, point: str, measure: str) -> pd.Series:
    return _value(tables.measures, point, measure, "confirm")


def with_standings(tables: DesignTables) -> DesignTables:
    """The tables with each confirmed candidate's standing, as the page decides it."""
    if tables.confirmed.empty:
        return tables
    stand = recommendation(tables).standings
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


def _vs_preset(comparisons: pd.DataFrame, point: str) -> pd.DataFrame:
    """A candidate's differences from the preset's own rules, one row per measure."""
    rows = comparisons[(comparisons["kind"] == "vs preset") & (comparisons["point"] == point)]
    return rows.set_index("measure")


def _minutes(rounds: float, players: int) -> float:
    return rounds * players * SECONDS_PER_TURN / 60


def rules_card(tables: DesignTables, rec: Recommendation, comparisons: pd.DataFrame) -> str:
    """The recommendation as a family reads it at the table: one sentence per changed
    rule, what the change does to a game in rounds and in minutes (at `SECONDS_PER_TURN`),
    and the options that paste into any ludosim command; or, when no change is resolved
    better than the preset's own rules, to keep them, and why."""
    study, plan = tables.study, tables.plan
    goal = study.goals[0]
    players = study.base().players
    points = tables.points.drop_duplicates("point").set_index("point")
    length = float(_goal_value(tables, PRESET, "length")["estimate"])
    pace = (
        f"at {SECONDS_PER_TURN:g} seconds per player turn with {players} players (an assumed pace)"
    )
    m = MEASURES[rec.measure]
    within = amount(m.smallest, m.unit)
    if not rec.changes:
        others = [p for p in rec.standings if p != PRESET]
        text = f"For {GOAL_WORDS[goal]}, keep {study.preset}'s own rules: " + (
            f"none of the {len(others)} changed rule sets confirmed is resolved better on "
            f"the {m.title} by the page's correction by an interval that reaches {within}."
            if others
            else "the model's best candidates were the rules as they are."
        )
        if others:
            closest = max(others, key=lambda p: GOALS[goal][1] * _diff(comparisons, p, rec))
            row = _vs_preset(comparisons, closest).loc[rec.measure]
            changes = tables.confirmed.set_index("point")["changes"].astype(int)
            n = int(changes[closest])
            text += (
                f" The closest, with {n} change{'s' if n != 1 else ''}, moves it by "
                f"{estimate(row['estimate'], row['ci_low'], row['ci_high'], m.unit)} "
                f"({rec.standings[closest]})."
            )
        return text + (
            f" A game lasts {length:.0f} rounds on average, about "
            f"{_minutes(length, players):.0f} minutes {pace}."
        )
    pick = rec.pick
    codes = [float(x) for x in str(points.loc[pick, "codes"]).split()]
    changed = [f for f, x in zip(plan.free, codes, strict=True) if x > 0]
    sentences = []
    for f in changed:
        topic, now = rule_words(f.toggle, f.values[1])
        _, was = rule_words(f.toggle, f.values[0])
        sentences.append(f"{topic}: {now} (was: {was}).")
    mine = float(_goal_value(tables, pick, "length")["estimate"])
    vs = _vs_preset(comparisons, pick)
    row = vs.loc["length"]
    change = estimate(row["estimate"], row["ci_low"], row["ci_high"], "rounds")
    text = (
        f"For {GOAL_WORDS[goal]}, play {study.preset} with {len(changed)} house "
        f"rule{'s' if len(changed) > 1 else ''} changed. "
        + " ".join(sentences)
        + f" A game then lasts {mine:.0f} rounds on average instead of "
        f"{length:.0f} ({change}), about {_minutes(mine, players):.0f} minutes instead of "
        f"{_minutes(length, players):.0f} {pace}."
    )
    if rec.measure != "length":
        r = vs.loc[rec.measure]
        text += (
            f" Its {m.title} moves by {estimate(r['estimate'], r['ci_low'], r['ci_high'], m.unit)}"
            f" against {study.preset}'s own rules."
        )
    return text + f" Paste: ludosim simulate {_set_line(study, plan.label(codes))}"


def _diff(comparisons: pd.DataFrame, point: str, rec: Recommendation) -> float:
    """A candidate's difference from the preset on the goal's measure."""
    return float(_vs_preset(comparisons, point).loc[rec.measure, "estimate"])


def unmet_limits(tables: DesignTables) -> str | None:
    """When no rule set of the space is predicted to meet the study's limits, one
    sentence that says so, with the closest rule set's predictions; else None."""
    study, space = tables.study, tables.search
    if not study.limits or space["feasible"].astype(bool).any() or space.empty:
        return None
    # How far each rule set's prediction misses each limit, in the measure's smallest
    # effects of interest, summed over the limits.
    miss = sum(
        np.maximum(0.0, (space[x.measure] - x.value) * (1 if x.op == "<=" else -1))
        / MEASURES[x.measure].smallest
        for x in study.limits
    )
    near = space.loc[miss.idxmin()]
    predicted = "; ".join(
        f"{MEASURES[x.measure].title} {near[x.measure]:.3g} {MEASURES[x.measure].unit}"
        for x in study.limits
    )
    limits = " and ".join(x.text for x in study.limits)
    return (
        f"None of the {len(space):,} rule sets of the space is predicted to meet {limits}: "
        f"the closest, {near['label']}, is predicted at {predicted}. Relax the limit or free "
        "other house rules; no candidate was confirmed."
    )


def _recommendation(tables: DesignTables, page: Decided) -> list[Any]:
    study = tables.study
    goal = study.goals[0]
    measure = GOALS[goal][0]
    m0 = MEASURES[measure]
    limits = " and ".join(x.text for x in study.limits)
    feasible = tables.search[tables.search["feasible"].astype(bool)]
    space = len(tables.search)
    if tables.confirmed.empty:
        unmet = unmet_limits(tables)
        text = unmet or "No candidate was confirmed."
        return [Finding("recommend", text, False, headline=True, kind="note")]
    comparisons = page.comparisons
    rec = recommendation(tables, page)
    stand = rec.standings
    confirmed = tables.confirmed
    labels = dict(zip(confirmed["point"].astype(str), confirmed["label"], strict=True))
    labels[PRESET] = f"{study.preset} as it is"
    within = amount(m0.smallest, m0.unit)
    games = int(confirmed["games"].iloc[0])
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
    others = [p for p in stand if p != PRESET]
    pick = rec.pick
    b = _goal_value(tables, pick, measure)
    if rec.changes:
        row = _vs_preset(comparisons, pick).loc[measure]
        text = (
            f"Recommended for {goal}: {labels[pick]} ({m0.title} {_stated(b)}), resolved "
            f"{'lower' if GOALS[goal][1] < 0 else 'higher'} than {study.preset}'s own rules by "
            f"the page's correction: "
            f"{estimate(row['estimate'], row['ci_low'], row['ci_high'], m0.unit)} "
            f"(Holm-adjusted {p_text(row['p_adjusted'])}; "
            f"{_size_text(row['size'], within)})"
        )
        rivals = [p for p in others if p != pick and stand[p] == BETTER]
        if rivals:
            text += (
                "; of the candidates resolved better, the one with the fewest changes among "
                "those not resolved worse than the best measured by an interval that reaches "
                f"{within}"
            )
        gap = comparisons[
            (comparisons["kind"] == "vs best")
            & (comparisons["measure"] == measure)
            & (comparisons["point"] == pick)
        ]
        if len(gap):
            g = gap.iloc[0]
            text += (
                f". Against the best measured, {labels[str(g['other'])]}: "
                f"{estimate(g['estimate'], g['ci_low'], g['ci_high'], m0.unit)} "
                f"({_size_text(g['size'], within)})"
            )
    else:
        text = (
            f"Recommended for {goal}: {study.preset} as it is ({m0.title} {_stated(b)}). A "
            f"change is recommended only when the confirmation resolves it better than the "
            f"rules as they are, by the page's correction, by an interval that reaches {within}"
            + (f"; none of the {len(others)} candidates confirmed is" if others else "")
        )
    groups = [
        (x, [labels[p] for p in others if stand[p] == x and p != pick])
        for x in (BETTER, SMALL_BETTER, EQUALLY_GOOD, NOT_APART, SMALL_WORSE, WORSE)
    ]
    said_groups = [f"{x}: {listing(names)}" for x, names in groups if names]
    if said_groups:
        text += f". Against {study.preset}'s own rules, " + "; ".join(said_groups)
    text += (
        f". Under {study.preset}, {meet}; {front:,} are on the front of "
        f"{listing(list(study.goals))} by the model's 95% prediction intervals, {pool:,} of "
        f"those may be within {within} of the best for {goal}, and {len(others)} of them, drawn "
        f"far apart, were replayed once with {study.preset}'s own rules on games of their own "
        f"({games:,} games each, fixed before the first"
        + (f"; {of(len(meets), len(stand))} measured within the limits)" if limits else ")")
    )
    if len(study.goals) > 1:
        text += (
            f". The decision rests on the first goal, {goal}, alone: "
            f"{listing(list(study.goals[1:]))} chose which candidates were confirmed (the "
            "front of the model's predictions) and is stated below, not decided, because the "
            "confirmation was sized for the first goal's smallest effect only"
        )
    said, costs = [], []
    goal_measures = [GOALS[g][0] for g in study.goals]
    for row in _vs_preset(comparisons, pick).reset_index().itertuples(index=False):
        m = MEASURES[row.measure]
        change = estimate(row.estimate, row.ci_low, row.ci_high, m.unit)
        if row.measure in goal_measures[1:]:
            aim = study.goals[goal_measures.index(row.measure)]
            said.append(
                f"for {aim}, its {m.title} moves by {change} against {study.preset}'s own rules "
                f"(unadjusted interval; {_secondary(row, GOALS[aim][1])})"
            )
        elif row.measure != measure and row.size == PRACTICAL:
            costs.append(f"{m.title} {change}")
    if said:
        text += ". " + "; ".join(said)[0].upper() + "; ".join(said)[1:]
    if rec.changes:
        text += (
            f". It also changes, by at least the smallest effect that matters: {'; '.join(costs)}."
            if costs
            else ". No other measure changes by an interval that clears its smallest effect."
        )
    else:
        text += "."
    basis_row = _vs_preset(comparisons, pick).loc[measure] if rec.changes else None
    out = [
        Finding(
            "recommend",
            rules_card(tables, rec, comparisons),
            rec.changes,
            headline=True,
            kind="decision",
            estimate=None if basis_row is None else float(basis_row["estimate"]),
            ci_low=None if basis_row is None else float(basis_row["ci_low"]),
            ci_high=None if basis_row is None else float(basis_row["ci_high"]),
            unit=m0.unit if rec.changes else "",
            family="differences" if rec.changes else None,
            p_adjusted=None if basis_row is None else float(basis_row["p_adjusted"]),
            games=games,
            basis=rec.basis,
        ),
        Finding("recommend", text, True, headline=True, kind="note"),
    ]
    for p, x in stand.items():
        parts = []
        for name in DESIGN_MEASURES:
            row = _goal_value(tables, p, name)
            parts.append(f"{MEASURES[name].title} {_stated(row)}")
        shown = labels[p] if p != PRESET else f"{study.preset}'s own rules"
        out.append(
            Finding(
                "recommend",
                (
                    f"{shown} ({x}; {games:,} games with random seats): "
                    + "; ".join(parts)
                    + f". {_set_line(study, labels[p] if p != PRESET else '()')}"
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
            f"an exact interval over its {n} rule sets: {coverage_reach(n)}."
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
