"""Game-flow counters at every turn boundary (docs/flow.md).

Mirrors `ludosim.reference.flow.Flow`. A run that counts them passes the
literal `flow=True` down to the game loop; with the literal False the calls
below (`open_flow_if`, `count_boundary_if`, `close_flow_if`) are resolved at
typing time to nothing, so a run without the counters compiles none of this.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from ludosim.engine.layout import R
from ludosim.engine.state import (
    F_BEHIND_SUM,
    F_DECIDED_AT,
    F_LEAD_CHANGES,
    F_MAX_DEFICIT,
    F_SIZE,
    F_TURNS_BEHIND,
    F_TURNS_LAST,
    FL_BOUNDARY,
    FL_CHANGES,
    FL_LEADER,
    FS_BEHIND,
    FS_BEHIND_SUM,
    FS_DEFICIT,
    FS_LAST,
    FS_NOT_LED,
    FS_SIZE,
    FS_TOTAL,
    HOT,
    flow_at,
    flow_result_at,
    progress_at,
    seat_flow_at,
)


@njit(**HOT)
def _seat_total(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """Progress + 1 per piece of `seat`: yard 0, goal goal + 1."""
    total = 0
    for piece in range(lay[R.PIECES]):
        total += w[progress_at(seat, piece)] + 1
    return total


@njit(**HOT)
def _next_leader(lay: np.ndarray, w: np.ndarray, top: int, leader: int) -> int:
    """The leader given the totals (`FS_TOTAL`) and the one before (`leader`, -1: none yet).

    The one seat with the `top` total; on a tie the leader before keeps the
    lead if tied, nobody leads while nobody has led, else the first tied seat.
    """
    first = -1
    tied = 0
    for s in range(lay[R.PLAYERS]):
        if w[seat_flow_at(FS_TOTAL, s)] == top:
            tied += 1
            if first < 0:
                first = s
    if tied == 1 or leader < 0:
        return first if tied == 1 else leader
    if w[seat_flow_at(FS_TOTAL, leader)] == top:
        return leader
    return first


@njit(**HOT)
def count_boundary(lay: np.ndarray, w: np.ndarray) -> None:
    """Count one turn boundary of the current position (as `Flow.boundary`)."""
    n = lay[R.PLAYERS]
    b = w[flow_at(FL_BOUNDARY)]
    w[flow_at(FL_BOUNDARY)] = b + 1
    # The largest total, the first seat with it, the largest of the others, the least.
    top = -1
    top_seat = 0
    second = -1
    low = 1 << 62
    for s in range(n):
        t = _seat_total(lay, w, s)
        w[seat_flow_at(FS_TOTAL, s)] = t
        if t > top:
            second = top
            top = t
            top_seat = s
        elif t > second:
            second = t
        low = min(low, t)
    before = w[flow_at(FL_LEADER)]
    leader = _next_leader(lay, w, top, before)
    if before >= 0 and leader != before:
        w[flow_at(FL_CHANGES)] += 1
    w[flow_at(FL_LEADER)] = leader
    for s in range(n):
        own = w[seat_flow_at(FS_TOTAL, s)]
        # The most total of the other seats: the second largest for the first top seat.
        others = second if s == top_seat else top
        deficit = others - own if n > 1 else 0  # a solo race has no deficit
        w[seat_flow_at(FS_DEFICIT, s)] = max(w[seat_flow_at(FS_DEFICIT, s)], deficit)
        if own == low and low < top:
            w[seat_flow_at(FS_LAST, s)] += 1
        if leader != s:
            w[seat_flow_at(FS_NOT_LED, s)] = b
            if leader >= 0:
                w[seat_flow_at(FS_BEHIND, s)] += 1
                w[seat_flow_at(FS_BEHIND_SUM, s)] += deficit


@njit(**HOT)
def open_flow(lay: np.ndarray, w: np.ndarray) -> None:
    """Zero the counters and count boundary 0, the position the game starts from."""
    w[flow_at(FL_LEADER)] = -1
    w[flow_at(FL_CHANGES)] = 0
    w[flow_at(FL_BOUNDARY)] = 0
    for s in range(lay[R.PLAYERS]):
        for field in range(FS_SIZE):
            w[seat_flow_at(field, s)] = 0
        w[seat_flow_at(FS_NOT_LED, s)] = -1
    count_boundary(lay, w)


@njit(**HOT)
def close_flow(w: np.ndarray, winner: int) -> None:
    """Write the flow results `F_*` for `winner` (-1: every one but the lead changes is -1)."""
    w[flow_result_at(F_LEAD_CHANGES)] = w[flow_at(FL_CHANGES)]
    if winner < 0:
        for field in range(1, F_SIZE):
            w[flow_result_at(field)] = -1
        return
    w[flow_result_at(F_DECIDED_AT)] = w[seat_flow_at(FS_NOT_LED, winner)] + 1
    w[flow_result_at(F_MAX_DEFICIT)] = w[seat_flow_at(FS_DEFICIT, winner)]
    w[flow_result_at(F_TURNS_LAST)] = w[seat_flow_at(FS_LAST, winner)]
    w[flow_result_at(F_TURNS_BEHIND)] = w[seat_flow_at(FS_BEHIND, winner)]
    w[flow_result_at(F_BEHIND_SUM)] = w[seat_flow_at(FS_BEHIND_SUM, winner)]


# The calls of the game loop: plain functions without the JIT, resolved at
# typing time in compiled code (the literal `flow` False: no code at all).
def open_flow_if(lay: np.ndarray, w: np.ndarray, flow: bool) -> None:
    """`open_flow` when `flow`."""
    if flow:
        open_flow(lay, w)


def count_boundary_if(lay: np.ndarray, w: np.ndarray, flow: bool) -> None:
    """`count_boundary` when `flow`."""
    if flow:
        count_boundary(lay, w)


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
def _count_boundary_if(lay, w, flow):
    if _literal(flow) is False:
        return lambda lay, w, flow: None

    def impl(lay, w, flow):
        if flow:
            count_boundary(lay, w)

    return impl


@overload(close_flow_if, prefer_literal=True, inline="always")
def _close_flow_if(w, winner, flow):
    if _literal(flow) is False:
        return lambda w, winner, flow: None

    def impl(w, winner, flow):
        if flow:
            close_flow(w, winner)

    return impl
