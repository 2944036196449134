"""The toggle table drives everything: fields, kernel slots and codes, hashes, solo races.

Each toggle is declared once in `ludosim.rules.toggles.TOGGLES`. These tests check
that what is derived from the table reaches its destination: every toggle
and every allowed value changes the compiled layout, every choice value has
a named kernel code, rules hashes survive a new toggle with a neutral
default, and toggles marked as unable to change a solo race do not.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np
import pytest

from ludosim import Rules, RulesError
from ludosim.engine import codes, layout
from ludosim.reference import play_game
from ludosim.rules import gen_codes
from ludosim.rules import model as rules_module
from ludosim.rules.model import HASH_SCHEME, PRESETS, rules_hash
from ludosim.rules.toggles import KINDS, SLOT_KINDS, TOGGLES, Toggle, choice_codes, choice_constant

# Rule sets a changed toggle is tried on, in order, until one accepts the change.
BASES = [
    Rules.preset("danish"),
    Rules.preset("killer"),
    Rules.preset("app"),
    Rules.preset("danish-globe"),
    Rules.preset("danish").replace(players=2),
    Rules.preset("danish").replace(players=1),
    Rules.preset("danish").replace(sides=6),
    Rules.preset("danish").replace(arm_length=17),  # room for every offset inside an arm
    Rules.preset("maedn").replace(finish_in_home=False),  # one piece per square
    # Points formats; one player, so that the longest move limit fits max_turns.
    Rules.preset("danish").replace(players=1, scoring="steps"),
]


def _candidates(toggle: Toggle) -> list[Any]:
    """Allowed values of `toggle` other than its default: all of them, or a few of a range."""
    if toggle.kind == "choice":
        values: list[Any] = list(toggle.choices)
    elif toggle.kind == "bool":
        values = [True, False]
    elif toggle.kind == "int" and toggle.default is None:
        values = [40, 52]  # entry: the last arm of the 4-sided lap is 39..52
    elif toggle.kind == "int":
        values = [toggle.low, toggle.high if toggle.high is not None else 2 * toggle.default]
        values = [int(v) for v in values]
    elif toggle.kind == "float":
        values = [toggle.low, toggle.high, 0.25]
    elif toggle.kind == "set":
        values = [(kind,) for kind in toggle.choices]
    elif toggle.kind == "faces":
        values = [(1, 2, 3, 4, 6, 6), (1, 2, "globe", 4, 5, 6)]
    elif toggle.kind == "face_set":
        values = [(1, 6), (5,)]
    elif toggle.name == "teams":
        values = [(0, 1, 0, 1), (0, 0, 1, 1), (0, 1)]  # a team per seat, two teams at least
    elif toggle.kind == "ints":
        values = [(0, 1), (2,), (1, 3)]
    else:
        raise AssertionError(toggle.kind)
    return [v for v in values if v != toggle.default]


def _changed(name: str, value: Any) -> tuple[Rules, Rules]:
    """(base, base with `name` set to `value`) for the first base that accepts the change."""
    for base in BASES:
        try:
            changed = base.replace(**{name: value})
        except RulesError:
            continue
        if getattr(changed, name) != getattr(base, name):
            return base, changed
    raise AssertionError(f"no base rule set accepts {name}={value!r}")


# ------------------------------------------------------------------- the table itself
def test_table_rows_are_well_formed() -> None:
    for name, toggle in TOGGLES.items():
        assert toggle.name == name and toggle.kind in KINDS
        assert toggle.description and "\n" not in toggle.description
        assert all(seed.endswith(".txt") for seed in toggle.seeds)
        if toggle.kind == "choice":
            assert toggle.default in toggle.choices, name
            assert len(toggle.codes) == len(toggle.choices) == len(set(toggle.codes)), name
        else:
            assert not toggle.codes, name


def test_rules_fields_are_the_table() -> None:
    fields = dataclasses.fields(Rules)
    assert [f.name for f in fields] == list(TOGGLES)
    defaults = Rules()
    for name, toggle in TOGGLES.items():
        if toggle.default is not None:
            assert getattr(defaults, name) == toggle.default, name
    assert defaults.entry == defaults.track_len - 2  # the one default that follows others


def test_seeds_cover_every_preset_that_changes_a_toggle() -> None:
    """A preset whose value of a toggle differs from the default names a seed of the toggle."""
    defaults = Rules()
    for preset in PRESETS.values():
        rules = Rules.preset(preset.name)
        for name, toggle in TOGGLES.items():
            if getattr(rules, name) != getattr(defaults, name):
                assert set(preset.seeds) <= set(toggle.seeds), (name, preset.name)


# ------------------------------------------------------------------ kernel slots, codes
@pytest.mark.parametrize("name", list(TOGGLES))
def test_every_toggle_value_reaches_the_compiled_layout(name: str) -> None:
    toggle = TOGGLES[name]
    values = _candidates(toggle)
    assert values, f"{name}: no value other than the default to try"
    for value in values:
        base, changed = _changed(name, value)
        assert not np.array_equal(layout.compile_layout(base), layout.compile_layout(changed)), (
            f"{name}={value!r} leaves the compiled layout unchanged"
        )


@pytest.mark.parametrize("name", [n for n, t in TOGGLES.items() if t.kind in SLOT_KINDS])
def test_slot_toggles_hold_their_code(name: str) -> None:
    toggle = TOGGLES[name]
    for value in [toggle.default, *_candidates(toggle)]:
        _, rules = _changed(name, value) if value != toggle.default else (None, Rules())
        expected = toggle.code(getattr(rules, name))  # entry's default None is resolved
        assert layout.compile_rules(rules)[layout.R[name.upper()]] == expected


def test_every_choice_value_has_a_named_kernel_code() -> None:
    for name, toggle in TOGGLES.items():
        if toggle.kind != "choice":
            continue
        for value, code in zip(toggle.choices, toggle.codes, strict=True):
            constant = choice_constant(name, value)
            assert getattr(codes, constant) == code == choice_codes()[constant]
            assert isinstance(getattr(codes, constant), int)
    assert codes.FINISH_EXACT == 0 and codes.BLOCK_LANDING_CAPTURE == 2
    named = {k for k in vars(codes) if k.isupper()}
    assert named == set(choice_codes()), "ludosim/engine/codes.py holds the choice codes only"


def test_the_generated_choice_codes_are_current() -> None:
    assert gen_codes.TARGET.read_text() == gen_codes.render(), (
        "ludosim/engine/codes.py is out of date: run python -m ludosim.rules.gen_codes --write"
    )
    assert gen_codes.main(["--check"]) == 0


def test_every_toggle_has_a_slot_or_is_compiled_elsewhere() -> None:
    for name, toggle in TOGGLES.items():
        assert toggle.has_slot == (name.upper() in layout.R.__members__), name
        assert toggle.has_slot != (name in layout.COMPILED_ELSEWHERE), name
    assert layout.R.SIZE <= layout.SQUARE


def test_compile_rules_refuses_a_toggle_it_does_not_map(monkeypatch: pytest.MonkeyPatch) -> None:
    extra = Toggle("lucky_squares", "ints", (), "squares of luck", (), False, low=0, high=12)
    monkeypatch.setattr(layout, "TOGGLES", {**TOGGLES, extra.name: extra})
    with pytest.raises(AssertionError, match="lucky_squares reach no kernel slot"):
        layout.compile_rules(Rules())


# ------------------------------------------------------------------------ the hash
def test_hash_covers_the_scheme_and_the_changes_only() -> None:
    assert Rules().changes() == {}
    assert Rules().hash() == rules_hash({})
    killer = Rules.preset("killer")
    assert killer.hash() == rules_hash(killer.changes())
    assert set(killer.changes()) < set(TOGGLES)
    assert rules_hash({}) != rules_hash({"players": 2})
    assert HASH_SCHEME >= 2


def _with_extra_toggle(monkeypatch: pytest.MonkeyPatch, extra: Toggle) -> type:
    """A `Rules` class built from the table plus `extra`, as if it had been declared there."""
    table = {**TOGGLES, extra.name: extra}
    monkeypatch.setattr(rules_module, "TOGGLES", table)
    cls = type("Rules", (Rules,), {"__module__": rules_module.__name__})
    extended = dataclasses.dataclass(frozen=True, kw_only=True)(rules_module._toggle_fields(cls))
    monkeypatch.setattr(rules_module, "_DEFAULTS", extended().to_dict())
    return extended


def test_a_new_toggle_with_a_neutral_default_keeps_every_hash(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    before = {name: Rules.preset(name).hash() for name in PRESETS}
    sweep_like = Rules.preset("app").replace(players=2, finish="bounce")
    before_other = sweep_like.hash()
    extra = Toggle("lucky_rolls", "choice", "none", "test", (), True, ("none", "two"), (0, 1))
    extended = _with_extra_toggle(monkeypatch, extra)
    for name, old in before.items():
        rules = extended.preset(name)
        assert rules.lucky_rolls == "none"
        assert rules.hash() == old, name
        assert rules.replace(lucky_rolls="two").hash() != old, name
    assert extended.preset("app").replace(players=2, finish="bounce").hash() == before_other


# ------------------------------------------------------------------------ solo races
SOLO_GAMES = range(8)


def _solo_games(rules: Rules) -> list[tuple[int, int, int]]:
    rows = [play_game(rules, seed=5, game=g, record=False).row() for g in SOLO_GAMES]
    return [(row["turns"], row["rolls"], row["end_turns"]) for row in rows]


@pytest.mark.parametrize(
    "name", [n for n, t in TOGGLES.items() if not t.solo_race and n != "players"]
)
def test_toggles_marked_solo_neutral_leave_solo_races_alone(name: str) -> None:
    """What `ludosim.reference.exact` relies on: these toggles cannot change a one-player race."""
    toggle = TOGGLES[name]
    for preset in ("danish", "killer", "italian"):
        base = Rules.preset(preset).replace(players=1, pieces=2)
        expected = _solo_games(base)
        values = [(0,), (3,)] if name == "seating" else _candidates(toggle)
        for value in values:
            try:
                changed = base.replace(**{name: value})
            except RulesError:
                continue
            assert _solo_games(changed) == expected, (preset, name, value)
