"""Memoised counting of Killer plans: the kernel's twin of `ludosim.reference.plans.PlanTree`.

Listing every plan is exponential in the number of sixes (8 rolls on 4
pieces: 8 x 4^8 orderings), yet a policy only needs how many plans it likes
best and the k-th of them. Different orders of the same moves usually reach
the same position, so plans are counted per node (position, remaining rolls)
and a node's summary is shared by every order that reaches it.

A node's summary (`N.*`) covers its continuations with the best key: the key,
the best final score and how many reach it (all, and capturing ones, where a
continuation captures if any of its moves does), and what the puster needs
(most captures, the capturers of the first continuation with the most, every
capturer). A final score depends only on where a plan ends (the features
compare it with the turn's start), so summaries compose child by child as
`PlanTree._node` merges its per-score counts; only the best score matters,
because a child's continuations are a subset of the root's pool, so no child
can beat the score the pick walk looks for.

Summaries live in an open-addressing hash table at the end of the work array.
A node's key is two int64 words: the seat's progress and reversed flags plus
which opponent pieces are in their yards (`k1`), and the remaining rolls by
face (`k2`); during a turn opponents change only by being captured, so this
is the whole position. Nodes with at most one roll left (most nodes) are
never stored: their children are all leaves, so they are counted on the spot
(`summarise_last`). A search starts on a small table (`MEMO_START`
entries, so it stays in the caches) and restarts on a table twice as large
whenever it fills up, up to the allocated size; beyond that the table is a
plain cache that stops storing, and the search recomputes what it could not
store. Results never depend on the table's size. Only the slots a search
stored are cleared before the next one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.layout import MAX_PIECES, NONE, R
from ludosim.engine.moves import apply_move, legal_target, may_capture, move_target
from ludosim.engine.optionscore import note_before, score_position
from ludosim.engine.plans import plan_key_step
from ludosim.engine.policy import draw_skip, is_random, note_skip
from ludosim.engine.position import undo_to
from ludosim.engine.rng import below
from ludosim.engine.state import (
    CH,
    DUMMY,
    FACE_SLOTS,
    HOT,
    KID,
    LEAF,
    MD,
    MEMO_START,
    MH,
    MRES,
    NEG_SCORE,
    NO,
    YARD,
    YES,
    B,
    C,
    E,
    N,
    best_at,
    chosen_at,
    counter_at,
    depth_at,
    depth_summary,
    entry_at,
    ix,
    kid_at,
    kid_count_at,
    kid_summary,
    memo_head_at,
    progress_at,
    remaining_at,
    reversed_at,
    roll_at,
    stored_at,
    summary_at,
)

_HASH1 = np.uint64(0x9E3779B97F4A7C15)
_HASH2 = np.uint64(0xC2B2AE3D27D4EB4F)
_S29 = np.uint64(29)
MAX_FACE = 8  # highest face code (the star)
_LOW32 = (1 << 32) - 1
# A (best score, count) pair of a summary, (N.MALL, N.CALL) or (N.MCAP, N.CCAP):
# the count follows the score.
PAIR_COUNT = N.CALL - N.MALL
assert N.CCAP - N.MCAP == PAIR_COUNT


# ------------------------------------------------------------------ keys
@njit(**HOT)
def opponents_in_yard(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """Mask of the opponent pieces in their yards (bit `MAX_PIECES * k + piece`, k-th opponent)."""
    mask = np.int64(0)
    bit = 0
    for s in range(lay[R.PLAYERS]):
        if s != seat:
            for i in range(lay[R.PIECES]):
                if w[progress_at(s, i)] == YARD:
                    mask |= np.int64(1) << (bit + i)
            bit += MAX_PIECES
    return mask


@njit(**HOT)
def _piece_bits(w: np.ndarray, seat: int, piece: int) -> int:
    """A piece's part of `k1`: progress + 1 (< 128) in 7 bits, its reversed flag in bit 28 + i."""
    progress_bits = (w[progress_at(seat, piece)] + 1) << (7 * piece)
    return progress_bits | (w[reversed_at(seat, piece)] << (28 + piece))


@njit(**HOT)
def root_key(lay: np.ndarray, w: np.ndarray, seat: int) -> tuple:
    """The memo key (k1, k2) of the current position and remaining rolls (`REM`)."""
    k1 = opponents_in_yard(lay, w, seat) << 32  # at most 5 opponents x 4 pieces: bits 32-51
    for i in range(lay[R.PIECES]):
        k1 |= _piece_bits(w, seat, i)
    k2 = np.int64(0)
    for face in range(1, MAX_FACE + 1):
        k2 |= w[remaining_at(face)] << (7 * (face - 1))  # at most MAX_ROLLS = 64 of a face
    return k1, k2


@njit(**HOT)
def child_key(
    lay: np.ndarray, w: np.ndarray, seat: int, k1: int, k2: int, piece: int, face: int, caps: int
) -> tuple:
    """The key after `piece` played `face` from the node with key (k1, k2).

    Only the mover's progress and flag change, and the opponents' yards when
    the move captured.
    """
    field = (np.int64(127) << (7 * piece)) | (np.int64(1) << (28 + piece))
    c1 = (k1 & ~field) | _piece_bits(w, seat, piece)
    if caps > 0:
        c1 = (c1 & _LOW32) | (opponents_in_yard(lay, w, seat) << 32)
    return c1, k2 - (np.int64(1) << (7 * (face - 1)))


# ------------------------------------------------------------------ the table
@njit(**HOT)
def _first_slot(w: np.ndarray, k1: int, k2: int) -> int:
    h = (np.uint64(k1) * _HASH1) ^ (np.uint64(k2) * _HASH2)
    h ^= h >> _S29
    return np.int64(h & np.uint64(w[memo_head_at(MH.CAP)] - 1))


@njit(**HOT)
def find_node(w: np.ndarray, k1: int, k2: int) -> int:
    """Slot of stored node (k1, k2), or -1 when it is not stored."""
    cap = w[memo_head_at(MH.CAP)]
    if cap == 0:
        return -1
    j = _first_slot(w, k1, k2)
    while True:
        if w[entry_at(j, E.K2)] == 0:
            return -1
        if w[entry_at(j, E.K2)] == k2 and w[entry_at(j, E.K1)] == k1:
            return j
        j = (j + 1) & (cap - 1)


@njit(**HOT)
def load_node(w: np.ndarray, slot: int, dst: int) -> None:
    """Copy the stored summary of entry `slot` to the summary at `dst`."""
    for v in range(N.CCAP + 1):
        w[summary_at(dst, N.BEST + v)] = w[entry_at(slot, E.BEST + v)]
    packed = w[entry_at(slot, E.PUSTER)]
    w[summary_at(dst, N.MOST)] = packed >> 8
    w[summary_at(dst, N.FIRST)] = (packed >> 4) & 15
    w[summary_at(dst, N.UNION)] = packed & 15


@njit(**HOT)
def store_node(w: np.ndarray, k1: int, k2: int, src: int) -> None:
    """Store the summary at `src` of node (k1, k2); a table 3/4 full stores nothing."""
    cap = w[memo_head_at(MH.CAP)]
    used = w[memo_head_at(MH.USED)]
    if 4 * (used + 1) > 3 * cap:
        w[memo_head_at(MH.FULL)] = 1
        return
    j = _first_slot(w, k1, k2)
    while w[entry_at(j, E.K2)] != 0:
        j = (j + 1) & (cap - 1)
    w[entry_at(j, E.K1)] = k1
    w[entry_at(j, E.K2)] = k2
    for v in range(N.CCAP + 1):
        w[entry_at(j, E.BEST + v)] = w[summary_at(src, N.BEST + v)]
    w[entry_at(j, E.PUSTER)] = (
        (w[summary_at(src, N.MOST)] << 8)
        | (w[summary_at(src, N.FIRST)] << 4)
        | w[summary_at(src, N.UNION)]
    )
    w[stored_at(w[memo_head_at(MH.MAX)], used)] = j
    w[memo_head_at(MH.USED)] = used + 1


@njit(**HOT)
def clear_table(w: np.ndarray, cap: int) -> None:
    """Empty the slots stored so far and use `cap` entries from now on."""
    slots = w[memo_head_at(MH.MAX)]
    for k in range(w[memo_head_at(MH.USED)]):
        w[entry_at(w[stored_at(slots, k)], E.K2)] = 0
    w[memo_head_at(MH.USED)] = 0
    w[memo_head_at(MH.FULL)] = 0
    w[memo_head_at(MH.CAP)] = cap


# ------------------------------------------------------------------ summaries
@njit(**HOT)
def _clear_summary(w: np.ndarray, at: int, best: int) -> None:
    """A summary with key `best` and no continuation counted yet."""
    w[summary_at(at, N.BEST)] = best
    w[summary_at(at, N.MALL)] = NEG_SCORE
    w[summary_at(at, N.CALL)] = 0
    w[summary_at(at, N.MCAP)] = NEG_SCORE
    w[summary_at(at, N.CCAP)] = 0
    w[summary_at(at, N.MOST)] = 0
    w[summary_at(at, N.FIRST)] = 0
    w[summary_at(at, N.UNION)] = 0


@njit(**HOT)
def _open_node(w: np.ndarray, d: int, k1: int, k2: int, top: int, taken: int) -> None:
    """The stack row of depth `d` for a node about to be expanded, with an empty summary."""
    w[depth_at(d, MD.FACE)] = top
    w[depth_at(d, MD.PIECE)] = -1
    w[depth_at(d, MD.EXT)] = 0
    w[depth_at(d, MD.K1)] = k1
    w[depth_at(d, MD.K2)] = k2
    w[depth_at(d, MD.TAKEN)] = taken
    _clear_summary(w, depth_summary(d), np.int64(-1))


@njit(**HOT)
def _score_leaf(lay: np.ndarray, w: np.ndarray, seat: int, at: int, taken: int) -> None:
    """Summary of a leaf on the live state (the plan ends here), scored where it ends."""
    _clear_summary(w, at, np.int64(0))
    w[summary_at(at, N.MALL)] = 0 if is_random(w, seat) else score_position(lay, w, seat, taken)
    w[summary_at(at, N.CALL)] = 1


@njit(**HOT)
def _merge_best(w: np.ndarray, at: int, score: int, count: int) -> None:
    """Fold `count` continuations with final score `score` into the (best, count) pair at `at`.

    The pair is (N.MALL, N.CALL) or (N.MCAP, N.CCAP) of a summary: `at` is the
    offset of its first word, the count follows the score.
    """
    if count == 0:
        return
    if score > w[ix(at)]:
        w[ix(at)] = score
        w[ix(at + PAIR_COUNT)] = count
    elif score == w[ix(at)]:
        w[ix(at + PAIR_COUNT)] += count


@njit(**HOT)
def summarise_last(lay: np.ndarray, w: np.ndarray, seat: int, taken: int, dst: int) -> None:
    """Summary into the summary at `dst` of a node with one roll left: its children are all leaves.

    Every child has the same key (one step of that face), so the node is its
    legal moves, counted (and scored) without a search and never stored.
    """
    face = _top_face(w)
    rnd = is_random(w, seat)
    forced = lay[R.FORCED_CAPTURE] != 0
    _clear_summary(w, dst, np.int64(-1))
    for piece in range(lay[R.PIECES]):
        target, flags = move_target(lay, w, seat, piece, face)
        if target == NONE:
            continue
        captures = 0
        score = 0
        if not rnd or (forced and may_capture(lay, w, seat, target, flags)):
            mark = w[counter_at(C.UNDO)]
            captures, _ = apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
            if not rnd:
                score = score_position(lay, w, seat, taken + captures)
            undo_to(lay, w, mark)
        w[summary_at(dst, N.BEST)] = plan_key_step(face)
        _merge_best(w, dst + N.MALL, score, np.int64(1))
        if captures > 0:
            _merge_best(w, dst + N.MCAP, score, np.int64(1))
            w[summary_at(dst, N.UNION)] |= np.int64(1) << piece
            if captures > w[summary_at(dst, N.MOST)]:  # strictly: the first with the most captures
                w[summary_at(dst, N.MOST)] = captures
                w[summary_at(dst, N.FIRST)] = np.int64(1) << piece
    if w[summary_at(dst, N.BEST)] < 0:
        _score_leaf(lay, w, seat, dst, taken)  # the roll cannot be used: a leaf


@njit(**HOT)
def _last_move(
    lay: np.ndarray, w: np.ndarray, seat: int, piece: int, target: int, flags: int, taken: int
) -> int:
    """Summarise into `LEAF` the leaf a plan's last move reaches; return its captures.

    The random policy scores nothing, so the move is only tried when its
    captures matter (forced captures) and an opponent stands where it lands.
    """
    if is_random(w, seat):
        captures = 0
        if lay[R.FORCED_CAPTURE] and may_capture(lay, w, seat, target, flags):
            mark = w[counter_at(C.UNDO)]
            captures, _ = apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
            undo_to(lay, w, mark)
        _clear_summary(w, np.int64(LEAF), np.int64(0))
        w[summary_at(LEAF, N.MALL)] = 0
        w[summary_at(LEAF, N.CALL)] = 1
        return captures
    mark = w[counter_at(C.UNDO)]
    captures, _ = apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
    _score_leaf(lay, w, seat, np.int64(LEAF), taken + captures)
    undo_to(lay, w, mark)
    return captures


@njit(**HOT)
def _fold_child(w: np.ndarray, acc: int, child: int, face: int, piece: int, captures: int) -> None:
    """Fold a child's summary (at offset `child`), reached by (piece, face), into a node's summary.

    Only children whose continuations have the node's best key count
    (the best key of `PlanTree._node`).
    """
    key = w[summary_at(child, N.BEST)] + plan_key_step(face)
    if key < w[summary_at(acc, N.BEST)]:
        return
    if key > w[summary_at(acc, N.BEST)]:
        _clear_summary(w, acc, key)
    _merge_best(w, acc + N.MALL, w[summary_at(child, N.MALL)], w[summary_at(child, N.CALL)])
    if captures > 0:  # every continuation through a capturing move captures
        _merge_best(w, acc + N.MCAP, w[summary_at(child, N.MALL)], w[summary_at(child, N.CALL)])
    else:
        _merge_best(w, acc + N.MCAP, w[summary_at(child, N.MCAP)], w[summary_at(child, N.CCAP)])
    bit = (np.int64(1) << piece) if captures > 0 else np.int64(0)
    most = captures + w[summary_at(child, N.MOST)]
    if most > w[summary_at(acc, N.MOST)]:  # strictly: children are folded in plan order
        w[summary_at(acc, N.MOST)] = most
        w[summary_at(acc, N.FIRST)] = bit | w[summary_at(child, N.FIRST)]
    w[summary_at(acc, N.UNION)] |= bit | w[summary_at(child, N.UNION)]


@njit(**HOT)
def _keep_kid(w: np.ndarray, child: int, face: int, piece: int, captures: int) -> None:
    """Remember a child of the turn's root and its summary, in plan order."""
    n = w[kid_count_at()]
    w[kid_at(n, KID.FACE)] = face
    w[kid_at(n, KID.PIECE)] = piece
    w[kid_at(n, KID.CAPS)] = captures
    for v in range(N.SIZE):
        w[kid_at(n, KID.SUMMARY + v)] = w[summary_at(child, v)]
    w[kid_count_at()] = n + 1


@njit(**HOT)
def _top_face(w: np.ndarray) -> int:
    for face in range(MAX_FACE, 0, -1):
        if w[remaining_at(face)] > 0:
            return face
    return 0


@njit(**HOT)
def summarise_node(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    left: int,
    k1: int,
    k2: int,
    taken: int,
    may_stop: bool,
    keep_kids: bool,
) -> bool:
    """Summary of the node (current position, `left` remaining rolls `REM`) into `MRES`.

    (k1, k2) is the node's key and `taken` the opponent pieces captured since
    the root. The node is looked up first, else found by a depth-first search
    over its continuations, in plan order, storing every node it completes.
    Moves are tried on the live state and taken back. With `may_stop` the
    search stops as soon as the table fills up and returns False (the state
    and the rolls are restored; nothing is summarised). With `keep_kids` the
    node's children are kept in `KIDS` (the turn's root, for `pick_plan`).
    """
    if keep_kids:
        w[kid_count_at()] = 0
    if left == 0:
        _score_leaf(lay, w, seat, np.int64(MRES), taken)
        return True
    found = find_node(w, k1, k2)
    if found >= 0:
        load_node(w, found, np.int64(MRES))
        return True
    if left == 1:
        summarise_last(lay, w, seat, taken, np.int64(MRES))
        return True
    pieces = lay[R.PIECES]
    root_mark = w[counter_at(C.UNDO)]
    top = _top_face(w)
    d = 0
    _open_node(w, np.int64(0), k1, k2, top, taken)
    while True:
        # The next legal (face, piece) of this node, after the one tried last.
        face = w[depth_at(d, MD.FACE)]
        piece = w[depth_at(d, MD.PIECE)] + 1
        target = NONE
        flags = 0
        while face >= 1:
            if w[remaining_at(face)] > 0:
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
            w[depth_at(d, MD.FACE)] = face
            w[depth_at(d, MD.PIECE)] = piece
            w[depth_at(d, MD.EXT)] = 1
            mark = w[counter_at(C.UNDO)]
            w[depth_at(d, MD.MARK)] = mark
            captures, _ = apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
            w[depth_at(d, MD.CAPS)] = captures
            w[remaining_at(face)] -= 1
            c1, c2 = child_key(
                lay, w, seat, w[depth_at(d, MD.K1)], w[depth_at(d, MD.K2)], piece, face, captures
            )
            # A node one move from the root is reached by that move only: never looked up.
            found = find_node(w, c1, c2) if d >= 1 else -1
            if found < 0 and left - d == 2:
                # The child has one roll left: counted at once, stored where another
                # order of the same moves may reach it again.
                summarise_last(lay, w, seat, w[depth_at(d, MD.TAKEN)] + captures, np.int64(LEAF))
                if d >= 1:
                    store_node(w, c1, c2, np.int64(LEAF))
            elif found >= 0:
                load_node(w, found, np.int64(LEAF))
            else:
                d += 1
                _open_node(w, d, c1, c2, top, w[depth_at(d - 1, MD.TAKEN)] + captures)
                continue
            _fold_child(w, depth_summary(d), np.int64(LEAF), face, piece, captures)
            if keep_kids and d == 0:
                _keep_kid(w, np.int64(LEAF), face, piece, captures)
            undo_to(lay, w, mark)
            w[remaining_at(face)] += 1
            continue
        # Every child of this node is folded in: the node is complete.
        acc = depth_summary(d)
        if not w[depth_at(d, MD.EXT)]:
            _score_leaf(lay, w, seat, acc, w[depth_at(d, MD.TAKEN)])  # rolls left, none usable
        if d == 0:
            for v in range(N.SIZE):
                w[summary_at(MRES, v)] = w[summary_at(acc, v)]
            return True
        store_node(w, w[depth_at(d, MD.K1)], w[depth_at(d, MD.K2)], acc)
        if may_stop and w[memo_head_at(MH.FULL)]:
            for r in range(d):
                w[remaining_at(w[depth_at(r, MD.FACE)])] += 1
            undo_to(lay, w, root_mark)
            return False
        d -= 1
        face = w[depth_at(d, MD.FACE)]
        undo_to(lay, w, w[depth_at(d, MD.MARK)])
        w[remaining_at(face)] += 1
        _fold_child(
            w, depth_summary(d), acc, face, w[depth_at(d, MD.PIECE)], w[depth_at(d, MD.CAPS)]
        )
        if keep_kids and d == 0:
            _keep_kid(w, acc, face, w[depth_at(d, MD.PIECE)], w[depth_at(d, MD.CAPS)])


# ------------------------------------------------------------------ choosing
@njit(**HOT)
def pick_plan(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    nrolls: int,
    best: int,
    index: int,
    need: bool,
    final: int,
) -> None:
    """Copy plan number `index` among the pool's plans with final score `final` to `CHOSEN`.

    As `PlanTree.plan`: walk down from the root (key `best`, `nrolls` rolls),
    trying the children in plan order; a child holds as many pool plans as
    its continuations with the node's best key and score `final` (capturing
    ones only while `need`: no capture yet on the way down). Sets `B.STEPS`
    and `B.CHOSEN_CAPS`; the state and the remaining rolls are left as they were.
    """
    pieces = lay[R.PIECES]
    root_mark = w[counter_at(C.UNDO)]
    top = _top_face(w)
    k1, k2 = root_key(lay, w, seat)
    steps = 0
    taken = 0
    node = best
    # The root's children were kept by the search (`KIDS`): no need to try them again.
    for j in range(w[kid_count_at()] if node > 0 else 0):
        face = w[kid_at(j, KID.FACE)]
        captures = w[kid_at(j, KID.CAPS)]
        child = kid_summary(j)
        if w[summary_at(child, N.BEST)] + plan_key_step(face) != node:
            continue
        if need and captures == 0:
            score, count = w[summary_at(child, N.MCAP)], w[summary_at(child, N.CCAP)]
        else:
            score, count = w[summary_at(child, N.MALL)], w[summary_at(child, N.CALL)]
        size = count if score == final else 0
        if index >= size:
            index -= size
            continue
        piece = w[kid_at(j, KID.PIECE)]
        if nrolls > 1:
            target, flags = legal_target(lay, w, seat, piece, face)
            apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
            w[remaining_at(face)] -= 1
            k1, k2 = child_key(lay, w, seat, k1, k2, piece, face, captures)
        w[chosen_at(0, CH.FACE)] = face
        w[chosen_at(0, CH.PIECE)] = piece
        steps = 1
        taken = captures
        need = need and captures == 0
        node = w[summary_at(child, N.BEST)]
        break
    while node > 0:
        picked = False
        left = nrolls - steps - 1  # rolls left after this step
        face = top
        while face >= 1 and not picked:
            if w[remaining_at(face)] > 0:
                for piece in range(pieces):
                    target, flags = legal_target(lay, w, seat, piece, face)
                    if target == NONE:
                        continue
                    mark = w[counter_at(C.UNDO)]
                    c1, c2 = k1, k2
                    if left == 0:
                        captures = _last_move(lay, w, seat, piece, target, flags, taken)
                        child = LEAF
                    else:
                        captures, _ = apply_move(
                            lay, w, seat, piece, target, flags, np.int64(DUMMY), YES
                        )
                        w[remaining_at(face)] -= 1
                        c1, c2 = child_key(lay, w, seat, k1, k2, piece, face, captures)
                        summarise_node(lay, w, seat, left, c1, c2, taken + captures, NO, NO)
                        child = MRES
                    if w[summary_at(child, N.BEST)] + plan_key_step(face) == node:
                        if need and captures == 0:
                            score, count = (
                                w[summary_at(child, N.MCAP)],
                                w[summary_at(child, N.CCAP)],
                            )
                        else:
                            score, count = (
                                w[summary_at(child, N.MALL)],
                                w[summary_at(child, N.CALL)],
                            )
                        size = count if score == final else 0
                        if index < size:
                            w[chosen_at(steps, CH.FACE)] = face
                            w[chosen_at(steps, CH.PIECE)] = piece
                            steps += 1
                            taken += captures
                            need = need and captures == 0
                            node = w[summary_at(child, N.BEST)]
                            if left > 0:
                                k1, k2 = c1, c2
                            picked = True
                            break
                        index -= size
                    if left > 0:
                        undo_to(lay, w, mark)
                        w[remaining_at(face)] += 1
            face -= 1
        if not picked:  # pragma: no cover - the summaries guarantee a child
            break
    w[best_at(B.STEPS)] = steps
    w[best_at(B.CHOSEN_CAPS)] = taken
    undo_to(lay, w, root_mark)
    for j in range(steps):
        if j < nrolls - 1:  # the last step of a full plan never took its roll
            w[remaining_at(w[chosen_at(j, CH.FACE)])] += 1


@njit(**HOT, inline="always")
def summarise_root(lay: np.ndarray, w: np.ndarray, seat: int, nrolls: int) -> None:
    """Summary of the turn's root node into `MRES`, on a table large enough if possible.

    Starts on `MEMO_START` entries and doubles the table (starting over)
    while a search fills it, up to the allocated size, where it just stops
    storing.
    """
    k1, k2 = root_key(lay, w, seat)
    w[kid_count_at()] = 0
    top = w[memo_head_at(MH.MAX)]
    cap = min(MEMO_START, top)
    while True:
        clear_table(w, cap)
        if summarise_node(lay, w, seat, nrolls, k1, k2, np.int64(0), cap < top, YES):
            return
        cap *= 2


@njit(**HOT, inline="always")
def choose_plan(lay: np.ndarray, w: np.ndarray, seat: int, nrolls: int, stream: np.ndarray) -> None:
    """The seat's plan for the turn's rolls (`ROLLS`), as `Game.decide`, into `CHOSEN`.

    Draws: `uniform()` when a skipper with 0 < Q < 1 faces a forced capture,
    then `below(t)` when `t > 1` plans tie for the best score in the pool. A
    skipped forced capture is noted for the puster.
    """
    for face in range(FACE_SLOTS):
        w[remaining_at(face)] = 0
    for j in range(nrolls):
        w[remaining_at(w[roll_at(j)])] += 1
    if not is_random(w, seat):
        note_before(lay, w, seat)
    summarise_root(lay, w, seat, nrolls)
    best = w[summary_at(MRES, N.BEST)]
    any_capture = w[summary_at(MRES, N.CCAP)] > 0
    most, first, union = (
        w[summary_at(MRES, N.MOST)],
        w[summary_at(MRES, N.FIRST)],
        w[summary_at(MRES, N.UNION)],
    )
    forced = lay[R.FORCED_CAPTURE] != 0
    skipping = forced and any_capture and draw_skip(w, seat, stream)
    only_capturing = forced and any_capture and not skipping
    if only_capturing:
        final, count = w[summary_at(MRES, N.MCAP)], w[summary_at(MRES, N.CCAP)]
    else:
        final, count = w[summary_at(MRES, N.MALL)], w[summary_at(MRES, N.CALL)]
    index = below(stream, count) if count > 1 else 0
    pick_plan(lay, w, seat, nrolls, best, index, only_capturing, final)
    if forced and any_capture and w[best_at(B.CHOSEN_CAPS)] == 0:
        note_skip(w, most, first, union)
