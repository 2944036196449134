"""A PettingZoo AEC environment: every seat is a learning agent.

`LudoAEC` (the optional `pettingzoo` extra: README.md, Install) plays
reference engine games in which the agents ``player_0 .. player_<n-1>`` hold
the seats. It follows the conventions of PettingZoo's classic board games:

- ``observe(agent)`` is a dict: ``"observation"``, the `ludosim.adapters.gymnasium_env`
  encoding from that agent's seat (its pieces first, then the next seats
  clockwise, then the rolls it must play, zeros unless it is the agent to
  move), and ``"action_mask"`` (``int8``) marking its legal options (all zero
  unless it is the agent to move).
- ``agent_selection`` is the agent facing a choice. Agents are asked only
  when they have two or more options, so turns do not simply alternate.
- rewards: +1 to the winner (place 1; under `teams` its partners too) and 0 to the
  others, at the end; an illegal action ends the game with -1 to the offender and 0 to
  the others.
- at the end every agent is terminated (or truncated when the rules'
  `max_turns` cut the game short) and is stepped with ``None`` to leave.

``reset(seed=s)`` plays game 0 of seed `s`; the agents' choices draw nothing
from the game's random stream (see `ludosim.reference.outside`).
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ludosim.adapters.gymnasium_env import (
    EnvError,
    Match,
    action_index,
    encode,
    option_sizes,
    rules_arg,
    seed_arg,
)
from ludosim.reference.game import GameResult
from ludosim.reference.outside import PlayerView
from ludosim.reference.plans import Plan
from ludosim.rules.board import Board
from ludosim.rules.errors import missing_extra
from ludosim.rules.model import Rules

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(
        missing_extra("ludosim.adapters.pettingzoo_env", "pettingzoo", "pettingzoo")
    ) from error


class LudoAEC(AECEnv):
    """Every seat of a Ludo game is an agent (see the module docstring).

    Parameters
    ----------
    rules : the rules (default: the `app` preset).
    max_options : size of each action space (default: pieces per player, or 32
        under `roll_then_move`, where only the first `max_options` plans are offered).
    roll_slots : rolls in the observation (default 1, or 4 under `roll_then_move`).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": [], "name": "ludosim_v0"}

    def __init__(
        self,
        rules: Rules | None = None,
        max_options: int | None = None,
        roll_slots: int | None = None,
    ) -> None:
        super().__init__()
        self.rules = rules_arg(rules)
        self.max_options, self.roll_slots = option_sizes(self.rules, max_options, roll_slots)
        n = self.rules.players
        self.possible_agents = [f"player_{s}" for s in range(n)]
        size = n * self.rules.pieces + self.roll_slots
        high = float(max(Board.from_rules(self.rules).goal + self.rules.tail, 8))
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(-1.0, high, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.max_options,), dtype=np.int8),
            }
        )
        self._action_space = spaces.Discrete(self.max_options)
        self._match: Match | None = None
        self._view: PlayerView | None = None
        self._options: tuple[Plan, ...] = ()
        self._final: list[list[int]] | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space:
        return self._observation_space

    def action_space(self, agent: str) -> spaces.Space:
        return self._action_space

    # ------------------------------------------------------------ helpers
    def _seat(self, agent: str) -> int:
        if agent not in self.possible_agents:
            raise EnvError(f"agent must be one of {', '.join(self.possible_agents)}, got {agent!r}")
        return self.possible_agents.index(agent)

    def _to_move(self, agent: str) -> bool:
        return self._view is not None and self._view.seat == self._seat(agent)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seat(agent)
        mask = np.zeros(self.max_options, dtype=np.int8)
        if self._to_move(agent):
            assert self._view is not None
            mask[: len(self._options)] = 1
            obs = encode(self._view.progress, seat, self._view.rolls, self.roll_slots)
        elif self._view is not None:
            obs = encode(self._view.progress, seat, (), self.roll_slots)
        else:
            final = self._final or [[-1] * self.rules.pieces for _ in self.possible_agents]
            obs = encode(final, seat, (), self.roll_slots)
        return {"observation": obs, "action_mask": mask}

    def _advance(self) -> None:
        """Run the game to the next choice, or settle the end of the game."""
        assert self._match is not None
        kind, a, b = self._match.next()
        if kind == "choose":
            self._view, self._options = a, b
            self.agent_selection = self.possible_agents[a.seat]
            return
        result: GameResult = a
        self._match = None
        self._final = [row[:] for row in result.final]
        self._view, self._options = None, ()
        for s, agent in enumerate(self.possible_agents):
            self.rewards[agent] = 1.0 if result.places[s] == 1 else 0.0
            self.terminations[agent] = not result.truncated
            self.truncations[agent] = result.truncated
            self.infos[agent] = {"place": result.places[s], "winner": result.winner}

    def _start(self, seed: int) -> None:
        self._match = Match(self.rules, seed, [None] * self.rules.players, self.max_options)
        self._final = None
        self._advance()

    # ------------------------------------------------------------ the API
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        seed = seed_arg(seed)
        self.close()
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self.agents[0]
        self._start(seed if seed is not None else int(self._rng.integers(0, 2**62)))
        while self._match is None:
            # A game in which no agent ever had a choice: play the next seed.
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self._start(int(self._rng.integers(0, 2**62)))

    def step(self, action: Any) -> None:
        if not getattr(self, "agents", None):  # set by reset(); emptied as agents are done
            raise EnvError("step: no game is running; call reset() first")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        assert self._match is not None
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        index = -1 if action is None else action_index(action)
        if not 0 <= index < len(self._options):
            self.close()
            self._view, self._options = None, ()
            for other in self.agents:
                self.rewards[other] = -1.0 if other == agent else 0.0
                self.terminations[other] = True
                self.infos[other] = {"illegal_action": other == agent}
        else:
            self._match.answer(index)
            self._advance()
        self._accumulate_rewards()

    def close(self) -> None:
        if self._match is not None:
            self._match.stop()
            self._match = None
