"""Rules and board compiled to one flat int64 array, the only form the kernel reads.

Every rule combination compiles to an array of the same dtype and shape, so
the kernel has one signature and is compiled once. Rules are never read from
module globals inside jitted code: numba freezes globals at compile time, so a
rule read that way would be silently ignored after the first call.

The layout array `lay` (int64[LAY_SIZE]) holds, at fixed offsets:

- `lay[R.*]`: one slot per toggle, encoded as small ints (`R`);
- `lay[SQUARE + STRIDE * seat + p + 1]`: absolute track square of seat `seat`
  at progress `p` (`YARD` included); -1 in the yard, home column and goal;
- `lay[TABLE + STRIDE * T.* + p]`: per-progress targets of special moves,
  the same for every seat because special squares repeat on every arm;
- `lay[SAFE + square]`: 1 where a lone piece cannot be captured.

One flat array rather than a tuple of 2-D arrays because numba passes every
array field by value: a call that is not inlined and takes a tuple of 2-D
arrays copies dozens of words, which costs more than most helpers' work.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from ludosim.board import YARD, Board
from ludosim.rules import GLOBE, STAR, Rules

# Face codes: numbers are themselves; the symbols follow 6 (as `face_rank`).
FACE_GLOBE = 7
FACE_STAR = 8

# Sentinel for "no such square / not allowed" in the tables.
NONE = -2

# Fixed maximum sizes, so that every offset below is a compile-time constant.
MAX_PLAYERS = 6
MAX_PIECES = 4
STRIDE = 96  # >= goal + 2 (at most 78 + 10 + 2) and >= track_len (at most 78)


class R(IntEnum):
    """Slots of the compiled rules (the first `R.SIZE` entries of `lay`)."""

    PLAYERS = 0
    SIDES = 1
    PIECES = 2
    TRACK_LEN = 3
    ENTRY = 4
    HOME_LEN = 5
    GOAL = 6
    FIRST_PLAYER = 7  # 0 roll-off, 1 random, 2 seat0
    START_ATTEMPTS = 8
    BONUS_ON_SIX = 9  # 0 always, 1 unless_entered, 2 never
    START_CAPACITY = 10
    BONUS_ON_CAPTURE = 11
    BONUS_ON_FINISH = 12
    SIX_LIMIT = 13
    NO_MOVE_ENDS_TURN = 14
    ROLL_THEN_MOVE = 15
    PASS_OWN = 16
    PASS_OPPONENTS = 17  # 0 all, 1 singles, 2 none
    SAFE_LANDING = 18  # 0 coexist, 1 lander_home
    CAPTURE_RULE = 19  # 0 lone_opponent, 1 lone_piece
    BLOCK_LANDING = 20  # 0 coexist, 1 lander_home, 2 capture
    START_CAPTURE = 21
    STAR_JUMP = 22  # 0 none, 1 goal, 2 next_lap
    FINISH = 23  # 0 exact, 1 bounce, 2 bounce_on
    FORCED_CAPTURE = 24
    DETECT_MODE = 25  # 0 never caught, 1 always caught, 2 draw uniform()
    DETECT_THRESHOLD = 26  # caught when (next64 >> 11) < threshold (see `detect_threshold`)
    PLAY_TO_END = 27
    SCORING = 28  # 0 none, 1 megajogos
    MAX_TURNS = 29
    ENTERING_FACE = 30  # 6, or FACE_GLOBE on the star-globe die
    PASS_ALL = 31  # 1 when no path square can ever bar a move (skip path checks)
    FACE0 = 32  # FACE0 .. FACE0 + 5: the die faces as codes
    SIZE = 38


class T(IntEnum):
    """Rows of the per-progress table (columns are progress 0 .. goal)."""

    IS_STAR = 0  # 1 on a track star
    STAR_FWD = 1  # where a star jump forwards from this star lands, or NONE
    STAR_BACK = 2  # where a star jump backwards from this star lands, or NONE
    GLOBE_MOVE = 3  # target of the globe face, or NONE
    STAR_MOVE = 4  # target of the star face, or NONE
    STEP_BACK = 5  # progress one square backwards, or NONE where the walk stops
    SIZE = 6


# Offsets of the sections of `lay`.
SQUARE = 64
TABLE = SQUARE + STRIDE * MAX_PLAYERS
SAFE = TABLE + STRIDE * T.SIZE
LAY_SIZE = SAFE + STRIDE

_CHOICES = {
    "first_player": ("roll-off", "random", "seat0"),
    "bonus_on_six": ("always", "unless_entered", "never"),
    "pass_opponents": ("all", "singles", "none"),
    "safe_landing": ("coexist", "lander_home"),
    "capture_rule": ("lone_opponent", "lone_piece"),
    "block_landing": ("coexist", "lander_home", "capture"),
    "star_jump": ("none", "goal", "next_lap"),
    "finish": ("exact", "bounce", "bounce_on"),
    "scoring": ("none", "megajogos"),
}


def face_code(face: int | str) -> int:
    """Kernel code of a die face: numbers as themselves, globe 7, star 8."""
    if face == GLOBE:
        return FACE_GLOBE
    if face == STAR:
        return FACE_STAR
    return int(face)


def detect_threshold(p: float) -> int:
    """Integer threshold equivalent to `uniform() < p` for `uniform() = (x >> 11) * 2**-53`.

    `(x >> 11) * 2**-53 < p` holds exactly when the integer `x >> 11` is below
    `ceil(p * 2**53)` (scaling by a power of two is exact), so the kernel
    compares integers and never rounds differently from the reference.
    """
    return int(np.ceil(p * float(1 << 53)))


def compile_rules(rules: Rules) -> np.ndarray:
    """The flat int64 rules array of `rules`, indexed by `R`."""
    out = np.zeros(R.SIZE, dtype=np.int64)
    out[R.PLAYERS] = rules.players
    out[R.SIDES] = rules.sides
    out[R.PIECES] = rules.pieces
    out[R.TRACK_LEN] = rules.track_len
    out[R.ENTRY] = rules.entry
    out[R.HOME_LEN] = rules.home_len
    out[R.GOAL] = rules.goal
    out[R.START_ATTEMPTS] = rules.start_attempts
    out[R.START_CAPACITY] = rules.start_capacity
    out[R.BONUS_ON_CAPTURE] = rules.bonus_on_capture
    out[R.BONUS_ON_FINISH] = rules.bonus_on_finish
    out[R.SIX_LIMIT] = rules.six_limit
    out[R.NO_MOVE_ENDS_TURN] = rules.no_move_ends_turn
    out[R.ROLL_THEN_MOVE] = rules.roll_then_move
    out[R.PASS_OWN] = rules.pass_own
    out[R.START_CAPTURE] = rules.start_capture
    out[R.FORCED_CAPTURE] = rules.forced_capture
    out[R.PLAY_TO_END] = rules.play_to_end
    out[R.MAX_TURNS] = rules.max_turns
    for name, choices in _CHOICES.items():
        out[R[name.upper()]] = choices.index(getattr(rules, name))
    p = rules.detect_skip
    out[R.DETECT_MODE] = 1 if p >= 1.0 else (0 if p <= 0.0 else 2)
    out[R.DETECT_THRESHOLD] = detect_threshold(p)
    out[R.ENTERING_FACE] = face_code(rules.entering_face)
    out[R.PASS_ALL] = rules.pass_own and rules.pass_opponents == "all"
    for i, face in enumerate(rules.die_faces):
        out[R.FACE0 + i] = face_code(face)
    return out


def _star_jump_forward(rules: Rules, board: Board, p: int) -> int:
    q = board.star_after(p)
    if q <= board.entry:
        return q
    if rules.star_jump == "goal":
        return board.goal
    q -= board.track_len
    # A next-lap jump can only land on track progress; a board whose entry lies
    # before its last star would send it below the start square, which is not
    # a square at all: no jump there (the reference has no defined behaviour).
    return q if q >= 0 else NONE


def compile_board(rules: Rules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The board of `rules` as 2-D arrays (before they are packed into `lay`).

    `square[seat, p + 1]`, `table[T.*, p]` (progress 0 .. goal) and `safe[square]`.
    """
    board = Board.from_rules(rules)
    goal = board.goal
    square = np.full((rules.players, goal + 2), -1, dtype=np.int64)
    for seat in range(rules.players):
        for p in range(YARD, goal + 1):
            square[seat, p + 1] = board.square(seat, p)
    table = np.full((T.SIZE, goal + 1), NONE, dtype=np.int64)
    table[T.IS_STAR] = 0
    for p in range(goal + 1):
        if board.is_star(p):
            table[T.IS_STAR, p] = 1
            if rules.star_jump != "none":
                table[T.STAR_FWD, p] = _star_jump_forward(rules, board, p)
                q = board.star_before(p)
                if q < 0:
                    # Behind the start square only where a backward walk could go too.
                    q = board.wrap_backwards(q) if board.wrap_backwards(-1) is not None else None
                table[T.STAR_BACK, p] = NONE if q is None else q
        if board.in_home_column(p):
            table[T.GLOBE_MOVE, p] = goal
        elif board.on_track(p):
            q = board.globe_after(p)
            table[T.GLOBE_MOVE, p] = NONE if q is None else q
            q = board.star_die_target(p)
            table[T.STAR_MOVE, p] = NONE if q is None else q
        if p >= 1:
            table[T.STEP_BACK, p] = p - 1
        else:
            q = board.wrap_backwards(p - 1)
            table[T.STEP_BACK, p] = NONE if q is None else q
    safe = board.safe_square.astype(np.int64)
    return square, table, safe


def compile_layout(rules: Rules) -> np.ndarray:
    """Everything the kernel needs to know about `rules`: the flat `lay` array."""
    if rules.players > MAX_PLAYERS or rules.pieces > MAX_PIECES or rules.goal + 2 > STRIDE:
        raise AssertionError("rules exceed the kernel's fixed maximum sizes")
    square, table, safe = compile_board(rules)
    lay = np.zeros(LAY_SIZE, dtype=np.int64)
    lay[: R.SIZE] = compile_rules(rules)
    for seat in range(rules.players):
        lay[SQUARE + STRIDE * seat : SQUARE + STRIDE * seat + square.shape[1]] = square[seat]
    for row in range(T.SIZE):
        lay[TABLE + STRIDE * row : TABLE + STRIDE * row + table.shape[1]] = table[row]
    lay[SAFE : SAFE + safe.shape[0]] = safe
    return lay
