"""The kernel scores single-roll options without playing them; every score must be exact.

`ludosim.engine.policy.choose_move` predicts a move's landing from the
square counts (`predict_landing`) and its `safe`/`exposed` features from a
once-per-decision summary (`opponent_squares`, `guard_change`, `guard_change_capturing`
for captures), and plays and takes back only the moves it cannot predict (a
star jump follows) or, for guard weights, every move on tracks too long for
the occupancy mask (six sides). Here every option's captures and score are
compared with the reference features of the move actually played
(`ludosim.reference.features.score` on `try_move`, less the `safe`/`exposed`
terms of the position before, which the kernel leaves out of every option
alike), on crowded random
positions of rules that reach each case: plain landings, captures (lone
opponent, lone piece, blocks captured), blocks and safe squares sending the
lander home, bounces, star jumps (to the goal and a lap on), start captures
and the six-sided board. Whole games are then compared on the same rules.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludosim.engine import compile_layout, new_work
from ludosim.engine.layout import FACE_GLOBE, FACE_STAR, MAX_PIECES, NONE
from ludosim.engine.optionscore import MASK_TRACK, predict_landing
from ludosim.engine.policy import choose_move, compile_policies
from ludosim.engine.position import reset_state
from ludosim.engine.rng import new_stream
from ludosim.engine.state import CNT, CTR, MOVES, OPT, PROGRESS, TOT
from ludosim.reference import Position, play_game
from ludosim.reference.events import Captured, Jumped
from ludosim.reference.features import exposed, protected, score
from ludosim.reference.moves import legal_moves, try_move
from ludosim.rules.board import YARD, Board
from ludosim.rules.model import GLOBE, STAR, Rules
from ludosim.rules.policies import FEATURES, parse_policy
from ludosim.run.simulate import simulate

DANISH = Rules.preset("danish")
# Killer's board played one roll at a time: the single-roll choice meets star jumps.
KILLER_SINGLE = Rules.preset("killer").replace(roll_then_move=False)
RULES = {
    # bounce, blocks send the lander home, lone opponents captured
    "danish": DANISH,
    # safe starts and stars, lone_piece captures, blocks coexist, exact finish
    "italian": Rules.preset("italian"),
    # globe and star faces
    "danish-globe": Rules.preset("danish-globe"),
    # star jumps a lap on, safe globes send the lander home, start captures, bounce_on,
    # forced captures
    "killer-single": KILLER_SINGLE,
    "star-to-goal": KILLER_SINGLE.replace(star_jump="goal", forced_capture=False),
    # blocks are captured (two captures at once), singles bar passing
    "block-capture": DANISH.replace(block_landing="capture", pass_opponents="singles"),
    # six sides: a 78-square track, too long for the occupancy mask
    "six-sides": DANISH.replace(sides=6, players=5),
    # other boards: 4 arms of 14 squares fill the mask, 4 of 7 leave most of it empty
    "fourteen-squares-an-arm": DANISH.replace(arm_length=14, start_offset=3),
    "seven-squares-an-arm": DANISH.replace(arm_length=7, globe_offsets=(0, 4), star_offsets=(2,)),
}
POLICIES = [
    "balanced",
    "defensive",
    "runner",
    "pacifist",
    "weights:lead=3,exposed=-2,safe=1,capture=4,sent_home=-5,enter=1,finish=2,progress=1",
]
_FACE_CODES = {GLOBE: FACE_GLOBE, STAR: FACE_STAR}


def _crowded_position(rules: Rules, rng: random.Random) -> Position:
    """Most pieces on the track, often close together, so landings meet other pieces."""
    arms = Board.from_rules(rules).arms
    centre = rng.randrange(rules.track_len)
    rows = []
    for seat in range(rules.players):
        row = []
        for _ in range(rules.pieces):
            kind = rng.random()
            if kind < 0.2:
                row.append(YARD)
            elif kind < 0.3:
                row.append(rng.randrange(rules.goal - 8, rules.goal + 1))
            else:
                square = (centre + rng.randrange(-8, 9)) % rules.track_len
                p = (square - 13 * arms[seat]) % rules.track_len
                row.append(min(p, rules.entry))
        rows.append(row)
    return Position.from_progress(rules, rows)


def _guard_terms(weights: tuple[int, ...], pos: Position, seat: int) -> int:
    """The `safe` and `exposed` terms of the score of position `pos` itself."""
    pieces = range(len(pos.progress[seat]))
    safe = sum(protected(pos, seat, i) for i in pieces)
    exposed_ = sum(exposed(pos, seat, i) for i in pieces)
    return weights[FEATURES.index("safe")] * safe + weights[FEATURES.index("exposed")] * exposed_


def _kernel_options(
    rules: Rules, pos: Position, seat: int, policy: str, face: int | str
) -> list[tuple[int, int, int]] | None:
    """(piece, captures, score) of every option `choose_move` scored, or None if it scored none.

    Scores are the kernel's option scores: `safe` and `exposed` count as their change.
    """
    lay = compile_layout(rules)
    w = new_work(compile_policies([parse_policy(policy)] * rules.players), np.array(pos.progress))
    reset_state(lay, w, True)
    before = w[:CTR].copy()
    code = _FACE_CODES.get(face, face)
    chosen = choose_move(lay, w, seat, code, new_stream(np.uint64(7), np.uint64(seat)))
    # Options are scored in place of playing them or tried and taken back: nothing moved.
    assert np.array_equal(w[:CTR], before)
    k = len(legal_moves(rules, pos, seat, face))
    if chosen < 0 or k < 2:
        return None
    return [(int(w[MOVES + 4 * j]), int(w[MOVES + 4 * j + 3]), int(w[OPT + j])) for j in range(k)]


@pytest.mark.parametrize("name", sorted(RULES))
def test_single_roll_scores_match_the_reference_features(name: str) -> None:
    rules = RULES[name]
    rng = random.Random(f"fast path {name}")
    seen = {"predicted": 0, "capture": 0, "double": 0, "home": 0, "bounce": 0, "jump": 0}
    for trial in range(60):
        pos = _crowded_position(rules, rng)
        seat = rng.randrange(rules.players)
        policy = POLICIES[trial % len(POLICIES)]
        weights = parse_policy(policy).weights
        for face in sorted(set(rules.die_faces), key=str):
            options = _kernel_options(rules, pos, seat, policy, face)
            if options is None:
                continue
            moves = legal_moves(rules, pos, seat, face)
            # The kernel counts `safe` and `exposed` as their change (the same for every option),
            # except on tracks too long for its occupancy mask, where it tries every option.
            base = _guard_terms(weights, pos, seat) if rules.track_len <= MASK_TRACK else 0
            for move, (piece, captures, kernel_score) in zip(moves, options, strict=True):
                after, result = try_move(rules, pos, move)
                assert (piece, captures, kernel_score + base) == (
                    move.piece,
                    result.captures,
                    score(weights, pos, after, seat),
                ), f"{name} {policy} seat {seat} face {face} move {move} in {pos.progress}"
                jumped = any(isinstance(e, Jumped) for e in result.events)
                seen["jump"] += jumped
                seen["predicted"] += not jumped
                seen["capture"] += result.captures > 0
                seen["double"] += sum(isinstance(e, Captured) for e in result.events) > 1
                seen["home"] += result.sent_home
                seen["bounce"] += move.bounced
    assert seen["predicted"] > 100 and seen["capture"] > 5, seen
    if rules.star_jump != "none":
        assert seen["jump"] > 0, seen
    if rules.block_landing == "capture":
        assert seen["double"] > 0, seen
    if rules.block_landing == "lander_home" or rules.safe_landing == "lander_home":
        assert seen["home"] > 0, seen
    if rules.finish != "exact":
        assert seen["bounce"] > 0, seen


@pytest.mark.parametrize("name", ["killer-single", "star-to-goal"])
def test_prediction_gives_way_exactly_to_star_jumps(name: str) -> None:
    """`predict_landing` settles every move but those followed by a star jump."""
    rules = RULES[name]
    lay = compile_layout(rules)
    rng = random.Random(f"star jumps {name}")
    jumps = 0
    for _ in range(150):
        pos = _crowded_position(rules, rng)
        seat = rng.randrange(rules.players)
        w = new_work(
            compile_policies([parse_policy("balanced")] * rules.players), np.array(pos.progress)
        )
        reset_state(lay, w, True)
        for face in set(rules.die_faces):
            for move in legal_moves(rules, pos, seat, face):
                after, result = try_move(rules, pos, move)
                flags = int(move.backwards) | 2 * int(move.bounced) | 4 * int(move.entering)
                final, captures, emptied = predict_landing(
                    lay, w, seat, move.piece, move.target, flags
                )
                jumped = any(isinstance(e, Jumped) for e in result.events)
                jumps += jumped
                if jumped:
                    assert final == NONE
                else:
                    assert final == after.progress[seat][move.piece]
                    assert captures == result.captures
                    assert (emptied >= 0) == (captures > 0)
    assert jumps > 0
    # The counts were only read.
    assert w[PROGRESS : PROGRESS + MAX_PIECES].tolist()[: rules.pieces] == pos.progress[0]
    assert w[CNT:TOT].sum() == sum(w[TOT : TOT + rules.track_len])


@pytest.mark.parametrize("name", sorted(RULES))
def test_whole_games_agree_on_fast_path_rules(name: str) -> None:
    rules = RULES[name].replace(max_turns=300)
    policies = [POLICIES[s % len(POLICIES)] for s in range(rules.players)]
    games = 12
    rows = simulate(rules, games=games, seed=99, policies=policies)
    for game, kernel in enumerate(rows.to_dict("records")):
        expected = play_game(rules, 99, game, policies=policies, record=False).row()
        diff = {c: (expected[c], kernel[c]) for c in expected if expected[c] != kernel[c]}
        assert not diff, f"{name} game {game}: (reference, kernel) {diff}"


# Rules of the free turn loop (`turn.free_play`): no square bars a move, exact finish,
# optional captures, a numbers die. There a scoring seat's choice is `choose_free_piece`,
# which scores the pieces of the `free_movers` mask instead of a move list.
FREE_RULES = {
    "italian": Rules.preset("italian"),
    "plain-app": Rules.preset("app").replace(
        pass_opponents="all", block_landing="coexist", start_capacity=0
    ),
    "safe-lander-home": Rules.preset("italian").replace(
        safe_landing="lander_home", block_landing="lander_home"
    ),
}


@pytest.mark.parametrize("name", sorted(FREE_RULES))
def test_free_choice_is_the_move_list_choice(name: str) -> None:
    """Same piece and same draws as `choose_move` over the move list, for every policy."""
    from ludosim.engine.moves import free_movers
    from ludosim.engine.policy import choose_free_piece
    from ludosim.engine.turn import free_play

    rules = FREE_RULES[name]
    lay = compile_layout(rules)
    assert free_play(lay)
    rng = random.Random(f"free choice {name}")
    decided = ties = 0
    for trial in range(150):
        pos = _crowded_position(rules, rng)
        seat = rng.randrange(rules.players)
        policy = [*POLICIES, "random"][trial % (len(POLICIES) + 1)]
        for face in range(1, 7):
            w = new_work(
                compile_policies([parse_policy(policy)] * rules.players), np.array(pos.progress)
            )
            reset_state(lay, w, True)
            listed = new_stream(np.uint64(trial), np.uint64(face))
            row = choose_move(lay, w, seat, face, listed)
            expected = -1 if row < 0 else int(w[MOVES + 4 * row])
            masked = new_stream(np.uint64(trial), np.uint64(face))
            movers = free_movers(lay, w, seat, face)
            assert choose_free_piece(lay, w, seat, face, movers, masked) == expected, (
                f"{name} {policy} seat {seat} face {face} in {pos.progress}"
            )
            assert masked.tolist() == listed.tolist()  # the same number of draws
            decided += expected >= 0
            ties += int(listed[1]) > 0 and policy != "random"
    assert decided > 300 and ties > 20, (decided, ties)
