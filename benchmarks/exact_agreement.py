"""Exact solo-race means against the compiled kernel: the agreement table of `make verify`.

    .venv/bin/python benchmarks/exact_agreement.py --games 200000 --seed 2026

Prints one row per (preset, pieces): exact mean turns, simulated mean, the
standard error of the simulated mean (from the exact variance) and z. |z| > 3
would mean the kernel and the exact chain disagree.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable, Iterable
from typing import Any

import numpy as np
import pandas as pd

from ludosim.reference.exact import solve
from ludosim.rules.model import Rules
from ludosim.run.simulate import simulate

AGREEMENT_CASES: tuple[tuple[str, int], ...] = (
    ("app", 1),
    ("italian", 1),
    ("danish", 1),
    ("danish-globe", 1),
    ("killer", 1),
    ("app", 2),
    ("italian", 2),
    ("danish", 2),
    ("danish-globe", 2),
    ("killer", 2),
)


def agreement_table(
    games: int,
    seed: int,
    simulate_fn: Callable[[Rules, int, int], Iterable[int] | Any],
    cases: Iterable[tuple[str, int]] = AGREEMENT_CASES,
) -> list[dict[str, Any]]:
    """Exact vs simulated mean turns for each (preset, pieces).

    `simulate_fn(rules, games, seed)` returns the turns of `games` solo games:
    an array-like of ints, or a DataFrame with a `turns` column (as
    `ludosim.run.simulate.simulate` returns). Each row holds the exact and the
    simulated mean, the standard error of the simulated mean (from the exact
    variance) and z = (simulated - exact) / SE; |z| > 3 means disagreement.
    """
    rows = []
    for name, pieces in cases:
        rules = Rules.preset(name).replace(players=1, pieces=pieces)
        exact = solve(rules, label=name)
        sim = simulate_fn(rules, games, seed)
        turns = np.asarray(sim["turns"] if hasattr(sim, "columns") else sim, dtype=np.float64)
        se = math.sqrt(exact.var_turns / len(turns))
        mean = float(turns.mean())
        rows.append(
            {
                "preset": name,
                "pieces": pieces,
                "exact_mean": exact.mean_turns,
                "sim_mean": mean,
                "se": se,
                "z": (mean - exact.mean_turns) / se,
                "games": len(turns),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    rows = agreement_table(
        args.games, args.seed, lambda rules, games, seed: simulate(rules, games, seed),
        cases=AGREEMENT_CASES,
    )  # fmt: skip
    table = pd.DataFrame(rows)
    print(table.to_string(index=False, float_format=lambda v: f"{v:.4f}"))
    worst = table["z"].abs().max()
    print(f"\nlargest |z| = {worst:.2f} ({'agree' if worst < 3 else 'DISAGREE'})")
    if worst >= 3:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
