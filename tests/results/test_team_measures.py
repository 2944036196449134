"""The first player's edge under `teams`: the first player's side is its team.

`ludosim.results.measures.winning_sides` reads the teams from the places (partners
share theirs) and gives the winning side's turn-order position; every first-player
measure, table and page goes through it. Pinned here on hand-built rows, against
the rules' own team numbers on played games, and with the refusals of the counts
that cannot tell a team apart (a kernel summary).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ludosim import Rules, simulate
from ludosim.report import analysis
from ludosim.results.measures import MeasureError, first_edge, first_wins, winning_sides
from ludosim.run.simulate import SimulationError
from ludosim.sweep import SweepError, SweepSpec, expand


def _rows(first: list[int], winner: list[int], places: list[list[int]]) -> pd.DataFrame:
    data = {"first": first, "winner": winner}
    for s in range(len(places[0])):
        data[f"place_{s}"] = [row[s] for row in places]
    return pd.DataFrame(data)


def test_without_teams_the_side_is_the_seat() -> None:
    """Every seat its own side: the position is (winner - first) mod n, four sides."""
    rows = _rows([0, 1, 3, 2], [0, 3, 2, -1], [[1, 2, 3, 4], [4, 3, 2, 1], [2, 3, 1, 4], [1] * 4])
    position, sides = winning_sides(rows, 4)
    assert sides == 4 and position.tolist() == [0, 2, 3, -1]
    assert first_wins(rows, 4)[:3].tolist() == [1.0, 0.0, 0.0]
    assert np.isnan(first_wins(rows, 4)[3])


def test_partners_opposite_make_two_sides() -> None:
    """Teams 0,1,0,1: the first player's team is side 0 whichever partner completed it,
    and a first player of team 1 makes team 1 side 0."""
    team0 = [1, 2, 1, 2]  # seats 0 and 2 won
    team1 = [2, 1, 2, 1]
    rows = _rows([0, 0, 1, 3, 2], [2, 1, 3, 0, 0], [team0, team1, team1, team0, team0])
    position, sides = winning_sides(rows, 4)
    assert sides == 2 and position.tolist() == [0, 1, 0, 1, 0]
    assert first_edge(rows, 4).tolist() == [1.0, -1.0, 1.0, -1.0, 1.0]  # 2 * won - 1


def test_partners_side_by_side_follow_the_turn_order() -> None:
    """Teams 0,0,1,1 with seat 1 first: seat 1's team (seats 0, 1) is side 0 although
    its other seat moves last in the round."""
    rows = _rows([1, 1, 3], [0, 2, 1], [[1, 1, 2, 2], [2, 2, 1, 1], [1, 1, 2, 2]])
    position, sides = winning_sides(rows, 4)
    assert sides == 2 and position.tolist() == [0, 1, 1]


def test_teams_of_different_sizes_have_no_fair_share() -> None:
    rows = _rows([0, 0], [0, 1], [[1, 2, 3, 1], [2, 1, 3, 2]])
    with pytest.raises(MeasureError, match="equal size"):
        winning_sides(rows, 4)
    with pytest.raises(Exception, match="teams/players"):
        Rules.preset("king").replace(teams="0,1,2,0")


@pytest.mark.parametrize("teams", ["0,1,0,1", "0,0,1,1", "0,1,1,0"])
def test_the_first_side_is_the_first_players_team_in_played_games(teams: str) -> None:
    """On played games the side read from the places is the team the rules give the
    first player (an identity, game by game), and the table has one row per team."""
    rules = Rules.preset("king").replace(teams=teams)
    df = simulate(rules, games=300, seed=11)
    team = np.array(rules.teams)
    expected = team[df["winner"].to_numpy()] == team[df["first"].to_numpy()]
    assert np.array_equal(first_wins(df, 4) == 1.0, expected)
    table = analysis.first_player_advantage(df)
    assert table["players"].tolist() == [2, 2] and table["fair"].tolist() == [0.5, 0.5]
    assert int(table["wins"].sum()) == len(df)


def test_summaries_refuse_teams() -> None:
    """A kernel summary counts wins by the winning seat's position: no team in it."""
    rules = Rules.preset("king").replace(teams="0,1,0,1")
    with pytest.raises(SimulationError, match="summary/teams"):
        simulate(rules, games=10, seed=1, summary=True)
    spec = SweepSpec(preset="king", set={"teams": "0,1,0,1"}, games=10, seed=1, summary_only=True)
    with pytest.raises(SweepError, match="summary_only/teams"):
        expand(spec)


def test_the_terminal_names_the_first_players_team() -> None:
    """`ludosim simulate` under teams states the team's edge against 1/teams."""
    from typer.testing import CliRunner

    from ludosim.cli import app

    args = ["simulate", "--preset", "king", "--set", "teams=0,1,0,1", "--games", "400"]
    result = CliRunner().invoke(app, [*args, "--seed", "1"], env={"COLUMNS": "200"})
    assert result.exit_code == 0, result.output
    assert "The first player's team wins" in result.output
    assert "against a fair share of 50" in result.output
    assert "Turn order under teams" in result.output


def test_teams_sharing_a_place_have_no_side_to_count() -> None:
    """Three teams under a move limit: two with equal points share place 2, so the
    places cannot tell which seats are partners; the first player's edge is refused.
    A tie for first has no winner and is left out, as without teams."""
    tie_second = [1, 2, 2, 1, 2, 2]
    rows = _rows([0, 0], [0, 0], [[1, 2, 3, 1, 2, 3], tie_second])
    with pytest.raises(MeasureError, match="share a place"):
        winning_sides(rows, 6)
    tie_first = _rows([0, 0], [0, -1], [[1, 2, 3, 1, 2, 3], [1, 1, 3, 1, 1, 3]])
    position, sides = winning_sides(tie_first, 6)
    assert sides == 3 and position.tolist() == [0, -1]
