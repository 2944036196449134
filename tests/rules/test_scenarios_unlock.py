"""Capture before home (`home_unlock = capture`): a seat's home column opens only after
its first capture, and a locked piece laps on past its entry.

docs/rules.md section 2 ("Capture before home"): each reading pinned in both engines
on hand-built positions, the refusals named, and whole games played alike by the
kernel and the reference engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenario_helpers import dice, kernel_targets, make, reference_targets, turn
from test_kernel_agreement import VERIFY, assert_same_games

from ludosim.reference.game import play_game
from ludosim.reference.moves import legal_moves, play_move
from ludosim.reference.position import Position
from ludosim.rules.board import YARD, Board
from ludosim.rules.errors import RulesError, ScenarioError
from ludosim.rules.model import Rules
from ludosim.run.notation import PositionError, format_position, parse_position
from ludosim.run.simulate import kernel_game, simulate

Y = YARD
# The seeds' 52-square board: entry 50, so one lap square (51) lies between a seat's
# entry and its start square; a lapping piece there has the code goal + 1 = 57.
LOCKED = Rules.preset("king").replace(players=2, home_unlock="capture")
BOARD = Board.from_rules(LOCKED)
TAIL = LOCKED.goal + 1


def _targets(rules: Rules, placed: dict[int, list[int]], seat: int, face: int) -> dict:
    """The landing of every legal move, the same in both engines."""
    ref = reference_targets(rules, placed, seat, face)
    assert kernel_targets(rules, placed, seat, face) == ref
    return ref


def test_the_board_numbers_the_lap_square_after_the_goal() -> None:
    """The lap square between entry and start has one code, on the seat's own track."""
    assert (LOCKED.entry, LOCKED.goal, BOARD.tail) == (50, 56, 1)
    assert BOARD.square(0, TAIL) == (BOARD.start_square(0) - 1) % BOARD.track_len
    assert BOARD.travelled(TAIL) == 51 and BOARD.lap_code(52) == 0
    # Without the rule, or on a board whose entry is the lap's last square, there is none.
    assert Board.from_rules(LOCKED.replace(home_unlock="none")).tail == 0
    maedn = Board.from_rules(Rules.preset("maedn").replace(home_unlock="capture"))
    assert maedn.tail == 0 and maedn.lap_code(40) == 0


def test_a_locked_piece_laps_on_past_its_entry() -> None:
    """From 48 a 3 reaches 51 (the lap square), a 4 the start square, a 6 progress 2;
    none turns into the home column."""
    assert _targets(LOCKED, {0: [48, Y, Y, Y]}, 0, 3) == {0: TAIL}
    assert _targets(LOCKED, {0: [48, Y, Y, Y]}, 0, 4) == {0: 0}
    assert _targets(LOCKED, {0: [48, Y, Y, Y]}, 0, 6)[0] == 2  # (the others may enter)
    # Up to its entry it moves as always.
    assert _targets(LOCKED, {0: [48, Y, Y, Y]}, 0, 2) == {0: 50}


def test_an_open_home_column_takes_the_piece_in() -> None:
    """The same piece of a seat that has captured turns in as without the rule."""
    pos = make(LOCKED, {0: [48, Y, Y, Y]})
    pos.unlocked[0] = True
    assert [m.target for m in legal_moves(LOCKED, pos, 0, 5)] == [53]


def test_a_lapping_piece_goes_round_again_even_once_unlocked() -> None:
    """A piece on the lap square has passed its entry: it reaches the column only
    on its next lap, whether or not its seat has captured since."""
    assert _targets(LOCKED, {0: [TAIL, Y, Y, Y]}, 0, 1) == {0: 0}
    pos = make(LOCKED, {0: [TAIL, Y, Y, Y]})
    pos.unlocked[0] = True
    assert [m.target for m in legal_moves(LOCKED, pos, 0, 5)] == [4]


def test_the_first_capture_opens_the_column_and_being_captured_does_not() -> None:
    """Seat 0 captures seat 1's piece (seat 1 sits 26 squares on: its 4 is seat 0's 30):
    seat 0 is unlocked, seat 1, captured, stays locked."""
    pos = make(LOCKED, {0: [27, Y, Y, Y], 1: [4, Y, Y, Y]})
    (move,) = legal_moves(LOCKED, pos, 0, 3)
    assert play_move(LOCKED, pos, move).captures == 1
    assert pos.unlocked == [True, False]


def test_a_capture_opens_the_column_for_the_rest_of_the_turn() -> None:
    """Seat 0 rolls 3 from 47 and captures on 50 (seat 1's 24), which earns a bonus roll
    under `bonus_on_capture`; its 5 then takes the same piece into the column at 55."""
    game = turn(LOCKED, {0: [47, Y, Y, Y], 1: [24, Y, Y, Y]}, dice(LOCKED, 3, 5))
    assert game.pos.progress == [[55, Y, Y, Y], [Y, Y, Y, Y]]
    assert game.pos.unlocked == [True, False]


def test_a_locked_piece_counts_as_in_play_and_not_home() -> None:
    """With its only piece lapping a seat gets one roll, not three tries; a seat whose
    pieces stand on the lap square has not finished, even with `finish_in_home`."""
    rules = LOCKED.replace(start_attempts=3)
    pos = make(rules, {0: [TAIL, Y, Y, Y]})
    assert pos.in_play(0)
    full = make(LOCKED.replace(win_pieces=1), {0: [TAIL, Y, Y, Y]})
    assert not full.finished(0)


def test_a_lapping_piece_is_barred_and_captures_as_any_track_piece() -> None:
    """Under the app's rules (no passing opponents) an opponent on the lap square bars
    a locked piece from passing it; landing on a lone opponent there captures it."""
    rules = Rules.preset("app").replace(players=2, home_unlock="capture")
    square = BOARD.square(0, TAIL)
    theirs = (square - BOARD.start_square(1)) % BOARD.track_len  # seat 1's progress there
    assert _targets(rules, {0: [49, Y, Y, Y], 1: [theirs, Y, Y, Y]}, 0, 4) == {}
    pos = make(rules, {0: [49, Y, Y, Y], 1: [theirs, Y, Y, Y]})
    (move,) = legal_moves(rules, pos, 0, 2)
    assert move.target == TAIL and play_move(rules, pos, move).captures == 1
    assert pos.unlocked[0]


def test_a_position_may_hold_lapping_pieces_only_under_the_rule() -> None:
    Position.from_progress(LOCKED, [[TAIL, Y, Y, Y], [Y, Y, Y, Y]])
    with pytest.raises(ScenarioError, match="57"):
        Position.from_progress(LOCKED.replace(home_unlock="none"), [[TAIL, Y, Y, Y], [Y] * 4])


def test_the_notation_writes_a_lapping_piece_as_l() -> None:
    text = "1:L1,30,Y,Y/Y,49,H2,Y"
    position = parse_position(text, LOCKED)
    assert position.progress[0][0] == TAIL
    assert format_position(LOCKED, position.progress, 1) == text
    with pytest.raises(PositionError, match=r"L1\.\.L1"):
        parse_position("1:L2,30,Y,Y/Y,49,H2,Y", LOCKED)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": 1}, "home_unlock/players"),
        ({"scoring": "steps"}, "home_unlock/scoring"),
    ],
)
def test_combinations_the_engines_do_not_define_are_refused(change: dict, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        LOCKED.replace(**change)


def test_locked_games_last_longer() -> None:
    """Pieces lap on until their seat captures: two-player king games take more turns
    (200 games each, the same seeds; the difference is many times its spread)."""
    base = simulate(LOCKED.replace(home_unlock="none"), games=200, seed=3)["turns"]
    locked = simulate(LOCKED, games=200, seed=3)["turns"]
    spread = np.sqrt(base.var() / 200 + locked.var() / 200)
    assert locked.mean() - base.mean() > 5 * spread


def test_a_game_from_a_lapping_position_is_the_same_in_both_engines() -> None:
    start = [[TAIL, 30, Y, Y], [TAIL, 49, 50, Y]]
    row, final = kernel_game(LOCKED, 5, 0, start=np.array(start), start_seat=1)
    ref = play_game(LOCKED, 5, 0, start=Position.from_progress(LOCKED, start),
                    start_seat=1, record=False)  # fmt: skip
    assert row == ref.row() and final == ref.final


GAMES = 400 if VERIFY else 60
LOOKAHEAD = "weights:progress=1,capture=3,danger=-2,chance=2"


@pytest.mark.parametrize("preset", ["king", "danish", "app", "maedn", "italian"])
@pytest.mark.parametrize("policies", ["random", ["aggressive", LOOKAHEAD, "runner", "skipper:0.5"]])
def test_kernel_agrees_with_reference_under_capture_before_home(preset, policies) -> None:
    """Whole games, game for game, with the game-flow columns."""
    rules = Rules.preset(preset).replace(home_unlock="capture")
    if preset == "danish":
        rules = rules.replace(forced_capture=True, finish="bounce_on")  # the puster too
    assert_same_games(rules, range(GAMES), f"{preset} home_unlock", policies, flow=True)
