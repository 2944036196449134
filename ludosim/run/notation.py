"""Position notation: a game between two turns as one line of text (docs/positions.md).

A turn boundary carries nothing but the pieces and the seat to move: bonus
rolls, the count of sixes and a bounced piece's backward walk all end with
the turn that earned them, and neither engine keeps any other state from one
turn to the next that changes how the game goes on. So the notation is

    MOVER:SEAT0/SEAT1/...        e.g.  2:12,Y,Y,Y/G,H3,40,Y/Y,Y,Y,Y/5,5,Y,Y

the seat to move, a colon, then every seat's pieces in seat order, seats
separated by `/`, pieces (in piece order) by `,`. A piece is `Y` (in the
yard), a number `0 .. entry` (progress along the shared track from the own
start square), `H1 .. H<home_len>` (home column, counted from its first square)
or `G` (in the goal); under `home_unlock = capture` a piece lapping past its entry on
the squares before its start square is `L1 .. L<tail>` (`Rules.tail`). Letters may be
given in either case; spaces are ignored. Whether a seat's home column is open
(`home_unlock`) is not written: a game played on from a position begins with every
seat locked (docs/rules.md, capture before home).
The text has no shell-special characters, so it needs no quotes on a command line.

`parse_position(text, rules)` checks the text against the rules and returns a
`GamePosition`, which both engines play on from: the kernel through
`simulate(rules, ..., start=position)`, the reference engine through
`position.reference(rules)` and `start_seat=position.to_move`.
`format_position` writes the same text back.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ludosim.reference.position import Position
from ludosim.rules.board import YARD
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules

EXAMPLE = "0:Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y"


class PositionError(LudosimError, ValueError):
    """Position text that does not follow the notation or does not fit the rules."""


@dataclass(frozen=True)
class GamePosition:
    """A game between two turns: each piece's progress (`YARD`, 0 .. goal) and the seat to move."""

    progress: tuple[tuple[int, ...], ...]
    to_move: int

    def reference(self, rules: Rules) -> Position:
        """The reference engine's `Position` of these pieces."""
        return Position.from_progress(rules, self.progress)

    def rows(self) -> list[list[int]]:
        """The progress rows, as `simulate(start=...)` also takes them."""
        return [list(row) for row in self.progress]


def _piece_text(rules: Rules, p: int) -> str:
    if p == YARD:
        return "Y"
    if p == rules.goal:
        return "G"
    if p > rules.goal:
        return f"L{p - rules.goal}"
    if p > rules.entry:
        return f"H{p - rules.entry}"
    return str(p)


def format_position(rules: Rules, progress: Sequence[Sequence[int]], to_move: int) -> str:
    """The notation of pieces at `progress` (rows of progress, one per seat), `to_move` to move."""
    seats = "/".join(",".join(_piece_text(rules, p) for p in row) for row in progress)
    return f"{to_move}:{seats}"


def _allowed(rules: Rules) -> str:
    home = f"H1..H{rules.home_len} (home column), " if rules.home_len else ""
    lap = f", L1..L{rules.tail} (lapping)" if rules.tail else ""
    return f"Y (yard), 0..{rules.entry} (track), {home}G (goal){lap}"


def _piece(rules: Rules, token: str, seat: int, piece: int) -> int:
    """Progress of one piece token, or one error naming the piece and the allowed tokens."""
    if token == "Y":
        return YARD
    if token == "G":
        return rules.goal
    if token.startswith("H") and token[1:].isdigit() and 1 <= int(token[1:]) <= rules.home_len:
        return rules.entry + int(token[1:])
    if token.isdigit() and int(token) <= rules.entry:
        return int(token)
    if token.startswith("L") and token[1:].isdigit() and 1 <= int(token[1:]) <= rules.tail:
        return rules.goal + int(token[1:])
    raise PositionError(
        f"position: seat {seat} piece {piece} is {token!r}; allowed: {_allowed(rules)}"
    )


def parse_position(text: str, rules: Rules) -> GamePosition:
    """The position written as `text` under `rules`; one clear `PositionError` if it is not one.

    Checks the form, the number of seats and pieces, every piece's place and
    the seat to move. A position must come before any seat has finished:
    the notation carries no finishing order, and the first seat to finish
    has won. Whether the position can arise in a game is not checked.
    """
    if not isinstance(text, str):
        raise PositionError(f"position must be text such as {EXAMPLE}, got {text!r}")
    compact = "".join(text.split()).upper()
    mover, colon, seats_text = compact.partition(":")
    if not colon:
        raise PositionError(
            f"position {text!r} has no seat to move; write MOVER:SEAT0/SEAT1/..., e.g. {EXAMPLE}"
        )
    seats = seats_text.split("/")
    if len(seats) != rules.players:
        raise PositionError(
            f"position has {len(seats)} seats; these rules have {rules.players} players "
            "(seats are separated by /)"
        )
    if not mover.isdigit() or int(mover) >= rules.players:
        raise PositionError(
            f"position: seat to move is {mover!r}; allowed: a seat 0..{rules.players - 1}"
        )
    progress = []
    for seat, seat_text in enumerate(seats):
        tokens = seat_text.split(",")
        if len(tokens) != rules.pieces:
            raise PositionError(
                f"position: seat {seat} has {len(tokens)} pieces; these rules have "
                f"{rules.pieces} per seat (pieces are separated by ,)"
            )
        row = tuple(_piece(rules, token, seat, piece) for piece, token in enumerate(tokens))
        if all(p == rules.goal for p in row):
            raise PositionError(
                f"position: seat {seat} has every piece in the goal; a position must come "
                "before the first seat finishes (that seat has won)"
            )
        progress.append(row)
    return GamePosition(tuple(progress), int(mover))
