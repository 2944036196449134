"""Features and scores of options: what the kernel's policies compare.

Mirrors `ludosim.reference.features`. An option's features compare the
position after it with the position before it. A single move changes one own
piece and, by capturing, empties one square of opponents, so most options are
scored without playing them (`score_predicted`): the square counts say how the
landing resolves and what it captures, and `safe`/`exposed` change only on the
squares the mover leaves and reaches (`guard_change`: two entries of the seat's
weighted `guard_table`, with an opponent occupancy mask made once per decision,
`opponent_squares`). A move followed by a star jump is tried on the live state
instead (`score_by_trying`: apply, `score_position` against `note_before`,
undo), as the Killer plan search does for every move.

The look-ahead features (`danger`, `chance`: `lookahead`) play every move of
every seat's next roll from the position after an option and take it back,
so a policy that weighs them has every option tried; one that does not
never calls them.

A single-roll option's score (`w[option_at(j)]`) counts `safe` and `exposed` as
their change from the position before: the same constant off every option of
a decision, so the best option and its ties are those of the full score. (On
a track too long for the occupancy mask, where every option is tried, scores
are full.) The choice among the scored options is `ludosim.engine.policy`'s.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ludosim.engine.layout import MAX_PIECES, NONE, SAFE, R
from ludosim.engine.moves import (
    CAPTURE,
    ENTERING,
    HOME,
    apply_move,
    legal_target,
    may_capture,
    partners_on,
    resolve_landing,
    star_jump_of,
)
from ludosim.engine.position import square_of, travelled, undo_to
from ludosim.engine.state import (
    DIE_SLOTS,
    DUMMY,
    HOT,
    NEG_SCORE,
    PROB_UNIT,
    RT,
    YARD,
    YES,
    C,
    U,
    count_at,
    counter_at,
    guard_at,
    ix,
    occupancy_at,
    progress_at,
    root_at,
    total_at,
    undo_at,
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
    w[root_at(RT.STANDING)] = standing
    w[root_at(RT.YARD)] = yard
    w[root_at(RT.GOAL)] = home


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
        mark = w[counter_at(C.UNDO)]
        apply_move(lay, w, seat, piece, target, flags, np.int64(DUMMY), YES)
        for row in range(mark, w[counter_at(C.UNDO)]):
            other = w[undo_at(row, U.SEAT)]
            if other != seat:  # only a captured piece of another seat is logged
                victims |= np.int64(1) << (MAX_PIECES * other + w[undo_at(row, U.PIECE)])
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
    total = w[weight_at(seat, F_PROGRESS)] * (standing - w[root_at(RT.STANDING)])
    total += w[weight_at(seat, F_ENTER)] * max(0, w[root_at(RT.YARD)] - yard)
    total += w[weight_at(seat, F_FINISH)] * (home - w[root_at(RT.GOAL)])
    total += w[weight_at(seat, F_SENT_HOME)] * max(0, yard - w[root_at(RT.YARD)])
    total += w[weight_at(seat, F_LEAD)] * lead
    total += w[weight_at(seat, F_CAPTURE)] * captured
    if w[weight_at(seat, F_SAFE)] or w[weight_at(seat, F_EXPOSED)]:
        safe, exposed = count_guarded(lay, w, seat)
        total += w[weight_at(seat, F_SAFE)] * safe + w[weight_at(seat, F_EXPOSED)] * exposed
    if w[weight_at(seat, F_DANGER)] or w[weight_at(seat, F_CHANCE)]:
        danger, chance = lookahead(lay, w, seat)
        total += w[weight_at(seat, F_DANGER)] * danger + w[weight_at(seat, F_CHANCE)] * chance
    return total


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
    if star_jump_of(lay, w, seat, target, flags) != NONE:
        return NONE, 0, -1
    if kind == CAPTURE:
        # Partners (`teams`) sharing the square are not captured and keep it occupied.
        partners = partners_on(lay, w, seat, sq1)
        captured = w[total_at(sq1)] - w[count_at(seat, sq1)] - partners
        return target, captured, sq1 if partners == 0 else -1
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
    mark = w[counter_at(C.UNDO)]
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
