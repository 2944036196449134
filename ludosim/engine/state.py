"""The game state and every scratch buffer, as one flat int64 work array `w`.

Each chunk of games owns one work array (`new_work`); nothing is allocated
per game or per roll. Sections sit at fixed offsets (sized for the largest
game: `MAX_PLAYERS` seats of `MAX_PIECES` pieces on a `STRIDE`-square track),
so every index below is a compile-time constant plus a small product:

    w[PROGRESS + MAX_PIECES * seat + piece]   progress (YARD = -1 .. goal)
    w[REV + MAX_PIECES * seat + piece]        1 while a bounce_on piece walks backwards
    w[CNT + STRIDE * seat + square]           pieces of `seat` on a track square
    w[TOT + square]                           pieces of all seats on a track square
    w[CTR + C_*]                              per-game counters
    w[STATS + MAX_PLAYERS * S_* + seat]       per-seat statistics of the game
    w[DUMMY + ...]                            the same, a sink for moves only tried
    w[SEATBUF + MAX_PLAYERS * SB_* + seat]    per-seat lists of one game
    w[MOVES + 4 * j + M_*]                    legal moves of the current roll
    w[BEST + B_*]                             summary of the options of a roll
    w[REM + face]                             rolls left to play, by face (plan search)
    w[ROLLS + i]                              rolls of a Killer turn
    w[CHOSEN + 2 * step + 0 | 1]              face, piece of each step of the chosen plan
    w[DFS + D_SIZE * depth + D_*]             plan-search stack
    w[SKIPS + 3 * k + 0 | 1 | 2]              skipped forced captures of the turn
    w[UNDO + 4 * row + 0..3]                  undo log: seat, piece, old progress, old flag
    w[POLICY + seat], w[START + ...]          policy codes and start position of the run
    w[HEAD + H_*], w[SEATS + MAX_PLAYERS * K_* + seat]   the game's results

The counts make a landing or a path check read one square instead of
scanning every piece; the undo log lets the Killer plan search try moves on
the live state and take them back.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.layout import MAX_PIECES, MAX_PLAYERS, SQUARE, STRIDE, R

YARD = -1

# Sizes of the scratch buffers.
MAX_ROLLS = 64  # rolls of one Killer turn (64 sixes in a row: probability 6**-64)
MAX_SKIPS = 1024  # skipped forced captures in one turn
MAX_UNDO = 4096  # logged changes along one plan (at most ~45 per move)

# Slots of the per-game counters.
C_ROLLS = 0  # die rolls so far (roll-off excluded)
C_UNDO = 1  # rows of the undo log in use
C_SKIPS = 2  # skipped forced captures recorded this turn
C_SIZE = 4

# Rows of the per-seat statistics.
S_CAPTURES = 0
S_CAPTURED = 1
S_RETURNED = 2
S_SKIPPED = 3
S_CAUGHT = 4
S_SIZE = 5

# Rows of the per-seat lists of one game.
SB_CONTENDERS = 0  # roll-off contenders
SB_THROWS = 1  # their throws
SB_DONE = 2  # 1 once the seat has every piece home
SB_ORDER = 3  # seats in finishing order
SB_SCORE = 4  # ranking score of the seats that did not finish
SB_SIZE = 5

# Columns of a legal move.
M_PIECE = 0
M_TARGET = 1
M_FLAGS = 2
M_CAPS = 3  # captures (filled only when forced captures matter)

# Slots of the options summary.
B_KEY = 0  # best plan key (see plans.plan_key_step)
B_COUNT = 1  # options with the best key
B_NCAP = 2  # of which capturing
B_MOST = 3  # most captures of one option among them
B_FIRST = 4  # capturing pieces (mask) of the first option with the most captures
B_UNION = 5  # pieces that capture in some option (mask)
B_STEPS = 6  # steps of the chosen plan
B_CHOSEN_CAPS = 7  # captures of the chosen plan
B_SIZE = 8

# Columns of the plan-search stack (one row per depth).
D_FACE = 0
D_PIECE = 1
D_MARK = 2  # undo rows in use before this depth's move
D_CAPS = 3  # captures of the plan so far
D_MASK = 4  # bit mask of the pieces that captured so far
D_KEY = 5  # plan key so far
D_EXT = 6  # this depth found at least one move (else it is a leaf)
D_SIZE = 8

# Slots of the game's results (API.md column order).
H_FIRST = 0
H_WINNER = 1
H_TURNS = 2
H_ROLLS = 3
H_END_TURNS = 4
H_TRUNCATED = 5
H_SIZE = 6

K_PLACE = 0
K_CAPTURES = 1
K_CAPTURED = 2
K_RETURNED = 3
K_SKIPPED = 4
K_CAUGHT = 5
K_POINTS = 6
K_SIZE = 7

# Offsets of the sections of `w`.
PIECE_SLOTS = MAX_PLAYERS * MAX_PIECES
PROGRESS = 0
REV = PROGRESS + PIECE_SLOTS
CNT = REV + PIECE_SLOTS
TOT = CNT + STRIDE * MAX_PLAYERS
CTR = TOT + STRIDE
STATS = CTR + C_SIZE
DUMMY = STATS + S_SIZE * MAX_PLAYERS
SEATBUF = DUMMY + S_SIZE * MAX_PLAYERS
MOVES = SEATBUF + SB_SIZE * MAX_PLAYERS
BEST = MOVES + 4 * MAX_PIECES
REM = BEST + B_SIZE
ROLLS = REM + 16
CHOSEN = ROLLS + MAX_ROLLS
HEAD = CHOSEN + 2 * MAX_ROLLS
SEATS = HEAD + H_SIZE
POLICY = SEATS + K_SIZE * MAX_PLAYERS
START = POLICY + MAX_PLAYERS
DFS = START + PIECE_SLOTS
SKIPS = DFS + D_SIZE * (MAX_ROLLS + 1)
UNDO = SKIPS + 3 * MAX_SKIPS
W_SIZE = UNDO + 4 * MAX_UNDO

# Keyword arguments of every kernel helper. `_nrt=False` compiles without
# numba's reference counting: these helpers only index arrays they are given
# (they allocate nothing), and with counting on, every array argument costs an
# atomic increment and decrement per call, shared between threads.
HOT = {"cache": True, "_nrt": False}


def new_work(policies: np.ndarray, start: np.ndarray | None) -> np.ndarray:
    """A work array with the run's policy codes and start position (None: all in the yard)."""
    w = np.zeros(W_SIZE, dtype=np.int64)
    w[POLICY : POLICY + len(policies)] = policies
    if start is not None:
        players, pieces = start.shape
        for seat in range(players):
            w[START + MAX_PIECES * seat : START + MAX_PIECES * seat + pieces] = start[seat]
    return w


@njit(**HOT)
def square_of(lay: np.ndarray, seat: int, p: int) -> int:
    """Absolute track square of `seat`'s piece at progress `p`, or -1 off the track."""
    return lay[SQUARE + STRIDE * seat + p + 1]


@njit(**HOT)
def progress_of(w: np.ndarray, seat: int, piece: int) -> int:
    return w[PROGRESS + MAX_PIECES * seat + piece]


@njit(**HOT)
def reset_state(lay: np.ndarray, w: np.ndarray, has_start: bool) -> None:
    """Every piece in its yard, or on the run's start position; counters and stats zeroed."""
    w[PROGRESS:CTR] = 0
    w[CTR : CTR + C_SIZE] = 0
    w[STATS : STATS + S_SIZE * MAX_PLAYERS] = 0
    for seat in range(lay[R.PLAYERS]):
        for piece in range(lay[R.PIECES]):
            p = w[START + MAX_PIECES * seat + piece] if has_start else YARD
            w[PROGRESS + MAX_PIECES * seat + piece] = p
            sq = square_of(lay, seat, p)
            if sq >= 0:
                w[CNT + STRIDE * seat + sq] += 1
                w[TOT + sq] += 1


@njit(**HOT)
def put(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, p: int) -> None:
    """Move a piece to progress `p`, keeping the counts in step (as `Position.put`)."""
    slot = MAX_PIECES * seat + piece
    old = square_of(lay, seat, w[PROGRESS + slot])
    if old >= 0:
        w[CNT + STRIDE * seat + old] -= 1
        w[TOT + old] -= 1
    w[PROGRESS + slot] = p
    new = square_of(lay, seat, p)
    if new >= 0:
        w[CNT + STRIDE * seat + new] += 1
        w[TOT + new] += 1
    if p == YARD or p == lay[R.GOAL]:
        w[REV + slot] = 0


@njit(**HOT)
def log_piece(w: np.ndarray, seat: int, piece: int) -> None:
    """Remember a piece's progress and reversed flag before changing it."""
    n = w[CTR + C_UNDO]
    row = UNDO + 4 * n
    w[row] = seat
    w[row + 1] = piece
    w[row + 2] = w[PROGRESS + MAX_PIECES * seat + piece]
    w[row + 3] = w[REV + MAX_PIECES * seat + piece]
    w[CTR + C_UNDO] = n + 1


@njit(**HOT)
def undo_to(lay: np.ndarray, w: np.ndarray, mark: int) -> None:
    """Take back every logged change after row `mark`, newest first."""
    n = w[CTR + C_UNDO]
    while n > mark:
        n -= 1
        row = UNDO + 4 * n
        seat = w[row]
        piece = w[row + 1]
        put(lay, w, seat, piece, w[row + 2])
        w[REV + MAX_PIECES * seat + piece] = w[row + 3]
    w[CTR + C_UNDO] = mark


@njit(**HOT)
def in_play(lay: np.ndarray, w: np.ndarray, seat: int) -> bool:
    """Some piece of `seat` is on the track or in its home column."""
    goal = lay[R.GOAL]
    for piece in range(lay[R.PIECES]):
        p = w[PROGRESS + MAX_PIECES * seat + piece]
        if p != YARD and p != goal:
            return True
    return False


@njit(**HOT)
def finished(lay: np.ndarray, w: np.ndarray, seat: int) -> bool:
    """Every piece of `seat` is in the goal."""
    goal = lay[R.GOAL]
    for piece in range(lay[R.PIECES]):
        if w[PROGRESS + MAX_PIECES * seat + piece] != goal:
            return False
    return True
