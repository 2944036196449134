"""Options of a roll or of a Killer roll sequence, and which of them the rules allow.

An *option* is an ordered sequence of (piece, face) steps: one step for a
single roll, a whole plan for `roll_then_move` (docs/rules.md section 5). Options
are listed in a fixed order (distinct remaining faces from high to low, then
piece index), because the random policy and the puster both refer to "the
first" option and the compiled kernel must list them identically.
"""

from __future__ import annotations

from dataclasses import dataclass

from ludosim.reference.features import score
from ludosim.reference.moves import Move, legal_moves, play_move, try_move
from ludosim.reference.position import Position
from ludosim.rules.board import YARD
from ludosim.rules.model import GLOBE, STAR, Rules


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
    """Pieces a caught skipper loses (docs/rules.md section 5, puster).

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
        return tuple(i for i in chosen.capturers if progress[i] not in (YARD, goal))
    candidates = sorted({i for o in capturing for i in o.capturers})
    candidates = [i for i in candidates if progress[i] not in (YARD, goal)]
    if not candidates:
        return ()
    travelled = pos_after.board.travelled
    return (max(candidates, key=lambda i: (travelled(progress[i]), -i)),)


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
# pieces give half a million orderings), yet a policy only needs the number of
# options it likes best and the k-th of them. `PlanTree` counts them with
# memoisation over (position, remaining rolls): different orders that lead to
# the same position share their continuations. Scores depend only on the
# position a plan ends in (`ludosim.reference.features`), so each node keeps,
# per final score, how many best-key continuations reach it and how many of
# those capture. `all_plans` above stays the definition; tests check both agree.


@dataclass(frozen=True)
class _Node:
    best: tuple[int, ...]  # used values (face ranks) of the best continuations, high to low
    counts: dict[int, tuple[int, int]]  # final score -> (continuations, capturing ones)


def _merge(face: int | str, used: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(sorted((face_rank(face), *used), reverse=True))


class PlanTree:
    """Counts and indexes the best plans of `rolls` without listing them.

    `weights` are a policy's feature weights (`ludosim.rules.policies`); None scores
    every plan 0, which is the random policy.
    """

    def __init__(
        self,
        rules: Rules,
        pos: Position,
        seat: int,
        rolls: list[int | str],
        weights: tuple[int, ...] | None = None,
    ) -> None:
        self.rules, self.seat = rules, seat
        self.weights = weights if weights and any(weights) else None
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
        if not children:
            final = 0
            if self.weights is not None:
                final = score(self.weights, self.root_pos, pos, self.seat, self.rules)
            node = _Node((), {final: (1, 0)})
        else:
            best = max((_merge(c[0], c[5].best) for c in children), key=lambda u: (len(u), u))
            counts: dict[int, tuple[int, int]] = {}
            for face, _, _, captured, _, sub in children:
                if _merge(face, sub.best) != best:
                    continue
                for final, (n_all, n_capturing) in sub.counts.items():
                    a, c = counts.get(final, (0, 0))
                    counts[final] = (a + n_all, c + (n_all if captured else n_capturing))
            node = _Node(best, counts)
        self.memo[key] = node, children
        return node, children

    def any_capture(self) -> bool:
        """Some best plan captures."""
        return any(c for _, c in self.root.counts.values())

    def pool(self, may_skip: bool = False) -> bool:
        """Whether the legal options are only the capturing plans (forced capture applies)."""
        return bool(self.rules.forced_capture and not may_skip and self.any_capture())

    def top(self, capturing_only: bool) -> tuple[int, int]:
        """(best score, number of plans with it) among the options of the pool."""
        column = 1 if capturing_only else 0
        scores = [(s, n[column]) for s, n in self.root.counts.items() if n[column]]
        best = max(s for s, _ in scores)
        return best, sum(n for s, n in scores if s == best)

    def count(self) -> int:
        """Number of legal plans for an honest player (all scoring 0 under `random`)."""
        column = 1 if self.pool() else 0
        return sum(n[column] for n in self.root.counts.values())

    def plan(
        self, index: int, capturing_only: bool | None = None, final: int | None = None
    ) -> Plan:
        """Plan number `index`, in plan order, among the pool's plans ending with score `final`.

        Defaults: the honest pool (`pool()`) and every score (random policy).
        """
        need = self.pool() if capturing_only is None else capturing_only
        pos, remaining, node = self.root_pos, self.root_rolls, self.root
        steps: list[tuple[int, int | str]] = []
        captures, capturers = 0, ()
        while node.best:
            face, move, child, captured, rest, sub, index = self._pick(
                pos, remaining, node, need, final, index
            )
            _, result = try_move(self.rules, pos, move)
            captures += result.captures
            if result.captures and move.piece not in capturers:
                capturers = (*capturers, move.piece)
            steps.append((move.piece, face))
            need = need and not captured
            pos, remaining, node = child, rest, sub
        return Plan(tuple(steps), captures, capturers)

    def _pick(
        self,
        pos: Position,
        remaining: tuple,
        node: _Node,
        need: bool,
        final: int | None,
        index: int,
    ) -> tuple:
        """The child holding plan `index`, and the index within it."""
        for child in self._node(pos, remaining)[1]:
            face, captured, sub = child[0], child[3], child[5]
            if _merge(face, sub.best) != node.best:
                continue
            column = 1 if (need and not captured) else 0
            size = sum(n[column] for s, n in sub.counts.items() if final is None or s == final)
            if index < size:
                return (*child, index)
            index -= size
        raise AssertionError("plan index out of range")  # pragma: no cover
