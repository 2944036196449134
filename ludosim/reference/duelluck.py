"""Luck and skill in every move of a duel, measured with its exact values.

Backgammon analysers split a game's result into the luck of the dice and the cost of
the choices, both in the equity of best play. A duel's values under best play by both
(`duelvalues`, `BEST` against `WORST`) do the same exactly, in role 0's win
probability `V`:

- **luck of a roll**: `V` once the die shows its face (the mover then choosing its
  best option) minus `V` before the roll. Its mean over the faces is 0 at every node,
  since `V` before the roll is that mean (the fixed point the sweeps reached);
- **cost of a move**: `V` of the mover's best option minus `V` of the option it
  chose, in the mover's own win probability (0 for a forced move or a best one).

Along a game the values after one step are the values before the next, so the sum
telescopes: `result - V(start) = luck - cost_0 + cost_1`, exactly, for every game
(`result` 1 when role 0 wins; `luck` role 0's, role 1's luck being its negative).

`walk_game` plays one game on the graph: each role chooses uniformly among its
options (`UNIFORM`, the random policy of docs/rules.md section 7: each legal move by
piece equally likely) or the option best by the values it is given (`GREEDY`, the
first best one on ties), with the dice and the uniform choices drawn from the game's
own counter-based stream (`ludosim.engine.rng`), so that a game depends only on the
seed and its index.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.rng import below, new_stream

UNIFORM = 0
GREEDY = 1

MAX_STEPS = 1_000_000  # a duel ends with probability 1; this only stops a broken graph
# One traced roll: mover, node, face, options, chosen option, luck (role 0's), cost (the
# mover's), role 0's value before the roll.
TRACE_COLUMNS = ("mover", "node", "face", "options", "chosen", "luck", "cost", "before")


@njit(cache=True)
def option_value(succ, swap, x, y, o, role):
    """Role 0's win probability after option `o` of a decision with `role` to move."""
    s = succ[o]
    if s < 0:
        return 1.0 if role == 0 else 0.0
    if (role == 0) == (swap[o] == 0):
        return x[s]
    return y[s]


@njit(cache=True)
def best_option(dec_start, succ, swap, x, y, d, role):
    """The first option of decision `d` best for `role` by the values `x`, `y`."""
    lo, hi = dec_start[d], dec_start[d + 1]
    chosen = lo
    top = option_value(succ, swap, x, y, lo, role)
    for o in range(lo + 1, hi):
        v = option_value(succ, swap, x, y, o, role)
        if (role == 0 and v > top) or (role == 1 and v < top):
            top, chosen = v, o
    return chosen


@njit(cache=True)
def walk_game(dec_start, succ, swap, faces, start, first, vx, vy, px, py, policies, stream, trace):
    """One game from node `start`, role `first` to move, on the dice of `stream`.

    `vx`, `vy`: the values luck and cost are measured in; `px`, `py` (float64[2,
    nodes]): the values each role's `GREEDY` choice reads; `policies` (int64[2]).
    `trace` (float64[rows, 8], `TRACE_COLUMNS`) records the first rows' rolls.
    Returns (result, luck, cost of role 0, cost of role 1, choices of role 0, choices
    of role 1, rolls traced).
    """
    n, role = start, first
    luck, cost0, cost1 = 0.0, 0.0, 0.0
    choices0, choices1 = 0, 0
    rows = 0
    for _ in range(MAX_STEPS):
        before = vx[n] if role == 0 else vy[n]
        f = below(stream, faces)
        d = n * faces + f
        lo, hi = dec_start[d], dec_start[d + 1]
        best = best_option(dec_start, succ, swap, vx, vy, d, role)
        rolled = option_value(succ, swap, vx, vy, best, role)
        if policies[role] == GREEDY:
            chosen = best_option(dec_start, succ, swap, px[role], py[role], d, role)
        else:
            chosen = lo + below(stream, hi - lo) if hi - lo > 1 else lo
        after = option_value(succ, swap, vx, vy, chosen, role)
        # The cost in the mover's own win probability: role 1's is role 0's gain.
        cost = rolled - after if role == 0 else after - rolled
        luck += rolled - before
        if role == 0:
            cost0 += cost
            choices0 += hi - lo > 1
        else:
            cost1 += cost
            choices1 += hi - lo > 1
        if rows < trace.shape[0]:
            trace[rows, 0] = role
            trace[rows, 1] = n
            trace[rows, 2] = f
            trace[rows, 3] = hi - lo
            trace[rows, 4] = chosen - lo
            trace[rows, 5] = rolled - before
            trace[rows, 6] = cost
            trace[rows, 7] = before
            rows += 1
        s = succ[chosen]
        if s < 0:
            return (1.0 if role == 0 else 0.0), luck, cost0, cost1, choices0, choices1, rows
        if swap[chosen] != 0:
            role = 1 - role
        n = s
    return np.nan, luck, cost0, cost1, choices0, choices1, rows


@njit(cache=True)
def walk_games(dec_start, succ, swap, faces, start, vx, vy, px, py, policies, games, seed):
    """`games` games, game g with role g % 2 moving first on stream (seed, g).

    Returns float64[games, 8]: first, result, V(start), luck, cost of role 0, cost of
    role 1, choices of role 0, choices of role 1.
    """
    out = np.empty((games, 8))
    trace = np.empty((0, 8))
    for g in range(games):
        first = g % 2
        stream = new_stream(np.uint64(seed), np.uint64(g))
        result, luck, c0, c1, k0, k1, _ = walk_game(
            dec_start, succ, swap, faces, start, first, vx, vy, px, py, policies, stream,
            trace,
        )  # fmt: skip
        out[g, 0] = first
        out[g, 1] = result
        out[g, 2] = vx[start] if first == 0 else vy[start]
        out[g, 3] = luck
        out[g, 4] = c0
        out[g, 5] = c1
        out[g, 6] = k0
        out[g, 7] = k1
    return out


@njit(cache=True)
def mean_luck_per_node(dec_start, succ, swap, faces, vx, vy):
    """The largest |mean luck over the faces| at any node and role: 0 up to the sweeps'
    tolerance when `vx`, `vy` are the fixed point of best play by both."""
    worst = 0.0
    nodes = vx.shape[0]
    for n in range(nodes):
        for role in range(2):
            total = 0.0
            for f in range(faces):
                d = n * faces + f
                best = best_option(dec_start, succ, swap, vx, vy, d, role)
                total += option_value(succ, swap, vx, vy, best, role)
            before = vx[n] if role == 0 else vy[n]
            gap = abs(total / faces - before)
            if gap > worst:
                worst = gap
    return worst
