"""A design's tables (`DesignTables`): the rule sets played, their measures, the screening's
effects, the models and their check on rule sets they were not fitted on (`check_table`),
the search, the confirmed candidates and the stages (`stages_table`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ludosim.studies.design.plan import Plan
from ludosim.studies.design.regression import Model, with_held_out_misfit
from ludosim.studies.design.stages import Stage
from ludosim.studies.design.study import DesignStudy, player_seed

TABLES = ("points", "measures", "effects", "model", "checks", "candidates", "confirmed")


@dataclass
class DesignTables:
    """Everything a design's page is made of (each a CSV of the study's folder).

    points: every rule set played (`point`, `stage`, the free toggles' values,
    `label`); measures: each measure of each played rule set with its interval;
    effects: the screening's effect of every term on every measure (p-values
    before the page's correction); model: each measure's terms and coefficients,
    with the covariance the explorer needs; checks: predicted against measured for
    the held-out and confirmed rule sets; search: every rule set of the space,
    predicted; confirmed: each candidate and its standing as the page decides it;
    comparisons: the confirmation's paired differences; stages: each stage's seed and
    games (the stages play disjoint games).
    """

    study: DesignStudy
    plan: Plan
    points: pd.DataFrame
    measures: pd.DataFrame
    effects: pd.DataFrame
    models: dict[str, Model]
    checks: pd.DataFrame
    search: pd.DataFrame
    confirmed: pd.DataFrame
    comparisons: pd.DataFrame
    games: dict[str, int] = field(default_factory=dict)  # games played per stage
    stages: pd.DataFrame = field(default_factory=pd.DataFrame)  # seeds and sizes per stage


def _codes_of(points: pd.DataFrame, ids: Sequence[str]) -> np.ndarray:
    by = points.drop_duplicates("point").set_index("point")["codes"]
    return np.array([[float(x) for x in by[p].split()] for p in ids])


def _noise(table: pd.DataFrame, ids: Sequence[str], measure: str) -> np.ndarray:
    rows = table[table["measure"] == measure].set_index("point")
    return rows.loc[list(ids), "se"].to_numpy(float)


def check_table(
    plan: Plan,
    models: Mapping[str, Model],
    measures: pd.DataFrame,
    points: pd.DataFrame,
    checked: Mapping[str, Sequence[str]],
) -> pd.DataFrame:
    """Each model's 95% prediction interval against the measurement, for rule sets it was
    not fitted on, with the measurement's own noise. `checked`: stage -> the rule sets of
    it to check. The holdout also estimates the lack of fit (`with_held_out_misfit`), so
    each held-out rule set is checked by the model whose lack of fit comes from the
    other held-out ones (leave one out): no measurement checks an interval it shaped."""
    rows = []
    for stage, ids in checked.items():
        ids = list(ids)
        if not ids:
            continue
        codes = _codes_of(points, ids)
        for name, model in models.items():
            noise = _noise(measures[measures["stage"] == stage], ids, name)
            got = measures[(measures["stage"] == stage) & (measures["measure"] == name)]
            got = got.set_index("point").loc[ids, "estimate"].to_numpy(float)
            if stage == "holdout":
                parts = []
                for j in range(len(ids)):
                    rest = np.arange(len(ids)) != j
                    own = with_held_out_misfit(model, codes[rest], got[rest], noise[rest])
                    parts.append(own.predict(codes[j : j + 1], noise[j : j + 1]))
                mean, low, high = (np.concatenate([p[k] for p in parts]) for k in range(3))
            else:
                mean, low, high = model.predict(codes, noise)
            for p, m, lo, hi, g in zip(ids, mean, low, high, got, strict=True):
                rows.append(
                    {
                        "stage": stage,
                        "point": p,
                        "measure": name,
                        "predicted": m,
                        "pi_low": lo,
                        "pi_high": hi,
                        "measured": g,
                        "inside": bool(lo <= g <= hi),
                    }
                )
    return pd.DataFrame(
        rows,
        columns=[
            "stage",
            "point",
            "measure",
            "predicted",
            "pi_low",
            "pi_high",
            "measured",
            "inside",
        ],
    )


def stages_table(stages: Sequence[Stage]) -> pd.DataFrame:
    """Each stage's rule sets, games and master seeds: the seeds differ, so no stage
    replays another's games (each sweep's manifest.json records the same seed). `seed`
    is the random-seat and the optimal player's sweeps', `fictive_seed` the fictive
    player's (`player_seed`); `skill_games` are each player's per rule set."""
    return pd.DataFrame(
        [
            {
                "stage": st.name,
                "rule_sets": len(st.ids),
                "games": st.games,
                "skill_games": st.skill_games,
                "seed": str(st.seed),
                "fictive_seed": str(player_seed(st.seed)),
            }
            for st in stages
        ],
        columns=["stage", "rule_sets", "games", "skill_games", "seed", "fictive_seed"],
    )


def games_played(measures: pd.DataFrame) -> dict[str, int]:
    """Games decided per stage: every rule set's random-seat games and both skill
    players' games."""

    rows = measures[measures["measure"].isin(["length", "skill"])]
    return {str(k): int(v) for k, v in rows.groupby("stage", sort=False)["games"].sum().items()}
