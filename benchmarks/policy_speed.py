"""Single-thread CPU-time speed of each policy (games/s), and its cost relative to `random`.

    .venv/bin/python benchmarks/policy_speed.py [--games N] [--repeat 2] [--policy P] [rules]
    .venv/bin/python benchmarks/policy_speed.py --tuned [--games N] [presets]

`rules` are preset names or `plain-app` (default: plain-app and the single-roll
presets app, italian, danish, danish-globe). Every policy is timed in the same
run as `random` on the same rules, best of `--repeat` runs of CPU time
(`time.process_time`), so the ratio ("vs random": seconds per game over
random's) is comparable on a shared machine. Prints a Markdown table.

With `--tuned` the policies are `random`, `balanced` and the shipped
`tuned-<preset>` of each preset (default: every preset), one row per preset.
"""

from __future__ import annotations

import argparse
import time

from ludosim.rules.policies import tuned_names
from ludosim.run.bench import PLAIN_APP, _rules
from ludosim.run.simulate import simulate

SINGLE_ROLL = [PLAIN_APP, "app", "italian", "danish", "danish-globe"]
POLICIES = [
    "random",
    "runner",
    "aggressive",
    "defensive",
    "balanced",
    "pacifist",
    "skipper:0.5",
    "weights:lead=3,exposed=-2,safe=1",
]


def games_per_s(name: str, policy: str, games: int, repeat: int) -> float:
    """Best-of-`repeat` games per CPU second of one thread."""
    rules = _rules(name)
    simulate(rules, games=200, seed=1, policies=policy, threads=1)  # warm-up, compile
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        simulate(rules, games=games, seed=1, policies=policy, threads=1)
        best = min(best, time.process_time() - start)
    return games / best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--policy", action="append", help="policy to time (default: all)")
    parser.add_argument(
        "--tuned", action="store_true", help="random, balanced and tuned-<preset> per preset"
    )
    parser.add_argument("rules", nargs="*")
    args = parser.parse_args()
    if args.tuned:
        names = args.rules or [t.removeprefix("tuned-") for t in tuned_names()]
        header = ["random", "balanced", "tuned-<preset>"]
    else:
        names = args.rules or SINGLE_ROLL
        header = args.policy or POLICIES
        if "random" not in header:
            header = ["random", *header]
    print("| rules | " + " | ".join(header) + " |")
    print("|---" * (len(header) + 1) + "|")
    for name in names:
        policies = ["random", "balanced", f"tuned-{name}"] if args.tuned else header
        cells = []
        base = 0.0
        for policy in policies:
            rate = games_per_s(name, policy, args.games, args.repeat)
            if policy == "random":
                base = rate
                cells.append(f"{rate:,.0f}")
            else:
                cells.append(f"{rate:,.0f} ({base / rate:.2f})")
        print(f"| {name} | " + " | ".join(cells) + " |", flush=True)


if __name__ == "__main__":
    main()
