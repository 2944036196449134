"""The expert: a seat that chooses by playing each option out (docs/skill.md, "The expert").

At each decision of an expert seat with two or more options (the options an
outside player is offered: the legal moves of the roll, only the capturing
ones where captures are forced) every option is played on `R` times from
the position after it: the rest of the turn (pending bonus rolls, the six
count), then the other seats' turns, every seat playing its own policy and
the expert seat its base policy (the row in `POLW`), until a seat finishes
or, with a horizon, for that many turns. A rollout's value is a whole win
(`finish_value`) when the expert seat is the next seat to finish, minus it
when another seat is, and the expert's total progress less the leading other
seat's when it is cut first (`progress_value`). The expert plays the option
its base policy scores highest (`policy_option`, drawing nothing), unless
another option's rollouts beat that option's, rollout by rollout, by more
than two standard errors of their mean difference (`clearly_better`); then
it plays the one of those with the largest summed difference (the lowest on
equal sums).

Rollout `r` of decision `d` draws its dice from its own streams: turn `t`
of it (0: the rest of the expert's turn) from the stream keyed
`stream_key(rollout_key(game key, d, r), t)` (`start_turn_stream`). Every
option of a decision gets the same `R` rollouts' streams (common random
numbers), turn by turn, so that the options are compared on the same dice
even when one of them earns a bonus roll the other does not. The game's own
stream is never drawn from, and a game is the same whatever the threads. A
rollout plays on the live work array; the game is saved to `XSAVE` before
the search and restored after every rollout (`save_game`, `restore_game`).

The expert's own single-roll turns are played by `turn_rest`, the turn of
`turn.single_roll_turn` cut open at each choice so that the search can run
between the roll and the move; every other turn, in the game and in the
rollouts, is `turn.single_roll_turn` itself.

Under `roll_then_move` (Killer) a decision is a whole roll sequence, and its
options are plans, often dozens. The expert lists them all in engine order
(`list_candidates`: the plan search with every plan scoring 0, then each
option scored by the base policy on its own), keeps the `PLAN_CANDIDATES`
its base policy scores highest, and compares those by rollouts exactly as
above, from the base policy's best (`expert_plan_turn`, `plan_rollout`).
Its own turn is `turn.plan_turn` with that search in place of the policy's
choice; every other turn is `turn.plan_turn` itself.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from ludosim.engine.batch import _accumulate
from ludosim.engine.flow import close_flow_if, count_boundary_if, open_flow_if
from ludosim.engine.game import _close_game, _open_game
from ludosim.engine.layout import (
    BONUS_STACKING_ONE,
    FACE_GLOBE,
    START_ATTEMPTS_WHEN_GAME_START,
    R,
)
from ludosim.engine.memo import pick_plan, summarise_root
from ludosim.engine.moves import (
    ENTERING,
    apply_move,
    free_movers,
    free_target,
    legal_moves,
    may_capture,
    move_target_call,
)
from ludosim.engine.policy import (
    choose_for,
    choose_free_for,
    note_before,
    prepare_trying,
    score_by_trying,
    score_position,
)
from ludosim.engine.rng import mix64, stream_key
from ludosim.engine.state import (
    B_CHOSEN_CAPS,
    B_STEPS,
    C_ROLLS,
    C_SKIPS,
    C_UNDO,
    CH_FACE,
    CH_PIECE,
    DUMMY,
    F_SIZE,
    FACE_SLOTS,
    H_ROLLS,
    H_SIZE,
    H_TURNS,
    HOT,
    K_SIZE,
    M_CAPS,
    M_FLAGS,
    M_PIECE,
    M_SIZE,
    M_TARGET,
    MAX_RECORD,
    MRES,
    N_BEST,
    N_CALL,
    N_CCAP,
    NO,
    PLAN_CANDIDATES,
    PROGRESS,
    PW_RANDOM,
    RECORD_SHIFT,
    SAVE_SEATBUF,
    SAVE_SKIPS,
    SB_DONE,
    SB_ENTERED,
    SB_ORDER,
    SEATBUF,
    SK_SIZE,
    SKIPS,
    STATS,
    X_DECISIONS,
    X_RECORDED,
    XP_INDEX,
    XP_SCORE,
    XP_STEPS,
    XS_HORIZON,
    XS_ROLLOUTS,
    XV_LAST,
    XV_SQUARES,
    XV_SUM,
    YES,
    best_at,
    candidate_at,
    candidate_step_at,
    chosen_at,
    counter_at,
    expert_at,
    expert_choice_at,
    expert_seat_at,
    finished,
    flow_result_at,
    in_play,
    move_at,
    offered_at,
    policy_at,
    progress_at,
    remaining_at,
    result_at,
    roll_at,
    saved_at,
    seat_list_at,
    seat_result_at,
    summary_at,
    undo_to,
    value_at,
)
from ludosim.engine.turn import (
    _start_tries,
    end_turn,
    face_bonus,
    plan_sequences,
    play_step,
    roll,
    roll_sequence,
    sequences_earned,
    single_roll_turn,
    start_attempts,
)

# Salt of the rollout streams: "expert!!" in ASCII, so that no rollout key is a game key.
ROLLOUT_SALT = np.uint64(0x6578706572742121)
_S32 = np.uint64(32)

# How many standard errors an option's rollouts must beat the base policy's option by,
# squared (`clearly_better`): 2, about 98% one-sided.
SURE_SQUARED = 4


@njit(**HOT)
def rollout_key(game_key: np.uint64, decision: np.uint64, rollout: np.uint64) -> np.uint64:
    """Key of rollout `rollout` of searched decision `decision` of the game keyed `game_key`.

    `stream_key(mix64(game key ^ ROLLOUT_SALT), decision << 32 | rollout)`:
    the game key is `stream_key(seed, game)`, so each rollout stream is fixed
    by (seed, game, decision, rollout) and shares nothing with the game's.
    """
    return stream_key(mix64(game_key ^ ROLLOUT_SALT), (decision << _S32) | rollout)


@njit(**HOT)
def start_turn_stream(stream: np.ndarray, key: np.uint64, turn: int) -> None:
    """Set `stream` to the start of turn `turn` of the rollout keyed `key`."""
    stream[0] = stream_key(key, np.uint64(turn))
    stream[1] = np.uint64(0)


# ------------------------------------------------------------------ the saved game
@njit(**HOT)
def save_game(w: np.ndarray) -> None:
    """Copy the position, counters, statistics, seat lists and the turn's skips to `XSAVE`."""
    for k in range(SAVE_SEATBUF):
        w[saved_at(k)] = w[PROGRESS + k]
    for k in range(SAVE_SKIPS - SAVE_SEATBUF):
        w[saved_at(SAVE_SEATBUF + k)] = w[SEATBUF + k]
    for k in range(SK_SIZE * w[counter_at(C_SKIPS)]):
        w[saved_at(SAVE_SKIPS + k)] = w[SKIPS + k]


@njit(**HOT)
def restore_game(w: np.ndarray) -> None:
    """Put back what `save_game` copied."""
    for k in range(SAVE_SEATBUF):
        w[PROGRESS + k] = w[saved_at(k)]
    for k in range(SAVE_SKIPS - SAVE_SEATBUF):
        w[SEATBUF + k] = w[saved_at(SAVE_SEATBUF + k)]
    for k in range(SK_SIZE * w[counter_at(C_SKIPS)]):
        w[SKIPS + k] = w[saved_at(SAVE_SKIPS + k)]


# ------------------------------------------------------------------ the turn, cut open
@njit(**HOT)
def offer_options(lay: np.ndarray, w: np.ndarray, seat: int, face: int) -> int:
    """Write the options of a roll to `XOPT` and count them (`reference.outside.legal_options`).

    The legal moves in move-list order; where captures are forced and some
    move captures, only the capturing ones.
    """
    n = legal_moves(lay, w, seat, face)
    forced = lay[R.FORCED_CAPTURE] != 0
    ncap = 0
    if forced:
        for j in range(n):
            target = w[move_at(j, M_TARGET)]
            flags = w[move_at(j, M_FLAGS)]
            captures = 0
            if may_capture(lay, w, seat, target, flags):
                mark = w[counter_at(C_UNDO)]
                piece = w[move_at(j, M_PIECE)]
                captures, _ = apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
                undo_to(lay, w, mark)
            w[move_at(j, M_CAPS)] = captures
            ncap += captures > 0
    k = 0
    for j in range(n):
        if ncap > 0 and w[move_at(j, M_CAPS)] == 0:
            continue
        for field in range(M_SIZE):
            w[offered_at(k, field)] = w[move_at(j, field)]
        k += 1
    return k


@njit(**HOT)
def play_move(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    face: int,
    piece: int,
    target: int,
    flags: int,
    pending: int,
) -> tuple:
    """Play a chosen move of a single-roll turn: (pending rolls, whether the seat is home).

    What `turn.single_roll_turn` does after its choice: the bonus rolls the
    move earns, the entered flag, the check that the seat finished.
    """
    captures, reached = apply_move(lay, w, seat, piece, target, flags, np.int64(STATS), NO)
    if lay[R.START_ATTEMPTS] > 1 and lay[R.START_ATTEMPTS_WHEN] == START_ATTEMPTS_WHEN_GAME_START:
        if flags & ENTERING:
            w[seat_list_at(SB_ENTERED, seat)] = 1
    earned = face_bonus(lay, face, (flags & ENTERING) != 0)
    if captures > 0 and lay[R.BONUS_ON_CAPTURE]:
        earned += 1
    if reached and lay[R.BONUS_ON_FINISH]:
        earned += 1
    pending += min(earned, 1 if lay[R.BONUS_STACKING] == BONUS_STACKING_ONE else 3)
    home = (reached or lay[R.FINISH_IN_HOME]) and finished(lay, w, seat)
    return pending, home


@njit(**HOT)
def turn_rest(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    stream: np.ndarray,
    free: bool,
    pending: int,
    sixes: int,
    ask: bool,
) -> tuple:
    """The rolls of a single-roll turn from `pending` rolls left and `sixes` in a row.

    As `turn.single_roll_turn`, draw for draw, without `end_turn`. With `ask`
    it stops at the first roll that offers two or more options (`XOPT`) and
    returns `(options, face, pending, sixes, False)`, so that the caller
    chooses, plays the move (`play_move`) and goes on; a roll with one option
    plays it, as any seat does. Without `ask` the seat's policy chooses every
    move. At the end of the turn: `(0, 0, pending, sixes, home)`.
    """
    six_limit = lay[R.SIX_LIMIT]
    several_tries = lay[R.START_ATTEMPTS] > 1
    home = False
    while pending > 0:
        pending -= 1
        if several_tries and not in_play(lay, w, seat) and start_attempts(lay, w, seat) > 1:
            face, failed = _start_tries(lay, w, seat, stream, lay[R.START_ATTEMPTS])
            if face < 0:
                break
            if failed:
                sixes = 0
        else:
            face = roll(lay, w, stream)
        sixes = sixes + 1 if face == 6 or face == FACE_GLOBE else 0
        if six_limit and sixes >= six_limit:
            break
        if ask:
            k = offer_options(lay, w, seat, face)
            if k >= 2:
                return k, face, pending, sixes, False
            piece = w[offered_at(0, M_PIECE)] if k == 1 else -1
            target = w[offered_at(0, M_TARGET)]
            flags = w[offered_at(0, M_FLAGS)]
        elif free:
            movers = free_movers(lay, w, seat, face)
            piece = choose_free_for(lay, w, seat, face, movers, stream, YES)
            target, flags = free_target(w, seat, max(piece, 0), face)
        else:
            j = choose_for(lay, w, seat, face, stream, YES)
            piece, target, flags = (
                (w[move_at(j, M_PIECE)], w[move_at(j, M_TARGET)], w[move_at(j, M_FLAGS)])
                if j >= 0
                else (-1, 0, 0)
            )
        if piece < 0:
            if lay[R.NO_MOVE_ENDS_TURN] or not in_play(lay, w, seat):
                break
            pending += face_bonus(lay, face, NO)
            continue
        pending, home = play_move(lay, w, seat, face, piece, target, flags, pending)
        if home:
            break
    return 0, 0, pending, sixes, home


# ------------------------------------------------------------------ rollouts and the search
@njit(**HOT)
def finish_value(lay: np.ndarray) -> int:
    """The value of a rollout the expert seat wins (minus it: one it loses): more than
    any difference of total progress."""
    return lay[R.PLAYERS] * lay[R.PIECES] * (lay[R.GOAL] + 2)


@njit(**HOT)
def progress_value(lay: np.ndarray, w: np.ndarray, me: int) -> int:
    """The value of a rollout cut before a seat finished: the expert seat's total
    progress (progress + 1 per piece) minus the most of the other seats in play."""
    best = 0
    mine = 0
    for s in range(lay[R.PLAYERS]):
        if w[seat_list_at(SB_DONE, s)]:
            continue
        total = 0
        for i in range(lay[R.PIECES]):
            total += w[progress_at(s, i)] + 1
        if s == me:
            mine = total
        else:
            best = max(best, total)
    return mine - best


@njit(**HOT)
def next_seat(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """The next seat in play order that has not finished (`seat` itself if none)."""
    n = lay[R.PLAYERS]
    nxt = seat
    for _ in range(n):
        nxt = nxt + 1 if nxt + 1 < n else 0
        if not w[seat_list_at(SB_DONE, nxt)]:
            return nxt
    return seat


@njit(**HOT)
def plan_turn_from(
    lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray, pending: int
) -> None:
    """`turn.plan_turn` from `pending` roll sequences left (1: a whole turn), the seat's
    policy choosing. Not inlined: one compiled copy of the plan search serves the
    game and the rollouts (each inlined copy costs seconds of compile time)."""
    plan_sequences(lay, w, seat, stream, YES, pending)
    end_turn(lay, w, seat, stream)


@njit(**HOT)
def policy_turn(lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray, free: bool) -> bool:
    """A whole turn the seat's own policy plays (`turn.plan_turn` or
    `turn.single_roll_turn`): whether the seat finished in it. Not inlined, as
    `plan_turn_from`."""
    if lay[R.ROLL_THEN_MOVE]:
        plan_turn_from(lay, w, seat, stream, 1)
        return finished(lay, w, seat)
    return single_roll_turn(lay, w, seat, stream, free, YES)


@njit(**HOT)
def play_on(
    lay: np.ndarray,
    w: np.ndarray,
    me: int,
    stream: np.ndarray,
    key: np.uint64,
    free: bool,
    turns: int,
) -> int:
    """Turns after `me`'s until a seat finishes: `finish_value` when it is `me`, minus
    it when another seat finishes first.

    With a horizon (`XS_HORIZON`) the rollout is cut after that many turns, and
    at the turn limit the game is: both score `progress_value`.
    """
    horizon = w[expert_seat_at(XS_HORIZON, me)]
    seat = me
    played = 0
    while True:
        seat = next_seat(lay, w, seat)
        if turns >= lay[R.MAX_TURNS] or (horizon > 0 and played >= horizon):
            return progress_value(lay, w, me)
        turns += 1
        played += 1
        start_turn_stream(stream, key, played)
        if policy_turn(lay, w, seat, stream, free) or finished(lay, w, seat):
            return finish_value(lay) if seat == me else -finish_value(lay)


@njit(**HOT)
def rollout(
    lay: np.ndarray,
    w: np.ndarray,
    me: int,
    stream: np.ndarray,
    key: np.uint64,
    free: bool,
    option: int,
    face: int,
    pending: int,
    sixes: int,
    turns: int,
) -> int:
    """Play option `option` of the decision, the rest of the turn and the game on, with
    the dice of the rollout keyed `key` in `stream`: the rollout's value."""
    start_turn_stream(stream, key, 0)
    pending, home = play_move(
        lay,
        w,
        me,
        face,
        w[offered_at(option, M_PIECE)],
        w[offered_at(option, M_TARGET)],
        w[offered_at(option, M_FLAGS)],
        pending,
    )
    if not home:
        home = turn_rest(lay, w, me, stream, free, pending, sixes, NO)[4]
    end_turn(lay, w, me, stream)
    if home or finished(lay, w, me):
        return finish_value(lay)
    return play_on(lay, w, me, stream, key, free, turns)


@njit(**HOT)
def play_candidate(lay: np.ndarray, w: np.ndarray, seat: int, candidate: int) -> int:
    """Play candidate plan `candidate` (`XPLAN`) for real: the roll sequences it earns."""
    captures, reached = 0, 0
    for step in range(w[candidate_at(candidate, XP_STEPS)]):
        took, home = play_step(
            lay,
            w,
            seat,
            w[candidate_step_at(candidate, step, CH_PIECE)],
            w[candidate_step_at(candidate, step, CH_FACE)],
        )
        captures += took
        reached += home
    return sequences_earned(lay, captures, reached)


@njit(**HOT)
def plan_rollout(
    lay: np.ndarray,
    w: np.ndarray,
    me: int,
    stream: np.ndarray,
    key: np.uint64,
    candidate: int,
    turns: int,
) -> int:
    """`rollout` for a Killer plan: play candidate plan `candidate` (`XPLAN`), the rest
    of the turn's roll sequences and the game on: the rollout's value."""
    start_turn_stream(stream, key, 0)
    earned = play_candidate(lay, w, me, candidate)
    # As the turn itself: no more roll sequences once the seat has finished.
    plan_turn_from(lay, w, me, stream, 0 if finished(lay, w, me) else earned)
    if finished(lay, w, me):
        return finish_value(lay)
    return play_on(lay, w, me, stream, key, NO, turns)


@njit(**HOT)
def policy_option(lay: np.ndarray, w: np.ndarray, me: int, options: int) -> int:
    """The option of `XOPT` the seat's base policy scores highest (in full, by trying
    each: `policy.score_by_trying`), the lowest of equal scores; nothing is drawn."""
    base = prepare_trying(lay, w, me, NO)
    best = 0
    best_score = 0
    for j in range(options):
        _, score = score_by_trying(
            lay,
            w,
            me,
            w[offered_at(j, M_PIECE)],
            w[offered_at(j, M_TARGET)],
            w[offered_at(j, M_FLAGS)],
            base,
        )
        if j == 0 or score > best_score:
            best = j
            best_score = score
    return best


@njit(**HOT)
def clearly_better(total: int, squares: int, rollouts: int) -> bool:
    """Rollout differences summing to `total` (squares summed: `squares`) are above 0 by
    more than SURE standard errors: `total > 0` and `total**2 (R - 1) > SURE**2
    (R squares - total**2)`, in integers (a one-sided t test; never with one rollout)."""
    if total <= 0 or rollouts < 2:
        return False
    return total * total * (rollouts - 1) > SURE_SQUARED * (rollouts * squares - total * total)


@njit(**HOT)
def compare_rollouts(
    lay: np.ndarray,
    w: np.ndarray,
    me: int,
    stream: np.ndarray,
    scratch: np.ndarray,
    free: bool,
    options: int,
    chosen: int,
    face: int,
    pending: int,
    sixes: int,
    turns: int,
) -> int:
    """The option to play: `chosen` (the base policy's), unless another one's rollouts
    are clearly better (`clearly_better`); then the best of those.

    Options are the moves in `XOPT`, or under `roll_then_move` the candidate
    plans in `XPLAN` (`face`, `pending` and `sixes` then unused). Each rollout
    plays every option on the same dice, and each option's values are compared
    with `chosen`'s rollout by rollout (`XV_*`). `stream` is the game's stream
    (only its key is read); `scratch` the stream array the rollouts draw from.
    The game is left as it was.
    """
    plans = lay[R.ROLL_THEN_MOVE] != 0
    save_game(w)
    decision = w[expert_at(X_DECISIONS)]
    w[expert_at(X_DECISIONS)] = decision + 1
    for j in range(options):
        w[value_at(j, XV_SUM)] = 0
        w[value_at(j, XV_SQUARES)] = 0
    rollouts = w[expert_seat_at(XS_ROLLOUTS, me)]
    for r in range(rollouts):
        key = rollout_key(stream[0], np.uint64(decision), np.uint64(r))
        for j in range(options):
            if plans:
                value = plan_rollout(lay, w, me, scratch, key, j, turns)
            else:
                value = rollout(lay, w, me, scratch, key, free, j, face, pending, sixes, turns)
            w[value_at(j, XV_LAST)] = value
            restore_game(w)
        for j in range(options):
            d = w[value_at(j, XV_LAST)] - w[value_at(chosen, XV_LAST)]
            w[value_at(j, XV_SUM)] += d
            w[value_at(j, XV_SQUARES)] += d * d
    best = chosen
    for j in range(options):
        total = w[value_at(j, XV_SUM)]
        if total > w[value_at(best, XV_SUM)] and clearly_better(
            total, w[value_at(j, XV_SQUARES)], rollouts
        ):
            best = j
    return best


@njit(**HOT)
def search(
    lay: np.ndarray,
    w: np.ndarray,
    me: int,
    stream: np.ndarray,
    scratch: np.ndarray,
    free: bool,
    options: int,
    face: int,
    pending: int,
    sixes: int,
    turns: int,
) -> int:
    """The option of the single-roll decision in `XOPT` to play: `compare_rollouts`
    from the option the base policy scores highest (`policy_option`)."""
    chosen = policy_option(lay, w, me, options)
    return compare_rollouts(
        lay, w, me, stream, scratch, free, options, chosen, face, pending, sixes, turns
    )


# ------------------------------------------------------------------ Killer plans
@njit(**HOT)
def plan_score(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """The seat's base policy's score of where the plan in `CHOSEN` ends (tried and
    taken back), as the plan search scores a leaf."""
    mark = w[counter_at(C_UNDO)]
    for step in range(w[best_at(B_STEPS)]):
        piece = w[chosen_at(step, CH_PIECE)]
        target, flags = move_target_call(lay, w, seat, piece, w[chosen_at(step, CH_FACE)])
        apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
    score = score_position(lay, w, seat, w[best_at(B_CHOSEN_CAPS)])
    undo_to(lay, w, mark)
    return score


@njit(**HOT)
def keep_candidate(w: np.ndarray, kept: int, index: int, score: int) -> int:
    """Put the plan in `CHOSEN` (option `index`, scored `score`) among the candidates
    in `XPLAN` if it is one of the PLAN_CANDIDATES best so far (best first; an
    earlier option stays ahead of an equal score): how many are kept now."""
    at = 0
    while at < kept and w[candidate_at(at, XP_SCORE)] >= score:
        at += 1
    if at >= PLAN_CANDIDATES:
        return kept
    last = min(kept, PLAN_CANDIDATES - 1)
    for c in range(last, at, -1):  # shift the worse ones down, the last falls off
        w[candidate_at(c, XP_INDEX)] = w[candidate_at(c - 1, XP_INDEX)]
        w[candidate_at(c, XP_SCORE)] = w[candidate_at(c - 1, XP_SCORE)]
        w[candidate_at(c, XP_STEPS)] = w[candidate_at(c - 1, XP_STEPS)]
        for step in range(w[candidate_at(c, XP_STEPS)]):
            for field in (CH_FACE, CH_PIECE):
                w[candidate_step_at(c, step, field)] = w[candidate_step_at(c - 1, step, field)]
    w[candidate_at(at, XP_INDEX)] = index
    w[candidate_at(at, XP_SCORE)] = score
    w[candidate_at(at, XP_STEPS)] = w[best_at(B_STEPS)]
    for step in range(w[best_at(B_STEPS)]):
        for field in (CH_FACE, CH_PIECE):
            w[candidate_step_at(at, step, field)] = w[chosen_at(step, field)]
    return min(kept + 1, PLAN_CANDIDATES)


@njit(**HOT)
def list_candidates(lay: np.ndarray, w: np.ndarray, seat: int, nrolls: int) -> int:
    """The options of the roll sequence in `ROLLS` (`nrolls` rolls): how many there are
    (`reference.outside.legal_options`: the plans that use the most rolls, the
    highest first; only the capturing ones where captures are forced and one
    captures), and the PLAN_CANDIDATES of them the seat's base policy scores
    highest in `XPLAN`.

    The plan search runs with every plan scoring 0 (the `random` flag set for
    the search), so that its pool is every option and option `k` is the k-th
    in engine order (`memo.pick_plan`); each option is then scored by the
    base policy on its own. Nothing is drawn.
    """
    for face in range(FACE_SLOTS):
        w[remaining_at(face)] = 0
    for j in range(nrolls):
        w[remaining_at(w[roll_at(j)])] += 1
    note_before(lay, w, seat)
    flag = w[policy_at(seat, PW_RANDOM)]
    w[policy_at(seat, PW_RANDOM)] = 1
    summarise_root(lay, w, seat, nrolls)
    best = w[summary_at(MRES, N_BEST)]
    only_capturing = lay[R.FORCED_CAPTURE] != 0 and w[summary_at(MRES, N_CCAP)] > 0
    count = w[summary_at(MRES, N_CCAP)] if only_capturing else w[summary_at(MRES, N_CALL)]
    kept = 0
    for index in range(count):
        pick_plan(lay, w, seat, nrolls, best, index, only_capturing, 0)
        kept = keep_candidate(w, kept, index, plan_score(lay, w, seat))
    w[policy_at(seat, PW_RANDOM)] = flag
    return count


@njit(**HOT)
def expert_plan_turn(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    stream: np.ndarray,
    scratch: np.ndarray,
    turns: int,
) -> bool:
    """An expert seat's Killer turn: `turn.plan_turn` with each roll sequence of two
    or more options searched among its candidate plans (`list_candidates`);
    whether the seat finished in it."""
    pending = 1
    while pending > 0:
        pending -= 1
        n = roll_sequence(lay, w, seat, stream)
        if n == 0:
            break
        count = list_candidates(lay, w, seat, n)
        if count > 0:
            c = 0
            if count >= 2:
                options = min(count, PLAN_CANDIDATES)
                c = compare_rollouts(lay, w, seat, stream, scratch, NO, options, 0, 0, 0, 0, turns)
                record_choice(w, count, w[candidate_at(c, XP_INDEX)])
            pending += play_candidate(lay, w, seat, c)
        if finished(lay, w, seat):
            break
    end_turn(lay, w, seat, stream)
    return finished(lay, w, seat)


@njit(**HOT)
def record_choice(w: np.ndarray, options: int, choice: int) -> None:
    """Note a searched decision in `XREC` (the first `MAX_RECORD` of the game)."""
    k = w[expert_at(X_RECORDED)]
    if k < MAX_RECORD:
        w[expert_choice_at(k)] = options << RECORD_SHIFT | choice
    w[expert_at(X_RECORDED)] = k + 1


@njit(**HOT)
def expert_turn(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    stream: np.ndarray,
    scratch: np.ndarray,
    free: bool,
    turns: int,
) -> bool:
    """An expert seat's turn: `turn.single_roll_turn` with each real choice searched."""
    pending = 1
    sixes = 0
    while True:
        options, face, pending, sixes, home = turn_rest(
            lay, w, seat, stream, free, pending, sixes, YES
        )
        if options == 0:
            break
        j = search(lay, w, seat, stream, scratch, free, options, face, pending, sixes, turns)
        record_choice(w, options, j)
        pending, home = play_move(
            lay,
            w,
            seat,
            face,
            w[offered_at(j, M_PIECE)],
            w[offered_at(j, M_TARGET)],
            w[offered_at(j, M_FLAGS)],
            pending,
        )
        if home:
            break
    end_turn(lay, w, seat, stream)
    return home


# ------------------------------------------------------------------ games
@njit(**HOT)
def play_expert_game(
    lay: np.ndarray,
    w: np.ndarray,
    stream: np.ndarray,
    scratch: np.ndarray,
    has_start: bool,
    start_seat: int,
    free: bool,
    flow: bool,
) -> None:
    """`game.play_free_game` / `play_listed_game` with the expert seats' turns searched.

    The same turn loop as `game._whole_game`, its results written the same way.
    """
    first = _open_game(lay, w, stream, has_start, start_seat)
    plans = lay[R.ROLL_THEN_MOVE] != 0
    w[expert_at(X_DECISIONS)] = 0
    w[expert_at(X_RECORDED)] = 0
    open_flow_if(lay, w, flow)
    n = lay[R.PLAYERS]
    nfin = 0
    turns = 0
    truncated = False
    seat = first
    while True:
        if turns >= lay[R.MAX_TURNS]:
            truncated = True
            break
        turns += 1
        if w[expert_seat_at(XS_ROLLOUTS, seat)] == 0:
            home = policy_turn(lay, w, seat, stream, free)
        elif plans:
            home = expert_plan_turn(lay, w, seat, stream, scratch, turns)
        else:
            home = expert_turn(lay, w, seat, stream, scratch, free, turns)
        if has_start and not home:
            home = finished(lay, w, seat)
        if nfin == 0:
            count_boundary_if(lay, w, seat, flow)
        if home and not w[seat_list_at(SB_DONE, seat)]:
            w[seat_list_at(SB_DONE, seat)] = 1
            w[seat_list_at(SB_ORDER, nfin)] = seat
            nfin += 1
            if nfin == 1:
                w[result_at(H_TURNS)] = turns
                w[result_at(H_ROLLS)] = w[counter_at(C_ROLLS)]
        if nfin > 0 and not lay[R.PLAY_TO_END]:
            break
        if nfin >= max(n - 1, 1):
            break
        seat = next_seat(lay, w, seat)
    _close_game(lay, w, first, nfin, turns, truncated)
    close_flow_if(w, w[seat_list_at(SB_ORDER, 0)] if nfin > 0 else -1, flow)


@njit(cache=True)
def play_expert_one(
    lay: np.ndarray,
    work: np.ndarray,
    seed: np.uint64,
    game: int,
    has_start: bool,
    start_seat: int,
    free: bool,
    head: np.ndarray,
    seats: np.ndarray,
    final: np.ndarray,
    flows: np.ndarray,
    choices: np.ndarray,
) -> int:
    """Play game `game` of `seed` on `work` as `batch.play_one` (results into `head`,
    `seats`, `final`, `flows`), the expert's searched choices into `choices`
    (int64[MAX_RECORD]: options << RECORD_SHIFT | choice); returns how many searched decisions
    the game had."""
    stream = np.zeros(2, dtype=np.uint64)
    stream[0] = stream_key(seed, np.uint64(game))
    scratch = np.zeros(2, dtype=np.uint64)
    play_expert_game(lay, work, stream, scratch, has_start, start_seat, free, True)
    for j in range(H_SIZE):
        head[j] = work[result_at(j)]
    for j in range(F_SIZE):
        flows[j] = work[flow_result_at(j)]
    for s in range(lay[R.PLAYERS]):
        for j in range(K_SIZE):
            seats[j, s] = work[seat_result_at(j, s)]
        for i in range(lay[R.PIECES]):
            final[s, i] = work[progress_at(s, i)]
    recorded = work[expert_at(X_RECORDED)]
    for k in range(min(recorded, MAX_RECORD)):
        choices[k] = work[expert_choice_at(k)]
    return recorded


@njit(cache=True, parallel=True)
def run_expert_batch(
    lay: np.ndarray,
    work: np.ndarray,
    seed: np.uint64,
    first_game: int,
    chunk: int,
    has_start: bool,
    start_seat: int,
    head: np.ndarray,
    seats: np.ndarray,
    flows: np.ndarray,
    free: bool,
    flow: bool,
) -> None:
    """`batch.run_batch` for games with an expert seat (same outputs)."""
    games = head.shape[0]
    players = lay[R.PLAYERS]
    chunks = (games + chunk - 1) // chunk
    for c in prange(chunks):
        w = work.copy()
        mine = lay.copy()
        stream = np.zeros(2, dtype=np.uint64)
        scratch = np.zeros(2, dtype=np.uint64)
        for g in range(c * chunk, min(games, (c + 1) * chunk)):
            stream[0] = stream_key(seed, np.uint64(first_game + g))
            stream[1] = np.uint64(0)
            play_expert_game(mine, w, stream, scratch, has_start, start_seat, free, flow)
            for j in range(H_SIZE):
                head[g, j] = w[result_at(j)]
            for j in range(K_SIZE):
                for s in range(players):
                    seats[g, j, s] = w[seat_result_at(j, s)]
            if flow:
                for j in range(F_SIZE):
                    flows[g, j] = w[flow_result_at(j)]


@njit(cache=True, parallel=True)
def run_expert_summary(
    lay: np.ndarray,
    work: np.ndarray,
    seed: np.uint64,
    first_game: int,
    games: int,
    chunk: int,
    has_start: bool,
    start_seat: int,
    totals: np.ndarray,
    per_seat: np.ndarray,
    places: np.ndarray,
    hist: np.ndarray,
    free: bool,
) -> None:
    """`batch.run_summary` for games with an expert seat (same accumulators)."""
    chunks = (games + chunk - 1) // chunk
    for c in prange(chunks):
        w = work.copy()
        mine = lay.copy()
        stream = np.zeros(2, dtype=np.uint64)
        scratch = np.zeros(2, dtype=np.uint64)
        for g in range(c * chunk, min(games, (c + 1) * chunk)):
            stream[0] = stream_key(seed, np.uint64(first_game + g))
            stream[1] = np.uint64(0)
            play_expert_game(mine, w, stream, scratch, has_start, start_seat, free, False)
            _accumulate(mine, w, totals[c], per_seat[c], places[c], hist[c])
