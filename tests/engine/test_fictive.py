"""The fictive player (`fictive[:H]`, docs/expert.md "The fictive player"): the expert's
search with one rollout per option, drawn from the game's own stream, so that it
knows the dice to come. Its replay by the reference engine and its determinism over
threads are checked with the expert's (tests/engine/test_expert.py, `SEARCHERS`)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from ludosim.cli.app import app
from ludosim.reference import play_game
from ludosim.results.stats import Z95, wilson_interval
from ludosim.rules.model import Rules
from ludosim.rules.policies import PolicyError, parse_policy
from ludosim.run.simulate import kernel_game, kernel_game_choices

SEED = 11


@pytest.mark.parametrize(
    ("name", "canonical", "horizon"),
    [
        ("fictive", "fictive", 24),
        ("fictive:24", "fictive", 24),
        (" fictive:8 ", "fictive:8", 8),
        ("fictive:0", "fictive:0", 0),
    ],
)
def test_fictive_names(name: str, canonical: str, horizon: int) -> None:
    policy = parse_policy(name)
    assert (policy.name, policy.rollouts, policy.horizon, policy.fictive) == (
        canonical,
        1,
        horizon,
        True,
    )
    # It plays and is replayed as the expert is: a searching seat of the kernel.
    assert policy.is_expert
    assert not parse_policy("expert").fictive


@pytest.mark.parametrize("name", ["fictive:-1", "fictive:many", "fictive:10001", "fictive:4:8"])
def test_a_bad_fictive_spelling_is_one_clear_line(name: str) -> None:
    with pytest.raises(PolicyError, match=r"H must be an integer in 0\.\.10000.*write fictive"):
        parse_policy(name)
    result = CliRunner().invoke(
        app, ["simulate", "--preset", "app", "--games", "4", "--seed", "1", "--policy", name]
    )
    assert result.exit_code == 2
    assert len(result.stderr.strip().splitlines()) == 1
    assert "write fictive or fictive:H" in result.stderr


def test_the_fictive_player_is_refused_by_the_reference_engine_by_name() -> None:
    with pytest.raises(PolicyError, match="policy 'fictive:8' plays in the compiled kernel only"):
        play_game(Rules.preset("app"), SEED, policies=["random", "fictive:8", "random", "random"])


def test_the_fictive_player_is_listed() -> None:
    result = CliRunner().invoke(app, ["policies"])
    assert result.exit_code == 0
    assert "fictive:H" in result.stdout


def test_a_fictive_search_plays_on_the_games_own_stream_and_leaves_it() -> None:
    """Every option's one rollout starts from the game's stream (its key and draws) and
    draws on from it; the game's stream and position are as they were; the option
    played is the one of the best rollout, the base policy's among equal best."""
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.expert import offer_options, policy_option, search
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.position import reset_state
    from ludosim.engine.rng import new_stream
    from ludosim.engine.state import (
        DUMMY,
        MOVES,
        PROGRESS,
        SEATBUF,
        XOPT,
        XV,
        XVALUE,
        X,
        expert_at,
        value_at,
    )
    from ludosim.engine.turn import free_play, roll

    rules = Rules.preset("app")
    lay = compile_layout(rules)
    start = np.array([[0, 5, 12, -1], [3, -1, -1, -1], [20, 30, -1, -1], [-1, -1, -1, -1]])
    fictive = parse_policy("fictive")
    w = new_work(
        compile_policies([parse_policy("tuned-app")] * 4),
        start,
        0,
        ((fictive.rollouts, fictive.horizon, 1), (0, 0, 0)),
    )
    reset_state(lay, w, True)
    stream = new_stream(np.uint64(SEED), np.uint64(0))
    scratch = np.zeros(2, dtype=np.uint64)
    free = bool(free_play(lay))
    face = roll(lay, w, stream)
    options, pending, sixes = offer_options(lay, w, 0, face), 0, int(face == 6)
    assert options >= 2
    game = w.copy()
    drawn = stream.copy()
    chosen = search(lay, w, 0, stream, scratch, free, options, face, pending, sixes, 1)
    assert stream.tolist() == drawn.tolist()  # the game's stream: not one more draw
    # The last rollout drew on from the game's own key and draw count, not a stream of its own.
    assert scratch[0] == stream[0] and scratch[1] > stream[1]
    assert w[PROGRESS:DUMMY].tolist() == game[PROGRESS:DUMMY].tolist()
    assert w[SEATBUF:MOVES].tolist() == game[SEATBUF:MOVES].tolist()
    assert w[XOPT:XVALUE].tolist() == game[XOPT:XVALUE].tolist()
    assert w[expert_at(X.DECISIONS)] == 1
    values = [int(w[value_at(j, XV.LAST)]) for j in range(options)]
    base = policy_option(lay, w, 0, options)
    assert w[value_at(base, XV.SUM)] == 0  # one rollout: sums are differences from the base's
    best = max(values)
    expected = base if values[base] == best else values.index(best)
    assert chosen == expected, (values, base)


def test_a_fictive_plan_search_plays_on_the_games_own_stream_and_leaves_it() -> None:
    """Killer: the candidate plans are played out once each on the game's stream."""
    from ludosim.engine import compile_layout, new_work
    from ludosim.engine.expert import compare_rollouts, list_candidates
    from ludosim.engine.policy import compile_policies
    from ludosim.engine.position import reset_state
    from ludosim.engine.rng import new_stream
    from ludosim.engine.state import (
        DUMMY,
        MEMO_SLOTS,
        PLAN_CANDIDATES,
        PROGRESS,
        XV,
        roll_at,
        value_at,
    )

    rules = Rules.preset("killer")
    lay = compile_layout(rules)
    start = [[3, 10, 30, -1], [8, 20, -1, -1], [25, 40, 45, -1], [14, -1, -1, -1]]
    policies = compile_policies([parse_policy("tuned-killer")] * 4)
    w = new_work(policies, np.array(start), MEMO_SLOTS, ((1, 6, 1),))
    reset_state(lay, w, True)
    for j, face in enumerate([6, 6, 3]):
        w[roll_at(j)] = face
    kept = min(list_candidates(lay, w, 0, 3), PLAN_CANDIDATES)
    assert kept == PLAN_CANDIDATES
    stream = new_stream(np.uint64(SEED), np.uint64(0))
    stream[1] = np.uint64(3)  # the three rolls drawn
    scratch = np.zeros(2, dtype=np.uint64)
    game = w.copy()
    drawn = stream.copy()
    chosen = compare_rollouts(lay, w, 0, stream, scratch, False, True, kept, 0, 0, 0, 0, 1)
    assert stream.tolist() == drawn.tolist()
    assert scratch[0] == stream[0] and scratch[1] > stream[1]
    assert w[PROGRESS:DUMMY].tolist() == game[PROGRESS:DUMMY].tolist()
    values = [int(w[value_at(c, XV.LAST)]) for c in range(kept)]
    # From the base policy's best candidate (0), the first of the best values.
    expected = 0 if values[0] == max(values) else values.index(max(values))
    assert chosen == expected, values


def test_with_forced_moves_only_the_fictive_seat_is_a_random_seat() -> None:
    """With one piece every decision has one option: nothing is searched, and nothing is
    drawn from the game's stream for it, so the game is the one with `random` (which
    draws nothing for one option either) or the base policy in that seat."""
    rules = Rules.preset("app").replace(pieces=1)
    policies = ["tuned-app", "fictive:0", "tuned-app", "tuned-app"]
    row, final, choices = kernel_game_choices(rules, SEED, 2, policies)
    assert choices == []
    for instead in ("random", "balanced"):
        assert kernel_game(rules, SEED, 2, [*policies[:1], instead, *policies[2:]]) == (row, final)


def _wins(rules: Rules, policies: list[str], seat: int, games: int) -> int:
    return sum(kernel_game(rules, SEED, g, policies)[0]["winner"] == seat for g in range(games))


def _difference_interval(a: int, b: int, n: int) -> tuple[float, float]:
    """95% normal interval of the difference of two win rates of `n` games each."""
    p, q = a / n, b / n
    half = Z95 * math.sqrt(p * (1 - p) / n + q * (1 - q) / n)
    return p - q - half, p - q + half


def test_the_fictive_player_beats_random_players_far_more_often_than_the_expert() -> None:
    """Against three random players, on the same 300 games of `app` (seed 11)."""
    rules, n = Rules.preset("app"), 300
    fictive = _wins(rules, ["fictive", "random", "random", "random"], 0, n)
    expert = _wins(rules, ["expert", "random", "random", "random"], 0, n)
    low, high = _difference_interval(fictive, expert, n)
    assert low > 0.05, (
        f"fictive won {fictive}/{n}, the expert {expert}/{n}: difference "
        f"{(fictive - expert) / n:.3f}, 95% CI {low:.3f}-{high:.3f}, not above 0.05"
    )


def test_the_fictive_player_beats_the_expert_head_to_head() -> None:
    """Two players of `app`, 200 games with each seat order (seed 11)."""
    rules, n = Rules.preset("app").replace(players=2), 200
    wins = _wins(rules, ["fictive", "expert"], 0, n) + _wins(rules, ["expert", "fictive"], 1, n)
    low, high = wilson_interval(wins, 2 * n)
    assert low > 0.5, (
        f"fictive won {wins}/{2 * n} against the expert: {wins / (2 * n):.3f}, "
        f"95% CI {low:.3f}-{high:.3f}, not above parity 0.5"
    )
