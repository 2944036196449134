"""Many games with the compiled kernel: per-game rows or a running summary, Parquet in and out.

`simulate` validates its inputs, compiles the rules to the kernel's flat
arrays (`ludosim.engine.layout`), allocates the outputs, runs the parallel
batch and packages the result as a pandas DataFrame with the per-game
columns of docs/api.md. Game `g` of a run always draws from stream
`(seed, first_game + g)`, so rows do not depend on threads or chunking.

`simulate(..., summary=True)` returns a `Summary` instead: counts, sums, sums
of squares and histograms accumulated inside the kernel, chunk by chunk, so
memory stays flat however many games are played.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.errors import LudosimError
from ludosim.policies import parse_policy, resolve_policies
from ludosim.rng import normalise_seed
from ludosim.rules import SEMANTICS_VERSION, Rules

STAT_COLUMNS = ("captures", "captured", "returned", "skipped", "caught")

# Games per call of the summary kernel (bounds the per-chunk accumulators in memory).
_SUMMARY_BLOCK_CHUNKS = 64

# With a progress callback, the kernel is called on slices of about this many seconds
# of games, so that progress can be reported between them.
SLICE_SECONDS = 1.0

Progress = Callable[[int, int], None]
"""A progress callback: `progress(games_done, games_total)`, called after each slice."""


class SimulationError(LudosimError, ValueError):
    """Bad arguments to `simulate` (game count, seed, threads, start position)."""


# ------------------------------------------------------------------ inputs
def _check_int(name: str, value: Any, low: int) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < low:
        raise SimulationError(f"{name} must be an integer >= {low}, got {value!r}")
    return int(value)


def _start_array(rules: Rules, start: Any) -> np.ndarray | None:
    """The start position as int64[players, pieces], validated, or None."""
    if start is None:
        return None
    from ludosim.reference.position import Position

    rows = start.progress if isinstance(start, Position) else start
    try:
        array = np.asarray(rows, dtype=np.int64)
    except (TypeError, ValueError):
        raise SimulationError(
            f"start must be a Position or rows of progress, got {start!r}"
        ) from None
    if array.shape != (rules.players, rules.pieces):
        raise SimulationError(
            f"start needs {rules.players} rows of {rules.pieces} progress values, "
            f"got shape {array.shape}"
        )
    bad = (array < -1) | (array > rules.goal)
    if bad.any():
        seat, piece = map(int, np.argwhere(bad)[0])
        raise SimulationError(
            f"start: seat {seat} piece {piece} has progress {array[seat, piece]}; "
            f"allowed: -1 (yard) or 0..{rules.goal} (goal)"
        )
    return array


def _prepare(
    rules: Rules,
    games: int,
    seed: int,
    policies: str | Sequence[str],
    start: Any,
    start_seat: int,
    threads: int | None,
    chunk_size: int | None,
    first_game: int,
) -> dict[str, Any]:
    """Validate every argument and build the kernel inputs."""
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.state import MEMO_SLOTS
    from ludosim.engine.turn import free_play

    if not isinstance(rules, Rules):
        raise SimulationError(f"rules must be a ludosim.Rules, got {type(rules).__name__}")
    games = _check_int("games", games, 1)
    first_game = _check_int("first_game", first_game, 0)
    try:
        seed = normalise_seed(seed)
    except ValueError as exc:
        raise SimulationError(str(exc)) from None
    names = resolve_policies(policies, rules.players)
    start_rows = _start_array(rules, start)
    start_seat = _check_int("start_seat", start_seat, 0)
    if start_seat >= rules.players:
        raise SimulationError(f"start_seat must be a seat 0..{rules.players - 1}, got {start_seat}")
    import numba

    max_threads = numba.config.NUMBA_NUM_THREADS
    threads = max_threads if threads is None else _check_int("threads", threads, 1)
    if threads > max_threads:
        raise SimulationError(
            f"threads must be at most {max_threads} on this machine, got {threads}"
        )
    if chunk_size is None:
        # Enough chunks to balance the threads, few enough to keep overhead small.
        chunk_size = max(1, min(2048, -(-games // (8 * threads))))
    chunk_size = _check_int("chunk_size", chunk_size, 1)
    # Only roll_then_move turns search plans; the memo table is their cache.
    memo_slots = MEMO_SLOTS if rules.roll_then_move else 0
    lay = compile_layout(rules)
    return {
        "lay": lay,
        # Which turn loop the games play, so that only that one is compiled.
        "free": not rules.roll_then_move and bool(free_play(lay)),
        "work": new_work(compile_policies(names), start_rows, memo_slots),
        "seed": np.uint64(seed),
        "seed_int": seed,
        "games": games,
        "first_game": first_game,
        "has_start": start_rows is not None,
        "start_seat": start_seat if start_rows is not None else 0,
        "threads": threads,
        "chunk": chunk_size,
        "policies": names,
        # False when every seat plays random: the kernel then compiles no scoring code.
        "scoring": not all(parse_policy(name).is_random for name in names),
        "start": None if start_rows is None else start_rows.tolist(),
    }


def _attrs(rules: Rules, prep: dict[str, Any]) -> dict[str, Any]:
    import ludosim

    return {
        "rules": rules.to_dict(),
        "rules_hash": rules.hash(),
        "seed": prep["seed_int"],
        "first_game": prep["first_game"],
        "games": prep["games"],
        "policies": list(prep["policies"]),
        "start": prep["start"],
        "start_seat": prep["start_seat"] if prep["has_start"] else None,
        "ludosim_version": ludosim.__version__,
        "semantics_version": SEMANTICS_VERSION,
    }


# ------------------------------------------------------------------ per-game rows
def columns(rules: Rules) -> list[str]:
    """The per-game column names of docs/api.md for `rules`, in order."""
    n = rules.players
    out = ["game", "first", "winner", "turns", "rolls", "end_turns", "truncated"]
    out += [f"place_{s}" for s in range(n)]
    for name in STAT_COLUMNS:
        out += [f"{name}_{s}" for s in range(n)]
    if rules.scoring == "megajogos":
        out += [f"points_{s}" for s in range(n)]
    return out


def _returned_dtype(returned: np.ndarray) -> type:
    """int8 for `returned_<s>` when every value fits, else int16 (docs/api.md).

    Self-inflicted returns are rare (at most 14 in 200,000 Killer games), and
    the byte saved per seat keeps a 4-player row at 63 bytes. The choice is
    per run; `ludosim.load` widens mixed files to int16.
    """
    return np.int8 if returned.size == 0 or returned.max() <= np.iinfo(np.int8).max else np.int16


def _frame(rules: Rules, first_game: int, head: np.ndarray, seats: np.ndarray) -> pd.DataFrame:
    """Package the kernel's output arrays as the per-game DataFrame (compact dtypes)."""
    n = rules.players
    games = head.shape[0]
    data: dict[str, np.ndarray] = {
        "game": np.arange(first_game, first_game + games, dtype=np.int64),
        "first": head[:, 0].astype(np.int8),
        "winner": head[:, 1].astype(np.int8),
        "turns": np.ascontiguousarray(head[:, 2]),
        "rolls": np.ascontiguousarray(head[:, 3]),
        "end_turns": np.ascontiguousarray(head[:, 4]),
        "truncated": head[:, 5].astype(bool),
    }
    for s in range(n):
        data[f"place_{s}"] = seats[:, 0, s].astype(np.int8)
    for k, name in enumerate(STAT_COLUMNS, start=1):
        dtype = _returned_dtype(seats[:, k]) if name == "returned" else np.int16
        for s in range(n):
            data[f"{name}_{s}"] = seats[:, k, s].astype(dtype)
    if rules.scoring == "megajogos":
        for s in range(n):
            data[f"points_{s}"] = np.ascontiguousarray(seats[:, 6, s])
    return pd.DataFrame(data, copy=False)


# ------------------------------------------------------------------ summary
@dataclass
class Summary:
    """Aggregates of a run, accumulated in the kernel (memory flat in games).

    - `games`, `truncated`, `no_winner`: counts.
    - `sums` / `sums_sq`: totals and totals of squares of `turns`, `rolls`, `end_turns`.
    - `seats`: DataFrame indexed by seat with `wins`, `first` (games it started),
      and for each of captures, captured, returned, skipped, caught (and points
      under megajogos scoring) the columns `<name>_sum` and `<name>_sumsq`.
    - `wins_by_position`: wins by turn-order position `(winner - first) mod n`.
    - `places`: counts, rows seat, columns place 1..n.
    - `hist`: DataFrame with columns `turns`, `rolls`: games per value
      (index 0 .. HIST_BINS - 1; the last bin counts that value and above).
    - `attrs`: rules, seed, policies and versions, as `DataFrame.attrs` of `simulate`.
    """

    games: int
    truncated: int
    no_winner: int
    sums: dict[str, int]
    sums_sq: dict[str, int]
    seats: pd.DataFrame
    wins_by_position: pd.Series
    places: pd.DataFrame
    hist: pd.DataFrame
    attrs: dict[str, Any] = field(default_factory=dict)

    def mean(self, name: str) -> float:
        """Mean of `turns`, `rolls` or `end_turns`."""
        return self.sums[name] / self.games

    def std(self, name: str) -> float:
        """Sample standard deviation of `turns`, `rolls` or `end_turns`."""
        n = self.games
        if n < 2:
            return float("nan")
        var = (self.sums_sq[name] - self.sums[name] ** 2 / n) / (n - 1)
        return float(np.sqrt(max(var, 0.0)))

    def frames(self) -> dict[str, pd.DataFrame]:
        """The summary as a dict of small DataFrames (for reports and CSV)."""
        overall = pd.DataFrame(
            {
                "sum": [self.sums[k] for k in ("turns", "rolls", "end_turns")],
                "sum_sq": [self.sums_sq[k] for k in ("turns", "rolls", "end_turns")],
                "mean": [self.mean(k) for k in ("turns", "rolls", "end_turns")],
                "std": [self.std(k) for k in ("turns", "rolls", "end_turns")],
            },
            index=pd.Index(["turns", "rolls", "end_turns"], name="column"),
        )
        counts = pd.Series(
            {"games": self.games, "truncated": self.truncated, "no_winner": self.no_winner}
        ).to_frame("count")
        return {
            "counts": counts,
            "overall": overall,
            "seats": self.seats,
            "wins_by_position": self.wins_by_position.to_frame("wins"),
            "places": self.places,
            "hist": self.hist,
        }


_SEAT_STATS = (*STAT_COLUMNS, "points")


def _summary_from_arrays(
    rules: Rules, totals: np.ndarray, per_seat: np.ndarray, places: np.ndarray, hist: np.ndarray
) -> Summary:
    from ludosim.engine.batch import (
        A_END_TURNS,
        A_GAMES,
        A_NO_WINNER,
        A_ROLLS,
        A_TRUNCATED,
        A_TURNS,
        P_FIRST,
        P_STATS,
        P_WINS,
        P_WINS_BY_POSITION,
    )

    n = rules.players
    seat_index = pd.Index(range(n), name="seat")
    seats = pd.DataFrame(
        {"wins": per_seat[P_WINS, :n], "first": per_seat[P_FIRST, :n]}, index=seat_index
    )
    for k, name in enumerate(_SEAT_STATS):
        if name == "points" and rules.scoring != "megajogos":
            continue  # points are a result only under megajogos scoring
        seats[f"{name}_sum"] = per_seat[P_STATS + 2 * k, :n]
        seats[f"{name}_sumsq"] = per_seat[P_STATS + 2 * k + 1, :n]
    slots = {"turns": A_TURNS, "rolls": A_ROLLS, "end_turns": A_END_TURNS}
    return Summary(
        games=int(totals[A_GAMES]),
        truncated=int(totals[A_TRUNCATED]),
        no_winner=int(totals[A_NO_WINNER]),
        sums={k: int(totals[v]) for k, v in slots.items()},
        sums_sq={k: int(totals[v + 1]) for k, v in slots.items()},
        seats=seats,
        wins_by_position=pd.Series(
            per_seat[P_WINS_BY_POSITION, :n], index=pd.Index(range(n), name="position")
        ),
        places=pd.DataFrame(
            places[:n, :n],
            index=seat_index,
            columns=pd.Index(range(1, n + 1), name="place"),
        ),
        hist=pd.DataFrame({"turns": hist[0], "rolls": hist[1]}).rename_axis("value"),
    )


def summarize(rules: Rules, df: pd.DataFrame) -> Summary:
    """The `Summary` of a per-game DataFrame (what `summary=True` accumulates in the kernel)."""
    from ludosim.engine import HIST_BINS
    from ludosim.engine.batch import A_SIZE, P_SIZE

    n = rules.players
    totals = np.zeros(A_SIZE, dtype=np.int64)
    per_seat = np.zeros((P_SIZE, n), dtype=np.int64)
    places = np.zeros((n, n), dtype=np.int64)
    hist = np.zeros((2, HIST_BINS), dtype=np.int64)
    from ludosim.engine.batch import (
        A_GAMES,
        A_NO_WINNER,
        A_TRUNCATED,
        A_TURNS,
        P_FIRST,
        P_STATS,
        P_WINS,
        P_WINS_BY_POSITION,
    )

    totals[A_GAMES] = len(df)
    totals[A_TRUNCATED] = int(df["truncated"].sum())
    totals[A_NO_WINNER] = int((df["winner"] < 0).sum())
    for k, name in enumerate(("turns", "rolls", "end_turns")):
        values = df[name].to_numpy(np.int64)
        totals[A_TURNS + 2 * k] = values.sum()
        totals[A_TURNS + 2 * k + 1] = (values * values).sum()
    for k, name in enumerate(("turns", "rolls")):
        values = np.minimum(df[name].to_numpy(np.int64), HIST_BINS - 1)
        hist[k] = np.bincount(values, minlength=HIST_BINS)
    first = df["first"].to_numpy(np.int64)
    winner = df["winner"].to_numpy(np.int64)
    per_seat[P_FIRST] = np.bincount(first, minlength=n)
    won = winner >= 0
    per_seat[P_WINS] = np.bincount(winner[won], minlength=n)
    per_seat[P_WINS_BY_POSITION] = np.bincount((winner[won] - first[won]) % n, minlength=n)
    for s in range(n):
        places[s] = np.bincount(df[f"place_{s}"].to_numpy(np.int64) - 1, minlength=n)
        for k, name in enumerate(_SEAT_STATS):
            column = f"{name}_{s}"
            if column not in df:
                continue  # points without megajogos scoring
            values = df[column].to_numpy(np.int64)
            per_seat[P_STATS + 2 * k, s] = values.sum()
            per_seat[P_STATS + 2 * k + 1, s] = (values * values).sum()
    summary = _summary_from_arrays(rules, totals, per_seat, places, hist)
    summary.attrs = dict(df.attrs)
    return summary


def _run_summary(rules: Rules, prep: dict[str, Any], progress: Progress | None) -> Summary:
    from ludosim.engine import HIST_BINS, run_summary
    from ludosim.engine.batch import A_SIZE, P_SIZE

    n = rules.players
    chunk = prep["chunk"]
    totals = np.zeros(A_SIZE, dtype=np.int64)
    per_seat = np.zeros((P_SIZE, n), dtype=np.int64)
    places = np.zeros((n, n), dtype=np.int64)
    hist = np.zeros((2, HIST_BINS), dtype=np.int64)
    block = chunk * _SUMMARY_BLOCK_CHUNKS
    done = 0
    if progress is not None:
        progress(0, prep["games"])
    while done < prep["games"]:
        games = min(block, prep["games"] - done)
        chunks = -(-games // chunk)
        t = np.zeros((chunks, A_SIZE), dtype=np.int64)
        p = np.zeros((chunks, P_SIZE, n), dtype=np.int64)
        pl = np.zeros((chunks, n, n), dtype=np.int64)
        h = np.zeros((chunks, 2, HIST_BINS), dtype=np.int64)
        run_summary(
            prep["lay"],
            prep["work"],
            prep["seed"],
            prep["first_game"] + done,
            games,
            chunk,
            prep["has_start"],
            prep["start_seat"],
            t,
            p,
            pl,
            h,
            rules.roll_then_move,
            prep["free"],
            prep["scoring"],
        )
        totals += t.sum(axis=0)
        per_seat += p.sum(axis=0)
        places += pl.sum(axis=0)
        hist += h.sum(axis=0)
        done += games
        if progress is not None:
            progress(done, prep["games"])
    return _summary_from_arrays(rules, totals, per_seat, places, hist)


# ------------------------------------------------------------------ the entry point
def simulate(
    rules: Rules,
    games: int,
    seed: int,
    policies: str | Sequence[str] = "random",
    *,
    summary: bool = False,
    start: Any = None,
    start_seat: int = 0,
    threads: int | None = None,
    chunk_size: int | None = None,
    first_game: int = 0,
    progress: Progress | None = None,
) -> pd.DataFrame | Summary:
    """Play `games` games with the compiled kernel; one row per game (docs/api.md columns).

    `policies` is one policy name for every seat or one per seat. `start` (a
    `ludosim.reference.Position` or rows of progress, one per seat) plays
    every game on from that position, seat `start_seat` moving first, with no
    roll-off. `threads` (default: all) and `chunk_size` (games per parallel
    task) change speed only, never the rows. `first_game` offsets the game
    indices, so runs can be split and concatenated. With `summary=True` a
    `Summary` of aggregates is returned instead of the rows. `progress`, if
    given, is called as `progress(games_done, games)` at the start and while
    the games are played: the kernel then runs on slices of about `SLICE_SECONDS` of games
    each, which gives the same rows (game g depends only on the seed and g).

    `df.attrs` records the rules (dict and hash), seed, policies, start,
    ludosim version and `SEMANTICS_VERSION`.
    """
    import numba

    from ludosim.engine import H_SIZE, K_SIZE, run_batch

    prep = _prepare(
        rules, games, seed, policies, start, start_seat, threads, chunk_size, first_game
    )
    previous = numba.get_num_threads()
    numba.set_num_threads(prep["threads"])
    try:
        if summary:
            result = _run_summary(rules, prep, progress)
            result.attrs = _attrs(rules, prep)
            return result
        head = np.zeros((prep["games"], H_SIZE), dtype=np.int32)
        seats = np.zeros((prep["games"], K_SIZE, rules.players), dtype=np.int16)
        for start, stop in _slices(prep, progress):
            # Row slices of C-ordered arrays are C-contiguous views: the kernel fills
            # rows start..stop-1 in place, with the same compiled signature.
            run_batch(
                prep["lay"],
                prep["work"],
                prep["seed"],
                prep["first_game"] + start,
                prep["chunk"],
                prep["has_start"],
                prep["start_seat"],
                head[start:stop],
                seats[start:stop],
                rules.roll_then_move,
                prep["free"],
                prep["scoring"],
            )
    finally:
        numba.set_num_threads(previous)
    df = _frame(rules, prep["first_game"], head, seats)
    df.attrs.update(_attrs(rules, prep))
    return df


def _slices(prep: dict[str, Any], progress: Progress | None) -> Iterator[tuple[int, int]]:
    """Game ranges [start, stop) to play in turn; one range when nobody watches progress.

    Each slice after the first is sized from the speed of the one before (about
    `SLICE_SECONDS` of games, at least one chunk per thread); `progress` is
    called at the start and after each slice.
    """
    games = prep["games"]
    if progress is None:
        yield 0, games
        return
    smallest = prep["chunk"] * prep["threads"]
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
    start_seat: int = 0,
) -> tuple[dict[str, Any], list[list[int]]]:
    """One game with the compiled kernel: (its per-game row as a dict, final progress).

    The kernel's counterpart of `ludosim.reference.play_game(...)` `.row()` and
    `.final`, for the differential tests.
    """
    from ludosim.engine import H_SIZE, K_SIZE, play_one

    prep = _prepare(rules, 1, seed, policies, start, start_seat, None, None, game)
    n = rules.players
    head = np.zeros(H_SIZE, dtype=np.int64)
    seats = np.zeros((K_SIZE, n), dtype=np.int64)
    final = np.zeros((n, rules.pieces), dtype=np.int64)
    play_one(
        prep["lay"],
        prep["work"],
        prep["seed"],
        game,
        prep["has_start"],
        prep["start_seat"],
        head,
        seats,
        final,
    )
    df = _frame(rules, game, head[None, :].astype(np.int32), seats[None].astype(np.int16))
    row = {k: v.item() for k, v in df.iloc[0].items()}
    return row, final.tolist()


# ------------------------------------------------------------------ Parquet
_META_KEY = b"ludosim"


def write_parquet(df: pd.DataFrame, path: str | Path) -> Path:
    """Write a `simulate` result to Parquet (zstd).

    `df.attrs` (rules, seed, policies, versions) goes into the schema metadata
    under the key `ludosim`, where `load` finds it again.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[_META_KEY] = json.dumps(df.attrs, default=str).encode()
    table = table.replace_schema_metadata(meta)
    pq.write_table(table, path, compression="zstd")
    return path


def load(path: str | Path) -> pd.DataFrame:
    """Results written by `write_parquet` (a file, or a folder of .parquet files), as a DataFrame.

    `df.attrs` holds the metadata of the (first) file; a folder's files are
    concatenated in name order.
    """
    import pyarrow.parquet as pq

    path = Path(path)
    if path.is_dir():
        files = sorted(path.rglob("*.parquet"))
        if not files:
            raise SimulationError(f"no .parquet files under {path}")
    elif path.exists():
        files = [path]
    else:
        raise SimulationError(f"no such results file or folder: {path}")
    frames = []
    attrs: dict[str, Any] = {}
    for file in files:
        table = pq.read_table(file)
        meta = table.schema.metadata or {}
        frame = table.to_pandas()
        if not attrs and _META_KEY in meta:
            attrs = json.loads(meta[_META_KEY])
        frames.append(frame)
    df = frames[0] if len(frames) == 1 else pd.concat(frames, ignore_index=True)
    df.attrs = attrs
    return df
