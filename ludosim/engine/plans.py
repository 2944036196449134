"""Killer plans listed one by one, in the reference engine's exact order; the puster.

Mirrors `ludosim.reference.plans.all_plans`. The game loop counts plans with
memoisation (`ludosim.engine.memo`); `search_plans` is the plain exhaustive
search it replaced, kept as a readable definition and a speed baseline
(`benchmarks/README.md`). `plan_key_step` and `pieces_at_risk` serve both.
Options are never stored: the search runs twice over the same depth-first
order (distinct remaining faces from high to low, then piece index), first to
summarise the plans with the best key (`search_plans(..., want=-1)`), then to
pick out the chosen one by its number among the legal plans. Moves are tried
on the live state and taken back through the undo log, so the search
allocates nothing.

A plan's key (rolls used, then used values sorted high to low) is packed in
one int64: the step count in bits 56-63 and the count of each used face `f`
in bits `8f .. 8f+7`. For plans using the same number of rolls, comparing the
sorted-descending value lists is the same as comparing the counts of 6s, then
5s, and so on, which is what the packed integer compares.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.layout import MAX_PIECES, NONE, R
from ludosim.engine.moves import apply_move, move_target
from ludosim.engine.state import (
    B_CHOSEN_CAPS,
    B_COUNT,
    B_FIRST,
    B_KEY,
    B_MOST,
    B_NCAP,
    B_STEPS,
    B_UNION,
    BEST,
    C_UNDO,
    CHOSEN,
    CTR,
    D_CAPS,
    D_EXT,
    D_FACE,
    D_KEY,
    D_MARK,
    D_MASK,
    D_PIECE,
    D_SIZE,
    DFS,
    DUMMY,
    HOT,
    PROGRESS,
    REM,
    ROLLS,
    undo_to,
)


@njit(**HOT)
def plan_key_step(face: int) -> int:
    """Increment of the packed plan key for one more step playing `face`."""
    return (np.int64(1) << 56) + (np.int64(1) << (8 * face))


@njit(**HOT)
def _note_option(w: np.ndarray, key: int, captures: int, mask: int) -> None:
    """Fold one complete option into the summary of the options with the best key."""
    if key > w[BEST + B_KEY]:
        w[BEST + B_KEY] = key
        w[BEST + B_COUNT] = 0
        w[BEST + B_NCAP] = 0
        w[BEST + B_MOST] = 0
        w[BEST + B_FIRST] = 0
        w[BEST + B_UNION] = 0
    elif key < w[BEST + B_KEY]:
        return
    w[BEST + B_COUNT] += 1
    if captures > 0:
        w[BEST + B_NCAP] += 1
        w[BEST + B_UNION] |= mask
        if captures > w[BEST + B_MOST]:  # strictly: the first option with the most captures
            w[BEST + B_MOST] = captures
            w[BEST + B_FIRST] = mask


@njit(**HOT)
def search_plans(
    lay: np.ndarray, w: np.ndarray, seat: int, nrolls: int, want: int, only_capturing: bool
) -> None:
    """Depth-first search over the complete plans of the turn's rolls (`w[ROLLS:]`).

    `want < 0`: summarise the plans with the best key in `w[BEST + B_*]`.
    `want >= 0`: copy the steps of legal plan number `want` (counting plans
    with key `B_KEY`, only capturing ones when `only_capturing`) to the
    chosen-plan section as (face, piece), with `B_STEPS` and `B_CHOSEN_CAPS`.
    The state is left as it was.
    """
    pieces = lay[R.PIECES]
    for face in range(16):
        w[REM + face] = 0
    top = 0
    for j in range(nrolls):
        w[REM + w[ROLLS + j]] += 1
        top = max(top, w[ROLLS + j])
    if want < 0:
        w[BEST + B_KEY] = -1
    root_mark = w[CTR + C_UNDO]
    seen = 0
    d = 0
    row = DFS
    w[row + D_FACE] = top
    w[row + D_PIECE] = -1
    w[row + D_EXT] = 0
    w[row + D_CAPS] = 0
    w[row + D_MASK] = 0
    w[row + D_KEY] = 0
    while True:
        row = DFS + D_SIZE * d
        # The next legal (face, piece) at depth d, after the one tried last.
        face = w[row + D_FACE]
        piece = w[row + D_PIECE] + 1
        target = NONE
        flags = 0
        while face >= 1:
            if w[REM + face] > 0:
                while piece < pieces:
                    target, flags = move_target(lay, w, seat, piece, face)
                    if target != NONE:
                        break
                    piece += 1
                if target != NONE:
                    break
            face -= 1
            piece = 0
        if target != NONE:
            w[row + D_FACE] = face
            w[row + D_PIECE] = piece
            w[row + D_EXT] = 1
            w[row + D_MARK] = w[CTR + C_UNDO]
            captures, _ = apply_move(lay, w, seat, piece, target, flags, DUMMY, True)
            w[REM + face] -= 1
            nxt = row + D_SIZE
            w[nxt + D_CAPS] = w[row + D_CAPS] + captures
            w[nxt + D_MASK] = w[row + D_MASK] | ((np.int64(1) << piece) if captures else 0)
            w[nxt + D_KEY] = w[row + D_KEY] + plan_key_step(face)
            w[nxt + D_FACE] = top
            w[nxt + D_PIECE] = -1
            w[nxt + D_EXT] = 0
            d += 1
            continue
        if not w[row + D_EXT]:
            # A leaf: no remaining roll can be used, so steps 0..d-1 are a plan.
            key = w[row + D_KEY]
            captures = w[row + D_CAPS]
            if want < 0:
                _note_option(w, key, captures, w[row + D_MASK])
            elif key == w[BEST + B_KEY] and (captures > 0 or not only_capturing):
                if seen == want:
                    for j in range(d):
                        w[CHOSEN + 2 * j] = w[DFS + D_SIZE * j + D_FACE]
                        w[CHOSEN + 2 * j + 1] = w[DFS + D_SIZE * j + D_PIECE]
                    w[BEST + B_STEPS] = d
                    w[BEST + B_CHOSEN_CAPS] = captures
                    break
                seen += 1
        if d == 0:
            break
        d -= 1
        row = DFS + D_SIZE * d
        undo_to(lay, w, w[row + D_MARK])
        w[REM + w[row + D_FACE]] += 1
    undo_to(lay, w, root_mark)


@njit(**HOT)
def pieces_at_risk(lay: np.ndarray, w: np.ndarray, seat: int, most: int, first: int, union: int):
    """Mask of the pieces a caught skipper loses (RULES.md section 5, puster).

    If some option captured two or more pieces, the capturing pieces of the
    first option with the most captures; otherwise the most advanced (after
    the turn's moves, lowest index on ties) of the pieces that could capture.
    Pieces in the goal or the yard are exempt.
    """
    goal = lay[R.GOAL]
    base = PROGRESS + MAX_PIECES * seat
    mask = np.int64(0)
    if most >= 2:
        for i in range(lay[R.PIECES]):
            p = w[base + i]
            if first & (np.int64(1) << i) and 0 <= p < goal:
                mask |= np.int64(1) << i
        return mask
    pick = -1
    for i in range(lay[R.PIECES]):
        p = w[base + i]
        if union & (np.int64(1) << i) and 0 <= p < goal and (pick < 0 or p > w[base + pick]):
            pick = i
    if pick >= 0:
        mask = np.int64(1) << pick
    return mask
