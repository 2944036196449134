"""A chunk played in pieces, and the part of one that a stopped sweep keeps.

A chunk [start, stop) is played as pieces of a few seconds each. When the sweep is
stopped (Ctrl-C, SIGTERM) in the middle of a chunk, the pieces already played are
written as the chunk's partial file, stamped like a chunk with the range they hold:

    OUT/rows/cell=<id>/partial-<start>.parquet     games [start, k) of the chunk
    OUT/summary/cell=<id>/partial-<start>.parquet  their summary row

A rerun reads it back (`kept`), plays games k..stop-1 only and writes the whole
chunk, then removes the partial file. Game g depends on (seed, g) alone and a
summary is integer totals, so the chunk is the same, row for row and byte for
byte of its data, as one played in one go. The readers of results never see a
partial file: they read `chunk-*.parquet` files only.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from ludosim.results.chunks import check_chunk, read_stamp, stamp_metadata
from ludosim.results.paths import partition_dir
from ludosim.results.summary import summary_from_frame, summary_to_frame
from ludosim.sweep.tasks import ChunkTask

if TYPE_CHECKING:
    import pandas as pd

# Seconds of games in each piece after the first: a stopped sweep loses at most
# about this much of its work.
PIECE_SECONDS = 2.0
# Games in the first piece of a chunk, before its speed is known.
FIRST_PIECE = 64


def partial_name(start: int) -> str:
    """`partial-000000250000.parquet`: the part kept of the chunk beginning at `start`."""
    return f"partial-{start:012d}.parquet"


def partial_path(root: Path, summary_only: bool, cell_id: str, start: int) -> Path:
    return partition_dir(root, summary_only, cell_id) / partial_name(start)


def kept_games(path: Path, spec_id: str, task: ChunkTask) -> int:
    """Games of `task`'s chunk its partial file holds whole (0 without a usable one).

    A partial file of another sweep, another range or damaged is removed: the
    chunk is played from its start instead.
    """
    info = read_stamp(path) if path.exists() else None
    if info is None:
        with contextlib.suppress(OSError):
            path.unlink()  # unreadable, or never there
        return 0
    stop = info.get("stop")
    rows = None if task.summary else (stop - task.start if isinstance(stop, int) else None)
    fits = isinstance(stop, int) and task.start < stop <= task.stop
    if not fits or check_chunk(path, spec_id, task.cell, task.start, stop, rows, deep=True):
        with contextlib.suppress(OSError):
            path.unlink()
        return 0
    return stop - task.start


def read_kept(path: Path) -> pd.DataFrame:
    """The frame of a partial file `kept_games` accepted."""
    import pyarrow.parquet as pq

    return pq.read_table(path).to_pandas()


class Partials:
    """The partial files of one sweep folder: where they lie, what a stop writes there."""

    def __init__(self, root: Path, summary_only: bool, spec_id: str) -> None:
        self.root = root
        self.summary_only = summary_only
        self.spec_id = spec_id
        self.saved = 0  # games played by this run that a stop wrote into a partial file

    def path(self, task: ChunkTask) -> Path:
        return partial_path(self.root, self.summary_only, task.cell, task.start)

    def kept(self, task: ChunkTask) -> int:
        """Games of `task`'s chunk already in its partial file (see `kept_games`)."""
        return kept_games(self.path(task), self.spec_id, task)

    def frames(self, task: ChunkTask) -> list[pd.DataFrame]:
        """The kept part of `task`'s chunk, as the first of its pieces (none if nothing kept)."""
        return [read_kept(self.path(task))] if task.kept else []

    def save(
        self,
        task: ChunkTask,
        stop: int,
        frames: list[pd.DataFrame],
        write: Callable[[pd.DataFrame, Path, dict[bytes, bytes]], str],
    ) -> None:
        """Write games [task.start, stop) of `frames` as the chunk's partial file."""
        frame = join_pieces(task, task.start, stop, frames)
        write(frame, self.path(task), stamp_metadata(self.spec_id, task.cell, task.start, stop))
        self.saved += stop - task.start - task.kept

    def drop(self, task: ChunkTask) -> None:
        """Remove the partial file of a chunk now written whole."""
        with contextlib.suppress(FileNotFoundError):
            self.path(task).unlink()


def next_piece(seconds: float, games: int) -> int:
    """Games of the next piece after one of `games` games that took `seconds`:
    about `PIECE_SECONDS` of games (`FIRST_PIECE` before any was timed)."""
    if games <= 0:
        return FIRST_PIECE
    return max(FIRST_PIECE, int(games / max(seconds, 1e-6) * PIECE_SECONDS))


def join_pieces(task: ChunkTask, start: int, stop: int, frames: list[pd.DataFrame]) -> pd.DataFrame:
    """The frame of games [start, stop) of `task`'s cell from its pieces, in game order:
    per-game rows one after another, summaries added into one row."""
    import pandas as pd

    if len(frames) == 1 and not task.summary:
        return frames[0]
    joined = pd.concat(frames, ignore_index=True)
    if not task.summary:
        # What `simulate` would have said of the games in one go.
        joined.attrs = {**frames[0].attrs, "first_game": start, "games": stop - start}
        return joined
    frame = summary_to_frame(summary_from_frame(joined.drop(columns=["start", "stop"])))
    frame.insert(0, "stop", stop)
    frame.insert(0, "start", start)
    return frame
