"""The compiled kernel: numba only (never pandas or matplotlib).

Modules by concern: `layout` (rules and board compiled to arrays), `codes`
(the choice codes, generated from the toggle table), `rng` (the
counter-based streams), `state` (the flat work array: state, scratch, undo
log), `position` (what changes and reads the position: pieces put and taken
back, a seat finished, its points, the next seat), `moves` (one move),
`policy` (features and scores of options, single-roll choices), `memo`
(memoised counting of Killer plans), `plans` (the exhaustive plan search and
the puster), `turn` (one turn), `game` (one game), `batch` (many games in
parallel), `expert` (the search-based player's choices: its rollouts and
their comparison) and `dispatch` (calling the entry points without numba's
per-call re-typing). `ludosim.simulate` is the public wrapper that validates
inputs and packages results.

There is one turn loop of each kind, one game loop and one batch runner
(`batch.run_batch`, rows that `ludosim.simulate` also folds into summaries);
the expert's games are played by them too. The batch runner takes flags
compiled in as constants: whether the rules roll then move (Killer), whether a roll's
moves are a mask of movable pieces (`turn.free_play`: no move list is
written), whether any seat scores its options (any policy but random) and
whether any seat is an expert (then a turn hands an expert seat's choices
to the search: `turn.search_move_if`, `turn.search_plan_if`). A run
compiles only the code its games can reach, so a first random run compiles
neither the other kinds of game nor any scoring nor the search. All of
them play the same games as the reference engine. `on_slow_compile` lets
the command line say when a first run is compiling.

Every helper is `@njit(cache=True)`. Numba invalidates a cached function only
when its own source file changes, not when a helper it calls in another module
does, so an edited kernel could silently run stale machine code. To rule that
out, the kernel's cache lives in a folder named after a hash of the kernel's
sources (`cache_dir`): any edit to any kernel file starts a fresh cache. A
cache locator of its own (`KernelCacheLocator`) sends there only the
functions defined in the kernel's files; numba's settings are not changed, so
every other `cache=True` function of the process keeps numba's own locators.
It is registered before any kernel module is imported, because numba picks a
function's locator when the function is decorated. A user-set
`NUMBA_CACHE_DIR` (or `numba.config.CACHE_DIR`) wins, as numba's own setting.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

from numba.core import caching, config, event
from numba.core.caching import _CacheLocator, _SourceFileBackedLocatorMixin

# Numba's base class of cache implementations, which lists the locators to ask
# (`CacheImpl` in recent releases, `_CacheImpl` in older ones).
_CACHE_IMPL = getattr(caching, "CacheImpl", None) or caching._CacheImpl

_ENGINE = Path(__file__).resolve().parent
# The kernel's files: this package, and `ludosim/rules/streams.py`, whose constants the
# kernel's stream freezes at compile time.
_KERNEL_FILES = (*sorted(_ENGINE.glob("*.py")), _ENGINE.parent / "rules" / "streams.py")


def source_hash() -> str:
    """First 12 hex digits of the sha256 of every kernel source file (and two more).

    `ludosim/rules/streams.py` and `ludosim/rules/toggles.py` are included because the kernel
    freezes constants derived from them at compile time: the stream's
    constants, and the rule slots of `layout` (the choice codes of `codes`
    are generated from it too, but `codes.py` is a kernel file itself).
    """
    digest = hashlib.sha256()
    for path in (*_KERNEL_FILES, _ENGINE.parent / "rules" / "toggles.py"):
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


_CACHE_FOLDER = cache_dir()


class KernelCacheLocator(_SourceFileBackedLocatorMixin, _CacheLocator):
    """Numba cache locator for the kernel's functions: the per-source-hash folder.

    Claims a function only when it is defined in one of the kernel's files,
    no cache folder is set in numba's config (`NUMBA_CACHE_DIR`) and a
    writable folder was found; numba asks its own locators otherwise. The
    folder is laid out as numba lays out `NUMBA_CACHE_DIR`, and each cached
    function is still checked against its own source file's hash.
    """

    def __init__(self, py_func: Callable, py_file: str) -> None:
        self._py_file = py_file
        self._lineno = py_func.__code__.co_firstlineno
        self._cache_path = os.path.join(_CACHE_FOLDER, self.get_suitable_cache_subpath(py_file))

    def get_cache_path(self) -> str:
        return self._cache_path

    @classmethod
    def from_function(cls, py_func: Callable, py_file: str) -> KernelCacheLocator | None:
        if config.CACHE_DIR or not _CACHE_FOLDER:
            return None
        if Path(py_file).resolve() not in _KERNEL_FILES:
            return None
        return super().from_function(py_func, py_file)


def _register_locator() -> None:
    """Put `KernelCacheLocator` first in numba's locators (once, also on a module reload)."""
    mine = f"{__name__}.{KernelCacheLocator.__qualname__}"
    known = _CACHE_IMPL._locator_classes
    others = [c for c in known if f"{c.__module__}.{c.__qualname__}" != mine]
    known[:] = [KernelCacheLocator, *others]


_register_locator()

# The kernel modules are imported only now, after the locator is registered.
from ludosim.engine import batch  # noqa: E402
from ludosim.engine.batch import HIST_BINS  # noqa: E402
from ludosim.engine.dispatch import LiteralKernel  # noqa: E402

# The entry points, called without numba's per-call re-typing of their literal flags
# (`dispatch`): plans, free, scoring and expert, four of the last five arguments (the
# fourth of those five, flow, is a run-time switch).
run_batch = LiteralKernel(batch.run_batch, literal=(11, 12, 13, 15))
play_one = LiteralKernel(batch.play_one, literal=(12, 13, 14, 16))
from ludosim.engine.layout import R, T, compile_board, compile_layout, compile_rules  # noqa: E402
from ludosim.engine.state import H, K, new_work  # noqa: E402

__all__ = [
    "HIST_BINS",
    "H",
    "K",
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
    "source_hash",
]
