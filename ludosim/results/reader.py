"""Reading results back: one Parquet file, a folder of them, or a sweep folder.

`load` (`ludosim.load`) is the single entry point. It reads the per-game
rows of a whole sweep (every complete chunk, in cell then game order) into
one DataFrame with a categorical `cell` column, and with `cells=True` also
the cell's name, policies and every toggle that differs between the cells.
A single file is read as-is, with the run description `simulate` stored in
its metadata as `df.attrs` (a sweep chunk also gets its `cell`); a folder
that is not a sweep is read file by file in name order.

A `summary_only` sweep keeps one row of additive totals per chunk
(`ludosim.results.summary.summary_to_frame`); `load` returns those rows and
`summaries` adds them up into one `Summary` per cell.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ludosim.results import paths
from ludosim.results.chunks import parse_stamp, stamp_problem
from ludosim.results.failures import ResultsError, damage_message
from ludosim.results.schema import META_KEY
from ludosim.results.summary import Summary, summary_from_frame
from ludosim.rules import checks
from ludosim.rules.errors import LudosimError

# Columns of cells.parquet that describe a cell but are not toggles.
CELL_INFO = (
    "cell",
    "name",
    "variant",
    "preset",
    "policies",
    "games",
    "seed",
    "rules_hash",
    "chunks",
)


def load(
    path: str | Path, cells: bool = False, *, columns: Sequence[str] | None = None
) -> pd.DataFrame:
    """All rows under `path` as one DataFrame.

    `path` may be a sweep folder (with manifest.json), a folder of chunk files
    (`rows/` or `rows/cell=<id>/`), a folder of Parquet files (read in name
    order) or one Parquet file (`simulate --out`, or one chunk). Rows of a
    sweep get a categorical `cell` column; `cells=True` adds `name`,
    `policies` and the toggles that vary between cells. An unfinished sweep
    loads what is complete, with a `UserWarning`. `df.attrs` holds the run
    description of a `simulate --out` file (the first one of a folder) or the
    versions and spec of a sweep.
    """
    cells = checks.flag("cells", cells, error=ResultsError)
    columns = _columns_arg(columns)
    path = results_path(path)
    root = sweep_root(path)
    plan = _Plan.of(load_manifest(root)) if root is not None else None
    if path.is_file():
        df = _load_file(path, columns, plan)
    else:
        files = _folder_files(path, root, plan)
        if not files:
            raise ResultsError(f"{path} holds no result files (*.parquet)")
        df = _read_many(files, columns)
        if root is not None:
            # Versions and spec travel with the rows, so notebooks can refuse to mix sweeps.
            manifest = load_manifest(root)
            df.attrs = {
                k: manifest.get(k)
                for k in ("spec_hash", "semantics_version", "ludosim_version", "spec")
            }
        else:
            df.attrs = _run_attrs(files[0].path)
    if cells:
        if root is None or "cell" not in df.columns:
            raise ResultsError(f"{path} is not part of a sweep folder; cells=True needs one")
        df = _join_cells(df, load_cells(root))
    return df


def load_cells(path: str | Path) -> pd.DataFrame:
    """cells.parquet of a sweep folder: one row per cell with every toggle.

    It is checked against manifest.json, which the sweep's spec hash vouches for:
    a cells file that disagrees (hand-edited, rows swapped) would put wrong labels
    on the rows, so it is refused, naming the file.
    """
    root = sweep_root(results_path(path))
    if root is None:
        raise ResultsError(f"{path} is not a sweep folder (no {paths.MANIFEST})")
    try:
        cells = pd.read_parquet(root / paths.CELLS)
    except (OSError, ValueError) as exc:
        raise ResultsError(f"cannot read {root / paths.CELLS}: {exc}") from None
    problem = cells_problem(cells, load_manifest(root))
    if problem is not None:
        raise ResultsError(cells_disagree(root, problem))
    return cells


def cells_problem(
    cells: pd.DataFrame, manifest: dict[str, Any], *, games: bool = True
) -> str | None:
    """How a cells table disagrees with its sweep's manifest, or None when it agrees.

    Row by row, the cell id, name, rules hash (and with `games` the games) must be
    those the manifest lists, in its order, and each row's toggles must make rules
    of that hash.
    """
    from ludosim.rules.model import TOGGLES, Rules

    listed = manifest.get("cells") or []
    keys = ("cell", "name", "rules_hash", "games")[: 4 if games else 3]
    missing = [k for k in keys if k not in cells.columns]
    if missing:
        return f"it has no {missing[0]} column"
    if len(cells) != len(listed):
        return f"it has {len(cells)} rows, the manifest lists {len(listed)} cells"
    toggles = [c for c in cells.columns if c in TOGGLES]
    for i, (row, entry) in enumerate(zip(cells.to_dict("records"), listed, strict=True)):
        got = tuple(str(row[k]) for k in keys)
        want = tuple(str(entry.get(k)) for k in ("id", "name", "rules_hash", "games")[: len(keys)])
        if got != want:
            return f"row {i} is {_cell_text(got)}, the manifest has {_cell_text(want)}"
        try:
            rules_hash = Rules().replace(**{t: row[t] for t in toggles}).hash()
        except LudosimError as exc:
            return f"row {i} ({got[0]}) has toggles no rules have ({exc})"
        if rules_hash != got[2]:
            return f"row {i} ({got[0]}): its toggles make rules {rules_hash}, not {got[2]}"
    return None


def cells_disagree(root: Path, problem: str) -> str:
    """The one line for a cells.parquet that disagrees with manifest.json."""
    return (
        f"{root / paths.CELLS} disagrees with {paths.MANIFEST}: {problem}; delete it and "
        "rerun the sweep's command to write it again"
    )


def _cell_text(entry: tuple[str, ...]) -> str:
    cell, name, rules_hash, *games = entry
    return f"{cell} {name!r} (rules {rules_hash}" + "".join(f", {g} games" for g in games) + ")"


def load_manifest(path: str | Path) -> dict[str, Any]:
    """manifest.json of a sweep folder, refused when it was edited since the sweep wrote it
    (`seal_problem`)."""
    root = sweep_root(results_path(path))
    if root is None:
        raise ResultsError(f"{path} is not a sweep folder (no {paths.MANIFEST})")
    try:
        manifest = json.loads((root / paths.MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResultsError(f"cannot read {root / paths.MANIFEST}: {exc}") from None
    if not isinstance(manifest, dict):
        raise ResultsError(f"cannot read {root / paths.MANIFEST}: it holds no JSON object")
    problem = seal_problem(manifest)
    if problem is not None:
        raise ResultsError(manifest_edited(root, problem))
    return manifest


# The keys of manifest.json that say what the sweep computes; the sweep seals them
# (`seal`) each time it writes the manifest, so an edit by hand is found on reading.
SEALED = (
    "format", "semantics_version", "spec_hash", "spec", "chunk_size", "summary_only",
    "command", "spec_toml", "cells",
)  # fmt: skip
SEAL_KEY = "seal"


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def seal(manifest: dict[str, Any]) -> dict[str, Any]:
    """`manifest` with its seal: a digest of each key of `SEALED`, as it holds them now."""
    manifest[SEAL_KEY] = {key: _digest(manifest.get(key)) for key in SEALED if key in manifest}
    return manifest


def seal_problem(manifest: dict[str, Any]) -> str | None:
    """Which sealed keys of `manifest` no longer match its seal, in words; None when all do.

    A manifest written before sweeps sealed theirs has no seal and is taken as it is.
    """
    recorded = manifest.get(SEAL_KEY)
    if recorded is None:
        return None
    if not isinstance(recorded, dict):
        return "its seal is damaged"
    edited = [
        key
        for key in SEALED
        if (key in manifest or key in recorded) and recorded.get(key) != _digest(manifest.get(key))
    ]
    if not edited:
        return None
    return f"its {' and '.join(edited)} {'was' if len(edited) == 1 else 'were'} changed"


def manifest_edited(root: Path, problem: str) -> str:
    """The one line for a manifest edited by hand (`seal_problem`)."""
    return (
        f"{root / paths.MANIFEST} was edited after the sweep wrote it ({problem}), so it no "
        "longer says what the chunks hold; restore it, or delete it and rerun the sweep's "
        "command, which rebuilds it from the chunk stamps"
    )


def summaries(path: str | Path) -> dict[str, Summary]:
    """`{cell id: Summary}` of a `summary_only` sweep: the sum of its chunks' totals."""
    df = load(path)
    if "hist_turns" not in df.columns:
        raise ResultsError(f"{path} holds per-game rows, not summaries; summarise the rows instead")
    if "cell" not in df.columns:
        return {"": summary_from_frame(df)}
    return {
        str(cell): summary_from_frame(rows)
        for cell, rows in df.groupby("cell", observed=True, sort=False)
    }


# ------------------------------------------------------------------ helpers
def results_path(path: Any) -> Path:
    """`path` as a Path that exists; one clear error for None, empty or missing paths."""
    if path is None or (isinstance(path, str) and not path.strip()):
        raise ResultsError(
            f"path must name a results file or folder (a sweep folder, or a Parquet file "
            f"of `simulate --out`), got {path!r}"
        )
    if not isinstance(path, (str, Path)):
        raise ResultsError(f"path must be a str or pathlib.Path, got {type(path).__name__}")
    path = Path(path).expanduser()
    if not path.exists():
        raise ResultsError(f"{path} does not exist")
    return path


def sweep_root(path: Path) -> Path | None:
    """The sweep folder `path` is, or lies in (a chunk is three levels down)."""
    start = path if path.is_dir() else path.parent
    for candidate in [start, *list(start.parents)[:3]]:
        if (candidate / paths.MANIFEST).is_file():
            return candidate
    return None


@dataclass(frozen=True)
class _Plan:
    """What a sweep's manifest says of its chunks: sweep, chunking, games per cell."""

    spec_hash: str | None
    summary_only: bool
    chunk_size: int
    pilot: int
    games: dict[str, int]
    # Per cell, (start, stop) of the chunks the manifest records as finished.
    done: dict[str, frozenset[tuple[int, int]]] = field(default_factory=dict)

    @classmethod
    def of(cls, manifest: dict[str, Any]) -> _Plan:
        spec = manifest.get("spec") or {}
        chunks = manifest.get("chunks") or {}
        return cls(
            spec_hash=manifest.get("spec_hash"),
            summary_only=bool(manifest.get("summary_only")),
            chunk_size=int(manifest.get("chunk_size") or spec.get("chunk_size")),
            pilot=int(spec.get("pilot") or 0) if spec.get("precision") is not None else 0,
            games={str(c["id"]): int(c["games"]) for c in manifest.get("cells") or []},
            done={
                str(cell): frozenset(
                    (int(start), int(state.get("stop", -1)))
                    for start, state in states.items()
                    if state.get("state") == "done"
                )
                for cell, states in chunks.items()
            },
        )

    def stop(self, cell: str, start: int) -> int | None:
        """The end of the cell's chunk that starts at `start` (None: no such chunk)."""
        games = self.games.get(cell)
        if games is None:
            return None
        return paths.chunk_stop(start, games, self.chunk_size, self.pilot)


@dataclass(frozen=True)
class _Source:
    """A file to read, the cell its rows belong to, and what its place says it holds."""

    cell: str | None
    path: Path
    # Stamp keys (`chunks.STAMP_KEYS`) its path and its sweep's manifest say; empty: not a chunk.
    expected: dict[str, Any] = field(default_factory=dict)
    summary: bool | None = None  # a summary chunk (one row), per-game rows, or not known

    @classmethod
    def at(cls, path: Path, plan: _Plan | None) -> _Source:
        """A file, with what its partition (`cell=<id>`), its name (`chunk-<start>`) and the
        manifest of the sweep it lies in say it holds."""
        cell, start = paths.cell_of(path), paths.chunk_start(path)
        expected: dict[str, Any] = {}
        if plan is not None and (cell is not None or start is not None):
            expected["spec_hash"] = plan.spec_hash
        if cell is not None:
            expected["cell"] = cell
        if start is not None:
            expected["start"] = start
            stop = plan.stop(cell, start) if plan is not None and cell is not None else None
            if stop is not None:
                expected["stop"] = stop
        summary = path.parent.parent.name == paths.SUMMARY if cell is not None else None
        return cls(cell, path, expected, summary)


def _folder_files(path: Path, root: Path | None, plan: _Plan | None) -> list[_Source]:
    """The files to read for a folder, in cell then game (or name) order."""
    if root is not None and plan is not None and root == path:
        return _sweep_files(root, plan)
    if root is not None:
        return [_Source.at(p, plan) for _, p in paths.iter_chunk_files(path)]
    # A folder of `simulate --out` files (or of anything written as Parquet).
    return [
        _Source.at(p, None)
        for p in sorted(path.rglob("*.parquet"))
        if not p.name.startswith(".") and p.name != paths.CELLS
    ]


class IncompleteSweep(UserWarning):
    """A sweep folder is read before the sweep finished: some chunks are not computed yet."""


def _sweep_files(root: Path, plan: _Plan) -> list[_Source]:
    """Every complete chunk of a sweep; warns (`IncompleteSweep`) when the sweep is not done.

    The expected chunks follow from each cell's games, the chunk size and the
    precision pilot, so they are never listed in full. A chunk the manifest records
    as finished must be there: a lost one (deleted, moved) is refused, as is a
    manifest that records finished chunks its cells do not have (edited games), so
    the rows are never silently fewer than the manifest says.
    """
    files, pending, lost, total = [], [], [], 0
    for cell, games in plan.games.items():
        folder = paths.partition_dir(root, plan.summary_only, cell)
        present = {p.name for p in folder.glob("chunk-*.parquet")} if folder.is_dir() else set()
        recorded = plan.done.get(cell, frozenset())
        stray = sorted(
            (start, stop)
            for start, stop in recorded
            if not paths.is_chunk(start, stop, games, plan.chunk_size, plan.pilot)
        )
        if stray:
            raise ResultsError(
                f"{root / paths.MANIFEST} records a finished chunk of cell {cell}, games "
                f"{stray[0][0]}-{stray[0][1] - 1}, that its {games:,} games do not have: the "
                "manifest was edited; restore it, or delete it and rerun the sweep's command, "
                "which rebuilds it from the chunk stamps"
            )
        done = {start for start, _ in recorded}
        for start, stop in paths.chunk_ranges(games, plan.chunk_size, plan.pilot):
            total += 1
            name = paths.chunk_name(start)
            if name in present:
                expected = {"spec_hash": plan.spec_hash, "cell": cell, "start": start, "stop": stop}
                files.append(_Source(cell, folder / name, expected, plan.summary_only))
            else:
                (lost if start in done else pending).append((folder / name, cell, start, stop))
    if lost:
        path, cell, start, stop = lost[0]
        which = (
            f"chunk {path.relative_to(root)} (cell {cell}, games {start}-{stop - 1}) is missing"
            if len(lost) == 1
            else f"{len(lost)} chunks are missing, the first {path.relative_to(root)} (cell "
            f"{cell}, games {start}-{stop - 1})"
        )
        raise ResultsError(
            f"{root}: {which}, though the sweep finished it; rerun the sweep's command to "
            "compute it again (the sweep resumes and plays only what is missing)"
        )
    if pending:
        path, cell, start, stop = pending[0]
        warnings.warn(
            f"{root}: the sweep is not complete ({len(pending)} of {total} chunks not yet "
            f"computed, the first cell {cell} games {start}-{stop - 1}); rerun its command "
            "to finish it",
            IncompleteSweep,
            stacklevel=4,
        )
    return files


def _metadata(path: Path) -> dict[bytes, bytes]:
    try:
        return pq.read_metadata(path).metadata or {}
    except Exception as exc:
        raise ResultsError(f"{path} is not a readable Parquet file: {exc}") from None


def _run_attrs(path: Path) -> dict[str, Any]:
    """The run description `simulate` stored in a file's metadata, or {}."""
    text = _metadata(path).get(META_KEY)
    return json.loads(text) if text else {}


def _load_file(path: Path, columns: Sequence[str] | None, plan: _Plan | None) -> pd.DataFrame:
    source = _Source.at(path, plan)
    meta = _metadata(path)
    stamp = parse_stamp(meta)
    if stamp is not None and source.cell is None:
        # A chunk outside its partition: its rows are of the cell its stamp names.
        source = dataclasses.replace(source, cell=str(stamp.get("cell")))
    df = _read_many([source], columns)
    text = meta.get(META_KEY)
    df.attrs = json.loads(text) if text else {}
    return df


def _columns_arg(columns: Any) -> list[str] | None:
    """The `columns` argument of `load`: None (every column) or a list of names."""
    if columns is None:
        return None
    if (
        isinstance(columns, str)
        or not isinstance(columns, Sequence)
        or not all(isinstance(c, str) for c in columns)
    ):
        raise ResultsError(
            f"columns must be a list of column names (e.g. ['winner', 'turns']) or None, "
            f"got {columns!r}"
        )
    return list(columns) or None


def _schema_names(item: _Source) -> list[str]:
    try:
        return list(pq.read_schema(item.path).names)
    except Exception as exc:
        raise ResultsError(damage_message(item.path, exc)) from None


def _check_columns(files: Sequence[_Source], columns: Sequence[str], pool: Any) -> list[list[str]]:
    """The asked columns each file holds; an asked column no file holds is refused.

    Cells of different player counts hold different `place_<s>` columns: a column
    some files lack is read from the others (and is null in the rows of these).
    """
    names = list(pool.map(_schema_names, files))
    known = dict.fromkeys(n for listed in names for n in listed)
    unknown = [c for c in columns if c not in known and c != "cell"]
    if unknown:
        where = files[0].path if len(files) == 1 else f"the {len(files)} files read"
        raise ResultsError(
            f"columns: no column {unknown[0]!r} in {where}; the rows have: {', '.join(known)}"
        )
    return [[c for c in columns if c in listed] or listed[:1] for listed in names]


def _read_many(files: Sequence[_Source], columns: Sequence[str] | None) -> pd.DataFrame:
    def read(item: _Source, wanted: list[str] | None) -> pa.Table:
        try:
            table = pq.read_table(item.path, columns=wanted, page_checksum_verification=True)
        except Exception as exc:
            raise ResultsError(damage_message(item.path, exc)) from None
        # The stamp came with the footer: checking it reads nothing more. Outside a
        # sweep folder only a stamped file is a chunk (others are plain Parquet files).
        info = parse_stamp(table.schema.metadata) if item.expected else None
        if item.expected and (info is not None or "spec_hash" in item.expected):
            problem = stamp_problem(info, item.expected, table.num_rows, item.summary)
            if problem is not None:
                raise ResultsError(_misplaced(item, problem))
        if wanted is not None and columns is not None:
            # A file that holds none of the asked columns still counts its rows.
            table = table.select([c for c in wanted if c in columns])
        return table

    # Many small files: reading them side by side hides per-file latency.
    with ThreadPoolExecutor(max_workers=8) as pool:
        wanted = _check_columns(files, columns, pool) if columns else [None] * len(files)
        tables = list(pool.map(read, files, wanted))
    if all(t.schema.equals(tables[0].schema) for t in tables[1:]):
        df = pa.concat_tables(tables).to_pandas()
    else:
        # Cells with different player counts have different place_<s> columns:
        # missing ones become nulls, in pandas' nullable integer types. An
        # integer column stored narrower in some files (`returned_<s>` is int8
        # when its values fit) is widened.
        table = pa.concat_tables(tables, promote_options="permissive")
        holey = [n for n in table.schema.names if table[n].null_count]
        df = table.drop_columns(holey).to_pandas()
        for name in holey:
            df[name] = table[name].to_pandas(types_mapper=_nullable)
        df = df[table.schema.names]
    cells = [f.cell for f in files]
    if any(c is not None for c in cells):
        ids = list(dict.fromkeys(c or "" for c in cells))
        codes = np.repeat([ids.index(c or "") for c in cells], [len(t) for t in tables])
        df.insert(0, "cell", pd.Categorical.from_codes(codes, categories=ids))
    return df


def _misplaced(item: _Source, problem: str) -> str:
    """The one line for a chunk whose stamp disagrees with its place."""
    if "spec_hash" in item.expected:
        hint = "rerun the sweep's command to recompute it (a sweep recomputes such chunks)"
    else:
        hint = "it was renamed or moved from its sweep folder"
    return f"{item.path} {problem}; {hint}"


def _nullable(dtype: pa.DataType) -> Any:
    return {
        pa.int8(): pd.Int8Dtype(),
        pa.int16(): pd.Int16Dtype(),
        pa.int32(): pd.Int32Dtype(),
        pa.int64(): pd.Int64Dtype(),
        pa.bool_(): pd.BooleanDtype(),
    }.get(dtype)


def _join_cells(df: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """Add name, policies and the varying toggles of each row's cell."""
    toggles = [c for c in cells.columns if c not in CELL_INFO]
    varying = [c for c in toggles if cells[c].astype(str).nunique() > 1]
    wanted = [c for c in ("name", "policies", *varying) if c not in df.columns]
    index = {cell: i for i, cell in enumerate(cells["cell"])}
    positions = np.array([index[c] for c in df["cell"].cat.categories], dtype=np.int64)
    rows = positions[df["cell"].cat.codes.to_numpy()]
    out = df.copy(deep=False)
    for column in wanted:
        out[column] = cells[column].to_numpy()[rows]
    return out
