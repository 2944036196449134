"""The rules of a Ludo variant as plain, validated data.

`Rules` is a frozen dataclass with one field per toggle of the table
`ludosim.rules.toggles.TOGGLES` (docs/rules.md section 6), under its exact name and
with its default. The table is the single place a toggle is declared: the
fields, the parsing of values, the CLI, the docs and the reports all follow
it. `PRESETS` bundles toggles into the five seed rule sets, each naming the
seed file it comes from, and three from outside them, each naming its source in
its description: Mensch ärgere Dich nicht as most families play it (`maedn`) and
as its 2006 leaflet prints it (`maedn-2006`), and Ludo King's classic mode.

The engines never read a `Rules` object in their hot loops: the compiled
kernel receives `ludosim.engine.layout.compile_rules(rules)`, a flat integer
array, and the reference engine a `Board` built from it.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ludosim.rules import tomlio
from ludosim.rules.errors import RulesError, unknown_name
from ludosim.rules.toggles import (
    D6_FACES,
    DEFAULT_FACES,
    GLOBE,
    SAFE_KINDS,
    STAR,
    STAR_GLOBE_FACES,
    SYMBOL_FACES,
    TOGGLES,
    Toggle,
)

__all__ = [
    "D6_FACES",
    "DEFAULT_FACES",
    "GLOBE",
    "HASH_SCHEME",
    "PRESETS",
    "SAFE_KINDS",
    "SEMANTICS_VERSION",
    "STAR",
    "STAR_GLOBE_FACES",
    "SYMBOL_FACES",
    "TOGGLES",
    "Preset",
    "Rules",
    "Toggle",
    "format_value",
    "parse_value",
    "presets",
    "rules_hash",
]

# Simulation semantics version: bump when the games played for a given
# (rules, seed) change; refactors and speed-ups do not bump it.
SEMANTICS_VERSION = 2

# Rules hash scheme: bump when what `Rules.hash` covers or how it encodes it
# changes (never for a new toggle: hashes leave defaults out).
HASH_SCHEME = 2


def _parse_bool(name: str, value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("true", "yes", "1", "on"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("false", "no", "0", "off"):
        return False
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise RulesError(f"{name}={value!r} is not allowed; allowed values: true, false")


def _split(value: Any) -> list[Any]:
    if isinstance(value, str):
        text = value.strip()
        if text.lower() in ("", "none", "{}", "[]", "()"):
            return []
        return [part.strip() for part in text.strip("[](){}").split(",") if part.strip()]
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    return [value]


def _whole_number(value: Any) -> int | None:
    """`value` as an int when it names a whole number: an int (not a bool), a numeric
    string, or a float equal to an int (2.0 is 2); None for anything else, such as
    1.5, inf, nan or True."""
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return None
    try:
        number = int(value.strip()) if isinstance(value, str) else int(value)
    except (TypeError, ValueError, OverflowError):
        # OverflowError: int() of a float infinity.
        return None
    if not isinstance(value, str) and number != value:
        return None
    return number


def _parse_int(name: str, value: Any, toggle: Toggle) -> int:
    number = _whole_number(value)
    if number is None:
        raise RulesError(f"{name}={value!r} is not an integer; allowed values: {toggle.allowed()}")
    return number


def _parse_face(name: str, item: Any) -> int | str:
    if isinstance(item, str) and item.strip().lower() in SYMBOL_FACES:
        return item.strip().lower()
    number = _whole_number(item)
    if number is not None and 1 <= number <= 6:
        return number
    raise RulesError(f"{name} has face {item!r}; allowed faces: 1, 2, 3, 4, 5, 6, globe, star")


def parse_value(name: str, value: Any) -> Any:
    """Convert a raw value (from the CLI, TOML or Python) to the toggle's type, or raise."""
    toggle = TOGGLES.get(name)
    if toggle is None:
        raise RulesError(unknown_name("toggle", name, TOGGLES, "known toggles"))
    if toggle.kind == "bool":
        return _parse_bool(name, value)
    if toggle.kind == "choice":
        for choice in toggle.choices:
            if str(choice) == str(value).strip():
                return choice
        raise RulesError(f"{name}={value!r} is not allowed; allowed values: {toggle.allowed()}")
    if toggle.kind == "int":
        if toggle.default is None and (
            value is None or str(value).strip().lower() in ("", "default")
        ):
            return None
        number = _parse_int(name, value, toggle)
        if number < toggle.low or (toggle.high is not None and number > toggle.high):
            raise RulesError(f"{name}={number} is out of range; allowed values: {toggle.allowed()}")
        return number
    if toggle.kind == "float":
        try:
            number = float(value)
        except (TypeError, ValueError):
            raise RulesError(
                f"{name}={value!r} is not a number; allowed values: {toggle.allowed()}"
            ) from None
        if not toggle.low <= number <= toggle.high:
            raise RulesError(
                f"{name}={number:g} is out of range; allowed values: {toggle.allowed()}"
            )
        return number
    if toggle.kind == "set":
        items = [str(v).strip().lower() for v in _split(value)]
        bad = [v for v in items if v not in toggle.choices]
        if bad:
            raise RulesError(f"{name} has {bad[0]!r}; allowed values: {toggle.allowed()}")
        return tuple(k for k in toggle.choices if k in items)
    if toggle.kind == "faces":
        faces = tuple(_parse_face(name, v) for v in _split(value))
        if len(faces) != 6:
            raise RulesError(f"{name} has {len(faces)} faces; allowed values: {toggle.allowed()}")
        return faces
    if toggle.kind == "face_set":
        faces = {_parse_face(name, v) for v in _split(value)}
        return tuple(f for f in (*D6_FACES, GLOBE, STAR) if f in faces)
    if toggle.kind == "ints":
        numbers = []
        for item in _split(value):
            number = _parse_int(name, item, toggle)
            if not toggle.low <= number <= toggle.high:
                raise RulesError(f"{name} has {number}; allowed values: {toggle.allowed()}")
            numbers.append(number)
        if toggle.ordered:
            return tuple(numbers)
        return tuple(sorted(set(numbers)))
    raise AssertionError(toggle.kind)


def _toggle_fields(cls: type) -> type:
    """Give `cls` one field per toggle of `TOGGLES`, in table order, with its default."""
    cls.__annotations__ = {name: toggle.annotation for name, toggle in TOGGLES.items()}
    for name, toggle in TOGGLES.items():
        setattr(cls, name, toggle.default)
    return cls


@dataclass(frozen=True, kw_only=True)
@_toggle_fields
class Rules:
    """Every toggle of `ludosim.rules.toggles.TOGGLES` as a field of the same name.

    Build with `Rules.preset(name)` and `replace`. Defaults are the plain
    Danish rules; `entry=None` means "the track length minus 2" and is
    resolved on construction, so `rules.entry` is always a number.
    """

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):
            object.__setattr__(self, f.name, parse_value(f.name, getattr(self, f.name)))
        if self.entry is None:
            object.__setattr__(self, "entry", self.track_len - 2)
        _validate(self)

    # ----------------------------------------------------------------- derived
    @property
    def track_len(self) -> int:
        """Squares on the shared track: `arm_length` per arm."""
        return self.arm_length * self.sides

    @property
    def goal(self) -> int:
        """Progress value of a finished piece."""
        return self.entry + self.home_len + 1

    def team_of(self, seat: int) -> int:
        """The team of `seat` (`teams`, or every seat its own)."""
        return self.teams[seat] if self.teams else seat

    @property
    def tail(self) -> int:
        """Lap squares between a seat's entry and its start square that a locked piece
        stands on under `home_unlock` (codes goal + 1 .. goal + tail); 0 without it."""
        if self.home_unlock == "none":
            return 0
        return max(0, self.track_len - 1 - self.entry)

    @property
    def home_from(self) -> int:
        """Least progress at which a piece counts as home: a seat whose pieces all have
        it has finished. The goal, or with `finish_in_home` the first home-column square."""
        return self.entry + 1 if self.finish_in_home else self.goal

    @property
    def win_need(self) -> int:
        """Pieces a seat must have home to finish: `win_pieces`, or all with 0."""
        return self.win_pieces or self.pieces

    @property
    def entering_face(self) -> int | str:
        """The die's own entering face: the globe on the star-globe die, else 6."""
        return GLOBE if self.die == "star-globe" else 6

    @property
    def entering_faces(self) -> tuple[int | str, ...]:
        """The faces that bring a piece out of the yard: `enter_faces`, or the die's own."""
        return self.enter_faces or (self.entering_face,)

    # ------------------------------------------------------------- construction
    @classmethod
    def preset(cls, name: str) -> Rules:
        """The rules of a named seed rule set (see `presets()`)."""
        if not isinstance(name, str) or name not in PRESETS:
            raise RulesError(unknown_name("preset", name, PRESETS, "allowed values"))
        return cls(**PRESETS[name].toggles)

    def replace(self, **changes: Any) -> Rules:
        """A copy with some toggles changed, validated.

        Two toggles follow others unless given in the same call: `die_faces`
        follows `die` (the default faces of the new die), and `entry` keeps
        its distance from the end of the track when `sides` or `arm_length`
        changes.
        """
        for name in changes:
            if name not in TOGGLES:
                raise RulesError(unknown_name("toggle", name, TOGGLES, "known toggles"))
        values = self.to_dict()
        if "die" in changes and "die_faces" not in changes:
            die = parse_value("die", changes["die"])
            values["die_faces"] = list(DEFAULT_FACES[die])
        if ("sides" in changes or "arm_length" in changes) and "entry" not in changes:
            sides = parse_value("sides", changes.get("sides", self.sides))
            arm = parse_value("arm_length", changes.get("arm_length", self.arm_length))
            values["entry"] = self.entry - self.track_len + arm * sides
        values.update(changes)
        return type(self).from_dict(values)

    def to_dict(self) -> dict[str, Any]:
        """Plain dict of every toggle (lists for tuples), suitable for JSON and TOML."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        """Inverse of `to_dict`; unknown keys raise `RulesError`."""
        if not isinstance(data, Mapping):
            raise RulesError(
                f"data must be a dict of TOGGLE: value (as Rules.to_dict writes it), "
                f"got {type(data).__name__}"
            )
        unknown = [k for k in data if k not in TOGGLES]
        if unknown:
            raise RulesError(unknown_name("toggle", unknown[0], TOGGLES, "known toggles"))
        return cls(**data)

    def to_toml(self) -> str:
        """TOML text of every toggle, one per line, in table order."""
        return tomlio.dumps(self.to_dict())

    @classmethod
    def from_toml(cls, text: str) -> Rules:
        """Rules from TOML text: either every toggle, or `preset = NAME` plus changes."""
        if not isinstance(text, str):
            raise RulesError(
                f"text must be the TOML text as a str (e.g. Path('rules.toml').read_text()), "
                f"got {type(text).__name__}"
            )
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            raise RulesError(f"malformed rules TOML: {exc}") from None
        preset = data.pop("preset", None)
        if preset is None:
            return cls.from_dict(data)
        return cls.preset(str(preset)).replace(**data)

    def changes(self) -> dict[str, Any]:
        """The toggles that differ from the defaults (`Rules()`), as `to_dict` writes them."""
        return {k: v for k, v in self.to_dict().items() if v != _DEFAULTS[k]}

    def hash(self) -> str:
        """Stable content hash (16 hex digits); equal rules, equal hash.

        Covers the hash scheme version and only the toggles that differ from
        the defaults, so a new toggle whose default changes no game leaves
        every existing hash (and the results keyed by it) valid.
        """
        return rules_hash(self.changes())

    def describe(self) -> list[tuple[str, str, str]]:
        """(toggle, value, description) for every toggle, in table order."""
        return [
            (name, format_value(getattr(self, name)), toggle.description)
            for name, toggle in TOGGLES.items()
        ]


def rules_hash(changes: dict[str, Any]) -> str:
    """The hash of the rules that differ from the defaults by `changes` (see `Rules.hash`)."""
    payload = {"scheme": HASH_SCHEME, "changes": changes}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def format_value(value: Any) -> str:
    """The form of a value that `--set NAME=VALUE` accepts back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return ",".join(str(v) for v in value)
    return str(value)


def _refuse(fields: str, message: str) -> None:
    raise RulesError(f"{fields}: {message}")


# Rules that `home_unlock = capture` is not combined with, each with the value
# to use instead: a lapping piece is defined under every rule of the engines now.
_LOCK_CONFLICTS: tuple = ()


def _refuse_conflicts(r: Rules, toggle: str, subject: str, conflicts: tuple, undo: str) -> None:
    """Refuse the first of `conflicts` (name, test, value to use instead) that `r` has,
    naming `toggle` and it; `undo` is the other way out, dropping `toggle`'s setting."""
    for name, conflicts_with, way_out in conflicts:
        if conflicts_with(r):
            _refuse(
                f"{toggle}/{name}",
                f"{subject} not combine with {name}={format_value(getattr(r, name))}; "
                f"use {way_out}, or {undo}",
            )


def _check_teams(r: Rules) -> None:
    """A team per seat, at least two teams, all of one size."""
    if len(r.teams) != r.players:
        _refuse(
            "teams/players",
            f"teams lists {len(r.teams)} teams for {r.players} players; give one team per "
            "seat in turn order (e.g. teams=0,1,0,1), or none",
        )
    if len(set(r.teams)) < 2:
        _refuse("teams/players", f"teams={format_value(r.teams)} is one team; use two or more")
    sizes = sorted({r.teams.count(t) for t in r.teams})
    if len(sizes) > 1:
        # Teams of unequal size have no fair share to measure the first player's edge from.
        _refuse(
            "teams/players",
            f"teams={format_value(r.teams)} has teams of {' and '.join(map(str, sizes))} seats; "
            "give every team as many seats (e.g. teams=0,1,0,1 or 0,0,1,1)",
        )


def _check_home_unlock(r: Rules) -> None:
    """`home_unlock = capture` needs someone to capture, and none of `_LOCK_CONFLICTS`."""
    if r.players < 2:
        _refuse(
            "home_unlock/players",
            "home_unlock=capture needs opponents to capture; use players>=2 or home_unlock=none",
        )
    _refuse_conflicts(
        r, "home_unlock", "home_unlock=capture does", _LOCK_CONFLICTS, "home_unlock=none"
    )


def _validate(r: Rules) -> None:
    """Refuse combinations the engines cannot play, naming both fields and a way out."""
    if r.players > r.sides:
        _refuse(
            "players/sides",
            f"{r.players} players need a board with at least as many arms, got sides={r.sides}; "
            "use sides=6 for 5-6 players",
        )
    if r.seating:
        if len(r.seating) != r.players:
            _refuse(
                "seating/players", f"seating lists {len(r.seating)} arms for {r.players} players"
            )
        if len(set(r.seating)) != len(r.seating) or max(r.seating) >= r.sides:
            # Seats play in the order listed, whatever way round the table that goes.
            _refuse(
                "seating/sides",
                f"seating={format_value(r.seating)} must list distinct arms in 0..{r.sides - 1}",
            )
    if not r.track_len - r.arm_length <= r.entry <= r.track_len:
        _refuse(
            "entry/sides",
            f"entry={r.entry} must lie in the last arm of the lap, "
            f"{r.track_len - r.arm_length}..{r.track_len} for sides={r.sides} "
            f"and arm_length={r.arm_length}",
        )
    for name in ("start_offset", "globe_offsets", "star_offsets"):
        value = getattr(r, name)
        if max(value if isinstance(value, tuple) else (value,), default=0) >= r.arm_length:
            _refuse(
                f"{name}/arm_length",
                f"{name}={format_value(value)} must be offsets inside an arm, "
                f"0..{r.arm_length - 1} for arm_length={r.arm_length}",
            )
    numbers = [f for f in r.die_faces if isinstance(f, int)]
    if r.die == "d6":
        if len(numbers) != 6 or 6 not in numbers:
            _refuse(
                "die/die_faces",
                f"die=d6 needs six numeric faces including a 6, got {format_value(r.die_faces)}; "
                "use die=star-globe for a die with globe or star faces",
            )
    elif GLOBE not in r.die_faces:
        _refuse(
            "die/die_faces",
            f"die=star-globe needs a globe face to enter pieces, got {format_value(r.die_faces)}",
        )
    strange = [f for f in r.enter_faces if f not in r.die_faces]
    if strange:
        _refuse(
            "enter_faces/die_faces",
            f"enter_faces={format_value(r.enter_faces)} names {strange[0]!r}, not a face of "
            f"the die ({format_value(r.die_faces)}); allowed values: faces of the die",
        )
    if STAR in r.die_faces and not r.star_offsets:
        _refuse(
            "die_faces/star_offsets",
            "a star face needs stars on the board; set star_offsets (the Danish board has 4,11) "
            "or choose die_faces without a star",
        )
    if r.star_jump != "none" and not r.star_offsets:
        _refuse(
            "star_jump/star_offsets",
            f"star_jump={r.star_jump} needs stars on the board; set star_offsets or star_jump=none",
        )
    if r.start_out > r.pieces or r.win_pieces > r.pieces:
        name = "start_out" if r.start_out > r.pieces else "win_pieces"
        _refuse(
            f"{name}/pieces",
            f"{name}={getattr(r, name)} counts more pieces than a seat has; "
            f"allowed values: 0..{r.pieces} for pieces={r.pieces}",
        )
    if r.start_capacity and r.start_out > r.start_capacity:
        _refuse(
            "start_out/start_capacity",
            f"start_out={r.start_out} pieces do not fit on a start square that holds "
            f"{r.start_capacity}; use start_out<={r.start_capacity} or start_capacity=0",
        )
    if r.start_out > 1 and not r.land_on_own:
        _refuse(
            "start_out/land_on_own",
            f"start_out={r.start_out} puts pieces together on the start square, which "
            "land_on_own=false forbids; use start_out=0 or 1, or land_on_own=true",
        )
    if r.scoring != "steps" and (r.move_limit or r.home_bonus):
        name = "move_limit" if r.move_limit else "home_bonus"
        _refuse(
            f"{name}/scoring",
            f"{name}={getattr(r, name)} counts points a square at a time; "
            f"use scoring=steps, or {name}=0",
        )
    if r.move_limit * r.players > r.max_turns:
        _refuse(
            "move_limit/max_turns",
            f"move_limit={r.move_limit} turns for each of {r.players} players pass "
            f"max_turns={r.max_turns}; use max_turns>={r.move_limit * r.players}",
        )
    if r.teams:
        _check_teams(r)
    if r.home_unlock != "none":
        _check_home_unlock(r)
    if r.finish_in_home and r.land_on_own:
        _refuse(
            "finish_in_home/land_on_own",
            "pieces finish on home squares of their own, one per square; "
            "use land_on_own=false or finish_in_home=false",
        )
    if r.finish_in_home and r.roll_then_move:
        _refuse(
            "finish_in_home/roll_then_move",
            "finishing in the home column needs single rolls; "
            "use roll_then_move=false or finish_in_home=false",
        )
    if not r.land_on_own and r.star_jump != "none":
        _refuse(
            "land_on_own/star_jump",
            "a star jump may end on an own piece; use land_on_own=true or star_jump=none",
        )
    if r.roll_then_move:
        for name in ("must_enter", "clear_start"):
            if getattr(r, name):
                _refuse(
                    f"roll_then_move/{name}",
                    f"{name} chooses among the moves of one roll; use roll_then_move=false",
                )
        if r.die != "d6":
            _refuse(
                "roll_then_move/die",
                "roll_then_move plays sixes rolled in a row, which needs die=d6",
            )
        if r.six_limit:
            _refuse(
                "roll_then_move/six_limit",
                "roll_then_move rolls sixes without limit; use six_limit=0",
            )
        if r.bonus_stacking != "stack":
            _refuse(
                "roll_then_move/bonus_stacking",
                "roll_then_move rolls every 6's bonus roll before any move is played, so a move "
                "cannot trade it against its capture or finish bonus; use bonus_stacking=stack",
            )
        if r.bonus_on_six != "always":
            _refuse(
                "roll_then_move/bonus_on_six",
                "roll_then_move keeps rolling on every 6; use bonus_on_six=always",
            )


# Every toggle at its default, as `to_dict` writes it (`entry` resolved).
_DEFAULTS = Rules().to_dict()


@dataclass(frozen=True)
class Preset:
    """A named rule set with the seed file(s) it comes from."""

    name: str
    seeds: tuple[str, ...]
    description: str
    toggles: dict[str, Any]


_DANISH_BOARD = {"entry": 50, "home_len": 5, "globe_offsets": (0, 8), "star_offsets": (4, 11)}
# Seed 002's rules, the same with either die (the presets `danish` and `danish-globe`).
_DANISH = dict(
    players=4, sides=4, pieces=4, first_player="roll-off",
    start_attempts=3, bonus_on_six="always", start_capacity=0,
    bonus_on_capture=False, bonus_on_finish=False, six_limit=0,
    no_move_ends_turn=False, roll_then_move=False, pass_own=False,
    pass_opponents="all", safe=(), safe_landing="coexist",
    capture_rule="lone_opponent", block_landing="lander_home", start_capture=False,
    star_jump="none", finish="bounce", forced_capture=False, play_to_end=False,
    scoring="none", **_DANISH_BOARD,
)  # fmt: skip

# Mensch ärgere Dich nicht's board and moves, shared by its two presets (`maedn`,
# `maedn-2006`), which differ in the opening and the start tries.
_MAEDN = dict(
    players=4, sides=4, pieces=4, die="d6", first_player="roll-off",
    bonus_on_six="always", start_capacity=0,
    bonus_on_capture=False, bonus_on_finish=False, six_limit=0,
    no_move_ends_turn=False, roll_then_move=False, pass_own=True,
    pass_opponents="all", safe=(), safe_landing="coexist",
    capture_rule="lone_opponent", block_landing="capture", start_capture=False,
    star_jump="none", finish="exact", forced_capture=False, play_to_end=False,
    scoring="none", die_faces=D6_FACES, entry=39, home_len=3,
    globe_offsets=(), star_offsets=(), arm_length=10, start_offset=0,
    land_on_own=False, must_enter=True, clear_start=True, finish_in_home=True,
)  # fmt: skip

# Ludo King's classic mode (the preset `king`), which `capture-home` changes in one toggle.
_KING = dict(
    players=4, sides=4, pieces=4, die="d6", first_player="roll-off",
    start_attempts=1, bonus_on_six="always", start_capacity=0,
    bonus_on_capture=True, bonus_on_finish=True, six_limit=3,
    bonus_stacking="one", no_move_ends_turn=False, roll_then_move=False,
    pass_own=True, pass_opponents="all", safe=("starts", "stars"),
    safe_landing="coexist", capture_rule="lone_opponent", block_landing="coexist",
    start_capture=False, star_jump="none", finish="exact", forced_capture=False,
    play_to_end=False, die_faces=D6_FACES, entry=50, home_len=5,
    globe_offsets=(), star_offsets=(8,),
)  # fmt: skip

PRESETS: dict[str, Preset] = {
    p.name: p
    for p in [
        Preset(
            "app",
            ("001_58372a31aac71efe.txt", "004_aaeff1f41085d0fb.txt"),
            "Dutch/Hungarian 'Ludo App': no passing opponents, start holds 2, third six forfeits",
            dict(
                players=4, sides=4, pieces=4, die="d6", first_player="roll-off",
                start_attempts=1, bonus_on_six="unless_entered", start_capacity=2,
                bonus_on_capture=False, bonus_on_finish=False, six_limit=3,
                no_move_ends_turn=True, roll_then_move=False, pass_own=True,
                pass_opponents="none", safe=(), safe_landing="coexist",
                capture_rule="lone_opponent", block_landing="capture", start_capture=False,
                star_jump="none", finish="exact", forced_capture=False, play_to_end=True,
                scoring="none", die_faces=D6_FACES, entry=50, home_len=5,
                globe_offsets=(), star_offsets=(),
            ),
        ),
        Preset(
            "italian",
            ("003_eb55f38c4a940e30.txt",),
            "Italian Ludo (Megajogos): safe starts and stars, bonus on capture and finish, points",
            dict(
                players=4, sides=4, pieces=4, die="d6", first_player="random",
                start_attempts=1, bonus_on_six="always", start_capacity=0,
                bonus_on_capture=True, bonus_on_finish=True, six_limit=3,
                no_move_ends_turn=True, roll_then_move=False, pass_own=True,
                pass_opponents="all", safe=("starts", "stars"), safe_landing="coexist",
                capture_rule="lone_piece", block_landing="coexist", start_capture=False,
                star_jump="none", finish="exact", forced_capture=False, play_to_end=False,
                scoring="megajogos", die_faces=D6_FACES, entry=50, home_len=5,
                globe_offsets=(), star_offsets=(8,),
            ),
        ),
        Preset(
            "danish",
            ("002_2a0b1dd0fe1ad9ac.txt",),
            "Danish Ludo, plain die: three tries to start, blocks send the lander home, bounce",
            dict(**_DANISH, die="d6", die_faces=D6_FACES),
        ),
        Preset(
            "danish-globe",
            ("002_2a0b1dd0fe1ad9ac.txt",),
            "Danish Ludo with the star-and-globe die",
            dict(**_DANISH, die="star-globe", die_faces=STAR_GLOBE_FACES),
        ),
        Preset(
            "killer",
            ("000_51b5a12e3dfc509f.txt",),
            "Danish Killer Ludo: roll all sixes then move, forced captures, puster, star jumps",
            dict(
                players=4, sides=4, pieces=4, die="d6", first_player="roll-off",
                start_attempts=3, bonus_on_six="always", start_capacity=0,
                bonus_on_capture=False, bonus_on_finish=False, six_limit=0,
                no_move_ends_turn=False, roll_then_move=True, pass_own=True,
                pass_opponents="singles", safe=("globes",), safe_landing="lander_home",
                capture_rule="lone_opponent", block_landing="lander_home", start_capture=True,
                star_jump="next_lap", finish="bounce_on", forced_capture=True,
                detect_skip=0.5, play_to_end=True, scoring="none", die_faces=D6_FACES,
                entry=52, home_len=5, globe_offsets=(0, 8), star_offsets=(4, 11),
            ),
        ),
        Preset(
            "maedn",
            (),
            "Mensch ärgere Dich nicht as most families play it: every piece starts in the "
            "yard, three throws to bring one out; 40 squares, enter and clear the start, "
            "no landing on own pieces",
            dict(**_MAEDN, start_attempts=3),
        ),
        Preset(
            "maedn-2006",
            (),
            "Mensch ärgere Dich nicht as Schmidt Spiele's 2006 leaflet prints it: one piece "
            "of each player starts on its start square, one throw a turn (three only as a "
            "variant)",
            dict(**_MAEDN, start_attempts=1, start_out=1),
        ),
        Preset(
            "king",
            (),
            "Ludo King's classic mode, as the app states it: safe starts and stars, one bonus "
            "roll per move for a 6, a capture or a finish, third six forfeits, exact finish",
            dict(**_KING, scoring="none"),
        ),
        Preset(
            "capture-home",
            (),
            "Ludo King's classic mode with capture before home, as the PettingZoo-Ludo rules "
            "state it: a player's pieces enter their home column only after its first "
            "capture, and lap on until then",
            dict(**_KING, scoring="none", home_unlock="capture"),
        ),
    ]
}  # fmt: skip


def presets() -> list[str]:
    """Names of the preset rule sets."""
    return list(PRESETS)
