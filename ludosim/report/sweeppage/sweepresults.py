"""What a sweep page is drawn from (`_Results`: rows, cells, design, command) and
what every section shares: captions that say what was simulated, a forest per cell
and the small multiples of a full-factorial grid."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pandas as pd

from ludosim.report import analysis, figures, interactive
from ludosim.report.analysis import value_text
from ludosim.report.figures import Panel
from ludosim.report.finding import PageFindings
from ludosim.report.htmlpage import PageFigure, page_figure
from ludosim.report.sweeppage.pagedesign import PageDesign
from ludosim.results import ResultsKind

# Cells listed by name in a caption; more are summarised (cells.csv lists them all).
CAPTION_CELLS = 8


# Up to this many cells, length distributions are overlaid and win rates by position
# drawn as dots with a legend; beyond it the lines would hide each other.
FEW_CELLS = 6
# A full-factorial grid is drawn as small multiples up to this many panels.
MAX_PANELS = 16


@dataclass
class _Results:
    """What the report is made of: rows, the cells table and where they came from.

    `df` and `cells` hold each game once: cells that play the same games as
    another (`design.merged`) are left out of both, and `all_cells` keeps them
    for the cells table.
    """

    kind: ResultsKind
    df: pd.DataFrame
    cells: pd.DataFrame
    command: str  # reproduces the results
    labels: dict[str, str] = field(default_factory=dict)  # cell id -> label (CLI spelling)
    design: PageDesign | None = None
    all_cells: pd.DataFrame | None = None
    found: PageFindings | None = None

    @property
    def path(self) -> Path:
        return self.kind.path

    @property
    def manifest(self) -> dict[str, Any] | None:
        """The sweep's manifest, None for a file or a folder of files."""
        return self.kind.manifest

    @property
    def games(self) -> int:
        """Games the results hold: rows, or the summed totals of a summary-only sweep."""
        return int(self.df["games"].sum()) if self.kind.summary_only else len(self.df)

    def label(self, cell: str) -> str:
        return self.labels.get(str(cell), str(cell))


# ---------------------------------------------------------------- provenance
def _changed_toggles(row: pd.Series) -> list[str]:
    """`toggle=value` for each toggle of a cell that differs from its preset."""
    return [f"{name}={value_text(row[name])}" for name in analysis.changed_toggles(row)]


def _describe(res: _Results, cell_ids: Sequence[str]) -> str:
    """What was simulated for these cells: rules, policies, games, seed.

    Up to `CAPTION_CELLS` cells are listed one by one; more are summarised by their
    presets, the changes they share and the toggles that vary (cells.csv lists each).
    """
    cells = res.cells.set_index(res.cells["cell"].astype(str))
    ids = [c for c in cell_ids if c in cells.index]
    if len(ids) > CAPTION_CELLS:
        parts = [_summary(cells.loc[ids])]
    else:
        parts = []
        for cell in ids:
            row = cells.loc[cell]
            preset = row.get("preset")
            rules = (
                f"preset {preset}" + "".join(f", {c}" for c in _changed_toggles(row))
                if isinstance(preset, str) and preset
                else "rules not recorded"
            )
            policies = row.get("policies") if "policies" in row.index else None
            parts.append(
                f"{cell} “{res.label(cell)}”: {rules}; policies "
                f"{policies if isinstance(policies, str) else 'not recorded'}"
            )
    games = sorted({int(g) for g in cells.loc[[c for c in cell_ids if c in cells.index], "games"]})
    seeds = (
        sorted({int(s) for s in cells["seed"].dropna()})
        if "seed" in cells.columns and cells["seed"].notna().any()
        else []
    )
    games_text = "/".join(f"{g:,}" for g in games) + " games per cell"
    seed_text = f"seed {', '.join(map(str, seeds))}" if seeds else "seed not recorded"
    return "Simulated: " + "; ".join(parts) + f". {games_text}, {seed_text}."


def _summary(cells: pd.DataFrame) -> str:
    """Many cells in one phrase: presets, shared changes, varying toggles, policies."""
    presets = sorted({str(p) for p in cells["preset"].dropna()}) if "preset" in cells else []
    shared = set.intersection(*(set(_changed_toggles(row)) for _, row in cells.iterrows()))
    varying = [c for c in analysis.toggle_columns(cells) if cells[c].astype(str).nunique() > 1]
    policies = list(dict.fromkeys(cells["policies"].astype(str))) if "policies" in cells else []
    text = f"{len(cells)} cells (each listed in cells.csv) of preset {', '.join(presets) or '?'}"
    if shared:
        text += " with " + ", ".join(sorted(shared))
    if varying:
        text += ", varying " + ", ".join(varying)
    if policies:
        text += "; policies " + (" / ".join(policies) if len(policies) <= 4 else "varied")
    return text


def _caption(res: _Results, cell_ids: Sequence[str], what: str) -> str:
    """What the figure shows and what was simulated; the template adds the command."""
    return f"{what} {_describe(res, cell_ids)}"


def _per_cell_figures(
    res: _Results,
    out: Path,
    table: pd.DataFrame,
    panel: Panel,
    stem: str,
    forest: tuple[str, str],
    grid_text: tuple[str, str],
    *,
    diverging: bool,
    fmt: str,
) -> list[PageFigure]:
    """One measure per cell: a forest of every cell (largest first) and, for a full
    factorial grid, its heatmap panels. `forest` is (title, caption), `grid_text`
    (title, colour-bar label); the PNGs are `<stem>.png` and `<stem>_grid.png`."""
    ordered = table.sort_values(panel.value, ascending=False, kind="stable")
    shown = [_forest_figure(res, out, ordered, [panel], f"{stem}.png", *forest)]
    grid = _grid(res)
    if grid is not None:
        values = table.set_index(table["cell"].astype(str))[panel.value]
        grid_png = f"{stem}_grid.png"
        shown.append(
            _grid_figure(res, out, grid, values, grid_png, *grid_text, diverging=diverging, fmt=fmt)
        )
    return shown


def _forest_figure(
    res: _Results,
    out: Path,
    table: pd.DataFrame,
    panels: Sequence[Panel],
    file: str,
    title: str,
    what: str,
) -> PageFigure:
    """A forest plot of one row per cell (static and interactive)."""
    ids = table["cell"].astype(str).tolist()
    labels = [res.label(c) for c in ids]
    item = page_figure(out, figures.forest(table, labels, panels), file, title,
                   _caption(res, ids, what))  # fmt: skip
    item.interactive = interactive.bokeh_forest(
        table, labels, panels, {"cell": "cell", "games": "games"}
    )
    return item


@dataclass(frozen=True)
class _Grid:
    """A full-factorial grid: the factors drawn on rows, columns and panels."""

    table: pd.DataFrame  # cell plus one text column per factor
    row: str
    col: str
    panels: tuple[str, ...]
    levels: dict[str, list[str]]


def _grid(res: _Results) -> _Grid | None:
    """The sweep's full-factorial grid of two or more varied keys, if it is one."""
    spec = (res.manifest or {}).get("spec") or {}
    if spec.get("mode") != "grid":
        return None
    factors = [k for k, v in (spec.get("vary") or {}).items()
               if len(v) > 1 and k in res.cells.columns]  # fmt: skip
    if "variant" in res.cells.columns and res.cells["variant"].astype(str).nunique() > 1:
        factors.insert(0, "variant")
    if len(factors) < 2:
        return None
    table = pd.DataFrame({"cell": res.cells["cell"].astype(str)})
    for factor in factors:
        table[factor] = res.cells[factor].map(value_text).astype(str)
    levels = {f: list(dict.fromkeys(table[f])) for f in factors}
    size = math.prod(len(v) for v in levels.values())
    if size != len(table) or table.duplicated(factors).any():
        return None
    # The two factors with most levels span each panel (later ones on ties: the
    # innermost loops of the grid); the others pick the panel.
    by_levels = sorted(factors, key=lambda f: (len(levels[f]), factors.index(f)))
    row, col = by_levels[-2], by_levels[-1]
    panels = tuple(f for f in factors if f not in (row, col))
    if math.prod(len(levels[f]) for f in panels) > MAX_PANELS:
        return None
    return _Grid(table, row, col, panels, levels)


def _grid_figure(
    res: _Results,
    out: Path,
    grid: _Grid,
    values: pd.Series,
    file: str,
    title: str,
    label: str,
    *,
    diverging: bool,
    fmt: str,
) -> PageFigure:
    table = grid.table.assign(value=grid.table["cell"].map(values))
    fig = figures.heatmap_grid(
        table, grid.row, grid.col, grid.panels, grid.levels, "value",
        label=label, diverging=diverging, fmt=fmt,
    )  # fmt: skip
    panels = f", one panel per {' and '.join(grid.panels)}" if grid.panels else ""
    what = (
        f"{label.capitalize()} for every cell of the grid: {grid.row} down, {grid.col} "
        f"across{panels}; one colour scale for all panels. CIs are in the forest plot above."
    )
    return page_figure(out, fig, file, title, _caption(res, grid.table["cell"].tolist(), what))


# ------------------------------------------------------------------ helpers
def _per_game(res: _Results) -> bool:
    """Per-game rows with winners and first players (a summary-only sweep has none)."""
    return res.manifest is not None and {"turns", "winner", "first"} <= set(res.df.columns)


def _cell_ids(res: _Results) -> list[str]:
    return [str(c) for c in res.cells["cell"]]
