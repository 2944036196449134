"""The expert against three `tuned-<preset>` players: win rate in rotated seats, and speed.

    .venv/bin/python benchmarks/expert_strength.py [--games N] [--seed S] [--threads T]
        [--policy expert:R[:H] ...] [preset ...]

For each preset (default: app) and each expert spelling (default: `expert`) a
`ludosim.studies.tournament` of `--games` games (the expert in every seat position the
same number of games) against three `tuned-<preset>`, or `balanced` where no tuned
policy ships. Prints a Markdown row per run: games, the expert's wins, its win
rate with the Wilson 95% interval, the parity 1 / players, and the games/s of
the tournament (wall clock with `--threads`) next to the games/s of four tuned
players on the same number of threads, timed in the same run (the baseline of
the ratio).
"""

from __future__ import annotations

import argparse
import time

from ludosim.rules.model import Rules
from ludosim.rules.policies import TUNED_PREFIX, tuned_names
from ludosim.run.simulate import simulate
from ludosim.studies.tournament import tournament


def opponent(preset: str) -> str:
    """The preset's tuned policy, or balanced where none ships."""
    name = TUNED_PREFIX + preset
    return name if name in tuned_names() else "balanced"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("presets", nargs="*", default=["app"])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--policy", action="append", default=None)
    args = parser.parse_args()
    print(
        "| preset | expert | opponents | games | wins | win rate (95% CI) | parity "
        "| expert games/s | tuned games/s | ratio |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for preset in args.presets:
        rules = Rules.preset(preset)
        other = opponent(preset)
        field = [other] * rules.players
        simulate(rules, 200, args.seed, field, threads=args.threads)  # compile
        began = time.perf_counter()
        baseline = 20_000
        simulate(rules, baseline, args.seed, field, threads=args.threads)
        tuned_speed = baseline / (time.perf_counter() - began)
        for expert in args.policy or ["expert"]:
            players = [expert] + [other] * (rules.players - 1)
            simulate(rules, 2, args.seed, players, threads=args.threads)  # compile
            began = time.perf_counter()
            table = tournament(rules, players, args.games, args.seed, threads=args.threads)
            speed = int(table["games"].iloc[0]) / (time.perf_counter() - began)
            row = table[table["policy"] != other].iloc[0]
            print(
                f"| {preset} | `{row['policy']}` | 3 x `{other}` | {int(row['games']):,} "
                f"| {int(row['wins']):,} | {row['win_rate']:.3f} "
                f"({row['ci_low']:.3f}-{row['ci_high']:.3f}) | {1 / rules.players:.3f} "
                f"| {speed:.1f} | {tuned_speed:,.0f} | {tuned_speed / speed:,.0f} |",
                flush=True,
            )


if __name__ == "__main__":
    main()
