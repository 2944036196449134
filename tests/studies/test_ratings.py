"""The skill ladder: ratings, bootstrap intervals, and games_to_be_ahead."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pandas as pd
import pytest

from ludosim.cli.app import main
from ludosim.reference import Plan, PlayerView, play_game
from ludosim.rules.model import Rules

pytest.importorskip("openskill")

from ludosim.studies.ratings import (
    COLUMNS,
    RatingsError,
    ahead_probability,
    games_to_be_ahead,
    play_ladder,
    ratings,
    seatings,
    win_probability,
)

LADDER = ["random", "runner", "balanced", "aggressive"]


@pytest.fixture(scope="module")
def table() -> pd.DataFrame:
    return ratings(Rules.preset("app"), LADDER, games=400, seed=3, bootstrap=40)


def test_balanced_is_rated_above_random(table: pd.DataFrame) -> None:
    """400 games (100 per seating), 40 bootstrap resamples. Tolerance: each 95% interval
    must exclude the other player's point rating, i.e. the gap exceeds both half-widths."""
    assert list(table.columns) == list(COLUMNS)
    rows = table.set_index("player")
    assert set(rows.index) == set(LADDER)
    assert (rows["games"] == 400).all()  # four seats of four players: everyone plays every game
    assert rows.at["balanced", "mu"] > rows.at["random", "mu"]
    assert rows.at["balanced", "ci_low"] > rows.at["random", "mu"]
    assert rows.at["random", "ci_high"] < rows.at["balanced", "mu"]
    assert (rows["ci_low"] <= rows["ci_high"]).all()
    assert rows["ordinal"].tolist() == pytest.approx((rows["mu"] - 3 * rows["sigma"]).tolist())
    assert table["mu"].is_monotonic_decreasing
    assert win_probability(table, "balanced", "random") > 0.5


def test_ratings_are_deterministic(table: pd.DataFrame) -> None:
    again = ratings(Rules.preset("app"), LADDER, games=400, seed=3, bootstrap=40)
    pd.testing.assert_frame_equal(table, again)
    other = ratings(Rules.preset("app"), LADDER, games=400, seed=4, bootstrap=0)
    assert not other["mu"].equals(table["mu"])
    assert other["ci_low"].isna().all()


def test_seatings_cover_every_table_in_every_rotation() -> None:
    plan = seatings(5, 4)
    assert len(plan) == math.comb(5, 4) * 4
    assert len(set(plan)) == len(plan)
    for player in range(5):
        for seat in range(4):
            assert sum(s[seat] == player for s in plan) == math.comb(4, 3)


def test_an_outside_player_joins_the_ladder_in_the_reference_engine() -> None:
    def first(view: PlayerView, options: Sequence[Plan]) -> int:
        return 0

    rules = Rules.preset("app")
    games = play_ladder(rules, ["random", "runner", "balanced", first], 8, seed=1)
    assert len(games) == 8
    assert set(games["who_0"]) == {"random", "runner", "balanced", "first"}
    for _, row in games.iterrows():
        assert sorted(row[f"place_{s}"] for s in range(4)) == [1, 2, 3, 4]
    # The outside player's seatings and games are the reference engine's, seat for seat.
    named = {"random": "random", "runner": "runner", "balanced": "balanced", "first": first}
    for _, row in games.head(4).iterrows():
        seated = [named[row[f"who_{s}"]] for s in range(4)]
        places = play_game(rules, 1, int(row["game"]), policies=seated, record=False).places
        assert places == [row[f"place_{s}"] for s in range(4)]


def test_a_ladder_of_names_plays_the_kernel_games_of_the_reference_engine() -> None:
    rules = Rules.preset("app")
    games = play_ladder(rules, LADDER, 8, seed=2)
    assert sorted(games["game"]) == list(range(8))
    for _, row in games.iterrows():
        seated = [row[f"who_{s}"] for s in range(4)]
        assert sorted(seated) == sorted(LADDER)
        places = play_game(rules, 2, int(row["game"]), policies=seated, record=False).places
        assert places == [row[f"place_{s}"] for s in range(4)]


@pytest.mark.parametrize(
    ("players", "games", "field"),
    [
        (["random", "runner"], 100, "players"),
        (LADDER, 3, "games"),
        ([*LADDER, "random"], 99, "players"),
    ],
)
def test_bad_ladders_are_refused(players: list[str], games: int, field: str) -> None:
    with pytest.raises(RatingsError, match=f"^{field}:"):
        play_ladder(Rules.preset("app"), players, games, seed=0)


def test_ahead_probability_against_hand_computed_binomials() -> None:
    # n=3, p=0.9: P(X>=2) = 3(0.81)(0.1) + 0.729 = 0.972
    assert ahead_probability(3, 0.9) == pytest.approx(0.972)
    # n=4, p=0.9: P(X>=3) = 4(0.729)(0.1) + 0.6561 = 0.9477 (a 2-2 tie is not ahead)
    assert ahead_probability(4, 0.9) == pytest.approx(0.9477)
    # n=5: P(X>=3) = 10(0.729)(0.01) + 5(0.6561)(0.1) + 0.59049 = 0.99144
    assert ahead_probability(5, 0.9) == pytest.approx(0.99144)
    # n=2, p=0.75: both games won, 0.5625
    assert ahead_probability(2, 0.75) == pytest.approx(0.5625)


def test_games_to_be_ahead_hand_computed() -> None:
    # p=0.9, 95%: 3 games reach 0.972 but 4 games fall to 0.9477; from 5 on it stays above.
    assert games_to_be_ahead(0.9) == 5
    # p=0.75, 50%: one game (0.75), two (0.5625), and more only increase.
    assert games_to_be_ahead(0.75, confidence=0.5) == 1
    assert games_to_be_ahead(1.0) == 1


def test_games_to_be_ahead_is_the_point_from_which_the_probability_stays_above() -> None:
    n = games_to_be_ahead(0.6)
    assert ahead_probability(n - 1, 0.6) < 0.95
    assert all(ahead_probability(m, 0.6) >= 0.95 for m in range(n, n + 40))


@pytest.mark.parametrize(("p", "confidence"), [(0.5, 0.95), (0.3, 0.95), (0.7, 1.0), (1.2, 0.9)])
def test_games_to_be_ahead_refuses_bad_input(p: float, confidence: float) -> None:
    with pytest.raises(RatingsError):
        games_to_be_ahead(p, confidence)


def test_cli_ratings_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stop:
        main(["ratings", "-p", "app", "--seed", "1", "-n", "40", "-b", "3", "-q",
              "--policy", "random,runner,balanced,aggressive"])  # fmt: skip
    assert stop.value.code == 0
    out = capsys.readouterr().out
    assert "40 games" in out
    for name in ["random", "runner", "balanced", "aggressive", "95% CI", "sigma", "ordinal"]:
        assert name in out
