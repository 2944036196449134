"""The solo race as a Markov chain: the outcomes of one whole turn from each solo state
(the turn kernel), and the chain of every state reachable from the start.

Two turn shapes, as in the engines: single rolls (a forward recursion over the rolls
used, through pending bonuses and the six count) and Killer's rolls then moves (the
uniform choice among the legal plans, counted). What the cutoffs drop is never
renormalised away: `ludosim.reference.exact` reports it as `tail_mass`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ludosim.reference.solomoves import YARD, Pos, State, _faces, _pos, _SoloGame, _state
from ludosim.rules.model import GLOBE, Rules

# Within a turn: a run of bonus rolls (or of Killer sixes) is followed until
# its probability falls below TURN_EPS; single branches below BRANCH_EPS are
# dropped. What is dropped is never renormalised away: it shows in `tail_mass`.
TURN_EPS = 1e-15
BRANCH_EPS = 1e-17
# A hard cap so a pathological rule set cannot loop for ever; hitting it only
# leaves more mass in `tail_mass`.
MAX_ROLLS_PER_TURN = 400

Node = tuple[tuple[int, ...], dict[Pos, int]]  # best plan key, plans per end position
Outcomes = dict[tuple[State, int], float]  # (state after the turn, rolls used) -> probability
_Key = TypeVar("_Key", bound=Hashable)


def _branches(frontier: dict[int, dict[_Key, float]]) -> Iterator[tuple[int, _Key, float]]:
    """(rolls used, within-turn state, probability) of a turn's forward recursion.

    `frontier[n]` holds the within-turn states reached after `n` rolls; the
    caller adds what each branch reaches to a later `n` while iterating, so
    visiting `n` in increasing order sees every (state, n) once. Negligible
    branches are skipped: their mass is reported as tail.
    """
    n = 0
    while frontier and n <= MAX_ROLLS_PER_TURN:
        for key, w in frontier.pop(n, {}).items():
            if w >= BRANCH_EPS:
                yield n, key, w
        n += 1


def _single_roll_turn(game: _SoloGame, state: State) -> Outcomes:
    """Outcomes of one turn under single-roll rules (game.py `single_roll_turn`).

    Forward recursion over the rolls used: `frontier[n]` holds the within-turn
    states (pos, pending bonuses, six count) reached after `n` rolls, about to
    roll. Each roll (or three-roll start, which uses 1-3 rolls) moves mass to
    a later `n` or into the outcomes, so processing `n` in increasing order
    visits each (state, n) once; the within-turn chain may revisit a state (a
    6 with no move that still earns its bonus), which the roll count keeps
    acyclic.
    """
    rules = game.rules
    faces = _faces(rules)
    enter = [(f, p) for f, p in faces if f in game.entering]
    p_enter = sum(p for _, p in enter)
    out: Outcomes = defaultdict(float)
    frontier: dict[int, dict[tuple[Pos, int, int], float]] = defaultdict(lambda: defaultdict(float))
    frontier[0][(_pos(state), 1, 0)] = 1.0
    for n, (pos, pending, sixes), w in _branches(frontier):
        pending -= 1
        rolls: list[tuple[int | str, int, float]]  # (face, rolls used, probability)
        if not game.in_play(pos):
            # Start tries: the first entering face ends them (alone on the
            # board it always enters); it is then played like any roll
            # (game.py `start_tries`). Failed tries end the turn.
            q = 1.0 - p_enter
            k = game.start_attempts(pos)
            rolls = [(f, t, q ** (t - 1) * p) for t in range(1, k + 1) for f, p in enter]
            out[(_state(pos), n + k)] += w * q**k
        else:
            rolls = [(f, 1, p) for f, p in faces]
        for face, used, p in rolls:
            if p == 0.0:
                continue
            # A failed start try resets the six count (game.py: `tries > 1`).
            run = 0 if used > 1 else sixes
            _after_roll(game, out, frontier, pos, pending, run, face, n + used, w * p)
    return out


def _after_roll(
    game: _SoloGame,
    out: Outcomes,
    frontier: dict[int, dict[tuple[Pos, int, int], float]],
    pos: Pos,
    pending: int,
    sixes: int,
    face: int | str,
    n: int,
    w: float,
) -> None:
    """Play `face` (already rolled, `n` rolls used so far) and route the mass on."""
    rules = game.rules
    sixes = sixes + 1 if face in (6, GLOBE) else 0
    if rules.six_limit and sixes >= rules.six_limit:
        out[(_state(pos), n)] += w  # forfeited: the turn ends, pending bonuses lost
        return
    moves = game.moves(pos, face)
    if not moves:
        if rules.no_move_ends_turn:
            out[(_state(pos), n)] += w
            return
        pending += game.face_bonus(face, entered=False)
        if pending > 0:
            frontier[n][(pos, pending, sixes)] += w
        else:
            out[(_state(pos), n)] += w
        return
    share = w / len(moves)  # random policy: uniform among the legal moves (by piece)
    for new, entered, finished in moves:
        extra = game.face_bonus(face, entered) + int(rules.bonus_on_finish and finished)
        if rules.bonus_stacking == "one":
            extra = min(extra, 1)
        left = pending + extra
        if left > 0 and not game.finished(new):
            frontier[n][(new, left, sixes)] += share
        else:
            out[(_state(new), n)] += share


class _Plans:
    """Uniform choice among the legal Killer plans (plans.py `PlanTree`), by counting.

    `node(pos, remaining)` returns the key of the best complete plans from here
    (rolls used, then used values high to low) and, for every end position
    (reversed flags included: a new roll sequence of the same turn keeps
    them), how many of those plans lead there. With no opponents nothing is ever captured,
    so forced capture never narrows the plans. Memoised over (pos, remaining),
    shared by every start state.
    """

    def __init__(self, game: _SoloGame) -> None:
        self.game = game
        self.memo: dict[tuple[Pos, tuple[int, ...]], Node] = {}

    def node(self, pos: Pos, remaining: tuple[int, ...]) -> Node:
        key = (pos, remaining)
        found = self.memo.get(key)
        if found is not None:
            return found
        best: tuple[int, ...] | None = None
        dist: dict[Pos, int] = {}
        for face in sorted(set(remaining), reverse=True):
            rest = list(remaining)
            rest.remove(face)
            rest_t = tuple(rest)
            for new, _, _ in self.game.moves(pos, face):
                sub_best, sub_dist = self.node(new, rest_t)
                used = tuple(sorted((face, *sub_best), reverse=True))
                if best is None or (len(used), used) > (len(best), best):
                    best, dist = used, {}
                if used == best:
                    for end, count in sub_dist.items():
                        dist[end] = dist.get(end, 0) + count
        if best is None:
            result: Node = ((), {pos: 1})
        else:
            result = (best, dist)
        self.memo[key] = result
        return result

    def outcome(self, pos: Pos, rolls: tuple[int, ...]) -> list[tuple[Pos, float]]:
        """End positions of the plan with the probability of each under a uniform choice."""
        _, dist = self.node(pos, tuple(sorted(rolls, reverse=True)))
        total = sum(dist.values())
        return [(end, count / total) for end, count in dist.items()]


def _plan_turn(game: _SoloGame, plans: _Plans, state: State) -> Outcomes:
    """Outcomes of one Killer turn (game.py `plan_turn`): roll on while 6, then one plan.

    With `bonus_on_finish` each piece a plan brings into the goal earns a new
    roll sequence of the same turn (alone on the board nothing is captured):
    a forward recursion over the rolls used, as in `_single_roll_turn`, over
    (position, pending sequences).
    """
    rules = game.rules
    faces = _faces(rules)
    p6 = sum(p for f, p in faces if f == 6)
    others = [(int(f), p) for f, p in faces if f != 6]
    enter = [(int(f), p) for f, p in faces if f in game.entering]
    p_enter = sum(p for _, p in enter)
    out: Outcomes = defaultdict(float)
    frontier: dict[int, dict[tuple[Pos, int], float]] = defaultdict(lambda: defaultdict(float))
    frontier[0][(_pos(state), 1)] = 1.0
    for n, (pos, pending), w in _branches(frontier):
        pending -= 1
        home = sum(p == game.goal for p, _ in pos)
        # The turn's roll sequences: (rolls, rolls used in the turn, probability).
        sequences: list[tuple[tuple[int, ...], int, float]] = []
        # Starts of the six run: (sixes already in hand, rolls used, probability).
        starts: list[tuple[int, int, float]] = []
        if not game.in_play(pos):
            q = 1.0 - p_enter
            k = game.start_attempts(pos)
            for t in range(1, k + 1):
                for f, pf in enter:
                    if f == 6:
                        starts.append((1, t, q ** (t - 1) * pf))
                    else:  # another entering face ends the rolling at once
                        sequences.append(((f,), n + t, q ** (t - 1) * pf))
            out[(_state(pos), n + k)] += w * q**k  # the tries failed: the turn ends
        else:
            starts = [(0, 0, 1.0)]
        for sixes0, used0, w0 in starts:
            # Further sixes: j more sixes, then a non-6 face ends the rolling.
            j, wj = 0, w0
            while wj > TURN_EPS and j <= MAX_ROLLS_PER_TURN:
                for x, px in others:
                    sequences.append(((6,) * (sixes0 + j) + (x,), n + used0 + j + 1, wj * px))
                j += 1
                wj *= p6
        for rolls, m, weight in sequences:
            for end, p in plans.outcome(pos, rolls):
                finished = sum(e == game.goal for e, _ in end) - home
                left = pending + (finished if rules.bonus_on_finish else 0)
                if left > 0 and not game.finished(end):
                    frontier[m][(end, left)] += w * weight * p
                else:
                    out[(_state(end), m)] += w * weight * p
    return out


@dataclass
class _Chain:
    """The turn kernel as flat arrays: from `src` to `dst` using `rolls` with `prob`."""

    states: list[State]
    src: np.ndarray
    dst: np.ndarray
    rolls: np.ndarray
    prob: np.ndarray
    start: int
    goal: int


def _build_chain(rules: Rules) -> _Chain:
    game = _SoloGame(rules)
    plans = _Plans(game) if rules.roll_then_move else None
    # Sorted, as every state: the yard (-1) before the start square (0).
    start: State = (YARD,) * (rules.pieces - rules.start_out) + (0,) * rules.start_out
    goal_state: State = (game.goal,) * rules.pieces
    index: dict[State, int] = {start: 0}
    states = [start]
    todo = [start]
    src: list[int] = []
    dst: list[int] = []
    rolls: list[int] = []
    prob: list[float] = []
    while todo:
        state = todo.pop()
        if state == goal_state:
            continue  # absorbing
        if plans is not None:
            outcomes = _plan_turn(game, plans, state)
        else:
            outcomes = _single_roll_turn(game, state)
        i = index[state]
        for (end, n), p in outcomes.items():
            if p <= 0.0:
                continue
            if game.finished(_pos(end)):
                end = goal_state  # with finish_in_home every finished position is one state
            j = index.get(end)
            if j is None:
                j = index[end] = len(states)
                states.append(end)
                todo.append(end)
            src.append(i)
            dst.append(j)
            rolls.append(n)
            prob.append(p)
    if goal_state not in index:
        index[goal_state] = len(states)
        states.append(goal_state)
    return _Chain(
        states=states,
        src=np.asarray(src, dtype=np.int64),
        dst=np.asarray(dst, dtype=np.int64),
        rolls=np.asarray(rolls, dtype=np.int64),
        prob=np.asarray(prob, dtype=np.float64),
        start=0,
        goal=index[goal_state],
    )
