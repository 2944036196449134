"""Writing a run's per-game rows to Parquet: checked path, metadata, atomic rename."""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pandas as pd

from ludosim.results.errors import ResultsError
from ludosim.results.schema import META_KEY


def check_output_file(path: str | Path | None) -> Path:
    """The Parquet file `path`, after proving it can be written (before any game is played).

    Refuses an empty path, a folder, and a location whose folder cannot be
    created or written, with one line naming the path. Creates missing folders.
    """
    if path is None or str(path).strip() == "":
        raise ResultsError("--out must name a file, e.g. --out runs/app.parquet; got an empty path")
    path = Path(path).expanduser()
    if path.is_dir() or str(path).endswith(os.sep):
        raise ResultsError(f"--out {path} is a folder; name a file, e.g. {path / 'run.parquet'}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ResultsError(
            f"--out {path}: cannot create its folder {path.parent} ({exc.strerror or exc})"
        ) from None
    probe = path.with_name(f".{path.name}.{os.getpid()}.probe")
    try:
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ResultsError(
            f"--out {path}: its folder {path.parent} is not writable ({exc.strerror or exc})"
        ) from None
    return path


def write_parquet(df: pd.DataFrame, path: str | Path) -> Path:
    """Write a `simulate` result to Parquet (zstd), atomically.

    `df.attrs` (rules, seed, policies, versions) goes into the schema metadata
    under `schema.META_KEY`, where `ludosim.load` finds it again. The file is
    written under a hidden temporary name and renamed when complete, so a
    file at `path` is always whole.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    path = check_output_file(path)
    table = pa.Table.from_pandas(df, preserve_index=False)
    meta = dict(table.schema.metadata or {})
    meta[META_KEY] = json.dumps(df.attrs, default=str).encode()
    table = table.replace_schema_metadata(meta)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            pq.write_table(table, handle, compression="zstd")
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError):
            raise ResultsError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
    return path
