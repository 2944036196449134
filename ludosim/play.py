"""One game with its full transcript, from the readable reference engine."""

from __future__ import annotations

from collections.abc import Sequence

from ludosim.reference import GameResult, Position, play_game
from ludosim.rules import Rules


def play(
    rules: Rules,
    seed: int,
    policies: str | Sequence[str] = "random",
    game: int = 0,
    start: Position | None = None,
) -> GameResult:
    """Play game `game` of seed `seed`: `.transcript` (lines), `.row()` (per-game columns).

    The compiled kernel plays the very same game for the same (rules, seed,
    game, policies), so a transcript explains any row of `ludosim.simulate`.
    """
    return play_game(rules, seed, game, policies, start, record=True)
