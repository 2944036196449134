"""One game with its full transcript, from the readable reference engine."""

from __future__ import annotations

import numbers
from collections.abc import Sequence
from typing import Any

from ludosim.errors import LudosimError
from ludosim.reference import GameResult, Position, play_game
from ludosim.results.schema import GAME_MAX, SEED_MAX
from ludosim.rules import Rules


class PlayError(LudosimError, ValueError):
    """A seed or game number outside its range."""


def _check(name: str, value: Any, high: int, high_text: str) -> int:
    # NumPy integers are integers too; bools are not.
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise PlayError(f"{name} must be an integer in 0..{high_text}, got {value!r}")
    if not 0 <= int(value) <= high:
        raise PlayError(f"{name} must be an integer in 0..{high_text}, got {int(value)}")
    return int(value)


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
    `seed` is in 0..2**64-1 and `game` in 0..2**63-1 (the `game` column's range).
    """
    seed = _check("seed", seed, SEED_MAX, "2**64-1")
    game = _check("game", game, GAME_MAX, "2**63-1")
    return play_game(rules, seed, game, policies, start, record=True)
