"""Rules and board compiled to one flat int64 array, the only form the kernel reads.

Every rule combination compiles to an array of the same dtype and shape, so
the kernel has one signature and is compiled once. Rules are never read from
module globals inside jitted code: numba freezes globals at compile time, so a
rule read that way would be silently ignored after the first call.

The layout array `lay` (int64[LAY_SIZE]) holds, at fixed offsets:

- `lay[R.*]`: one slot per `bool`, `int` and `choice` toggle of the table
  `ludosim.rules.toggles.TOGGLES`, named after it in capitals and holding its
  kernel code (`Toggle.code`), then slots derived from several toggles;
- `lay[SQUARE + STRIDE * seat + p + 1]`: absolute track square of seat `seat`
  at progress `p` (`YARD` included, and a lapping piece's codes after the goal);
  -1 in the yard, home column and goal;
- `lay[TABLE + STRIDE * T.* + p]`: per-progress targets of special moves,
  the same for every seat because special squares repeat on every arm and
  every start square sits at the same offset of its arm;
- `lay[SAFE + square]`: 1 where a lone piece cannot be captured.

Choice codes are the plain constants of `ludosim.engine.codes`, named
`<TOGGLE>_<VALUE>` in capitals (`FINISH_EXACT`, `BLOCK_LANDING_CAPTURE`,
`FIRST_PLAYER_ROLL_OFF`) and generated from the table (`python -m
ludosim.rules.gen_codes --write`); the kernel compares slots with these names,
never with bare numbers. Numba freezes them as constants, like literals.

One flat array rather than a tuple of 2-D arrays because numba passes every
array field by value: a call that is not inlined and takes a tuple of 2-D
arrays copies dozens of words, which costs more than most helpers' work.
"""

from __future__ import annotations

from enum import IntEnum

import numpy as np

from ludosim.rules.board import YARD, Board
from ludosim.rules.model import GLOBE, STAR, Rules
from ludosim.rules.toggles import MAX_ARM, TOGGLES

# Face codes: numbers are themselves; the symbols follow 6 (as `face_rank`).
FACE_GLOBE = 7
FACE_STAR = 8

# Sentinel for "no such square / not allowed" in the tables.
NONE = -2

# Fixed maximum sizes, so that every offset below is a compile-time constant.
MAX_PLAYERS = 6
# The seat index of nobody: its row of square counts stays empty (`state.CNT`).
NOBODY = MAX_PLAYERS
MAX_PIECES = 4
# >= goal + 2 (the longest lap, six arms of MAX_ARM squares, then the longest
# home column and the goal) and >= track_len
STRIDE = 128
if MAX_PLAYERS * MAX_ARM + TOGGLES["home_len"].high + 2 > STRIDE:
    raise AssertionError(f"the longest board does not fit in STRIDE = {STRIDE}")


# Slots computed from several toggles, after the toggles' own slots.
_DERIVED_SLOTS = (
    "TRACK_LEN",  # arm_length * sides
    "GOAL",  # progress of a finished piece
    "HOME_FROM",  # least progress of a piece that counts as home
    "WIN_NEED",  # pieces at HOME_FROM or beyond that finish a seat (win_pieces, or all)
    "DETECT_MODE",  # DETECT_NEVER, DETECT_ALWAYS or DETECT_DRAW (from detect_skip)
    "DETECT_THRESHOLD",  # caught when (next64 >> 11) < threshold (see `detect_threshold`)
    "ENTER_MASK",  # bit `face_code(f)` set for every face f that brings a piece out
    # 1 when no square, on the path or where it lands, can bar a move and no
    # compulsory rule limits the moves: path checks are skipped, and a roll's
    # moves are `free_movers`
    "PASS_ALL",
    "HAS_TEAMS",  # 1 when `teams` groups the seats
    "FACE0",  # FACE0 .. FACE0 + 5: the die faces as codes
)
_SLOT_NAMES = [n.upper() for n, t in TOGGLES.items() if t.has_slot] + list(_DERIVED_SLOTS)

# Slots of the compiled rules (the first `R.SIZE` entries of `lay`): one per
# toggle with a slot, then the derived ones; FACE0 is followed by the other
# five faces, then TEAM0 .. TEAM0 + MAX_PLAYERS - 1, each seat's team, then
# PARTNER0 .. PARTNER0 + 2 * MAX_PLAYERS - 1, each seat's two partner seats (`NOBODY`
# where it has fewer: teams are of equal size, so at most three seats of six).
R = IntEnum(
    "R",
    [
        *((name, i) for i, name in enumerate(_SLOT_NAMES)),
        ("TEAM0", len(_SLOT_NAMES) + 5),
        ("PARTNER0", len(_SLOT_NAMES) + 5 + MAX_PLAYERS),
        ("SIZE", len(_SLOT_NAMES) + 5 + 3 * MAX_PLAYERS),
    ],
    module=__name__,
)

# `lay[R.DETECT_MODE]`: whether a skipped forced capture is caught.
DETECT_NEVER = 0
DETECT_ALWAYS = 1
DETECT_DRAW = 2  # caught when a uniform() draw falls below detect_skip


class T(IntEnum):
    """Rows of the per-progress table (columns are progress 0 .. goal, and under
    `home_unlock` a lapping piece's codes goal + 1 .. goal + tail)."""

    IS_STAR = 0  # 1 on a track star
    STAR_FWD = 1  # where a star jump forwards from this star lands, or NONE
    STAR_BACK = 2  # where a star jump backwards from this star lands, or NONE
    GLOBE_MOVE = 3  # target of the globe face, or NONE
    STAR_MOVE = 4  # target of the star face, or NONE
    STEP_BACK = 5  # progress one square backwards, or NONE where the walk stops
    # For a piece going on past its entry (`home_unlock`: its seat locked, or the piece
    # lapping), whose targets lie round the track, never in its home column:
    STAR_LAP = 6  # where a star jump forwards from this star lands, or NONE
    GLOBE_LAP = 7  # squares the globe face takes it, or NONE
    STAR_DIE_LAP = 8  # squares the star face takes it, or NONE
    SIZE = 9


# Offsets of the sections of `lay`.
SQUARE = 96  # after the rule slots (`R.SIZE`)
TABLE = SQUARE + STRIDE * MAX_PLAYERS
SAFE = TABLE + STRIDE * T.SIZE
LAY_SIZE = SAFE + STRIDE
if R.SIZE > SQUARE:
    raise AssertionError(f"{R.SIZE} rule slots do not fit before SQUARE = {SQUARE}")

# Toggles without a slot of their own, and the slots or sections that carry
# them. A toggle in neither this table nor `R` makes `compile_rules` fail.
COMPILED_ELSEWHERE = {
    "safe": "the SAFE section (`compile_board`)",
    "detect_skip": "R.DETECT_MODE and R.DETECT_THRESHOLD",
    "die_faces": "R.FACE0 .. R.FACE0 + 5",
    "enter_faces": "R.ENTER_MASK",
    "seating": "the SQUARE section (`compile_board`)",
    "teams": "R.HAS_TEAMS, R.TEAM0 .. R.TEAM0 + 5 and R.PARTNER0 .. R.PARTNER0 + 11",
    "globe_offsets": "the TABLE and SAFE sections (`compile_board`)",
    "star_offsets": "the TABLE and SAFE sections (`compile_board`)",
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
    """The flat int64 rules array of `rules`, indexed by `R`.

    Raises AssertionError naming any toggle of the table that reaches neither
    a slot nor `COMPILED_ELSEWHERE`, so a new toggle cannot be silently ignored.
    """
    unmapped = [n for n, t in TOGGLES.items() if not t.has_slot and n not in COMPILED_ELSEWHERE]
    if unmapped:
        raise AssertionError(
            f"toggle(s) {', '.join(unmapped)} reach no kernel slot: give them a slot kind "
            "(bool, int, choice) or compile them in ludosim/engine/layout.py"
        )
    out = np.zeros(R.SIZE, dtype=np.int64)
    for name, toggle in TOGGLES.items():
        if toggle.has_slot:
            out[R[name.upper()]] = toggle.code(getattr(rules, name))
    out[R.TRACK_LEN] = rules.track_len
    out[R.GOAL] = rules.goal
    out[R.HOME_FROM] = rules.home_from
    out[R.WIN_NEED] = rules.win_need
    p = rules.detect_skip
    out[R.DETECT_MODE] = DETECT_ALWAYS if p >= 1.0 else (DETECT_NEVER if p <= 0.0 else DETECT_DRAW)
    out[R.DETECT_THRESHOLD] = detect_threshold(p)
    out[R.ENTER_MASK] = sum(1 << face_code(f) for f in rules.entering_faces)
    out[R.PASS_ALL] = (
        rules.pass_own
        and rules.pass_opponents == "all"
        and rules.block_landing != "forbidden"
        and rules.land_on_own
        and not (rules.must_enter or rules.clear_start)
    )
    for i, face in enumerate(rules.die_faces):
        out[R.FACE0 + i] = face_code(face)
    out[R.HAS_TEAMS] = bool(rules.teams)
    for seat in range(rules.players):
        out[R.TEAM0 + seat] = rules.team_of(seat)
        partners = [
            s for s in range(rules.players) if s != seat and rules.team_of(s) == rules.team_of(seat)
        ]
        if len(partners) > 2:
            raise ValueError(f"seat {seat} has {len(partners)} partners; the kernel holds two")
        for k in range(2):
            out[R.PARTNER0 + 2 * seat + k] = partners[k] if k < len(partners) else NOBODY
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

    `square[seat, p + 1]` (progress up to goal + tail), `table[T.*, p]` (progress
    0 .. goal) and `safe[square]`.
    """
    board = Board.from_rules(rules)
    goal = board.goal
    last = goal + board.tail  # a lapping piece's codes follow the goal (`home_unlock`)
    square = np.full((rules.players, last + 2), -1, dtype=np.int64)
    for seat in range(rules.players):
        for p in range(YARD, last + 1):
            square[seat, p + 1] = board.square(seat, p)
    table = np.full((T.SIZE, last + 1), NONE, dtype=np.int64)
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
    if rules.home_unlock != "none":
        _compile_lap_rows(rules, board, table)
    safe = board.safe_square.astype(np.int64)
    return square, table, safe


def _compile_lap_rows(rules: Rules, board: Board, table: np.ndarray) -> None:
    """The rows of a piece going on past its entry, on every track code (lap codes included)."""
    for p in range(board.goal + board.tail + 1):
        if not board.on_track(p):
            continue
        if board.is_star(p):
            table[T.IS_STAR, p] = 1
            if rules.star_jump != "none":
                table[T.STAR_LAP, p] = board.lap_star_jump(p)
        q = board.lap_globe_steps(p)
        table[T.GLOBE_LAP, p] = NONE if q is None else q
        q = board.lap_star_steps(p)
        table[T.STAR_DIE_LAP, p] = NONE if q is None else q


def compile_layout(rules: Rules) -> np.ndarray:
    """Everything the kernel needs to know about `rules`: the flat `lay` array."""
    square, table, safe = compile_board(rules)
    if rules.players > MAX_PLAYERS or rules.pieces > MAX_PIECES or square.shape[1] > STRIDE:
        raise AssertionError("rules exceed the kernel's fixed maximum sizes")
    lay = np.zeros(LAY_SIZE, dtype=np.int64)
    lay[: R.SIZE] = compile_rules(rules)
    for seat in range(rules.players):
        lay[SQUARE + STRIDE * seat : SQUARE + STRIDE * seat + square.shape[1]] = square[seat]
    for row in range(T.SIZE):
        lay[TABLE + STRIDE * row : TABLE + STRIDE * row + table.shape[1]] = table[row]
    lay[SAFE : SAFE + safe.shape[0]] = safe
    return lay
