"""Strategy tournaments: every policy in every seat position, win rates with 95% CIs.

With `n` seats and a list of `n` policies, rotation `r` seats policy
`policies[(s + r) % n]` at seat `s`, so each policy plays from every seat the
same number of games. Rotation `r` plays games `r*G .. (r+1)*G - 1` of the
seed (distinct random streams). A policy listed several times is pooled: its
win rate is its wins over the games it played in all its seats.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from ludosim.analysis import policy_wins
from ludosim.policies import resolve_policies
from ludosim.rules import Rules
from ludosim.simulate import simulate


def rotations(policies: Sequence[str]) -> list[tuple[str, ...]]:
    """The seatings of a tournament: each rotation of the policy list."""
    n = len(policies)
    return [tuple(policies[(s + r) % n] for s in range(n)) for r in range(n)]


def _offset(
    progress: Callable[[int, int], None], before: int, total: int, done: int, _: int
) -> None:
    """One rotation's progress as progress of the whole tournament."""
    progress(before + done, total)


def tournament(
    rules: Rules,
    policies: Sequence[str],
    games: int,
    seed: int,
    simulate_fn: Callable[..., pd.DataFrame] | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> pd.DataFrame:
    """Win rate of each distinct policy over all rotations, with Wilson 95% CIs.

    `games` is the total over all rotations (rounded down to a multiple of the
    number of seats). Columns: policy, seats (how many seats it held per game),
    games, wins, win_rate, ci_low, ci_high, fair (1 / players: the rate of a
    policy no better than the others). The tally is `ludosim.analysis.policy_wins`,
    which `analysis.win_table` uses for the same tournament played as a sweep.
    `progress`, if given, is called as `progress(games_done, games_total)` while
    the rotations are played.
    """
    if simulate_fn is None:
        simulate_fn = simulate
    names = resolve_policies(list(policies), rules.players)
    n = rules.players
    per_rotation = games // n
    if per_rotation < 1:
        raise ValueError(f"games={games} is too few for {n} rotations; use at least {n}")
    seatings = []
    played = per_rotation * n
    for r, seating in enumerate(rotations(names)):
        kwargs: dict[str, Any] = {}
        if progress is not None:
            kwargs["progress"] = functools.partial(_offset, progress, r * per_rotation, played)
        df = simulate_fn(
            rules, per_rotation, seed, policies=list(seating), first_game=r * per_rotation,
            threads=threads, **kwargs,
        )  # fmt: skip
        seatings.append((seating, df["winner"].to_numpy()))
    table = policy_wins(seatings)
    table.insert(1, "seats", [names.count(name) for name in table["policy"]])
    table.insert(2, "games", played)
    return table.drop(columns="seat_games")
