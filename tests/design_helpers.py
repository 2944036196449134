"""A test double of a design stage's measures (no kernel), shared by the designer's tests
and its calibration: every rule set's per-game rows drawn around a known function of its
free toggles' codes, with a game-level part shared by every rule set of the stage (the
common dice of a sweep)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.studies import design as d

# codes (rule sets x free toggles), the free toggles' names -> {"rounds": ..., "skill": ...};
# "skill" is the relative skill level RS in [0, 1]
Truth = Callable[[np.ndarray, list[str]], dict[str, np.ndarray]]
PLAYERS = 4


def null_truth(codes: np.ndarray, free: list[str]) -> dict[str, np.ndarray]:
    """House rules that change nothing: 100 rounds and a relative skill level of 0.5."""
    return {"rounds": np.full(len(codes), 100.0), "skill": np.full(len(codes), 0.5)}


# The fictive player's win share against random players in the double: RS = 1 is an
# optimal player who wins as often.
FICTIVE_SHARE = 0.75


def _seat_games(point: str, share: float, games: int, rng: np.random.Generator) -> pd.DataFrame:
    """A skill player's games in one seat against random ones (`design.stages._seat_wins`'s
    columns): won with probability `share`."""
    won = rng.random(games) < share
    return pd.DataFrame({"cell": point, "game": np.arange(games), "won": won.astype(float)})


def stage_double(truth: Truth) -> Callable[..., tuple[pd.DataFrame, Any]]:
    """A `player` for `design.play_study` whose rule sets play around `truth`."""

    def play(plan: d.Plan, stage: d.Stage, out: Path, **_: Any) -> tuple[pd.DataFrame, Any]:
        mean = truth(stage.codes, [f.toggle for f in plan.free])
        rng = np.random.default_rng(stage.seed % 2**63 + len(stage.ids))
        games = stage.games
        shared = rng.normal(0, 15, games)  # common random numbers: every rule set's game g
        random_parts, optimal_parts, fictive_parts = [], [], []
        for i, point in enumerate(stage.ids):
            rounds = np.maximum(10, mean["rounds"][i] + shared + rng.normal(0, 10, games))
            first = rng.integers(0, PLAYERS, games)
            part = {
                "cell": point,
                "game": np.arange(games),
                "first": first,
                "winner": (first + rng.integers(0, PLAYERS, games)) % PLAYERS,
                "turns": np.round(rounds * PLAYERS).astype(int),
                "truncated": False,
                "lead_changes": rng.poisson(10, games),
                "last_at_mid": rng.random(games) < 0.06,
            }
            for s in range(PLAYERS):
                part[f"captures_{s}"] = rng.poisson(5, games)
                part[f"place_{s}"] = np.where(part["winner"] == s, 1, 2)  # the winner 1st
            random_parts.append(pd.DataFrame(part))
            fair = 1 / PLAYERS
            optimal = fair + mean["skill"][i] * (FICTIVE_SHARE - fair)
            optimal_parts.append(_seat_games(point, optimal, stage.skill_games, rng))
            fictive_parts.append(_seat_games(point, FICTIVE_SHARE, stage.skill_games, rng))
        samples = d.stage_samples(
            pd.concat(random_parts), pd.concat(optimal_parts), pd.concat(fictive_parts)
        )
        return d.measures_table(stage, samples), samples

    return play
