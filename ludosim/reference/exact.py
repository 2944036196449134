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

The solo game's moves are in `ludosim.reference.solomoves`, the turn kernel and the
chain in `ludosim.reference.solochain`; here are the distributions and moments read
from the chain, and what callers use: `solve`, `ExactResult`, `RaceOdds`,
`format_exact`.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from ludosim.reference.solochain import _build_chain, _Chain

# The solver's parts, importable from here: tests/reference/test_exact.py checks them one by one.
from ludosim.reference.solochain import _Plans as _Plans
from ludosim.reference.solochain import _single_roll_turn as _single_roll_turn
from ludosim.reference.solomoves import YARD as YARD
from ludosim.reference.solomoves import _pos as _pos
from ludosim.reference.solomoves import _SoloGame as _SoloGame
from ludosim.reference.solomoves import _state as _state
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules

# Supported piece counts: the state space grows as goal^pieces and the plan
# enumeration of Killer turns as well; two pieces already cover every
# interaction between own pieces (passing, sharing the start square).
MAX_PIECES = 2

# Probability mass below which the turn-level iterations stop (pmf cutoffs).
EPS = 1e-14
# The roll recursion touches every kernel entry at every roll count; entries
# below this probability (half of Killer's, for two pieces) are left out of it.
ROLLS_PRUNE = 1e-16
# Hard caps so a pathological rule set cannot loop for ever; hitting them only
# leaves more mass in `tail_mass`.
MAX_TURNS = 200_000
MAX_ROLLS = 400_000


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
