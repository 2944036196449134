"""Scenario tests for docs/rules.md section 5 (Killer Ludo: playing all the rolls as a plan).

Plans are listed with `all_plans`, filtered with `best_plans` (most rolls, the
highest first) and `forced` (captures), and played with `play_plan` or a whole
scripted `Game` turn. Seed 000 (DræberLudo) is quoted in Danish with a gloss.
"""

from __future__ import annotations

from ludosim.reference import (
    Game,
    Position,
    all_plans,
    best_plans,
    forced,
    pieces_at_risk,
    play_plan,
)
from ludosim.rules.board import YARD, Board
from ludosim.rules.model import Rules
from ludosim.rules.streams import ScriptedStream, faces_to_script

KILLER = Rules.preset("killer")
GOAL = KILLER.goal  # 58


# ---------------------------------------------------------------- helpers
def make(placed: dict[int, list[int]], rules: Rules = KILLER) -> Position:
    """A position with the given rows; seats not named keep every piece in the yard."""
    rows = [[YARD] * rules.pieces for _ in range(rules.players)]
    for seat, row in placed.items():
        rows[seat] = list(row)
    return Position.from_progress(rules, rows)


def on_square(seat: int, square: int, rules: Rules = KILLER) -> int:
    """Progress that puts a piece of `seat` on absolute track square `square`."""
    board = Board.from_rules(rules)
    return (square - 13 * board.arms[seat]) % board.track_len


def plans_of(pos: Position, rolls: list[int], rules: Rules = KILLER):
    """The best plans (most rolls, highest first) of seat 0."""
    return best_plans(all_plans(rules, pos, 0, rolls))


def steps(plans) -> list[tuple]:
    return [p.steps for p in plans]


def after(pos: Position, plan_steps, rules: Rules = KILLER) -> Position:
    """The position after seat 0 plays `plan_steps` (on a copy)."""
    child = pos.copy()
    plan = next(
        p
        for p in all_plans(rules, pos, 0, [f for _, f in plan_steps])
        if p.steps == tuple(plan_steps)
    )
    for _ in play_plan(rules, child, 0, plan):
        pass
    return child


def killer_turn(placed: dict[int, list[int]], rolls: list[int], choices=()) -> Game:
    """One scripted Killer turn of seat 0: the rolls, then the plan choices (if any)."""
    g = Game(KILLER, 0, start=make(placed))
    g.stream = ScriptedStream(faces_to_script(KILLER.die_faces, rolls) + list(choices))
    g.play_turn(0)
    assert g.stream.exhausted(), f"only {g.stream.draws} draws used"
    return g


# ------------------------------------------------- reordering to capture
def test_reordering_rolls_to_capture_seed_star_example():
    """000: "En spiller står tre felter fra en stjerne, og slår først en 6'er og så en 3'er.
    Spilleren kan vælge først at rykke de tre felter (fra 3'eren), hoppe fra stjernen til
    næste stjerne, og så rykke seks felter (fra 6'eren). Hvis spilleren kan slå en brik hjem
    ved at rykke i omvendt rækkefølge (først 6'eren og så 3'eren), så skal spilleren gøre
    det" (three squares before a star, rolling 6 then 3, the player may play the 3 first,
    jump, then the 6; if playing the 6 first captures, the player must do that).

    Piece on 21, star at 24 (jumps to 30); a lone opponent on 27.
    """
    placed = {0: [21, GOAL, GOAL, GOAL], 2: [on_square(2, 27), -1, -1, -1]}
    pos = make(placed)
    plans = plans_of(pos, [6, 3])
    assert {p.steps: p.captures for p in plans} == {((0, 6), (0, 3)): 1, ((0, 3), (0, 6)): 0}
    assert after(pos, [(0, 3), (0, 6)]).progress[0][0] == 36  # 24 -> jump 30 -> 36
    assert steps(forced(KILLER, plans)) == [((0, 6), (0, 3))]
    g = killer_turn(placed, [6, 3])  # one legal plan: no choice drawn
    assert g.pos.progress[0][0] == 37  # 27 (capture) -> 30 star -> 37
    assert g.pos.progress[2][0] == YARD


def test_capture_at_an_intermediate_landing_stands():
    """000: "Ved alle 'mellemlandinger' gælder de normale regler, incl. at slå hjem, slå sig
    selv hjem, hop på stjerne osv" (at every intermediate landing the normal rules apply,
    including capturing, sending yourself home, star jumps)."""
    placed = {0: [10, GOAL, GOAL, GOAL], 2: [on_square(2, 16), -1, -1, -1]}
    pos = make(placed)
    plans = {p.steps: p for p in plans_of(pos, [6, 1])}
    assert plans[((0, 6), (0, 1))].captures == 1
    assert plans[((0, 1), (0, 6))].captures == 0
    end = after(pos, [(0, 6), (0, 1)])
    assert end.progress[0][0] == 24  # 16, then 17 star -> 24
    assert end.progress[2][0] == YARD
    assert after(pos, [(0, 1), (0, 6)]).progress[0][0] == 23  # 11 star -> 17, then 23


def test_self_sending_home_at_an_intermediate_landing():
    """000: "Ved alle 'mellemlandinger' gælder de normale regler, incl. ... slå sig selv hjem"
    (at every intermediate landing ... including sending yourself home): the roll counts as
    used and a later 6 may bring the piece out again."""
    block = on_square(1, 12)
    pos = make({0: [10, GOAL, GOAL, GOAL], 1: [block, block, -1, -1]})
    plans = plans_of(pos, [6, 2])
    assert steps(plans) == [((0, 2), (0, 6))]  # the 6 cannot pass the block
    assert after(pos, [(0, 2), (0, 6)]).progress[0][0] == 0


# --------------------------------------------------------- as many rolls
def test_use_as_many_rolls_as_possible():
    """000: "Hvis det ikke er muligt at anvende alle terningeslag skal du anvende så mange
    som muligt" (if not all rolls can be used, use as many as possible).

    Piece on 22, block on 29: the 6 first (to 28) leaves the 2 barred; the 2
    first lands on the star at 24, jumps over the block to 30, and the 6 follows.
    """
    block = on_square(1, 29)
    pos = make({0: [22, GOAL, GOAL, GOAL], 1: [block, block, -1, -1]})
    everything = steps(all_plans(KILLER, pos, 0, [6, 2]))
    assert ((0, 6),) in everything
    assert steps(plans_of(pos, [6, 2])) == [((0, 2), (0, 6))]
    assert after(pos, [(0, 2), (0, 6)]).progress[0][0] == 36


def test_highest_first_when_not_all_rolls_fit():
    """000: "skal du anvende så mange som muligt, og de højeste slag først" (use as many as
    possible, and the highest rolls first): only one of 6 and 3 fits before the block, so
    the 6 must be played."""
    block = on_square(1, 32)
    pos = make({0: [25, GOAL, GOAL, GOAL], 1: [block, block, -1, -1]})
    everything = steps(all_plans(KILLER, pos, 0, [6, 3]))
    assert sorted(everything) == [((0, 3),), ((0, 6),)]
    assert steps(plans_of(pos, [6, 3])) == [((0, 6),)]


def test_no_usable_roll_gives_the_empty_plan():
    """docs/rules.md section 5: a plan uses as many rolls as possible, possibly none: an opponent
    block on the own start globe stops the entering 6; in a turn a block right ahead of the only
    piece in play stops the 3, so the turn passes with nothing played."""
    block = on_square(1, 0)
    placed = {0: [-1, GOAL, GOAL, GOAL], 1: [block, block, -1, -1]}
    assert steps(plans_of(make(placed), [6, 3])) == [()]
    ahead = on_square(1, 11)
    placed = {0: [10, -1, GOAL, GOAL], 1: [ahead, ahead, -1, -1]}
    g = killer_turn(placed, [3])
    assert g.pos.progress[0][:2] == [10, YARD]
    assert any("has no move" in line for line in g.transcript)


def test_six_that_cannot_enter_is_a_failed_start_try():
    """docs/rules.md section 8.2: with no piece in play a 6 that cannot enter (an opponent block on
    the
    own start globe) is a failed start try: it earns no further roll of the sequence, the
    next try follows, and three failed tries end the turn."""
    block = on_square(1, 0)
    placed = {0: [-1, GOAL, GOAL, GOAL], 1: [block, block, -1, -1]}
    g = killer_turn(placed, [6, 6, 3])
    assert g.rolls == 3 and g.pos.progress[0][0] == YARD


# --------------------------------------------------------------- stars
def test_jumping_from_and_to_occupied_stars():
    """000: "Såfremt der står en brik på den stjerne der hoppes fra, eller på den stjerne der
    hoppes til, bliver den pågældende brik slået hjem" (a piece on the star jumped from or
    to is sent home): the 3 first captures on both stars."""
    placed = {
        0: [21, GOAL, GOAL, GOAL],
        2: [on_square(2, 24), -1, -1, -1],
        3: [on_square(3, 30), -1, -1, -1],
    }
    pos = make(placed)
    plans = {p.steps: p.captures for p in plans_of(pos, [6, 3])}
    assert plans == {((0, 6), (0, 3)): 1, ((0, 3), (0, 6)): 2}
    end = after(pos, [(0, 3), (0, 6)])
    assert end.progress[2][0] == YARD and end.progress[3][0] == YARD
    assert end.progress[0][0] == 36


def test_block_on_the_target_star():
    """000: "To brikker i samme farve på en stjerne har helle og kan spærre den pågældende
    stjerne ..., også selvom der hoppes videre (man kan altså ikke hoppe videre, og hvis det
    er eneste træk, så slår man sig selv hjem)" (two pieces of one colour on a star bar it,
    also for a piece jumping there: it cannot jump on, and goes home).

    The 3 captures on star 24, the jump meets a block on 30: the lander goes home,
    the capture stands, and the 6 brings the piece out again.
    """
    block = on_square(3, 30)
    placed = {
        0: [21, GOAL, GOAL, GOAL],
        2: [on_square(2, 24), -1, -1, -1],
        3: [block, block, -1, -1],
    }
    pos = make(placed)
    plans = {p.steps: p.captures for p in plans_of(pos, [6, 3])}
    assert plans == {((0, 6), (0, 3)): 0, ((0, 3), (0, 6)): 1}
    end = after(pos, [(0, 3), (0, 6)])
    assert end.progress[2][0] == YARD
    assert end.progress[0][0] == 0  # sent home on 30, re-entered with the 6
    assert end.progress[3][:2] == [block, block]
    assert steps(forced(KILLER, plans_of(pos, [6, 3]))) == [((0, 3), (0, 6))]


def test_last_star_sends_the_piece_round_again():
    """000: "Dette gælder også såfremt der er tale om stjernen foran egen slutzone, og brikken
    skal i så fald 'rejse' endnu en omgang (yep, surt, men sådan er reglerne!)" (this also
    holds for the star in front of one's own finish zone: the piece travels another lap)."""
    pos = make({0: [44, GOAL, GOAL, GOAL]})
    assert after(pos, [(0, 6), (0, 3)]).progress[0][0] == 7  # 50 -> star 4 of the next lap
    assert after(pos, [(0, 3), (0, 6)]).progress[0][0] == 53  # 47, then into the home column


# ------------------------------------------------------------- bouncing
def test_bouncing_backwards_out_of_the_home_column_captures():
    """000: "En spiller står ét felt fra mål, og slår 3 seksere og en 1'er, skal altså flytte
    19 felter, også selvom det betyder at spillerens brik ender 18 felter væk fra mål" (one
    square from the goal, three 6s and a 1: move 19 squares, ending 18 from the goal);
    "Ved 'baglæns-spil' ud af slutzonen ... kan [spilleren] slå andres brikker hjem"
    (moving backwards out of the finish zone the player can capture).

    Every order ends on 40; only 6, 6, 6, 1 lands on 41, where a lone piece stands, so
    it is the one legal plan.
    """
    placed = {0: [57, GOAL, GOAL, GOAL], 1: [on_square(1, 41), -1, -1, -1]}
    pos = make(placed)
    plans = plans_of(pos, [6, 6, 6, 1])
    assert steps(plans) == [
        ((0, 6), (0, 6), (0, 6), (0, 1)),
        ((0, 6), (0, 6), (0, 1), (0, 6)),
        ((0, 6), (0, 1), (0, 6), (0, 6)),
    ]
    for plan in plans:
        assert after(pos, plan.steps).progress[0][0] == GOAL - 18
    assert [p.captures for p in plans] == [1, 0, 0]
    g = killer_turn(placed, [6, 6, 6, 1])
    assert g.pos.progress[0][0] == 40 and g.pos.progress[1][0] == YARD
    assert g.pos.reversed[0] == [False] * 4  # forwards again from the next turn


def test_must_bounce_out_backwards_to_capture():
    """000: "En spiller med flere brikker i spil, skal anvende sit slag til at spille en brik
    baglæns ud af slutzonen, såfremt det derved er muligt at slå en anden brik hjem" (a
    player with several pieces in play must use the roll to move a piece backwards out of
    the finish zone if that captures)."""
    placed = {0: [56, 10, GOAL, GOAL], 1: [on_square(1, 51), -1, -1, -1]}
    pos = make(placed)
    honest = forced(KILLER, plans_of(pos, [6, 3]))
    assert steps(honest) == [((0, 6), (0, 3)), ((0, 3), (0, 6))]
    for plan in honest:
        assert after(pos, plan.steps).progress[1][0] == YARD


# ------------------------------------------------------ own start globe
def test_entering_onto_own_start_globe_captures_the_opponent():
    """000: a piece on another player's start globe "kan godt slås hjem, men kun af en brik
    der bringes i spil fra den spilleren med pågældende hjemmezone" (can be sent home, but
    only by a piece brought into play by the player of that home zone); the capture is
    forced."""
    placed = {0: [10, -1, GOAL, GOAL], 1: [on_square(1, 0), -1, -1, -1]}
    pos = make(placed)
    plans = plans_of(pos, [6, 2])
    assert any(p.captures == 0 for p in plans)
    honest = forced(KILLER, plans)
    assert honest and all(p.captures == 1 for p in honest)
    assert all((1, 6) in p.steps for p in honest)


# ---------------------------------------------------------- forced capture
def test_forced_capture_filters_to_capturing_plans():
    """000: "Du skal slå en modspiller hvis du kan" (you must capture an opponent if you
    can), not necessarily the one with most captures (docs/rules.md section 5)."""
    placed = {
        0: [10, 20, GOAL, GOAL],
        2: [on_square(2, 16), -1, -1, -1],
        3: [on_square(3, 23), -1, -1, -1],
    }
    plans = plans_of(make(placed), [6, 3])
    honest = forced(KILLER, plans)
    assert {p.captures for p in honest} == {1, 2}
    assert all(p.captures for p in honest)
    assert len(honest) < len(plans)
    assert forced(KILLER.replace(forced_capture=False), plans) == plans


def test_game_plays_only_honest_plans():
    """000: "Du skal slå en modspiller hvis du kan": with one capturing plan the random
    policy has nothing to choose (no choice is drawn) and captures."""
    placed = {0: [21, GOAL, GOAL, GOAL], 2: [on_square(2, 27), -1, -1, -1]}
    g = killer_turn(placed, [6, 3])
    assert g.stats["captures"][0] == 1 and g.stats["skipped"][0] == 0


def test_most_rolls_beat_capturing():
    """docs/rules.md section 5 [choice]: using the most rolls comes first, capturing second: the 6
    could capture but would leave the 3 unused; the plans using both rolls do not capture."""
    block = on_square(2, 17)
    placed = {0: [10, -1, GOAL, GOAL], 1: [on_square(1, 16), -1, -1, -1], 2: [block, block, -1, -1]}
    pos = make(placed)
    everything = all_plans(KILLER, pos, 0, [6, 3])
    assert any(p.captures and len(p.steps) == 1 for p in everything)
    best = plans_of(pos, [6, 3])
    assert best and all(len(p.steps) == 2 and p.captures == 0 for p in best)


# -------------------------------------------------------------- ordering
def test_plan_order_values_high_to_low_then_piece_index():
    """docs/semantics.md: "Killer plans are listed in depth-first order: at each step the
    distinct remaining roll values from high to low, then piece index from low to high";
    docs/rules.md section 5: two orders that play the same rolls on the same pieces in a different
    order are different plans."""
    pos = make({0: [1, 27, GOAL, GOAL]})
    assert steps(plans_of(pos, [6, 2])) == [
        ((0, 6), (0, 2)),
        ((0, 6), (1, 2)),
        ((1, 6), (0, 2)),
        ((1, 6), (1, 2)),
        ((0, 2), (0, 6)),
        ((0, 2), (1, 6)),
        ((1, 2), (0, 6)),
        ((1, 2), (1, 6)),
    ]


def test_random_policy_takes_the_scripted_plan():
    """docs/rules.md section 7 / semantics: the policy chooses option number below(k) of the ordered
    list: choice 5 of the 8 plans above is (piece 0 plays 2, piece 1 plays 6)."""
    g = killer_turn({0: [1, 27, GOAL, GOAL]}, [6, 2], choices=[5])
    assert g.pos.progress[0][:2] == [3, 33]


# ----------------------------------------------------------------- puster
def test_puster_most_advanced_piece_after_the_turn():
    """000: "Hvis slaget kunne have været anvendt til at slå den ene af to (eller flere) brikker
    hjem, men ikke dem begge (eller alle), 'pustes' kun den brik der er længst fremme" (if the roll
    could have captured one of two pieces but not both, only the most advanced piece is 'blown'
    home); docs/rules.md section 5 [choice]: judged after the turn's moves.

    Pieces on 10 and 14 could each capture with the 6; never both.
    """
    placed = {0: [10, 14, GOAL, GOAL], 2: [on_square(2, 16), on_square(2, 20), -1, -1]}
    pos = make(placed)
    options = plans_of(pos, [6, 1])
    assert max(o.captures for o in options) == 1
    moved_back = after(pos, [(0, 1), (0, 6)])  # piece 0: 11 -> star 17 -> 23
    assert moved_back.progress[0][:2] == [23, 14]
    assert pieces_at_risk(options, moved_back, 0) == (0,)
    moved_front = after(pos, [(1, 1), (1, 6)])  # piece 1: 15 -> 21
    assert moved_front.progress[0][:2] == [10, 21]
    assert pieces_at_risk(options, moved_front, 0) == (1,)


def test_puster_all_pieces_of_the_max_capture_plan():
    """000: "I de tilfælde hvor slaget kunne have været anvendt til at slå to (eller flere)
    brikker hjem, hvis slagene havde været fordelt på to (eller flere) brikker, 'pustes' de
    pågældende brikker" (if the rolls could have captured two or more pieces spread over two
    or more pieces, those pieces are blown home)."""
    placed = {
        0: [10, 20, GOAL, GOAL],
        2: [on_square(2, 16), -1, -1, -1],
        3: [on_square(3, 23), -1, -1, -1],
    }
    pos = make(placed)
    options = plans_of(pos, [6, 3])
    skipped = after(pos, [(1, 6), (0, 3)])
    assert sorted(pieces_at_risk(options, skipped, 0)) == [0, 1]


def test_puster_tie_takes_the_first_plan_in_order():
    """docs/rules.md section 5 [choice]: when several plans tie for the most captures, the first in
    the order (values high to low, then piece index) counts: (piece 0 plays 6, piece 1 plays 3)
    comes before (piece 2 plays 6, piece 1 plays 3)."""
    placed = {
        0: [10, 20, 29, GOAL],
        2: [on_square(2, 16), on_square(2, 35), -1, -1],
        3: [on_square(3, 23), -1, -1, -1],
    }
    pos = make(placed)
    options = plans_of(pos, [6, 3])
    two = [o.steps for o in options if o.captures == 2]
    assert ((0, 6), (1, 3)) in two and ((2, 6), (1, 3)) in two
    assert pieces_at_risk(options, pos, 0) == (0, 1)


def test_puster_home_column_piece_is_not_exempt():
    """docs/rules.md section 5: pieces in the goal are exempt; pieces in the home column are not."""
    placed = {0: [45, GOAL, GOAL, GOAL], 1: [on_square(1, 48), -1, -1, -1]}
    pos = make(placed)
    options = plans_of(pos, [6, 3])
    skipped = after(pos, [(0, 6), (0, 3)])
    assert skipped.progress[0][0] == 54
    assert pieces_at_risk(options, skipped, 0) == (0,)


def test_puster_goal_piece_is_exempt():
    """docs/rules.md section 5: pieces in the goal are exempt."""
    placed = {0: [45, GOAL, GOAL, GOAL], 1: [on_square(1, 46), -1, -1, -1]}
    pos = make(placed)
    options = plans_of(pos, [6, 6, 1])
    assert any(o.captures for o in options)
    skipped = after(pos, [(0, 6), (0, 6), (0, 1)])
    assert skipped.progress[0][0] == GOAL
    assert pieces_at_risk(options, skipped, 0) == ()


def _skip_game(detect_skip: float, script: list):
    rules = KILLER.replace(detect_skip=detect_skip)
    placed = {
        0: [10, 20, GOAL, GOAL],
        2: [on_square(2, 16), -1, -1, -1],
        3: [on_square(3, 23), -1, -1, -1],
    }
    pos = make(placed, rules)
    options = plans_of(pos, [6, 3], rules)
    g = Game(rules, 0, start=after(pos, [(1, 6), (0, 3)], rules))
    g.stream = ScriptedStream(script)
    g.end_turn(0, [options])
    assert g.stream.exhausted()
    return g


def test_puster_caught_with_probability_detect_skip():
    """000: "Hvis du kunne slå en modspiller og ikke gjorde det, og en af de andre spillere
    opdager det ..., så bliver den pågældende brik slået hjem – en såkaldt 'puster'" (if you
    could capture and did not, and another player notices, that piece is sent home);
    docs/rules.md section 5 [choice]: caught with probability detect_skip (one uniform() draw)."""
    caught = _skip_game(0.5, [0.49])
    assert caught.pos.progress[0][:2] == [YARD, YARD]
    assert caught.stats["skipped"][0] == 1 and caught.stats["caught"][0] == 1
    missed = _skip_game(0.5, [0.5])
    assert missed.pos.progress[0][:2] == [13, 26]
    assert missed.stats["skipped"][0] == 1 and missed.stats["caught"][0] == 0


def test_puster_certain_or_never_draws_nothing():
    """docs/semantics.md: "caught ... always with 1, never with 0, nothing drawn in either
    case"."""
    assert _skip_game(1.0, []).stats["caught"][0] == 1
    assert _skip_game(0.0, []).pos.progress[0][:2] == [13, 26]


# ------------------------------------------------- capture before home
def test_a_locked_plan_reads_the_lock_at_every_move():
    """Capture before home (`home_unlock = capture`) under Killer's plans: each roll of a
    plan is one move, which reads the seat's lock as it stands then. Rolling 6 and 3 from
    46 with a lone opponent on 49: the 3 first captures there and opens the column, so
    the 6 takes the piece into it (55); the 6 first reaches the own start square (52,
    the entry), and the 3 then goes on round the track, the seat still locked (3 of a
    new lap). Forced captures leave the first order."""
    rules = KILLER.replace(home_unlock="capture")
    pos = make({0: [46, GOAL, GOAL, GOAL], 1: [on_square(1, 49), -1, -1, -1]}, rules)
    plans = {p.steps: p for p in plans_of(pos, [6, 3], rules)}
    assert plans[((0, 3), (0, 6))].captures == 1
    assert plans[((0, 6), (0, 3))].captures == 0
    opened = after(pos, [(0, 3), (0, 6)], rules)
    assert opened.progress[0][0] == 55 and opened.unlocked[0]
    lapped = after(pos, [(0, 6), (0, 3)], rules)
    assert lapped.progress[0][0] == 3 and not lapped.unlocked[0]
    assert steps(forced(rules, list(plans.values()))) == [((0, 3), (0, 6))]
