"""A position: where every piece stands, plus the board's occupancy kept in step.

Pieces are addressed as (seat, piece index); their place is progress relative
to their owner (see `ludosim.rules.board`). `occupancy` maps each absolute track
square to the pieces standing on it, so a landing or a path check reads one
square instead of scanning all pieces; `check()` verifies the two agree.
"""

from __future__ import annotations

from collections.abc import Sequence

from ludosim.rules.board import YARD, Board
from ludosim.rules.errors import ScenarioError
from ludosim.rules.model import Rules

Piece = tuple[int, int]  # (seat, piece index)


class Position:
    """Progress of every piece, the reversed flags of `bounce_on`, the seats whose home
    column is open (`home_unlock`: they have captured), the laps each piece has begun
    past its start square (`home_unlock`), and the occupancy map."""

    __slots__ = ("board", "goal", "laps", "occupancy", "progress", "reversed", "unlocked")

    def __init__(self, board: Board, progress: Sequence[Sequence[int]]) -> None:
        self.board = board
        self.goal = board.goal
        self.progress = [list(row) for row in progress]
        self.reversed = [[False] * len(row) for row in progress]
        # Every seat starts locked; its first capture opens its home column for good.
        self.unlocked = [False] * len(self.progress)
        # New laps a piece going on past its entry has begun (its points per square
        # count them); 0 in every given position, and again when it goes to its yard.
        self.laps = [[0] * len(row) for row in progress]
        self.occupancy: dict[int, list[Piece]] = {}
        last = self.goal + board.tail
        for seat, row in enumerate(self.progress):
            for piece, p in enumerate(row):
                if not (p == YARD or 0 <= p <= last):
                    lapping = f", {self.goal + 1}..{last} (lapping)" if board.tail else ""
                    raise ScenarioError(
                        f"seat {seat} piece {piece} has progress {p}; "
                        f"allowed: -1 (yard) or 0..{self.goal} (goal){lapping}"
                    )
                self._add(seat, piece, p)

    @classmethod
    def start(cls, rules: Rules, board: Board) -> Position:
        """The opening position: `start_out` pieces of every seat on its start square
        (progress 0), the others in the yard."""
        row = [0] * rules.start_out + [YARD] * (rules.pieces - rules.start_out)
        return cls(board, [row for _ in range(rules.players)])

    @classmethod
    def from_progress(cls, rules: Rules, progress: Sequence[Sequence[int]]) -> Position:
        """A hand-built position: one row of progress values per seat."""
        board = Board.from_rules(rules)
        if len(progress) != rules.players or any(len(r) != rules.pieces for r in progress):
            raise ScenarioError(
                f"position needs {rules.players} rows of {rules.pieces} progress values, "
                f"got {[len(r) for r in progress]}"
            )
        return cls(board, progress)

    def copy(self) -> Position:
        """An independent copy (used to try moves and plans)."""
        new = Position.__new__(Position)
        new.board = self.board
        new.goal = self.goal
        new.progress = [row[:] for row in self.progress]
        new.reversed = [row[:] for row in self.reversed]
        new.unlocked = self.unlocked[:]
        new.laps = [row[:] for row in self.laps]
        new.occupancy = {sq: pieces[:] for sq, pieces in self.occupancy.items()}
        return new

    # ----------------------------------------------------------------- queries
    def at(self, square: int) -> list[Piece]:
        """Pieces standing on absolute track square `square`."""
        return self.occupancy.get(square, [])

    def in_play(self, seat: int) -> bool:
        """Some piece of `seat` is on the track or in its home column."""
        return any(p != YARD and p != self.goal for p in self.progress[seat])

    def finished(self, seat: int) -> bool:
        """`seat` has `win_pieces` (all, by default) home: in the goal, or with
        `finish_in_home` past its entry."""
        home = sum(self.board.home_from <= p <= self.goal for p in self.progress[seat])
        return home >= self.board.win_need

    def pieces_home(self, seat: int) -> int:
        """Pieces of `seat` in the goal."""
        return sum(p == self.goal for p in self.progress[seat])

    # ---------------------------------------------------------------- changes
    def _add(self, seat: int, piece: int, p: int) -> None:
        square = self.board.square(seat, p)
        if square >= 0:
            self.occupancy.setdefault(square, []).append((seat, piece))

    def _remove(self, seat: int, piece: int) -> None:
        square = self.board.square(seat, self.progress[seat][piece])
        if square >= 0:
            pieces = self.occupancy[square]
            pieces.remove((seat, piece))
            if not pieces:
                del self.occupancy[square]

    def put(self, seat: int, piece: int, p: int) -> None:
        """Move a piece to progress `p`, keeping the occupancy in step."""
        self._remove(seat, piece)
        self.progress[seat][piece] = p
        self._add(seat, piece, p)
        if p == YARD or p == self.goal:
            self.reversed[seat][piece] = False
        if p == YARD:
            self.laps[seat][piece] = 0

    def check(self) -> None:
        """Raise AssertionError unless the occupancy matches the pieces' progress."""
        rebuilt: dict[int, list[Piece]] = {}
        for seat, row in enumerate(self.progress):
            for piece, p in enumerate(row):
                assert p == YARD or 0 <= p <= self.goal + self.board.tail, (seat, piece, p)
                square = self.board.square(seat, p)
                if square >= 0:
                    rebuilt.setdefault(square, []).append((seat, piece))
        mine = {sq: sorted(v) for sq, v in self.occupancy.items()}
        assert mine == {sq: sorted(v) for sq, v in rebuilt.items()}, (mine, rebuilt)

    def __repr__(self) -> str:
        return f"Position({self.progress})"
