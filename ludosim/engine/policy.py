"""Policies in the kernel: each seat's policy row, and the single-roll choice.

Mirrors the single-roll case of `ludosim.reference.game.Game.decide`. A seat's
policy is a row of the work array (`w[policy_at(seat, PW.*)]`, built by
`compile_policies`): integer weights in thousandths, in
`ludosim.rules.policies.FEATURES` order, and the skipper's probability as an
integer threshold, so that scores are exact integers in both engines and the
skip draw compares integers. The options' features and scores are
`ludosim.engine.optionscore`'s; this module picks among them (`choose_move`,
`choose_free_piece`) and draws the random policy's and the skipper's choices.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numba import njit, types
from numba.extending import overload

from ludosim.engine.layout import MAX_PIECES, R, detect_threshold
from ludosim.engine.moves import (
    count_capturing_moves,
    free_target,
    legal_moves,
)
from ludosim.engine.optionscore import (
    F_EXPOSED,
    F_SAFE,
    decision_summaries,
    option_score,
    seat_weights,
    square_guard,
)
from ludosim.engine.rng import below, uniform_bits
from ludosim.engine.state import (
    HOT,
    MAX_SKIPS,
    N_FEATURES,
    NEG_SCORE,
    PW,
    SK,
    C,
    M,
    counter_at,
    move_at,
    option_at,
    policy_at,
    skip_at,
)

# Feature indices (`ludosim.rules.policies.FEATURES`).


class PolicyWeights(Protocol):
    """What the kernel needs of a seat's policy (`ludosim.rules.policies.Policy` has it)."""

    @property
    def weights(self) -> tuple[int, ...]: ...

    @property
    def skip(self) -> float: ...

    @property
    def is_random(self) -> bool: ...

    @property
    def score_weights(self) -> tuple[int, ...]: ...


def compile_policies(policies: Sequence[PolicyWeights]) -> np.ndarray:
    """One `PW.SIZE` row per seat for parsed policies (`ludosim.rules.policies.parse_policy`).

    The policies come parsed from above, so the kernel does not import the
    policy layer that sits on top of it.
    """
    rows = np.zeros((len(policies), PW.SIZE), dtype=np.int64)
    for seat, policy in enumerate(policies):
        assert len(policy.weights) == N_FEATURES  # `ludosim.rules.policies.FEATURES` order
        # Multipliers, not weights: base weights times PROB_UNIT when a look-ahead one weighs.
        multipliers = policy.score_weights
        rows[seat, PW.WEIGHTS : PW.WEIGHTS + N_FEATURES] = multipliers
        rows[seat, PW.RANDOM] = policy.is_random
        q = policy.skip
        rows[seat, PW.SKIP_MODE] = 0 if q <= 0.0 else (1 if q >= 1.0 else 2)
        rows[seat, PW.SKIP_THRESHOLD] = detect_threshold(q)
        rows[seat, PW.GUARD : PW.GUARD + 32] = guard_table(
            multipliers[F_SAFE], multipliers[F_EXPOSED]
        )
    return rows


def guard_table(safe_weight: int, exposed_weight: int) -> list[int]:
    """Weighted change of `safe` and `exposed` when one own piece leaves or reaches a square.

    Entry `16 * arriving + 4 * count + 2 * protected + threat`: `count` own
    pieces there before (3 stands for 3 or more: the change is the same), on a
    safe square or not, an opponent 1-6 squares behind or not. Built once per
    seat from `square_guard`, so that scoring an option reads two entries
    instead of working out both features for both squares.
    """
    # The Python function behind the compiled one (itself without the JIT).
    guard = getattr(square_guard, "py_func", square_guard)
    table = []
    for step in (-1, 1):
        for count in range(4):
            for protected in (False, True):
                for threat in (False, True):
                    safe0, exposed0 = guard(count, protected, threat)
                    safe1, exposed1 = guard(max(count + step, 0), protected, threat)
                    table.append(
                        safe_weight * (safe1 - safe0) + exposed_weight * (exposed1 - exposed0)
                    )
    return table


@njit(**HOT)
def is_random(w: np.ndarray, seat: int) -> bool:
    """The seat's policy scores every option 0 (so it never computes a feature)."""
    return w[policy_at(seat, PW.RANDOM)] != 0


# For a 4-bit piece mask m: its popcount, as 3-bit fields of one constant, and
# the index of its n-th set bit at _NTH_PIECE[4 * m + n] (a read-only table
# that numba compiles in as a constant).
_POPCOUNT4 = sum(bin(m).count("1") << (3 * m) for m in range(16))
_NTH_PIECE = np.array(
    [
        [i for i in range(4) if m >> i & 1][n] if n < bin(m).count("1") else 0
        for m in range(16)
        for n in range(4)
    ],
    dtype=np.int64,
)
assert MAX_PIECES == 4  # the tables above cover 4-bit masks


@njit(**HOT, inline="always")
def pick_random_piece(mask: int, stream: np.ndarray) -> int:
    """The piece a random player moves among the pieces of `mask`, or -1 when it is empty.

    The same draw as `below(k)` over the move list (moves listed by piece):
    `below(k)` only when there is a choice, then the want-th piece of the mask.
    """
    k = (_POPCOUNT4 >> (3 * mask)) & 7
    if k == 0:
        return -1
    want = below(stream, k) if k > 1 else 0
    return _NTH_PIECE[4 * mask + want]


@njit(**HOT)
def draw_skip(w: np.ndarray, seat: int, stream: np.ndarray) -> bool:
    """A skipper facing a forced capture decides to ignore it (one `uniform()` if 0 < Q < 1)."""
    mode = w[policy_at(seat, PW.SKIP_MODE)]
    if mode == 0:
        return False
    if mode == 1:
        return True
    return uniform_bits(stream) < w[policy_at(seat, PW.SKIP_THRESHOLD)]


@njit(**HOT)
def note_skip(w: np.ndarray, most: int, first: int, union: int) -> None:
    """Remember a skipped forced capture; the puster looks at it at the end of the turn."""
    n = w[counter_at(C.SKIPS)]
    if n < MAX_SKIPS:
        w[skip_at(n, SK.MOST)] = most
        w[skip_at(n, SK.FIRST)] = first
        w[skip_at(n, SK.UNION)] = union
        w[counter_at(C.SKIPS)] = n + 1


@njit(**HOT, inline="always")
def choose_random(lay: np.ndarray, w: np.ndarray, seat: int, k: int, stream: np.ndarray) -> int:
    """Row of the move list a `random` seat plays among its `k >= 1` legal moves.

    `below(k)` among them (docs/rules.md section 7), or, under forced captures,
    `below` among the capturing ones when there are any. Only a random
    seat's captures are needed, and only where an opponent stands. A random
    seat never skips a forced capture (only `skipper:Q`, a balanced player,
    does), so it draws nothing else and the puster never hears of it.
    """
    if k == 1:
        return 0
    if not lay[R.FORCED_CAPTURE]:
        return below(stream, k)
    ncap = count_capturing_moves(lay, w, seat, k)
    if ncap == 0:
        return below(stream, k)
    want = below(stream, ncap) if ncap > 1 else 0
    for j in range(k):
        if w[move_at(j, M.CAPS)] > 0:
            if want == 0:
                return j
            want -= 1
    return -1  # pragma: no cover - ncap capturing rows exist


@njit(**HOT)
def choose_random_move(
    lay: np.ndarray, w: np.ndarray, seat: int, face: int, stream: np.ndarray
) -> int:
    """`choose_move` for a seat known to play random: no scoring code at all."""
    k = legal_moves(lay, w, seat, face)
    if k == 0:
        return -1
    return choose_random(lay, w, seat, k, stream)


@njit(**HOT)
def choose_move(lay: np.ndarray, w: np.ndarray, seat: int, face: int, stream: np.ndarray) -> int:
    """Row of the move list the seat plays for one roll, or -1 when it has no legal move.

    As `Game.decide` for one roll. A random seat is `choose_random`.
    Otherwise every move gets its captures and score (predicted from the
    counts, or tried and taken back when a star jump follows); with a forced
    capture the pool is the capturing moves (unless a skipper draws to
    skip); the best score wins, ties by `below(t)` in move order.
    """
    k = legal_moves(lay, w, seat, face)
    if k == 0:
        return -1
    if is_random(w, seat):
        return choose_random(lay, w, seat, k, stream)
    forced = lay[R.FORCED_CAPTURE] != 0
    skipper = w[policy_at(seat, PW.SKIP_MODE)] != 0
    if k == 1 and not (skipper and forced):
        # The only option: nothing to score, nothing drawn, never a skip.
        return 0
    summary = decision_summaries(lay, w, seat, seat_weights(w, seat))
    # Plain int64 zeros, not literals: numba would also compile `note_skip`
    # and `below` for a literal 0 met while it infers the types.
    ncap = np.int64(0)
    most = np.int64(0)
    first = np.int64(0)
    union = np.int64(0)
    # The best score over every option and its ties, kept on the way: without
    # a forced capture among the options that is the pool, and a decision
    # without ties needs no second look at the options.
    best = NEG_SCORE
    ties = np.int64(0)
    best_j = -1
    base = NEG_SCORE  # `prepare_trying` not called yet
    for j in range(k):
        piece = w[move_at(j, M.PIECE)]
        captures, score, base = option_score(
            lay, w, seat, piece, w[move_at(j, M.TARGET)], w[move_at(j, M.FLAGS)], summary, base
        )
        w[option_at(j)] = score
        w[move_at(j, M.CAPS)] = captures
        if score > best:
            best = score
            ties = 1
            best_j = j
        elif score == best:
            ties += 1
        if captures > 0:
            ncap += 1
            union |= np.int64(1) << piece
            if captures > most:  # strictly: the first option with the most captures
                most = captures
                first = np.int64(1) << piece
    capture_rule = forced and ncap > 0
    if not capture_rule and ties == 1:
        return best_j
    skipping = capture_rule and draw_skip(w, seat, stream)
    only_capturing = capture_rule and not skipping
    if only_capturing:
        # The pool is the capturing options: their best score and its ties.
        best = NEG_SCORE
        ties = 0
        for j in range(k):
            if w[move_at(j, M.CAPS)] == 0:
                continue
            if w[option_at(j)] > best:
                best = w[option_at(j)]
                ties = 1
            elif w[option_at(j)] == best:
                ties += 1
    want = below(stream, ties) if ties > 1 else 0
    chosen = -1
    for j in range(k):
        if (only_capturing and w[move_at(j, M.CAPS)] == 0) or w[option_at(j)] != best:
            continue
        if want == 0:
            chosen = j
            break
        want -= 1
    if capture_rule and w[move_at(chosen, M.CAPS)] == 0:
        note_skip(w, most, first, union)
    return chosen


def choose_for(
    lay: np.ndarray, w: np.ndarray, seat: int, face: int, stream: np.ndarray, scoring: bool
) -> int:
    """`choose_move`, or `choose_random_move` where `scoring` is the literal False.

    `scoring` is False when every seat of the run plays random (the batch
    runners get it as a literal, `numba.literally`). Numba prunes branches on
    constants but not on literal arguments, so the choice is made here, at
    typing time: an all-random run compiles none of the scoring code, which
    shortens its first compile by seconds. The body below runs only without
    the JIT (`NUMBA_DISABLE_JIT=1`); compiled code gets `_choose_for`.
    """
    if not scoring:
        return choose_random_move(lay, w, seat, face, stream)
    return choose_move(lay, w, seat, face, stream)


@overload(choose_for, prefer_literal=True, inline="always")
def _choose_for(lay, w, seat, face, stream, scoring):
    if isinstance(scoring, types.BooleanLiteral) and not scoring.literal_value:
        return lambda lay, w, seat, face, stream, scoring: choose_random_move(
            lay, w, seat, face, stream
        )
    return lambda lay, w, seat, face, stream, scoring: choose_move(lay, w, seat, face, stream)


# An ordinary call: one compiled copy serves every free-play game and the expert's
# rollouts. Inlined into the free turn loop it made a first scoring run on italian
# compile for 66 s instead of 28 s, for a speed within the noise of
# `benchmarks/policy_speed.py` (balanced costs 2.01 random games inlined, 1.98 called).
@njit(**HOT)
def choose_free_piece(
    lay: np.ndarray, w: np.ndarray, seat: int, face: int, movers: int, stream: np.ndarray
) -> int:
    """The piece the seat moves among `movers` (`moves.free_movers`), or -1 when it is empty.

    `choose_move` for rules where `turn.free_play` holds, without the move
    list: the moves are the pieces of the mask in piece order, their targets
    `moves.free_target`, and there are no forced captures, so the best score
    wins with ties by `below(t)`, exactly as `choose_move` decides.
    """
    if is_random(w, seat) or (_POPCOUNT4 >> (3 * movers)) & 7 <= 1:
        # Random, or no piece or only one to move (then nothing is scored or drawn).
        return pick_random_piece(movers, stream)
    summary = decision_summaries(lay, w, seat, seat_weights(w, seat))
    best = NEG_SCORE
    tied = 0  # mask of the pieces with the best score so far
    base = NEG_SCORE
    for piece in range(lay[R.PIECES]):
        if not (movers >> piece) & 1:
            continue
        target, flags = free_target(w, seat, piece, face)
        _, score, base = option_score(lay, w, seat, piece, target, flags, summary, base)
        # Without branches: which option scores best is close to random.
        bit = np.int64(1) << piece
        tied = bit if score > best else tied | (bit * np.int64(score == best))
        best = max(best, score)
    # The want-th tied piece in piece order, drawn only among several.
    return pick_random_piece(tied, stream)


def choose_free_for(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    face: int,
    movers: int,
    stream: np.ndarray,
    scoring: bool,
) -> int:
    """`choose_free_piece`, or `pick_random_piece` where `scoring` is the literal False.

    As `choose_for`, for the free turn loop; the body runs only without the JIT.
    """
    if not scoring:
        return pick_random_piece(movers, stream)
    return choose_free_piece(lay, w, seat, face, movers, stream)


@overload(choose_free_for, prefer_literal=True, inline="always")
def _choose_free_for(lay, w, seat, face, movers, stream, scoring):
    if isinstance(scoring, types.BooleanLiteral) and not scoring.literal_value:
        return lambda lay, w, seat, face, movers, stream, scoring: pick_random_piece(movers, stream)
    return lambda lay, w, seat, face, movers, stream, scoring: choose_free_piece(
        lay, w, seat, face, movers, stream
    )
