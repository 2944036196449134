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

Everything is validated here, before any game is played: a spec that expands
without raising is a spec whose every cell the engines accept.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import numbers
import os
import shlex
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludosim.results.measures import MeasureError, with_smallest
from ludosim.results.paths import chunk_count, chunk_ranges
from ludosim.results.schema import GAMES_MAX, SEED_MAX, cell_row
from ludosim.rules import tomlio
from ludosim.rules.errors import LudosimError, unknown_name
from ludosim.rules.model import SEMANTICS_VERSION, TOGGLES, Rules, format_value, parse_value
from ludosim.rules.options import POLICIES_AXIS, RuleSet, parse_sets, parse_vary
from ludosim.rules.policies import format_policies, resolve_policies, split_policy_list
from ludosim.sweep.precision import (
    DEFAULT_MAX_GAMES,
    DEFAULT_PILOT,
    MIN_PILOT,
    Target,
    parse_target,
)

if TYPE_CHECKING:
    import pandas as pd

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


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A named starting point: a preset (default: the spec's) plus toggle changes.

    The rule set it starts from is `rule_set(...)`; `policies`, when given, replace
    the sweep's in its cells.
    """

    name: str
    preset: str | None = None
    set: Mapping[str, Any] = field(default_factory=dict)
    policies: Policies | None = None

    @classmethod
    def of(cls, rule_set: RuleSet, policies: Policies | None = None) -> Variant:
        """The starting point of a rule set, named by its name or else its text."""
        return cls(
            name=rule_set.name or rule_set.text,
            preset=rule_set.preset,
            set=rule_set.changes(),
            policies=policies,
        )

    def rule_set(self, preset: str | None = None, base: Mapping[str, Any] | None = None) -> RuleSet:
        """Its rule set: its preset (else `preset`, the sweep's) with the sweep's `base`
        changes and its own (which win)."""
        chosen = self.preset or preset
        if chosen is None:
            raise SweepError(
                f"variants.{self.name} names no preset and the sweep has no base preset"
            )
        return RuleSet.of(chosen, {**(base or {}), **self.set}, self.name)


@dataclass(frozen=True, kw_only=True)
class SweepSpec:
    """Everything that determines the rows of a sweep (the output folder does not).

    `set` applies to every starting point; a variant's own `set` wins over it.
    `vary` maps a toggle (or `policies`) to the list of values it takes (a
    single value is a list of one: `{"six_limit": [3]}`), given as text or typed
    and held typed: each value is parsed once, on construction, to its toggle's
    type (`parse_value`; for `policies` a name or a tuple of one per seat), so
    `SweepSpec(vary={"six_limit": ["0", 3]}).vary == {"six_limit": (0, 3)}`, and a
    malformed axis is refused there. `seed` is required: there
    is no hidden default seed. With
    `precision` (`"0.25pp"`, `"1turn"`) `games` is not used: every cell plays a
    pilot of `pilot` games, then as many as the target needs, at most
    `max_games` (see `ludosim.sweep.precision`).
    """

    preset: str | None = None
    set: Mapping[str, Any] = field(default_factory=dict)
    vary: Mapping[str, tuple[Any, ...]] = field(default_factory=dict)  # parsed on construction
    mode: str = "grid"
    variants: tuple[Variant, ...] = ()
    policies: Policies = "random"
    games: int = 10_000
    seed: int | None = None  # required; None is refused by validate()
    chunk_size: int = DEFAULT_CHUNK_SIZE
    summary_only: bool = False
    flow: bool = False  # rows carry the game-flow columns (docs/flow.md)
    precision: str | None = None
    pilot: int = DEFAULT_PILOT
    max_games: int = DEFAULT_MAX_GAMES
    name: str | None = None
    out: str | None = None  # default output folder (TOML only); not part of the identity
    # Smallest effects of interest by measure (`ludosim.results.measures`): what the report
    # sizes by; they change no game, so they are not part of the identity either.
    smallest_effects: Mapping[str, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "vary", _parse_vary(self.vary))

    # ------------------------------------------------------------ construction
    @classmethod
    def from_toml(cls, path: str | Path, *, seed: int | None = None) -> SweepSpec:
        """Read a sweep file; any problem is one `SweepError` naming the file and the key.

        The file must give `seed` (results must be reproducible, as on the command
        line), unless `seed` is given here (`--seed`), which then replaces it.
        """
        if not isinstance(path, (str, os.PathLike)) or not str(path).strip():
            raise SweepError(
                f"path must name a sweep file (a str or pathlib.Path), got {path!r}; "
                "e.g. SweepSpec.from_toml('analyses/seeds.toml')"
            )
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SweepError(f"sweep file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise SweepError(f"cannot read sweep file {path}: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise SweepError(f"{path} is not valid TOML: {exc}") from None
        if seed is not None:
            data = {**data, "seed": seed}
        try:
            spec = cls.from_dict(data)
        except SweepError as exc:
            raise SweepError(f"{path}: {exc}") from None
        if spec.name is None:
            spec = _replace(spec, name=path.stem)
        return spec

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SweepSpec:
        """The spec of a parsed TOML document (or an equivalent dict)."""
        if not isinstance(data, Mapping):
            raise SweepError(
                f"data must be a dict of sweep keys (a parsed sweep file), got "
                f"{type(data).__name__}; e.g. SweepSpec.from_dict({{'preset': 'app', 'seed': 1}})"
            )
        allowed = {
            "name", "preset", "set", "vary", "mode", "variants", "policies", "games",
            "seed", "chunk_size", "summary_only", "out", "precision", "pilot", "max_games",
            "smallest_effects", "flow",
        }  # fmt: skip
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise SweepError(
                f"unknown key {unknown[0]!r}; allowed keys: {', '.join(sorted(allowed))}"
            )
        kwargs: dict[str, Any] = {}
        for key in ("name", "preset", "mode", "out", "precision"):
            if key in data:
                kwargs[key] = _text(key, data[key])
        _check_precision_keys(
            data.get("precision"), "games" in data, [k for k in ("pilot", "max_games") if k in data]
        )
        for key in ("games", "seed", "chunk_size", "pilot", "max_games"):
            if key in data:
                kwargs[key] = _int(key, data[key])
        for key in ("summary_only", "flow"):
            if key in data:
                if not isinstance(data[key], bool):
                    raise SweepError(f"{key}={data[key]!r} must be true or false")
                kwargs[key] = data[key]
        if "set" in data:
            kwargs["set"] = _table("set", data["set"])
        if "vary" in data:
            vary = _table("vary", data["vary"])
            for key, values in vary.items():
                if not isinstance(values, list):
                    raise SweepError(f"vary.{key} must be a list of values, got {values!r}")
            kwargs["vary"] = vary
        if "policies" in data:
            kwargs["policies"] = _policies_value("policies", data["policies"])
        if "variants" in data:
            kwargs["variants"] = _variants(data["variants"])
        if "smallest_effects" in data:
            kwargs["smallest_effects"] = _smallest(data["smallest_effects"])
        spec = cls(**kwargs)
        spec.validate()
        return spec

    @classmethod
    def from_options(
        cls,
        *,
        preset: str | None = None,
        sets: Iterable[str] = (),
        vary: Iterable[str] = (),
        variants: Iterable[str] = (),
        mode: str = "grid",
        policies: str = "random",
        games: int = 10_000,
        seed: int | None = None,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
        summary_only: bool = False,
        precision: str | None = None,
        pilot: int = DEFAULT_PILOT,
        max_games: int = DEFAULT_MAX_GAMES,
    ) -> SweepSpec:
        """The spec of command-line options.

        `vary` items are `TOGGLE=V1,V2,...`; a value holding commas itself
        (a set, faces, per-seat policies) is written in brackets:
        `safe=[],[starts,stars]`, `policies=random,[random,random,random,random]`.
        `variants` items are rule-set text, `[NAME=]PRESET[+TOGGLE=VALUE...]`
        (`RuleSet.parse`), named by their text when they give no name.
        """
        try:
            vary_map = parse_vary(vary)
            starts = [Variant.of(RuleSet.parse(item, "--variant")) for item in variants]
            changes = parse_sets(sets)
        except LudosimError as exc:
            raise SweepError(str(exc)) from None
        spec = cls(
            preset=preset,
            set=changes,
            vary=vary_map,
            mode=mode,
            variants=tuple(starts),
            policies=_policies_value("--policy", policies),
            games=games,
            seed=seed,
            chunk_size=chunk_size,
            summary_only=summary_only,
            precision=precision,
            pilot=pilot,
            max_games=max_games,
        )
        spec.validate()
        return spec

    def with_overrides(
        self,
        *,
        games: int | None = None,
        seed: int | None = None,
        chunk_size: int | None = None,
        summary_only: bool | None = None,
        precision: str | None = None,
        pilot: int | None = None,
        max_games: int | None = None,
    ) -> SweepSpec:
        """A copy with the run-size fields that the command line may override in a file.

        `games` replaces a file's `precision` (a fixed size instead of a target)
        and `precision` replaces its `games`; giving both is an error.
        """
        _check_precision_keys(precision, games is not None, ())
        changes = {
            k: v
            for k, v in dict(
                games=games, seed=seed, chunk_size=chunk_size, summary_only=summary_only,
                precision=precision, pilot=pilot, max_games=max_games,
            ).items()
            if v is not None
        }  # fmt: skip
        if games is not None:
            changes["precision"] = None
        spec = _replace(self, **changes)
        spec.validate()
        return spec

    # -------------------------------------------------------------- validation
    def validate(self) -> None:
        """Check the spec's own fields (not yet the cells: `expand` does that)."""
        if self.flow and self.summary_only:
            raise SweepError(
                "flow = true keeps the game-flow columns of every game; a summary_only sweep "
                "keeps no per-game rows: choose one"
            )
        if not isinstance(self.set, Mapping):
            raise SweepError(
                f"set={self.set!r} must be a mapping of TOGGLE to value, "
                "e.g. set={'six_limit': 3}"
            )
        if not isinstance(self.variants, (tuple, list)) or not all(
            isinstance(v, Variant) and isinstance(v.set, Mapping) for v in self.variants
        ):
            raise SweepError(
                f"variants={self.variants!r} must be a tuple of Variant(name=..., preset=..., "
                "set={...})"
            )
        _policies_value("policies", self.policies)
        if self.mode not in MODES:
            raise SweepError(
                f"mode={self.mode!r} is not allowed; allowed values: {', '.join(MODES)}"
            )
        _check_range("games", self.games, 1, GAMES_MAX)
        if self.seed is not None:  # a missing seed is reported last, after the grid's problems
            _check_range("seed", self.seed, 0, SEED_MAX, "2**64-1")
        _check_range("chunk_size", self.chunk_size, 1, GAMES_MAX)
        if self.precision is not None:
            self.target()  # raises on a malformed target
            _check_range("pilot", self.pilot, 1, GAMES_MAX)
            _check_range("max_games", self.max_games, 1, GAMES_MAX)
            if self.pilot < MIN_PILOT:
                raise SweepError(
                    f"pilot={self.pilot} must be at least {MIN_PILOT} games: the pilot "
                    "estimates the variance that sets each cell's size"
                )
            if self.max_games < self.pilot:
                raise SweepError(
                    f"max_games={self.max_games} must be at least the pilot ({self.pilot})"
                )
        most = self.games if self.precision is None else self.max_games
        pilot = self.pilot if self.precision is not None else 0
        chunks = chunk_count(most, self.chunk_size, pilot)
        if chunks > CHUNKS_MAX:
            key = "games" if self.precision is None else "max_games"
            raise SweepError(
                f"{key}={most} in chunks of chunk_size={self.chunk_size} makes {chunks:,} chunk "
                f"files per cell, more than {CHUNKS_MAX:,}; raise chunk_size to at least "
                f"{-(-most // CHUNKS_MAX)} (--chunk-size), with --summary-only for big chunks"
            )
        # Each `set` value is checked on its own, even where `vary` overrides it in every cell.
        _check_changes("set", self.set)
        for key, values in self.vary.items():
            twice = next((v for i, v in enumerate(values) if v in values[:i]), None)
            if twice is not None:
                raise SweepError(f"vary.{key} lists {format_value(twice)} twice")
        names = [v.name for v in self.variants]
        for variant in self.variants:
            if not variant.name:
                raise SweepError("a variant has an empty name")
            if names.count(variant.name) > 1:
                raise SweepError(f"variant {variant.name!r} is given twice")
            _check_changes(f"variants.{variant.name}.set", variant.set)
            if variant.preset is None and self.preset is None:
                raise SweepError(
                    f"variants.{variant.name} names no preset and the sweep has no base preset"
                )
        if not self.variants and self.preset is None:
            raise SweepError("the sweep names no preset; give `preset` (--preset) or variants")
        if self.seed is None:
            raise SweepError(SEED_REQUIRED)

    def starts(self) -> list[tuple[RuleSet, Policies]]:
        """The starting points as rule sets (the `set` of the sweep in each), with the
        policies their cells play before `vary` changes them."""
        if not self.variants:
            return [(RuleSet.of(self.preset or "", self.set), self.policies)]
        return [
            (v.rule_set(self.preset, self.set), v.policies or self.policies) for v in self.variants
        ]

    def target(self) -> Target | None:
        """The parsed precision target, or None for a fixed number of games."""
        if self.precision is None:
            return None
        try:
            return parse_target(self.precision)
        except LudosimError as exc:
            raise SweepError(str(exc)) from None

    # ----------------------------------------------------------------- output
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict (written into manifest.json)."""
        data = {
            "name": self.name,
            "preset": self.preset,
            "set": {k: _jsonable(v) for k, v in self.set.items()},
            "vary": {k: [_jsonable(v) for v in vs] for k, vs in self.vary.items()},
            "mode": self.mode,
            "variants": [
                {
                    "name": v.name,
                    "preset": v.preset,
                    "set": {k: _jsonable(x) for k, x in v.set.items()},
                    "policies": _jsonable(v.policies),
                }
                for v in self.variants
            ],
            "policies": _jsonable(self.policies),
            "games": self.games,
            "seed": self.seed,
            "chunk_size": self.chunk_size,
            "summary_only": self.summary_only,
        }
        target = self.target()
        if target is not None:
            # Only with a target, so manifests of fixed-size sweeps keep their keys.
            data.update(precision=str(target), pilot=self.pilot, max_games=self.max_games)
        if self.smallest_effects:
            data["smallest_effects"] = dict(self.smallest_effects)
        if self.flow:
            data["flow"] = True  # only when set, so other manifests keep their keys
        return data

    def to_toml(self) -> str:
        """The spec as a sweep file: `SweepSpec.from_toml` reads back the same cells."""
        return spec_toml(self.to_dict())


@dataclass(frozen=True, kw_only=True)
class Cell:
    """One point of the sweep: rules and policies, played for `games` games from `seed`."""

    id: str
    name: str
    variant: str | None
    preset: str
    rules: Rules
    policies: tuple[str, ...]
    games: int
    seed: int
    changes: Mapping[str, Any]  # the varied values of this cell (toggles and policies)
    # Games of the precision pilot (0 without a target): chunks start again at the
    # pilot's end, so the pilot's chunks stay valid whatever the second stage adds.
    pilot: int = 0

    @property
    def rule_set(self) -> RuleSet:
        """The cell's rules as a rule set: its preset and every toggle that differs from it."""
        base = Rules.preset(self.preset)
        changed = {
            name: getattr(self.rules, name)
            for name in TOGGLES
            if getattr(self.rules, name) != getattr(base, name)
        }
        return RuleSet.of(self.preset, changed, self.name)

    def chunks(self, chunk_size: int) -> list[tuple[int, int]]:
        """[start, stop) game ranges of this cell's chunks (the pilot's first)."""
        return list(chunk_ranges(self.games, chunk_size, self.pilot))

    def chunk_count(self, chunk_size: int) -> int:
        """len(self.chunks(chunk_size)), without listing them."""
        return chunk_count(self.games, chunk_size, self.pilot)


# ------------------------------------------------------------------ expansion
def expand(spec: SweepSpec) -> list[Cell]:
    """Every cell of the sweep, validated; raises `SweepError` naming the cell and the field."""
    if not isinstance(spec, SweepSpec):
        raise SweepError(
            f"spec must be a SweepSpec, got {type(spec).__name__}; build one with "
            "SweepSpec(...), SweepSpec.from_dict(data) or SweepSpec.from_toml(path)"
        )
    spec.validate()
    starts = spec.variants or (Variant(name="", preset=spec.preset),)  # see SweepSpec.starts
    plans: list[tuple[Variant, dict[str, Any]]] = []
    for start in starts:
        if not spec.vary:
            plans.append((start, {}))
        elif spec.mode == "grid":
            keys = list(spec.vary)
            for combo in itertools.product(*(spec.vary[k] for k in keys)):
                plans.append((start, dict(zip(keys, combo, strict=True))))
        else:
            plans.append((start, {}))
            base_rules, base_policies = _build(spec, start, {}, where=_label(start, {}))
            for key, values in spec.vary.items():
                current = base_policies if key == POLICIES_KEY else getattr(base_rules, key)
                plans.extend((start, {key: v}) for v in values if v != current)
    width = max(3, len(str(len(plans) - 1)))
    # With a precision target the cells start as their pilots; the second stage
    # (ludosim.sweep.execute) sets each cell's games from its pilot.
    pilot = spec.pilot if spec.precision is not None else 0
    cells = []
    for index, (start, combo) in enumerate(plans):
        cell_id = f"c{index:0{width}d}"
        name = _label(start, combo)
        rules, policies = _build(spec, start, combo, where=f"cell {cell_id} ({name})")
        cells.append(
            Cell(
                id=cell_id,
                name=name,
                variant=start.name or None,
                preset=start.preset or spec.preset or "",
                rules=rules,
                policies=policies,
                games=pilot or spec.games,
                seed=spec.seed,
                changes=combo,
                pilot=pilot,
            )
        )
    seen: dict[tuple[str, tuple[str, ...]], Cell] = {}
    for cell in cells:
        twin = seen.setdefault((cell.rules.hash(), cell.policies), cell)
        if twin is not cell:
            raise SweepError(
                f"cells {twin.id} ({twin.name}) and {cell.id} ({cell.name}) are the same game "
                "(same rules and policies): they would give identical rows; remove one"
            )
    return cells


def spec_from_command(
    spec_file: str | Path | None = None,
    *,
    preset: str | None = None,
    sets: Sequence[str] = (),
    vary: Sequence[str] = (),
    variants: Sequence[str] = (),
    mode: str | None = None,
    policies: str | None = None,
    games: int | None = None,
    seed: int | None = None,
    chunk_size: int | None = None,
    summary_only: bool | None = None,
    out: str | Path | None = None,
    precision: str | None = None,
    pilot: int | None = None,
    max_games: int | None = None,
) -> tuple[SweepSpec, Path]:
    """The spec and output folder of a `ludosim sweep` command line.

    Either a sweep file, or `--preset`/`--variant` with `--set`/`--vary`: the
    grid is described in one place. With a file, `--games`, `--seed`,
    `--chunk-size` and `--summary-only` override its values (a quick small run
    of a big analysis), and so do `--precision` (instead of the file's games),
    `--pilot` and `--max-games`. The folder is `--out`, else the file's `out`,
    else `runs/<file name>`.
    """
    if spec_file is not None:
        grid_options = [
            flag
            for flag, given in (
                ("--preset", preset), ("--set", sets), ("--vary", vary),
                ("--variant", variants), ("--mode", mode), ("--policy", policies),
            )
            if given
        ]  # fmt: skip
        if grid_options:
            raise SweepError(
                f"{grid_options[0]} cannot be combined with the sweep file {spec_file}; "
                "describe the grid in the file, or on the command line without a file"
            )
        spec = SweepSpec.from_toml(spec_file, seed=seed).with_overrides(
            games=games, seed=seed, chunk_size=chunk_size, summary_only=summary_only,
            precision=precision, pilot=pilot, max_games=max_games,
        )  # fmt: skip
        if spec.precision is None:
            _check_precision_keys(
                None,
                False,
                [f for f, v in (("pilot", pilot), ("max_games", max_games)) if v is not None],
            )
        folder = out or spec.out or Path("runs") / Path(spec_file).stem
        return spec, Path(folder)
    if out is None:
        raise SweepError("--out is required without a sweep file; e.g. --out runs/my-grid")
    _check_precision_keys(
        precision,
        games is not None,
        [f for f, v in (("pilot", pilot), ("max_games", max_games)) if v is not None],
    )
    spec = SweepSpec.from_options(
        preset=preset,
        sets=sets,
        vary=vary,
        variants=variants,
        mode=mode or "grid",
        policies=policies or "random",
        games=10_000 if games is None else games,
        seed=seed,
        chunk_size=DEFAULT_CHUNK_SIZE if chunk_size is None else chunk_size,
        summary_only=bool(summary_only),
        precision=precision,
        pilot=DEFAULT_PILOT if pilot is None else pilot,
        max_games=DEFAULT_MAX_GAMES if max_games is None else max_games,
    )
    return spec, Path(out)


def spec_hash(spec: SweepSpec, cells: Sequence[Cell] | None = None) -> str:
    """Identity of a sweep's output: what is computed, not how it was written down.

    Hashes the expanded cells (rules hash, policies, games, seed), the chunking
    and the simulation semantics version, so the same grid given in TOML or on
    the command line resumes the same folder, a semantics change refuses it and
    a new toggle with a neutral default leaves it valid (see `Rules.hash`).
    """
    cells = expand(spec) if cells is None else cells
    payload = {
        "semantics_version": SEMANTICS_VERSION,
        "chunk_size": spec.chunk_size,
        "summary_only": spec.summary_only,
        "cells": [[c.id, c.name, c.rules.hash(), list(c.policies), c.games, c.seed] for c in cells],
    }
    target = spec.target()
    if target is not None:
        # Fixed-size sweeps keep the payload (and the hash) they always had.
        payload["precision"] = [str(target), spec.pilot, spec.max_games]
    if spec.flow:
        payload["flow"] = True  # other rows: a sweep without flow keeps its hash
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def cells_frame(
    cells: Sequence[Cell], chunk_size: int | None = None, *, full: bool = False
) -> pd.DataFrame:
    """One row per cell (the `--dry-run` table and `cells.parquet`).

    Columns: cell, name, variant, preset, the toggles (only those that differ
    between cells unless `full`), policies, games, seed, rules_hash and, when
    `chunk_size` is given, chunks. Tuple-valued toggles are written as their
    `--set` text so the table stays flat.
    """
    import pandas as pd

    shown = None if full else varying_toggles(cells)
    rows = []
    for cell in cells:
        row = cell_row(cell.id, cell.name, cell.preset, cell.rules, cell.policies, cell.games,
                       cell.seed, variant=cell.variant or "", toggles=shown)  # fmt: skip
        if chunk_size is not None:
            row["chunks"] = cell.chunk_count(chunk_size)
        rows.append(row)
    return pd.DataFrame(rows)


def varying_toggles(cells: Sequence[Cell]) -> list[str]:
    """Toggles whose value differs between cells, in table order."""
    return [
        name
        for name in TOGGLES
        if len({json.dumps(_jsonable(getattr(c.rules, name))) for c in cells}) > 1
    ]


# ------------------------------------------------------------------ rendering
def spec_toml(spec: Mapping[str, Any]) -> str:
    """A spec dict (`SweepSpec.to_dict`, a manifest's `spec`) as sweep-file text.

    Unset values and empty tables are left out; variants become `[variants.NAME]`
    tables. `ludosim sweep FILE` plays the same cells.
    """
    data: dict[str, Any] = {}
    for key, item in spec.items():
        if key == "variants":
            data[key] = {
                str(v["name"]): {
                    k: x for k, x in v.items() if k != "name" and x is not None and x != {}
                }
                for v in item or []
            }
        elif item is not None and item != {}:
            data[key] = item
    if data.get("precision") is not None:
        # A target replaces the fixed size: a sweep file may not give both.
        data.pop("games", None)
    if not data.get("variants"):
        data.pop("variants", None)
    return tomlio.dumps(data)


def spec_command(spec: Mapping[str, Any], out: str | Path | None) -> str | None:
    """The `ludosim sweep` command line of a spec dict, or None if options cannot say it.

    Variants with their own policies, and `flow`, exist only in sweep files
    (`spec_toml`); a variant's own changes are written in its rule-set text,
    `NAME=PRESET+T=V`. With `out=None` the line ends before `--out` (a manifest
    records it so: the folder is wherever the manifest lies).
    """
    if spec.get("flow"):
        return None
    words = ["ludosim", "sweep"]
    if spec.get("preset"):
        words += ["--preset", str(spec["preset"])]
    for variant in spec.get("variants") or []:
        if variant.get("policies"):
            return None
        start = RuleSet.of(
            variant.get("preset") or spec["preset"], variant.get("set") or {}, variant["name"]
        )
        # Always named: a variant named by its preset alone reads back with that name.
        words += [
            "--variant",
            f"{start.name}={start.preset}" + "".join(f"+{s}" for s in start.sets),
        ]
    for key, value in (spec.get("set") or {}).items():
        words += ["--set", f"{key}={_option_text(value)}"]
    for key, values in (spec.get("vary") or {}).items():
        words += ["--vary", f"{key}=" + ",".join(_vary_text(v) for v in values)]
    if spec.get("mode", "grid") != "grid":
        words += ["--mode", str(spec["mode"])]
    policies = spec.get("policies", "random")
    if policies != "random":
        words += ["--policy", _option_text(policies)]
    if spec.get("precision") is not None:
        words += ["--precision", str(spec["precision"])]
        if spec.get("pilot", DEFAULT_PILOT) != DEFAULT_PILOT:
            words += ["--pilot", str(spec["pilot"])]
        if spec.get("max_games", DEFAULT_MAX_GAMES) != DEFAULT_MAX_GAMES:
            words += ["--max-games", str(spec["max_games"])]
    else:
        words += ["--games", str(spec["games"])]
    words += ["--seed", str(spec["seed"])]
    if spec.get("chunk_size", DEFAULT_CHUNK_SIZE) != DEFAULT_CHUNK_SIZE:
        words += ["--chunk-size", str(spec["chunk_size"])]
    if spec.get("summary_only"):
        words.append("--summary-only")
    if out is not None:
        words += ["--out", str(out)]
    return " ".join(shlex.quote(w) for w in words)


def _option_text(value: Any) -> str:
    """A value as `--set`/`--policy` text: lists with commas, booleans lower case."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_text(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _vary_text(value: Any) -> str:
    # A value with commas of its own is bracketed, as `--vary` reads it.
    text = _option_text(value)
    return f"[{text}]" if isinstance(value, (list, tuple)) else text


# -------------------------------------------------------------------- helpers
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


def _build(
    spec: SweepSpec, start: Variant, combo: Mapping[str, Any], *, where: str
) -> tuple[Rules, tuple[str, ...]]:
    """Rules and per-seat policies of one cell; errors name `where` and the field."""
    preset = start.preset or spec.preset
    assert preset is not None  # validate() refuses a start without a preset
    changes = {**spec.set, **start.set, **{k: v for k, v in combo.items() if k != POLICIES_KEY}}
    try:
        # One replace call: the combination is validated as a whole, as with --set.
        rules = Rules.preset(preset).replace(**changes)
    except LudosimError as exc:
        raise SweepError(f"{where}: {exc}") from None
    policies = combo.get(POLICIES_KEY, start.policies or spec.policies)
    try:
        resolved = resolve_policies(policies, rules.players)
    except LudosimError as exc:
        raise SweepError(f"{where}: policies: {exc}") from None
    return rules, resolved


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


def _label(start: Variant, combo: Mapping[str, Any]) -> str:
    parts = [start.name] if start.name else []
    for key, value in combo.items():
        text = format_policies(value) if key == POLICIES_KEY else format_value(value)
        parts.append(f"{key}={text}")
    return " ".join(parts) or "base"


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


def _variants(value: Any) -> tuple[Variant, ...]:
    """`[variants.NAME]` tables, or a `[[variants]]` array with a `name` key each."""
    if isinstance(value, dict):
        items = [(name, body) for name, body in value.items()]
    elif isinstance(value, list):
        items = []
        for body in value:
            if isinstance(body, str):  # rule-set text: variants = ["app", "b=app+finish=bounce"]
                try:
                    start = Variant.of(RuleSet.parse(body, "variants"))
                except LudosimError as exc:
                    raise SweepError(str(exc)) from None
                items.append((start.name, {"preset": start.preset, "set": dict(start.set)}))
                continue
            if not isinstance(body, dict) or "name" not in body:
                raise SweepError(
                    "each [[variants]] entry needs a name (or give rule-set text, "
                    'variants = ["app", "bounce=app+finish=bounce"])'
                )
            body = dict(body)
            items.append((_text("variants.name", body.pop("name")), body))
    else:
        raise SweepError("variants must be [variants.NAME] tables")
    out = []
    for name, body in items:
        where = f"variants.{name}"
        if not isinstance(body, dict):
            raise SweepError(f"{where} must be a table")
        unknown = sorted(set(body) - {"preset", "set", "policies"})
        if unknown:
            raise SweepError(
                f"{where}: unknown key {unknown[0]!r}; allowed keys: policies, preset, set"
            )
        out.append(
            Variant(
                name=name,
                preset=_text(f"{where}.preset", body["preset"]) if "preset" in body else None,
                set=_table(f"{where}.set", body.get("set", {})),
                policies=(
                    _policies_value(f"{where}.policies", body["policies"])
                    if "policies" in body
                    else None
                ),
            )
        )
    return tuple(out)


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


def _replace(spec: SweepSpec, **changes: Any) -> SweepSpec:
    import dataclasses

    return dataclasses.replace(spec, **changes)
