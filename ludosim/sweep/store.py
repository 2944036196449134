"""The output folder of a sweep: layout, manifest, atomic chunk files, resume checks.

Layout (rows partitioned by cell, Hive style, so pyarrow/duckdb/polars read it too):

    OUT/manifest.json                         versions, spec, spec hash, finished chunks, runs
    OUT/cells.parquet                         one row per cell: toggles, policies, games, seed
    OUT/rows/cell=<id>/chunk-<start>.parquet  per-game rows of games [start, stop), zstd
    OUT/summary/cell=<id>/chunk-<start>.parquet   instead of rows/ with summary_only

The chunk files are the truth; the manifest is a log of them. A cell's chunks
follow from `chunk_size`, its games and the precision pilot
(`ludosim.results.layout.chunk_ranges`), so the manifest lists only chunks
that are not pending (done, with their sha256, or found damaged or missing):
its size grows with the chunks finished, not with the chunks planned. A chunk is
written under a hidden temporary name (`.chunk-...tmp`: readers skip names
starting with a dot) and renamed when complete, so a chunk file either is
whole or does not exist. On resume each expected chunk is checked from its
Parquet footer (row count, and the sweep/cell/range stamped into its
metadata) and from the sha256 of its bytes recorded in the manifest when it
was written; anything else is reported and recomputed. A lost or damaged
manifest is rebuilt from the stamps of the chunks.

Every change to a folder happens under its lock (`OUT/.lock`, `flock`): one
writer per folder, also while `--new` moves it aside.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import fcntl
import hashlib
import json
import os
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludosim.results.errors import reason
from ludosim.results.layout import (
    CELLS,
    CHUNK_META_KEY,
    MANIFEST,
    ROWS,
    SUMMARY,
    chunk_name,
    is_chunk,
    iter_chunk_files,
    partition_dir,
)
from ludosim.results.parquet import probe_writable, write_bytes_atomic, write_frame_atomic
from ludosim.rules import SEMANTICS_VERSION
from ludosim.sweep.precision import Moments
from ludosim.sweep.spec import Cell, SweepError, SweepSpec, cells_frame

if TYPE_CHECKING:
    import pandas as pd

LOCK = ".lock"
FORMAT_VERSION = 1
# Key of the spec hash in cells.parquet's metadata.
CELLS_META_KEY = b"ludosim.sweep"
# Bytes hashed per read: large enough to be fast, small enough to stay flat in memory.
_HASH_BLOCK = 1 << 20


def now() -> str:
    """UTC timestamp for the manifest, to the second."""
    return _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass
class Folder:
    """An opened (and locked) sweep folder with its in-memory manifest."""

    root: Path
    manifest: dict[str, Any]
    moved_aside: Path | None = None
    _lock: Any = None

    @property
    def summary_only(self) -> bool:
        return bool(self.manifest["summary_only"])

    def chunk_path(self, cell_id: str, start: int) -> Path:
        return partition_dir(self.root, self.summary_only, cell_id) / chunk_name(start)

    def chunk_state(self, cell_id: str, start: int, stop: int) -> dict[str, Any]:
        """The recorded state of a chunk, or a fresh pending one (not stored).

        Pending chunks are not written into the manifest: a cell's chunks
        follow from its games, so only chunks with something to record are kept.
        """
        recorded = self.manifest["chunks"].get(cell_id, {}).get(str(start))
        if recorded is not None:
            return recorded
        return {"stop": stop, "state": "pending", "computed": 0}

    def record_chunk(self, cell_id: str, start: int, state: dict[str, Any]) -> None:
        """Store the state of a chunk that is no longer pending (done, damaged, missing)."""
        self.manifest["chunks"].setdefault(cell_id, {})[str(start)] = state

    def save_manifest(self) -> None:
        """Rewrite manifest.json atomically (temporary file, then rename)."""
        self.manifest["updated"] = now()
        write_json_atomic(self.root / MANIFEST, self.manifest)

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()  # releases the flock
            self._lock = None


# --------------------------------------------------------------- open/create
def open_folder(
    out: str | Path,
    spec: SweepSpec,
    cells: Sequence[Cell],
    spec_id: str,
    *,
    new: bool = False,
    version: str = "",
) -> Folder:
    """Create the folder of a new sweep, or reopen the folder of the same sweep to resume.

    The folder's lock is taken first, so everything below (reading the
    manifest, rebuilding it, moving the folder aside) happens with one writer.
    A folder holding anything else is refused, naming what it holds, unless
    `new`: then it is moved aside to a sibling `<name>.replaced-<time>` (never
    deleted: results are expensive and a wrong `--out` is an easy slip). A
    folder whose manifest is lost or damaged but whose chunks are stamped with
    this sweep is resumed: the manifest is rebuilt from the stamps.
    """
    root = Path(out).expanduser()
    if root.exists() and not root.is_dir():
        raise SweepError(f"output folder {root} is a file; choose a folder for --out")
    _ensure_writable(root)
    lock = _lock(root)
    moved: Path | None = None
    rebuilt: str | None = None
    try:
        if _has_content(root):
            existing = _read_manifest_or_none(root)
            if existing is None and not new:
                rebuilt = _rebuild_reason(root, spec_id)
            reason = None if rebuilt else _mismatch(root, existing, spec, spec_id)
            if new:
                # Moved while its lock is held: a sweep still writing it holds the lock,
                # so `_lock` above has refused already.
                moved = _move_aside(root)
                _ensure_writable(root)
                fresh = _lock(root)
                lock.close()
                lock = fresh
            elif reason is not None:
                raise SweepError(reason)
        manifest = None if rebuilt else _read_manifest_or_none(root)
        if manifest is None:
            if rebuilt:
                _keep_damaged_manifest(root)
            manifest = _new_manifest(spec, cells, spec_id, version)
            if rebuilt:
                manifest["rebuilt"] = {"at": now(), "why": rebuilt}
            write_json_atomic(root / MANIFEST, manifest)
            _write_cells(root, cells, spec, spec_id)
        else:
            _drop_pending(manifest)
            if not _cells_ok(root, spec_id):
                _write_cells(root, cells, spec, spec_id)
    except BaseException:
        lock.close()
        raise
    return Folder(root=root, manifest=manifest, moved_aside=moved, _lock=lock)


def _drop_pending(manifest: dict[str, Any]) -> None:
    """Forget listed pending chunks (a manifest may list them): pending is the default.

    One computed before keeps its count, recorded as damaged until recomputed.
    """
    for states in manifest["chunks"].values():
        for key, state in list(states.items()):
            if state.get("state") == "pending":
                if state.get("computed", 0):
                    state["state"] = "damaged"
                else:
                    del states[key]


def _rebuild_reason(root: Path, spec_id: str) -> str | None:
    """Why the manifest of `root` can be rebuilt for this sweep, or None when it cannot.

    It can when the folder holds the files of this sweep: chunks stamped with
    its hash (and none stamped with another), or its cells.parquet.
    """
    import pyarrow.parquet as pq

    state = "damaged" if (root / MANIFEST).exists() else "missing"
    ours = foreign = 0
    for _, path in iter_chunk_files(root):
        info = _stamp(path)
        if info is None:
            continue
        if info.get("spec_hash") == spec_id:
            ours += 1
        else:
            foreign += 1
    if foreign:
        return None
    if ours:
        return f"{MANIFEST} {state}; rebuilt from the stamps of {ours} chunk files"
    try:
        meta = pq.read_metadata(root / CELLS).metadata or {}
    except Exception:  # any unreadable cells file means "not ours"
        return None
    if meta.get(CELLS_META_KEY) == spec_id.encode():
        return f"{MANIFEST} {state}; rebuilt from {CELLS}"
    return None


def _cells_ok(root: Path, spec_id: str) -> bool:
    """cells.parquet is there, readable, and of this sweep (else it is rewritten)."""
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(root / CELLS).metadata or {}
    except Exception:  # missing or damaged: either way it is written again
        return False
    return meta.get(CELLS_META_KEY) == spec_id.encode()


def _stamp(path: Path) -> dict[str, Any] | None:
    """The stamp of a chunk file, or None when it has none or cannot be read."""
    import pyarrow.parquet as pq

    try:
        raw = (pq.read_metadata(path).metadata or {}).get(CHUNK_META_KEY)
        info = json.loads(raw) if raw else None
    except Exception:  # a damaged file has no usable stamp
        return None
    return info if isinstance(info, dict) else None


def _keep_damaged_manifest(root: Path) -> None:
    """Keep an unreadable manifest beside the rebuilt one, for whoever wants to look."""
    if (root / MANIFEST).is_file():
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        (root / MANIFEST).replace(root / f"{MANIFEST}.damaged-{stamp}")


def _has_content(root: Path) -> bool:
    # Our own lock file and probes do not make a folder "used": a run killed before
    # writing its manifest must not make the folder unusable.
    return any(not p.name.startswith(".") for p in root.iterdir())


def _mismatch(
    root: Path, manifest: dict[str, Any] | None, spec: SweepSpec, spec_id: str
) -> str | None:
    """Why `root` cannot be resumed by this sweep, or None when it can."""
    hint = "choose another --out, or pass --new to move the old folder aside"
    if manifest is None:
        if (root / MANIFEST).exists():
            return f"{root} has a damaged {MANIFEST}; {hint}"
        return f"{root} is not empty and is not a sweep folder (no {MANIFEST}); {hint}"
    if manifest.get("semantics_version") != SEMANTICS_VERSION:
        return (
            f"{root} was made with simulation semantics version "
            f"{manifest.get('semantics_version')}, this ludosim plays version {SEMANTICS_VERSION}; "
            f"its rows cannot be mixed with new ones; {hint}"
        )
    if manifest.get("spec_hash") != spec_id:
        old = manifest.get("spec") or {}
        name = f"{old['name']!r}, " if old.get("name") else ""
        differ = [k for k, v in spec.to_dict().items() if k != "name" and old.get(k) != v]
        what = f"; it differs in {', '.join(differ)}" if differ else ""
        return (
            f"{root} holds a different sweep ({name}spec hash {manifest.get('spec_hash')}, "
            f"created {manifest.get('created')}{what}); rerun the command that made it to "
            f"resume, {hint}"
        )
    return None


def _move_aside(root: Path) -> Path:
    resolved = root.resolve()
    cwd = Path.cwd().resolve()
    if cwd == resolved or cwd.is_relative_to(resolved) or resolved in (Path.home(), Path("/")):
        raise SweepError(
            f"--new would move {root} aside, which holds the current or home folder; "
            "choose a dedicated --out folder"
        )
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    target = resolved.with_name(f"{resolved.name}.replaced-{stamp}")
    n = 1
    while target.exists():
        n += 1
        target = resolved.with_name(f"{resolved.name}.replaced-{stamp}-{n}")
    try:
        resolved.rename(target)
    except OSError as exc:
        raise SweepError(f"cannot move {root} aside to {target.name}: {exc.strerror}") from None
    return target


def _ensure_writable(root: Path) -> None:
    """Create `root` and prove a file can be written there, before any game is played."""
    try:
        root.mkdir(parents=True, exist_ok=True)
        probe_writable(root / f".probe-{os.getpid()}")
    except OSError as exc:
        raise SweepError(
            f"output folder {root} is not writable ({reason(exc)}); choose another --out"
        ) from None


def _lock(root: Path) -> Any:
    """Hold an exclusive lock on the folder: two runs writing one folder would race."""
    try:
        handle = open(root / LOCK, "a+")  # held open for the whole run
    except OSError as exc:
        raise SweepError(
            f"cannot lock {root / LOCK}: {reason(exc)}; choose another --out"
        ) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise SweepError(
            f"{root} is being written by another running sweep; wait for it or choose another --out"
        ) from None
    return handle


@contextlib.contextmanager
def locked(root: Path, what: str) -> Iterator[None]:
    """Hold the lock of a folder that is not a sweep (a report folder) while writing it."""
    try:
        handle = open(root / LOCK, "a+")  # closed below
    except OSError as exc:
        raise SweepError(f"cannot lock {root / LOCK}: {reason(exc)}") from None
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise SweepError(
                f"{root} is being written by another {what}; wait for it or choose another --out"
            ) from None
        yield
    finally:
        handle.close()


def _read_manifest_or_none(root: Path) -> dict[str, Any] | None:
    try:
        data = json.loads((root / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or "spec_hash" not in data or "chunks" not in data:
        return None
    return data


def _new_manifest(
    spec: SweepSpec, cells: Sequence[Cell], spec_id: str, version: str
) -> dict[str, Any]:
    return {
        "format": FORMAT_VERSION,
        "ludosim_version": version,
        "semantics_version": SEMANTICS_VERSION,
        "spec_hash": spec_id,
        "spec": spec.to_dict(),
        "chunk_size": spec.chunk_size,
        "summary_only": spec.summary_only,
        "created": now(),
        "updated": now(),
        "complete": False,
        "cells": [
            {"id": c.id, "name": c.name, "rules_hash": c.rules.hash(), "games": c.games}
            for c in cells
        ],
        # Only chunks that are not pending: {cell id: {start: state}}.
        "chunks": {},
        "runs": [],
    }


def _write_cells(root: Path, cells: Sequence[Cell], spec: SweepSpec, spec_id: str) -> None:
    df = cells_frame(cells, spec.chunk_size, full=True)
    write_frame_atomic(df, root / CELLS, {CELLS_META_KEY: spec_id.encode()})


# --------------------------------------------------------------------- chunks
def file_digest(path: Path) -> str:
    """sha256 of a file's bytes, read in blocks."""
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while block := handle.read(_HASH_BLOCK):
            digest.update(block)
    return digest.hexdigest()


def chunk_stamp(spec_id: str, cell_id: str, start: int, stop: int) -> dict[bytes, bytes]:
    text = json.dumps({"spec_hash": spec_id, "cell": cell_id, "start": start, "stop": stop})
    return {CHUNK_META_KEY: text.encode()}


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
    stamp = (meta.metadata or {}).get(CHUNK_META_KEY)
    try:
        info = json.loads(stamp) if stamp else None
    except ValueError:
        info = None
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


def remove_stale_temporaries(root: Path) -> list[Path]:
    """Delete the `.*.tmp` files (and write probes) left by a killed run.

    Only call it holding the folder's lock: then no running sweep owns them.
    """
    removed = []
    for sub in (ROWS, SUMMARY):
        for tmp in (root / sub).glob("cell=*/.*.tmp"):
            with contextlib.suppress(OSError):
                tmp.unlink()
                removed.append(tmp)
    for tmp in [*root.glob(".*.tmp"), *root.glob(".probe-*")]:
        with contextlib.suppress(OSError):
            tmp.unlink()
            removed.append(tmp)
    return removed


# ------------------------------------------------------------------ precision
def chunk_moments(path: Path, summary_only: bool) -> Moments:
    """The totals a precision plan needs, read from one chunk file (three columns)."""
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
    table = pq.read_table(path, columns=["winner", "first", "turns"])
    winner = table["winner"].to_numpy()
    turns = table["turns"].to_numpy().astype(np.int64)
    return Moments(
        games=len(winner),
        finished=int((winner >= 0).sum()),
        # Position (winner - first) mod n is 0 exactly when the first player won.
        first_wins=int((winner == table["first"].to_numpy()).sum()),
        turns_sum=int(turns.sum()),
        turns_sumsq=int((turns * turns).sum()),
    )


def cell_moments(
    root: Path,
    summary_only: bool,
    spec_id: str,
    cell: Cell,
    chunk_size: int,
    *,
    partial: bool = False,
) -> Moments | None:
    """Totals of a cell's chunks in `root`; None when one is not whole (unless `partial`).

    Each chunk is checked from its footer like on resume, so only chunks of this
    sweep count. With `partial` the complete chunks are summed and the rest skipped.
    """
    total = Moments()
    for start, stop in cell.chunks(chunk_size):
        path = partition_dir(root, summary_only, cell.id) / chunk_name(start)
        rows = 1 if summary_only else stop - start
        if check_chunk(path, spec_id, cell.id, start, stop, rows) is None:
            total = total + chunk_moments(path, summary_only)
        elif not partial:
            return None
    return total


def record_plan(folder: Folder, spec: SweepSpec, cells: Sequence[Cell], spec_id: str) -> None:
    """Write the planned games of each cell (after the pilot) into manifest and cells.parquet.

    The second stage's chunks are implicit (pending until done); recorded
    states of chunks outside the planned ranges are dropped, and each cell's
    `games` is updated.
    """
    complete = True
    for cell in cells:
        known = folder.manifest["chunks"].get(cell.id, {})
        kept = {
            key: state
            for key, state in known.items()
            if is_chunk(int(key), state.get("stop", -1), cell.games, spec.chunk_size, cell.pilot)
        }
        folder.manifest["chunks"][cell.id] = kept
        done = sum(1 for state in kept.values() if state.get("state") == "done")
        complete = complete and done == cell.chunk_count(spec.chunk_size)
    games = {c.id: c.games for c in cells}
    for entry in folder.manifest["cells"]:
        entry["games"] = games[entry["id"]]
    folder.manifest["complete"] = complete
    _write_cells(folder.root, cells, spec, spec_id)
    folder.save_manifest()


PRECISION_COLUMNS = (
    "cell", "name", "target", "pilot", "planned", "games", "estimate", "half_width",
    "capped", "met",
)  # fmt: skip


def precision_status(path: str | Path) -> pd.DataFrame:
    """Per cell of a sweep with a precision target: the target and what its games achieve.

    Columns: cell, name, target (e.g. `0.25pp`), pilot, planned (games the
    two-stage rule asks for, at most max_games), games (played), estimate (the
    first-player advantage in pp, or the mean turns), half_width (of its 95%
    interval, in the target's unit, from the games played), capped (the target
    needs more than max_games) and met (every planned game played and not
    capped). Empty (with these columns) for a sweep without a target, or one
    whose pilots are not finished yet; `SweepError` for a folder that is not a sweep.
    """
    import pandas as pd

    root = Path(path).expanduser()
    manifest = _read_manifest_or_none(root)
    if manifest is None:
        raise SweepError(f"{root} is not a sweep folder (no readable {MANIFEST})")
    section = manifest.get("precision")
    if not section:
        return pd.DataFrame(columns=list(PRECISION_COLUMNS))
    rows = [
        {
            "cell": cell,
            "name": entry["name"],
            "target": section["target"],
            "pilot": entry["pilot"],
            "planned": entry["planned"],
            "games": entry["games"],
            "estimate": entry["estimate"],
            "half_width": entry["half_width"],
            "capped": entry["capped"],
            "met": entry["met"],
        }
        for cell, entry in section["cells"].items()
    ]
    frame = pd.DataFrame(rows, columns=list(PRECISION_COLUMNS))
    return frame.astype({"estimate": float, "half_width": float})  # null -> NaN


def write_json_atomic(path: Path, data: Any) -> None:
    """Write `data` as JSON through a temporary file and a rename (removed on failure)."""
    write_bytes_atomic(path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))
