"""Exact answers for the solo race: how many turns and rolls one player needs.

With `players = 1` there are no opponents, so a game is a Markov chain over
the progress values of the player's own pieces. This module builds that chain
from the rules (docs/rules.md sections 2-5, `docs/semantics.md`), independently of
the engines, and computes the exact distribution of the number of turns and of
die rolls until every piece is in the goal, under the random policy.

Method (see `docs/exact.md`):

1. **Turn kernel.** For every solo state (the sorted progress values of the
   pieces at the start of a turn) the outcomes of one whole turn are
   enumerated with their probabilities: a forward recursion over die rolls
   through the within-turn state (pieces with their `bounce_on` reversed
   flags, pending bonus rolls, the six count), or, under `roll_then_move`,
   over roll sequences and the uniform choice among the legal plans. A turn
   outcome is (state at the end of the turn, rolls used).
2. **Turns.** The distribution over states is pushed through the kernel turn
   by turn; the mass reaching the all-in-goal state at turn `t` is
   `P(turns = t)`.
3. **Rolls.** The same chain with rolls as the clock: `A[n, s]`, the
   probability that some turn starts in state `s` after `n` rolls, obeys a
   renewal recursion over the rolls each turn uses.
4. **Moments.** Means and variances come from the fundamental matrix
   (linear solves on `I - Q`), not from the truncated pmfs, so they are exact
   up to the kernel's own truncation (reported as `tail_mass`).

Pieces are interchangeable under the random policy (it chooses uniformly among
moves or plans, which are symmetric in the piece labels), so a state is the
*sorted* tuple of progress values; identical pieces still count separately as
moves, exactly as in the engines.

`max_turns` truncation is ignored: the solver describes the untruncated game.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Hashable, Iterator
from dataclasses import dataclass
from typing import TypeVar

import numpy as np

from ludosim.rules.errors import RulesError
from ludosim.rules.model import GLOBE, STAR, Rules

YARD = -1

# Supported piece counts: the state space grows as goal^pieces and the plan
# enumeration of Killer turns as well; two pieces already cover every
# interaction between own pieces (passing, sharing the start square).
MAX_PIECES = 2

# Probability mass below which the turn-level iterations stop (pmf cutoffs).
EPS = 1e-14
# Within a turn: a run of bonus rolls (or of Killer sixes) is followed until
# its probability falls below TURN_EPS; single branches below BRANCH_EPS are
# dropped. What is dropped is never renormalised away: it shows in `tail_mass`.
TURN_EPS = 1e-15
BRANCH_EPS = 1e-17
# The roll recursion touches every kernel entry at every roll count; entries
# below this probability (half of Killer's, for two pieces) are left out of it.
ROLLS_PRUNE = 1e-16
# Hard caps so a pathological rule set cannot loop for ever; hitting them only
# leaves more mass in `tail_mass`.
MAX_ROLLS_PER_TURN = 400
MAX_TURNS = 200_000
MAX_ROLLS = 400_000

Piece = tuple[int, bool]  # (progress, reversed) during a turn
Pos = tuple[Piece, ...]  # sorted: pieces are interchangeable
State = tuple[int, ...]  # sorted progress values at the start of a turn
Node = tuple[tuple[int, ...], dict[Pos, int]]  # best plan key, plans per end position


@dataclass(frozen=True)
class ExactResult:
    """Exact distribution of the turns and rolls of a solo race.

    `turns_pmf[t]` is P(turns = t) and `rolls_pmf[n]` is P(rolls = n), each up
    to the cutoff where the remaining mass fell below 1e-14. Means and variances
    are exact (linear solves), not computed from the truncated pmfs.
    `tail_mass` is the probability the pmfs leave out: the largest of the
    turn pmf's and the roll pmf's missing mass (both include the per-turn
    truncation of very long runs of bonus rolls).
    """

    turns_pmf: np.ndarray
    rolls_pmf: np.ndarray
    mean_turns: float
    var_turns: float
    mean_rolls: float
    var_rolls: float
    tail_mass: float
    pieces: int = 1
    states: int = 0  # solo states reachable from the start (the absorbing one included)
    seconds: float = 0.0  # time `solve` took
    label: str = ""  # preset name, when known

    @property
    def sd_turns(self) -> float:
        return math.sqrt(self.var_turns)

    @property
    def sd_rolls(self) -> float:
        return math.sqrt(self.var_rolls)

    def turns_cdf(self) -> np.ndarray:
        """P(turns <= t) for t = 0 .. len(turns_pmf) - 1."""
        return np.cumsum(self.turns_pmf)

    def quantile_turns(self, q: float) -> int:
        """Smallest t with P(turns <= t) >= q."""
        return int(np.searchsorted(self.turns_cdf(), q - 1e-15))

    def quantile_rolls(self, q: float) -> int:
        """Smallest n with P(rolls <= n) >= q."""
        return int(np.searchsorted(np.cumsum(self.rolls_pmf), q - 1e-15))


# ====================================================================== moves
class _SoloGame:
    """The moves and turns of one player alone on the board.

    Mirrors `ludosim.reference.moves` for a single seat: with no opponent on
    the board every landing simply lands (no capture, no block, no lander sent
    home), so what remains is walking, passing own pieces, the start square's
    capacity, star jumps, finishing and the reversed flags of `bounce_on`.
    Squares are compared as absolute squares, not progress: under Killer's
    `entry = track_len` progress 0 and progress `track_len` are the same
    square (the own start square).
    """

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self.track_len = rules.track_len
        self.entry = rules.entry
        self.goal = rules.goal
        self.home_from = rules.home_from
        self.win_need = rules.win_need
        self.arm_length = rules.arm_length
        self.start_offset = rules.start_offset
        self.globes = frozenset(rules.globe_offsets)
        self.stars = frozenset(rules.star_offsets)
        self.entering = frozenset(rules.entering_faces)
        self._moves: dict[tuple[Pos, int | str], list[tuple[Pos, bool, bool]]] = {}

    # --------------------------------------------------------------- squares
    def square(self, p: int) -> int:
        """Absolute square of own progress `p` (seat 0 sits on arm 0), -1 off the track."""
        return (self.start_offset + p) % self.track_len if 0 <= p <= self.entry else -1

    def arm_offset(self, p: int) -> int:
        """Offset inside its arm of the square at progress `p` (as `Board.arm_offset`)."""
        return (p + self.start_offset) % self.arm_length

    def is_star(self, p: int) -> bool:
        return 0 <= p <= self.entry and self.arm_offset(p) in self.stars

    def _step_back(self, p: int) -> int | None:
        if p - 1 >= 0:
            return p - 1
        wrapped = p - 1 + self.track_len  # behind the start square: end of the lap, if track
        return wrapped if wrapped <= self.entry else None

    def _walk_back(self, p: int, steps: int, walk: list[int]) -> None:
        for _ in range(steps):
            q = self._step_back(p)
            if q is None:  # the walk stops at the start square (boards with entry < track_len)
                return
            p = q
            walk.append(p)

    def _star_jump(self, p: int, backwards: bool) -> int | None:
        if backwards:
            q = p - 1
            while self.arm_offset(q) not in self.stars:
                q -= 1
            if q >= 0:
                return q
            # Behind the start square only where a backward walk could go too.
            if self._step_back(0) is None:
                return None
            wrapped = q + self.track_len
            return wrapped if wrapped <= self.entry else None
        q = p + 1
        while self.arm_offset(q) not in self.stars:
            q += 1
        if q <= self.entry:
            return q
        if self.rules.star_jump == "goal":
            return self.goal
        # next_lap: the first star of the next lap; none where that star lies behind
        # the own start square (a board whose entry lies before the lap's last star).
        q -= self.track_len
        return q if q >= 0 else None

    # ----------------------------------------------------------------- moves
    def _walk(self, pos: Pos, i: int, face: int | str) -> tuple[list[int], bool, bool] | None:
        """(walk, backwards, bounced) of piece `i` for `face` on the track/column, or None."""
        p, rev = pos[i]
        if face == GLOBE:
            if self.entry < p < self.goal:
                return list(range(p + 1, self.goal + 1)), False, False
            for q in range(p + 1, self.entry + 1):
                if self.arm_offset(q) in self.globes:
                    return list(range(p + 1, q + 1)), False, False
            return None
        if face == STAR:
            if not 0 <= p <= self.entry:
                return None
            for q in range(p + 1, self.entry + 1):
                if self.arm_offset(q) in self.stars:
                    return list(range(p + 1, q + 1)), False, False
                if self.arm_offset(q) in self.globes:
                    return None  # a star move may not pass a globe
            return None
        steps = int(face)
        if rev:
            walk: list[int] = []
            self._walk_back(p, steps, walk)
            return (walk, True, False) if walk else None
        if p + steps <= self.goal:
            return list(range(p + 1, p + steps + 1)), False, False
        if self.rules.finish == "exact":
            return None
        walk = list(range(p + 1, self.goal + 1))
        self._walk_back(self.goal, p + steps - self.goal, walk)
        return walk, True, True

    def moves(self, pos: Pos, face: int | str) -> list[tuple[Pos, bool, bool]]:
        """Every legal move of `face`, one per piece (by index): (new pos, entered, finished)."""
        key = (pos, face)
        found = self._moves.get(key)
        if found is None:
            found = self._legal(pos, face)
            self._moves[key] = found
        return found

    def _legal(self, pos: Pos, face: int | str) -> list[tuple[Pos, bool, bool]]:
        moves = self._each_piece(pos, face)
        if self.rules.must_enter:
            entering = [m for i, m in moves if m[1]]
            if entering:
                return entering
        if self.rules.clear_start and any(p == YARD for p, _ in pos):
            start = self.square(0)
            clearing = [m for i, m in moves if not m[1] and self.square(pos[i][0]) == start]
            if clearing:
                return clearing
        return [m for _, m in moves]

    def _lands_on_own(self, pos: Pos, i: int, target: int) -> bool:
        """Another own piece stands where `target` ends (as `reference.moves._lands_on_own`)."""
        if target == self.goal and self.home_from == self.goal:
            return False
        square = self.square(target)
        others = [q for j, (q, _) in enumerate(pos) if j != i]
        if square < 0:
            return target in others
        return any(self.square(q) == square for q in others)

    def _each_piece(self, pos: Pos, face: int | str) -> list[tuple[int, tuple[Pos, bool, bool]]]:
        """(piece, move) of every piece the board, passing and landing rules let move."""
        rules = self.rules
        out = []
        for i, (p, _rev) in enumerate(pos):
            if p == self.goal:
                continue
            if p == YARD:
                if face not in self.entering:
                    continue
                if rules.start_capacity:
                    # Counted by square: Killer's progress track_len is the start square too.
                    on_start = sum(
                        1 for j, (q, _) in enumerate(pos) if j != i and self.square(q) == 0
                    )
                    if on_start >= rules.start_capacity:
                        continue
                if not rules.land_on_own and self._lands_on_own(pos, i, 0):
                    continue
                out.append((i, (self._put(pos, i, 0, False), True, False)))
                continue
            found = self._walk(pos, i, face)
            if found is None:
                continue
            walk, backwards, bounced = found
            if not rules.pass_own and self._barred(pos, i, walk[:-1]):
                continue
            target = walk[-1]
            if not rules.land_on_own and self._lands_on_own(pos, i, target):
                continue
            if rules.star_jump != "none" and self.is_star(target):
                jumped = self._star_jump(target, backwards)
                if jumped is not None:
                    target = jumped
            rev = pos[i][1] or (bounced and rules.finish == "bounce_on")
            out.append((i, (self._put(pos, i, target, rev), False, target == self.goal)))
        return out

    def _barred(self, pos: Pos, i: int, path: list[int]) -> bool:
        """An own piece stands on a track square of the path (only when pass_own is false)."""
        others = {self.square(q) for j, (q, _) in enumerate(pos) if j != i}
        others.discard(-1)
        return any(self.square(q) in others for q in path)

    def _put(self, pos: Pos, i: int, p: int, rev: bool) -> Pos:
        if p in (YARD, self.goal):
            rev = False  # yard and goal clear the reversed flag, as Position.put does
        pieces = list(pos)
        pieces[i] = (p, rev)
        return tuple(sorted(pieces))

    # --------------------------------------------------------------- queries
    def in_play(self, pos: Pos) -> bool:
        return any(p != YARD and p != self.goal for p, _ in pos)

    def finished(self, pos: Pos) -> bool:
        return sum(p >= self.home_from for p, _ in pos) >= self.win_need

    def start_attempts(self, pos: Pos) -> int:
        """Start tries now (game.py `start_attempts`): alone on the board a piece never goes
        back to its yard, so a piece has entered exactly when one is out of the yard."""
        if self.rules.start_attempts_when == "game_start" and any(p != YARD for p, _ in pos):
            return 1
        return self.rules.start_attempts

    def face_bonus(self, face: int | str, entered: bool) -> int:
        if face == GLOBE:
            return 1
        if face != 6:
            return 0
        rule = self.rules.bonus_on_six
        return int(rule == "always" or (rule == "unless_entered" and not entered))


def _state(pos: Pos) -> State:
    """The state at a turn boundary: reversed flags are cleared at the end of a turn."""
    return tuple(sorted(p for p, _ in pos))


def _pos(state: State) -> Pos:
    return tuple((p, False) for p in state)


def _faces(rules: Rules) -> list[tuple[int | str, float]]:
    """Distinct faces of the die with their probabilities (a face may repeat)."""
    counts: dict[int | str, int] = defaultdict(int)
    for f in rules.die_faces:
        counts[f] += 1
    return [(f, c / 6.0) for f, c in counts.items()]


# ================================================================ turn kernels
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


# ================================================================ the chain
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


def _turns_pmf(chain: _Chain, start: int | None = None) -> np.ndarray:
    """P(turns = t) from state `start` (default: the chain's start, every piece in the yard):
    push the state distribution through the kernel turn by turn."""
    s = len(chain.states)
    # The number of rolls does not matter here: merge entries per (src, dst).
    pair, inverse = np.unique(chain.src * s + chain.dst, return_inverse=True)
    prob = np.bincount(inverse, weights=chain.prob)
    src, dst = pair // s, pair % s
    into_goal = dst == chain.goal
    v = np.zeros(s)
    v[chain.start if start is None else start] = 1.0
    pmf = [0.0]
    while v.sum() > EPS and len(pmf) <= MAX_TURNS:
        flow = v[src] * prob
        pmf.append(float(flow[into_goal].sum()))
        v = np.bincount(dst, weights=flow, minlength=s)
        v[chain.goal] = 0.0
    return np.asarray(pmf)


def _rolls_pmf(chain: _Chain) -> np.ndarray:
    """P(rolls = n) by a renewal recursion with rolls as the clock.

    `A[n, s]` is the probability that a turn starts in state `s` when `n`
    rolls have been used: A[n] = [n == 0] e_start + sum over kernel entries
    (s -> s', r) of A[n - r, s] * prob. Every turn uses at least one roll,
    so A[n] depends only on earlier rows. Once the last `max r` rows of A
    hold less than EPS, no more than EPS can still be absorbed: stop there
    (a test on 1 - absorbed would stall on rounding error).
    """
    s = len(chain.states)
    # Entries below ROLLS_PRUNE change no printed digit but cost time at every
    # step; they are left out here and their mass shows in the tail.
    keep = chain.prob >= ROLLS_PRUNE
    # Sorted by rolls, the entries with r <= n form a prefix.
    order = np.flatnonzero(keep)[np.argsort(chain.rolls[keep], kind="stable")]
    r = chain.rolls[order]
    src, dst, prob = chain.src[order], chain.dst[order], chain.prob[order]
    to_goal = dst == chain.goal
    off = r * s - src  # A flattened: A[n - r, src] is a_flat[n * s - off]
    max_r = int(r.max())
    cap = 1024
    a = np.zeros(cap * s)
    a[chain.start] = 1.0
    mass = [1.0]  # sum of each row of A
    pmf = [0.0]
    n = 0
    while n < MAX_ROLLS:
        n += 1
        if n >= cap:
            a = np.concatenate([a, np.zeros(cap * s)])
            cap *= 2
        c = int(np.searchsorted(r, n, side="right"))
        flow = a[n * s - off[:c]] * prob[:c]
        pmf.append(float(flow[to_goal[:c]].sum()))
        row = np.bincount(dst[:c], weights=flow, minlength=s)
        row[chain.goal] = 0.0
        a[n * s : (n + 1) * s] = row
        mass.append(float(row.sum()))
        if n >= max_r and sum(mass[-max_r:]) < EPS:
            break
    return np.asarray(pmf)


def _moments(chain: _Chain) -> tuple[float, float, float, float]:
    """Exact means and variances of turns and rolls from the fundamental matrix.

    With Q the transient part of the kernel, T the turns and R the rolls left
    from a state: E[T] = 1 + Q E[T], E[T^2] = 1 + 2 Q E[T] + Q E[T^2];
    E[R] = m1 + Q E[R], E[R^2] = m2 + 2 K_r E[R] + Q E[R^2], where m1, m2 are
    the first two moments of one turn's rolls and K_r weights the kernel by r.
    """
    s = len(chain.states)
    keep = np.ones(s, dtype=bool)
    keep[chain.goal] = False
    sub = np.cumsum(keep) - 1  # index among transient states
    m = int(keep.sum())
    trans = keep[chain.dst]
    q = np.zeros((m, m))
    qr = np.zeros((m, m))
    np.add.at(q, (sub[chain.src[trans]], sub[chain.dst[trans]]), chain.prob[trans])
    np.add.at(
        qr,
        (sub[chain.src[trans]], sub[chain.dst[trans]]),
        chain.prob[trans] * chain.rolls[trans],
    )
    r = chain.rolls.astype(np.float64)
    m1 = np.bincount(sub[chain.src], weights=chain.prob * r, minlength=m)
    m2 = np.bincount(sub[chain.src], weights=chain.prob * r * r, minlength=m)
    i_q = np.eye(m) - q
    ones = np.ones(m)
    et = np.linalg.solve(i_q, ones)
    et2 = np.linalg.solve(i_q, ones + 2 * q @ et)
    er = np.linalg.solve(i_q, m1)
    er2 = np.linalg.solve(i_q, m2 + 2 * qr @ er)
    k = sub[chain.start]
    return (
        float(et[k]),
        float(et2[k] - et[k] ** 2),
        float(er[k]),
        float(er2[k] - er[k] ** 2),
    )


# ================================================================ public API
def solve(rules: Rules, pieces: int | None = None, label: str = "") -> ExactResult:
    """Exact distribution of turns and rolls of a solo race under `rules`.

    `rules` must have `players = 1` (use `Rules.preset(name).replace(players=1)`);
    `pieces` overrides `rules.pieces` and must be 1 or 2. The policy is the
    random one. `max_turns` is ignored (the untruncated game is described).
    """
    if pieces is not None:
        if isinstance(pieces, bool) or not isinstance(pieces, int):
            raise RulesError(f"pieces: expected an integer 1..{MAX_PIECES}, got {pieces!r}")
        if not 1 <= pieces <= MAX_PIECES:
            raise RulesError(
                f"pieces: the exact solver supports pieces=1..{MAX_PIECES}, got {pieces}"
            )
        rules = rules.replace(pieces=pieces)
    if rules.players != 1:
        raise RulesError(
            f"players: the exact solver handles the solo race only (players=1), "
            f"got players={rules.players}; use rules.replace(players=1)"
        )
    if rules.pieces > MAX_PIECES:
        raise RulesError(
            f"pieces: the exact solver supports pieces=1..{MAX_PIECES}, got {rules.pieces}"
        )
    if rules.move_limit:
        # A limit cuts the race at a fixed turn: its turns are min(T, limit) of the race
        # described here, which a caller reads from `turns_pmf` itself.
        raise RulesError(
            f"move_limit: the exact solver describes the race to its end, got "
            f"move_limit={rules.move_limit}; use move_limit=0"
        )
    t0 = time.perf_counter()
    chain = _build_chain(rules)
    turns = _turns_pmf(chain)
    rolls = _rolls_pmf(chain)
    mean_t, var_t, mean_r, var_r = _moments(chain)
    tail = max(0.0, 1.0 - float(turns.sum()), 1.0 - float(rolls.sum()))
    return ExactResult(
        turns_pmf=turns,
        rolls_pmf=rolls,
        mean_turns=mean_t,
        var_turns=var_t,
        mean_rolls=mean_r,
        var_rolls=var_r,
        tail_mass=tail,
        pieces=rules.pieces,
        states=len(chain.states),
        seconds=time.perf_counter() - t0,
        label=label,
    )


class RaceOdds:
    """Exact win chances of a two-seat one-piece race whose pieces can no longer meet.

    Once one of the two pieces stands in its home column, no capture, block or
    shared square can happen again: each seat runs its own solo race, whose
    remaining turns the solo chain of `rules` (one piece, `players = 1`) gives
    exactly. The seat about to move, `T_m` turns from its goal, wins against
    the other's `T_o` exactly when `T_m <= T_o` (it moves first in each round).
    Progress values are the engines' (`YARD` = -1, goal = `goal`); the policy
    is irrelevant with one piece (one legal move at most).
    """

    def __init__(self, rules: Rules) -> None:
        self.chain = _build_chain(rules.replace(players=1, pieces=1))
        self.index = {state[0]: i for i, state in enumerate(self.chain.states)}
        self._pmfs: dict[int, np.ndarray] = {}

    def turns_pmf(self, progress: int) -> np.ndarray:
        """P(T = t): the turns a lone piece at `progress` still needs to reach the goal."""
        if progress not in self.index:
            raise RulesError(
                f"progress: {progress} is not a position of the solo race "
                f"(allowed: {min(self.index)}..{max(self.index)})"
            )
        pmf = self._pmfs.get(progress)
        if pmf is None:
            pmf = self._pmfs[progress] = _turns_pmf(self.chain, self.index[progress])
        return pmf

    def win_chance(self, mover: int, other: int) -> float:
        """P(the seat about to move wins), its piece at `mover`, the other's at `other`."""
        a = self.turns_pmf(mover)
        b = self.turns_pmf(other)
        # P(T_o >= t) for t = 0, 1, ...: the other has not finished before the mover's t-th turn.
        at_least = 1.0 - np.concatenate(([0.0], np.cumsum(b)))[: len(b)]
        # Past the other's horizon (P(T_o >= t) below the solver's EPS) the sum stops.
        n = min(len(a), len(at_least))
        return float(a[:n] @ at_least[:n])


def solve_preset(name: str, pieces: int = 1) -> ExactResult:
    """`solve` for a named preset played solo: `Rules.preset(name).replace(players=1)`."""
    return solve(Rules.preset(name).replace(players=1), pieces=pieces, label=name)


def format_exact(result: ExactResult, rows: int = 12) -> str:
    """A readable summary: moments, quantiles and the head of both distributions."""
    title = f"Exact solo race{': ' + result.label if result.label else ''}"
    lines = [
        f"{title} (pieces={result.pieces}, random policy, {result.states} states, "
        f"{result.seconds:.2f} s)",
        "",
        f"{'':8}{'mean':>10}{'sd':>10}{'p5':>6}{'p50':>6}{'p95':>6}{'p99':>6}",
    ]
    for name, mean, sd, qf in (
        ("turns", result.mean_turns, result.sd_turns, result.quantile_turns),
        ("rolls", result.mean_rolls, result.sd_rolls, result.quantile_rolls),
    ):
        qs = "".join(f"{qf(q):>6}" for q in (0.05, 0.5, 0.95, 0.99))
        lines.append(f"{name:8}{mean:>10.4f}{sd:>10.4f}{qs}")
    lines += ["", "most likely numbers of turns:", f"{'turns':>7}{'P':>12}{'P(<=)':>12}"]
    cdf = result.turns_cdf()
    top = sorted(np.argsort(result.turns_pmf)[::-1][:rows].tolist())
    for t in top:
        lines.append(f"{t:>7}{result.turns_pmf[t]:>12.6f}{cdf[t]:>12.6f}")
    lines.append(f"mass beyond the cutoffs: {result.tail_mass:.2e}")
    return "\n".join(lines)
