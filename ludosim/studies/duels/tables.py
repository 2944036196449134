"""A duels study's tables (`DuelsTables`): each duel's exact values, the players
measured against them, and the luck and cost of its matchups; written and read back
(`write_tables`, `read_tables`) so a page can be redrawn without solving again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ludosim.studies.duels.spec import DuelsError, DuelsStudy
from ludosim.studies.study import read_frames, write_frames

EXACT_FILE = "exact.csv"
PLAYERS_FILE = "players.csv"
LUCK_FILE = "luck.csv"
EXACT_COLUMNS = (
    "duel", "rules", "pieces", "nodes", "choices", "random_first", "optimal_first",
    "optimal_second", "w_optimal", "minimax_first", "w_clairvoyant", "w_clairvoyant_low",
    "w_clairvoyant_high", "rs", "rs_low", "rs_high", "sequences", "horizon", "residual",
    "seconds",
)  # fmt: skip
PLAYER_COLUMNS = ("duel", "player", "games", "wins", "first_wins", "truncated")
LUCK_COLUMNS = (
    "duel", "matchup", "games", "result_mean", "share_turn", "share_turn_low",
    "share_turn_high", "share_dice", "share_dice_low", "share_dice_high", "share_choices",
    "share_choices_low", "share_choices_high", "choices_0", "choices_1", "cost_0",
    "cost_0_low", "cost_0_high", "cost_1", "cost_1_low", "cost_1_high", "identity_gap",
    "fixed_point_gap",
)  # fmt: skip


@dataclass
class DuelsTables:
    """A study's tables: `exact` one row per duel (`EXACT_COLUMNS`), `players` one row per
    duel and kernel player against random play (`PLAYER_COLUMNS`; `random` is random
    against random), `luck` one row per duel and matchup walked on its graph
    (`LUCK_COLUMNS`)."""

    study: DuelsStudy
    exact: pd.DataFrame
    players: pd.DataFrame
    luck: pd.DataFrame

    def duel(self, label: str) -> pd.Series:
        return self.exact.set_index("duel").loc[label]


def write_tables(tables: DuelsTables, out: str | Path) -> Path:
    return write_frames(out, {EXACT_FILE: tables.exact, PLAYERS_FILE: tables.players,
                              LUCK_FILE: tables.luck})  # fmt: skip


def read_tables(folder: str | Path, study: DuelsStudy) -> DuelsTables:
    """The tables `write_tables` wrote into `folder` for `study` (to redraw its page)."""
    return DuelsTables(study, *read_frames(folder, (EXACT_FILE, PLAYERS_FILE, LUCK_FILE),
                                           DuelsError))  # fmt: skip
