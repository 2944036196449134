"""How long games last: the moments, median and quantiles of a length column with
their intervals, and its empirical distribution."""

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
from ludosim.results.stats import (
    mean_ci,
    median_ci,
)

QUANTILES = (0.05, 0.25, 0.75, 0.95)


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
