"""Peak memory of `simulate(..., summary=True)` against the number of games.

    .venv/bin/python benchmarks/summary_memory.py [--games 100000 1000000 10000000]
                                                 [--preset italian] [--threads T]
                                                 [--no-progress] [--slice-seconds S]

Each game count runs in a fresh child process, which first plays a few games
(so that the compiled kernel is loaded and counted once, whatever the count)
and then the summary run; the child reports its own peak resident set size
(`resource.getrusage(RUSAGE_SELF).ru_maxrss`). Like `ludosim simulate --summary`,
the run reports progress to a callback (the kernel then plays slices of about
a second each, so their number depends on the machine's speed; `--slice-seconds 0`
makes every slice the smallest, the most kernel calls), unless `--no-progress`.
A summary keeps only counts,
sums and histograms, so the peak should not grow with the games: the table
shows each count's peak, how far the run itself raised it above the warm-up,
and its growth over the smallest count, in MB and in bytes per added game. Prints a Markdown table.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = """
import importlib, json, resource, sys
import ludosim
if sys.argv[5] != "-":
    importlib.import_module("ludosim.run.simulate").SLICE_SECONDS = float(sys.argv[5])
rules = ludosim.Rules.preset(sys.argv[1])
threads = None if sys.argv[3] == "-" else int(sys.argv[3])
progress = None if sys.argv[4] == "-" else (lambda done, total: None)
kwargs = {"seed": 1, "summary": True, "threads": threads, "progress": progress}
ludosim.simulate(rules, 1000, **kwargs)
warm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
summary = ludosim.simulate(rules, int(sys.argv[2]), **kwargs)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"games": summary.games, "warm_kb": warm, "peak_kb": peak}))
"""


def measure(
    preset: str, games: int, threads: int | None, progress: bool, slice_seconds: float | None
) -> dict[str, int]:
    """Peak RSS (KiB, Linux `ru_maxrss`) of one summary run of `games` games in a child."""
    argv = [sys.executable, "-c", CHILD, preset, str(games)]
    argv += ["-" if threads is None else str(threads), "p" if progress else "-"]
    argv.append("-" if slice_seconds is None else str(slice_seconds))
    done = subprocess.run(argv, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10**5, 10**6, 10**7])
    parser.add_argument("--preset", default="italian")
    parser.add_argument("--threads", type=int, default=None)
    parser.add_argument("--no-progress", action="store_true", help="no progress callback")
    parser.add_argument("--slice-seconds", type=float, default=None)
    args = parser.parse_args()
    progress = not args.no_progress
    rows = [
        measure(args.preset, games, args.threads, progress, args.slice_seconds)
        for games in sorted(args.games)
    ]
    base = rows[0]
    how = "with a progress callback" if progress else "without progress"
    if progress and args.slice_seconds is not None:
        how += f", slices of {args.slice_seconds:g} s"
    print(f"Peak RSS of simulate(summary=True), preset {args.preset}, {how}\n")
    print(
        "| games | after warm-up (MB) | peak (MB) | peak - warm-up (MB) | growth (MB) "
        "| bytes per added game |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    for row in rows:
        growth = (row["peak_kb"] - base["peak_kb"]) * 1024
        added = row["games"] - base["games"]
        per_game = f"{growth / added:.2f}" if added else "-"
        print(
            f"| {row['games']:,} | {row['warm_kb'] / 1024:.0f} | {row['peak_kb'] / 1024:.0f} "
            f"| {(row['peak_kb'] - row['warm_kb']) / 1024:.1f} | {growth / 2**20:.1f} "
            f"| {per_game} |"
        )


if __name__ == "__main__":
    main()
