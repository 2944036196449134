"""What the game-flow counters cost: one-thread games/s with `flow=True` against without.

Both variants are compiled by a warm-up call, then timed alternately in the same
process (CPU time, `time.process_time`), `--repeat` times each; the table gives
the median of each and the cost of the counters per game. Run from the
repository root:

    .venv/bin/python benchmarks/flow_cost.py [--games N] [--repeat R] [preset ...]
"""

from __future__ import annotations

import argparse
import statistics
import time

from ludosim import Rules, simulate


def games_per_second(rules: Rules, games: int, flow: bool) -> float:
    began = time.process_time()
    simulate(rules, games=games, seed=1, threads=1, flow=flow)
    return games / (time.process_time() - began)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=["app"])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print("| preset | games/s without | games/s with flow | cost of the counters |")
    print("|---|---:|---:|---:|")
    for preset in args.presets:
        rules = Rules.preset(preset)
        games = args.games // 20 if rules.roll_then_move else args.games
        for flow in (False, True):
            simulate(rules, games=10, seed=1, threads=1, flow=flow)  # compile
        speeds: dict[bool, list[float]] = {False: [], True: []}
        for _ in range(args.repeat):
            for flow in (False, True):
                speeds[flow].append(games_per_second(rules, games, flow))
        off, on = (statistics.median(speeds[f]) for f in (False, True))
        print(f"| {preset} | {off:,.0f} | {on:,.0f} | {off / on - 1:+.1%} |")


if __name__ == "__main__":
    main()
