"""Scenario tests for the rule choices other Ludo apps play (docs/rules.md sections 2, 3 and 6).

`bonus_stacking`, `block_landing = forbidden`, `six_limit` beyond 3 and
`start_attempts_when`: each rule on a hand-built position with scripted dice
in the reference engine, and the compiled kernel playing the same games on
from that position, game for game.
"""

from __future__ import annotations

import pytest
from scenario_helpers import dice, game, make, move_of, on_square, turn

from ludosim import RulesError, simulate
from ludosim.reference import Game, legal_moves
from ludosim.rules.board import YARD, Board
from ludosim.rules.model import Rules
from ludosim.rules.streams import ScriptedStream

SEED = 20261201


def _kernel_agrees_from(rules: Rules, placed: dict[int, list[int]], games: int = 30) -> None:
    """The kernel plays the reference engine's games on from the position, seat 0 first."""
    pos = make(rules, placed)
    df = simulate(rules, games=games, seed=SEED, start=pos, start_seat=0)
    for g, kernel in enumerate(df.to_dict("records")):
        ref = Game(rules, SEED, g, start=pos, record=False, start_seat=0).play()
        assert ref.row() == kernel, f"game {g}"


# ================================================================ bonus_stacking
ITALIAN_ONE = Rules.preset("italian").replace(bonus_stacking="one")


def test_six_that_captures_earns_one_bonus_roll_when_bonuses_do_not_stack():
    """docs/rules.md section 2: with bonus_stacking=one (Ludo King) a 6 that captures earns
    one extra roll, not two: the 1 after it is the last roll of the turn."""
    placed = {0: [10, 56, 56, 56], 2: [on_square(ITALIAN_ONE, 2, 16), -1, -1, -1]}
    g = turn(ITALIAN_ONE, placed, dice(ITALIAN_ONE, 6, 1))
    assert g.pos.progress[0][0] == 17
    assert g.pos.progress[2][0] == YARD
    assert g.rolls == 2 and g.stats["captures"][0] == 1
    _kernel_agrees_from(ITALIAN_ONE, placed)


def test_six_that_finishes_earns_one_bonus_roll_when_bonuses_do_not_stack():
    """docs/rules.md section 2: a 6 that brings a piece to the goal earns one extra roll."""
    placed = {0: [50, 10, 56, 56]}
    g = turn(ITALIAN_ONE, placed, [*dice(ITALIAN_ONE, 6), 0, *dice(ITALIAN_ONE, 1)])
    assert g.pos.progress[0] == [56, 11, 56, 56]
    assert g.rolls == 2
    _kernel_agrees_from(ITALIAN_ONE, placed)


def test_a_single_source_still_earns_its_bonus_roll_when_bonuses_do_not_stack():
    """docs/rules.md section 2: bonus_stacking=one caps a move's bonus rolls at one; a capture
    with a 2 still earns its roll."""
    placed = {0: [10, 56, 56, 56], 2: [on_square(ITALIAN_ONE, 2, 12), -1, -1, -1]}
    g = turn(ITALIAN_ONE, placed, dice(ITALIAN_ONE, 2, 3))
    assert g.pos.progress[0][0] == 15
    assert g.rolls == 2 and g.stats["captures"][0] == 1


def test_roll_then_move_refuses_bonuses_that_do_not_stack():
    """docs/rules.md section 6: Killer rolls every 6's bonus before moving, so a move has no
    bonus to trade; the combination is refused naming both toggles."""
    with pytest.raises(RulesError, match="roll_then_move/bonus_stacking"):
        Rules.preset("killer").replace(bonus_stacking="one")


# ================================================================ block_landing = forbidden
DANISH_FORBIDDEN = Rules.preset("danish").replace(block_landing="forbidden")


def test_a_move_may_not_end_on_a_forbidden_block():
    """docs/rules.md section 3: with block_landing=forbidden a move that would land on two or more
    opponent pieces is not legal; the piece may still pass the block as pass_opponents says."""
    block = on_square(DANISH_FORBIDDEN, 2, 14)
    placed = {0: [10, 20, 56, 56], 2: [block, block, -1, -1]}
    pos = make(DANISH_FORBIDDEN, placed)
    assert move_of(DANISH_FORBIDDEN, pos, 0, 4, 0) is None
    assert move_of(DANISH_FORBIDDEN, pos, 0, 4, 1) is not None
    assert move_of(DANISH_FORBIDDEN, pos, 0, 5, 0).target == 15  # passing it stays allowed
    singles = DANISH_FORBIDDEN.replace(pass_opponents="singles")
    assert move_of(singles, pos, 0, 5, 0) is None  # unless the passing rules bar the block
    # The same landing under lander_home is a legal move that sends the piece home.
    assert move_of(Rules.preset("danish"), pos, 0, 4, 0) is not None
    _kernel_agrees_from(DANISH_FORBIDDEN, placed)


def test_a_piece_may_not_enter_onto_a_forbidden_block():
    """docs/rules.md section 3: a block on the own start square bars entering."""
    rules = DANISH_FORBIDDEN
    start = on_square(rules, 1, 0)
    placed = {0: [-1, -1, 30, 56], 1: [start, start, -1, -1]}
    pos = make(rules, placed)
    assert [m.piece for m in legal_moves(rules, pos, 0, 6)] == [2]
    _kernel_agrees_from(rules, placed)


def test_a_star_jump_may_not_end_on_a_forbidden_block():
    """docs/rules.md section 3: the square a star jump goes on to counts as where the move
    lands; a lone opponent on the first star still lets the move be played."""
    rules = Rules.preset("killer").replace(block_landing="forbidden")
    block = on_square(rules, 1, 11)  # the star after the star at progress 4 of seat 0
    pos = make(rules, {0: [0, 58, 58, 58], 1: [block, block, -1, -1]})
    assert move_of(rules, pos, 0, 4, 0) is None
    allowed = make(rules, {0: [0, 58, 58, 58], 1: [block, -1, -1, -1]})
    assert move_of(rules, allowed, 0, 4, 0).target == 4
    _kernel_agrees_from(rules, {0: [0, 58, 58, 58], 1: [block, block, -1, -1]}, games=10)


def test_no_piece_ever_lands_on_a_forbidden_block():
    """docs/rules.md section 3: in whole Danish games (no safe squares) a piece goes back to its
    own yard only by landing on a block, which block_landing=forbidden never allows."""
    forbidden = simulate(DANISH_FORBIDDEN, games=200, seed=SEED)
    lander_home = simulate(Rules.preset("danish"), games=200, seed=SEED)
    columns = [f"returned_{s}" for s in range(4)]
    assert forbidden[columns].to_numpy().sum() == 0
    assert lander_home[columns].to_numpy().sum() > 0


# ================================================================ six_limit
def test_second_six_forfeits_with_six_limit_two():
    """docs/rules.md section 2: six_limit=2 forfeits the second 6 in a row as 3 forfeits the
    third: the first 6's move stands."""
    rules = Rules.preset("app").replace(six_limit=2)
    placed = {0: [10, 56, 56, 56]}
    g = turn(rules, placed, dice(rules, 6, 6))
    assert g.pos.progress[0][0] == 16
    assert g.rolls == 2
    _kernel_agrees_from(rules, placed)


def test_sixth_six_forfeits_with_six_limit_six():
    """docs/rules.md section 2: under six_limit=6 five sixes in a row are played, the sixth
    ends the turn with its bonus lost."""
    rules = Rules.preset("italian").replace(six_limit=6)
    g = turn(rules, {0: [10, 56, 56, 56]}, dice(rules, 6, 6, 6, 6, 6, 6))
    assert g.pos.progress[0][0] == 40
    assert g.rolls == 6
    g = turn(rules, {0: [10, 56, 56, 56]}, dice(rules, 6, 6, 6, 6, 6, 1))
    assert g.pos.progress[0][0] == 41
    _kernel_agrees_from(rules, {0: [10, 56, 56, 56]})


@pytest.mark.parametrize("limit", [1, 7, "three"])
def test_six_limit_refuses_other_values(limit):
    """docs/rules.md section 6: six_limit is 0 or 2-6; the error names the allowed values."""
    with pytest.raises(RulesError, match=r"six_limit=.*allowed values: 0, 2, 3, 4, 5, 6"):
        Rules(six_limit=limit)


# ================================================================ start_attempts_when
DANISH_GAME_START = Rules.preset("danish").replace(start_attempts_when="game_start")


def test_three_start_tries_at_the_start_of_the_game():
    """docs/rules.md section 2: with start_attempts_when=game_start a seat that never had a
    piece out of its yard still has its three tries."""
    g = turn(DANISH_GAME_START, {0: [-1, -1, -1, -1]}, dice(DANISH_GAME_START, 1, 2, 5))
    assert g.rolls == 3


def test_one_start_try_once_a_piece_has_entered():
    """docs/rules.md section 2 [choice]: the tries apply until the seat's first piece has
    entered; a seat whose pieces are back in the yard (or in the goal) then rolls once."""
    rules = DANISH_GAME_START
    g = turn(rules, {0: [-1, -1, -1, 56]}, dice(rules, 1))  # a piece in the goal entered once
    assert g.rolls == 1
    g = turn(Rules.preset("danish"), {0: [-1, -1, -1, 56]}, dice(rules, 1, 2, 5))
    assert g.rolls == 3  # the default: three tries whenever nothing is in play
    # Enter with the third try and move the piece on with the 6's bonus roll...
    g = game(rules, {0: [-1, -1, -1, -1]}, [*dice(rules, 1, 2, 6), 0, *dice(rules, 1)])
    g.play_turn(0)
    assert g.pos.progress[0] == [1, -1, -1, -1] and g.rolls == 4
    # ...then, captured back into the yard, the seat has one try left per turn.
    g.pos.put(0, 0, YARD)
    g.stream = ScriptedStream(dice(rules, 2))
    g.play_turn(0)
    assert g.stream.exhausted() and g.rolls == 5
    _kernel_agrees_from(rules, {0: [-1, -1, -1, -1]})
    _kernel_agrees_from(rules, {0: [-1, -1, -1, 56]})


def test_killer_start_tries_at_the_start_of_the_game_only():
    """docs/rules.md section 2: under roll_then_move too the tries become one once a piece
    has entered."""
    rules = Rules.preset("killer").replace(start_attempts_when="game_start")
    g = turn(rules, {0: [-1, -1, -1, 58]}, dice(rules, 3))
    assert g.rolls == 1
    g = turn(rules, {0: [-1, -1, -1, -1]}, dice(rules, 3, 4, 5))
    assert g.rolls == 3
    _kernel_agrees_from(rules, {0: [-1, -1, -1, 58]}, games=10)


# ================================================================ seating
def test_counter_clockwise_seating_plays_in_the_listed_order():
    """docs/rules.md section 1 [choice]: seating lists the arms in turn order; 0,3,2,1 passes the
    turn counter-clockwise: seat 1 sits on arm 3 and plays right after seat 0."""
    rules = Rules.preset("danish").replace(seating="0,3,2,1", first_player="seat0", max_turns=100)
    board = Board.from_rules(rules)
    assert [board.start_square(s) for s in range(4)] == [0, 39, 26, 13]
    g = Game(rules, SEED, 0, record=True)
    g.play()
    order = [int(line.split()[-1]) for line in g.transcript if line.startswith("turn ")]
    assert order[:8] == [0, 1, 2, 3, 0, 1, 2, 3]
    # Seat 1 enters on arm 3's start square, the square before seat 0's arm.
    g = turn(rules, {0: [2, 56, 56, 56]}, [*dice(rules, 6), 0, *dice(rules, 1)], seat=1)
    assert g.pos.progress[1][0] == 1 and board.square(1, 1) == 40
    with pytest.raises(RulesError, match="seating/sides"):
        rules.replace(seating="0,3,3,1")
    for seating, sides in (("0,3,2,1", 4), ("2,0,1", 4), ("4,2,0", 6), ("5,0,3,1,2", 6)):
        players = len(seating.split(","))
        rules = Rules.preset("danish").replace(sides=sides, players=players, seating=seating)
        _kernel_agrees_from(rules, {}, games=40)
