"""Teams (`teams`): partners share squares and never capture each other, a finished seat
moves its partner's pieces, the team wins when all its seats have finished.

docs/rules.md section 2 ("Teams"): each reading pinned in both engines on hand-built
positions, the refusals named, and whole games played alike by the kernel and the
reference engine.
"""

from __future__ import annotations

import numpy as np
import pytest
from scenario_helpers import dice, kernel_targets, make, reference_targets
from scenario_helpers import game as play
from test_kernel_agreement import VERIFY, assert_same_games

from ludosim.reference.game import Game
from ludosim.reference.moves import legal_moves, play_move
from ludosim.reference.plans import PlanTree
from ludosim.rules.board import YARD, Board
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules
from ludosim.rules.policies import PolicyError
from ludosim.rules.streams import ScriptedStream
from ludosim.run.simulate import kernel_game, simulate

Y = YARD
# Partners opposite: seats 0 and 2 against 1 and 3, on the seeds' board (seat s starts
# 13 * s squares on, so seat 2's progress p is seat 0's progress p + 26).
TEAMS = Rules.preset("king").replace(teams="0,1,0,1", safe=())
BOARD = Board.from_rules(TEAMS)


def _targets(rules: Rules, placed: dict[int, list[int]], seat: int, face: int) -> dict:
    """The landing of every legal move, the same in both engines."""
    ref = reference_targets(rules, placed, seat, face)
    assert kernel_targets(rules, placed, seat, face) == ref
    return ref


def test_a_partner_is_not_captured_but_shares_the_square() -> None:
    """Seat 0 lands on seat 2's lone piece (its 4 is seat 0's 30): both stay."""
    pos = make(TEAMS, {0: [27, Y, Y, Y], 2: [4, Y, Y, Y]})
    (move,) = legal_moves(TEAMS, pos, 0, 3)
    assert play_move(TEAMS, pos, move).captures == 0
    assert pos.progress[0][0] == 30 and pos.progress[2][0] == 4


def test_an_opponent_is_captured_as_always() -> None:
    pos = make(TEAMS, {0: [27, Y, Y, Y], 1: [17, Y, Y, Y]})  # seat 1's 17 is seat 0's 30
    (move,) = legal_moves(TEAMS, pos, 0, 3)
    assert play_move(TEAMS, pos, move).captures == 1


def test_partners_form_a_block_for_the_other_team_and_never_bar_each_other() -> None:
    """Under the app's passing rule (no passing opponents) a partner's piece on the path
    does not bar seat 0; an opponent's does. Under `block_landing = forbidden` a piece of
    each partner (seats 1 and 3) on one square bar an opponent's landing there."""
    rules = Rules.preset("app").replace(teams="0,1,0,1", play_to_end=False)
    assert _targets(rules, {0: [27, Y, Y, Y], 2: [2, Y, Y, Y]}, 0, 3) == {0: 30}
    assert _targets(rules, {0: [27, Y, Y, Y], 1: [16, Y, Y, Y]}, 0, 3) == {}
    forbidden = TEAMS.replace(block_landing="forbidden")
    # Square 30 of seat 0 is seat 1's 17 and seat 3's 43.
    assert _targets(forbidden, {0: [27, Y, Y, Y], 1: [17, Y, Y, Y], 3: [43, Y, Y, Y]}, 0, 3) == {}


def test_a_partner_counts_as_another_piece_for_lone_piece_captures() -> None:
    """Under `capture_rule = lone_piece` an opponent sharing with a partner of the mover
    is not alone: the mover shares the square instead of capturing."""
    rules = TEAMS.replace(capture_rule="lone_piece")
    pos = make(rules, {0: [27, Y, Y, Y], 1: [17, Y, Y, Y], 2: [4, Y, Y, Y]})
    (move,) = legal_moves(rules, pos, 0, 3)
    assert play_move(rules, pos, move).captures == 0


def test_a_finished_seat_moves_its_partners_pieces() -> None:
    """Seat 0 has every piece home; on its turn it plays seat 2's pieces."""
    goal = TEAMS.goal
    rows = [[goal] * 4, [Y] * 4, [10, Y, Y, Y], [Y] * 4]
    game = Game(TEAMS, seed=3, game=0, start=make(TEAMS, dict(enumerate(rows))))
    game.finish_order.append(0)
    assert game.owner(0) == 2 and game.owner(1) == 1
    assert game.next_seat(3) == 0  # a finished seat still takes its turns


def test_the_team_wins_when_both_partners_have_finished() -> None:
    """Seat 0 finished before; seat 2 brings its last piece home: the team has won, seat 2
    is the winner, and both partners have place 1, the other team place 2."""
    goal = TEAMS.goal
    rows = [[goal] * 4, [Y] * 4, [goal, goal, goal, goal - 1], [Y] * 4]
    game = Game(TEAMS, seed=3, game=0, start=make(TEAMS, dict(enumerate(rows))), start_seat=0)
    game.finish_order.append(0)
    result = game.play()
    assert result.winner == 2
    assert result.places == [1, 2, 1, 2]


def test_a_partners_capture_opens_the_owners_home_column() -> None:
    """Under capture before home, finished seat 0 plays seat 2's piece onto seat 1's lone
    piece (seat 2's 4 + 3 is seat 1's 20): the capture opens seat 2's column, not seat 0's
    and not seat 1's."""
    goal = TEAMS.goal
    rules = TEAMS.replace(home_unlock="capture")
    rows = {0: [goal] * 4, 1: [20, Y, Y, Y], 2: [4, Y, Y, Y]}
    game = play(rules, rows, dice(rules, 3, 1))  # the capture earns a bonus roll: a 1
    game.finish_order.append(0)
    game.play_turn(game.owner(0))
    assert game.stream.exhausted()
    assert game.pos.progress[1][0] == Y and game.pos.progress[2][0] == 8
    assert game.pos.unlocked == [False, False, True, False]


def test_places_are_per_team() -> None:
    """In every game won, exactly the winner's team has place 1."""
    rules = TEAMS.replace(safe=("starts", "stars"))
    rows = simulate(rules, games=40, seed=5)
    for _, row in rows.iterrows():
        if row["winner"] >= 0:
            team = rules.team_of(int(row["winner"]))
            for s in range(4):
                assert (row[f"place_{s}"] == 1) == (rules.team_of(s) == team)


@pytest.mark.parametrize("play_to_end", [False, True])
def test_a_finished_seat_takes_its_track_pieces_off_the_board(play_to_end: bool) -> None:
    """Quick wins: seat 0 has its two pieces home when the game begins, a piece on the
    track and one in its home column. After its first turn it has finished: its track
    piece leaves the board for good (also when the game is not played to the end: its
    partner plays on), its home column piece stays. Both engines, game for game."""
    goal = TEAMS.goal
    # No bonus rolls: the first turn is one roll (a seat finished before its turn ends
    # its turn after one move in the reference engine, and plays its bonus rolls on
    # in the kernel).
    no_bonus = {"bonus_on_six": "never", "bonus_on_capture": False, "bonus_on_finish": False}
    rules = TEAMS.replace(win_pieces=2, play_to_end=play_to_end, **no_bonus)
    start = make(rules, {0: [goal, goal, 10, goal - 2], 1: [5, Y, Y, Y], 2: [20, Y, Y, Y]})
    kernel = simulate(rules, games=20, seed=3, start=start, start_seat=0)
    seen = 0

    def after_turn(game: Game, seat: int) -> None:
        nonlocal seen
        if 0 in game.finish_order:
            row = game.pos.progress[0]
            assert not any(BOARD.on_track(p) for p in row), row
            assert rules.entry < row[3] <= goal  # the home column piece stayed
            seen += 1

    for g, row in enumerate(kernel.to_dict("records")):
        game = Game(rules, 3, g, start=start, record=False, start_seat=0)
        result = game.play(after_turn=after_turn)
        assert game.finish_order[0] == 0
        assert result.row() == row
        assert kernel_game(rules, 3, g, start=start, start_seat=0)[1] == result.final
        assert not any(BOARD.on_track(p) for p in result.final[0])
    assert seen > 20


# ------------------------------------------------------------- Killer turns
KILLER = Rules.preset("killer").replace(teams="0,1,0,1", pieces=1)


def test_under_killer_turns_a_finished_seat_plays_its_partners_roll_sequence() -> None:
    """Seat 0 has finished; its turn plays seat 2's pieces with the whole Killer turn read
    from seat 2's side: no piece of seat 2 in play, so three start tries (a 1, a 2, then
    a 6 that enters), the sequence goes on after the 6 (a 3), and the plan enters seat
    2's piece and moves it three squares."""
    goal = KILLER.goal
    game = play(KILLER, {0: [goal]}, dice(KILLER, 1, 2, 6, 3))
    game.finish_order.append(0)
    assert game.owner(0) == 2
    game.play_turn(game.owner(0))
    assert game.stream.exhausted()
    assert game.pos.progress == [[goal], [Y], [3], [Y]]
    assert game.stats["captures"] == [0, 0, 0, 0]


def test_under_killer_turns_a_partner_is_no_forced_capture() -> None:
    """Forced captures count opponents only: seat 0's 3 may land on its partner's lone
    piece (seat 2's 5 is seat 0's 31) or move its other piece; neither captures, so
    both plans stay open (the policy draws between them) and no capture is skipped."""
    rules = KILLER.replace(pieces=2)
    placed = {0: [28, 41], 2: [5, Y]}
    assert not PlanTree(rules, make(rules, placed), 0, [3]).any_capture()
    game = play(rules, placed, [*dice(rules, 3), 0])  # the draw picks the first plan
    game.play_turn(0)
    assert game.stream.exhausted()
    assert game.stats["skipped"] == [0, 0, 0, 0]
    assert game.pos.progress[0] in ([31, 41], [28, 44]) and game.pos.progress[2] == [5, Y]


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"teams": "0,1"}, "teams/players"),
        ({"teams": "0,0,0,0"}, "teams/players"),
        ({"teams": "0,1,2,0"}, "teams/players"),
    ],
)
def test_combinations_the_engines_do_not_define_are_refused(change: dict, field: str) -> None:
    with pytest.raises(RulesError, match=field):
        Rules.preset("king").replace(**change)


@pytest.mark.parametrize("player", ["expert:8", "fictive"])
def test_the_expert_does_not_play_under_teams(player: str) -> None:
    refused = rf"policy '{player}[^']*' does not play under teams=0,1,0,1"
    with pytest.raises(PolicyError, match=refused):
        simulate(TEAMS, games=1, seed=1, policies=[player, "random", "random", "random"])


GAMES = 400 if VERIFY else 60
# Games with the look-ahead seat among the policies (the reference works it out in
# Python, a few times slower): the everyday suite plays fewer.
MIXED_GAMES = 400 if VERIFY else 20
LOOKAHEAD = "weights:progress=1,capture=3,danger=-2,chance=2"


@pytest.mark.parametrize(
    ("preset", "teams"),
    [
        ("king", "0,1,0,1"),
        ("danish", "0,1,0,1"),
        ("app", "0,0,1,1"),
        ("maedn", "0,1,1,0"),
        ("capture-home", "0,1,0,1"),
    ],
)
@pytest.mark.parametrize("policies", ["random", ["aggressive", LOOKAHEAD, "runner", "skipper:0.5"]])
def test_kernel_agrees_with_reference_under_teams(preset, teams, policies) -> None:
    """Whole games, game for game, with the game-flow columns; on Danish with forced
    captures (the puster)."""
    rules = Rules.preset(preset).replace(teams=teams, play_to_end=False)
    if preset == "danish":
        rules = rules.replace(forced_capture=True)
    games = GAMES if policies == "random" else MIXED_GAMES
    assert_same_games(rules, range(games), f"{preset} teams={teams}", policies, flow=True)


# --------------------------------------------------- playing on, move limits
SIX = Rules.preset("king").replace(
    players=6, sides=6, pieces=1, teams="0,1,2,0,1,2", safe=(), play_to_end=True
)


def test_played_to_the_end_the_teams_take_their_places_as_they_finish() -> None:
    """Three teams of two: seats 0 and 1 finished before; seat 3 completes team 0 (the
    winner, `turns` stops there), the game goes on and seat 4 completes team 1, which
    settles the places: team 0 first, team 1 second, team 2 third."""
    goal = SIX.goal
    rows = {0: [goal], 1: [goal], 2: [10], 3: [goal - 1], 4: [goal - 2], 5: [20]}
    game = Game(SIX, seed=3, game=0, start=make(SIX, rows), start_seat=3)
    game.stream = ScriptedStream(dice(SIX, 1, 2))
    game.finish_order += [0, 1]
    result = game.play()
    assert game.stream.exhausted()
    assert result.winner == 3 and (result.turns, result.end_turns) == (1, 2)
    assert result.places == [1, 2, 3, 1, 2, 3]


def _kernel_close_by_points(rules: Rules, placed: dict[int, list[int]], first: int) -> tuple:
    """The kernel's winner and places of a game under `move_limit` ending on `placed`."""
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.game import _close_by_points
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.position import reset_state
    from ludosim.engine.state import (
        H,
        K,
        result_at,
        seat_result_at,
    )
    from ludosim.rules.policies import parse_policy

    lay = compile_layout(rules)
    rows = np.array(make(rules, placed).progress)
    w = new_work(compile_policies([parse_policy("random")] * rules.players), rows)
    reset_state(lay, w, True)
    _close_by_points(lay, w, first, 10)
    places = [int(w[seat_result_at(K.PLACE, s)]) for s in range(rules.players)]
    return int(w[result_at(H.WINNER)]), places


LIMIT = TEAMS.replace(scoring="steps", move_limit=10)


@pytest.mark.parametrize(
    ("placed", "first", "winner", "places"),
    [
        # Team 0 scores 10 + 20, team 1 25 + 0: seat 2 has the top team's most points.
        ({0: [10, Y, Y, Y], 1: [25, Y, Y, Y], 2: [20, Y, Y, Y]}, 0, 2, [1, 2, 1, 2]),
        # Team 1 alone on top although seat 0 has the most points of any seat.
        ({0: [30, Y, Y, Y], 1: [20, Y, Y, Y], 3: [11, Y, Y, Y]}, 0, 1, [2, 1, 2, 1]),
        # Partners equal: the first of them in turn order from the first player (seat 3).
        ({0: [10, Y, Y, Y], 2: [10, Y, Y, Y], 1: [5, Y, Y, Y]}, 3, 0, [1, 2, 1, 2]),
        ({0: [10, Y, Y, Y], 2: [10, Y, Y, Y], 1: [5, Y, Y, Y]}, 1, 2, [1, 2, 1, 2]),
        # Equal sums share first place: no winner.
        ({0: [10, Y, Y, Y], 1: [4, Y, Y, Y], 2: [5, Y, Y, Y], 3: [11, Y, Y, Y]}, 0, -1, [1] * 4),
    ],
)
def test_under_a_move_limit_teams_rank_by_their_seats_points_summed(
    placed: dict, first: int, winner: int, places: list[int]
) -> None:
    """Both engines on hand-built final positions (steps: a piece scores its progress)."""
    game = Game(LIMIT, seed=3, game=0, start=make(LIMIT, placed))
    result = game.points_result(first)
    assert (result.winner, result.places) == (winner, places)
    assert _kernel_close_by_points(LIMIT, placed, first) == (winner, places)


def test_under_a_move_limit_three_teams_tie_for_second_place() -> None:
    """Six seats in three teams: two teams with equal sums share second place."""
    rules = SIX.replace(scoring="steps", move_limit=10, play_to_end=False)
    placed = {0: [30], 1: [10], 2: [4], 4: [5], 5: [11]}  # sums 30, 15, 15
    game = Game(rules, seed=3, game=0, start=make(rules, placed))
    result = game.points_result(0)
    assert (result.winner, result.places) == (0, [1, 2, 2, 1, 2, 2])
    assert _kernel_close_by_points(rules, placed, 0) == (0, [1, 2, 2, 1, 2, 2])


@pytest.mark.parametrize(
    ("preset", "changes"),
    [
        ("killer", {"teams": "0,1,0,1"}),
        ("killer", {"teams": "0,0,1,1", "play_to_end": False, "win_pieces": 2}),
        ("danish", {"teams": "0,1,2,0,1,2", "players": 6, "sides": 6, "play_to_end": True}),
        ("app", {"teams": "0,0,1,1", "play_to_end": True, "win_pieces": 2}),
        ("king", {"teams": "0,1,0,1", "scoring": "steps", "move_limit": 30, "win_pieces": 1}),
        ("king", {"teams": "0,1,2,0,1,2", "players": 6, "sides": 6, "scoring": "steps",
                  "move_limit": 8}),
    ],
)  # fmt: skip
def test_kernel_agrees_with_reference_on_teams_playing_on(preset: str, changes: dict) -> None:
    """Whole games of the combinations above, game for game, with the game-flow columns."""
    rules = Rules.preset(preset).replace(**changes)
    games = GAMES // 3 if preset == "killer" else GAMES
    assert_same_games(rules, range(games), f"{preset} {changes}", flow=True)
