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

from ludosim.engine import compile_layout, new_work
from ludosim.engine.layout import face_code
from ludosim.engine.moves import apply_move
from ludosim.engine.moves import legal_moves as kernel_legal_moves
from ludosim.engine.policy import compile_policies
from ludosim.engine.position import reset_state
from ludosim.engine.state import (
    DUMMY,
    NO,
    SB,
    M,
    move_at,
    progress_at,
    seat_list_at,
)
from ludosim.reference.game import play_game
from ludosim.reference.moves import legal_moves, play_move, try_move
from ludosim.reference.position import Position
from ludosim.rules.board import YARD, Board
from ludosim.rules.errors import RulesError, ScenarioError
from ludosim.rules.model import GLOBE, STAR, Rules
from ludosim.rules.policies import parse_policy
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


def _kernel_after(rules: Rules, rows: list[list[int]], open_: bool, face, piece: int) -> tuple:
    """The kernel plays seat 0's move of `piece` for `face` (seat 0 unlocked when `open_`):
    (rows after it, seat 0 unlocked), or None when the piece has no move."""
    lay = compile_layout(rules)
    w = new_work(compile_policies([parse_policy("random")] * rules.players), np.array(rows))
    reset_state(lay, w, True)
    w[seat_list_at(SB.UNLOCKED, 0)] = open_
    for j in range(kernel_legal_moves(lay, w, 0, face_code(face))):
        if w[move_at(j, M.PIECE)] == piece:
            target, flags = w[move_at(j, M.TARGET)], w[move_at(j, M.FLAGS)]
            apply_move(lay, w, 0, piece, target, flags, DUMMY, NO)
            after = [
                [int(w[progress_at(s, i)]) for i in range(rules.pieces)]
                for s in range(rules.players)
            ]
            return after, bool(w[seat_list_at(SB.UNLOCKED, 0)])
    return None


def _played(rules: Rules, placed: dict[int, list[int]], face, piece: int = 0, open_=False):
    """Seat 0's piece `piece` plays `face` (seat 0 unlocked when `open_`), the same in both
    engines: (rows after the move, star jump included, seat 0 unlocked), or None."""
    pos = make(rules, placed)
    pos.unlocked[0] = open_
    move = next((m for m in legal_moves(rules, pos, 0, face) if m.piece == piece), None)
    ref = None
    if move is not None:
        child, _ = try_move(rules, pos, move)
        ref = (child.progress, child.unlocked[0])
    assert _kernel_after(rules, pos.progress, open_, face, piece) == ref
    return ref


# The Danish board (stars at offsets 4 and 11, globes at 0 and 8; entry 50) with two
# seats on arms 0 and 2: seat 0's last star before its column is progress 50.
STARS = Rules.preset("danish").replace(players=2, home_unlock="capture", star_jump="goal")
GLOBES = Rules.preset("danish-globe").replace(players=2, home_unlock="capture")


def test_a_locked_piece_on_the_last_star_jumps_round_not_into_the_goal() -> None:
    """From 46 a 4 ends on the star at 50: a locked piece jumps on to the next star ahead,
    past its start square (progress 4 of a new lap); an unlocked one into the goal."""
    assert _played(STARS, {0: [46, Y, Y, Y]}, 4) == ([[4, Y, Y, Y], [Y] * 4], False)
    opened = _played(STARS, {0: [46, Y, Y, Y]}, 4, open_=True)
    assert opened == ([[STARS.goal, Y, Y, Y], [Y] * 4], True)
    # Before the last star it jumps as any piece (43 to 50).
    assert _played(STARS, {0: [39, Y, Y, Y]}, 4)[0][0][0] == 50


def test_a_capture_on_the_first_star_opens_the_column_before_the_jump() -> None:
    """Seat 1's lone piece on the star at seat 0's 50 (seat 1's 24) is captured by the
    landing; the seat is unlocked at once, so the jump goes into the goal."""
    after = _played(STARS, {0: [46, Y, Y, Y], 1: [24, Y, Y, Y]}, 4)
    assert after == ([[STARS.goal, Y, Y, Y], [Y] * 4], True)


def test_a_locked_piece_jumps_to_a_star_past_an_early_entry() -> None:
    """With entry 49 the star at 50 lies past the entry (the lap code goal + 1): under
    `next_lap` a locked piece jumps there from 43; an unlocked one has no jump [choice
    of `next_lap`], and stays on 43."""
    rules = STARS.replace(entry=49, star_jump="next_lap")
    assert _played(rules, {0: [40, Y, Y, Y]}, 3)[0][0][0] == rules.goal + 1
    assert _played(rules, {0: [40, Y, Y, Y]}, 3, open_=True)[0][0][0] == 43


def test_a_locked_piece_finds_its_globe_round_the_track() -> None:
    """From 48 the next globe lies past the entry: its own start square, four squares on.
    A locked piece goes there (a new lap), also from the lap square (the code goal + 1);
    an unlocked one has no globe before its column and cannot use the roll."""
    pieces = [48, 20, 30, 5]  # no piece in the yard: the globe enters none
    assert _played(GLOBES, {0: pieces}, GLOBE)[0][0] == [0, 20, 30, 5]
    assert _played(GLOBES, {0: [GLOBES.goal + 1, 20, 30, 5]}, GLOBE)[0][0][0] == 0
    assert _played(GLOBES, {0: pieces}, GLOBE, open_=True) is None
    # Before the entry nothing changes: from 40 the globe at 47.
    assert _played(GLOBES, {0: [40, 20, 30, 5]}, GLOBE)[0][0][0] == 47


def test_a_locked_piece_finds_its_star_round_the_track() -> None:
    """With stars at offsets 4 and 12 the star at 51 lies past the entry (the lap code
    goal + 1): a locked piece on 49 reaches it with the star face, an unlocked one cannot
    use the face; a globe between still forbids the move (from 51 the start globe)."""
    rules = GLOBES.replace(star_offsets=(4, 12))
    pieces = [49, 20, 30, 5]
    assert _played(rules, {0: pieces}, STAR)[0][0][0] == rules.goal + 1
    assert _played(rules, {0: pieces}, STAR, open_=True) is None
    assert _played(rules, {0: [rules.goal + 1, 20, 30, 5]}, STAR) is None


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
    ("rules", "text"),
    [
        (STARS, "0:L1,30,Y,Y/Y,49,H2,Y"),
        (
            GLOBES.replace(players=4, entry=49, star_jump="next_lap", scoring="steps"),
            "0:L2,L1,Y,Y/Y,49,H2,Y/Y,Y,Y,Y/3,Y,Y,G",
        ),
        (
            Rules.preset("killer").replace(home_unlock="capture"),
            "0:52,30,Y,Y/Y,49,H2,Y/Y,Y,Y,Y/3,Y,Y,G",
        ),
    ],
)
def test_the_notation_round_trips_under_jumps_dice_plans_and_points(rules, text) -> None:
    """Lapping pieces are written `L1`, ... under every combination the engines now play
    (none on Killer's board, whose entry is the lap's last square); laps begun are not
    written: a game played on from a position counts them from there."""
    position = parse_position(text, rules)
    assert format_position(rules, position.progress, 0) == text


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"players": 1}, "home_unlock/players"),
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
# Games with the look-ahead seat among the policies (the reference works it out in
# Python, a few times slower): the everyday suite plays fewer.
MIXED_GAMES = 400 if VERIFY else 20
LOOKAHEAD = "weights:progress=1,capture=3,danger=-2,chance=2"


def games_for(policies: str | list[str]) -> int:
    """The games of each check: `GAMES` of random seats, `MIXED_GAMES` with the mix."""
    return GAMES if policies == "random" else MIXED_GAMES


@pytest.mark.parametrize("preset", ["king", "danish", "app", "maedn", "italian"])
@pytest.mark.parametrize("policies", ["random", ["aggressive", LOOKAHEAD, "runner", "skipper:0.5"]])
def test_kernel_agrees_with_reference_under_capture_before_home(preset, policies) -> None:
    """Whole games, game for game, with the game-flow columns."""
    rules = Rules.preset(preset).replace(home_unlock="capture")
    if preset == "danish":
        rules = rules.replace(forced_capture=True, finish="bounce_on")  # the puster too
    assert_same_games(rules, range(games_for(policies)), f"{preset} home_unlock", policies,
                      flow=True)  # fmt: skip


# Capture before home with the rules that move a piece other than square by square:
# star jumps (into the goal, or a next lap, also with forbidden blocks), the
# star-and-globe die and Killer's plans (with the puster).
LOCK_COMBOS = {
    "star-goal": ("danish", {"star_jump": "goal"}, 1),
    "star-next-lap-early-entry": ("danish", {"star_jump": "next_lap", "entry": 49}, 1),
    "star-globe-die": ("danish-globe", {}, 1),
    "star-globe-die-jumps": (
        "danish-globe",
        {"star_jump": "goal", "block_landing": "forbidden"},
        1,
    ),
    "killer": ("killer", {}, 4),
}


@pytest.mark.parametrize("combo", sorted(LOCK_COMBOS))
@pytest.mark.parametrize("policies", ["random", ["aggressive", LOOKAHEAD, "runner", "skipper:0.5"]])
def test_kernel_agrees_on_capture_before_home_with_jumps_dice_and_plans(combo, policies) -> None:
    preset, changes, share = LOCK_COMBOS[combo]
    rules = Rules.preset(preset).replace(home_unlock="capture", **changes)
    games = range(max(games_for(policies) // share, 5))
    assert_same_games(rules, games, f"{combo} home_unlock", policies, flow=True)
