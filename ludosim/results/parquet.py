"""Writing a run's per-game rows to Parquet: checked path, metadata, atomic rename."""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
from collections.abc import Callable
from pathlib import Path

import pandas as pd

from ludosim.results.failures import ResultsError, reason, write_error
from ludosim.results.folders import has_content
from ludosim.results.schema import META_KEY


def check_output_file(path: str | Path | None, *, overwrite: bool = True) -> Path:
    """The Parquet file `path`, after proving it can be written (before any game is played).

    Refuses an empty path, a folder, and a location whose folder cannot be
    created or written, with one line naming the path; with `overwrite=False`, a
    file that exists too (`simulate --out` without `--force`). Creates missing folders.
    """
    if path is None or str(path).strip() == "":
        raise ResultsError("--out must name a file, e.g. --out runs/app.parquet; got an empty path")
    path = Path(path).expanduser()
    if path.is_dir() or str(path).endswith(os.sep):
        raise ResultsError(f"--out {path} is a folder; name a file, e.g. {path / 'run.parquet'}")
    if not overwrite and (path.exists() or path.is_symlink()):
        raise ResultsError(
            f"--out {path} already exists; name a new file, or add --force to replace it"
        )
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ResultsError(
            f"--out {path}: cannot create its folder {path.parent} ({exc.strerror or exc})"
        ) from None
    try:
        probe_writable(path.with_name(f".{path.name}.{os.getpid()}.probe"))
    except OSError as exc:
        raise ResultsError(
            f"--out {path}: its folder {path.parent} is not writable ({exc.strerror or exc})"
        ) from None
    return path


def check_output_folder(
    path: str | Path | None,
    what: str = "study",
    own: Callable[[Path], bool] | None = None,
) -> Path:
    """The folder `path`, after proving it can be created and written; creates nothing.

    For commands that play first and write a folder of files (`unfold`, `skill`,
    `design`): an empty path, a file, a location that cannot be written, or a folder
    that holds files (`folders.has_content`) and is not an earlier output of the same
    command (`own(folder)`; None: none is) fails at once, with one line naming the
    path, instead of after the games. `what` names the command's output in that line.
    """
    if path is None or str(path).strip() == "":
        raise ResultsError(f"--out must name a folder, e.g. --out runs/study; got {path!r}")
    if not isinstance(path, (str, os.PathLike)):
        raise ResultsError(f"--out must be a str or pathlib.Path, got {type(path).__name__}")
    path = Path(path).expanduser()
    if path.exists() and not path.is_dir():
        raise ResultsError(f"--out {path} is a file; name a folder for the study's files")
    if has_content(path) and not (own is not None and own(path)):
        shown = sorted(p.name for p in path.iterdir() if not p.name.startswith("."))
        raise ResultsError(
            f"--out {path} holds other files ({', '.join(shown[:3])}"
            f"{', ...' if len(shown) > 3 else ''}) and is not an earlier {what} folder; "
            "name a new or empty folder"
        )
    _check_writable_folder(path, path)
    return path


def check_output_target(path: str | Path | None, example: str = "tuned.toml") -> Path:
    """The file `path`, after proving it can be written; creates nothing.

    For commands that play first and write one file at the end (`tune`): a folder, a
    path below a file, or a location that cannot be written fails at once, with one
    line naming the path, instead of after the games.
    """
    if path is None or not isinstance(path, (str, os.PathLike)) or not str(path).strip():
        raise ResultsError(f"--out must name a file, e.g. --out runs/{example}; got {path!r}")
    path = Path(path).expanduser()
    if path.is_dir() or str(path).endswith(os.sep):
        raise ResultsError(f"--out {path} is a folder; name a file, e.g. {path / example}")
    _check_writable_folder(path, path.parent)
    return path


def _check_writable_folder(path: Path, folder: Path) -> None:
    """`folder` (where `path` goes) is a folder that takes files, or can be made in one."""
    existing = folder
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        raise ResultsError(f"--out {path}: {existing} is a file, not a folder")
    try:
        probe_writable(existing / f".probe-{os.getpid()}")
    except OSError as exc:
        raise ResultsError(f"--out {path}: {existing} is not writable ({reason(exc)})") from None


def probe_writable(probe: Path) -> None:
    """Write and remove the empty file `probe`: proves its folder takes files (else OSError).

    Run before any game is played, so a bad output location fails at once.
    """
    probe.write_bytes(b"")
    probe.unlink()


def write_parquet(df: pd.DataFrame, path: str | Path, *, overwrite: bool = True) -> Path:
    """Write a `simulate` result to Parquet (zstd), atomically.

    `df.attrs` (rules, seed, policies, versions) goes into the schema metadata
    under `schema.META_KEY`, where `ludosim.load` finds it again. The file is
    written under a hidden temporary name and renamed when complete, so a
    file at `path` is always whole; a failed write raises `ResultsError` with
    one line naming the file and the cause. With `overwrite=False` a file
    already at `path` is refused (`ResultsError`) and left as it was.
    """
    path = check_output_file(path, overwrite=overwrite)
    try:
        write_frame_atomic(df, path, {META_KEY: json.dumps(df.attrs, default=str).encode()})
    except OSError as exc:
        raise ResultsError(write_error(exc, path)) from None
    return path


def write_frame_atomic(df: pd.DataFrame, path: Path, metadata: dict[bytes, bytes]) -> str:
    """Write `df` as zstd Parquet under a hidden temporary name, fsync, rename; return its sha256.

    The file is built in memory, hashed and written in one go, so the digest is
    of exactly the bytes on disk. Parquet page checksums are written too, so a
    reader can verify pages without the manifest. On any failure (a full disk)
    the temporary file is removed: nothing half-written is left behind.
    """
    import pyarrow as pa
    import pyarrow.parquet as pq

    table = pa.Table.from_pandas(df, preserve_index=False)
    table = table.replace_schema_metadata({**(table.schema.metadata or {}), **metadata})
    buffer = io.BytesIO()
    pq.write_table(table, buffer, compression="zstd", write_page_checksum=True)
    data = buffer.getbuffer()
    write_bytes_atomic(path, data)
    return hashlib.sha256(data).hexdigest()


def write_bytes_atomic(path: Path, data: bytes | memoryview) -> None:
    """Write `data` to a hidden temporary beside `path`, fsync, and rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            # The rename must never publish a file whose bytes are still only in flight.
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            tmp.unlink()
        if isinstance(exc, OSError) and exc.errno is not None:
            # Name the file being written, not its temporary (which is gone now).
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
