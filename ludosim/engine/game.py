"""One whole game: who starts, the turn loop, the end of the game and its results.

Mirrors `ludosim.reference.game.Game.play` and `Game.result`. A game writes
its per-game columns into the work array: `w[result_at(H.*)]` and
`w[seat_result_at(K.*, seat)]` (docs/api.md column order), which the batch
runner copies into the compact output arrays. Games with an expert seat are
these games too, compiled with the literal `expert` True (`turn.search_move_if`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.codes import (
    FIRST_PLAYER_RANDOM,
    FIRST_PLAYER_SEAT0,
    SCORING_NONE,
)
from ludosim.engine.flow import close_flow_if, count_boundary_if, open_flow_if
from ludosim.engine.layout import R
from ludosim.engine.position import (
    finished,
    leave_board,
    next_seat,
    reset_state,
    seat_points,
    team_count,
    team_done,
    travelled,
)
from ludosim.engine.rng import below
from ludosim.engine.state import (
    HOT,
    SB,
    STATS,
    YARD,
    C,
    H,
    K,
    S,
    X,
    counter_at,
    expert_at,
    ix,
    progress_at,
    result_at,
    seat_list_at,
    seat_result_at,
    stat_at,
)
from ludosim.engine.turn import plan_turn, single_roll_turn


@njit(**HOT)
def roll_off(lay: np.ndarray, w: np.ndarray, stream: np.ndarray) -> int:
    """Seat that takes the first turn (draws as `Game.roll_off`)."""
    rule = lay[R.FIRST_PLAYER]
    n = lay[R.PLAYERS]
    if rule == FIRST_PLAYER_SEAT0 or n == 1:
        return 0
    if rule == FIRST_PLAYER_RANDOM:
        return below(stream, n)
    for j in range(n):
        w[seat_list_at(SB.CONTENDERS, j)] = j
    m = n
    while m > 1:
        top = -1
        for j in range(m):
            w[seat_list_at(SB.THROWS, j)] = below(stream, np.int64(6))
            top = max(top, w[seat_list_at(SB.THROWS, j)])
        kept = 0
        for j in range(m):  # tied highest re-roll among themselves, in seat order
            if w[seat_list_at(SB.THROWS, j)] == top:
                w[seat_list_at(SB.CONTENDERS, kept)] = w[seat_list_at(SB.CONTENDERS, j)]
                kept += 1
        m = kept
    return w[seat_list_at(SB.CONTENDERS, 0)]


@njit(**HOT)
def _place_teams(lay: np.ndarray, w: np.ndarray, ref: int, nfin: int) -> None:
    """Places by team (`teams`, as `Game.team_places`): the teams that finished in the
    order they did (the winner's first), the other teams after them by their seats'
    scores summed (`_seat_scores`), ties by the turn order after `ref` of each team's
    first seat."""
    n = lay[R.PLAYERS]
    _seat_scores(lay, w)
    for s in range(n):
        team = lay[ix(R.TEAM0 + s)]
        done = _team_finished_at(lay, w, team, nfin)
        ahead = 0
        for t in range(n):  # each other team once, through its first seat after ref
            other = lay[ix(R.TEAM0 + t)]
            if other == team or _team_lead(lay, ref, t) != t:
                continue
            other_done = _team_finished_at(lay, w, other, nfin)
            if other_done != done:
                ahead += other_done < done
                continue
            mine = _team_score(lay, w, team)
            theirs = _team_score(lay, w, other)
            if theirs > mine or (
                theirs == mine and (t - ref) % n < (_team_lead(lay, ref, s) - ref) % n
            ):
                ahead += 1
        w[seat_result_at(K.PLACE, s)] = ahead + 1


@njit(**HOT)
def _team_finished_at(lay: np.ndarray, w: np.ndarray, team: int, nfin: int) -> int:
    """The index in the finishing order (`SB.ORDER`) of the finish that completed
    `team`, or `nfin` when some seat of it has not finished (after every team that has)."""
    last = -1
    for k in range(nfin):
        last = k if lay[ix(R.TEAM0 + w[seat_list_at(SB.ORDER, k)])] == team else last
    for s in range(lay[R.PLAYERS]):
        if lay[ix(R.TEAM0 + s)] == team and not w[seat_list_at(SB.DONE, s)]:
            return nfin
    return last


@njit(**HOT)
def _team_lead(lay: np.ndarray, ref: int, seat: int) -> int:
    """The first seat of `seat`'s team in turn order from `ref` on."""
    n = lay[R.PLAYERS]
    team = lay[ix(R.TEAM0 + seat)]
    for k in range(n):
        s = (ref + k) % n
        if lay[ix(R.TEAM0 + s)] == team:
            return s
    return seat


@njit(**HOT)
def _team_score(lay: np.ndarray, w: np.ndarray, team: int) -> int:
    """The scores (`SB.SCORE`) of a team's seats summed."""
    total = 0
    for s in range(lay[R.PLAYERS]):
        if lay[ix(R.TEAM0 + s)] == team:
            total += w[seat_list_at(SB.SCORE, s)]
    return total


@njit(**HOT)
def _seat_scores(lay: np.ndarray, w: np.ndarray) -> None:
    """Each seat's ranking score (`SB.SCORE`): its points, or pieces home then total
    progress (as `Game.seat_score`)."""
    goal = lay[R.GOAL]
    for s in range(lay[R.PLAYERS]):
        if lay[R.SCORING] != SCORING_NONE:
            w[seat_list_at(SB.SCORE, s)] = w[seat_result_at(K.POINTS, s)]
        else:
            home = 0
            total = 0
            for i in range(lay[R.PIECES]):
                p = w[progress_at(s, i)]
                home += p == goal
                total += travelled(lay, p) + 1
            w[seat_list_at(SB.SCORE, s)] = home * 1_000_000 + total


@njit(**HOT)
def _rank_rest(lay: np.ndarray, w: np.ndarray, ref: int, nfin: int) -> None:
    """Places of the seats that did not finish (semantics.md, end of the game).

    By points (megajogos, steps) or pieces home then total progress, ties by seat
    order after `ref` (the winner, or the first player when nobody finished).
    """
    n = lay[R.PLAYERS]
    _seat_scores(lay, w)
    for s in range(n):
        if w[seat_list_at(SB.DONE, s)]:
            continue
        ahead = 0
        for t in range(n):
            if w[seat_list_at(SB.DONE, t)] or t == s:
                continue
            if w[seat_list_at(SB.SCORE, t)] > w[seat_list_at(SB.SCORE, s)] or (
                w[seat_list_at(SB.SCORE, t)] == w[seat_list_at(SB.SCORE, s)]
                and (t - ref) % n < (s - ref) % n
            ):
                ahead += 1
        w[seat_result_at(K.PLACE, s)] = nfin + 1 + ahead


@njit(**HOT)
def piece_owner(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """Whose pieces `seat` moves this turn: its own, or once it has finished (`teams`)
    those of the first partner after it in turn order that has not (as `Game.owner`)."""
    if not w[seat_list_at(SB.DONE, seat)]:
        return seat
    n = lay[R.PLAYERS]
    team = lay[ix(R.TEAM0 + seat)]
    s = seat
    for _ in range(n):
        s = s + 1 if s + 1 < n else 0
        if lay[ix(R.TEAM0 + s)] == team and not w[seat_list_at(SB.DONE, s)]:
            return s
    return seat


# How a game plays its turns: one compiled copy of the turn loop each.
PLANS = 0  # Killer: roll then move
FREE = 1  # single rolls, `free_play`: every choice made among a mask of pieces
SINGLE = 2  # single rolls, each roll's moves as a move list (`choose_move`)


@njit(**HOT)
def _open_game(
    lay: np.ndarray, w: np.ndarray, stream: np.ndarray, has_start: bool, start_seat: int
) -> int:
    """Reset the state for a new game and return the seat that takes the first turn."""
    reset_state(lay, w, has_start)
    first = start_seat if has_start else roll_off(lay, w, stream)
    for s in range(lay[R.PLAYERS]):
        w[seat_list_at(SB.DONE, s)] = 0
        entered = 0  # a piece of a start position outside the yard has entered
        for i in range(lay[R.PIECES]):
            entered |= w[progress_at(s, i)] != YARD
        w[seat_list_at(SB.ENTERED, s)] = entered
        w[seat_list_at(SB.UNLOCKED, s)] = 0  # every seat starts locked (home_unlock)
    return first


@njit(**HOT)
def _close_game(
    lay: np.ndarray,
    w: np.ndarray,
    first: int,
    nfin: int,
    turns: int,
    truncated: bool,
    winner: int,
) -> None:
    """Write the game's results (`w[HEAD:]`, `w[SEATS:]`) once its turns are played;
    `winner` is the seat whose finish decided the game (-1 if none did)."""
    n = lay[R.PLAYERS]
    if lay[R.MOVE_LIMIT]:
        _close_by_points(lay, w, first, turns)
        return
    w[result_at(H.FIRST)] = first
    w[result_at(H.WINNER)] = winner
    if winner < 0:
        w[result_at(H.TURNS)] = turns
        w[result_at(H.ROLLS)] = w[counter_at(C.ROLLS)]
    w[result_at(H.END_TURNS)] = turns
    w[result_at(H.TRUNCATED)] = truncated
    for s in range(n):
        for stat in range(S.SIZE):
            w[seat_result_at(K.STATS + stat, s)] = w[stat_at(STATS, stat, s)]
        w[seat_result_at(K.POINTS, s)] = seat_points(lay, w, s, winner)
    if lay[R.HAS_TEAMS]:
        _place_teams(lay, w, winner if winner >= 0 else first, nfin)
        return
    for place in range(nfin):
        w[seat_result_at(K.PLACE, w[seat_list_at(SB.ORDER, place)])] = place + 1
    _rank_rest(lay, w, winner if winner >= 0 else first, nfin)


@njit(**HOT)
def _close_by_points(lay: np.ndarray, w: np.ndarray, first: int, turns: int) -> None:
    """The results of a game under `move_limit` (as `Game.points_result`): every seat
    placed by points, equal points sharing a place; the winner the one seat in first
    place, -1 when seats tie for it; not truncated. With `teams` a side is a team
    scoring its seats' points summed (`SB.SCORE`), partners sharing its place; the
    winner the top team's seat with the most points (partners equal: the first in
    turn order from `first`), -1 when teams tie for first."""
    n = lay[R.PLAYERS]
    for s in range(n):
        for stat in range(S.SIZE):
            w[seat_result_at(K.STATS + stat, s)] = w[stat_at(STATS, stat, s)]
        w[seat_result_at(K.POINTS, s)] = seat_points(lay, w, s, -1)
    for s in range(n):  # each side's points: the seat's, or its team's summed
        w[seat_list_at(SB.SCORE, s)] = 0
        for t in range(n):
            if lay[ix(R.TEAM0 + t)] == lay[ix(R.TEAM0 + s)]:
                w[seat_list_at(SB.SCORE, s)] += w[seat_result_at(K.POINTS, t)]
    top_team = -1  # the team in first place, -2 when a second one ties for it
    for s in range(n):
        ahead = 0
        for t in range(n):  # each side ahead once, through its lowest seat
            ahead += (
                w[seat_list_at(SB.SCORE, t)] > w[seat_list_at(SB.SCORE, s)]
                and _lowest_of_team(lay, t) == t
            )
        w[seat_result_at(K.PLACE, s)] = ahead + 1
        if ahead == 0 and top_team != lay[ix(R.TEAM0 + s)]:
            top_team = lay[ix(R.TEAM0 + s)] if top_team == -1 else -2
    winner = -1
    if top_team >= 0:
        for k in range(n):  # the top team's seat with the most points, first of equals
            s = (first + k) % n
            if lay[ix(R.TEAM0 + s)] == top_team and (
                winner < 0 or w[seat_result_at(K.POINTS, s)] > w[seat_result_at(K.POINTS, winner)]
            ):
                winner = s
    w[result_at(H.FIRST)] = first
    w[result_at(H.WINNER)] = winner
    w[result_at(H.TURNS)] = turns
    w[result_at(H.ROLLS)] = w[counter_at(C.ROLLS)]
    w[result_at(H.END_TURNS)] = turns
    w[result_at(H.TRUNCATED)] = False


@njit(**HOT)
def _lowest_of_team(lay: np.ndarray, seat: int) -> int:
    """The lowest seat of `seat`'s team (without `teams`: the seat)."""
    for s in range(seat):
        if lay[ix(R.TEAM0 + s)] == lay[ix(R.TEAM0 + seat)]:
            return s
    return seat


@njit(**HOT, inline="always")
def _whole_game(
    lay: np.ndarray,
    w: np.ndarray,
    stream: np.ndarray,
    scratch: np.ndarray,
    has_start: bool,
    start_seat: int,
    mode: int,
    free: bool,
    scoring: bool,
    flow: bool,
    expert: bool,
) -> None:
    """One game: who starts, the turns until the game ends, the results.

    Finishing order goes to `SB.ORDER`, and the winner's turns and rolls to
    `w[HEAD]`. Inlined once per `mode`, a literal in each copy, so that every
    copy is a tight loop with only its own kind of turn in it; `free` (FREE's
    literal True, else False) makes the policies' choice the same way
    (`turn.policy_move`). With `flow`
    the game-flow counters are kept at every turn boundary until the winner
    finishes, and their results go to `w[FLOWRES]`. With `expert` the
    expert seats' choices are searched (`turn.search_move_if`), their
    rollouts drawing from `scratch`, and counted in `w[XCTR]`.
    """
    first = _open_game(lay, w, stream, has_start, start_seat)
    if expert:
        w[expert_at(X.DECISIONS)] = 0
        w[expert_at(X.RECORDED)] = 0
    open_flow_if(lay, w, flow)
    n = lay[R.PLAYERS]
    nfin = 0
    turns = 0
    truncated = False
    seat = first
    mover = first
    winner = -1  # the seat whose finish decided the game: the first (with `teams`: team)
    sides_left = team_count(lay)  # seats (with `teams`: teams) that have not finished
    settled = 1 if n > 1 else 0  # the places are settled at one side left (solo: none)
    while True:
        if turns >= lay[R.MOVE_LIMIT] * n > 0:
            break  # every seat has played its turns: the game ends by points
        if turns >= lay[R.MAX_TURNS]:
            truncated = True
            break
        turns += 1
        mover = piece_owner(lay, w, seat)  # with teams a finished seat moves its partner's
        if mode == PLANS:
            home = plan_turn(lay, w, mover, stream, scoring, expert, scratch, turns, 1)
        else:
            home = single_roll_turn(
                lay, w, mover, stream, free, scoring, expert, scratch, turns, 1, 0
            )
            if has_start and not home:
                # A seat of a start position may have had every piece home
                # before its turn: it is done after that turn, as in `Game.play`.
                home = finished(lay, w, mover)
        if winner < 0:
            count_boundary_if(lay, w, mover, flow)
        if home and not w[seat_list_at(SB.DONE, mover)]:
            w[seat_list_at(SB.DONE, mover)] = 1
            w[seat_list_at(SB.ORDER, nfin)] = mover
            nfin += 1
            if lay[R.HAS_TEAMS] or (lay[R.PLAY_TO_END] and not lay[R.MOVE_LIMIT]):
                # The game goes on without the seat's race (with teams: always, its
                # partner plays on), so its track pieces leave the board.
                leave_board(lay, w, mover)
            if team_done(lay, w, mover):
                sides_left -= 1
                if winner < 0:
                    winner = mover
                    w[result_at(H.TURNS)] = turns
                    w[result_at(H.ROLLS)] = w[counter_at(C.ROLLS)]
        if winner >= 0 and (not lay[R.PLAY_TO_END] or lay[R.MOVE_LIMIT]):
            break  # under a move limit the first finish (team) ends the game too
        if sides_left <= settled:
            break
        seat = next_seat(lay, w, seat)
    _close_game(lay, w, first, nfin, turns, truncated, winner)
    close_flow_if(w, w[result_at(H.WINNER)], flow)  # under a move limit: by points


# Each kind of game is its own compiled function with only its own copy of
# the turn loop: a run compiles one kind only, and numba never even inlines
# (copies the IR of) another kind's loop. `scoring` (see `policy.choose_for`)
# comes as a literal from the batch runners: numba compiles one copy per
# value, and the all-random copy has no scoring code in it; so does `expert`
# (`turn.search_move_if`), and the copy without it has no search. `flow` (the
# game-flow counters) is a run-time switch: every copy has the counting calls.
@njit(**HOT)
def play_free_game(
    lay: np.ndarray,
    w: np.ndarray,
    stream: np.ndarray,
    scratch: np.ndarray,
    has_start: bool,
    start_seat: int,
    scoring: bool,
    flow: bool,
    expert: bool,
) -> None:
    """One game under single-roll rules where `turn.free_play` holds (moves as a piece mask)."""
    _whole_game(lay, w, stream, scratch, has_start, start_seat, FREE, True, scoring, flow, expert)


@njit(**HOT)
def play_listed_game(
    lay: np.ndarray,
    w: np.ndarray,
    stream: np.ndarray,
    scratch: np.ndarray,
    has_start: bool,
    start_seat: int,
    scoring: bool,
    flow: bool,
    expert: bool,
) -> None:
    """One game under the other single-roll rules (each roll's moves as a move list)."""
    _whole_game(
        lay, w, stream, scratch, has_start, start_seat, SINGLE, False, scoring, flow, expert
    )


@njit(**HOT)
def play_plan_game(
    lay: np.ndarray,
    w: np.ndarray,
    stream: np.ndarray,
    scratch: np.ndarray,
    has_start: bool,
    start_seat: int,
    scoring: bool,
    flow: bool,
    expert: bool,
) -> None:
    """One game under roll-then-move (Killer) rules."""
    _whole_game(lay, w, stream, scratch, has_start, start_seat, PLANS, False, scoring, flow, expert)
