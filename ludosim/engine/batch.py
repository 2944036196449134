"""Many games: one game for the tests, chunks of games in parallel for `simulate`.

Game `g` always draws from stream `(seed, first_game + g)`, and each chunk
owns its work array, so the rows do not depend on the thread count or the
chunk size. Chunks are spread over threads by `numba.prange`.

`work` is a template work array (`state.new_work`: policy codes and start
position); each chunk plays on its own copy.

Output of `run_batch` (docs/api.md column order):

- `head`  int32[games, H.SIZE]: first, winner, turns, rolls, end_turns, truncated;
- `seats` int16[games, K.SIZE, players]: place, captures, captured, returned,
  skipped, caught, points;
- `flows` int32[games, F.SIZE]: the game-flow results (`state.F.*`), filled
  only with `flow=True` (docs/flow.md); a run without them passes zero rows;
- `snaps` int16[games, SNAP_CAP, players]: the seats' totals at every
  `FL.EVERY`-th boundary (the work array's, set by the run), -1 past the
  game's last snapshot; filled only with `flow=True` and rows passed.

A summary (`ludosim.results.Summary`) is folded from these rows, block by
block (`ludosim.run.simulate`): one compiled runner serves rows and summaries.
"""

from __future__ import annotations

import numpy as np
from numba import literally, njit, prange, types
from numba.extending import overload

from ludosim.engine.game import play_free_game, play_listed_game, play_plan_game
from ludosim.engine.layout import R
from ludosim.engine.rng import stream_key
from ludosim.engine.state import (
    FL,
    HOT,
    MAX_RECORD,
    SNAP_CAP,
    F,
    H,
    K,
    X,
    expert_at,
    expert_choice_at,
    flow_at,
    flow_result_at,
    progress_at,
    result_at,
    seat_result_at,
    snap_at,
)

# Histogram bins of turns and rolls: value v counts in bin min(v, HIST_BINS - 1).
HIST_BINS = 8192


@njit(**HOT)
def _start_stream(stream: np.ndarray, seed: np.uint64, game: int) -> None:
    stream[0] = stream_key(seed, np.uint64(game))
    stream[1] = np.uint64(0)


@njit(cache=True)
def play_one(
    lay: np.ndarray,
    work: np.ndarray,
    seed: np.uint64,
    game: int,
    has_start: bool,
    start_seat: int,
    head: np.ndarray,
    seats: np.ndarray,
    final: np.ndarray,
    flows: np.ndarray,
    snaps: np.ndarray,
    choices: np.ndarray,
    plans: bool,
    free: bool,
    scoring: bool,
    flow: bool,
    expert: bool,
) -> int:
    """Play game `game` of `seed` on `work` into `head` (int64[H.SIZE]),
    `seats` (int64[K.SIZE, players]), `final` (int64[players, pieces], final progress),
    `flows` (int64[F.SIZE], the game-flow results) and `snaps` (int64[SNAP_CAP, players]).

    `plans`, `free`, `scoring`, `flow` and `expert` as for `run_batch`
    (all but `flow` compiled in as constants: a game of the same kind as a
    run's loads the run's compiled game; `flows` and `snaps` are filled only
    with `flow`, a run-time switch). With `expert`
    the expert seats' searched choices go to `choices` (int64[MAX_RECORD]:
    options << RECORD_SHIFT | choice, in order), and the count of searched
    decisions is returned (0 without).
    """
    literally(plans)
    literally(free)
    literally(scoring)
    literally(expert)
    stream = np.zeros(2, dtype=np.uint64)
    _start_stream(stream, seed, game)
    scratch = np.zeros(2, dtype=np.uint64)
    _play(lay, work, stream, scratch, has_start, start_seat, plans, free, scoring, flow, expert)
    for j in range(H.SIZE):
        head[j] = work[result_at(j)]
    if flow:
        for j in range(F.SIZE):
            flows[j] = work[flow_result_at(j)]
        _copy_snapshots(lay, work, snaps)
    for s in range(lay[R.PLAYERS]):
        for j in range(K.SIZE):
            seats[j, s] = work[seat_result_at(j, s)]
        for i in range(lay[R.PIECES]):
            final[s, i] = work[progress_at(s, i)]
    if not expert:
        return 0
    recorded = work[expert_at(X.RECORDED)]
    for k in range(min(recorded, MAX_RECORD)):
        choices[k] = work[expert_choice_at(k)]
    return recorded


@njit(**HOT)
def _copy_snapshots(lay: np.ndarray, w: np.ndarray, snaps: np.ndarray) -> None:
    """The game's snapshots into `snaps[k, seat]`, -1 in the rows after its last."""
    taken = w[flow_at(FL.SNAPS)]
    for k in range(SNAP_CAP):
        for s in range(lay[R.PLAYERS]):
            snaps[k, s] = w[snap_at(k, s)] if k < taken else -1


def _play(
    lay: np.ndarray,
    w: np.ndarray,
    stream: np.ndarray,
    scratch: np.ndarray,
    has_start: bool,
    start_seat: int,
    plans: bool,
    free: bool,
    scoring: bool,
    flow: bool,
    expert: bool,
) -> None:
    """One game of the kind the literals `plans` and `free` name; compiled code only.

    Resolved at typing time (numba prunes branches on constants, not on
    literal arguments), so no other kind of game is compiled. The game is an
    ordinary call: inlined into the parallel loop, the whole kernel would go
    through numba's parfor passes, which multiplies the compile time. The
    body below runs only without the JIT (`NUMBA_DISABLE_JIT=1`); compiled
    code gets `_play_kind`.
    """
    if plans:
        game = play_plan_game
    else:
        game = play_free_game if free else play_listed_game
    game(lay, w, stream, scratch, has_start, start_seat, scoring, flow, expert)


@overload(_play, prefer_literal=True, inline="always")
def _play_kind(lay, w, stream, scratch, has_start, start_seat, plans, free, scoring, flow, expert):
    if not isinstance(plans, types.BooleanLiteral) or not isinstance(free, types.BooleanLiteral):
        raise TypeError("_play needs `plans` and `free` as literals (numba.literally)")
    if plans.literal_value:
        game = play_plan_game
    else:
        game = play_free_game if free.literal_value else play_listed_game

    def impl(lay, w, stream, scratch, has_start, start_seat, plans, free, scoring, flow, expert):
        game(lay, w, stream, scratch, has_start, start_seat, scoring, flow, expert)

    return impl


@njit(cache=True, parallel=True)
def run_batch(
    lay: np.ndarray,
    work: np.ndarray,
    seed: np.uint64,
    first_game: int,
    chunk: int,
    has_start: bool,
    start_seat: int,
    head: np.ndarray,
    seats: np.ndarray,
    flows: np.ndarray,
    snaps: np.ndarray,
    plans: bool,
    free: bool,
    scoring: bool,
    flow: bool,
    expert: bool,
) -> None:
    """Play `head.shape[0]` games, chunks in parallel, into `head`, `seats`, `flows`, `snaps`.

    `plans` is `roll_then_move`; `free` is `turn.free_play` of the rules
    (False with `plans`); `scoring` is False when every seat plays random;
    `flow` counts the game-flow results into `flows` (else it may have no rows),
    and the snapshots into `snaps` when it has rows; `expert` is True when
    some seat is an expert (`ludosim.engine.expert`).
    All but `flow` are compiled in as constants (`literally`: one cached copy
    per combination), so a run compiles only the code its games can reach: an
    `app` run never the Killer plan search nor the free loop, a random run
    no scoring, a run without an expert no search. `flow` is a run-time
    switch: every copy has the counters (an ordinary call at each turn
    boundary, `flow.count_boundary`, compiled once for every kind), skipped by
    a branch without it, so that counting them compiles no kind of its own.
    """
    literally(plans)
    literally(free)
    literally(scoring)
    literally(expert)
    games = head.shape[0]
    players = lay[R.PLAYERS]
    chunks = (games + chunk - 1) // chunk
    for c in prange(chunks):
        w = work.copy()
        mine = lay.copy()  # a private copy: no cache line is shared between threads
        stream = np.zeros(2, dtype=np.uint64)
        scratch = np.zeros(2, dtype=np.uint64)  # the expert's rollouts' stream
        for g in range(c * chunk, min(games, (c + 1) * chunk)):
            _start_stream(stream, seed, first_game + g)
            _play(
                mine, w, stream, scratch, has_start, start_seat, plans, free, scoring, flow, expert
            )
            for j in range(H.SIZE):
                head[g, j] = w[result_at(j)]
            for j in range(K.SIZE):
                for s in range(players):
                    seats[g, j, s] = w[seat_result_at(j, s)]
            if flow:
                for j in range(F.SIZE):
                    flows[g, j] = w[flow_result_at(j)]
                if snaps.shape[0] > 0:
                    _copy_snapshots(mine, w, snaps[g])
