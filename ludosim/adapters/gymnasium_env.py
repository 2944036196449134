"""A Gymnasium environment: one learning seat against built-in policies.

`LudoEnv` (the optional `rl` extra: README.md, Install) plays reference
engine games in which one seat is the agent and the other seats are built-in
policies (`ludosim.rules.policies`). A step is one choice of the agent:

- observation: ``float32`` array of every piece's progress relative to its
  owner (-1 yard, 0 start square, ``goal`` in the goal), the agent's seat
  first and then the next seats clockwise, followed by `roll_slots` rolls
  (face value; the globe is 7, the star 8; 0 for an unused slot). Without
  `roll_then_move` there is one roll slot; with it the Killer roll sequence
  fills up to `roll_slots` slots (longer sequences are cut in the observation
  only).
- action: ``Discrete(max_options)``, an index into the legal options of
  `ludosim.reference.outside` (moves by piece index, or Killer plans in plan
  order); ``info["action_mask"]`` (``int8``) marks the legal indices. Under
  `roll_then_move` only the first `max_options` plans are offered.
- reward: +1 when the agent's seat wins the game (place 1; under `teams` every seat of
  the winning team), else 0, given at the end; no shaping.
- an illegal action ends the episode as a loss: reward `illegal_reward`,
  ``terminated=True``, ``info["illegal_action"] = True`` (the convention of
  PettingZoo's classic board games).
- episodes end with the game (``terminated``), or with the rules'
  `max_turns` (``truncated``).

The agent is asked only when it has two or more options; other turns are
played without it. ``reset(seed=s)`` plays game 0 of seed ``s`` (the same
seeds as `ludosim.reference.play_game`); a reset without a seed draws the
next game seed from the environment's generator, so the episode sequence
after a seeded reset is reproducible. The agent's choices draw nothing from
the game's random stream (see `ludosim.reference.outside`).

The game runs in a helper thread that waits for each action; `close()` (or
the next `reset`) stops it.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from ludosim.reference.game import GameResult, play_game
from ludosim.reference.outside import PlayerView
from ludosim.reference.plans import Plan, face_rank
from ludosim.results.schema import SEED_MAX
from ludosim.rules import checks
from ludosim.rules.board import Board
from ludosim.rules.errors import LudosimError, missing_extra
from ludosim.rules.model import Rules
from ludosim.rules.policies import resolve_policies

try:
    import gymnasium as gym
    from gymnasium import spaces
except ImportError as error:  # pragma: no cover - depends on the installation
    raise ImportError(missing_extra("ludosim.adapters.gymnasium_env", "gymnasium", "rl")) from error


class EnvError(LudosimError, ValueError):
    """A bad environment setting (seat, opponents, option counts)."""


def rules_arg(rules: Rules | None) -> Rules:
    """The `rules` argument of an environment: a `Rules`, or None for the `app` preset."""
    if rules is None:
        return Rules.preset("app")
    if not isinstance(rules, Rules):
        raise EnvError(
            f"rules must be a ludosim.Rules, e.g. Rules.preset('app'), or None for app; "
            f"got {rules!r}"
        )
    return rules


def option_sizes(rules: Rules, max_options: Any, roll_slots: Any) -> tuple[int, int]:
    """`max_options` and `roll_slots` of an environment, checked; None gives the default
    (pieces per player or 32 options, 1 or 4 roll slots under `roll_then_move`)."""
    killer = rules.roll_then_move
    if max_options is None:
        max_options = 32 if killer else rules.pieces
    if roll_slots is None:
        roll_slots = 4 if killer else 1
    return (
        checks.integer("max_options", max_options, 1, error=EnvError),
        checks.integer("roll_slots", roll_slots, 1, error=EnvError),
    )


def action_index(action: Any) -> int:
    """An action as the index of an option: an int, a NumPy integer or a 0-d integer array."""
    if isinstance(action, np.ndarray) and action.shape == () and action.dtype.kind in "iu":
        action = action.item()
    if not checks.is_integer(action):
        raise EnvError(f"action must be an integer index into the options, got {action!r}")
    return int(action)


def seed_arg(seed: Any) -> int | None:
    """The `seed` of `reset`: None, or an integer in 0..2**64-1."""
    if seed is None:
        return None
    return checks.integer("seed", seed, 0, SEED_MAX, error=EnvError, high_text="2**64-1")


class _Stop(Exception):
    """Raised inside the game thread to abandon its game."""


_STOP = object()


def encode(
    progress: Sequence[Sequence[int]], seat: int, rolls: Sequence[int | str], roll_slots: int
) -> np.ndarray:
    """The observation: progress rows from `seat` on, clockwise, then `roll_slots` rolls."""
    n = len(progress)
    rows = [p for k in range(n) for p in progress[(seat + k) % n]]
    faces = [face_rank(f) for f in rolls[:roll_slots]]
    faces += [0] * (roll_slots - len(faces))
    return np.array(rows + faces, dtype=np.float32)


class Match:
    """One game in a helper thread, paused at each choice of a waiting seat.

    `next()` returns ("choose", view, options) when a waiting seat must choose
    (then `answer(index)`), or ("done", result, None) at the end of the game.
    """

    def __init__(self, rules: Rules, seed: int, seats: Sequence[str | None], limit: int) -> None:
        """`seats`: a policy name per seat, None for a seat that waits for `answer`."""
        self.limit = limit
        self.asks: queue.Queue[tuple[str, Any, Any]] = queue.Queue()
        self.answers: queue.Queue[Any] = queue.Queue()
        policies = [self._choose if p is None else p for p in seats]
        self.thread = threading.Thread(target=self._run, args=(rules, seed, policies), daemon=True)
        self.thread.start()

    def _choose(self, view: PlayerView, options: Sequence[Plan]) -> int:
        offered = tuple(options[: self.limit])
        self.asks.put(("choose", view, offered))
        answer = self.answers.get()
        if answer is _STOP:
            raise _Stop
        return answer

    def _run(self, rules: Rules, seed: int, policies: list[Any]) -> None:
        try:
            result = play_game(rules, seed, 0, policies=policies, record=False)
        except _Stop:
            return
        except Exception as error:  # handed to the caller's thread, which raises it
            self.asks.put(("error", error, None))
            return
        self.asks.put(("done", result, None))

    def next(self) -> tuple[str, Any, Any]:
        kind, a, b = self.asks.get()
        if kind == "error":
            raise a
        return kind, a, b

    def answer(self, index: int) -> None:
        self.answers.put(index)

    def stop(self) -> None:
        if self.thread.is_alive():
            self.answers.put(_STOP)
            self.thread.join()


def _opponents(opponents: Any, players: int) -> list[str]:
    """One policy name per seat but the agent's, checked."""
    others = players - 1
    if isinstance(opponents, str):
        names = [opponents] * others
    elif isinstance(opponents, Sequence) and all(isinstance(p, str) for p in opponents):
        names = list(opponents)
    else:
        raise EnvError(
            "opponents must be a policy name (e.g. 'random') or a list of one per other "
            f"seat, got {opponents!r}"
        )
    if len(names) != others:
        raise EnvError(
            f"opponents lists {len(names)} policies; {players} players need {others}, "
            "one per seat but the agent's"
        )
    return list(resolve_policies(names, others)) if others else []


class LudoEnv(gym.Env):
    """One learning seat of a Ludo game against built-in policies (see the module docstring).

    Parameters
    ----------
    rules : the rules (default: the `app` preset).
    seat : the agent's seat.
    opponents : one policy name for every other seat, or one per other seat.
    max_options : size of the action space (default: pieces per player, or 32
        under `roll_then_move`).
    roll_slots : rolls in the observation (default 1, or 4 under `roll_then_move`).
    illegal_reward : reward of an illegal action (which ends the episode).
    """

    metadata: ClassVar[dict[str, Any]] = {"render_modes": []}

    def __init__(
        self,
        rules: Rules | None = None,
        seat: int = 0,
        opponents: str | Sequence[str] = "random",
        max_options: int | None = None,
        roll_slots: int | None = None,
        illegal_reward: float = -1.0,
    ) -> None:
        self.rules = rules_arg(rules)
        n = self.rules.players
        self.seat = checks.integer("seat", seat, 0, n - 1, error=EnvError)
        self.opponents = _opponents(opponents, n)
        self.max_options, self.roll_slots = option_sizes(self.rules, max_options, roll_slots)
        self.illegal_reward = checks.number("illegal_reward", illegal_reward, error=EnvError)
        size = n * self.rules.pieces + self.roll_slots
        goal = Board.from_rules(self.rules).goal + self.rules.tail  # lap squares follow it
        self.observation_space = spaces.Box(
            low=-1.0, high=float(max(goal, 8)), shape=(size,), dtype=np.float32
        )
        self.action_space = spaces.Discrete(self.max_options)
        self._match: Match | None = None
        self._options: tuple[Plan, ...] = ()

    # ------------------------------------------------------------ helpers
    def _seats(self) -> list[str | None]:
        seats: list[str | None] = list(self.opponents)
        seats.insert(self.seat, None)
        return seats

    def _observe(self, view: PlayerView) -> np.ndarray:
        return encode(view.progress, self.seat, view.rolls, self.roll_slots)

    def _final(self, result: GameResult) -> np.ndarray:
        return encode(result.final, self.seat, (), self.roll_slots)

    def _mask(self) -> np.ndarray:
        mask = np.zeros(self.max_options, dtype=np.int8)
        mask[: len(self._options)] = 1
        return mask

    def _advance(self) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        assert self._match is not None
        kind, a, b = self._match.next()
        if kind == "choose":
            self._options = b
            return self._observe(a), 0.0, False, False, {"action_mask": self._mask()}
        result: GameResult = a
        self._options = ()
        self._match = None
        reward = 1.0 if result.places[self.seat] == 1 else 0.0
        info = {
            "action_mask": self._mask(),
            "place": result.places[self.seat],
            "winner": result.winner,
        }
        return self._final(result), reward, not result.truncated, result.truncated, info

    # ------------------------------------------------------------ the API
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        seed = seed_arg(seed)
        super().reset(seed=seed)
        self.close()
        game_seed = seed if seed is not None else int(self.np_random.integers(0, 2**62))
        self._match = Match(self.rules, game_seed, self._seats(), self.max_options)
        obs, _, terminated, truncated, info = self._advance()
        while terminated or truncated:
            # A game without a single choice for the agent: play the next seed.
            game_seed = int(self.np_random.integers(0, 2**62))
            self._match = Match(self.rules, game_seed, self._seats(), self.max_options)
            obs, _, terminated, truncated, info = self._advance()
        return obs, info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._match is None:
            raise EnvError("step: the episode is over; call reset() first")
        index = action_index(action)
        if not 0 <= index < len(self._options):
            self.close()
            obs = np.zeros(self.observation_space.shape, dtype=np.float32)
            info = {"action_mask": self._mask(), "illegal_action": True}
            return obs, self.illegal_reward, True, False, info
        self._match.answer(index)
        return self._advance()

    def close(self) -> None:
        if self._match is not None:
            self._match.stop()
            self._match = None
        self._options = ()
