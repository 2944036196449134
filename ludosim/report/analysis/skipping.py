"""What skipping a forced capture costs: the win-rate change of one seat between two
policies, at each detection probability played, and where it stops paying."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from ludosim.report.analysis.pergame import (
    AnalysisError,
    _align,
    _difference,
    _paired,
    _per_cell,
    _require,
    players_of,
)
from ludosim.report.analysis.policywins import seat_policies
from ludosim.results.stats import (
    wilson_interval,
    zero_crossing,
)


def _seat_wins(winner: np.ndarray, seat: int) -> np.ndarray:
    return (winner == seat).astype(float)


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
