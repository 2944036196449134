"""The shape of ludosim's results: per-game columns and dtypes, summary columns, bounds.

Everything that reads or writes results names its columns through this
module: the per-game rows of `ludosim.simulate` (docs/api.md), the one-row
frame a `Summary` becomes in a `summary_only` sweep, and the Parquet
metadata key under which a run's rules, seed and versions travel.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from ludosim.rules.model import TOGGLES, Rules
from ludosim.rules.options import toggle_row
from ludosim.rules.policies import format_policies

# Key of the JSON run description (rules, seed, policies, versions) in a Parquet file's metadata.
META_KEY = b"ludosim"

PLAYERS_MAX = int(TOGGLES["players"].high or 0)

# ------------------------------------------------------------------ bounds
# Games of one run or one sweep cell. A summary keeps sums of squares of game lengths
# in int64: 10**12 games of up to ~3 * 10**6 squared turns each stay far below 2**63.
GAMES_MAX = 10**12
# Game numbers are the int64 `game` column (and the kernel's signed game index).
GAME_MAX = 2**63 - 1
SEED_MAX = 2**64 - 1

# ------------------------------------------------------------------ per-game rows
HEAD_COLUMNS = ("game", "first", "winner", "turns", "rolls", "end_turns", "truncated")
STAT_COLUMNS = ("captures", "captured", "returned", "skipped", "caught")
# Per-seat quantities a summary sums: the counters, then points (megajogos scoring only).
SEAT_STATS = (*STAT_COLUMNS, "points")
HEAD_DTYPES: dict[str, type] = {
    "game": np.int64,
    "first": np.int8,
    "winner": np.int8,
    "turns": np.int32,
    "rolls": np.int32,
    "end_turns": np.int32,
    "truncated": np.bool_,
}

# Game-flow columns of `simulate(..., flow=True)` (docs/flow.md), after the others.
FLOW_DTYPES: dict[str, type] = {
    "lead_changes": np.int32,
    "decided_at": np.int32,
    "max_deficit": np.int16,
    "turns_last": np.int32,
    "turns_behind": np.int32,
    "drama": np.float64,
    "mid_at": np.int32,
    "last_at_mid": np.int8,
}
FLOW_COLUMNS = tuple(FLOW_DTYPES)


def has_points(rules: Rules) -> bool:
    """Whether games under `rules` end with points (`points_<s>` columns)."""
    return rules.scoring != "none"


def row_columns(players: int, points: bool) -> list[str]:
    """The per-game column names of docs/api.md for `players` seats, in order."""
    out = list(HEAD_COLUMNS)
    out += [f"place_{s}" for s in range(players)]
    for name in STAT_COLUMNS:
        out += [f"{name}_{s}" for s in range(players)]
    if points:
        out += [f"points_{s}" for s in range(players)]
    return out


def columns(rules: Rules) -> list[str]:
    """The per-game column names of docs/api.md for `rules`, in order."""
    return row_columns(rules.players, has_points(rules))


def row_dtypes(players: int, points: bool, *, wide_returned: bool = False) -> dict[str, type]:
    """Column -> NumPy dtype of the per-game rows.

    `returned_<s>` is int8 when every value of a run fits (self-inflicted
    returns are rare), else int16 (`wide_returned`); the other counters and
    points are int16, places int8.
    """
    dtypes: dict[str, type] = dict(HEAD_DTYPES)
    for column in row_columns(players, points)[len(HEAD_COLUMNS) :]:
        stat = column.rsplit("_", 1)[0]
        if stat == "place" or (stat == "returned" and not wide_returned):
            dtypes[column] = np.int8
        else:
            dtypes[column] = np.int16
    return dtypes


def row_bytes(players: int, points: bool) -> int:
    """Bytes of one per-game row in memory (narrow `returned_<s>`)."""
    return sum(np.dtype(t).itemsize for t in row_dtypes(players, points).values())


def returned_wide(values: np.ndarray) -> bool:
    """Whether `returned_<s>` values need int16 (some count does not fit int8)."""
    return bool(values.size) and int(values.max()) > np.iinfo(np.int8).max


# ------------------------------------------------------------------ summaries
MEASURES = ("turns", "rolls", "end_turns")  # per-game lengths a summary sums and squares
HIST_MEASURES = ("turns", "rolls")  # lengths a summary counts by value
COUNTS = ("games", "truncated", "no_winner")
# Columns a chunk of a summary_only sweep adds before the summary's own.
CHUNK_COLUMNS = ("cell", "start", "stop")


def seat_columns(points: bool) -> list[str]:
    """Columns of `Summary.seats`: wins, first, then `<stat>_sum`, `<stat>_sumsq`."""
    out = ["wins", "first"]
    for name in SEAT_STATS:
        if name != "points" or points:
            out += [f"{name}_sum", f"{name}_sumsq"]
    return out


def summary_columns(players: int, points: bool) -> list[str]:
    """The integer columns of a `Summary`'s one-row frame, in order (histograms follow).

    counts; `<measure>_sum`, `<measure>_sumsq`; `seat<s>_<seat column>`;
    `position<p>_wins`; `seat<s>_place<q>` (q from 1).
    """
    out = list(COUNTS)
    for name in MEASURES:
        out += [f"{name}_sum", f"{name}_sumsq"]
    for s in range(players):
        out += [f"seat{s}_{c}" for c in seat_columns(points)]
    out += [f"position{p}_wins" for p in range(players)]
    for s in range(players):
        out += [f"seat{s}_place{q}" for q in range(1, players + 1)]
    return out


def hist_columns() -> list[str]:
    """The list-valued histogram columns of a `Summary`'s one-row frame."""
    return [f"hist_{name}" for name in HIST_MEASURES]


def summary_layout(names: Iterable[str]) -> tuple[int, bool] | None:
    """(players, points) of the summary frame whose columns are exactly `names`, or None.

    `names` may include the chunk columns (cell, start, stop), which are ignored.
    """
    given = {n for n in names if n not in CHUNK_COLUMNS}
    for players in range(1, PLAYERS_MAX + 1):
        for points in (False, True):
            if given == {*summary_columns(players, points), *hist_columns()}:
                return players, points
    return None


def cell_row(
    cell: str,
    name: str,
    preset: str,
    rules: Rules,
    policies: Sequence[str],
    games: int,
    seed: int,
    *,
    variant: str = "",
    toggles: Iterable[str] | None = None,
) -> dict[str, Any]:
    """One row of a cells table (`cells.parquet`, the `--dry-run` table, a command's
    cells): cell, name, variant, preset, the toggles (`toggles`, or every one), the
    policies as one text, games, seed and the rules hash."""
    shown = set(TOGGLES if toggles is None else toggles)
    row: dict[str, Any] = {"cell": cell, "name": name, "variant": variant, "preset": preset}
    row.update({k: v for k, v in toggle_row(rules).items() if k in shown})
    row["policies"] = format_policies(policies)
    row["games"] = games
    row["seed"] = seed
    row["rules_hash"] = rules.hash()
    return row
