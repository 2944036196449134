"""What one call of the kernel's entry points costs beyond its games.

    .venv/bin/python benchmarks/call_overhead.py [--calls N] [--preset app]

Times, in one process with a warm kernel, many small calls: `kernel_game`
(one game, `engine.play_one`) and `simulate` of 10 games (`engine.run_batch`),
first as the package makes them (`engine.dispatch.LiteralKernel`: the
compiled copy called directly once found), then through numba's dispatcher
itself (which types the function anew on every call before it finds the copy
compiled for the literal flags), alternating the two `--repeat` times. Prints
the median milliseconds per call of each and their ratio. Both play the same
games (checked).
"""

from __future__ import annotations

import argparse
import statistics
import time

import ludosim.engine as engine
from ludosim.rules.model import Rules
from ludosim.run.simulate import kernel_game, simulate


def per_call(rules: Rules, calls: int) -> tuple[float, float, list[int]]:
    """Milliseconds per `kernel_game` call and per 10-game `simulate` call, and the turns."""
    start = time.perf_counter()
    turns = [kernel_game(rules, 1, g)[0]["turns"] for g in range(calls)]
    one = (time.perf_counter() - start) / calls * 1e3
    start = time.perf_counter()
    for g in range(calls):
        simulate(rules, 10, 1, first_game=10 * g)
    ten = (time.perf_counter() - start) / calls * 1e3
    return one, ten, turns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=100)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--preset", default="app")
    args = parser.parse_args()
    rules = Rules.preset(args.preset)
    found = {"play_one": engine.play_one, "run_batch": engine.run_batch}
    through = {"play_one": engine.batch.play_one, "run_batch": engine.batch.run_batch}
    per_call(rules, 2)  # compiles or loads the kernel
    times: dict[str, list[tuple[float, float]]] = {"found": [], "dispatcher": []}
    games: dict[str, list[int]] = {}
    for _ in range(args.repeat):
        for label, entry in (("found", found), ("dispatcher", through)):
            engine.play_one, engine.run_batch = entry["play_one"], entry["run_batch"]
            one, ten, turns = per_call(rules, args.calls)
            times[label].append((one, ten))
            games[label] = turns
    engine.play_one, engine.run_batch = found["play_one"], found["run_batch"]
    assert games["found"] == games["dispatcher"], "the two ways played different games"
    print("| call | found copy ms | numba dispatcher ms | ratio |")
    print("|---|---|---|---|")
    for k, name in enumerate(("`kernel_game` (one game)", "`simulate` (10 games)")):
        a = statistics.median(t[k] for t in times["found"])
        b = statistics.median(t[k] for t in times["dispatcher"])
        print(f"| {name} | {a:.2f} | {b:.2f} | {b / a:.0f}x |")
    print(f"\n{args.preset}, {args.calls} calls per timing, median of {args.repeat}.")


if __name__ == "__main__":
    main()
