"""The command line's progress: games done, %, games/s and time left, on stderr.

The library reports progress through a plain callback, `progress(done, total)`
(games done so far, games in all), and never draws anything itself; this
module turns those calls into what a watcher sees, shared by every long
command. On a terminal that is one rich progress bar. Without one (a pipe, a
log file, CI) it is a plain line every `LUDOSIM_PROGRESS_SECONDS` seconds
(default 10), so a long run in a log still shows that it moves:

    sweep: 120,000/2,500,000 games (4.8%), 31,000 games/s, ETA 1m17s

`-q` silences both; stdout, where the results go, never carries either.
"""

from __future__ import annotations

import math
import os
import sys
import time
from collections.abc import Callable
from types import TracebackType
from typing import Any, TextIO

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

INTERVAL_ENV = "LUDOSIM_PROGRESS_SECONDS"
DEFAULT_INTERVAL = 10.0
BAR, LINES, OFF = "bar", "lines", "off"


def wanted(quiet: bool) -> bool:
    """Whether to draw a bar: not `-q`, and stderr is a terminal someone watches."""
    return not quiet and sys.stderr.isatty()


def mode(quiet: bool) -> str:
    """`bar` on a terminal, `lines` without one, `off` with `-q`."""
    if quiet:
        return OFF
    return BAR if wanted(quiet) else LINES


def interval() -> float:
    """Seconds between progress lines: `LUDOSIM_PROGRESS_SECONDS`, else the default.

    A value that is not a positive number falls back to the default rather than
    failing a long run over its progress output.
    """
    try:
        seconds = float(os.environ.get(INTERVAL_ENV, DEFAULT_INTERVAL))
    except ValueError:
        return DEFAULT_INTERVAL
    return seconds if math.isfinite(seconds) and seconds > 0 else DEFAULT_INTERVAL


def duration(seconds: float) -> str:
    """`45s`, `12m05s`, `3h07m`: a time left, to the second below an hour."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


class _RateColumn(ProgressColumn):
    """Games per second over rich's recent window (so a compile at the start soon drops out)."""

    def render(self, task: Task) -> Text:
        speed = task.finished_speed or task.speed
        if not speed and task.elapsed and task.completed:
            speed = task.completed / task.elapsed  # too few updates yet for the window
        text = f"{speed:,.0f} games/s" if speed else ""
        return Text(text, style="progress.data.speed", no_wrap=True)


class ProgressLines:
    """`progress(done, total)` as a plain line at most every `every` seconds.

    The rate is measured from the first games done on, so the kernel's compile in
    the first slice does not slow the figures down; a line is printed at the end too when any
    was printed before, so a log shows how the run finished.
    """

    def __init__(
        self,
        label: str,
        every: float,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.label = label
        self.every = every
        self.stream = stream
        self.clock = clock
        self.started = clock()
        self.last_line = self.started
        self.first: tuple[float, int] | None = None  # (time, games) of the first report
        self.done = 0
        self.total = 0
        self.lines = 0

    def __call__(self, done: int, total: int) -> None:
        now = self.clock()
        self.done, self.total = done, total
        if self.first is None and done > 0:
            # From the end of the first slice on: it holds the compile, if any.
            self.first = (now, done)
        if now - self.last_line >= self.every and done < total:
            self.emit(now)

    def line(self, now: float) -> str:
        share = f" ({100 * self.done / self.total:.1f}%)" if self.total else ""
        text = f"{self.label}: {self.done:,}/{self.total:,} games{share}"
        start_time, start_done = self.first or (now, self.done)
        rate = (self.done - start_done) / (now - start_time) if now > start_time else 0.0
        if rate > 0:
            text += f", {rate:,.0f} games/s, ETA {duration((self.total - self.done) / rate)}"
        return text

    def emit(self, now: float) -> None:
        print(self.line(now), file=self.stream or sys.stderr, flush=True)
        self.last_line = now
        self.lines += 1

    def close(self) -> None:
        if self.lines and self.done:
            now = self.clock()
            seconds = now - self.started
            print(
                f"{self.label}: {self.done:,} games in {duration(seconds)}",
                file=self.stream or sys.stderr,
                flush=True,
            )


class GameProgress:
    """Progress of games, used as `with GameProgress(label, shown) as progress:`.

    The object is the callback the library takes (`progress(done, total)`).
    `shown` is a mode (`bar`, `lines`, `off`) or a bool (True: a bar; False: off);
    switched off it is a callback that does nothing, so commands pass it either way.
    """

    def __init__(self, label: str, shown: bool | str, *, console: Console | None = None) -> None:
        self.label = label
        self.mode = shown if isinstance(shown, str) else (BAR if shown else OFF)
        self.enabled = self.mode != OFF
        self.console = console
        self._bar: Progress | None = None
        self._lines: ProgressLines | None = None
        self._task: Any = None

    def __enter__(self) -> GameProgress:
        if self.mode == BAR:
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
        elif self.mode == LINES:
            self._lines = ProgressLines(self.label, interval())
        return self

    def __call__(self, done: int, total: int) -> None:
        if self._lines is not None:
            self._lines(done, total)
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
        if self._lines is not None:
            if exc_type is None:
                self._lines.close()
            self._lines = None
