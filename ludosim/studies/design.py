"""The house-rule designer: which house rules give the game a table wants, and at what cost.

A study names a preset, the toggles that may change (`free`, each at two values:
the preset's own and one alternative), what is wanted (`goals`: shorter, fairer,
more skill, more comebacks, more captures) and what must hold (`limits`, such as
`length<=90` rounds). It goes through the steps every study goes through:

- **plan** (`DesignStudy`, `load_study`, `study_from_options`, `plan_study`):
  the free toggles that can act and that the engines accept together (the others
  are dropped, with the reason counted), and a two-level fractional factorial of
  resolution V over them (`pydoe.fracfact_by_res`: every main effect and two-toggle
  interaction is estimable, none aliased with another);
- **play** (`play_study`): each stage is three sweeps (`ludosim.sweep`), so it is
  resumable and runs on one machine or a Dask cluster. Every rule set plays games
  with every seat `random` (with the game-flow columns), and games of the optimal
  and of the fictive player of the relative skill level (Dreef, Borm and van der
  Genugten 2004), each in one seat against `random` ones, rotated through the seats
  (`DEFAULT_OPTIMAL`, `DEFAULT_FICTIVE`). The stages:
  `screen` (the factorial), `holdout` (rule sets outside it, to check the model)
  and `confirm` (candidates that may be best, drawn far apart, replayed once at a
  size fixed in advance); each stage on games no other stage played (`stage_seed`);
- **tables** (`DesignTables`, `write_tables`, `read_tables`): the measures of every
  rule set played (`ludosim.results.measures.DESIGN_MEASURES`, each with its 95%
  interval), the screening effects, the model and its check, the candidates, the
  confirmed values; all CSV;
- **findings** (`study_findings`, `decide`): what to change and what it costs, decided in one
  family per page (Holm), like every page;
- **page** (`study_page`): findings first, the screening effects, the front between
  the goals, the recommended rule sets as `--set` lines, and an explorer: menus for
  the free toggles and every measure the model predicts for the chosen rule set.

The model is a meta-regression (statsmodels WLS) per measure on the screening rule
sets: main effects of every free toggle and the two-toggle interactions the screening
resolved, with a lack-of-fit variance component (DerSimonian-Laird moments) that no
number of games shrinks. Its 95% prediction interval for a rule set adds the
coefficients' uncertainty, the lack of fit, the screening's shared dice and the noise
of the games a measurement plays; the held-out rule sets check it, two-sided, per
measure. The search enumerates every combination of the free toggles' two values (at
most 2^16), keeps those the model predicts within the limits, and reads the front
between the goals over the prediction intervals (`interval_front`).
"""

from __future__ import annotations

import itertools
import json
import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.contrasts import (
    ALPHA,
    BELOW,
    EQUIVALENT,
    OPEN,
    POSSIBLY_BELOW,
    PRACTICAL,
    CellEstimates,
    CellSamples,
    Family,
    Test,
    cell_rows,
    practical_size,
)
from ludosim.report.coverage import CONSISTENT, Coverage, coverage_check
from ludosim.report.findings import Finding, PageFindings
from ludosim.report.wording import amount, estimate, listing, of, p_text
from ludosim.results.measures import DESIGN_MEASURES, MEASURES
from ludosim.results.stats import Z95, imbalance, quantile_ci, z_for
from ludosim.rules.canonical import inert_toggles, same_game_key
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import PRESETS, TOGGLES, Rules, format_value, parse_value
from ludosim.rules.options import parse_sets, split_values

Progress = Callable[[int, int], None]

# Toggles a table can change without another board or die, and that can change what
# random play does (who moves first cannot: the seats are symmetric).
HOUSE_RULES = (
    "start_attempts",
    "start_attempts_when",
    "bonus_on_six",
    "start_capacity",
    "bonus_on_capture",
    "bonus_on_finish",
    "six_limit",
    "bonus_stacking",
    "no_move_ends_turn",
    "pass_own",
    "pass_opponents",
    "safe",
    "safe_landing",
    "capture_rule",
    "block_landing",
    "start_capture",
    "finish",
    "forced_capture",
)
# The other value a toggle is screened at, when the study names none: the house rule a
# table is likeliest to argue about, given the preset's own value.
ALTERNATIVES: dict[str, dict[Any, Any]] = {
    "six_limit": {0: 3, 2: 0, 3: 0, 4: 0, 5: 0, 6: 0},
    "pass_opponents": {"all": "none", "singles": "all", "none": "all"},
    "finish": {"exact": "bounce", "bounce": "exact", "bounce_on": "exact"},
    "bonus_on_six": {"always": "never", "unless_entered": "always", "never": "always"},
    "start_attempts": {1: 3, 3: 1},
    "start_capacity": {0: 2, 1: 0, 2: 0, 3: 0, 4: 0},
    "block_landing": {
        "coexist": "capture",
        "lander_home": "coexist",
        "capture": "coexist",
        "forbidden": "coexist",
    },
    "safe": {(): ("starts", "stars")},
}
GOALS: dict[str, tuple[str, int]] = {
    # goal -> (measure, +1 to raise it / -1 to lower it)
    "short": ("length", -1),
    "fairness": ("imbalance", -1),
    "skill": ("skill", 1),
    "drama": ("comebacks", 1),
    "action": ("captures", 1),
}
MAX_FREE = 16  # a resolution V design of 16 two-level toggles has 256 rule sets
WEAK = "random"  # the beginner of the relative skill level, in every other seat
# The optimal player of the relative skill level: the expert's 32 rollouts cut at 12
# turns. Against three random players it wins as much as the full expert (32 x 24) under
# danish and app (8,000 and 4,000 games: docs/design.md, "Skill") at twice its speed, so
# the rule sets of a design can afford it; lighter experts (fewer rollouts) win less.
DEFAULT_OPTIMAL = "expert:32:12"
DEFAULT_FICTIVE = "fictive"  # the expert's search on the game's own future dice
# The fictive player's games: the stage's seed mixed with this index (`player_seed`),
# an index no stage uses, so its dice are independent of the optimal player's.
FICTIVE_INDEX = 3
# The pace a rules card turns rounds into minutes at: one player turn (its rolls and
# moves) in this many seconds at a family table. An assumption the page states, not a
# measurement.
SECONDS_PER_TURN = 6.0
# Every stage plays its own games: the stage's index mixed into the study's seed with the
# streams' own mixer, so no stage replays another's dice (the screening keeps the seed).
STAGE_INDEX = {"screen": 0, "holdout": 1, "confirm": 2}
BOOTSTRAP = 400  # resamples behind an imbalance's standard error
TABLES = ("points", "measures", "effects", "model", "checks", "candidates", "confirmed")


def stage_seed(seed: int, stage: str) -> int:
    """The master seed of a stage's sweeps: the study's seed for the screening, a
    SplitMix64 mix of (seed, stage) for the others (`ludosim.rules.streams`), so that
    the holdout and the confirmation play games no other stage played."""
    from ludosim.rules.streams import GOLDEN, MASK64, mix64

    index = STAGE_INDEX[stage]
    return seed if index == 0 else mix64((seed + index * GOLDEN) & MASK64)


def player_seed(seed: int) -> int:
    """The master seed of a stage's fictive player's games, from the stage's seed: a
    SplitMix64 mix with `FICTIVE_INDEX`, so the fictive player's dice are independent of
    the optimal player's (the delta method's variance of RS assumes it) and of every
    stage's."""
    from ludosim.rules.streams import GOLDEN, MASK64, mix64

    return mix64((seed + FICTIVE_INDEX * GOLDEN) & MASK64)


class DesignError(LudosimError, ValueError):
    """A design study that cannot be planned: the message names the field and the fix."""


# ------------------------------------------------------------------------------- plan
@dataclass(frozen=True)
class Free:
    """A free toggle and the two values it is screened at (the preset's own first)."""

    toggle: str
    values: tuple[Any, Any]

    def text(self, level: int) -> str:
        """`finish=bounce` for level +1, `finish=exact` for -1."""
        value = self.values[1 if level > 0 else 0]
        return f"{self.toggle}={_spell(self.toggle, value)}"


@dataclass(frozen=True)
class Limit:
    """`measure <= value` or `measure >= value`, in the measure's unit."""

    measure: str
    op: str
    value: float

    def holds(self, x: float) -> bool:
        return x <= self.value if self.op == "<=" else x >= self.value

    @property
    def text(self) -> str:
        unit = MEASURES[self.measure].unit
        return f"{self.measure} {self.op} {_num(self.value)} {unit}"


@dataclass(frozen=True)
class DesignStudy:
    """What a design asks: the rules it starts from, what may change, what is wanted.

    `sets`: changes on top of the preset that every rule set keeps. `free`: the
    toggles that may change, each at two values (empty: every house rule of the
    preset's family, `default_free`). `goals`: names of `GOALS`; `limits`:
    `Limit`s. Games per rule set: `screen_games` with random seats, and
    `skill_games` for each of the relative skill level's players, `optimal` and
    `fictive`, in one seat against random ones (rotated through the seats);
    `holdout` rule sets check the model; `candidates` are confirmed, each on
    `confirm_games` games.
    """

    preset: str
    seed: int
    sets: tuple[str, ...] = ()
    free: tuple[Free, ...] = ()
    goals: tuple[str, ...] = ("short",)
    limits: tuple[Limit, ...] = ()
    screen_games: int = 40_000
    # The model pools the relative skill level over the screening's rule sets, so each
    # needs far fewer games than a page about one rule set (docs/design.md, "Skill").
    skill_games: int = 1_600
    holdout: int = 8
    candidates: int = 4
    confirm_games: int = 100_000
    name: str = ""
    optimal: str = DEFAULT_OPTIMAL
    fictive: str = DEFAULT_FICTIVE

    dropped: tuple[tuple[str, str], ...] = ()  # (toggle, why), filled by `plan_study`

    def base(self) -> Rules:
        return _rules(self.preset, self.sets, {})


def _spell(toggle: str, value: Any) -> str:
    text = format_value(value)
    return text if text else "{}"


def _num(x: float) -> str:
    return f"{x:g}"


def _rules(preset: str, sets: Sequence[str], levels: Mapping[str, Any]) -> Rules:

    changes: dict[str, Any] = dict(parse_sets(sets))
    changes.update(levels)
    rules = Rules.preset(preset)
    return rules.replace(**changes) if changes else rules


def default_free(preset: str, sets: Sequence[str] = ()) -> list[Free]:
    """Every house rule of the preset's family, at its own value and its alternative.

    The family: the `HOUSE_RULES` the preset's founding texts speak about (the
    toggle table's seeds), or all of them for a preset without a founding text.
    """
    base = _rules(preset, sets, {})
    seeds = set(PRESETS[preset].seeds)
    out = []
    for name in HOUSE_RULES:
        if seeds and not seeds & set(TOGGLES[name].seeds):
            continue
        value = getattr(base, name)
        out.append(Free(name, (value, _alternative(name, value))))
    return out


def _alternative(name: str, value: Any) -> Any:
    if name in ALTERNATIVES and value in ALTERNATIVES[name]:
        return ALTERNATIVES[name][value]
    toggle = TOGGLES[name]
    if toggle.kind == "bool":
        return not value
    if toggle.kind == "set":
        return () if value else tuple(toggle.choices[:1])
    if toggle.kind == "choice":
        return next(c for c in toggle.choices if c != value)
    raise DesignError(f"free: {name} has no default alternative; give two values ({name}=A,B)")


def parse_free(items: Sequence[str], preset: str, sets: Sequence[str] = ()) -> list[Free]:
    """`--free TOGGLE` (its own value and the default alternative) or `TOGGLE=A,B`."""
    base = _rules(preset, sets, {})
    out = []
    for item in items:
        name, sep, text = (s.strip() for s in item.partition("="))
        if name not in TOGGLES:
            raise DesignError(
                f"free: unknown toggle {name!r}; the house rules: {', '.join(HOUSE_RULES)}"
            )
        if any(f.toggle == name for f in out):
            raise DesignError(f"free: {name} is given twice")
        if not sep:
            value = getattr(base, name)
            out.append(Free(name, (value, _alternative(name, value))))
            continue
        parts = _split_values(name, text)
        if len(parts) != 2:
            raise DesignError(
                f"free: {item!r} gives {len(parts)} values; the designer screens two values "
                f"per toggle (write {name}=A,B, or {name} alone for its own value and "
                "the usual alternative)"
            )
        try:
            values = tuple(parse_value(name, p) for p in parts)
        except LudosimError as exc:
            raise DesignError(f"free: {exc}") from None
        if values[0] == values[1]:
            raise DesignError(f"free: {item!r} gives the same value twice")
        out.append(Free(name, values))  # type: ignore[arg-type]
    return out


def _split_values(name: str, text: str) -> list[str]:
    """`a,b` -> [a, b]; a set's values are bracketed: `[],[starts,stars]`."""

    if TOGGLES[name].kind in ("set", "faces", "ints"):
        return [p.strip("[]") for p in split_values(text)]
    return [p.strip() for p in text.split(",")]


def parse_limit(text: str) -> Limit:
    """`length<=90 rounds`, `skill>=0.5 RS`, `imbalance<=0.3`: a measure, <= or >=, a
    number, and optionally the measure's unit (in any case)."""
    import re

    if not isinstance(text, str):
        raise DesignError(f'limits: each limit is a text such as "length<=90 rounds", got {text!r}')
    match = re.fullmatch(
        r"\s*([a-z_0-9]+)\s*(<=|>=)\s*([+-]?[0-9]*\.?[0-9]+)\s*([a-zA-Z% ]*?)\s*", text
    )
    if not match:
        raise DesignError(
            f'limit {text!r} is not MEASURE<=VALUE or MEASURE>=VALUE (e.g. "length<=90 '
            f'rounds"); measures: {", ".join(DESIGN_MEASURES)}'
        )
    name, op, value, unit = match.groups()
    if name not in DESIGN_MEASURES:
        raise DesignError(
            f"limit {text!r}: unknown measure {name!r}; measures: {', '.join(DESIGN_MEASURES)}"
        )
    expected = MEASURES[name].unit
    spellings = {expected.replace(" ", "").lower(), expected.split()[0].lower()}
    if expected == "rounds":
        spellings.add("round")
    if unit and unit.replace(" ", "").lower() not in spellings:
        raise DesignError(f"limit {text!r}: {name} is in {expected}, not {unit!r}")
    return Limit(name, op, float(value))


SIZES = ("screen_games", "skill_games", "holdout", "candidates", "confirm_games")
PLAYERS = ("optimal", "fictive")


def study_from_options(
    preset: str,
    seed: int,
    *,
    sets: Sequence[str] = (),
    free: Sequence[str] = (),
    goals: Sequence[str] = ("short",),
    limits: Sequence[str] = (),
    optimal: str = DEFAULT_OPTIMAL,
    fictive: str = DEFAULT_FICTIVE,
    **sizes: int,
) -> DesignStudy:
    """A study from command-line options (`ludosim design`). `sizes`: any of `SIZES`.

    Every argument is checked before anything is planned: a wrong one is one
    `DesignError` naming it and what it takes."""
    unknown = sorted(set(sizes) - set(SIZES))
    if unknown:
        raise DesignError(f"unknown size {unknown[0]!r}; sizes: {', '.join(SIZES)}")
    for key, value in sizes.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise DesignError(f"{key} must be a whole number of games or rule sets, got {value!r}")
    if not isinstance(preset, str) or preset not in PRESETS:
        raise DesignError(f"preset {preset!r} is unknown; presets: {', '.join(PRESETS)}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise DesignError(f"seed must be a whole number >= 0, got {seed!r}")
    sets, free, goals, limits = (
        _texts(key, value)
        for key, value in (("sets", sets), ("free", free), ("goals", goals), ("limits", limits))
    )
    for goal in goals:
        if goal not in GOALS:
            raise DesignError(f"goal {goal!r} is unknown; goals: {', '.join(GOALS)}")
    players = {
        key: _player(key, name) for key, name in (("optimal", optimal), ("fictive", fictive))
    }
    if players["optimal"] == players["fictive"]:
        raise DesignError(
            f"optimal and fictive are both {players['optimal']}; the relative skill level "
            f"places the optimal player between random play and a player who knows the dice "
            f"(e.g. optimal = {DEFAULT_OPTIMAL!r}, fictive = {DEFAULT_FICTIVE!r})"
        )
    free_list = parse_free(free, preset, sets) if free else default_free(preset, sets)
    study = DesignStudy(
        preset=preset,
        seed=seed,
        sets=tuple(sets),
        free=tuple(free_list),
        goals=tuple(dict.fromkeys(goals)) or ("short",),
        limits=tuple(parse_limit(x) for x in limits),
        optimal=players["optimal"],
        fictive=players["fictive"],
        **sizes,
    )
    _check_sizes(study)
    return study


def _texts(key: str, value: Any) -> tuple[str, ...]:
    """A list of texts; one text alone is refused (it would be read letter by letter)."""
    example = {"sets": '["finish=exact"]', "free": '["finish"]', "goals": '["short"]',
               "limits": '["length<=90 rounds"]'}[key]  # fmt: skip
    if isinstance(value, str) or not isinstance(value, Sequence):
        raise DesignError(f"{key} must be a list of texts, e.g. {key} = {example}; got {value!r}")
    bad = next((v for v in value if not isinstance(v, str)), None)
    if bad is not None:
        raise DesignError(f"{key} must be a list of texts, e.g. {key} = {example}; got {bad!r}")
    return tuple(value)


def _player(key: str, name: Any) -> str:
    """The canonical name of the optimal or the fictive player, checked."""
    from ludosim.rules.policies import parse_policy

    if not isinstance(name, str):
        raise DesignError(f"{key} must be a policy name (e.g. {DEFAULT_OPTIMAL!r}), got {name!r}")
    try:
        canonical = parse_policy(name).name
    except LudosimError as exc:
        raise DesignError(f"{key}: {exc}") from None
    if canonical == WEAK:
        raise DesignError(
            f"{key}: {WEAK} is the beginner the relative skill level measures from; name a "
            f"stronger player (e.g. optimal = {DEFAULT_OPTIMAL!r}, fictive = {DEFAULT_FICTIVE!r})"
        )
    return canonical


_KEYS = {"name", "preset", "seed", "set", "free", "goals", "limits", *SIZES, *PLAYERS}


def load_study(path: str | Path, *, seed: int | None = None) -> DesignStudy:
    """A study file: `preset`, `seed`, `set = [...]`, `free = [...]`, `goals`, `limits`,
    the sizes, `optimal` and `fictive`; any problem is one `DesignError` naming the file
    and the key."""
    if not isinstance(path, (str, Path)):
        raise DesignError(f"load_study: path must be a design file's path, got {path!r}")
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise DesignError(f"design file {path} does not exist") from None
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise DesignError(f"cannot read design file {path}: {exc}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise DesignError(
            f"{path}: unknown key {unknown[0]!r}; allowed: {', '.join(sorted(_KEYS))}"
        )
    if seed is not None:
        data["seed"] = seed
    if "seed" not in data or "preset" not in data:
        raise DesignError(f'{path}: preset and seed are required (e.g. preset = "app", seed = 1)')
    sizes = {k: data[k] for k in SIZES if k in data}
    players = {k: data[k] for k in PLAYERS if k in data}
    try:
        study = study_from_options(
            data["preset"],
            data["seed"],
            sets=data.get("set", []),
            free=data.get("free", []),
            goals=data.get("goals", ["short"]),
            limits=data.get("limits", []),
            **players,
            **sizes,
        )
    except DesignError as exc:
        # The file spells the changes kept `set`; the options spell them `sets`.
        message = str(exc).replace("sets must be", "set must be").replace("sets = [", "set = [")
        raise DesignError(f"{path}: {message}") from None
    return replace(study, name=str(data.get("name") or path.stem))


def _check_sizes(study: DesignStudy) -> None:
    players = study.base().players
    for key in ("screen_games", "skill_games", "confirm_games"):
        if getattr(study, key) < 20 * players:
            raise DesignError(f"{key} must be at least {20 * players} (20 games per seat)")
    if study.holdout < 0:
        raise DesignError(f"holdout must be >= 0 rule sets, got {study.holdout}")
    if study.candidates < 1:
        raise DesignError(f"candidates must be >= 1 rule set, got {study.candidates}")


@dataclass(frozen=True)
class Plan:
    """The screening design: the free toggles kept, the dropped ones and why, the codes."""

    study: DesignStudy
    free: tuple[Free, ...]
    codes: np.ndarray  # rule sets x free toggles, -1 (the preset's value) or +1
    dropped: tuple[tuple[str, str], ...]

    def levels(self, row: Sequence[float]) -> dict[str, Any]:
        return {f.toggle: f.values[1 if x > 0 else 0] for f, x in zip(self.free, row, strict=True)}

    def rules(self, row: Sequence[float]) -> Rules:
        return _rules(self.study.preset, self.study.sets, self.levels(row))

    def label(self, row: Sequence[float]) -> str:
        changed = [f.text(1) for f, x in zip(self.free, row, strict=True) if x > 0]
        return " ".join(changed) or "(the preset's own)"


def plan_study(study: DesignStudy) -> Plan:
    """Drop the free toggles that cannot be played or cannot act; build the factorial."""
    dropped: list[tuple[str, str]] = []
    kept: list[Free] = []
    base = study.base()
    for free in study.free:
        if getattr(base, free.toggle) != free.values[0] and not any(
            getattr(base, free.toggle) == v for v in free.values
        ):
            pass  # a study may screen two values neither of which is the preset's
        try:
            _rules(study.preset, study.sets, {free.toggle: free.values[1]})
            _rules(study.preset, study.sets, {free.toggle: free.values[0]})
        except LudosimError as exc:
            dropped.append((free.toggle, f"refused: {exc}"))
            continue
        clash = next((k for k in kept if _refused(study, (k, free))), None)
        if clash is not None:
            dropped.append((free.toggle, f"refused together with {clash.toggle}"))
            continue
        kept.append(free)
    while True:
        if len(kept) > MAX_FREE:
            raise DesignError(
                f"free: {len(kept)} toggles; a design screens at most {MAX_FREE} (name them "
                "with free = [...] / --free)"
            )
        if len(kept) < 2:
            raise DesignError(
                f"free: {len(kept)} toggle(s) left to screen (dropped: "
                f"{'; '.join(f'{t}: {w}' for t, w in dropped) or 'none'}); a design needs two"
            )
        codes = _factorial(len(kept))
        plan = Plan(study, tuple(kept), codes, tuple(dropped))
        inert = _inert_everywhere(plan)
        if not inert:
            return plan
        kept = [f for f in kept if f.toggle not in inert]
        dropped += [
            (t, f"cannot act in any rule set of the design ({why})") for t, why in inert.items()
        ]


def _refused(study: DesignStudy, frees: Sequence[Free]) -> bool:
    try:
        _rules(study.preset, study.sets, {f.toggle: f.values[1] for f in frees})
    except LudosimError:
        return True
    return False


def _factorial(k: int) -> np.ndarray:
    """A two-level design of resolution V (at least 16 rule sets), -1/+1 codes."""
    from pydoe import fracfact_by_res

    return np.asarray(fracfact_by_res(k, 5), dtype=float)


def _inert_everywhere(plan: Plan) -> dict[str, str]:
    """Free toggles that cannot act in any rule set of the design, with the reason.

    Whether a toggle can act depends only on the other toggles (`ludosim.rules.canonical`),
    so in each rule set it is asked at whichever of its two values is not the default
    (the canonical form reports only toggles away from their default).
    """
    reasons: dict[str, str] = {}
    acting: set[str] = set()
    policies = None
    for row in plan.codes:
        levels = plan.levels(row)
        for f in plan.free:
            other = f.values[1] if f.values[1] != TOGGLES[f.toggle].default else f.values[0]
            try:
                rules = _rules(plan.study.preset, plan.study.sets, {**levels, f.toggle: other})
            except LudosimError as exc:
                raise DesignError(f"the engines refuse rule set {plan.label(row)}: {exc}") from None
            policies = policies or [plan.study.optimal] + [WEAK] * (rules.players - 1)
            why = inert_toggles(rules, policies).get(f.toggle)
            if why is None:
                acting.add(f.toggle)
            else:
                reasons.setdefault(f.toggle, why)
    return {t: w for t, w in reasons.items() if t not in acting}


# ------------------------------------------------------------------------------- play
@dataclass
class Stage:
    """Rule sets played together (same games): the screening, the holdout, a round."""

    name: str
    codes: np.ndarray  # rule sets x free toggles
    games: int  # random-seat games per rule set
    skill_games: int  # games of each skill player (optimal, fictive), over all its seats

    seed: int
    ids: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        if not self.ids:
            self.ids = [f"{self.name}-{i:03d}" for i in range(len(self.codes))]


def _variants(plan: Plan, stage: Stage) -> tuple[Any, ...]:
    from ludosim.sweep.spec import Variant

    fixed = parse_sets(plan.study.sets)
    return tuple(
        Variant(
            name=pid,
            preset=plan.study.preset,
            set={**fixed, **{k: _typed(v) for k, v in plan.levels(row).items()}},
        )
        for pid, row in zip(stage.ids, stage.codes, strict=True)
    )


def _typed(value: Any) -> Any:
    """A toggle value as a sweep file writes it (sets and faces as lists)."""
    return list(value) if isinstance(value, tuple) else value


def _seatings(player: str, players: int) -> list[list[str]]:
    """`player` in every position against random ones: `expert,random,random,random`
    rotated."""
    return [[player if s == k else WEAK for s in range(players)] for k in range(players)]


def stage_specs(plan: Plan, stage: Stage) -> dict[str, Any]:
    """The three sweeps of a stage: every seat random (with the game-flow columns); the
    optimal player and the fictive player each in every position against random ones,
    the fictive player on dice of its own (`player_seed`)."""
    from ludosim.sweep import SweepSpec

    study = plan.study
    players = study.base().players
    variants = _variants(plan, stage)
    specs = {
        "random": SweepSpec(
            variants=variants,
            policies=WEAK,
            games=stage.games,
            seed=stage.seed,
            flow=True,
            name=f"{stage.name}-random",
        )
    }
    for kind, player, seed in (
        ("optimal", study.optimal, stage.seed),
        ("fictive", study.fictive, player_seed(stage.seed)),
    ):
        specs[kind] = SweepSpec(
            variants=variants,
            vary={"policies": [tuple(s) for s in _seatings(player, players)]},
            games=max(1, stage.skill_games // players),
            seed=seed,
            name=f"{stage.name}-{kind}",
        )
    return specs


def play_stage(
    plan: Plan,
    stage: Stage,
    out: Path,
    *,
    progress: Progress | None = None,
    **run: Any,
) -> tuple[pd.DataFrame, StageSamples]:
    """Play (or resume) a stage's sweeps into `out/<stage>-random`, `-optimal` and
    `-fictive`; its measures and the samples they come from."""
    from ludosim.sweep import run_sweep

    specs = stage_specs(plan, stage)
    for kind, spec in specs.items():
        run_sweep(spec, out / f"{stage.name}-{kind}", progress=progress, **run)
    return measure_stage(plan, stage, out)


_RANDOM_COLUMNS = ("game", "first", "winner", "turns", "truncated", "lead_changes", "last_at_mid")


def measure_stage(plan: Plan, stage: Stage, out: Path) -> tuple[pd.DataFrame, StageSamples]:
    """Every design measure of every rule set of a played stage, with its 95% interval.

    Rule sets of a stage played the same games, so mean measures are `CellSamples`
    (paired); the 90th percentile, the imbalance and the relative skill level are
    `CellEstimates`.
    """

    study = plan.study
    players = study.base().players
    columns = [
        *_RANDOM_COLUMNS,
        *(f"captures_{s}" for s in range(players)),
        *(f"place_{s}" for s in range(players)),
    ]
    random = _by_point(out / f"{stage.name}-random", columns)
    seated = [
        _seat_wins(_by_point(out / f"{stage.name}-{kind}", ["game", "winner"]), player, players)
        for kind, player in (("optimal", study.optimal), ("fictive", study.fictive))
    ]
    samples = stage_samples(random.assign(cell=random["point"]), *seated)
    return measures_table(stage, samples), samples


def _by_point(folder: Path, columns: Sequence[str]) -> pd.DataFrame:
    """A sweep's rows with `point` (the variant, the rule set) and the cell's policies."""
    from ludosim import results

    cells = results.load_cells(folder)
    rows = results.load(folder, columns=list(columns))
    variant = dict(zip(cells["cell"].astype(str), cells["variant"].astype(str), strict=True))
    policies = dict(zip(cells["cell"].astype(str), cells["policies"].astype(str), strict=True))
    cell = rows["cell"].astype(str)
    return rows.assign(point=cell.map(variant), policies=cell.map(policies))


def _seat_wins(rows: pd.DataFrame, player: str, players: int) -> pd.DataFrame:
    """One table per rule set of a player's games in every seat position: `cell` (the
    rule set), `game` and `won` (1 when the player's seat won, 0 when another did, NaN
    without a finisher). The k-th seating's game g becomes game k * G + g."""
    from ludosim.rules.policies import format_policies

    seat_of = {format_policies(s): k for k, s in enumerate(_seatings(player, players))}
    seats = rows["policies"].astype(str).map(seat_of)
    if seats.isna().any():
        raise DesignError(
            f"a skill sweep holds seatings other than {player} against {WEAK} players; "
            "delete the stage's -optimal and -fictive folders and rerun"
        )
    per = int(rows.groupby(["point", "policies"], observed=True).size().max())
    seat = seats.to_numpy(np.int64)
    winner = rows["winner"].to_numpy(np.int64)
    won = (winner == seat).astype(float)
    won[winner < 0] = np.nan
    game = rows["game"].to_numpy(np.int64) + seat * per
    return pd.DataFrame({"cell": rows["point"].to_numpy(), "game": game, "won": won})


@dataclass
class StageSamples:
    """What a stage's measures are computed from."""

    means: dict[str, CellSamples | CellEstimates]


def stage_samples(
    random: pd.DataFrame, optimal: pd.DataFrame, fictive: pd.DataFrame
) -> StageSamples:
    """The samples of every design measure: `random` holds every rule set's games with
    every seat random (`cell`, the game columns); `optimal` and `fictive` each player's
    games in one seat against random ones (`cell`, `game`, `won`: `_seat_wins`)."""
    rows = cell_rows(random)
    out: dict[str, CellSamples | CellEstimates] = {}
    for name in DESIGN_MEASURES:
        m = MEASURES[name]
        if m.statistic == "mean":
            out[name] = CellSamples(rows, lambda r, n, m=m: m.scale * m.values(r, n))
        elif m.statistic == "p90":
            est, se, games = {}, {}, {}
            for cell, r in rows.items():
                value, low, high = quantile_ci(m.values(r, r.players), 0.9)
                est[cell], se[cell], games[cell] = value, (high - low) / (2 * Z95), len(r)
            out[name] = CellEstimates(est, se, games)
        elif m.statistic == "relative_skill":
            out[name] = relative_skill_estimates(optimal, fictive, rows)
        else:  # imbalance over the turn-order positions
            est, se, games = {}, {}, {}
            for i, (cell, r) in enumerate(rows.items()):
                winner = np.asarray(r["winner"], dtype=np.int64)
                first = np.asarray(r["first"], dtype=np.int64)
                done = winner >= 0
                wins = np.bincount((winner[done] - first[done]) % r.players, minlength=r.players)
                est[cell], se[cell] = imbalance(wins, BOOTSTRAP, seed=i)
                games[cell] = int(done.sum())
            out[name] = CellEstimates(est, se, games)
    return StageSamples(out)


def relative_skill_estimates(
    optimal: pd.DataFrame, fictive: pd.DataFrame, rows: Mapping[str, Any]
) -> CellEstimates:
    """Each rule set's relative skill level with its delta-method standard error
    (`ludosim.studies.relative_skill.RelativeSkill`, the skill page's measure): from the
    optimal and the fictive player's decided games in one rotated seat against random
    players, on independent dice. `rows`: the rule sets' random-seat rows (their players).
    `games`: both players' decided games together."""
    from ludosim.studies.relative_skill import RelativeSkill

    def tally(frame: pd.DataFrame) -> dict[str, tuple[int, int]]:
        won = frame["won"].to_numpy(float)
        done = ~np.isnan(won)
        cells = frame["cell"].astype(str).to_numpy()
        wins = pd.Series(np.where(done, won, 0.0)).groupby(cells).sum()
        decided = pd.Series(done.astype(np.int64)).groupby(cells).sum()
        return {c: (int(wins[c]), int(decided[c])) for c in decided.index}

    o, f = tally(optimal), tally(fictive)
    est, se, games = {}, {}, {}
    for cell, r in rows.items():
        (wo, no), (wf, nf) = o.get(cell, (0, 0)), f.get(cell, (0, 0))
        rs = RelativeSkill(wo, no, wf, nf, r.players)
        if not (no and nf and rs.defined):
            raise DesignError(
                f"skill: under rule set {cell} the fictive player won {wf:,} of {nf:,} decided "
                f"games against random players, no more than a random player's share, so its "
                "relative skill level is undefined; name another fictive player"
            )
        est[cell], se[cell], games[cell] = rs.rs, rs.se, no + nf
    return CellEstimates(est, se, games)


MEASURE_COLUMNS = (
    "point",
    "stage",
    "measure",
    "unit",
    "estimate",
    "ci_low",
    "ci_high",
    "se",
    "games",
)


def measures_table(stage: Stage, samples: StageSamples) -> pd.DataFrame:
    rows = []
    for name, sample in samples.means.items():
        unit = MEASURES[name].unit
        for point in stage.ids:
            c = sample.contrast({point: 1.0})
            low = c.ci_low
            if MEASURES[name].statistic == "imbalance":
                low = max(0.0, low)  # a distance from fair: its interval starts at 0
            rows.append(
                {
                    "point": point,
                    "stage": stage.name,
                    "measure": name,
                    "unit": unit,
                    "estimate": c.estimate,
                    "ci_low": low,
                    "ci_high": c.ci_high,
                    "se": c.se,
                    "games": c.games,
                }
            )
    return pd.DataFrame(rows, columns=list(MEASURE_COLUMNS))


# ------------------------------------------------------------------- screening effects
def terms(k: int) -> list[tuple[int, ...]]:
    """The screening's terms: every main effect, then every two-toggle interaction."""
    return [(i,) for i in range(k)] + list(itertools.combinations(range(k), 2))


def _term_name(plan: Plan, term: tuple[int, ...]) -> str:
    if len(term) == 1:
        f = plan.free[term[0]]
        return f"{f.toggle} {_spell(f.toggle, f.values[0])} -> {_spell(f.toggle, f.values[1])}"
    return " x ".join(plan.free[i].toggle for i in term)


def screening_tests(
    plan: Plan, stage: Stage, samples: StageSamples, family: Family
) -> list[tuple[str, tuple[int, ...], Test]]:
    """Every term's effect on every measure, as a test of `family`.

    A main effect is the mean at the alternative minus the mean at the preset's value,
    `sum_c x_c y_c / (N/2)`; an interaction the same with the product of two codes.
    The design is of resolution V, so no effect is aliased with another of these.
    """
    half = len(stage.ids) / 2
    out = []
    for name in DESIGN_MEASURES:
        sample = samples.means[name]
        for term in terms(len(plan.free)):
            signs = np.prod(stage.codes[:, list(term)], axis=1) / half
            weights = dict(zip(stage.ids, signs.tolist(), strict=True))
            key = f"effect:{name}:{'x'.join(plan.free[i].toggle for i in term)}"
            out.append((name, term, family.add(Test.of(key, sample.contrast(weights)))))
    return out


EFFECT_COLUMNS = (
    "measure",
    "term",
    "factors",
    "estimate",
    "ci_low",
    "ci_high",
    "p_value",
    "p_adjusted",
    "resolved",
    "practical",
    "games",
)


def effects_table(plan: Plan, tests: Sequence[tuple[str, tuple[int, ...], Test]]) -> pd.DataFrame:
    rows = []
    for name, term, t in tests:
        smallest = MEASURES[name].smallest
        rows.append(
            {
                "measure": name,
                "term": _term_name(plan, term),
                "factors": len(term),
                "estimate": t.estimate,
                "ci_low": t.ci_low,
                "ci_high": t.ci_high,
                "p_value": t.p_value,
                "p_adjusted": t.p_adjusted,
                "resolved": t.resolved,
                "practical": bool(t.resolved and abs(t.estimate) >= smallest),
                "games": t.games,
            }
        )
    return pd.DataFrame(rows, columns=list(EFFECT_COLUMNS))


def active_terms(effects: pd.DataFrame, measure: str, plan: Plan) -> list[tuple[int, ...]]:
    """The model's terms for one measure: every main effect, and the two-toggle
    interactions the screening resolved (`effects` decided within the screening)."""
    k = len(plan.free)
    names = {_term_name(plan, t): t for t in terms(k)}
    resolved = effects[
        (effects["measure"] == measure)
        & (effects["factors"] == 2)
        & effects["resolved"].astype(bool)
    ]
    return [(i,) for i in range(k)] + [names[t] for t in resolved["term"]]


# ------------------------------------------------------------------------------ model
@dataclass
class Model:
    """One measure's random-effects meta-regression over the free toggles' codes.

    `terms` are the columns after the intercept; `coef` (intercept first) and `cov`
    their estimates and covariance; `misfit` the lack-of-fit variance (tau^2: how far
    rule sets lie from the model beyond their games' noise, a property of the model
    and the game that does not shrink as a measurement plays more games); `level` the
    variance of the model's level from the screening's shared dice (its rule sets
    played the same games, so their common error moves the whole fit and does not
    cancel against a measurement on other dice); `df` the residual degrees of freedom.
    """

    measure: str
    terms: list[tuple[int, ...]]
    coef: np.ndarray
    cov: np.ndarray
    misfit: float
    level: float
    df: int
    screened_misfit: float = 0.0  # the part the screening's own residuals show

    def row(self, codes: np.ndarray) -> np.ndarray:
        codes = np.atleast_2d(codes)
        parts = [np.ones(len(codes))] + [np.prod(codes[:, list(t)], axis=1) for t in self.terms]
        return np.column_stack(parts)

    def variance(self, codes: np.ndarray, noise: np.ndarray | float) -> np.ndarray:
        """The variance of a measurement around the prediction: the coefficients'
        uncertainty, the lack of fit, the level's shared dice and the measurement's own
        noise (`noise`, its standard error)."""
        x = self.row(codes)
        var_model = np.einsum("ij,jk,ik->i", x, self.cov, x)
        return var_model + self.misfit + self.level + np.asarray(noise, dtype=float) ** 2

    def t(self) -> float:
        from scipy import stats

        return float(stats.t.ppf(1 - ALPHA / 2, max(self.df, 1)))

    def predict(self, codes: np.ndarray, noise: np.ndarray | float) -> tuple[np.ndarray, ...]:
        """(prediction, low, high): the 95% prediction interval of a measurement whose own
        standard error is `noise`."""
        mean = self.row(codes) @ self.coef
        half = self.t() * np.sqrt(self.variance(codes, noise))
        low = mean - half
        if MEASURES[self.measure].statistic == "imbalance":
            low = np.maximum(low, 0.0)  # a distance from fair is never below 0
        return mean, low, mean + half


def fit_model(
    measure: str,
    codes: np.ndarray,
    table: pd.DataFrame,
    model_terms: list[tuple[int, ...]],
    level: float = 0.0,
    paired: bool = False,
) -> Model:
    """A measure's estimates on the design's codes: a meta-regression with a
    lack-of-fit variance component (statsmodels WLS).

    The rule sets' estimates have known standard errors `se`; what scatters beyond
    them is lack of fit, estimated by the method of moments of DerSimonian and Laird
    (1986) as extended to meta-regression (Raudenbush 2009):
    `tau^2 = max(0, (Q - df) / (tr W - tr((X'WX)^-1 X'W^2 X)))`, with `Q` the weighted
    residual sum of squares of the fit with weights `W = 1 / se^2`. The model is then
    refitted with weights `1 / (se^2 + tau^2)`; its covariance is that fit's, unscaled.
    `level`: the variance of the screening's shared error (`screening_level`). With
    `paired` (the rule sets played the same games, and `level` was measured from their
    covariance), the part of each estimate's noise that scatters it around the model is
    its own variance less the shared part, `se^2 - level`: with the whole `se^2`, shared
    dice that cancel between rule sets would be taken for noise, and hide lack of fit.
    """
    import statsmodels.api as sm

    y = table["estimate"].to_numpy(float)
    var = np.maximum(table["se"].to_numpy(float), 1e-9) ** 2
    if paired:
        var = np.maximum(var - level, 1e-3 * var)
    probe = Model(measure, model_terms, np.zeros(0), np.zeros((0, 0)), 0.0, 0.0, 0)
    x = probe.row(codes)
    w = 1.0 / var
    fixed = sm.WLS(y, x, weights=w).fit()
    df = round(fixed.df_resid)
    misfit = 0.0
    if df > 0:
        bread = np.linalg.pinv((x.T * w) @ x)
        denominator = w.sum() - np.trace(bread @ ((x.T * w**2) @ x))
        if denominator > 0:
            misfit = max(0.0, (float(fixed.ssr) - df) / denominator)
    fit = sm.WLS(y, x, weights=1.0 / (var + misfit)).fit()
    cov = np.asarray(fit.normalized_cov_params)
    params = np.asarray(fit.params)
    return Model(measure, model_terms, params, cov, misfit, float(level), df, misfit)


def misfit_from(model: Model, codes: np.ndarray, measured: np.ndarray, se: np.ndarray) -> float:
    """The lack of fit that measurements on games of their own show: the method of moments
    over their prediction errors, `mean(r^2 - (x'Cx + level + se^2))`, at least 0.

    The screening's residuals cannot show an effect the design aliases with a term the
    model keeps (a three-toggle interaction read as a two-toggle one): the fit absorbs it.
    Rule sets outside the design, on other dice, show it as error beyond what the model's
    other variances explain."""
    codes = np.atleast_2d(codes)
    if not len(codes):
        return 0.0
    r = np.asarray(measured, dtype=float) - model.row(codes) @ model.coef
    explained = replace(model, misfit=0.0).variance(codes, np.asarray(se, dtype=float))
    return max(0.0, float(np.mean(r**2 - explained)))


def with_held_out_misfit(
    model: Model, codes: np.ndarray, measured: np.ndarray, se: np.ndarray
) -> Model:
    """The model with the larger of the screening's lack of fit and the holdout's."""
    return replace(
        model, misfit=max(model.screened_misfit, misfit_from(model, codes, measured, se))
    )


def screening_level(samples: StageSamples, ids: Sequence[str], measure: str) -> float:
    """The variance of the screening's common error in one measure: that of the mean of
    all its rule sets' estimates, from the per-game covariance of the shared games.

    A statistic that is not a mean of per-game values has no such covariance; its
    level is bounded by one rule set's own variance (the correlation at most 1)."""
    sample = samples.means[measure]
    if isinstance(sample, CellSamples):
        c = sample.contrast({p: 1.0 / len(ids) for p in ids})
        return float(c.se**2)
    return float(np.median([sample.se[p] ** 2 for p in ids]))


# ----------------------------------------------------------------------------- search
def all_codes(k: int) -> np.ndarray:
    """Every combination of the free toggles' two values (2^k rows of -1/+1)."""
    if k > MAX_FREE:
        raise DesignError(f"{k} free toggles: at most {MAX_FREE} can be searched exhaustively")
    return np.array(list(itertools.product((-1.0, 1.0), repeat=k)))


def goal_value(study: DesignStudy, values: Mapping[str, Any], goal: str) -> Any:
    """A goal as a quantity to minimise: the measure, its sign turned for goals to raise."""
    measure, direction = GOALS[goal]
    return -direction * values[measure]


def same_games_as(plan: Plan, codes: np.ndarray) -> list[str]:
    """For each rule set, the label of the rule set with the fewest changes that plays
    the same games (`ludosim.rules.canonical`), or "" where that is itself.

    Two rule sets whose only difference is a house rule that cannot act there (Danish
    `capture_rule=lone_piece` without blocks that coexist) are one game: the designer
    recommends the one with fewer changes and never confirms both.
    """
    first: dict[str, int] = {}
    keys, changes = [], []
    for row in codes:
        rules = plan.rules(row)
        seated = [
            [player] + [WEAK] * (rules.players - 1)
            for player in (plan.study.optimal, plan.study.fictive)
        ]
        keys.append("/".join(same_game_key(rules, p) for p in [WEAK, *seated]))

        changes.append(int(np.sum(np.asarray(row) > 0)))
    for i in sorted(range(len(codes)), key=lambda i: (changes[i], i)):
        first.setdefault(keys[i], i)
    return ["" if first[k] == i else plan.label(codes[first[k]]) for i, k in enumerate(keys)]


def search(plan: Plan, models: Mapping[str, Model], noise: Mapping[str, float]) -> pd.DataFrame:
    """Every rule set of the search space with each measure's prediction and interval,
    whether it meets the limits (its prediction does) and where it stands on the goals.

    Columns: `codes` (a tuple), `label`, `changes` (house rules changed), per measure
    `<m>`, `<m>_low`, `<m>_high`; `same_as` (`same_games_as`: a rule set playing the
    same games with fewer changes, never feasible itself); `feasible`; `rank` (by the
    first goal's prediction, then the others', among the feasible: an order to list
    them in, not a decision); `front` (True where no feasible rule set is predicted
    better on every goal by more than both prediction intervals allow:
    `interval_front`).
    """
    codes = all_codes(len(plan.free))
    table = pd.DataFrame({"label": [plan.label(row) for row in codes]})
    table["codes"] = [tuple(int(x) for x in row) for row in codes]
    table["changes"] = (codes > 0).sum(axis=1)
    for name, model in models.items():
        mean, low, high = model.predict(codes, noise[name])
        table[name], table[f"{name}_low"], table[f"{name}_high"] = mean, low, high
    table["same_as"] = same_games_as(plan, codes)
    feasible = (table["same_as"] == "").to_numpy(copy=True)
    for limit in plan.study.limits:
        feasible &= [limit.holds(x) for x in table[limit.measure]]
    table["feasible"] = feasible
    keys = [
        table.apply(lambda r, g=g: goal_value(plan.study, r, g), axis=1) for g in plan.study.goals
    ]
    order = np.lexsort([k.to_numpy() for k in reversed(keys)] + [~feasible])
    table["rank"] = 0
    table.loc[table.index[order], "rank"] = np.arange(1, len(table) + 1)
    table["front"] = interval_front(table, plan.study.goals) & feasible
    table["may_be_best"] = interval_front(table, plan.study.goals[:1]) & feasible
    return table.sort_values("rank").reset_index(drop=True)


def _goal_bounds(table: pd.DataFrame, goal: str) -> tuple[np.ndarray, np.ndarray]:
    """A goal's prediction interval as (best end, worst end) of a quantity to minimise."""
    measure, direction = GOALS[goal]
    low, high = table[f"{measure}_low"].to_numpy(float), table[f"{measure}_high"].to_numpy(float)
    return (low, high) if direction < 0 else (-high, -low)


def interval_front(table: pd.DataFrame, goals: Sequence[str], block: int = 512) -> np.ndarray:
    """The feasible rule sets no other feasible one beats on every goal by more than the
    intervals and the smallest effect that matters allow: B is beaten when some A's
    worst end is better than B's best end by at least the goal measure's smallest effect
    of interest, on every goal. With one goal, the rule sets that may be within the
    smallest effect of the best. Point predictions alone would draw noise as a
    trade-off, and a rule set worse by less than the smallest effect is no worse at a
    table."""
    feasible = table["feasible"].to_numpy(bool)
    bounds = [_goal_bounds(table, g) for g in goals]
    if not feasible.any():
        return np.zeros(len(table), dtype=bool)
    margin = np.array([MEASURES[GOALS[g][0]].smallest for g in goals])
    worst = np.column_stack([w[feasible] for _, w in bounds]) + margin  # A's worst ends
    out = np.zeros(len(table), dtype=bool)
    index = np.flatnonzero(feasible)
    for start in range(0, len(index), block):
        rows = index[start : start + block]
        best = np.column_stack([b[rows] for b, _ in bounds])  # B's best ends
        beaten = np.all(worst[None, :, :] < best[:, None, :], axis=2).any(axis=1)
        out[rows] = ~beaten
    return out


def pick_candidates(space: pd.DataFrame, count: int) -> np.ndarray:
    """The rule sets to confirm, drawn so that near-copies do not fill the list: from
    those on the front of every goal that may also be best on the first (the goals are
    in the study's order of priority), the first by rank, the one with the fewest
    changes, then each time the one farthest (most house rules apart) from those
    already picked, ties by rank."""
    front = space[space["front"].astype(bool)]
    if "may_be_best" in space.columns and (front["may_be_best"].astype(bool)).any():
        front = front[front["may_be_best"].astype(bool)]
    front = front.sort_values("rank")
    if front.empty or count < 1:
        return np.zeros((0, len(space["codes"].iloc[0]) if len(space) else 0))
    rows = [np.array(c, dtype=float) for c in front["codes"]]
    changes = front["changes"].to_numpy(int)
    picked = [0]
    simplest = int(np.argmin(changes))  # argmin keeps the best ranked of the simplest
    if simplest not in picked and count > 1:
        picked.append(simplest)
    while len(picked) < min(count, len(rows)):
        apart = [
            -1 if i in picked else min(int(np.sum(rows[i] != rows[j])) for j in picked)
            for i in range(len(rows))
        ]
        picked.append(int(np.argmax(apart)))
    return np.array([rows[i] for i in picked])


def alias_table(plan: Plan) -> pd.DataFrame:
    """The aliases of the screening's two-toggle interactions with three-toggle ones:
    pairs of terms whose columns in the design are equal (`sign` +1) or opposite (-1),
    so that the design estimates their sum (or difference), not either alone. A design
    of resolution V aliases no main effect or two-toggle interaction with another, but
    two-toggle interactions with three-toggle ones (and main effects with four-toggle
    ones)."""
    k = len(plan.free)
    triples = itertools.combinations(range(k), 3)
    columns = {t: np.prod(plan.codes[:, list(t)], axis=1) for t in triples}
    rows = []
    for pair in itertools.combinations(range(k), 2):
        x = np.prod(plan.codes[:, list(pair)], axis=1)
        for triple, y in columns.items():
            if np.array_equal(x, y) or np.array_equal(x, -y):
                rows.append(
                    {
                        "term": _term_name(plan, pair),
                        "aliased_with": _term_name(plan, triple),
                        "sign": 1 if np.array_equal(x, y) else -1,
                    }
                )
    return pd.DataFrame(rows, columns=["term", "aliased_with", "sign"])


def holdout_codes(plan: Plan, count: int, seed: int) -> np.ndarray:
    """`count` rule sets of the space outside the screening design, drawn from `seed`."""
    if count <= 0:
        return np.zeros((0, len(plan.free)))
    inside = {tuple(row) for row in plan.codes}
    rng = np.random.default_rng(seed)
    picked: list[tuple[float, ...]] = []
    space = 2 ** len(plan.free)
    while len(picked) < min(count, space - len(inside)):
        row = tuple(float(x) for x in rng.choice((-1.0, 1.0), len(plan.free)))
        if row not in inside and row not in picked:
            picked.append(row)
    return np.array(picked)


# ----------------------------------------------------------------------- confirmation
def preset_codes(plan: Plan) -> np.ndarray:
    """The rule set that changes nothing: every free toggle at its first value."""
    return -np.ones(len(plan.free))


COMPARISON_COLUMNS = (
    "kind",
    "measure",
    "point",
    "other",
    "estimate",
    "ci_low",
    "ci_high",
    "se",
    "p_value",
    "games",
    "method",
)


def _compare(samples: StageSamples, measure: str, a: str, b: str, kind: str) -> dict[str, Any]:
    c = samples.means[measure].difference(a, b)
    return {
        "kind": kind,
        "measure": measure,
        "point": a,
        "other": b,
        "estimate": c.estimate,
        "ci_low": c.ci_low,
        "ci_high": c.ci_high,
        "se": c.se,
        "p_value": c.p_value,
        "games": c.games,
        "method": c.method,
    }


Player = Callable[..., tuple[pd.DataFrame, "StageSamples"]]
CONFIRMED_COLUMNS = ("point", "label", "changes", "games", "standing")


def confirm(
    plan: Plan,
    picked: np.ndarray,
    out: Path,
    *,
    progress: Progress | None = None,
    player: Player | None = None,
    **run: Any,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, Stage]:
    """Replay the candidates and the preset's own rules, once, on games of their own.

    The confirmation is one look, sized before its first game (`confirm_games`
    random-seat games per rule set, twice `skill_games` of each of the relative skill
    level's players), on the
    confirmation's own stream (`stage_seed`): no game of the screening or the holdout
    is replayed, and every rule set of it plays the same games (paired). Nothing is
    dropped here: the page decides every comparison in its one family. Returns the
    measures, the candidates (`point`, `label`, `changes`, `games`; `standing` is
    filled by the page's decision), the comparisons the page decides (each candidate
    against the best measured on the first goal, and each against the preset's own
    rules on every measure) and the stage.
    """
    study = plan.study
    goal_measure, direction = GOALS[study.goals[0]]
    reference = tuple(preset_codes(plan))
    others = [tuple(row) for row in picked if tuple(row) != reference]
    rows = [reference, *others]
    ids = ["preset", *(f"k{i:02d}" for i in range(len(others)))]
    candidates = [p for p, r in zip(ids, rows, strict=True) if r != reference]
    if any(tuple(row) == reference for row in picked):
        candidates.insert(0, "preset")  # changing nothing is a candidate like any other
    stage = Stage(
        "confirm",
        np.array(rows),
        study.confirm_games,
        2 * study.skill_games,
        stage_seed(study.seed, "confirm"),
        ids,
    )
    table, samples = (player or play_stage)(plan, stage, out, progress=progress, **run)
    goal = table[table["measure"] == goal_measure].set_index("point")["estimate"]
    best = min(candidates, key=lambda p: -direction * goal[p])
    comparisons = [
        _compare(samples, goal_measure, p, best, "vs best") for p in candidates if p != best
    ]
    comparisons += [
        _compare(samples, m, p, "preset", "vs preset")
        for p in candidates
        if p != "preset"
        for m in DESIGN_MEASURES
    ]
    by_id = dict(zip(ids, rows, strict=True))
    confirmed = pd.DataFrame(
        [
            {
                "point": p,
                "label": plan.label(by_id[p]),
                "changes": int(np.sum(np.asarray(by_id[p]) > 0)),
                "games": stage.games,
                "standing": "",
            }
            for p in candidates
        ],
        columns=list(CONFIRMED_COLUMNS),
    )
    return table, confirmed, pd.DataFrame(comparisons, columns=list(COMPARISON_COLUMNS)), stage


# ----------------------------------------------------------------------------- tables
@dataclass
class DesignTables:
    """Everything a design's page is made of (each a CSV of the study's folder).

    points: every rule set played (`point`, `stage`, the free toggles' values,
    `label`); measures: each measure of each played rule set with its interval;
    effects: the screening's effect of every term on every measure (p-values
    before the page's correction); model: each measure's terms and coefficients,
    with the covariance the explorer needs; checks: predicted against measured for
    the held-out and confirmed rule sets; search: every rule set of the space,
    predicted; confirmed: each candidate and its standing as the page decides it;
    comparisons: the confirmation's paired differences; stages: each stage's seed and
    games (the stages play disjoint games).
    """

    study: DesignStudy
    plan: Plan
    points: pd.DataFrame
    measures: pd.DataFrame
    effects: pd.DataFrame
    models: dict[str, Model]
    checks: pd.DataFrame
    search: pd.DataFrame
    confirmed: pd.DataFrame
    comparisons: pd.DataFrame
    games: dict[str, int] = field(default_factory=dict)  # games played per stage
    stages: pd.DataFrame = field(default_factory=pd.DataFrame)  # seeds and sizes per stage


def _points(plan: Plan, stage: Stage) -> pd.DataFrame:
    table = pd.DataFrame({"point": stage.ids, "stage": stage.name})
    for i, f in enumerate(plan.free):
        table[f.toggle] = [_spell(f.toggle, f.values[1 if x > 0 else 0]) for x in stage.codes[:, i]]
    table["label"] = [plan.label(row) for row in stage.codes]
    table["codes"] = [" ".join(f"{int(x):+d}" for x in row) for row in stage.codes]
    return table


def _codes_of(points: pd.DataFrame, ids: Sequence[str]) -> np.ndarray:
    by = points.drop_duplicates("point").set_index("point")["codes"]
    return np.array([[float(x) for x in by[p].split()] for p in ids])


def _noise(table: pd.DataFrame, ids: Sequence[str], measure: str) -> np.ndarray:
    rows = table[table["measure"] == measure].set_index("point")
    return rows.loc[list(ids), "se"].to_numpy(float)


def check_table(
    plan: Plan,
    models: Mapping[str, Model],
    measures: pd.DataFrame,
    points: pd.DataFrame,
    checked: Mapping[str, Sequence[str]],
) -> pd.DataFrame:
    """Each model's 95% prediction interval against the measurement, for rule sets it was
    not fitted on, with the measurement's own noise. `checked`: stage -> the rule sets of
    it to check. The holdout also estimates the lack of fit (`with_held_out_misfit`), so
    each held-out rule set is checked by the model whose lack of fit comes from the
    other held-out ones (leave one out): no measurement checks an interval it shaped."""
    rows = []
    for stage, ids in checked.items():
        ids = list(ids)
        if not ids:
            continue
        codes = _codes_of(points, ids)
        for name, model in models.items():
            noise = _noise(measures[measures["stage"] == stage], ids, name)
            got = measures[(measures["stage"] == stage) & (measures["measure"] == name)]
            got = got.set_index("point").loc[ids, "estimate"].to_numpy(float)
            if stage == "holdout":
                parts = []
                for j in range(len(ids)):
                    rest = np.arange(len(ids)) != j
                    own = with_held_out_misfit(model, codes[rest], got[rest], noise[rest])
                    parts.append(own.predict(codes[j : j + 1], noise[j : j + 1]))
                mean, low, high = (np.concatenate([p[k] for p in parts]) for k in range(3))
            else:
                mean, low, high = model.predict(codes, noise)
            for p, m, lo, hi, g in zip(ids, mean, low, high, got, strict=True):
                rows.append(
                    {
                        "stage": stage,
                        "point": p,
                        "measure": name,
                        "predicted": m,
                        "pi_low": lo,
                        "pi_high": hi,
                        "measured": g,
                        "inside": bool(lo <= g <= hi),
                    }
                )
    return pd.DataFrame(
        rows,
        columns=[
            "stage",
            "point",
            "measure",
            "predicted",
            "pi_low",
            "pi_high",
            "measured",
            "inside",
        ],
    )


def play_study(
    study: DesignStudy,
    out: str | Path,
    *,
    progress: Progress | None = None,
    player: Player | None = None,
    **run: Any,
) -> DesignTables:
    """Plan, play every stage (resuming what `out` holds) and compute the tables.

    `run` is passed to `ludosim.sweep.run_sweep` (`dask`, `workers`, `threads`).
    `player(plan, stage, out, progress=..., **run)` plays a stage and returns its
    measures and samples: `play_stage` (the kernel, through sweeps) unless given (a
    test double of the measures needs no kernel).
    """
    out = Path(out)
    plan = plan_study(study)
    play = player or play_stage
    seed = stage_seed(study.seed, "screen")
    screen = Stage("screen", plan.codes, study.screen_games, study.skill_games, seed)
    measures, samples = play(plan, screen, out, progress=progress, **run)
    points = [_points(plan, screen)]
    family = Family("screening", "screening effects")
    tests = screening_tests(plan, screen, samples, family)
    family.adjust()  # within the screening: which interactions the model keeps
    effects = effects_table(plan, tests)
    models = {
        name: fit_model(
            name,
            plan.codes,
            measures[measures["measure"] == name].set_index("point").loc[screen.ids],
            active_terms(effects, name, plan),
            screening_level(samples, screen.ids, name),
            isinstance(samples.means[name], CellSamples),
        )
        for name in DESIGN_MEASURES
    }
    tables = [measures]
    stages = [screen]
    if study.holdout:
        held = Stage(
            "holdout",
            holdout_codes(plan, study.holdout, study.seed),
            study.screen_games,
            study.skill_games,
            stage_seed(study.seed, "holdout"),
        )
        if len(held.codes):
            table, _ = play(plan, held, out, progress=progress, **run)
            tables.append(table)
            points.append(_points(plan, held))
            stages.append(held)
            for name in DESIGN_MEASURES:
                rows = table[table["measure"] == name].set_index("point").loc[held.ids]
                models[name] = with_held_out_misfit(
                    models[name],
                    held.codes,
                    rows["estimate"].to_numpy(float),
                    rows["se"].to_numpy(float),
                )
    space = search(plan, models, confirmation_noise(study, measures))
    picked = pick_candidates(space, study.candidates)
    confirmed = pd.DataFrame(columns=list(CONFIRMED_COLUMNS))
    comparisons = pd.DataFrame(columns=list(COMPARISON_COLUMNS))
    if len(picked):
        table, confirmed, comparisons, stage = confirm(
            plan, picked, out, progress=progress, player=player, **run
        )
        tables.append(table)
        points.append(_points(plan, stage))
        stages.append(stage)
    all_points = pd.concat(points, ignore_index=True)
    all_measures = pd.concat(tables, ignore_index=True)
    checks = check_table(plan, models, all_measures, all_points, _checked(all_points, confirmed))
    found = DesignTables(
        study,
        plan,
        all_points,
        all_measures,
        effects,
        models,
        checks,
        space,
        confirmed,
        comparisons,
        games_played(all_measures),
        stages_table(stages),
    )
    return with_standings(found)


def stages_table(stages: Sequence[Stage]) -> pd.DataFrame:
    """Each stage's rule sets, games and master seeds: the seeds differ, so no stage
    replays another's games (each sweep's manifest.json records the same seed). `seed`
    is the random-seat and the optimal player's sweeps', `fictive_seed` the fictive
    player's (`player_seed`); `skill_games` are each player's per rule set."""
    return pd.DataFrame(
        [
            {
                "stage": st.name,
                "rule_sets": len(st.ids),
                "games": st.games,
                "skill_games": st.skill_games,
                "seed": str(st.seed),
                "fictive_seed": str(player_seed(st.seed)),
            }
            for st in stages
        ],
        columns=["stage", "rule_sets", "games", "skill_games", "seed", "fictive_seed"],
    )


def _checked(points: pd.DataFrame, confirmed: pd.DataFrame) -> dict[str, list[str]]:
    """The rule sets that check the models: every held-out one, and every confirmed
    candidate the screening did not play (the model was fitted on those)."""
    out: dict[str, list[str]] = {}
    held = points.loc[points["stage"] == "holdout", "point"]
    if len(held):
        out["holdout"] = list(held)
    screened = set(points.loc[points["stage"] == "screen", "codes"])
    mine = points[(points["stage"] == "confirm") & points["point"].isin(confirmed["point"])]
    unseen = [
        str(p) for p, c in zip(mine["point"], mine["codes"], strict=True) if c not in screened
    ]
    if unseen:
        out["confirm"] = unseen
    return out


def games_played(measures: pd.DataFrame) -> dict[str, int]:
    """Games decided per stage: every rule set's random-seat games and both skill
    players' games."""

    rows = measures[measures["measure"].isin(["length", "skill"])]
    return {str(k): int(v) for k, v in rows.groupby("stage", sort=False)["games"].sum().items()}


STUDY_FILE = "design.json"
MODEL_FILE = "model.json"
CSV_FILES = (
    "points",
    "measures",
    "effects",
    "checks",
    "search",
    "confirmed",
    "comparisons",
    "stages",
)


def study_dict(study: DesignStudy) -> dict[str, Any]:
    """The study as JSON-able data (`study_from_dict` reads it back)."""
    return {
        "name": study.name,
        "preset": study.preset,
        "seed": study.seed,
        "set": list(study.sets),
        "free": [
            f"{f.toggle}={_value_text(f.toggle, f.values[0])},{_value_text(f.toggle, f.values[1])}"
            for f in study.free
        ],
        "goals": list(study.goals),
        "limits": [f"{x.measure}{x.op}{_num(x.value)}" for x in study.limits],
        "screen_games": study.screen_games,
        "skill_games": study.skill_games,
        "holdout": study.holdout,
        "candidates": study.candidates,
        "confirm_games": study.confirm_games,
        "optimal": study.optimal,
        "fictive": study.fictive,
    }


def _value_text(toggle: str, value: Any) -> str:
    """A value as `--free` reads it: sets bracketed, so their commas stay inside."""
    text = format_value(value)
    return f"[{text}]" if TOGGLES[toggle].kind in ("set", "faces", "ints") else text


def study_from_dict(data: Mapping[str, Any]) -> DesignStudy:
    sizes = {k: int(data[k]) for k in SIZES if k in data}
    players = {k: str(data[k]) for k in PLAYERS if k in data}
    study = study_from_options(
        data["preset"],
        int(data["seed"]),
        sets=data.get("set", []),
        free=data.get("free", []),
        goals=data.get("goals", ["short"]),
        limits=data.get("limits", []),
        **players,
        **sizes,
    )

    return replace(study, name=str(data.get("name") or ""))


def write_tables(tables: DesignTables, out: str | Path) -> Path:
    """The tables as CSV, the study and the models as JSON, into `out`.

    effects.csv and comparisons.csv carry the page's decision (`p_adjusted` and
    `resolved`: Holm over every comparison the page states; `size`: where the
    interval stands against the smallest effect of interest); effects.csv keeps the
    screening's own adjustment, which chose the model's interactions, as
    `p_screening`. aliases.csv lists the design's aliased terms (`alias_table`)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    page = decided(tables)
    frames = {name: getattr(tables, name) for name in CSV_FILES}
    frames["effects"] = page.effects
    frames["comparisons"] = page.comparisons
    for name, frame in frames.items():
        if name == "search":
            frame = frame.assign(codes=[" ".join(f"{x:+d}" for x in c) for c in frame["codes"]])
        frame.to_csv(folder / f"{name}.csv", index=False)
    alias_table(tables.plan).to_csv(folder / "aliases.csv", index=False)
    (folder / STUDY_FILE).write_text(
        json.dumps({**study_dict(tables.study), "games": tables.games}, indent=1) + "\n",
        encoding="utf-8",
    )
    models = {
        name: {
            "terms": [list(t) for t in m.terms],
            "coef": m.coef.tolist(),
            "cov": m.cov.tolist(),
            "misfit": m.misfit,
            "screened_misfit": m.screened_misfit,
            "level": m.level,
            "df": m.df,
        }
        for name, m in tables.models.items()
    }
    (folder / MODEL_FILE).write_text(json.dumps(models) + "\n", encoding="utf-8")
    return folder


def read_tables(folder: str | Path) -> DesignTables:
    """A design's tables from the CSV and JSON files `write_tables` wrote."""
    folder = Path(folder)
    try:
        data = json.loads((folder / STUDY_FILE).read_text(encoding="utf-8"))
        raw = json.loads((folder / MODEL_FILE).read_text(encoding="utf-8"))
        frames = {
            n: pd.read_csv(folder / f"{n}.csv", keep_default_na=False, na_values=[""])
            for n in CSV_FILES
        }
    except (OSError, ValueError) as exc:
        raise DesignError(
            f"{folder} holds no design's tables ({exc}); run ludosim design"
        ) from None
    if "optimal" not in data:
        raise DesignError(
            f"{folder / STUDY_FILE} holds a design whose skill measure is not the relative "
            "skill level (written by an earlier ludosim); rerun ludosim design on the study"
        )
    study = study_from_dict(data)
    plan = plan_study(study)
    if any("misfit" not in m for m in raw.values()):
        raise DesignError(
            f"{folder / MODEL_FILE} holds models without a lack-of-fit variance (written by an "
            "earlier ludosim); rerun ludosim design on the study to refit them"
        )
    models = {
        n: Model(
            n,
            [tuple(t) for t in m["terms"]],
            np.array(m["coef"]),
            np.array(m["cov"]),
            float(m["misfit"]),
            float(m["level"]),
            int(m["df"]),
            float(m.get("screened_misfit", m["misfit"])),
        )
        for n, m in raw.items()
    }
    # The page decides effects and comparisons anew: back to the screening's adjustment,
    # without what write_tables added.
    effects = frames["effects"]
    if "p_screening" in effects.columns:
        effects = effects.assign(p_adjusted=effects["p_screening"])
    frames["effects"] = effects.drop(columns=["p_screening", "size"], errors="ignore")
    frames["comparisons"] = frames["comparisons"][list(COMPARISON_COLUMNS)]
    search = frames["search"]
    search["codes"] = [tuple(int(x) for x in c.split()) for c in search["codes"]]
    if "same_as" in search.columns:  # "" (itself) reads back as a missing value
        search["same_as"] = search["same_as"].astype(object).where(search["same_as"].notna(), "")
    else:  # tables written before the search said which rule sets play the same games
        search["same_as"] = same_games_as(plan, np.array([list(c) for c in search["codes"]]))
    for column in ("point", "label"):
        for name in ("points", "measures", "checks", "confirmed"):
            if column in frames[name].columns:
                frames[name][column] = frames[name][column].astype(str)
    return DesignTables(
        study,
        plan,
        frames["points"],
        frames["measures"],
        frames["effects"],
        models,
        frames["checks"],
        search,
        frames["confirmed"],
        frames["comparisons"],
        {k: int(v) for k, v in data.get("games", {}).items()},
        frames["stages"].astype({"seed": str, "fictive_seed": str}),
    )


# --------------------------------------------------------------------------- findings
TITLES = {
    "recommend": "Recommended rule sets",
    "about": "How to read these findings",
    "screening": "What each house rule does",
    "model": "How well the model predicts",
    "front": "What one goal costs of another",
}


def _set_line(study: DesignStudy, label: str) -> str:
    """The `--set` options of a rule set: the study's fixed changes and its free ones."""
    changed = [] if label.startswith("(") else label.split()
    return " ".join(["--preset", study.preset, *(f"--set {x}" for x in [*study.sets, *changed])])


def _value(table: pd.DataFrame, point: str, measure: str, stage: str | None = None) -> pd.Series:
    rows = table[(table["point"] == point) & (table["measure"] == measure)]
    if stage is not None:
        rows = rows[rows["stage"] == stage]
    return rows.iloc[-1]


def _est(row: Any, unit: str | None = None) -> str:

    unit = row["unit"] if unit is None else unit
    sign = unit in ("pp",) and False
    return estimate(row["estimate"], row["ci_low"], row["ci_high"], unit, sign=sign)


def study_findings(tables: DesignTables) -> list[Any]:
    """The findings of a design's page, in the order the page states them."""
    return decide(tables).findings


@dataclass(frozen=True)
class Decided:
    """The page's one family, decided: the screening's effects and the confirmation's
    differences, each with `p_adjusted`, `resolved` and `size` (`practical_size`:
    where its interval stands against the measure's smallest effect of interest)."""

    family: Family
    effects: pd.DataFrame
    comparisons: pd.DataFrame


def _size(rows: pd.DataFrame) -> list[str]:
    return [
        practical_size(bool(r.resolved), r.ci_low, r.ci_high, MEASURES[r.measure].smallest)
        for r in rows.itertuples(index=False)
    ]


def decided(tables: DesignTables) -> Decided:
    """Every comparison the page states, in one family decided by Holm's correction."""
    family = Family("differences", "screening effects and confirmation differences")

    def tests(frame: pd.DataFrame, key: Callable[[Any], str]) -> list[Test]:
        return [
            family.add(Test(key(r), r.estimate, r.ci_low, r.ci_high, r.p_value, int(r.games)))
            for r in frame.itertuples(index=False)
        ]

    effect_tests = tests(tables.effects, lambda r: f"effect:{r.measure}:{r.term}")
    compare_tests = tests(tables.comparisons, lambda r: f"{r.kind}:{r.measure}:{r.point}|{r.other}")
    family.adjust()
    effects = tables.effects.drop(columns=["practical"], errors="ignore")
    effects = effects.rename(columns={"p_adjusted": "p_screening"}).drop(columns="resolved")
    effects = effects.assign(
        p_adjusted=[t.p_adjusted for t in effect_tests],
        resolved=[t.resolved for t in effect_tests],
    )
    effects["size"] = _size(effects)
    effects["practical"] = effects["size"] == PRACTICAL
    comparisons = tables.comparisons.assign(
        p_adjusted=[t.p_adjusted for t in compare_tests],
        resolved=[t.resolved for t in compare_tests],
    )
    comparisons["size"] = _size(comparisons)
    return Decided(family, effects, comparisons)


def decide(tables: DesignTables) -> Any:
    """What the design says, decided in one family per page (Holm over the screening's
    effects and the confirmation's differences): a `PageFindings`."""
    study, plan = tables.study, tables.plan
    page = decided(tables)
    family, effects, comparisons = page.family, page.effects, page.comparisons
    effect_tests = [t for t in family.tests if t.key.startswith("effect:")]
    compare_tests = [t for t in family.tests if not t.key.startswith("effect:")]
    out: list[Finding] = []
    total = sum(tables.games.values())
    k = len(plan.free)
    out.append(
        Finding(
            "about",
            (
                f"This page decides {family.size} comparisons together by Holm's correction (the "
                f"chance of any false claim of a difference is at most {round(100 * ALPHA)}%): the "
                f"screening's {len(effect_tests)} effects of {k} free house rules on "
                f"{len(DESIGN_MEASURES)} measures, and the confirmation's {len(compare_tests)} "
                "differences. A change matters only when its whole 95% interval clears the "
                "measure's smallest effect of interest, and is ruled out only when the "
                "interval lies within it. Model predictions are stated with 95% prediction "
                "intervals."
            ),
            True,
            headline=True,
            kind="note",
        )
    )
    stages = "; ".join(f"{name}: {n:,} games" for name, n in tables.games.items())
    dropped = (
        f" Dropped: {'; '.join(f'{t} ({w})' for t, w in plan.dropped)}." if plan.dropped else ""
    )
    aliases = alias_table(plan)
    aliased = (
        f" Resolution V keeps main effects and two-toggle interactions apart from one another, "
        f"not from higher ones: {len(aliases)} pairs of a two-toggle interaction and a "
        "three-toggle one share a column of the design (aliases.csv), and the model reads "
        "each pair as the two-toggle interaction."
        if len(aliases)
        else ""
    )
    out.append(
        Finding(
            "about",
            (
                f"The design screens {k} house rules of {study.preset} "
                f"({listing([f.text(1) for f in plan.free], most=MAX_FREE)}, "
                f"each against the preset's own value) in {len(plan.codes)} rule sets, a two-level "
                f"fractional factorial of resolution V.{aliased} Every rule set plays games with "
                f"every seat random, and games of two players each in one seat against {WEAK} "
                "ones, the seat rotated through every position: the optimal player is "
                f"{study.optimal}, the fictive player {study.fictive} (who knows the dice in "
                "advance). Skill is their relative skill level RS = (W(optimal) - 1/n) / "
                "(W(fictive) - 1/n) of Dreef, Borm and van der Genugten (2004), as on the skill "
                "page, with its delta-method standard error, from "
                f"{study.skill_games:,} games of each player per rule set (twice as many in the "
                "confirmation): 0 where the optimal player wins no more than random play, 1 where "
                "knowing the dice adds nothing. Each stage "
                f"plays games of its own (stages.csv gives its seeds): {stages}; {total:,} games "
                f"decided in all.{dropped}"
            ),
            True,
            headline=True,
            kind="note",
        )
    )
    # The answer first, then how to read it: a reader sees the recommendation on the
    # first screen, before the method.
    out = _recommendation(tables, comparisons) + out
    out += _screening(tables, effects)
    out += _model_checks(tables)
    out += _front(tables)
    # The page's table of effects: every term on every measure, as the page decided it.
    return PageFindings(out, [family], [], False, effects)


# A candidate's standing against the best measured on the first goal.
RECOMMENDED = "recommended"  # the fewest changes among the best and those equivalent to it
EQUALLY_GOOD = "equally good"  # the best measured, or equivalent to it; more changes
NOT_APART = "not told apart"  # neither resolved worse nor shown equivalent at this size
WORSE = "worse"  # resolved worse by the page's correction, by more than the smallest effect
STANDINGS = (RECOMMENDED, EQUALLY_GOOD, NOT_APART, WORSE)


def standing(resolved: bool, estimate: float, se: float, smallest: float, tests: int) -> str:
    """A candidate against the best measured on the first goal (`estimate` = the
    candidate's shortfall, in the goal's direction of worse, with its standard error).

    `EQUALLY_GOOD` when its interval lies within the smallest effect of interest (an
    equivalence test on the interval: two one-sided tests, Schuirmann 1987, each at
    2.5% / `tests`, Bonferroni over the candidates compared with the best), whether or
    not the difference is resolved: a difference too small to matter is no reason to
    prefer a rule set. Else `WORSE` when the page's correction resolved it, else
    `NOT_APART`."""
    half = z_for(ALPHA / max(tests, 1)) * se
    if practical_size(False, estimate - half, estimate + half, smallest) == EQUIVALENT:
        return EQUALLY_GOOD
    return WORSE if resolved else NOT_APART


def _goal_value(tables: DesignTables, point: str, measure: str) -> pd.Series:
    return _value(tables.measures, point, measure, "confirm")


def standings(tables: DesignTables, comparisons: pd.DataFrame) -> dict[str, str]:
    """Each confirmed candidate's standing (`STANDINGS`), as the page decided it
    (`comparisons` from `decided`). The recommended one is the candidate with the fewest
    changes from the preset among the best measured and those equally good (ties to
    the better measured)."""
    measure, direction = GOALS[tables.study.goals[0]]
    confirmed = tables.confirmed
    if confirmed.empty:
        return {}
    points = [str(p) for p in confirmed["point"]]
    changes = dict(zip(points, confirmed["changes"].astype(int), strict=True))
    value = {p: float(_goal_value(tables, p, measure)["estimate"]) for p in points}
    best = min(points, key=lambda p: -direction * value[p])
    vs_best = comparisons[(comparisons["kind"] == "vs best") & (comparisons["measure"] == measure)]
    smallest = MEASURES[measure].smallest
    out = {best: EQUALLY_GOOD}
    for row in vs_best.itertuples(index=False):
        out[str(row.point)] = standing(
            bool(row.resolved), float(row.estimate), float(row.se), smallest, len(vs_best)
        )
    group = [p for p in points if out.get(p) == EQUALLY_GOOD]
    pick = min(group, key=lambda p: (changes[p], -direction * value[p]))
    out[pick] = RECOMMENDED
    return {p: out.get(p, NOT_APART) for p in points}


def with_standings(tables: DesignTables) -> DesignTables:
    """The tables with each confirmed candidate's standing, as the page decides it."""
    if tables.confirmed.empty:
        return tables
    stand = standings(tables, decided(tables).comparisons)
    confirmed = tables.confirmed.assign(standing=tables.confirmed["point"].astype(str).map(stand))
    return replace(tables, confirmed=confirmed)


def _size_text(size: str, smallest: str) -> str:
    return {
        PRACTICAL: f"a change of at least {smallest}",
        POSSIBLY_BELOW: f"resolved, possibly smaller than {smallest}",
        BELOW: f"resolved, but smaller than {smallest}, the smallest that matters",
        EQUIVALENT: f"no change of {smallest} or more (the interval lies within it)",
        OPEN: "not resolved at this size",
    }[size]


def _secondary(row: Any, direction: int) -> str:
    """A secondary goal against the preset's own rules: its size, and whether a loss that
    matters is still possible (the interval reaching the smallest effect the wrong way)."""
    m = MEASURES[row.measure]
    smallest = amount(m.smallest, m.unit)
    said = _size_text(row.size, smallest)
    worst = row.ci_high if direction < 0 else -row.ci_low
    if worst >= m.smallest:
        said += f"; a loss of {smallest} or more cannot be ruled out"
    return said


# Plain words for the house rules, written from the toggle table's one-line descriptions
# (`ludosim.rules.toggles.TOGGLES`): per toggle what the rule is about and, per value, what
# it says. The rules card and the explorer's menus read them; a toggle without words here
# falls back on its description and its value as the options spell it.
RULE_WORDS: dict[str, tuple[str, dict[Any, str]]] = {
    "start_attempts": ("With no piece in play", {
        1: "you get one roll to bring a piece out",
        3: "you get three rolls to bring a piece out"}),
    "start_attempts_when": ("The three rolls to bring a piece out", {
        "always": "apply whenever you have no piece in play",
        "game_start": "apply only until your first piece has entered"}),
    "bonus_on_six": ("A six", {
        "always": "always earns another roll",
        "unless_entered": "earns another roll unless it brought a piece out",
        "never": "earns no extra roll"}),
    "bonus_on_capture": ("Capturing a piece", {
        True: "earns another roll", False: "earns no extra roll"}),
    "bonus_on_finish": ("Bringing a piece to the goal", {
        True: "earns another roll", False: "earns no extra roll"}),
    "bonus_stacking": ("Bonus rolls", {
        "stack": "one for each reason (a six, a capture, a piece home)",
        "one": "at most one per move, whatever earned it"}),
    "no_move_ends_turn": ("A roll with no legal move", {
        True: "ends the turn, and any bonus roll is lost",
        False: "does not end the turn: a bonus roll still comes"}),
    "pass_own": ("Passing your own pieces", {
        True: "is allowed", False: "is not allowed"}),
    "pass_opponents": ("Passing opponent pieces", {
        "all": "is allowed, even past a block",
        "singles": "is allowed past single pieces; a block of two or more stops you",
        "none": "is not allowed: any opponent piece blocks the way"}),
    "safe_landing": ("Landing on a lone opponent on a safe square", {
        "coexist": "both pieces share the square", "lander_home": "sends your piece home"}),
    "capture_rule": ("Capturing", {
        "lone_opponent": "takes a lone opponent even where your own pieces share its square",
        "lone_piece": "takes only a piece that stands alone on its square"}),
    "block_landing": ("Landing on two or more opponent pieces", {
        "coexist": "your piece joins them on the square",
        "lander_home": "sends your piece home",
        "capture": "captures them all",
        "forbidden": "is not allowed"}),
    "start_capture": ("Entering onto an opponent on your start square", {
        True: "captures it", False: "does not capture it"}),
    "finish": ("Reaching the goal", {
        "exact": "needs the exact roll",
        "bounce": "a roll too high bounces back from the goal",
        "bounce_on": "a roll too high bounces back, and the piece goes on backwards all turn"}),
    "forced_capture": ("A capture that can be made", {
        True: "must be made", False: "may be left"}),
}  # fmt: skip
_SAFE_WORDS = {"starts": "start squares", "globes": "globes", "stars": "stars"}
_ORDINALS = {2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}
GOAL_WORDS = {
    "short": "a shorter game",
    "fairness": "a fairer turn order",
    "skill": "a game where skill pays more",
    "drama": "more comebacks",
    "action": "more captures",
}


def rule_words(toggle: str, value: Any) -> tuple[str, str]:
    """(what the rule is about, what it says at `value`) in plain words: `("Reaching the
    goal", "needs the exact roll")`."""
    if toggle == "six_limit":
        said = (
            "have no limit"
            if not value
            else (
                f"are limited: the {_ORDINALS[value]} six in a row is forfeited and ends the turn"
            )
        )
        return "Sixes in a row", said  # fmt: skip
    if toggle == "start_capacity":
        said = (
            "may hold any number of your pieces"
            if not value
            else (f"holds at most {value} of your pieces; no more enter while it is full")
        )
        return "Your start square", said  # fmt: skip
    if toggle == "safe":
        if not value:
            return "Safe squares", "none: a lone piece can be captured anywhere"
        kinds = listing([_SAFE_WORDS.get(v, str(v)) for v in value])
        return "Safe squares", f"a lone piece cannot be captured on {kinds}"
    topic, words = RULE_WORDS.get(toggle, ("", {}))
    if value in words:
        return topic, words[value]
    description = TOGGLES[toggle].description
    # `{}` is the command line's empty set: a family reads "none".
    said = "none" if value == () else _spell(toggle, value)
    return description[0].upper() + description[1:], said


def menu_words(free: Free) -> tuple[str, str, list[str]]:
    """The explorer's menu of a free toggle: (toggle, the rule in words, its two values in
    words). Values whose words coincide keep their spelling beside them, since the menu
    tells its two values apart by their text."""
    topic, first = rule_words(free.toggle, free.values[0])
    _, second = rule_words(free.toggle, free.values[1])
    if first == second:
        first, second = (
            f"{w} ({_spell(free.toggle, v)})"
            for w, v in zip((first, second), free.values, strict=True)
        )
    return free.toggle, topic, [first, second]


def rules_card(tables: DesignTables, pick: str, comparisons: pd.DataFrame) -> str:
    """The recommendation as a family reads it at the table: one sentence per changed
    rule, what the change does to a game in rounds and in minutes (at `SECONDS_PER_TURN`),
    and the options that paste into any ludosim command."""
    study, plan = tables.study, tables.plan
    goal = study.goals[0]
    players = study.base().players
    points = tables.points.drop_duplicates("point").set_index("point")
    codes = [float(x) for x in str(points.loc[pick, "codes"]).split()]
    changed = [f for f, x in zip(plan.free, codes, strict=True) if x > 0]
    sentences = []
    for f in changed:
        topic, now = rule_words(f.toggle, f.values[1])
        _, was = rule_words(f.toggle, f.values[0])
        sentences.append(f"{topic}: {now} (was: {was}).")
    length = {p: float(_goal_value(tables, p, "length")["estimate"]) for p in (pick, "preset")}
    minutes = {p: x * players * SECONDS_PER_TURN / 60 for p, x in length.items()}
    pace = (
        f"at {SECONDS_PER_TURN:g} seconds per player turn with {players} players (an assumed pace)"
    )
    if not changed:
        others = len(tables.confirmed) - 1
        return (
            f"For {GOAL_WORDS[goal]}, keep {study.preset}'s own rules: none of the {others} "
            "other candidates confirmed does better by the smallest difference that matters. "
            f"A game lasts {length['preset']:.0f} rounds on average, about "
            f"{minutes['preset']:.0f} minutes {pace}."
        )
    vs = comparisons[
        (comparisons["kind"] == "vs preset") & (comparisons["point"] == pick)
    ].set_index("measure")
    row = vs.loc["length"]
    change = estimate(row["estimate"], row["ci_low"], row["ci_high"], "rounds")
    text = (
        f"For {GOAL_WORDS[goal]}, play {study.preset} with {len(changed)} house "
        f"rule{'s' if len(changed) > 1 else ''} changed. "
        + " ".join(sentences)
        + f" A game then lasts {length[pick]:.0f} rounds on average instead of "
        f"{length['preset']:.0f} ({change}), about {minutes[pick]:.0f} minutes instead of "
        f"{minutes['preset']:.0f} {pace}."
    )
    measure = GOALS[goal][0]
    if measure != "length" and measure in vs.index:
        m, r = MEASURES[measure], vs.loc[measure]
        text += (
            f" Its {m.title} moves by {estimate(r['estimate'], r['ci_low'], r['ci_high'], m.unit)}"
            f" against {study.preset}'s own rules."
        )
    return text + f" Paste: ludosim simulate {_set_line(study, plan.label(codes))}"


def _recommendation(tables: DesignTables, comparisons: pd.DataFrame) -> list[Any]:

    study = tables.study
    goal = study.goals[0]
    measure = GOALS[goal][0]
    m0 = MEASURES[measure]
    limits = " and ".join(x.text for x in study.limits)
    feasible = tables.search[tables.search["feasible"].astype(bool)]
    space = len(tables.search)
    if tables.confirmed.empty:
        return [
            Finding(
                "recommend",
                (
                    f"None of the {space:,} rule sets of the space is predicted to meet {limits}; "
                    "relax a limit or free other house rules."
                ),
                False,
                headline=True,
                kind="note",
            )
        ]
    confirmed = tables.confirmed
    stand = standings(tables, comparisons)
    labels = dict(zip(confirmed["point"].astype(str), confirmed["label"], strict=True))
    (pick,) = [p for p, x in stand.items() if x == RECOMMENDED]
    equal = [p for p, x in stand.items() if x == EQUALLY_GOOD]
    apart = [p for p, x in stand.items() if x == NOT_APART]
    worse = [p for p, x in stand.items() if x == WORSE]
    meets = [
        p
        for p in stand
        if all(x.holds(_goal_value(tables, p, x.measure)["estimate"]) for x in study.limits)
    ]
    distinct = int((tables.search["same_as"] == "").sum())  # search and read_tables set it
    repeats = (
        f" ({space - distinct:,} more play the same games as one with fewer changes)"
        if distinct < space
        else ""
    )
    if limits:
        meet = f"{len(feasible):,} of the {distinct:,} distinct rule sets{repeats} are predicted "
        meet += f"to meet {limits}"
    else:
        meet = f"the space holds {distinct:,} distinct rule sets{repeats} (no limits asked)"
    front = int(tables.search["front"].astype(bool).sum())
    pool = int((tables.search["front"] & tables.search["may_be_best"]).astype(bool).sum())
    games = int(confirmed["games"].iloc[0])
    within = amount(m0.smallest, m0.unit)
    b = _goal_value(tables, pick, measure)
    if len(stand) == 1:
        said = f"The one candidate for {goal}"
    elif not apart and not equal:
        said = f"Best for {goal}, resolved against every other candidate by the page's correction"
    else:
        said = f"Recommended for {goal}"
    text = f"{said}: {labels[pick]} ({m0.title} {_stated(b)}, {int(b['games']):,} games)"
    if equal:
        text += (
            f", the fewest changes among the best measured and those within {within} of it "
            f"(equally good: {listing([labels[p] for p in equal])})"
        )
    if apart:
        text += (
            f". Not told apart from it at this size (neither resolved worse nor shown within "
            f"{within}): {listing([labels[p] for p in apart])}"
        )
    if worse:
        text += f". Resolved worse: {listing([labels[p] for p in worse])}"
    text += (
        f". Under {study.preset}, {meet}; {front:,} are on the front of "
        f"{listing(list(study.goals))} by the model's 95% prediction intervals, {pool:,} of "
        f"those may be within {within} of the best for {goal}, and {len(stand)} of them, drawn "
        f"far apart, were replayed once with {study.preset}'s own rules on games of their own "
        f"({games:,} games each, fixed before the first"
        + (f"; {of(len(meets), len(stand))} measured within the limits)" if limits else ")")
    )
    vs_preset = comparisons[(comparisons["kind"] == "vs preset") & (comparisons["point"] == pick)]
    goal_measures = [GOALS[g][0] for g in study.goals]
    said, costs = [], []
    for row in vs_preset.itertuples(index=False):
        m = MEASURES[row.measure]
        change = estimate(row.estimate, row.ci_low, row.ci_high, m.unit)
        if row.measure in goal_measures:
            aim = study.goals[goal_measures.index(row.measure)]
            said.append(
                f"for {aim}, its {m.title} moves by {change} against {study.preset}'s own rules "
                f"(unadjusted interval; {_secondary(row, GOALS[aim][1])})"
            )
        elif row.size == PRACTICAL:
            costs.append(f"{m.title} {change}")
    if said:
        text += ". " + "; ".join(said)[0].upper() + "; ".join(said)[1:]
    text += (
        f". It also changes, by at least the smallest effect that matters: {'; '.join(costs)}."
        if costs
        else ". No other measure changes by an interval that clears its smallest effect."
    )
    out = [
        Finding(
            "recommend",
            rules_card(tables, pick, comparisons),
            True,
            headline=True,
            kind="ranking",
            estimate=float(b["estimate"]),
            ci_low=float(b["ci_low"]),
            ci_high=float(b["ci_high"]),
            unit=str(b["unit"]),
            family="differences",
            games=int(b["games"]),
        ),
        Finding("recommend", text, True, headline=True, kind="note"),
    ]

    for p, x in stand.items():
        parts = []
        for name in DESIGN_MEASURES:
            row = _goal_value(tables, p, name)
            parts.append(f"{MEASURES[name].title} {_stated(row)}")
        out.append(
            Finding(
                "recommend",
                (
                    f"{labels[p]} ({x}; {games:,} games with random seats): "
                    + "; ".join(parts)
                    + f". {_set_line(study, labels[p])}"
                ),
                True,
                kind="value",
            )
        )
    return out


def _screening(tables: DesignTables, effects: pd.DataFrame) -> list[Any]:
    """Per measure: the house rules (and interactions) whose interval clears the
    smallest effect of interest, largest first; how many are shown smaller; each
    such effect behind its headline."""

    out = []
    for name in DESIGN_MEASURES:
        m = MEASURES[name]
        rows = effects[effects["measure"] == name]
        practical = rows[rows["practical"]].sort_values("estimate", key=abs, ascending=False)
        mains = practical[practical["factors"] == 1]
        inter = practical[practical["factors"] == 2]
        main_rows = rows[rows["factors"] == 1]
        small = int(main_rows["size"].isin([BELOW, EQUIVALENT]).sum())
        listed = "; ".join(
            f"{r.term} {estimate(r.estimate, r.ci_low, r.ci_high, m.unit)}"
            for r in mains.head(6).itertuples(index=False)
        )
        count = len(main_rows)
        smallest = amount(m.smallest, m.unit)
        verb = "moves" if len(mains) == 1 else "move"
        text = (
            f"The {m.title}: {of(len(mains), count)} house rules {verb} it by at least "
            f"{smallest} (resolved, the whole interval beyond {smallest}; Holm over the page)"
            + (f": {listed}" if listed else "")
        )
        rest = count - len(mains) - small
        text += (
            f"; {small} move it by less than {smallest} (interval within it)" if small else ""
        ) + (f"; for {rest}, a change of {smallest} is not ruled out at this size" if rest else "")
        if len(inter):
            top = inter.iloc[0]
            text += (
                f"; {len(inter)} interaction{'s' if len(inter) > 1 else ''} clear it too, the "
                f"largest {top['term']} "
                f"{estimate(top['estimate'], top['ci_low'], top['ci_high'], m.unit)}"
            )
        out.append(
            Finding("screening", text + ".", True, headline=True, kind="note", family="differences")
        )
        for r in practical.itertuples(index=False):
            out.append(
                Finding(
                    "screening",
                    f"{r.term} on the {m.title}: "
                    f"{estimate(r.estimate, r.ci_low, r.ci_high, m.unit)}; "
                    f"resolved (Holm-adjusted {p_text(r.p_adjusted)}), at least {smallest}.",
                    True,
                    kind="difference",
                    estimate=float(r.estimate),
                    ci_low=float(r.ci_low),
                    ci_high=float(r.ci_high),
                    unit=m.unit,
                    family="differences",
                    p_adjusted=float(r.p_adjusted),
                    games=int(r.games),
                )
            )
    return out


def coverage_by_measure(checks: pd.DataFrame, stage: str = "holdout") -> dict[str, Coverage]:
    """Per measure, the two-sided check of the 95% prediction intervals on one stage's
    rule sets (`ludosim.report.coverage`). The holdout is drawn at random from the
    space, so it checks the model where it was not fitted; the confirmed candidates
    are the model's own picks, chosen for their predictions, and are shown apart."""
    part = checks[checks["stage"] == stage]
    return {
        name: coverage_check(int(rows["inside"].astype(bool).sum()), len(rows))
        for name in DESIGN_MEASURES
        if len(rows := part[part["measure"] == name])
    }


def check_summary(tables: DesignTables) -> pd.DataFrame:
    """Per measure: the lack of fit, the held-out rule sets checked, those held by the
    95% prediction interval with the two-sided check, the confirmed ones held, and the
    root mean square error of the predictions."""
    checks = tables.checks
    held = coverage_by_measure(checks)
    rows = []
    for name in DESIGN_MEASURES:
        part = checks[checks["measure"] == name]
        if part.empty:
            continue
        m = MEASURES[name]
        mine = part[part["stage"] == "confirm"]
        rows.append(
            {
                "measure": m.title,
                "unit": m.unit,
                "lack of fit (sd)": f"{math.sqrt(tables.models[name].misfit):.3g}",
                "holdout inside": held[name].text().split(":")[0] if name in held else "-",
                "coverage": held[name].verdict if name in held else "-",
                "confirmed inside": f"{int(mine['inside'].astype(bool).sum())} of {len(mine)}",
                "rms error": float(np.sqrt(((part["predicted"] - part["measured"]) ** 2).mean())),
            }
        )
    return pd.DataFrame(rows)


def _stated(row: Any) -> str:
    """A measured value with its interval, in its unit: `87.2 rounds (95% CI 86.5 to 88.0)`."""

    return estimate(row["estimate"], row["ci_low"], row["ci_high"], row["unit"], sign=False)


def _predicted(row: Any, measure: str) -> str:
    m = MEASURES[measure]
    return f"{m.title} {row[measure]:.3g} {m.unit}"


def _model_checks(tables: DesignTables) -> list[Any]:

    checks = tables.checks
    if checks.empty:
        return []
    held = coverage_by_measure(checks)
    out = []
    if held:
        off = {n: c for n, c in held.items() if c.verdict != CONSISTENT}
        n = next(iter(held.values())).checked
        text = (
            f"Checked on {n} rule sets held out at random, on games of their own, the models' "
            f"95% prediction intervals held the measurement as stated for "
            f"{of(len(held) - len(off), len(held))} measures"
        )
        if off:
            text += ", not for " + "; ".join(
                f"the {MEASURES[k].title}: {c.text()}" for k, c in off.items()
            )
            text += " (read those predictions as rough)"
        text += (
            ". Each measure is checked two-sided (too wide a miss as much as too narrow), with "
            f"an exact interval over its {n} rule sets; with so few, only a large miss shows."
        )
        out.append(Finding("model", text, True, headline=True, kind="note"))
    for name in DESIGN_MEASURES:
        rows = checks[checks["measure"] == name]
        if rows.empty:
            continue
        error = float(np.sqrt(((rows["predicted"] - rows["measured"]) ** 2).mean()))
        m = MEASURES[name]
        mine = rows[rows["stage"] == "confirm"]
        said = held[name].text() if name in held else "no rule set held out"
        out.append(
            Finding(
                "model",
                (
                    f"The {m.title}: held-out rule sets inside their interval {said}; confirmed "
                    f"candidates (the model's own picks) {int(mine['inside'].sum())} of "
                    f"{len(mine)}; lack of fit sd {math.sqrt(tables.models[name].misfit):.3g} "
                    f"{m.unit} (a part of every interval that does not shrink with games); root "
                    f"mean square error {error:.3g} {m.unit}."
                ),
                True,
                kind="value",
            )
        )
    return out


def _front(tables: DesignTables) -> list[Any]:

    study = tables.study
    goals = study.goals if len(study.goals) > 1 else (study.goals[0], "skill")
    front = tables.search[tables.search["front"].astype(bool)]
    if front.empty:
        return []
    names = [GOALS[g][0] for g in goals[:2]]
    shown = [
        f"{r['label']} ({', '.join(_predicted(r, m) for m in names)})"
        for _, r in front.head(5).iterrows()
    ]
    return [
        Finding(
            "front",
            (
                f"On {listing(list(study.goals))}, {len(front)} rule set"
                f"{'s are' if len(front) != 1 else ' is'} not beaten on every goal once the 95% "
                "prediction intervals are counted (no other is predicted better on all of them "
                "beyond both intervals): a trade-off between goals is only shown where the "
                "intervals part"
                + (f"; the {len(shown)} first by {goals[0]}: " if len(front) > len(shown) else ": ")
                + f"{listing(shown)} (every one in search.csv, front = True). Predictions, not "
                "measurements: the confirmed rule sets above are measured."
            ),
            True,
            headline=True,
            kind="note",
        )
    ]


# ------------------------------------------------------------------------------- page
GLOSSARY_TERMS = (
    (
        "free house rule",
        "a toggle the design may change, screened at two values: the preset's "
        "own and one alternative.",
    ),
    (
        "resolution V",
        "a fraction of all the combinations of the free house rules chosen so that "
        "no main effect or two-toggle interaction is mixed up with another; each two-toggle "
        "interaction is mixed up with three-toggle ones (aliases.csv), which the model takes "
        "to be nil.",
    ),
    (
        "main effect, interaction",
        "a main effect is the mean at a house rule's alternative minus "
        "the mean at the preset's value, over the design; an interaction is how much one house "
        "rule's effect depends on another's.",
    ),
    (
        "prediction interval",
        "where the model expects a measurement of a rule set to fall, 95% "
        "of the time: the model's own uncertainty, its lack of fit (which does not shrink "
        "with more games), the screening's shared dice and the noise of the games.",
    ),
    (
        "holdout",
        "rule sets outside the design, drawn at random and played on games of their own, "
        "to check the model's predictions.",
    ),
    (
        "confirmation",
        "candidates replayed once, with the preset's own rules, on games no other stage "
        "played (all on the same games, paired), at a size fixed before the first game; "
        "their values are measured, not predicted.",
    ),
    (
        "front",
        "the rule sets no other is predicted to beat on every goal beyond both prediction "
        "intervals: those that may be best.",
    ),
    (
        "relative skill",
        "the relative skill level RS of Dreef, Borm and van der Genugten (2004): "
        "(W(optimal) - 1/n) / (W(fictive) - 1/n), W a player's win share in one seat against "
        f"{WEAK} players, rotated through every position; the optimal player is the strongest "
        "play the design affords, the fictive player knows the dice in advance. 0 for a game "
        "of pure chance, 1 for pure skill; differences in RS.",
    ),
    # The shared pages' edge is in pp; this page states the first player's edge only
    # relative to the fair share, so its glossary says that unit and no other.
    (
        "edge, relative edge",
        "the first player's edge on this page is always its relative edge: its win share "
        "over the fair share, minus one, in % of a fair share (25.67% against 25% is +2.7% "
        "of a fair share), so that rule sets of different player counts compare.",
    ),
    (
        "turn-order imbalance",
        "the root mean square, over the turn-order positions, of each "
        "position's win share minus the fair share, less the part the games' noise adds, in pp.",
    ),
    ("long game", "the 90th percentile of the game length: one game in ten lasts longer."),
    (
        "comebacks",
        "the share of games won by a seat that was last at mid-game (the first turn at "
        "which some seat had run half its race), every seat random.",
    ),
    (
        "lead changes",
        "turns after which another seat leads the race (most progress), per round of the "
        "game, so that games of different length compare.",
    ),
    ("captures", "opponent pieces sent home, all seats together, per round of the game."),
)


def confirmation_noise(study: DesignStudy, measures: pd.DataFrame) -> dict[str, float]:
    """The standard error of a confirmation's measurement, per measure: the screening's
    median per rule set (`measures`' screen stage), scaled down to the confirmation's
    games (`confirm_games` random-seat games for `screen_games`; twice the skill games).
    What a model's prediction interval adds for the noise of the games that would
    measure a rule set, in the search and in the explorer alike."""
    screen = measures[measures["stage"] == "screen"]
    ratio = {"random": study.screen_games / study.confirm_games, "skill": 0.5}
    return {
        name: float(np.median(screen.loc[screen["measure"] == name, "se"]))
        * math.sqrt(ratio[MEASURES[name].source])
        for name in DESIGN_MEASURES
    }


def prediction_noise(tables: DesignTables) -> dict[str, float]:
    """`confirmation_noise` of a design's tables."""
    return confirmation_noise(tables.study, tables.measures)


def explorer_models(tables: DesignTables) -> list[Any]:
    from ludosim.report.explorer import ModelData

    noise = prediction_noise(tables)
    # The explorer adds `scale * noise^2` to the coefficients' variance: every part that
    # does not come from the coefficients (lack of fit, the screening's level, the
    # measurement's games) goes into that one noise, at scale 1.
    return [
        ModelData(
            name,
            MEASURES[name].title,
            MEASURES[name].unit,
            m.terms,
            m.coef.tolist(),
            m.cov.tolist(),
            1.0,
            m.t(),
            math.sqrt(m.misfit + m.level + noise[name] ** 2),
            0.0 if MEASURES[name].statistic == "imbalance" else None,
        )
        for name, m in tables.models.items()
    ]


def _measured_by_codes(tables: DesignTables) -> dict[str, dict[str, list[float]]]:
    """Confirmed rule sets' measured values, keyed by their codes as the explorer keys them."""
    out: dict[str, dict[str, list[float]]] = {}
    codes = tables.points.drop_duplicates("point").set_index("point")["codes"]
    for r in tables.confirmed.itertuples(index=False):
        key = " ".join(str(int(float(x))) for x in str(codes[r.point]).split())
        rows = tables.measures[
            (tables.measures["point"] == r.point) & (tables.measures["stage"] == "confirm")
        ]
        out[key] = {
            row.measure: [row.estimate, row.ci_low, row.ci_high]
            for row in rows.itertuples(index=False)
        }
    if codes.get("preset") is not None:
        pass
    return out


def study_page(
    tables: DesignTables,
    out: str | Path,
    title: str | None = None,
    played: str | Path | None = None,
) -> Path:
    """Write `index.html`, its PNGs and `findings.json` beside the tables in `out`;
    `played` is the folder the stages' sweeps were played into (default `out`), for the
    page's reproduce line."""
    from ludosim.report import figures
    from ludosim.report.explorer import explorer
    from ludosim.report.figures import Panel
    from ludosim.report.page import (
        PageFigure,
        PageSection,
        PageTable,
        html_table,
        page_figure,
        write_study_page,
    )

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    study, plan = tables.study, tables.plan
    found = decide(tables)
    sections = []
    # Recommended rule sets, as measured
    labels = tables.points.drop_duplicates("point").set_index("point")["label"]
    rows = []
    stand = standings(tables, decided(tables).comparisons)
    for i, r in enumerate(tables.confirmed.itertuples(index=False), start=1):
        # A short name first: the rule sets' labels are too long to lead a table row.
        entry: dict[str, Any] = {"candidate": f"#{i}", "standing": stand[r.point],
                                 "changes": r.changes, "games": r.games}  # fmt: skip
        for name in DESIGN_MEASURES:
            row = _value(tables.measures, r.point, name, "confirm")
            m = MEASURES[name]
            entry[f"{m.title} ({m.unit})"] = estimate(
                row["estimate"], row["ci_low"], row["ci_high"], sign=False, with_ci=False
            )
        entry["rule set"] = labels[r.point]
        entry["options"] = _set_line(study, labels[r.point])
        rows.append(entry)
    confirmed = pd.DataFrame(rows)
    confirmed.to_csv(folder / "recommended.csv", index=False)
    sections.append(
        PageSection(
            "Recommended rule sets",
            text=(
                "Candidates the model predicts may be best"
                + (" within the limits" if study.limits else " (no limits asked)")
                + ", drawn far apart, replayed once with the preset's own rules on games no "
                "other stage played (paired among themselves): measured values with 95% "
                "intervals."
            ),
            tables=[
                PageTable(
                    "Confirmed candidates",
                    "recommended.csv",
                    html_table(confirmed.drop(columns="options")),
                    "95% CIs. Standing on the first goal, as the page decides it: recommended "
                    "(the fewest changes among the best measured and those equally good), "
                    "equally good (the difference from the best lies within the smallest "
                    "effect of interest), not told apart (neither resolved nor shown that "
                    "small) or worse (resolved by Holm over the page). recommended.csv adds "
                    "each rule set's options, which paste into any ludosim command.",
                )
            ],
        )
    )
    # Screening effects: the main effects of every free house rule on four measures
    effects = tables.effects[tables.effects["factors"] == 1]
    shown = ("length", "imbalance", "skill", "comebacks")
    wide = effects[effects["measure"] == shown[0]][["term"]].reset_index(drop=True)
    for name in shown:
        part = effects[effects["measure"] == name].reset_index(drop=True)
        wide[name], wide[f"{name}_low"], wide[f"{name}_high"] = (
            part["estimate"],
            part["ci_low"],
            part["ci_high"],
        )
    panels = [
        Panel(n, f"{n}_low", f"{n}_high", f"{MEASURES[n].title}\n({MEASURES[n].unit})")
        for n in shown
    ]
    fig = figures.forest(wide, wide["term"].tolist(), panels)
    what = (
        "Main effect of each free house rule (the preset's value -> the alternative) on "
        f"four measures, with 95% CIs, over the {len(plan.codes)} rule sets of the screening; "
        "every effect and interaction on every measure is in effects.csv."
    )
    screen = PageSection(
        "What each house rule does",
        figures=[page_figure(folder, fig, "effects.png", "Screening: main effects", what)],
    )
    screened = found.comparisons
    shown = screened[screened["practical"].astype(bool)][
        ["measure", "term", "estimate", "ci_low", "ci_high", "p_adjusted"]
    ]
    shown = shown.assign(
        unit=shown["measure"].map(lambda n: MEASURES[n].unit),
        measure=shown["measure"].map(lambda n: MEASURES[n].title),
    )
    screen.tables.append(
        PageTable(
            "Effects of practical size",
            "effects.csv",
            html_table(shown),
            "The effects the page resolved (Holm over its family) that reach the measure's "
            "smallest effect of interest; effects.csv holds every term on every measure, with "
            "its p-value before the correction.",
        )
    )
    sections.append(screen)
    # The front between two goals
    goals = study.goals if len(study.goals) > 1 else (study.goals[0], "skill")
    x, y = (GOALS[g][0] for g in goals[:2])
    measured = _measured_frame(tables, x, y)
    fig = figures.front(
        tables.search,
        x,
        y,
        f"{MEASURES[x].title} ({MEASURES[x].unit})",
        f"{MEASURES[y].title} ({MEASURES[y].unit})",
        measured,
        limits=bool(study.limits),
    )
    sections.append(
        PageSection(
            "What one goal costs of another",
            figures=[
                page_figure(
                    folder,
                    fig,
                    "front.png",
                    f"Front between {goals[0]} and {goals[1]}",
                    "Every rule set of the space as the model predicts it; the front with 95% "
                    "prediction "
                    "intervals; the confirmed candidates as measured.",
                )
            ],
        )
    )
    # The model's check
    if not tables.checks.empty:
        fig = figures.prediction_check(
            tables.checks, {n: f"{MEASURES[n].title} ({MEASURES[n].unit})" for n in DESIGN_MEASURES}
        )
        sections.append(
            PageSection(
                "How well the model predicts",
                figures=[
                    page_figure(
                        folder,
                        fig,
                        "model_check.png",
                        "Predicted against measured",
                        "Each rule set the model was not fitted on (held out, confirmed): its 95% "
                        "prediction "
                        "interval and the measured value; red where the interval misses it.",
                    )
                ],
                tables=[
                    PageTable(
                        "Checks by measure",
                        "checks.csv",
                        html_table(check_summary(tables)),
                        "Per measure: the lack of fit (the standard deviation of the rule "
                        "sets around the model beyond their games' noise), the held-out rule "
                        "sets the 95% prediction interval held with the exact 95% interval of "
                        "that share and its two-sided verdict, the confirmed candidates held, "
                        "and the root mean square error; checks.csv holds every check.",
                    )
                ],
            )
        )
    # The explorer
    free = [menu_words(f) for f in plan.free]
    layout = explorer(free, explorer_models(tables), _measured_by_codes(tables))
    item = PageFigure(
        "explorer",
        "Explorer",
        "Pick a value for each free house rule: the model's prediction of every "
        "measure with its 95% prediction interval; a confirmed rule set shows its "
        "measured values.",
        interactive=layout,
    )
    sections.append(PageSection("Explorer", figures=[item]))
    name = study.name or f"design-{study.preset}"
    limits = " and ".join(x.text for x in study.limits)
    intro = (
        f"Which house rules of {study.preset} best meet the "
        f"goal{'s' if len(study.goals) > 1 else ''} {listing(list(study.goals))}"
        + (f", within the limits {limits}" if limits else "")
        + f": {len(plan.free)} free house rules, {sum(tables.games.values()):,} games, seed "
        f"{study.seed}."
    )
    command = _command(study, played or folder, folder)
    return write_study_page(
        folder,
        title or f"ludosim design: {name}",
        intro,
        command,
        found.findings,
        TITLES,
        sections,
        GLOSSARY_TERMS,
    )


def _measured_frame(tables: DesignTables, x: str, y: str) -> pd.DataFrame:
    rows = []
    for r in tables.confirmed.itertuples(index=False):
        a, b = (_value(tables.measures, r.point, m, "confirm") for m in (x, y))
        rows.append(
            {
                x: a["estimate"],
                f"{x}_low": a["ci_low"],
                f"{x}_high": a["ci_high"],
                y: b["estimate"],
                f"{y}_low": b["ci_low"],
                f"{y}_high": b["ci_high"],
            }
        )
    return pd.DataFrame(rows)


def _command(study: DesignStudy, played: str | Path, page: str | Path) -> str:
    """The command line that plays the study into `played` (and, where the page lies
    elsewhere, the `ludosim report` that writes it into `page`)."""
    import shlex

    words = ["ludosim", "design", "--preset", study.preset, "--seed", str(study.seed)]
    for item in study.sets:
        words += ["--set", item]
    for f in study.free:
        words += [
            "--free",
            f"{f.toggle}={_value_text(f.toggle, f.values[0])},{_value_text(f.toggle, f.values[1])}",
        ]
    for goal in study.goals:
        words += ["--goal", goal]
    for limit in study.limits:
        words += ["--limit", f"{limit.measure}{limit.op}{_num(limit.value)}"]
    defaults = DesignStudy(preset=study.preset, seed=study.seed)
    for key in (*SIZES, *PLAYERS):
        if getattr(study, key) != getattr(defaults, key):
            words += [f"--{key.replace('_', '-')}", str(getattr(study, key))]
    words += ["--out", str(played)]
    line = " ".join(shlex.quote(w) for w in words)
    if Path(played).resolve() != Path(page).resolve():
        line += " && " + shlex.join(["ludosim", "report", str(played), "--out", str(page)])
    return line


def is_design(folder: str | Path) -> bool:
    """Whether `folder` holds a design's tables (`ludosim design` wrote it)."""
    return (Path(folder) / STUDY_FILE).is_file()


def report_study(folder: str | Path, out: str | Path, title: str | None = None) -> Path:
    """A design's tables and page, read from `folder` and written into `out` (without the
    stages' sweeps: `make reports` keeps those under runs/)."""
    tables = read_tables(folder)
    write_tables(tables, out)
    return study_page(tables, out, title, played=folder)


def run_study(
    study: DesignStudy,
    out: str | Path,
    *,
    progress: Progress | None = None,
    player: Player | None = None,
    **run: Any,
) -> Path:
    """plan -> play -> tables -> findings -> page, into `out`; the page's path."""
    if not isinstance(study, DesignStudy):
        raise DesignError(
            f"run_study: study must be a DesignStudy (load_study or study_from_options), "
            f"got {study!r}"
        )
    if not isinstance(out, (str, Path)) or not str(out).strip():
        raise DesignError(f"run_study: out must be a folder's path, got {out!r}")
    tables = play_study(study, out, progress=progress, player=player, **run)
    write_tables(tables, out)
    return study_page(tables, out)


__all__ = [
    "ALTERNATIVES",
    "GOALS",
    "HOUSE_RULES",
    "DesignError",
    "DesignStudy",
    "DesignTables",
    "Free",
    "Limit",
    "Model",
    "Plan",
    "decide",
    "default_free",
    "fit_model",
    "is_design",
    "load_study",
    "parse_free",
    "parse_limit",
    "plan_study",
    "play_study",
    "read_tables",
    "report_study",
    "run_study",
    "search",
    "study_from_options",
    "study_page",
    "write_tables",
]
