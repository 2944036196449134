"""The look-ahead features `danger` and `chance`: exact probabilities over the die faces.

Hand-built positions with probabilities worked out by hand, the kernel's
values against the reference's on random positions of every preset, and
whole games with non-zero look-ahead weights played alike by both engines.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from conftest import full_or
from scenario_helpers import make, on_square, random_position

from ludosim import Rules, presets, simulate
from ludosim.engine.layout import compile_layout
from ludosim.engine.optionscore import lookahead as kernel_lookahead
from ludosim.engine.policy import compile_policies
from ludosim.engine.position import reset_state
from ludosim.engine.state import DUMMY, new_work
from ludosim.engine.state import PROB_UNIT as KERNEL_PROB_UNIT
from ludosim.reference import play_game
from ludosim.reference.features import lookahead
from ludosim.rules.board import YARD
from ludosim.rules.policies import FEATURES, PROB_UNIT, parse_policy, score_weights
from ludosim.run.simulate import kernel_game

APP = Rules.preset("app")
SIXTH = PROB_UNIT // 6  # chance 1/6 in units of 1 / 6**5


def _kernel_lookahead(rules: Rules, progress: list[list[int]], seat: int) -> tuple[int, int]:
    lay = compile_layout(rules)
    weights = parse_policy("weights:danger=1,chance=1")
    w = new_work(compile_policies([weights] * rules.players), np.array(progress))
    reset_state(lay, w, True)
    before = w.copy()
    danger, chance = kernel_lookahead(lay, w, seat)
    # Every move tried was taken back: the position and the statistics are as they were.
    assert np.array_equal(w[:DUMMY], before[:DUMMY])
    return int(danger), int(chance)


def test_probability_units_agree() -> None:
    assert PROB_UNIT == KERNEL_PROB_UNIT == 6**5
    assert FEATURES[-2:] == ("danger", "chance")


def test_one_opponent_two_behind_threatens_with_one_face() -> None:
    """Seat 1 stands 2 squares behind seat 0's lone piece: only its 2 captures (1/6)."""
    sq = 20
    pos = make(
        APP,
        {
            0: [on_square(APP, 0, sq), YARD, YARD, YARD],
            1: [on_square(APP, 1, sq - 2), YARD, YARD, YARD],
        },
    )
    danger, chance = lookahead(APP, pos, 0)
    assert danger == PROB_UNIT // 6  # 1 - 5/6
    # Seat 0 has nothing ahead of it within reach and cannot enter without a 6 onto an
    # empty start: no capture next roll.
    assert chance == 0


def test_two_opponents_threats_combine_as_independent_rolls() -> None:
    """Seat 1 stands 3 behind, seat 2 enters onto the square with a 6: 1 - (5/6)(5/6) = 11/36."""
    sq = 26  # seat 2's start square
    pos = make(
        APP,
        {
            0: [on_square(APP, 0, sq), YARD, YARD, YARD],
            1: [on_square(APP, 1, sq - 3), YARD, YARD, YARD],
        },
    )
    danger, _ = lookahead(APP, pos, 0)
    assert danger == PROB_UNIT * 11 // 36
    # Seat 1 sees seat 0's piece 3 ahead: its own chance to capture is 1/6.
    assert lookahead(APP, pos, 1)[1] == SIXTH


def test_a_threat_behind_another_opponent_is_barred_on_app() -> None:
    """App bars passing an opponent: of seats 1 (3 behind) and 2 (5 behind) only seat 1 reaches."""
    sq = 20
    pos = make(
        APP,
        {
            0: [on_square(APP, 0, sq), YARD, YARD, YARD],
            1: [on_square(APP, 1, sq - 3), YARD, YARD, YARD],
            2: [on_square(APP, 2, sq - 5), YARD, YARD, YARD],
        },
    )
    assert lookahead(APP, pos, 0)[0] == SIXTH
    # Where passing is allowed, both reach.
    passing = APP.replace(pass_opponents="all")
    assert lookahead(passing, pos, 0)[0] == PROB_UNIT * 11 // 36


def test_one_opponent_with_two_pieces_behind_counts_each_face_once() -> None:
    """Seat 1 has pieces 2 and 4 behind: faces 2 and 4 capture, 2/6; two own pieces add up."""
    sq = 40
    pos = make(
        APP,
        {
            0: [on_square(APP, 0, sq), on_square(APP, 0, sq + 10), YARD, YARD],
            1: [on_square(APP, 1, sq - 2), on_square(APP, 1, sq - 4), YARD, YARD],
        },
    )
    danger, _ = lookahead(APP, pos, 0)
    # The piece on sq: faces 2 and 4 (2/6); the piece 10 ahead is out of single-roll reach.
    assert danger == 2 * SIXTH
    # Seat 1: a 2 or a 4 captures (the two pieces' faces), and nothing else: 2/6.
    assert lookahead(APP, pos, 1)[1] == 2 * SIXTH


def test_safe_squares_and_blocks_follow_the_rules() -> None:
    """Italian: a piece on a star (safe) cannot be taken; a lone_piece block is not captured."""
    italian = Rules.preset("italian")
    behind = on_square(italian, 1, 49)
    pos = make(italian, {0: [0, YARD, YARD, YARD], 1: [behind, YARD, YARD, YARD]})
    assert lookahead(italian, pos, 0)[0] == 0  # on its own start square, safe under italian
    sq = 20
    shared = make(
        italian,
        {
            0: [on_square(italian, 0, sq), on_square(italian, 0, sq), YARD, YARD],
            1: [on_square(italian, 1, sq - 2), YARD, YARD, YARD],
        },
    )
    assert lookahead(italian, shared, 0)[0] == 0  # block: lone_piece capture cannot take it
    # On app a block is captured whole (block_landing = capture): both pieces at 1/6 each.
    both = make(
        APP,
        {
            0: [on_square(APP, 0, sq), on_square(APP, 0, sq), YARD, YARD],
            1: [on_square(APP, 1, sq - 2), YARD, YARD, YARD],
        },
    )
    assert lookahead(APP, both, 0)[0] == 2 * SIXTH


def test_entering_on_a_six_captures_on_the_start_square() -> None:
    """App: seat 1's start square holds seat 0's lone piece; seat 1 enters with a 6 (1/6)."""
    start1 = on_square(APP, 0, 13)  # seat 1 starts on square 13
    pos = make(APP, {0: [start1, YARD, YARD, YARD]})
    danger, _ = lookahead(APP, pos, 0)
    assert danger == SIXTH


def test_score_weights_scale_the_base_features_only_when_a_lookahead_weighs() -> None:
    plain = parse_policy("tuned-app").weights
    assert score_weights(plain) == plain
    mixed = parse_policy("weights:capture=2,danger=-3").weights
    scaled = score_weights(mixed)
    assert scaled[FEATURES.index("capture")] == 2000 * PROB_UNIT
    assert scaled[FEATURES.index("danger")] == -3000


@pytest.mark.parametrize("preset", presets())
def test_kernel_lookahead_matches_the_reference(preset: str) -> None:
    rules = Rules.preset(preset)
    rng = random.Random(f"lookahead {preset}")
    nonzero = 0
    for _ in range(80):
        pos = random_position(rules, rng)
        seat = rng.randrange(rules.players)
        expected = lookahead(rules, pos, seat)
        assert _kernel_lookahead(rules, pos.progress, seat) == expected, (seat, pos.progress)
        nonzero += expected != (0, 0)
    assert nonzero > 10


# Look-ahead weights beside the base ones, and a seat that weighs only them.
LOOKAHEAD_MIX = [
    "weights:capture=20,finish=15,enter=10,progress=1,sent_home=-30,danger=-12,chance=4",
    "weights:danger=-5",
    "balanced",
    "weights:chance=3,progress=1,exposed=-2,safe=1",
]


# Games per preset (the reference works the look-ahead out in Python: a few seconds an
# app game on a loaded machine): `LUDOSIM_VERIFY=1`'s, then the everyday suite's.
AGREEMENT_GAMES = {"app": (300, 5), "italian": (300, 10), "danish-globe": (200, 4),
                   "killer": (80, 3)}  # fmt: skip


@pytest.mark.parametrize("preset", sorted(AGREEMENT_GAMES))
def test_engines_agree_with_lookahead_weights(preset: str) -> None:
    rules = Rules.preset(preset)
    games = full_or(*AGREEMENT_GAMES[preset])
    seed = 20261201
    rows = simulate(rules, games=games, seed=seed, policies=LOOKAHEAD_MIX)
    for game, kernel in zip(range(games), rows.to_dict("records"), strict=True):
        ref = play_game(rules, seed, game, policies=LOOKAHEAD_MIX, record=False)
        expected = ref.row()
        diff = {c: (expected[c], kernel[c]) for c in expected if expected[c] != kernel[c]}
        assert not diff, f"{preset} game {game}: (reference, kernel) {diff}"
        _, final = kernel_game(rules, seed, game, policies=LOOKAHEAD_MIX)
        assert final == ref.final, f"{preset} game {game}"
