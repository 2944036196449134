"""One game with its full transcript, from the readable reference engine."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from ludosim.reference import Game, GameResult, Position
from ludosim.results.schema import GAME_MAX, SEED_MAX
from ludosim.rules import checks
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.run.notation import GamePosition, format_position


class PlayError(LudosimError, ValueError):
    """A seed or game number outside its range."""


def _check(name: str, value: Any, high: int, high_text: str) -> int:
    # NumPy integers are integers too; bools are not.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise PlayError(f"{name} must be an integer in 0..{high_text}, got {value!r}")
    if not 0 <= int(value) <= high:
        raise PlayError(f"{name} must be an integer in 0..{high_text}, got {int(value)}")
    return int(value)


def _log_position(game: Game, seat: int) -> None:
    """Write the position before `seat`'s turn into the transcript, in the notation."""
    game.transcript.append(f"  position {format_position(game.rules, game.pos.progress, seat)}")


def play(
    rules: Rules,
    seed: int,
    policies: str | Sequence[str] = "random",
    game: int = 0,
    start: Position | GamePosition | None = None,
    *,
    start_seat: int | None = None,
    positions: bool = False,
) -> GameResult:
    """Play game `game` of seed `seed`: `.transcript` (lines), `.row()` (per-game columns).

    The compiled kernel plays the very same game for the same (rules, seed,
    game, policies), so a transcript explains any row of `ludosim.simulate`.
    `seed` is in 0..2**64-1 and `game` in 0..2**63-1 (the `game` column's range).
    From a `start` position the game begins with seat `start_seat`'s turn (a
    `GamePosition`'s seat to move when None), as `simulate(start=...)` plays it.
    With `positions=True` every turn's heading is followed by the position
    before the turn, in the notation of `ludosim.run.notation`.
    """
    rules = checks.rules("rules", rules, error=PlayError)
    seed = _check("seed", seed, SEED_MAX, "2**64-1")
    game = _check("game", game, GAME_MAX, "2**63-1")
    if isinstance(start, GamePosition):
        start_seat = start.to_move if start_seat is None else start_seat
        start = start.reference(rules)
    elif start is not None and start_seat is None:
        start_seat = 0  # as `simulate`: a start position has no roll-off
    players = Game(rules, seed, game, policies, start, record=True, start_seat=start_seat)
    return players.play(before_turn=_log_position if positions else None)
