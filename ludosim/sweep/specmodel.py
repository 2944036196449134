"""`SweepSpec`, what determines the rows of a sweep, and its named starting points
(`Variant`): built from a sweep file, a dict or command-line options, validated on
construction, and written back as a dict or TOML; the spec and folder of a
`ludosim sweep` command line.
"""

from __future__ import annotations

import os
import tomllib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludosim.results.paths import chunk_count
from ludosim.results.schema import GAMES_MAX, SEED_MAX
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import format_value
from ludosim.rules.options import RuleSet, parse_sets, parse_vary
from ludosim.sweep.precision import (
    DEFAULT_MAX_GAMES,
    DEFAULT_PILOT,
    MIN_PILOT,
    Target,
    parse_target,
)
from ludosim.sweep.spectext import spec_toml
from ludosim.sweep.specvalues import (
    CHUNKS_MAX,
    DEFAULT_CHUNK_SIZE,
    MODES,
    SEED_REQUIRED,
    Policies,
    SweepError,
    _check_changes,
    _check_precision_keys,
    _check_range,
    _int,
    _jsonable,
    _parse_vary,
    _policies_value,
    _smallest,
    _table,
    _text,
)


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


def _replace(spec: SweepSpec, **changes: Any) -> SweepSpec:
    import dataclasses

    return dataclasses.replace(spec, **changes)
