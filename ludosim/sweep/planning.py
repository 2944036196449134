"""What a sweep will play, and what a precision target achieved: the `--dry-run`
table, each cell's games planned from its pilot, and the manifest's record of a
two-stage run (each run entry's stage, each cell's plan and achieved interval).

Planning reads only the pilot chunk files, so a resumed sweep finds the same plan.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludosim.sweep import store
from ludosim.sweep.precision import CellPlan, Target, achieved, plan_cell
from ludosim.sweep.spec import Cell, SweepSpec, cells_frame, expand, spec_hash

if TYPE_CHECKING:
    import pandas as pd


def plan(spec: SweepSpec, out: str | Path | None = None) -> pd.DataFrame:
    """The `--dry-run` table: one row per cell, with its chunk count; plays nothing.

    With a precision target the table adds `pilot`, `planned` (games the target
    needs, from the pilot chunks already in `out`; missing before the pilot has
    been played) and `plan` (`pilot first`, `from pilot` or `capped at max_games`);
    `games` and `chunks` are then the planned ones where known, else the pilot's.
    """
    import pandas as pd

    cells = expand(spec)
    target = spec.target()
    if target is None:
        return cells_frame(cells, spec.chunk_size)
    plans: dict[str, CellPlan | None] = dict.fromkeys((c.id for c in cells), None)
    if out is not None:
        spec_id = spec_hash(spec, cells)
        for cell in cells:
            pilot = store.cell_moments(Path(out), spec.summary_only, spec_id, cell, spec.chunk_size)
            if pilot is not None:
                plans[cell.id] = plan_cell(pilot, target, spec.max_games)
    shown = [_planned(c, plans[c.id]) for c in cells]
    frame = cells_frame(shown, spec.chunk_size)
    frame["pilot"] = spec.pilot
    frame["planned"] = pd.array(
        [None if p is None else p.planned for p in plans.values()], dtype="Int64"
    )
    frame["plan"] = [
        "pilot first" if p is None else "capped at max_games" if p.capped else "from pilot"
        for p in plans.values()
    ]
    return frame


def _planned(cell: Cell, cell_plan: CellPlan | None) -> Cell:
    return cell if cell_plan is None else dataclasses.replace(cell, games=cell_plan.planned)


def _tag_run(folder: store.Folder, before: int, stage: str) -> None:
    """Mark the run entry `_run` added (also an interrupted one) with its stage."""
    if len(folder.manifest["runs"]) > before:
        folder.manifest["runs"][-1]["stage"] = stage
        folder.save_manifest()


def _record_precision(
    spec: SweepSpec,
    target: Target,
    cells: Sequence[Cell],
    plans: dict[str, CellPlan],
    spec_id: str,
    folder: store.Folder,
) -> None:
    """manifest["precision"]: the target and, per cell, the plan and what the games achieve.

    `games` counts the games of the cell's complete chunks; `half_width` is the
    interval the report shows, from those games; `met` says the cell played
    every game the two-stage rule asks for (not cut by `max_games`), so that
    its estimate +- the target is the procedure's 95% interval.
    """
    entries: dict[str, Any] = {}
    for cell in cells:
        cell_plan = plans[cell.id]
        # Only complete chunks count: an interrupted second stage reports what it has.
        moments = store.cell_moments(
            folder.root, spec.summary_only, spec_id, cell, spec.chunk_size, partial=True
        )
        assert moments is not None  # partial=True always sums what is there
        estimate, half_width = achieved(moments, target)
        if target.unit == "pp":
            estimate -= 100.0 / cell.rules.players  # advantage over a fair 1/n share
        entries[cell.id] = {
            "name": cell.name,
            "pilot": cell_plan.pilot,
            "pilot_sd": _finite(cell_plan.sd),
            "required": cell_plan.required,
            "planned": cell_plan.planned,
            "capped": cell_plan.capped,
            "games": moments.games,
            "estimate": _finite(estimate),
            "half_width": _finite(half_width),
            "met": not cell_plan.capped and moments.games == cell_plan.planned,
        }
    folder.manifest["precision"] = {
        "target": str(target),
        "measure": target.measure,
        "unit": target.unit,
        "half_width": target.value,
        "confidence": 0.95,
        "pilot": spec.pilot,
        "max_games": spec.max_games,
        "cells": entries,
    }
    folder.save_manifest()


def _finite(value: float) -> float | None:
    """JSON has no NaN: an undefined value is written as null."""
    return None if value != value else round(value, 6)
