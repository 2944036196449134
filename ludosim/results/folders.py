"""Folders that commands write their files into: one writer at a time, left as found on failure.

A sweep folder, a report's folder and a study's folder are each written under
their lock (`OUT/.lock`, `flock`): a second writer is refused with one line.
`output_folder` is how pages and studies write: what a failed block added is
removed again, so a failed command never leaves half a page, nor costs what was
there before.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import IO

from ludosim.results.failures import ResultsError, reason

LOCK = ".lock"


def lock_folder(root: Path, what: str) -> IO[str]:
    """The open lock file of `root`, holding its exclusive lock; close it to release.

    `ResultsError` with one line when the lock cannot be taken: `root` is being
    written by another `what` (a "running sweep", a "report"), or cannot be locked.
    """
    try:
        handle = open(root / LOCK, "a+")  # the caller closes it
    except OSError as exc:
        raise ResultsError(
            f"cannot lock {root / LOCK}: {reason(exc)}; choose another --out"
        ) from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.close()
        raise ResultsError(
            f"{root} is being written by another {what}; wait for it or choose another --out"
        ) from None
    return handle


@contextlib.contextmanager
def locked(root: Path, what: str) -> Iterator[None]:
    """Hold the lock of a folder that is not a sweep (a report folder) while writing it."""
    handle = lock_folder(root, what)
    try:
        yield
    finally:
        handle.close()


def has_content(root: Path) -> bool:
    """Whether the folder `root` holds anything: hidden entries do not count (its lock, a
    probe, a page being staged), so a command killed before writing its first file does
    not make its folder unusable. A sweep, a study and a design each refuse such a folder
    for `--out` unless it is an earlier output of their own."""
    return root.is_dir() and any(not p.name.startswith(".") for p in root.iterdir())


class FolderNotCreated(OSError):
    """The folder `output_folder` was asked for cannot be created (a file in the way, no
    permission): said apart from a failed write inside it."""


@contextlib.contextmanager
def output_folder(root: Path, what: str | None = None) -> Iterator[Path]:
    """Write the files of a page or study into `root` inside the block; a failed block
    leaves the folder as it found it.

    Missing folders up to `root` are created (`FolderNotCreated` when they cannot be). When
    the block fails, what it added is removed again: new entries of `root`, then
    the folders this call created. Nothing that was there before is touched, so a
    failed command never costs earlier results. With `what` the block runs under
    the folder's lock (`locked`), and the cleanup happens only while holding it:
    a writer refused by the lock never removes the files of the one holding it.
    """
    try:
        made = _make_folders(root)
    except OSError as exc:
        raise FolderNotCreated(exc.errno, exc.strerror, exc.filename) from None
    try:
        lock_was_there = (root / LOCK).exists()
        with locked(root, what) if what else contextlib.nullcontext():
            before = {p.name for p in root.iterdir()}
            if not lock_was_there:
                before.discard(LOCK)  # this call's lock goes too (unlinked while held)
            try:
                yield root
            except BaseException:
                _remove_new(root, before)
                raise
    except BaseException:
        for folder in reversed(made):
            with contextlib.suppress(OSError):  # not empty: another writer's files are there
                folder.rmdir()
        raise


def _make_folders(root: Path) -> list[Path]:
    """Create `root` and its missing parents; the folders this call created, outermost first.

    Each is made by its own `mkdir`, so a folder another process creates at the
    same moment is not counted as this call's (and not removed by it).
    """
    missing = []
    folder = root
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    made = []
    for folder in reversed(missing):
        try:
            folder.mkdir()
        except FileExistsError:
            continue
        made.append(folder)
    if not root.is_dir():
        raise FileExistsError(errno.EEXIST, "not a folder", str(root))
    return made


def _remove_new(root: Path, before: set[str]) -> None:
    for item in root.iterdir():
        if item.name in before:
            continue
        with contextlib.suppress(OSError):
            if item.is_dir() and not item.is_symlink():
                shutil.rmtree(item)
            else:
                item.unlink()
