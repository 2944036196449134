"""What happens in a game, as small records that print as one transcript line each."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Event:
    """Base class: every event names the seat it concerns."""

    seat: int

    def text(self) -> str:  # pragma: no cover - overridden
        raise NotImplementedError


@dataclass(frozen=True)
class Rolled(Event):
    face: int | str
    note: str = ""  # "start try", "forfeited", "no move"

    def text(self) -> str:
        return f"seat {self.seat} rolls {self.face}" + (f" ({self.note})" if self.note else "")


@dataclass(frozen=True)
class Moved(Event):
    piece: int
    face: int | str
    start: int
    end: int

    def text(self) -> str:
        if self.start == -1:
            return f"seat {self.seat} piece {self.piece} enters with {self.face}"
        return f"seat {self.seat} piece {self.piece} {self.start}->{self.end} with {self.face}"


@dataclass(frozen=True)
class Captured(Event):
    """`seat` captured `victim_seat`'s piece, which goes back to its yard."""

    piece: int
    victim_seat: int
    victim_piece: int
    square: int

    def text(self) -> str:
        return (
            f"seat {self.seat} piece {self.piece} captures seat {self.victim_seat} "
            f"piece {self.victim_piece} on square {self.square}"
        )


@dataclass(frozen=True)
class SentHome(Event):
    """The mover's own piece went back to its yard (landing on a block or protected piece)."""

    piece: int
    square: int

    def text(self) -> str:
        return f"seat {self.seat} piece {self.piece} is sent home on square {self.square}"


@dataclass(frozen=True)
class Jumped(Event):
    piece: int
    start: int
    end: int

    def text(self) -> str:
        return f"seat {self.seat} piece {self.piece} jumps star {self.start}->{self.end}"


@dataclass(frozen=True)
class Finished(Event):
    piece: int

    def text(self) -> str:
        return f"seat {self.seat} piece {self.piece} reaches the goal"


@dataclass(frozen=True)
class Skipped(Event):
    """A forced capture was skipped; `pieces` would go home if caught."""

    pieces: tuple[int, ...]

    def text(self) -> str:
        return f"seat {self.seat} skips a forced capture (pieces {list(self.pieces)} at risk)"


@dataclass(frozen=True)
class Puster(Event):
    pieces: tuple[int, ...]
    caught: bool

    def text(self) -> str:
        if not self.caught:
            return f"seat {self.seat} skipped a capture unnoticed"
        return f"STOP! seat {self.seat} is caught: pieces {list(self.pieces)} go home"


@dataclass(frozen=True)
class PlayerDone(Event):
    place: int

    def text(self) -> str:
        return f"seat {self.seat} has every piece home: place {self.place}"
