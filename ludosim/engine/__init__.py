"""The compiled kernel: numba only (never pandas or matplotlib).

Modules by concern: `layout` (rules and board compiled to arrays), `rng`
(the counter-based streams), `state` (the flat work array: state, scratch, undo log), `moves`
(one move), `plans` (options and Killer plans), `turn` (one turn), `game`
(one game) and `batch` (many games in parallel). `ludosim.simulate` is the
public wrapper that validates inputs and packages results.

Every helper is `@njit(cache=True)`. Numba invalidates a cached function only
when its own source file changes, not when a helper it calls (in another
module) does: after editing the kernel, delete `ludosim/engine/__pycache__/*.nb*`
(or set `NUMBA_CACHE_DIR` to a fresh folder) before measuring or testing.
"""

from ludosim.engine.batch import HIST_BINS, play_one, run_batch, run_summary
from ludosim.engine.layout import R, T, compile_board, compile_layout, compile_rules
from ludosim.engine.state import H_SIZE, K_SIZE, new_work

__all__ = [
    "HIST_BINS",
    "H_SIZE",
    "K_SIZE",
    "R",
    "T",
    "compile_board",
    "compile_layout",
    "compile_rules",
    "new_work",
    "play_one",
    "run_batch",
    "run_summary",
]
