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

from ludosim.run.runstages import Stage

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


def stage_number(stages: list[Stage], index: int | str) -> int:
    """The number (from 1) of stage `index` of `stages`, given as its number or its name;
    a name not in the plan is a stage of its own, added to `stages`."""
    if not isinstance(index, str):
        return index
    names = [s.name for s in stages]
    if index not in names:
        stages.append(Stage(index, 0))
        names.append(index)
    return names.index(index) + 1


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
    window instead of at once.

    A run that announces its stages (`plan`, then `stage` as each begins:
    `ludosim.run.runstages`) has each line name its stage (`stage 2 of 4:
    holdouts`), and its ETA is the whole run's: the work left (each stage's games
    times its cost per game) over the work per second measured, so a stage of
    dear games ahead counts for what it costs, and a stage not yet started is
    estimated from the speed of the stages before it.

    The ETA is worked out when games finish, never from the clock alone: while no
    game finishes the line keeps the last estimate and says for how long nothing
    finished, and a stage with no games done yet says it waits for its first
    results. `tick()` prints the line when one is due even if no report came (a
    ticker thread calls it, so a compile or a long slice still shows that the run
    lives). A line is printed at the end too when any was printed before, so a log
    shows how the run finished.
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
        # Seconds early a line may come: the ticker's poll, so that no gap between
        # lines passes `every`.
        self.slack = 0.0
        self.started = clock()
        self.last_line = self.started
        # (time, games) of the reports since the stage's first games done, the
        # oldest only as far back as the window needs.
        self.samples: deque[tuple[float, int]] = deque()
        self.done = 0
        self.total = 0
        self.lines = 0
        self.stages: list[Stage] = []
        self.index = 0  # the stage being played, from 1; 0 before any
        self.at = 0  # the count `progress` reported at the stage's start
        self.stage_began = self.started
        self.work_rate = 0.0  # work per second (games x cost), the latest measured
        self.eta: float | None = None  # the whole run's time left at the last games done
        # Reports and the ticker come from different threads.
        self._lock = threading.Lock()

    def plan(self, stages: list[Stage]) -> None:
        """The run's stages, in order (`ludosim.run.runstages.announce`)."""
        with self._lock:
            self.stages = list(stages)

    def stage(self, index: int | str, at: int = 0) -> None:
        """Stage `index` (from 1, or its name) begins; `progress` reports `at` games at
        its start. A name not in the plan is a stage of its own, added to it."""
        with self._lock:
            self.index, self.at = stage_number(self.stages, index), at
            self.stage_began = self.clock()
            self.samples.clear()
            self.done, self.total = at, 0

    def __call__(self, done: int, total: int) -> None:
        with self._lock:
            now = self.clock()
            if self.samples and done < self.samples[-1][1]:
                # Counting starts again: the next stage of a run that did not announce it.
                self.samples.clear()
                if not self.stages:
                    self.at, self.stage_began = 0, now
            self.done, self.total = done, total
            played = done - self.at
            if played > 0 and (not self.samples or done != self.samples[-1][1]):
                self.samples.append((now, done))
                # Keep one report at or before the window's start, so the rate
                # spans the whole window.
                while len(self.samples) > 2 and self.samples[1][0] <= now - self.window:
                    self.samples.popleft()
                self._estimate()
            if self._due(now) and (done < total or not total):
                self.emit(now)

    def _due(self, now: float) -> bool:
        return now - self.last_line >= self.every - self.slack

    def tick(self) -> None:
        """Print the line if one is due: the run is still going, whether games came or not."""
        with self._lock:
            now = self.clock()
            if self._due(now):
                self.emit(now)

    def rate(self) -> float:
        """Games per second over the window of reports (0 before two reports with games)."""
        if len(self.samples) < 2:
            return 0.0
        (t0, d0), (t1, d1) = self.samples[0], self.samples[-1]
        return (d1 - d0) / (t1 - t0) if t1 > t0 else 0.0

    def _current(self) -> Stage | None:
        return self.stages[self.index - 1] if 0 < self.index <= len(self.stages) else None

    def _stage_total(self) -> int:
        """The games of the stage being played: as reported, else as planned."""
        stage = self._current()
        if self.total and self.total > self.at:
            return self.total - self.at
        return stage.games if stage is not None else 0

    def _work_left(self) -> float | None:
        """Work left in the whole run (games x cost per game); None when it is not known."""
        stage = self._current()
        cost = stage.cost if stage is not None else 1.0
        total = self._stage_total()
        if not total:
            return None
        left = max(0, total - (self.done - self.at)) * cost
        return left + sum(s.work for s in self.stages[self.index :])

    def _estimate(self) -> None:
        """The whole run's time left, worked out now that games finished."""
        rate = self.rate()
        if rate <= 0:
            return
        stage = self._current()
        self.work_rate = rate * (stage.cost if stage is not None else 1.0)
        left = self._work_left()
        self.eta = None if left is None else left / self.work_rate

    def _head(self) -> str:
        stage = self._current()
        if stage is None:
            return f"{self.label}: "
        return f"{self.label}: stage {self.index} of {len(self.stages)}: {stage.name}: "

    def line(self, now: float) -> str:
        head = self._head()
        played = self.done - self.at
        stage = self._current()
        if not self.samples or played <= 0:
            # Nothing finished in this stage yet: no speed of its own to go by.
            text = f"{head}waiting for the first results"
            if stage is not None:
                text += f" of {stage.name}"
            total = self._stage_total()
            if total:
                text += f" (0/{total:,} games)"
            text += f", {duration(now - self.stage_began)} so far"
            left = self._work_left()
            if self.work_rate > 0 and left is not None and self.stages:
                text += f", ETA {duration(left / self.work_rate)} at the earlier stages' speed"
            return text
        total = self._stage_total()
        if not total:  # a caller that does not know its total
            rate = self.rate()
            return f"{head}{played:,} games" + (f", {rate:,.0f} games/s" if rate > 0 else "")
        text = f"{head}{played:,}/{total:,} games ({100 * played / total:.1f}%)"
        since = now - self.samples[-1][0]
        rate = self.rate()
        if played >= total:
            # Between a stage's last games and what comes next (tables, the next stage).
            text += f", the last {duration(since)} ago"
        elif rate > 0 and self.eta is not None:
            text += f", {rate:,.0f} games/s, ETA {duration(self.eta)}"
            if since >= self.every:
                # The estimate stands as it was when games last finished.
                text += f" (as of {duration(since)} ago: no games finished since)"
        else:
            text += f", {duration(now - self.stage_began)} so far"
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
                    f"{self.label}: done in {duration(seconds)}"
                    if self.stages
                    else f"{self.label}: {self.done:,} games in {duration(seconds)}",
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
        poll = min(0.25, self.lines.every / 8)
        self.lines.slack = poll  # a line a poll early, so no gap passes `every`
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
        self._stages: list[Stage] = []
        self._at = 0

    def __enter__(self) -> GameProgress:
        if self.mode == BAR:
            self._bar = Progress(
                # Narrow enough for an 80-column terminal.
                TextColumn("[bold]{task.description}"),
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

    def plan(self, stages: list[Stage]) -> None:
        """The run's stages (`ludosim.run.runstages.announce`): lines and bar name them."""
        self._stages = list(stages)
        if self._lines is not None:
            self._lines.plan(stages)

    def stage(self, index: int | str, at: int = 0) -> None:
        """Stage `index` (from 1, or its name) begins, at `at` games of the count reported."""
        self._at = at
        index = stage_number(self._stages, index)
        if self._lines is not None:
            self._lines.stage(index, at)
        if self._bar is not None and 0 < index <= len(self._stages):
            # A bar of its own per stage, named: a new bar is a new stage, not a restart.
            stage = self._stages[index - 1]
            name = f"{self.label} {index}/{len(self._stages)} {stage.name}"
            self._task = self._bar.add_task(name, total=stage.games or None, completed=0)

    def __call__(self, done: int, total: int) -> None:
        if self._lines is not None:
            self._lines(done, total)
        if self._bar is None:
            return
        done -= self._at
        total = total - self._at if total > self._at else 0
        if self._task is None:
            self._task = self._bar.add_task(self.label, total=total or None, completed=done)
        elif total:
            self._bar.update(self._task, total=total, completed=done)
        else:  # the stage's games as planned
            self._bar.update(self._task, completed=done)

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
