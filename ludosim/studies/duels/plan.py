"""What a duels study will do, in order (`plan_study`): per duel, its exact solving, then
the kernel's games of random against random and of each named player against random;
each a stage of the run's progress, with what a stage costs.
"""

from __future__ import annotations

from dataclasses import dataclass

from ludosim.run.runstages import Stage, game_cost
from ludosim.studies.duels.spec import Duel, DuelsStudy

# A graph's building and solving, in games of random players it takes as long as, by the
# pieces a side: about a second for one piece, two minutes for two (1,400 games/s).
SOLVE_COST = {1: 1_400.0, 2: 170_000.0}
# A duel's kernel game against a four-player game of random players: two seats on a
# 21-square lap play far shorter games (measured: about 1,700 games/s with an expert seat
# against random, beside 1,400 four-player random games/s), so `game_cost` is scaled.
DUEL_GAME = 1 / 120


@dataclass(frozen=True)
class Part:
    """One stage: a duel solved (`lineup` empty) or a line-up's kernel games in it."""

    duel: Duel
    lineup: tuple[str, ...]
    stage: Stage


def plan_study(study: DuelsStudy) -> list[Part]:
    """Every stage of `study`, in the order it is played."""
    lineups = [("random", "random"), *((p, "random") for p in study.players)]
    parts = []
    for duel in study.duels:
        solve = Stage(f"{duel.label}: solved exactly", 1, SOLVE_COST[duel.pieces])
        parts.append(Part(duel, (), solve))
        for lineup in lineups:
            stage = Stage(f"{duel.label}: {' against '.join(lineup)}", study.player_games,
                          DUEL_GAME * game_cost(list(lineup), 2))  # fmt: skip
            parts.append(Part(duel, lineup, stage))
    return parts
