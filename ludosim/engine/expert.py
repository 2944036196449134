"""The expert: a seat that chooses by playing each option out (docs/expert.md).

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

This module plays no turn and no game of its own: the expert's games are
the games of `ludosim.engine.game`, played by the batch runners with the
literal `expert` True. Before each choice the turn asks whether the search
makes it (`turn.search_move_if`, `turn.search_plan_if`), and for an expert
seat the answer comes from here (`searched_move`, `searched_plan`), between
the roll and the move. A
rollout plays the option as the turn plays a move (`turn.play_move`,
`turn.play_chosen_plan`), then the rest of the turn and the next turns with
`turn.single_roll_turn` and `turn.plan_turn` themselves (`policy_turn`,
`play_on`), without a search.

Under `roll_then_move` (Killer) a decision is a whole roll sequence, and its
options are plans, often dozens. The expert lists them all in engine order
(`list_candidates`: the plan search with every plan scoring 0, then each
option scored by the base policy on its own), keeps the `PLAN_CANDIDATES`
its base policy scores highest, and compares those by rollouts exactly as
above, from the base policy's best (`searched_plan`); the chosen candidate
goes to `CHOSEN`, where the turn plays the plan a policy chose.

The fictive player (`fictive[:H]`, `XS.FICTIVE`) is this search with one rollout
per option whose dice are the game's own: each option's rollout starts from a
copy of the game's stream (key and draws) and draws on from it, turn after
turn (`start_rollout_turn`). The game's stream is counter-based, so while every
seat plays as in the rollout, the rollout is the game's future: the player
knows the dice to come. It plays the option of the best rollout, the base
policy's among equal best values (`compare_rollouts`). The game's stream is
only copied, never drawn from.
"""

from __future__ import annotations

import numpy as np
from numba import literally, njit, types
from numba.extending import overload

from ludosim.engine.layout import R
from ludosim.engine.memo import pick_plan, summarise_root
from ludosim.engine.moves import apply_move, count_capturing_moves, legal_moves, legal_target
from ludosim.engine.optionscore import (
    note_before,
    prepare_trying,
    score_by_trying,
    score_position,
)
from ludosim.engine.position import finished, next_seat, seat_points, travelled, undo_to
from ludosim.engine.rng import mix64, stream_key
from ludosim.engine.state import (
    CH,
    DUMMY,
    FACE_SLOTS,
    HOT,
    MAX_RECORD,
    MRES,
    NO,
    PLAN_CANDIDATES,
    PROGRESS,
    PW,
    RECORD_SHIFT,
    SAVE_SEATBUF,
    SAVE_SKIPS,
    SB,
    SEATBUF,
    SK,
    SKIPS,
    XP,
    XS,
    XV,
    YES,
    B,
    C,
    M,
    N,
    X,
    best_at,
    candidate_at,
    candidate_step_at,
    chosen_at,
    counter_at,
    expert_at,
    expert_choice_at,
    expert_seat_at,
    move_at,
    offered_at,
    policy_at,
    progress_at,
    remaining_at,
    roll_at,
    saved_at,
    seat_list_at,
    summary_at,
    value_at,
)
from ludosim.engine.turn import (
    bonus_rules,
    plan_turn,
    play_chosen_plan,
    play_move,
    single_roll_turn,
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


@njit(**HOT)
def start_rollout_turn(
    w: np.ndarray, me: int, stream: np.ndarray, key: np.uint64, turn: int
) -> None:
    """Set `stream` to turn `turn` of `me`'s rollout keyed `key` (`start_turn_stream`), unless
    `me` is the fictive player (`XS.FICTIVE`): its rollout plays on the game's own stream,
    copied to `stream` before it (`compare_rollouts`), and draws on from it turn after
    turn as the game itself will, so it is left alone."""
    if w[expert_seat_at(XS.FICTIVE, me)] == 0:
        start_turn_stream(stream, key, turn)


# ------------------------------------------------------------------ the saved game
@njit(**HOT)
def save_game(w: np.ndarray) -> None:
    """Copy the position, counters, statistics, seat lists and the turn's skips to `XSAVE`."""
    for k in range(SAVE_SEATBUF):
        w[saved_at(k)] = w[PROGRESS + k]
    for k in range(SAVE_SKIPS - SAVE_SEATBUF):
        w[saved_at(SAVE_SEATBUF + k)] = w[SEATBUF + k]
    for k in range(SK.SIZE * w[counter_at(C.SKIPS)]):
        w[saved_at(SAVE_SKIPS + k)] = w[SKIPS + k]


@njit(**HOT)
def restore_game(w: np.ndarray) -> None:
    """Put back what `save_game` copied."""
    for k in range(SAVE_SEATBUF):
        w[PROGRESS + k] = w[saved_at(k)]
    for k in range(SAVE_SKIPS - SAVE_SEATBUF):
        w[SEATBUF + k] = w[saved_at(SAVE_SEATBUF + k)]
    for k in range(SK.SIZE * w[counter_at(C.SKIPS)]):
        w[SKIPS + k] = w[saved_at(SAVE_SKIPS + k)]


# ------------------------------------------------------------------ the options of a roll
@njit(**HOT)
def offer_options(lay: np.ndarray, w: np.ndarray, seat: int, face: int) -> int:
    """Write the options of a roll to `XOPT` and count them (`reference.outside.legal_options`).

    The legal moves in move-list order; where captures are forced and some
    move captures, only the capturing ones.
    """
    n = legal_moves(lay, w, seat, face)
    ncap = 0
    if lay[R.FORCED_CAPTURE] != 0:
        ncap = count_capturing_moves(lay, w, seat, n)
    k = 0
    for j in range(n):
        if ncap > 0 and w[move_at(j, M.CAPS)] == 0:
            continue
        for field in range(M.SIZE):
            w[offered_at(k, field)] = w[move_at(j, field)]
        k += 1
    return k


@njit(**HOT)
def offered_move(w: np.ndarray, option: int) -> tuple:
    """Option `option` of `XOPT`: (piece, target, flags)."""
    return (
        w[offered_at(option, M.PIECE)],
        w[offered_at(option, M.TARGET)],
        w[offered_at(option, M.FLAGS)],
    )


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
        if w[seat_list_at(SB.DONE, s)]:
            continue
        total = 0
        for i in range(lay[R.PIECES]):
            total += travelled(lay, w[progress_at(s, i)]) + 1
        if s == me:
            mine = total
        else:
            best = max(best, total)
    return mine - best


@njit(**HOT)
def points_value(lay: np.ndarray, w: np.ndarray, me: int) -> int:
    """The value of a rollout at the end of a game under `move_limit` (its turns played,
    or a seat finished): won, lost or tied by points, as the game ranks them."""
    mine = seat_points(lay, w, me, -1)
    best = -1
    for s in range(lay[R.PLAYERS]):
        if s != me:
            best = max(best, seat_points(lay, w, s, -1))
    if mine == best:
        return 0
    return finish_value(lay) if mine > best else -finish_value(lay)


def _kind(plans: types.Type) -> bool:
    """The value of the literal `plans` the search was typed with (`compare_rollouts`
    asks for it: a direct call from Python compiles the copy a game uses)."""
    if not isinstance(plans, types.BooleanLiteral):
        raise TypeError("the search needs `plans` as a literal (numba.literally)")
    return plans.literal_value


# The rollouts' helpers below are ordinary calls, not inlined at numba-IR level:
# inlined, every copy was typed and lowered again, and an expert kind's first
# compile took 14% longer (benchmarks/README.md, "Compile time and the cache").
@njit(**HOT)
def policy_plan_turn(
    lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray, pending: int
) -> bool:
    """`turn.plan_turn` from `pending` roll sequences, the seat's policy planning them."""
    return plan_turn(lay, w, seat, stream, YES, False, stream, np.int64(0), pending)


@njit(**HOT)
def policy_single_turn(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    stream: np.ndarray,
    free: bool,
    pending: int,
    sixes: int,
) -> bool:
    """`turn.single_roll_turn` from `pending` rolls and `sixes` 6s, the seat's policy moving."""
    return single_roll_turn(
        lay, w, seat, stream, free, YES, False, stream, np.int64(0), pending, sixes
    )


def turn_of_kind(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    stream: np.ndarray,
    free: bool,
    plans: bool,
    pending: int,
    sixes: int,
) -> bool:
    """`policy_plan_turn` where `plans`, else `policy_single_turn`; resolved at typing
    time on the literal `plans` (compiled code gets `_turn_of_kind`), so a
    single-roll game's search compiles no plan search. The body below runs only
    without the JIT."""
    if plans:
        return policy_plan_turn(lay, w, seat, stream, pending)
    return policy_single_turn(lay, w, seat, stream, free, pending, sixes)


@overload(turn_of_kind, prefer_literal=True, inline="always")
def _turn_of_kind(lay, w, seat, stream, free, plans, pending, sixes):
    if _kind(plans):
        return lambda lay, w, seat, stream, free, plans, pending, sixes: policy_plan_turn(
            lay, w, seat, stream, pending
        )
    return lambda lay, w, seat, stream, free, plans, pending, sixes: policy_single_turn(
        lay, w, seat, stream, free, pending, sixes
    )


@njit(**HOT)
def policy_turn(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    stream: np.ndarray,
    free: bool,
    plans: bool,
    pending: int,
    sixes: int,
) -> bool:
    """The rest of a turn the seat's own policy plays, from `pending` rolls left (roll
    sequences under `roll_then_move`, the literal `plans`) and `sixes` 6s in a row:
    whether the seat finished, as the game loop asks it (`turn_of_kind`).

    Not inlined: one compiled copy of the game's kind of turn serves every
    rollout (each inlined copy costs seconds of compile time). No search in
    it: `expert` is the literal False.
    """
    return turn_of_kind(lay, w, seat, stream, free, plans, pending, sixes)


@njit(**HOT)
def play_plan_option(lay: np.ndarray, w: np.ndarray, me: int, option: int) -> tuple:
    """`play_option` for a candidate plan of `XPLAN` (`turn.play_chosen_plan`)."""
    take_candidate(w, option)
    earned = play_chosen_plan(lay, w, me)
    # A plan turn asks whether the seat finished after `end_turn`.
    return earned, False, finished(lay, w, me)


@njit(**HOT)
def play_move_option(
    lay: np.ndarray, w: np.ndarray, me: int, option: int, face: int, pending: int
) -> tuple:
    """`play_option` for a move of `XOPT` for `face` (`turn.play_move`)."""
    most, note_entry = bonus_rules(lay)
    piece, target, flags = offered_move(w, option)
    left, home = play_move(lay, w, me, face, piece, target, flags, pending, most, note_entry)
    return left, home, home


def play_option(
    lay: np.ndarray,
    w: np.ndarray,
    me: int,
    plans: bool,
    option: int,
    face: int,
    pending: int,
) -> tuple:
    """Play option `option` of the decision as the turn plays it: (rolls pending after it,
    whether the seat got its last piece home, whether its turn stops there).

    A move of `XOPT` for `face`, or where `plans` a candidate plan of `XPLAN`
    (`face` unused). Resolved at typing time on the literal `plans`, as
    `turn_of_kind`.
    """
    if plans:
        return play_plan_option(lay, w, me, option)
    return play_move_option(lay, w, me, option, face, pending)


@overload(play_option, prefer_literal=True, inline="always")
def _play_option(lay, w, me, plans, option, face, pending):
    if _kind(plans):
        return lambda lay, w, me, plans, option, face, pending: play_plan_option(lay, w, me, option)
    return lambda lay, w, me, plans, option, face, pending: play_move_option(
        lay, w, me, option, face, pending
    )


@njit(**HOT)
def play_on(
    lay: np.ndarray,
    w: np.ndarray,
    me: int,
    stream: np.ndarray,
    key: np.uint64,
    free: bool,
    plans: bool,
    turns: int,
) -> int:
    """Turns after `me`'s until a seat finishes: `finish_value` when it is `me`, minus
    it when another seat finishes first.

    With a horizon (`XS.HORIZON`) the rollout is cut after that many turns, and
    at the turn limit the game is: both score `progress_value`.
    """
    horizon = w[expert_seat_at(XS.HORIZON, me)]
    limit = lay[R.MOVE_LIMIT] * lay[R.PLAYERS]
    seat = me
    played = 0
    while True:
        seat = next_seat(lay, w, seat)
        if 0 < limit <= turns:
            return points_value(lay, w, me)
        if turns >= lay[R.MAX_TURNS] or (horizon > 0 and played >= horizon):
            return progress_value(lay, w, me)
        turns += 1
        played += 1
        start_rollout_turn(w, me, stream, key, played)
        if policy_turn(lay, w, seat, stream, free, plans, np.int64(1), np.int64(0)) or finished(
            lay, w, seat
        ):
            if limit > 0:
                return points_value(lay, w, me)
            return finish_value(lay) if seat == me else -finish_value(lay)


@njit(**HOT)
def rollout(
    lay: np.ndarray,
    w: np.ndarray,
    me: int,
    stream: np.ndarray,
    key: np.uint64,
    free: bool,
    plans: bool,
    option: int,
    face: int,
    pending: int,
    sixes: int,
    turns: int,
) -> int:
    """Play option `option` of the decision, the rest of the turn and the game on, with
    the dice of the rollout keyed `key` in `stream`: the rollout's value.

    The option is played as the turn plays it (`play_option`: a move of `XOPT`
    for `face`, or where the literal `plans` says `roll_then_move` a candidate
    plan of `XPLAN`, `face` and `sixes` unused). The rest of the turn goes on
    from `pending` rolls left, none once the seat has finished.
    """
    start_rollout_turn(w, me, stream, key, 0)
    pending, home, stop = play_option(lay, w, me, plans, option, face, pending)
    rest = policy_turn(lay, w, me, stream, free, plans, 0 if stop else pending, sixes)
    if home or rest or finished(lay, w, me):
        return points_value(lay, w, me) if lay[R.MOVE_LIMIT] else finish_value(lay)
    return play_on(lay, w, me, stream, key, free, plans, turns)


@njit(**HOT)
def policy_option(lay: np.ndarray, w: np.ndarray, me: int, options: int) -> int:
    """The option of `XOPT` the seat's base policy scores highest (in full, by trying
    each: `optionscore.score_by_trying`), the lowest of equal scores; nothing is drawn."""
    base = prepare_trying(lay, w, me, NO)
    best = 0
    best_score = 0
    for j in range(options):
        piece, target, flags = offered_move(w, j)
        _, score = score_by_trying(lay, w, me, piece, target, flags, base)
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
    plans: bool,
    options: int,
    chosen: int,
    face: int,
    pending: int,
    sixes: int,
    turns: int,
) -> int:
    """The option to play: `chosen` (the base policy's), unless another one's rollouts
    are clearly better (`clearly_better`); then the best of those.

    Options are the moves in `XOPT`, or where `plans` (`roll_then_move`, a
    literal) the candidate plans in `XPLAN` (`face`, `pending` and `sixes` then
    unused). Each rollout plays every option on the same dice, and each
    option's values are compared with `chosen`'s rollout by rollout (`XV.*`).
    `stream` is the game's stream (only read); `scratch` the stream array the
    rollouts draw from. The game is left as it was. `free` and `plans` are
    literals, as a game passes them (`numba.literally`: a direct call from
    Python compiles the copy a game uses, not one with both kinds).

    For the fictive player (`XS.FICTIVE`, one rollout) every option's rollout
    starts from a copy of the game's stream, key and draws, and draws on from
    it (`start_rollout_turn`): the dice the game itself will roll. Its one
    rollout has no spread to test, so an option is played where its value is
    above `chosen`'s outright: the best value, `chosen` among equal best
    values, else the lowest option.
    """
    literally(free)
    literally(plans)
    save_game(w)
    decision = w[expert_at(X.DECISIONS)]
    w[expert_at(X.DECISIONS)] = decision + 1
    for j in range(options):
        w[value_at(j, XV.SUM)] = 0
        w[value_at(j, XV.SQUARES)] = 0
    rollouts = w[expert_seat_at(XS.ROLLOUTS, me)]
    fictive = w[expert_seat_at(XS.FICTIVE, me)] != 0
    for r in range(rollouts):
        key = rollout_key(stream[0], np.uint64(decision), np.uint64(r))
        for j in range(options):
            if fictive:  # the game's own dice to come; the game's stream stays as it is
                scratch[0] = stream[0]
                scratch[1] = stream[1]
            w[value_at(j, XV.LAST)] = rollout(
                lay, w, me, scratch, key, free, plans, j, face, pending, sixes, turns
            )
            restore_game(w)
        for j in range(options):
            d = w[value_at(j, XV.LAST)] - w[value_at(chosen, XV.LAST)]
            w[value_at(j, XV.SUM)] += d
            w[value_at(j, XV.SQUARES)] += d * d
    best = chosen
    for j in range(options):
        total = w[value_at(j, XV.SUM)]
        if total > w[value_at(best, XV.SUM)] and (
            fictive or clearly_better(total, w[value_at(j, XV.SQUARES)], rollouts)
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
    from the option the base policy scores highest (`policy_option`). `free` is a
    literal, as in `compare_rollouts`."""
    literally(free)
    chosen = policy_option(lay, w, me, options)
    return compare_rollouts(
        lay, w, me, stream, scratch, free, False, options, chosen, face, pending, sixes, turns
    )


# ------------------------------------------------------------------ Killer plans
@njit(**HOT)
def plan_score(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """The seat's base policy's score of where the plan in `CHOSEN` ends (tried and
    taken back), as the plan search scores a leaf."""
    mark = w[counter_at(C.UNDO)]
    for step in range(w[best_at(B.STEPS)]):
        piece = w[chosen_at(step, CH.PIECE)]
        target, flags = legal_target(lay, w, seat, piece, w[chosen_at(step, CH.FACE)])
        apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
    score = score_position(lay, w, seat, w[best_at(B.CHOSEN_CAPS)])
    undo_to(lay, w, mark)
    return score


@njit(**HOT)
def keep_candidate(w: np.ndarray, kept: int, index: int, score: int) -> int:
    """Put the plan in `CHOSEN` (option `index`, scored `score`) among the candidates
    in `XPLAN` if it is one of the PLAN_CANDIDATES best so far (best first; an
    earlier option stays ahead of an equal score): how many are kept now."""
    at = 0
    while at < kept and w[candidate_at(at, XP.SCORE)] >= score:
        at += 1
    if at >= PLAN_CANDIDATES:
        return kept
    last = min(kept, PLAN_CANDIDATES - 1)
    for c in range(last, at, -1):  # shift the worse ones down, the last falls off
        w[candidate_at(c, XP.INDEX)] = w[candidate_at(c - 1, XP.INDEX)]
        w[candidate_at(c, XP.SCORE)] = w[candidate_at(c - 1, XP.SCORE)]
        w[candidate_at(c, XP.STEPS)] = w[candidate_at(c - 1, XP.STEPS)]
        for step in range(w[candidate_at(c, XP.STEPS)]):
            for field in (CH.FACE, CH.PIECE):
                w[candidate_step_at(c, step, field)] = w[candidate_step_at(c - 1, step, field)]
    w[candidate_at(at, XP.INDEX)] = index
    w[candidate_at(at, XP.SCORE)] = score
    w[candidate_at(at, XP.STEPS)] = w[best_at(B.STEPS)]
    for step in range(w[best_at(B.STEPS)]):
        for field in (CH.FACE, CH.PIECE):
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
    flag = w[policy_at(seat, PW.RANDOM)]
    w[policy_at(seat, PW.RANDOM)] = 1
    summarise_root(lay, w, seat, nrolls)
    best = w[summary_at(MRES, N.BEST)]
    only_capturing = lay[R.FORCED_CAPTURE] != 0 and w[summary_at(MRES, N.CCAP)] > 0
    count = w[summary_at(MRES, N.CCAP)] if only_capturing else w[summary_at(MRES, N.CALL)]
    kept = 0
    for index in range(count):
        pick_plan(lay, w, seat, nrolls, best, index, only_capturing, 0)
        kept = keep_candidate(w, kept, index, plan_score(lay, w, seat))
    w[policy_at(seat, PW.RANDOM)] = flag
    return count


@njit(**HOT)
def record_choice(w: np.ndarray, options: int, choice: int) -> None:
    """Note a searched decision in `XREC` (the first `MAX_RECORD` of the game)."""
    k = w[expert_at(X.RECORDED)]
    if k < MAX_RECORD:
        w[expert_choice_at(k)] = options << RECORD_SHIFT | choice
    w[expert_at(X.RECORDED)] = k + 1


@njit(**HOT)
def take_candidate(w: np.ndarray, candidate: int) -> None:
    """Put candidate plan `candidate` of `XPLAN` in `CHOSEN` (-1: the plan of no
    step), where the turn plays the plan it chose (`turn.play_chosen_plan`)."""
    steps = w[candidate_at(candidate, XP.STEPS)] if candidate >= 0 else 0
    w[best_at(B.STEPS)] = steps
    for step in range(steps):
        for field in (CH.FACE, CH.PIECE):
            w[chosen_at(step, field)] = w[candidate_step_at(candidate, step, field)]


# ------------------------------------------------------------------ the turn's questions
@njit(**HOT)
def searched_move(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    face: int,
    stream: np.ndarray,
    scratch: np.ndarray,
    free: bool,
    pending: int,
    sixes: int,
    turns: int,
) -> tuple:
    """An expert seat's move for `face` in a single-roll turn (`turn.search_move_if`):
    (piece, target, flags), piece -1 when there is none.

    One of the options offered (`offer_options`): the only one, or of two or
    more the one `search` finds, recorded (`record_choice`). `pending`, `sixes`
    and the game's `turns` are the turn's state, from which the rollouts go on.
    """
    options = offer_options(lay, w, seat, face)
    if options == 0:
        return -1, 0, 0
    j = 0
    if options >= 2:
        j = search(lay, w, seat, stream, scratch, free, options, face, pending, sixes, turns)
        record_choice(w, options, j)
    return offered_move(w, j)


@njit(**HOT)
def searched_plan(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    nrolls: int,
    stream: np.ndarray,
    scratch: np.ndarray,
    turns: int,
) -> None:
    """An expert seat's plan for the roll sequence in `ROLLS` (`turn.search_plan_if`),
    put in `CHOSEN`: of two or more options, the candidate `compare_rollouts` finds
    among those `list_candidates` keeps, recorded (`record_choice`)."""
    count = list_candidates(lay, w, seat, nrolls)
    c = 0
    if count >= 2:
        zero = np.int64(0)  # face, pending and sixes: unused by plan rollouts
        options = min(count, PLAN_CANDIDATES)
        c = compare_rollouts(
            lay, w, seat, stream, scratch, False, True, options, zero, zero, zero, zero, turns
        )
        record_choice(w, count, w[candidate_at(c, XP.INDEX)])
    take_candidate(w, c if count > 0 else -1)
