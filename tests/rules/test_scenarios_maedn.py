"""Scenario tests for the rules of Mensch ärgere Dich nicht (docs/rules.md section 3).

The rules sold with the game Mensch ärgere Dich nicht (Schmidt Spiele): a 6
must bring a piece out while the start square is free of own pieces
(`must_enter`), the start square must be cleared while pieces wait in the
yard (`clear_start`), no piece may end its move on an own piece
(`land_on_own = false`), and pieces pass each other freely, in the home
column too. Every position is built by hand and checked in both engines;
whole games of both engines are compared at the end.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenario_helpers import kernel_targets, make, reference_targets
from test_kernel_agreement import VERIFY, assert_same_games

from ludosim.engine import compile_layout, new_work
from ludosim.engine.policy import compile_policies
from ludosim.engine.position import finished as kernel_finished
from ludosim.engine.position import reset_state
from ludosim.rules.board import YARD
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules
from ludosim.rules.policies import parse_policy

Y = YARD
# A 40-square board without special squares, exact finish, passing allowed;
# the rules under test are switched on one at a time.
BOARD = Rules.preset("danish").replace(
    arm_length=10, globe_offsets=(), star_offsets=(), entry=39, finish="exact", pass_own=True
)
GOAL = BOARD.goal  # 39 + 5 + 1


def _both(rules: Rules, placed: dict[int, list[int]], face: int, seat: int = 0) -> dict:
    """{piece: landing} of the legal moves; both engines must list the same."""
    ref = reference_targets(rules, placed, seat, face)
    assert kernel_targets(rules, placed, seat, face) == ref
    return ref


# ----------------------------------------------------------------- land_on_own
def test_no_move_ends_on_an_own_piece() -> None:
    """A 3 from progress 10 would end on the own piece at 13: not a move; stacking is allowed
    by default."""
    placed = {0: [10, 13, Y, Y]}
    assert _both(BOARD, placed, 3) == {0: 13, 1: 16}
    assert _both(BOARD.replace(land_on_own=False), placed, 3) == {1: 16}


def test_no_entering_onto_an_own_piece_on_the_start_square() -> None:
    placed = {0: [0, Y, Y, Y]}
    assert _both(BOARD, placed, 6) == {0: 6, 1: 0, 2: 0, 3: 0}
    assert _both(BOARD.replace(land_on_own=False), placed, 6) == {0: 6}


def test_no_move_ends_on_an_own_piece_in_the_home_column_but_the_goal_holds_any() -> None:
    """Home-column squares hold one own piece each; the goal holds every finished piece."""
    rules = BOARD.replace(land_on_own=False)
    assert _both(rules, {0: [40, 42, GOAL, Y]}, 2) == {1: 44}
    assert _both(rules, {0: [GOAL - 2, GOAL, Y, Y]}, 2) == {0: GOAL}


def test_an_opponent_is_still_captured_by_landing() -> None:
    rules = BOARD.replace(land_on_own=False)
    # Seat 1 starts on square 10: its piece at progress 3 stands on square 13.
    assert _both(rules, {0: [10, Y, Y, Y], 1: [3, Y, Y, Y]}, 3) == {0: 13}


def test_pieces_pass_each_other_in_the_home_column() -> None:
    """docs/rules.md section 3: home-column squares never bar a move, even when the track's
    own pieces do (pass_own = false): from 40 a 3 passes the own piece on 41 and 42."""
    rules = BOARD.replace(land_on_own=False, pass_own=False)
    assert _both(rules, {0: [40, 41, 42, Y]}, 3) == {0: 43, 1: 44, 2: GOAL}
    assert _both(rules, {0: [10, 12, Y, Y]}, 3) == {1: 15}  # on the track the own piece bars


# ------------------------------------------------------------------ must_enter
def test_a_six_must_bring_a_piece_out() -> None:
    rules = BOARD.replace(must_enter=True)
    placed = {0: [20, Y, Y, 30]}
    assert _both(BOARD, placed, 6) == {0: 26, 1: 0, 2: 0, 3: 36}
    assert _both(rules, placed, 6) == {1: 0, 2: 0}
    assert _both(rules, placed, 5) == {0: 25, 3: 35}  # any other face moves freely


def test_a_six_moves_freely_when_no_piece_can_enter() -> None:
    """An own piece on the start square bars entering (land_on_own = false): the 6 is free."""
    rules = BOARD.replace(must_enter=True, land_on_own=False)
    assert _both(rules, {0: [0, 20, Y, Y]}, 6) == {0: 6, 1: 26}
    assert _both(rules, {0: [20, 30, GOAL, GOAL]}, 6) == {0: 26, 1: 36}  # nothing in the yard


# ----------------------------------------------------------------- clear_start
def test_the_start_square_must_be_cleared_while_pieces_wait() -> None:
    rules = BOARD.replace(clear_start=True)
    placed = {0: [0, 20, Y, Y]}
    assert _both(BOARD, placed, 4) == {0: 4, 1: 24}
    assert _both(rules, placed, 4) == {0: 4}


def test_a_start_piece_that_cannot_move_leaves_the_roll_free() -> None:
    """The start piece's 4 would end on the own piece at 4: another piece moves instead."""
    rules = BOARD.replace(clear_start=True, land_on_own=False)
    assert _both(rules, {0: [0, 4, Y, Y]}, 4) == {1: 8}


def test_the_start_square_need_not_be_cleared_with_an_empty_yard() -> None:
    rules = BOARD.replace(clear_start=True)
    assert _both(rules, {0: [0, 20, 30, GOAL]}, 4) == {0: 4, 1: 24, 2: 34}


def test_entering_comes_before_clearing_the_start_square() -> None:
    """docs/rules.md section 3 [choice]: with both rules and stacking allowed, a 6 enters."""
    rules = BOARD.replace(clear_start=True, must_enter=True)
    assert _both(rules, {0: [0, 20, Y, Y]}, 6) == {2: 0, 3: 0}


@pytest.mark.parametrize("name", ["must_enter", "clear_start"])
def test_compulsory_moves_need_single_rolls(name: str) -> None:
    with pytest.raises(RulesError, match=f"roll_then_move/{name}: "):
        Rules.preset("killer").replace(**{name: True})


def test_no_landing_on_own_pieces_refuses_star_jumps() -> None:
    with pytest.raises(RulesError, match="land_on_own/star_jump: "):
        Rules.preset("killer").replace(land_on_own=False)


# ---------------------------------------------------------------- whole games
VARIANTS = {
    "all-three": {"land_on_own": False, "must_enter": True, "clear_start": True},
    "must-enter-stacking": {"must_enter": True},
    "clear-start-stacking": {"clear_start": True, "start_attempts": 1},
    "no-own-landing-bounce": {"land_on_own": False, "finish": "bounce_on", "pass_own": False},
    "finish-in-home": {
        "land_on_own": False,
        "must_enter": True,
        "clear_start": True,
        "finish_in_home": True,
    },
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_kernel_agrees_with_reference_on_the_maedn_rules(variant: str) -> None:
    rules = BOARD.replace(**VARIANTS[variant])
    assert_same_games(rules, range(1000 if VERIFY else 60), variant)
    # The look-ahead seat is worked out in Python by the reference: fewer games.
    mixed = ["balanced", "runner", "random", "weights:danger=-2,chance=1,progress=1"]
    assert_same_games(rules, range(200 if VERIFY else 10), f"{variant}, {mixed}", mixed)


# ------------------------------------------------------------------ the preset
def test_maedn_preset_board() -> None:
    """docs/rules.md section 6: 40 track squares, the turn into the goal squares from the
    square before the own start square, three home-column squares and the goal; a 6 enters
    only onto a free start square and the start square is cleared first."""
    rules = Rules.preset("maedn")
    assert (rules.track_len, rules.entry, rules.home_len, rules.goal) == (40, 39, 3, 43)
    # 39 steps from the start square to the last track square, then four goal squares.
    assert _both(rules, {0: [36, Y, Y, Y]}, 5) == {0: 41}
    # Two pieces in the yard, one on the start square, one on the track: a 6 must clear the
    # start square (the own piece there bars entering), and the goal takes a second piece.
    assert _both(rules, {0: [0, 20, Y, Y]}, 6) == {0: 6}
    # The goal is the last of the four goal squares and holds one piece: a 1 moves neither
    # 41 onto 42 nor 42 onto 43, a 3 takes 40 past 41 and 42 onto the free goal.
    assert _both(rules, {0: [41, 42, 43, Y]}, 1) == {}
    assert _both(rules, {0: [40, 41, 42, Y]}, 3) == {0: 43}


# ---------------------------------------------------------------- finish_in_home
HOME = Rules.preset("maedn")  # finish_in_home: home squares 40-42 and the goal 43
STACKED = HOME.replace(finish_in_home=False)  # the goal holds every finished piece


def _finished(rules: Rules, placed: dict[int, list[int]], seat: int = 0) -> bool:
    """Whether `seat` has finished, in both engines (which must agree)."""
    pos = make(rules, placed)
    lay = compile_layout(rules)
    policies = compile_policies([parse_policy("random")] * rules.players)
    w = new_work(policies, np.array(pos.progress))
    reset_state(lay, w, True)
    ref = pos.finished(seat)
    assert bool(kernel_finished(lay, w, seat)) == ref
    return ref


def test_finish_in_home_a_seat_is_done_with_every_piece_on_its_home_squares() -> None:
    """With finish_in_home the four goal squares of the game are the three home-column
    squares and the goal: a seat whose pieces stand on all four has finished."""
    assert _finished(HOME, {0: [40, 41, 42, 43]})
    assert not _finished(HOME, {0: [40, 41, 43, 38]})
    assert not _finished(STACKED, {0: [40, 41, 42, 43]})
    assert _finished(STACKED, {0: [43, 43, 43, 43]})


def test_finish_in_home_the_goal_holds_one_piece() -> None:
    """The goal is then the last home square: no second piece lands on it."""
    assert _both(HOME, {0: [41, 43, Y, Y]}, 2) == {}
    assert _both(HOME, {0: [41, 43, Y, Y]}, 1) == {0: 42}
    assert _both(STACKED, {0: [41, 43, Y, Y]}, 2) == {0: 43}


def test_finish_in_home_needs_one_piece_per_square() -> None:
    with pytest.raises(RulesError, match="finish_in_home/land_on_own"):
        Rules.preset("app").replace(finish_in_home=True)
