"""Game-flow counters at every turn boundary (docs/flow.md).

Mirrors `ludosim.reference.flow.Flow`. The batch runners pass `flow` down to
the game loop as a run-time switch: every kind of game has the calls below
(`open_flow_if`, `count_boundary_if`, `close_flow_if`), each skipped by a
branch without the counters. `open_flow`, `count_boundary` and `close_flow`
are ordinary calls, compiled once (and cached) for every kind of game rather
than inlined into each. A caller passing the literal False instead gets no
code at all: the calls are resolved at typing time to nothing.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from ludosim.engine.layout import R
from ludosim.engine.position import travelled
from ludosim.engine.state import (
    FL,
    FS,
    HOT,
    SNAP_CAP,
    STATS,
    YARD,
    F,
    S,
    flow_at,
    flow_result_at,
    progress_at,
    seat_flow_at,
    snap_at,
    stat_at,
)


@njit(**HOT, inline="always")
def _count_totals(lay: np.ndarray, w: np.ndarray, first: int, stop: int) -> None:
    """`FS.TOTAL` of seats first .. stop - 1: progress + 1 per piece (yard 0, goal goal + 1),
    over the `WIN_NEED` most advanced pieces (as `reference.flow.seat_totals`)."""
    pieces = lay[R.PIECES]
    for s in range(first, stop):
        if lay[R.WIN_NEED] < pieces:
            w[seat_flow_at(FS.TOTAL, s)] = _best_pieces_total(lay, w, s)
            continue
        t = pieces
        for piece in range(pieces):
            t += travelled(lay, w[progress_at(s, piece)])
        w[seat_flow_at(FS.TOTAL, s)] = t


@njit(**HOT, inline="always")
def _best_pieces_total(lay: np.ndarray, w: np.ndarray, s: int) -> int:
    """The total of seat `s`'s `WIN_NEED` most advanced pieces: under `win_pieces` a seat's
    race is that many pieces home, and the pieces it leaves behind are no part of it.
    Picks the largest not yet taken `WIN_NEED` times (a bit per piece taken: no array)."""
    t = 0
    taken = 0
    for _ in range(lay[R.WIN_NEED]):
        best = YARD - 1  # below every piece, so one is always taken
        best_piece = 0
        for piece in range(lay[R.PIECES]):
            v = travelled(lay, w[progress_at(s, piece)])
            if (taken >> piece) & 1 == 0 and v > best:
                best = v
                best_piece = piece
        taken |= 1 << best_piece
        t += best + 1
    return t


@njit(**HOT)
def count_boundary(lay: np.ndarray, w: np.ndarray, mover: int) -> None:
    """Count the turn boundary after `mover`'s turn (as `Flow.boundary`).

    An ordinary call, once per boundary (its helpers are inlined into it): inlined
    at numba level into the game loop, it would be typed and lowered again in
    every kind of game, which all have the counters (`flow` is a run-time switch).

    Only the mover's total is counted afresh unless its turn captured: an
    opponent's piece moves only when it is captured (`moves._capture_at`,
    which counts the capture), so the other totals stand. (The reference
    counts every seat at every boundary; the agreement test holds the two
    together.)
    """
    n = lay[R.PLAYERS]
    captures = w[stat_at(STATS, S.CAPTURES, mover)]
    if captures != w[seat_flow_at(FS.CAPTURES, mover)]:
        w[seat_flow_at(FS.CAPTURES, mover)] = captures
        _count_totals(lay, w, 0, n)
    else:
        _count_totals(lay, w, mover, mover + 1)
    _count_leads(lay, w)
    _take_snapshot(lay, w)


@njit(**HOT, inline="always")
def _take_snapshot(lay: np.ndarray, w: np.ndarray) -> None:
    """Copy the totals into the next snapshot at every `FL.EVERY`-th boundary after the start.

    At most `SNAP_CAP` per game: a longer game keeps its first ones.
    """
    every = w[flow_at(FL.EVERY)]
    b = w[flow_at(FL.BOUNDARY)] - 1  # the boundary just counted
    k = w[flow_at(FL.SNAPS)]
    if every > 0 and b % every == 0 and k < SNAP_CAP:
        for s in range(lay[R.PLAYERS]):
            w[snap_at(k, s)] = w[seat_flow_at(FS.TOTAL, s)]
        w[flow_at(FL.SNAPS)] = k + 1


@njit(**HOT, inline="always")
def _count_leads(lay: np.ndarray, w: np.ndarray) -> None:
    """The leader and every seat's counters at this boundary, from the totals `FS.TOTAL`.

    One pass finds the largest total and the least, a second how many seats
    share the largest and the first of them; the leader follows
    (`reference.flow.next_leader`). A seat's deficit is `top - own` for every
    seat: for the leader it is 0 where the reference's "most of the others
    minus own" is at most 0, which changes no largest deficit (they start at
    0) and is summed for no seat behind. The per-seat updates are flags times
    values, without branches.
    """
    n = lay[R.PLAYERS]
    b = w[flow_at(FL.BOUNDARY)]
    w[flow_at(FL.BOUNDARY)] = b + 1
    # Selects rather than branches: which seat is ahead changes unpredictably.
    top = -1
    low = 1 << 62
    for s in range(n):
        t = w[seat_flow_at(FS.TOTAL, s)]
        top = max(top, t)
        low = min(low, t)
    top_seat = 0
    tied = 0
    for s in range(n - 1, -1, -1):
        at_top = w[seat_flow_at(FS.TOTAL, s)] == top
        tied += at_top
        top_seat = s if at_top else top_seat
    before = w[flow_at(FL.LEADER)]
    # The one seat with the top total; on a tie the leader before keeps the lead if
    # tied, nobody leads while nobody has led, else the first tied seat.
    leader = top_seat
    if tied > 1 and before >= 0 and w[seat_flow_at(FS.TOTAL, before)] == top:
        leader = before
    elif tied > 1 and before < 0:
        leader = -1
    w[flow_at(FL.CHANGES)] += (before >= 0) & (leader != before)
    w[flow_at(FL.LEADER)] = leader
    someone_more = np.int64(low < top)
    # Mid-game: the first boundary at which a seat has run half its race.
    if w[flow_at(FL.MID)] < 0 and 2 * top >= lay[R.WIN_NEED] * (lay[R.GOAL] + 1):
        w[flow_at(FL.MID)] = b
        for s in range(n):
            last = np.int64(w[seat_flow_at(FS.TOTAL, s)] == low) & someone_more
            w[seat_flow_at(FS.LAST_AT_MID, s)] = last
    for s in range(n):
        own = w[seat_flow_at(FS.TOTAL, s)]
        deficit = top - own
        w[seat_flow_at(FS.DEFICIT, s)] = max(w[seat_flow_at(FS.DEFICIT, s)], deficit)
        w[seat_flow_at(FS.LAST, s)] += np.int64(own == low) & someone_more
        led = np.int64(leader == s)
        w[seat_flow_at(FS.NOT_LED, s)] = led * w[seat_flow_at(FS.NOT_LED, s)] + (1 - led) * b
        behind = (1 - led) & np.int64(leader >= 0)
        w[seat_flow_at(FS.BEHIND, s)] += behind
        w[seat_flow_at(FS.BEHIND_SUM, s)] += behind * deficit


@njit(**HOT)
def open_flow(lay: np.ndarray, w: np.ndarray) -> None:
    """Zero the counters and count boundary 0, the position the game starts from.

    `FL.EVERY` is the run's, set in the work array it copies, and stays.
    """
    n = lay[R.PLAYERS]
    w[flow_at(FL.LEADER)] = -1
    w[flow_at(FL.CHANGES)] = 0
    w[flow_at(FL.BOUNDARY)] = 0
    w[flow_at(FL.MID)] = -1
    w[flow_at(FL.SNAPS)] = 0
    for s in range(n):
        for field in range(FS.SIZE):
            w[seat_flow_at(field, s)] = 0
        w[seat_flow_at(FS.NOT_LED, s)] = -1
        w[seat_flow_at(FS.CAPTURES, s)] = w[stat_at(STATS, S.CAPTURES, s)]
    _count_totals(lay, w, 0, n)
    _count_leads(lay, w)


@njit(**HOT)
def close_flow(w: np.ndarray, winner: int) -> None:
    """Write the flow results `F.*` for `winner` (-1: every one but the lead changes is -1)."""
    w[flow_result_at(F.LEAD_CHANGES)] = w[flow_at(FL.CHANGES)]
    if winner < 0:
        for field in range(1, F.SIZE):
            w[flow_result_at(field)] = -1
        return
    w[flow_result_at(F.DECIDED_AT)] = w[seat_flow_at(FS.NOT_LED, winner)] + 1
    w[flow_result_at(F.MAX_DEFICIT)] = w[seat_flow_at(FS.DEFICIT, winner)]
    w[flow_result_at(F.TURNS_LAST)] = w[seat_flow_at(FS.LAST, winner)]
    w[flow_result_at(F.TURNS_BEHIND)] = w[seat_flow_at(FS.BEHIND, winner)]
    w[flow_result_at(F.BEHIND_SUM)] = w[seat_flow_at(FS.BEHIND_SUM, winner)]
    w[flow_result_at(F.MID_AT)] = w[flow_at(FL.MID)]
    w[flow_result_at(F.LAST_AT_MID)] = w[seat_flow_at(FS.LAST_AT_MID, winner)]


# The calls of the game loop: plain functions without the JIT, resolved at
# typing time in compiled code (a run-time `flow`: a branch; the literal False: no code).
def open_flow_if(lay: np.ndarray, w: np.ndarray, flow: bool) -> None:
    """`open_flow` when `flow`."""
    if flow:
        open_flow(lay, w)


def count_boundary_if(lay: np.ndarray, w: np.ndarray, mover: int, flow: bool) -> None:
    """`count_boundary` when `flow`."""
    if flow:
        count_boundary(lay, w, mover)


def close_flow_if(w: np.ndarray, winner: int, flow: bool) -> None:
    """`close_flow` when `flow`."""
    if flow:
        close_flow(w, winner)


def _literal(flow: types.Type) -> bool | None:
    """The value of a literal `flow`, None when it is only known at run time."""
    return flow.literal_value if isinstance(flow, types.BooleanLiteral) else None


@overload(open_flow_if, prefer_literal=True, inline="always")
def _open_flow_if(lay, w, flow):
    if _literal(flow) is False:
        return lambda lay, w, flow: None

    def impl(lay, w, flow):
        if flow:
            open_flow(lay, w)

    return impl


@overload(count_boundary_if, prefer_literal=True, inline="always")
def _count_boundary_if(lay, w, mover, flow):
    if _literal(flow) is False:
        return lambda lay, w, mover, flow: None

    def impl(lay, w, mover, flow):
        if flow:
            count_boundary(lay, w, mover)

    return impl


@overload(close_flow_if, prefer_literal=True, inline="always")
def _close_flow_if(w, winner, flow):
    if _literal(flow) is False:
        return lambda w, winner, flow: None

    def impl(w, winner, flow):
        if flow:
            close_flow(w, winner)

    return impl
