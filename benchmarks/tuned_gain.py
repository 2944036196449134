"""How much each shipped `tuned-<preset>` beats three `balanced` players on unseen games.

    .venv/bin/python benchmarks/tuned_gain.py [--seed 2] [--games N] [--games-for P=N] [presets]

The tuned player takes every seat position in turn against three `balanced`
(the rotations of `ludosim.studies.tournament`, `games // players` games each), on a
seed no tuning used (every shipped file was tuned with seed 1). `balanced`
then plays the very same games in the tuned player's seats, so both rates are
measured on the same dice. Printed per preset (a Markdown table): the tuned
win rate with its Wilson 95% interval, its difference to parity (1 / players)
with that interval, `balanced`'s rate on the same games, and the paired
difference tuned - balanced (per game: won or not, tuned minus balanced in the
same seat of the same game; normal 95% interval of the mean).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from ludosim.results.stats import mean_ci, wilson_interval
from ludosim.rules.model import PRESETS, Rules
from ludosim.run.simulate import simulate
from ludosim.studies.tournament import rotations


def seat_wins(rules: Rules, policy: str, games: int, seed: int, threads: int | None) -> np.ndarray:
    """Per game, 1 if `policy` (rotated through every seat against balanced) won, else 0."""
    n = rules.players
    per = games // n
    won = []
    for r, seating in enumerate(rotations([policy, *["balanced"] * (n - 1)])):
        rows = simulate(
            rules, per, seed, policies=list(seating), first_game=r * per, threads=threads
        )
        # Rotation r seats list entry (s + r) % n at seat s: the policy (entry 0) at -r.
        won.append((rows["winner"].to_numpy() == (n - r) % n).astype(np.int8))
    return np.concatenate(won)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=2)
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--games-for", action="append", default=[], metavar="PRESET=N")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("presets", nargs="*")
    args = parser.parse_args()
    games_for = {k: int(v) for k, v in (item.split("=") for item in args.games_for)}
    print(
        "| preset | games | tuned win rate (95% CI) | minus parity (95% CI) "
        "| balanced, same games | tuned - balanced, paired (95% CI) | seconds |"
    )
    print("|---|---|---|---|---|---|---|")
    for preset in args.presets or list(PRESETS):
        rules = Rules.preset(preset)
        fair = 1 / rules.players
        games = games_for.get(preset, args.games) // rules.players * rules.players
        start = time.perf_counter()
        tuned = seat_wins(rules, f"tuned-{preset}", games, args.seed, args.threads)
        base = seat_wins(rules, "balanced", games, args.seed, args.threads)
        seconds = time.perf_counter() - start
        low, high = wilson_interval(int(tuned.sum()), games)
        b_low, b_high = wilson_interval(int(base.sum()), games)
        diff, d_low, d_high = mean_ci(tuned.astype(float) - base)
        p = tuned.mean()
        print(
            f"| {preset} | {games:,} | {p:.4f} ({low:.4f}-{high:.4f}) "
            f"| {p - fair:+.4f} ({low - fair:+.4f} to {high - fair:+.4f}) "
            f"| {base.mean():.4f} ({b_low:.4f}-{b_high:.4f}) "
            f"| {diff:+.4f} ({d_low:+.4f} to {d_high:+.4f}) | {seconds:.0f} |",
            flush=True,
        )


if __name__ == "__main__":
    main()
