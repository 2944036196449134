"""Building blocks of the scenario tests: hand-made positions, scripted dice, one turn.

Shared by `test_scenarios_*.py` and `test_choices.py`, and `random_position` by
the property tests of the engines (pytest puts `tests/` on the import path).
"""

from __future__ import annotations

import random

import numpy as np

from ludosim.engine import compile_layout, new_work
from ludosim.engine.moves import legal_moves as kernel_legal_moves
from ludosim.engine.policy import compile_policies
from ludosim.engine.position import reset_state
from ludosim.engine.state import (
    M,
    move_at,
)
from ludosim.reference import Game, Move, Position, legal_moves
from ludosim.rules.board import YARD, Board
from ludosim.rules.model import Rules
from ludosim.rules.policies import parse_policy
from ludosim.rules.streams import ScriptedStream, faces_to_script


def make(rules: Rules, placed: dict[int, list[int]]) -> Position:
    """A position with the given rows; seats not named keep every piece in the yard."""
    rows = [[YARD] * rules.pieces for _ in range(rules.players)]
    for seat, row in placed.items():
        rows[seat] = list(row)
    return Position.from_progress(rules, rows)


def random_position(rules: Rules, rng: random.Random) -> Position:
    """A random position: each piece in its yard with probability 2/3, else up to the goal."""
    rows = [
        [rng.choice([YARD, YARD, rng.randrange(0, rules.goal + 1)]) for _ in range(rules.pieces)]
        for _ in range(rules.players)
    ]
    return Position.from_progress(rules, rows)


def on_square(rules: Rules, seat: int, square: int) -> int:
    """Progress that puts a piece of `seat` on absolute track square `square`."""
    board = Board.from_rules(rules)
    p = (square - board.start_square(seat)) % board.track_len
    assert p <= rules.entry, f"seat {seat} never visits square {square}"
    return p


def move_of(rules: Rules, pos: Position, seat: int, face: int | str, piece: int) -> Move | None:
    """The legal move of `piece` for `face`, or None."""
    for move in legal_moves(rules, pos, seat, face):
        if move.piece == piece:
            return move
    return None


def dice(rules: Rules, *faces: int | str) -> list[int]:
    """Scripted draws that roll `faces` in order."""
    return faces_to_script(rules.die_faces, list(faces))


def game(rules: Rules, placed: dict[int, list[int]], script: list) -> Game:
    """A game starting from a hand-made position with a scripted stream."""
    g = Game(rules, 0, start=make(rules, placed))
    g.stream = ScriptedStream(script)
    return g


def turn(rules: Rules, placed: dict[int, list[int]], script: list, seat: int = 0) -> Game:
    """Play one turn of `seat`; the script must be used up exactly."""
    g = game(rules, placed, script)
    g.play_turn(seat)
    assert g.stream.exhausted(), f"only {g.stream.draws} of {len(script)} draws used"
    return g


def kernel_targets(rules: Rules, placed: dict[int, list[int]], seat: int, face: int) -> dict:
    """The compiled kernel's legal moves of `seat` for number `face`: {piece: landing progress}."""
    rows = make(rules, placed).progress
    lay = compile_layout(rules)
    w = new_work(compile_policies([parse_policy("random")] * rules.players), np.array(rows))
    reset_state(lay, w, True)
    k = kernel_legal_moves(lay, w, seat, face)
    return {int(w[move_at(j, M.PIECE)]): int(w[move_at(j, M.TARGET)]) for j in range(k)}


def reference_targets(rules: Rules, placed: dict[int, list[int]], seat: int, face: int) -> dict:
    """The reference engine's legal moves of `seat` for `face`: {piece: landing progress}."""
    return {m.piece: m.target for m in legal_moves(rules, make(rules, placed), seat, face)}
