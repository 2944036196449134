"""The error of the results layer, and one-line causes of failed reads and writes."""

from __future__ import annotations

import errno
from pathlib import Path

from ludosim.rules.errors import LudosimError


class ResultsError(LudosimError, ValueError):
    """A path that holds no readable results, or results that do not fit their schema."""


_CAUSES = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is exceeded",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "operation not permitted",
    errno.EISDIR: "it is a directory",
    errno.EEXIST: "a file of that name is in the way",
    errno.ENOTDIR: "a part of the path is a file, not a folder",
    errno.ENOENT: "it no longer exists (was the folder moved or deleted?)",
}


def reason(exc: OSError) -> str:
    """The cause of a failed write in a few words (`the disk is full`)."""
    return _CAUSES.get(exc.errno or 0) or exc.strerror or type(exc).__name__


def write_error(exc: OSError, fallback: Path) -> str:
    """One line naming the file that could not be written and why."""
    # A failed rename names its target second: that is the file meant.
    path = exc.filename2 or exc.filename or fallback
    return f"cannot write {path}: {reason(exc)}"


def damage_message(path: Path, exc: BaseException) -> str:
    """One line for a result file that cannot be read: which file, and what to do."""
    if isinstance(exc, OSError) and exc.errno is not None:
        return f"cannot read {path}: {reason(exc)}"
    detail = " ".join(str(exc).split())[:160] or type(exc).__name__
    return (
        f"{path} is damaged ({detail}); rerun the command that wrote it "
        "(a sweep recomputes damaged chunks)"
    )
