"""Policies in the kernel: features and scores of options, and the single-roll choice.

Mirrors `ludosim.reference.features` and the single-roll case of
`ludosim.reference.game.Game.decide`. A seat's policy is a row of the work
array (`w[policy_at(seat, PW_*)]`, built by `compile_policies`):
integer weights in thousandths, in `ludosim.rules.policies.FEATURES` order, and the
skipper's probability as an integer threshold, so that scores are exact
integers in both engines and the skip draw compares integers.

An option's features compare the position after it with the position before
it. A single move changes one own piece and, by capturing, empties one
square of opponents, so most options are scored without playing them
(`score_predicted`): the square counts say how the landing resolves and what
it captures, and `safe`/`exposed` change only on the squares the mover
leaves and reaches (`guard_change`: two entries of the seat's weighted
`guard_table`, with an opponent occupancy mask made once per decision,
`opponent_squares`). A move followed by a star jump is tried
on the live state instead (`score_by_trying`: apply, `score_position`
against `note_before`, undo), as the Killer plan search does for every move.

The look-ahead features (`danger`, `chance`: `lookahead`) play every move of
every seat's next roll from the position after an option and take it back,
so a policy that weighs them has every option tried; one that does not
never calls them.

A single-roll option's score (`w[option_at(j)]`) counts `safe` and `exposed` as
their change from the position before: the same constant off every option of
a decision, so the best option and its ties are those of the full score. (On
a track too long for the occupancy mask, where every option is tried, scores
are full.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import numpy as np
from numba import njit, types
from numba.extending import overload

from ludosim.engine.layout import MAX_PIECES, NONE, SAFE, R, detect_threshold
from ludosim.engine.moves import (
    CAPTURE,
    ENTERING,
    HOME,
    _star_jump,
    apply_move,
    free_target,
    legal_moves,
    legal_target,
    may_capture,
    resolve_landing,
)
from ludosim.engine.rng import below, uniform_bits
from ludosim.engine.state import (
    C_SKIPS,
    C_UNDO,
    DIE_SLOTS,
    DUMMY,
    HOT,
    M_CAPS,
    M_FLAGS,
    M_PIECE,
    M_TARGET,
    MAX_SKIPS,
    N_FEATURES,
    NEG_SCORE,
    PROB_UNIT,
    PW_GUARD,
    PW_RANDOM,
    PW_SIZE,
    PW_SKIP_MODE,
    PW_SKIP_THRESHOLD,
    PW_WEIGHTS,
    RT_GOAL,
    RT_STANDING,
    RT_YARD,
    SK_FIRST,
    SK_MOST,
    SK_UNION,
    U_PIECE,
    U_SEAT,
    YARD,
    YES,
    count_at,
    counter_at,
    guard_at,
    ix,
    move_at,
    occupancy_at,
    option_at,
    policy_at,
    progress_at,
    root_at,
    skip_at,
    square_of,
    total_at,
    travelled,
    undo_at,
    undo_to,
    victims_at,
    weight_at,
)

# Feature indices (`ludosim.rules.policies.FEATURES`).
F_PROGRESS = 0
F_ENTER = 1
F_CAPTURE = 2
F_FINISH = 3
F_SAFE = 4
F_EXPOSED = 5
F_SENT_HOME = 6
F_LEAD = 7
F_DANGER = 8
F_CHANCE = 9


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
    """One `PW_SIZE` row per seat for parsed policies (`ludosim.rules.policies.parse_policy`).

    The policies come parsed from above, so the kernel does not import the
    policy layer that sits on top of it.
    """
    rows = np.zeros((len(policies), PW_SIZE), dtype=np.int64)
    for seat, policy in enumerate(policies):
        assert len(policy.weights) == N_FEATURES  # `ludosim.rules.policies.FEATURES` order
        # Multipliers, not weights: base weights times PROB_UNIT when a look-ahead one weighs.
        multipliers = policy.score_weights
        rows[seat, PW_WEIGHTS : PW_WEIGHTS + N_FEATURES] = multipliers
        rows[seat, PW_RANDOM] = policy.is_random
        q = policy.skip
        rows[seat, PW_SKIP_MODE] = 0 if q <= 0.0 else (1 if q >= 1.0 else 2)
        rows[seat, PW_SKIP_THRESHOLD] = detect_threshold(q)
        rows[seat, PW_GUARD : PW_GUARD + 32] = guard_table(
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
    return w[policy_at(seat, PW_RANDOM)] != 0


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
def note_before(lay: np.ndarray, w: np.ndarray, seat: int) -> None:
    """Summarise the position before an option: what the features compare with."""
    goal = lay[R.GOAL]
    standing = 0
    yard = 0
    home = 0
    for i in range(lay[R.PIECES]):
        p = w[progress_at(seat, i)]
        standing += travelled(lay, p) + 1
        yard += p == YARD
        home += p == goal
    w[root_at(RT_STANDING)] = standing
    w[root_at(RT_YARD)] = yard
    w[root_at(RT_GOAL)] = home


@njit(**HOT)
def count_guarded(lay: np.ndarray, w: np.ndarray, seat: int) -> tuple:
    """(safe, exposed) of the current position, as `features.protected` / `features.exposed`.

    A track piece is protected on a safe square or when another own piece
    shares its square; an unprotected one is exposed when an opponent track
    piece stands 1-6 squares behind it.
    """
    track = lay[R.TRACK_LEN]
    safe = 0
    exposed = 0
    for i in range(lay[R.PIECES]):
        sq = square_of(lay, seat, w[progress_at(seat, i)])
        if sq < 0:
            continue
        if lay[ix(SAFE + sq)] or w[count_at(seat, sq)] >= 2:
            safe += 1
            continue
        for back in range(1, 7):
            s2 = sq - back
            if s2 < 0:
                s2 += track
            if w[total_at(s2)] - w[count_at(seat, s2)] > 0:
                exposed += 1
                break
    return safe, exposed


@njit(**HOT)
def capture_victims(lay: np.ndarray, w: np.ndarray, seat: int, face: int) -> int:
    """Pieces of other seats (mask, bit `MAX_PIECES * seat + piece`) that some legal
    move of `seat` for `face` captures, as `features.captured_by`.

    Each move that `may_capture` is played and taken back; the captured
    pieces are the undo log's rows of other seats.
    """
    victims = 0
    for piece in range(lay[R.PIECES]):
        target, flags = legal_target(lay, w, seat, piece, face)
        if target == NONE or not may_capture(lay, w, seat, target, flags):
            continue
        mark = w[counter_at(C_UNDO)]
        apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
        for row in range(mark, w[counter_at(C_UNDO)]):
            other = w[undo_at(row, U_SEAT)]
            if other != seat:  # only a captured piece of another seat is logged
                victims |= np.int64(1) << (MAX_PIECES * other + w[undo_at(row, U_PIECE)])
        undo_to(lay, w, mark)
    return victims


@njit(**HOT)
def note_victims(lay: np.ndarray, w: np.ndarray, seat: int) -> None:
    """`capture_victims` of every seat for every die slot (`victims_at`).

    Only what the seat's look-ahead weights need: the other seats' rolls for
    `danger`, its own for `chance`. A face that repeats an earlier slot's is copied.
    """
    danger = w[weight_at(seat, F_DANGER)] != 0
    chance = w[weight_at(seat, F_CHANCE)] != 0
    for s in range(lay[R.PLAYERS]):
        if (s == seat and not chance) or (s != seat and not danger):
            continue
        for slot in range(DIE_SLOTS):
            face = lay[R.FACE0 + slot]
            same = -1
            for earlier in range(slot):
                if lay[R.FACE0 + earlier] == face:
                    same = earlier
                    break
            if same >= 0:
                w[victims_at(s, slot)] = w[victims_at(s, same)]
            else:
                w[victims_at(s, slot)] = capture_victims(lay, w, s, face)


@njit(**HOT)
def lookahead(lay: np.ndarray, w: np.ndarray, seat: int) -> tuple:
    """(danger, chance) of the seat in the current position, in units of 1 / PROB_UNIT.

    As `ludosim.reference.features.lookahead`: danger sums, over the seat's
    track pieces, 1 - prod over opponents of (6 - faces that capture it) / 6;
    chance is (own faces with a capturing move) / 6. Reads `note_victims`.
    """
    note_victims(lay, w, seat)
    players = lay[R.PLAYERS]
    danger = 0
    if w[weight_at(seat, F_DANGER)]:
        absent = 1  # the faces of the opponents missing from six players
        for _ in range(players - 1, 5):
            absent *= 6
        for piece in range(lay[R.PIECES]):
            if square_of(lay, seat, w[progress_at(seat, piece)]) < 0:
                continue  # only a piece on the track can be captured
            bit = np.int64(1) << (MAX_PIECES * seat + piece)
            survive = absent
            for other in range(players):
                if other == seat:
                    continue
                hits = 0
                for slot in range(DIE_SLOTS):
                    hits += (w[victims_at(other, slot)] & bit) != 0
                survive *= 6 - hits
            danger += PROB_UNIT - survive
    faces = 0
    if w[weight_at(seat, F_CHANCE)]:
        for slot in range(DIE_SLOTS):
            faces += w[victims_at(seat, slot)] != 0
    return danger, faces * (PROB_UNIT // 6)


@njit(**HOT)
def score_position(lay: np.ndarray, w: np.ndarray, seat: int, captured: int) -> int:
    """Score of the current position under the seat's weights, against `note_before`.

    `captured` is the number of opponent pieces the option captured: during a
    turn opponents reach their yards only that way, so it equals the
    `capture` feature (opponents in their yards after minus before) without
    counting them. Features whose weight is 0 are not computed.
    """
    goal = lay[R.GOAL]
    standing = 0
    yard = 0
    home = 0
    lead = 0
    for i in range(lay[R.PIECES]):
        p = w[progress_at(seat, i)]
        standing += travelled(lay, p) + 1
        yard += p == YARD
        home += p == goal
        lead = max(lead, travelled(lay, p) + 1)
    total = w[weight_at(seat, F_PROGRESS)] * (standing - w[root_at(RT_STANDING)])
    total += w[weight_at(seat, F_ENTER)] * max(0, w[root_at(RT_YARD)] - yard)
    total += w[weight_at(seat, F_FINISH)] * (home - w[root_at(RT_GOAL)])
    total += w[weight_at(seat, F_SENT_HOME)] * max(0, yard - w[root_at(RT_YARD)])
    total += w[weight_at(seat, F_LEAD)] * lead
    total += w[weight_at(seat, F_CAPTURE)] * captured
    if w[weight_at(seat, F_SAFE)] or w[weight_at(seat, F_EXPOSED)]:
        safe, exposed = count_guarded(lay, w, seat)
        total += w[weight_at(seat, F_SAFE)] * safe + w[weight_at(seat, F_EXPOSED)] * exposed
    if w[weight_at(seat, F_DANGER)] or w[weight_at(seat, F_CHANCE)]:
        danger, chance = lookahead(lay, w, seat)
        total += w[weight_at(seat, F_DANGER)] * danger + w[weight_at(seat, F_CHANCE)] * chance
    return total


@njit(**HOT)
def draw_skip(w: np.ndarray, seat: int, stream: np.ndarray) -> bool:
    """A skipper facing a forced capture decides to ignore it (one `uniform()` if 0 < Q < 1)."""
    mode = w[policy_at(seat, PW_SKIP_MODE)]
    if mode == 0:
        return False
    if mode == 1:
        return True
    return uniform_bits(stream) < w[policy_at(seat, PW_SKIP_THRESHOLD)]


@njit(**HOT)
def note_skip(w: np.ndarray, most: int, first: int, union: int) -> None:
    """Remember a skipped forced capture; the puster looks at it at the end of the turn."""
    n = w[counter_at(C_SKIPS)]
    if n < MAX_SKIPS:
        w[skip_at(n, SK_MOST)] = most
        w[skip_at(n, SK_FIRST)] = first
        w[skip_at(n, SK_UNION)] = union
        w[counter_at(C_SKIPS)] = n + 1


@njit(**HOT, inline="always")
def predict_landing(
    lay: np.ndarray, w: np.ndarray, seat: int, piece: int, target: int, flags: int
) -> tuple:
    """(final progress, captures, emptied square) of a legal move, read from the square counts.

    The landing resolves as `apply_move` would resolve it (`resolve_landing`):
    the mover stays on `target` (capturing every opponent piece there, whose
    square is then empty: the third value, else -1) or goes back to its yard.
    Returns (NONE, 0, -1) when a star jump follows the landing: then a second
    landing depends on the first, and the move must be tried.
    """
    sq1 = square_of(lay, seat, target)
    sq0 = square_of(lay, seat, w[progress_at(seat, piece)])
    kind = resolve_landing(lay, w, seat, sq1, sq0, (flags & ENTERING) != 0)
    if kind == HOME:
        return YARD, 0, -1
    if _star_jump(lay, target, flags) != NONE:
        return NONE, 0, -1
    if kind == CAPTURE:
        return target, w[total_at(sq1)] - w[count_at(seat, sq1)], sq1
    return target, 0, -1


@njit(**HOT, inline="always")
def lead_summary(lay: np.ndarray, w: np.ndarray, seat: int) -> tuple:
    """(best standing, its piece, second best standing) of the seat's pieces (standing = p + 1).

    The `lead` after a move is the mover's new standing or the best of the
    others: the second best when the mover is the (first) leader.
    """
    best = 0
    leader = -1
    second = 0
    for i in range(lay[R.PIECES]):
        v = travelled(lay, w[progress_at(seat, i)]) + 1
        if v > best:
            second = best
            best = v
            leader = i
        elif v > second:
            second = v
    return best, leader, second


# Opponent occupancy as a bit mask needs the track and the six squares behind
# square 0 in one int64 (without its sign bit); longer tracks (six sides) have
# their options tried instead when `safe` or `exposed` counts.
MASK_TRACK = 57


@njit(**HOT, inline="always")
def opponent_squares(lay: np.ndarray, w: np.ndarray, seat: int) -> int:
    """Bit `sq` set for every track square `sq` where an opponent piece stands.

    The union of the other seats' occupancy masks (`state.occupancy_at`), which
    `relocate` keeps in step with the counts: a few loads instead of a pass
    over the track's squares on every decision.
    """
    occupied = 0
    for s in range(lay[R.PLAYERS]):
        occupied |= w[occupancy_at(s)] * np.int64(s != seat)
    return occupied


@njit(**HOT, inline="always")
def behind_mask(occupied: int, track: int) -> int:
    """`opponent_squares` shifted so that bits sq .. sq + 5 are the squares sq - 6 .. sq - 1.

    Bits 0-5 repeat the last six squares of the track, which lie behind the first ones.
    """
    return (occupied << 6) | (occupied >> (track - 6))


@njit(**HOT, inline="always")
def square_guard(count: int, safe_square: bool, threat: bool) -> tuple:
    """(safe, exposed) own pieces among `count` on one track square.

    All are protected on a safe square or when they share it; a lone piece
    elsewhere is exposed when an opponent stands 1-6 squares behind (`threat`).
    """
    if safe_square or count >= 2:
        return count, 0
    return 0, 1 if count == 1 and threat else 0


@njit(**HOT, inline="always")
def square_value(
    lay: np.ndarray, w: np.ndarray, seat: int, sq: int, arriving: int, behind: int
) -> int:
    """Weighted change of (safe, exposed) when an own piece leaves or reaches square `sq`.

    Read from the seat's `guard_table`; 0 off the track (`sq` < 0).
    """
    at = max(sq, 0)
    count = min(w[count_at(seat, at)], 3)
    threat = np.int64((behind >> at) & 63 != 0)
    protected = np.int64(lay[ix(SAFE + at)] != 0)
    entry = 16 * arriving + 4 * count + 2 * protected + threat
    return w[guard_at(seat, entry)] * np.int64(sq >= 0)


@njit(**HOT, inline="always")
def guard_change(lay: np.ndarray, w: np.ndarray, seat: int, sq0: int, sq1: int, behind: int) -> int:
    """Weighted change of (safe, exposed) when an own piece goes from `sq0` to `sq1` (-1: off).

    Both features add up per square (`square_guard`), and only the counts of
    the two squares change when the move captures nothing: one `guard_table`
    entry for each.
    """
    if sq0 == sq1:
        return 0
    return square_value(lay, w, seat, sq0, 0, behind) + square_value(lay, w, seat, sq1, 1, behind)


@njit(**HOT)
def guard_change_capturing(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    mover: int,
    sq0: int,
    sq1: int,
    before: int,
    after: int,
) -> tuple:
    """`guard_change` of a move that captures: the opponents change too.

    Each own piece's square is looked at before (`before`: the `behind_mask`
    of the opponents now) and after the move (`after`: without the captured
    pieces). An ordinary call: captures are rare.
    """
    safe = 0
    exposed = 0
    for i in range(lay[R.PIECES]):
        sq = square_of(lay, seat, w[progress_at(seat, i)])
        if sq >= 0:
            s, x = square_guard(
                w[count_at(seat, sq)], lay[ix(SAFE + sq)] != 0, (before >> sq) & 63 != 0
            )
            safe -= s != 0
            exposed -= x
        if i == mover:
            sq = sq1
        if sq >= 0:
            count = w[count_at(seat, sq)] - (sq == sq0) + (sq == sq1)
            s, x = square_guard(count, lay[ix(SAFE + sq)] != 0, (after >> sq) & 63 != 0)
            safe += s != 0
            exposed += x
    return safe, exposed


@njit(**HOT, inline="always")
def seat_weights(w: np.ndarray, seat: int) -> tuple:
    """The seat's weights as a tuple, read once per decision.

    Read from `w` inside the option loop they would be reloaded after every
    store to `w`, each with numba's negative-index check on a seat-dependent index.
    """
    return (
        w[weight_at(seat, F_PROGRESS)],
        w[weight_at(seat, F_ENTER)],
        w[weight_at(seat, F_CAPTURE)],
        w[weight_at(seat, F_FINISH)],
        w[weight_at(seat, F_SAFE)],
        w[weight_at(seat, F_EXPOSED)],
        w[weight_at(seat, F_SENT_HOME)],
        w[weight_at(seat, F_LEAD)],
        w[weight_at(seat, F_DANGER)],
        w[weight_at(seat, F_CHANCE)],
    )


@njit(**HOT, inline="always")
def score_predicted(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    piece: int,
    final: int,
    captures: int,
    emptied: int,
    lead_others: int,
    occupied: int,
    weights: tuple,
) -> int:
    """Option score of moving `piece` to progress `final` (`predict_landing`), unplayed.

    Only the mover's progress changes, so every own-piece feature is its
    before and after value; `lead_others` is the best standing of the other
    pieces (`lead_summary`), `occupied` the decision's `opponent_squares`,
    `weights` the seat's (`seat_weights`). Like every option score (see
    `choose_move`), `safe` and `exposed` count as their change.
    """
    p = w[progress_at(seat, piece)]
    total = weights[F_PROGRESS] * (travelled(lay, final) - travelled(lay, p))
    total += weights[F_LEAD] * max(lead_others, travelled(lay, final) + 1)
    total += weights[F_CAPTURE] * captures
    # Without branches: which features an option changes is close to random from option to
    # option. An entering move never sends its piece home.
    total += weights[F_ENTER] * np.int64(p == YARD)
    total += weights[F_SENT_HOME] * (np.int64(final == YARD) & np.int64(p != YARD))
    total += weights[F_FINISH] * np.int64(final == lay[R.GOAL])
    if weights[F_SAFE] or weights[F_EXPOSED]:
        track = lay[R.TRACK_LEN]
        sq0 = square_of(lay, seat, p)
        sq1 = square_of(lay, seat, final)
        before = behind_mask(occupied, track)
        if emptied >= 0:
            # The captured pieces leave: every own piece's threat is looked at again.
            after = behind_mask(occupied & ~(np.int64(1) << emptied), track)
            safe, exposed = guard_change_capturing(lay, w, seat, piece, sq0, sq1, before, after)
            total += weights[F_SAFE] * safe + weights[F_EXPOSED] * exposed
        else:
            total += guard_change(lay, w, seat, sq0, sq1, before)
    return total


@njit(**HOT)
def prepare_trying(lay: np.ndarray, w: np.ndarray, seat: int, relative: bool) -> int:
    """Before the first option of a decision is tried: `note_before`, and the score's base.

    The base is taken off every tried option's score: the `safe` and
    `exposed` terms of the position before when the other options are scored
    as their change (`relative`), else 0 (every option is tried, all scored
    in full, as on tracks too long for `opponent_squares`).
    """
    note_before(lay, w, seat)
    if not relative or not (w[weight_at(seat, F_SAFE)] or w[weight_at(seat, F_EXPOSED)]):
        return 0
    safe, exposed = count_guarded(lay, w, seat)
    return w[weight_at(seat, F_SAFE)] * safe + w[weight_at(seat, F_EXPOSED)] * exposed


@njit(**HOT)
def score_by_trying(
    lay: np.ndarray, w: np.ndarray, seat: int, piece: int, target: int, flags: int, base: int
) -> tuple:
    """(captures, option score) of a move found by playing it and taking it back.

    For the moves `predict_landing` cannot settle (a star jump follows, or
    the track is too long for `opponent_squares`); an ordinary call, so this
    rare path stays out of the option loop's code. `base` comes from
    `prepare_trying`, called once per decision before.
    """
    mark = w[counter_at(C_UNDO)]
    captures, _ = apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
    score = score_position(lay, w, seat, captures) - base
    undo_to(lay, w, mark)
    return captures, score


@njit(**HOT, inline="always")
def decision_summaries(lay: np.ndarray, w: np.ndarray, seat: int, weights: tuple) -> tuple:
    """What `option_score` needs of the position before a decision, computed once per decision.

    (predict, leader, lead_best, lead_second, occupied, weights): whether options can
    be predicted rather than tried, the `lead_summary` when `lead` counts, and
    the `opponent_squares` mask when `safe` or `exposed` counts (predict is
    False on tracks too long for the mask, and whenever a look-ahead feature
    weighs: it needs the position after the option), and the seat's weights.
    """
    leader = -1
    lead_best = 0
    lead_second = 0
    occupied = 0
    predict = True
    if weights[F_LEAD]:
        lead_best, leader, lead_second = lead_summary(lay, w, seat)
    if weights[F_SAFE] or weights[F_EXPOSED]:
        predict = lay[R.TRACK_LEN] <= MASK_TRACK
        if predict:
            occupied = opponent_squares(lay, w, seat)
    if weights[F_DANGER] or weights[F_CHANCE]:
        # The look-ahead features need the position after the option: every option is tried.
        predict = False
    return predict, leader, lead_best, lead_second, occupied, weights


@njit(**HOT, inline="always")
def option_score(
    lay: np.ndarray,
    w: np.ndarray,
    seat: int,
    piece: int,
    target: int,
    flags: int,
    summary: tuple,
    base: int,
) -> tuple:
    """(captures, score, base) of one legal move of a scoring seat.

    `summary` is the decision's `decision_summaries`. Predicted from the
    counts (`predict_landing`, `score_predicted`), or tried and taken back
    when a star jump follows (or `predict` is False); `base` is `NEG_SCORE`
    until the decision's first tried option calls `prepare_trying`, and is
    passed on to the next option.
    """
    predict, leader, lead_best, lead_second, occupied, weights = summary
    final, captures, emptied = NONE, 0, -1
    if predict:
        final, captures, emptied = predict_landing(lay, w, seat, piece, target, flags)
    if final == NONE:
        if base == NEG_SCORE:  # the first option tried this decision
            base = prepare_trying(lay, w, seat, predict)
        captures, score = score_by_trying(lay, w, seat, piece, target, flags, base)
    else:
        lead_others = lead_second if piece == leader else lead_best
        score = score_predicted(
            lay, w, seat, piece, final, captures, emptied, lead_others, occupied, weights
        )
    return captures, score, base


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
    ncap = np.int64(0)
    for j in range(k):
        target = w[move_at(j, M_TARGET)]
        flags = w[move_at(j, M_FLAGS)]
        captures = 0
        if may_capture(lay, w, seat, target, flags):
            mark = w[counter_at(C_UNDO)]
            piece = w[move_at(j, M_PIECE)]
            captures, _ = apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
            undo_to(lay, w, mark)
        w[move_at(j, M_CAPS)] = captures
        ncap += captures > 0
    if ncap == 0:
        return below(stream, k)
    want = below(stream, ncap) if ncap > 1 else 0
    for j in range(k):
        if w[move_at(j, M_CAPS)] > 0:
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
    skipper = w[policy_at(seat, PW_SKIP_MODE)] != 0
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
        piece = w[move_at(j, M_PIECE)]
        captures, score, base = option_score(
            lay, w, seat, piece, w[move_at(j, M_TARGET)], w[move_at(j, M_FLAGS)], summary, base
        )
        w[option_at(j)] = score
        w[move_at(j, M_CAPS)] = captures
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
            if w[move_at(j, M_CAPS)] == 0:
                continue
            if w[option_at(j)] > best:
                best = w[option_at(j)]
                ties = 1
            elif w[option_at(j)] == best:
                ties += 1
    want = below(stream, ties) if ties > 1 else 0
    chosen = -1
    for j in range(k):
        if (only_capturing and w[move_at(j, M_CAPS)] == 0) or w[option_at(j)] != best:
            continue
        if want == 0:
            chosen = j
            break
        want -= 1
    if capture_rule and w[move_at(chosen, M_CAPS)] == 0:
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
