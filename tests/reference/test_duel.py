"""The exact duel solver (`ludosim.reference.duel`): the kernel's games, probabilities, skill room.

The kernel checks compare the exact first-mover win probability of random
play with the share of `ludosim.simulate` games the first mover won, within
the 99% normal interval of that share (seeds fixed). One piece a side gives
no choice at all, so optimal play is random play exactly there; the choices
of two pieces are checked on the smallest two-piece board under
`make verify` (about two minutes of building on 2 cores).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import ludosim
from ludosim.reference.duel import clairvoyant, solve_duel, values
from ludosim.reference.duelgraph import build_graph, duel_rules
from ludosim.reference.duelvalues import BEST, RANDOM, WORST
from ludosim.rules.errors import RulesError
from ludosim.rules.model import Rules

Z99 = 2.5758293035489


def _first_mover_agrees(rules: Rules, exact: float, games: int, seed: int) -> None:
    df = ludosim.simulate(rules, games=games, seed=seed)
    assert not df["truncated"].any()
    share = float((df["winner"] == df["first"]).mean())
    half = Z99 * math.sqrt(exact * (1 - exact) / games)
    assert abs(share - exact) <= half, (share, exact, half)


@pytest.mark.parametrize("preset", ["app", "danish", "maedn"])
def test_random_play_agrees_with_the_kernel_one_piece(preset: str) -> None:
    rules = duel_rules(Rules.preset(preset), 1)
    result = solve_duel(rules, sequences=2)
    _first_mover_agrees(rules, result.random_first, games=20_000, seed=11)


def test_values_are_probabilities_at_every_node() -> None:
    graph = build_graph(duel_rules(Rules.preset("danish-globe"), 1))
    for policies in ((RANDOM, RANDOM), (BEST, RANDOM), (BEST, WORST)):
        x, y, _, change = values(graph, *policies)
        assert change <= 1e-13
        assert np.all((x >= 0) & (x <= 1 + 1e-12)) and np.all((y >= -1e-12) & (y <= 1))


def test_a_game_without_choices_has_no_skill_room() -> None:
    """One piece a side: every roll has at most one legal move, so optimal play, best
    play by both and random play are the same numbers exactly, and knowing the dice
    changes nothing either: on one dice sequence the first mover wins or loses, so
    the clairvoyant's two positions add up to 1 on every sequence."""
    result = solve_duel(duel_rules(Rules.preset("app"), 1), sequences=200, seed=3)
    assert result.choices == 0
    assert result.optimal_first == result.random_first
    assert result.optimal_second == result.random_second
    assert result.minimax_first == result.random_first
    assert result.w_optimal == pytest.approx(0.5, abs=1e-12)
    assert result.w_clairvoyant == pytest.approx(0.5, abs=1e-12)
    assert math.isnan(result.rs)


def test_the_opening_is_the_first_movers_advantage() -> None:
    result = solve_duel(duel_rules(Rules.preset("maedn"), 1), sequences=2)
    assert 0.5 < result.random_first < 1
    assert result.random_first + result.random_second == pytest.approx(1, abs=1e-12)


@pytest.mark.parametrize(
    ("preset", "changes", "toggle"),
    [
        ("killer", {}, "roll_then_move"),
        ("app", {"move_limit": 50, "scoring": "steps"}, "move_limit"),
        ("capture-home", {}, "home_unlock"),
        ("app", {"seating": (0, 1)}, "seating"),
    ],
)
def test_rules_a_duel_cannot_hold_are_refused_naming_the_toggle(
    preset: str, changes: dict, toggle: str
) -> None:
    rules = duel_rules(Rules.preset(preset), 1, **changes)
    with pytest.raises(RulesError, match=toggle):
        solve_duel(rules, sequences=2)


def test_more_than_two_players_is_refused() -> None:
    with pytest.raises(RulesError, match="players=4"):
        solve_duel(Rules.preset("app"), sequences=2)


@pytest.fixture(scope="module")
def two_pieces() -> tuple[Rules, object]:
    """The smallest two-piece board: entry 21 (the lap's last arm), one home square."""
    rules = duel_rules(Rules.preset("app"), 2, entry=21, home_len=1)
    return rules, build_graph(rules)


@pytest.mark.slow
def test_two_pieces_optimal_beats_random_and_the_clairvoyant_beats_optimal(two_pieces) -> None:
    rules, graph = two_pieces
    s = graph.start
    rx, _, _, _ = values(graph, RANDOM, RANDOM)
    ox, oy, _, _ = values(graph, BEST, RANDOM)
    mx, _, _, _ = values(graph, BEST, WORST)
    assert graph.choices > 0
    # Every node: the optimal player does at least as well as a random one.
    assert np.all(ox >= rx - 1e-11)
    assert ox[s] > rx[s] and oy[s] > 1 - rx[s]
    assert 0 < mx[s] < 1
    seen = clairvoyant(graph, ox, oy, sequences=300, horizon=400, seed=5)
    assert np.all((seen >= 0) & (seen <= 1))
    w = seen.mean(axis=1)
    half = Z99 * w.std(ddof=1) / math.sqrt(len(w))
    assert w.mean() + half >= 0.5 * (ox[s] + oy[s])
    _first_mover_agrees(rules, float(rx[s]), games=20_000, seed=13)


def test_the_clairvoyant_gives_the_same_values_whatever_the_threads() -> None:
    import numba

    graph = build_graph(duel_rules(Rules.preset("maedn"), 1))
    x, y, _, _ = values(graph, BEST, RANDOM)
    before = numba.get_num_threads()
    try:
        numba.set_num_threads(1)
        one = clairvoyant(graph, x, y, sequences=40, horizon=200, seed=3)
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
        many = clairvoyant(graph, x, y, sequences=40, horizon=200, seed=3)
    finally:
        numba.set_num_threads(before)
    assert np.array_equal(one, many)
