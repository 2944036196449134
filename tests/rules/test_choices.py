"""One test per [choice] in docs/rules.md and in docs/semantics.md.

Each docstring names the choice it pins; where a seed was silent the test
checks the decision, and where a toggle sweeps the alternative it also checks
that the alternative behaves differently.
"""

from __future__ import annotations

from scenario_helpers import dice, game, make, move_of, on_square, turn

from ludosim.reference import (
    CAPTURE,
    HOME,
    LAND,
    Position,
    all_plans,
    best_plans,
    legal_moves,
    pieces_at_risk,
    play_game,
    play_move,
    play_plan,
    resolve_landing,
)
from ludosim.rules.board import YARD, Board
from ludosim.rules.model import GLOBE, STAR, Rules

APP, ITALIAN, DANISH, DG, KILLER = (
    Rules.preset(n) for n in ("app", "italian", "danish", "danish-globe", "killer")
)
GOAL_K = KILLER.goal


# ---------------------------------------------------------------- helpers
# ======================================================= docs/rules.md section 1, board
def test_choice_six_sided_seating():
    """[choice] docs/rules.md section 1: on 6 sides 2 players sit on arms 0,3, 3 on 0,2,4, 4 on
    0,1,3,4, 5 on 0..4."""
    arms = {n: Board.from_rules(DANISH.replace(sides=6, players=n)).arms for n in (2, 3, 4, 5)}
    assert arms == {2: (0, 3), 3: (0, 2, 4), 4: (0, 1, 3, 4), 5: (0, 1, 2, 3, 4)}


def test_choice_danish_entry_fifty_and_ludopy_alternative():
    """[choice] docs/rules.md section 1: for danish (002 silent) entry = 50, 56 steps (LUDOpy 1.5);
    entry is a toggle, so LUDOpy <= 1.3.1's 58 steps (back onto the own start globe) can be
    swept."""
    assert (DANISH.entry, DANISH.goal) == (50, 56)
    pos = make(DANISH, {0: [49, 56, 56, 56]})
    assert move_of(DANISH, pos, 0, 3, 0).target == 52  # home column square 52
    assert pos.board.square(0, 52) == -1
    old = DANISH.replace(entry=52)
    assert old.goal == 58
    pos = make(old, {0: [49, 58, 58, 58]})
    assert move_of(old, pos, 0, 3, 0).target == 52
    assert pos.board.square(0, 52) == 0  # on the own start globe


def test_choice_killer_goal_fifty_eight():
    """[choice] docs/rules.md section 1: killer goal at progress 58 (entry 52 + 5 home squares +
    1)."""
    assert KILLER.goal == 58
    pos = make(KILLER, {0: [52, 58, 58, 58]})
    assert move_of(KILLER, pos, 0, 6, 0).target == 58
    assert play_move(KILLER, pos, move_of(KILLER, pos, 0, 6, 0)).finished


def test_choice_italian_stars_at_offset_eight():
    """[choice] docs/rules.md section 1: 003 names "le case con un simbolo di stella" without
    placing them; offset 8 on every arm, safe."""
    board = Board.from_rules(ITALIAN)
    assert [p for p in range(51) if board.is_star(p)] == [8, 21, 34, 47]
    assert all(board.is_safe(13 * a + 8) for a in range(4))
    assert not board.is_safe(13 * 0 + 4)


def test_choice_danish_first_star_at_offset_four():
    """[choice: 4] docs/rules.md section 1: some Danish boards put the first star of each arm at
    offset 5 instead of 4; the offsets are board parameters."""
    pos = make(DG, {0: [1, 56, 56, 56]})
    assert move_of(DG, pos, 0, STAR, 0).target == 4
    five = DG.replace(star_offsets=(5, 11))
    pos = make(five, {0: [1, 56, 56, 56]})
    assert move_of(five, pos, 0, STAR, 0).target == 5


def test_choice_six_sided_board_repeats_the_arm():
    """[choice] docs/rules.md section 1: the 6-sided board repeats the same 13-square arm six
    times."""
    board = Board.from_rules(KILLER.replace(sides=6, players=6))
    assert board.track_len == 78
    for arm in range(6):
        assert [board.is_star(13 * arm + o) for o in range(13)] == [o in (4, 11) for o in range(13)]
        assert board.is_safe(13 * arm) and board.is_safe(13 * arm + 8)


# ======================================================= docs/rules.md section 2, turn
def test_choice_roll_off_ties_reroll_among_themselves():
    """[choice] docs/rules.md section 2: tied highest re-roll among themselves: after 4, 6, 6, 2
    only seats 1 and 2 throw again (two draws, not four)."""
    g = game(DANISH, {}, [3, 5, 5, 1, 4, 2])
    assert g.roll_off() == 1
    assert g.stream.exhausted()


def test_choice_app_start_capacity_two():
    """[choice] docs/rules.md section 2: "Het startvak heeft 2 eigen lopers" is read as: a piece
    cannot be entered while two own pieces already stand on the start square."""
    assert [m.piece for m in legal_moves(APP, make(APP, {0: [0, 0, -1, -1]}), 0, 6)] == [0, 1]
    assert APP.replace(start_capacity=0).start_capacity == 0
    free = APP.replace(start_capacity=0)
    assert len(legal_moves(free, make(free, {0: [0, 0, -1, -1]}), 0, 6)) == 4


def test_choice_home_column_piece_is_in_play():
    """[choice] docs/rules.md section 2: a piece in the home column is in play: no three-roll start
    for a player whose only active piece is in its home column (one roll, not three)."""
    g = turn(DANISH, {0: [52, -1, 56, 56]}, dice(DANISH, 1))
    assert g.pos.progress[0][0] == 53
    assert g.rolls == 1


def test_choice_failed_try_resets_the_six_count_whatever_it_shows():
    """[choice] docs/rules.md section 2: A failed try earns nothing, whatever face it shows, and
    resets the six count.

    danish-globe with six_limit=3: a 6 brings piece 0 home (count 1); no piece in
    play, so start tries: 6 (fails: count back to 0), globe (enters: count 1); globe
    bonus: 6 (count 2) moves piece 1 six squares; its bonus roll 1 moves it again.
    """
    rules = DG.replace(six_limit=3)
    g = game(rules, {0: [50, -1, 56, 56]}, dice(rules, 6, 6, GLOBE, 6, 1))
    g.play_turn(0)
    assert g.pos.progress[0] == [56, 7, 56, 56]
    assert g.stream.exhausted()


def test_failed_start_tries_end_the_turn_and_lose_pending_bonus_rolls():
    """docs/rules.md section 8.3: "When the tries with no piece in play all fail, the turn passes
    to the
    next player, and pending bonus rolls of that turn are lost".

    Danish with bonus_on_finish: the 6 brings the last piece in play home (two bonus
    rolls: the 6 and the finish); the first bonus roll's three tries fail and the
    second bonus roll is never rolled.
    """
    rules = DANISH.replace(bonus_on_finish=True)
    g = turn(rules, {0: [50, -1, 56, 56]}, [*dice(rules, 6), 0, *dice(rules, 1, 2, 3)])
    assert g.rolls == 4 and g.pos.progress[0] == [56, -1, 56, 56]


def test_choice_app_bonus_on_six_unless_entered():
    """[choice] docs/rules.md section 2: app = unless_entered: a 6 used to enter earns no bonus
    roll, a 6 used to move does."""
    entered = turn(APP, {0: [-1, 56, 56, 56]}, dice(APP, 6))
    assert entered.rolls == 1
    moved = turn(APP, {0: [10, 56, 56, 56]}, dice(APP, 6, 1))
    assert moved.rolls == 2 and moved.pos.progress[0][0] == 17


def test_choice_six_limit_counts_every_roll_showing_six():
    """[choice] docs/rules.md section 2: the six count runs whatever granted the roll (a capture or
    finish bonus roll showing 6 extends the streak; an entering 6 under unless_entered still
    counts).

    App with bonus_on_capture: the entering 6 captures on the start square (no six
    bonus, one capture bonus); 6 and 6 follow: the third is forfeited.
    """
    rules = APP.replace(bonus_on_capture=True)
    placed = {0: [-1, 56, 56, 56], 1: [on_square(rules, 1, 0), -1, -1, -1]}
    g = turn(rules, placed, dice(rules, 6, 6, 6))
    assert g.pos.progress[0][0] == 6
    assert g.pos.progress[1][0] == YARD
    assert g.rolls == 3


def test_choice_danish_six_without_a_move_still_earns_its_bonus():
    """[choice] docs/rules.md section 2: in danish, danish-globe and killer a 6 with no legal move
    still earns its bonus roll (002: a 6 "altid" gives another roll); app and italian end the
    turn. With no piece in play such a 6 is a failed start try instead (docs/rules.md section
    8.2)."""
    rules = DANISH.replace(finish="exact")
    g = turn(rules, {0: [53, 56, 56, 56]}, dice(rules, 6, 3))
    assert g.rolls == 2 and g.pos.progress[0][0] == 56
    stopped = turn(APP, {0: [53, 56, 56, 56]}, dice(APP, 6))
    assert stopped.rolls == 1


def test_failed_start_try_earns_no_bonus_with_one_attempt():
    """docs/rules.md section 8.2: "A failed start try earns nothing, whatever face it shows and
    whatever
    start_attempts is": with no piece in play a 6 that cannot enter ends the try without a
    bonus roll, for start_attempts = 1 exactly as for 3.

    The star-and-globe die's 6 does not enter; a blocked start square stops the d6's
    6. With one attempt either ends the turn after one roll, also with a pending bonus
    roll (a 6 that brought the last piece in play home): failing the start tries ends
    the turn (docs/rules.md section 8.3). With a piece in play the same 6 earns its bonus.
    """
    one = DG.replace(start_attempts=1)
    g = turn(one, {0: [-1, -1, 56, 56]}, dice(one, 6))
    assert g.rolls == 1 and g.pos.progress[0] == [-1, -1, 56, 56]
    g = turn(one, {0: [50, -1, 56, 56]}, dice(one, 6, 6))
    assert g.rolls == 2 and g.pos.progress[0] == [56, -1, 56, 56]
    g = turn(one, {0: [40, -1, 56, 56]}, dice(one, 6, 1))
    assert g.rolls == 2 and g.pos.progress[0] == [47, -1, 56, 56]
    three = DG.replace(start_attempts=3)
    assert turn(three, {0: [-1, -1, 56, 56]}, dice(three, 6, 6, 6)).rolls == 3
    d6 = DANISH.replace(start_attempts=1)
    block = on_square(d6, 1, 0)
    g = turn(d6, {0: [-1, 56, 56, 56], 1: [block, block, -1, -1]}, dice(d6, 6))
    assert g.rolls == 1 and g.pos.progress[0][0] == YARD


def test_choice_self_sending_home_move_is_legal_among_others():
    """[choice] docs/rules.md section 2: A move that sends the mover's own piece home ... is a legal
    move, also when other moves exist."""
    block = on_square(DANISH, 2, 14)
    pos = make(DANISH, {0: [10, 30, 56, 56], 2: [block, block, -1, -1]})
    moves = {m.piece: m for m in legal_moves(DANISH, pos, 0, 4)}
    assert set(moves) == {0, 1}
    assert play_move(DANISH, pos, moves[0]).sent_home


def test_choice_self_sending_home_counts_as_a_used_roll_in_a_killer_plan():
    """[choice] docs/rules.md section 2: a self-sending-home move is legal also in the middle of a
    Killer plan (the roll counts as used): both best plans use both rolls and end with the
    piece in its yard."""
    block = on_square(KILLER, 1, 32)
    pos = make(KILLER, {0: [25, 58, 58, 58], 1: [block, block, -1, -1]})
    plans = best_plans(all_plans(KILLER, pos, 0, [6, 1]))
    assert [p.steps for p in plans] == [((0, 6), (0, 1)), ((0, 1), (0, 6))]
    for plan in plans:
        child = pos.copy()
        results = [r for _, r in play_plan(KILLER, child, 0, plan)]
        assert results[-1].sent_home and child.progress[0][0] == YARD


def test_choice_one_bonus_roll_per_capturing_move():
    """[choice] docs/rules.md section 2: one bonus roll per capturing move, however many pieces it
    captured: an App stack of two captured with bonus_on_capture earns one roll."""
    rules = APP.replace(bonus_on_capture=True)
    placed = {0: [10, 56, 56, 56], 2: [on_square(rules, 2, 13)] * 2 + [-1, -1]}
    g = turn(rules, placed, dice(rules, 3, 1))
    assert g.stats["captures"][0] == 2
    assert g.rolls == 2 and g.pos.progress[0][0] == 14


def test_choice_app_plays_to_the_end():
    """[choice] docs/rules.md section 2: for app, play_to_end from "De anderen blijven vaak spelen
    om de tweede, derde en vierde plaats te bepalen" (the others often play on)."""
    assert APP.play_to_end
    rules = APP.replace(players=3, pieces=1, first_player="seat0")
    g = game(rules, {0: [55], 1: [54], 2: [10]}, dice(rules, 1, 2))
    result = g.play()
    assert result.places == [1, 2, 3] and result.end_turns == 2
    assert result.final[1] == [56]  # seat 1 finished too before the game ended


def test_choice_megajogos_ties_by_seat_order_after_the_winner():
    """[choice] docs/rules.md section 2: others are ranked by points, ties by seat order after the
    winner: seat 2 wins; seats 3 and 0 tie on 11 points, seat 3 comes first."""
    placed = {0: [10, -1, -1, -1], 1: [20, -1, -1, -1], 2: [55, 56, 56, 56], 3: [10, -1, -1, -1]}
    g = game(ITALIAN, placed, [2, *dice(ITALIAN, 1)])  # seat 2 is drawn to start
    result = g.play()
    assert result.points == [11, 21, 1000, 11]
    assert result.places == [4, 2, 1, 3]


# ================================================== docs/rules.md section 3, a move
def test_choice_app_single_opponent_bars_the_path():
    """[choice] docs/rules.md section 3: app reads 001 literally: no piece may pass an opponent
    piece; `pass_opponents = singles` (only a doubled token blocks) is the swept alternative."""
    placed = {0: [10, 56, 56, 56], 2: [on_square(APP, 2, 12), -1, -1, -1]}
    assert move_of(APP, make(APP, placed), 0, 4, 0) is None
    singles = APP.replace(pass_opponents="singles")
    assert move_of(singles, make(singles, placed), 0, 4, 0).target == 14


def test_choice_killer_block_may_not_be_passed():
    """[choice] docs/rules.md section 3: killer: a block may not be passed (000: two pieces "kan
    spærre den pågældende stjerne som ethvert andet felt")."""
    block = on_square(KILLER, 2, 12)
    pos = make(KILLER, {0: [10, 58, 58, 58], 2: [block, block, -1, -1]})
    assert move_of(KILLER, pos, 0, 5, 0) is None
    assert move_of(KILLER, pos, 0, 2, 0) is not None  # landing on it is a move


def test_choice_killer_own_pieces_may_be_passed():
    """[choice] docs/rules.md section 3: killer: Own pieces may be passed (000 is silent; 002
    forbids it for plain Danish Ludo)."""
    placed = {0: [10, 12, 12, 58]}
    assert move_of(KILLER, make(KILLER, placed), 0, 5, 0).target == 15
    assert move_of(DANISH, make(DANISH, {0: [10, 12, 12, 56]}), 0, 5, 0) is None


def test_choice_killer_lone_piece_on_a_globe_sends_the_lander_home():
    """[choice] docs/rules.md section 3: killer safe_landing = lander_home (000 only says a piece on
    a globe "har helle og kan ikke slås hjem"); coexist is the alternative."""
    lone = on_square(KILLER, 2, 8)
    placed = {0: [5, 58, 58, 58], 2: [lone, -1, -1, -1]}
    assert resolve_landing(KILLER, make(KILLER, placed), 0, 0, 8) == (HOME, [])
    share = KILLER.replace(safe_landing="coexist")
    assert resolve_landing(share, make(share, placed), 0, 0, 8) == (LAND, [])


def test_choice_app_captures_the_whole_stack():
    """[choice] docs/rules.md section 3: in app the whole opponent stack is captured."""
    block = on_square(APP, 2, 14)
    pos = make(APP, {0: [10, 56, 56, 56], 2: [block, block, -1, -1]})
    assert play_move(APP, pos, move_of(APP, pos, 0, 4, 0)).captures == 2


def test_choice_danish_has_no_safe_squares():
    """[choice] docs/rules.md section 3: danish and danish-globe have no safe squares (002 never
    calls globes safe); `safe = globes` sweeps it."""
    placed = {0: [5, 56, 56, 56], 2: [on_square(DANISH, 2, 8), -1, -1, -1]}
    pos = make(DANISH, placed)
    assert play_move(DANISH, pos, move_of(DANISH, pos, 0, 3, 0)).captures == 1
    safe = DANISH.replace(safe=("globes",))
    pos = make(safe, placed)
    assert play_move(safe, pos, move_of(safe, pos, 0, 3, 0)).captures == 0


def test_choice_bounce_on_walks_on_behind_the_own_start_square():
    """[choice] docs/rules.md section 3: walking backwards past its own start square it continues
    onto the squares behind it (killer: progress + 52)."""
    pos = make(KILLER, {0: [2, 58, 58, 58]})
    pos.reversed[0][0] = True
    move = move_of(KILLER, pos, 0, 3, 0)
    assert move.walk == (1, 0, 51)
    play_move(KILLER, pos, move)
    assert pos.progress[0][0] == 51 and pos.board.square(0, 51) == 51


def test_choice_backward_jump_from_the_first_star_goes_to_the_previous_star():
    """[choice] docs/rules.md section 3: a backward jump from the lap's first star goes to the
    previous star (killer: star 4 -> star 50 of the lap before)."""
    pos = make(KILLER, {0: [6, 58, 58, 58]})
    pos.reversed[0][0] = True
    play_move(KILLER, pos, move_of(KILLER, pos, 0, 2, 0))
    assert pos.progress[0][0] == 50


def test_start_capture_whether_or_not_the_start_square_is_safe():
    """docs/rules.md section 8.5: start_capture captures a lone opponent on the entering
    player's own start square whether or not that square is safe in the current toggles.

    Italian's start squares are safe (coexist) and its capture rule spares a lone
    opponent sharing with an own piece; with start_capture an entering piece captures
    the lone opponent in both cases.
    """
    lone = {0: [-1, 56, 56, 56], 1: [on_square(ITALIAN, 1, 0), -1, -1, -1]}
    shared = {0: [-1, 0, 56, 56], 1: [on_square(ITALIAN, 1, 0), -1, -1, -1]}
    unsafe = ITALIAN.replace(safe=("stars",))
    for rules, placed in ((ITALIAN, lone), (unsafe, shared)):
        assert resolve_landing(rules, make(rules, placed), 0, 0, 0, entering=True)[0] == LAND
        taking = rules.replace(start_capture=True)
        kind, victims = resolve_landing(taking, make(taking, placed), 0, 0, 0, entering=True)
        assert (kind, victims) == (CAPTURE, [(1, 0)])


def test_player_counts_outside_the_preset_ranges_are_played():
    """docs/rules.md section 8.7: the engine may play any player count the board holds: killer
    with two players and app with six on six sides are accepted and played to the end."""
    for rules in (KILLER.replace(players=2), APP.replace(players=6, sides=6)):
        result = play_game(rules, 3, record=False)
        assert len(result.places) == rules.players and result.winner >= 0


# =========================================== docs/rules.md section 4, star-and-globe die
def test_choice_die_faces_are_a_parameter():
    """[choice] docs/rules.md section 4: the faces are a rule parameter, so a die with other
    replacements can be played: a die with 2 and 5 replaced rolls a 3."""
    rules = DG.replace(die_faces=(1, GLOBE, 3, 4, STAR, 6))
    g = turn(rules, {0: [10, 56, 56, 56]}, [2])  # index 2 is the 3
    assert g.pos.progress[0][0] == 13
    g = turn(rules, {0: [10, 56, 56, 56]}, [1, *dice(rules, 1)])  # index 1 is the globe
    assert g.pos.progress[0][0] == 14


def test_choice_globe_or_star_without_a_target_cannot_be_used():
    """[choice] docs/rules.md section 4: A globe or star roll that has no target for a piece before
    its home column cannot be used on that piece."""
    pos = make(DG, {0: [48, 50, 56, 56]})
    assert legal_moves(DG, pos, 0, GLOBE) == []
    assert [m.piece for m in legal_moves(DG, pos, 0, STAR)] == [0]


def test_choice_six_on_the_star_globe_die_follows_bonus_on_six():
    """[choice] docs/rules.md section 4: the 6 earns a bonus roll per bonus_on_six (spilregler.dk:
    "Ekstrakast gives ved at slå en globus eller en sekser")."""
    g = turn(DG, {0: [10, 56, 56, 56]}, dice(DG, 6, 1))
    assert g.pos.progress[0][0] == 17
    never = DG.replace(bonus_on_six="never")
    g = turn(never, {0: [10, 56, 56, 56]}, dice(never, 6))
    assert g.pos.progress[0][0] == 16
    g = turn(never, {0: [10, 56, 56, 56]}, dice(never, GLOBE, 1))  # the globe still does
    assert g.pos.progress[0][0] == 14


# ================================================== docs/rules.md section 5, killer plans
def test_choice_most_rolls_first_capturing_second():
    """[choice] docs/rules.md section 5: using the most rolls comes first, capturing second: a plan
    that captures with the 6 but leaves the 3 unused is not legal."""
    block = on_square(KILLER, 2, 17)
    placed = {
        0: [10, -1, 58, 58],
        1: [on_square(KILLER, 1, 16), -1, -1, -1],
        2: [block, block, -1, -1],
    }
    pos = make(KILLER, placed)
    assert ((0, 6),) in [p.steps for p in all_plans(KILLER, pos, 0, [6, 3]) if p.captures]
    assert all(p.captures == 0 for p in best_plans(all_plans(KILLER, pos, 0, [6, 3])))


def test_roll_then_move_bonus_on_capture_rolls_a_new_sequence():
    """docs/rules.md section 8.8: under roll_then_move "a capture or finish in [a plan] earns a new
    roll
    sequence (rolled and planned as a fresh one)", one per capturing move.

    A lone opponent on square 12: the 2 captures it, and the new sequence's 1 moves
    on. With a six run: both orders of [6, 2] capture on square 22 (the draw picks
    the first), then a fresh sequence [1]. Without the toggle the turn ends after the
    first plan.
    """
    rules = KILLER.replace(bonus_on_capture=True)
    lone = {0: [10, GOAL_K, GOAL_K, GOAL_K], 1: [on_square(rules, 1, 12), -1, -1, -1]}
    g = turn(rules, lone, dice(rules, 2, 1))
    assert g.pos.progress[0][0] == 13 and g.pos.progress[1][0] == YARD
    assert g.rolls == 2 and g.stats["captures"][0] == 1
    assert turn(KILLER, lone, dice(KILLER, 2)).rolls == 1
    run = {0: [14, GOAL_K, GOAL_K, GOAL_K], 2: [on_square(rules, 2, 22), -1, -1, -1]}
    g = turn(rules, run, [*dice(rules, 6, 2), 0, *dice(rules, 1)])
    assert g.pos.progress[0][0] == 23 and g.rolls == 3
    # Lone opponents on 12 and 18: 6 then 2 captures once (one new sequence), 2 then 6
    # captures twice (two new sequences) [choice: one per capturing move].
    two = {
        0: [10, GOAL_K, GOAL_K, GOAL_K],
        1: [on_square(rules, 1, 12), -1, -1, -1],
        2: [on_square(rules, 2, 18), -1, -1, -1],
    }
    g = turn(rules, two, [*dice(rules, 6, 2), 0, *dice(rules, 1)])
    assert g.pos.progress[0][0] == 19 and g.stats["captures"][0] == 1 and g.rolls == 3
    g = turn(rules, two, [*dice(rules, 6, 2), 1, *dice(rules, 1, 1)])
    assert g.pos.progress[0][0] == 20 and g.stats["captures"][0] == 2 and g.rolls == 4


def test_roll_then_move_bonus_on_finish_rolls_a_new_sequence():
    """docs/rules.md section 8.8: a piece a plan brings into the goal earns a new roll sequence with
    bonus_on_finish; with nothing left in play it starts with the start tries (here the
    first try's 6 enters and the 1 that follows moves the new piece)."""
    rules = KILLER.replace(bonus_on_finish=True)
    placed = {0: [55, -1, GOAL_K, GOAL_K]}
    g = turn(rules, placed, dice(rules, 3, 6, 1))
    assert g.pos.progress[0] == [GOAL_K, 1, GOAL_K, GOAL_K] and g.rolls == 3
    assert turn(KILLER, placed, dice(KILLER, 3)).rolls == 1


def test_choice_detect_skip_default_one_half():
    """[choice] docs/rules.md section 5: detect_skip default 0.5 (the "STOP" call modelled as a
    probability)."""
    assert KILLER.detect_skip == 0.5
    assert Rules().detect_skip == 0.5


def test_choice_puster_most_advanced_after_the_turn():
    """[choice] docs/rules.md section 5: the most advanced of the pieces that could have made it,
    judged by progress after the turn's moves."""
    placed = {
        0: [10, 14, 58, 58],
        2: [on_square(KILLER, 2, 16), on_square(KILLER, 2, 20), -1, -1],
    }
    pos = make(KILLER, placed)
    options = best_plans(all_plans(KILLER, pos, 0, [6, 1]))
    assert pieces_at_risk(options, pos, 0) == (1,)  # before the moves piece 1 leads
    skip = next(p for p in options if p.steps == ((0, 1), (0, 6)))
    for _ in play_plan(KILLER, pos, 0, skip):
        pass
    assert pieces_at_risk(options, pos, 0) == (0,)  # after them piece 0 does


# ================================================== docs/rules.md section 6
def test_choice_entering_onto_an_opponent_block_is_not_a_move():
    """[choice] docs/rules.md section 6: entering a piece onto an opponent block that would send it
    straight back to the yard is not a legal move."""
    block = on_square(DANISH, 1, 0)
    pos = make(DANISH, {0: [-1, 20, 56, 56], 1: [block, block, -1, -1]})
    assert [m.piece for m in legal_moves(DANISH, pos, 0, 6)] == [1]


# ================================================== docs/semantics.md
def test_choice_unless_entered_six_without_a_move_earns_its_bonus():
    """[choice] docs/semantics.md: "A 6 with no legal move under unless_entered earns its
    bonus (nothing was entered)": with no_move_ends_turn off, App's 6 that cannot move
    is followed by a bonus roll (a 3 that brings the piece home)."""
    rules = APP.replace(no_move_ends_turn=False)
    g = turn(rules, {0: [53, 56, 56, 56]}, dice(rules, 6, 3))
    assert g.pos.progress[0][0] == 56
    assert g.rolls == 2
    never = rules.replace(bonus_on_six="never")
    assert turn(never, {0: [53, 56, 56, 56]}, dice(never, 6)).rolls == 1


def test_choice_backward_walk_stops_on_the_start_square_on_other_boards():
    """[choice] docs/semantics.md: "Walking backwards below progress 0 ... on other boards
    the walk stops on the start square and the remaining steps are lost"."""
    rules = DANISH.replace(finish="bounce_on")
    pos = make(rules, {0: [2, 56, 56, 56]})
    pos.reversed[0][0] = True
    assert move_of(rules, pos, 0, 5, 0).walk == (1, 0)
    pos = make(rules, {0: [0, 56, 56, 56]})
    pos.reversed[0][0] = True
    assert move_of(rules, pos, 0, 3, 0) is None


def test_block_on_a_safe_square_follows_block_landing():
    """docs/rules.md section 8.1: "block_landing decides for two or more opponent pieces on any
    square,
    safe or not; safe_landing is only about a single protected opponent piece"."""
    rules = APP.replace(safe=("starts",))
    placed = {0: [10, 56, 56, 56], 1: [0, 0, -1, -1]}  # a pair on seat 1's start square 13
    for safe_landing in ("coexist", "lander_home"):
        case = rules.replace(safe_landing=safe_landing)
        assert resolve_landing(case, make(case, placed), 0, 0, 13) == (CAPTURE, [(1, 0), (1, 1)])
        for block_landing, kind in (("coexist", LAND), ("lander_home", HOME)):
            other = case.replace(block_landing=block_landing)
            assert resolve_landing(other, make(other, placed), 0, 0, 13) == (kind, [])
    lone = {0: [10, 56, 56, 56], 1: [0, -1, -1, -1]}  # one protected piece: safe_landing
    home = rules.replace(safe_landing="lander_home")
    assert resolve_landing(home, make(home, lone), 0, 0, 13) == (HOME, [])
    assert resolve_landing(rules, make(rules, lone), 0, 0, 13) == (LAND, [])


def test_choice_backward_star_jump_only_where_the_walk_could_go():
    """[choice] docs/semantics.md: "A backward jump below progress 0 wraps as the walk does
    and does not happen where the walk could not go".

    On a Danish board (entry 50) the walk stops on the start square, so a reversed
    piece landing on the star at 4 stays there.
    """
    rules = DANISH.replace(finish="bounce_on", star_jump="next_lap")
    pos = make(rules, {0: [6, 56, 56, 56]})
    pos.reversed[0][0] = True
    play_move(rules, pos, move_of(rules, pos, 0, 2, 0))
    assert pos.progress[0][0] == 4


def test_choice_places_by_pieces_home_then_progress_then_seat_order():
    """[choice] docs/semantics.md: the rest are ranked "by pieces home then total progress
    (progress + 1 per piece, yard 0, goal goal+1), ties by seat order after the winner
    (after seat `first` when nobody finished)".

    Seat 0 wins; seat 2 has a piece home but little progress and ranks above seats 1
    and 3, whose pieces went further; seats 1 and 3 tie and follow seat order after the
    winner. When nobody finished, seat `first` itself ranks first among ties (a pinned
    reading).
    """
    rules = DANISH.replace(first_player="seat0", players=4)
    placed = {0: [55, 56, 56, 56], 1: [40, 40, -1, -1], 2: [56, -1, -1, -1], 3: [40, 40, -1, -1]}
    g = game(rules, placed, dice(rules, 1))
    result = g.play()
    assert result.places == [1, 3, 2, 4]
    # nobody finished: ties in seat order starting from the first player (seat 3 here)
    trunc = APP.replace(max_turns=100)
    g = game(trunc, {}, [0, 1, 2, 3, *dice(trunc, *[1] * 100)])
    result = g.play()
    assert result.first == 3 and result.winner == -1
    assert result.places == [2, 3, 4, 1]


def test_choice_next_lap_jump_needs_the_next_star_inside_the_lap():
    """[choice] semantics.md: with `star_jump=next_lap` and `entry` before the lap's last
    star, the next star lies behind the own start square in the next lap: no jump.
    Regression test: the reference engine once jumped to progress -9 here."""
    from ludosim.reference import legal_moves, play_move

    rules = Rules.preset("danish").replace(star_jump="next_lap", entry=40)
    pos = Position.from_progress(rules, [[34, -1, -1, -1], [-1] * 4, [-1] * 4, [-1] * 4])
    move = next(m for m in legal_moves(rules, pos, 0, 3) if m.piece == 0)
    result = play_move(rules, pos, move)
    pos.check()
    assert pos.progress[0][0] == 37
    assert not any(type(e).__name__ == "Jumped" for e in result.events)
    # Killer's own board: the last star (50) jumps to the first star of the next lap.
    killer = Rules.preset("killer")
    pos = Position.from_progress(killer, [[47, -1, -1, -1], [-1] * 4, [-1] * 4, [-1] * 4])
    move = next(m for m in legal_moves(killer, pos, 0, 3) if m.piece == 0)
    play_move(killer, pos, move)
    assert pos.progress[0][0] == 4


# ======================================================= more [choice]s of docs/rules.md
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
