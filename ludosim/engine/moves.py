"""One move: where a face takes a piece, whether the path allows it, what landing does.

Mirrors `ludosim.reference.moves` (docs/rules.md sections 3-4, docs/semantics.md
"A single move"). A move is (piece, face); `move_target` returns its landing
progress and flags, or `NONE` when it is not legal; `apply_move` plays it.
Walks are never materialised: path squares are checked as they are stepped
on, and only when the passing rules can bar anything (`R.PASS_ALL`).

Speed notes (these run once or more per die roll, so every instruction counts):
`legal_moves`, `move_target` and `apply_move_inline` are inlined at numba-IR
level into their callers (a call passes each array as seven words on the
stack; `apply_move` is the same move as an ordinary call, for the plan
search and the policies, and `legal_target` a move's legality as one);
small helpers are left to LLVM, which inlines them without the
compile time that numba-level inlining costs; indices are unsigned
(`state.ix`), which spares a wraparound test per access; rule slots are
read into locals before the first store to `w`, because LLVM cannot tell
that `lay` and `w` do not overlap and would reload them after every store.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.codes import (
    BLOCK_LANDING_COEXIST,
    BLOCK_LANDING_FORBIDDEN,
    BLOCK_LANDING_LANDER_HOME,
    CAPTURE_RULE_LONE_OPPONENT,
    FINISH_BOUNCE_ON,
    FINISH_EXACT,
    PASS_OPPONENTS_NONE,
    PASS_OPPONENTS_SINGLES,
    SAFE_LANDING_LANDER_HOME,
    STAR_JUMP_NONE,
)
from ludosim.engine.layout import (
    FACE_GLOBE,
    NONE,
    SAFE,
    STRIDE,
    TABLE,
    R,
    T,
)
from ludosim.engine.position import (
    lap_code,
    log_piece,
    relocate,
    set_laps,
    square_of,
    travelled,
    undo_to,
    unlock,
)
from ludosim.engine.state import (
    DUMMY,
    HOT,
    NO,
    SB,
    YARD,
    YES,
    C,
    M,
    S,
    count_at,
    counter_at,
    ix,
    laps_at,
    move_at,
    progress_at,
    reversed_at,
    seat_list_at,
    stat_at,
    total_at,
)

# How a landing resolves.
LAND = 0  # the piece stays (alone, with own pieces, or sharing with opponents)
CAPTURE = 1  # the opponent pieces there go back to their yards
HOME = 2  # the mover itself goes back to its yard
BARRED = 3  # the mover may not arrive there (a block under block_landing=forbidden)

# Flags of a move.
BACKWARDS = 1  # the last step went backwards (a bounce or a reversed piece)
BOUNCED = 2  # the walk turned at the goal
ENTERING = 4  # the piece comes out of the yard


@njit(**HOT, inline="always")
def partners_on(lay: np.ndarray, w: np.ndarray, seat: int, sq: int) -> int:
    """Pieces of `seat`'s partners (`teams`) on track square `sq`: to the mover they are
    neither own pieces nor opponents.

    Two loads and no branch (a seat's partner slots name its partners, or nobody's
    empty row): it sits in the check of every path square, where a call or a loop
    made games without teams a sixth slower.
    """
    k = ix(R.PARTNER0 + 2 * seat)
    return w[count_at(lay[k], sq)] + w[count_at(lay[k + 1], sq)]


@njit(**HOT)
def _square_bars(lay: np.ndarray, w: np.ndarray, seat: int, sq: int, sq0: int) -> bool:
    """Track square `sq` on the path bars the move (`sq0`: the mover's own square)."""
    if w[total_at(sq)] == 0:
        return False  # most path squares are empty: one read settles them
    mine = w[count_at(seat, sq)]
    if mine - (sq == sq0) > 0 and not lay[R.PASS_OWN]:
        return True
    opponents = w[total_at(sq)] - mine - partners_on(lay, w, seat, sq)
    rule = lay[R.PASS_OPPONENTS]
    if rule == PASS_OPPONENTS_NONE:
        return opponents > 0
    if rule == PASS_OPPONENTS_SINGLES:
        return opponents >= 2
    return False


@njit(**HOT)
def _path_barred(lay: np.ndarray, w: np.ndarray, seat: int, p: int, q: int) -> bool:
    """A forward walk from `p` to `q` is barred by a square strictly between."""
    if lay[R.PASS_ALL]:
        return False
    sq0 = square_of(lay, seat, p)
    last = min(q, lay[R.ENTRY] + 1)  # home column squares never bar
    for x in range(p + 1, last):
        if _square_bars(lay, w, seat, square_of(lay, seat, x), sq0):
            return True
    return False


@njit(**HOT)
def _walk_back(lay: np.ndarray, w: np.ndarray, seat: int, p: int, q: int, steps: int) -> tuple:
    """Walk `steps` squares backwards from `q` (`p`: where the mover stands).

    Returns (landing, steps taken), or (NONE, 0) when a path square bars it.
    `q` counts as a path square once the walk leaves it, unless it is the
    mover's own place (`q == p`: a reversed piece starts there).
    """
    check = not lay[R.PASS_ALL]
    sq0 = square_of(lay, seat, p)
    taken = 0
    for _ in range(steps):
        nq = lay[ix(TABLE + STRIDE * T.STEP_BACK + q)]
        if nq == NONE:
            break  # cannot go behind the start square on this board: the walk stops
        if check and taken + (q != p) > 0:
            sq = square_of(lay, seat, q)
            if sq >= 0 and _square_bars(lay, w, seat, sq, sq0):
                return NONE, 0
        q = nq
        taken += 1
    return q, taken


@njit(**HOT)
def _lap_walk(lay: np.ndarray, w: np.ndarray, seat: int, p: int, steps: int) -> tuple:
    """(landing, flags) of a piece going on past its entry (`home_unlock`: its seat is
    locked, or it is already lapping), or (NONE, 0) when a path square bars it."""
    done = travelled(lay, p)
    if not lay[R.PASS_ALL]:
        sq0 = square_of(lay, seat, p)
        for t in range(done + 1, done + steps):
            if _square_bars(lay, w, seat, square_of(lay, seat, lap_code(lay, t)), sq0):
                return NONE, 0
    return lap_code(lay, done + steps), 0


@njit(**HOT, inline="always")
def goes_on(lay: np.ndarray, w: np.ndarray, seat: int, p: int) -> bool:
    """A piece of `seat` at progress `p` goes on past its entry (as `reference.moves.goes_on`):
    under `home_unlock`, its seat is locked or the piece is lapping (a code after the goal)."""
    return lay[R.HOME_UNLOCK] != 0 and (p > lay[R.GOAL] or not w[seat_list_at(SB.UNLOCKED, seat)])


@njit(**HOT)
def _lap_special(lay: np.ndarray, w: np.ndarray, seat: int, p: int, face: int) -> int:
    """Landing of a globe or star face for a piece going on past its entry (its target
    lies round the track, not in its home column), or NONE."""
    row = T.GLOBE_LAP if face == FACE_GLOBE else T.STAR_DIE_LAP
    steps = lay[ix(TABLE + STRIDE * row + p)]
    if steps == NONE:
        return NONE
    q, _ = _lap_walk(lay, w, seat, p, steps)
    return q


@njit(**HOT, inline="always")
def _walk_numbers(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, steps: int) -> tuple:
    """(landing, flags) of a number face, or (NONE, 0) when illegal."""
    p = w[progress_at(seat, piece)]
    goal = lay[R.GOAL]
    if w[reversed_at(seat, piece)]:
        # A reversed piece (bounce_on) walks backwards for the rest of the turn.
        q, taken = _walk_back(lay, w, seat, p, p, steps)
        return (q, BACKWARDS) if taken > 0 else (NONE, 0)
    t = p + steps
    if lay[R.HOME_UNLOCK] and (
        p > goal or (t > lay[R.ENTRY] and not w[seat_list_at(SB.UNLOCKED, seat)])
    ):
        return _lap_walk(lay, w, seat, p, steps)
    if t <= goal:
        return (NONE, 0) if _path_barred(lay, w, seat, p, t) else (t, 0)
    if lay[R.FINISH] == FINISH_EXACT:
        return NONE, 0  # exact finish: a move past the goal is illegal
    # Bounce: to the goal (every square of it on the path), then back.
    if _path_barred(lay, w, seat, p, goal + 1):
        return NONE, 0
    q, _ = _walk_back(lay, w, seat, p, goal, t - goal)
    return (NONE, 0) if q == NONE else (q, BACKWARDS | BOUNCED)


@njit(**HOT)
def resolve_landing(
    lay: np.ndarray, w: np.ndarray, seat: int, sq: int, sq0: int, entering: bool
) -> int:
    """How arriving on track square `sq` resolves: LAND, CAPTURE, HOME or BARRED.

    `sq0` is the mover's current square (-1 off the track), so that the mover
    is never counted among the own pieces there.
    """
    if sq < 0:
        return LAND
    mine = w[count_at(seat, sq)]
    partners = partners_on(lay, w, seat, sq)
    k = w[total_at(sq)] - mine - partners  # opponents: pieces of other teams
    if k == 0:
        return LAND
    if entering and k == 1 and lay[R.START_CAPTURE]:
        # Killer: a piece on another player's start globe is safe except against
        # the piece that player brings out of its yard (seed 000).
        return CAPTURE
    if k >= 2:  # a block: block_landing decides on every square, safe or not
        rule = lay[R.BLOCK_LANDING]
        if rule == BLOCK_LANDING_COEXIST:
            return LAND
        if rule == BLOCK_LANDING_LANDER_HOME:
            return HOME
        if rule == BLOCK_LANDING_FORBIDDEN:
            return BARRED
        return CAPTURE
    if lay[ix(SAFE + sq)]:
        return HOME if lay[R.SAFE_LANDING] == SAFE_LANDING_LANDER_HOME else LAND
    if lay[R.CAPTURE_RULE] == CAPTURE_RULE_LONE_OPPONENT or mine - (sq == sq0) + partners == 0:
        return CAPTURE
    return LAND  # lone_piece: an opponent sharing with own pieces is not captured


@njit(**HOT)
def _can_enter(lay: np.ndarray, w: np.ndarray, seat: int) -> bool:
    """A piece of `seat` may come out of its yard now (the entering face rolled)."""
    sq = square_of(lay, seat, np.int64(0))
    capacity = lay[R.START_CAPACITY]
    if capacity > 0 and w[count_at(seat, sq)] >= capacity:
        return False
    # Entering straight back into the yard, or onto a forbidden block, is not a move.
    kind = resolve_landing(lay, w, seat, sq, np.int64(-1), YES)
    return kind != HOME and kind != BARRED


@njit(**HOT)
def _lands_on_own(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, q: int) -> bool:
    """Another piece of `seat` stands where progress `q` ends (the goal holds any number,
    except with `finish_in_home`, where it is the last home square)."""
    if q == lay[R.GOAL] and not lay[R.FINISH_IN_HOME]:
        return False
    sq = square_of(lay, seat, q)
    if sq >= 0:
        return w[count_at(seat, sq)] - (square_of(lay, seat, w[progress_at(seat, piece)]) == sq) > 0
    for i in range(lay[R.PIECES]):  # home column: squares of the owner alone, by progress
        if i != piece and w[progress_at(seat, i)] == q:
            return True
    return False


# Inlined at numba-IR level: `legal_moves` and the plan search (`memo`) ask it for
# every piece of every roll. Measured as an ordinary call everywhere instead,
# one-thread games/s fell to 0.73 of this on danish and 0.89 on killer (random
# policy, `benchmarks/compare_trees.py`); the callers off those paths share
# one compiled copy through `legal_target`.
@njit(**HOT, inline="always")
def move_target(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, face: int) -> tuple:
    """(landing progress, flags) of piece `piece` playing `face`, or (NONE, 0) if illegal."""
    q, flags = _reach(lay, w, seat, piece, face)
    if q != NONE and not lay[R.LAND_ON_OWN] and _lands_on_own(lay, w, seat, piece, q):
        return NONE, 0
    return q, flags


@njit(**HOT, inline="always")
def is_entering_face(lay: np.ndarray, face: int) -> bool:
    """The face brings a piece out of the yard (`enter_faces`, as `moves.is_entering_face`)."""
    return (lay[R.ENTER_MASK] >> face) & 1 == 1


@njit(**HOT, inline="always")
def _reach(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, face: int) -> tuple:
    """`move_target` before the landing rule of `land_on_own`."""
    p = w[progress_at(seat, piece)]
    if p == lay[R.GOAL]:
        return NONE, 0
    if p == YARD:
        if not is_entering_face(lay, face) or not _can_enter(lay, w, seat):
            return NONE, 0
        return 0, ENTERING
    if face <= 6:
        q, flags = _walk_numbers(lay, w, seat, piece, face)
    elif lay[R.HOME_UNLOCK] and goes_on(lay, w, seat, p):
        q = _lap_special(lay, w, seat, p, face)
        flags = 0
    else:
        # Globe and star faces always go forwards, reversed or not.
        row = T.GLOBE_MOVE if face == FACE_GLOBE else T.STAR_MOVE
        q = lay[ix(TABLE + STRIDE * row + p)]
        flags = 0
        if q != NONE and _path_barred(lay, w, seat, p, q):
            q = NONE
    if q == NONE:
        return NONE, 0
    if lay[R.BLOCK_LANDING] == BLOCK_LANDING_FORBIDDEN and _arrives_on_block(
        lay, w, seat, p, q, flags
    ):
        return NONE, 0
    return q, flags


@njit(**HOT)
def compulsory_movers(lay: np.ndarray, w: np.ndarray, seat: int, face: int) -> int:
    """Mask of the pieces `must_enter` and `clear_start` leave to move for `face`; -1: any.

    As `reference.moves._compulsory`: with `must_enter` the pieces that can
    enter, when there are any; else with `clear_start`, while a piece waits in
    the yard, the pieces on the own start square that can move, when there are any.
    """
    start = square_of(lay, seat, np.int64(0))
    entering = 0
    clearing = 0
    waiting = False
    for piece in range(lay[R.PIECES]):
        p = w[progress_at(seat, piece)]
        waiting |= p == YARD
        if move_target(lay, w, seat, piece, face)[0] == NONE:
            continue
        if p == YARD:
            entering |= np.int64(1) << piece
        elif square_of(lay, seat, p) == start:
            clearing |= np.int64(1) << piece
    if lay[R.MUST_ENTER] and entering:
        return entering
    if lay[R.CLEAR_START] and waiting and clearing:
        return clearing
    return -1


@njit(**HOT)
def legal_target(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, face: int) -> tuple:
    """(landing progress, flags) of piece `piece` playing `face` if that is a legal move of
    the roll, `must_enter` and `clear_start` included, or (NONE, 0).

    `move_target` and those rules, as an ordinary call: one compiled copy for
    the callers off the hot path (`legal_moves` applies the rules to its
    whole list at once).
    """
    q, flags = move_target(lay, w, seat, piece, face)
    if q != NONE and (lay[R.MUST_ENTER] or lay[R.CLEAR_START]):
        if not (compulsory_movers(lay, w, seat, face) >> piece) & 1:
            return NONE, 0
    return q, flags


@njit(**HOT)
def _add_move(w: np.ndarray, k: int, piece: int, target: int, flags: int) -> None:
    """Write move number `k` of the move list."""
    w[move_at(k, M.PIECE)] = piece
    w[move_at(k, M.TARGET)] = target
    w[move_at(k, M.FLAGS)] = flags
    w[move_at(k, M.CAPS)] = 0


@njit(**HOT, inline="always")
def free_movers(lay: np.ndarray, w: np.ndarray, seat: int, face: int) -> int:
    """Mask of the pieces that can play number `face` when no square bars and finishes are exact.

    Then a piece on the board moves exactly when it does not overshoot the goal
    (no piece is ever reversed without bounce_on), and the pieces in the yard
    all enter or none does. Which pieces can move is close to random from roll
    to roll, so the loop has no branch on it.
    """
    last = lay[R.GOAL] - face  # the furthest progress that still moves
    enter = is_entering_face(lay, face) and _can_enter(lay, w, seat)
    mask = 0
    for piece in range(lay[R.PIECES]):
        p = w[progress_at(seat, piece)]
        mask |= np.int64(((p == YARD) & enter) | ((p >= 0) & (p <= last))) << piece
    return mask


@njit(**HOT)
def free_target(w: np.ndarray, seat: int, piece: int, face: int) -> tuple:
    """(landing, flags) of a move `free_movers` allows."""
    p = w[progress_at(seat, piece)]
    return (0, ENTERING) if p == YARD else (p + face, 0)


@njit(**HOT, inline="always")
def _free_number_moves(lay: np.ndarray, w: np.ndarray, seat: int, face: int) -> int:
    """`legal_moves` when `free_movers` applies: the moves of its mask, by piece.

    Without a branch per piece: every piece's move is written at the next
    free row and counted only when the piece can move, so a piece that
    cannot leaves its row to the next one (or beyond the count). Which
    pieces can move is close to random from roll to roll.
    """
    mask = free_movers(lay, w, seat, face)
    k = 0
    for piece in range(lay[R.PIECES]):
        p = w[progress_at(seat, piece)]
        w[move_at(k, M.PIECE)] = piece
        # Entering: the start square, progress 0.
        w[move_at(k, M.TARGET)] = (p + face) * np.int64(p != YARD)
        w[move_at(k, M.FLAGS)] = ENTERING * np.int64(p == YARD)
        w[move_at(k, M.CAPS)] = 0
        k += (mask >> piece) & 1
    return k


@njit(**HOT, inline="always")
def legal_moves(lay: np.ndarray, w: np.ndarray, seat: int, face: int) -> int:
    """Fill the move list (`w[move_at(j, M.*)]`) with the legal moves, by piece; count them."""
    if face <= 6 and lay[R.PASS_ALL] and lay[R.FINISH] == FINISH_EXACT and not lay[R.HOME_UNLOCK]:
        return _free_number_moves(lay, w, seat, face)
    k = np.int64(0)  # not a literal 0: callers would first be compiled for that type too
    for piece in range(lay[R.PIECES]):
        target, flags = move_target(lay, w, seat, piece, face)
        if target != NONE:
            _add_move(w, k, piece, target, flags)
            k += 1
    if lay[R.MUST_ENTER] or lay[R.CLEAR_START]:
        k = _keep_movers(w, k, compulsory_movers(lay, w, seat, face))
    return k


@njit(**HOT)
def _keep_movers(w: np.ndarray, k: int, movers: int) -> int:
    """Keep the moves of the list whose piece is in the mask `movers`, in order; count them."""
    n = np.int64(0)
    for j in range(k):
        if (movers >> w[move_at(j, M.PIECE)]) & 1:
            _add_move(w, n, w[move_at(j, M.PIECE)], w[move_at(j, M.TARGET)], w[move_at(j, M.FLAGS)])
            n += 1
    return n


@njit(**HOT)
def _capture_at(lay: np.ndarray, w: np.ndarray, seat: int, sq: int, stats: int, log: bool) -> int:
    """Send every opponent piece on square `sq` to its yard; return how many."""
    players = lay[R.PLAYERS]
    pieces = lay[R.PIECES]
    team = lay[ix(R.TEAM0 + seat)]
    caught = 0
    for s in range(players):
        if lay[ix(R.TEAM0 + s)] == team or w[count_at(s, sq)] == 0:
            continue  # own and partners' pieces stay; the counts say who else is there
        for i in range(pieces):
            if square_of(lay, s, w[progress_at(s, i)]) == sq:
                if log:
                    log_piece(w, s, i)
                relocate(lay, w, s, i, sq, np.int64(YARD), np.int64(-1))
                w[stat_at(stats, S.CAPTURED, s)] += 1
                caught += 1
    w[stat_at(stats, S.CAPTURES, seat)] += caught
    if caught:
        unlock(w, seat, log)
    return caught


@njit(**HOT, inline="always")
def _arrive(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    piece: int,
    p: int,
    entering: bool,
    stats: int,
    log: bool,
) -> tuple:
    """Put the mover on `p` and resolve the landing: (captures, alive)."""
    sq = square_of(lay, seat, p)
    sq0 = square_of(lay, seat, w[progress_at(seat, piece)])
    kind = resolve_landing(lay, w, seat, sq, sq0, entering)
    if log:
        log_piece(w, seat, piece)
    if kind == HOME:
        relocate(lay, w, seat, piece, sq0, np.int64(YARD), np.int64(-1))
        w[stat_at(stats, S.RETURNED, seat)] += 1
        return 0, False
    captures = 0
    if kind == CAPTURE:
        captures = _capture_at(lay, w, seat, sq, stats, log)
    relocate(lay, w, seat, piece, sq0, p, sq)
    return captures, True


@njit(**HOT)
def _star_jump(lay: np.ndarray, p: int, flags: int, laps: bool) -> int:
    """Where a piece that ended a move on progress `p` jumps to, or NONE; `laps`: it goes
    on past its entry (`goes_on`), so it jumps round the track, never into its goal."""
    if (
        lay[R.STAR_JUMP] == STAR_JUMP_NONE
        or flags & ENTERING
        or not lay[ix(TABLE + STRIDE * T.IS_STAR + p)]
    ):
        return NONE
    if flags & BACKWARDS:
        return lay[ix(TABLE + STRIDE * T.STAR_BACK + p)]
    if laps:
        return lay[ix(TABLE + STRIDE * T.STAR_LAP + p)]
    return lay[ix(TABLE + STRIDE * T.STAR_FWD + p)]


@njit(**HOT)
def star_jump_of(lay: np.ndarray, w: np.ndarray, seat: int, p: int, flags: int) -> int:
    """Where `seat`'s piece that ended a move on progress `p` jumps to now, or NONE."""
    return _star_jump(lay, p, flags, goes_on(lay, w, seat, p))


@njit(**HOT)
def _arrives_on_block(
    lay: np.ndarray, w: np.ndarray, seat: int, p: int, q: int, flags: int
) -> bool:
    """Under `block_landing = forbidden`: the move from `p` to `q` would arrive on a block.

    Its landing square counts, and so does the square its star jump goes on
    to, if the piece survives the landing (a block there is as forbidden).
    """
    sq0 = square_of(lay, seat, p)
    kind = resolve_landing(lay, w, seat, square_of(lay, seat, q), sq0, NO)
    if kind == BARRED:
        return True
    if kind == HOME:
        return False
    # A capture on the first star opens a locked seat's column before the jump.
    laps = lay[R.HOME_UNLOCK] != 0 and (
        q > lay[R.GOAL] or (kind != CAPTURE and not w[seat_list_at(SB.UNLOCKED, seat)])
    )
    jump = _star_jump(lay, q, flags, laps)
    return (
        jump != NONE
        and resolve_landing(lay, w, seat, square_of(lay, seat, jump), sq0, NO) == BARRED
    )


@njit(**HOT)
def _opponent_on(lay: np.ndarray, w: np.ndarray, seat: int, p: int) -> bool:
    """An opponent piece stands on the track square of `seat`'s progress `p`."""
    sq = square_of(lay, seat, p)
    return sq >= 0 and w[total_at(sq)] > w[count_at(seat, sq)] + partners_on(lay, w, seat, sq)


@njit(**HOT)
def may_capture(lay: np.ndarray, w: np.ndarray, seat: int, target: int, flags: int) -> bool:
    """A legal move to `target` might capture: an opponent stands where it lands or jumps to.

    A cheap filter before trying a move for its captures: when it says no,
    the move captures nothing.
    """
    if _opponent_on(lay, w, seat, target):
        return True
    # No capture on `target` (checked above), so the seat's column is as it is now.
    q = star_jump_of(lay, w, seat, target, flags)
    return q != NONE and _opponent_on(lay, w, seat, q)


@njit(**HOT)
def _count_lap(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    piece: int,
    start: int,
    final: int,
    flags: int,
    log: bool,
) -> None:
    """Keep a piece's new laps (`home_unlock`, for its points per square, as
    `reference.moves.play_move`): none when it enters; one more when a forward move
    took it past its start square (it has travelled less from there than before)."""
    if flags & ENTERING:
        if w[laps_at(seat, piece)]:
            set_laps(w, seat, piece, 0, log)
    elif not flags & BACKWARDS and travelled(lay, final) < travelled(lay, start):
        set_laps(w, seat, piece, w[laps_at(seat, piece)] + 1, log)


@njit(**HOT, inline="always")
def apply_move_inline(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    piece: int,
    target: int,
    flags: int,
    stats: int,
    log: bool,
) -> tuple:
    """Play a legal move in place: (captures, finished).

    Statistics go to the section at offset `stats` of `w` (`STATS`, or `DUMMY`
    for moves only tried). With `log` every change is recorded in the undo log
    so `undo_to` can take it back.

    Inlined at numba-IR level into its one caller, `turn.play_move`: the
    single-roll turn plays one move per roll, and a call would copy both
    arrays' fields onto the stack. Measured: with `apply_move` there instead,
    one-thread games/s fell to 0.72-0.88 of this on italian and 0.85-0.90 on
    danish (random policy, `benchmarks/compare_trees.py`). Every other caller
    uses `apply_move`, so that the plan search and the policies do not
    compile a copy per call site.
    """
    goal = lay[R.GOAL]  # read before the stores below (see the module's speed notes)
    laps_kept = lay[R.HOME_UNLOCK] != 0
    start = w[progress_at(seat, piece)]
    entering = (flags & ENTERING) != 0
    captures, alive = _arrive(lay, w, seat, piece, target, entering, stats, log)
    if not alive:
        return captures, False
    q = star_jump_of(lay, w, seat, target, flags)  # after the landing: a capture opens
    final = target
    if q != NONE:
        final = q
        more, alive = _arrive(lay, w, seat, piece, q, NO, stats, log)
        captures += more
        if not alive:
            return captures, False
    if laps_kept:
        _count_lap(lay, w, seat, piece, start, final, flags, log)
    if flags & BOUNCED and lay[R.FINISH] == FINISH_BOUNCE_ON:
        if log:
            log_piece(w, seat, piece)
        w[reversed_at(seat, piece)] = 1
    return captures, final == goal


@njit(**HOT)
def apply_move(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    piece: int,
    target: int,
    flags: int,
    stats: int,
    log: bool,
) -> tuple:
    """`apply_move_inline` as an ordinary call (one compiled copy for every caller off
    the single-roll turn's hot path)."""
    return apply_move_inline(lay, w, seat, piece, target, flags, stats, log)


@njit(**HOT)
def count_capturing_moves(lay: np.ndarray, w: np.ndarray, seat: int, n: int) -> int:
    """How many of the first `n` moves of the move list capture; each row's captures
    go to its `M.CAPS`. A move that `may_capture` is played and taken back."""
    ncap = np.int64(0)
    for j in range(n):
        target = w[move_at(j, M.TARGET)]
        flags = w[move_at(j, M.FLAGS)]
        captures = 0
        if may_capture(lay, w, seat, target, flags):
            mark = w[counter_at(C.UNDO)]
            piece = w[move_at(j, M.PIECE)]
            captures, _ = apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
            undo_to(lay, w, mark)
        w[move_at(j, M.CAPS)] = captures
        ncap += captures > 0
    return ncap
