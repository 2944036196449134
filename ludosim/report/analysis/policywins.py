"""Win rates of policies pooled over the seats they held, and every pair of policies
compared game by game: a tournament played as a sweep, or any cells with policies.

One tally (`policy_wins`) serves the sweep's tables and
`ludosim.studies.tournament`, so both count a policy's games the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.analysis.pergame import (
    AnalysisError,
    By,
    _groups,
    _require,
    players_of,
)
from ludosim.results.stats import (
    holm,
    interval_p,
    mean_ci,
    wilson_interval,
)
from ludosim.rules.policies import split_policy_list


def seat_policies(text: Any, players: int) -> list[str]:
    """Per-seat policies of a `policies` cell value: one name for all, or one per seat."""
    names = [p for p in split_policy_list(str(text)) if p]
    if len(names) == 1:
        return names * players
    if len(names) != players:
        raise AnalysisError(f"policies {text!r} name {len(names)} seats for {players} players")
    return names


def policy_wins(seatings: Iterable[tuple[Sequence[str], np.ndarray]]) -> pd.DataFrame:
    """Wins of each distinct policy pooled over the seats it held, with Wilson 95% CIs.

    `seatings`: (policy of every seat, winner of every game) pairs, one per seating
    (a tournament's rotation, a sweep cell). A policy's trials are the games of each
    seating times the seats it held there; every game counts (a truncated game without
    a finisher, winner -1, is a loss for everyone); `fair` is the mean of 1/n over its
    trials. The one tally behind `win_table` and `ludosim.studies.tournament.tournament`.
    Columns: policy (in order of first appearance), seat_games (trials), wins,
    win_rate, ci_low, ci_high, fair.
    """
    tally: dict[str, list[float]] = {}  # policy -> [trials, wins, sum of 1/n]
    for seated, winner in seatings:
        n = len(seated)
        winner = np.asarray(winner)
        for seat, name in enumerate(seated):
            entry = tally.setdefault(name, [0, 0, 0.0])
            entry[0] += winner.size
            entry[1] += int((winner == seat).sum())
            entry[2] += winner.size / n
    rows = []
    for name, (trials, wins, inverse) in tally.items():
        low, high = wilson_interval(int(wins), int(trials))
        rows.append(
            {
                "policy": name,
                "seat_games": int(trials),
                "wins": int(wins),
                "win_rate": wins / trials if trials else math.nan,
                "ci_low": low,
                "ci_high": high,
                "fair": inverse / trials if trials else math.nan,
            }
        )
    columns = ["policy", "seat_games", "wins", "win_rate", "ci_low", "ci_high", "fair"]
    return pd.DataFrame(rows, columns=columns)


def win_table(
    df: pd.DataFrame, policies: str | Sequence[str] | None = None, by: By = None
) -> pd.DataFrame:
    """Win rate of each distinct policy, pooled over the seats it held, with Wilson 95% CIs.

    `policies`: the policy of every seat (one name, or one per seat) for all rows; None
    reads each row's `policies` column (rows loaded with `cells=True`), so the rotations
    of a tournament played as a sweep pool into one table. The tally is `policy_wins`,
    the same as `ludosim.studies.tournament.tournament`'s: a policy's trials are the games it
    played times the seats it held in each, every game counts (a truncated game without
    a finisher is a loss for everyone), and `fair` is the mean of 1/n over those trials.
    Columns: the `by` columns, policy, seat_games (trials), wins, win_rate, ci_low,
    ci_high, fair.
    """
    _require(df, ["winner"], "win_table")
    if policies is None:
        _require(df, ["policies"], "win_table without `policies`")
    parts = []
    for keys, group in _groups(df, by):
        if policies is None:
            pieces = list(group.groupby("policies", observed=True, sort=False))
        else:
            pieces = [(policies, group)]
        seatings = []
        for text, part in pieces:
            n = players_of(part)
            names = text if isinstance(text, str) else ",".join(text)
            seatings.append((seat_policies(names, n), part["winner"].to_numpy(int)))
        table = policy_wins(seatings)
        for i, (name, value) in enumerate(keys.items()):
            table.insert(i, name, value)
        parts.append(table)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


def rotated_policies(df: pd.DataFrame) -> list[str]:
    """The policies of a tournament sweep: each one played in every seat; [] otherwise.

    A tournament plays the rotations of a seating as cells, so every distinct policy
    holds every seat in some cell. Rows of several player counts, a single policy, or a
    policy kept in some seats only (a skipper against baselines) give [].
    """
    if "policies" not in df.columns or "winner" not in df.columns or df.empty:
        return []
    seats_of: dict[str, set[int]] = {}
    counts = set()
    for text, rows in df.groupby("policies", observed=True, sort=False):
        n = players_of(rows)
        counts.add(n)
        for seat, name in enumerate(seat_policies(text, n)):
            seats_of.setdefault(name, set()).add(seat)
    if len(counts) != 1 or len(seats_of) < 2:
        return []
    every = set(range(counts.pop()))
    return list(seats_of) if all(s == every for s in seats_of.values()) else []


def policy_differences(df: pd.DataFrame) -> pd.DataFrame:
    """Every pair of policies: the difference of their win rates, paired game by game, Holm.

    Per game, each policy scores the share of its seats that won (1 or 0 with one seat,
    a truncated game is 0 for all, as in `win_table`); a pair's difference is the mean
    per-game difference of scores, with the normal CI of that mean. Both policies play
    in every game of a tournament, so this pairing is exact. p_value: two-sided, from the
    estimate and its interval; p_holm: Holm's adjustment over all pairs. Columns:
    policy, other, games, diff_pp (percentage points), ci_low, ci_high, p_value, p_holm.
    """
    _require(df, ["winner", "policies"], "policy_differences")
    parts: list[dict[str, np.ndarray]] = []
    names: dict[str, None] = {}
    for text, rows in df.groupby("policies", observed=True, sort=False):
        n = players_of(rows)
        seated = seat_policies(text, n)
        winner = rows["winner"].to_numpy(int)
        score: dict[str, np.ndarray] = {}
        for seat, name in enumerate(seated):
            names[name] = None
            score[name] = score.get(name, np.zeros(len(rows))) + (winner == seat)
        parts.append({name: v / seated.count(name) for name, v in score.items()})
    order = list(names)
    out = []
    for i, name in enumerate(order):
        for other in order[i + 1 :]:
            both = [p for p in parts if name in p and other in p]
            if not both:
                continue
            d = np.concatenate([p[name] - p[other] for p in both])
            mean, low, high = mean_ci(d)
            out.append(
                {
                    "policy": name,
                    "other": other,
                    "games": int(d.size),
                    "diff_pp": 100.0 * mean,
                    "ci_low": 100.0 * low,
                    "ci_high": 100.0 * high,
                    "p_value": interval_p(mean, low, high),
                }
            )
    columns = ["policy", "other", "games", "diff_pp", "ci_low", "ci_high", "p_value"]
    table = pd.DataFrame(out, columns=columns)
    table["p_holm"] = holm(table["p_value"].tolist())
    return table
