"""Grids of rule variants and policies: cells -> chunks -> executor -> Parquet dataset.

    spec = SweepSpec.from_toml("analyses/seeds.toml")      # or SweepSpec.from_options(...)
    plan(spec)                                             # the cells, nothing played
    result = run_sweep(spec, "runs/seeds")                 # resumable; dask="local" / "tcp://..."
    df = ludosim.load("runs/seeds", cells=True)
    precision_status("runs/seeds")                         # with a precision target: per cell

See docs/sweep.md for the TOML format, the folder layout and the resume rules.
"""

from ludosim.results.kind import precision_status
from ludosim.sweep.execute import ChunkTask, SweepResult, compute_chunk, plan, run_sweep
from ludosim.sweep.precision import PrecisionError, Target, parse_target
from ludosim.sweep.spec import (
    DEFAULT_CHUNK_SIZE,
    MODES,
    Cell,
    SweepError,
    SweepSpec,
    Variant,
    cells_frame,
    check_run_options,
    expand,
    spec_from_command,
    spec_hash,
)

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "MODES",
    "Cell",
    "ChunkTask",
    "PrecisionError",
    "SweepError",
    "SweepResult",
    "SweepSpec",
    "Target",
    "Variant",
    "cells_frame",
    "check_run_options",
    "compute_chunk",
    "expand",
    "parse_target",
    "plan",
    "precision_status",
    "run_sweep",
    "spec_from_command",
    "spec_hash",
]
