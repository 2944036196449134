"""What every analysis of per-game rows shares.

Grouping rows by `by` columns, the check that a table holds the columns an
analysis needs (with the error that says how to get them), the players of a
table, pairing two cells' games by game index (common random numbers) and the
difference of two per-game measures with its interval. Kept apart so that each
analysis states the same thing the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results.stats import (
    diff_means,
    diff_proportions,
    mean_ci,
)
from ludosim.rules.errors import LudosimError

By = str | Sequence[str] | None


class AnalysisError(LudosimError, ValueError):
    """A results table lacks what an analysis needs; the message says what and how to get it."""


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
