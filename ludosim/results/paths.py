"""Where results lie in a sweep folder: file names, partitions and chunk ranges.

    OUT/manifest.json                         versions, spec, spec hash, finished chunks, runs
    OUT/cells.parquet                         one row per cell: toggles, policies, games, seed
    OUT/rows/cell=<id>/chunk-<start>.parquet  per-game rows of games [start, stop), zstd
    OUT/summary/cell=<id>/chunk-<start>.parquet   instead of rows/ with summary_only

The reader (`ludosim.results.load`) and the writer (`ludosim.sweep.store`)
share these names.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

MANIFEST = "manifest.json"
CELLS = "cells.parquet"
ROWS = "rows"
SUMMARY = "summary"
# Key of the JSON stamp in every chunk file's Parquet key-value metadata.
CHUNK_META_KEY = b"ludosim.sweep.chunk"


def chunk_name(start: int) -> str:
    """`chunk-000000250000.parquet`: zero-padded so names sort in game order."""
    return f"chunk-{start:012d}.parquet"


def partition_dir(root: Path, summary_only: bool, cell_id: str) -> Path:
    return root / (SUMMARY if summary_only else ROWS) / f"cell={cell_id}"


def chunk_ranges(games: int, chunk_size: int, pilot: int = 0) -> Iterator[tuple[int, int]]:
    """[start, stop) game ranges of a cell's chunks, lazily: the pilot's first.

    Chunks start again at the end of a precision pilot, so the pilot's
    chunks stay valid whatever the second stage adds.
    """
    first = min(pilot, games)
    for a in range(0, first, chunk_size):
        yield a, min(a + chunk_size, first)
    for a in range(first, games, chunk_size):
        yield a, min(a + chunk_size, games)


def chunk_count(games: int, chunk_size: int, pilot: int = 0) -> int:
    """Number of `chunk_ranges`, without listing them (a dry run of any size answers at once)."""
    first = min(pilot, games)
    return -(-first // chunk_size) + -(-(games - first) // chunk_size)


def chunk_stop(start: int, games: int, chunk_size: int, pilot: int = 0) -> int | None:
    """The end of the chunk of `chunk_ranges(games, chunk_size, pilot)` that begins at
    `start`, unlisted; None when no chunk begins there."""
    first = min(pilot, games)
    if 0 <= start < first and start % chunk_size == 0:
        return min(start + chunk_size, first)
    if first <= start < games and (start - first) % chunk_size == 0:
        return min(start + chunk_size, games)
    return None


def is_chunk(start: int, stop: int, games: int, chunk_size: int, pilot: int = 0) -> bool:
    """Whether [start, stop) is one of `chunk_ranges(games, chunk_size, pilot)`, unlisted."""
    return chunk_stop(start, games, chunk_size, pilot) == stop


def chunk_start(path: Path) -> int | None:
    """The first game of a chunk file, from its name (`chunk_name`); None for other names."""
    name = path.name
    if not (name.startswith("chunk-") and name.endswith(".parquet")):
        return None
    digits = name[len("chunk-") : -len(".parquet")]
    return int(digits) if digits.isdigit() else None


def cell_of(path: Path) -> str | None:
    """The cell whose partition (`cell=<id>`) holds `path`, or None outside one."""
    return next((p[5:] for p in reversed(path.parent.parts) if p.startswith("cell=")), None)


def iter_chunk_files(root: Path) -> Iterator[tuple[str | None, Path]]:
    """(cell id or None, path) of every chunk file under `root`, in cell then game order."""
    for path in sorted(root.rglob("chunk-*.parquet")):
        yield cell_of(path), path
