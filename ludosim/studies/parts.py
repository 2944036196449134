"""The finished parts of a long study, kept as it plays, so a stopped study resumes.

`ludosim skill` plays its rule sets one after another, `ludosim unfold` its race
checks and rule sets. Each part is saved as soon as it is finished, into the hidden
folder `.parts/` of the study's output folder (`Parts.save`: one file per part,
written under a temporary name and then renamed into place, so a stop never leaves
half a part). A part's file is named by the study's key (`study_key`: a hash of
everything that defines the study, the program's version among it) and by the
part's own name, so a changed study never reuses a part of another: such files are
dropped when the changed study starts (`Parts.resume`). Rerunning the same study
into the same folder loads the parts found there instead of playing them again, and
gives the same tables as a run never stopped: a part's games depend on the study
and the part alone. The folder goes once the study's page is written
(`Parts.remove`).

Ctrl-C, or SIGTERM while `stop_on_sigterm` holds (`Terminated`), stops a study as it
stops a sweep: the part being played is lost, the finished ones are kept, and
`StudyStopped` says how many.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import os
import pickle
import shutil
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ludosim._version import __version__
from ludosim.results.failures import ResultsError, write_error
from ludosim.rules.options import RuleSet
from ludosim.run.stopping import sigterm_raises

# The hidden folder of an output folder that holds its study's finished parts.
PARTS = ".parts"
_SUFFIX = ".pkl"
_log = logging.getLogger("ludosim.studies")


class Terminated(KeyboardInterrupt):
    """SIGTERM arrived while a study played (`stop_on_sigterm`): it stops as on Ctrl-C."""


class StudyStopped(KeyboardInterrupt):
    """Ctrl-C or SIGTERM stopped a study; `kept` of its `total` parts are saved in `folder`."""

    def __init__(self, kept: int, total: int, folder: Path, terminated: bool = False) -> None:
        super().__init__(kept, total, str(folder), terminated)
        self.kept = kept
        self.total = total
        self.folder = folder
        self.terminated = terminated

    def text(self) -> str:
        """`interrupted: kept 3 of 9 parts played in runs/skill; rerun the same command to
        resume` (`terminated (SIGTERM): ...` after SIGTERM)."""
        head = "terminated (SIGTERM)" if self.terminated else "interrupted"
        parts = f"{self.kept} of {self.total} parts" if self.total else "no part"
        return f"{head}: kept {parts} played in {self.folder}; rerun the same command to resume"


def stop_on_sigterm() -> contextlib.AbstractContextManager[None]:
    """SIGTERM raised as `Terminated` inside the block (`ludosim.run.stopping`)."""
    return sigterm_raises(Terminated)


def study_key(kind: str, study: Any) -> str:
    """A hash of everything that defines `study` (a dataclass) as a study of `kind`: every
    field compared (not the file it was read from), each rule set with the hash of its
    rules (a preset that changes changes the key), and the program's version."""
    fields = [
        f"{f.name}={_canonical(getattr(study, f.name))}"
        for f in dataclasses.fields(study)
        if f.compare
    ]
    text = "\n".join([kind, __version__, *fields])
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _canonical(value: Any) -> str:
    if isinstance(value, RuleSet):
        return f"{value!r}:{value.rules().hash()}"
    if isinstance(value, (tuple, list)):
        return "(" + ", ".join(_canonical(v) for v in value) + ")"
    return repr(value)


class Parts:
    """The saved parts of one study (its `key`) in `folder/.parts`; with no folder
    (a study played without an output folder) nothing is saved or found.

    `names` are the study's parts in the order played, set by `resume`; `kept` counts
    those saved in the folder now (found there or saved by this run).
    """

    def __init__(self, folder: Path | None, key: str = "") -> None:
        self.root = None if folder is None else Path(folder) / PARTS
        self.key = key
        self.names: list[str] = []
        self._kept: set[str] = set()

    @property
    def kept(self) -> int:
        return len(self._kept)

    def path(self, name: str) -> Path:
        """The file of the part `name`: the study's key, then a hash of the part's name."""
        assert self.root is not None
        digest = hashlib.sha256(f"{self.key}\n{name}".encode()).hexdigest()[:16]
        return self.root / f"{self.key[:16]}-{digest}{_SUFFIX}"

    def resume(self, names: Sequence[str]) -> dict[str, Any]:
        """The parts among `names` that an earlier run of this study saved, by name.

        Files of another study (another key) and half-written ones are removed first.
        When some part is found, one line is logged (`ludosim.studies`, a warning, so
        it reaches stderr): `resuming: 3 of 9 parts already played`.
        """
        self.names = list(names)
        self._kept = set()
        if self.root is None or not self.root.is_dir():
            return {}
        ours = f"{self.key[:16]}-"
        for item in self.root.iterdir():
            if not (item.name.startswith(ours) and item.name.endswith(_SUFFIX)):
                with contextlib.suppress(OSError):
                    item.unlink()
        found = {}
        for name in self.names:
            value = self._load(name)
            if value is not None:
                found[name] = value[0]
                self._kept.add(name)
        if found:
            _log.warning(f"resuming: {len(found)} of {len(self.names)} parts already played")
        return found

    def pending(self, names: Sequence[str], items: Sequence[Any]) -> tuple[dict[str, Any], list]:
        """`resume(names)`, and the (name, item) pairs of `items` (one per name, in order)
        whose parts are still to play."""
        saved = self.resume(names)
        return saved, [(n, item) for n, item in zip(names, items, strict=True) if n not in saved]

    def _load(self, name: str) -> tuple[Any] | None:
        """(the part,) when its file holds this study's part `name`; None when it is
        missing or cannot be read (it is played again)."""
        path = self.path(name)
        if not path.is_file():
            return None
        try:
            with path.open("rb") as handle:
                record = pickle.load(handle)
        except Exception:  # damaged or of another program: played again
            return None
        if not isinstance(record, dict) or (record.get("key"), record.get("part")) != (
            self.key,
            name,
        ):
            return None
        return (record["value"],)

    def save(self, name: str, value: Any) -> None:
        """Save the finished part `name` (a temporary file, then renamed into place); a
        write that fails is one `ResultsError` naming the file and the cause."""
        if self.root is None:
            return
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.path(name)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        record = {"key": self.key, "part": name, "value": value}
        try:
            with temporary.open("wb") as handle:
                pickle.dump(record, handle, protocol=pickle.HIGHEST_PROTOCOL)
                handle.flush()
                os.fsync(handle.fileno())
            os.replace(temporary, path)
        except BaseException as exc:
            with contextlib.suppress(OSError):
                temporary.unlink()
            if isinstance(exc, OSError):
                # One line, as a study's failed write (a full disk); the parts before stay.
                raise ResultsError(
                    f"{write_error(exc, path)}; kept {self.kept} of {len(self.names)} parts "
                    f"played in {self.root.parent}; fix the cause and rerun to resume"
                ) from None
            raise
        self._kept.add(name)

    def remove(self) -> None:
        """Remove the parts folder: the study is written."""
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)
