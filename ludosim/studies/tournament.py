"""Strategy tournaments: every policy in every seat position, win rates with 95% CIs.

With `n` seats and a list of `n` policies, rotation `r` seats policy
`policies[(s + r) % n]` at seat `s`, so each policy plays from every seat the
same number of games. Rotation `r` plays games `r*G .. (r+1)*G - 1` of the
seed (distinct random streams). A policy listed several times is pooled: its
win rate is its wins over the games it played in all its seats.

`tournament` gives the table of win rates; `tournament_answer` plays the same
games and decides them as a page would: the rotations are the cells of a
tournament design (every policy holds every seat in some cell), and
`page_findings` ranks the policies, every pair compared by game in one family.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import pandas as pd

from ludosim.report.analysis import policy_wins
from ludosim.report.answers import Answer, cells_of, estimate_rows
from ludosim.report.sweeppage.sweepfindings import page_findings
from ludosim.results.schema import GAMES_MAX
from ludosim.rules import checks
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet
from ludosim.rules.policies import format_policies, resolve_policies, split_policy_list
from ludosim.run.runstages import Stage, announce, begin, game_cost
from ludosim.run.simulate import simulate


class TournamentError(LudosimError, ValueError):
    """A bad tournament argument (rules, policies, games)."""


def _policy_list(policies: Any) -> list[str]:
    """The line-up: a list of names, or one comma-separated text of them."""
    if isinstance(policies, str):
        return split_policy_list(policies)
    if not isinstance(policies, Sequence) or not all(isinstance(p, str) for p in policies):
        raise TournamentError(
            "policies must be a list of policy names, one per seat (e.g. "
            f"['balanced', 'random', 'random', 'random']), got {policies!r}"
        )
    return list(policies)


def rotations(policies: Sequence[str]) -> list[tuple[str, ...]]:
    """The seatings of a tournament: each rotation of the policy list."""
    n = len(policies)
    return [tuple(policies[(s + r) % n] for s in range(n)) for r in range(n)]


def _offset(
    progress: Callable[[int, int], None], before: int, total: int, done: int, _: int
) -> None:
    """One rotation's progress as progress of the whole tournament."""
    progress(before + done, total)


def play_rotations(
    rules: Rules,
    policies: Sequence[str],
    games: int,
    seed: int,
    simulate_fn: Callable[..., pd.DataFrame] | None = None,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
    stages: bool = False,
) -> list[tuple[tuple[str, ...], pd.DataFrame]]:
    """(seating, its rows) for every rotation: `games // players` games each.

    `stages`: tell `progress` each seating as a stage of the run ("seating 2 of 4:
    random, expert, random, random"), for a run that is the tournament alone (a study
    that plays rotations as parts of its own stages leaves it off)."""
    if simulate_fn is None:
        simulate_fn = simulate
    rules = checks.rules("rules", rules, error=TournamentError)
    names = resolve_policies(_policy_list(policies), rules.players, teams=rules.teams)
    n = rules.players
    games = checks.integer("games", games, 1, GAMES_MAX, error=TournamentError)
    if games < n:
        raise TournamentError(f"games={games} is too few for {n} rotations; use at least {n}")
    per_rotation = games // n
    played = per_rotation * n
    if stages:
        seatings = list(rotations(names))
        announce(progress, [Stage(f"seating {', '.join(s)}", per_rotation, game_cost(s, n))
                            for s in seatings])  # fmt: skip
    out = []
    for r, seating in enumerate(rotations(names)):
        kwargs: dict[str, Any] = {}
        if stages:
            begin(progress, r + 1, at=r * per_rotation)
        if progress is not None:
            kwargs["progress"] = functools.partial(_offset, progress, r * per_rotation, played)
        df = simulate_fn(
            rules, per_rotation, seed, policies=list(seating), first_game=r * per_rotation,
            threads=threads, **kwargs,
        )  # fmt: skip
        out.append((seating, df))
    return out


def _table(
    names: Sequence[str], seatings: Sequence[tuple[tuple[str, ...], pd.DataFrame]]
) -> pd.DataFrame:
    played = sum(len(df) for _, df in seatings)
    table = policy_wins([(seating, df["winner"].to_numpy()) for seating, df in seatings])
    table.insert(1, "seats", [list(names).count(name) for name in table["policy"]])
    table.insert(2, "games", played)
    return table.drop(columns="seat_games")


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
    policy no better than the others). The tally is `ludosim.report.analysis.policy_wins`,
    which `analysis.win_table` uses for the same tournament played as a sweep.
    `progress`, if given, is called as `progress(games_done, games_total)` while
    the rotations are played.
    """
    seatings = play_rotations(rules, policies, games, seed, simulate_fn, threads, progress)
    return _table(resolve_policies(_policy_list(policies), rules.players), seatings)


def tournament_answer(
    rule_set: RuleSet,
    policies: Sequence[str],
    games: int,
    seed: int,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Answer:
    """The tournament's win rates and the ranking a page states (design `tournament`).

    The rotations are the cells (`c0` seats the list as given, `c1` its first
    rotation, ...), each named by its seating; `page_findings` decides the
    ranking, every pair of policies compared game by game in one family (Holm),
    and states the game length over all seatings and the first player's edge.
    """
    rules = rule_set.rules()
    names = resolve_policies(_policy_list(policies), rules.players)
    seatings = play_rotations(rules, names, games, seed, threads=threads, progress=progress,
                              stages=True)  # fmt: skip
    table = _table(names, seatings)
    per_rotation = len(seatings[0][1])
    rows = pd.concat(
        [
            df.assign(cell=f"c{r}", policies=format_policies(seating))
            for r, (seating, df) in enumerate(seatings)
        ],
        ignore_index=True,
    )
    entries = [
        (RuleSet(rule_set.preset, rule_set.sets, format_policies(seating)), seating)
        for seating, _ in seatings
    ]
    page = page_findings(rows, cells_of(entries, per_rotation, seed))
    ranked = table.sort_values("win_rate", ascending=False, kind="stable")
    estimates = estimate_rows(
        {
            "measure": "win share",
            "of": row.policy,
            "estimate": 100 * row.win_rate,
            "ci_low": 100 * row.ci_low,
            "ci_high": 100 * row.ci_high,
            "unit": "%",
            "games": int(row.games),
            "seats": int(row.seats),
            "wins": int(row.wins),
            "fair": 100 * row.fair,
        }
        for row in ranked.itertuples(index=False)
    )
    title = (
        f"{rule_set.label}: {int(table['games'].iloc[0]):,} games, {len(seatings)} seatings "
        "(each policy in every seat; win shares with 95% Wilson intervals)"
    )
    notes = ["fair: the share of a policy no better than the others (1 / players, in %)."]
    return Answer(
        "tournament", title, estimates, page.findings, notes, page=page, rounded_like=("fair",)
    )
