"""Win rates by turn-order position and by seat: the first player's advantage, its
test of equal chances, and its test against zero per group with Holm's adjustment."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.analysis.pergame import (
    By,
    _groups,
    _require,
    players_of,
)
from ludosim.results.measures import winning_sides
from ludosim.results.stats import (
    chi2_sf,
    holm,
    score_test_p,
    wilson_interval,
)


def first_player_advantage(df: pd.DataFrame, by: By = None) -> pd.DataFrame:
    """Win rate by turn-order position `(winner - first) mod n`, and a test of equal chances.

    Games whose `winner` is -1 (truncated at max_turns with no finisher) are excluded
    and counted in `excluded`. One row per group and position (0 = took the first turn):
    players (n; under `teams` the number of teams, each position a team in the turn
    order of its first seat: `measures.winning_sides`), games (counted), excluded,
    wins, win_rate with Wilson 95% ci_low/high,
    fair (1/n), advantage_pp = 100 (win_rate - 1/n) with advantage_ci_low/high (the
    Wilson bounds minus 1/n, in percentage points: 1/n is a constant). The row of
    position 0 is the first player's advantage. Per group, repeated on its rows: chi2 =
    sum_k (w_k - N/n)^2 / (N/n) over positions, dof = n - 1, p_value = P(X^2_dof >= chi2)
    (`chi2_sf`): the chance of seeing counts this uneven if every position won 1/n.
    """
    _require(df, ["winner", "first"], "first_player_advantage")
    rows = []
    for keys, group in _groups(df, by):
        rows += [{**keys, **row} for row in side_rows(group, players_of(group))]
    return pd.DataFrame(rows)


def side_rows(rows: Any, players: int) -> list[dict[str, Any]]:
    """The rows of `first_player_advantage` for one group's games (`first`, `winner` and
    the `place_<s>` columns, which show the teams), by the winning side's position."""
    position, sides = winning_sides(rows, players)
    return _position_table(position, sides)


def position_rows(first: np.ndarray, winner: np.ndarray, n: int) -> list[dict[str, Any]]:
    """The rows of `first_player_advantage` for one group's `first` and `winner` arrays,
    every seat its own side (a kernel summary's wins by position count so)."""
    first, winner = np.asarray(first, dtype=np.int64), np.asarray(winner, dtype=np.int64)
    return _position_table(np.where(winner >= 0, (winner - first) % max(n, 1), -1), n)


def _position_table(winning: np.ndarray, n: int) -> list[dict[str, Any]]:
    """The rows for the games' winning positions `winning` (-1: no winner) of `n` sides."""
    winning = np.asarray(winning, dtype=np.int64)
    order = winning[winning >= 0]
    wins = np.bincount(order, minlength=n)[:n] if n else np.zeros(0, int)
    total = int(wins.sum())
    expected = total / n if n else math.nan
    if n > 1 and total > 0:
        chi2 = float(((wins - expected) ** 2 / expected).sum())
        p_value = chi2_sf(chi2, n - 1)
    else:
        chi2, p_value = math.nan, math.nan
    rows = []
    for position in range(n):
        low, high = wilson_interval(int(wins[position]), total)
        rate = wins[position] / total if total else math.nan
        rows.append(
            {
                "position": position,
                "players": n,
                "games": total,
                "excluded": int(winning.size) - total,
                "wins": int(wins[position]),
                "win_rate": rate,
                "ci_low": low,
                "ci_high": high,
                "fair": 1.0 / n,
                "advantage_pp": 100.0 * (rate - 1.0 / n),
                "advantage_ci_low": 100.0 * (low - 1.0 / n),
                "advantage_ci_high": 100.0 * (high - 1.0 / n),
                "chi2": chi2,
                "dof": n - 1,
                "p_value": p_value,
            }
        )
    return rows


def seat_win_rates(df: pd.DataFrame, by: By = None) -> pd.DataFrame:
    """Win rate of each seat (not position) with Wilson 95% CIs; winner -1 games excluded.

    Under `teams` a seat wins with its team (place 1), against the fair share 1/teams.

    With `first_player = seat0` the seat is the turn-order position; with roll-off or
    random first players every seat should win about 1/n unless the policies differ.
    """
    _require(df, ["winner"], "seat_win_rates")
    rows = []
    for keys, group in _groups(df, by):
        n = players_of(group)
        winner = group["winner"].to_numpy(int)
        total = int((winner >= 0).sum())
        # A seat wins with its side: under `teams` both partners have place 1.
        sides = winning_sides(group, n)[1]
        for seat in range(n):
            wins = int(((group[f"place_{seat}"].to_numpy(int) == 1) & (winner >= 0)).sum())
            low, high = wilson_interval(wins, total)
            rows.append(
                {
                    **keys,
                    "seat": seat,
                    "players": n,
                    "games": total,
                    "excluded": len(group) - total,
                    "wins": wins,
                    "win_rate": wins / total if total else math.nan,
                    "ci_low": low,
                    "ci_high": high,
                    "fair": 1.0 / sides,
                }
            )
    return pd.DataFrame(rows)


def first_player_tests(df: pd.DataFrame, by: By = "cell") -> pd.DataFrame:
    """The first player's advantage per group, each tested against zero, Holm over the groups.

    The position-0 rows of `first_player_advantage` (players, games, wins, win_rate with
    Wilson ci_low/high, fair, advantage_pp with advantage_ci_low/high), plus p_zero: the
    two-sided score test of win_rate = 1/n, the test the Wilson interval inverts (p_zero
    < 0.05 exactly when the interval excludes 1/n), and p_holm: Holm's step-down
    adjustment over the groups' tests (`ludosim.results.stats.holm`), so that "differs from
    zero in k cells" holds at a 5% family-wise error rate however many cells there are.
    """
    table = first_player_advantage(df, by)
    if table.empty:
        return table
    out = table[table["position"] == 0].drop(columns=["position", "chi2", "dof", "p_value"])
    out = out.reset_index(drop=True)
    out["p_zero"] = [
        score_test_p(int(w), int(g), 1.0 / int(n))
        for w, g, n in zip(out["wins"], out["games"], out["players"], strict=True)
    ]
    out["p_holm"] = holm(out["p_zero"].tolist())
    return out
