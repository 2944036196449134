"""Differential test: the compiled kernel plays the reference engine's games, game for game.

Every per-game column and the final position of every piece must agree for
the same (rules, seed, game). Counts are kept small for the everyday suite;
`LUDOSIM_VERIFY=1` (as in `make verify`) plays 2000 games per preset.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from ludosim import Rules, RulesError, presets, simulate
from ludosim.reference import play_game
from ludosim.rules import SAFE_KINDS
from ludosim.simulate import kernel_game

VERIFY = os.environ.get("LUDOSIM_VERIFY") == "1"
# The reference engine plays Killer about 8 games/s, the others about 60.
GAMES = {name: 2000 if VERIFY else (100 if name == "killer" else 300) for name in presets()}
SEED = 20240611


def _differences(rules: Rules, seed: int, games: range) -> list[str]:
    """Games whose kernel row or final position differs from the reference (described)."""
    rows = simulate(rules, games=len(games), seed=seed, first_game=games.start)
    out = []
    for game, kernel in zip(games, rows.to_dict("records"), strict=True):
        ref = play_game(rules, seed, game, record=False)
        expected = ref.row()
        diff = {c: (expected[c], kernel[c]) for c in expected if expected[c] != kernel[c]}
        if set(kernel) != set(expected):
            diff["columns"] = (sorted(expected), sorted(kernel))
        _, final = kernel_game(rules, seed, game)
        if final != ref.final:
            diff["final"] = (ref.final, final)
        if diff:
            out.append(f"game {game}: (reference, kernel) {diff}")
    return out


@pytest.mark.parametrize("preset", presets())
def test_kernel_agrees_with_reference_per_preset(preset: str) -> None:
    rules = Rules.preset(preset)
    bad = _differences(rules, SEED, range(GAMES[preset]))
    assert not bad, f"{len(bad)} games differ under {preset}:\n" + "\n".join(bad[:5])


def test_kernel_agrees_on_a_far_seed_and_game_index() -> None:
    rules = Rules.preset("danish")
    assert not _differences(rules, 2**64 - 1, range(2**40, 2**40 + 20))


# Values each toggle may take in the random combinations below.
TOGGLE_VALUES = {
    "players": st.integers(1, 4),
    "pieces": st.integers(1, 4),
    "first_player": st.sampled_from(["roll-off", "random", "seat0"]),
    "start_attempts": st.sampled_from([1, 3]),
    "bonus_on_six": st.sampled_from(["always", "unless_entered", "never"]),
    "start_capacity": st.integers(0, 4),
    "bonus_on_capture": st.booleans(),
    "bonus_on_finish": st.booleans(),
    "six_limit": st.sampled_from([0, 3]),
    "no_move_ends_turn": st.booleans(),
    "roll_then_move": st.booleans(),
    "pass_own": st.booleans(),
    "pass_opponents": st.sampled_from(["all", "singles", "none"]),
    "safe": st.lists(st.sampled_from(SAFE_KINDS), unique=True).map(tuple),
    "safe_landing": st.sampled_from(["coexist", "lander_home"]),
    "capture_rule": st.sampled_from(["lone_opponent", "lone_piece"]),
    "block_landing": st.sampled_from(["coexist", "lander_home", "capture"]),
    "start_capture": st.booleans(),
    "star_jump": st.sampled_from(["none", "goal", "next_lap"]),
    "finish": st.sampled_from(["exact", "bounce", "bounce_on"]),
    "forced_capture": st.booleans(),
    "detect_skip": st.sampled_from([0.0, 0.5, 1.0]),
    "play_to_end": st.booleans(),
    "scoring": st.sampled_from(["none", "megajogos"]),
    "die": st.sampled_from(["d6", "star-globe"]),
    "home_len": st.integers(1, 10),
}


@st.composite
def rule_variants(draw: st.DrawFn) -> Rules:
    """A preset with some toggles changed; invalid combinations are assumed away."""
    preset = draw(st.sampled_from(presets()))
    keys = draw(st.lists(st.sampled_from(sorted(TOGGLE_VALUES)), unique=True, max_size=10))
    changes = {key: draw(TOGGLE_VALUES[key]) for key in keys}
    if draw(st.integers(0, 5)) == 0:
        changes.update(sides=6, players=draw(st.integers(2, 6)))
    # Short games keep the reference fast; truncation is then exercised too.
    changes["max_turns"] = draw(st.sampled_from([100, 400]))
    try:
        return Rules.preset(preset).replace(**changes)
    except RulesError:
        assume(False)
        raise  # unreachable: assume(False) raises


@settings(
    max_examples=50,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(rules=rule_variants(), seed=st.integers(0, 2**64 - 1))
def test_kernel_agrees_on_random_toggle_combinations(rules: Rules, seed: int) -> None:
    bad = _differences(rules, seed, range(20))
    assert not bad, f"rules {rules.to_dict()}:\n" + "\n".join(bad[:3])
