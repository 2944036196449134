"""Scenario tests for docs/rules.md section 2 (the turn).

Whole turns are played with `Game.play_turn` on a hand-made position and a
scripted stream: a die roll consumes one `below(6)` value (the index of the
face), a choice among k > 1 options one `below(k)` value. A test that ends
with `stream.exhausted()` proves the turn rolled exactly as often as the rule
says: one roll too few or too many fails it.
"""

from __future__ import annotations

from scenario_helpers import dice, game, make, on_square, turn

from ludosim.reference import all_plans, best_plans, legal_moves
from ludosim.rules.board import YARD
from ludosim.rules.model import Rules


# ---------------------------------------------------------------- helpers
# -------------------------------------------------------------- entering
def test_entering_needs_a_six():
    """001: "Om een pion in het spel te brengen van zijn tuin naar zijn startveld, moet een
    speler een 6 gooien" (to bring a pawn from the yard to the start square a player must
    throw a 6)."""
    rules = Rules.preset("app")
    pos = make(rules, {0: [-1, -1, -1, -1]})
    for face in range(1, 6):
        assert legal_moves(rules, pos, 0, face) == []
    moves = legal_moves(rules, pos, 0, 6)
    assert [m.piece for m in moves] == [0, 1, 2, 3]
    assert all(m.entering and m.target == 0 for m in moves)


def test_using_a_six_to_enter_is_not_compulsory():
    """003: "Prendere 6 nel cubo non richiede al giocatore di rimuovere un pezzo dall'area
    iniziale" (rolling a 6 does not oblige the player to take a piece out of the yard)."""
    rules = Rules.preset("italian")
    pos = make(rules, {0: [10, -1, -1, -1]})
    moves = legal_moves(rules, pos, 0, 6)
    assert [(m.piece, m.entering) for m in moves] == [
        (0, False),
        (1, True),
        (2, True),
        (3, True),
    ]
    g = turn(rules, {0: [10, -1, -1, -1]}, [*dice(rules, 6), 0, *dice(rules, 2)])
    assert g.pos.progress[0] == [18, -1, -1, -1]


def test_killer_six_need_not_enter():
    """000: "Der er ikke noget krav om at en spiller skal bruge en 6'er til at få en brik i
    spil" (there is no requirement to use a 6 to bring a piece into play)."""
    rules = Rules.preset("killer")
    pos = make(rules, {0: [20, -1, 58, 58]})
    plans = best_plans(all_plans(rules, pos, 0, [6, 2]))
    steps = [p.steps for p in plans]
    assert ((0, 6), (0, 2)) in steps
    assert ((1, 6), (1, 2)) in steps


def test_app_start_square_holds_two_own_pieces():
    """001: "Het startvak heeft 2 eigen lopers (wordt verdubbeld)" (the start square holds 2
    own runners, doubled); docs/rules.md section 2 [choice]: a piece cannot be entered while two own
    pieces already stand on the start square."""
    rules = Rules.preset("app")
    two = make(rules, {0: [0, 0, -1, -1]})
    assert [m.piece for m in legal_moves(rules, two, 0, 6)] == [0, 1]
    one = make(rules, {0: [0, 5, -1, -1]})
    assert [m.piece for m in legal_moves(rules, one, 0, 6)] == [0, 1, 2, 3]
    # opponents on the start square do not count towards the capacity
    opp = make(rules, {0: [0, 5, -1, -1], 1: [on_square(rules, 1, 0)] * 2 + [-1, -1]})
    assert 2 in [m.piece for m in legal_moves(rules, opp, 0, 6)]


def test_danish_start_capacity_is_unlimited():
    """docs/rules.md section 6: start_capacity 0 (unlimited) outside `app`: a fourth piece may join
    three own pieces on the start square."""
    rules = Rules.preset("danish")
    pos = make(rules, {0: [0, 0, 0, -1]})
    assert 3 in [m.piece for m in legal_moves(rules, pos, 0, 6)]


# ----------------------------------------------------- three-roll start
def test_three_roll_start_third_try_enters():
    """002: "Hvis du ikke har nogen brikker på banen, må du forsøge op til 3 slag på din tur
    for at få en 6" (with no piece on the track you may try up to 3 rolls to get a 6); the
    turn continues normally from the entering roll (its bonus roll is played)."""
    rules = Rules.preset("danish")
    script = [*dice(rules, 1, 2, 6), 0, *dice(rules, 3)]
    g = turn(rules, {0: [-1, -1, -1, -1]}, script)
    assert g.pos.progress[0] == [3, -1, -1, -1]
    assert g.rolls == 4


def test_three_roll_start_three_misses_end_the_turn():
    """000: "Hvis der ikke slås en 6'er i de tre slag, går turen videre" (if no 6 comes in
    the three rolls, the turn passes on); failed tries count as rolls."""
    rules = Rules.preset("danish")
    g = turn(rules, {0: [-1, -1, -1, -1]}, dice(rules, 1, 2, 5))
    assert g.pos.progress[0] == [-1, -1, -1, -1]
    assert g.rolls == 3


def test_one_start_attempt_in_app():
    """001: "Als de speler nog geen fiches in het spel heeft en anders dan een 6 gooit, gaat
    de beurt naar de volgende speler" (with no token in play and a roll other than 6, the
    turn passes)."""
    rules = Rules.preset("app")
    g = turn(rules, {0: [-1, -1, -1, -1]}, dice(rules, 5))
    assert g.rolls == 1


def test_three_roll_start_applies_to_a_bonus_roll():
    """000: "Reglerne om de tre slag gælder hvergang en spiller ikke har brikker i spil"
    (the three-roll rule applies whenever a player has no pieces in play); docs/rules.md section 2:
    also before a bonus roll."""
    rules = Rules.preset("danish")
    # the 6 brings piece 0 home (choice 0 of 2); its bonus roll finds nothing in play
    script = [*dice(rules, 6), 0, *dice(rules, 1, 2, 3)]
    g = turn(rules, {0: [50, -1, 56, 56]}, script)
    assert g.pos.progress[0] == [56, -1, 56, 56]
    assert g.rolls == 4


def test_killer_six_then_four_gives_no_third_try():
    """000: "Hvis der fås en 6'er i første slag, og f.x. en 4'er i andet, har spilleren ikke
    et tredje slag" (a 6 on the first roll and e.g. a 4 on the second: no third roll)."""
    rules = Rules.preset("killer")
    g = turn(rules, {0: [-1, 58, 58, 58]}, dice(rules, 6, 4))
    assert g.rolls == 2
    assert g.pos.progress[0][0] == 11  # entered, moved 4 onto the star at 4, jumped to 11


def test_killer_six_on_second_try_then_four_ends_the_rolls():
    """000: "Spilleren har tre slag til at slå en 6'er ... Hvis der fås en 6'er ... og f.x.
    en 4'er i andet, har spilleren ikke et tredje slag": the roll after the entering 6 is
    a normal roll, not a further try."""
    rules = Rules.preset("killer")
    g = turn(rules, {0: [-1, 58, 58, 58]}, dice(rules, 2, 6, 1))
    assert g.rolls == 3
    assert g.pos.progress[0][0] == 1


def test_failed_start_try_resets_the_six_count():
    """docs/rules.md section 2 [choice]: A failed try earns nothing, whatever face it shows, and
    resets the six count (docs/semantics.md: `sixes = 0  # a failed try earns nothing`).

    Danish with six_limit=3: a 6 brings piece 0 home; the bonus roll finds nothing
    in play, so start tries: 1 (fails, count back to 0), 6 (enters: count 1); then
    6 (count 2) moves the new piece, and its bonus roll 2 moves it again.
    """
    rules = Rules.preset("danish").replace(six_limit=3)
    script = [*dice(rules, 6), 0, *dice(rules, 1, 6, 6, 2)]
    g = game(rules, {0: [50, -1, 56, 56]}, script)
    g.play_turn(0)
    assert g.pos.progress[0] == [56, 8, 56, 56]
    assert g.stream.exhausted()


def test_failed_start_try_earns_nothing():
    """docs/rules.md section 2: A failed try earns nothing, whatever face it shows: on the
    star-globe die a 6 does not enter, and as a failed try it earns no bonus roll."""
    rules = Rules.preset("danish-globe")
    g = turn(rules, {0: [-1, -1, -1, -1]}, dice(rules, 6, 6, 6))
    assert g.rolls == 3
    assert g.pos.progress[0] == [-1, -1, -1, -1]


# ------------------------------------------------------------ bonus rolls
def test_italian_six_and_capture_give_two_extra_rolls():
    """003: "Se il giocatore catturare un pezzo dopo aver preso 6 sul cubo, ottinene due
    turne extra: uno turno per il 6 nel cubo e uno turno per la cattura" (capturing with a
    6 gives two extra turns: one for the 6, one for the capture)."""
    rules = Rules.preset("italian")
    placed = {0: [10, 56, 56, 56], 2: [on_square(rules, 2, 16), -1, -1, -1]}
    g = turn(rules, placed, dice(rules, 6, 1, 1))
    assert g.pos.progress[0][0] == 18
    assert g.pos.progress[2][0] == YARD
    assert g.rolls == 3 and g.stats["captures"][0] == 1


def test_italian_finish_earns_a_bonus_roll():
    """003: "Ogni volta che il giocatore arriva con uno dei pezzi nella area finale, ottiene
    un turno extra" (every time a piece reaches the goal, the player gets an extra turn)."""
    rules = Rules.preset("italian")
    script = [*dice(rules, 1), 0, *dice(rules, 1)]
    g = turn(rules, {0: [55, 10, 56, 56]}, script)
    assert g.pos.progress[0] == [56, 11, 56, 56]


def test_italian_six_and_finish_give_two_extra_rolls():
    """003: "Se il giocatore fa dopo preso 6 sul cubo, ottiene due turn extra.: uno turno per
    il 6 nel cubo e uno turno per la area finale" (a 6 that reaches the goal gives two
    extra turns)."""
    rules = Rules.preset("italian")
    script = [*dice(rules, 6), 0, *dice(rules, 1, 1)]
    g = turn(rules, {0: [50, 10, 56, 56]}, script)
    assert g.pos.progress[0] == [56, 12, 56, 56]
    assert g.rolls == 3


def test_app_entering_six_earns_no_bonus():
    """001: "Als de speler geen fiche van thuis kan trekken, levert het rollen van een 6 de
    speler een extra of "bonus" worp op" (if the player cannot draw a token from home, a 6
    gives a bonus roll); docs/rules.md section 2 [choice]: app = unless_entered."""
    rules = Rules.preset("app")
    g = turn(rules, {0: [-1, 56, 56, 56]}, dice(rules, 6))
    assert g.pos.progress[0][0] == 0
    assert g.rolls == 1


def test_app_moving_six_earns_a_bonus():
    """001: "Als de bonusworp opnieuw een 6 oplevert, verdient de speler opnieuw een extra
    bonusworp" (a 6 used to move earns a bonus roll)."""
    rules = Rules.preset("app")
    script = [*dice(rules, 6), 0, *dice(rules, 1)]
    g = turn(rules, {0: [10, -1, 56, 56]}, script)
    assert g.pos.progress[0][:2] == [17, -1]
    assert g.rolls == 2


def test_danish_six_always_gives_a_bonus_even_when_entering():
    """002: "En 6 giver altid et ekstra kast" (a 6 always gives an extra roll)."""
    rules = Rules.preset("danish")
    g = turn(rules, {0: [-1, 56, 56, 56]}, dice(rules, 6, 2))
    assert g.pos.progress[0][0] == 2


def test_bonus_on_six_never():
    """docs/rules.md section 2: bonus_on_six = never: a 6 earns no bonus roll."""
    rules = Rules.preset("danish").replace(bonus_on_six="never")
    g = turn(rules, {0: [10, 56, 56, 56]}, dice(rules, 6))
    assert g.pos.progress[0][0] == 16


# -------------------------------------------------------------- six limit
def test_app_third_six_is_forfeited():
    """001: "Als de derde worp ook een 6 is, mag de speler niet bewegen en gaat de beurt
    onmiddellijk naar de volgende speler" (if the third roll is also a 6, the player may not
    move and the turn passes at once); moves already made stand."""
    rules = Rules.preset("app")
    g = turn(rules, {0: [10, 56, 56, 56]}, dice(rules, 6, 6, 6))
    assert g.pos.progress[0][0] == 22
    assert g.rolls == 3


def test_italian_third_six_forfeits_pending_bonuses():
    """003: "Quando il giocatore prende 6 sul cubo tre volte, nessuno dei suoi pezzi torna alla area
    iniziale como nel Parchis. Nel Ludo, il giocatore passa il turno" (after three 6s no piece goes
    back to the yard; the player passes); docs/rules.md section 2: pending bonuses lost.

    6 + capture leaves two pending rolls; the second 6 adds one; the third 6 ends
    the turn although a bonus roll was still pending.
    """
    rules = Rules.preset("italian")
    placed = {0: [10, 56, 56, 56], 2: [on_square(rules, 2, 16), -1, -1, -1]}
    g = turn(rules, placed, dice(rules, 6, 6, 6))
    assert g.pos.progress[0][0] == 22
    assert g.pos.progress[2][0] == YARD
    assert g.rolls == 3


def test_non_six_resets_the_six_count():
    """docs/rules.md section 2: A non-6 roll resets the count: 6, 6, 3 (capture: bonus), 6, 1 is
    played in full in Italian rules."""
    rules = Rules.preset("italian")
    placed = {0: [10, 56, 56, 56], 1: [on_square(rules, 1, 25), -1, -1, -1]}
    g = turn(rules, placed, dice(rules, 6, 6, 3, 6, 1))
    assert g.pos.progress[0][0] == 32
    assert g.rolls == 5


# ----------------------------------------------------------- no move
def test_app_no_move_ends_the_turn():
    """001: "Passen zijn niet toegestaan; als er geen zet mogelijk is, gaat de beurt naar de
    volgende speler" (passing is not allowed; if no move is possible the turn passes): a 6
    with no move earns no bonus roll."""
    rules = Rules.preset("app")
    g = turn(rules, {0: [53, 56, 56, 56]}, dice(rules, 6))
    assert g.pos.progress[0][0] == 53


def test_italian_no_move_ends_the_turn_despite_pending_bonuses():
    """003: "Se non c'è movimento possibile, il giocatore non può anche giocare turni extra e
    deve passare il turno, ache se ci sono turni extra" (with no possible move the player
    cannot play extra turns and must pass, even if extra turns are due)."""
    rules = Rules.preset("italian")
    # 6 brings piece 0 home (two extra rolls); the next 6 has no move: turn over
    g = turn(rules, {0: [50, 53, 56, 56]}, dice(rules, 6, 6))
    assert g.pos.progress[0] == [56, 53, 56, 56]
    assert g.rolls == 2


def test_danish_six_without_a_move_still_earns_its_bonus():
    """docs/rules.md section 2 [choice]: in danish, danish-globe and killer a 6 with no legal move
    still earns its bonus roll: 002 says a 6 "altid" (always) gives another roll.

    With a piece in play: under an exact finish the piece three squares from the
    goal cannot play the 6, which still earns a roll (the 3 that brings it home).
    """
    rules = Rules.preset("danish").replace(finish="exact")
    g = turn(rules, {0: [53, 56, 56, 56]}, dice(rules, 6, 3))
    assert g.rolls == 2
    assert g.pos.progress[0][0] == 56


def test_six_that_cannot_enter_is_a_failed_start_try():
    """docs/rules.md section 8.2: with no piece in play a 6 that cannot enter (an opponent block on
    the
    start square) is a failed start try: no bonus roll, the next try follows, and three
    failed tries end the turn."""
    rules = Rules.preset("danish")
    block = on_square(rules, 1, 0)
    placed = {0: [-1, 56, 56, 56], 1: [block, block, -1, -1]}
    g = turn(rules, placed, dice(rules, 6, 1, 6))
    assert g.rolls == 3
    assert g.pos.progress[0][0] == YARD


def test_danish_roll_without_a_move_earns_nothing():
    """docs/rules.md section 2: only a 6 (or the globe) earns a bonus by itself: on the star-globe
    die a star with no target (a globe lies between: "Du må ikke passere et globusfelt") and no
    other move ends the Danish turn."""
    rules = Rules.preset("danish-globe")
    g = turn(rules, {0: [5, -1, 56, 56]}, dice(rules, "star"))
    assert g.pos.progress[0] == [5, -1, 56, 56]
    assert g.rolls == 1


# ------------------------------------------------------- compulsory moves
def test_moving_is_compulsory_even_into_a_block():
    """000: "hvis det er eneste træk, så slår man sig selv hjem" (if it is the only move, you
    send yourself home); 001: "Passen zijn niet toegestaan" (passing is not allowed).

    Danish: the only legal move lands on an opponent block; it is played and the
    mover goes back to its yard.
    """
    rules = Rules.preset("danish")
    block = on_square(rules, 2, 14)
    placed = {0: [10, 56, 56, 56], 2: [block, block, -1, -1]}
    g = turn(rules, placed, dice(rules, 4))
    assert g.pos.progress[0][0] == YARD
    assert g.pos.progress[2][:2] == [block, block]
    assert g.stats["returned"][0] == 1


def test_app_must_move_when_a_move_exists():
    """003: "il giocatore è costretto a muovere un pezzo. Può passare il turno solo se non ha
    movimentazione possibile" (the player must move a piece; may pass only with no possible
    move)."""
    rules = Rules.preset("app")
    g = turn(rules, {0: [10, 20, 56, 56]}, [*dice(rules, 3), 1])
    assert g.pos.progress[0][:2] == [10, 23]


# ------------------------------------------------------------ roll-off
def test_roll_off_highest_starts_ties_reroll():
    """001: "Elke speler gooit een dobbelsteen; de hoogste rol begint het spel" (each player
    throws a die; the highest starts); docs/rules.md section 2 [choice]: tied highest re-roll among
    themselves."""
    rules = Rules.preset("app")
    g = game(rules, {}, [2, 4, 4, 1, 0, 5])  # throws 3 5 5 2, then seats 1, 2 throw 1, 6
    assert g.roll_off() == 2
    assert g.stream.exhausted()


def test_italian_first_player_is_drawn():
    """003: "Il giocatore che inizia la partira e gioca il primo turno è estratto" (the first
    player is drawn): one below(players) draw."""
    rules = Rules.preset("italian")
    g = game(rules, {}, [3])
    assert g.roll_off() == 3
    assert g.stream.exhausted()


def test_seat0_first_player_draws_nothing():
    """docs/rules.md section 2: first_player = seat0 for controlled experiments."""
    rules = Rules.preset("danish").replace(first_player="seat0")
    g = game(rules, {}, [])
    assert g.roll_off() == 0


def test_play_goes_clockwise():
    """000: "turen går derefter med uret rundt" (the turn then goes clockwise)."""
    rules = Rules.preset("danish")
    g = game(rules, {}, [])
    assert [g.next_seat(s) for s in range(4)] == [1, 2, 3, 0]


# --------------------------------------------------------- end of game
def _race(play_to_end: bool, script: list):
    rules = Rules.preset("app").replace(
        players=3, pieces=1, first_player="seat0", play_to_end=play_to_end
    )
    g = game(rules, {0: [55], 1: [53], 2: [52]}, script)
    result = g.play()
    assert g.stream.exhausted()
    return result


def test_app_play_to_end_ranks_everyone():
    """001: "De anderen blijven vaak spelen om de tweede, derde en vierde plaats te bepalen"
    (the others often play on for second, third and fourth place); docs/rules.md section 2 [choice]:
    play_to_end in app. Seat 2 finishes second although seat 1 was ahead."""
    result = _race(True, dice(Rules.preset("app"), 1, 1, 4))
    assert result.winner == 0
    assert result.places == [1, 3, 2]
    assert (result.turns, result.end_turns, result.rolls) == (1, 3, 1)


def test_first_finisher_ends_the_game_without_play_to_end():
    """docs/rules.md section 2: play_to_end = false stops at the first player with all pieces in the
    goal; the rest are ranked by pieces home, then progress."""
    result = _race(False, dice(Rules.preset("app"), 1))
    assert result.winner == 0
    assert result.places == [1, 2, 3]
    assert result.end_turns == 1


def test_first_token_home_does_not_win():
    """001: "De eerste die al zijn tokens naar de finish heeft gebracht, wint het spel" (the
    first to bring all his tokens home wins); 004's "a zsetonját" is a slip for all tokens.

    Seat 0 brings one piece of two home; the game goes on (and is truncated)."""
    rules = Rules.preset("app").replace(
        players=2, pieces=2, first_player="seat0", play_to_end=False, max_turns=100
    )
    g = game(rules, {0: [55, -1], 1: [-1, -1]}, dice(rules, *[1] * 100))
    result = g.play()
    assert result.truncated and result.winner == -1
    assert result.final[0][0] == 56


def test_megajogos_points_example():
    """003: "un giocatore è arrivato nella casa finale (250 punti), ha camminato 20 case con
    un altro pezzo (20 punti), ha messo un pezzo nella casa di ingresso (1 punto) e ha finito
    con un pezzo nella casa iniziale. Quel giocatore ha sommato 271 punti" (goal 250, a piece
    20 squares along 20, one on the entry square 1, one in the yard 0: 271); "Il giocatore
    vincitore finisce sempre con 1000 punti" (the winner always has 1000)."""
    rules = Rules.preset("italian")
    placed = {0: [55, 56, 56, 56], 1: [56, 19, 0, -1], 2: [-1] * 4, 3: [10, -1, -1, -1]}
    g = game(rules, placed, [0, *dice(rules, 1)])  # seat 0 is drawn to start
    result = g.play()
    assert g.stream.exhausted()
    assert result.points == [1000, 271, 0, 11]
    assert result.places == [1, 2, 4, 3]


def test_bonus_rolls_belong_to_their_turn():
    """docs/rules.md section 2: turns counts player turns (bonus rolls belong to their turn ...);
    "rolls counts die rolls in turns": a 6 that brings a piece home earns two Italian bonus
    rolls, the first finishes the player: one turn, two rolls."""
    rules = Rules.preset("italian")
    placed = {0: [50, 55, 56, 56], 1: [10, -1, -1, -1]}
    g = game(rules, placed, [0, *dice(rules, 6, 1)])  # seat 0 is drawn to start
    result = g.play()
    assert g.stream.exhausted()
    assert (result.winner, result.turns, result.rolls) == (0, 1, 2)


def test_max_turns_truncates_the_game():
    """docs/rules.md section 2: A game that reaches max_turns ... stops and is recorded as
    truncated, never silently dropped; a turn with no possible move counts; roll-off throws are not
    rolls."""
    rules = Rules.preset("app").replace(max_turns=100)
    # seat 3 wins the roll-off (throws 1, 2, 3, 4), then everyone rolls 1 for 100 turns
    g = game(rules, {}, [0, 1, 2, 3, *dice(rules, *[1] * 100)])
    result = g.play()
    assert g.stream.exhausted()
    assert result.truncated and result.winner == -1
    assert result.first == 3
    assert (result.turns, result.end_turns, result.rolls) == (100, 100, 100)
    assert result.row()["truncated"] is True


# ------------------------------------------------------- roll then move
def test_killer_rolls_every_six_before_moving():
    """000: "Brikkerne flyttes først når du er helt færdig med at slå. Så hvis du slår en
    sekser, skal du altså slå igen før du flytter dine brikker" (pieces move only when you
    have finished rolling); the sixes have no limit."""
    rules = Rules.preset("killer")
    placed = {0: [-1, -1, 58, 58]}
    rolls = [6, 6, 6, 6, 2]
    k = len(best_plans(all_plans(rules, make(rules, placed), 0, rolls)))
    assert k > 1
    g = turn(rules, placed, [*dice(rules, *rolls), 0])
    assert g.rolls == 5
    lines = [line for line in g.transcript if "seat 0" in line]
    last_roll = max(i for i, line in enumerate(lines) if "rolls" in line)
    first_move = min(i for i, line in enumerate(lines) if "piece" in line)
    assert last_roll < first_move
    assert sum(p for p in g.pos.progress[0][:2]) > 0
