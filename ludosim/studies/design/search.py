"""The search (`search`): every combination of the free house rules' two values, predicted
with its interval, within the limits or not, and the front between the goals over the
prediction intervals (`interval_front`); the candidates to confirm (`pick_candidates`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results.measures import DESIGN_MEASURES, MEASURES
from ludosim.rules.canonical import same_game_key
from ludosim.studies.design.plan import Plan
from ludosim.studies.design.regression import Model
from ludosim.studies.design.spec import GOALS, MAX_FREE, WEAK, DesignError, DesignStudy


def all_codes(k: int) -> np.ndarray:
    """Every combination of the free toggles' two values (2^k rows of -1/+1)."""
    if k > MAX_FREE:
        raise DesignError(f"{k} free toggles: at most {MAX_FREE} can be searched exhaustively")
    return np.array(list(itertools.product((-1.0, 1.0), repeat=k)))


def goal_value(study: DesignStudy, values: Mapping[str, Any], goal: str) -> Any:
    """A goal as a quantity to minimise: the measure, its sign turned for goals to raise."""
    measure, direction = GOALS[goal]
    return -direction * values[measure]


def same_games_as(plan: Plan, codes: np.ndarray) -> list[str]:
    """For each rule set, the label of the rule set with the fewest changes that plays
    the same games (`ludosim.rules.canonical`), or "" where that is itself.

    Two rule sets whose only difference is a house rule that cannot act there (Danish
    `capture_rule=lone_piece` without blocks that coexist) are one game: the designer
    recommends the one with fewer changes and never confirms both.
    """
    first: dict[str, int] = {}
    keys, changes = [], []
    for row in codes:
        rules = plan.rules(row)
        seated = [
            [player] + [WEAK] * (rules.players - 1)
            for player in (plan.study.optimal, plan.study.fictive)
        ]
        keys.append("/".join(same_game_key(rules, p) for p in [WEAK, *seated]))

        changes.append(int(np.sum(np.asarray(row) > 0)))
    for i in sorted(range(len(codes)), key=lambda i: (changes[i], i)):
        first.setdefault(keys[i], i)
    return ["" if first[k] == i else plan.label(codes[first[k]]) for i, k in enumerate(keys)]


def search(plan: Plan, models: Mapping[str, Model], noise: Mapping[str, float]) -> pd.DataFrame:
    """Every rule set of the search space with each measure's prediction and interval,
    whether it meets the limits (its prediction does) and where it stands on the goals.

    Columns: `codes` (a tuple), `label`, `changes` (house rules changed), per measure
    `<m>`, `<m>_low`, `<m>_high`; `same_as` (`same_games_as`: a rule set playing the
    same games with fewer changes, never feasible itself); `feasible`; `rank` (by the
    first goal's prediction, then the others', among the feasible: an order to list
    them in, not a decision); `front` (True where no feasible rule set is predicted
    better on every goal by more than both prediction intervals allow:
    `interval_front`).
    """
    codes = all_codes(len(plan.free))
    table = pd.DataFrame({"label": [plan.label(row) for row in codes]})
    table["codes"] = [tuple(int(x) for x in row) for row in codes]
    table["changes"] = (codes > 0).sum(axis=1)
    for name, model in models.items():
        mean, low, high = model.predict(codes, noise[name])
        table[name], table[f"{name}_low"], table[f"{name}_high"] = mean, low, high
    table["same_as"] = same_games_as(plan, codes)
    feasible = (table["same_as"] == "").to_numpy(copy=True)
    for limit in plan.study.limits:
        feasible &= [limit.holds(x) for x in table[limit.measure]]
    table["feasible"] = feasible
    keys = [
        table.apply(lambda r, g=g: goal_value(plan.study, r, g), axis=1) for g in plan.study.goals
    ]
    order = np.lexsort([k.to_numpy() for k in reversed(keys)] + [~feasible])
    table["rank"] = 0
    table.loc[table.index[order], "rank"] = np.arange(1, len(table) + 1)
    table["front"] = interval_front(table, plan.study.goals) & feasible
    table["may_be_best"] = interval_front(table, plan.study.goals[:1]) & feasible
    return table.sort_values("rank").reset_index(drop=True)


def _goal_bounds(table: pd.DataFrame, goal: str) -> tuple[np.ndarray, np.ndarray]:
    """A goal's prediction interval as (best end, worst end) of a quantity to minimise."""
    measure, direction = GOALS[goal]
    low, high = table[f"{measure}_low"].to_numpy(float), table[f"{measure}_high"].to_numpy(float)
    return (low, high) if direction < 0 else (-high, -low)


def interval_front(table: pd.DataFrame, goals: Sequence[str], block: int = 512) -> np.ndarray:
    """The feasible rule sets no other feasible one beats on every goal by more than the
    intervals and the smallest effect that matters allow: B is beaten when some A's
    worst end is better than B's best end by at least the goal measure's smallest effect
    of interest, on every goal. With one goal, the rule sets that may be within the
    smallest effect of the best. Point predictions alone would draw noise as a
    trade-off, and a rule set worse by less than the smallest effect is no worse at a
    table."""
    feasible = table["feasible"].to_numpy(bool)
    bounds = [_goal_bounds(table, g) for g in goals]
    if not feasible.any():
        return np.zeros(len(table), dtype=bool)
    margin = np.array([MEASURES[GOALS[g][0]].smallest for g in goals])
    worst = np.column_stack([w[feasible] for _, w in bounds]) + margin  # A's worst ends
    out = np.zeros(len(table), dtype=bool)
    index = np.flatnonzero(feasible)
    for start in range(0, len(index), block):
        rows = index[start : start + block]
        best = np.column_stack([b[rows] for b, _ in bounds])  # B's best ends
        beaten = np.all(worst[None, :, :] < best[:, None, :], axis=2).any(axis=1)
        out[rows] = ~beaten
    return out


def pick_candidates(space: pd.DataFrame, count: int) -> np.ndarray:
    """The rule sets to confirm, drawn so that near-copies do not fill the list: from
    those on the front of every goal that may also be best on the first (the goals are
    in the study's order of priority), the first by rank, the one with the fewest
    changes, then each time the one farthest (most house rules apart) from those
    already picked, ties by rank."""
    front = space[space["front"].astype(bool)]
    if "may_be_best" in space.columns and (front["may_be_best"].astype(bool)).any():
        front = front[front["may_be_best"].astype(bool)]
    front = front.sort_values("rank")
    if front.empty or count < 1:
        return np.zeros((0, len(space["codes"].iloc[0]) if len(space) else 0))
    rows = [np.array(c, dtype=float) for c in front["codes"]]
    changes = front["changes"].to_numpy(int)
    picked = [0]
    simplest = int(np.argmin(changes))  # argmin keeps the best ranked of the simplest
    if simplest not in picked and count > 1:
        picked.append(simplest)
    while len(picked) < min(count, len(rows)):
        apart = [
            -1 if i in picked else min(int(np.sum(rows[i] != rows[j])) for j in picked)
            for i in range(len(rows))
        ]
        picked.append(int(np.argmax(apart)))
    return np.array([rows[i] for i in picked])


def confirmation_noise(study: DesignStudy, measures: pd.DataFrame) -> dict[str, float]:
    """The standard error of a confirmation's measurement, per measure: the screening's
    median per rule set (`measures`' screen stage), scaled down to the confirmation's
    games (`confirm_games` random-seat games for `screen_games`; twice the skill games).
    What a model's prediction interval adds for the noise of the games that would
    measure a rule set, in the search and in the explorer alike."""
    screen = measures[measures["stage"] == "screen"]
    ratio = {"random": study.screen_games / study.confirm_games, "skill": 0.5}
    return {
        name: float(np.median(screen.loc[screen["measure"] == name, "se"]))
        * math.sqrt(ratio[MEASURES[name].source])
        for name in DESIGN_MEASURES
    }
