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
import threading
import time
from collections import deque
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
# Seconds of reports the games/s and the ETA are measured over.
RATE_WINDOW = 60.0
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

    The rate is the games of the last `window` seconds of reports (a moving
    window, weighted by time), counted from the first games done on, so the
    kernel's compile in the first slice does not slow the figures down and a
    change of speed (a slower rule set later in a sweep) moves the ETA over the
    window instead of at once. The ETA counts down from the last report.
    `tick()` prints the line when one is due even if no report came (a ticker
    thread calls it, so a compile or a long slice still shows that the run
    lives). A line is printed at the end too when any was printed before, so a
    log shows how the run finished.
    """

    def __init__(
        self,
        label: str,
        every: float,
        stream: TextIO | None = None,
        clock: Callable[[], float] = time.monotonic,
        window: float = RATE_WINDOW,
    ) -> None:
        self.label = label
        self.every = every
        self.stream = stream
        self.clock = clock
        self.window = window
        self.started = clock()
        self.last_line = self.started
        # (time, games) of the reports since the first games done, the oldest
        # only as far back as the window needs.
        self.samples: deque[tuple[float, int]] = deque()
        self.done = 0
        self.total = 0
        self.lines = 0
        # Reports and the ticker come from different threads.
        self._lock = threading.Lock()

    def __call__(self, done: int, total: int) -> None:
        with self._lock:
            now = self.clock()
            self.done, self.total = done, total
            if self.samples and done < self.samples[-1][1]:
                self.samples.clear()  # counting starts again: the next stage of a study
            if done > 0 and (not self.samples or done != self.samples[-1][1]):
                self.samples.append((now, done))
                # Keep one report at or before the window's start, so the rate
                # spans the whole window.
                while len(self.samples) > 2 and self.samples[1][0] <= now - self.window:
                    self.samples.popleft()
            if now - self.last_line >= self.every and (done < total or not total):
                self.emit(now)

    def tick(self) -> None:
        """Print the line if one is due: the run is still going, whether games came or not."""
        with self._lock:
            now = self.clock()
            if now - self.last_line >= self.every:
                self.emit(now)

    def rate(self) -> float:
        """Games per second over the window of reports (0 before two reports with games)."""
        if len(self.samples) < 2:
            return 0.0
        (t0, d0), (t1, d1) = self.samples[0], self.samples[-1]
        return (d1 - d0) / (t1 - t0) if t1 > t0 else 0.0

    def line(self, now: float) -> str:
        if not self.total:  # nothing reported yet, or a caller that does not know its total
            if not self.done:
                return f"{self.label}: starting, {duration(now - self.started)} so far"
            rate = self.rate()
            return f"{self.label}: {self.done:,} games" + (
                f", {rate:,.0f} games/s" if rate > 0 else ""
            )
        share = f" ({100 * self.done / self.total:.1f}%)"
        text = f"{self.label}: {self.done:,}/{self.total:,} games{share}"
        rate = self.rate()
        since = now - self.samples[-1][0] if self.samples else 0.0
        if self.done >= self.total:
            # Between a stage's last games and what comes next (tables, the next stage).
            text += f", the last {duration(since)} ago"
        elif rate > 0:
            left = max(0.0, (self.total - self.done) / rate - since)
            text += f", {rate:,.0f} games/s, ETA {duration(left)}"
        else:
            text += f", {duration(now - self.started)} so far"
        return text

    def emit(self, now: float) -> None:
        print(self.line(now), file=self.stream or sys.stderr, flush=True)
        self.last_line = now
        self.lines += 1

    def close(self) -> None:
        with self._lock:
            if self.lines and self.done:
                now = self.clock()
                seconds = now - self.started
                print(
                    f"{self.label}: {self.done:,} games in {duration(seconds)}",
                    file=self.stream or sys.stderr,
                    flush=True,
                )


class _Ticker:
    """A daemon thread calling `lines.tick()` a few times per interval until stopped.

    The kernel's parallel runs release the interpreter lock and a compile is
    Python code, so the thread speaks on time during either.
    """

    def __init__(self, lines: ProgressLines) -> None:
        self.lines = lines
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._run, name="ludosim-progress", daemon=True)
        self.thread.start()

    def _run(self) -> None:
        poll = min(1.0, self.lines.every / 4)
        while not self.stopped.wait(poll):
            self.lines.tick()

    def stop(self) -> None:
        self.stopped.set()
        self.thread.join()


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
        self._ticker: _Ticker | None = None
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
            self._ticker = _Ticker(self._lines)
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
        if self._ticker is not None:
            self._ticker.stop()
            self._ticker = None
        if self._lines is not None:
            if exc_type is None:
                self._lines.close()
            self._lines = None
