"""What changing the rules does: each one-toggle change against its base cell (game
length and the first player's advantage), and the main effects and interactions of
2-level factorial designs on a per-game response; paired by game where the cells hold
the same games."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.analysis.basecells import (
    CellTexts,
    baselines,
    comparison_columns,
    toggle_columns,
)
from ludosim.report.analysis.pergame import (
    AnalysisError,
    _align,
    _difference,
    _paired,
    _require,
    _rows_by_cell,
    players_of,
)
from ludosim.report.analysis.summaries import value_text
from ludosim.results.measures import first_wins, winning_sides
from ludosim.results.stats import (
    Z95,
    mean_ci,
)


def _first_wins(rows: pd.DataFrame) -> np.ndarray:
    """Per game: 1 if the first player's side won, 0 if another did, NaN without a finisher."""
    return first_wins(rows, players_of(rows))


def _sides(rows: pd.DataFrame) -> int:
    """The sides of the games, whose fair share is 1 / sides: seats, or under `teams` teams."""
    return winning_sides(rows, players_of(rows))[1]


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
        base_n = _sides(base_rows)
        for i, cell in enumerate(ids):
            changed = texts.differences(i, b)
            if i == b or len(changed) != 1 or cell not in rows_of:
                continue
            rows = rows_of[cell]
            n = _sides(rows)
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
