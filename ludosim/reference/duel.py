"""Reduced two-player games of Ludo solved exactly: random, optimal and clairvoyant play.

A duel is a rule set reduced to two players with one or two pieces each on
the shortest board (`duel_rules`: `arm_length = 7`, `home_len = 2`, the
special squares scaled to the arm). Its decision graph
(`ludosim.reference.duelgraph`) holds every reachable roll node, the legal
moves and their results taken from the reference engine's own move rules.

Method (docs/exact.md, "Duels"; docs/skill.md, "Exact play in reduced games"):

1. **Values by value iteration** (Bellman 1957; Puterman 1994): Gauss-Seidel
   sweeps (`ludosim.reference.duelvalues.sweep_values`) until no value changes
   by more than `tol` (1e-13) in a sweep, for three pairs of players:
   random against random (the uniform random policy of docs/rules.md
   section 7: each legal move by piece equally likely), the optimal policy
   against a random opponent (expectimax: the maximum over its moves, the
   mean over the opponent's), and optimal against optimal (expectimax-minimax).
2. **The clairvoyant player** knows every future roll but not the opponent's
   choices (the opponent plays random). For one dice sequence the game is a
   one-player decision problem against the opponent's random choices, solved
   exactly by dynamic programming over (roll node, roll index)
   (`clairvoyant_value`); roll k of the game shows the sequence's k-th face,
   start tries and forfeited rolls included. Beyond `horizon` rolls a node
   is valued by optimal play without foresight (a lower bound). The value is
   averaged over `sequences` sequences drawn from `seed`, each solved with the
   clairvoyant moving first and second; its 95% interval is the normal one of
   that mean.
3. **Relative skill** (Dreef, van der Genugten and Borm 2004): with W the win
   probability averaged over the two turn-order positions,
   RS = (W(optimal) - 1/2) / (W(clairvoyant) - 1/2), both against a random
   opponent. W(optimal) is exact, so RS's interval is RS at the ends of the
   clairvoyant's interval; RS is undefined (NaN) where the clairvoyant's
   lower end is not above 1/2.

`max_turns` is ignored (the untruncated game); points (`scoring`) do not
change who wins a duel: the first seat home wins.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

import numpy as np

from ludosim.reference.duelgraph import DuelGraph, build_graph, check_duel, duel_rules
from ludosim.reference.duelvalues import (
    BEST,
    RANDOM,
    WORST,
    DuelValues,
    clairvoyant_values,
    start_values,
    sweep_values,
)
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules

TOL = 1e-13  # the largest change of a value in the last sweep
MAX_SWEEPS = 100_000
Z95 = 1.959963984540054


@dataclass
class DuelResult:
    """A duel's exact values: each is the named player's win probability.

    `*_first` with that player moving first, `*_second` moving second; `w_*` the
    mean of the two (its share over both turn-order positions). `random_*`:
    random against random; `optimal_*`: the optimal policy against random;
    `minimax_first`: the first player's under best play by both;
    `clairvoyant_*`: the clairvoyant against random, a Monte Carlo mean over
    dice sequences with its 95% interval (`*_low`, `*_high`).
    """

    label: str
    pieces: int
    nodes: int
    choices: int
    random_first: float
    random_second: float
    optimal_first: float
    optimal_second: float
    minimax_first: float
    clairvoyant_first: float
    clairvoyant_second: float
    w_clairvoyant_low: float
    w_clairvoyant_high: float
    sequences: int
    horizon: int
    seed: int
    sweeps: dict[str, int] = field(default_factory=dict)
    residual: float = 0.0
    seconds: float = 0.0

    @property
    def w_optimal(self) -> float:
        return 0.5 * (self.optimal_first + self.optimal_second)

    @property
    def w_clairvoyant(self) -> float:
        return 0.5 * (self.clairvoyant_first + self.clairvoyant_second)

    @property
    def minimax_edge(self) -> float:
        """The first player's edge under best play: its win probability minus 1/2."""
        return self.minimax_first - 0.5

    @property
    def rs(self) -> float:
        return relative_skill(self.w_optimal, self.w_clairvoyant, self.w_clairvoyant_low)

    @property
    def rs_low(self) -> float:
        return relative_skill(self.w_optimal, self.w_clairvoyant_high, self.w_clairvoyant_low)

    @property
    def rs_high(self) -> float:
        return relative_skill(self.w_optimal, self.w_clairvoyant_low, self.w_clairvoyant_low)


def relative_skill(w_optimal: float, w_clairvoyant: float, lowest: float | None = None) -> float:
    """RS = (W(optimal) - 1/2) / (W(clairvoyant) - 1/2); NaN where the clairvoyant's
    room (`lowest`, by default `w_clairvoyant`) is not above 1/2."""
    floor = w_clairvoyant if lowest is None else lowest
    if not floor > 0.5:
        return math.nan
    return (w_optimal - 0.5) / (w_clairvoyant - 0.5)


def values(graph: DuelGraph, policy0: int, policy1: int, tol: float = TOL):
    """(x, y, sweeps, change): role 0's win probability at every node with role 0 / role 1
    to move, role 0 playing `policy0` and role 1 `policy1` (`duelvalues` codes)."""
    x, y = start_values(graph.nodes)
    order = np.argsort(-graph.potential, kind="stable").astype(np.int64)
    args = (*graph.walk[:4], order)
    sweeps, change = sweep_values(*args, policy0, policy1, tol, MAX_SWEEPS, x, y)
    if change > tol:
        raise RulesError(f"value iteration did not reach {tol:g} in {MAX_SWEEPS} sweeps")
    return x, y, int(sweeps), float(change)


def clairvoyant(
    graph: DuelGraph,
    leaf_x: np.ndarray,
    leaf_y: np.ndarray,
    sequences: int,
    horizon: int,
    seed: int,
) -> np.ndarray:
    """The clairvoyant's win probability on each of `sequences` dice sequences of
    `horizon` rolls drawn from `seed`: rows (moving first, moving second)."""
    rng = np.random.default_rng(seed)
    faces = len(graph.faces)
    # One draw per sequence, in order: the same dice whatever the threads.
    dice = np.stack([rng.integers(0, faces, size=horizon) for _ in range(sequences)])
    return clairvoyant_values(*graph.walk, dice.astype(np.int64), leaf_x, leaf_y)


def duel_values(graph: DuelGraph, tol: float = TOL) -> tuple[DuelValues, dict[str, int], float]:
    """The three pairs of players' values at every node (`DuelValues`), the sweeps each
    took and the largest change of the last sweep."""
    rx, ry, r_sweeps, r_change = values(graph, RANDOM, RANDOM, tol)
    ox, oy, o_sweeps, o_change = values(graph, BEST, RANDOM, tol)
    mx, my, m_sweeps, m_change = values(graph, BEST, WORST, tol)
    sweeps = {"random": r_sweeps, "optimal": o_sweeps, "minimax": m_sweeps}
    return DuelValues((rx, ry), (ox, oy), (mx, my)), sweeps, max(r_change, o_change, m_change)


def solve_duel(
    rules: Rules,
    *,
    label: str = "",
    sequences: int = 2000,
    horizon: int = 400,
    seed: int = 1,
    tol: float = TOL,
) -> DuelResult:
    """Solve the duel `rules` (players=2, 1 or 2 pieces; see `duel_rules`) exactly.

    Raises `RulesError` naming the toggle for rules a duel's state cannot hold.
    """
    began = time.perf_counter()
    check_duel(rules)
    if sequences < 2 or horizon < 1:
        raise RulesError(f"sequences={sequences}, horizon={horizon}: need >= 2 and >= 1")
    result, _, _ = solve_graph(build_graph(rules), label=label, sequences=sequences,
                               horizon=horizon, seed=seed, tol=tol)  # fmt: skip
    result.seconds = time.perf_counter() - began  # the graph's building included
    return result


def solve_graph(
    graph: DuelGraph,
    *,
    label: str = "",
    sequences: int = 2000,
    horizon: int = 400,
    seed: int = 1,
    tol: float = TOL,
) -> tuple[DuelResult, DuelValues, np.ndarray]:
    """`solve_duel` on a graph already built: the result, the values behind it and the
    clairvoyant's win probability per dice sequence (rows: moving first, second)."""
    began = time.perf_counter()
    s = graph.start
    found, sweeps, residual = duel_values(graph, tol)
    (rx, ry), (ox, oy), (mx, _) = found.random, found.optimal, found.minimax
    seen = clairvoyant(graph, ox, oy, sequences, horizon, seed)
    mean = seen.mean(axis=0)
    half = Z95 * seen.mean(axis=1).std(ddof=1) / math.sqrt(sequences)
    w = float(seen.mean())
    result = DuelResult(
        label=label,
        pieces=graph.rules.pieces,
        nodes=graph.nodes,
        choices=graph.choices,
        random_first=float(rx[s]),
        random_second=float(ry[s]),
        optimal_first=float(ox[s]),
        optimal_second=float(oy[s]),
        minimax_first=float(mx[s]),
        clairvoyant_first=float(mean[0]),
        clairvoyant_second=float(mean[1]),
        w_clairvoyant_low=w - half,
        w_clairvoyant_high=w + half,
        sequences=sequences,
        horizon=horizon,
        seed=seed,
        sweeps=sweeps,
        residual=residual,
        seconds=time.perf_counter() - began,
    )
    return result, found, seen


def solve_preset(preset: str, pieces: int, **kwargs) -> DuelResult:
    """`solve_duel` of a preset reduced by `duel_rules`."""
    return solve_duel(duel_rules(Rules.preset(preset), pieces), label=preset, **kwargs)


def format_duel(result: DuelResult) -> str:
    """The duel's values as text, every Monte Carlo number with its 95% interval."""
    r = result
    lines = [
        f"Exact duel: {r.label or 'rules'}, 2 players, {r.pieces} piece(s) each "
        f"({r.nodes:,} roll nodes, {r.choices:,} decisions with a choice)",
        f"  random vs random     first {r.random_first:.6f}  second {r.random_second:.6f}",
        f"  optimal vs random    first {r.optimal_first:.6f}  second {r.optimal_second:.6f}"
        f"  W {r.w_optimal:.6f}",
        f"  optimal vs optimal   first {r.minimax_first:.6f}  (edge {r.minimax_edge:+.6f})",
        f"  clairvoyant vs random first {r.clairvoyant_first:.4f}  second "
        f"{r.clairvoyant_second:.4f}  W {r.w_clairvoyant:.4f} "
        f"({r.w_clairvoyant_low:.4f}-{r.w_clairvoyant_high:.4f})",
        f"  relative skill RS    {r.rs:.4f} ({r.rs_low:.4f}-{r.rs_high:.4f})",
        f"  value iteration to {TOL:g} (last sweep {r.residual:.1e}); clairvoyant over "
        f"{r.sequences:,} dice sequences of {r.horizon} rolls, seed {r.seed}; {r.seconds:.1f} s",
    ]
    return "\n".join(lines)
