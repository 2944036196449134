"""Analyses of results tables: pandas over per-game rows only, no simulation inside.

Every function takes a DataFrame of per-game rows (docs/api.md columns, as returned by
`ludosim.simulate` or `ludosim.results.load(path, cells=True)`), optionally grouped by
one or more `by` columns (typically `cell`), and returns a tidy DataFrame: one row per
group and measure (or position, policy, toggle, effect), the group columns first.

All intervals are 95% (two-sided, `Z95`). Which interval each column holds, and why,
is stated at each function and in docs/analysis.md:

* proportions: Wilson score interval (`ludosim.results.stats.wilson_interval`);
* means: normal approximation, mean +- z * sd / sqrt(n) (`ludosim.results.stats.mean_ci`);
* medians: distribution-free order-statistic interval from Binomial(n, 1/2);
* differences between two cells: *paired by game index* when both hold the same games.
  A sweep plays game g of every cell from the same dice stream (common random numbers),
  so per-game differences cancel most of the dice noise; the pairing is what makes
  that visible in the interval. Otherwise the cells are treated as independent samples
  (Newcombe's hybrid score interval for proportions, Welch's normal interval for means).
"""

from __future__ import annotations

import math
import re
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results import CELL_INFO  # cell descriptors that are not toggles
from ludosim.results.stats import (
    Z95,
    chi2_sf,
    diff_means,
    diff_proportions,
    holm,
    interval_p,
    mean_ci,
    median_ci,
    score_test_p,
    wilson_interval,
    zero_crossing,
)
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import PRESETS, TOGGLES, Rules, format_value, parse_value
from ludosim.rules.policies import split_policy_list

QUANTILES = (0.05, 0.25, 0.75, 0.95)

By = str | Sequence[str] | None


EMPTY_SET = "{}"  # how tables and labels write an empty set; `--set safe={}` reads it back


def value_text(value: Any, name: str | None = None) -> str:
    """A toggle value, as a cells table holds it, spelled the way `--set` takes it back.

    Booleans are `true`/`false`, lists comma separated, an empty set `{}`. With `name`
    a toggle, the value is first read as that toggle's value, so recorded strings such
    as `"True"` or `""` are spelled the same as the Python values.
    """
    value = value.item() if isinstance(value, np.generic) else value
    if name in TOGGLES:
        try:
            value = parse_value(name, value)
        except (LudosimError, TypeError, ValueError):
            pass  # a value the rules no longer accept is shown as recorded
    if isinstance(value, str):
        text = {"True": "true", "False": "false"}.get(value, value)
    elif isinstance(value, float) and math.isnan(value):
        text = ""
    else:
        text = format_value(tuple(value) if isinstance(value, list) else value)
    return text if text not in ("", "()") else EMPTY_SET


class AnalysisError(LudosimError, ValueError):
    """A results table lacks what an analysis needs; the message says what and how to get it."""


# ---------------------------------------------------------------------------- helpers
def _by_list(by: By) -> list[str]:
    if by is None:
        return []
    return [by] if isinstance(by, str) else list(by)


def _require(df: pd.DataFrame, columns: Sequence[str], what: str) -> None:
    missing = [c for c in columns if c not in df.columns]
    if missing:
        raise AnalysisError(
            f"{what} needs the per-game column(s) {', '.join(missing)}; the table has "
            f"{', '.join(map(str, df.columns[:12]))}{'...' if len(df.columns) > 12 else ''} "
            "(summary-only sweeps keep no per-game rows; rerun without --summary-only)"
        )


def _groups(df: pd.DataFrame, by: By) -> Iterator[tuple[dict[str, Any], pd.DataFrame]]:
    """(group columns as a dict, rows) per group; one group with no columns when `by` is None."""
    keys = _by_list(by)
    _require(df, keys, "grouping")
    if not keys:
        yield {}, df
        return
    # observed=True: a categorical `cell` lists every cell of the sweep even when
    # the table was filtered to a few of them.
    for values, group in df.groupby(keys, observed=True, sort=False):
        values = values if isinstance(values, tuple) else (values,)
        yield dict(zip(keys, values, strict=True)), group


def players_of(df: pd.DataFrame) -> int:
    """Number of seats of the games in `df`: the `place_<s>` columns holding values.

    Tables of several player counts (a sweep over `players`) have nulls in the
    columns of the seats a game did not have, so the count is per table or group.
    """
    seats = [c for c in df.columns if c.startswith("place_") and c[6:].isdigit()]
    if not seats:
        raise AnalysisError("cannot tell the number of players: the table has no place_<s> columns")
    held = [c for c in seats if df[c].notna().all()]
    return len(held)


def _seat_wins(winner: np.ndarray, seat: int) -> np.ndarray:
    return (winner == seat).astype(float)


def _paired(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """True when both tables hold exactly the same game indices (common random numbers)."""
    if "game" not in a.columns or "game" not in b.columns or len(a) != len(b):
        return False
    ga, gb = np.sort(a["game"].to_numpy()), np.sort(b["game"].to_numpy())
    # Sorted, a repeated game index sits next to its twin: no hash table needed.
    return bool(np.array_equal(ga, gb)) and not bool(np.any(ga[1:] == ga[:-1]))


def _align(a: pd.DataFrame, b: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    return a.sort_values("game", kind="stable"), b.sort_values("game", kind="stable")


def _difference(
    treated: np.ndarray, base: np.ndarray, paired: bool, binary: bool
) -> tuple[float, float, float, str]:
    """Difference of means of two per-game measures, paired or independent, with its CI."""
    if paired:
        # Per-game differences: their mean is the difference of the means, and the
        # normal CI of that mean accounts for the positive correlation CRN creates.
        d = mean_ci(treated - base)
        return (*d, "paired")
    if binary:
        n1, n0 = treated.size, base.size
        return (*diff_proportions(int(treated.sum()), n1, int(base.sum()), n0), "newcombe")
    return (*diff_means(treated, base), "welch")


# ------------------------------------------------------------------------ game length
def game_length(df: pd.DataFrame, by: By = None) -> pd.DataFrame:
    """Mean, sd, median and quantiles of the game length, with 95% CIs of mean and median.

    One row per group and measure: `rounds` (player turns divided by the players,
    the scale that compares games of different player counts), `turns`, `rolls`
    (when present) and `end_turns` (only when it differs from `turns` somewhere,
    i.e. with `play_to_end`). Columns:
    games, truncated (games stopped at max_turns: their length is a lower bound, kept
    in every statistic), mean, sd (ddof=1), mean_ci_low/high (normal approximation,
    mean +- 1.96 sd/sqrt(n)), median, median_ci_low/high (order-statistic interval,
    see `ludosim.results.stats.median_ci`), q05, q25, q75, q95 (linear interpolation between order
    statistics, numpy's default), min, max.
    """
    _require(df, ["turns"], "game_length")
    measures = ["rounds", *(c for c in ("turns", "rolls") if c in df.columns)]
    if "end_turns" in df.columns and not df["end_turns"].equals(df["turns"]):
        measures.append("end_turns")
    rows = []
    for keys, group in _groups(df, by):
        truncated = int(group["truncated"].sum()) if "truncated" in group.columns else 0
        players = players_of(group) if any(c.startswith("place_") for c in group.columns) else 0
        for measure in measures:
            if measure == "rounds":
                if not players:
                    continue  # no place_<s> columns: the players are unknown
                values = group["turns"].to_numpy(dtype=float) / players
            else:
                values = group[measure].to_numpy(dtype=float)
            rows.append({**keys, "measure": measure, **length_row(values, truncated)})
    return pd.DataFrame(rows)


def length_row(values: np.ndarray, truncated: int = 0) -> dict[str, Any]:
    """One row of `game_length` (from `games` on) for one group's lengths."""
    values = np.asarray(values, dtype=float)
    mean, low, high = mean_ci(values)
    median, m_low, m_high = median_ci(values)
    qs = np.quantile(values, QUANTILES) if values.size else [math.nan] * len(QUANTILES)
    return {
        "games": values.size,
        "truncated": truncated,
        "mean": mean,
        "sd": float(values.std(ddof=1)) if values.size > 1 else math.nan,
        "mean_ci_low": low,
        "mean_ci_high": high,
        "median": median,
        "median_ci_low": m_low,
        "median_ci_high": m_high,
        **{f"q{round(q * 100):02d}": float(v) for q, v in zip(QUANTILES, qs, strict=True)},
        "min": float(values.min()) if values.size else math.nan,
        "max": float(values.max()) if values.size else math.nan,
    }


def length_distribution(df: pd.DataFrame, column: str = "turns", by: By = None) -> pd.DataFrame:
    """Empirical distribution of a length column: one row per group and observed value.

    Columns: value, count, pmf (count / games of the group) and cdf (P(length <= value)),
    ready for histograms (bin the values) and step CDF plots.
    """
    _require(df, [column], "length_distribution")
    parts = []
    for keys, group in _groups(df, by):
        counts = group[column].value_counts().sort_index()
        total = int(counts.sum())
        part = pd.DataFrame(
            {
                "value": counts.index.to_numpy(),
                "count": counts.to_numpy(dtype=np.int64),
                "pmf": counts.to_numpy(dtype=float) / total,
                "cdf": counts.cumsum().to_numpy(dtype=float) / total,
            }
        )
        for i, (name, value) in enumerate(keys.items()):
            part.insert(i, name, value)
        parts.append(part)
    return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()


# ------------------------------------------------------------------------- win rates
def first_player_advantage(df: pd.DataFrame, by: By = None) -> pd.DataFrame:
    """Win rate by turn-order position `(winner - first) mod n`, and a test of equal chances.

    Games whose `winner` is -1 (truncated at max_turns with no finisher) are excluded
    and counted in `excluded`. One row per group and position (0 = took the first turn):
    players (n), games (counted), excluded, wins, win_rate with Wilson 95% ci_low/high,
    fair (1/n), advantage_pp = 100 (win_rate - 1/n) with advantage_ci_low/high (the
    Wilson bounds minus 1/n, in percentage points: 1/n is a constant). The row of
    position 0 is the first player's advantage. Per group, repeated on its rows: chi2 =
    sum_k (w_k - N/n)^2 / (N/n) over positions, dof = n - 1, p_value = P(X^2_dof >= chi2)
    (`chi2_sf`): the chance of seeing counts this uneven if every position won 1/n.
    """
    _require(df, ["winner", "first"], "first_player_advantage")
    rows = []
    for keys, group in _groups(df, by):
        n = players_of(group)
        first, winner = group["first"].to_numpy(int), group["winner"].to_numpy(int)
        rows += [{**keys, **row} for row in position_rows(first, winner, n)]
    return pd.DataFrame(rows)


def position_rows(first: np.ndarray, winner: np.ndarray, n: int) -> list[dict[str, Any]]:
    """The rows of `first_player_advantage` for one group's `first` and `winner` arrays."""
    first, winner = np.asarray(first, dtype=np.int64), np.asarray(winner, dtype=np.int64)
    finished = winner >= 0
    order = (winner[finished] - first[finished]) % max(n, 1)
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
                "excluded": int(winner.size) - total,
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

    With `first_player = seat0` the seat is the turn-order position; with roll-off or
    random first players every seat should win about 1/n unless the policies differ.
    """
    _require(df, ["winner"], "seat_win_rates")
    rows = []
    for keys, group in _groups(df, by):
        n = players_of(group)
        winner = group["winner"].to_numpy(int)
        total = int((winner >= 0).sum())
        for seat in range(n):
            wins = int((winner == seat).sum())
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
                    "fair": 1.0 / n,
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


# -------------------------------------------------------------------------- skip cost
def seat_effect(
    treated: pd.DataFrame, baseline: pd.DataFrame, seat: int = 0, paired: bool | None = None
) -> pd.DataFrame:
    """Win-rate change of `seat` between two tables that differ only in that seat's policy.

    Games with winner -1 are excluded from both sides (in the paired case, a game is
    dropped from both when either side has no finisher). `paired=None` pairs by game
    index when both tables hold the same games (a sweep's common random numbers), the
    CI then being the normal interval of the mean per-game difference; otherwise the
    samples are independent and the CI is Newcombe's hybrid score interval.
    Returns one row: games, win_rate and Wilson CI of each side (`_base` suffix for the
    baseline), diff (treated - baseline), diff_ci_low, diff_ci_high, method.
    """
    for table in (treated, baseline):
        _require(table, ["winner"], "seat_effect")
    if paired is None:
        paired = _paired(treated, baseline)
    if paired:
        treated, baseline = _align(treated, baseline)
        keep = (treated["winner"].to_numpy() >= 0) & (baseline["winner"].to_numpy() >= 0)
        t_win = _seat_wins(treated["winner"].to_numpy()[keep], seat)
        b_win = _seat_wins(baseline["winner"].to_numpy()[keep], seat)
    else:
        t_win = _seat_wins(treated["winner"].to_numpy()[treated["winner"].to_numpy() >= 0], seat)
        b_win = _seat_wins(baseline["winner"].to_numpy()[baseline["winner"].to_numpy() >= 0], seat)
    d, low, high, method = _difference(t_win, b_win, paired, binary=True)
    t_low, t_high = wilson_interval(int(t_win.sum()), t_win.size)
    b_low, b_high = wilson_interval(int(b_win.sum()), b_win.size)
    return pd.DataFrame(
        [
            {
                "seat": seat,
                "games": t_win.size,
                "win_rate": t_win.mean() if t_win.size else math.nan,
                "ci_low": t_low,
                "ci_high": t_high,
                "games_base": b_win.size,
                "win_rate_base": b_win.mean() if b_win.size else math.nan,
                "ci_low_base": b_low,
                "ci_high_base": b_high,
                "diff": d,
                "diff_ci_low": low,
                "diff_ci_high": high,
                "method": method,
            }
        ]
    )


def skipper_seats(df: pd.DataFrame) -> list[int]:
    """Seats that play a `skipper:Q` policy in some rows (per each row's `policies`)."""
    if "policies" not in df.columns or df.empty:
        return []
    seats: set[int] = set()
    for text, rows in df.groupby("policies", observed=True, sort=False):
        seated = seat_policies(text, players_of(rows))
        seats |= {s for s, name in enumerate(seated) if name.startswith("skipper:")}
    return sorted(seats)


def skip_cost(
    df: pd.DataFrame,
    seat: int = 0,
    *,
    skipper: str | None = None,
    baseline: str | None = None,
    detect: str = "detect_skip",
    cells: pd.DataFrame | None = None,
) -> pd.DataFrame:
    """Win-rate change of a `skipper:Q` seat at each detection probability played.

    `df` holds rows of several cells with a `policies` column and a `detect` column
    (`ludosim.results.load(path, cells=True)` of a sweep varying `policies`, and
    perhaps `detect_skip`). A sweep that plays one detection probability only keeps no
    `detect` column in its rows (only varying toggles are joined): pass its `cells`
    table (`results.load_cells`) and the value is read from there. At each detection
    probability present, one included, the rows where `seat` plays `skipper`
    (default: the one policy of that seat starting with `skipper:`) are compared with the
    rows where it plays `baseline` (default: its one other policy) by `seat_effect`
    (paired by game under common random numbers). A baseline seen at one detection
    probability only is used for all (its policy never skips, so detection cannot
    change its games). Columns: detect_skip, policy, baseline, then `seat_effect`'s,
    and break_even (repeated): the detection probability at which the difference first
    falls to zero (`ludosim.results.stats.zero_crossing`: linear interpolation). It is NaN with
    one detection probability (nothing to interpolate), when skipping never stops paying
    in the range, or when it never paid.
    """
    if detect not in df.columns and cells is not None and detect in cells.columns:
        _require(df, ["cell"], "skip_cost")
        level_of = dict(zip(cells["cell"].astype(str), cells[detect].astype(float), strict=True))
        df = df.assign(**{detect: _per_cell(df, level_of)})
    _require(df, [detect, "policies", "winner"], "skip_cost")
    n = players_of(df)
    # Map each distinct policies text once, not every row (sweeps have millions of rows).
    texts = df["policies"].astype(str)
    seat_policy = texts.map({t: seat_policies(t, n)[seat] for t in texts.unique()})
    names = list(dict.fromkeys(seat_policy))
    if skipper is None:
        found = [p for p in names if p.startswith("skipper:")]
        if len(found) != 1:
            raise AnalysisError(
                f"seat {seat} plays {', '.join(names)}; name the skipper policy to compare "
                "(skipper=...)"
            )
        skipper = found[0]
    if baseline is None:
        others = [p for p in names if p != skipper]
        if len(others) != 1:
            raise AnalysisError(
                f"seat {seat} plays {', '.join(names)}; name its baseline policy (baseline=...)"
            )
        baseline = others[0]
    treated_rows = df[seat_policy == skipper]
    base_rows = df[seat_policy == baseline]
    base_levels = base_rows[detect].unique()
    rows = []
    for level in sorted(treated_rows[detect].unique()):
        treated = treated_rows[treated_rows[detect] == level]
        if level in base_levels:
            base = base_rows[base_rows[detect] == level]
        elif len(base_levels) == 1:
            base = base_rows
        else:
            raise AnalysisError(
                f"no rows with seat {seat} playing {baseline} at {detect}={level}; "
                "sweep the baseline at every detection probability, or at one only"
            )
        effect = seat_effect(treated, base, seat).iloc[0].to_dict()
        rows.append({detect: float(level), "policy": skipper, "baseline": baseline, **effect})
    out = pd.DataFrame(rows)
    out["break_even"] = zero_crossing(out[detect], out["diff"]) if len(out) else math.nan
    return out


# ---------------------------------------------------------------------- toggle effects
def toggle_columns(cells: pd.DataFrame) -> list[str]:
    """The toggle columns of a cells table (everything but the cell's description)."""
    return [c for c in cells.columns if c not in CELL_INFO]


class CellTexts:
    """A cells table's `columns` as text, to tell which of them two cells differ in.

    Compared as text: toggles arrive as ints, floats, bools or their --set text.
    Built once per table: reading rows one by one from an Arrow-backed frame is
    slow, and a base is found by comparing every pair of cells.
    """

    def __init__(self, cells: pd.DataFrame, columns: Sequence[str]) -> None:
        self.columns = list(columns)
        self.text = cells[self.columns].astype(str).to_numpy(dtype=object)

    def differences(self, a: int, b: int) -> list[str]:
        """The columns in which rows `a` and `b` (positions) differ, in column order."""
        differ = self.text[a] != self.text[b]
        return [c for c, d in zip(self.columns, differ, strict=True) if d]


def comparison_columns(cells: pd.DataFrame) -> list[str]:
    """What one-toggle comparisons look at: the toggles, and the policies as one more."""
    return [*toggle_columns(cells), *(["policies"] if "policies" in cells.columns else [])]


# How a variant's base cell was chosen, in order of precedence (the `base_rule` column).
BASE_RULES = ("given", "sweep start", "preset", "first cell")


def _is_start(name: Any, variant: Any) -> bool:
    """True for a one-at-a-time starting point: its name carries no `toggle=value` change.

    A sweep names cells by their changes (`six_limit=0`); the starting point of a
    one-at-a-time sweep is named after its variant alone, or `base`.
    """
    return "=" not in str(name) and str(name) in {str(variant or ""), "base", ""}


def changed_toggles(row: pd.Series) -> list[str]:
    """Toggles of a cells-table row whose value differs from the row's preset, table order.

    Empty when the row names no known preset.
    """
    preset = str(row.get("preset") or "")
    if preset not in PRESETS:
        return []
    base = Rules.preset(preset)
    changed = []
    for name in TOGGLES:
        if name not in row.index:
            continue
        value = row[name]
        value = value.item() if isinstance(value, np.generic) else value
        try:
            same = parse_value(name, value) == getattr(base, name)
        except (LudosimError, TypeError, ValueError):
            same = str(value) == format_value(getattr(base, name))
        if not same:
            changed.append(name)
    return changed


def _matches_preset(row: pd.Series, columns: Sequence[str]) -> bool:
    """True when the cell holds its preset's own value for every one of `columns`.

    Policies never disqualify (a preset names none); a row without a known preset does.
    """
    if str(row.get("preset") or "") not in PRESETS:
        return False
    return not set(changed_toggles(row)) & set(columns)


def baselines(cells: pd.DataFrame) -> pd.DataFrame:
    """The base cell of each variant's one-toggle comparisons, and why it is the base.

    A *centre* is a cell from which every other cell of its variant differs in exactly
    one toggle (policies count as a toggle). In a one-at-a-time sweep only the starting
    point is a centre; when every cell is one (one toggle varied, as in a grid of
    `six_limit=0,3`), the base is, in this order: the sweep's own starting point (a
    one-at-a-time cell named after its variant or `base`, rule `sweep start`), the cell
    holding the preset's own value of the varied toggles (rule `preset`: the change
    is read from the rules as published, not from the first value listed), else the
    first centre in expansion order (rule `first cell`). Variants of one cell, or
    with no centre (a full grid of two or more toggles), have no base.
    Columns: variant, base, rule.
    """
    columns = comparison_columns(cells)
    texts = CellTexts(cells, columns)
    groups = (
        cells["variant"].fillna("") if "variant" in cells.columns else pd.Series([""] * len(cells))
    )
    found = []
    for variant, members in cells.groupby(groups.to_numpy(), sort=False):
        positions = [cells.index.get_loc(i) for i in members.index]
        if len(positions) < 2:
            continue
        centres = [
            a
            for a in positions
            if all(len(texts.differences(a, b)) == 1 for b in positions if b != a)
        ]
        if not centres:
            continue
        varied = [c for c in columns if members[c].astype(str).nunique() > 1]
        starts = [a for a in centres if _is_start(cells.iloc[a].get("name"), variant)]
        presets = [a for a in centres if _matches_preset(cells.iloc[a], varied)]
        if starts:
            chosen, rule = starts[0], "sweep start"
        elif presets:
            chosen, rule = presets[0], "preset"
        else:
            chosen, rule = centres[0], "first cell"
        found.append({"variant": variant, "base": str(cells.iloc[chosen]["cell"]), "rule": rule})
    return pd.DataFrame(found, columns=["variant", "base", "rule"])


def cell_rules(row: pd.Series) -> Rules | None:
    """The rules a cells-table row played: its preset with every toggle column applied.

    None when the row names no known preset or holds a value the rules refuse
    (a results folder of another version).
    """
    preset = str(row.get("preset") or "")
    if preset not in PRESETS:
        return None
    changes = {}
    for name in TOGGLES:
        if name not in row.index:
            continue
        value = row[name]
        value = value.item() if isinstance(value, np.generic) else value
        if isinstance(value, float) and math.isnan(value):
            continue
        try:
            changes[name] = parse_value(name, value)
        except (LudosimError, TypeError, ValueError):
            return None
    try:
        return Rules.preset(preset).replace(**changes)
    except (LudosimError, TypeError, ValueError):
        return None


@dataclass(frozen=True)
class SameGames:
    """Cells that play the same games: `kept` stands for all of `merged`, for `reasons`."""

    kept: str
    merged: tuple[str, ...]
    reasons: tuple[str, ...]  # `toggle: why it cannot act`, one per toggle normalised


def same_games(cells: pd.DataFrame) -> tuple[pd.DataFrame, list[SameGames]]:
    """The cells table without the cells that repeat another's games, and what was merged.

    Two cells play the same games when their rules agree once every toggle that
    cannot act is normalised away (`ludosim.rules.canonical`) and their seats play the
    same policies. Of each such set the cell with the most games is kept (the
    first in table order on equal counts); the others are dropped. The kept
    cell's name loses the `toggle=value` parts that cannot act
    (`policies=balanced` for `detect_skip=0.0 policies=balanced`); labels are
    read from the cells table, never from the rows.
    """
    from ludosim.rules.canonical import inert_toggles, safe_note, same_game_key

    if "cell" not in cells.columns or len(cells) < 2:
        return cells, []
    cells = cells.reset_index(drop=True)
    keys: dict[str, list[int]] = {}
    inert: dict[int, dict[str, str]] = {}
    redundant: dict[int, str] = {}  # safe kinds that mark no square the others do not
    for i, row in cells.iterrows():
        rules = cell_rules(row)
        if rules is None:
            continue
        try:
            policies = seat_policies(row.get("policies", "random") or "random", rules.players)
            key = same_game_key(rules, policies)
        except LudosimError:
            continue  # policies this version cannot read: never merged
        keys.setdefault(key, []).append(int(i))
        inert[int(i)] = inert_toggles(rules, policies)
        if (note := safe_note(rules)) is not None:
            redundant[int(i)] = note
    games = cells["games"] if "games" in cells.columns else pd.Series([0] * len(cells))
    merges, dropped, names = [], [], {}
    for members in keys.values():
        if len(members) < 2:
            continue
        kept = max(members, key=lambda i: (int(games.iloc[i] or 0), -i))
        others = [i for i in members if i != kept]
        why = {t: r for i in members for t, r in inert[i].items()}
        notes = [redundant[i] for i in members if i in redundant]
        if notes and "safe" not in why:
            why["safe"] = notes[0]
        varying = [t for t in why if cells.iloc[members][t].astype(str).nunique() > 1]
        reasons = tuple(f"{t}: {why[t]}" for t in varying)
        merges.append(
            SameGames(
                str(cells.iloc[kept]["cell"]),
                tuple(str(cells.iloc[i]["cell"]) for i in others),
                reasons,
            )
        )
        dropped += others
        if "name" in cells.columns:
            # The kept cell's name loses only the toggles that cannot act in it.
            names[kept] = _without(
                str(cells.iloc[kept]["name"]), [t for t in varying if t in inert[kept]]
            )
    if not merges:
        return cells, []
    kept_cells = cells.drop(index=dropped)
    for i, name in names.items():
        kept_cells.loc[i, "name"] = name or str(cells.iloc[i].get("preset") or "")
    return kept_cells.reset_index(drop=True), merges


def without_cells(df: pd.DataFrame, merges: Sequence[SameGames]) -> pd.DataFrame:
    """The rows of `df` less those of the cells `merges` dropped."""
    gone = [c for same in merges for c in same.merged]
    if not gone or "cell" not in df.columns:
        return df
    rows = df[~df["cell"].isin(gone)]
    if isinstance(rows["cell"].dtype, pd.CategoricalDtype):
        rows = rows.assign(cell=rows["cell"].cat.remove_unused_categories())
    return rows


def merge_same_games(
    df: pd.DataFrame, cells: pd.DataFrame
) -> tuple[pd.DataFrame, pd.DataFrame, list[SameGames]]:
    """`same_games` applied to rows and cells: (rows, cells table, what was merged)."""
    kept, merges = same_games(cells)
    return without_cells(df, merges), kept, merges


def _without(name: str, toggles: Iterable[str]) -> str:
    """A cell name without its `toggle=value` parts for `toggles`."""
    drop = set(toggles)
    return " ".join(part for part in name.split() if part.partition("=")[0] not in drop)


def find_baselines(cells: pd.DataFrame) -> list[str]:
    """The base cells of `baselines(cells)`, one per variant that has one ([] if none)."""
    return baselines(cells.reset_index(drop=True))["base"].tolist()


def _rows_by_cell(df: pd.DataFrame) -> dict[str, pd.DataFrame]:
    # Group on the column itself: a categorical `cell` is grouped by its codes, while
    # astype(str) would build one Python string per row of a million-game sweep.
    return {str(k): g for k, g in df.groupby("cell", observed=True, sort=False)}


def _per_cell(df: pd.DataFrame, value_of: dict[str, float]) -> np.ndarray:
    """Per row, the value of its cell (NaN for a cell not in `value_of`).

    A categorical `cell` is mapped through its categories: one lookup per cell rather
    than one Python string per row of a million-game sweep.
    """
    column = df["cell"]
    if isinstance(column.dtype, pd.CategoricalDtype):
        table = np.array(
            [value_of.get(str(c), math.nan) for c in column.cat.categories] + [math.nan]
        )
        return table[column.cat.codes.to_numpy()]  # code -1 (missing) reads the trailing NaN
    return np.array([value_of.get(str(c), math.nan) for c in column], dtype=float)


def _first_wins(rows: pd.DataFrame) -> np.ndarray:
    """Per game: 1 if the first player won, 0 if another did, NaN without a finisher."""
    n = players_of(rows)
    winner = rows["winner"].to_numpy(int)
    won = ((winner - rows["first"].to_numpy(int)) % n == 0).astype(float)
    won[winner < 0] = math.nan
    return won


def toggle_effects(
    df: pd.DataFrame, cells: pd.DataFrame, baseline_cell: str | None = None
) -> pd.DataFrame:
    """Effect of each one-toggle change on mean game length and first-player advantage.

    For every cell that differs from `baseline_cell` in exactly one toggle (or in its
    policies), against the baseline: turns_effect = mean turns - base mean turns, and
    fpa_effect_pp = first-player advantage - base advantage, in percentage points, where
    the advantage is P(first player wins) - 1/n (games without a finisher excluded). With
    equal player counts that is the difference of first-player win rates. CIs: paired by
    game index when both cells hold the same games (a sweep's common random numbers:
    normal CI of the mean per-game difference), else Welch (turns) and Newcombe (rates).
    `baseline_cell=None` uses every base found by `baselines` (one per variant): the
    sweep's starting point, else the cell holding the preset's own values, so that a
    change reads from the published rules. `base_rule` says which (`given` for
    `baseline_cell`). Columns: base, base_rule, cell, name, toggle, value, base_value,
    games, mean_turns, base_mean_turns, turns_effect, turns_ci_low/high, fpa_pp,
    base_fpa_pp, fpa_effect_pp, fpa_ci_low/high, method.
    """
    _require(df, ["cell", "turns", "winner", "first"], "toggle_effects")
    cells = cells.reset_index(drop=True)
    texts = CellTexts(cells, comparison_columns(cells))
    if baseline_cell is not None:
        bases = [(baseline_cell, "given")]
    else:
        found = baselines(cells)
        bases = list(zip(found["base"], found["rule"], strict=True))
    ids = cells["cell"].astype(str).tolist()
    rows_of = _rows_by_cell(df)
    out = []
    for base, rule in bases:
        if base not in ids:
            raise AnalysisError(f"baseline cell {base!r} is not one of {', '.join(ids)}")
        b = ids.index(base)
        base_rows = rows_of.get(base)
        if base_rows is None:
            raise AnalysisError(f"the table holds no rows of the baseline cell {base}")
        base_n = players_of(base_rows)
        for i, cell in enumerate(ids):
            changed = texts.differences(i, b)
            if i == b or len(changed) != 1 or cell not in rows_of:
                continue
            rows = rows_of[cell]
            n = players_of(rows)
            paired = _paired(rows, base_rows)
            t, s = _align(rows, base_rows) if paired else (rows, base_rows)
            turns = _difference(
                t["turns"].to_numpy(float), s["turns"].to_numpy(float), paired, binary=False
            )
            w1, w0 = _first_wins(t), _first_wins(s)
            if paired:
                keep = ~np.isnan(w1) & ~np.isnan(w0)
                w1, w0 = w1[keep], w0[keep]
            else:
                w1, w0 = w1[~np.isnan(w1)], w0[~np.isnan(w0)]
            # advantage = rate - 1/n; the constant shift moves the CI with the estimate.
            shift = 1.0 / n - 1.0 / base_n
            fpa = _difference(w1, w0, paired, binary=True)
            toggle = changed[0]
            out.append(
                {
                    "base": base,
                    "base_rule": rule,
                    "cell": cell,
                    "name": cells.iloc[i]["name"] if "name" in cells.columns else cell,
                    "toggle": toggle,
                    "value": value_text(cells.iloc[i][toggle], toggle),
                    "base_value": value_text(cells.iloc[b][toggle], toggle),
                    "games": len(rows),
                    "mean_turns": float(rows["turns"].mean()),
                    "base_mean_turns": float(base_rows["turns"].mean()),
                    "turns_effect": turns[0],
                    "turns_ci_low": turns[1],
                    "turns_ci_high": turns[2],
                    "fpa_pp": 100.0 * (float(np.mean(w1)) - 1.0 / n),
                    "base_fpa_pp": 100.0 * (float(np.mean(w0)) - 1.0 / base_n),
                    "fpa_effect_pp": 100.0 * (fpa[0] - shift),
                    "fpa_ci_low": 100.0 * (fpa[1] - shift),
                    "fpa_ci_high": 100.0 * (fpa[2] - shift),
                    "method": turns[3] if paired else f"{turns[3]}/{fpa[3]}",
                }
            )
    return pd.DataFrame(out)


def _response(rows: pd.DataFrame, response: str) -> np.ndarray:
    if response == "first_win":
        return _first_wins(rows)
    _require(rows, [response], "factorial_effects")
    return rows[response].to_numpy(float)


@dataclass(frozen=True)
class Stratum:
    """One full 2^k design inside a grid: its cells and each factor's -1/+1 code per cell.

    `others` holds the values of the varying toggles outside the design, the
    same for every cell of the stratum; `levels` each factor's two values (the
    first coded -1).
    """

    cells: tuple[str, ...]
    codes: dict[str, np.ndarray]
    others: dict[str, Any]
    levels: dict[str, list[str]]


def factorial_strata(cells: pd.DataFrame, factors: Sequence[str]) -> list[Stratum]:
    """The full 2^k designs of `factors` in a cells table, one per combination of the
    other varying toggles (see `factorial_effects`); raises `AnalysisError` otherwise."""
    factors = list(factors)
    if not factors:
        raise AnalysisError("factorial_effects needs at least one factor")
    _require(cells, factors, "factorial_effects (cells table)")
    cells = cells.reset_index(drop=True)
    levels = {}
    for factor in factors:
        values = list(dict.fromkeys(cells[factor].astype(str)))
        if len(values) != 2:
            raise AnalysisError(
                f"factor {factor} takes {len(values)} values ({', '.join(values)}); "
                "a 2-level factorial design needs exactly 2"
            )
        levels[factor] = values
    others = [
        c
        for c in [*toggle_columns(cells), "policies"]
        if c in cells.columns and c not in factors and cells[c].astype(str).nunique() > 1
    ]
    k = len(factors)
    stratum_keys = cells[others].astype(str).agg("|".join, axis=1) if others else None
    groups = cells.groupby(stratum_keys.to_numpy(), sort=False) if others else [(None, cells)]
    out = []
    for _, stratum in groups:
        codes = {f: np.where(stratum[f].astype(str) == levels[f][1], 1.0, -1.0) for f in factors}
        combos = {tuple(codes[f][j] for f in factors) for j in range(len(stratum))}
        if len(stratum) != 2**k or len(combos) != 2**k:
            raise AnalysisError(
                f"cells {', '.join(stratum['cell'].astype(str))} are not a full 2^{k} design "
                f"of {', '.join(factors)}"
            )
        out.append(
            Stratum(
                tuple(stratum["cell"].astype(str)),
                codes,
                {c: stratum.iloc[0][c] for c in others},
                levels,
            )
        )
    return out


def factorial_effects(
    df: pd.DataFrame,
    cells: pd.DataFrame,
    factors: Sequence[str],
    response: str = "turns",
) -> pd.DataFrame:
    """Main effects and two-way interactions of a 2-level factorial design.

    Each factor's two levels are coded -1 (the level of the first cell, in expansion
    order) and +1. With the 2^k cells of a full design and cell means y_c, the effect of
    a term with signs x_c (a factor's code, or the product of two for an interaction) is
    E = (1 / 2^(k-1)) sum_c x_c y_c: the mean at +1 minus the mean at -1. Its SE, for
    independent cells, is (1 / 2^(k-1)) sqrt(sum_c s_c^2 / n_c) ("independent"). When all
    cells hold the same games (common random numbers) the contrast is taken game by game,
    e_g = (1 / 2^(k-1)) sum_c x_c y_cg, and E, SE are the mean of e_g and its standard
    error ("paired"), which accounts for the correlation between cells. Games without a
    value (winner -1 with response `first_win`) are dropped.
    Cells that also differ in toggles outside `factors` are analysed separately per
    combination of those (their columns lead the table). `response`: a per-game column
    (`turns`, `rolls`, ...) or `first_win` (1 if the first player won).
    Columns: term, factors, low, high (the levels coded -1/+1, for main effects),
    effect, se, ci_low, ci_high, cells, method.
    """
    _require(df, ["cell"], "factorial_effects")
    strata = factorial_strata(cells, factors)
    factors = list(factors)
    levels = strata[0].levels
    rows_of = _rows_by_cell(df)
    k = len(factors)
    terms = [(f,) for f in factors] + [
        (a, b) for i, a in enumerate(factors) for b in factors[i + 1 :]
    ]
    out = []
    for stratum in strata:
        codes, ids, others = stratum.codes, list(stratum.cells), stratum.others
        missing = [c for c in ids if c not in rows_of]
        if missing:
            raise AnalysisError(f"the table holds no rows of cell(s) {', '.join(missing)}")
        tables = [rows_of[c] for c in ids]
        paired = all(_paired(t, tables[0]) for t in tables[1:])
        values = [_response(_align(t, t)[0] if paired else t, response) for t in tables]
        scale = 1.0 / 2 ** (k - 1)
        for term in terms:
            signs = np.prod([codes[f] for f in term], axis=0)
            if paired:
                per_game = scale * np.sum(
                    [s * v for s, v in zip(signs, values, strict=True)], axis=0
                )
                per_game = per_game[~np.isnan(per_game)]
                effect, low, high = mean_ci(per_game)
                se = (high - effect) / Z95 if per_game.size > 1 else math.nan
            else:
                clean = [v[~np.isnan(v)] for v in values]
                effect = scale * sum(s * v.mean() for s, v in zip(signs, clean, strict=True))
                se = scale * math.sqrt(sum(v.var(ddof=1) / v.size for v in clean))
                low, high = effect - Z95 * se, effect + Z95 * se
            out.append(
                {
                    **others,
                    "term": " x ".join(term),
                    "factors": len(term),
                    "low": levels[term[0]][0] if len(term) == 1 else "",
                    "high": levels[term[0]][1] if len(term) == 1 else "",
                    "response": response,
                    "effect": effect,
                    "se": se,
                    "ci_low": low,
                    "ci_high": high,
                    "cells": len(ids),
                    "method": "paired" if paired else "independent",
                }
            )
    return pd.DataFrame(out)


# ------------------------------------------------------------- command summaries
def ranking(rules: Rules, result: Any, policies: Sequence[str] | None = None) -> pd.DataFrame:
    """Final ranking of one reference game (a `GameResult`), best place first.

    Columns: place, seat, position (its turn-order position `(seat - first) mod n`,
    0 = moved first), pieces home (pieces at the goal), points (megajogos scoring
    only), policy (when `policies` is given).
    """
    n = rules.players
    rows = []
    for seat in sorted(range(n), key=lambda s: result.places[s]):
        row = {
            "place": int(result.places[seat]),
            "seat": seat,
            "position": (seat - result.first) % n,
            "pieces home": sum(p == rules.goal for p in result.final[seat]),
        }
        if result.points:
            row["points"] = int(result.points[seat])
        if policies:
            row["policy"] = policies[seat]
        rows.append(row)
    return pd.DataFrame(rows)


def describe_cells(cells: pd.DataFrame) -> dict[Hashable, str]:
    """cell id -> a short label: its name, or the id when the table has no names.

    Values in names are spelled as the command line takes them (`cli_spelling`).
    """
    names = cells["name"] if "name" in cells.columns else cells["cell"]
    return {
        cell: cli_spelling(name)
        for cell, name in zip(cells["cell"].astype(str), names.astype(str), strict=True)
    }


def cli_spelling(text: str) -> str:
    """`name=value` pairs of a label with values as `--set` takes them: `true`, `{}`."""
    text = re.sub(r"=(True|False)\b", lambda m: "=" + m.group(1).lower(), text)
    return re.sub(r"=(?=\s|$)", "=" + EMPTY_SET, text)
