"""The strategy meta-game: the symmetric equilibrium of the head-to-head game
(`symmetric_equilibrium`), and its equilibria over resampled head-to-head matrices
(`resample_equilibria`).
"""

from __future__ import annotations

import numpy as np

from ludosim.studies.skill.spec import SkillError


def symmetric_equilibrium(share: np.ndarray) -> np.ndarray:
    """The symmetric equilibrium mix of the meta-game with head-to-head shares `share`.

    `share[a, b]` is the probability that way of playing `a` beats `b` head to
    head (`share + share.T == 1`, 0.5 on the diagonal). The payoff
    `share - 0.5` is antisymmetric, so the game is symmetric and zero-sum with
    value 0: the equilibrium is a mix `x` that breaks even against every pure
    way of playing (`x @ (share - 0.5) >= 0` in every column). It is found by
    the linear program max v s.t. `x @ (share - 0.5) >= v`, `sum(x) = 1`,
    `x >= 0` (scipy's HiGHS). Where several mixes are equilibria, one vertex of
    that set is returned, the same one for the same matrix.
    """
    from scipy.optimize import linprog

    payoff = np.asarray(share, dtype=float) - 0.5
    k = payoff.shape[0]
    if payoff.shape != (k, k) or k == 0:
        raise SkillError(f"share: must be a square matrix, got shape {payoff.shape}")
    # Variables (x_1..x_k, v); minimise -v subject to v - x @ payoff[:, b] <= 0.
    cost = np.zeros(k + 1)
    cost[-1] = -1.0
    upper = np.hstack([-payoff.T, np.ones((k, 1))])
    equal = np.hstack([np.ones((1, k)), np.zeros((1, 1))])
    solved = linprog(
        cost, A_ub=upper, b_ub=np.zeros(k), A_eq=equal, b_eq=[1.0],
        bounds=[(0.0, 1.0)] * k + [(None, None)], method="highs",
    )  # fmt: skip
    if not solved.success:  # pragma: no cover - a bounded feasible LP always solves
        raise SkillError(f"the equilibrium linear program failed: {solved.message}")
    mix = np.clip(solved.x[:k], 0.0, None)
    return mix / mix.sum()


def resample_equilibria(
    wins: np.ndarray, decided: np.ndarray, resamples: int, seed: int
) -> np.ndarray:
    """Equilibrium mixes of `resamples` head-to-head matrices redrawn from the games.

    `wins[a, b]` is a's wins against b, `decided[a, b]` the decided games of
    the pair. Each resample draws every pair's wins (a < b) as
    Binomial(decided, observed share) from a generator seeded with `seed`, sets
    the share of b against a to its complement, and solves the meta-game.
    Row r is resample r.
    """
    rng = np.random.default_rng(seed)
    k = wins.shape[0]
    upper = np.triu_indices(k, 1)
    n = decided[upper].astype(np.int64)
    p = np.divide(wins[upper], n, out=np.full(n.shape, 0.5), where=n > 0)
    out = np.empty((resamples, k))
    for r in range(resamples):
        share = np.full((k, k), 0.5)
        drawn = rng.binomial(n, p)
        share[upper] = np.divide(drawn, n, out=np.full(n.shape, 0.5), where=n > 0)
        share.T[upper] = 1.0 - share[upper]
        out[r] = symmetric_equilibrium(share)
    return out
