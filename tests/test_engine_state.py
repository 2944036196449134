"""The kernel's derived occupancy stays in step with the pieces through moves and take-backs.

`ludosim.engine.state` keeps, beside each piece's progress, the per-square
counts (`CNT`, `TOT`) and each seat's occupancy mask (`OCC`, read by the
policies' opponent mask). Every change goes through `relocate`; here random
legal moves are played and taken back on crowded positions of rules with
captures, blocks sending the lander home, bounces and star jumps, and the
derived sections must always equal what the progress implies (the masks
cover squares 0-63, so on a six-sided track squares 64-77 have no bit).
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from scenario_helpers import random_position

from ludosim.engine import compile_layout, new_work
from ludosim.engine.layout import MAX_PIECES, MAX_PLAYERS, STRIDE
from ludosim.engine.moves import apply_move, legal_moves
from ludosim.engine.policy import compile_policies
from ludosim.engine.state import (
    C_UNDO,
    CNT,
    CTR,
    DUMMY,
    MOVES,
    OCC,
    PROGRESS,
    TOT,
    YES,
    reset_state,
    square_of,
    undo_to,
)
from ludosim.rules import Rules

RULES = {
    "italian": Rules.preset("italian"),
    "danish": Rules.preset("danish"),
    "killer-single": Rules.preset("killer").replace(roll_then_move=False),
    "six-sides": Rules.preset("danish").replace(sides=6, players=5),
}


def _expected_sections(lay: np.ndarray, w: np.ndarray, rules: Rules) -> tuple:
    """(CNT, TOT, OCC as unsigned ints) recomputed from the pieces' progress alone."""
    cnt = np.zeros(STRIDE * MAX_PLAYERS, dtype=np.int64)
    occ = [0] * MAX_PLAYERS
    for seat in range(rules.players):
        for piece in range(rules.pieces):
            sq = square_of(lay, seat, w[PROGRESS + MAX_PIECES * seat + piece])
            if sq >= 0:
                cnt[STRIDE * seat + sq] += 1
                if sq < 64:
                    occ[seat] |= 1 << sq
    tot = cnt.reshape(MAX_PLAYERS, STRIDE).sum(axis=0)
    return cnt, tot, occ


def _assert_in_step(lay: np.ndarray, w: np.ndarray, rules: Rules, where: str) -> None:
    cnt, tot, occ = _expected_sections(lay, w, rules)
    assert np.array_equal(w[CNT:TOT], cnt), where
    assert np.array_equal(w[TOT : TOT + STRIDE], tot), where
    masks = w[OCC : OCC + MAX_PLAYERS].view(np.uint64).tolist()
    assert masks == occ, f"{where}: occupancy masks"


@pytest.mark.parametrize("name", sorted(RULES))
def test_counts_and_occupancy_follow_moves_and_undo(name: str) -> None:
    rules = RULES[name]
    lay = compile_layout(rules)
    rng = random.Random(f"occupancy {name}")
    moves_played = 0
    for _ in range(40):
        start = random_position(rules, rng).progress
        w = new_work(compile_policies(["random"] * rules.players), np.array(start))
        reset_state(lay, w, True)
        _assert_in_step(lay, w, rules, "after reset")
        before = w[:CTR].copy()
        mark = w[CTR + C_UNDO]
        for step in range(6):
            seat = rng.randrange(rules.players)
            face = rng.choice([f for f in set(rules.die_faces) if isinstance(f, int)])
            k = legal_moves(lay, w, seat, face)
            if k == 0:
                continue
            j = rng.randrange(k)
            row = MOVES + 4 * j
            apply_move(lay, w, seat, w[row], w[row + 1], w[row + 2], np.int64(DUMMY), YES)
            moves_played += 1
            _assert_in_step(lay, w, rules, f"after move {step}")
        undo_to(lay, w, mark)
        assert np.array_equal(w[:CTR], before), "undo restores progress, counts and masks"
    assert moves_played > 100
