"""What a newcomer's first commands cost in kernel compiles, from an empty cache.

Runs the examples of the tour of the command line, docs/cli.md's "The tour" block
(the first fenced block after that heading), one by one as a newcomer would, first
with an empty numba cache (`NUMBA_CACHE_DIR` set to a fresh folder), then again with
the cache that run filled. For each command: its wall time cold and warm, the difference (the
compile time it paid) and the compiled kernel variants it added to the cache
(numba's `.nbc` files: one per compiled specialisation of each cached kernel
function, so one kind of game adds many).
Every command runs in a temporary folder (a fresh one for the warm pass, so that
no study resumes what the cold pass wrote), so nothing under the repository is
written.

    .venv/bin/python benchmarks/tour_compile.py            # up to `ratings`
    .venv/bin/python benchmarks/tour_compile.py --all      # every example, the studies too
    .venv/bin/python benchmarks/tour_compile.py --all --after-warm   # as after `make run`

With `--after-warm` the empty cache is first filled by `python -m ludosim.run.warm`,
as `make run` does before its sweep (timed and reported), so that the cold pass
measures what the tour still waits in compiles after `make run`.

Prints a Markdown table and the totals.
"""

from __future__ import annotations

import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# The studies after `ratings` need the optional extras and are not a first look.
FIRST_LOOK_ENDS = "ludosim ratings"


def tour_commands(page: Path) -> list[str]:
    """The `ludosim ...` lines of the first code block after "## The tour"."""
    text = page.read_text(encoding="utf-8")
    block = text[text.index("## The tour") :]
    block = block[block.index("```") + 3 :]
    block = block[: block.index("```")]
    lines = [line.split("  #")[0].strip() for line in block.splitlines()]
    return [line for line in lines if line.startswith("ludosim ")]


def compiled(cache: Path) -> int:
    return sum(1 for _ in cache.rglob("*.nbc"))


def run(command: str, cwd: Path, env: dict[str, str]) -> float:
    binary = Path(sys.executable).parent / "ludosim"
    argv = [str(binary), *shlex.split(command)[1:]]
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    seconds = time.perf_counter() - start
    if done.returncode != 0:
        raise SystemExit(f"{command!r} failed ({done.returncode}): {done.stderr.strip()[-400:]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--all", action="store_true", help="every example, the studies too")
    parser.add_argument(
        "--after-warm", action="store_true", help="warm the empty cache first, as `make run` does"
    )
    args = parser.parse_args()
    commands = tour_commands(ROOT / "docs" / "cli.md")
    if not args.all:
        end = next(i for i, c in enumerate(commands) if c.startswith(FIRST_LOOK_ENDS))
        commands = commands[: end + 1]
    with tempfile.TemporaryDirectory() as tmp:
        cache, work = Path(tmp) / "cache", Path(tmp) / "work"
        cache.mkdir()
        work.mkdir()
        env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "LUDOSIM_PROGRESS_SECONDS": "3600"}
        if args.after_warm:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-m", "ludosim.run.warm"], env=env, check=True)
            print(f"warm-up: {time.perf_counter() - start:.0f} s, {compiled(cache)} kernel "
                  "functions compiled\n")  # fmt: skip
        cold, added = [], []
        for command in commands:
            before = compiled(cache)
            cold.append(run(command, work, env))
            added.append(compiled(cache) - before)
        # A folder of its own: the studies resume what the cold pass wrote, which would
        # count a resumed run's saving as compile time.
        again = Path(tmp) / "again"
        again.mkdir()
        warm = [run(command, again, env) for command in commands]
    print("| command | cold s | warm s | compile s | kernel functions compiled |")
    print("|---|---|---|---|---|")
    for command, c, w, n in zip(commands, cold, warm, added, strict=True):
        print(f"| `{command}` | {c:.1f} | {w:.1f} | {max(c - w, 0):.1f} | {n} |")
    paid = sum(max(c - w, 0) for c, w in zip(cold, warm, strict=True))
    compiling = sum(1 for n in added if n)
    print(
        f"\n{len(commands)} commands, {compiling} of them compiling ({sum(added)} kernel "
        f"functions): {paid:.0f} s of compile time (cold {sum(cold):.0f} s, warm "
        f"{sum(warm):.0f} s)."
    )


if __name__ == "__main__":
    main()
