"""What a design asks (`DesignStudy`): the preset it starts from, the free house rules and
their two values (`Free`), the goals (`GOALS`) and the limits (`Limit`), the sizes and the
relative skill level's players.

A study comes from a study file (`load_study`), from command-line options
(`study_from_options`) or from the tables' JSON (`study_dict`, `study_from_dict`); every
fault is one `DesignError` naming the field and the fix. Each stage plays games of its
own (`stage_seed`, `player_seed`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from ludosim.results.measures import DESIGN_MEASURES, MEASURES
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import PRESETS, TOGGLES, Rules, format_value, parse_value
from ludosim.rules.options import parse_sets, split_values
from ludosim.studies import defaults
from ludosim.studies.study import read_study_file

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


# The optimal player of the relative skill level (`defaults.DESIGN` says why this one).
DEFAULT_OPTIMAL = defaults.DESIGN["optimal"]


DEFAULT_FICTIVE = defaults.FICTIVE  # the expert's search on the game's own future dice


# The fictive player's games: the stage's seed mixed with this index (`player_seed`),
# an index no stage uses, so its dice are independent of the optimal player's.
FICTIVE_INDEX = 3


# Every stage plays its own games: the stage's index mixed into the study's seed with the
# streams' own mixer, so no stage replays another's dice (the screening keeps the seed).
STAGE_INDEX = {"screen": 0, "holdout": 1, "confirm": 2}


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
    screen_games: int = defaults.DESIGN["screen_games"]
    skill_games: int = defaults.DESIGN["skill_games"]
    holdout: int = defaults.DESIGN["holdout"]
    candidates: int = defaults.DESIGN["candidates"]
    confirm_games: int = defaults.DESIGN["confirm_games"]
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

    if TOGGLES[name].kind in ("set", "faces", "face_set", "ints"):
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
    and the key. `seed` (the command line's `--seed`) stands for the file's."""
    required = ("preset",) if seed is not None else ("preset", "seed")
    data = read_study_file(path, _KEYS, DesignError, required=required)
    path = Path(path)
    if seed is not None:
        data["seed"] = seed
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
    return f"[{text}]" if TOGGLES[toggle].kind in ("set", "faces", "face_set", "ints") else text


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
