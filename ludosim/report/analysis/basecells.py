"""What a cells table says about its cells: its toggle columns, the toggles a cell
changes from its preset, which cells differ in one toggle, and which cell is the base
of each variant's one-toggle comparisons (and why)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results import CELL_INFO  # cell descriptors that are not toggles
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import PRESETS, TOGGLES, Rules, format_value, parse_value


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


def find_baselines(cells: pd.DataFrame) -> list[str]:
    """The base cells of `baselines(cells)`, one per variant that has one ([] if none)."""
    return baselines(cells.reset_index(drop=True))["base"].tolist()
