"""What a sweep computes: `SweepSpec` (from TOML or command-line options) and its cells.

A sweep starts from one or more *starting points*, each a `RuleSet` (the base
preset with its `set` overrides, or named variants, each a preset plus changes,
written as rule-set text `NAME=PRESET+TOGGLE=VALUE` or as a table; policies
may stand beside them), applies the
`vary` toggles to each (full factorial `grid`, or `one-at-a-time` from the
starting point) and gives every resulting cell the same games, seed and
policies. Every cell shares the master seed on purpose: game g draws the same
dice stream in every cell, so cells are compared on common random numbers and
differences between them are not drowned in seed noise.

Everything is validated before any game is played: a spec that expands
without raising is a spec whose every cell the engines accept.

Every name is importable from here; each lives with its concern:

- `ludosim.sweep.specmodel`: `SweepSpec`, `Variant`, `spec_from_command`;
- `ludosim.sweep.cells`: `Cell`, `expand`, `spec_hash`, `cells_frame`, `varying_toggles`;
- `ludosim.sweep.specvalues`: `SweepError`, the defaults and bounds, the readers and
  checks of single values, `check_run_options`;
- `ludosim.sweep.spectext`: `spec_toml`, `spec_command` (a spec dict written back).
"""

from ludosim.sweep.cells import Cell, cells_frame, expand, spec_hash, varying_toggles
from ludosim.sweep.specmodel import SweepSpec, Variant, spec_from_command
from ludosim.sweep.spectext import spec_command, spec_toml
from ludosim.sweep.specvalues import (
    CHUNKS_MAX,
    DEFAULT_CHUNK_SIZE,
    MODES,
    POLICIES_KEY,
    SEED_REQUIRED,
    THREADS_MAX,
    WORKERS_MAX,
    Policies,
    SweepError,
    check_run_options,
)

__all__ = [
    "CHUNKS_MAX",
    "DEFAULT_CHUNK_SIZE",
    "MODES",
    "POLICIES_KEY",
    "SEED_REQUIRED",
    "THREADS_MAX",
    "WORKERS_MAX",
    "Cell",
    "Policies",
    "SweepError",
    "SweepSpec",
    "Variant",
    "cells_frame",
    "check_run_options",
    "expand",
    "spec_command",
    "spec_from_command",
    "spec_hash",
    "spec_toml",
    "varying_toggles",
]
