"""Outside players: any Python callable can take a seat in the reference engine.

An outside player is called as ``player(view, options)`` and returns the index
of its choice in ``options``:

- ``view`` is a `PlayerView`, a read-only snapshot of the position: every
  seat's piece progress relative to its owner (-1 yard, 0 the start square,
  ``goal`` in the goal), whose turn it is, the roll or Killer roll sequence
  and the rules.
- ``options`` is a tuple of `Plan`: the legal options in the order both
  engines list them (docs/rules.md section 5). Without `roll_then_move` each
  option is one move, ``option.steps == ((piece, face),)``; with it each option
  is a whole plan, ``option.steps == ((piece, face), ...)``. ``option.captures``
  counts the opponent pieces it captures. When captures are forced only the
  capturing options are offered.

The engine asks only when there is a real choice (two or more options); a
seat with one option plays it and a seat with none passes, as for every policy.
A return that is not an index into ``options`` raises `OutsidePlayerError`.

Draw order and reproducibility: the engine never draws from the game's random
stream for an outside player's choice. Built-in policies draw ``below(t)``
when ``t > 1`` options tie for their best score (the `random` policy draws
``below(k)`` whenever it has ``k > 1`` options). A game with an outside player
therefore keeps the same dice as the same game with `random` in that seat up to
the first turn where that seat faces two or more options; from there the two
games' dice differ. A game is identical to the `random` game only when that
seat never has a choice (for example with one piece per player and single
rolls). The same seed with the same outside players making the same choices
always replays the same game. Outside players cannot skip a forced capture.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from ludosim.reference.plans import Plan, PlanTree
from ludosim.reference.position import Position
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.policies import PolicyError


class OutsidePlayerError(LudosimError, ValueError):
    """An outside player returned something that is not the index of a legal option."""


@dataclass(frozen=True)
class PlayerView:
    """What an outside player sees when it chooses (read-only).

    Attributes
    ----------
    seat : the seat to move (whose turn it is).
    rolls : the roll, or the whole Killer roll sequence, to play.
    progress : per seat, per piece, progress relative to the piece's owner:
        -1 in the yard, 0 the start square, ``goal`` in the goal.
    goal : the progress of the goal.
    rules : the rules of the game.
    """

    seat: int
    rolls: tuple[int | str, ...]
    progress: tuple[tuple[int, ...], ...]
    goal: int
    rules: Rules

    def own_first(self) -> tuple[tuple[int, ...], ...]:
        """`progress` rotated so the seat to move comes first, then the next seats clockwise."""
        n = len(self.progress)
        return tuple(self.progress[(self.seat + k) % n] for k in range(n))


@runtime_checkable
class OutsidePlayer(Protocol):
    """The interface: ``player(view, options) -> index into options``."""

    def __call__(self, view: PlayerView, options: Sequence[Plan]) -> int: ...


def split_policies(
    policies: str | OutsidePlayer | Sequence[str | OutsidePlayer], players: int
) -> tuple[list[str], dict[int, OutsidePlayer]]:
    """Policy names per seat (`random` stands in for outside seats) and the outside players."""
    if isinstance(policies, str) or callable(policies):
        seats = [policies] * players
    elif isinstance(policies, Sequence):
        seats = list(policies)
    else:
        raise PolicyError(
            f"policies must be a policy name (e.g. 'random'), an outside player, or a list "
            f"of one per seat, got {policies!r}"
        )
    outside = {s: p for s, p in enumerate(seats) if callable(p)}
    names = ["random" if callable(p) else p for p in seats]
    return names, outside


def legal_options(rules: Rules, pos: Position, seat: int, rolls: list[int | str]) -> list[Plan]:
    """The options an honest player may choose, in engine order (the `random` policy's list)."""
    tree = PlanTree(rules, pos, seat, rolls)
    return [tree.plan(i) for i in range(tree.count())]


def ask(
    player: OutsidePlayer, rules: Rules, pos: Position, seat: int, rolls: list[int | str]
) -> Plan:
    """The option `player` chooses; asks only when there are two or more options."""
    options = legal_options(rules, pos, seat, rolls)
    if len(options) == 1:
        return options[0]
    view = PlayerView(
        seat=seat,
        rolls=tuple(rolls),
        progress=tuple(tuple(row) for row in pos.progress),
        goal=pos.goal,
        rules=rules,
    )
    choice = player(view, tuple(options))
    # bool is an int subclass but never a meaningful index; numpy integers are accepted.
    if isinstance(choice, bool) or not hasattr(choice, "__index__"):
        raise OutsidePlayerError(
            f"outside player in seat {seat} returned {choice!r}; "
            f"allowed: an integer index 0..{len(options) - 1}"
        )
    index = choice.__index__()
    if not 0 <= index < len(options):
        raise OutsidePlayerError(
            f"outside player in seat {seat} returned {index}; "
            f"allowed: 0..{len(options) - 1} ({len(options)} legal options)"
        )
    return options[index]
