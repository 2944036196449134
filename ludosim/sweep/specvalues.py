"""The values a sweep file, its options or a `SweepSpec` may hold, each read and checked
on its own: `SweepError`, the defaults and bounds, the readers of text, integers,
tables, policies, `vary` axes and smallest effects, and the check of the executor
options.

Every check raises a `SweepError` that names the key and what it allows, so a spec
is refused before any cell is built or any game played.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping, Sequence
from typing import Any

from ludosim.results.measures import MeasureError, with_smallest
from ludosim.rules.errors import LudosimError, unknown_name
from ludosim.rules.model import TOGGLES, parse_value
from ludosim.rules.options import POLICIES_AXIS
from ludosim.rules.policies import split_policy_list

DEFAULT_CHUNK_SIZE = 250_000
MODES = ("grid", "one-at-a-time")
# Kernel threads per chunk and Dask worker processes: more than any machine has.
THREADS_MAX = 1024
WORKERS_MAX = 1024
# Chunk files per cell. The manifest lists only finished chunks, so this bound
# only keeps planning a run (one check per chunk file) within minutes.
CHUNKS_MAX = 1_000_000
# `policies` may be varied like a toggle: a policy name, or one per seat.
POLICIES_KEY = POLICIES_AXIS


class SweepError(LudosimError, ValueError):
    """A sweep spec, its cells or its output folder cannot be used; the message says which."""


# The one message for a sweep without a seed (file, options, Python).
SEED_REQUIRED = (
    "seed is required (e.g. seed = 1 in a sweep file, --seed 1, SweepSpec(seed=1)): results "
    "must be reproducible, so there is no hidden default seed"
)


Policies = str | tuple[str, ...]


def _smallest(value: Any) -> dict[str, float]:
    """`smallest_effects = {length = 2, first = 0.5}`: measure name -> positive size."""
    if not isinstance(value, dict):
        raise SweepError(
            f"smallest_effects must be a table of MEASURE = SIZE (length, first, win), "
            f"got {value!r}"
        )
    table = dict(value)
    try:
        measures = with_smallest(table)
    except MeasureError as exc:
        raise SweepError(str(exc)) from None
    return {name: measures[name].smallest for name in table}


def _check_precision_keys(precision: Any, games: bool, sizing: Sequence[str]) -> None:
    """`games` and `precision` exclude each other; `pilot`/`max_games` need a target."""
    if precision is not None and games:
        raise SweepError(
            "precision and games are exclusive: with a precision target each cell plays "
            "as many games as the target needs (at most max_games); give one of them"
        )
    if precision is None and sizing:
        raise SweepError(
            f'{sizing[0]} applies only with a precision target (precision = "0.25pp" '
            "in a sweep file, --precision 0.25pp on the command line); add one or remove it"
        )


def _check_changes(where: str, changes: Mapping[str, Any]) -> None:
    for key, value in changes.items():
        if key not in TOGGLES:
            raise SweepError(
                f"{where}.{key}: "
                + unknown_name("toggle", key, TOGGLES, "see", "`ludosim rules --preset NAME`")
            )
        try:
            parse_value(key, value)
        except LudosimError as exc:
            raise SweepError(f"{where}.{key}: {exc}") from None


def _parse_vary(vary: Any) -> dict[str, tuple[Any, ...]]:
    """`vary` with every value of its toggle's type (`policies`: a name or a tuple of one per
    seat); raises `SweepError` for an axis that is no toggle, no list, empty or has a value
    its toggle refuses. Parsed values parse to themselves, so a copy parses to its original."""
    if not isinstance(vary, Mapping):
        raise SweepError(
            f"vary={vary!r} must be a mapping of TOGGLE to a list of values, "
            "e.g. vary={'six_limit': [0, 3]}"
        )
    parsed = {}
    for key, values in vary.items():
        if key != POLICIES_KEY and key not in TOGGLES:
            raise SweepError(
                f"vary.{key}: "
                + unknown_name(
                    "toggle",
                    key,
                    [*TOGGLES, POLICIES_KEY],
                    "vary",
                    "a toggle of `ludosim rules` or policies",
                )
            )
        if isinstance(values, str) or not isinstance(values, Sequence):
            # A lone value is refused rather than guessed at: a string would
            # otherwise be read as a list of its letters.
            raise SweepError(
                f"vary.{key} must be a list of values, got {values!r}; write "
                f"vary={{{key!r}: [{values!r}]}}, or set={{{key!r}: {values!r}}} to "
                "change it in every cell"
            )
        if len(values) == 0:
            raise SweepError(f"vary.{key} lists no values")
        parsed[key] = tuple(_parse_varied(key, value) for value in values)
    return parsed


def _parse_varied(key: str, value: Any) -> Any:
    if key == POLICIES_KEY:
        return _policies_value(f"vary.{key}", value)
    try:
        return parse_value(key, value)
    except LudosimError as exc:
        raise SweepError(f"vary.{key}: {exc}") from None


def _policies_value(where: str, value: Any) -> Policies:
    """A policy name, or one per seat (a list, or text with commas, brackets optional)."""
    if isinstance(value, str):
        names = [p for p in split_policy_list(value) if p]
    elif isinstance(value, (list, tuple)) and all(isinstance(p, str) for p in value):
        names = [p.strip() for p in value]
    else:
        raise SweepError(f"{where}={value!r} must be a policy name or a list of them")
    if not names:
        raise SweepError(f"{where} is empty; give a policy name such as random")
    return names[0] if len(names) == 1 else tuple(names)


def _check_range(key: str, value: int, low: int, high: int, high_text: str = "") -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise SweepError(f"{key}={value!r} must be an integer in {low}..{high_text or high}")
    if not low <= value <= high:
        raise SweepError(f"{key}={value} is out of range; allowed: {low}..{high_text or high}")


def check_run_options(
    dask: Any, workers: int | None, threads: int | None, dask_wait: float | None = None
) -> None:
    """Refuse bad executor options (`--dask`, `--workers`, `--threads`, `--dask-wait`)
    before any folder exists.

    `dask` is None, "local", a scheduler address "tcp://host:port" (any
    `scheme://`), or a `distributed.Client`; `dask_wait` None (wait for workers
    as long as it takes) or a positive number of seconds.
    """
    if dask_wait is not None:
        number = isinstance(dask_wait, numbers.Real) and not isinstance(dask_wait, bool)
        if not number or not 0 < dask_wait < math.inf:
            given = f"{dask_wait:g}" if number else repr(dask_wait)
            raise SweepError(
                f"dask_wait (--dask-wait) must be a positive number of seconds, got {given}"
            )
    if isinstance(dask, str) and dask != "local" and "://" not in dask:
        raise SweepError(
            f"--dask {dask!r} is not allowed; use local or a scheduler address "
            "such as tcp://host:8786"
        )
    # A `distributed.Client` (or a stand-in with its interface), known without importing it.
    client = callable(getattr(dask, "submit", None)) and callable(getattr(dask, "nthreads", None))
    if dask is not None and not isinstance(dask, str) and not client:
        raise SweepError(
            f"dask must be None, 'local', a scheduler address such as 'tcp://host:8786' or a "
            f"distributed.Client, got {dask!r}"
        )
    for key, value, high in (("workers", workers, WORKERS_MAX), ("threads", threads, THREADS_MAX)):
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise SweepError(f"{key}={value!r} must be an integer in 1..{high}")
        _check_range(key, int(value), 1, high)


def _text(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise SweepError(f"{key}={value!r} must be text")
    return value


def _int(key: str, value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise SweepError(f"{key}={value!r} must be an integer")
    return value


def _table(key: str, value: Any) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise SweepError(f"{key} must be a table of TOGGLE = VALUE")
    return dict(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, (tuple, list)):
        return [_jsonable(v) for v in value]
    return value
