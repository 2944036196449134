"""The plain data a sweep run passes between its parts: a chunk's task (everything a
worker needs, picklable), the executor options of a run, and what a run did.

Apart from the code that plays and writes chunks, so that the planning, the Dask
plumbing and the run loop share one definition of each.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludosim.rules.model import Rules
from ludosim.sweep.spec import Cell


@dataclass(frozen=True)
class ChunkTask:
    """Games [start, stop) of one cell: everything a worker needs, as plain data."""

    cell: str
    start: int
    stop: int
    rules: Rules
    policies: tuple[str, ...]
    seed: int
    summary: bool
    flow: bool = False  # the game-flow columns of docs/flow.md in every row
    kept: int = 0  # games start..start+kept-1 are in the chunk's partial file already

    @property
    def games(self) -> int:
        return self.stop - self.start


@dataclass
class SweepResult:
    """What a `run_sweep` call did."""

    out: Path
    cells: list[Cell] = field(repr=False)
    chunks_total: int
    chunks_skipped: int  # already complete on disk
    chunks_computed: int
    repaired: list[str] = field(default_factory=list)  # damaged chunks found and recomputed
    games_computed: int = 0
    seconds: float = 0.0
    moved_aside: Path | None = None
    adopted: int = 0  # of the skipped chunks, those the manifest had not recorded yet
    rebuilt: str | None = None  # why the manifest was rebuilt from the chunks' stamps
    # With a precision target: manifest["precision"] (target, and per cell planned
    # games, achieved half-width, met).
    precision: dict[str, Any] | None = None

    @property
    def complete(self) -> bool:
        return self.chunks_skipped + self.chunks_computed == self.chunks_total

    @property
    def games_per_s(self) -> float:
        return self.games_computed / self.seconds if self.seconds > 0 else 0.0

    def describe(self) -> str:
        """One line for the command line."""
        games = sum(c.games for c in self.cells)
        head = "sweep complete" if self.complete else "sweep incomplete"
        text = (
            f"{head}: {len(self.cells)} cells, {games:,} games, {self.chunks_total} chunks "
            f"({self.chunks_computed} computed, {self.chunks_skipped} already done) in "
            f"{self.seconds:.1f} s"
        )
        if self.games_computed:
            text += f" ({self.games_per_s:,.0f} games/s)"
        if self.repaired:
            text += f"; {len(self.repaired)} damaged chunks recomputed"
        if self.rebuilt:
            text += f"; {self.rebuilt}"
        if self.precision is not None:
            cells = self.precision["cells"].values()
            met = sum(1 for c in cells if c.get("met"))
            text += f"; precision {self.precision['target']} met in {met}/{len(cells)} cells"
        if self.moved_aside is not None:
            text += f"; the old folder was moved to {self.moved_aside}"
        return f"{text} -> {self.out}"


@dataclass(frozen=True)
class _Execution:
    """How chunks are computed: the executor options of `run_sweep`."""

    dask: str | Any | None
    workers: int | None
    threads: int | None
    progress: Callable[[int, int], None] | None
    dask_wait: float | None = None
    backend: str = "local"  # as the manifest records it: local, dask:ADDRESS, dask:client
