"""Policy features of an option: the position after it compared with the position before.

See `ludosim.policies` for the meaning of each feature. They depend only on
the two positions, so a Killer plan is scored by where it leaves the pieces,
and plans that end in the same position score the same.
"""

from __future__ import annotations

from ludosim.board import YARD
from ludosim.reference.position import Position


def _standing(p: int) -> int:
    """progress + 1: yard 0, start square 1, ..., goal goal + 1."""
    return p + 1


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
    """The features of `ludosim.policies.FEATURES`, in that order."""
    goal = after.goal
    own_before, own_after = before.progress[seat], after.progress[seat]
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


def score(weights: tuple[int, ...], before: Position, after: Position, seat: int) -> int:
    """Integer score of an option under a policy's weights (0 for the random policy)."""
    if not any(weights):
        return 0
    return sum(w * f for w, f in zip(weights, features(before, after, seat), strict=True))
