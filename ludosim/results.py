"""Reading results back: a sweep folder, part of one, or a single Parquet file.

`load` is what `ludosim.load` should point to: it reads the per-game rows of
a whole sweep (every complete chunk, in cell then game order) into one
DataFrame with a categorical `cell` column, and with `cells=True` also the
cell's name, policies and every toggle that differs between the cells. A
single file is read as-is (a sweep chunk also gets its `cell`).

A `summary_only` sweep keeps one row of additive totals per chunk
(`summary_to_frame`); `load` returns those rows and `summaries` adds them up
into one `ludosim.simulate.Summary` per cell.
"""

from __future__ import annotations

import json
import warnings
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludosim.errors import LudosimError
from ludosim.sweep import store

if TYPE_CHECKING:
    import pandas as pd
    import pyarrow as pa

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


_SIMULATE_META_KEY = b"ludosim"


class ResultsError(LudosimError, ValueError):
    """A path that holds no readable results."""


def load(
    path: str | Path, cells: bool = False, *, columns: Sequence[str] | None = None
) -> pd.DataFrame:
    """All rows under `path` as one DataFrame.

    `path` may be a sweep folder (with manifest.json), a folder of chunk files
    (`rows/` or `rows/cell=<id>/`), or one Parquet file (`simulate --out`, or
    one chunk). Rows of a sweep get a categorical `cell` column; `cells=True`
    adds `name`, `policies` and the toggles that vary between cells. An
    unfinished sweep loads what is complete, with a `UserWarning`.
    """
    path = Path(path)
    if not path.exists():
        raise ResultsError(f"{path} does not exist")
    if path.is_file():
        df = _load_file(path, columns)
        root = _sweep_root(path)
    else:
        root = _sweep_root(path)
        files = _sweep_files(path, root)
        if not files:
            raise ResultsError(f"{path} holds no result files (chunk-*.parquet)")
        df = _read_many(files, columns)
        if root is not None:
            # Versions and spec travel with the rows, so notebooks can refuse to mix sweeps.
            manifest = load_manifest(root)
            df.attrs = {
                k: manifest.get(k)
                for k in ("spec_hash", "semantics_version", "ludosim_version", "spec")
            }
    if cells:
        if root is None or "cell" not in df.columns:
            raise ResultsError(f"{path} is not part of a sweep folder; cells=True needs one")
        df = _join_cells(df, load_cells(root))
    return df


def load_cells(path: str | Path) -> pd.DataFrame:
    """cells.parquet of a sweep folder: one row per cell with every toggle."""
    import pandas as pd

    root = _sweep_root(Path(path))
    if root is None:
        raise ResultsError(f"{path} is not a sweep folder (no {store.MANIFEST})")
    try:
        return pd.read_parquet(root / store.CELLS)
    except (OSError, ValueError) as exc:
        raise ResultsError(f"cannot read {root / store.CELLS}: {exc}") from None


def load_manifest(path: str | Path) -> dict[str, Any]:
    """manifest.json of a sweep folder."""
    root = _sweep_root(Path(path))
    if root is None:
        raise ResultsError(f"{path} is not a sweep folder (no {store.MANIFEST})")
    return json.loads((root / store.MANIFEST).read_text(encoding="utf-8"))


def summaries(path: str | Path) -> dict[str, Any]:
    """`{cell id: Summary}` of a `summary_only` sweep: the sum of its chunks' totals."""
    df = load(path)
    if "hist_turns" not in df.columns:
        raise ResultsError(f"{path} holds per-game rows, not summaries; summarise the rows instead")
    return {
        str(cell): summary_from_frame(rows)
        for cell, rows in df.groupby("cell", observed=True, sort=False)
    }


# Per-chunk summary rows: every field of `Summary` is a count or a sum, so the
# summary of a cell is the column-wise sum of its chunks' rows.
def summary_to_frame(summary: Any) -> pd.DataFrame:
    """One-row DataFrame of a `ludosim.simulate.Summary` (histograms as list columns)."""
    import numpy as np
    import pandas as pd

    row: dict[str, Any] = {
        "games": summary.games,
        "truncated": summary.truncated,
        "no_winner": summary.no_winner,
    }
    for name in summary.sums:
        row[f"{name}_sum"] = summary.sums[name]
        row[f"{name}_sumsq"] = summary.sums_sq[name]
    for seat, values in summary.seats.iterrows():
        for column, value in values.items():
            row[f"seat{seat}_{column}"] = int(value)
    for position, value in summary.wins_by_position.items():
        row[f"position{position}_wins"] = int(value)
    for seat, values in summary.places.iterrows():
        for place, value in values.items():
            row[f"seat{seat}_place{place}"] = int(value)
    frame = pd.DataFrame([row]).astype("int64")
    for column in summary.hist.columns:
        frame[f"hist_{column}"] = [np.asarray(summary.hist[column], dtype=np.int64)]
    return frame


def summary_from_frame(rows: pd.DataFrame) -> Any:
    """The `Summary` of the sum of `summary_to_frame` rows (chunks of one cell)."""
    import re

    import numpy as np
    import pandas as pd

    from ludosim.simulate import Summary

    skip = {"cell", "start", "stop"}
    present = [c for c in rows.columns if c not in skip and rows[c].notna().all()]
    total = {c: int(rows[c].sum()) for c in present if not c.startswith("hist_")}
    players = sum(1 for c in total if re.fullmatch(r"position\d+_wins", c))
    seat_index = pd.Index(range(players), name="seat")
    seat_columns = list(
        dict.fromkeys(m.group(1) for c in total if (m := re.fullmatch(r"seat0_(?!place\d)(.+)", c)))
    )
    seats = pd.DataFrame(
        {k: [total[f"seat{s}_{k}"] for s in range(players)] for k in seat_columns},
        index=seat_index,
    )
    places = pd.DataFrame(
        [[total[f"seat{s}_place{q}"] for q in range(1, players + 1)] for s in range(players)],
        index=seat_index,
        columns=pd.Index(range(1, players + 1), name="place"),
    )
    names = [c[:-4] for c in total if c.endswith("_sum") and not c.startswith("seat")]
    hist = pd.DataFrame(
        {
            c[5:]: np.sum(np.stack(rows[c].to_list()), axis=0)
            for c in present
            if c.startswith("hist_")
        }
    ).rename_axis("value")
    return Summary(
        games=total["games"],
        truncated=total["truncated"],
        no_winner=total["no_winner"],
        sums={k: total[f"{k}_sum"] for k in names},
        sums_sq={k: total[f"{k}_sumsq"] for k in names},
        seats=seats,
        wins_by_position=pd.Series(
            [total[f"position{p}_wins"] for p in range(players)],
            index=pd.Index(range(players), name="position"),
        ),
        places=places,
        hist=hist,
    )


# ------------------------------------------------------------------ helpers
def _sweep_root(path: Path) -> Path | None:
    """The sweep folder `path` is, or lies in (a chunk is three levels down)."""
    start = path if path.is_dir() else path.parent
    for candidate in [start, *list(start.parents)[:3]]:
        if (candidate / store.MANIFEST).is_file():
            return candidate
    return None


def _sweep_files(path: Path, root: Path | None) -> list[tuple[str | None, Path]]:
    """(cell, file) in cell then game order; warns when a sweep is not complete."""
    if root is not None and root == path:
        manifest = load_manifest(root)
        sub = store.SUMMARY if manifest.get("summary_only") else store.ROWS
        files, missing = [], 0
        for cell in manifest["cells"]:
            for start in sorted(manifest["chunks"][cell["id"]], key=int):
                file = root / sub / f"cell={cell['id']}" / store.chunk_name(int(start))
                if file.is_file():
                    files.append((cell["id"], file))
                else:
                    missing += 1
        if missing:
            warnings.warn(
                f"{root}: the sweep is not complete ({missing} chunks missing); "
                "rerun its command to finish it",
                UserWarning,
                stacklevel=3,
            )
        return files
    return list(store.iter_chunk_files(path))


def _load_file(path: Path, columns: Sequence[str] | None) -> pd.DataFrame:
    import pyarrow.parquet as pq

    try:
        meta = pq.read_metadata(path)
    except Exception as exc:
        raise ResultsError(f"{path} is not a readable Parquet file: {exc}") from None
    stamp = (meta.metadata or {}).get(store.CHUNK_META_KEY)
    cell = json.loads(stamp)["cell"] if stamp else None
    df = _read_many([(cell, path)], columns)
    # `simulate --out` files carry their rules, seed and versions (ludosim.simulate.write_parquet).
    attrs = (meta.metadata or {}).get(_SIMULATE_META_KEY)
    if attrs:
        df.attrs = json.loads(attrs)
    return df


def _read_many(
    files: Sequence[tuple[str | None, Path]], columns: Sequence[str] | None
) -> pd.DataFrame:
    import numpy as np
    import pandas as pd
    import pyarrow as pa
    import pyarrow.parquet as pq

    def read(item: tuple[str | None, Path]) -> pa.Table:
        try:
            return pq.read_table(
                item[1], columns=list(columns) if columns else None, page_checksum_verification=True
            )
        except Exception as exc:
            raise ResultsError(store.damage_message(item[1], exc)) from None

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
    import pandas as pd
    import pyarrow as pa

    return {
        pa.int8(): pd.Int8Dtype(),
        pa.int16(): pd.Int16Dtype(),
        pa.int32(): pd.Int32Dtype(),
        pa.int64(): pd.Int64Dtype(),
        pa.bool_(): pd.BooleanDtype(),
    }.get(dtype)


def _join_cells(df: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """Add name, policies and the varying toggles of each row's cell."""
    import numpy as np

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
