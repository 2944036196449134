"""The measures a page compares between rule sets, on scales that compare like with like.

Each `Measure` has a name, a unit, its smallest effect of interest (the size a
run is planned to detect, and below which a difference does not matter at a
table) and the per-game values its cell means are taken over. Every
comparison between cells is a contrast of those per-game means
(`ludosim.report.contrasts`). New measures are added here, once.

Scales chosen so that cells of different player counts and boards compare:

- **length** in *rounds*: player turns divided by the number of players. A
  round is every player taking one turn, the unit a table feels; two- and
  four-player games are compared in rounds, never in turns.
- **win**: a policy's share of the games won, in percentage points, compared
  between policies of one tournament or a skipper and its baseline (always the
  same seats, so points compare).
- **first**: the first player's *relative edge*, its win share over the fair
  share 1/n, minus one, in percent (+2.7% for 25.67% against a fair 25%). Under
  `teams` the first player's side is its team: the team's share over 1/teams.
  Between cells of the same player count this is the difference in win shares
  times n, so pages state those in percentage points; between player counts
  only the relative edge compares. Games without a finisher have no value.

Defaults of the smallest effects of interest: one round of length, 1% of
the fair share of first-player edge (0.25 pp with four players, 0.5 pp with
two), one percentage point of win share (a game in a hundred). A sweep file
can set its own (`smallest_effects`, docs/analysis.md).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from ludosim.rules.errors import LudosimError


class MeasureError(LudosimError, ValueError):
    """An unknown measure or a smallest effect that is not a positive number."""


@dataclass(frozen=True)
class Measure:
    """One quantity a page compares between cells.

    `values(rows, players)` gives one value per game of one cell's rows (a
    DataFrame or `contrasts.CellRows`: anything indexed by column name) (NaN where a game has
    none) in the measure's raw scale; `scale` turns it into `unit`.
    `smallest` is the smallest effect of interest in `unit`; `direction` says
    which way a designer would call better (-1 lower, +1 higher, 0 neither).
    """

    name: str
    title: str
    unit: str
    smallest: float
    direction: int
    values: Callable[[Any, int], np.ndarray] | None = None
    scale: float = 1.0
    about: str = ""
    # How a cell's value is taken over its per-game values: "mean", "p90" (the 90th
    # percentile), "imbalance" (over the turn-order positions) or "relative_skill" (a
    # ratio of two players' win shares); and which games: "random" (every seat random)
    # or "skill" (one seat of a named player against random ones).
    statistic: str = "mean"
    source: str = "random"


def rounds(rows: Any, players: int) -> np.ndarray:
    """Rounds until the winner finished: player turns / players."""
    return np.asarray(rows["turns"], dtype=float) / max(players, 1)


def _places(rows: Any, players: int) -> np.ndarray | None:
    """The games' `place_<s>` columns as one int64[games, players] array, None without them."""
    try:
        columns = [np.asarray(rows[f"place_{s}"], dtype=np.int64) for s in range(players)]
    except KeyError:
        return None
    return np.stack(columns, axis=1) if columns else None


def winning_sides(rows: Any, players: int) -> tuple[np.ndarray, int]:
    """Per game, the turn-order position of the side that won, and the number of sides.

    A side is a seat, or under `teams` a team: partners share their place, so the
    winning team is the seats with place 1. Position 0 is the first player's side,
    the other sides follow in the turn order of their first seat after it; -1
    for a game without a winner. Without teams (or without place columns) the
    position is `(winner - first) mod players` and every seat is a side. Teams
    are of equal size (`Rules` refuses others), so each side's fair share is
    1 / sides.
    """
    winner = np.asarray(rows["winner"], dtype=np.int64)
    first = np.asarray(rows["first"], dtype=np.int64)
    n = max(players, 1)
    won = winner >= 0
    position = np.where(won, (winner - first) % n, -1)
    places = _places(rows, players)
    if places is None or not won.any():
        return position, players
    team_size = (places[won] == 1).sum(axis=1)
    size = int(team_size.max())
    if size == 1:
        return position, players
    if int(team_size.min()) != size or n % size:
        raise MeasureError(
            "teams: the winning teams have different sizes; the first player's edge needs "
            "teams of equal size"
        )
    sides = n // size
    # The sides are read from the places: teams sharing a place (equal points under a
    # move limit, three teams or more) cannot be told apart, nor their order counted.
    distinct = (np.diff(np.sort(places[won], axis=1), axis=1) != 0).sum(axis=1) + 1
    if int(distinct.min()) < sides:
        raise MeasureError(
            "teams: in some games won, teams share a place (equal points under "
            "move_limit), so the places do not tell the teams apart; the first player's "
            "edge needs every team on its own place (two teams, or no move_limit)"
        )
    # Column p of `turn_order` is the place of the seat at turn-order position p.
    turn_order = np.take_along_axis(places, (first[:, None] + np.arange(n)) % n, axis=1)
    opens_side = np.ones(turn_order.shape, dtype=bool)
    for p in range(1, n):
        opens_side[:, p] = (turn_order[:, :p] != turn_order[:, p : p + 1]).all(axis=1)
    side_at = np.cumsum(opens_side, axis=1) - 1
    first_winner_position = np.argmax(turn_order == 1, axis=1)
    side = side_at[np.arange(len(winner)), first_winner_position]
    return np.where(won, side, -1), sides


def first_wins(rows: Any, players: int) -> np.ndarray:
    """1 when the side of the seat that moved first won (the seat, or under `teams` its
    team), 0 when another did, NaN without a finisher."""
    position, _ = winning_sides(rows, players)
    won = (position == 0).astype(float)
    won[position < 0] = np.nan
    return won


def first_edge(rows: Any, players: int) -> np.ndarray:
    """The first player's relative edge per game: sides * won - 1 (mean: share / fair - 1),
    with every seat a side, or under `teams` every team."""
    position, sides = winning_sides(rows, players)
    won = (position == 0).astype(float)
    won[position < 0] = np.nan
    return sides * won - 1.0


LENGTH = Measure(
    "length",
    "game length",
    "rounds",
    smallest=1.0,
    direction=-1,
    values=rounds,
    about="player turns until the winner finished, divided by the players",
)
FIRST = Measure(
    "first",
    "first player's edge",
    "% of a fair share",
    smallest=1.0,
    direction=-1,
    values=first_edge,
    scale=100.0,
    about="the first player's win share over the fair share 1/players, minus one (under "
    "teams: its team's share over 1/teams)",
)

WIN = Measure(
    "win",
    "win share",
    "pp",
    smallest=1.0,
    direction=1,
    about="a seat's or a policy's share of the games won, compared between policies",
)


def comebacks(rows: Any, players: int) -> np.ndarray:
    """100 when the winner was last at mid-game, 0 otherwise (flow rows; docs/flow.md)."""
    last = np.asarray(rows["last_at_mid"], dtype=float)
    won = np.asarray(rows["winner"], dtype=np.int64) >= 0
    return np.where(won, 100.0 * last, np.nan)


def per_round(column: str) -> Callable[[Any, int], np.ndarray]:
    """A per-game count divided by the game's rounds."""

    def values(rows: Any, players: int) -> np.ndarray:
        return np.asarray(rows[column], dtype=float) / rounds(rows, players)

    values.__doc__ = f"`{column}` per round of the game."
    return values


def captures_per_round(rows: Any, players: int) -> np.ndarray:
    """Opponent pieces sent home in the game, all seats together, per round."""
    total = sum(np.asarray(rows[f"captures_{s}"], dtype=float) for s in range(players))
    return total / rounds(rows, players)


# The measures of a rule set the house-rule designer screens, models and confirms.
LENGTH_P90 = Measure(
    "length_p90",
    "long game",
    "rounds",
    smallest=2.0,
    direction=-1,
    values=rounds,
    statistic="p90",
    about="the 90th percentile of the game length: one game in ten lasts longer",
)
IMBALANCE = Measure(
    "imbalance",
    "turn-order imbalance",
    "pp",
    smallest=0.25,
    direction=-1,
    statistic="imbalance",
    about="how far the turn-order positions' win shares are from fair: the root mean "
    "square of (share - 1/n) over the positions, less its noise, in pp",
)
# The smallest difference of RS that matters is the skill page's
# (`ludosim.studies.relative_skill.SMALLEST_RS`, docs/skill.md): a twentieth of the scale.
SKILL = Measure(
    "skill",
    "relative skill",
    "RS",
    smallest=0.05,
    direction=1,
    statistic="relative_skill",
    source="skill",
    about="the relative skill level RS of Dreef, Borm and van der Genugten (2004): "
    "(W(optimal) - 1/n) / (W(fictive) - 1/n), W a player's win share in one rotated seat "
    "against random players; 0 for pure chance, 1 for pure skill (docs/skill.md)",
)
COMEBACKS = Measure(
    "comebacks",
    "comebacks",
    "% of games",
    smallest=1.0,
    direction=1,
    values=comebacks,
    about="games won by a seat that was last at mid-game (docs/flow.md)",
)
LEAD_CHANGES = Measure(
    "lead_changes",
    "lead changes",
    "per round",
    smallest=0.01,
    direction=1,
    values=per_round("lead_changes"),
    about="changes of the leading seat, per round of the game (docs/flow.md)",
)
CAPTURES = Measure(
    "captures",
    "captures",
    "per round",
    smallest=0.01,
    direction=0,
    values=captures_per_round,
    about="opponent pieces sent home, all seats together, per round of the game",
)

MEASURES: dict[str, Measure] = {
    m.name: m
    for m in (LENGTH, FIRST, WIN, LENGTH_P90, IMBALANCE, SKILL, COMEBACKS, LEAD_CHANGES, CAPTURES)
}
# What a rule set is measured by in a design, in the order its tables give them.
DESIGN_MEASURES = (
    "length", "length_p90", "first", "imbalance", "skill", "comebacks", "lead_changes",
    "captures",
)  # fmt: skip


def with_smallest(smallest: Mapping[str, float] | None) -> dict[str, Measure]:
    """The measures with the smallest effects of interest `smallest` (name -> size) set."""
    out = dict(MEASURES)
    for name, size in (smallest or {}).items():
        if name not in out:
            raise MeasureError(
                f"smallest_effects: unknown measure {name!r}; allowed: {', '.join(MEASURES)}"
            )
        try:
            value = float(size)
        except (TypeError, ValueError):
            value = float("nan")
        if not value > 0:
            raise MeasureError(
                f"smallest_effects: {name} must be a positive number in {out[name].unit}, "
                f"got {size!r}"
            )
        out[name] = replace(out[name], smallest=value)
    return out


__all__ = [
    "CAPTURES",
    "COMEBACKS",
    "DESIGN_MEASURES",
    "FIRST",
    "IMBALANCE",
    "LEAD_CHANGES",
    "LENGTH",
    "LENGTH_P90",
    "MEASURES",
    "SKILL",
    "WIN",
    "Measure",
    "MeasureError",
    "first_edge",
    "first_wins",
    "rounds",
    "with_smallest",
]
