"""Pieces that begin on the board (`start_out`), other entering faces (`enter_faces`)
and quick wins (`win_pieces`).

docs/rules.md section 2 ("Pieces out at the start", "Entering faces", "Quick wins"):
each reading pinned on a hand-built position in both engines, the refusals named,
and whole games played alike by the kernel and the reference engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenario_helpers import kernel_targets, reference_targets
from test_kernel_agreement import VERIFY, assert_same_games

from ludosim.engine import compile_layout, new_work
from ludosim.engine.policy import compile_policies
from ludosim.engine.position import finished as kernel_finished
from ludosim.engine.position import reset_state
from ludosim.engine.state import progress_at
from ludosim.reference.game import Game, play_game
from ludosim.reference.position import Position
from ludosim.rules.board import YARD, Board
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules
from ludosim.rules.policies import parse_policy

Y = YARD


def _work(rules: Rules, start: np.ndarray | None) -> tuple[np.ndarray, np.ndarray]:
    lay = compile_layout(rules)
    policies = compile_policies([parse_policy("random")] * rules.players)
    w = new_work(policies, start)
    reset_state(lay, w, start is not None)
    return lay, w


def _opening(rules: Rules) -> list[list[int]]:
    """The opening position in both engines (which must agree)."""
    ref = Position.start(rules, Board.from_rules(rules)).progress
    _, w = _work(rules, None)
    kernel = [
        [int(w[progress_at(s, i)]) for i in range(rules.pieces)] for s in range(rules.players)
    ]
    assert kernel == ref
    return ref


def _finished(rules: Rules, progress: list[list[int]], seat: int = 0) -> bool:
    """Whether `seat` has finished, in both engines (which must agree)."""
    ref = Position.from_progress(rules, progress).finished(seat)
    lay, w = _work(rules, np.array(progress))
    assert bool(kernel_finished(lay, w, seat)) == ref
    return ref


# ------------------------------------------------------------------- start_out
def test_start_out_pieces_begin_on_their_start_square() -> None:
    app = Rules.preset("app")
    assert _opening(app) == [[Y, Y, Y, Y]] * 4
    assert _opening(app.replace(start_out=1)) == [[0, Y, Y, Y]] * 4
    assert _opening(app.replace(start_out=2, players=2)) == [[0, 0, Y, Y]] * 2
    assert _opening(Rules.preset("danish").replace(start_out=4)) == [[0, 0, 0, 0]] * 4


def test_start_out_pieces_are_in_play_so_the_three_tries_do_not_apply() -> None:
    """With a piece out, the first turn is one roll, whatever start_attempts says: the
    transcript of every seat's first turn shows no start try."""
    rules = Rules.preset("danish").replace(start_out=1)
    game = play_game(rules, seed=3, game=0, record=True)
    assert not any("start try" in line for line in game.transcript[:40])
    yard = play_game(Rules.preset("danish"), seed=3, game=0, record=True)
    assert any("start try" in line for line in yard.transcript[:40])


def test_start_out_counts_as_entered_for_the_game_start_tries() -> None:
    rules = Rules.preset("app").replace(
        start_out=1, start_attempts=3, start_attempts_when="game_start"
    )
    game = Game(rules, seed=1, game=0)
    assert game.entered == [True] * 4
    assert [game.start_attempts(s) for s in range(4)] == [1] * 4


@pytest.mark.parametrize(
    ("changes", "fields"),
    [
        ({"start_out": 3}, "start_out/start_capacity"),  # app's start square holds 2
        ({"start_out": 2, "pieces": 1}, "start_out/pieces"),
        ({"win_pieces": 3, "pieces": 2}, "win_pieces/pieces"),
    ],
)
def test_start_out_and_win_pieces_beyond_the_pieces_are_refused(changes: dict, fields: str) -> None:
    with pytest.raises(RulesError, match=f"^{fields}: .*allowed|^{fields}: .*use"):
        Rules.preset("app").replace(**changes)


def test_start_out_above_one_needs_pieces_to_share_the_start_square() -> None:
    with pytest.raises(RulesError, match="start_out/land_on_own: "):
        Rules.preset("maedn").replace(start_out=2)
    assert Rules.preset("maedn").replace(start_out=1).start_out == 1


# ----------------------------------------------------------------- enter_faces
def _both(rules: Rules, placed: dict[int, list[int]], face: int, seat: int = 0) -> dict:
    """{piece: landing} of the legal moves; both engines must list the same."""
    ref = reference_targets(rules, placed, seat, face)
    assert kernel_targets(rules, placed, seat, face) == ref
    return ref


def test_every_entering_face_brings_a_piece_out_and_keeps_its_own_move() -> None:
    """Fia med knuff's 1 and 6: a 1 enters or moves a piece one square; a 5 never enters."""
    fia = Rules.preset("danish").replace(enter_faces=(1, 6))
    placed = {0: [20, Y, Y, Y]}
    assert _both(Rules.preset("danish"), placed, 1) == {0: 21}
    assert _both(fia, placed, 1) == {0: 21, 1: 0, 2: 0, 3: 0}
    assert _both(fia, placed, 6) == {0: 26, 1: 0, 2: 0, 3: 0}
    assert _both(fia, placed, 5) == {0: 25}
    five = Rules.preset("danish").replace(enter_faces=(5,))  # a Parchis-like 5 only
    assert _both(five, placed, 5) == {0: 25, 1: 0, 2: 0, 3: 0}
    assert _both(five, placed, 6) == {0: 26}


def test_must_enter_holds_for_every_entering_face() -> None:
    rules = Rules.preset("maedn").replace(enter_faces=(1, 6), start_out=0)
    assert _both(rules, {0: [20, Y, Y, Y]}, 1) == {1: 0, 2: 0, 3: 0}


def test_the_start_tries_end_on_any_entering_face() -> None:
    """Three tries with every piece in the yard: a 1 ends them under enter_faces = 1,6
    and its move is played (docs/rules.md section 2)."""
    rules = Rules.preset("danish").replace(enter_faces=(1, 6), players=2)
    ones = 0
    for g in range(40):
        game = Game(rules, seed=11, game=g)
        face, _ = game.start_tries(0)
        assert face in (1, 6, None)
        ones += face == 1
    assert ones > 0


def test_an_entering_one_earns_no_bonus_roll() -> None:
    game = Game(Rules.preset("danish").replace(enter_faces=(1, 6)), seed=1)
    assert game.face_bonus(1, entered=True) == 0
    assert game.face_bonus(6, entered=True) == 1


def test_entering_faces_must_be_faces_of_the_die() -> None:
    with pytest.raises(RulesError, match=r"^enter_faces/die_faces: .*allowed values"):
        Rules.preset("danish").replace(enter_faces=("globe",))
    with pytest.raises(RulesError, match=r"^enter_faces/die_faces: "):
        Rules.preset("danish-globe").replace(enter_faces=(5,))  # no 5 on that die
    assert Rules.preset("danish-globe").replace(enter_faces=("globe", 1)).entering_faces == (
        1,
        "globe",
    )


# ------------------------------------------------------------------ win_pieces
def test_win_pieces_a_seat_finishes_with_that_many_pieces_home() -> None:
    danish = Rules.preset("danish")
    goal = danish.goal
    two = danish.replace(win_pieces=2)
    assert not _finished(danish, [[goal, goal, 30, Y]] + [[Y] * 4] * 3)
    assert _finished(two, [[goal, goal, 30, Y]] + [[Y] * 4] * 3)
    assert not _finished(two, [[goal, 52, 30, Y]] + [[Y] * 4] * 3)  # 52: home column
    assert _finished(danish.replace(win_pieces=4), [[goal] * 4] + [[Y] * 4] * 3)


def test_win_pieces_with_finish_in_home_counts_pieces_in_the_home_column() -> None:
    maedn = Rules.preset("maedn").replace(win_pieces=2)  # home squares 40-42, goal 43
    assert _finished(maedn, [[40, 42, 10, Y]] + [[Y] * 4] * 3)
    assert not _finished(maedn, [[40, 39, 10, Y]] + [[Y] * 4] * 3)


def test_first_piece_home_wins_and_ends_the_game() -> None:
    """win_pieces = 1 (the game ends with its winner): the winner has exactly one piece in
    the goal, nobody else has one."""
    rules = Rules.preset("app").replace(win_pieces=1, play_to_end=False)
    for g in range(30):
        game = play_game(rules, seed=5, game=g, record=False)
        winner = game.winner
        homes = [sum(p == rules.goal for p in row) for row in game.final]
        assert homes[winner] == 1, (g, game.final)
        assert all(h == 0 for s, h in enumerate(homes) if s != winner), (g, game.final)


def test_a_finished_seat_takes_its_track_pieces_off_the_board() -> None:
    """With play_to_end, after a seat finishes its pieces on the track leave the board and
    never meet the seats playing on; its home column stays as it was (checked every turn)."""
    rules = Rules.preset("danish").replace(win_pieces=2, play_to_end=True)
    board = Board.from_rules(rules)
    seen = 0

    def after_turn(game: Game, seat: int) -> None:
        nonlocal seen
        for done in game.finish_order:
            assert not any(board.on_track(p) for p in game.pos.progress[done])
            seen += 1

    for g in range(20):
        Game(rules, seed=9, game=g, record=False).play(after_turn=after_turn)
    assert seen > 0  # some seat finished while others played on


# ------------------------------------------------------------------ the preset
def test_maedn_2006_is_maedn_with_one_piece_out_and_one_throw() -> None:
    """docs/rules.md section 6: the 2006 leaflet starts one piece of each player on its
    start square and gives one throw a turn; everything else is `maedn`."""
    leaflet = Rules.preset("maedn-2006")
    assert leaflet == Rules.preset("maedn").replace(start_out=1, start_attempts=1)
    assert _opening(leaflet) == [[0, Y, Y, Y]] * 4


# ---------------------------------------------------------------- whole games
VARIANTS = {
    "app-one-out": ("app", {"start_out": 1}),
    "app-two-out-first-home-wins": ("app", {"start_out": 2, "win_pieces": 1}),
    "danish-two-home-play-on": ("danish", {"win_pieces": 2, "play_to_end": True}),
    "maedn-leaflet": ("maedn", {"start_out": 1, "start_attempts": 1}),
    "killer-two-out-three-home": ("killer", {"start_out": 2, "win_pieces": 3}),
    "italian-first-home-play-on": ("italian", {"win_pieces": 1, "play_to_end": True}),
    "globe-all-out": ("danish-globe", {"start_out": 4, "start_attempts_when": "game_start"}),
    "fia-one-or-six": ("danish", {"enter_faces": (1, 6)}),
    "parchis-five-all-out": ("app", {"enter_faces": (5,), "start_out": 2}),
    "killer-one-or-six": ("killer", {"enter_faces": (1, 6)}),
    "globe-or-one": ("danish-globe", {"enter_faces": (1, "globe"), "win_pieces": 2}),
}


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_kernel_agrees_with_reference_on_the_rules_most_people_play(variant: str) -> None:
    preset, changes = VARIANTS[variant]
    rules = Rules.preset(preset).replace(**changes)
    games = 400 if VERIFY else (20 if preset == "killer" else 60)
    assert_same_games(rules, range(games), variant)
    mixed = ["aggressive", "random", "balanced", "defensive"]
    assert_same_games(rules, range(games // 4), f"{variant}, {mixed}", mixed)
