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
from operator import attrgetter

import numpy as np
import pytest
from scenario_helpers import random_position

from ludosim.engine import compile_layout, new_work, state
from ludosim.engine.layout import MAX_PIECES, MAX_PLAYERS, STRIDE
from ludosim.engine.moves import apply_move, legal_moves
from ludosim.engine.policy import compile_policies
from ludosim.engine.position import reset_state, square_of, undo_to
from ludosim.engine.state import (
    CNT,
    CTR,
    DUMMY,
    OCC,
    PROGRESS,
    TOT,
    YES,
    C,
    M,
    move_at,
)
from ludosim.rules.model import Rules
from ludosim.rules.policies import parse_policy

RULES = {
    "italian": Rules.preset("italian"),
    "danish": Rules.preset("danish"),
    "killer-single": Rules.preset("killer").replace(roll_then_move=False),
    "six-sides": Rules.preset("danish").replace(sides=6, players=5),
    # 102 squares: squares 64 and up have no occupancy bit
    "six-long-arms": Rules.preset("danish").replace(sides=6, players=6, arm_length=17),
    "short-arms": Rules.preset("killer").replace(
        roll_then_move=False, arm_length=7, globe_offsets=(0, 4), star_offsets=(2, 5)
    ),
}


def _expected_sections(lay: np.ndarray, w: np.ndarray, rules: Rules) -> tuple:
    """(CNT, TOT, OCC as unsigned ints) recomputed from the pieces' progress alone; CNT's
    last row is nobody's, which the partner slots of seats without partners read: empty."""
    cnt = np.zeros(STRIDE * (MAX_PLAYERS + 1), dtype=np.int64)
    occ = [0] * MAX_PLAYERS
    for seat in range(rules.players):
        for piece in range(rules.pieces):
            sq = int(square_of(lay, seat, w[PROGRESS + MAX_PIECES * seat + piece]))
            if sq >= 0:
                cnt[STRIDE * seat + sq] += 1
                if sq < 64:
                    occ[seat] |= 1 << sq
    tot = cnt.reshape(MAX_PLAYERS + 1, STRIDE).sum(axis=0)
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
        w = new_work(compile_policies([parse_policy("random")] * rules.players), np.array(start))
        reset_state(lay, w, True)
        _assert_in_step(lay, w, rules, "after reset")
        before = w[:CTR].copy()
        mark = w[CTR + C.UNDO]
        for step in range(6):
            seat = rng.randrange(rules.players)
            face = rng.choice([f for f in set(rules.die_faces) if isinstance(f, int)])
            k = legal_moves(lay, w, seat, face)
            if k == 0:
                continue
            j = rng.randrange(k)
            piece, target, flags = (w[move_at(j, f)] for f in (M.PIECE, M.TARGET, M.FLAGS))
            apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
            moves_played += 1
            _assert_in_step(lay, w, rules, f"after move {step}")
        undo_to(lay, w, mark)
        assert np.array_equal(w[:CTR], before), "undo restores progress, counts and masks"
    assert moves_played > 100


# Fields of each kind of row of the work array, and the constant that sizes the row.
ROW_FIELDS = {
    "C.SIZE": ["C.ROLLS", "C.UNDO", "C.SKIPS"],
    "S.SIZE": ["S.CAPTURES", "S.CAPTURED", "S.RETURNED", "S.SKIPPED", "S.CAUGHT"],
    "SB.SIZE": [
        "SB.CONTENDERS",
        "SB.THROWS",
        "SB.DONE",
        "SB.ORDER",
        "SB.SCORE",
        "SB.ENTERED",
        "SB.UNLOCKED",
    ],
    "M.SIZE": ["M.PIECE", "M.TARGET", "M.FLAGS", "M.CAPS"],
    "B.SIZE": ["B.STEPS", "B.CHOSEN_CAPS"],
    "CH.SIZE": ["CH.FACE", "CH.PIECE"],
    "SK.SIZE": ["SK.MOST", "SK.FIRST", "SK.UNION"],
    "U.SIZE": ["U.SEAT", "U.PIECE", "U.PROGRESS", "U.REVERSED"],
    "RT.SIZE": ["RT.STANDING", "RT.YARD", "RT.GOAL"],
    "N.SIZE": ["N.BEST", "N.MALL", "N.CALL", "N.MCAP", "N.CCAP", "N.MOST", "N.FIRST", "N.UNION"],
    "MD.ACC": ["MD.FACE", "MD.PIECE", "MD.MARK", "MD.CAPS", "MD.EXT", "MD.K1", "MD.K2", "MD.TAKEN"],
    "KID.SUMMARY": ["KID.FACE", "KID.PIECE", "KID.CAPS"],
    "MH.SIZE": ["MH.CAP", "MH.MAX", "MH.USED", "MH.FULL"],
    "H.SIZE": ["H.FIRST", "H.WINNER", "H.TURNS", "H.ROLLS", "H.END_TURNS", "H.TRUNCATED"],
    "K.STATS": ["K.PLACE"],
}


def test_sections_follow_the_table_without_gaps_or_overlaps() -> None:
    at = 0
    for section in state.SECTIONS:
        offset = getattr(state, section.name)
        assert offset == state.OFFSETS[section.name]
        assert offset % section.align == 0, section.name
        assert at <= offset < at + section.align, f"{section.name} starts at {offset}, not {at}"
        at = offset + section.words
    assert state.W_SIZE == at == state.MEMO  # the memo table is sized by `new_work`
    w = new_work(
        compile_policies([parse_policy("random"), parse_policy("balanced")]), None, memo_slots=16
    )
    assert len(w) == state.W_SIZE + (state.E.SIZE + 1) * 16
    assert w[state.MEMO_HEAD + state.MH.MAX] == 16


@pytest.mark.parametrize("size", sorted(ROW_FIELDS))
def test_each_row_field_has_its_own_word(size: str) -> None:
    fields = [attrgetter(name)(state) for name in ROW_FIELDS[size]]
    assert sorted(fields) == list(range(attrgetter(size)(state))), "every word named once"
