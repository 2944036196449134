"""Plan keys and the puster: what the memoised plan search (`ludosim.engine.memo`) shares.

Mirrors `ludosim.reference.plans` (`Plan.key`, `pieces_at_risk`).

A plan's key (rolls used, then used values sorted high to low) is packed in
one int64: the step count in bits 56-63 and the count of each used face `f`
in bits `8f .. 8f+7`. For plans using the same number of rolls, comparing the
sorted-descending value lists is the same as comparing the counts of 6s, then
5s, and so on, which is what the packed integer compares.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.layout import R
from ludosim.engine.position import travelled
from ludosim.engine.state import HOT, YARD, progress_at


@njit(**HOT)
def plan_key_step(face: int) -> int:
    """Increment of the packed plan key for one more step playing `face`."""
    return (np.int64(1) << 56) + (np.int64(1) << (8 * face))


@njit(**HOT)
def pieces_at_risk(lay: np.ndarray, w: np.ndarray, seat: int, most: int, first: int, union: int):
    """Mask of the pieces a caught skipper loses (docs/rules.md section 5, puster).

    If some option captured two or more pieces, the capturing pieces of the
    first option with the most captures; otherwise the most advanced (after
    the turn's moves, lowest index on ties) of the pieces that could capture.
    Pieces in the goal or the yard are exempt.
    """
    goal = lay[R.GOAL]
    mask = np.int64(0)
    if most >= 2:
        for i in range(lay[R.PIECES]):
            p = w[progress_at(seat, i)]
            if first & (np.int64(1) << i) and p != YARD and p != goal:
                mask |= np.int64(1) << i
        return mask
    pick = -1
    for i in range(lay[R.PIECES]):
        p = w[progress_at(seat, i)]
        if (
            union & (np.int64(1) << i)
            and p != YARD
            and p != goal
            and (pick < 0 or travelled(lay, p) > travelled(lay, w[progress_at(seat, pick)]))
        ):
            pick = i
    if pick >= 0:
        mask = np.int64(1) << pick
    return mask
