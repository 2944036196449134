"""The game state and every scratch buffer, as one flat int64 work array `w`.

Each chunk of games owns one work array (`new_work`); nothing is allocated
per game or per roll. Sections sit at fixed offsets (sized for the largest
game: `MAX_PLAYERS` seats of `MAX_PIECES` pieces on a `STRIDE`-square track),
so every index below is a compile-time constant plus a small product:

    w[PROGRESS + MAX_PIECES * seat + piece]   progress (YARD = -1 .. goal)
    w[REV + MAX_PIECES * seat + piece]        1 while a bounce_on piece walks backwards
    w[CNT + STRIDE * seat + square]           pieces of `seat` on a track square
    w[TOT + square]                           pieces of all seats on a track square
    w[OCC + seat]                             bit `square` set where `seat` has a piece
                                              (squares 0-63: every square up to four sides)
    w[CTR + C_*]                              per-game counters
    w[STATS + MAX_PLAYERS * S_* + seat]       per-seat statistics of the game
    w[DUMMY + ...]                            the same, a sink for moves only tried
    w[SEATBUF + MAX_PLAYERS * SB_* + seat]    per-seat lists of one game
    w[MOVES + 4 * j + M_*]                    legal moves of the current roll
    w[BEST + B_*]                             summary of the options of a roll
    w[REM + face]                             rolls left to play, by face (plan search)
    w[ROLLS + i]                              rolls of a Killer turn
    w[CHOSEN + 2 * step + 0 | 1]              face, piece of each step of the chosen plan
    w[SKIPS + 3 * k + 0 | 1 | 2]              skipped forced captures of the turn
    w[UNDO + 4 * row + 0..3]                  undo log: seat, piece, old progress, old flag
    w[POLW + PW_SIZE * seat + PW_*]           each seat's policy: weights, skip probability
    w[START + ...]                            start position of the run
    w[HEAD + H_*], w[SEATS + MAX_PLAYERS * K_* + seat]   the game's results
    w[ROOT + RT_*]                            the position before an option, for its features
    w[OPT + j]                                score of single-roll option j
    w[MDFS + MD_SIZE * depth + MD_*]          memoised plan-search stack
    w[MRES + N_*]                             summary of the last node summarised
    w[LEAF + N_*]                             summary of a leaf being folded in
    w[KIDS + KID_SIZE * j + KID_*]             the turn root's children, for the pick walk
    w[MEMO_HEAD + MH_*]                       memo table: capacity, entries used
    w[MEMO + E_SIZE * slot + E_*]             memo table entries (only where plans are played)
    w[MEMO + E_SIZE * MH_MAX + k]             slots stored by the current search, to clear them

The counts make a landing or a path check read one square instead of
scanning every piece; the undo log lets the Killer plan search try moves on
the live state and take them back. The memo table is the last section and
its size depends on the rules (`new_work(..., memo_slots)`): a single-roll
game never needs it.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.layout import MAX_PIECES, MAX_PLAYERS, SQUARE, STRIDE, R

YARD = -1

# Numba compiles a separate copy of an ordinary (not inlined) callee for every
# distinct literal argument it is called with, so constant offsets and flags
# passed to such calls are wrapped as plain values (`np.int64(LEAF)`, `NO`,
# `YES`): one compiled copy each, a shorter first compile.
NO = np.bool_(False)
YES = np.bool_(True)

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

# Slots of a seat's policy (`ludosim.engine.policy.compile_policies`).
PW_WEIGHTS = 0  # PW_WEIGHTS + f: weight of feature f (FEATURES order), in thousandths
PW_RANDOM = 8  # 1 when every weight is 0: no feature is ever computed
PW_SKIP_MODE = 9  # skipper: 0 never skips, 1 always may, 2 draws uniform()
PW_SKIP_THRESHOLD = 10  # skips when (next64 >> 11) < threshold (see `detect_threshold`)
PW_GUARD = 12  # PW_GUARD + 16 * arriving + index: weighted guard change (`policy.guard_table`)
PW_SIZE = PW_GUARD + 32
N_FEATURES = 8

# Slots of the position before an option (the features compare with it).
RT_STANDING = 0  # own progress + 1 summed (yard 0, goal goal + 1)
RT_YARD = 1  # own pieces in the yard
RT_GOAL = 2  # own pieces in the goal
RT_OPP_YARD = 3  # opponent pieces in their yards
RT_SIZE = 4

# Values of a plan-tree node (the summary of every best-key continuation from it).
N_BEST = 0  # best key of the continuations (0: a leaf, no roll can be used)
N_MALL = 1  # best final score among them ...
N_CALL = 2  # ... and how many reach it
N_MCAP = 3  # best final score among the capturing ones (NEG_SCORE if none) ...
N_CCAP = 4  # ... and how many reach it
N_MOST = 5  # most captures of one continuation
N_FIRST = 6  # capturing pieces (mask) of the first continuation with the most captures
N_UNION = 7  # pieces that capture in some continuation (mask)
N_SIZE = 8
NEG_SCORE = -(1 << 62)

# Columns of the memoised plan-search stack (one row per depth).
MD_FACE = 0
MD_PIECE = 1
MD_MARK = 2  # undo rows in use before this depth's move
MD_CAPS = 3  # captures of this depth's move
MD_EXT = 4  # this node has at least one legal move (else it is a leaf)
MD_K1 = 5  # the node's memo key
MD_K2 = 6
MD_TAKEN = 8  # opponent pieces captured on the way from the root to this node
MD_ACC = 10  # MD_ACC + N_*: the node's summary, accumulated over its children
MD_SIZE = MD_ACC + N_SIZE

# Columns of a child of the turn's root (kept so the pick walk need not try them again).
KID_FACE = 0
KID_PIECE = 1
KID_CAPS = 2
KID_SUMMARY = 3  # KID_SUMMARY + N_*: the child's summary
KID_SIZE = KID_SUMMARY + 8
MAX_KIDS = 32  # distinct faces (at most 8) x pieces (at most 4)

# Memo table header and entries.
MH_CAP = 0  # entries in use by the current search (a power of two; 0: no table)
MH_MAX = 1  # entries allocated: the table grows up to this
MH_USED = 2  # entries stored by the current search
MH_FULL = 3  # the current search found the table full
MH_SIZE = 4
E_K1 = 0  # an entry is empty when E_K2 is 0 (a stored node always has a roll left)
E_K2 = 1
E_BEST = 2  # E_BEST .. E_CCAP: N_BEST .. N_CCAP of the node
E_PUSTER = 7  # N_MOST << 8 | N_FIRST << 4 | N_UNION
E_SIZE = 8  # one 64-byte cache line
MEMO_START = 1 << 10  # entries a search starts with: small enough to stay in the caches
MEMO_SLOTS = 1 << 15  # entries allocated for a roll_then_move game (2 MiB)

# Slots of the game's results (docs/api.md column order).
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
OCC = TOT + STRIDE
CTR = OCC + MAX_PLAYERS
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
POLW = SEATS + K_SIZE * MAX_PLAYERS
START = POLW + PW_SIZE * MAX_PLAYERS
SKIPS = START + PIECE_SLOTS
UNDO = SKIPS + 3 * MAX_SKIPS
ROOT = UNDO + 4 * MAX_UNDO
OPT = ROOT + RT_SIZE
MDFS = OPT + MAX_PIECES
MRES = MDFS + MD_SIZE * (MAX_ROLLS + 1)
LEAF = MRES + N_SIZE
KIDS = LEAF + N_SIZE
NKIDS = KIDS + KID_SIZE * MAX_KIDS  # how many children `KIDS` holds
MEMO_HEAD = NKIDS + 1
MEMO = (MEMO_HEAD + MH_SIZE + 7) // 8 * 8  # entries start on a multiple of 8 words
W_SIZE = MEMO  # without the memo table

# Keyword arguments of every kernel helper. `_nrt=False` compiles without
# numba's reference counting: these helpers only index arrays they are given
# (they allocate nothing), and with counting on, every array argument costs an
# atomic increment and decrement per call, shared between threads.
HOT = {"cache": True, "_nrt": False}

# Index conversion for every computed index of the hot helpers: `w[ix(i)]`.
# Numba wraps negative signed indices around (`a[-1]` is the last element),
# which costs a sign test and a select on every access, in the dependency
# chain of the next one; an unsigned index skips that. The kernel never
# indexes with a negative value on purpose, so nothing is lost; an index
# computed wrongly reads far out of bounds instead of silently wrapping.
ix = np.uint64


def new_work(policies: np.ndarray, start: np.ndarray | None, memo_slots: int = 0) -> np.ndarray:
    """A work array with the run's policies, start position (None: all in the yard) and memo.

    `policies` holds one row of `PW_SIZE` per seat (`policy.compile_policies`);
    a 1-D array of zeros (the old policy codes) means `random` for every seat.
    `memo_slots` (0 or a power of two) sizes the plan memo table.
    """
    if memo_slots & (memo_slots - 1):
        raise ValueError(f"memo_slots must be 0 or a power of two, got {memo_slots}")
    w = np.zeros(W_SIZE + (E_SIZE + 1) * memo_slots, dtype=np.int64)
    policies = np.asarray(policies, dtype=np.int64)
    if policies.ndim == 1:
        if policies.any():
            raise ValueError("1-D policy codes: only 0 (random) exists")
        policies = np.zeros((len(policies), PW_SIZE), dtype=np.int64)
        policies[:, PW_RANDOM] = 1
    for seat, row in enumerate(policies):
        w[POLW + PW_SIZE * seat : POLW + PW_SIZE * seat + len(row)] = row
    w[MEMO_HEAD + MH_MAX] = memo_slots
    if start is not None:
        players, pieces = start.shape
        for seat in range(players):
            w[START + MAX_PIECES * seat : START + MAX_PIECES * seat + pieces] = start[seat]
    return w


@njit(**HOT)
def square_of(lay: np.ndarray, seat: int, p: int) -> int:
    """Absolute track square of `seat`'s piece at progress `p`, or -1 off the track."""
    return lay[ix(SQUARE + STRIDE * seat + p + 1)]


@njit(**HOT)
def reset_state(lay: np.ndarray, w: np.ndarray, has_start: bool) -> None:
    """Every piece in its yard, or on the run's start position; counters and stats zeroed."""
    w[PROGRESS:CTR] = 0
    w[CTR : CTR + C_SIZE] = 0
    w[STATS : STATS + S_SIZE * MAX_PLAYERS] = 0
    for seat in range(lay[R.PLAYERS]):
        for piece in range(lay[R.PIECES]):
            p = w[ix(START + MAX_PIECES * seat + piece)] if has_start else YARD
            w[ix(PROGRESS + MAX_PIECES * seat + piece)] = p
            sq = square_of(lay, seat, p)
            if sq >= 0:
                w[ix(CNT + STRIDE * seat + sq)] += 1
                w[ix(TOT + sq)] += 1
                w[ix(OCC + seat)] |= np.int64(sq < 64) << (sq & 63)


@njit(**HOT)
def put(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, p: int) -> None:
    """Move a piece to progress `p`, keeping the counts in step (as `Position.put`)."""
    old = square_of(lay, seat, w[ix(PROGRESS + MAX_PIECES * seat + piece)])
    relocate(lay, w, seat, piece, old, p, square_of(lay, seat, p))


@njit(**HOT)
def relocate(
    lay: np.ndarray, w: np.ndarray, seat: int, piece: int, old: int, p: int, new: int
) -> None:
    """`put` for a caller that already knows the old and new squares (-1: off the track)."""
    slot = MAX_PIECES * seat + piece
    if old >= 0:
        left = w[ix(CNT + STRIDE * seat + old)] - 1
        w[ix(CNT + STRIDE * seat + old)] = left
        w[ix(TOT + old)] -= 1
        # The occupancy bit goes with the last piece. Squares from 64 on (six-sided
        # tracks, where no mask is read: `policy.MASK_TRACK`) have no bit; `& 63`
        # keeps the shift defined for them.
        w[ix(OCC + seat)] &= ~(np.int64((left == 0) & (old < 64)) << (old & 63))
    w[ix(PROGRESS + slot)] = p
    if new >= 0:
        w[ix(CNT + STRIDE * seat + new)] += 1
        w[ix(TOT + new)] += 1
        w[ix(OCC + seat)] |= np.int64(new < 64) << (new & 63)
    if p == YARD or p == lay[R.GOAL]:
        w[ix(REV + slot)] = 0


@njit(**HOT)
def log_piece(w: np.ndarray, seat: int, piece: int) -> None:
    """Remember a piece's progress and reversed flag before changing it."""
    n = w[CTR + C_UNDO]
    row = UNDO + 4 * n
    w[ix(row)] = seat
    w[ix(row + 1)] = piece
    w[ix(row + 2)] = w[ix(PROGRESS + MAX_PIECES * seat + piece)]
    w[ix(row + 3)] = w[ix(REV + MAX_PIECES * seat + piece)]
    w[CTR + C_UNDO] = n + 1


@njit(**HOT)
def undo_to(lay: np.ndarray, w: np.ndarray, mark: int) -> None:
    """Take back every logged change after row `mark`, newest first."""
    n = w[CTR + C_UNDO]
    while n > mark:
        n -= 1
        row = UNDO + 4 * n
        seat = w[ix(row)]
        piece = w[ix(row + 1)]
        put(lay, w, seat, piece, w[ix(row + 2)])
        w[ix(REV + MAX_PIECES * seat + piece)] = w[ix(row + 3)]
    w[CTR + C_UNDO] = mark


@njit(**HOT)
def in_play(lay: np.ndarray, w: np.ndarray, seat: int) -> bool:
    """Some piece of `seat` is on the track or in its home column."""
    goal = lay[R.GOAL]
    for piece in range(lay[R.PIECES]):
        p = w[ix(PROGRESS + MAX_PIECES * seat + piece)]
        if p != YARD and p != goal:
            return True
    return False


@njit(**HOT)
def finished(lay: np.ndarray, w: np.ndarray, seat: int) -> bool:
    """Every piece of `seat` is in the goal."""
    goal = lay[R.GOAL]
    for piece in range(lay[R.PIECES]):
        if w[ix(PROGRESS + MAX_PIECES * seat + piece)] != goal:
            return False
    return True
