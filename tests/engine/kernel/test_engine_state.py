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

from ludosim.engine import compile_layout, new_work, state
from ludosim.engine.layout import MAX_PIECES, MAX_PLAYERS, STRIDE
from ludosim.engine.moves import apply_move, legal_moves
from ludosim.engine.policy import compile_policies
from ludosim.engine.position import reset_state, square_of, undo_to
from ludosim.engine.state import (
    C_UNDO,
    CNT,
    CTR,
    DUMMY,
    M_FLAGS,
    M_PIECE,
    M_TARGET,
    OCC,
    PROGRESS,
    TOT,
    YES,
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
        mark = w[CTR + C_UNDO]
        for step in range(6):
            seat = rng.randrange(rules.players)
            face = rng.choice([f for f in set(rules.die_faces) if isinstance(f, int)])
            k = legal_moves(lay, w, seat, face)
            if k == 0:
                continue
            j = rng.randrange(k)
            piece, target, flags = (w[move_at(j, f)] for f in (M_PIECE, M_TARGET, M_FLAGS))
            apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
            moves_played += 1
            _assert_in_step(lay, w, rules, f"after move {step}")
        undo_to(lay, w, mark)
        assert np.array_equal(w[:CTR], before), "undo restores progress, counts and masks"
    assert moves_played > 100


# Fields of each kind of row of the work array, and the constant that sizes the row.
ROW_FIELDS = {
    "C_SIZE": ["C_ROLLS", "C_UNDO", "C_SKIPS"],
    "S_SIZE": ["S_CAPTURES", "S_CAPTURED", "S_RETURNED", "S_SKIPPED", "S_CAUGHT"],
    "SB_SIZE": [
        "SB_CONTENDERS",
        "SB_THROWS",
        "SB_DONE",
        "SB_ORDER",
        "SB_SCORE",
        "SB_ENTERED",
        "SB_UNLOCKED",
    ],
    "M_SIZE": ["M_PIECE", "M_TARGET", "M_FLAGS", "M_CAPS"],
    "B_SIZE": ["B_STEPS", "B_CHOSEN_CAPS"],
    "CH_SIZE": ["CH_FACE", "CH_PIECE"],
    "SK_SIZE": ["SK_MOST", "SK_FIRST", "SK_UNION"],
    "U_SIZE": ["U_SEAT", "U_PIECE", "U_PROGRESS", "U_REVERSED"],
    "RT_SIZE": ["RT_STANDING", "RT_YARD", "RT_GOAL"],
    "N_SIZE": ["N_BEST", "N_MALL", "N_CALL", "N_MCAP", "N_CCAP", "N_MOST", "N_FIRST", "N_UNION"],
    "MD_ACC": ["MD_FACE", "MD_PIECE", "MD_MARK", "MD_CAPS", "MD_EXT", "MD_K1", "MD_K2", "MD_TAKEN"],
    "KID_SUMMARY": ["KID_FACE", "KID_PIECE", "KID_CAPS"],
    "MH_SIZE": ["MH_CAP", "MH_MAX", "MH_USED", "MH_FULL"],
    "H_SIZE": ["H_FIRST", "H_WINNER", "H_TURNS", "H_ROLLS", "H_END_TURNS", "H_TRUNCATED"],
    "K_STATS": ["K_PLACE"],
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
    assert len(w) == state.W_SIZE + (state.E_SIZE + 1) * 16
    assert w[state.MEMO_HEAD + state.MH_MAX] == 16


@pytest.mark.parametrize("size", sorted(ROW_FIELDS))
def test_each_row_field_has_its_own_word(size: str) -> None:
    fields = [getattr(state, name) for name in ROW_FIELDS[size]]
    assert sorted(fields) == list(range(getattr(state, size))), "every word named once"
