"""Values over a duel's decision graph (`ludosim.reference.duelgraph`), compiled with numba.

Two roles share a game: role 0 and role 1. Every value is role 0's win
probability; `x[n]` with role 0 to move at roll node `n`, `y[n]` with role 1
to move. A role plays `RANDOM` (the mean over the legal moves: the uniform
random policy), `BEST` (role 0: the maximum) or `WORST` (role 1: the minimum,
best play against role 0). An option that ends the turn (`swap`) hands the
move to the other role; an option into `WIN` ends the game with the mover's
win.

`sweep_values` is Gauss-Seidel value iteration (Bellman 1957; Puterman 1994,
section 6.3): the nodes are swept in the order given (most progress first, so
that a sweep uses the values after a move already updated), until one sweep
changes no value by more than `tol`. The graph has cycles only through
captures and turns without progress, so a handful of sweeps per capture
reach the tolerance.

`clairvoyant_value` is one dice sequence's game solved exactly: role 0 knows
the sequence (roll k of the game shows face `dice[k]`), role 1 plays random.
The nodes reachable at roll k are found forwards, then their values backwards
from the horizon, where a node is valued by `leaf_x`/`leaf_y`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit, prange

RANDOM = 0
BEST = 1
WORST = 2


@njit(cache=True)
def _decision(dec_start, succ, swap, x, y, d, role, policy):
    """Role 0's win probability at decision `d` with `role` to move playing `policy`."""
    lo, hi = dec_start[d], dec_start[d + 1]
    total = 0.0
    best = -1.0
    worst = 2.0
    for o in range(lo, hi):
        s = succ[o]
        if s < 0:
            v = 1.0 if role == 0 else 0.0
        elif (role == 0) == (swap[o] == 0):
            v = x[s]
        else:
            v = y[s]
        total += v
        if v > best:
            best = v
        if v < worst:
            worst = v
    if policy == BEST:
        return best
    if policy == WORST:
        return worst
    return total / (hi - lo)


@njit(cache=True)
def sweep_values(dec_start, succ, swap, faces, order, policy0, policy1, tol, max_sweeps, x, y):
    """Gauss-Seidel sweeps over `order` until the largest change is below `tol`.

    Parameters: `dec_start` (int64[nodes * faces + 1]), `succ` (int64, node or -1
    for the mover's win), `swap` (int8), `faces` (the die's faces), `order` (the
    nodes in sweep order), the roles' policies, `tol`, `max_sweeps`; `x` and `y`
    hold the start values and are updated in place. Returns (sweeps, last change).
    """
    change = 1.0
    sweeps = 0
    while change > tol and sweeps < max_sweeps:
        change = 0.0
        sweeps += 1
        for i in range(order.shape[0]):
            n = order[i]
            vx = 0.0
            vy = 0.0
            for f in range(faces):
                d = n * faces + f
                vx += _decision(dec_start, succ, swap, x, y, d, 0, policy0)
                vy += _decision(dec_start, succ, swap, x, y, d, 1, policy1)
            vx /= faces
            vy /= faces
            dx = abs(vx - x[n])
            dy = abs(vy - y[n])
            if dx > change:
                change = dx
            if dy > change:
                change = dy
            x[n] = vx
            y[n] = vy
    return sweeps, change


@njit(cache=True)
def clairvoyant_value(dec_start, succ, swap, faces, start, role, dice, leaf_x, leaf_y, work):
    """Role 0's win probability on the dice `dice`, knowing them, role 1 playing random.

    `role` is who moves first (0: the clairvoyant). `work` is int64[2 * nodes * 2]
    scratch, all -1 on entry and left so. Rolls beyond `dice` are valued by
    `leaf_x`/`leaf_y` (node values without foresight).
    """
    horizon = dice.shape[0]
    nodes = leaf_x.shape[0]
    mark = work[: 2 * nodes]  # last layer a (node, role) entered
    where = work[2 * nodes :]  # its index in that layer
    # Layers: (node * 2 + role) of every pair reachable at roll k.
    cap = 1024
    items = np.empty(cap, dtype=np.int64)
    bounds = np.zeros(horizon + 2, dtype=np.int64)
    items[0] = start * 2 + role
    bounds[1] = 1
    mark[start * 2 + role] = 0
    top = 1
    for k in range(horizon):
        for i in range(bounds[k], bounds[k + 1]):
            n, r = items[i] // 2, items[i] % 2
            d = n * faces + dice[k]
            for o in range(dec_start[d], dec_start[d + 1]):
                s = succ[o]
                if s < 0:
                    continue
                key = s * 2 + (r if swap[o] == 0 else 1 - r)
                if mark[key] == k + 1:
                    continue
                mark[key] = k + 1
                if top == cap:
                    cap *= 2
                    grown = np.empty(cap, dtype=np.int64)
                    grown[:top] = items[:top]
                    items = grown
                items[top] = key
                top += 1
        bounds[k + 2] = top
    values = np.empty(top, dtype=np.float64)
    for i in range(bounds[horizon], bounds[horizon + 1]):
        n, r = items[i] // 2, items[i] % 2
        values[i] = leaf_x[n] if r == 0 else leaf_y[n]
    for k in range(horizon - 1, -1, -1):
        for i in range(bounds[k + 1], bounds[k + 2]):
            where[items[i]] = i
        for i in range(bounds[k], bounds[k + 1]):
            n, r = items[i] // 2, items[i] % 2
            d = n * faces + dice[k]
            lo, hi = dec_start[d], dec_start[d + 1]
            total = 0.0
            best = -1.0
            for o in range(lo, hi):
                s = succ[o]
                if s < 0:
                    v = 1.0 if r == 0 else 0.0
                else:
                    v = values[where[s * 2 + (r if swap[o] == 0 else 1 - r)]]
                total += v
                if v > best:
                    best = v
            values[i] = best if r == 0 else total / (hi - lo)
    for i in range(top):
        mark[items[i]] = -1
        where[items[i]] = -1
    return values[0]


@njit(cache=True, parallel=True)
def clairvoyant_values(dec_start, succ, swap, faces, start, dice, leaf_x, leaf_y):
    """`clairvoyant_value` on every row of `dice` (int64[sequences, horizon]), the
    clairvoyant moving first and second: float64[sequences, 2]. The sequences are
    shared out among the threads in blocks, each block with its own scratch; every
    value depends on its sequence alone, so the threads change nothing but the time."""
    n = dice.shape[0]
    nodes = leaf_x.shape[0]
    out = np.empty((n, 2))
    blocks = min(n, 64)
    for b in prange(blocks):
        work = np.full(4 * nodes, -1, dtype=np.int64)
        for i in range(b, n, blocks):
            for role in range(2):
                out[i, role] = clairvoyant_value(
                    dec_start, succ, swap, faces, start, role, dice[i], leaf_x, leaf_y, work
                )
    return out


def start_values(nodes: int) -> tuple[np.ndarray, np.ndarray]:
    """Value arrays to start the sweeps from (every role at 1/2)."""
    return np.full(nodes, 0.5), np.full(nodes, 0.5)


@dataclass(frozen=True)
class DuelValues:
    """A duel's values at every node, role 0 to move (`x`) and role 1 (`y`), for the
    three pairs of players the solver computes."""

    random: tuple[np.ndarray, np.ndarray]  # random against random
    optimal: tuple[np.ndarray, np.ndarray]  # role 0 optimal against a random role 1
    minimax: tuple[np.ndarray, np.ndarray]  # best play by both: luck and cost are in these
