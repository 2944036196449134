"""What each kind of game costs to compile the first time, and what warming them costs.

    .venv/bin/python benchmarks/compile_kinds.py                 # every kind, then the warm-ups
    .venv/bin/python benchmarks/compile_kinds.py --kind random --kind expert
    .venv/bin/python benchmarks/compile_kinds.py --tour --no-warm   # the tour's kinds only
    .venv/bin/python benchmarks/compile_kinds.py --play-one      # and each kind's play_one

Each kind of `ludosim.run.warm.KINDS` is compiled in a fresh process whose numba
cache folder (`NUMBA_CACHE_DIR`) is new and empty, one after another: the CPU
seconds of its first `run_batch` call (two games; `compile_kind`), and with
`--play-one`, in the same process, of the first `play_one` call of the same kind
(the tests' one-game runner, which reuses the callees compiled a moment before).
The table ends with the total of the kinds measured. CPU time, because a
compile runs on one core and other jobs on a shared machine stretch its wall
time more. Then, unless `--no-warm`, the warm-ups from an empty cache, wall
clock: `python -m ludosim.run.warm` (the tour's kinds) and `--tests` (every
kind, both runners), with the machine's cores.

Prints a Markdown table, and the `KINDS` rows with the measured seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ludosim.run.warm import KINDS, Kind  # noqa: E402

CHILD = """
import json, sys
from ludosim.run.warm import compile_kind
flags = tuple(bool(int(c)) for c in sys.argv[1])
first, _ = compile_kind(flags, ("run_batch",))
second = compile_kind(flags, ("play_one",))[0] if sys.argv[2] == "1" else float("nan")
print(json.dumps([first, second]))
"""


def first_compile(kind: Kind, play_one: bool) -> tuple[float, float]:
    """CPU seconds of the kind's first `run_batch`, then (with `play_one`, else NaN)
    `play_one`, from an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        code = "".join(str(int(f)) for f in kind.flags)
        done = subprocess.run(
            [sys.executable, "-c", CHILD, code, str(int(play_one))],
            env=env,
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
    if done.returncode != 0:
        raise SystemExit(f"{kind.name} failed: {done.stderr.strip()[-600:]}")
    first, second = json.loads(done.stdout.strip().splitlines()[-1])
    return first, second


def warm_wall(tests: bool) -> float:
    """Wall seconds of `python -m ludosim.run.warm [--tests]` from an empty cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache}
        argv = [sys.executable, "-m", "ludosim.run.warm", *(["--tests"] if tests else [])]
        start = time.perf_counter()
        done = subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT)
        seconds = time.perf_counter() - start
        if done.returncode != 0:
            raise SystemExit(f"warm failed: {done.stderr.strip()[-600:]}")
        # Warm again: every kind loads from the cache just filled.
        start = time.perf_counter()
        subprocess.run(argv, env=env, capture_output=True, text=True, cwd=ROOT, check=True)
        again = time.perf_counter() - start
    print(f"warm{' --tests' if tests else ''}: {seconds:.0f} s from empty, {again:.1f} s warm")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kind", action="append", help="a kind's name (default: every kind)")
    parser.add_argument("--tour", action="store_true", help="only the tour's kinds")
    parser.add_argument("--play-one", action="store_true", help="time play_one too")
    parser.add_argument("--no-warm", action="store_true", help="skip the warm-up timings")
    args = parser.parse_args()
    kinds = [
        k for k in KINDS if (not args.kind or k.name in args.kind) and (k.tour or not args.tour)
    ]
    rows = []
    for kind in kinds:
        first, second = first_compile(kind, args.play_one)
        rows.append((kind, first, second))
        print(f"{kind.name}: run_batch {first:.1f} s, then play_one {second:.1f} s", flush=True)
    print("\n| kind | run_batch first compile, CPU s | then play_one, CPU s |")
    print("|---|---|---|")
    for kind, first, second in rows:
        print(f"| `{kind.name}` ({kind.what}) | {first:.1f} | {second:.1f} |")
    total = sum(first for _, first, _ in rows)
    print(f"| total of {len(rows)} kinds | {total:.1f} | {sum(s for *_, s in rows):.1f} |")
    print("\nKINDS rows:")
    for kind, first, _ in rows:
        letters = "".join(c if f else "-" for c, f in zip("PFSX", kind.flags, strict=True))
        print(f'    _kind("{letters}", {first:.1f}, {kind.tour}),  # {kind.what}')
    if not args.no_warm:
        warm_wall(tests=False)
        warm_wall(tests=True)


if __name__ == "__main__":
    main()
