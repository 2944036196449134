"""The compiled kernel: numba only (never pandas or matplotlib).

Modules by concern: `layout` (rules and board compiled to arrays), `rng`
(the counter-based streams), `state` (the flat work array: state, scratch, undo log), `moves`
(one move), `policy` (features and scores of options, single-roll choices),
`memo` (memoised counting of Killer plans), `plans` (the exhaustive plan search
and the puster), `turn` (one turn), `game` (one game) and `batch` (many games in
parallel). `ludosim.simulate` is the public wrapper that validates inputs and
packages results.

The batch runners (`batch.run_batch`, `batch.run_summary`) take three flags
compiled in as constants: whether the rules roll then move (Killer), whether
a roll's moves are a mask of movable pieces (`turn.free_play`: no move list
is written) and whether any seat scores its options (any policy but random).
A run compiles only the code its games can reach, so a first random run
compiles neither the other kinds of game nor any scoring. All of them play
the same games as the reference engine. `on_slow_compile` lets the command
line say when a first run is compiling.

Every helper is `@njit(cache=True)`. Numba invalidates a cached function only
when its own source file changes, not when a helper it calls in another module
does, so an edited kernel could silently run stale machine code. To rule that
out, the cache lives in a folder named after a hash of the kernel's sources
(`cache_dir`): any edit to any kernel file starts a fresh cache. This must run
before any kernel module is imported, because numba fixes a function's cache
folder when it is decorated. A user-set `NUMBA_CACHE_DIR` is left alone.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numba
from numba.core import event


def source_hash() -> str:
    """First 12 hex digits of the sha256 of every kernel source file (and two more).

    `ludosim/rng.py` and `ludosim/toggles.py` are included because the kernel
    freezes constants derived from them at compile time: the stream's
    constants, and the rule slots and choice codes of `layout`.
    """
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256()
    for path in [*sorted(here.glob("*.py")), here.parent / "rng.py", here.parent / "toggles.py"]:
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:12]


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        probe = folder / f".probe-{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError:
        return False
    return True


def cache_dir() -> str:
    """The per-source-hash numba cache folder: under `~/.cache/ludosim`, else a temp dir."""
    name = f"numba-{source_hash()}"
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "ludosim"
    for folder in (base / name, Path(tempfile.gettempdir()) / "ludosim" / name):
        if _writable(folder):
            return str(folder)
    return ""  # nowhere writable: numba falls back to its own locators


class _SlowCompile(event.Listener):
    """Calls `callback` once, when a compile has been running for `after` seconds."""

    def __init__(self, callback: Callable[[], None], after: float) -> None:
        self.callback = callback
        self.after = after
        self.depth = 0  # compiles nest: a function compiles its callees
        self.timer: threading.Timer | None = None
        self.fired = threading.Event()

    def _fire(self) -> None:
        if not self.fired.is_set():
            self.fired.set()
            self.callback()

    def on_start(self, event: event.Event) -> None:
        self.depth += 1
        if self.depth == 1 and not self.fired.is_set():
            self.timer = threading.Timer(self.after, self._fire)
            self.timer.daemon = True
            self.timer.start()

    def on_end(self, event: event.Event) -> None:
        self.depth -= 1
        if self.depth == 0 and self.timer is not None:
            self.timer.cancel()
            self.timer = None


@contextmanager
def on_slow_compile(callback: Callable[[], None], after: float = 1.0) -> Iterator[None]:
    """Call `callback` once (from a timer thread) if the kernel compiles for `after` seconds.

    Numba signals "numba:compile" only when a function's machine code is
    neither loaded nor in its on-disk cache, but also for the short typing
    pass of a function that asks for literal arguments (`batch.run_batch`),
    which then loads from the cache: hence the delay. The command line uses
    this to say why a first run is slow.
    """
    listener = _SlowCompile(callback, after)
    try:
        with event.install_listener("numba:compile", listener):
            yield
    finally:
        if listener.timer is not None:
            listener.timer.cancel()


if not os.environ.get("NUMBA_CACHE_DIR"):
    _folder = cache_dir()
    if _folder:
        numba.config.CACHE_DIR = _folder

# The kernel modules are imported only now, after the cache folder is set.
from ludosim.engine.batch import HIST_BINS, play_one, run_batch, run_summary  # noqa: E402
from ludosim.engine.layout import R, T, compile_board, compile_layout, compile_rules  # noqa: E402
from ludosim.engine.state import H_SIZE, K_SIZE, new_work  # noqa: E402

__all__ = [
    "HIST_BINS",
    "H_SIZE",
    "K_SIZE",
    "R",
    "T",
    "cache_dir",
    "compile_board",
    "compile_layout",
    "compile_rules",
    "new_work",
    "on_slow_compile",
    "play_one",
    "run_batch",
    "run_summary",
    "source_hash",
]
