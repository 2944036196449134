"""A sweep's chunk files as results: their stamps, their checks, the totals they hold.

Every chunk file carries a stamp in its Parquet key-value metadata
(`layout.CHUNK_META_KEY`): the sweep's spec hash, the cell and the game range
[start, stop) it holds. The writer (`ludosim.sweep`) puts it there with
`stamp_metadata`; everything that reads a chunk reads it through this module
or `ludosim.results.load`:

- `check_chunk`: whether a file is a whole chunk of a given sweep, cell and
  range (footer, stamp, rows, and optionally its bytes), as a sweep checks its
  chunks on resume;
- `stamp_problem`: how a stamp disagrees with the place of its file, which
  `load` asks of every chunk it reads;
- `chunk_moments`: the totals a precision plan needs (`Moments`), from either
  kind of chunk, per-game rows or summaries.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ludosim.results.failures import reason
from ludosim.results.paths import CHUNK_META_KEY

# Bytes hashed per read: large enough to be fast, small enough to stay flat in memory.
_HASH_BLOCK = 1 << 20
# What a stamp holds, in the order messages name it.
STAMP_KEYS = ("spec_hash", "cell", "start", "stop")


@dataclass(frozen=True)
class Moments:
    """Additive totals of a cell's games: all a precision plan needs.

    `finished` counts games with a winner (the first-player advantage leaves the
    others out, as `analysis.first_player_advantage` does); `first_wins` those
    won by the player who took the first turn.
    """

    games: int = 0
    finished: int = 0
    first_wins: int = 0
    turns_sum: int = 0
    turns_sumsq: int = 0

    def __add__(self, other: Moments) -> Moments:
        return Moments(
            games=self.games + other.games,
            finished=self.finished + other.finished,
            first_wins=self.first_wins + other.first_wins,
            turns_sum=self.turns_sum + other.turns_sum,
            turns_sumsq=self.turns_sumsq + other.turns_sumsq,
        )


# ------------------------------------------------------------------ stamps
def stamp_metadata(spec_id: str, cell_id: str, start: int, stop: int) -> dict[bytes, bytes]:
    """The Parquet key-value metadata that stamps a chunk file with what it holds."""
    text = json.dumps({"spec_hash": spec_id, "cell": cell_id, "start": start, "stop": stop})
    return {CHUNK_META_KEY: text.encode()}


def parse_stamp(metadata: Mapping[bytes, bytes] | None) -> dict[str, Any] | None:
    """The stamp in a file's key-value metadata, or None when it has none (or a broken one)."""
    raw = (metadata or {}).get(CHUNK_META_KEY)
    try:
        info = json.loads(raw) if raw else None
    except ValueError:
        return None
    return info if isinstance(info, dict) else None


def read_stamp(path: Path) -> dict[str, Any] | None:
    """The stamp of a chunk file, from its footer alone; None when it has none or is unreadable."""
    import pyarrow.parquet as pq

    try:
        return parse_stamp(pq.read_metadata(path).metadata)
    except Exception:  # a damaged file has no usable stamp
        return None


def stamp_text(info: Mapping[str, Any] | None) -> str:
    """A stamp, or what a chunk's place says it should be, in words: `cell c001, games 0-149
    of sweep 1d9e3d0b21530785` (parts that are not known are left out)."""
    if not info:
        return "no chunk stamp"
    parts = []
    if info.get("cell") is not None:
        parts.append(f"cell {info['cell']}")
    if info.get("start") is not None:
        stop = info.get("stop")
        parts.append(f"games {info['start']}-{int(stop) - 1}" if stop is not None
                     else f"games from {info['start']}")  # fmt: skip
    text = ", ".join(parts)
    if info.get("spec_hash") is not None:
        text += f" of sweep {info['spec_hash']}"
    return text.strip()


def stamp_problem(
    info: Mapping[str, Any] | None,
    expected: Mapping[str, Any],
    rows: int,
    summary: bool | None = None,
) -> str | None:
    """How a chunk's stamp (and row count) disagrees with what its place says, or None.

    `expected` holds what is known of the chunk from its path and its sweep's
    manifest (any of `STAMP_KEYS`); only those keys are compared, and the words
    name the ones that differ. A per-game chunk holds one row per game of its
    stamp's range, a summary chunk one row (`summary=None`: not known, not counted).
    """
    if info is None:
        return "has no chunk stamp"
    differ = {k: v for k, v in expected.items() if info.get(k) != v}
    if differ:
        if "stop" in differ and "start" not in differ:
            differ["start"] = expected.get("start")
        return f"holds {stamp_text(info)}, not {stamp_text(differ)}"
    want = None if summary is None else 1 if summary else _games(info)
    if want is not None and rows != want:
        return f"has {rows} rows, its stamp ({stamp_text(info)}) says {want}"
    return None


def _games(info: Mapping[str, Any]) -> int | None:
    try:
        return int(info["stop"]) - int(info["start"])
    except (KeyError, TypeError, ValueError):
        return None


# ------------------------------------------------------------------ checks
def file_digest(path: Path) -> str:
    """sha256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def check_chunk(
    path: Path,
    spec_id: str,
    cell_id: str,
    start: int,
    stop: int,
    rows: int | None,
    *,
    sha256: str | None = None,
    deep: bool = False,
) -> str | None:
    """None when `path` is a whole chunk of this sweep, else why not (for the report).

    First the Parquet footer: a truncated file has none, and the stamp proves
    the file is this chunk of this sweep. `rows=None` skips the row count
    (summary chunks have one row per summary line, not per game). Then, with
    `sha256` (recorded in the manifest when the chunk was written), the file's
    bytes must hash to it: damage inside the file, which leaves the footer
    intact, is found too. With `deep` and no recorded hash the whole file is
    decoded, verifying its page checksums.
    """
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(path)
    except FileNotFoundError:
        return "missing"
    except Exception as exc:  # any unreadable file is reported and recomputed
        return f"unreadable ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})"
    info = parse_stamp(meta.metadata)
    expected = {"spec_hash": spec_id, "cell": cell_id, "start": start, "stop": stop}
    if info != expected:
        return f"stamped {info}, expected {expected}"
    if rows is not None and meta.num_rows != rows:
        return f"has {meta.num_rows} rows, expected {rows}"
    if sha256 is not None:
        try:
            if file_digest(path) != sha256:
                return "damaged (its bytes do not match the sha256 recorded when it was written)"
        except OSError as exc:
            return f"unreadable ({reason(exc)})"
    elif deep:
        try:
            pq.read_table(path, page_checksum_verification=True)
        except Exception as exc:  # a file that does not decode is damaged
            return f"damaged ({type(exc).__name__}: {' '.join(str(exc).split())[:120]})"
    return None


# ------------------------------------------------------------------ totals
def chunk_moments(path: Path, summary_only: bool) -> Moments:
    """The totals a precision plan needs, read from one chunk file (a few columns)."""
    import numpy as np
    import pyarrow.parquet as pq

    if summary_only:
        columns = ["games", "no_winner", "position0_wins", "turns_sum", "turns_sumsq"]
        row = pq.read_table(path, columns=columns).to_pydict()
        games = int(sum(row["games"]))
        return Moments(
            games=games,
            finished=games - int(sum(row["no_winner"])),
            first_wins=int(sum(row["position0_wins"])),
            turns_sum=int(sum(row["turns_sum"])),
            turns_sumsq=int(sum(row["turns_sumsq"])),
        )
    from ludosim.results.measures import first_wins

    names = pq.read_schema(path).names
    places = [c for c in names if c.startswith("place_") and c[6:].isdigit()]
    table = pq.read_table(path, columns=["winner", "first", "turns", *places])
    rows = {name: table[name].to_numpy() for name in table.column_names}
    winner = rows["winner"]
    turns = rows["turns"].astype(np.int64)
    return Moments(
        games=len(winner),
        finished=int((winner >= 0).sum()),
        # The first player's side: the seat, or under teams its team (`winning_sides`).
        first_wins=int(np.nansum(first_wins(rows, len(places)))),
        turns_sum=int(turns.sum()),
        turns_sumsq=int((turns * turns).sum()),
    )
