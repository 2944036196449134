"""A spec expanded into its cells: `Cell`, `expand` (every cell built and checked), the
hash that identifies a sweep's output, and the cells as a table.

Every cell shares the master seed on purpose: game g draws the same dice stream in
every cell, so cells are compared on common random numbers.
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ludosim.results.paths import chunk_count, chunk_ranges
from ludosim.results.schema import cell_row
from ludosim.results.summary import NO_TEAM_SUMMARY
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import SEMANTICS_VERSION, TOGGLES, Rules, format_value
from ludosim.rules.options import RuleSet
from ludosim.rules.policies import format_policies, resolve_policies
from ludosim.sweep.specmodel import SweepSpec, Variant
from ludosim.sweep.specvalues import POLICIES_KEY, SweepError, _jsonable

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, kw_only=True)
class Cell:
    """One point of the sweep: rules and policies, played for `games` games from `seed`."""

    id: str
    name: str
    variant: str | None
    preset: str
    rules: Rules
    policies: tuple[str, ...]
    games: int
    seed: int
    changes: Mapping[str, Any]  # the varied values of this cell (toggles and policies)
    # Games of the precision pilot (0 without a target): chunks start again at the
    # pilot's end, so the pilot's chunks stay valid whatever the second stage adds.
    pilot: int = 0

    @property
    def rule_set(self) -> RuleSet:
        """The cell's rules as a rule set: its preset and every toggle that differs from it."""
        base = Rules.preset(self.preset)
        changed = {
            name: getattr(self.rules, name)
            for name in TOGGLES
            if getattr(self.rules, name) != getattr(base, name)
        }
        return RuleSet.of(self.preset, changed, self.name)

    def chunks(self, chunk_size: int) -> list[tuple[int, int]]:
        """[start, stop) game ranges of this cell's chunks (the pilot's first)."""
        return list(chunk_ranges(self.games, chunk_size, self.pilot))

    def chunk_count(self, chunk_size: int) -> int:
        """len(self.chunks(chunk_size)), without listing them."""
        return chunk_count(self.games, chunk_size, self.pilot)


def expand(spec: SweepSpec) -> list[Cell]:
    """Every cell of the sweep, validated; raises `SweepError` naming the cell and the field."""
    if not isinstance(spec, SweepSpec):
        raise SweepError(
            f"spec must be a SweepSpec, got {type(spec).__name__}; build one with "
            "SweepSpec(...), SweepSpec.from_dict(data) or SweepSpec.from_toml(path)"
        )
    spec.validate()
    starts = spec.variants or (Variant(name="", preset=spec.preset),)  # see SweepSpec.starts
    plans: list[tuple[Variant, dict[str, Any]]] = []
    for start in starts:
        if not spec.vary:
            plans.append((start, {}))
        elif spec.mode == "grid":
            keys = list(spec.vary)
            for combo in itertools.product(*(spec.vary[k] for k in keys)):
                plans.append((start, dict(zip(keys, combo, strict=True))))
        else:
            plans.append((start, {}))
            base_rules, base_policies = _build(spec, start, {}, where=_label(start, {}))
            for key, values in spec.vary.items():
                current = base_policies if key == POLICIES_KEY else getattr(base_rules, key)
                plans.extend((start, {key: v}) for v in values if v != current)
    width = max(3, len(str(len(plans) - 1)))
    # With a precision target the cells start as their pilots; the second stage
    # (ludosim.sweep.execute) sets each cell's games from its pilot.
    pilot = spec.pilot if spec.precision is not None else 0
    cells = []
    for index, (start, combo) in enumerate(plans):
        cell_id = f"c{index:0{width}d}"
        name = _label(start, combo)
        rules, policies = _build(spec, start, combo, where=f"cell {cell_id} ({name})")
        if spec.summary_only and rules.teams:
            raise SweepError(f"cell {cell_id} ({name}): summary_only/teams: {NO_TEAM_SUMMARY}")
        cells.append(
            Cell(
                id=cell_id,
                name=name,
                variant=start.name or None,
                preset=start.preset or spec.preset or "",
                rules=rules,
                policies=policies,
                games=pilot or spec.games,
                seed=spec.seed,
                changes=combo,
                pilot=pilot,
            )
        )
    seen: dict[tuple[str, tuple[str, ...]], Cell] = {}
    for cell in cells:
        twin = seen.setdefault((cell.rules.hash(), cell.policies), cell)
        if twin is not cell:
            raise SweepError(
                f"cells {twin.id} ({twin.name}) and {cell.id} ({cell.name}) are the same game "
                "(same rules and policies): they would give identical rows; remove one"
            )
    return cells


def _build(
    spec: SweepSpec, start: Variant, combo: Mapping[str, Any], *, where: str
) -> tuple[Rules, tuple[str, ...]]:
    """Rules and per-seat policies of one cell; errors name `where` and the field."""
    preset = start.preset or spec.preset
    assert preset is not None  # validate() refuses a start without a preset
    changes = {**spec.set, **start.set, **{k: v for k, v in combo.items() if k != POLICIES_KEY}}
    try:
        # One replace call: the combination is validated as a whole, as with --set.
        rules = Rules.preset(preset).replace(**changes)
    except LudosimError as exc:
        raise SweepError(f"{where}: {exc}") from None
    policies = combo.get(POLICIES_KEY, start.policies or spec.policies)
    try:
        resolved = resolve_policies(policies, rules.players, teams=rules.teams)
    except LudosimError as exc:
        raise SweepError(f"{where}: policies: {exc}") from None
    return rules, resolved


def _label(start: Variant, combo: Mapping[str, Any]) -> str:
    parts = [start.name] if start.name else []
    for key, value in combo.items():
        text = format_policies(value) if key == POLICIES_KEY else format_value(value)
        parts.append(f"{key}={text}")
    return " ".join(parts) or "base"


def spec_hash(spec: SweepSpec, cells: Sequence[Cell] | None = None) -> str:
    """Identity of a sweep's output: what is computed, not how it was written down.

    Hashes the expanded cells (rules hash, policies, games, seed), the chunking
    and the simulation semantics version, so the same grid given in TOML or on
    the command line resumes the same folder, a semantics change refuses it and
    a new toggle with a neutral default leaves it valid (see `Rules.hash`).
    """
    cells = expand(spec) if cells is None else cells
    payload = {
        "semantics_version": SEMANTICS_VERSION,
        "chunk_size": spec.chunk_size,
        "summary_only": spec.summary_only,
        "cells": [[c.id, c.name, c.rules.hash(), list(c.policies), c.games, c.seed] for c in cells],
    }
    target = spec.target()
    if target is not None:
        # Fixed-size sweeps keep the payload (and the hash) they always had.
        payload["precision"] = [str(target), spec.pilot, spec.max_games]
    if spec.flow:
        payload["flow"] = True  # other rows: a sweep without flow keeps its hash
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cells_frame(
    cells: Sequence[Cell], chunk_size: int | None = None, *, full: bool = False
) -> pd.DataFrame:
    """One row per cell (the `--dry-run` table and `cells.parquet`).

    Columns: cell, name, variant, preset, the toggles (only those that differ
    between cells unless `full`), policies, games, seed, rules_hash and, when
    `chunk_size` is given, chunks. Tuple-valued toggles are written as their
    `--set` text so the table stays flat.
    """
    import pandas as pd

    shown = None if full else varying_toggles(cells)
    rows = []
    for cell in cells:
        row = cell_row(cell.id, cell.name, cell.preset, cell.rules, cell.policies, cell.games,
                       cell.seed, variant=cell.variant or "", toggles=shown)  # fmt: skip
        if chunk_size is not None:
            row["chunks"] = cell.chunk_count(chunk_size)
        rows.append(row)
    return pd.DataFrame(rows)


def varying_toggles(cells: Sequence[Cell]) -> list[str]:
    """Toggles whose value differs between cells, in table order."""
    return [
        name
        for name in TOGGLES
        if len({json.dumps(_jsonable(getattr(c.rules, name))) for c in cells}) > 1
    ]
