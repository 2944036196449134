"""Exact solo-race means against the compiled kernel: the agreement table of `make verify`.

    .venv/bin/python benchmarks/exact_agreement.py --games 200000 --seed 2026

Prints one row per (preset, pieces): exact mean turns, simulated mean, the
standard error of the simulated mean (from the exact variance) and z. |z| > 3
would mean the kernel and the exact chain disagree.
"""

from __future__ import annotations

import argparse

import pandas as pd

from ludosim.exact import AGREEMENT_CASES, agreement_table
from ludosim.simulate import simulate


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
