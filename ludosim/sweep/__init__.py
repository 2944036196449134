"""Grids of rule variants and policies: cells -> chunks -> executor -> Parquet dataset.

    spec = SweepSpec.from_toml("analyses/seeds.toml")      # or SweepSpec.from_options(...)
    plan(spec)                                             # the cells, nothing played
    result = run_sweep(spec, "runs/seeds")                 # resumable; dask="local" / "tcp://..."
    df = ludosim.results.load("runs/seeds", cells=True)

See docs/sweep.md for the TOML format, the folder layout and the resume rules.
"""

from ludosim.sweep.execute import ChunkTask, SweepResult, compute_chunk, plan, run_sweep
from ludosim.sweep.spec import (
    DEFAULT_CHUNK_SIZE,
    MODES,
    Cell,
    SweepError,
    SweepSpec,
    Variant,
    cells_frame,
    expand,
    spec_from_command,
    spec_hash,
)

__all__ = [
    "DEFAULT_CHUNK_SIZE",
    "MODES",
    "Cell",
    "ChunkTask",
    "SweepError",
    "SweepResult",
    "SweepSpec",
    "Variant",
    "cells_frame",
    "compute_chunk",
    "expand",
    "plan",
    "run_sweep",
    "spec_from_command",
    "spec_hash",
]
