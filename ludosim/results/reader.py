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

import json
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from ludosim.results import layout
from ludosim.results.errors import ResultsError, damage_message
from ludosim.results.schema import META_KEY
from ludosim.results.summary import Summary, summary_from_frame

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
    path = _path(path)
    if path.is_file():
        df = _load_file(path, columns)
        root = _sweep_root(path)
    else:
        root = _sweep_root(path)
        files = _folder_files(path, root)
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
            df.attrs = _run_attrs(files[0][1])
    if cells:
        if root is None or "cell" not in df.columns:
            raise ResultsError(f"{path} is not part of a sweep folder; cells=True needs one")
        df = _join_cells(df, load_cells(root))
    return df


def load_cells(path: str | Path) -> pd.DataFrame:
    """cells.parquet of a sweep folder: one row per cell with every toggle."""
    root = _sweep_root(_path(path))
    if root is None:
        raise ResultsError(f"{path} is not a sweep folder (no {layout.MANIFEST})")
    try:
        return pd.read_parquet(root / layout.CELLS)
    except (OSError, ValueError) as exc:
        raise ResultsError(f"cannot read {root / layout.CELLS}: {exc}") from None


def load_manifest(path: str | Path) -> dict[str, Any]:
    """manifest.json of a sweep folder."""
    root = _sweep_root(_path(path))
    if root is None:
        raise ResultsError(f"{path} is not a sweep folder (no {layout.MANIFEST})")
    try:
        return json.loads((root / layout.MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ResultsError(f"cannot read {root / layout.MANIFEST}: {exc}") from None


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
def _path(path: Any) -> Path:
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


def _sweep_root(path: Path) -> Path | None:
    """The sweep folder `path` is, or lies in (a chunk is three levels down)."""
    start = path if path.is_dir() else path.parent
    for candidate in [start, *list(start.parents)[:3]]:
        if (candidate / layout.MANIFEST).is_file():
            return candidate
    return None


def _folder_files(path: Path, root: Path | None) -> list[tuple[str | None, Path]]:
    """(cell, file) to read for a folder, in cell then game (or name) order."""
    if root is not None and root == path:
        return _sweep_files(root)
    if root is not None:
        return list(layout.iter_chunk_files(path))
    # A folder of `simulate --out` files (or of anything written as Parquet).
    return [
        (None, p)
        for p in sorted(path.rglob("*.parquet"))
        if not p.name.startswith(".") and p.name != layout.CELLS
    ]


def _sweep_files(root: Path) -> list[tuple[str | None, Path]]:
    """(cell, file) of every complete chunk of a sweep; warns when the sweep is not complete.

    The expected chunks follow from each cell's games, the chunk size and the
    precision pilot, so they are never listed in full.
    """
    manifest = load_manifest(root)
    summary_only = bool(manifest.get("summary_only"))
    spec = manifest.get("spec") or {}
    chunk_size = int(manifest.get("chunk_size") or spec.get("chunk_size"))
    pilot = int(spec.get("pilot") or 0) if spec.get("precision") is not None else 0
    files, missing = [], 0
    for cell in manifest["cells"]:
        folder = layout.partition_dir(root, summary_only, cell["id"])
        present = {p.name for p in folder.glob("chunk-*.parquet")} if folder.is_dir() else set()
        for start, _ in layout.chunk_ranges(int(cell["games"]), chunk_size, pilot):
            name = layout.chunk_name(start)
            if name in present:
                files.append((cell["id"], folder / name))
            else:
                missing += 1
    if missing:
        warnings.warn(
            f"{root}: the sweep is not complete ({missing} chunks missing); "
            "rerun its command to finish it",
            UserWarning,
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


def _load_file(path: Path, columns: Sequence[str] | None) -> pd.DataFrame:
    meta = _metadata(path)
    stamp = meta.get(layout.CHUNK_META_KEY)
    cell = json.loads(stamp)["cell"] if stamp else None
    df = _read_many([(cell, path)], columns)
    text = meta.get(META_KEY)
    df.attrs = json.loads(text) if text else {}
    return df


def _read_many(
    files: Sequence[tuple[str | None, Path]], columns: Sequence[str] | None
) -> pd.DataFrame:
    def read(item: tuple[str | None, Path]) -> pa.Table:
        try:
            return pq.read_table(
                item[1], columns=list(columns) if columns else None, page_checksum_verification=True
            )
        except Exception as exc:
            raise ResultsError(damage_message(item[1], exc)) from None

    # Many small files: reading them side by side hides per-file latency.
    with ThreadPoolExecutor(max_workers=8) as pool:
        tables = list(pool.map(read, files))
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
    cells = [c for c, _ in files]
    if any(c is not None for c in cells):
        ids = list(dict.fromkeys(c or "" for c in cells))
        codes = np.repeat([ids.index(c or "") for c in cells], [len(t) for t in tables])
        df.insert(0, "cell", pd.Categorical.from_codes(codes, categories=ids))
    return df


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
