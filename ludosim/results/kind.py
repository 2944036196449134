"""What a results path holds, said once: `describe(path) -> ResultsKind`.

Readers ask it instead of guessing from columns. It reads metadata only
(manifest.json, a Parquet footer), never rows:

- `holds`: `sweep` (a sweep folder), `part` (its `rows/`, one cell's partition
  or one chunk), `file` (one Parquet file, as `simulate --out` writes) or
  `files` (a folder of such files);
- `summary_only`: per-chunk totals (`ludosim.results.summary_to_frame`) rather
  than per-game rows;
- for a sweep and a part of one, its folder (`root`) and `manifest`, and what
  the sweep recorded of itself: the command that reproduces it (`command`),
  its spec as a sweep file (`spec_toml`) and, with a precision target, how
  each cell stands (`precision`, `precision_status`);
- for a single file, the run description `simulate` stored in its metadata
  (`run`: rules, seed, policies, games, versions).
"""

from __future__ import annotations

import json
import shlex
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from ludosim.results import paths, schema
from ludosim.results.failures import ResultsError
from ludosim.results.reader import load_manifest, results_path, sweep_root

if TYPE_CHECKING:
    import pandas as pd

Holds = Literal["sweep", "part", "file", "files"]

# Columns of `precision_status`.
PRECISION_COLUMNS = (
    "cell", "name", "target", "pilot", "planned", "games", "estimate", "half_width",
    "capped", "met",
)  # fmt: skip


@dataclass(frozen=True)
class Precision:
    """A sweep's precision target (`0.25pp`: `value` 0.25, `unit` pp, `measure`
    first_player_advantage) and, per cell, what its games achieve (`cells`:
    `PRECISION_COLUMNS`)."""

    target: str
    value: float
    unit: str
    measure: str
    cells: pd.DataFrame


@dataclass(frozen=True)
class ResultsKind:
    """What a results path holds, as `describe` finds it from its metadata."""

    path: Path
    holds: Holds
    summary_only: bool
    root: Path | None = None  # the sweep folder of a sweep or a part of one
    manifest: dict[str, Any] | None = None
    run: dict[str, Any] = field(default_factory=dict)  # a single file's run description

    @property
    def sweep(self) -> bool:
        """The path is a sweep folder or a part of one (`root` and `manifest` are set)."""
        return self.root is not None

    @property
    def command(self) -> str | None:
        """`ludosim sweep ... --out ROOT`: the command line the sweep recorded, which
        rebuilds its spec and resumes this folder; None when it recorded none (a folder
        written before sweeps recorded it, or a spec only a sweep file can say)."""
        words = (self.manifest or {}).get("command")
        if not words or self.root is None:
            return None
        return f"{words} --out {shlex.quote(str(self.root))}"

    @property
    def spec_toml(self) -> str | None:
        """The sweep's spec as a sweep file (`ludosim sweep FILE` rebuilds it), as the
        sweep recorded it; None for a folder written before sweeps recorded it."""
        text = (self.manifest or {}).get("spec_toml")
        return text if isinstance(text, str) else None

    @property
    def precision(self) -> Precision | None:
        """The precision target and per-cell status of a sweep that had one, once its
        pilots are done; None otherwise."""
        section = (self.manifest or {}).get("precision")
        if not section:
            return None
        try:
            value, unit = float(section["half_width"]), str(section["unit"])
            target, measure = str(section["target"]), str(section["measure"])
        except (KeyError, TypeError, ValueError):
            return None  # a section this version cannot read
        return Precision(target, value, unit, measure, _precision_frame(section))


def describe(path: str | Path) -> ResultsKind:
    """What `path` holds: a sweep folder, a part of one, one file or a folder of files,
    of per-game rows or of summaries. `ResultsError` for a path that holds no results."""
    path = results_path(path)
    root = sweep_root(path)
    if root is not None:
        manifest = load_manifest(root)
        holds: Holds = "sweep" if root == path else "part"
        summary = bool(manifest.get("summary_only"))
        return ResultsKind(path, holds, summary, root, manifest)
    if path.is_file():
        meta = _footer(path)
        return ResultsKind(path, "file", _summary_schema(meta), run=_run(path, meta))
    files = [p for p in sorted(path.rglob("*.parquet")) if not p.name.startswith(".")]
    if not files:
        raise ResultsError(f"{path} holds no result files (*.parquet)")
    return ResultsKind(path, "files", _summary_schema(_footer(files[0])))


def precision_status(path: str | Path) -> pd.DataFrame:
    """Per cell of a sweep with a precision target: the target and what its games achieve.

    Columns: cell, name, target (e.g. `0.25pp`), pilot, planned (games the
    two-stage rule asks for, at most max_games), games (played), estimate (the
    first-player advantage in pp, or the mean turns), half_width (of its 95%
    interval, in the target's unit, from the games played), capped (the target
    needs more than max_games) and met (every planned game played and not
    capped). Empty (with these columns) for a sweep without a target, or one
    whose pilots are not finished yet; `ResultsError` for a path that is not a sweep.
    """
    import pandas as pd

    kind = describe(path)
    if not kind.sweep:
        raise ResultsError(f"{kind.path} is not a sweep folder (no {paths.MANIFEST})")
    precision = kind.precision
    return precision.cells if precision else pd.DataFrame(columns=list(PRECISION_COLUMNS))


# ------------------------------------------------------------------ helpers
def _precision_frame(section: dict[str, Any]) -> pd.DataFrame:
    import pandas as pd

    rows = [
        {"cell": cell, "target": section["target"], **entry}
        for cell, entry in (section.get("cells") or {}).items()
    ]
    frame = pd.DataFrame(rows, columns=list(PRECISION_COLUMNS))
    return frame.astype({"estimate": float, "half_width": float})  # null -> NaN


def _footer(path: Path) -> Any:
    import pyarrow.parquet as pq

    try:
        return pq.read_metadata(path)
    except Exception as exc:
        raise ResultsError(f"{path} is not a readable Parquet file: {exc}") from None


def _summary_schema(meta: Any) -> bool:
    """Whether a file's columns are a summary's (`schema.summary_layout`), from its footer."""
    return schema.summary_layout(meta.schema.to_arrow_schema().names) is not None


def _run(path: Path, meta: Any) -> dict[str, Any]:
    text = (meta.metadata or {}).get(schema.META_KEY)
    try:
        run = json.loads(text) if text else {}
    except ValueError:
        raise ResultsError(f"{path}: its run description is not readable JSON") from None
    return run if isinstance(run, dict) else {}
