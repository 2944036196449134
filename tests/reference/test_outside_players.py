"""Outside players in the reference engine, and the Gymnasium environment."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from ludosim.reference import Game, OutsidePlayerError, Plan, PlayerView, play_game
from ludosim.rules.model import Rules


def first_option(view: PlayerView, options: Sequence[Plan]) -> int:
    return 0


@pytest.mark.parametrize("preset", ["app", "killer"])
def test_an_outside_player_plays_a_whole_game_in_every_seat(preset: str) -> None:
    rules = Rules.preset(preset)
    seen: list[tuple[PlayerView, int]] = []

    def player(view: PlayerView, options: Sequence[Plan]) -> int:
        seen.append((view, len(options)))
        return 0

    result = play_game(rules, 5, policies=[player, "balanced", player, "random"], record=False)
    assert sorted(result.places) == [1, 2, 3, 4]
    assert seen, "the outside seats never had a choice"
    for view, count in seen:
        assert view.seat in (0, 2) and count >= 2
        assert view.own_first()[0] == view.progress[view.seat]
        assert all(-1 <= p <= view.goal for row in view.progress for p in row)
    if rules.roll_then_move:
        assert any(len(view.rolls) > 1 for view, _ in seen)


def test_outside_player_options_are_the_legal_ones_and_it_gets_what_it_picks() -> None:
    """The last option is played: the transcript shows that piece moving with that face."""
    rules = Rules.preset("app")
    picks: list[tuple[int, int | str]] = []

    def last(view: PlayerView, options: Sequence[Plan]) -> int:
        assert all(len(o.steps) == 1 for o in options)
        pieces = [o.steps[0][0] for o in options]
        assert pieces == sorted(set(pieces))
        picks.append(options[-1].steps[0])
        return len(options) - 1

    result = play_game(rules, 2, policies=[last, "random", "random", "random"])
    assert picks
    assert sorted(result.places) == [1, 2, 3, 4]


@pytest.mark.parametrize("bad", [7, -1, "0", None, True, 1.0])
def test_an_illegal_choice_is_refused(bad: object) -> None:
    def player(view: PlayerView, options: Sequence[Plan]) -> object:
        return bad

    with pytest.raises(OutsidePlayerError, match="outside player in seat 0 returned"):
        play_game(Rules.preset("app"), 1, policies=[player, "random", "random", "random"])


def test_a_numpy_integer_is_accepted() -> None:
    def player(view: PlayerView, options: Sequence[Plan]) -> np.int64:
        return np.int64(0)

    result = play_game(Rules.preset("app"), 1, policies=[player, "random", "random", "random"])
    assert sorted(result.places) == [1, 2, 3, 4]


def test_no_choice_no_draw_the_game_equals_the_random_game() -> None:
    """One piece and single rolls: never two options, so `random` draws nothing either."""
    rules = Rules.preset("app").replace(pieces=1)
    for seed in range(3):
        outside = play_game(rules, seed, policies=[first_option, "random", "balanced", "random"])
        builtin = play_game(rules, seed, policies=["random", "random", "balanced", "random"])
        assert outside.transcript == builtin.transcript
        assert outside.places == builtin.places


@pytest.mark.parametrize("seed", range(3))
def test_the_dice_agree_with_random_up_to_the_first_real_choice(seed: int) -> None:
    """Up to the outside seat's first choice of two or more options the games are identical;
    `random` then draws `below(k)` from the stream and the outside player does not."""
    rules = Rules.preset("app")
    asked: list[int] = []

    def player(view: PlayerView, options: Sequence[Plan]) -> int:
        asked.append(len(game.transcript))  # transcript lines written before the choice
        return 0

    game = Game(rules, seed, 0, [player, "random", "balanced", "random"])
    outside = game.play()
    builtin = play_game(rules, seed, policies=["random", "random", "balanced", "random"])
    assert asked
    first = asked[0]
    assert first > 0
    assert outside.transcript[:first] == builtin.transcript[:first]
    assert outside.transcript != builtin.transcript


def test_same_seed_same_outside_choices_same_game() -> None:
    rules = Rules.preset("killer")
    a = play_game(rules, 9, policies=first_option)
    b = play_game(rules, 9, policies=first_option)
    assert a.transcript == b.transcript


# ---------------------------------------------------------------- Gymnasium
gym = pytest.importorskip("gymnasium")


@pytest.mark.parametrize("preset", ["app", "killer"])
def test_env_passes_gymnasium_check_env(preset: str) -> None:
    from gymnasium.utils.env_checker import check_env

    from ludosim.adapters.gymnasium_env import LudoEnv

    env = LudoEnv(Rules.preset(preset), opponents="balanced")
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


def _episode(env: object, seed: int, agent_seed: int) -> tuple[list[np.ndarray], float, dict]:
    rng = np.random.default_rng(agent_seed)
    obs, info = env.reset(seed=seed)  # type: ignore[attr-defined]
    observations = [obs]
    done = False
    while not done:
        assert env.observation_space.contains(obs)  # type: ignore[attr-defined]
        legal = np.flatnonzero(info["action_mask"])
        assert len(legal) >= 2
        obs, reward, terminated, truncated, info = env.step(rng.choice(legal))  # type: ignore[attr-defined]
        observations.append(obs)
        done = terminated or truncated
    return observations, reward, info


def test_env_random_agent_plays_episodes_to_the_end_and_reset_reproduces() -> None:
    from ludosim.adapters.gymnasium_env import LudoEnv

    env = LudoEnv(Rules.preset("app"), seat=1, opponents=["runner", "random", "balanced"])
    try:
        rewards = []
        for seed in range(3):
            _, reward, info = _episode(env, seed, seed)
            assert reward == (1.0 if info["place"] == 1 else 0.0)
            rewards.append(reward)
        first, r1, i1 = _episode(env, 11, 0)
        again, r2, i2 = _episode(env, 11, 0)
        assert len(first) == len(again) and r1 == r2 and i1["place"] == i2["place"]
        assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    finally:
        env.close()


def test_env_illegal_action_ends_the_episode_as_a_loss() -> None:
    from ludosim.adapters.gymnasium_env import LudoEnv

    env = LudoEnv(Rules.preset("app"), max_options=8)  # 4 pieces: index 7 is never legal
    try:
        _, info = env.reset(seed=0)
        assert info["action_mask"][7] == 0
        _, reward, terminated, truncated, info = env.step(7)
        assert (reward, terminated, truncated, info["illegal_action"]) == (-1.0, True, False, True)
    finally:
        env.close()


# ---------------------------------------------------------------- PettingZoo
@pytest.mark.parametrize("preset", ["app", "killer"])
def test_aec_env_passes_pettingzoo_api_and_seed_tests(preset: str) -> None:
    pytest.importorskip("pettingzoo")
    from pettingzoo.test import api_test, seed_test

    from ludosim.adapters.pettingzoo_env import LudoAEC

    env = LudoAEC(Rules.preset(preset))
    try:
        api_test(env, num_cycles=300)
    finally:
        env.close()
    seed_test(lambda: LudoAEC(Rules.preset(preset)), num_cycles=100)


def test_aec_four_random_agents_play_to_the_end_and_the_winner_scores() -> None:
    pytest.importorskip("pettingzoo")
    from ludosim.adapters.pettingzoo_env import LudoAEC

    env = LudoAEC(Rules.preset("app"))
    rng = np.random.default_rng(1)
    env.reset(seed=5)
    totals = dict.fromkeys(env.possible_agents, 0.0)
    places = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        totals[agent] += reward
        if terminated or truncated:
            places[agent] = info["place"]
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        assert len(legal) >= 2
        env.step(int(rng.choice(legal)))
    assert env.agents == []
    assert sorted(places.values()) == [1, 2, 3, 4]
    assert totals == {a: 1.0 if places[a] == 1 else 0.0 for a in env.possible_agents}
    env.close()
