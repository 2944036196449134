"""What a sweep computes: `SweepSpec` (from TOML or command-line options) and its cells.

A sweep starts from one or more *starting points* (the base preset with its
`set` overrides, or named variants, each a preset plus changes), applies the
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
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ludosim.errors import LudosimError
from ludosim.options import parse_sets
from ludosim.policies import resolve_policies
from ludosim.rules import SEMANTICS_VERSION, TOGGLES, Rules, format_value, parse_value

if TYPE_CHECKING:
    import pandas as pd

DEFAULT_CHUNK_SIZE = 250_000
MODES = ("grid", "one-at-a-time")
# `policies` may be varied like a toggle: a policy name, or one per seat.
POLICIES_KEY = "policies"


class SweepError(LudosimError, ValueError):
    """A sweep spec, its cells or its output folder cannot be used; the message says which."""


Policies = str | tuple[str, ...]


@dataclass(frozen=True, kw_only=True)
class Variant:
    """A named starting point: a preset (default: the spec's) plus toggle changes."""

    name: str
    preset: str | None = None
    set: Mapping[str, Any] = field(default_factory=dict)
    policies: Policies | None = None


@dataclass(frozen=True, kw_only=True)
class SweepSpec:
    """Everything that determines the rows of a sweep (the output folder does not).

    `set` applies to every starting point; a variant's own `set` wins over it.
    `vary` maps a toggle (or `policies`) to the values it takes.
    """

    preset: str | None = None
    set: Mapping[str, Any] = field(default_factory=dict)
    vary: Mapping[str, Sequence[Any]] = field(default_factory=dict)
    mode: str = "grid"
    variants: tuple[Variant, ...] = ()
    policies: Policies = "random"
    games: int = 10_000
    seed: int = 0
    chunk_size: int = DEFAULT_CHUNK_SIZE
    summary_only: bool = False
    name: str | None = None
    out: str | None = None  # default output folder (TOML only); not part of the identity

    # ------------------------------------------------------------ construction
    @classmethod
    def from_toml(cls, path: str | Path) -> SweepSpec:
        """Read a sweep file; any problem is one `SweepError` naming the file and the key."""
        path = Path(path)
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise SweepError(f"sweep file {path} does not exist") from None
        except (OSError, UnicodeDecodeError) as exc:
            raise SweepError(f"cannot read sweep file {path}: {exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise SweepError(f"{path} is not valid TOML: {exc}") from None
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
        allowed = {
            "name", "preset", "set", "vary", "mode", "variants", "policies", "games",
            "seed", "chunk_size", "summary_only", "out",
        }  # fmt: skip
        unknown = sorted(set(data) - allowed)
        if unknown:
            raise SweepError(
                f"unknown key {unknown[0]!r}; allowed keys: {', '.join(sorted(allowed))}"
            )
        kwargs: dict[str, Any] = {}
        for key in ("name", "preset", "mode", "out"):
            if key in data:
                kwargs[key] = _text(key, data[key])
        for key in ("games", "seed", "chunk_size"):
            if key in data:
                kwargs[key] = _int(key, data[key])
        if "summary_only" in data:
            if not isinstance(data["summary_only"], bool):
                raise SweepError(f"summary_only={data['summary_only']!r} must be true or false")
            kwargs["summary_only"] = data["summary_only"]
        if "set" in data:
            kwargs["set"] = _table("set", data["set"])
        if "vary" in data:
            vary = _table("vary", data["vary"])
            for key, values in vary.items():
                if not isinstance(values, list):
                    raise SweepError(f"vary.{key} must be a list of values, got {values!r}")
            kwargs["vary"] = {k: tuple(v) for k, v in vary.items()}
        if "policies" in data:
            kwargs["policies"] = _policies_value("policies", data["policies"])
        if "variants" in data:
            kwargs["variants"] = _variants(data["variants"])
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
        seed: int = 0,
        chunk_size: int = DEFAULT_CHUNK_SIZE,
        summary_only: bool = False,
    ) -> SweepSpec:
        """The spec of command-line options.

        `vary` items are `TOGGLE=V1,V2,...`; a value holding commas itself
        (a set, faces, per-seat policies) is written in brackets:
        `safe=[],[starts,stars]`, `policies=random,[random,random,random,random]`.
        `variants` items are `PRESET` or `NAME=PRESET`.
        """
        vary_map: dict[str, tuple[Any, ...]] = {}
        for item in vary:
            name, sep, values = item.partition("=")
            name = name.strip()
            if not sep or not name or not values.strip():
                raise SweepError(
                    f"--vary {item!r} is not TOGGLE=V1,V2,...; write e.g. --vary six_limit=0,3"
                )
            if name in vary_map:
                raise SweepError(f"--vary {name} is given twice; list all its values once")
            vary_map[name] = tuple(_split_alternatives(values))
        starts = []
        for item in variants:
            name, sep, variant_preset = item.partition("=")
            if not sep:
                variant_preset = name
            starts.append(Variant(name=name.strip(), preset=variant_preset.strip()))
        try:
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
    ) -> SweepSpec:
        """A copy with the run-size fields that the command line may override in a file."""
        changes = {
            k: v
            for k, v in dict(
                games=games, seed=seed, chunk_size=chunk_size, summary_only=summary_only
            ).items()
            if v is not None
        }
        spec = _replace(self, **changes)
        spec.validate()
        return spec

    # -------------------------------------------------------------- validation
    def validate(self) -> None:
        """Check the spec's own fields (not yet the cells: `expand` does that)."""
        if self.mode not in MODES:
            raise SweepError(
                f"mode={self.mode!r} is not allowed; allowed values: {', '.join(MODES)}"
            )
        if self.games < 1:
            raise SweepError(f"games={self.games} must be at least 1")
        if not 0 <= self.seed < 2**64:
            raise SweepError(f"seed={self.seed} must be in 0..2**64-1")
        if self.chunk_size < 1:
            raise SweepError(f"chunk_size={self.chunk_size} must be at least 1")
        # Each `set` value is checked on its own, even where `vary` overrides it in every cell.
        _check_changes("set", self.set)
        for key, values in self.vary.items():
            if key != POLICIES_KEY and key not in TOGGLES:
                raise SweepError(
                    f"vary.{key}: unknown toggle {key!r}; vary a toggle of `ludosim rules` "
                    "or policies"
                )
            if len(values) == 0:
                raise SweepError(f"vary.{key} lists no values")
            seen: list[Any] = []
            for value in values:
                parsed = _parse_varied(key, value)
                if parsed in seen:
                    raise SweepError(f"vary.{key} lists {format_value(parsed)} twice")
                seen.append(parsed)
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

    # ----------------------------------------------------------------- output
    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-able dict (written into manifest.json)."""
        return {
            "name": self.name,
            "preset": self.preset,
            "set": {k: _jsonable(v) for k, v in self.set.items()},
            "vary": {
                k: [_jsonable(_parse_varied(k, v)) for v in vs] for k, vs in self.vary.items()
            },
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

    def chunks(self, chunk_size: int) -> list[tuple[int, int]]:
        """[start, stop) game ranges of this cell's chunks."""
        return [(a, min(a + chunk_size, self.games)) for a in range(0, self.games, chunk_size)]


# ------------------------------------------------------------------ expansion
def expand(spec: SweepSpec) -> list[Cell]:
    """Every cell of the sweep, validated; raises `SweepError` naming the cell and the field."""
    spec.validate()
    starts = spec.variants or (Variant(name="", preset=spec.preset),)
    parsed_vary = {k: [_parse_varied(k, v) for v in vs] for k, vs in spec.vary.items()}
    plans: list[tuple[Variant, dict[str, Any]]] = []
    for start in starts:
        if not parsed_vary:
            plans.append((start, {}))
        elif spec.mode == "grid":
            keys = list(parsed_vary)
            for combo in itertools.product(*(parsed_vary[k] for k in keys)):
                plans.append((start, dict(zip(keys, combo, strict=True))))
        else:
            plans.append((start, {}))
            base_rules, base_policies = _build(spec, start, {}, where=_label(start, {}))
            for key, values in parsed_vary.items():
                current = base_policies if key == POLICIES_KEY else getattr(base_rules, key)
                plans.extend((start, {key: v}) for v in values if v != current)
    width = max(3, len(str(len(plans) - 1)))
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
                games=spec.games,
                seed=spec.seed,
                changes=combo,
            )
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
) -> tuple[SweepSpec, Path]:
    """The spec and output folder of a `ludosim sweep` command line.

    Either a sweep file, or `--preset`/`--variant` with `--set`/`--vary`: the
    grid is described in one place. With a file, `--games`, `--seed`,
    `--chunk-size` and `--summary-only` override its values (a quick small run
    of a big analysis). The folder is `--out`, else the file's `out`, else
    `runs/<file name>`.
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
        spec = SweepSpec.from_toml(spec_file).with_overrides(
            games=games, seed=seed, chunk_size=chunk_size, summary_only=summary_only
        )
        folder = out or spec.out or Path("runs") / Path(spec_file).stem
        return spec, Path(folder)
    if out is None:
        raise SweepError("--out is required without a sweep file; e.g. --out runs/my-grid")
    if seed is None:
        # Results must be reproducible: no hidden default seed on the command line.
        raise SweepError("--seed is required; e.g. --seed 1")
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

    varying = varying_toggles(cells)
    rows = []
    for cell in cells:
        row: dict[str, Any] = {
            "cell": cell.id,
            "name": cell.name,
            "variant": cell.variant or "",
            "preset": cell.preset,
        }
        for name in TOGGLES:
            if full or name in varying:
                value = getattr(cell.rules, name)
                row[name] = format_value(value) if isinstance(value, tuple) else value
        row["policies"] = format_policies(cell.policies)
        row["games"] = cell.games
        row["seed"] = cell.seed
        row["rules_hash"] = cell.rules.hash()
        if chunk_size is not None:
            row["chunks"] = len(cell.chunks(chunk_size))
        rows.append(row)
    return pd.DataFrame(rows)


def varying_toggles(cells: Sequence[Cell]) -> list[str]:
    """Toggles whose value differs between cells, in table order."""
    return [
        name
        for name in TOGGLES
        if len({json.dumps(_jsonable(getattr(c.rules, name))) for c in cells}) > 1
    ]


def format_policies(policies: str | Sequence[str]) -> str:
    """`random` when every seat plays the same policy, else one per seat with commas."""
    if isinstance(policies, str):
        return policies
    return policies[0] if len(set(policies)) == 1 else ",".join(policies)


# -------------------------------------------------------------------- helpers
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
                f"{where}.{key}: unknown toggle {key!r}; see `ludosim rules --preset NAME`"
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
        names = [p.strip() for p in value.strip().strip("[]").split(",") if p.strip()]
    elif isinstance(value, (list, tuple)) and all(isinstance(p, str) for p in value):
        names = [p.strip() for p in value]
    else:
        raise SweepError(f"{where}={value!r} must be a policy name or a list of them")
    if not names:
        raise SweepError(f"{where} is empty; give a policy name such as random")
    return names[0] if len(names) == 1 else tuple(names)


def _split_alternatives(text: str) -> list[str]:
    """`0,3` -> ["0", "3"]; `[],[starts,stars]` -> ["[]", "[starts,stars]"]."""
    items, depth, current = [], 0, ""
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == "," and depth == 0:
            items.append(current.strip())
            current = ""
        else:
            current += char
    items.append(current.strip())
    if depth != 0 or any(item == "" for item in items):
        raise SweepError(f"--vary values {text!r} are malformed; write e.g. 0,3 or [],[starts]")
    return items


def _variants(value: Any) -> tuple[Variant, ...]:
    """`[variants.NAME]` tables, or a `[[variants]]` array with a `name` key each."""
    if isinstance(value, dict):
        items = [(name, body) for name, body in value.items()]
    elif isinstance(value, list):
        items = []
        for body in value:
            if not isinstance(body, dict) or "name" not in body:
                raise SweepError("each [[variants]] entry needs a name")
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
