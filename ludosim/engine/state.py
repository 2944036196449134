"""The game state and every scratch buffer, as one flat int64 work array `w`.

Each chunk of games owns one work array (`new_work`); nothing is allocated
per game or per roll. The array is cut into the sections of `SECTIONS`, in
that order, each sized for the largest game (`MAX_PLAYERS` seats of
`MAX_PIECES` pieces on a `STRIDE`-square track), so every section starts at
a compile-time constant offset (`PROGRESS`, `REV`, ... below, computed from
the table). A row's fields are one `IntEnum` namespace (`M.PIECE`, `MD.FACE`, ...,
as `layout.R`), declared with their encodings before the table.

The kernel reads and writes `w` only through the index functions at the
end of this module (`w[progress_at(seat, piece)]`, `w[depth_at(d, MD.FACE)]`):
each is a `register_jitable` function that LLVM inlines, where it folds to
the same constant plus small product that a hand-written offset would, as an
unsigned index (`ix`).

The counts make a landing or a path check read one square instead of
scanning every piece; the undo log lets the Killer plan search try moves on
the live state and take them back (the operations that keep both in step
with the pieces are in `ludosim.engine.position`). The memo table is the
last section and its size depends on the rules (`new_work(...,
memo_slots)`): a single-roll game never needs it.
"""

from __future__ import annotations

from enum import IntEnum
from typing import NamedTuple

import numpy as np
from numba.extending import register_jitable

from ludosim.engine.layout import MAX_PIECES, MAX_PLAYERS, STRIDE

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
FACE_SLOTS = 16  # remaining rolls by face code (codes 1-8 in use)
PIECE_SLOTS = MAX_PLAYERS * MAX_PIECES


# ---------------------------------------------------------------- fields of the rows
# Per-game counters (`counter_at`).
class C(IntEnum):
    ROLLS = 0  # die rolls so far (roll-off excluded)
    UNDO = 1  # rows of the undo log in use
    SKIPS = 2  # skipped forced captures recorded this turn
    SIZE = 3


# Per-seat statistics of a game (`stat_at`): one row of MAX_PLAYERS seats each,
# in the order of the per-seat result columns that follow `K.PLACE`.
class S(IntEnum):
    CAPTURES = 0  # opponent pieces the seat captured
    CAPTURED = 1  # own pieces captured
    RETURNED = 2  # own pieces sent back to the yard by their own landing
    SKIPPED = 3  # forced captures the seat skipped
    CAUGHT = 4  # skips the puster caught
    SIZE = 5


# Per-seat lists of one game (`seat_list_at`): one row of MAX_PLAYERS each.
class SB(IntEnum):
    CONTENDERS = 0  # roll-off contenders (seat numbers), first `m` in use
    THROWS = 1  # their throws (0-5)
    DONE = 2  # 1 once the seat has every piece home
    ORDER = 3  # seats in finishing order, first `nfin` in use
    SCORE = 4  # ranking score of the seats that did not finish
    ENTERED = 5  # 1 once a piece of the seat has left its yard (start_attempts_when)
    UNLOCKED = 6  # 1 once the seat has captured: its home column is open (home_unlock)
    SIZE = 7


# A legal move of the current roll (`move_at`).
class M(IntEnum):
    PIECE = 0  # piece index
    TARGET = 1  # landing progress before any star jump
    FLAGS = 2  # `moves.BACKWARDS | BOUNCED | ENTERING`
    CAPS = 3  # opponent pieces it captures (filled only where captures matter)
    SIZE = 4


# Summary of the options of a roll (`best_at`).
class B(IntEnum):
    STEPS = 0  # steps of the chosen plan
    CHOSEN_CAPS = 1  # captures of the chosen plan
    SIZE = 2


# A step of the chosen plan (`chosen_at`).
class CH(IntEnum):
    FACE = 0  # face code played
    PIECE = 1  # piece that plays it
    SIZE = 2


# A skipped forced capture (`skip_at`): what the puster needs of the options.
class SK(IntEnum):
    MOST = 0  # most captures of one option
    FIRST = 1  # capturing pieces (mask) of the first option with the most captures
    UNION = 2  # pieces that capture in some option (mask)
    SIZE = 3


# A row of the undo log (`undo_at`): a piece as it was before a change, or with
# U.PIECE = U.UNLOCK a seat before its first capture opened its home column, or with
# U.PIECE = U.LAPS0 - piece that piece's laps (`LAPS`) before a change, in U.PROGRESS.
class U(IntEnum):
    SEAT = 0
    PIECE = 1
    PROGRESS = 2  # its progress
    REVERSED = 3  # its reversed flag
    UNLOCK = -1
    LAPS0 = -2
    SIZE = 4


# A seat's policy (`policy_at`; built by `ludosim.engine.policy.compile_policies`).
N_FEATURES = 10


# PW.WEIGHTS + f: multiplier of feature f (FEATURES order) in a score: its weight in
# thousandths, times 6**5 for a base feature when a look-ahead feature weighs
# (`ludosim.rules.policies.score_weights`).
class PW(IntEnum):
    WEIGHTS = 0
    RANDOM = WEIGHTS + N_FEATURES  # 1 when every weight is 0: no feature is ever computed
    SKIP_MODE = RANDOM + 1  # skipper: 0 never skips, 1 always may, 2 draws uniform()
    SKIP_THRESHOLD = SKIP_MODE + 1  # skips when (next64 >> 11) < threshold
    GUARD = SKIP_THRESHOLD + 1  # + 16 * arriving + index: weighted guard change
    SIZE = GUARD + 32


# Look-ahead features count probabilities in units of 1 / 6**5: an integer for
# every number of opponents (`ludosim.rules.policies.PROB_UNIT`).
PROB_UNIT = 6**5
DIE_SLOTS = 6  # faces of the die, R.FACE0 .. R.FACE0 + 5


# The position before an option, which the features compare with (`root_at`).
class RT(IntEnum):
    STANDING = 0  # own progress + 1 summed (yard 0, goal goal + 1)
    YARD = 1  # own pieces in the yard
    GOAL = 2  # own pieces in the goal
    SIZE = 3


# Values of a plan-tree node (the summary of every best-key continuation from it),
# at any offset `node` of `w` (`summary_at(node, N.*)`).
class N(IntEnum):
    BEST = 0  # best key of the continuations (0: a leaf, no roll can be used)
    MALL = 1  # best final score among them ...
    CALL = 2  # ... and how many reach it
    MCAP = 3  # best final score among the capturing ones (NEG_SCORE if none) ...
    CCAP = 4  # ... and how many reach it
    MOST = 5  # most captures of one continuation
    FIRST = 6  # capturing pieces (mask) of the first continuation with the most captures
    UNION = 7  # pieces that capture in some continuation (mask)
    SIZE = 8


NEG_SCORE = -(1 << 62)


# A row of the memoised plan-search stack, one per depth (`depth_at`).
class MD(IntEnum):
    FACE = 0  # face of the move tried last from this node (starts at the top face)
    PIECE = 1  # piece of that move (-1 before the first)
    MARK = 2  # undo rows in use before this depth's move
    CAPS = 3  # captures of this depth's move
    EXT = 4  # 1 when this node has at least one legal move (else it is a leaf)
    K1 = 5  # the node's memo key, first word ...
    K2 = 6  # ... and second word
    TAKEN = 7  # opponent pieces captured on the way from the root to this node
    ACC = 8  # MD.ACC + N.*: the node's summary, accumulated over its children
    SIZE = ACC + N.SIZE


# A child of the turn's root, kept so the pick walk need not try it again (`kid_at`).
class KID(IntEnum):
    FACE = 0
    PIECE = 1
    CAPS = 2  # captures of the move to the child
    SUMMARY = 3  # KID.SUMMARY + N.*: the child's summary
    SIZE = SUMMARY + N.SIZE


MAX_KIDS = 32  # distinct faces (at most 8) x pieces (at most 4)


# Memo table header (`memo_head_at`).
class MH(IntEnum):
    CAP = 0  # entries in use by the current search (a power of two; 0: no table)
    MAX = 1  # entries allocated: the table grows up to this
    USED = 2  # entries stored by the current search
    FULL = 3  # 1 once the current search found the table full
    SIZE = 4


# A memo table entry (`entry_at`).
class E(IntEnum):
    K1 = 0  # the node's key; an entry is empty when E.K2 is 0 (a stored node has a roll left)
    K2 = 1
    BEST = 2  # E.BEST .. E.BEST + N.CCAP: N.BEST .. N.CCAP of the node
    PUSTER = 7  # N.MOST << 8 | N.FIRST << 4 | N.UNION
    SIZE = 8  # one 64-byte cache line


MEMO_START = 1 << 10  # entries a search starts with: small enough to stay in the caches
MEMO_SLOTS = 1 << 15  # entries allocated for a roll_then_move game (2 MiB)


# The game's results (`result_at`; docs/api.md column order).
class H(IntEnum):
    FIRST = 0  # seat that took the first turn
    WINNER = 1  # first seat to finish, -1 if none did
    TURNS = 2  # turns until the winner finished (every turn without a winner)
    ROLLS = 3  # die rolls until then
    END_TURNS = 4  # turns until the game ended
    TRUNCATED = 5  # 1 when the turn limit ended the game
    SIZE = 6


# Per-seat results (`seat_result_at`): one row of MAX_PLAYERS seats each.
class K(IntEnum):
    PLACE = 0  # finishing place, 1 = winner
    STATS = 1  # K.STATS + S.*: the seat's statistics of the game
    POINTS = STATS + S.SIZE  # megajogos points
    SIZE = POINTS + 1


# Game-flow counters of a game (`flow_at`; docs/flow.md), kept only by runs that count them.
class FL(IntEnum):
    LEADER = 0  # seat leading at the last boundary, -1 before any seat has led
    CHANGES = 1  # lead changes so far
    BOUNDARY = 2  # boundaries counted so far (the next one's number)
    MID = 3  # first boundary at which a seat had run half its race (-1 before)
    EVERY = 4  # snapshot every this many boundaries (0: none); set for the run, kept by games
    SNAPS = 5  # snapshots taken so far in this game
    SIZE = 6


# Per-seat game-flow counters (`seat_flow_at`): one row of MAX_PLAYERS seats each.
class FS(IntEnum):
    TOTAL = 0  # total at the current boundary: progress + 1 per piece (yard 0, goal goal + 1)
    NOT_LED = 1  # last boundary at which the seat did not lead (-1: it led at every one)
    DEFICIT = 2  # largest deficit: the most total of another seat minus its own, at least 0
    LAST = 3  # boundaries with the least total (ties included) while some seat had more
    BEHIND = 4  # boundaries at which another seat led
    BEHIND_SUM = 5  # the seat's deficits summed over those boundaries
    CAPTURES = 6  # the seat's captures (S.CAPTURES) when the totals were last counted
    LAST_AT_MID = 7  # 1 if the seat was last at boundary FL.MID
    SIZE = 8


# The game's flow results (`flow_result_at`), for the winner; -1 but F.LEAD_CHANGES without one.
class F(IntEnum):
    LEAD_CHANGES = 0
    DECIDED_AT = 1  # the boundary from which the winner led for good
    MAX_DEFICIT = 2
    TURNS_LAST = 3
    TURNS_BEHIND = 4
    BEHIND_SUM = 5  # drama = F.BEHIND_SUM / F.TURNS_BEHIND (0 when never behind)
    MID_AT = 6  # the boundary FL.MID (for every game, with a winner or not)
    LAST_AT_MID = 7  # 1 if the winner was last at mid-game, else 0
    SIZE = 8


# Snapshots of the seats' totals (`snap_at`), taken by runs that ask for them.
SNAP_CAP = 256  # snapshots kept per game; a longer game keeps its first SNAP_CAP


# The expert's search (`expert_at`; `ludosim.engine.expert`).
class X(IntEnum):
    DECISIONS = 0  # searched decisions of the game so far: the rollout streams' decision number
    RECORDED = 1  # choices written to XREC this game (counted on past its size)
    SIZE = 2


# An expert seat's settings (`expert_seat_at`): one row of MAX_PLAYERS seats each.
class XS(IntEnum):
    ROLLOUTS = 0  # rollouts per option of the seat's searched decisions (0: not an expert)
    HORIZON = 1  # turns a rollout plays before it is scored by progress (0: to the end)
    # 1: the fictive player (one rollout per option, on the game's own stream: the dice to
    # come), which plays the option of the best rollout; 0: the expert's rollout streams and test.
    FICTIVE = 2
    SIZE = 3


# An option of the decision being searched (`value_at`): its rollout values against
# those of the option the base policy prefers, rollout by rollout (common dice).
class XV(IntEnum):
    SUM = 0  # summed differences
    SQUARES = 1  # summed squared differences
    LAST = 2  # value of its last rollout
    SIZE = 3


MAX_RECORD = 1024  # searched choices a game records (`expert_choice_at`)
RECORD_SHIFT = 32  # a recorded choice is options << RECORD_SHIFT | the option chosen
# A Killer plan the expert searches (`candidate_at`): the options its base policy
# scores highest, each with its steps CH.* (`candidate_step_at`).
PLAN_CANDIDATES = 4  # options of a plan decision the rollouts compare


class XP(IntEnum):
    INDEX = 0  # the option's index among the decision's options (engine order)
    STEPS = 1  # its steps
    SCORE = 2  # the base policy's score of where it ends
    STEP0 = 3  # the first step's fields
    SIZE = STEP0 + CH.SIZE * MAX_ROLLS


# ---------------------------------------------------------------- the section table
class Section(NamedTuple):
    """One section of the work array: its name, size in words and what it holds."""

    name: str
    words: int
    holds: str
    align: int = 1  # the section starts on a multiple of this many words


# The position: reset at the start of every game, with the counters and stats.
POSITION_SECTIONS = (
    Section("PROGRESS", PIECE_SLOTS, "progress of each piece: YARD (-1), 0 (start) .. goal"),
    Section("REV", PIECE_SLOTS, "1 while a bounce_on piece walks backwards"),
    # One row more than seats: row NOBODY stays empty, for the partner slots of a
    # seat without partners (`moves.partners_on`).
    Section("CNT", STRIDE * (MAX_PLAYERS + 1), "pieces of a seat on each track square"),
    Section("TOT", STRIDE, "pieces of all seats on each track square"),
    Section("OCC", MAX_PLAYERS, "bit `square` set where the seat has a piece (squares 0-63)"),
    Section("CTR", C.SIZE, "per-game counters C.*"),
    Section("STATS", S.SIZE * MAX_PLAYERS, "per-seat statistics S.* of the game"),
    Section("LAPS", PIECE_SLOTS, "new laps a piece going on past its entry began (home_unlock)"),
)
# A snapshot of the game before the expert's search (`XSAVE`, `saved_at`): the
# position sections above, then the per-seat lists, then the turn's skipped captures.
SAVE_POSITION = 0
SAVE_SEATBUF = sum(section.words for section in POSITION_SECTIONS)
SAVE_SKIPS = SAVE_SEATBUF + SB.SIZE * MAX_PLAYERS
SAVE_SIZE = SAVE_SKIPS + SK.SIZE * MAX_SKIPS

SECTIONS = (
    *POSITION_SECTIONS,
    # Scratch.
    Section("DUMMY", S.SIZE * MAX_PLAYERS, "as STATS: the sink for moves only tried"),
    Section("SEATBUF", SB.SIZE * MAX_PLAYERS, "per-seat lists SB.* of one game"),
    Section("MOVES", M.SIZE * MAX_PIECES, "legal moves M.* of the current roll"),
    Section("BEST", B.SIZE, "summary B.* of the chosen plan"),
    Section("REM", FACE_SLOTS, "rolls left to play, by face code (plan search)"),
    Section("ROLLS", MAX_ROLLS, "face codes of a Killer turn's rolls"),
    Section("CHOSEN", CH.SIZE * MAX_ROLLS, "steps CH.* of the chosen plan"),
    # Results, read by the batch runners.
    Section("HEAD", H.SIZE, "the game's results H.*"),
    Section("SEATS", K.SIZE * MAX_PLAYERS, "per-seat results K.*"),
    Section("FLOWRES", F.SIZE, "the game's flow results F.*"),
    # Game-flow counters, set up at the start of a game that counts them.
    Section("FLOW", FL.SIZE, "game-flow counters FL.*"),
    Section("SEATFLOW", FS.SIZE * MAX_PLAYERS, "per-seat game-flow counters FS.*"),
    Section("SNAPS", SNAP_CAP * MAX_PLAYERS, "seat totals at every FL.EVERY-th boundary"),
    # Set by `new_work` for the whole run.
    Section("POLW", PW.SIZE * MAX_PLAYERS, "each seat's policy PW.*"),
    Section("START", PIECE_SLOTS, "start position of the run, as PROGRESS"),
    # Scratch of decisions and of the plan search.
    Section("SKIPS", SK.SIZE * MAX_SKIPS, "skipped forced captures SK.* of the turn"),
    Section("UNDO", U.SIZE * MAX_UNDO, "undo log U.*; C.UNDO rows in use"),
    Section("ROOT", RT.SIZE, "the position RT.* before an option"),
    Section("OPT", MAX_PIECES, "score of each single-roll option, by move row"),
    Section(
        "LOOK",
        DIE_SLOTS * MAX_PLAYERS,
        "per seat and die face slot: pieces (bit 4 * seat + piece) a roll of it may capture",
    ),
    Section("MDFS", MD.SIZE * (MAX_ROLLS + 1), "memoised plan-search stack MD.*, by depth"),
    Section("MRES", N.SIZE, "summary N.* of the last node summarised"),
    Section("LEAF", N.SIZE, "summary N.* of a leaf being folded in"),
    Section("KIDS", KID.SIZE * MAX_KIDS, "the turn root's children KID.*, in plan order"),
    Section("NKIDS", 1, "how many children KIDS holds"),
    Section("MEMO_HEAD", MH.SIZE, "memo table header MH.*"),
    # The expert's search (`ludosim.engine.expert`), set by `new_work` where a seat is one.
    Section("XSEAT", XS.SIZE * MAX_PLAYERS, "each seat's expert settings XS.*"),
    Section("XCTR", X.SIZE, "the expert's counters X.*"),
    Section("XOPT", M.SIZE * MAX_PIECES, "the options M.* of the decision being searched"),
    Section(
        "XVALUE",
        XV.SIZE * max(MAX_PIECES, PLAN_CANDIDATES),
        "each option's rollout values XV.*",
    ),
    Section("XPLAN", XP.SIZE * PLAN_CANDIDATES, "the candidate plans XP.* of a plan decision"),
    Section("XSAVE", SAVE_SIZE, "the game before the search: position, seat lists, skips"),
    Section(
        "XREC", MAX_RECORD, "options << RECORD_SHIFT | choice of each searched decision, in order"
    ),
    # Sized by `new_work`: `memo_slots` entries E.*, then the `memo_slots` slots
    # stored by the current search (to clear them). On a whole cache line.
    Section("MEMO", 0, "memo table entries E.*, then the stored slots", align=8),
)


def section_offsets(sections: tuple[Section, ...]) -> dict[str, int]:
    """Offset of every section, laid out in table order; "W_SIZE": where the last one ends."""
    offsets = {}
    at = 0
    for section in sections:
        at = -(-at // section.align) * section.align
        offsets[section.name] = at
        at += section.words
    offsets["W_SIZE"] = at
    return offsets


OFFSETS = section_offsets(SECTIONS)
# Module constants, so that numba freezes each offset into the code that reads it.
PROGRESS = OFFSETS["PROGRESS"]
REV = OFFSETS["REV"]
CNT = OFFSETS["CNT"]
TOT = OFFSETS["TOT"]
OCC = OFFSETS["OCC"]
CTR = OFFSETS["CTR"]
STATS = OFFSETS["STATS"]
LAPS = OFFSETS["LAPS"]
DUMMY = OFFSETS["DUMMY"]
SEATBUF = OFFSETS["SEATBUF"]
MOVES = OFFSETS["MOVES"]
BEST = OFFSETS["BEST"]
REM = OFFSETS["REM"]
ROLLS = OFFSETS["ROLLS"]
CHOSEN = OFFSETS["CHOSEN"]
HEAD = OFFSETS["HEAD"]
SEATS = OFFSETS["SEATS"]
FLOWRES = OFFSETS["FLOWRES"]
FLOW = OFFSETS["FLOW"]
SEATFLOW = OFFSETS["SEATFLOW"]
SNAPS = OFFSETS["SNAPS"]
POLW = OFFSETS["POLW"]
START = OFFSETS["START"]
SKIPS = OFFSETS["SKIPS"]
UNDO = OFFSETS["UNDO"]
ROOT = OFFSETS["ROOT"]
OPT = OFFSETS["OPT"]
LOOK = OFFSETS["LOOK"]
MDFS = OFFSETS["MDFS"]
MRES = OFFSETS["MRES"]
LEAF = OFFSETS["LEAF"]
KIDS = OFFSETS["KIDS"]
NKIDS = OFFSETS["NKIDS"]
MEMO_HEAD = OFFSETS["MEMO_HEAD"]
XSEAT = OFFSETS["XSEAT"]
XCTR = OFFSETS["XCTR"]
XOPT = OFFSETS["XOPT"]
XVALUE = OFFSETS["XVALUE"]
XPLAN = OFFSETS["XPLAN"]
XSAVE = OFFSETS["XSAVE"]
XREC = OFFSETS["XREC"]
MEMO = OFFSETS["MEMO"]
W_SIZE = OFFSETS["W_SIZE"]  # without the memo table

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

# Index functions: `w[name_at(...)]` reads or writes one word. They are
# `register_jitable` (typed like numba's own overloads) rather than `njit`:
# a call from the kernel is typed with plain integer arguments, so one
# compiled copy serves every constant field (an `njit` callee compiles a copy
# per literal value), and LLVM inlines the tiny body into each caller. Inlining
# them at numba-IR level instead (`inline="always"`) gave the same machine code
# but cost seconds of first compile: every call site copies the callee's IR.
# From Python (the tests, `NUMBA_DISABLE_JIT=1`) they are plain functions.


@register_jitable
def progress_at(seat: int, piece: int) -> np.uint64:
    """Progress of a piece: YARD (-1), 0 (start square) .. goal."""
    return ix(PROGRESS + MAX_PIECES * seat + piece)


@register_jitable
def reversed_at(seat: int, piece: int) -> np.uint64:
    """1 while a bounce_on piece walks backwards, else 0."""
    return ix(REV + MAX_PIECES * seat + piece)


@register_jitable
def laps_at(seat: int, piece: int) -> np.uint64:
    """New laps a piece going on past its entry began since it entered (`home_unlock`):
    its points per square count a whole lap for each."""
    return ix(LAPS + MAX_PIECES * seat + piece)


@register_jitable
def count_at(seat: int, square: int) -> np.uint64:
    """Pieces of `seat` on track square `square`."""
    return ix(CNT + STRIDE * seat + square)


@register_jitable
def total_at(square: int) -> np.uint64:
    """Pieces of every seat on track square `square`."""
    return ix(TOT + square)


@register_jitable
def occupancy_at(seat: int) -> np.uint64:
    """Mask of the track squares 0-63 where `seat` has a piece."""
    return ix(OCC + seat)


@register_jitable
def counter_at(counter: int) -> np.uint64:
    """Per-game counter `C.*`."""
    return ix(CTR + counter)


@register_jitable
def stat_at(stats: int, stat: int, seat: int) -> np.uint64:
    """Statistic `S.*` of `seat` in the statistics at `stats` (`STATS`, or `DUMMY`)."""
    return ix(stats + MAX_PLAYERS * stat + seat)


@register_jitable
def seat_list_at(row: int, j: int) -> np.uint64:
    """Entry `j` of the per-seat list `SB.*`."""
    return ix(SEATBUF + MAX_PLAYERS * row + j)


@register_jitable
def move_at(j: int, field: int) -> np.uint64:
    """Field `M.*` of legal move `j` of the current roll."""
    return ix(MOVES + M.SIZE * j + field)


@register_jitable
def best_at(field: int) -> np.uint64:
    """Field `B.*` of the chosen plan's summary."""
    return ix(BEST + field)


@register_jitable
def remaining_at(face: int) -> np.uint64:
    """Rolls of face code `face` left to play (plan search)."""
    return ix(REM + face)


@register_jitable
def roll_at(j: int) -> np.uint64:
    """Face code of roll `j` of a Killer turn."""
    return ix(ROLLS + j)


@register_jitable
def chosen_at(step: int, field: int) -> np.uint64:
    """Field `CH.*` of step `step` of the chosen plan."""
    return ix(CHOSEN + CH.SIZE * step + field)


@register_jitable
def result_at(field: int) -> np.uint64:
    """The game's result `H.*`."""
    return ix(HEAD + field)


@register_jitable
def seat_result_at(field: int, seat: int) -> np.uint64:
    """Per-seat result `K.*` of `seat`."""
    return ix(SEATS + MAX_PLAYERS * field + seat)


@register_jitable
def flow_result_at(field: int) -> np.uint64:
    """The game's flow result `F.*`."""
    return ix(FLOWRES + field)


@register_jitable
def flow_at(field: int) -> np.uint64:
    """Game-flow counter `FL.*`."""
    return ix(FLOW + field)


@register_jitable
def seat_flow_at(field: int, seat: int) -> np.uint64:
    """Per-seat game-flow counter `FS.*` of `seat`."""
    return ix(SEATFLOW + MAX_PLAYERS * field + seat)


@register_jitable
def snap_at(k: int, seat: int) -> np.uint64:
    """`seat`'s total in the game's `k`-th snapshot."""
    return ix(SNAPS + MAX_PLAYERS * k + seat)


@register_jitable
def policy_at(seat: int, field: int) -> np.uint64:
    """Slot `PW.*` of `seat`'s policy."""
    return ix(POLW + PW.SIZE * seat + field)


@register_jitable
def weight_at(seat: int, feature: int) -> np.uint64:
    """Multiplier of feature `feature` (FEATURES order) in `seat`'s scores (PW.WEIGHTS)."""
    return ix(POLW + PW.SIZE * seat + PW.WEIGHTS + feature)


@register_jitable
def guard_at(seat: int, entry: int) -> np.uint64:
    """Entry `entry` of `seat`'s weighted guard table (`policy.guard_table`)."""
    return ix(POLW + PW.SIZE * seat + PW.GUARD + entry)


@register_jitable
def start_at(seat: int, piece: int) -> np.uint64:
    """Progress of a piece in the run's start position."""
    return ix(START + MAX_PIECES * seat + piece)


@register_jitable
def skip_at(k: int, field: int) -> np.uint64:
    """Field `SK.*` of skipped forced capture `k` of the turn."""
    return ix(SKIPS + SK.SIZE * k + field)


@register_jitable
def undo_at(row: int, field: int) -> np.uint64:
    """Field `U.*` of row `row` of the undo log."""
    return ix(UNDO + U.SIZE * row + field)


@register_jitable
def root_at(field: int) -> np.uint64:
    """Field `RT.*` of the position before an option."""
    return ix(ROOT + field)


@register_jitable
def option_at(j: int) -> np.uint64:
    """Score of single-roll option `j` (a row of the move list)."""
    return ix(OPT + j)


@register_jitable
def victims_at(seat: int, slot: int) -> np.uint64:
    """Pieces (bit `MAX_PIECES * s + piece`) a roll of die slot `slot` by `seat` may capture."""
    return ix(LOOK + DIE_SLOTS * seat + slot)


@register_jitable
def depth_at(depth: int, field: int) -> np.uint64:
    """Field `MD.*` of the plan-search stack row of `depth`."""
    return ix(MDFS + MD.SIZE * depth + field)


@register_jitable
def depth_summary(depth: int) -> int:
    """Offset of the node summary of the plan-search stack row of `depth` (for `summary_at`)."""
    return MDFS + MD.SIZE * depth + MD.ACC


@register_jitable
def kid_at(j: int, field: int) -> np.uint64:
    """Field `KID.*` of child `j` of the turn's root."""
    return ix(KIDS + KID.SIZE * j + field)


@register_jitable
def kid_summary(j: int) -> int:
    """Offset of the node summary of child `j` of the turn's root (for `summary_at`)."""
    return KIDS + KID.SIZE * j + KID.SUMMARY


@register_jitable
def kid_count_at() -> np.uint64:
    """How many children of the turn's root `KIDS` holds."""
    return ix(NKIDS)


@register_jitable
def summary_at(node: int, field: int) -> np.uint64:
    """Value `N.*` of the node summary that starts at offset `node` (`MRES`, `LEAF`, ...)."""
    return ix(node + field)


@register_jitable
def memo_head_at(field: int) -> np.uint64:
    """Slot `MH.*` of the memo table header."""
    return ix(MEMO_HEAD + field)


@register_jitable
def entry_at(slot: int, field: int) -> np.uint64:
    """Field `E.*` of entry `slot` of the memo table."""
    return ix(MEMO + E.SIZE * slot + field)


@register_jitable
def stored_at(slots: int, k: int) -> np.uint64:
    """The `k`-th slot stored by the current search, after a table of `slots` entries."""
    return ix(MEMO + E.SIZE * slots + k)


@register_jitable
def expert_seat_at(field: int, seat: int) -> np.uint64:
    """Expert setting `XS.*` of `seat` (`XS.ROLLOUTS` 0: the seat plays its policy)."""
    return ix(XSEAT + MAX_PLAYERS * field + seat)


@register_jitable
def expert_at(field: int) -> np.uint64:
    """The expert's counter `X.*`."""
    return ix(XCTR + field)


@register_jitable
def offered_at(j: int, field: int) -> np.uint64:
    """Field `M.*` of option `j` of the decision being searched."""
    return ix(XOPT + M.SIZE * j + field)


@register_jitable
def value_at(j: int, field: int) -> np.uint64:
    """Rollout value `XV.*` of option `j` of the decision being searched."""
    return ix(XVALUE + XV.SIZE * j + field)


@register_jitable
def candidate_at(c: int, field: int) -> np.uint64:
    """Field `XP.*` of candidate plan `c` of the plan decision being searched."""
    return ix(XPLAN + XP.SIZE * c + field)


@register_jitable
def candidate_step_at(c: int, step: int, field: int) -> np.uint64:
    """Field `CH.*` of step `step` of candidate plan `c`."""
    return ix(XPLAN + XP.SIZE * c + XP.STEP0 + CH.SIZE * step + field)


@register_jitable
def saved_at(k: int) -> np.uint64:
    """Word `k` of the snapshot taken before a search (`SAVE_*` parts)."""
    return ix(XSAVE + k)


@register_jitable
def expert_choice_at(k: int) -> np.uint64:
    """Searched decision `k` of the game: its options << RECORD_SHIFT | the option chosen."""
    return ix(XREC + k)


def new_work(
    policies: np.ndarray,
    start: np.ndarray | None,
    memo_slots: int = 0,
    experts: tuple[tuple[int, ...], ...] = (),
) -> np.ndarray:
    """A work array with the run's policies, start position (None: all in the yard) and memo.

    `policies` holds one row of `PW.SIZE` per seat (`policy.compile_policies`).
    `memo_slots` (0 or a power of two) sizes the plan memo table. `experts`
    gives each seat's (rollouts per option, horizon in turns) for the expert's
    search (`ludosim.engine.expert`; rollouts 0 or absent: not an expert), and
    optionally a third item, 1 for the fictive player (`XS.FICTIVE`).
    """
    if memo_slots & (memo_slots - 1):
        raise ValueError(f"memo_slots must be 0 or a power of two, got {memo_slots}")
    w = np.zeros(W_SIZE + (E.SIZE + 1) * memo_slots, dtype=np.int64)
    policies = np.asarray(policies, dtype=np.int64)
    w[POLW : POLW + policies.size] = policies.reshape(-1)
    w[MEMO_HEAD + MH.MAX] = memo_slots
    for seat, (rollouts, horizon, *fictive) in enumerate(experts):
        w[XSEAT + MAX_PLAYERS * XS.ROLLOUTS + seat] = rollouts
        w[XSEAT + MAX_PLAYERS * XS.HORIZON + seat] = horizon
        w[XSEAT + MAX_PLAYERS * XS.FICTIVE + seat] = fictive[0] if fictive else 0
    if start is not None:
        for seat, row in enumerate(start):
            w[START + MAX_PIECES * seat : START + MAX_PIECES * seat + len(row)] = row
    return w
