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


def single_roll_options(
    rules: Rules, pos: Position, seat: int, face: int | str, outcomes: bool = True
) -> list[Plan]:
    """One option per legal move of `face`, by piece index.

    With `outcomes=False` the moves are not tried out and `captures` reads 0
    (the game loop needs captures only when they are forced).
    """
    options = []
    for move in legal_moves(rules, pos, seat, face):
        if not outcomes:
            options.append(Plan(((move.piece, face),), 0, ()))
            continue
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


# --------------------------------------------------------------- counting
# Listing every plan is exponential in the number of sixes (7 sixes and 4
# pieces give half a million orderings), yet the random policy only needs the
# number of legal plans and the k-th of them. `PlanTree` counts them with
# memoisation over (position, remaining rolls): different orders that lead to
# the same position share their continuations. `all_plans` above stays the
# definition; tests check that both agree.


@dataclass(frozen=True)
class _Node:
    best: tuple[int, ...]  # used values (face ranks) of the best continuations, high to low
    n_best: int  # continuations achieving `best`
    n_capturing: int  # ... of which capture at least once


def _merge(face: int | str, used: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted((face_rank(face), *used), reverse=True))


def _better(a: tuple[int, ...], b: tuple[int, ...]) -> bool:
    """More rolls used wins; then the higher values, compared high to low."""
    return (len(a), a) > (len(b), b)


class PlanTree:
    """Counts and indexes the best plans of `rolls` without listing them."""

    def __init__(self, rules: Rules, pos: Position, seat: int, rolls: list[int | str]) -> None:
        self.rules, self.seat = rules, seat
        self.memo: dict[tuple, tuple[_Node, list[tuple]]] = {}
        self.root_pos = pos
        self.root_rolls = tuple(sorted(rolls, key=face_rank, reverse=True))
        self.root = self._node(pos, self.root_rolls)[0]

    def _children(self, pos: Position, remaining: tuple) -> list[tuple]:
        """(face, move, child position, captured?, rest, child node) in plan order."""
        children = []
        for face in sorted(set(remaining), key=face_rank, reverse=True):
            rest = list(remaining)
            rest.remove(face)
            for move in legal_moves(self.rules, pos, self.seat, face):
                child, result = try_move(self.rules, pos, move)
                sub = self._node(child, tuple(rest))[0]
                children.append((face, move, child, result.captures > 0, tuple(rest), sub))
        return children

    def _node(self, pos: Position, remaining: tuple) -> tuple[_Node, list[tuple]]:
        """Summary of every continuation from here, with the children it came from."""
        key = (tuple(map(tuple, pos.progress)), tuple(pos.reversed[self.seat]), remaining)
        found = self.memo.get(key)
        if found is not None:
            return found
        children = self._children(pos, remaining)
        best: tuple[int, ...] | None = None
        n_best = n_capturing = 0
        for face, _, _, captured, _, sub in children:
            used = _merge(face, sub.best)
            if best is None or _better(used, best):
                best, n_best, n_capturing = used, 0, 0
            if used == best:
                n_best += sub.n_best
                n_capturing += sub.n_best if captured else sub.n_capturing
        node = _Node((), 1, 0) if best is None else _Node(best, n_best, n_capturing)
        self.memo[key] = node, children
        return node, children

    def count(self) -> int:
        """Number of legal plans (the capturing ones when captures are forced and possible)."""
        if self.rules.forced_capture and self.root.n_capturing:
            return self.root.n_capturing
        return self.root.n_best

    def any_capture(self) -> bool:
        """Some best plan captures."""
        return self.root.n_capturing > 0

    def plan(self, index: int) -> Plan:
        """The legal plan number `index` in plan order (as in `forced(rules, best_plans(...))`)."""
        need = bool(self.rules.forced_capture and self.root.n_capturing)
        pos, remaining = self.root_pos, self.root_rolls
        node = self.root
        steps: list[tuple[int, int | str]] = []
        captures, capturers = 0, ()
        while node.best:
            face, move, child, captured, rest, sub, index = self._pick(
                pos, remaining, node, need, index
            )
            _, result = try_move(self.rules, pos, move)
            captures += result.captures
            if result.captures and move.piece not in capturers:
                capturers = (*capturers, move.piece)
            steps.append((move.piece, face))
            need = need and not captured
            pos, remaining, node = child, rest, sub
        return Plan(tuple(steps), captures, capturers)

    def _pick(self, pos: Position, remaining: tuple, node: _Node, need: bool, index: int) -> tuple:
        """The child holding legal plan `index`, and the index within it."""
        for child in self._node(pos, remaining)[1]:
            face, captured, sub = child[0], child[3], child[5]
            if _merge(face, sub.best) != node.best:
                continue
            size = sub.n_best if (captured or not need) else sub.n_capturing
            if index < size:
                return (*child, index)
            index -= size
        raise AssertionError("plan index out of range")  # pragma: no cover
