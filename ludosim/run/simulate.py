"""Many games with the compiled kernel: per-game rows or a running summary.

`simulate` validates its inputs, compiles the rules to the kernel's flat
arrays (`ludosim.engine.layout`), allocates the outputs, runs the parallel
batch and packages the result as a pandas DataFrame with the per-game
columns of docs/api.md. Game `g` of a run always draws from stream
`(seed, first_game + g)`, so rows do not depend on threads or chunking.

`simulate(..., summary=True)` returns a `Summary` instead: counts, sums, sums
of squares and histograms, folded in block by block from the kernel's rows
(the same kernel call as the rows), so memory stays flat however many games
are played. What the results look like
and how they are written and read is `ludosim.results`.
"""

from __future__ import annotations

import os
import shlex
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim._version import __version__
from ludosim.reference.position import Position
from ludosim.results import schema
from ludosim.results.summary import (
    NO_TEAM_SUMMARY,
    Summary,
    summarize,
    summary_from_frame,
    summary_to_frame,
)
from ludosim.rules import checks
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import SEMANTICS_VERSION, Rules
from ludosim.rules.options import options_of
from ludosim.rules.policies import (
    Policy,
    expert_base,
    format_policies,
    parse_policy,
    resolve_policies,
)
from ludosim.run.notation import GamePosition

# Games per kernel call of a summary run: its rows (about 80 bytes a game with four
# players) are summarised and added to the running total, and their arrays reused,
# so a summary's memory does not grow with its games; large enough that summarising
# a block costs next to nothing beside playing it.
_SUMMARY_BLOCK_GAMES = 1 << 16

# Per-game rows may use at most this share of the machine's memory (the kernel's
# arrays and the DataFrame exist side by side while the frame is built).
_ROWS_MEMORY_SHARE = 0.5

# With a progress callback, the kernel is called on slices of about this many seconds
# of games, so that progress can be reported between them.
SLICE_SECONDS = 1.0
# Snapshots are taken by the ordinary game loop; the expert plays its own.
_NO_EXPERT_SNAPSHOTS = "snapshots (every) are not taken in games with an expert seat"

Progress = Callable[[int, int], None]
"""A progress callback: `progress(games_done, games_total)`, called after each slice."""


class SimulationError(LudosimError, ValueError):
    """Bad arguments to `simulate` (game count, seed, threads, start position)."""


# ------------------------------------------------------------------ inputs
def _check_int(name: str, value: Any, low: int, high: int) -> int:
    """`value` as an int in low..high (NumPy integers welcome), else one clear error."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise SimulationError(f"{name} must be an integer in {low}..{high}, got {value!r}")
    value = int(value)
    if not low <= value <= high:
        raise SimulationError(f"{name} must be an integer in {low}..{high}, got {value}")
    return value


def _check_seed(seed: Any) -> int:
    if (
        seed is None
        or isinstance(seed, (bool, np.bool_))
        or not isinstance(seed, (int, np.integer))
    ):
        raise SimulationError(f"seed must be a non-negative integer in 0..2**64-1, got {seed!r}")
    if not 0 <= int(seed) <= schema.SEED_MAX:
        raise SimulationError(f"seed must be in 0..2**64-1, got {int(seed)}")
    return int(seed)


def _memory_bytes() -> int:
    """Physical memory of this machine in bytes (0 where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0


def rows_bytes(rules: Rules, games: int) -> int:
    """Peak bytes of `games` per-game rows: the kernel's arrays plus the DataFrame."""
    # numba: the kernel is loaded only when games are played or sized.
    from ludosim.engine import (
        H,
        K,
    )

    kernel = H.SIZE * 4 + K.SIZE * 2 * rules.players  # int32 head, int16 seats
    return games * (kernel + schema.row_bytes(rules.players, schema.has_points(rules)))


def _check_rows_fit(rules: Rules, games: int) -> None:
    memory = _memory_bytes()
    need = rows_bytes(rules, games)
    if memory and need > _ROWS_MEMORY_SHARE * memory:
        raise SimulationError(
            f"games={games:,} per-game rows need about {need / 2**30:.1f} GiB, more than half "
            f"of this machine's {memory / 2**30:.1f} GiB; use summary=True (--summary) or a "
            "sweep (`ludosim sweep`), which writes the rows chunk by chunk"
        )


def _start_array(rules: Rules, start: Any) -> np.ndarray | None:
    """The start position as int64[players, pieces], validated, or None."""
    if start is None:
        return None
    # A `Position`, a parsed `GamePosition` (`ludosim.run.notation`), or plain rows.
    rows = start.progress if isinstance(start, (Position, GamePosition)) else start
    try:
        given = np.asarray(rows)
        # 1.5, inf and nan are no progress: refused, never truncated.
        if given.dtype.kind == "f" and not np.isfinite(given).all():
            raise ValueError
        if given.dtype.kind == "f" and (given % 1).any():
            raise ValueError
        array = np.asarray(rows, dtype=np.int64)
    except (TypeError, ValueError, OverflowError):
        raise SimulationError(
            f"start must be a Position or rows of progress, whole numbers, got {start!r}"
        ) from None
    if array.shape != (rules.players, rules.pieces):
        raise SimulationError(
            f"start needs {rules.players} rows of {rules.pieces} progress values, "
            f"got shape {array.shape}"
        )
    last = rules.goal + rules.tail
    bad = (array < -1) | (array > last)
    if bad.any():
        seat, piece = map(int, np.argwhere(bad)[0])
        lapping = f", {rules.goal + 1}..{last} (lapping)" if rules.tail else ""
        raise SimulationError(
            f"start: seat {seat} piece {piece} has progress {array[seat, piece]}; "
            f"allowed: -1 (yard) or 0..{rules.goal} (goal){lapping}"
        )
    return array


@dataclass(frozen=True, kw_only=True)
class _Prepared:
    """A run of `simulate` (or `play_snapshots`, `kernel_game`) validated by `_prepare`,
    with the kernel's inputs built for it."""

    """The run as asked, validated: what `df.attrs` records."""
    games: int
    first_game: int
    seed: int
    policies: tuple[str, ...]  # one canonical name per seat
    start: list[list[int]] | None  # progress per seat and piece; None: games from the opening
    start_seat: int  # the seat to move first from `start`; 0 without one

    """How the games are spread over the machine: speed only, never the rows."""
    threads: int
    chunk: int  # games per parallel task

    """The kernel's arrays: the compiled rules (`engine.layout`) and the work array
    (policies, start position, memo table, expert settings). The work array is
    shared: a caller that writes a setting into it copies it first or owns the run."""
    lay: np.ndarray
    work: np.ndarray

    """Which compiled copy of the kernel plays the games (a `run.warm.Kind`'s four
    flags; `flow` is a run-time switch): only the code a run needs is compiled."""
    roll_then_move: bool  # turns search plans (Killer's rules); the memo table caches them
    free: bool  # every roll's moves are a mask of pieces (`engine.turn.free_play`)
    scoring: bool  # some seat scores its options; False when every seat plays random
    expert: bool  # some seat is an expert: the games search its choices (`engine.expert`)

    @property
    def has_start(self) -> bool:
        """The games play on from a start position (no roll-off)."""
        return self.start is not None

    @property
    def kernel_seed(self) -> np.uint64:
        """The master seed as the kernel takes it."""
        return np.uint64(self.seed)


def _prepare(
    rules: Rules,
    games: int,
    seed: int,
    policies: str | Sequence[str],
    start: Any,
    start_seat: int | None,
    threads: int | None,
    chunk_size: int | None,
    first_game: int,
) -> _Prepared:
    """Validate every argument and build the kernel inputs."""
    # numba: the kernel is loaded only when games are played or sized.
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.state import MEMO_SLOTS
    from ludosim.engine.turn import free_play

    if not isinstance(rules, Rules):
        raise SimulationError(f"rules must be a ludosim.Rules, got {type(rules).__name__}")
    games = _check_int("games", games, 1, schema.GAMES_MAX)
    first_game = _check_int("first_game", first_game, 0, schema.GAME_MAX)
    if first_game + games - 1 > schema.GAME_MAX:
        raise SimulationError(
            f"first_game + games - 1 = {first_game + games - 1} is past the last game number "
            f"{schema.GAME_MAX} (2**63-1); start earlier or play fewer games"
        )
    seed = _check_seed(seed)
    names = resolve_policies(policies, rules.players, teams=rules.teams)
    start_rows = _start_array(rules, start)
    if start_seat is None:
        start_seat = start.to_move if isinstance(start, GamePosition) else 0
    start_seat = _check_int("start_seat", start_seat, 0, rules.players - 1)
    import numba

    max_threads = numba.config.NUMBA_NUM_THREADS
    threads = max_threads if threads is None else _check_int("threads", threads, 1, max_threads)
    if chunk_size is None:
        # Enough chunks to balance the threads, few enough to keep overhead small.
        chunk_size = max(1, min(2048, -(-games // (8 * threads))))
    chunk_size = _check_int("chunk_size", chunk_size, 1, schema.GAMES_MAX)
    # Only roll_then_move turns search plans; the memo table is their cache.
    memo_slots = MEMO_SLOTS if rules.roll_then_move else 0
    parsed, experts = _seat_policies(rules, names)
    lay = compile_layout(rules)
    return _Prepared(
        games=games,
        first_game=first_game,
        seed=seed,
        policies=names,
        start=None if start_rows is None else start_rows.tolist(),
        start_seat=start_seat if start_rows is not None else 0,
        threads=threads,
        chunk=chunk_size,
        lay=lay,
        work=new_work(compile_policies(parsed), start_rows, memo_slots, experts),
        roll_then_move=rules.roll_then_move,
        free=not rules.roll_then_move and bool(free_play(lay)),
        scoring=not all(parse_policy(name).is_random for name in names),
        expert=any(rollouts for rollouts, *_ in experts),
    )


def _seat_policies(
    rules: Rules, names: Sequence[str]
) -> tuple[list[Policy], tuple[tuple[int, int, int], ...]]:
    """Each seat's policy for the kernel and its expert settings (rollouts, horizon,
    1 for the fictive player).

    An expert seat (the fictive player too) plays its base policy (`expert_base`)
    wherever it does not search: in one-option decisions and in its rollouts.
    """
    parsed = [parse_policy(n) for n in names]
    experts = tuple((p.rollouts, p.horizon, int(p.fictive)) for p in parsed)
    if any(p.is_expert for p in parsed):
        # `resolve_policies` has refused them under teams (`refuse_search_under_teams`).
        base = expert_base(rules)
        parsed = [base if p.is_expert else p for p in parsed]
    return parsed, experts


def _attrs(rules: Rules, prep: _Prepared) -> dict[str, Any]:
    return {
        "rules": rules.to_dict(),
        "rules_hash": rules.hash(),
        "seed": prep.seed,
        "first_game": prep.first_game,
        "games": prep.games,
        "policies": list(prep.policies),
        "start": prep.start,
        "start_seat": prep.start_seat if prep.has_start else None,
        "ludosim_version": __version__,
        "semantics_version": SEMANTICS_VERSION,
    }


def simulate_command(attrs: Mapping[str, Any], out: str | Path) -> str | None:
    """The `ludosim simulate` command line that plays the run `attrs` describes (the
    `df.attrs` of `simulate`, kept in a file's metadata) and writes it to `out`.

    The rules are spelled as their nearest preset and its changes (`options_of`),
    so the line rebuilds rules of the same hash. None when the command line cannot
    say the run: it started from a position or at a game other than 0, or its rules
    or policies do not read back.
    """
    if attrs.get("start") is not None or int(attrs.get("first_game") or 0) != 0:
        return None
    try:
        rules = Rules.from_dict(attrs["rules"])
        games, seed = int(attrs["games"]), int(attrs["seed"])
        names = resolve_policies(attrs.get("policies") or "random", rules.players)
    except (LudosimError, KeyError, TypeError, ValueError):
        return None
    chosen, policies = options_of(rules), format_policies(names)
    words = ["ludosim", "simulate", "--preset", chosen.preset]
    for item in chosen.sets:
        words += ["--set", item]
    if policies != "random":
        words += ["--policy", policies]
    words += ["--games", str(games), "--seed", str(seed), "--out", str(out)]
    return " ".join(shlex.quote(w) for w in words)


# ------------------------------------------------------------------ per-game rows
def _flow_columns(flows: np.ndarray) -> dict[str, np.ndarray]:
    """The game-flow columns of the kernel's `flows` rows (`state.F.*` order, docs/flow.md)."""
    # numba: the kernel is loaded only when games are played or sized.
    from ludosim.engine import state

    slots = {
        "lead_changes": state.F.LEAD_CHANGES,
        "decided_at": state.F.DECIDED_AT,
        "max_deficit": state.F.MAX_DEFICIT,
        "turns_last": state.F.TURNS_LAST,
        "turns_behind": state.F.TURNS_BEHIND,
        "mid_at": state.F.MID_AT,
        "last_at_mid": state.F.LAST_AT_MID,
    }
    data = {
        name: np.ascontiguousarray(flows[:, slots[name]]).astype(schema.FLOW_DTYPES[name])
        for name in schema.FLOW_COLUMNS
        if name != "drama"
    }
    F = state.F
    behind = flows[:, F.TURNS_BEHIND].astype(np.float64)
    behind_sum = flows[:, F.BEHIND_SUM].astype(np.float64)
    # Drama: the winner's mean deficit while another seat led; 0 if it never trailed,
    # -1 when no seat finished (as every other winner's measure).
    drama = np.divide(behind_sum, behind, out=np.zeros(len(flows)), where=behind > 0)
    data["drama"] = np.where(flows[:, F.TURNS_BEHIND] < 0, -1.0, drama)
    return {name: data[name] for name in schema.FLOW_COLUMNS}


def _frame(
    rules: Rules,
    first_game: int,
    head: np.ndarray,
    seats: np.ndarray,
    flows: np.ndarray | None = None,
) -> pd.DataFrame:
    """Package the kernel's output arrays as the per-game DataFrame (`results.schema` dtypes).

    `returned_<s>` is int8 when every value of the run fits, else int16: self-inflicted
    returns are rare (at most 14 in 200,000 Killer games), and the byte saved per
    seat keeps a 4-player row at 63 bytes. `ludosim.load` widens mixed files to int16.
    """
    n = rules.players
    returned = seats[:, 1 + schema.STAT_COLUMNS.index("returned")]
    dtypes = schema.row_dtypes(
        n, schema.has_points(rules), wide_returned=schema.returned_wide(returned)
    )
    games = head.shape[0]
    data: dict[str, np.ndarray] = {
        "game": np.arange(first_game, first_game + games, dtype=dtypes["game"])
    }
    for j, name in enumerate(schema.HEAD_COLUMNS[1:]):
        data[name] = np.ascontiguousarray(head[:, j]).astype(dtypes[name], copy=False)
    for s in range(n):
        data[f"place_{s}"] = seats[:, 0, s].astype(dtypes[f"place_{s}"])
    for k, name in enumerate(schema.STAT_COLUMNS, start=1):
        for s in range(n):
            data[f"{name}_{s}"] = seats[:, k, s].astype(dtypes[f"{name}_{s}"])
    if schema.has_points(rules):
        for s in range(n):
            data[f"points_{s}"] = np.ascontiguousarray(seats[:, 6, s])
    if flows is not None:
        data.update(_flow_columns(flows))
    return pd.DataFrame(data, copy=False)


# ------------------------------------------------------------------ summary
def _run_summary(rules: Rules, prep: _Prepared, progress: Progress | None) -> Summary:
    """Play the run in blocks of `_SUMMARY_BLOCK_GAMES` rows, each summarised
    (`results.summarize`) and added to the running total (`results.summary_from_frame`).

    The rows of every block go to the same arrays, allocated once, and the total
    is one summary row: the peak memory does not grow with the games.
    """
    block = min(prep.games, _SUMMARY_BLOCK_GAMES)
    head, seats, flows, snaps = _row_arrays(rules, block, False, 0)
    total: pd.DataFrame | None = None
    for start, stop in _slices(prep, progress):
        for first in range(start, stop, block):
            size = min(block, stop - first)
            _kernel_rows(prep, prep.work, first, head[:size], seats[:size], flows, snaps, False)
            rows = summary_to_frame(
                summarize(rules, _frame(rules, first, head[:size], seats[:size]))
            )
            added = rows if total is None else pd.concat([total, rows], ignore_index=True)
            total = summary_to_frame(summary_from_frame(added))
    return summary_from_frame(total)


# ------------------------------------------------------------------ the entry point
def simulate(
    rules: Rules,
    games: int,
    seed: int,
    policies: str | Sequence[str] = "random",
    *,
    summary: bool = False,
    start: Any = None,
    start_seat: int | None = None,
    threads: int | None = None,
    chunk_size: int | None = None,
    first_game: int = 0,
    progress: Progress | None = None,
    flow: bool = False,
) -> pd.DataFrame | Summary:
    """Play `games` games with the compiled kernel; one row per game (docs/api.md columns).

    `policies` is one policy name for every seat or one per seat. `start` (a
    `ludosim.run.notation.GamePosition`, a `ludosim.reference.Position` or rows of
    progress, one per seat) plays every game on from that position, seat
    `start_seat` moving first, with no roll-off; `start_seat=None` is the
    `GamePosition`'s seat to move, else seat 0. `threads` (default: all) and
    `chunk_size` (games per parallel task) change speed only, never the rows.
    `first_game` offsets the game indices, so runs can be split and concatenated.
    With `summary=True` a `Summary` of aggregates is returned instead of the rows.
    `progress`, if given, is called as `progress(games_done, games)` at the start
    and while the games are played: the kernel then runs on slices of about
    `SLICE_SECONDS` of games each, which gives the same rows (game g depends only on
    the seed and g).

    With `flow=True` the rows also hold the game-flow columns of docs/flow.md
    (lead changes, when the game was decided, the winner's deficits); the
    kernel counts them only then, so a run without them pays nothing.

    `df.attrs` records the rules (dict and hash), seed, policies, start,
    ludosim version and `SEMANTICS_VERSION`.
    """
    import numba

    flow = checks.flag("flow", flow, error=SimulationError)
    summary = checks.flag("summary", summary, error=SimulationError)
    if flow and summary:
        raise SimulationError(
            "flow=True counts game-flow columns into per-game rows; summary=True keeps none"
        )

    if summary and isinstance(rules, Rules) and rules.teams:
        raise SimulationError(f"summary/teams: {NO_TEAM_SUMMARY}")
    prep = _prepare(
        rules, games, seed, policies, start, start_seat, threads, chunk_size, first_game
    )
    if not summary:
        _check_rows_fit(rules, prep.games)
    previous = numba.get_num_threads()
    numba.set_num_threads(prep.threads)
    try:
        if summary:
            result = _run_summary(rules, prep, progress)
            result.attrs = _attrs(rules, prep)
            return result
        head, seats, flows, _ = _play_rows(rules, prep, progress, bool(flow), 0)
    finally:
        numba.set_num_threads(previous)
    df = _frame(rules, prep.first_game, head, seats, flows if flow else None)
    df.attrs.update(_attrs(rules, prep))
    return df


def _play_rows(
    rules: Rules, prep: _Prepared, progress: Progress | None, flow: bool, every: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The kernel's per-game arrays of a prepared run: head, seats, flows and snapshots.

    `flows` has rows only with `flow`; `snaps` (int16[games, SNAP_CAP, players],
    -1 after each game's last) only when `every` > 0, which needs `flow`.
    """
    # numba: the kernel is loaded only when games are played or sized.
    from ludosim.engine.state import (
        FL,
        flow_at,
    )

    head, seats, flows, snaps = _row_arrays(rules, prep.games, flow, every)
    if every and prep.expert:
        raise SimulationError(_NO_EXPERT_SNAPSHOTS)
    work = prep.work.copy()
    work[flow_at(FL.EVERY)] = every
    for start, stop in _slices(prep, progress):
        # Row slices of C-ordered arrays are C-contiguous views: the kernel fills
        # rows start..stop-1 in place, with the same compiled signature.
        _kernel_rows(
            prep,
            work,
            start,
            head[start:stop],
            seats[start:stop],
            flows[start:stop] if flow else flows,
            snaps[start:stop] if every else snaps,
            flow,
        )
    return head, seats, flows, snaps


def _row_arrays(
    rules: Rules, games: int, flow: bool, every: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Zeroed kernel outputs for `games` games: head, seats, and flows and snapshots
    with rows only with `flow` and with `every` > 0."""
    from ludosim.engine.state import (
        SNAP_CAP,
        F,
        H,
        K,
    )

    head = np.zeros((games, H.SIZE), dtype=np.int32)
    seats = np.zeros((games, K.SIZE, rules.players), dtype=np.int16)
    flows = np.zeros((games if flow else 0, F.SIZE), dtype=np.int32)
    snaps = np.zeros((games if every else 0, SNAP_CAP, rules.players), dtype=np.int16)
    return head, seats, flows, snaps


def _kernel_rows(
    prep: _Prepared,
    work: np.ndarray,
    start: int,
    head: np.ndarray,
    seats: np.ndarray,
    flows: np.ndarray,
    snaps: np.ndarray,
    flow: bool,
) -> None:
    """Games `start` .. `start + len(head) - 1` of a prepared run into the kernel's rows."""
    from ludosim.engine import run_batch

    run_batch(
        prep.lay,
        work,
        prep.kernel_seed,
        prep.first_game + start,
        prep.chunk,
        prep.has_start,
        prep.start_seat,
        head,
        seats,
        flows,
        snaps,
        bool(prep.roll_then_move),
        prep.free,
        prep.scoring,
        flow,
        prep.expert,
    )


def play_snapshots(
    rules: Rules,
    games: int,
    seed: int,
    every: int,
    policies: str | Sequence[str] = "random",
    *,
    start: Any = None,
    start_seat: int | None = None,
    threads: int | None = None,
    first_game: int = 0,
    progress: Progress | None = None,
) -> tuple[pd.DataFrame, np.ndarray]:
    """The games of `simulate(..., flow=True)` and the seats' totals every `every` turns.

    Returns the per-game rows (with the game-flow columns) and `snaps`,
    int16[games, SNAP_CAP, players]: row `k` of game `g` holds every seat's
    total (docs/flow.md) at boundary `(k + 1) * every`, -1 after the game's
    last snapshot (a game keeps its first `SNAP_CAP`). Same games and rows
    as `simulate` with the same arguments.
    """
    import numba

    from ludosim.engine.state import SNAP_CAP

    if isinstance(every, bool) or not isinstance(every, (int, np.integer)) or every < 1:
        raise SimulationError(f"every must be a whole number of turns >= 1, got {every!r}")
    prep = _prepare(rules, games, seed, policies, start, start_seat, threads, None, first_game)
    _check_rows_fit(rules, prep.games)
    previous = numba.get_num_threads()
    numba.set_num_threads(prep.threads)
    try:
        head, seats, flows, snaps = _play_rows(rules, prep, progress, True, int(every))
    finally:
        numba.set_num_threads(previous)
    df = _frame(rules, prep.first_game, head, seats, flows)
    df.attrs.update(_attrs(rules, prep))
    df.attrs["snapshot_every"] = int(every)
    df.attrs["snapshot_cap"] = SNAP_CAP
    return df, snaps


def _slices(prep: _Prepared, progress: Progress | None) -> Iterator[tuple[int, int]]:
    """Game ranges [start, stop) to play in turn; one range when nobody watches progress.

    Each slice after the first is sized from the speed of the one before (about
    `SLICE_SECONDS` of games, at least one chunk per thread); `progress` is
    called at the start and after each slice.
    """
    games = prep.games
    if progress is None:
        yield 0, games
        return
    smallest = prep.chunk * prep.threads
    size = smallest
    start = 0
    progress(0, games)
    while start < games:
        stop = min(games, start + size)
        began = time.perf_counter()
        yield start, stop
        seconds = time.perf_counter() - began
        progress(stop, games)
        rate = (stop - start) / max(seconds, 1e-6)
        size = max(smallest, int(rate * SLICE_SECONDS))
        start = stop


def kernel_game(
    rules: Rules,
    seed: int,
    game: int = 0,
    policies: str | Sequence[str] = "random",
    *,
    start: Any = None,
    start_seat: int | None = None,
    flow: bool = False,
    every: int = 0,
) -> tuple[dict[str, Any], list[list[int]]]:
    """One game with the compiled kernel: (its per-game row as a dict, final progress).

    The kernel's counterpart of `ludosim.reference.play_game(...)` `.row()` and
    `.final`, for the differential tests; with `flow` the row has the game-flow
    columns too (counted only then, as by `simulate`); with `every` > 0 it
    also has `snapshots`, the seats' totals every `every` turns (as
    `play_snapshots`), a list of tuples.
    """
    row, final, _ = kernel_game_choices(
        rules, seed, game, policies, start=start, start_seat=start_seat, flow=flow, every=every
    )
    return row, final


def kernel_game_choices(
    rules: Rules,
    seed: int,
    game: int = 0,
    policies: str | Sequence[str] = "random",
    *,
    start: Any = None,
    start_seat: int | None = None,
    flow: bool = False,
    every: int = 0,
) -> tuple[dict[str, Any], list[list[int]], list[tuple[int, int]]]:
    """`kernel_game`, and the expert seats' searched choices in the order they were made:
    (options offered, option chosen) for each decision with two or more options
    (empty without an expert seat). `ludosim.run.replay.replay` plays them in the reference."""
    # numba: the kernel is loaded only when games are played or sized.
    from ludosim.engine import (
        H,
        K,
        play_one,
    )
    from ludosim.engine.state import (
        FL,
        MAX_RECORD,
        RECORD_SHIFT,
        SNAP_CAP,
        F,
        flow_at,
    )

    prep = _prepare(rules, 1, seed, policies, start, start_seat, None, None, game)
    if every and prep.expert:
        raise SimulationError(_NO_EXPERT_SNAPSHOTS)
    prep.work[flow_at(FL.EVERY)] = every  # this run's own work array
    n = rules.players
    head = np.zeros(H.SIZE, dtype=np.int64)
    seats = np.zeros((K.SIZE, n), dtype=np.int64)
    final = np.zeros((n, rules.pieces), dtype=np.int64)
    flows = np.zeros(F.SIZE, dtype=np.int64)
    snaps = np.zeros((SNAP_CAP, n), dtype=np.int64)
    args = (prep.lay, prep.work, prep.kernel_seed, game, prep.has_start, prep.start_seat)
    record = np.zeros(MAX_RECORD if prep.expert else 0, dtype=np.int64)
    made = play_one(
        *args,
        head,
        seats,
        final,
        flows,
        snaps,
        record,
        rules.roll_then_move,
        prep.free,
        prep.scoring,
        bool(flow or every),
        prep.expert,
    )
    if made > MAX_RECORD:
        raise SimulationError(
            f"game {game} has {made} searched choices; only {MAX_RECORD} are recorded"
        )
    mask = (1 << RECORD_SHIFT) - 1
    choices = [(int(v) >> RECORD_SHIFT, int(v) & mask) for v in record[:made]]
    df = _frame(
        rules,
        game,
        head[None, :].astype(np.int32),
        seats[None].astype(np.int16),
        flows[None, :] if flow or every else None,
    )
    row = {k: v.item() for k, v in df.iloc[0].items()}
    if every:
        row["snapshots"] = [tuple(int(t) for t in snap) for snap in snaps if snap[0] >= 0]
    return row, final.tolist(), choices
