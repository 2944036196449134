"""Dask plumbing that needs nothing of the sweep: the `distributed` package imported on
demand (with the install hint when it is missing), its loggers quieted while the
sweep's own client runs, and the wording of a chunk that failed on a worker as
against a scheduler that went away.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from ludosim.rules.errors import missing_extra
from ludosim.sweep.spec import SweepError
from ludosim.sweep.tasks import ChunkTask


def _distributed() -> Any:
    """The `distributed` package, or a `SweepError` saying how to install it."""
    try:
        import distributed
    except ImportError:
        raise SweepError(
            missing_extra("the Dask backend (--dask)", "dask[distributed]", "dask")
        ) from None
    return distributed


@contextlib.contextmanager
def _quiet_distributed() -> Iterator[None]:
    """While the sweep's own client runs, `distributed` logs only critical records: a
    lost worker or scheduler is the sweep's one line, not `distributed`'s tracebacks
    (each of its loggers may have a level of its own, so each is set and restored)."""
    _distributed()  # its import sets the levels of its loggers: first import, then set
    names = ["distributed"] + [
        name for name in list(logging.Logger.manager.loggerDict) if name.startswith("distributed.")
    ]
    loggers = [logging.getLogger(name) for name in names]
    levels = [logger.level for logger in loggers]
    for logger in loggers:
        logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for logger, level in zip(loggers, levels, strict=True):
            logger.setLevel(level)


def _failed(task: ChunkTask, exc: BaseException | None) -> str:
    detail = " ".join(str(exc).split())[:200]
    return (
        f"cell {task.cell} games {task.start}..{task.stop - 1} failed on a Dask worker: "
        f"{type(exc).__name__}: {detail}"
    )


def _scheduler_gone(client: Any, exc: BaseException) -> bool:
    """The client lost its scheduler: its futures are cancelled for that reason."""
    return getattr(exc, "reason", None) == "scheduler-connection-lost" or client.status not in (
        "running",
        "newly-created",
    )
