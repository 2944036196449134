"""Measure the kernel against the reference engine; prints a Markdown table.

    .venv/bin/python benchmarks/run.py --games 200000 --reference-games 100

Timings are wall-clock on whatever else the machine is doing; see README.md.
"""

from __future__ import annotations

import argparse
import platform
import subprocess

import numba

from ludosim import presets
from ludosim.run.bench import run_bench


def _cpu() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        return platform.processor() or "unknown"
    for line in out.splitlines():
        if line.startswith("Model name:"):
            return line.split(":", 1)[1].strip()
    return "unknown"


def _markdown(df) -> str:
    """The table as Markdown (without needing `tabulate`)."""

    def cell(value: object) -> str:
        if isinstance(value, float):
            return "" if value != value else f"{value:,.3g}" if value < 100 else f"{value:,.0f}"
        return str(value)

    lines = ["| " + " | ".join(df.columns) + " |", "|" + "---|" * len(df.columns)]
    for row in df.itertuples(index=False):
        lines.append("| " + " | ".join(cell(v) for v in row) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--preset", action="append", help="preset to time (default: all)")
    parser.add_argument("--games", type=int, default=200_000)
    parser.add_argument("--threads", type=int, action="append")
    parser.add_argument("--reference-games", type=int, default=100)
    args = parser.parse_args()
    df = run_bench(
        args.preset or presets(),
        games=args.games,
        threads=args.threads,
        reference_games=args.reference_games,
    )
    print(f"CPU: {_cpu()}, {numba.config.NUMBA_NUM_THREADS} threads, numba {numba.__version__}")
    print(_markdown(df))


if __name__ == "__main__":
    main()
