"""One player's turn: rolls, bonus rolls, choices, the puster (docs/semantics.md).

Mirrors `Game.single_roll_turn`, `Game.plan_turn` and `Game.end_turn` of the
reference engine, draw for draw.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.layout import (
    BONUS_ON_SIX_ALWAYS,
    BONUS_ON_SIX_UNLESS_ENTERED,
    BONUS_STACKING_ONE,
    DETECT_ALWAYS,
    DETECT_DRAW,
    FACE_GLOBE,
    FINISH_BOUNCE_ON,
    FINISH_EXACT,
    NONE,
    START_ATTEMPTS_WHEN_GAME_START,
    R,
)
from ludosim.engine.memo import choose_plan
from ludosim.engine.moves import (
    ENTERING,
    apply_move,
    apply_move_inline,
    free_movers,
    free_target,
    move_target_call,
)
from ludosim.engine.plans import pieces_at_risk
from ludosim.engine.policy import choose_for, choose_free_for
from ludosim.engine.rng import below, uniform_bits
from ludosim.engine.state import (
    B_STEPS,
    C_ROLLS,
    C_SKIPS,
    CH_FACE,
    CH_PIECE,
    HOT,
    M_FLAGS,
    M_PIECE,
    M_TARGET,
    MAX_ROLLS,
    NO,
    S_CAUGHT,
    S_SKIPPED,
    SB_ENTERED,
    SK_FIRST,
    SK_MOST,
    SK_UNION,
    STATS,
    YARD,
    best_at,
    chosen_at,
    counter_at,
    finished,
    in_play,
    ix,
    move_at,
    progress_at,
    put,
    reversed_at,
    roll_at,
    seat_list_at,
    skip_at,
    stat_at,
)


@njit(**HOT)
def roll(lay: np.ndarray, w: np.ndarray, stream: np.ndarray) -> int:
    """One die roll: `below(6)` indexes the faces; counted in `rolls`."""
    w[counter_at(C_ROLLS)] += 1
    return lay[R.FACE0 + below(stream, np.int64(6))]


@njit(**HOT)
def face_bonus(lay: np.ndarray, face: int, entered: bool) -> int:
    """Bonus rolls a face earns by itself (docs/rules.md section 2, bonus rolls)."""
    if face == FACE_GLOBE:
        return 1
    if face != 6:
        return 0
    rule = lay[R.BONUS_ON_SIX]
    return (
        1
        if rule == BONUS_ON_SIX_ALWAYS or (rule == BONUS_ON_SIX_UNLESS_ENTERED and not entered)
        else 0
    )


@njit(**HOT, inline="always")
def end_turn(lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray) -> None:
    """Puster for each skipped capture, then reversed pieces face forwards again."""
    if w[counter_at(C_SKIPS)] > 0:
        _puster(lay, w, seat, stream)
    if lay[R.FINISH] == FINISH_BOUNCE_ON:  # only bounce_on reverses pieces
        for i in range(lay[R.PIECES]):
            w[reversed_at(seat, i)] = 0


@njit(**HOT)
def _puster(lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray) -> None:
    """Each skipped forced capture of the turn may be caught; caught pieces go home."""
    goal = lay[R.GOAL]
    mode = lay[R.DETECT_MODE]
    for j in range(w[counter_at(C_SKIPS)]):
        w[stat_at(STATS, S_SKIPPED, seat)] += 1
        most = w[skip_at(j, SK_MOST)]
        first = w[skip_at(j, SK_FIRST)]
        risk = pieces_at_risk(lay, w, seat, most, first, w[skip_at(j, SK_UNION)])
        caught = mode == DETECT_ALWAYS or (
            mode == DETECT_DRAW and uniform_bits(stream) < lay[R.DETECT_THRESHOLD]
        )
        if caught:
            w[stat_at(STATS, S_CAUGHT, seat)] += 1
            for i in range(lay[R.PIECES]):
                p = w[progress_at(seat, i)]
                if risk & (np.int64(1) << i) and 0 <= p < goal:
                    put(lay, w, seat, i, np.int64(YARD))
    w[counter_at(C_SKIPS)] = 0


@njit(**HOT)
def start_attempts(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """Start tries the seat has now (`Game.start_attempts`): one once a piece has entered
    under `start_attempts_when = game_start`."""
    if (
        lay[R.START_ATTEMPTS_WHEN] == START_ATTEMPTS_WHEN_GAME_START
        and w[seat_list_at(SB_ENTERED, seat)]
    ):
        return 1
    return lay[R.START_ATTEMPTS]


@njit(**HOT)
def _start_tries(
    lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray, attempts: int
) -> tuple:
    """Start tries with no piece in play: (the entering face or -1 when all failed, failed tries).

    Up to `attempts` rolls; a try succeeds when its face can enter a piece
    now (`Game.start_tries`): a face that cannot is a failed try and earns
    nothing.
    """
    entering = lay[R.ENTERING_FACE]
    piece = 0  # every piece is in the yard or the goal: the first in the yard enters
    while piece < lay[R.PIECES] - 1 and w[progress_at(seat, piece)] != YARD:
        piece += 1
    for tries in range(attempts):
        face = roll(lay, w, stream)
        if face == entering and move_target_call(lay, w, seat, piece, face)[0] != NONE:
            return face, tries
    return -1, attempts


@njit(**HOT)
def free_play(lay: np.ndarray) -> bool:
    """Every roll's moves are the pieces of a mask (`free_movers`) under these rules.

    True when no square can bar a move, finishes are exact, captures are
    optional and the die has numbers only; then no move list is written: a
    random seat draws among the mask (`pick_random_piece`), a scoring seat
    scores the mask's pieces (`policy.choose_free_piece`).
    """
    if not lay[R.PASS_ALL] or lay[R.FINISH] != FINISH_EXACT or lay[R.FORCED_CAPTURE]:
        return False
    for i in range(6):
        if lay[ix(R.FACE0 + i)] > 6:
            return False
    return True


@njit(**HOT, inline="always")
def single_roll_turn(
    lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray, free: bool, scoring: bool
) -> bool:
    """One whole turn under single-roll rules, bonus rolls and puster included.

    `free` is `free_play(lay)`, a constant in each inlined copy (see
    `game._whole_game`), so the free copy has no trace of the general choice.
    `scoring` goes to `choose_move`. Returns whether the seat got its last
    piece home this turn.
    """
    six_limit = lay[R.SIX_LIMIT]
    # With one start attempt the try is the turn's ordinary roll: a face that can
    # enter plays as usual, and one that cannot leaves no legal move, which ends
    # the turn below. Only several attempts need the tries up front, so the hot
    # loop skips the in-play check on every roll of one-attempt rules.
    several_tries = lay[R.START_ATTEMPTS] > 1
    # Only `start_attempts_when = game_start` needs to know whether a piece entered.
    note_entry = several_tries and lay[R.START_ATTEMPTS_WHEN] == START_ATTEMPTS_WHEN_GAME_START
    # Bonus rolls one move earns: every source counts, or one at most.
    most = 1 if lay[R.BONUS_STACKING] == BONUS_STACKING_ONE else 3
    pending = 1
    sixes = 0
    home = False
    while pending > 0:
        pending -= 1
        if several_tries and not in_play(lay, w, seat) and start_attempts(lay, w, seat) > 1:
            face, failed = _start_tries(lay, w, seat, stream, lay[R.START_ATTEMPTS])
            if face < 0:
                break  # the tries failed: the turn ends, pending bonus rolls are lost
            if failed:
                sixes = 0  # a failed try earns nothing and resets the six count
        else:
            face = roll(lay, w, stream)
        sixes = sixes + 1 if face == 6 or face == FACE_GLOBE else 0
        if six_limit and sixes >= six_limit:
            break  # forfeited: pending bonus rolls are lost, moves made stand
        if free:
            movers = free_movers(lay, w, seat, face)
            piece = choose_free_for(lay, w, seat, face, movers, stream, scoring)
            target, flags = free_target(w, seat, max(piece, 0), face)
        else:
            j = choose_for(lay, w, seat, face, stream, scoring)
            piece, target, flags = (
                (w[move_at(j, M_PIECE)], w[move_at(j, M_TARGET)], w[move_at(j, M_FLAGS)])
                if j >= 0
                else (-1, 0, 0)
            )
        if piece < 0:
            if lay[R.NO_MOVE_ENDS_TURN] or not in_play(lay, w, seat):
                # With no piece in play this was the one start try, and it failed:
                # it earns nothing and the turn ends (docs/rules.md section 2).
                break
            pending += face_bonus(lay, face, NO)
            continue
        captures, reached = apply_move_inline(
            lay, w, seat, piece, target, flags, np.int64(STATS), NO
        )
        if note_entry and flags & ENTERING:
            w[seat_list_at(SB_ENTERED, seat)] = 1
        earned = face_bonus(lay, face, (flags & ENTERING) != 0)
        if captures > 0 and lay[R.BONUS_ON_CAPTURE]:
            earned += 1
        if reached and lay[R.BONUS_ON_FINISH]:
            earned += 1
        pending += min(earned, most)
        # With finish_in_home any move into or inside the home column may finish the seat.
        if (reached or lay[R.FINISH_IN_HOME]) and finished(lay, w, seat):
            home = True
            break
    end_turn(lay, w, seat, stream)
    return home


@njit(**HOT, inline="always")
def roll_sequence(lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray) -> int:
    """Killer: roll until a non-6 into `ROLLS` and return how many rolls (0: the start
    tries failed, and the turn ends with its pending sequences lost)."""
    if not in_play(lay, w, seat):
        face, _ = _start_tries(lay, w, seat, stream, start_attempts(lay, w, seat))
        if face < 0:
            return 0
    else:
        face = roll(lay, w, stream)
    w[roll_at(0)] = face
    n = 1
    while face == 6 and n < MAX_ROLLS:
        face = roll(lay, w, stream)
        w[roll_at(n)] = face
        n += 1
    return n


@njit(**HOT, inline="always")
def play_step(lay: np.ndarray, w: np.ndarray, seat: int, piece: int, face: int) -> tuple:
    """Play one step of a plan for real: (captured anything, reached the goal)."""
    target, flags = move_target_call(lay, w, seat, piece, face)
    took, home = apply_move(lay, w, seat, piece, target, flags, np.int64(STATS), NO)
    if flags & ENTERING:
        w[seat_list_at(SB_ENTERED, seat)] = 1
    return took > 0, home


@njit(**HOT, inline="always")
def sequences_earned(lay: np.ndarray, captures: int, reached: int) -> int:
    """New roll sequences a plan earns: one per capturing move and per move into the goal
    where `bonus_on_capture` / `bonus_on_finish` say so."""
    earned = 0
    if lay[R.BONUS_ON_CAPTURE]:
        earned += captures
    if lay[R.BONUS_ON_FINISH]:
        earned += reached
    return earned


@njit(**HOT, inline="always")
def plan_sequences(
    lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray, scoring: bool, pending: int
) -> None:
    """The roll sequences of a Killer turn from `pending` left, each planned and played by
    the seat's policy, without `end_turn`."""
    while pending > 0:
        pending -= 1
        n = roll_sequence(lay, w, seat, stream)
        if n == 0:
            break
        captures, reached = 0, 0
        if n == 1:
            # One roll: the plans are the single moves, no search needed.
            face = w[roll_at(0)]
            j = choose_for(lay, w, seat, face, stream, scoring)
            if j >= 0:
                piece = w[move_at(j, M_PIECE)]
                target = w[move_at(j, M_TARGET)]
                flags = w[move_at(j, M_FLAGS)]
                took, home = apply_move(lay, w, seat, piece, target, flags, np.int64(STATS), NO)
                captures += took > 0
                reached += home
                if flags & ENTERING:
                    w[seat_list_at(SB_ENTERED, seat)] = 1
        else:
            choose_plan(lay, w, seat, n, stream)
            for step in range(w[best_at(B_STEPS)]):
                took, home = play_step(
                    lay, w, seat, w[chosen_at(step, CH_PIECE)], w[chosen_at(step, CH_FACE)]
                )
                captures += took
                reached += home
        pending += sequences_earned(lay, captures, reached)
        if finished(lay, w, seat):
            break


@njit(**HOT, inline="always")
def plan_turn(lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray, scoring: bool) -> None:
    """Killer: roll until a non-6, then play all the rolls as one plan.

    Each capturing move and each move into the goal of the plan earns a new
    roll sequence with `bonus_on_capture` / `bonus_on_finish`, rolled and
    planned afresh (`Game.plan_turn`).
    """
    plan_sequences(lay, w, seat, stream, scoring, 1)
    end_turn(lay, w, seat, stream)
