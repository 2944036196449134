"""What a sweep page compares, from its cells table alone: `PageDesign`.

`page_design(cells)` merges the cells that play the same games and tells the kind of
design: one cell, a tournament, a skip sweep, one-toggle changes from a base, a full
2^k factorial, else every pair of cells; and how cells are named to a reader.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from ludosim.report import analysis
from ludosim.report.analysis import SameGames, value_text


# ----------------------------------------------------------------- the design
@dataclass
class PageDesign:
    """What a page compares, from its cells table alone (never from the results).

    cells: the cells table with cells that play the same games merged
    (`analysis.same_games`, listed in `merged`); ids: the kept cells in table
    order. kind: `single` (one cell), `tournament` (policies rotated through
    the seats), `skip` (a skipper against its baseline), `base` (one-toggle
    changes from base cells: `bases`), `factorial` (full 2^k designs:
    `strata`), else `pairs` (every pair of cells). names and labels: how cells
    are written (`killer`, `c004 (killer)`); noun: what the cells are to a
    reader.
    """

    cells: pd.DataFrame
    merged: list[SameGames]
    ids: list[str]
    kind: str
    names: dict[str, str]
    labels: dict[str, str]
    noun: str
    bases: list[tuple[str, str, list[tuple[str, str]]]] = field(default_factory=list)
    strata: list[analysis.Stratum] = field(default_factory=list)
    seat0: bool = False
    given_names: dict[str, str] = field(default_factory=dict)  # every cell, merged ones too


def page_design(cells: pd.DataFrame) -> PageDesign:
    """The `PageDesign` of a cells table: merged cells, the kind of design, the labels."""
    kept, merged = analysis.same_games(cells)
    kept = kept.reset_index(drop=True)
    ids = [str(c) for c in kept["cell"]]
    names = {str(k): v for k, v in _names(kept).items()}
    unique = len(set(names.values())) == len(names)
    labels = {c: (c if names.get(c, c) == c else f"{c} ({names[c]})") for c in ids}
    short = {c: (names.get(c, c) if unique else labels[c]) for c in ids}
    design = PageDesign(kept, merged, ids, "single", short, labels, _noun(kept))
    design.given_names = {str(k): v for k, v in _names(cells).items()}
    design.seat0 = "first_player" in kept.columns and bool(
        (kept["first_player"].astype(str) == "seat0").any()
    )
    if len(ids) < 2:
        return design
    seated = _seated(kept)
    if _rotated(seated):
        design.kind = "tournament"
    elif any(p.startswith("skipper:") for seats in seated.values() for p in seats):
        design.kind = "skip"
    elif bases := _bases(kept):
        design.kind, design.bases = "base", bases
    elif strata := _factorial_strata(kept):
        design.kind, design.strata = "factorial", strata
    else:
        design.kind = "pairs"
    return design


def _seated(cells: pd.DataFrame) -> dict[str, list[str]]:
    """cell -> the policy of every seat ({} without policies or players columns)."""
    if "policies" not in cells.columns or "players" not in cells.columns:
        return {}
    out = {}
    for cell, text, n in zip(cells["cell"], cells["policies"], cells["players"], strict=True):
        try:
            out[str(cell)] = analysis.seat_policies(text, int(n))
        except (analysis.AnalysisError, TypeError, ValueError):
            return {}
    return out


def _rotated(seated: Mapping[str, list[str]]) -> bool:
    """Every policy of the cells holds every seat in some cell: a tournament."""
    counts = {len(seats) for seats in seated.values()}
    if len(counts) != 1:
        return False
    seats_of: dict[str, set[int]] = {}
    for seats in seated.values():
        for seat, name in enumerate(seats):
            seats_of.setdefault(name, set()).add(seat)
    every = set(range(counts.pop()))
    return len(seats_of) >= 2 and all(s == every for s in seats_of.values())


def _bases(cells: pd.DataFrame) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(base, how it was chosen, [(changed cell, `toggle before -> after`)]) per base."""
    found = analysis.baselines(cells)
    if found.empty:
        return []
    texts = analysis.CellTexts(cells, analysis.comparison_columns(cells))
    ids = cells["cell"].astype(str).tolist()
    out = []
    for base, rule in zip(found["base"], found["rule"], strict=True):
        b = ids.index(str(base))
        changes = []
        for i, cell in enumerate(ids):
            changed = texts.differences(i, b)
            if i == b or len(changed) != 1:
                continue
            toggle = changed[0]
            before = value_text(cells.iloc[b][toggle], toggle)
            after = value_text(cells.iloc[i][toggle], toggle)
            changes.append((cell, f"{toggle} {before} -> {after}"))
        if changes:
            out.append((str(base), str(rule), changes))
    return out


# --------------------------------------------------------------- wording
def _names(cells: pd.DataFrame) -> dict[Any, str]:
    """cell id -> name, values spelled as `--set` takes them (`true`, `{}` for an empty set)."""
    if "cell" not in cells.columns:
        return {}
    return analysis.describe_cells(cells)


def _noun(cells: pd.DataFrame) -> str:
    """What the cells are to a reader: rule sets, seatings (a tournament) or cells."""
    if "cell" not in cells.columns or len(cells) < 2:
        return "cells"
    toggles = [
        c for c in analysis.toggle_columns(cells)
        if c in cells.columns and cells[c].astype(str).nunique() > 1
    ]  # fmt: skip
    seated = "policies" in cells.columns and cells["policies"].astype(str).nunique() > 1
    if toggles and not seated:
        return "rule sets"
    if seated and not toggles:
        return "seatings"
    return "cells"


# --------------------------------------------------------------- factorial
def _factors(cells: pd.DataFrame) -> list[str]:
    """Varying toggles with exactly two values: the candidate factors of a 2^k design."""
    return [
        c
        for c in analysis.toggle_columns(cells)
        if c in cells.columns and cells[c].astype(str).nunique() == 2
    ]


def _factorial_strata(cells: pd.DataFrame) -> list[analysis.Stratum]:
    factors = _factors(cells)
    if len(factors) < 2 or len(cells) < 4:
        return []
    try:
        return analysis.factorial_strata(cells, factors)
    except analysis.AnalysisError:
        return []
