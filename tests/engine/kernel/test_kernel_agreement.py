"""Differential test: the compiled kernel plays the reference engine's games, game for game.

Every per-game column (with the game-flow columns of docs/flow.md in the
per-preset check) and the final position of every piece must agree for
the same (rules, seed, game, policies): 300 games per preset (60 of Killer) in the
everyday suite, 20,000 with `LUDOSIM_VERIFY=1` (as in `make verify`), which
also plays 300 instead of 40 games per preset and policy mix, the section 8 readings
and the family toggles at three and twenty times the everyday suite's games, and more
random rule combinations.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import VERIFY, full_or
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from scenario_helpers import random_position

from ludosim import Rules, RulesError, presets, simulate
from ludosim.reference import Position, play_game
from ludosim.reference.plans import PlanTree
from ludosim.rules.model import TOGGLES, Toggle
from ludosim.rules.policies import parse_policy
from ludosim.run.simulate import kernel_game

GAMES = full_or(20_000, 300)  # per preset (Killer: `games_of`)
# The games of a preset are checked in slices of about ten seconds each, so
# that pytest-xdist spreads them evenly over the workers: the reference engine
# plays about 11 Killer games a second and about 100 of each other preset.
SLICE = {name: 125 if name == "killer" else 1000 for name in presets()}
# Killer's reference games are the dearest (its plan search runs in Python), so the
# everyday suite checks 60 of them; `make verify` checks 20,000 like every preset.
KILLER_GAMES = full_or(GAMES, 60)


def games_of(name: str) -> int:
    return KILLER_GAMES if name == "killer" else GAMES


SLICES = [(name, start) for name in presets() for start in range(0, games_of(name), SLICE[name])]
SEED = 20240611


def _differences(
    rules: Rules,
    seed: int,
    games: range,
    policies: str | list[str] = "random",
    flow: bool = False,
) -> list[str]:
    """Games whose kernel row or final position differs from the reference (described).

    With `flow` the rows hold the game-flow columns too (docs/flow.md).
    """
    rows = simulate(
        rules, games=len(games), seed=seed, first_game=games.start, policies=policies, flow=flow
    )
    out = []
    for game, kernel in zip(games, rows.to_dict("records"), strict=True):
        ref = play_game(rules, seed, game, policies=policies, record=False, flow=flow)
        expected = ref.row()
        diff = {c: (expected[c], kernel[c]) for c in expected if expected[c] != kernel[c]}
        if set(kernel) != set(expected):
            diff["columns"] = (sorted(expected), sorted(kernel))
        _, final = kernel_game(rules, seed, game, policies=policies)
        if final != ref.final:
            diff["final"] = (ref.final, final)
        if diff:
            out.append(f"game {game}: (reference, kernel) {diff}")
    return out


def assert_same_games(
    rules: Rules,
    games: range,
    label: str,
    policies: str | list[str] = "random",
    flow: bool = False,
) -> None:
    """Both engines play games `games` of `rules` (seed SEED) alike; else name the first five."""
    bad = _differences(rules, SEED, games, policies, flow=flow)
    assert not bad, f"{len(bad)} games differ under {label}:\n" + "\n".join(bad[:5])


@pytest.mark.parametrize(("preset", "start"), SLICES)
def test_kernel_agrees_with_reference_per_preset(preset: str, start: int) -> None:
    rules = Rules.preset(preset)
    games = range(start, min(start + SLICE[preset], games_of(preset)))
    # The game-flow counters are compared too: every column of every game.
    assert_same_games(rules, games, preset, flow=True)


# Every named policy, a skipper and a custom weights policy, mixed per seat.
WEIGHTS = "weights:lead=3,exposed=-2,safe=1,capture=4,sent_home=-5"
POLICY_MIXES = {
    "named": ["runner", "aggressive", "defensive", "balanced"],
    "mixed": ["pacifist", "skipper:0.5", WEIGHTS, "random"],
}
POLICY_GAMES = 300 if VERIFY else 40


@pytest.mark.parametrize("mix", sorted(POLICY_MIXES))
@pytest.mark.parametrize("preset", presets())
def test_kernel_agrees_with_reference_per_policy(preset: str, mix: str) -> None:
    rules = Rules.preset(preset)
    games = POLICY_GAMES if preset != "killer" else POLICY_GAMES * 3 // 4
    assert_same_games(rules, range(games), f"{preset}, {mix}", POLICY_MIXES[mix])


@pytest.mark.parametrize("detect_skip", [0.5, 1.0])
def test_kernel_agrees_on_skipped_forced_captures(detect_skip: float) -> None:
    """Killer with skippers: the skip draws, the puster and its victims agree."""
    rules = Rules.preset("killer").replace(detect_skip=detect_skip)
    policies = ["skipper:1", "skipper:0.5", "balanced", "random"]
    games = range(60 if VERIFY else 20)
    bad = _differences(rules, SEED + 1, games, policies)
    assert not bad, "\n".join(bad[:5])
    df = simulate(rules, games=len(games), seed=SEED + 1, policies=policies)
    assert df["skipped_0"].sum() > 0 and df["caught_0"].sum() > 0  # the puster was exercised
    assert df["skipped_2"].sum() == 0 and df["skipped_3"].sum() == 0  # only skippers skip


def test_kernel_agrees_on_skippers_over_any_base() -> None:
    """`skipper:Q:BASE` skips on top of another policy's weights, alike in both engines."""
    rules = Rules.preset("killer")
    policies = ["skipper:1:runner", "runner", "skipper:0.5:defensive", "aggressive"]
    games = range(40 if VERIFY else 12)
    assert_same_games(rules, games, "killer, skippers over runner and defensive", policies)
    df = simulate(rules, games=len(games), seed=SEED, policies=policies)
    assert df["skipped_0"].sum() > 0 and df["skipped_1"].sum() == 0


@pytest.mark.parametrize("memo_slots", [1 << 15, 8])
@pytest.mark.parametrize("policy", ["random", "balanced"])
def test_memoised_plans_match_the_plan_tree(policy: str, memo_slots: int) -> None:
    """Kernel plan counts and the k-th plan equal `PlanTree`'s, with a roomy or a tiny table.

    A table of 8 entries fills at once, so the search runs as an uncached
    recursion: the same plans, only slower.
    """
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.memo import pick_plan, summarise_root
    from ludosim.engine.optionscore import note_before
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.position import reset_state
    from ludosim.engine.state import (
        BEST,
        CHOSEN,
        MRES,
        REM,
        B,
        N,
    )

    rules = Rules.preset("killer")
    lay = compile_layout(rules)
    weights = parse_policy(policy).weights
    rng = random.Random(5)
    checked = 0
    for _ in range(40):
        pos = random_position(rules, rng)
        rolls = [6] * rng.choice([1, 2, 3, 4]) + [rng.randrange(1, 6)]
        seat = rng.randrange(rules.players)
        w = new_work(
            compile_policies([parse_policy(policy)] * rules.players),
            np.array(pos.progress),
            memo_slots,
        )
        reset_state(lay, w, True)
        for face in rolls:
            w[REM + face] += 1
        note_before(lay, w, seat)
        summarise_root(lay, w, seat, len(rolls))
        root = w[MRES : MRES + N.CCAP + 1].copy()  # picking overwrites MRES
        tree = PlanTree(rules, pos, seat, rolls, weights)
        for capturing in (False, True):
            if capturing and not tree.any_capture():
                continue
            final, count = tree.top(capturing)
            column = (N.MCAP, N.CCAP) if capturing else (N.MALL, N.CALL)
            assert (root[column[0]], root[column[1]]) == (final, count)
            best = root[N.BEST]
            for index in sorted({0, count // 2, count - 1}):
                pick_plan(lay, w, seat, len(rolls), best, index, capturing, final)
                steps = tuple(
                    (int(w[CHOSEN + 2 * j + 1]), int(w[CHOSEN + 2 * j]))
                    for j in range(w[BEST + B.STEPS])
                )
                assert steps == tree.plan(index, capturing, final).steps
                checked += 1
    assert checked > 60


def test_kernel_agrees_on_a_far_seed_and_game_index() -> None:
    rules = Rules.preset("danish")
    assert not _differences(rules, 2**64 - 1, range(2**40, 2**40 + 20))


# Values each toggle may take in the random combinations below.
# Toggles drawn from the whole table, except the board's geometry and seating
# (tested by preset and by the sides=6 draw below), the die's faces (they
# follow `die`) and max_turns (drawn below); players stay within 4 sides.
NOT_DRAWN = {"sides", "max_turns", "die_faces", "seating", "entry", "globe_offsets", "star_offsets"}
PLAYERS_ON_FOUR_SIDES = 4
FLOAT_VALUES = [0.0, 0.5, 1.0]  # detect_skip: never, sometimes and always caught
# Ints whose range is mostly refused with short games (move_limit * players <= max_turns)
# or plays alike (any bonus for a piece home): a few values each.
FEW_INTS = {"move_limit": [0, 3, 20], "home_bonus": [0, 25]}


def _values(toggle: Toggle) -> st.SearchStrategy:
    """Every allowed value of a toggle (a few for a float)."""
    if toggle.kind == "choice":
        return st.sampled_from(list(toggle.choices))
    if toggle.kind == "bool":
        return st.booleans()
    if toggle.name in FEW_INTS:
        return st.sampled_from(FEW_INTS[toggle.name])
    if toggle.kind == "int":
        high = PLAYERS_ON_FOUR_SIDES if toggle.name == "players" else toggle.high
        return st.integers(int(toggle.low), int(high))
    if toggle.kind == "float":
        return st.sampled_from(FLOAT_VALUES)
    if toggle.kind == "set":
        return st.lists(st.sampled_from(toggle.choices), unique=True).map(tuple)
    if toggle.name == "teams":
        # Partners opposite, side by side, and wrapping round (four seats), and three
        # teams of two (six seats: played on after the first team, tied on points).
        return st.sampled_from([(0, 1, 0, 1), (0, 0, 1, 1), (0, 1, 1, 0), (0, 1, 2, 0, 1, 2)])
    if toggle.kind == "face_set":
        # The die's own, Fia med knuff's 1 and 6, a Parchis-like 5, and with the globe.
        return st.sampled_from([(), (1, 6), (5,), (1, "globe")])
    raise AssertionError(f"no values drawn for {toggle.name} ({toggle.kind})")


TOGGLE_VALUES = {name: _values(t) for name, t in TOGGLES.items() if name not in NOT_DRAWN}


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
    max_examples=full_or(50, 20),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(rules=rule_variants(), seed=st.integers(0, 2**64 - 1))
def test_kernel_agrees_on_random_toggle_combinations(rules: Rules, seed: int) -> None:
    bad = _differences(rules, seed, range(20))
    assert not bad, f"rules {rules.to_dict()}:\n" + "\n".join(bad[:3])


@settings(
    max_examples=15,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(rules=rule_variants(), seed=st.integers(0, 2**64 - 1))
def test_kernel_agrees_on_random_combinations_with_capture_before_home(
    rules: Rules, seed: int
) -> None:
    """The random combinations above with `home_unlock = capture` on top: locked pieces
    lapping under star jumps, the star-and-globe die, Killer's plans and the rest."""
    try:
        rules = rules.replace(home_unlock="capture")
    except RulesError:
        assume(False)
    bad = _differences(rules, seed, range(10))
    assert not bad, f"rules {rules.to_dict()}:\n" + "\n".join(bad[:3])


ALL_POLICIES = [*POLICY_MIXES["named"], *POLICY_MIXES["mixed"], "skipper:1", "weights:enter=-1"]


@settings(
    max_examples=full_or(60, 24),
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(rules=rule_variants(), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_kernel_agrees_on_random_toggles_and_policies(
    rules: Rules, seed: int, data: st.DataObject
) -> None:
    policies = data.draw(
        st.lists(st.sampled_from(ALL_POLICIES), min_size=rules.players, max_size=rules.players)
    )
    bad = _differences(rules, seed, range(10), policies)
    assert not bad, f"rules {rules.to_dict()}, policies {policies}:\n" + "\n".join(bad[:3])


# The kernel plays "free" games (nothing bars a move, exact finish, optional
# captures, a numbers die) on a short path where a roll's moves are a mask of
# movable pieces instead of a written move list (`engine.turn.free_play`):
# random seats draw among it, scoring seats score its pieces
# (`engine.policy.choose_free_piece`). These rules take it, and variants just off it.
FREE_VARIANTS = {
    "plain-app": {},
    "start-capacity": {"start_capacity": 1},
    "safe-start-lander-home": {"safe": ("starts",), "safe_landing": "lander_home"},
    "blocks-send-lander-home": {"block_landing": "lander_home", "pieces": 2, "players": 3},
}


@pytest.mark.parametrize("variant", sorted(FREE_VARIANTS))
def test_kernel_agrees_on_the_free_random_path(variant: str) -> None:
    from ludosim.run.bench import plain_app_rules

    rules = plain_app_rules().replace(**FREE_VARIANTS[variant])
    assert_same_games(rules, range(150), variant)
    # Scoring seats beside random ones (a random-only run compiles no scoring code).
    mixed = (["runner", "balanced"] + ["random"] * rules.players)[: rules.players]
    assert_same_games(rules, range(40), f"{variant}, {mixed}", mixed)


@pytest.mark.parametrize("preset", ["app", "killer", "king"])
@pytest.mark.parametrize("win_pieces", [4, 2])
def test_a_seat_finished_in_the_start_position_is_done_after_its_first_turn(
    preset: str, win_pieces: int
) -> None:
    """The turn loop learns of finishes from the turn; a start position can hold one
    already. That seat plays its first turn out (bonus rolls included: it did not
    finish in it) and is done after it, in both engines."""
    from ludosim.reference.game import Game

    rules = Rules.preset(preset).replace(play_to_end=True, win_pieces=win_pieces)
    goal = rules.goal
    home = [goal] * win_pieces + [5] * (4 - win_pieces)
    rows = [home, [-1, 3, -1, -1], [-1, -1, 7, -1], [20, -1, -1, -1]]
    pos = Position.from_progress(rules, rows)
    for to_end in (True, False):
        rules = rules.replace(play_to_end=to_end)
        df = simulate(rules, games=60, seed=3, start=pos, start_seat=0)
        for game, kernel in enumerate(df.to_dict("records")):
            ref = Game(rules, 3, game, start=pos, record=False, start_seat=0).play()
            assert ref.row() == kernel, (to_end, game)
        assert (df["place_0"] == 1).all() and (df["winner"] == 0).all()
        assert (df["turns"] == 1).all()  # done after its first turn, as in `Game.play`
    if win_pieces < 4 and rules.bonus_on_six == "always":
        # The game ended with seat 0's first turn; some of those rolled again after a 6.
        assert (df["rolls"] > 1).any()


# Readings of docs/rules.md section 8 that change what is played: a 6 that cannot
# enter is a failed start try (8.2, here with the star-globe die's 6 and one
# attempt), Killer's captures and finishes earn new roll sequences (8.8), and
# a block on a safe square follows block_landing (8.1). The games are make verify's;
# the everyday suite plays a third of them.
READING_VARIANTS = {
    "failed-start-try": ("danish-globe", {"start_attempts": 1}, 300),
    "killer-bonus-sequences": (
        "killer",
        {"bonus_on_capture": True, "bonus_on_finish": True},
        120,
    ),
    "safe-block-capture": ("app", {"safe": ("starts", "stars"), "pass_opponents": "all"}, 300),
}


@pytest.mark.parametrize("variant", sorted(READING_VARIANTS))
def test_kernel_agrees_on_the_section_8_readings(variant: str) -> None:
    preset, changes, games = READING_VARIANTS[variant]
    rules = Rules.preset(preset).replace(**changes)
    assert_same_games(rules, range(full_or(games, games // 3)), variant)


# Values of the toggles that other Ludo apps play, each on a preset where it
# changes games: bonuses that do not stack (with every bonus source on),
# forbidden block landings (also with star jumps and the star-and-globe die),
# six limits other than 3, start tries only until a first piece entered and
# seats listed in any order of arms. The games are the everyday suite's with mixed
# seats; it plays half again as many with random seats, make verify twenty times as many.
FAMILY_VARIANTS = {
    "bonus-one-italian": ("italian", {"bonus_stacking": "one"}, 150),
    "bonus-one-globe": (
        "danish-globe",
        {"bonus_stacking": "one", "bonus_on_capture": True, "bonus_on_finish": True},
        150,
    ),
    "block-forbidden-danish": ("danish", {"block_landing": "forbidden"}, 150),
    "block-forbidden-globe": ("danish-globe", {"block_landing": "forbidden"}, 150),
    "block-forbidden-killer": ("killer", {"block_landing": "forbidden"}, 40),
    "block-forbidden-free": ("app", {"block_landing": "forbidden", "pass_opponents": "all"}, 150),
    "six-limit-2": ("app", {"six_limit": 2}, 150),
    "six-limit-4": ("danish", {"six_limit": 4}, 150),
    "six-limit-6": ("italian", {"six_limit": 6}, 150),
    "start-tries-game-start": ("danish", {"start_attempts_when": "game_start"}, 150),
    "start-tries-game-start-killer": ("killer", {"start_attempts_when": "game_start"}, 40),
    "seating-counter-clockwise": ("danish", {"seating": "0,3,2,1"}, 150),
    "seating-counter-clockwise-italian": ("italian", {"seating": "3,2,1,0"}, 150),
    "seating-counter-clockwise-killer": ("killer", {"seating": "0,3,2,1"}, 40),
    "seating-any-order-six-sides": (
        "app",
        {"sides": 6, "players": 5, "seating": "0,4,5,2,1", "pass_opponents": "all"},
        150,
    ),
}


@pytest.mark.parametrize("variant", sorted(FAMILY_VARIANTS))
def test_kernel_agrees_on_the_family_toggles(variant: str) -> None:
    preset, changes, games = FAMILY_VARIANTS[variant]
    rules = Rules.preset(preset).replace(**changes)
    assert_same_games(rules, range(full_or(games * 10, games // 2)), variant)
    mixed = (["runner", "balanced", "skipper:0.5"] + ["random"] * rules.players)[: rules.players]
    assert_same_games(rules, range(full_or(games, games // 10)), f"{variant}, {mixed}", mixed)
