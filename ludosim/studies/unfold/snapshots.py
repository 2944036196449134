"""A rule set played with snapshots of the seats' totals, in slices so memory stays
flat: its lead table and the flow columns of every game (`play_cell`), and the check
of a two-seat one-piece race against the exact solver (`race_check`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet
from ludosim.studies.leads import LeadTable, RaceCheck
from ludosim.studies.unfold.spec import Progress

SLICE_GAMES = 20_000  # games per kernel call: about 40 MB of snapshots with four seats


def _slices(games: int) -> list[tuple[int, int]]:
    return [(s, min(games, s + SLICE_GAMES)) for s in range(0, games, SLICE_GAMES)]


def _play(
    rules: Rules,
    games: int,
    seed: int,
    every: int,
    policies: str,
    threads: int | None,
    progress: Progress | None,
    consume: Callable[[pd.DataFrame, np.ndarray], None],
) -> None:
    """Play `games` games in slices and hand each slice's rows and snapshots to `consume`."""
    from ludosim.run.simulate import play_snapshots

    kwargs: dict[str, Any] = {} if threads is None else {"threads": threads}
    names = [p.strip() for p in policies.split(",")]
    for start, stop in _slices(games):
        df, snaps = play_snapshots(
            rules, stop - start, seed, every, names if len(names) > 1 else names[0],
            first_game=start, **kwargs,
        )  # fmt: skip
        consume(df, snaps)
        if progress is not None:
            progress(stop, games)


_FLOW_KEEP = ("winner", "turns", "lead_changes", "decided_at", "mid_at", "last_at_mid",
              "drama", "max_deficit")  # fmt: skip


@dataclass
class CellRun:
    """One rule set's lead table and per-game flow columns."""

    rule_set: RuleSet
    rules: Rules
    every: int
    leads: LeadTable
    games: pd.DataFrame


def play_cell(
    rule_set: RuleSet,
    games: int,
    seed: int,
    every: int,
    policies: str = "random",
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> CellRun:
    """Play one rule set: its lead table (bins of 24ths of its race) and the flow columns of
    every game."""
    rules = rule_set.rules()
    leads = LeadTable(rules)
    parts: list[pd.DataFrame] = []

    def consume(df: pd.DataFrame, snaps: np.ndarray) -> None:
        leads.add(df["winner"].to_numpy(), snaps)
        parts.append(df[list(_FLOW_KEEP)].copy())

    _play(rules, games, seed, every, policies, threads, progress, consume)
    return CellRun(rule_set, rules, every, leads, pd.concat(parts, ignore_index=True))


def race_check(
    rule_set: RuleSet,
    games: int,
    seed: int,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> pd.DataFrame:
    """The exact-solver check of one two-seat one-piece rule set (snapshots every turn)."""
    rules = rule_set.rules()
    check = RaceCheck(rules, 1)

    def consume(df: pd.DataFrame, snaps: np.ndarray) -> None:
        check.add(df["first"].to_numpy(), df["winner"].to_numpy(), snaps)

    _play(rules, games, seed, 1, "random", threads, progress, consume)
    return check.table()
