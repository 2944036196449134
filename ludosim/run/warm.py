"""The kernel's kinds of game, compiled ahead of the work in parallel processes.

The batch runner (`ludosim.engine.batch.run_batch`) and the one-game runner
(`play_one`) take four flags as literals: Killer's plan search (`plans`), the
free-move loop (`free`), scoring policies (`scoring`) and the expert's search
(`expert`); the game-flow counters (`flow`) are a run-time switch of every
kind. Each combination is its own compiled copy, a kind of game: a run
compiles only its own kind, the first time it is used after an install or a
kernel change, and loads it from the on-disk cache (`ludosim.engine.cache_dir`)
from then on. `KINDS` lists the kinds with the first-compile time each
measured; `warm` compiles a set of them before the work, a pool of processes
sharing them out (longest first), so that commands and test workers load them
instead of each compiling its own:

    python -m ludosim.run.warm            # the kinds of the documented examples and `make run`
    python -m ludosim.run.warm --tests    # every kind the test suite plays, both runners
    python -m ludosim.run.warm --list     # the table

It prints a line as each kind is ready, and one every 10 s while it waits.
`compile_notice` is the command line's notice of a compile that is taking a
while: it names the kind and its measured time.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Any, TextIO

from numba.core import event, types

# The batch runner's literal flags, in the order the runners take them (`run_batch`;
# `flow`, between `scoring` and `expert`, is a run-time switch, no part of a kind).
FLAGS = ("plans", "free", "scoring", "expert")
ENTRIES = ("run_batch", "play_one")
# Seconds between the lines of a warm-up that is waiting for its processes.
LINE_SECONDS = 10.0
# Seconds a compile runs before `compile_notice` says so (the typing pass of a
# runner, which then loads from the cache, is shorter).
NOTICE_AFTER = 1.0


@dataclass(frozen=True)
class Kind:
    """One compiled copy of the runners: its four flags and what its first compile costs.

    `seconds` is the first compile of `run_batch` for these flags from an empty
    cache, in CPU seconds of one process (benchmarks/compile_kinds.py; CPU time,
    because a compile runs on one core and a busy machine stretches its wall
    time); `tour` marks the kinds the documented examples and `make run` play.
    """

    plans: bool
    free: bool
    scoring: bool
    expert: bool
    seconds: float
    tour: bool

    @property
    def flags(self) -> tuple[bool, bool, bool, bool]:
        return (self.plans, self.free, self.scoring, self.expert)

    @property
    def name(self) -> str:
        """`random`, `scoring`, `expert` with `+plans`, `+free` as they apply."""
        who = "expert" if self.expert else "scoring" if self.scoring else "random"
        return who + "".join(f"+{flag}" for flag in ("plans", "free") if getattr(self, flag))

    @property
    def what(self) -> str:
        """The kind in words: `scoring policies, Killer's plans`."""
        who = "the expert" if self.expert else "scoring policies" if self.scoring else "random play"
        parts = [who]
        if self.plans:
            parts.append("Killer's plans")
        if self.free:
            parts.append("free moves")
        return ", ".join(parts)

    @property
    def preset(self) -> str:
        """A preset whose games are of this kind: Killer plans, Italian moves freely."""
        return "killer" if self.plans else "italian" if self.free else "app"

    def policies(self, players: int) -> list[str]:
        """Seat policies of this kind: an expert seat, or every seat `balanced`, or random."""
        if self.expert:
            return ["expert:2:4"] + ["random"] * (players - 1)
        return ["balanced" if self.scoring else "random"] * players


def _kind(flags: str, seconds: float, tour: bool) -> Kind:
    """A row of `KINDS`: the flags as the letters P (plans), F (free), S (scoring)
    and X (expert), `-` for a flag off."""
    on = [letter != "-" for letter in flags]
    return Kind(*on, seconds=seconds, tour=tour)


# Measured by benchmarks/compile_kinds.py on the project's 2-core machine, 2026-12-05
# (benchmarks/README.md, "Compile time and the cache"): CPU seconds of a first
# `run_batch` compile from an empty cache. The expert's kinds compile its rollout
# helpers as ordinary calls since 2026-12-07: their rows are scaled by the ratio
# measured then on `expert` (0.88). Since 2026-12-07 `flow` is a run-time switch
# (no kinds of their own for the game-flow counters), and every kind compiles the
# counters' call: the first four rows are scaled by the ratio measured then on each
# (1.09-1.17, base and head started together), the others get the mean of those
# four kinds' added seconds (2.9 s here).
KINDS: tuple[Kind, ...] = (
    #     PFSX
    _kind("----", 22.9, True),  # random play: simulate, whatif, compare, sweeps, unfold
    _kind("-F--", 20.4, True),  # free moves: Italian, bench's plain-app, `make run`, design
    _kind("P---", 36.3, True),  # Killer's plan search: `make run`'s seed sweep
    _kind("--S-", 33.1, True),  # scoring policies: tournament, ratings, tune, skill
    _kind("-FS-", 30.0, True),  # design's rule sets
    _kind("P-S-", 39.3, False),
    _kind("--SX", 52.3, True),  # the expert: tournament, skill
    _kind("-FSX", 49.3, True),  # design's skill players (the expert and the fictive player)
    _kind("P-SX", 60.5, False),
)


def kind_of(flags: Sequence[bool]) -> Kind:
    """The row of `KINDS` for these four flags; a combination not in the table gets
    the row sharing most flags with it (the slowest of those), for its estimate."""
    flags = tuple(bool(f) for f in flags)
    for kind in KINDS:
        if kind.flags == flags:
            return kind
    return max(
        KINDS, key=lambda k: (sum(a == b for a, b in zip(k.flags, flags, strict=True)), k.seconds)
    )


def chosen(tests: bool) -> list[Kind]:
    """The kinds to warm, longest first: the tour's, or with `tests` every one."""
    kinds = [k for k in KINDS if tests or k.tour]
    return sorted(kinds, key=lambda k: -k.seconds)


# ------------------------------------------------------------------ compiling one kind
def compile_kind(
    flags: tuple[bool, ...], entries: Sequence[str] = ("run_batch",)
) -> tuple[float, bool]:
    """Compile (or load from the cache) one kind's runners by playing two games of it.

    Returns the CPU seconds spent and whether anything was compiled (a runner not
    found in the cache). Runs in a worker process of `warm`.
    """
    from ludosim.engine import batch
    from ludosim.rules.model import Rules
    from ludosim.run.simulate import kernel_game, simulate

    kind = kind_of(flags)
    rules = Rules.preset(kind.preset)
    policies = kind.policies(rules.players)
    started = time.process_time()
    if "run_batch" in entries:
        simulate(rules, 2, 1, policies, threads=1)
    if "play_one" in entries:
        kernel_game(rules, 1, 0, policies)
    spent = time.process_time() - started
    # A runner's misses with literal flags are its compiles (the typing pass with plain
    # booleans, which never compiles, misses every time).
    compiled = any(
        any(isinstance(t, types.BooleanLiteral) for t in signature)
        for runner in (batch.run_batch, batch.play_one)
        for signature in runner.stats.cache_misses
    )
    return spent, compiled


def _duration(seconds: float) -> str:
    seconds = max(0, round(seconds))
    return f"{seconds}s" if seconds < 60 else f"{seconds // 60}m{seconds % 60:02d}s"


# A kind's `play_one` beside its `run_batch`: the game's code is compiled once, so the
# second runner costs a fraction of the first (5 to 8 s against 35 to 90 s measured).
PLAY_ONE_SHARE = 0.15


def time_left(
    pending: Sequence[Kind],
    kinds: Sequence[Kind],
    spent: dict[str, float],
    entries: Sequence[str],
    workers: int,
) -> str:
    """The warm-up's time left, from the table of first compiles (`KINDS`): the pending
    kinds' CPU seconds shared among the processes, scaled by how the finished kinds
    compared with the table on this machine once any has finished. It moves only when a
    kind finishes: it never counts down while nothing does."""
    share = 1.0 + PLAY_ONE_SHARE * (len(entries) - 1)
    table = sum(k.seconds for k in pending) * share / max(workers, 1)
    done = [k for k in kinds if k.name in spent]
    listed = sum(k.seconds for k in done) * share
    if done and listed > 0:
        factor = sum(spent[k.name] for k in done) / listed
        return (f"about {_duration(table * factor)} of compiling (CPU time a process) left: "
                f"the table's {_duration(table)}, times {factor:.1f} as measured here so "
                "far")  # fmt: skip
    return (f"about {_duration(table)} of compiling (CPU time a process) left on an idle "
            "machine, by the table")  # fmt: skip


def warm(
    kinds: Sequence[Kind],
    entries: Sequence[str] = ("run_batch",),
    workers: int | None = None,
    stream: TextIO | None = None,
    every: float = LINE_SECONDS,
) -> dict[str, float]:
    """Compile `kinds` (each for `entries`) in a pool of `workers` processes (default:
    one per core), printing a line on `stream` (stderr) as each is ready and every
    `every` seconds while some compile. Returns each kind's CPU seconds by name: about
    its `seconds` when it compiled, far less when it loaded from the cache.

    The processes are started fresh (`spawn`): each loads the kernel itself, and what
    one compiles the others and every later process load from the cache.
    """
    out = stream or sys.stderr
    workers = max(1, min(workers or os.cpu_count() or 1, len(kinds)))
    started = time.monotonic()
    spent: dict[str, float] = {}

    def say(text: str) -> None:
        print(f"warm: {text}", file=out, flush=True)

    say(
        f"{len(kinds)} kinds of game, {workers} processes "
        f"(a first compile after install or a kernel change; then each loads in a second)"
    )
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        running: dict[Future[tuple[float, bool]], Kind] = {
            pool.submit(compile_kind, k.flags, tuple(entries)): k for k in kinds
        }
        while running:
            finished, _ = wait(running, timeout=every, return_when=FIRST_COMPLETED)
            elapsed = _duration(time.monotonic() - started)
            for future in finished:
                kind = running.pop(future)
                spent[kind.name], compiled = future.result()
                how = "compiled" if compiled else "loaded from the cache"
                say(
                    f"{len(spent)}/{len(kinds)} ready, {kind.name} {how} "
                    f"({spent[kind.name]:.0f} s of CPU), {elapsed} in"
                )
            if not finished:
                # The pool hands a task or so ahead to its processes: the first
                # `workers` started are the ones compiling.
                busy = [k.name for f, k in running.items() if f.running()][:workers]
                left = time_left(list(running.values()), kinds, spent, entries, workers)
                say(f"{len(spent)}/{len(kinds)} ready, {elapsed} in; compiling "
                    f"{', '.join(busy) or 'nothing yet'}; {left}")  # fmt: skip
    say(f"every kind ready in {_duration(time.monotonic() - started)}")
    return spent


# ------------------------------------------------------------------ the compile notice
class _Notice(event.Listener):
    """A numba compile listener: calls `callback(kind)` once, when a compile of a kernel
    runner (or of any other function: `kind` None) has been running for `after` seconds.

    Numba reports a compile only when a copy is neither loaded nor cached. A runner
    is first typed with plain booleans, which stops at once to ask for its flags as
    literals; only the second compile, with the literal flags, names the kind, so
    the first is not timed.
    """

    def __init__(self, callback: Callable[[Kind | None], None], after: float) -> None:
        self.callback = callback
        self.after = after
        self.depth = 0  # compiles nest: a function compiles its callees
        self.timer: threading.Timer | None = None
        self.fired = False

    def _fire(self, kind: Kind | None) -> None:
        if not self.fired:
            self.fired = True
            self.callback(kind)

    def on_start(self, event: event.Event) -> None:
        self.depth += 1
        if self.depth != 1 or self.fired:
            return
        kind, runner = _kind_compiled(event.data)
        if runner and kind is None:
            return  # the typing pass before the literal flags
        self.timer = threading.Timer(self.after, self._fire, (kind,))
        self.timer.daemon = True
        self.timer.start()

    def on_end(self, event: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0 and self.timer is not None:
            self.timer.cancel()
            self.timer = None


def _kind_compiled(data: Any) -> tuple[Kind | None, bool]:
    """(the kind, whether a kernel runner compiles) of a numba compile event's data."""
    if not isinstance(data, dict) or "dispatcher" not in data:
        return None, False
    name = getattr(getattr(data["dispatcher"], "py_func", None), "__name__", "")
    if name not in ENTRIES:
        return None, False
    flags = [t.literal_value for t in data.get("args", ()) if isinstance(t, types.BooleanLiteral)]
    return (kind_of(flags) if len(flags) == len(FLAGS) else None), True


def notice_text(kind: Kind | None) -> str:
    """What the command line says when a compile takes a while."""
    if kind is None:
        return "compiling (only on first use after install or a kernel change) ..."
    return (
        f"compiling the kernel for {kind.what} (only on first use after install or a "
        f"kernel change; about {kind.seconds:.0f} s on an idle core; `make warm` compiles "
        "every kind ahead) ..."
    )


@contextlib.contextmanager
def compile_notice(
    callback: Callable[[Kind | None], None], after: float = NOTICE_AFTER
) -> Iterator[None]:
    """Call `callback(kind)` once (from a timer thread) if a compile runs `after` seconds."""
    listener = _Notice(callback, after)
    try:
        with event.install_listener("numba:compile", listener):
            yield
    finally:
        if listener.timer is not None:
            listener.timer.cancel()


# ------------------------------------------------------------------ command line
def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ludosim.run.warm", description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "--tests", action="store_true", help="every kind the tests play, both runners"
    )
    parser.add_argument("--workers", type=int, default=None, help="processes (default: cores)")
    parser.add_argument("--list", action="store_true", help="print the kinds and stop")
    args = parser.parse_args(argv)
    kinds = chosen(args.tests)
    if args.list:
        for kind in kinds:
            mark = "tour" if kind.tour else "tests"
            print(f"{kind.name:24} {kind.seconds:5.0f} s  {mark:5}  {kind.what}")
        return 0
    if args.workers is not None and args.workers < 1:
        parser.error(f"--workers must be at least 1, got {args.workers}")
    warm(kinds, ENTRIES if args.tests else ("run_batch",), workers=args.workers)
    return 0


if __name__ == "__main__":
    sys.exit(main())
