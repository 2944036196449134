"""Cells that play the same games: the rules a cells-table row played, which cells
repeat another's games once toggles that cannot act are normalised away, and the
table and rows without them.

Merged before any comparison, so that a page never compares a cell with itself.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ludosim.report.analysis.policywins import seat_policies
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import PRESETS, TOGGLES, Rules, parse_value


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
