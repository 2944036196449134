"""The decision graph of a reduced two-player game, built with the reference engine's moves.

A *roll node* is the moment just before one die roll of a two-player game:

    (mine, theirs, entered_me, entered_them, pending, sixes, attempt)

seen from the seat to move ("mine"); `mine` and `theirs` are side ids, each
side a sorted tuple of (progress, reversed) pairs (pieces are interchangeable:
the random policy chooses uniformly among moves by piece, and the multiset of
their results does not depend on the labels). `entered_*` is the
`start_attempts_when = game_start` flag (always 0 under `always`), `pending`
the bonus rolls still owed after this roll, `sixes` the six count before it
(always 0 without `six_limit`), `attempt` the number of this start try (0: an
ordinary roll, the seat has a piece in play). The turn loop is
`Game.single_roll_turn` step by step (docs/rules.md section 2): start tries,
the six limit, no move (ends the turn under `no_move_ends_turn`, else a 6 or
globe still earns its bonus), the bonuses of a move (6, globe, capture,
finish; one at most under `bonus_stacking = one`), the turn ending when the
mover finishes.

Every node has one *decision* per die face: its options, each leading to the
node after it, or to the end of the game (the mover wins). A face with no
choice (a forced move, no move, a failed start try, a forfeit) is a decision
of one option. An option that ends the turn hands the move to the other seat
(`swap`): values are kept from the mover's point of view.

The legal moves and what they do are `ludosim.reference.moves.legal_moves` and
`try_move` on a `Position` with the mover in seat 0: the board of a duel must
look the same from both seats (opposite arms), which `check_duel` verifies.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ludosim.reference.moves import (
    face_bonus,
    is_entering_face,
    is_six_like,
    legal_moves,
    try_move,
)
from ludosim.reference.position import Position
from ludosim.rules.board import YARD, Board
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules

DUEL_ARM = 7  # the shortest arm the rules allow (`toggles.MIN_ARM`)
DUEL_HOME = 2  # squares in each home column of a reduced game
WIN = -1  # an option's successor: the mover has won

# Toggles a duel's state cannot hold, with what to do instead.
_REFUSED = (
    ("roll_then_move", lambda r: r.roll_then_move, "Killer plans are not enumerated"),
    ("forced_capture", lambda r: r.forced_capture, "forced captures and the puster are not"),
    ("teams", lambda r: bool(r.teams), "a duel has no partners"),
    ("move_limit", lambda r: r.move_limit > 0, "points after a move limit are not a win"),
    ("home_unlock", lambda r: r.home_unlock != "none", "locked pieces lap on, not held"),
)


def duel_rules(rules: Rules, pieces: int, **changes: Any) -> Rules:
    """`rules` reduced to a duel: two players with `pieces` each on the shortest board.

    The board gets `arm_length = 7` and `home_len = 2`; the globe and star
    offsets and the start offset are scaled to the shorter arm (rounded); the
    other toggles stay. `changes` (toggle=value) are applied last, so
    `home_len=1` or a shorter `entry` can be asked for.
    """
    if pieces not in (1, 2):
        raise RulesError(f"pieces: a duel has 1 or 2 pieces a side, got {pieces!r}")
    scale = DUEL_ARM / rules.arm_length

    def scaled(offsets: Sequence[int]) -> tuple[int, ...]:
        return tuple(sorted({min(DUEL_ARM - 1, round(o * scale)) for o in offsets}))

    reduced = rules.replace(
        players=2,
        pieces=pieces,
        arm_length=DUEL_ARM,
        home_len=DUEL_HOME,
        globe_offsets=scaled(rules.globe_offsets),
        star_offsets=scaled(rules.star_offsets),
        start_offset=min(DUEL_ARM - 1, round(rules.start_offset * scale)),
        start_out=min(rules.start_out, pieces),
        win_pieces=min(rules.win_pieces, pieces),
        start_capacity=min(rules.start_capacity, pieces),
        seating=(),
    )
    return reduced.replace(**changes) if changes else reduced


def check_duel(rules: Rules) -> Board:
    """The board of a duel the solver can hold, or one `RulesError` line naming the toggle."""
    if rules.players != 2:
        raise RulesError(f"players={rules.players}: the duel solver plays two seats (players=2)")
    if rules.pieces not in (1, 2):
        raise RulesError(f"pieces={rules.pieces}: the duel solver holds 1 or 2 pieces a side")
    for name, refused, why in _REFUSED:
        if refused(rules):
            value = getattr(rules, name)
            raise RulesError(f"{name}={value!r}: not solvable as a duel ({why}); leave it out")
    board = Board.from_rules(rules)
    shift = (board.square(1, 0) - board.square(0, 0)) % board.track_len
    mirrored = (2 * shift) % board.track_len == 0 and all(
        (board.square(0, p) < 0 and board.square(1, p) < 0)
        or board.square(1, p) == (board.square(0, p) + shift) % board.track_len
        for p in range(YARD, board.goal + 1)
    )
    if not mirrored or not np.array_equal(np.roll(board.safe_square, shift), board.safe_square):
        raise RulesError(
            f"seating={rules.seating!r}: the duel solver needs the two seats on opposite "
            "arms (the default seating)"
        )
    return board


# One legal move's result from the mover's side: (side id after the move, the other
# side's id, the move entered a piece, bonus rolls from its capture and finish (the
# face's own added later), the mover won, the mover still has a piece in play).
_Outcome = tuple[int, int, bool, int, bool, bool]


@dataclass
class DuelGraph:
    """Roll nodes and their decisions (module docstring); `start` is the opening node."""

    rules: Rules
    faces: tuple[Any, ...]
    keys: list[tuple[int, ...]]
    sides: list[tuple[tuple[int, bool], ...]]
    start: int
    dec_start: np.ndarray  # int64[nodes * faces + 1]: options of node n, face f
    succ: np.ndarray  # int64[options]: the node after the option, or WIN
    swap: np.ndarray  # int8[options]: 1 when the option ends the turn
    potential: np.ndarray  # int64[nodes]: both sides' progress, to order the sweeps

    @property
    def nodes(self) -> int:
        return len(self.keys)

    @property
    def choices(self) -> int:
        """Decisions with two or more options."""
        return int(np.count_nonzero(np.diff(self.dec_start) > 1))

    @property
    def walk(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
        """What the compiled walks of the graph take first: (dec_start, succ, swap, the
        number of faces, the opening node)."""
        return self.dec_start, self.succ, self.swap, len(self.faces), self.start


class _Builder:
    """Enumerates every roll node reachable from the opening (breadth first)."""

    def __init__(self, rules: Rules, board: Board) -> None:
        self.rules, self.board = rules, board
        self.faces = tuple(rules.die_faces)
        self.side_ids: dict[tuple[tuple[int, bool], ...], int] = {}
        self.sides: list[tuple[tuple[int, bool], ...]] = []
        self.cleared: list[int] = []  # side id with the reversed flags cleared
        self.playing: list[bool] = []  # the side has a piece on the track or in its column
        self.done: list[bool] = []  # the side has finished
        self.moves: dict[tuple[int, int, Any], list[_Outcome]] = {}
        self.node_ids: dict[tuple[int, ...], int] = {}
        self.keys: list[tuple[int, ...]] = []
        self.queue: deque[int] = deque()
        self.most = 1 if rules.bonus_stacking == "one" else 3
        self.game_start = rules.start_attempts_when == "game_start"

    # ------------------------------------------------------------ sides
    def side(self, progress: Sequence[int], reversed_: Sequence[bool]) -> int:
        key = tuple(sorted(zip(progress, reversed_, strict=True)))
        found = self.side_ids.get(key)
        if found is None:
            found = self.side_ids[key] = len(self.sides)
            self.sides.append(key)
            board = self.board
            self.playing.append(any(p != YARD and p != board.goal for p, _ in key))
            home = sum(board.home_from <= p <= board.goal for p, _ in key)
            self.done.append(home >= board.win_need)
            self.cleared.append(found)
            if any(r for _, r in key):
                self.cleared[found] = self.side([p for p, _ in key], [False] * len(key))
        return found

    def outcomes(self, mine: int, theirs: int, face: Any) -> list[_Outcome]:
        """The mover's legal moves for `face` and their results (the reference engine's)."""
        key = (mine, theirs, face)
        found = self.moves.get(key)
        if found is not None:
            return found
        rules = self.rules
        own, other = self.sides[mine], self.sides[theirs]
        pos = Position(self.board, [[p for p, _ in own], [p for p, _ in other]])
        pos.reversed[0] = [r for _, r in own]
        found = []
        for move in legal_moves(rules, pos, 0, face):
            child, result = try_move(rules, pos, move)
            earned = int(rules.bonus_on_capture and result.captures > 0)
            earned += int(rules.bonus_on_finish and result.finished)
            won = (result.finished or rules.finish_in_home) and child.finished(0)
            mine_after = self.side(child.progress[0], child.reversed[0])
            theirs_after = self.side(child.progress[1], [False] * len(child.progress[1]))
            found.append(
                (mine_after, theirs_after, result.entered, earned, bool(won), child.in_play(0))
            )
        self.moves[key] = found
        return found

    # ------------------------------------------------------------ nodes
    def node(self, key: tuple[int, ...]) -> int:
        found = self.node_ids.get(key)
        if found is None:
            found = self.node_ids[key] = len(self.keys)
            self.keys.append(key)
            self.queue.append(found)
        return found

    def turn_start(self, mover: int, other: int, ent_mover: int, ent_other: int) -> int:
        """The node that opens `mover`'s turn."""
        attempt = 0 if self.playing[mover] else 1
        return self.node((mover, other, ent_mover, ent_other, 0, 0, attempt))

    def end_turn(self, mine: int, theirs: int, ent_me: int, ent_them: int) -> tuple[int, int]:
        """(successor, swap) when the mover's turn ends: the other seat's turn opens."""
        if self.done[mine]:
            return WIN, 0  # a seat that has finished has won (Game.play)
        return self.turn_start(theirs, self.cleared[mine], ent_them, ent_me), 1

    def go_on(
        self, mine: int, theirs: int, ent_me: int, ent_them: int, pending: int, sixes: int
    ) -> tuple[int, int]:
        """After a roll: the next roll of the turn while bonus rolls are owed, else its end."""
        if pending <= 0:
            return self.end_turn(mine, theirs, ent_me, ent_them)
        attempt = 0 if self.playing[mine] else 1
        return self.node((mine, theirs, ent_me, ent_them, pending - 1, sixes, attempt)), 0

    def face_bonus(self, face: Any, entered: bool) -> int:
        return face_bonus(self.rules, face, entered)

    def decision(self, key: tuple[int, ...], face: Any) -> list[tuple[int, int]]:
        """The options of node `key` when the die shows `face`: (successor, swap) each."""
        rules = self.rules
        mine, theirs, ent_me, ent_them, pending, sixes, attempt = key
        moves = self.outcomes(mine, theirs, face)
        if attempt > 0:
            if not (is_entering_face(rules, face) and moves):
                tries = 1 if self.game_start and ent_me else rules.start_attempts
                if attempt < tries:
                    return [(self.node((*key[:6], attempt + 1)), 0)]
                return [self.end_turn(mine, theirs, ent_me, ent_them)]
            if attempt > 1:
                sixes = 0  # a failed try earns nothing and resets the six count
        sixes = sixes + 1 if is_six_like(face) else 0
        if rules.six_limit and sixes >= rules.six_limit:
            return [self.end_turn(mine, theirs, ent_me, ent_them)]
        kept = sixes if rules.six_limit else 0
        if not moves:
            if rules.no_move_ends_turn:
                return [self.end_turn(mine, theirs, ent_me, ent_them)]
            owed = pending + self.face_bonus(face, False)
            return [self.go_on(mine, theirs, ent_me, ent_them, owed, kept)]
        options = []
        for mine_after, theirs_after, entered, extra, won, _ in moves:
            if won:
                options.append((WIN, 0))
                continue
            earned = min(self.face_bonus(face, entered) + extra, self.most)
            now = int(self.game_start and (ent_me or entered))
            options.append(
                self.go_on(mine_after, theirs_after, now, ent_them, pending + earned, kept)
            )
        return options

    def build(self) -> DuelGraph:
        rules = self.rules
        row = Position.start(rules, self.board).progress[0]
        opening = self.side(row, [False] * len(row))
        entered = int(self.game_start and any(p != YARD for p in row))
        start = self.turn_start(opening, opening, entered, entered)
        dec_start, succ, swap = [0], [], []
        done = 0
        while self.queue:
            n = self.queue.popleft()
            assert n == done  # nodes are expanded in the order they were numbered
            done += 1
            key = self.keys[n]
            for face in self.faces:
                for s, w in self.decision(key, face):
                    succ.append(s)
                    swap.append(w)
                dec_start.append(len(succ))
        potential = np.array(
            [self.progress(k[0]) + self.progress(k[1]) for k in self.keys], dtype=np.int64
        )
        return DuelGraph(
            rules,
            self.faces,
            self.keys,
            self.sides,
            start,
            np.asarray(dec_start, dtype=np.int64),
            np.asarray(succ, dtype=np.int64),
            np.asarray(swap, dtype=np.int8),
            potential,
        )

    def progress(self, side: int) -> int:
        return sum(p + 1 for p, _ in self.sides[side])


def build_graph(rules: Rules) -> DuelGraph:
    """Every roll node of the duel `rules` reachable from the opening, with its decisions."""
    board = check_duel(rules)
    return _Builder(rules, board).build()
