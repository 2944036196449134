"""Peak memory of `simulate(..., summary=True)` against the number of games.

    .venv/bin/python benchmarks/summary_memory.py [--games 100000 1000000 10000000]
                                                 [--preset italian] [--threads T]

Each game count runs in a fresh child process, which first plays a few games
(so that the compiled kernel is loaded and counted once, whatever the count)
and then the summary run; the child reports its own peak resident set size
(`resource.getrusage(RUSAGE_SELF).ru_maxrss`). A summary keeps only counts,
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
import json, resource, sys
import ludosim
rules = ludosim.Rules.preset(sys.argv[1])
threads = None if sys.argv[3] == "-" else int(sys.argv[3])
ludosim.simulate(rules, 1000, seed=1, summary=True, threads=threads)
warm = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
summary = ludosim.simulate(rules, int(sys.argv[2]), seed=1, summary=True, threads=threads)
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"games": summary.games, "warm_kb": warm, "peak_kb": peak}))
"""


def measure(preset: str, games: int, threads: int | None) -> dict[str, int]:
    """Peak RSS (KiB, Linux `ru_maxrss`) of one summary run of `games` games in a child."""
    argv = [
        sys.executable,
        "-c",
        CHILD,
        preset,
        str(games),
        "-" if threads is None else str(threads),
    ]
    done = subprocess.run(argv, check=True, capture_output=True, text=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, nargs="+", default=[10**5, 10**6, 10**7])
    parser.add_argument("--preset", default="italian")
    parser.add_argument("--threads", type=int, default=None)
    args = parser.parse_args()
    rows = [measure(args.preset, games, args.threads) for games in sorted(args.games)]
    base = rows[0]
    print(f"Peak RSS of simulate(summary=True), preset {args.preset}\n")
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
