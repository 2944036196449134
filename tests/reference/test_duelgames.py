"""Luck and cost in a duel's games (`ludosim.reference.duelgames`): the exact identity,
luck with mean zero, costs that only a worse move pays, and the shares they explain.

The real duels with choices take minutes to build (two pieces a side), so the
choices are checked on a hand-built graph as well as on one-piece duels (no choice:
every cost is zero) and, under `make verify`, on the smallest two-piece duel.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from ludosim.reference.duel import duel_values, solve_graph
from ludosim.reference.duelgames import (
    cost_per_choice,
    fixed_point_gap,
    identity_gap,
    luck_games,
    luck_shares,
    play_traced,
)
from ludosim.reference.duelgraph import WIN, DuelGraph, build_graph, duel_rules
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules


def _toy_graph() -> DuelGraph:
    """Two faces, two nodes. Node 0 ("near"): face 0 offers winning at once or a detour to
    node 1 handing the move over; face 1 hands the move over at node 0. Node 1 ("far"):
    face 0 wins, face 1 hands the move over at node 0. Only node 0, face 0, is a choice,
    and winning at once is the only best move."""
    rules = duel_rules(Rules.preset("app"), 1)
    dec_start = np.array([0, 2, 3, 4, 5], dtype=np.int64)
    succ = np.array([WIN, 1, 0, WIN, 0], dtype=np.int64)
    swap = np.array([0, 1, 1, 0, 1], dtype=np.int8)
    keys = [(0, 0, 0, 0, 0, 0, 0), (1, 0, 0, 0, 0, 0, 0)]
    sides = [((0, False),), ((1, False),)]
    return DuelGraph(rules, (1, 2), keys, sides, 0, dec_start, succ, swap,
                     np.array([0, 1], dtype=np.int64))  # fmt: skip


@pytest.fixture(scope="module")
def toy():
    graph = _toy_graph()
    values, _, _ = duel_values(graph)
    return graph, values


@pytest.fixture(scope="module")
def one_piece():
    graph = build_graph(duel_rules(Rules.preset("maedn"), 1))
    _, values, _ = solve_graph(graph, sequences=2)
    return graph, values


@pytest.mark.parametrize("players", [("random", "random"), ("optimal", "random"),
                                     ("best", "best"), ("random", "optimal")])  # fmt: skip
def test_luck_and_costs_add_up_to_the_result_exactly(toy, one_piece, players) -> None:
    """result - V(start) = luck - cost_0 + cost_1 in every game, to rounding."""
    for graph, values in (toy, one_piece):
        df = luck_games(graph, values, players, games=4000, seed=7)
        assert df["result"].isin([0.0, 1.0]).all()
        assert identity_gap(df) < 1e-12


def test_luck_has_mean_zero_at_every_position(toy, one_piece) -> None:
    """The values of best play are their own mean over the faces (the fixed point)."""
    for graph, values in (toy, one_piece):
        assert fixed_point_gap(graph, values) < 1e-11


def test_only_a_move_worse_than_the_best_costs_anything(toy) -> None:
    graph, values = toy
    best = luck_games(graph, values, ("best", "best"), games=2000, seed=3)
    assert (best[["cost_0", "cost_1"]] == 0).all().all()
    rand = luck_games(graph, values, ("random", "random"), games=2000, seed=3)
    assert rand["choices_0"].sum() > 0 and (rand[["cost_0", "cost_1"]] >= 0).all().all()
    # A random mover takes the detour half the time it has the choice: the cost of each
    # choice is then the whole gap between winning now and the position after the detour.
    _, my = values.minimax
    gap_role0 = 1.0 - my[1]  # role 0 detours: role 1 to move at node 1
    many = luck_games(graph, values, ("random", "random"), games=20_000, seed=4)
    mean, low, high = cost_per_choice(many, 0)
    se = (high - low) / (2 * 1.959964)
    assert abs(mean - gap_role0 / 2) <= 2.58 * se  # the 99% interval of the ratio


def test_a_game_without_choices_has_no_cost_and_no_share_of_choices(one_piece) -> None:
    graph, values = one_piece
    df = luck_games(graph, values, ("random", "random"), games=4000, seed=1)
    assert graph.choices == 0 and df[["choices_0", "choices_1"]].sum().sum() == 0
    assert np.isnan(cost_per_choice(df, 0)[0])
    shares = {s.component: s for s in luck_shares(df)}
    assert np.isnan(shares["choices"].share)  # none, not a number
    assert 0.95 < shares["dice"].share <= 1


def test_the_optimal_player_wins_more_than_random_in_its_own_games(toy) -> None:
    graph, values = toy
    ox, oy = values.optimal
    df = luck_games(graph, values, ("optimal", "random"), games=20_000, seed=5)
    exact = 0.5 * (ox[graph.start] + oy[graph.start])
    share = df["result"].mean()
    half = 2.58 * np.sqrt(exact * (1 - exact) / len(df))  # 99% binomial interval
    assert abs(share - exact) <= half


def test_a_traced_game_is_the_walked_game(one_piece) -> None:
    graph, values = one_piece
    df = luck_games(graph, values, ("optimal", "random"), games=5, seed=9)
    for game in range(5):
        trace = play_traced(graph, values, ("optimal", "random"), seed=9, game=game)
        assert trace["luck"].sum() == pytest.approx(df["luck"][game], abs=1e-12)
        assert trace["mover"].iloc[0] == game % 2


def test_shares_of_an_independent_term_hold_zero_in_their_interval() -> None:
    """A term unrelated to the result explains nothing: its interval reaches 0."""
    rng = np.random.default_rng(2)
    n = 5000
    df = pd.DataFrame({"result": rng.integers(0, 2, n).astype(float),
                       "start_value": np.full(n, 0.5), "luck": rng.normal(size=n),
                       "cost_0": rng.normal(size=n), "cost_1": np.zeros(n)})  # fmt: skip
    shares = {s.component: s for s in luck_shares(df)}
    assert shares["dice"].ci_low == 0.0 and shares["choices"].ci_low == 0.0
    assert np.isnan(shares["turn order"].share)  # the same for every game


def test_an_unknown_player_is_refused(toy) -> None:
    graph, values = toy
    with pytest.raises(RulesError, match="player='expert'"):
        luck_games(graph, values, ("expert", "random"), games=10, seed=1)


@pytest.mark.slow
def test_two_pieces_luck_and_cost_on_the_smallest_board() -> None:
    graph = build_graph(duel_rules(Rules.preset("app"), 2, entry=21, home_len=1))
    _, values, _ = solve_graph(graph, sequences=2)
    assert fixed_point_gap(graph, values) < 1e-11
    for players in (("random", "random"), ("optimal", "random")):
        df = luck_games(graph, values, players, games=5000, seed=4)
        assert identity_gap(df) < 1e-12
        assert cost_per_choice(df, 1)[1] > 0  # the random role pays for its choices
