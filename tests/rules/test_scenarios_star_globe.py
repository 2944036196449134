"""Scenario tests for docs/rules.md section 4 (the star-and-globe die, `danish-globe`)."""

from __future__ import annotations

from scenario_helpers import make, on_square

from ludosim.reference import Game, legal_moves, play_move
from ludosim.rules.model import GLOBE, STAR, Rules
from ludosim.rules.streams import ScriptedStream, faces_to_script

DG = Rules.preset("danish-globe")


# ---------------------------------------------------------------- helpers
def target(rules: Rules, start: int, face, others=(56, 56, 56)) -> int | None:
    """Where seat 0's piece 0 at `start` goes with `face` (None: no legal move)."""
    pos = make(rules, {0: [start, *others]})
    for move in legal_moves(rules, pos, 0, face):
        if move.piece == 0:
            return move.target
    return None


def turn(rules: Rules, row: list[int], faces: list, choices=()) -> Game:
    """Play one turn of seat 0; `choices` are inserted after the first roll."""
    script = faces_to_script(rules.die_faces, faces)
    script[1:1] = list(choices)
    g = Game(rules, 0, start=make(rules, {0: row}))
    g.stream = ScriptedStream(script)
    g.play_turn(0)
    assert g.stream.exhausted(), f"only {g.stream.draws} of {len(script)} draws used"
    return g


# ------------------------------------------------------------------ globe
def test_only_the_globe_enters():
    """002: "For at flytte en brik fra start ud på banen skal du slå en globus" (to move a
    piece from the start onto the track you must roll a globe); docs/rules.md section 4: the 6 does
    not enter a piece."""
    pos = make(DG, {0: [-1, -1, -1, -1]})
    moves = legal_moves(DG, pos, 0, GLOBE)
    assert [m.piece for m in moves] == [0, 1, 2, 3] and all(m.entering for m in moves)
    for face in (1, 2, 4, STAR, 6):
        assert legal_moves(DG, pos, 0, face) == []


def test_globe_moves_to_the_next_globe():
    """002: "Slår du globus igen på ekstrakastet, kan du enten flytte en ny brik ud (hvis
    muligt) eller flytte en brik frem til næste globusfelt" (a globe may bring out a new
    piece or move a piece on to the next globe square)."""
    assert target(DG, 1, GLOBE) == 8
    assert target(DG, 8, GLOBE) == 13
    assert target(DG, 10, GLOBE) == 13
    assert target(DG, 22, GLOBE) == 26


def test_globe_takes_a_home_column_piece_to_the_goal():
    """002: "Et globus-slag kan bruges til at føre en brik direkte i mål, når den er på
    målstrækningen" (a globe can take a piece straight into the goal when it is on the home
    stretch)."""
    for start in range(51, 56):
        assert target(DG, start, GLOBE) == 56
    pos = make(DG, {0: [52, 56, 56, 56]})
    assert play_move(DG, pos, legal_moves(DG, pos, 0, GLOBE)[0]).finished


def test_globe_without_a_target_cannot_be_used():
    """docs/rules.md section 4 [choice]: A globe or star roll that has no target for a piece before
    its home column cannot be used on that piece (spilregler.dk: "Er en brik for tæt på mål til at
    få glæde af en globus eller stjerne, kan slaget ikke bruges på den brik")."""
    assert target(DG, 47, GLOBE) is None
    assert target(DG, 48, GLOBE) is None
    assert target(DG, 50, GLOBE) is None
    pos = make(DG, {0: [48, 10, 56, 56]})
    assert [m.piece for m in legal_moves(DG, pos, 0, GLOBE)] == [1]


def test_globe_always_earns_a_bonus_roll():
    """002: "En globus giver altid et ekstra kast" (a globe always gives an extra roll)."""
    g = turn(DG, [10, 56, 56, 56], [GLOBE, 1])
    assert g.pos.progress[0][0] == 14
    assert g.rolls == 2


def test_globe_without_a_move_still_earns_a_bonus_roll():
    """002: "En globus giver altid et ekstra kast" (always): even with no legal move."""
    g = turn(DG, [48, 56, 56, 56], [GLOBE, 1])
    assert g.pos.progress[0][0] == 49


def test_globe_counts_as_a_six_for_the_six_limit():
    """docs/rules.md section 4: the globe counts as a 6 for six_limit: globe, 6, globe is three in a
    row and the third is forfeited."""
    rules = DG.replace(six_limit=3)
    g = turn(rules, [10, 56, 56, 56], [GLOBE, 6, GLOBE])
    assert g.pos.progress[0][0] == 19
    assert g.rolls == 3


def test_three_tries_for_a_globe():
    """002: "Hvis du ikke har nogen brikker på banen, må du forsøge op til 3 slag på din tur
    for at få en globus" (with no pieces on the track you may try up to 3 rolls for a
    globe); a 6 does not count as success."""
    script = [*faces_to_script(DG.die_faces, [6, 6, GLOBE]), 0]
    script += faces_to_script(DG.die_faces, [1])
    g = Game(DG, 0, start=make(DG, {0: [-1, -1, -1, -1]}))
    g.stream = ScriptedStream(script)
    g.play_turn(0)
    assert g.stream.exhausted()
    assert g.pos.progress[0] == [1, -1, -1, -1]
    assert g.rolls == 4


# ------------------------------------------------------------------- star
def test_star_moves_to_the_nearest_star():
    """002: "Slår du en stjerne, flytter du en brik frem til nærmeste stjernefelt" (a star
    moves a piece forward to the nearest star square)."""
    assert target(DG, 1, STAR) == 4
    assert target(DG, 8, STAR) == 11
    assert target(DG, 9, STAR) == 11
    assert target(DG, 14, STAR) == 17
    assert target(DG, 27, STAR) == 30
    assert target(DG, 48, STAR) == 50


def test_star_may_not_pass_a_globe():
    """002: "Du må ikke passere et globusfelt i den flytning" (you may not pass a globe
    square in that move); "Vælg i stedet en anden brik, hvis det er muligt" (choose another
    piece instead if possible)."""
    assert target(DG, 5, STAR) is None  # globe at 8 before the star at 11
    assert target(DG, 4, STAR) is None  # from a star: same
    assert target(DG, 12, STAR) is None  # start globe 13 before the star at 17
    pos = make(DG, {0: [5, 1, 56, 56]})
    assert [m.piece for m in legal_moves(DG, pos, 0, STAR)] == [1]


def test_star_not_in_the_home_column_nor_past_the_last_star():
    """docs/rules.md section 4: the star is not allowed for a piece in the home column; [choice]: no
    target before the home column, no move."""
    for start in range(51, 56):
        assert target(DG, start, STAR) is None
    assert target(DG, 50, STAR) is None


def test_star_and_globe_follow_the_passing_rules():
    """docs/rules.md section 4: globe and star moves follow the passing rules: 002 "Du må ikke
    springe over dine egne brikker" (no jumping over your own pieces), opponents may be passed."""
    own = make(DG, {0: [1, 3, 56, 56]})
    assert [m.piece for m in legal_moves(DG, own, 0, GLOBE)] == [1]
    assert [m.piece for m in legal_moves(DG, own, 0, STAR)] == [1]
    opp = make(DG, {0: [1, 56, 56, 56], 2: [on_square(DG, 2, 3)] * 2 + [-1, -1]})
    assert [m.target for m in legal_moves(DG, opp, 0, GLOBE)] == [8]
    assert [m.target for m in legal_moves(DG, opp, 0, STAR)] == [4]


def test_star_and_globe_landings_follow_section_3():
    """docs/rules.md sections 4 and 3: a star or globe move lands like any move: a lone opponent is
    captured (002 "sendes den brik tilbage"), a block sends the lander home."""
    lone = make(DG, {0: [1, 56, 56, 56], 2: [on_square(DG, 2, 4), -1, -1, -1]})
    assert play_move(DG, lone, legal_moves(DG, lone, 0, STAR)[0]).captures == 1
    block = on_square(DG, 2, 8)
    pos = make(DG, {0: [1, 56, 56, 56], 2: [block, block, -1, -1]})
    assert play_move(DG, pos, legal_moves(DG, pos, 0, GLOBE)[0]).sent_home


def test_star_and_globe_always_go_forwards():
    """docs/rules.md section 4: globe and star moves ... always go forwards, also for a piece
    reversed by bounce_on."""
    rules = DG.replace(finish="bounce_on")
    pos = make(rules, {0: [53, 48, 56, 56]})
    pos.reversed[0][0] = pos.reversed[0][1] = True
    globe = {m.piece: m for m in legal_moves(rules, pos, 0, GLOBE)}
    assert globe[0].target == 56 and not globe[0].backwards
    star = {m.piece: m for m in legal_moves(rules, pos, 0, STAR)}
    assert star[1].target == 50 and not star[1].backwards
    number = {m.piece: m for m in legal_moves(rules, pos, 0, 2)}
    assert number[1].target == 46  # number faces do go backwards


# ---------------------------------------------------------------------- 6
def test_six_moves_six_earns_a_bonus_and_does_not_enter():
    """docs/rules.md section 4 [choice]: 6: moves six squares and earns a bonus roll per
    bonus_on_six ... It does not enter a piece (spilregler.dk: "Ekstrakast gives ved at slå en
    globus eller en sekser")."""
    g = turn(DG, [10, -1, 56, 56], [6, 1])
    assert g.pos.progress[0][:2] == [17, -1]
    assert g.rolls == 2
