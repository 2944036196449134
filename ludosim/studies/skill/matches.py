"""The matches a rule set plays: a player against a field in every seat position
(`field_share`), a head-to-head pair (`play_pair`), and the headline answers with
skilled players (`headline_rows`, `first_player_rows`).
"""

from __future__ import annotations

import functools
from typing import Any

import pandas as pd

from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet
from ludosim.rules.policies import parse_policy
from ludosim.studies.skill.plan import FIRST_SEED, PACIFIST_SEED, SKIPPER_SEED, part_seed
from ludosim.studies.skill.spec import Progress, Study
from ludosim.studies.tournament import tournament


def _offset(progress: Progress, before: int, total: int, done: int, _: int) -> None:
    """One part's progress as progress of the whole study."""
    progress(before + done, total)


def head_to_head_seatings(a: str, b: str, seats: int) -> list[list[str]]:
    """The seatings of a head-to-head pair before rotation: A in half the seats, B in the rest.

    One pattern with an even number of seats (`A,A,B,B`); with an odd number,
    two (A holding the larger half, then B), each played in half the games.
    """
    half = seats // 2
    if seats % 2 == 0:
        return [[a] * half + [b] * half]
    return [[a] * (half + 1) + [b] * half, [b] * (half + 1) + [a] * half]


def play_pair(
    rules: Rules,
    a: str,
    b: str,
    games: int,
    seed: int,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> tuple[int, int, int]:
    """(games, wins of a's side, wins of b's side) of a head-to-head pair.

    Each seating of `head_to_head_seatings` plays `games // len(seatings)`
    games in every rotation (`ludosim.studies.tournament`). A side wins when one of its
    seats wins; a truncated game without a winner is counted for neither.
    """
    patterns = head_to_head_seatings(a, b, rules.players)
    per = games // len(patterns)
    played = wins_a = wins_b = 0
    for i, pattern in enumerate(patterns):
        part = None if progress is None else functools.partial(_offset, progress, i * per, games)
        table = tournament(rules, pattern, per, seed, threads=threads, progress=part)
        by = table.set_index("policy")
        names = [parse_policy(x).name for x in (a, b)]
        played += int(table["games"].iloc[0])
        wins_a += int(by.at[names[0], "wins"])
        wins_b += int(by.at[names[1], "wins"])
    return played, wins_a, wins_b


def headline_rows(
    study: Study,
    rule_set: RuleSet,
    rules: Rules,
    strongest: str,
    threads: int | None = None,
    progress: Progress | None = None,
) -> list[dict[str, Any]]:
    """The headline questions answered with skilled players beside random play.

    - `first_player_advantage_random` / `_strongest`: the share of decided games
      won by the seat that moved first, minus the fair share, with every seat
      `random` / every seat the strongest player (`headline_games` games each,
      the same dice), and `first_player_advantage_change`, the second minus the
      first paired by game (`first_player_rows`);
    - where captures are optional, `pacifist_share_vs_balanced` /
      `_vs_strongest`: `pacifist` (never captures) in every seat position
      against three `balanced` / three of the strongest;
    - under forced captures, `skipper_share_vs_balanced` / `_vs_strongest`:
      `skipper:1` (skips a forced capture whenever its best plan does) against
      three `balanced`, and `skipper:1:<strongest>` against three of the strongest.
    Shares are against the fair share `1 / players` (`fair`).
    """
    from ludosim.run.simulate import simulate

    base = {"rule_set": rule_set.label, "preset": rule_set.preset, "set": " ".join(rule_set.sets)}
    kwargs: dict[str, Any] = {} if threads is None else {"threads": threads}
    done = 0
    played = []
    for policy in ("random", strongest):
        played.append(
            simulate(
                rules, study.headline_games, part_seed(study.seed, FIRST_SEED), policy, **kwargs
            )
        )
        done += study.headline_games
        if progress is not None:
            progress(done, 0)
    rows = [{**base, **row} for row in first_player_rows(played[0], played[1], strongest)]
    if rules.forced_capture:
        kind, seed_part = "skipper", SKIPPER_SEED
        players = {"balanced": "skipper:1", "strongest": f"skipper:1:{strongest}"}
    else:
        kind, seed_part = "pacifist", PACIFIST_SEED
        players = {"balanced": "pacifist", "strongest": "pacifist"}
    measured: set[tuple[str, str]] = set()
    for who, opponent in (("balanced", "balanced"), ("strongest", strongest)):
        player = parse_policy(players[who]).name
        if player == opponent:
            continue  # the strongest is the pacifist itself: nothing to measure
        if (player, opponent) in measured:
            # The strongest is balanced (Killer): `skipper:1:balanced` is `skipper:1`, the
            # same games on the same seed, so the match is played and counted once (the
            # progress still moves past it, as planned).
            done += study.match_games
            if progress is not None:
                progress(done, 0)
            continue
        measured.add((player, opponent))
        row = field_share(rules, player, opponent, study.match_games,
                          part_seed(study.seed, seed_part), threads)  # fmt: skip
        rows.append({**base, "measure": f"{kind}_share_vs_{who}", **row})
        done += study.match_games
        if progress is not None:
            progress(done, 0)
    return rows


def field_share(
    rules: Rules,
    player: str,
    opponent: str,
    games: int,
    seed: int,
    threads: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """`player` in every seat position against `opponent` in every other seat
    (`ludosim.studies.tournament`): its win share per seat it held, Wilson 95% interval, the fair
    share and whether the interval excludes it, as the columns of a `skill.csv` row."""
    field_ = [player] + [opponent] * (rules.players - 1)
    won = tournament(rules, field_, games, seed, threads=threads, progress=progress)
    row = won.set_index("policy").loc[player]
    rate, low, high = (float(row[c]) for c in ("win_rate", "ci_low", "ci_high"))
    fair = 1.0 / rules.players
    return {"player": player, "opponent": opponent, "estimate": rate, "ci_low": low,
            "ci_high": high, "games": int(row["games"]), "fair": fair,
            "resolved": not low <= fair <= high}  # fmt: skip


def first_player_rows(
    random_games: pd.DataFrame, skilled_games: pd.DataFrame, strongest: str
) -> list[dict[str, Any]]:
    """The first player's edge with random and with skilled seats, and its change.

    `random_games` and `skilled_games` are per-game rows (`game`, `first`,
    `winner`, `place_<s>`) of the same games of one seed, every seat `random`
    and every seat `strongest`. The edges are each run's first-player win share
    over the decided games minus the fair share (Wilson intervals,
    `analysis.first_player_advantage`); `first_player_advantage_change` is the
    skilled edge minus the random one, paired by game (the games decided in
    both runs: `contrasts.CellSamples`), with its normal interval.
    """
    from ludosim.report import analysis
    from ludosim.report.contrasts import CellSamples, cell_rows
    from ludosim.results.measures import first_wins

    rows = []
    for who, policy, df in (("random", "random", random_games),
                            ("strongest", strongest, skilled_games)):  # fmt: skip
        # Turn-order position 0 of the report's first-player analysis.
        first = analysis.first_player_advantage(df).iloc[0]
        rate, low, high = (float(first[c]) for c in ("win_rate", "ci_low", "ci_high"))
        fair = float(first["fair"])
        rows.append({"measure": f"first_player_advantage_{who}", "player": policy,
                     "opponent": policy, "estimate": rate - fair, "ci_low": low - fair,
                     "ci_high": high - fair, "games": int(first["games"]), "fair": 0.0,
                     "resolved": not low <= fair <= high})  # fmt: skip
    both = pd.concat([random_games.assign(cell="random"), skilled_games.assign(cell="skilled")])
    change = CellSamples(cell_rows(both, ("game", "first", "winner")), first_wins).difference(
        "skilled", "random"
    )
    rows.append({"measure": "first_player_advantage_change", "player": strongest,
                 "opponent": "random", "estimate": change.estimate, "ci_low": change.ci_low,
                 "ci_high": change.ci_high, "games": change.games, "fair": 0.0,
                 "resolved": not change.ci_low <= 0.0 <= change.ci_high})  # fmt: skip
    return rows
