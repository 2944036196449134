"""The output folder of a sweep: layout, manifest, atomic chunk files, resume checks.

Layout (rows partitioned by cell, Hive style, so pyarrow/duckdb/polars read it too):

    OUT/manifest.json                         versions, spec, spec hash, finished chunks, runs
    OUT/cells.parquet                         one row per cell: toggles, policies, games, seed
    OUT/rows/cell=<id>/chunk-<start>.parquet  per-game rows of games [start, stop), zstd
    OUT/summary/cell=<id>/chunk-<start>.parquet   instead of rows/ with summary_only

The chunk files are the truth; the manifest is a log of them. A cell's chunks
follow from `chunk_size`, its games and the precision pilot
(`ludosim.results.paths.chunk_ranges`), so the manifest lists only chunks
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
import json
import os
import tomllib
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludosim.results.chunks import Moments, check_chunk, chunk_moments, read_stamp
from ludosim.results.failures import ResultsError, reason
from ludosim.results.folders import has_content, lock_folder
from ludosim.results.folders import output_folder as output_folder  # where the studies find it
from ludosim.results.parquet import probe_writable, write_bytes_atomic, write_frame_atomic
from ludosim.results.paths import (
    CELLS,
    MANIFEST,
    ROWS,
    SUMMARY,
    chunk_name,
    is_chunk,
    iter_chunk_files,
    partition_dir,
)
from ludosim.results.reader import (
    SEAL_KEY,
    cells_disagree,
    cells_problem,
    manifest_edited,
    seal,
    seal_problem,
)
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import SEMANTICS_VERSION
from ludosim.sweep.spec import (
    Cell,
    SweepError,
    SweepSpec,
    cells_frame,
    spec_command,
    spec_hash,
    spec_toml,
)

if TYPE_CHECKING:
    pass

FORMAT_VERSION = 1
# Key of the spec hash in cells.parquet's metadata.
CELLS_META_KEY = b"ludosim.sweep"


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
        write_manifest(self.root, self.manifest)

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
        if has_content(root):
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
            write_manifest(root, manifest)
            _write_cells(root, cells, spec, spec_id)
        else:
            # A folder written before sweeps recorded these gets them on resume.
            manifest.update(_reproduce(manifest["spec"]))
            _drop_pending(manifest)
            if not _cells_ok(root, spec_id, manifest):
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
        info = read_stamp(path)
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


def _cells_ok(root: Path, spec_id: str, manifest: dict[str, Any]) -> bool:
    """cells.parquet is there, readable, and of this sweep (else it is rewritten).

    A readable one whose cells or toggles disagree with the manifest was edited by
    hand: it is refused rather than silently rewritten, so the edit is noticed.
    Games alone may differ after a precision run stopped between writing the
    planned games into cells.parquet and into the manifest: then it is rewritten.
    """
    import pandas as pd
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(root / CELLS).metadata or {}
        cells = pd.read_parquet(root / CELLS)
    except Exception:  # missing or damaged: either way it is written again
        return False
    problem = cells_problem(cells, manifest, games=False)
    if problem is not None:
        raise SweepError(cells_disagree(root, problem))
    stamped = meta.get(CELLS_META_KEY) == spec_id.encode()
    return stamped and cells_problem(cells, manifest) is None


def _keep_damaged_manifest(root: Path) -> None:
    """Keep an unreadable manifest beside the rebuilt one, for whoever wants to look."""
    if (root / MANIFEST).is_file():
        stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        (root / MANIFEST).replace(root / f"{MANIFEST}.damaged-{stamp}")


def _mismatch(
    root: Path, manifest: dict[str, Any] | None, spec: SweepSpec, spec_id: str
) -> str | None:
    """Why `root` cannot be resumed by this sweep, or None when it can."""
    hint = "choose another --out, or pass --new to move the old folder aside"
    if manifest is None:
        if (root / MANIFEST).exists():
            return f"{root} has a damaged {MANIFEST}; {hint}"
        return f"{root} is not empty and is not a sweep folder (no {MANIFEST}); {hint}"
    edited = seal_problem(manifest) or _spec_problem(manifest)
    if edited is not None:
        return f"{manifest_edited(root, edited)}; or pass --new to move the folder aside"
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


def _spec_problem(manifest: dict[str, Any]) -> str | None:
    """For a manifest without a seal (written before sweeps sealed theirs): how its spec
    disagrees with its spec hash, or None when the spec makes that hash."""
    if SEAL_KEY in manifest:
        return None
    try:
        # Read back as its sweep file reads (`spec_toml`), as a resume would.
        spec = SweepSpec.from_dict(tomllib.loads(spec_toml(manifest.get("spec") or {})))
        made = spec_hash(spec)
    except (LudosimError, tomllib.TOMLDecodeError, TypeError, ValueError):
        return None  # not a spec this ludosim reads back: the resume checks decide
    if made != manifest.get("spec_hash"):
        return f"its spec makes spec hash {made}, not the {manifest.get('spec_hash')} it records"
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
        return lock_folder(root, "running sweep")  # held open for the whole run
    except ResultsError as exc:
        raise SweepError(str(exc)) from None


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
        **_reproduce(spec.to_dict()),
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


def _reproduce(spec: dict[str, Any]) -> dict[str, Any]:
    """What the manifest records to rebuild the sweep (`ludosim.results.ResultsKind` reads it).

    `command`: the `ludosim sweep` options of the spec, without `--out` (the folder is
    wherever the manifest lies), or None when only a sweep file can say the spec;
    `spec_toml`: the spec as a sweep file.
    """
    return {"command": spec_command(spec, None), "spec_toml": spec_toml(spec)}


def _write_cells(root: Path, cells: Sequence[Cell], spec: SweepSpec, spec_id: str) -> None:
    df = cells_frame(cells, spec.chunk_size, full=True)
    write_frame_atomic(df, root / CELLS, {CELLS_META_KEY: spec_id.encode()})


# --------------------------------------------------------------------- chunks
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


def write_manifest(root: Path, manifest: dict[str, Any]) -> None:
    """Seal `manifest` (`ludosim.results.reader.seal`) and write it atomically."""
    write_json_atomic(root / MANIFEST, seal(manifest))


def write_json_atomic(path: Path, data: Any) -> None:
    """Write `data` as JSON through a temporary file and a rename (removed on failure)."""
    write_bytes_atomic(path, (json.dumps(data, indent=1) + "\n").encode("utf-8"))
