"""Compare the kernel of two git revisions: games/s per preset and first-compile time.

    .venv/bin/python benchmarks/compare_trees.py --base HEAD~5 --games 200000 --repeat 3
    .venv/bin/python benchmarks/compare_trees.py --base HEAD~5 --games 300 --first-games 2 \
        --policies 'expert,tuned-{preset},tuned-{preset},tuned-{preset}' --preset app

The base revision is checked out into a temporary git worktree. Both trees are
timed in the same run, alternating (base, head, base, head, ...), each timing in
a fresh process on one thread, so that drift of a shared machine's speed hits
both alike; the table reports the median games/s of each tree and the ratio
head / base per preset. The first-compile time is the CPU time (which a busy
shared machine inflates less than wall time) of the first `simulate` call of a
process whose numba cache folder is new and empty, median of `--repeat`
alternating runs.
Both trees must play the same games for a ratio to mean anything: the run
checks that both produce the same totals (mean turns) on every preset.
The seats play `random` unless `--policies` names each seat's policy
(`{preset}` stands for the preset's name); `--first-games` sizes the first
call, whose CPU time is the first compile's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Runs in a child process with PYTHONPATH set to one tree. Prints one JSON line.
TIMING = """
import json, sys, time
import ludosim
try:
    from ludosim.run.simulate import simulate
except ImportError:  # a revision from before the run/ package
    from ludosim.simulate import simulate
preset, games, warm = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "warm"
first_games, policies = int(sys.argv[4]), sys.argv[5].format(preset=preset)
policies = policies.split(",") if "," in policies else policies  # one name: every seat
rules = ludosim.Rules.preset(preset)
start = time.process_time()
simulate(rules, games=first_games, seed=0, policies=policies, threads=1, summary=True)
first = time.process_time() - start
if warm:
    start = time.perf_counter()
    summary = simulate(rules, games=games, seed=1, policies=policies, threads=1, summary=True)
    elapsed = time.perf_counter() - start
    turns = float(summary.mean("turns"))
else:
    elapsed, turns = float("nan"), float("nan")
print(json.dumps({"first": first, "seconds": elapsed, "turns": turns}))
"""


def _run(
    tree: Path, preset: str, games: int, warm: bool, cache: str | None, args: argparse.Namespace
) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree), NUMBA_NUM_THREADS="1")
    if cache is not None:
        env["NUMBA_CACHE_DIR"] = cache
    mode = "warm" if warm else "cold"
    out = subprocess.run(
        [
            sys.executable,
            "-c",
            TIMING,
            preset,
            str(games),
            mode,
            str(args.first_games),
            args.policies,
        ],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def _presets(tree: Path) -> list[str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    code = "import ludosim; print(' '.join(ludosim.presets()))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    return out.stdout.split()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", required=True, help="git revision to compare against")
    parser.add_argument("--games", type=int, default=200_000, help="games per timing")
    parser.add_argument("--repeat", type=int, default=3, help="timings per tree and preset")
    parser.add_argument("--preset", action="append", help="preset to time (default: all)")
    parser.add_argument("--no-compile", action="store_true", help="skip first-compile times")
    parser.add_argument(
        "--policies",
        default="random",
        help="each seat's policy, comma separated; {preset} is the preset's name (default random)",
    )
    parser.add_argument(
        "--first-games", type=int, default=200, help="games of the first (compiling) call"
    )
    args = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="ludosim-base-") as tmp:
        base = Path(tmp) / "tree"
        subprocess.run(
            ["git", "worktree", "add", "--detach", "--quiet", str(base), args.base],
            cwd=ROOT,
            check=True,
        )
        try:
            trees = {"base": base, "head": ROOT}
            presets = args.preset or _presets(ROOT)
            rows = []
            for preset in presets:
                speed: dict[str, list[float]] = {"base": [], "head": []}
                turns: dict[str, float] = {}
                for _ in range(args.repeat):
                    for name, tree in trees.items():
                        result = _run(tree, preset, args.games, True, None, args)
                        speed[name].append(args.games / result["seconds"])
                        turns[name] = result["turns"]
                compile_s = {}
                if not args.no_compile:
                    firsts: dict[str, list[float]] = {"base": [], "head": []}
                    for _ in range(args.repeat):
                        for name, tree in trees.items():
                            with tempfile.TemporaryDirectory(prefix="ludosim-cache-") as cache:
                                firsts[name].append(
                                    _run(tree, preset, 0, False, cache, args)["first"]
                                )
                    compile_s = {name: statistics.median(t) for name, t in firsts.items()}
                base_gps = statistics.median(speed["base"])
                head_gps = statistics.median(speed["head"])
                rows.append(
                    (
                        preset,
                        base_gps,
                        head_gps,
                        head_gps / base_gps,
                        compile_s.get("base", float("nan")),
                        compile_s.get("head", float("nan")),
                        turns["base"] == turns["head"],
                    )
                )
                print(f"{preset}: done", file=sys.stderr)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(base)], cwd=ROOT)

    print(
        f"base {args.base}, head working tree; {args.games:,} games per timing, "
        f"median of {args.repeat}, one thread, policies {args.policies}"
    )
    print(
        "| preset | base games/s | head games/s | head/base | base first compile CPU s "
        "| head first compile CPU s | same games |"
    )
    print("|---|---|---|---|---|---|---|")
    for preset, b, h, ratio, cb, ch, same in rows:
        print(f"| {preset} | {b:,.0f} | {h:,.0f} | {ratio:.3f} | {cb:.1f} | {ch:.1f} | {same} |")


if __name__ == "__main__":
    main()
