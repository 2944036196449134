"""Policy features of an option: the position after it compared with the position before.

See `ludosim.rules.policies` for the meaning of each feature. They depend only on
the two positions, so a Killer plan is scored by where it leaves the pieces,
and plans that end in the same position score the same.
"""

from __future__ import annotations

from ludosim.reference.moves import legal_moves, try_move
from ludosim.reference.position import Position
from ludosim.rules.board import YARD
from ludosim.rules.model import Rules
from ludosim.rules.policies import BASE_FEATURES, PROB_UNIT, score_weights


def protected(pos: Position, seat: int, piece: int) -> bool:
    """A track piece on a safe square or sharing its square with another own piece."""
    square = pos.board.square(seat, pos.progress[seat][piece])
    if square < 0:
        return False
    if pos.board.is_safe(square):
        return True
    return sum(1 for s, _ in pos.at(square) if s == seat) >= 2


def exposed(pos: Position, seat: int, piece: int) -> bool:
    """An unprotected track piece with an opponent track piece 1-6 squares behind it."""
    board = pos.board
    square = board.square(seat, pos.progress[seat][piece])
    if square < 0 or protected(pos, seat, piece):
        return False
    for behind in range(1, 7):
        for s, _ in pos.at((square - behind) % board.track_len):
            if s != seat:
                return True
    return False


def features(before: Position, after: Position, seat: int) -> tuple[int, ...]:
    """The base features of `ludosim.rules.policies.BASE_FEATURES`, in that order."""
    goal = after.goal
    own_before, own_after = before.progress[seat], after.progress[seat]
    travelled = after.board.travelled

    def _standing(p: int) -> int:
        """Squares travelled + 1: yard 0, start square 1, ..., goal goal + 1."""
        return travelled(p) + 1

    yard_before = own_before.count(YARD)
    yard_after = own_after.count(YARD)
    opponents_yard_before = sum(
        row.count(YARD) for s, row in enumerate(before.progress) if s != seat
    )
    opponents_yard_after = sum(row.count(YARD) for s, row in enumerate(after.progress) if s != seat)
    pieces = range(len(own_after))
    return (
        sum(map(_standing, own_after)) - sum(map(_standing, own_before)),
        max(0, yard_before - yard_after),
        opponents_yard_after - opponents_yard_before,
        own_after.count(goal) - own_before.count(goal),
        sum(protected(after, seat, i) for i in pieces),
        sum(exposed(after, seat, i) for i in pieces),
        max(0, yard_after - yard_before),
        max(map(_standing, own_after)),
    )


def captured_by(rules: Rules, pos: Position, seat: int, face: int | str) -> set[int]:
    """Pieces of others that some legal move of `seat` for `face` would capture."""
    victims: set[int] = set()
    for move in legal_moves(rules, pos, seat, face):
        child, result = try_move(rules, pos, move)
        if result.captures:
            victims |= {
                4 * s + i
                for s, row in enumerate(pos.progress)
                for i, p in enumerate(row)
                if s != seat and p != YARD and child.progress[s][i] == YARD
            }
    return victims


def lookahead(rules: Rules, pos: Position, seat: int) -> tuple[int, int]:
    """(danger, chance) of `seat` in `pos`, in units of 1 / PROB_UNIT (1 / 6**5).

    danger: the expected number of the seat's pieces captured before its next
    turn. Each opponent gets one roll of the die (`rules.die_faces`, each of
    the six faces with chance 1/6) from this same position, and captures a
    piece when some legal move for its face does (landing or star jump, under
    every capture, safety, block and passing rule of `rules`), whatever its
    policy would play. A piece is lost when any opponent's roll captures it:
    chance 1 - prod over opponents of (6 - c) / 6, with `c` the opponent's
    faces that capture it. Not counted: the opponents' bonus rolls and the
    way one opponent's move changes the position for the next.

    chance: the chance that the seat's own next roll, from this position, has
    a legal move that captures: (faces with one) / 6.
    """
    opponents = rules.players - 1
    danger = 0
    for piece, p in enumerate(pos.progress[seat]):
        if p == YARD or pos.board.square(seat, p) < 0:
            continue  # only a piece on the track can be captured
        survive = 6 ** (5 - opponents)  # faces of the opponents missing from 6 players
        for other in range(rules.players):
            if other == seat:
                continue
            hits = sum(
                4 * seat + piece in captured_by(rules, pos, other, face) for face in rules.die_faces
            )
            survive *= 6 - hits
        danger += PROB_UNIT - survive
    faces = sum(bool(captured_by(rules, pos, seat, face)) for face in rules.die_faces)
    return danger, faces * (PROB_UNIT // 6)


def all_features(rules: Rules, before: Position, after: Position, seat: int) -> tuple[int, ...]:
    """The features of `ludosim.rules.policies.FEATURES`: the base ones, then `lookahead`'s."""
    return features(before, after, seat) + lookahead(rules, after, seat)


def score(
    weights: tuple[int, ...],
    before: Position,
    after: Position,
    seat: int,
    rules: Rules | None = None,
) -> int:
    """Integer score of an option under a policy's weights (0 for the random policy).

    Weights on the look-ahead features need `rules`; without them only the
    base features are computed (`ludosim.rules.policies.score_weights`).
    """
    if not any(weights):
        return 0
    multipliers = score_weights(weights)
    base = len(BASE_FEATURES)
    values = features(before, after, seat)
    total = sum(m * f for m, f in zip(multipliers[:base], values, strict=True))
    if any(weights[base:]):
        if rules is None:
            raise ValueError("look-ahead feature weights need the rules to score an option")
        ahead = lookahead(rules, after, seat)
        total += sum(m * f for m, f in zip(multipliers[base:], ahead, strict=True))
    return total
