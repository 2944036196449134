"""Points formats: a point per square advanced (`scoring = steps`, `home_bonus`) and a
fixed number of turns per seat (`move_limit`).

docs/rules.md section 2 ("Points formats"): each reading pinned in both engines, the
refusals named, and whole games played alike by the kernel and the reference engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from test_kernel_agreement import VERIFY, assert_same_games

from ludosim.reference.exact import solve
from ludosim.reference.game import Game, play_game
from ludosim.reference.moves import legal_moves, play_move
from ludosim.reference.position import Position
from ludosim.rules.board import YARD
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules
from ludosim.run.simulate import kernel_game, simulate

Y = YARD
# Two players, every piece out, 20 turns each: the shape of two-player online points games.
POINTS = Rules.preset("king").replace(players=2, start_out=4, scoring="steps", move_limit=20)


def _points(rules: Rules, progress: list[list[int]]) -> list[int]:
    """Points of every seat standing at `progress` (`Game.points`), after checking that
    the kernel scores a game from there as the reference does (one turn each, then the
    move limit ends it by points)."""
    ended = rules.replace(move_limit=1)
    row, _ = kernel_game(ended, 1, 0, start=np.array(progress), start_seat=0)
    again = play_game(ended, 1, 0, start=Position.from_progress(ended, progress),
                      start_seat=0, record=False)  # fmt: skip
    assert row == again.row()
    game = Game(rules, seed=1, game=0, start=Position.from_progress(rules, progress))
    return [game.points(s, -1) for s in range(rules.players)]


def test_a_piece_scores_the_squares_it_has_advanced() -> None:
    """0 in the yard and on its start square, its progress on the track and in the home
    column; in the goal its progress and the home bonus."""
    rules = Rules.preset("app").replace(players=2, scoring="steps", home_bonus=25)
    goal = rules.goal
    assert _points(rules, [[Y, 0, 10, 51], [goal, goal, Y, Y]]) == [61, 2 * (goal + 25)]
    assert _points(rules.replace(home_bonus=0), [[goal, Y, Y, Y], [3, Y, Y, Y]]) == [goal, 3]


def test_a_captured_piece_loses_its_squares() -> None:
    """Seat 0 on 30 squares captures seat 1's piece 40 squares from its start: seat 1
    falls from 40 points to 0, seat 0 gains only the squares it moved."""
    rules = POINTS.replace(start_out=0)
    # Seat 1 sits on arm 2 (26 squares on): its progress 4 is seat 0's progress 30.
    pos = Position.from_progress(rules, [[27, Y, Y, Y], [4, Y, Y, Y]])
    game = Game(rules, seed=1, game=0, start=pos)
    before = [game.points(s, -1) for s in range(2)]
    (move,) = legal_moves(rules, game.pos, 0, 3)
    assert play_move(rules, game.pos, move).captures == 1
    assert before == [27, 4]
    assert [game.points(s, -1) for s in range(2)] == [30, 0]


def test_the_game_ends_when_every_seat_has_played_its_turns() -> None:
    """Not truncated: each of the two seats played 20 turns, and seats are placed by
    points, in both engines."""
    for game in range(20):
        result = play_game(POINTS, seed=5, game=game, record=False)
        row, _ = kernel_game(POINTS, 5, game)
        assert result.row() == row
        assert not result.truncated and result.end_turns <= 40
        points = result.points
        if result.end_turns == 40:
            assert result.places == [1 + sum(q > p for q in points) for p in points]


def test_equal_points_share_a_place_and_leave_no_winner() -> None:
    """Ties recorded as ties: the same place for both, winner -1, not truncated."""
    rows = simulate(POINTS.replace(move_limit=3), games=4000, seed=2)
    tied = rows[rows["points_0"] == rows["points_1"]]
    assert len(tied) > 0  # three turns each from the same start: ties happen
    assert (tied["winner"] == -1).all() and not tied["truncated"].any()
    assert (tied["place_0"] == 1).all() and (tied["place_1"] == 1).all()
    decided = rows[rows["points_0"] != rows["points_1"]]
    top = np.where(decided["points_0"] > decided["points_1"], 0, 1)
    assert (decided["winner"].to_numpy() == top).all()


def test_a_finish_ends_a_game_with_a_move_limit_even_when_play_goes_on() -> None:
    """Under a move limit the first seat to finish ends the game, play_to_end or not: the
    same games, rows and final positions (no pieces taken off the board) either way."""
    rules = Rules.preset("app").replace(
        players=2, scoring="steps", move_limit=100, max_turns=400, win_pieces=1
    )
    assert rules.play_to_end
    on = simulate(rules, games=200, seed=3)
    off = simulate(rules.replace(play_to_end=False), games=200, seed=3)
    assert on.equals(off)
    finished = on[on["winner"] >= 0]
    assert len(finished) > 0 and (finished["end_turns"] < 200).any()
    for game in range(5):
        result = play_game(rules, seed=3, game=game, record=False)
        unchanged = play_game(rules.replace(play_to_end=False), seed=3, game=game, record=False)
        assert result.final == unchanged.final


@pytest.mark.parametrize(
    ("changes", "field"),
    [
        ({"move_limit": 10}, "move_limit/scoring"),
        ({"home_bonus": 5}, "home_bonus/scoring"),
        ({"scoring": "steps", "move_limit": 6_000}, "move_limit/max_turns"),
    ],
)
def test_points_settings_without_their_format_are_refused(changes: dict, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        Rules.preset("app").replace(**changes)


def test_the_exact_solver_refuses_a_move_limit() -> None:
    with pytest.raises(RulesError, match="move_limit"):
        solve(Rules.preset("app").replace(players=1, scoring="steps", move_limit=10), pieces=1)


def test_an_expert_plays_a_points_game() -> None:
    """The expert's rollouts end at the move limit and count points: its games run and
    are scored as the game scores them."""
    rows = simulate(POINTS, games=4, seed=1, policies=["expert:2:4", "random"])
    assert (rows["end_turns"] <= 40).all() and not rows["truncated"].any()
    assert set(rows["winner"]) <= {-1, 0, 1}


def _kernel_points_after(rules: Rules, rows: list[list[int]], piece: int, face: int) -> list:
    """The kernel plays seat 0's move of `piece` for `face` from `rows`: every seat's points."""
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.moves import apply_move
    from ludosim.engine.moves import legal_moves as kernel_legal_moves
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.position import reset_state, seat_points
    from ludosim.engine.state import (
        DUMMY,
        NO,
        M,
        move_at,
    )
    from ludosim.rules.policies import parse_policy

    lay = compile_layout(rules)
    w = new_work(compile_policies([parse_policy("random")] * rules.players), np.array(rows))
    reset_state(lay, w, True)
    for j in range(kernel_legal_moves(lay, w, 0, face)):
        if w[move_at(j, M.PIECE)] == piece:
            target, flags = w[move_at(j, M.TARGET)], w[move_at(j, M.FLAGS)]
            apply_move(lay, w, 0, piece, target, flags, DUMMY, NO)
    return [int(seat_points(lay, w, s, -1)) for s in range(rules.players)]


def test_a_lapping_piece_keeps_its_squares_and_loses_them_all_when_captured() -> None:
    """Capture before home with points per square [choice]: a locked piece going on past
    its start square keeps counting the squares it advanced (48 + 6 = 54 points standing
    on progress 2 of a new lap); captured, it loses them all, its laps included."""
    rules = POINTS.replace(start_out=0, home_unlock="capture")
    rows = [[48, Y, Y, Y], [Y, Y, Y, Y]]
    game = Game(rules, seed=1, game=0, start=Position.from_progress(rules, rows))
    (move,) = [m for m in legal_moves(rules, game.pos, 0, 6) if m.piece == 0]
    play_move(rules, game.pos, move)
    assert game.pos.progress[0][0] == 2 and game.pos.laps[0][0] == 1
    assert [game.points(s, -1) for s in range(2)] == [54, 0]
    assert _kernel_points_after(rules, rows, 0, 6) == [54, 0]
    # Seat 1's piece on seat 0's progress 2 (its 28) captures it with a 2 from 26.
    game.pos.put(1, 0, 26)
    (move,) = legal_moves(rules, game.pos, 1, 2)
    assert play_move(rules, game.pos, move).captures == 1
    assert [game.points(s, -1) for s in range(2)] == [0, 28]
    assert game.pos.laps[0][0] == 0


VARIANTS = {
    "two-player-points": ("king", {"players": 2, "start_out": 4, "scoring": "steps",
                                   "move_limit": 25, "home_bonus": 50}),
    "four-player-points": ("app", {"scoring": "steps", "move_limit": 30}),
    "steps-to-the-end": ("danish", {"scoring": "steps"}),
    "killer-points": ("killer", {"scoring": "steps", "move_limit": 20}),
    "quick-win-points": ("italian", {"scoring": "steps", "move_limit": 60, "win_pieces": 1}),
    "capture-before-home-points": ("king", {"players": 2, "scoring": "steps", "move_limit": 60,
                                            "home_unlock": "capture"}),
    "killer-lapping-points": ("killer", {"scoring": "steps", "home_unlock": "capture"}),
}  # fmt: skip


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_kernel_agrees_with_reference_on_points_formats(variant: str) -> None:
    preset, changes = VARIANTS[variant]
    rules = Rules.preset(preset).replace(**changes)
    games = 400 if VERIFY else (20 if preset == "killer" else 60)
    assert_same_games(rules, range(games), variant)
    mixed = ["aggressive", "random", "balanced", "defensive"][: rules.players]
    assert_same_games(rules, range(games // 4), f"{variant}, {mixed}", mixed)
