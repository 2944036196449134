"""Scenario tests for docs/rules.md section 1 (the board) and section 6 (toggles and presets).

Every test builds a position by hand and checks one rule; the docstring quotes
the seed sentence (with an English gloss) or the docs/rules.md [choice] it pins.
"""

from __future__ import annotations

import pytest
from scenario_helpers import make, move_of, on_square

from ludosim.reference import Captured, legal_moves, play_move
from ludosim.rules.board import YARD, Board, default_seating
from ludosim.rules.errors import RulesError
from ludosim.rules.model import PRESETS, STAR_GLOBE_FACES, Rules

PRESET_NAMES = ("app", "italian", "danish", "danish-globe", "killer")


# ---------------------------------------------------------------- helpers
# ------------------------------------------------------------- 1. seating
@pytest.mark.parametrize(
    ("players", "arms"), [(1, (0,)), (2, (0, 2)), (3, (0, 1, 2)), (4, (0, 1, 2, 3))]
)
def test_seating_four_sides(players, arms):
    """docs/rules.md section 1: player i of n sits on arm floor(i * sides / n): 2 players on a
    4-sided board sit on arms 0 and 2; 3 on arms 0,1,2; 4 on 0..3."""
    rules = Rules.preset("danish").replace(players=players)
    assert Board.from_rules(rules).arms == arms
    assert default_seating(players, 4) == arms


@pytest.mark.parametrize(
    ("players", "arms"),
    [(2, (0, 3)), (3, (0, 2, 4)), (4, (0, 1, 3, 4)), (5, (0, 1, 2, 3, 4)), (6, tuple(range(6)))],
)
def test_seating_six_sides(players, arms):
    """docs/rules.md section 1 [choice]: on 6 sides 2 players sit on arms 0,3, 3 on 0,2,4, 4 on
    0,1,3,4, 5 on 0..4."""
    rules = Rules.preset("danish").replace(sides=6, players=players)
    assert Board.from_rules(rules).arms == arms


def test_seating_can_be_listed_explicitly():
    """docs/rules.md section 1: `seating` may list arms explicitly: 2 players facing arms 1 and
    3."""
    rules = Rules.preset("danish").replace(players=2, seating=(1, 3))
    board = Board.from_rules(rules)
    assert board.arms == (1, 3)
    assert board.start_square(0) == 13
    assert board.start_square(1) == 39


def test_seat_enters_on_its_own_arm_start_square():
    """docs/rules.md section 1: the player sitting at arm a has its start square at absolute 13*a.

    Two players on 4 sides: seat 1 sits on arm 2, so its entering piece lands on
    square 26 and captures a lone Danish piece standing there.
    """
    rules = Rules.preset("danish").replace(players=2)
    pos = make(rules, {0: [26, 56, 56, 56], 1: [-1, -1, -1, -1]})
    move = move_of(rules, pos, 1, 6, 0)
    assert move is not None and move.entering
    result = play_move(rules, pos, move)
    assert result.captures == 1
    assert pos.progress[0][0] == YARD
    assert pos.board.square(1, pos.progress[1][0]) == 26


@pytest.mark.parametrize(("sides", "track"), [(4, 52), (6, 78)])
def test_track_has_thirteen_squares_per_arm(sides, track):
    """docs/rules.md section 1: the shared track has 13 * sides squares (52 or 78)."""
    rules = Rules.preset("killer").replace(sides=sides, players=4)
    board = Board.from_rules(rules)
    assert board.track_len == track
    assert board.safe_square.shape == (track,)


def test_specials_exist_on_unseated_arms():
    """docs/rules.md section 1: start squares, globes and stars exist on every arm, seated or not.

    Killer, 3 players on 6 sides (arms 0, 2, 4): arm 1 is empty, yet its globe
    (square 21) protects a lone piece and its star (square 17) still jumps.
    """
    rules = Rules.preset("killer").replace(sides=6, players=3)
    board = Board.from_rules(rules)
    assert board.arms == (0, 2, 4)
    victim = on_square(rules, 1, 21)
    pos = make(rules, {0: [18, 17 - 3, 84, 84], 1: [victim, 84, 84, 84]})
    globe = play_move(rules, pos.copy(), move_of(rules, pos, 0, 3, 0))
    assert globe.sent_home and globe.captures == 0
    jumper = pos.copy()
    play_move(rules, jumper, move_of(rules, jumper, 0, 3, 1))
    assert jumper.progress[0][1] == 24  # star 17 (arm 1, offset 4) -> star 24 (offset 11)


def test_six_sided_board_repeats_the_arm():
    """docs/rules.md section 1 [choice]: the 6-sided board repeats the same 13-square arm six times
    (78 track squares)."""
    rules = Rules.preset("killer").replace(sides=6, players=6)
    board = Board.from_rules(rules)
    stars = [p for p in range(78) if board.is_star(p)]
    globes = [p for p in range(78) if board.is_globe(p)]
    assert stars == [13 * a + o for a in range(6) for o in (4, 11)]
    assert globes == [13 * a + o for a in range(6) for o in (0, 8)]
    assert list(board.safe_square.nonzero()[0]) == globes


# ------------------------------------------------------- 1. entry and goal
@pytest.mark.parametrize("name", ["app", "italian", "danish", "danish-globe"])
def test_entry_fifty_goal_fifty_six(name):
    """docs/rules.md section 1: app, italian, danish, danish-globe: entry = 50 (51 track squares
    visited, then 5 column squares, goal at progress 56); 003: "una dirittura d'arrivo
    ... costituita da 5 case colorate" (a home column of 5 coloured squares)."""
    rules = Rules.preset(name)
    board = Board.from_rules(rules)
    assert (rules.entry, rules.home_len, rules.goal) == (50, 5, 56)
    assert board.on_track(50) and board.square(0, 50) == 50
    assert board.in_home_column(51) and board.in_home_column(55)
    assert board.square(0, 51) == -1
    pos = make(rules, {0: [50, 56, 56, 56]})
    # 6 steps from the entry square reach the goal exactly: 56 steps from start to goal.
    move = move_of(rules, pos, 0, 6, 0)
    assert move is not None and move.target == 56 and not move.bounced


@pytest.mark.parametrize("name", ["app", "danish"])
def test_square_before_own_start_is_never_visited(name):
    """docs/rules.md section 1: the square just before the own start square is never visited.

    A lone opponent on square 51 (just behind seat 0's start) is out of reach:
    a 1 from the entry square turns into the home column instead.
    """
    rules = Rules.preset(name)
    pos = make(rules, {0: [50, 56, 56, 56], 2: [on_square(rules, 2, 51), -1, -1, -1]})
    result = play_move(rules, pos, move_of(rules, pos, 0, 1, 0))
    assert pos.progress[0][0] == 51
    assert pos.board.square(0, 51) == -1
    assert result.captures == 0 and pos.progress[2][0] == 25


def test_killer_goes_the_full_lap_onto_its_own_start_globe():
    """000: "Adgang til slutzonen sker via globus ud for egen startzone, således at alle felter ...
    passeres" (the finish zone is entered via the globe in front of your own start zone, so that
    every square is passed). docs/rules.md section 1: killer entry = 52, goal 58."""
    rules = Rules.preset("killer")
    assert (rules.entry, rules.goal) == (52, 58)
    pos = make(rules, {0: [49, 58, 58, 58]})
    to_start = move_of(rules, pos, 0, 3, 0)
    assert to_start.target == 52 and pos.board.square(0, 52) == 0
    assert pos.board.on_track(52) and pos.board.in_home_column(53)
    assert move_of(rules, pos, 0, 4, 0).target == 53
    assert pos.board.square(0, 53) == -1


def test_killer_own_start_globe_protects_opponent_on_the_way_in():
    """000: "I alle andre tilfælde, herunder når en spiller er på vej ind i egen slutzone,
    fungerer globusen som ehver anden globus, og brikker på globus har helle" (in all other
    cases, including on the way into one's own finish zone, the globe is like any other
    globe and pieces on it are safe)."""
    rules = Rules.preset("killer")
    pos = make(rules, {0: [49, 58, 58, 58], 1: [on_square(rules, 1, 0), -1, -1, -1]})
    result = play_move(rules, pos, move_of(rules, pos, 0, 3, 0))
    assert result.sent_home and result.captures == 0
    assert pos.progress[0][0] == YARD and pos.progress[1][0] == 39


@pytest.mark.parametrize(("name", "entry"), [("danish", 76), ("killer", 78), ("app", 76)])
def test_entry_scales_to_six_sides(name, entry):
    """docs/rules.md section 1: entry ... (by default track_len - 2, and track_len in killer, so it
    scales to 6 sides)."""
    rules = Rules.preset(name).replace(sides=6)
    assert rules.entry == entry
    assert rules.goal == entry + 6


def test_five_players_on_six_sides_reach_their_own_home_column():
    """docs/rules.md section 1: progress is relative to the owner; on 6 sides seat 4 sits on arm 4
    and turns into its home column after progress 76 (square (52 + 76) % 78 = 50)."""
    rules = Rules.preset("danish").replace(sides=6, players=5)
    board = Board.from_rules(rules)
    assert board.arms[4] == 4
    assert board.square(4, 76) == (52 + 76) % 78
    pos = make(rules, {4: [75, 82, 82, 82]})
    move = move_of(rules, pos, 4, 3, 0)
    assert move.target == 78 and board.in_home_column(78)


# ----------------------------------------------------- 1. special squares
def test_danish_board_matches_ludopy_layout():
    """docs/rules.md section 1: the Danish layout matches the widely used LUDOpy board (stars at its
    indices 5,12,18,...,51; globes at 9,22,35,48 plus the start squares, with its start at
    index 1)."""
    for name in ("danish", "danish-globe", "killer"):
        board = Board.from_rules(Rules.preset(name))
        stars = [p + 1 for p in range(51) if board.is_star(p)]
        globes = [p + 1 for p in range(51) if board.is_globe(p) and p % 13 != 0]
        assert stars == [5, 12, 18, 25, 31, 38, 44, 51]
        assert globes == [9, 22, 35, 48]
        assert all(board.is_globe(13 * a) for a in range(4))


def test_italian_board_safe_starts_and_stars():
    """003: "Sono loro: le case di entrata di ogni giocatore ... e le case con un simbolo di
    stella" (the safe squares are every player's entry square and the star squares);
    docs/rules.md section 1 [choice] stars at offset 8."""
    board = Board.from_rules(Rules.preset("italian"))
    safe = list(board.safe_square.nonzero()[0])
    assert safe == sorted([13 * a for a in range(4)] + [13 * a + 8 for a in range(4)])
    assert board.is_star(8) and not board.is_globe(8)


def test_app_board_has_no_special_squares():
    """docs/rules.md section 1: the App board has start squares at offset 0 and no globes or stars;
    no square is safe ("safe = {}")."""
    board = Board.from_rules(Rules.preset("app"))
    assert not board.safe_square.any()
    assert not any(board.is_star(p) or board.is_globe(p) for p in range(51))


def test_home_column_is_safe():
    """002: "Når en brik bevæger sig ind på felter i egen farve på vej mod mål, kan den ikke
    længere slås hjem" (once a piece moves onto the squares of its own colour towards the
    goal, it can no longer be sent home).

    Seat 0 has pieces on every home-column square; seat 2 has pieces all around
    seat 0's entry. No move of seat 2 with any face captures anything.
    """
    rules = Rules.preset("danish")
    for home in range(51, 56):
        for start in range(18, 26):  # seat 2 on squares 44..51
            pos = make(rules, {0: [home, 56, 56, 56], 2: [start, 56, 56, 56]})
            for face in range(1, 7):
                for move in legal_moves(rules, pos, 2, face):
                    child = pos.copy()
                    result = play_move(rules, child, move)
                    assert not any(isinstance(e, Captured) for e in result.events)
                    assert child.progress[0][0] == home


# ------------------------------------------------- 6. toggles and presets
TABLE = {
    # toggle: (app, italian, danish, danish-globe, killer), docs/rules.md section 6
    "players": (4, 4, 4, 4, 4),
    "sides": (4, 4, 4, 4, 4),
    "pieces": (4, 4, 4, 4, 4),
    "die": ("d6", "d6", "d6", "star-globe", "d6"),
    "first_player": ("roll-off", "random", "roll-off", "roll-off", "roll-off"),
    "start_attempts": (1, 1, 3, 3, 3),
    "bonus_on_six": ("unless_entered", "always", "always", "always", "always"),
    "start_capacity": (2, 0, 0, 0, 0),
    "bonus_on_capture": (False, True, False, False, False),
    "bonus_on_finish": (False, True, False, False, False),
    "six_limit": (3, 3, 0, 0, 0),
    "no_move_ends_turn": (True, True, False, False, False),
    "roll_then_move": (False, False, False, False, True),
    "pass_own": (True, True, False, False, True),
    "pass_opponents": ("none", "all", "all", "all", "singles"),
    "safe": ((), ("starts", "stars"), (), (), ("globes",)),
    "safe_landing": ("coexist", "coexist", "coexist", "coexist", "lander_home"),
    "capture_rule": (
        "lone_opponent",
        "lone_piece",
        "lone_opponent",
        "lone_opponent",
        "lone_opponent",
    ),
    "block_landing": ("capture", "coexist", "lander_home", "lander_home", "lander_home"),
    "start_capture": (False, False, False, False, True),
    "star_jump": ("none", "none", "none", "none", "next_lap"),
    "finish": ("exact", "exact", "bounce", "bounce", "bounce_on"),
    "forced_capture": (False, False, False, False, True),
    "play_to_end": (True, False, False, False, True),
    "scoring": ("none", "megajogos", "none", "none", "none"),
    "max_turns": (20000,) * 5,
    "entry": (50, 50, 50, 50, 52),
    "home_len": (5,) * 5,
    "globe_offsets": ((), (), (0, 8), (0, 8), (0, 8)),
    "star_offsets": ((), (8,), (4, 11), (4, 11), (4, 11)),
    "seating": ((),) * 5,
}


@pytest.mark.parametrize("toggle", sorted(TABLE))
def test_preset_table_matches_rules_md(toggle):
    """docs/rules.md section 6: the toggles-and-presets table, column by column."""
    for name, expected in zip(PRESET_NAMES, TABLE[toggle], strict=True):
        assert getattr(Rules.preset(name), toggle) == expected, (name, toggle)


def test_preset_die_faces_and_killer_detect_skip():
    """docs/rules.md section 6: die_faces 1-6 except danish-globe "1, 2, globe, 4, star, 6"; killer
    detect_skip 0.5; every preset names its seed file."""
    for name in PRESET_NAMES:
        faces = Rules.preset(name).die_faces
        assert faces == (STAR_GLOBE_FACES if name == "danish-globe" else (1, 2, 3, 4, 5, 6))
    assert Rules.preset("killer").detect_skip == 0.5
    assert PRESETS["killer"].seeds == ("000_51b5a12e3dfc509f.txt",)
    assert PRESETS["app"].seeds == ("001_58372a31aac71efe.txt", "004_aaeff1f41085d0fb.txt")


@pytest.mark.parametrize(
    ("changes", "fields"),
    [
        ({"players": 5}, ("players", "sides")),
        ({"die": "star-globe"}, ("roll_then_move", "die")),
        ({"star_offsets": ()}, ("star_jump", "star_offsets")),
    ],
)
def test_refuses_combinations_it_cannot_play(changes, fields):
    """docs/rules.md section 6: a combination the engine cannot play (5 players on 4 sides,
    roll_then_move with the star-globe die, star_jump on a board without stars) is refused
    with an error that names both fields and says what would work."""
    with pytest.raises(RulesError) as info:
        Rules.preset("killer").replace(**changes)
    message = str(info.value)
    for name in fields:
        assert name in message
    assert "use" in message or "set" in message or "needs" in message


def test_every_toggle_can_be_set_on_its_own():
    """docs/rules.md section 6: every toggle can be set on its own on top of any preset, as long as
    the combination is meaningful: a few single changes on each preset are accepted."""
    for name in PRESET_NAMES:
        base = Rules.preset(name)
        for change in (
            {"six_limit": 0},
            {"pieces": 2},
            {"play_to_end": not base.play_to_end},
            {"safe": ("starts",)},
        ):
            changed = base.replace(**change)
            key, value = next(iter(change.items()))
            assert getattr(changed, key) == value
