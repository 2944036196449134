"""Scenario tests for docs/rules.md section 3 (a single move).

Each test builds a position by hand, lists the legal moves of one face and
plays one, checking the walk, the landing and the events.
"""

from __future__ import annotations

import pytest
from scenario_helpers import make, move_of, on_square

from ludosim.reference import (
    CAPTURE,
    HOME,
    LAND,
    Captured,
    Game,
    Jumped,
    Position,
    SentHome,
    legal_moves,
    play_move,
    resolve_landing,
    try_move,
)
from ludosim.rules.board import YARD
from ludosim.rules.model import Rules
from ludosim.rules.streams import ScriptedStream, faces_to_script


# ---------------------------------------------------------------- helpers
def play(rules: Rules, pos: Position, seat: int, face, piece: int):
    """Play the (legal) move of `piece` for `face` in place and return its result."""
    move = move_of(rules, pos, seat, face, piece)
    assert move is not None, f"piece {piece} has no legal move for {face}"
    return play_move(rules, pos, move)


APP, ITALIAN, DANISH, KILLER = (Rules.preset(n) for n in ("app", "italian", "danish", "killer"))


# ================================================================ passing
def test_app_cannot_pass_opponent():
    """001: "Als het fiche van een tegenstander je pad blokkeert, moet je op hetzelfde veld
    landen als het fiche om het te veroveren. Je kunt niet voorbij dat token gaan" (if an
    opponent's token blocks your path you must land on it to capture it; you cannot go past
    it); docs/rules.md section 3 [choice]: the literal reading, a single token blocks."""
    victim = on_square(APP, 2, 12)
    pos = make(APP, {0: [10, 56, 56, 56], 2: [victim, -1, -1, -1]})
    for face in (3, 4, 5, 6):
        assert move_of(APP, pos, 0, face, 0) is None
    result = play(APP, pos, 0, 2, 0)
    assert result.captures == 1 and pos.progress[2][0] == YARD


def test_app_may_pass_own_pieces():
    """docs/rules.md sections 3 and 6: app pass_own = yes: only opponents bar the path."""
    pos = make(APP, {0: [10, 12, 56, 56]})
    assert move_of(APP, pos, 0, 5, 0).target == 15


def test_danish_cannot_pass_own_piece():
    """002: "Du må ikke springe over dine egne brikker" (you may not jump over your own
    pieces); landing on it is allowed: "Der må gerne stå flere brikker af samme farve på
    det samme felt" (several pieces of one colour may stand on one square)."""
    pos = make(DANISH, {0: [10, 12, 56, 56]})
    for face in (3, 4, 5, 6):
        assert move_of(DANISH, pos, 0, face, 0) is None
    play(DANISH, pos, 0, 2, 0)
    assert pos.progress[0][:2] == [12, 12]
    assert len(pos.at(12)) == 2


def test_danish_may_pass_opponents_and_blocks():
    """002: "Du må gerne springe over modstanderbrikker, når du flytter" (you may jump over
    opponent pieces when you move)."""
    block = on_square(DANISH, 2, 12)
    pos = make(DANISH, {0: [10, 56, 56, 56], 2: [block, block, -1, -1], 3: [0, -1, -1, -1]})
    move = move_of(DANISH, pos, 0, 5, 0)
    assert move is not None and move.target == 15


def test_killer_cannot_pass_a_block():
    """000: two pieces of one colour "kan spærre den pågældende stjerne som ethvert andet felt" (can
    bar that star like any other square); docs/rules.md section 3 [choice]: a block may not be
    passed. Landing on it is still a (self-sending-home) move."""
    block = on_square(KILLER, 2, 14)
    pos = make(KILLER, {0: [12, 58, 58, 58], 2: [block, block, -1, -1]})
    for face in (3, 4, 5, 6):
        assert move_of(KILLER, pos, 0, face, 0) is None
    result = play(KILLER, pos, 0, 2, 0)
    assert result.sent_home and pos.progress[0][0] == YARD


def test_killer_passes_single_opponents_and_own_pieces():
    """docs/rules.md section 3: killer pass_opponents = singles (a lone opponent is passed) and
    [choice] own pieces may be passed, even two of them."""
    lone = on_square(KILLER, 2, 14)
    pos = make(KILLER, {0: [12, 15, 15, 58], 2: [lone, -1, -1, -1]})
    move = move_of(KILLER, pos, 0, 6, 0)
    assert move is not None and move.target == 18


def test_italian_passes_anything():
    """003: "lo pezzo può passare liberamente per ogni case ... non ci sono barriere nel
    azionamento" (a piece passes every square freely; there are no barriers)."""
    block = on_square(ITALIAN, 2, 14)
    pos = make(ITALIAN, {0: [10, 12, 12, 56], 2: [block, block, -1, -1]})
    assert move_of(ITALIAN, pos, 0, 6, 0).target == 16


def test_passing_rules_apply_to_backward_moves():
    """docs/rules.md section 3: the passing rules apply to every kind of move on the shared track:
    ... and backward moves: a reversed Killer piece cannot walk back past a block."""
    block = on_square(KILLER, 2, 18)
    pos = make(KILLER, {0: [20, 58, 58, 58], 2: [block, block, -1, -1]})
    pos.reversed[0][0] = True
    assert move_of(KILLER, pos, 0, 3, 0) is None
    move = move_of(KILLER, pos, 0, 1, 0)
    assert move.target == 19 and move.backwards


def test_home_column_never_bars_a_path():
    """docs/rules.md section 3: squares of a home column and the goal never bar a path (a piece may
    bounce past its own piece in its home column)."""
    pos = make(DANISH, {0: [52, 54, 56, 56]})
    assert move_of(DANISH, pos, 0, 3, 0).target == 55
    bounce = move_of(DANISH, pos, 0, 6, 0)
    assert bounce.walk == (53, 54, 55, 56, 55, 54)


def test_star_jump_passes_nothing():
    """docs/rules.md section 3: A star jump flies over the squares between the two stars and passes
    nothing: a block between the stars neither bars the jump nor is touched, and a lone
    piece on the globe between is not captured."""
    block = on_square(KILLER, 2, 6)
    lone = on_square(KILLER, 3, 8)
    placed = {0: [1, 58, 58, 58], 2: [block, block, -1, -1], 3: [lone, -1, -1, -1]}
    pos = make(KILLER, placed)
    result = play(KILLER, pos, 0, 3, 0)
    assert pos.progress[0][0] == 11
    assert result.captures == 0 and pos.progress[3][0] == lone
    assert any(isinstance(e, Jumped) for e in result.events)


# ================================================================ landing
def test_danish_lone_opponent_is_captured():
    """002: "Lander du på et felt, hvor der står én modstanderbrik, sendes den brik tilbage
    til dens startområde" (landing on a square with one opponent piece sends it back)."""
    victim = on_square(DANISH, 2, 14)
    pos = make(DANISH, {0: [10, 56, 56, 56], 2: [victim, 20, -1, -1]})
    assert resolve_landing(DANISH, pos, 0, 0, 14) == (CAPTURE, [(2, 0)])
    result = play(DANISH, pos, 0, 4, 0)
    assert result.captures == 1
    assert pos.progress[2] == [YARD, 20, -1, -1]
    assert pos.progress[0][0] == 14
    assert [type(e) for e in result.events].count(Captured) == 1
    pos.check()


def test_danish_block_sends_the_lander_home():
    """002: "Står der to eller flere modstanderbrikker på feltet, kan de ikke slås hjem. I
    stedet er det din brik, der sendes hjem" (two or more opponent pieces cannot be sent
    home; your piece goes home instead)."""
    block = on_square(DANISH, 2, 14)
    pos = make(DANISH, {0: [10, 56, 56, 56], 2: [block, block, -1, -1]})
    result = play(DANISH, pos, 0, 4, 0)
    assert result.sent_home and result.captures == 0
    assert pos.progress[0][0] == YARD
    assert pos.progress[2][:2] == [block, block]
    assert isinstance(result.events[-1], SentHome)


def test_killer_block_sends_the_lander_home():
    """000: "hvis det er eneste træk, så slår man sig selv hjem" (if it is the only move, you
    send yourself home)."""
    block = on_square(KILLER, 1, 14)
    pos = make(KILLER, {0: [10, 58, 58, 58], 1: [block, block, -1, -1]})
    assert play(KILLER, pos, 0, 4, 0).sent_home


def test_app_captures_the_whole_stack():
    """docs/rules.md section 3 [choice]: in app the whole opponent stack is captured (001: "moet je
    op hetzelfde veld landen als het fiche om het te veroveren", land on it to capture it)."""
    square = 14
    pos = make(APP, {0: [10, 56, 56, 56], 2: [on_square(APP, 2, square)] * 2 + [-1, -1]})
    result = play(APP, pos, 0, 4, 0)
    assert result.captures == 2
    assert pos.progress[2] == [YARD] * 4
    assert pos.at(square) == [(0, 0)]


def test_italian_safe_start_square_shares():
    """003: "In queste case, anche se un pezzo è solo, non può essere cattutato ... i due
    pezzi avversario rimangono insieme in quella casa" (on these squares even a lone piece
    cannot be captured; the two opposing pieces stay together)."""
    pos = make(ITALIAN, {0: [10, 56, 56, 56], 1: [0, -1, -1, -1]})
    result = play(ITALIAN, pos, 0, 3, 0)
    assert result.captures == 0 and not result.sent_home
    assert sorted(pos.at(13)) == [(0, 0), (1, 0)]


def test_italian_star_square_shares():
    """003: "Lo stesso per le case con una stella" (the same for the star squares)."""
    pos = make(ITALIAN, {0: [18, 56, 56, 56], 1: [8, -1, -1, -1]})
    result = play(ITALIAN, pos, 0, 3, 0)
    assert result.captures == 0 and pos.progress[1][0] == 8 and pos.progress[0][0] == 21


def test_italian_lone_piece_rule():
    """003: "Una acquisizione succede quando un pezzo finisce lo azionamento in una casa dove
    c'è solo un pezzo, e questo pezzo è di un giocatore avversario" (a capture happens when
    a piece ends its move on a square holding only one piece, an opponent's): an opponent
    sharing an unsafe square with the mover's own piece is not captured. Danish
    (lone_opponent) captures it."""
    victim = on_square(ITALIAN, 2, 14)
    placed = {0: [10, 14, 56, 56], 2: [victim, -1, -1, -1]}
    pos = make(ITALIAN, placed)
    assert play(ITALIAN, pos, 0, 4, 0).captures == 0
    assert pos.progress[2][0] == victim
    danish = make(DANISH, placed)
    assert play(DANISH, danish, 0, 4, 0).captures == 1


def test_italian_lone_piece_captured_on_unsafe_square():
    """003: the capture itself: a lone opponent on an unsafe square is captured."""
    pos = make(ITALIAN, {0: [10, 56, 56, 56], 2: [on_square(ITALIAN, 2, 14), -1, -1, -1]})
    assert play(ITALIAN, pos, 0, 4, 0).captures == 1


def test_italian_block_coexists():
    """docs/rules.md section 3: block_landing = coexist in italian (captures need "solo un
    pezzo")."""
    block = on_square(ITALIAN, 2, 14)
    pos = make(ITALIAN, {0: [10, 56, 56, 56], 2: [block, block, -1, -1]})
    result = play(ITALIAN, pos, 0, 4, 0)
    assert result.captures == 0 and not result.sent_home
    assert len(pos.at(14)) == 3


def test_killer_lone_piece_on_globe_sends_the_lander_home():
    """000: "En brik på et globusfelt har helle og kan ikke slås hjem" (a piece on a globe
    is safe and cannot be sent home); docs/rules.md section 3 [choice]: the lander goes home."""
    lone = on_square(KILLER, 2, 8)
    pos = make(KILLER, {0: [5, 58, 58, 58], 2: [lone, -1, -1, -1]})
    assert resolve_landing(KILLER, pos, 0, 0, 8) == (HOME, [])
    result = play(KILLER, pos, 0, 3, 0)
    assert result.sent_home and pos.progress[2][0] == lone


def test_killer_two_own_pieces_are_safe():
    """000: "Det samme gælder for to brikker i samme farve på samme felt" (the same holds
    for two pieces of one colour on one square): landing on them sends the lander home."""
    pair = on_square(KILLER, 2, 15)
    pos = make(KILLER, {0: [10, 58, 58, 58], 2: [pair, pair, -1, -1]})
    assert resolve_landing(KILLER, pos, 0, 0, 15) == (HOME, [])


def test_block_of_two_colours_is_a_block():
    """docs/rules.md section 3: a block is two or more opponent pieces on one track square: two
    pieces of different opponents also send a Danish lander home ([choice]: a mixed block)."""
    other = on_square(DANISH, 2, 14)
    pos = make(DANISH, {0: [10, 56, 56, 56], 1: [1, -1, -1, -1], 2: [other, -1, -1, -1]})
    assert len(pos.at(14)) == 2
    assert resolve_landing(DANISH, pos, 0, 0, 14)[0] == HOME


def test_landing_on_empty_or_own_square_lands():
    """docs/rules.md section 3 / semantics: k == 0 opponents: the piece lands."""
    pos = make(KILLER, {0: [10, 15, 58, 58]})
    assert resolve_landing(KILLER, pos, 0, 0, 15) == (LAND, [])


# ============================================================= star jumps
def test_star_jump_to_the_next_star():
    """000: "Såfremt en brik 'ender' på en stjerne, springer den pågældende brik videre til
    næste stjerne" (a piece ending on a star jumps on to the next star), once."""
    pos = make(KILLER, {0: [1, 58, 58, 58]})
    result = play(KILLER, pos, 0, 3, 0)
    assert pos.progress[0][0] == 11
    jumps = [e for e in result.events if isinstance(e, Jumped)]
    assert [(j.start, j.end) for j in jumps] == [(4, 11)]


def test_star_jump_captures_on_both_stars():
    """000: "Såfremt der står en brik på den stjerne der hoppes fra, eller på den stjerne der
    hoppes til, bliver den pågældende brik slået hjem ... uanset at brikken 'hopper videre'"
    (a piece on the star jumped from or to is sent home, although the piece jumps on)."""
    from_ = on_square(KILLER, 2, 4)
    to = on_square(KILLER, 3, 11)
    pos = make(KILLER, {0: [1, 58, 58, 58], 2: [from_, -1, -1, -1], 3: [to, -1, -1, -1]})
    result = play(KILLER, pos, 0, 3, 0)
    assert result.captures == 2
    assert pos.progress[2][0] == YARD and pos.progress[3][0] == YARD
    assert pos.progress[0][0] == 11


def test_star_block_on_the_first_star_stops_the_jump():
    """000: "To brikker i samme farve på en stjerne har helle og kan spærre den pågældende
    stjerne ... (man kan altså ikke hoppe videre, og hvis det er eneste træk, så slår man sig
    selv hjem)" (two pieces on a star are safe and bar it: no jump, the lander goes home)."""
    block = on_square(KILLER, 2, 4)
    pos = make(KILLER, {0: [1, 58, 58, 58], 2: [block, block, -1, -1]})
    result = play(KILLER, pos, 0, 3, 0)
    assert result.sent_home
    assert not any(isinstance(e, Jumped) for e in result.events)


def test_star_block_on_the_target_star():
    """docs/rules.md section 3: a lone opponent there is captured, then the jump is made, and a
    block on the second star sends the lander home (the first capture stands)."""
    lone = on_square(KILLER, 2, 4)
    block = on_square(KILLER, 3, 11)
    placed = {0: [1, 58, 58, 58], 2: [lone, -1, -1, -1], 3: [block, block, -1, -1]}
    pos = make(KILLER, placed)
    result = play(KILLER, pos, 0, 3, 0)
    assert result.captures == 1 and result.sent_home
    assert pos.progress[2][0] == YARD
    assert pos.progress[0][0] == YARD
    assert pos.progress[3][:2] == [block, block]


def test_star_jump_happens_once():
    """docs/rules.md section 3: it does not jump again from the star it reaches: 17 -> 24 only."""
    pos = make(KILLER, {0: [14, 58, 58, 58]})
    play(KILLER, pos, 0, 3, 0)
    assert pos.progress[0][0] == 24


def test_last_star_sends_the_killer_piece_round_again():
    """000: "Dette gælder også såfremt der er tale om stjernen foran egen slutzone, og brikken
    skal i så fald 'rejse' endnu en omgang" (this also holds for the star in front of one's
    own finish zone, and the piece must then travel another lap): next_lap."""
    pos = make(KILLER, {0: [47, 58, 58, 58]})
    play(KILLER, pos, 0, 3, 0)
    assert pos.progress[0][0] == 4
    assert pos.board.square(0, 4) == 4


def test_star_jump_goal_variant_goes_into_the_goal():
    """docs/rules.md section 3: with goal (the common Danish house rule, and LUDOpy's) it jumps
    straight into the goal."""
    rules = KILLER.replace(star_jump="goal")
    pos = make(rules, {0: [47, 58, 58, 58]})
    result = play(rules, pos, 0, 3, 0)
    assert pos.progress[0][0] == 58 and result.finished
    danish = DANISH.replace(star_jump="goal")
    pos = make(danish, {0: [44, 56, 56, 56]})
    assert play(danish, pos, 0, 6, 0).finished


# ====================================================== killer start globes
def test_killer_piece_on_another_start_globe_is_safe():
    """000: "Eneste undtagelse herfra, er en brik der står på en globus ved en anden spillers
    hjemmezone. Denne brik kan godt slås hjem, men kun af en brik der bringes i spil fra den
    spilleren med pågældende hjemmezone" (a piece on another player's start globe can be sent
    home only by a piece that player brings into play)."""
    sitter = on_square(KILLER, 1, 0)  # seat 1's piece on seat 0's start globe
    lander = on_square(KILLER, 2, 50)
    pos = make(KILLER, {0: [-1, 58, 58, 58], 1: [sitter, -1, -1, -1], 2: [lander, -1, -1, -1]})
    result = play(KILLER, pos.copy(), 2, 2, 0)  # seat 2 lands on square 0
    assert result.sent_home and result.captures == 0
    entering = play(KILLER, pos, 0, 6, 0)  # seat 0 brings a piece out
    assert entering.captures == 1 and entering.entered
    assert pos.progress[1][0] == YARD and pos.progress[0][0] == 0


def test_killer_entering_onto_own_start_block_is_not_a_move():
    """docs/rules.md section 6 [choice]: entering a piece onto an opponent block that would send it
    straight back to the yard is not a legal move."""
    pair = on_square(KILLER, 1, 0)
    pos = make(KILLER, {0: [-1, 58, 58, 58], 1: [pair, pair, -1, -1]})
    assert legal_moves(KILLER, pos, 0, 6) == []


def test_danish_entering_captures_by_the_general_rule():
    """002: "Lander du på et felt, hvor der står én modstanderbrik, sendes den brik tilbage"
    (landing on one opponent piece sends it back): Danish start squares are not safe, so an
    entering piece captures like any other (start_capture is off)."""
    pos = make(DANISH, {0: [-1, 56, 56, 56], 1: [on_square(DANISH, 1, 0), -1, -1, -1]})
    result = play(DANISH, pos, 0, 6, 0)
    assert result.captures == 1


def test_italian_entering_shares_the_safe_start():
    """003: "Le case iniziale di ogni giocatore impedisce cattura di ogni pezzo" (every
    player's entry square prevents capture of any piece)."""
    pos = make(ITALIAN, {0: [-1, 56, 56, 56], 1: [on_square(ITALIAN, 1, 0), -1, -1, -1]})
    result = play(ITALIAN, pos, 0, 6, 0)
    assert result.captures == 0 and len(pos.at(0)) == 2


# ====================================================== reaching the goal
@pytest.mark.parametrize("rules", [APP, ITALIAN], ids=["app", "italian"])
def test_exact_roll_needed_for_the_goal(rules):
    """003: "Se il risultato del cubo è maggiore che la distanza del pezzo dalla aree finale,
    questo pezzo non può essere spostato" (a roll larger than the distance to the goal
    cannot move that piece); 001: "toegang tot het finishveld vereist een precieze worp"."""
    pos = make(rules, {0: [53, 56, 56, 56]})
    for face in (4, 5, 6):
        assert move_of(rules, pos, 0, face, 0) is None
    assert play(rules, pos, 0, 3, 0).finished


def test_danish_bounce():
    """002: "Slår du for højt, flytter du først frem til slutpunktet og går derefter tilbage
    med de resterende felter" (roll too high: move forward to the end point, then back with
    the remaining squares)."""
    pos = make(DANISH, {0: [53, 56, 56, 56]})
    move = move_of(DANISH, pos, 0, 5, 0)
    assert move.walk == (54, 55, 56, 55, 54) and move.bounced
    result = play_move(DANISH, pos, move)
    assert not result.finished and pos.progress[0][0] == 54
    assert pos.reversed[0][0] is False
    # the next move goes forwards again
    assert move_of(DANISH, pos, 0, 2, 0).target == 56


def test_killer_bounce_reverses_the_piece_for_the_turn():
    """000: "det kan betyde at en brik må rykke baglæns væk fra mål, hvis hele slaget ikke er
    brugt" (a piece may have to move backwards away from the goal if the roll is not used
    up); docs/rules.md section 3: bounce_on keeps moving backwards for the rest of the turn."""
    pos = make(KILLER, {0: [56, 58, 58, 58]})
    play(KILLER, pos, 0, 4, 0)
    assert pos.progress[0][0] == 56 and pos.reversed[0][0]
    move = move_of(KILLER, pos, 0, 2, 0)
    assert move.walk == (55, 54) and move.backwards


def test_killer_bounce_backwards_onto_the_track_captures():
    """000: "Ved 'baglæns-spil' ud af slutzonen gælder de normale regler for dræberludo, og
    spilleren kan derfor slå andres brikker hjem" (moving backwards out of the finish zone
    the normal rules apply, so the player can send others' pieces home)."""
    victim = on_square(KILLER, 1, 51)
    pos = make(KILLER, {0: [53, 58, 58, 58], 1: [victim, -1, -1, -1]})
    pos.reversed[0][0] = True
    result = play(KILLER, pos, 0, 2, 0)
    assert pos.progress[0][0] == 51 and pos.board.square(0, 51) == 51
    assert result.captures == 1 and pos.progress[1][0] == YARD


def test_killer_bounce_backwards_star_jump():
    """000: "hoppe fra stjerne til stjerne (baglæns)" (jump from star to star, backwards):
    docs/rules.md section 3: moving backwards (bounce_on) a piece jumps to the previous star; a lone
    piece on the star it reaches is captured."""
    victim = on_square(KILLER, 2, 43)
    pos = make(KILLER, {0: [53, 58, 58, 58], 2: [victim, -1, -1, -1]})
    pos.reversed[0][0] = True
    result = play(KILLER, pos, 0, 3, 0)
    assert pos.progress[0][0] == 43
    assert result.captures == 1


def test_killer_bounce_within_one_turn_leaves_the_home_column():
    """000: "En spiller står ét felt fra mål, og slår 3 seksere og en 1'er, skal altså flytte
    19 felter, også selvom det betyder at spillerens brik ender 18 felter væk fra mål" (one
    square from the goal, three 6s and a 1 move 19 squares, ending 18 squares from the goal,
    outside the finish zone)."""
    rules = KILLER
    pos = make(rules, {0: [57, 58, 58, 58]})
    child, _ = try_move(rules, pos, move_of(rules, pos, 0, 6, 0))
    assert child.progress[0][0] == 53 and child.reversed[0][0]
    for face in (6, 6, 1):
        child, _ = try_move(rules, child, move_of(rules, child, 0, face, 0))
    assert child.progress[0][0] == 58 - 18


def test_killer_piece_moves_forwards_again_next_turn():
    """000: "Først ved næste tur må spilleren igen rykke den pågældende brik fremad" (only at
    the next turn may the player move that piece forwards again)."""
    rules = KILLER
    g = Game(rules, 0, start=make(rules, {0: [56, 58, 58, 58]}))
    g.stream = ScriptedStream(faces_to_script(rules.die_faces, [6, 2, 1]))
    g.play_turn(0)  # 6: 57, 58, back to 54 (reversed); 2: backwards to 52, the start globe
    assert g.pos.progress[0][0] == 52
    assert g.pos.reversed[0] == [False] * 4
    g.play_turn(0)  # next turn: 1 goes forwards into the home column
    assert g.pos.progress[0][0] == 53
    assert g.stream.exhausted()
