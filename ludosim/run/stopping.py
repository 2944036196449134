"""A long run stopped by SIGTERM as by Ctrl-C: the signal raised as an exception.

A sweep and a study keep what they have finished when stopped; both learn of a SIGTERM
(a scheduler's, a `kill`) the way they learn of Ctrl-C, by an exception raised where the
run is, so that the same code winds it down.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any


@contextlib.contextmanager
def sigterm_raises(error: type[BaseException]) -> Iterator[None]:
    """Turn SIGTERM into `error` inside the block.

    Only the main thread may set signal handlers; elsewhere SIGTERM keeps its default.
    A second SIGTERM while the run winds down is ignored, so what is being written is
    finished (SIGKILL still works).
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def terminate(signum: int, frame: Any) -> None:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        raise error

    previous = signal.signal(signal.SIGTERM, terminate)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
