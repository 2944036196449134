"""Play games in one jitted loop (no pandas); optionally name the JIT code for `perf`.

    .venv/bin/python benchmarks/profile_perf.py [games] [rules]

prints games/s and ns per roll by CPU time. With `PERF_MAP=1` the driver is
compiled afresh and `/tmp/perf-PID.map` names each function of its linked
library (numba registers no symbols for its JIT code), so that

    PERF_MAP=1 perf record -e cpu-clock -o /tmp/p.data -- .venv/bin/python \\
        benchmarks/profile_perf.py 200000
    perf report -i /tmp/p.data --no-children --sort symbol

shows where the time goes; `DUMP_CODE=1` also writes each function's machine
code to `/tmp/code/ADDRESS.bin` (for `objdump -b binary --adjust-vma`).
"""

from __future__ import annotations

import ctypes
import os
import sys
import time

import numpy as np
from numba import literally, njit

from ludosim.engine.batch import _play, _start_stream
from ludosim.engine.state import (
    HEAD,
    H,
)
from ludosim.run.bench import _rules
from ludosim.run.simulate import _prepare

PERF_MAP = bool(os.environ.get("PERF_MAP"))


@njit(cache=not PERF_MAP)
def drive(lay, w, games, plans, free):
    literally(plans)
    literally(free)
    stream = np.zeros(2, dtype=np.uint64)
    scratch = np.zeros(2, dtype=np.uint64)
    rolls = 0
    for g in range(games):
        _start_stream(stream, np.uint64(1), g)
        _play(lay, w, stream, scratch, False, 0, plans, free, True, True, False)
        rolls += w[HEAD + H.ROLLS]
    return rolls


def _mapped_end(a: int) -> int:
    with open("/proc/self/maps") as f:
        for line in f:
            lo, hi = (int(x, 16) for x in line.split()[0].split("-"))
            if lo <= a < hi:
                return hi
    return a


def write_map(fn) -> None:
    lib = fn.overloads[fn.signatures[0]].library
    names = [f.name for f in lib._final_module.functions if not f.is_declaration]
    addrs = sorted((lib.get_pointer_to_function(n), n) for n in names)
    ends = [a for a, _ in addrs[1:]] + [addrs[-1][0] + 65536]
    os.makedirs("/tmp/code", exist_ok=True)
    with open(f"/tmp/perf-{os.getpid()}.map", "w") as out:
        for (a, n), b in zip(addrs, ends, strict=True):
            out.write(f"{a:x} {b - a:x} {n}\n")
            if os.environ.get("DUMP_CODE"):
                end = min(b, a + 65536, _mapped_end(a))
                with open(f"/tmp/code/{a:x}.bin", "wb") as code:
                    code.write(ctypes.string_at(a, end - a))
                with open(f"/tmp/code/{a:x}.name", "w") as name:
                    name.write(n)


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 200_000
    rules = _rules(sys.argv[2] if len(sys.argv) > 2 else "plain-app")
    prep = _prepare(rules, games, 1, "random", None, 0, 1, None, 0)
    lay, w = prep.lay, prep.work
    kind = (rules.roll_then_move, prep.free)
    drive(lay, w, 10, *kind)
    if PERF_MAP:
        write_map(drive)
    start = time.process_time()
    rolls = drive(lay, w, games, *kind)
    t = time.process_time() - start
    print(f"{games / t:,.0f} games/s, {t / rolls * 1e9:.1f} ns/roll")


if __name__ == "__main__":
    main()
