"""The command line's progress bar: games done, games/s and time left, on stderr.

The library reports progress through a plain callback, `progress(done, total)`
(games done so far, games in all), and never draws anything itself; this
module turns those calls into one rich progress bar, shared by every long
command (`simulate`, `bench`, `tournament`, `sweep`). The bar is shown only
when stderr is a terminal and the command was not given `-q`, so piped or
logged output stays clean.
"""

from __future__ import annotations

import sys
from types import TracebackType
from typing import Any

from rich.console import Console
from rich.progress import (
    BarColumn,
    Progress,
    ProgressColumn,
    Task,
    TaskProgressColumn,
    TextColumn,
    TimeRemainingColumn,
)
from rich.text import Text


def wanted(quiet: bool) -> bool:
    """Whether to draw a bar: not `-q`, and stderr is a terminal someone watches."""
    return not quiet and sys.stderr.isatty()


class _RateColumn(ProgressColumn):
    """Games per second over rich's recent window (so a compile at the start soon drops out)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed and task.elapsed and task.completed:
            speed = task.completed / task.elapsed  # too few updates yet for the window
        text = f"{speed:,.0f} games/s" if speed else ""
        return Text(text, style="progress.data.speed", no_wrap=True)


class GameProgress:
    """A progress bar of games, used as `with GameProgress(label, enabled) as bar:`.

    The object is the callback the library takes (`bar(done, total)`); when
    disabled it is a callback that does nothing, so commands pass it either way.
    """

    def __init__(self, label: str, enabled: bool, *, console: Console | None = None) -> None:
        self.label = label
        self.enabled = enabled
        self.console = console
        self._bar: Progress | None = None
        self._task: Any = None

    def __enter__(self) -> GameProgress:
        if self.enabled:
            self._bar = Progress(
                # Narrow enough for an 80-column terminal.
                TextColumn(f"[bold]{self.label}"),
                BarColumn(bar_width=20),
                TaskProgressColumn(),
                TextColumn("{task.completed:,.0f}/{task.total:,.0f}"),
                _RateColumn(),
                TextColumn("ETA"),
                TimeRemainingColumn(),
                console=self.console or Console(stderr=True),
                refresh_per_second=4,
                transient=False,
            )
            self._bar.__enter__()
        return self

    def __call__(self, done: int, total: int) -> None:
        if self._bar is None:
            return
        if self._task is None:
            self._task = self._bar.add_task(self.label, total=total, completed=done)
        else:
            self._bar.update(self._task, total=total, completed=done)

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(exc_type, exc, tb)
            self._bar = None
