"""Pins for [choice]s of docs/rules.md that `test_choices.py` does not cover.

Each docstring names the rules section and the reading it pins.
"""

from __future__ import annotations

from scenario_helpers import dice, game, make, move_of, on_square

from ludosim.reference import all_plans, best_plans, pieces_at_risk, play_move
from ludosim.rules.model import Rules

ITALIAN, DANISH, DG, KILLER = (
    Rules.preset(n) for n in ("italian", "danish", "danish-globe", "killer")
)


def test_choice_roll_off_uses_a_plain_die_with_the_star_globe_die():
    """[choice] docs/rules.md section 2: the roll-off throws a plain 1-6 even when the game
    is played with the star-and-globe die: the same draws pick the same first player as on
    a plain die (draw 4 is the star face, draw 2 the globe, both read as 5 and 3)."""
    for script in ([3, 5, 5, 1, 4, 2], [4, 2, 0, 1], [2, 1, 4, 4, 0, 3]):
        plain = game(DANISH, {}, list(script))
        globe = game(DG, {}, list(script))
        assert globe.roll_off() == plain.roll_off()
        assert globe.stream.draws == plain.stream.draws
    assert game(DG, {}, [4, 5, 3, 1]).roll_off() == 1  # "star" (5) loses to the 6


def test_choice_plain_bounce_may_leave_a_short_home_column():
    """[choice] docs/rules.md section 3: with `finish = bounce` a piece walks back the
    steps it has left, out of the home column onto the track when that column is short:
    home_len 1, goal 52, from 51 a 6 goes 51 -> 52 -> 47."""
    rules = DANISH.replace(home_len=1)
    assert rules.goal == 52
    pos = make(rules, {0: [51, 52, 52, 52]})
    move = move_of(rules, pos, 0, 6, 0)
    assert move.target == 47
    play_move(rules, pos, move)
    assert pos.progress[0][0] == 47


def test_choice_puster_tie_on_progress_takes_the_lowest_piece_index():
    """[choice] docs/rules.md section 5: when the pieces that could have captured stand
    equally far, the lowest piece index goes home: pieces 0 and 1 share square 10 and
    either could capture on 16 with the 6."""
    placed = {0: [10, 10, 30, KILLER.goal], 2: [on_square(KILLER, 2, 16), -1, -1, -1]}
    pos = make(KILLER, placed)
    options = best_plans(all_plans(KILLER, pos, 0, [6, 1]))
    capturers = {p.steps[0][0] for p in options if p.captures and p.steps[0][1] == 6}
    assert {0, 1} <= capturers
    assert pieces_at_risk(options, pos, 0) == (0,)


def test_choice_megajogos_points_with_play_to_end_are_taken_at_the_end():
    """[choice] docs/rules.md section 2: with `scoring = megajogos` and `play_to_end` the
    points are counted when the game ends: the winner has 1000, a later finisher 250 per
    piece home, the last player its progress + 1."""
    rules = ITALIAN.replace(players=3, pieces=1, play_to_end=True)
    g = game(rules, {0: [55], 1: [55], 2: [10]}, [0, *dice(rules, 1, 1)])  # seat 0 starts
    result = g.play()
    assert g.stream.exhausted()
    assert result.places == [1, 2, 3]
    assert result.points == [1000, 250, 11]
