"""Toggles that cannot act: both values play the same games, so the report merges them.

Each normalisation of `ludosim.rules.canonical` is pinned by playing both values on the
same seed with the kernel and finding the same rows; where the toggle can act,
the same pair of values plays different games (so the check can fail).
"""

from __future__ import annotations

import pandas as pd
import pytest

from ludosim.report import analysis
from ludosim.rules.canonical import canonical_rules, inert_toggles, same_game_key
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet
from ludosim.run.simulate import simulate
from ludosim.sweep import SweepSpec
from ludosim.sweep.spec import cells_frame, expand

GAMES = 300

# (preset, toggle, two values, policies): the toggle cannot act under these rules.
INERT = [
    ("app", "detect_skip", (0.0, 1.0), "random"),  # no forced captures
    ("killer", "detect_skip", (0.0, 1.0), "random"),  # forced, but nobody skips
    ("app", "start_capacity", (4, 0), "random"),  # four pieces: never refuses
    ("app", "start_attempts_when", ("always", "game_start"), "random"),  # one attempt
    ("app", "safe_landing", ("coexist", "lander_home"), "random"),  # no safe squares
    ("app", "bonus_stacking", ("stack", "one"), "random"),  # one bonus at most
    ("danish", "capture_rule", ("lone_opponent", "lone_piece"), "random"),  # blocks send home
    ("app", "capture_rule", ("lone_opponent", "lone_piece"), "balanced"),  # blocks are captured
]
# The same toggles where they act: the games differ.
ACTIVE = [
    ("killer", "detect_skip", (0.0, 1.0), ["skipper:1", "random", "random", "random"]),
    ("app", "start_capacity", (1, 0), "random"),
    ("italian", "bonus_stacking", ("stack", "one"), "random"),
    ("italian", "safe_landing", ("coexist", "lander_home"), "random"),
    ("app+block_landing=coexist", "capture_rule", ("lone_opponent", "lone_piece"), "random"),
]


def _rules(rule_set: str, toggle: str, value: object) -> Rules:
    """`PRESET[+T=V...]` with `toggle` set to `value`."""
    return RuleSet.parse(rule_set).rules().replace(**{toggle: value})


def _rows(preset: str, toggle: str, value: object, policies: object) -> pd.DataFrame:
    return simulate(_rules(preset, toggle, value), GAMES, seed=11, policies=policies)


@pytest.mark.parametrize(("preset", "toggle", "values", "policies"), INERT)
def test_an_inert_toggle_plays_the_same_games(
    preset: str, toggle: str, values: tuple, policies: object
) -> None:
    a, b = (_rows(preset, toggle, v, policies) for v in values)
    pd.testing.assert_frame_equal(a, b)
    rules = [_rules(preset, toggle, v) for v in values]
    assert toggle in inert_toggles(rules[0], policies) or toggle in inert_toggles(
        rules[1], policies
    )
    assert same_game_key(rules[0], policies) == same_game_key(rules[1], policies)


@pytest.mark.parametrize(("preset", "toggle", "values", "policies"), ACTIVE)
def test_the_same_toggle_where_it_acts_plays_other_games(
    preset: str, toggle: str, values: tuple, policies: object
) -> None:
    a, b = (_rows(preset, toggle, v, policies) for v in values)
    assert not a.equals(b)
    rules = [_rules(preset, toggle, v) for v in values]
    assert same_game_key(rules[0], policies) != same_game_key(rules[1], policies)


def test_canonical_rules_keep_every_toggle_that_can_act() -> None:
    italian = Rules.preset("italian")
    assert canonical_rules(italian) == italian  # every toggle of Italian rules can act
    app = Rules.preset("app").replace(safe_landing="lander_home", start_capacity=4)
    assert canonical_rules(app) == Rules.preset("app").replace(start_capacity=0)


def test_a_sweep_of_a_toggle_that_cannot_act_is_merged_into_one_cell() -> None:
    spec = SweepSpec.from_options(preset="killer", games=10, seed=1, policies="balanced",
                                  vary=["detect_skip=0,0.5,1"])  # fmt: skip
    cells = cells_frame(expand(spec), full=True)
    kept, merged = analysis.same_games(cells)
    assert list(kept["cell"]) == ["c000"]
    (same,) = merged
    assert same.kept == "c000" and same.merged == ("c001", "c002")
    assert same.reasons == ("detect_skip: no seat skips a forced capture (no skipper policy)",)
    assert kept.loc[0, "name"] == "killer"  # its name loses the toggle that cannot act


def test_safe_kinds_that_mark_the_same_squares_play_the_same_games() -> None:
    # The Danish start squares are globes: starts adds no safe square to globes.
    danish = Rules.preset("danish")
    a, b = danish.replace(safe=("globes",)), danish.replace(safe=("starts", "globes"))
    pd.testing.assert_frame_equal(simulate(a, GAMES, seed=11), simulate(b, GAMES, seed=11))
    assert same_game_key(a) == same_game_key(b)
    # On Italian boards the starts are no stars: the same two lists differ there.
    italian = Rules.preset("italian")
    c, d = italian.replace(safe=("stars",)), italian.replace(safe=("starts", "stars"))
    assert not simulate(c, GAMES, seed=11).equals(simulate(d, GAMES, seed=11))
    assert same_game_key(c) != same_game_key(d)


def test_a_sweep_of_safe_lists_marking_the_same_squares_keeps_the_shorter_name() -> None:
    spec = SweepSpec.from_options(preset="danish", games=10, seed=1,
                                  vary=["safe=[globes],[starts,globes]"])  # fmt: skip
    cells = cells_frame(expand(spec), full=True)
    kept, merged = analysis.same_games(cells)
    (same,) = merged
    assert (same.kept, same.merged) == ("c000", ("c001",))
    assert same.reasons == ("safe: starts adds no safe square to globes on this board",)
    assert kept.loc[0, "name"] == "safe=globes"  # globes acts: the name keeps it
