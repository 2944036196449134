"""Strategy tournaments: rotations, pooled win rates and their confidence intervals."""

from __future__ import annotations

import pandas as pd
import pytest

from ludosim import Rules, simulate
from ludosim.results.stats import wilson_interval
from ludosim.studies.tournament import rotations, tournament


def test_rotations_seat_every_policy_in_every_seat_once():
    names = ["a", "b", "c", "d"]
    seatings = rotations(names)
    assert seatings[0] == ("a", "b", "c", "d")
    assert seatings[1] == ("b", "c", "d", "a")
    for seat in range(4):
        assert sorted(s[seat] for s in seatings) == names


def test_tournament_plays_distinct_games_per_rotation_and_pools_wins():
    """A stand-in simulate: seat 0 always wins, so each policy wins the rotations it opens."""
    calls = []

    def fake_simulate(rules, games, seed, policies, first_game, threads):
        calls.append((tuple(policies), first_game, games, seed))
        return pd.DataFrame({"winner": [0] * games})

    rules = Rules.preset("app")
    table = tournament(rules, ["runner", "random", "random", "aggressive"], 400, 9, fake_simulate)
    assert [c[1] for c in calls] == [0, 100, 200, 300]  # distinct random streams
    assert [c[0][0] for c in calls] == ["runner", "random", "random", "aggressive"]
    assert all(c[2] == 100 and c[3] == 9 for c in calls)
    rows = table.set_index("policy")
    assert list(rows.index) == ["runner", "random", "aggressive"]
    assert rows.loc["random", "seats"] == 2
    assert rows.loc["random", "wins"] == 200
    assert rows.loc["random", "win_rate"] == pytest.approx(200 / 800)  # pooled over 2 seats
    assert rows.loc["runner", "win_rate"] == pytest.approx(0.25)
    low, high = wilson_interval(100, 400)
    assert (rows.loc["runner", "ci_low"], rows.loc["runner", "ci_high"]) == (low, high)
    assert (rows["fair"] == 0.25).all() and (rows["games"] == 400).all()


def test_tournament_with_the_kernel():
    rules = Rules.preset("app")
    policies = ["aggressive", "random", "skipper:0.5", "weights:lead=1"]
    table = tournament(rules, policies, 200, 4)
    assert list(table["policy"]) == policies
    assert table["wins"].sum() == 200  # app plays to the end: every game has a winner
    assert ((table["ci_low"] <= table["win_rate"]) & (table["win_rate"] <= table["ci_high"])).all()
    # The same games as simulate's, rotation by rotation: aggressive sits at seat -r.
    wins = 0
    for r, seating in enumerate(rotations(policies)):
        df = simulate(rules, games=50, seed=4, policies=list(seating), first_game=50 * r)
        wins += int((df["winner"] == seating.index("aggressive")).sum())
    assert table.loc[0, "wins"] == wins


def test_tournament_needs_a_game_per_rotation():
    with pytest.raises(ValueError, match="too few"):
        tournament(Rules.preset("app"), ["random"] * 4, 3, 1)
