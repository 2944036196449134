"""The operations on the position in the work array, and what it says of each seat.

Mirrors `ludosim.reference.position.Position` (the opening position, `put`,
`in_play`, `finished`); where the reference engine tries a move on a copy of
its position, the kernel plays it on the live state and takes it back with
the undo log.

The layout of `w` and its index functions are in `ludosim.engine.state`; this
module holds what changes or reads the position section (`PROGRESS` up to
`DUMMY`): the square of a piece's progress (`square_of`, `travelled`,
`lap_code`), the opening position (`reset_state`), moving a piece with its
square counts and occupancy masks kept in step (`put`, `relocate`), the undo
log that lets the plan search and the option scores try moves on the live
state and take them back (`log_piece`, `unlock`, `undo_to`), and what the
position says of a seat: in play, finished, its points, the next seat to play
(`in_play`, `finished`, `leave_board`, `seat_points`, `next_seat`).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numba.extending import register_jitable

from ludosim.engine.codes import SCORING_STEPS
from ludosim.engine.layout import SQUARE, STRIDE, R
from ludosim.engine.state import (
    DUMMY,
    HOT,
    PROGRESS,
    SB,
    YARD,
    C,
    U,
    count_at,
    counter_at,
    ix,
    laps_at,
    occupancy_at,
    progress_at,
    reversed_at,
    seat_list_at,
    start_at,
    total_at,
    undo_at,
)


@njit(**HOT)
def square_of(lay: np.ndarray, seat: int, p: int) -> int:
    """Absolute track square of `seat`'s piece at progress `p`, or -1 off the track."""
    return lay[ix(SQUARE + STRIDE * seat + p + 1)]


@register_jitable
def travelled(lay: np.ndarray, p: int) -> int:
    """Squares from the start square of a piece at progress `p` (as `Board.travelled`):
    `p`, except for a lapping piece's code after the goal (`home_unlock`)."""
    goal = lay[R.GOAL]
    return p - (goal - lay[R.ENTRY]) * np.int64(p > goal)


@register_jitable
def lap_code(lay: np.ndarray, t: int) -> int:
    """The progress code `t` squares from the start square for a piece that does not
    turn in at its entry (as `Board.lap_code`)."""
    entry = lay[R.ENTRY]
    if t <= entry:
        return t
    if t < lay[R.TRACK_LEN]:
        return lay[R.GOAL] + t - entry
    return t - lay[R.TRACK_LEN]


@njit(**HOT)
def reset_state(lay: np.ndarray, w: np.ndarray, has_start: bool) -> None:
    """The opening position (`start_out` pieces of every seat on its start square, the
    others in the yard), or the run's start position; counters and stats zeroed."""
    w[PROGRESS:DUMMY] = 0  # the position, the counters and the statistics
    for seat in range(lay[R.PLAYERS]):
        for piece in range(lay[R.PIECES]):
            if has_start:
                p = w[start_at(seat, piece)]
            else:
                p = 0 if piece < lay[R.START_OUT] else YARD
            w[progress_at(seat, piece)] = p
            sq = square_of(lay, seat, p)
            if sq >= 0:
                w[count_at(seat, sq)] += 1
                w[total_at(sq)] += 1
                w[occupancy_at(seat)] |= np.int64(sq < 64) << (sq & 63)


@njit(**HOT)
def put(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, p: int) -> None:
    """Move a piece to progress `p`, keeping the counts in step (as `Position.put`)."""
    old = square_of(lay, seat, w[progress_at(seat, piece)])
    relocate(lay, w, seat, piece, old, p, square_of(lay, seat, p))


@njit(**HOT)
def relocate(
    lay: np.ndarray, w: np.ndarray, seat: int, piece: int, old: int, p: int, new: int
) -> None:
    """`put` for a caller that already knows the old and new squares (-1: off the track)."""
    if old >= 0:
        left = w[count_at(seat, old)] - 1
        w[count_at(seat, old)] = left
        w[total_at(old)] -= 1
        # The occupancy bit goes with the last piece. Squares from 64 on (six-sided
        # tracks, where no mask is read: `optionscore.MASK_TRACK`) have no bit; `& 63`
        # keeps the shift defined for them.
        w[occupancy_at(seat)] &= ~(np.int64((left == 0) & (old < 64)) << (old & 63))
    w[progress_at(seat, piece)] = p
    if new >= 0:
        w[count_at(seat, new)] += 1
        w[total_at(new)] += 1
        w[occupancy_at(seat)] |= np.int64(new < 64) << (new & 63)
    if p == YARD or p == lay[R.GOAL]:
        w[reversed_at(seat, piece)] = 0


@njit(**HOT)
def log_piece(w: np.ndarray, seat: int, piece: int) -> None:
    """Remember a piece's progress and reversed flag before changing it."""
    n = w[counter_at(C.UNDO)]
    w[undo_at(n, U.SEAT)] = seat
    w[undo_at(n, U.PIECE)] = piece
    w[undo_at(n, U.PROGRESS)] = w[progress_at(seat, piece)]
    w[undo_at(n, U.REVERSED)] = w[reversed_at(seat, piece)]
    w[counter_at(C.UNDO)] = n + 1


@njit(**HOT)
def unlock(w: np.ndarray, seat: int, log: bool) -> None:
    """`seat` has captured: its home column is open for the rest of the game
    (`home_unlock`; kept under every rule, read only under that one)."""
    if w[seat_list_at(SB.UNLOCKED, seat)]:
        return
    if log:
        n = w[counter_at(C.UNDO)]
        w[undo_at(n, U.SEAT)] = seat
        w[undo_at(n, U.PIECE)] = U.UNLOCK
        w[counter_at(C.UNDO)] = n + 1
    w[seat_list_at(SB.UNLOCKED, seat)] = 1


@njit(**HOT)
def set_laps(w: np.ndarray, seat: int, piece: int, laps: int, log: bool) -> None:
    """Set a piece's new laps (`home_unlock`), logged for `undo_to` with `log`."""
    if log:
        n = w[counter_at(C.UNDO)]
        w[undo_at(n, U.SEAT)] = seat
        w[undo_at(n, U.PIECE)] = U.LAPS0 - piece
        w[undo_at(n, U.PROGRESS)] = w[laps_at(seat, piece)]
        w[counter_at(C.UNDO)] = n + 1
    w[laps_at(seat, piece)] = laps


@njit(**HOT)
def undo_to(lay: np.ndarray, w: np.ndarray, mark: int) -> None:
    """Take back every logged change after row `mark`, newest first."""
    n = w[counter_at(C.UNDO)]
    while n > mark:
        n -= 1
        seat = w[undo_at(n, U.SEAT)]
        piece = w[undo_at(n, U.PIECE)]
        if piece < 0:  # not a piece's place: a seat's lock, or a piece's laps
            if piece == U.UNLOCK:
                w[seat_list_at(SB.UNLOCKED, seat)] = 0
            else:
                w[laps_at(seat, U.LAPS0 - piece)] = w[undo_at(n, U.PROGRESS)]
            continue
        put(lay, w, seat, piece, w[undo_at(n, U.PROGRESS)])
        w[reversed_at(seat, piece)] = w[undo_at(n, U.REVERSED)]
    w[counter_at(C.UNDO)] = mark


@njit(**HOT)
def in_play(lay: np.ndarray, w: np.ndarray, seat: int) -> bool:
    """Some piece of `seat` is on the track or in its home column."""
    goal = lay[R.GOAL]
    for piece in range(lay[R.PIECES]):
        p = w[progress_at(seat, piece)]
        if p != YARD and p != goal:
            return True
    return False


@njit(**HOT)
def finished(lay: np.ndarray, w: np.ndarray, seat: int) -> bool:
    """`seat` has `win_pieces` (all, by default) home: in the goal, or with
    `finish_in_home` past its entry."""
    home_from = lay[R.HOME_FROM]
    goal = lay[R.GOAL]
    home = 0
    for piece in range(lay[R.PIECES]):
        p = w[progress_at(seat, piece)]
        home += (p >= home_from) & (p <= goal)  # YARD (-1) is below any, a lapping piece above
    return home >= lay[R.WIN_NEED]


@njit(**HOT)
def leave_board(lay: np.ndarray, w: np.ndarray, seat: int) -> None:
    """A finished seat's pieces still on the track leave it for good (as
    `Game.leave_board`); pieces in its home column stay."""
    entry = lay[R.ENTRY]
    goal = lay[R.GOAL]
    for piece in range(lay[R.PIECES]):
        p = w[progress_at(seat, piece)]
        if 0 <= p <= entry or p > goal:
            put(lay, w, seat, piece, YARD)


@njit(**HOT)
def seat_points(lay: np.ndarray, w: np.ndarray, seat: int, winner: int) -> int:
    """Points at the end, as `Game.points`. Megajogos: the winner 1000; else 250 per piece
    home, progress + 1 for the rest. Steps: each piece's squares from its start square
    (0 in the yard), `home_bonus` more in the goal."""
    goal = lay[R.GOAL]
    if lay[R.SCORING] == SCORING_STEPS:
        # A piece lapping under `home_unlock` has advanced its squares since its start
        # square, and a whole lap for every new lap it began.
        steps = 0
        for i in range(lay[R.PIECES]):
            p = w[progress_at(seat, i)]
            if p != YARD:
                steps += travelled(lay, p) + lay[R.TRACK_LEN] * w[laps_at(seat, i)]
                steps += lay[R.HOME_BONUS] if p == goal else 0
        return steps
    if seat == winner:
        return 1000
    total = 0
    for i in range(lay[R.PIECES]):
        p = w[progress_at(seat, i)]
        total += 250 if p == goal else travelled(lay, p) + 1
    return total


@njit(**HOT)
def team_count(lay: np.ndarray) -> int:
    """The number of teams (without `teams`: of seats, every seat its own team)."""
    n = lay[R.PLAYERS]
    count = 0
    for s in range(n):
        first = True  # s is the lowest seat of its team
        for t in range(s):
            first &= lay[ix(R.TEAM0 + t)] != lay[ix(R.TEAM0 + s)]
        count += first
    return count


@njit(**HOT)
def team_done(lay: np.ndarray, w: np.ndarray, seat: int) -> bool:
    """Every seat of `seat`'s team has finished (without `teams`: the seat has)."""
    team = lay[ix(R.TEAM0 + seat)]
    for s in range(lay[R.PLAYERS]):
        if lay[ix(R.TEAM0 + s)] == team and not w[seat_list_at(SB.DONE, s)]:
            return False
    return True


@njit(**HOT, inline="always")
def next_seat(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """The next seat in play order that has not finished (`seat` itself if none); with
    `teams` the next seat whose team has not: a finished seat plays on for its partner."""
    n = lay[R.PLAYERS]
    nxt = seat
    for _ in range(n):  # no division
        nxt = nxt + 1 if nxt + 1 < n else 0
        if lay[R.HAS_TEAMS]:
            if not team_done(lay, w, nxt):
                return nxt
        elif not w[seat_list_at(SB.DONE, nxt)]:
            return nxt
    return seat
