"""Reading a results path for the sweep page: a sweep folder (its cells, design,
command and sweep file) or Parquet files (one cell described by its metadata)."""

from __future__ import annotations

import shlex
import warnings
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ludosim.report import analysis
from ludosim.report.analysis import without_cells
from ludosim.report.sweeppage.pagedesign import page_design
from ludosim.report.sweeppage.sweepresults import _Results
from ludosim.results import IncompleteSweep, ResultsError, ResultsKind, describe, load, load_cells
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.options import options_of, toggle_row
from ludosim.rules.policies import format_policies, resolve_policies
from ludosim.run.simulate import simulate_command

SPEC_FILE = "sweep.toml"


def cell_labels(cells: pd.DataFrame) -> dict[str, str]:
    """cell id -> its label in the command line's spelling, unique within the table.

    Labels are the cells' names (`six_limit=0 finish=bounce`, a variant's name) with
    values as `--set` takes them back: `true`/`false`, and an empty set as `{}`.
    """
    names = analysis.describe_cells(cells)
    labels = {str(c): str(n) for c, n in names.items()}
    counts = pd.Series(list(labels.values())).value_counts()
    return {c: f"{n} ({c})" if counts[n] > 1 else n for c, n in labels.items()}


# -------------------------------------------------------------------- reading
def _read(path: Path, out: Path, stage: Path) -> _Results:
    kind = describe(path)
    if kind.sweep:
        return _read_sweep(kind, out, stage)
    return _read_runs(kind)


def _read_sweep(kind: ResultsKind, out: Path, stage: Path) -> _Results:
    """A sweep folder or a part of it: the cells table, the design, and the command
    and sweep file the sweep recorded."""
    # Summaries are added up per cell as they are; rows get each cell's labels. A page of
    # part of the games would state fewer games than the sweep has: it waits for them.
    with warnings.catch_warnings():
        warnings.simplefilter("error", IncompleteSweep)
        try:
            df = load(kind.path) if kind.summary_only else load(kind.path, cells=True)
        except IncompleteSweep as unfinished:
            raise ResultsError(f"{unfinished}, then report it") from None
    cells = load_cells(kind.path)
    present = {str(c) for c in df["cell"].unique()}
    cells = cells[cells["cell"].astype(str).isin(present)].reset_index(drop=True)
    design = page_design(cells)
    toml = kind.spec_toml
    if toml is not None:
        (stage / SPEC_FILE).write_text(
            "# Written by ludosim report from the sweep's manifest.json\n" + toml,
            encoding="utf-8",
        )
    if kind.command is not None:
        command = kind.command
    elif toml is not None:
        command = (
            f"ludosim sweep {shlex.quote(str(out / SPEC_FILE))} --out {shlex.quote(str(kind.root))}"
        )
    else:
        command = NO_SWEEP_COMMAND
    kept = design.cells
    return _Results(kind, without_cells(df, design.merged), kept, command, cell_labels(kept),
                    design, cells)  # fmt: skip


# The command of a sweep folder written before sweeps recorded theirs in the manifest.
NO_SWEEP_COMMAND = (
    "(not recorded: this sweep folder was written before sweeps recorded their command; "
    "its spec is in manifest.json, and resuming it with `ludosim sweep` records one)"
)


def _read_runs(kind: ResultsKind) -> _Results:
    """One Parquet file (one cell, described by its metadata) or a folder of them."""
    df = load(kind.path)
    if "cell" not in df.columns:
        cell = kind.path.stem if kind.holds == "file" else "all"
        df = df.assign(cell=pd.Categorical([cell] * len(df)))
    cells = _run_cells(kind, df)
    command = (simulate_command(kind.run, kind.path) if kind.run else None) or (
        f"(not recorded: rows read from {kind.path})"
    )
    return _Results(kind, df, cells, command, cell_labels(cells), page_design(cells), cells)


def _run_cells(kind: ResultsKind, df: pd.DataFrame) -> pd.DataFrame:
    """The cells table of a file: its rules (as the nearest preset and its changes, every
    toggle), policies, games and seed, from the run description in its metadata."""
    ids = [str(c) for c in df["cell"].unique()]
    counts = df["cell"].astype(str).value_counts()
    games = [int(counts[c]) for c in ids]
    rules = _run_rules(kind.run)
    if rules is None or len(ids) != 1:
        name = kind.path.stem
        return pd.DataFrame({"cell": ids, "name": [name if c == "all" else c for c in ids],
                             "seed": None, "games": games})  # fmt: skip
    chosen = options_of(rules)
    try:
        policies = format_policies(resolve_policies(kind.run.get("policies") or "random",
                                                    rules.players))  # fmt: skip
    except LudosimError:
        policies = None
    row = {"cell": ids[0], "name": chosen.label, "variant": "", "preset": chosen.preset,
           **toggle_row(rules), "policies": policies, "games": games[0],
           "seed": kind.run.get("seed"), "rules_hash": rules.hash()}  # fmt: skip
    return pd.DataFrame([row])


def _run_rules(run: Mapping[str, Any]) -> Rules | None:
    """The rules a file's run description records, or None (none, or unreadable now)."""
    try:
        return Rules.from_dict(run["rules"]) if run.get("rules") else None
    except (LudosimError, TypeError):
        return None
