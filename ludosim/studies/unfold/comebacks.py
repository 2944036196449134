"""The comeback measures (`MEASURES`): their values per game (`comeback_values`),
each rule set's estimates and changes from the first (`comeback_table`), the
distribution of lead changes per round (`lead_change_table`) and the lead tables
(`lead_tables`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ludosim.results.stats import Z95, diff_means, mean_ci, normal_cdf, wilson_interval
from ludosim.studies.leads import race_length
from ludosim.studies.unfold.snapshots import CellRun


@dataclass(frozen=True)
class FlowMeasure:
    """One comeback measure: how it is estimated and stated, and its smallest effect.

    kind: `share` (a 0/1 value per game: Wilson interval) or `mean` (normal
    interval). scale turns the per-game value into `unit`; a change is stated in
    `change_unit`; `smallest` is the smallest change of interest in that unit.
    """

    kind: str
    what: str
    unit: str
    change_unit: str
    smallest: float
    scale: float = 100.0


MEASURES = {
    "won_from_last_at_mid": FlowMeasure(
        "share", "games won by a seat that was last at mid-game", "%", "pp", 1.0
    ),
    "decided_before_mid": FlowMeasure("share", "games decided before mid-game", "%", "pp", 1.0),
    "lead_changes_per_round": FlowMeasure(
        "mean", "lead changes per round", "per round", "per round", 0.01, scale=1.0
    ),
    "drama_share": FlowMeasure(
        "mean",
        "drama (the winner's mean deficit while trailing)",
        "% of the race",
        "pp of the race",
        1.0,
    ),
    "max_deficit_share": FlowMeasure(
        "mean", "largest deficit the winner overcame", "% of the race", "pp of the race", 1.0
    ),
    "decided_share": FlowMeasure(
        "mean", "share of the game's turns before it was decided", "% of its turns", "pp", 1.0
    ),
}
COMEBACK_COLUMNS = (
    "rule_set", "measure", "estimate", "ci_low", "ci_high", "games", "diff", "diff_low",
    "diff_high", "p_value",
)  # fmt: skip
# Lead changes per round: counted in bins of this width, the last bin open.
PER_ROUND_BIN = 0.01
PER_ROUND_CAP = 0.4


def comeback_values(games: pd.DataFrame, players: int, race: int) -> dict[str, np.ndarray]:
    """Per measure, one value per game with a winner, in the measure's raw scale.

    Shares are 0/1 per game; lead changes are per round (lead changes x players /
    turns); the drama and the largest deficit overcome are fractions of the race
    (`race` squares: `ludosim.studies.leads.race_length`); the turn the game was decided
    is a fraction of its turns.
    """
    won = games[games["winner"] >= 0]
    turns = won["turns"].to_numpy(float)
    return {
        "won_from_last_at_mid": won["last_at_mid"].to_numpy(float),
        "decided_before_mid": (won["decided_at"] <= won["mid_at"]).to_numpy(float),
        "lead_changes_per_round": won["lead_changes"].to_numpy(float) * players / turns,
        "drama_share": won["drama"].to_numpy(float) / race,
        "max_deficit_share": won["max_deficit"].to_numpy(float) / race,
        "decided_share": won["decided_at"].to_numpy(float) / turns,
    }


def _estimate(kind: str, values: np.ndarray) -> tuple[float, float, float]:
    if kind == "share":
        k, n = int(values.sum()), len(values)
        low, high = wilson_interval(k, n)
        return k / n, low, high
    return mean_ci(values)


def _change(a: np.ndarray, b: np.ndarray) -> tuple[float, float, float, float]:
    """a minus b of independent games (shares as 0/1 means): normal 95% interval and the
    two-sided p-value of no change."""
    d, low, high = diff_means(a, b)
    se = (high - low) / (2.0 * Z95)
    p = 2.0 * (1.0 - normal_cdf(abs(d) / se)) if se > 0 else float(d == 0)
    return d, low, high, p


def _runs_players(runs: list[CellRun]) -> list[int]:
    return [run.rules.players for run in runs]


def comeback_table(runs: list[CellRun]) -> pd.DataFrame:
    """`COMEBACK_COLUMNS`: every measure per rule set, and its change from the first rule set.

    A change is computed only for rule sets with as many players as the first:
    with another number of players the shares (last at mid-game, a fair share)
    mean something else. `p_value` is unadjusted; the page decides the changes
    together with its other comparisons.
    """
    values = [comeback_values(r.games, r.rules.players, race_length(r.rules)) for r in runs]
    players = _runs_players(runs)
    rows = []
    for measure, m in MEASURES.items():
        base = values[0][measure]
        for i, run in enumerate(runs):
            mine = values[i][measure]
            est, low, high = _estimate(m.kind, mine)
            compared = i > 0 and players[i] == players[0]
            d = _change(mine, base) if compared else (math.nan,) * 4
            rows.append((run.rule_set.label, measure, est, low, high, len(mine), *d))
    return pd.DataFrame(rows, columns=list(COMEBACK_COLUMNS))


def lead_change_table(runs: list[CellRun]) -> pd.DataFrame:
    """Per rule set and bin of lead changes per round (`PER_ROUND_BIN` wide, the last bin
    from `PER_ROUND_CAP` on): games with a winner, and their share."""
    rows = []
    bins = round(PER_ROUND_CAP / PER_ROUND_BIN)
    for run in runs:
        per_round = comeback_values(run.games, run.rules.players, race_length(run.rules))[
            "lead_changes_per_round"
        ]
        k = np.minimum(np.floor(per_round / PER_ROUND_BIN + 1e-9).astype(np.int64), bins)
        counts = np.bincount(k, minlength=bins + 1)
        for j, c in enumerate(counts):
            rows.append((run.rule_set.label, round(j * PER_ROUND_BIN, 6), int(c),
                         c / max(counts.sum(), 1)))  # fmt: skip
    return pd.DataFrame(rows, columns=["rule_set", "per_round", "games", "share"])


def lead_tables(runs: list[CellRun]) -> pd.DataFrame:
    """Every rule set's lead table, with its rule set."""
    parts = []
    for run in runs:
        table = run.leads.table()
        table.insert(0, "rule_set", run.rule_set.label)
        parts.append(table)
    return pd.concat(parts, ignore_index=True)
