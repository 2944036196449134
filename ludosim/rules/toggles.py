"""The table of rule toggles: every toggle is declared here once.

Each `Toggle` row gives a toggle's name, kind, allowed values, default, a
one-line description, the seed files its values come from and whether it can
change a solo race. Everything else is derived from `TOGGLES`:

- the fields and defaults of `ludosim.rules.Rules`, and the parsing,
  validation and formatting of values (`ludosim.rules.parse_value`);
- the kernel's rule slots `R` (`ludosim.engine.layout`): every `bool`,
  `int` and `choice` toggle gets a slot holding its code, other kinds are
  compiled into the layout's board sections;
- the kernel's named choice codes such as `FINISH_EXACT`, the module
  `ludosim.engine.codes` that `python -m ludosim.rules.gen_codes --write` generates;
- the rules hash, which covers only what differs from these defaults;
- the README's toggle table (`docs/gen_toggles.py`) and the value lists of
  the agreement tests.

A choice's kernel codes are part of the compiled kernel and of nothing that
is stored, but they never change meaning: a new value gets a new code. A
default never changes either: rules hashes leave defaults out, so a changed
default would give two different rule sets the same hash.
`docs/adding-a-toggle.md` walks through adding a toggle.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Faces of a die are numbers 1-6 or these two symbols.
GLOBE = "globe"
STAR = "star"
SYMBOL_FACES = (GLOBE, STAR)

D6_FACES: tuple[int | str, ...] = (1, 2, 3, 4, 5, 6)
STAR_GLOBE_FACES: tuple[int | str, ...] = (1, 2, GLOBE, 4, STAR, 6)
DEFAULT_FACES = {"d6": D6_FACES, "star-globe": STAR_GLOBE_FACES}

SAFE_KINDS = ("starts", "globes", "stars")

# Seed rule texts, by the preset they define.
KILLER = "000_51b5a12e3dfc509f.txt"
APP = ("001_58372a31aac71efe.txt", "004_aaeff1f41085d0fb.txt")
DANISH = "002_2a0b1dd0fe1ad9ac.txt"
ITALIAN = "003_eb55f38c4a940e30.txt"
ALL_SEEDS = (KILLER, *APP, DANISH, ITALIAN)

# Squares per arm (`arm_length`). The kernel's fixed-size sections hold the
# longest board, 17 squares on six arms (`engine.layout.STRIDE`).
MIN_ARM = 7
MAX_ARM = 17

KINDS = ("bool", "int", "choice", "float", "set", "faces", "face_set", "ints")
# Kinds held in one kernel slot each (`ludosim.engine.layout.R`); the others
# are compiled into the layout's board sections.
SLOT_KINDS = ("bool", "int", "choice")

_ANNOTATIONS = {
    "bool": "bool",
    "float": "float",
    "set": "tuple[str, ...]",
    "faces": "tuple[int | str, ...]",
    "face_set": "tuple[int | str, ...]",
    "ints": "tuple[int, ...]",
}


@dataclass(frozen=True)
class Toggle:
    """One rule choice and everything derived code needs to know about it.

    `codes` are the kernel codes of `choices`, in the same order (for numeric
    choices the number itself). `solo_race` says whether the toggle can
    change the turns and rolls of a one-player race (`ludosim.reference.exact` solves
    that race). An `int` toggle whose default is None accepts None for "follow
    the other toggles" (`entry`). `ordered` keeps an `ints` list as given
    instead of sorting it (`seating`).
    """

    name: str
    kind: str
    default: Any
    description: str
    seeds: tuple[str, ...]
    solo_race: bool
    choices: tuple[Any, ...] = ()
    codes: tuple[int, ...] = ()
    low: float | None = None
    high: float | None = None
    ordered: bool = False

    @property
    def has_slot(self) -> bool:
        """The toggle has a kernel slot of its own holding `code(value)`."""
        return self.kind in SLOT_KINDS

    @property
    def annotation(self) -> str:
        """The type of the `Rules` field, as text."""
        if self.kind == "choice":
            return type(self.choices[0]).__name__
        if self.kind == "int":
            return "int"
        return _ANNOTATIONS[self.kind]

    def code(self, value: Any) -> int:
        """Kernel code of a parsed value of a `bool`, `int` or `choice` toggle."""
        if self.kind == "choice":
            return self.codes[self.choices.index(value)]
        if self.kind in ("bool", "int"):
            return int(value)
        raise AssertionError(f"{self.name} ({self.kind}) has no single kernel code")

    def allowed(self) -> str:
        """Human-readable description of the allowed values."""
        if self.kind == "choice":
            return ", ".join(str(c) for c in self.choices)
        if self.kind == "bool":
            return "true, false"
        if self.kind in ("int", "float"):
            hi = "" if self.high is None else f"{self.high:{'d' if self.kind == 'int' else 'g'}}"
            return f"{self.low:g}..{hi}" if hi else f">= {self.low:g}"
        if self.kind == "set":
            return "any subset of " + ", ".join(self.choices) + " (comma separated, or empty)"
        if self.kind == "faces":
            return "six faces, each 1-6, 'globe' or 'star' (comma separated)"
        if self.kind == "face_set":
            return (
                "faces of the die, each 1-6, 'globe' or 'star' (comma separated; "
                "empty: 6, or the globe on the star-and-globe die)"
            )
        if self.kind == "ints":
            return f"comma separated integers in {self.low:g}..{self.high:g}"
        raise AssertionError(self.kind)


def _choice(
    name: str,
    values: dict[Any, int],
    default: Any,
    description: str,
    seeds: tuple[str, ...],
    solo_race: bool,
) -> Toggle:
    """A choice toggle; `values` maps each allowed value to its kernel code."""
    return _toggle(
        name,
        "choice",
        default,
        description,
        seeds,
        solo_race,
        choices=tuple(values),
        codes=tuple(values.values()),
    )


def _toggle(
    name: str,
    kind: str,
    default: Any,
    description: str,
    seeds: tuple[str, ...],
    solo_race: bool,
    **kw: Any,
) -> Toggle:
    return Toggle(
        name=name,
        kind=kind,
        default=default,
        description=description,
        seeds=seeds,
        solo_race=solo_race,
        **kw,
    )


TOGGLES: dict[str, Toggle] = {
    t.name: t
    for t in [
        _toggle("players", "int", 4, "number of players (1 = solo race)", ALL_SEEDS, False,
                low=1, high=6),
        _choice("sides", {4: 4, 6: 6}, 4, "arms of the board (6 needed for 5-6 players)",
                (KILLER, DANISH), True),
        _toggle("pieces", "int", 4, "pieces per player", ALL_SEEDS, True, low=1, high=4),
        _choice("die", {"d6": 0, "star-globe": 1}, "d6", "plain die or star-and-globe die",
                (DANISH,), True),
        _choice("first_player", {"roll-off": 0, "random": 1, "seat0": 2}, "roll-off",
                "who takes the first turn: highest roll, drawn at random, or seat 0",
                (KILLER, *APP, DANISH, ITALIAN), False),
        _choice("start_attempts", {1: 1, 3: 3}, 3,
                "rolls allowed to get an entering face with no piece in play",
                (KILLER, *APP, DANISH, ITALIAN), True),
        _choice("bonus_on_six", {"always": 0, "unless_entered": 1, "never": 2}, "always",
                "when a 6 earns a bonus roll (the globe always does)",
                (*APP, DANISH, ITALIAN), True),
        _toggle("start_capacity", "int", 0,
                "own pieces the start square may hold for entering (0 = unlimited)",
                (*APP, DANISH), True, low=0, high=4),
        _toggle("bonus_on_capture", "bool", False, "a capturing move earns a bonus roll",
                (DANISH, ITALIAN), False),
        _toggle("bonus_on_finish", "bool", False,
                "bringing a piece to the goal earns a bonus roll", (DANISH, ITALIAN), True),
        _choice("six_limit", {0: 0, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6}, 0,
                "the n-th consecutive 6 of a turn is forfeited and ends it (0 = no limit)",
                (*APP, DANISH, ITALIAN), True),
        _choice("bonus_stacking", {"stack": 0, "one": 1}, "stack",
                "bonus rolls a move earns: one per source (6, capture, finish), or one at most",
                (ITALIAN,), True),
        _choice("start_attempts_when", {"always": 0, "game_start": 1}, "always",
                "when the start tries apply: with no piece in play, or until a first piece entered",
                (KILLER, DANISH), True),
        _toggle("no_move_ends_turn", "bool", False,
                "a roll with no legal move ends the turn, bonuses lost",
                (*APP, DANISH, ITALIAN), True),
        _toggle("roll_then_move", "bool", False,
                "Killer: roll all sixes first, then play all rolls as a plan", (KILLER,), True),
        _toggle("pass_own", "bool", False, "a piece may pass its own pieces",
                (KILLER, *APP, DANISH, ITALIAN), True),
        _choice("pass_opponents", {"all": 0, "singles": 1, "none": 2}, "all",
                "which opponent pieces a piece may pass: all, singles (blocks stop), none",
                (KILLER, *APP, DANISH), False),
        _toggle("safe", "set", (), "squares where a lone piece cannot be captured",
                (KILLER, ITALIAN), False, choices=SAFE_KINDS),
        _choice("safe_landing", {"coexist": 0, "lander_home": 1}, "coexist",
                "landing on a lone opponent on a safe square: share it, or the lander goes home",
                (KILLER, ITALIAN), False),
        _choice("capture_rule", {"lone_opponent": 0, "lone_piece": 1}, "lone_opponent",
                "capture a lone opponent even if own pieces share the square, or only a lone piece",
                (DANISH, ITALIAN), False),
        _choice("block_landing",
                {"coexist": 0, "lander_home": 1, "capture": 2, "forbidden": 3}, "lander_home",
                "landing on two or more opponent pieces: share, lander goes home, "
                "capture them all, or not allowed",
                (KILLER, *APP, DANISH, ITALIAN), False),
        _toggle("start_capture", "bool", False,
                "entering captures a lone opponent on your own (safe) start square",
                (KILLER,), False),
        _choice("star_jump", {"none": 0, "goal": 1, "next_lap": 2}, "none",
                "a move ending on a star jumps to the next star; from the last: goal or next lap",
                (KILLER,), True),
        _choice("finish", {"exact": 0, "bounce": 1, "bounce_on": 2}, "bounce",
                "reaching the goal: exact roll, bounce back, or bounce and go backwards all turn",
                (KILLER, *APP, DANISH, ITALIAN), True),
        _toggle("forced_capture", "bool", False, "a capture must be made when one is possible",
                (KILLER,), False),
        _toggle("detect_skip", "float", 0.5,
                "probability that a skipped forced capture is caught (puster)",
                (KILLER,), False, low=0.0, high=1.0),
        _toggle("play_to_end", "bool", False, "play on after the winner until one player is left",
                (KILLER, *APP, DANISH), False),
        _choice("scoring", {"none": 0, "megajogos": 1, "steps": 2}, "none",
                "points at the end of the game: none, Megajogos', or a point per square "
                "advanced (steps)", (ITALIAN,), False),
        _toggle("max_turns", "int", 20_000,
                "player turns after which a game is stopped as truncated", (), True, low=100,
                # The kernel counts rolls in int32: up to 64 rolls a turn stay in range.
                high=10_000_000),
        _toggle("die_faces", "faces", D6_FACES, "the six faces of the die", (DANISH,), True),
        _toggle("seating", "ints", (),
                "arms of the seats in turn order, empty for the default seating", (),
                False, low=0, high=5, ordered=True),
        _toggle("entry", "int", None,
                "last track progress before the home column (follows the track when not given)",
                (KILLER, DANISH), True, low=1),
        _toggle("home_len", "int", 5, "squares in each home column", ALL_SEEDS, True,
                low=1, high=10),
        _toggle("globe_offsets", "ints", (0, 8),
                "globe squares, as offsets inside every arm (below arm_length)",
                (*APP, DANISH, ITALIAN), True, low=0, high=MAX_ARM - 1),
        _toggle("star_offsets", "ints", (4, 11),
                "star squares, as offsets inside every arm (below arm_length)",
                (*APP, DANISH, ITALIAN), True, low=0, high=MAX_ARM - 1),
        _toggle("arm_length", "int", 13, "track squares per arm (the track has arm_length * sides)",
                ALL_SEEDS, True, low=MIN_ARM, high=MAX_ARM),
        _toggle("start_offset", "int", 0,
                "offset of each start square inside its arm (below arm_length)",
                ALL_SEEDS, True, low=0, high=MAX_ARM - 1),
        _toggle("land_on_own", "bool", True,
                "a move may end on a square holding an own piece (track and home column)",
                ALL_SEEDS, True),
        _toggle("must_enter", "bool", False,
                "the entering face must bring a piece out when one can enter", (), True),
        _toggle("clear_start", "bool", False,
                "a piece on its own start square must move on while pieces wait in the yard",
                (), True),
        _toggle("finish_in_home", "bool", False,
                "a seat has finished once every piece stands in its home column or goal, "
                "one per square (needs land_on_own=false)", (), True),
        _toggle("start_out", "int", 0,
                "pieces of every seat that begin the game on their start square", (), True,
                low=0, high=4),
        _toggle("enter_faces", "face_set", (),
                "faces that bring a piece out of the yard (empty: 6, or the globe on the "
                "star-and-globe die)", (), True),
        _toggle("win_pieces", "int", 0,
                "pieces a seat brings home to finish (0 = all its pieces)", (), True,
                low=0, high=4),
        _toggle("home_bonus", "int", 0,
                "points a piece in the goal adds under scoring=steps", (), False,
                low=0, high=1000),
        _toggle("move_limit", "int", 0,
                "turns each seat plays before the game ends by points (0 = no limit; "
                "needs scoring=steps)", (), True, low=0, high=10_000),
        _choice("home_unlock", {"none": 0, "capture": 1}, "none",
                "when the home column opens: always, or only after the seat's first capture "
                "(a locked piece laps on)", (), False),
        _toggle("teams", "ints", (),
                "a team number per seat in turn order, partners opposite as 0,1,0,1 (empty: "
                "every seat its own team)", (), False, low=0, high=5, ordered=True),
    ]
}  # fmt: skip


def choice_constant(toggle: str, value: Any) -> str:
    """Name of the kernel constant holding the code of a choice value: `FINISH_BOUNCE_ON`."""
    return f"{toggle}_{value}".upper().replace("-", "_")


def choice_codes() -> dict[str, int]:
    """Every choice value's kernel constant name and code, in table order."""
    return {
        choice_constant(t.name, value): code
        for t in TOGGLES.values()
        if t.kind == "choice"
        for value, code in zip(t.choices, t.codes, strict=True)
    }
