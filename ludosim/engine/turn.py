"""One player's turn: rolls, bonus rolls, choices, the puster (docs/semantics.md).

Mirrors `Game.single_roll_turn`, `Game.plan_turn` and `Game.end_turn` of the
reference engine, draw for draw.

Every turn of every game is played here, the expert's too (`ludosim.engine.expert`).
Before each choice a turn asks whether the search makes it (`search_move_if`,
`search_plan_if`): where the literal `expert` says that some seat is an
expert (see `batch.run_batch`), an expert seat's choices are the search's;
every other choice is the seat's policy's (`policy_move`, `policy_sequence`).
Where `expert` is the literal False the search is not compiled at all, so
an ordinary game runs exactly the code it would run without an expert. The
search plays the rest of the turn and the turns after it by the same
functions (`single_roll_turn` and `plan_turn` from a given number of rolls
left), its own seat choosing by its base policy.
"""

from __future__ import annotations

import numpy as np
from numba import njit, types
from numba.extending import overload

from ludosim.engine.codes import (
    BONUS_ON_SIX_ALWAYS,
    BONUS_ON_SIX_UNLESS_ENTERED,
    BONUS_STACKING_ONE,
    FINISH_BOUNCE_ON,
    FINISH_EXACT,
    START_ATTEMPTS_WHEN_GAME_START,
)
from ludosim.engine.layout import (
    DETECT_ALWAYS,
    DETECT_DRAW,
    FACE_GLOBE,
    NONE,
    R,
)
from ludosim.engine.memo import choose_plan
from ludosim.engine.moves import (
    ENTERING,
    apply_move,
    apply_move_inline,
    free_movers,
    free_target,
    is_entering_face,
    legal_target,
)
from ludosim.engine.plans import pieces_at_risk
from ludosim.engine.policy import choose_for, choose_free_for
from ludosim.engine.position import finished, in_play, put
from ludosim.engine.rng import below, uniform_bits
from ludosim.engine.state import (
    CH,
    HOT,
    MAX_ROLLS,
    NO,
    SB,
    SK,
    STATS,
    XS,
    YARD,
    B,
    C,
    M,
    S,
    best_at,
    chosen_at,
    counter_at,
    expert_seat_at,
    ix,
    move_at,
    progress_at,
    reversed_at,
    roll_at,
    seat_list_at,
    skip_at,
    stat_at,
)


@njit(**HOT)
def roll(lay: np.ndarray, w: np.ndarray, stream: np.ndarray) -> int:
    """One die roll: `below(6)` indexes the faces; counted in `rolls`."""
    w[counter_at(C.ROLLS)] += 1
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
    if w[counter_at(C.SKIPS)] > 0:
        _puster(lay, w, seat, stream)
    if lay[R.FINISH] == FINISH_BOUNCE_ON:  # only bounce_on reverses pieces
        for i in range(lay[R.PIECES]):
            w[reversed_at(seat, i)] = 0


@njit(**HOT)
def _puster(lay: np.ndarray, w: np.ndarray, seat: int, stream: np.ndarray) -> None:
    """Each skipped forced capture of the turn may be caught; caught pieces go home."""
    goal = lay[R.GOAL]
    mode = lay[R.DETECT_MODE]
    for j in range(w[counter_at(C.SKIPS)]):
        w[stat_at(STATS, S.SKIPPED, seat)] += 1
        most = w[skip_at(j, SK.MOST)]
        first = w[skip_at(j, SK.FIRST)]
        risk = pieces_at_risk(lay, w, seat, most, first, w[skip_at(j, SK.UNION)])
        caught = mode == DETECT_ALWAYS or (
            mode == DETECT_DRAW and uniform_bits(stream) < lay[R.DETECT_THRESHOLD]
        )
        if caught:
            w[stat_at(STATS, S.CAUGHT, seat)] += 1
            for i in range(lay[R.PIECES]):
                p = w[progress_at(seat, i)]
                if risk & (np.int64(1) << i) and p != YARD and p != goal:
                    put(lay, w, seat, i, np.int64(YARD))
    w[counter_at(C.SKIPS)] = 0


@njit(**HOT)
def start_attempts(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """Start tries the seat has now (`Game.start_attempts`): one once a piece has entered
    under `start_attempts_when = game_start`."""
    if (
        lay[R.START_ATTEMPTS_WHEN] == START_ATTEMPTS_WHEN_GAME_START
        and w[seat_list_at(SB.ENTERED, seat)]
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
    piece = 0  # every piece is in the yard or the goal: the first in the yard enters
    while piece < lay[R.PIECES] - 1 and w[progress_at(seat, piece)] != YARD:
        piece += 1
    for tries in range(attempts):
        face = roll(lay, w, stream)
        if is_entering_face(lay, face) and legal_target(lay, w, seat, piece, face)[0] != NONE:
            return face, tries
    return -1, attempts


@njit(**HOT)
def free_play(lay: np.ndarray) -> bool:
    """Every roll's moves are the pieces of a mask (`free_movers`) under these rules.

    True when no square can bar a move, finishes are exact, captures are
    optional, every home column is open and the die has numbers only; then
    no move list is written: a random seat draws among the mask
    (`pick_random_piece`), a scoring seat scores the mask's pieces
    (`policy.choose_free_piece`).
    """
    if (
        not lay[R.PASS_ALL]
        or lay[R.FINISH] != FINISH_EXACT
        or lay[R.FORCED_CAPTURE]
        or lay[R.HOME_UNLOCK]
    ):
        return False
    for i in range(6):
        if lay[ix(R.FACE0 + i)] > 6:
            return False
    return True


def policy_move(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    face: int,
    stream: np.ndarray,
    free: bool,
    scoring: bool,
) -> tuple:
    """The move the seat's policy plays for `face`: (piece, target, flags), piece -1 when
    there is none.

    With `free` (`free_play`) the policy chooses among a mask of pieces and no
    move list is written; else among the move list (`choose_move`). `free`
    comes from the game as a literal (`game._whole_game`), and the choice is
    made at typing time (compiled code gets `_policy_move`): a game of one
    kind compiles no trace of the other's choice, nor its policies' scoring.
    The body below runs only without the JIT (`NUMBA_DISABLE_JIT=1`).
    """
    if free:
        return free_policy_move(lay, w, seat, face, stream, scoring)
    return listed_policy_move(lay, w, seat, face, stream, scoring)


@njit(**HOT, inline="always")
def free_policy_move(
    lay: np.ndarray, w: np.ndarray, seat: int, face: int, stream: np.ndarray, scoring: bool
) -> tuple:
    """`policy_move` under `free_play`: the piece chosen among the mask of movers."""
    movers = free_movers(lay, w, seat, face)
    piece = choose_free_for(lay, w, seat, face, movers, stream, scoring)
    target, flags = free_target(w, seat, max(piece, 0), face)
    return piece, target, flags


@njit(**HOT, inline="always")
def listed_policy_move(
    lay: np.ndarray, w: np.ndarray, seat: int, face: int, stream: np.ndarray, scoring: bool
) -> tuple:
    """`policy_move` on the move list (`choose_move`)."""
    j = choose_for(lay, w, seat, face, stream, scoring)
    if j < 0:
        return -1, 0, 0
    return w[move_at(j, M.PIECE)], w[move_at(j, M.TARGET)], w[move_at(j, M.FLAGS)]


@overload(policy_move, prefer_literal=True, inline="always")
def _policy_move(lay, w, seat, face, stream, free, scoring):
    if not isinstance(free, types.BooleanLiteral):
        raise TypeError("policy_move needs `free` as a literal (game._whole_game)")
    if free.literal_value:
        return lambda lay, w, seat, face, stream, free, scoring: free_policy_move(
            lay, w, seat, face, stream, scoring
        )
    return lambda lay, w, seat, face, stream, free, scoring: listed_policy_move(
        lay, w, seat, face, stream, scoring
    )


def search_move_if(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    face: int,
    stream: np.ndarray,
    free: bool,
    expert: bool,
    scratch: np.ndarray,
    turns: int,
    pending: int,
    sixes: int,
) -> tuple:
    """Where `seat` is an expert and `expert` holds, its search's move for `face`:
    (True, piece, target, flags), piece -1 when there is none; else (False, -1, 0, 0)
    and the seat's policy chooses (`policy_move`).

    The search (`expert.searched_move`) goes on from the turn's state:
    `pending` rolls left, `sixes` in a row, the game's `turns` so far; its
    rollouts draw from `scratch`. `expert` comes from the batch runners as a
    literal (`numba.literally`); numba prunes branches on constants but not
    on literal arguments, so the choice is made here, at typing time, and
    with the literal False nothing of the search is compiled. The body below
    runs only without the JIT (`NUMBA_DISABLE_JIT=1`); compiled code gets
    `_search_move_if`.
    """
    if expert and w[expert_seat_at(XS.ROLLOUTS, seat)] > 0:
        from ludosim.engine.expert import searched_move

        return (
            True,
            *searched_move(lay, w, seat, face, stream, scratch, free, pending, sixes, turns),
        )
    return False, -1, 0, 0


def _no_search(expert: types.Type) -> bool:
    """`expert` is the literal False: the seats' policies make every choice."""
    return isinstance(expert, types.BooleanLiteral) and not expert.literal_value


@overload(search_move_if, prefer_literal=True, inline="always")
def _search_move_if(lay, w, seat, face, stream, free, expert, scratch, turns, pending, sixes):
    if _no_search(expert):
        return lambda lay, w, seat, face, stream, free, expert, scratch, turns, pending, sixes: (
            False,
            np.int64(-1),
            np.int64(0),
            np.int64(0),
        )
    # Imported when typed: the search imports this module, to play its rollouts.
    from ludosim.engine.expert import searched_move

    def impl(lay, w, seat, face, stream, free, expert, scratch, turns, pending, sixes):
        if w[expert_seat_at(XS.ROLLOUTS, seat)] > 0:
            piece, target, flags = searched_move(
                lay, w, seat, face, stream, scratch, free, pending, sixes, turns
            )
            return True, piece, target, flags
        return False, np.int64(-1), np.int64(0), np.int64(0)

    return impl


@njit(**HOT, inline="always")
def bonus_rules(lay: np.ndarray) -> tuple:
    """(the most bonus rolls one move earns, whether an entering move is noted in
    `SB.ENTERED`), read once a turn: rule slots read before the turn's first store
    to `w` stay in registers (see `moves`, speed notes)."""
    # Bonus rolls one move earns: every source counts, or one at most.
    most = 1 if lay[R.BONUS_STACKING] == BONUS_STACKING_ONE else 3
    # Only `start_attempts_when = game_start` needs to know whether a piece entered,
    # and only with several start attempts.
    note_entry = (
        lay[R.START_ATTEMPTS] > 1 and lay[R.START_ATTEMPTS_WHEN] == START_ATTEMPTS_WHEN_GAME_START
    )
    return most, note_entry


@njit(**HOT, inline="always")
def play_move(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    face: int,
    piece: int,
    target: int,
    flags: int,
    pending: int,
    most: int,
    note_entry: bool,
) -> tuple:
    """Play the move chosen for `face`: (`pending` rolls plus the bonus rolls the move
    earns, whether the seat got its last piece home). `most` and `note_entry`: `bonus_rules`."""
    captures, reached = apply_move_inline(lay, w, seat, piece, target, flags, np.int64(STATS), NO)
    if note_entry and flags & ENTERING:
        w[seat_list_at(SB.ENTERED, seat)] = 1
    earned = face_bonus(lay, face, (flags & ENTERING) != 0)
    if captures > 0 and lay[R.BONUS_ON_CAPTURE]:
        earned += 1
    if reached and lay[R.BONUS_ON_FINISH]:
        earned += 1
    # With finish_in_home any move into or inside the home column may finish the seat.
    home = finished(lay, w, seat) if reached or lay[R.FINISH_IN_HOME] else False
    return pending + min(earned, most), home


@njit(**HOT, inline="always")
def single_roll_turn(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    stream: np.ndarray,
    free: bool,
    scoring: bool,
    expert: bool,
    scratch: np.ndarray,
    turns: int,
    pending: int,
    sixes: int,
) -> bool:
    """A turn under single-roll rules, bonus rolls and puster included, from `pending`
    rolls left and `sixes` 6s in a row (a whole turn: 1 and 0).

    `free` is `free_play(lay)`, a constant in each inlined copy (see
    `game._whole_game`), so the free copy has no trace of the general choice.
    `scoring` goes to `policy_move`; `expert`, `scratch` and `turns` to
    `search_move_if`. Returns whether the seat got its last piece home this turn.
    """
    six_limit = lay[R.SIX_LIMIT]
    # With one start attempt the try is the turn's ordinary roll: a face that can
    # enter plays as usual, and one that cannot leaves no legal move, which ends
    # the turn below. Only several attempts need the tries up front, so the hot
    # loop skips the in-play check on every roll of one-attempt rules.
    several_tries = lay[R.START_ATTEMPTS] > 1
    most, note_entry = bonus_rules(lay)
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
        searched, piece, target, flags = search_move_if(
            lay, w, seat, face, stream, free, expert, scratch, turns, pending, sixes
        )
        if not searched:
            piece, target, flags = policy_move(lay, w, seat, face, stream, free, scoring)
        if piece < 0:
            if lay[R.NO_MOVE_ENDS_TURN] or not in_play(lay, w, seat):
                # With no piece in play this was the one start try, and it failed:
                # it earns nothing and the turn ends (docs/rules.md section 2).
                break
            pending += face_bonus(lay, face, NO)
            continue
        pending, home = play_move(
            lay, w, seat, face, piece, target, flags, pending, most, note_entry
        )
        if home:
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
    target, flags = legal_target(lay, w, seat, piece, face)
    took, home = apply_move(lay, w, seat, piece, target, flags, np.int64(STATS), NO)
    if flags & ENTERING:
        w[seat_list_at(SB.ENTERED, seat)] = 1
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


@njit(**HOT)
def play_chosen_plan(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """Play the plan in `CHOSEN` (`B.STEPS` steps) for real: the roll sequences it earns.

    An ordinary call: one compiled copy serves the policy's plans, the
    expert's and its rollouts'.
    """
    captures, reached = 0, 0
    for step in range(w[best_at(B.STEPS)]):
        took, home = play_step(
            lay, w, seat, w[chosen_at(step, CH.PIECE)], w[chosen_at(step, CH.FACE)]
        )
        captures += took
        reached += home
    return sequences_earned(lay, captures, reached)


@njit(**HOT, inline="always")
def policy_sequence(
    lay: np.ndarray, w: np.ndarray, seat: int, nrolls: int, stream: np.ndarray, scoring: bool
) -> int:
    """Play the roll sequence in `ROLLS` (`nrolls` rolls) as the seat's policy plans it:
    the roll sequences it earns."""
    if nrolls > 1:
        choose_plan(lay, w, seat, nrolls, stream)
        return play_chosen_plan(lay, w, seat)
    # One roll: the plans are the single moves, no search needed.
    j = choose_for(lay, w, seat, w[roll_at(0)], stream, scoring)
    if j < 0:
        return 0
    piece = w[move_at(j, M.PIECE)]
    target = w[move_at(j, M.TARGET)]
    flags = w[move_at(j, M.FLAGS)]
    took, home = apply_move(lay, w, seat, piece, target, flags, np.int64(STATS), NO)
    if flags & ENTERING:
        w[seat_list_at(SB.ENTERED, seat)] = 1
    return sequences_earned(lay, took > 0, home)


def search_plan_if(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    nrolls: int,
    stream: np.ndarray,
    expert: bool,
    scratch: np.ndarray,
    turns: int,
) -> bool:
    """Where `seat` is an expert and `expert` holds, its search's plan for the roll
    sequence in `ROLLS` (`nrolls` rolls) goes to `CHOSEN` (`expert.searched_plan`)
    and True is returned; else False, and the seat's policy plans (`policy_sequence`).

    Resolved at typing time as `search_move_if`; the body below runs only
    without the JIT.
    """
    if expert and w[expert_seat_at(XS.ROLLOUTS, seat)] > 0:
        from ludosim.engine.expert import searched_plan

        searched_plan(lay, w, seat, nrolls, stream, scratch, turns)
        return True
    return False


@overload(search_plan_if, prefer_literal=True, inline="always")
def _search_plan_if(lay, w, seat, nrolls, stream, expert, scratch, turns):
    if _no_search(expert):
        return lambda lay, w, seat, nrolls, stream, expert, scratch, turns: False
    from ludosim.engine.expert import searched_plan

    def impl(lay, w, seat, nrolls, stream, expert, scratch, turns):
        if w[expert_seat_at(XS.ROLLOUTS, seat)] > 0:
            searched_plan(lay, w, seat, nrolls, stream, scratch, turns)
            return True
        return False

    return impl


@njit(**HOT, inline="always")
def plan_turn(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    stream: np.ndarray,
    scoring: bool,
    expert: bool,
    scratch: np.ndarray,
    turns: int,
    pending: int,
) -> bool:
    """Killer: roll until a non-6, then play all the rolls as one plan, from `pending`
    roll sequences left (a whole turn: 1); whether the seat has finished after it.

    Each capturing move and each move into the goal of the plan earns a new
    roll sequence with `bonus_on_capture` / `bonus_on_finish`, rolled and
    planned afresh (`Game.plan_turn`). `scoring` goes to `policy_sequence`;
    `expert`, `scratch` and `turns` to `search_plan_if`.
    """
    while pending > 0:
        pending -= 1
        n = roll_sequence(lay, w, seat, stream)
        if n == 0:
            break
        if search_plan_if(lay, w, seat, n, stream, expert, scratch, turns):
            pending += play_chosen_plan(lay, w, seat)
        else:
            pending += policy_sequence(lay, w, seat, n, stream, scoring)
        if finished(lay, w, seat):
            break
    end_turn(lay, w, seat, stream)
    return finished(lay, w, seat)
