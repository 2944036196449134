"""The stages of a long run, as its progress callback hears them.

The library reports progress through a plain callback, `progress(done, total)`. A run
of several stages (a design's screening, model, holdouts and confirmation; a skill
study's parts under each rule set) also tells the callback its plan, once
(`announce`: every stage's name, games and cost per game), and where each stage
begins (`begin`: its number, and the count of games `progress` reports at its start).
A callback that listens (one with `plan` and `stage` methods, as the command line's
progress) names the stage it is in and estimates the whole run's time left from the
measured speed, weighting each stage's games by its cost per game: a game with a
searching player costs far more than one of random players. Any other callable hears
`progress(done, total)` as before.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ludosim.rules.policies import parse_policy

# What a game costs beside one of four random players, by the players that play it.
# A seat searching (the expert, the fictive player) makes a game about this much
# dearer (about 1,400 games/s of random players against 19 with one expert seat of
# four, 16 threads): a quarter of the turns searched, so 4 x 70 per searching seat.
SEARCH_SEAT_COST = 280.0


@dataclass(frozen=True)
class Stage:
    """One stage of a run: its name (`holdouts`), its games and what a game costs
    (`game_cost`: 1 is a game of random players)."""

    name: str
    games: int
    cost: float = 1.0

    @property
    def work(self) -> float:
        return self.games * self.cost


def game_cost(policies: Sequence[str] | str, players: int = 4) -> float:
    """What a game of these players costs beside one of random players (its stated cost)."""
    names = [policies] * players if isinstance(policies, str) else list(policies)
    if not names:
        return 1.0
    searching = 0
    for name in names:
        try:
            searching += parse_policy(name).is_expert
        except Exception:  # a name the run refuses later: no cost of its own
            continue
    return 1.0 + SEARCH_SEAT_COST * searching / len(names)


def announce(progress: Callable[..., Any] | None, stages: Sequence[Stage]) -> None:
    """Tell `progress` every stage of the run, if it listens."""
    listen = getattr(progress, "plan", None)
    if callable(listen):
        listen(list(stages))


def begin(progress: Callable[..., Any] | None, index: int | str, at: int = 0) -> None:
    """Stage `index` (its number from 1, or its name) of the announced plan begins;
    `progress` reports `at` games done at its start (0 when each stage counts from 0)."""
    listen = getattr(progress, "stage", None)
    if callable(listen):
        listen(index, at)
