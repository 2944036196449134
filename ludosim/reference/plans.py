"""Options of a roll or of a Killer roll sequence, and which of them the rules allow.

An *option* is an ordered sequence of (piece, face) steps: one step for a
single roll, a whole plan for `roll_then_move` (RULES.md section 5). Options
are listed in a fixed order (distinct remaining faces from high to low, then
piece index), because the random policy and the puster both refer to "the
first" option and the compiled kernel must list them identically.
"""

from __future__ import annotations

from dataclasses import dataclass

from ludosim.reference.moves import Move, legal_moves, play_move, try_move
from ludosim.reference.position import Position
from ludosim.rules import GLOBE, STAR, Rules


@dataclass(frozen=True)
class Plan:
    """An ordered sequence of (piece, face) and what playing it captures."""

    steps: tuple[tuple[int, int | str], ...]
    captures: int  # opponent pieces captured over the whole plan
    capturers: tuple[int, ...]  # pieces that captured, in order of first capture

    @property
    def key(self) -> tuple[int, tuple[int, ...]]:
        """Rolls used, then used values high to low: the larger key is the better plan."""
        return len(self.steps), tuple(sorted((face_rank(f) for _, f in self.steps), reverse=True))


def face_rank(face: int | str) -> int:
    """Order of faces for 'highest first' (numbers by value; symbols after 6)."""
    if face == GLOBE:
        return 7
    if face == STAR:
        return 8
    return int(face)


def single_roll_options(rules: Rules, pos: Position, seat: int, face: int | str) -> list[Plan]:
    """One option per legal move of `face`, by piece index."""
    options = []
    for move in legal_moves(rules, pos, seat, face):
        _, result = try_move(rules, pos, move)
        capturers = (move.piece,) if result.captures else ()
        options.append(Plan(((move.piece, face),), result.captures, capturers))
    return options


def all_plans(rules: Rules, pos: Position, seat: int, rolls: list[int | str]) -> list[Plan]:
    """Every complete plan for `rolls`, in depth-first order (see module docstring)."""
    plans: list[Plan] = []

    def extend(p: Position, remaining: list, steps: tuple, captures: int, capturers: tuple):
        extended = False
        for face in sorted(set(remaining), key=face_rank, reverse=True):
            rest = list(remaining)
            rest.remove(face)
            for move in legal_moves(rules, p, seat, face):
                extended = True
                child, result = try_move(rules, p, move)
                new_capturers = capturers
                if result.captures and move.piece not in capturers:
                    new_capturers = (*capturers, move.piece)
                extend(
                    child,
                    rest,
                    (*steps, (move.piece, face)),
                    captures + result.captures,
                    new_capturers,
                )
        if not extended:
            plans.append(Plan(steps, captures, capturers))

    extend(pos, list(rolls), (), 0, ())
    return plans


def best_plans(plans: list[Plan]) -> list[Plan]:
    """The plans that use as many rolls as possible, the highest first."""
    if not plans:
        return []
    best = max(p.key for p in plans)
    return [p for p in plans if p.key == best]


def forced(rules: Rules, options: list[Plan]) -> list[Plan]:
    """Options an honest player may choose: the capturing ones when captures are forced."""
    if rules.forced_capture:
        capturing = [o for o in options if o.captures]
        if capturing:
            return capturing
    return options


def pieces_at_risk(options: list[Plan], pos_after: Position, seat: int) -> tuple[int, ...]:
    """Pieces a caught skipper loses (RULES.md section 5, puster).

    If some option captures two or more pieces, the capturing pieces of the
    first option with the most captures; otherwise the most advanced (after
    the turn's moves, lowest index on ties) of the pieces that could capture.
    Pieces already in the goal or yard are exempt.
    """
    capturing = [o for o in options if o.captures]
    most = max(o.captures for o in capturing)
    goal = pos_after.goal
    progress = pos_after.progress[seat]
    if most >= 2:
        chosen = next(o for o in capturing if o.captures == most)
        return tuple(i for i in chosen.capturers if 0 <= progress[i] < goal)
    candidates = sorted({i for o in capturing for i in o.capturers})
    candidates = [i for i in candidates if 0 <= progress[i] < goal]
    if not candidates:
        return ()
    return (max(candidates, key=lambda i: (progress[i], -i)),)


def play_plan(rules: Rules, pos: Position, seat: int, plan: Plan):
    """Play the steps of `plan` on `pos` in place; yields (move, result) per step."""
    for piece, face in plan.steps:
        move = _find_move(rules, pos, seat, piece, face)
        yield move, play_move(rules, pos, move)


def _find_move(rules: Rules, pos: Position, seat: int, piece: int, face: int | str) -> Move:
    for move in legal_moves(rules, pos, seat, face):
        if move.piece == piece:
            return move
    raise ValueError(f"seat {seat} piece {piece} has no legal move for {face}")
