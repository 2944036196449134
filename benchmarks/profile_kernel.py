"""Single-thread CPU-time speed of the kernel (games/s), best of `--repeat`.

    .venv/bin/python benchmarks/profile_kernel.py [--games N] [--repeat 3] [rules ...]

`rules` are preset names or `plain-app` (default: plain-app and every preset).
"""

from __future__ import annotations

import argparse
import time

from ludosim.rules.model import presets
from ludosim.run.bench import PLAIN_APP, _rules
from ludosim.run.simulate import simulate


def games_per_s(name: str, games: int, repeat: int) -> float:
    rules = _rules(name)
    simulate(rules, games=200, seed=1, threads=1)  # warm-up, compile
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        simulate(rules, games=games, seed=1, threads=1)
        best = min(best, time.process_time() - start)
    return games / best


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("rules", nargs="*")
    args = parser.parse_args()
    names = args.rules or [PLAIN_APP, *presets()]
    for name in names:
        n = args.games if name != "killer" else max(args.games // 20, 1000)
        print(f"{name:14s} {games_per_s(name, n, args.repeat):10,.0f} games/s", flush=True)


if __name__ == "__main__":
    main()
