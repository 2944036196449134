"""The fictive player's horizon: its win rates for each `fictive:H`, beside the expert's.

    .venv/bin/python benchmarks/fictive_horizon.py [--games N] [--seed S] [--preset P]
        [H ...]

For each horizon H (default 0 8 16 24 48 96) and for `expert`, on the preset
(default app), one thread: the win rate of the player in seat 0 against three
`tuned-<preset>` and against three `random` (`--games` games each), and head to
head against `expert` with two players (half the games in each seat order),
each with its Wilson 95% interval. Prints a Markdown row per player
(docs/expert.md, "The fictive player").
"""

from __future__ import annotations

import argparse

from ludosim.results.stats import wilson_interval
from ludosim.rules.model import Rules
from ludosim.run.simulate import simulate


def wins(rules: Rules, policies: list[str], seat: int, games: int, seed: int) -> int:
    """Games of `simulate` won by `seat`."""
    return int((simulate(rules, games, seed, policies, threads=1)["winner"] == seat).sum())


def rate(k: int, n: int) -> str:
    low, high = wilson_interval(k, n)
    return f"{k / n:.3f} ({low:.3f}-{high:.3f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("horizons", nargs="*", type=int, default=[0, 8, 16, 24, 48, 96])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--preset", default="app")
    args = parser.parse_args()
    rules, n, seed = Rules.preset(args.preset), args.games, args.seed
    tuned = f"tuned-{args.preset}"
    print("| player | vs 3 tuned | vs 3 random | head to head vs expert (2 players) |")
    print("|---|---|---|---|")
    two = rules.replace(players=2)
    for player in [*(f"fictive:{h}" for h in args.horizons), "expert"]:
        others = rules.players - 1
        against_tuned = wins(rules, [player] + [tuned] * others, 0, n, seed)
        against_random = wins(rules, [player] + ["random"] * others, 0, n, seed)
        first = wins(two, [player, "expert"], 0, n // 2, seed)
        second = wins(two, ["expert", player], 1, n - n // 2, seed)
        row = [player, rate(against_tuned, n), rate(against_random, n), rate(first + second, n)]
        print("| " + " | ".join(row) + " |", flush=True)


if __name__ == "__main__":
    main()
