"""The expert's games checked in the reference engine (docs/expert.md, "Reference check").

The reference engine cannot afford the expert's rollouts, so it replays them:
the kernel plays a game and records each searched choice (`kernel_game_choices`),
and the reference engine plays the same game with an outside player in each
expert seat that returns those choices in order (`ReplayedChoices`). The outside
player checks that every decision offers as many options as the kernel's did,
and `replay` that every recorded choice was used; the two game rows must then
be identical.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ludosim.reference.outside import PlayerView
from ludosim.reference.plans import Plan
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.policies import parse_policy, resolve_policies


class ReplayError(LudosimError, ValueError):
    """The reference engine's game left the expert's recorded choices."""


class ReplayedChoices:
    """An outside player that plays the recorded choices `(options, chosen)` in order.

    One instance serves every expert seat of a game: their searched decisions
    are recorded in the order the game made them.
    """

    def __init__(self, choices: Sequence[tuple[int, int]]) -> None:
        self.choices = list(choices)
        self.used = 0

    def __call__(self, view: PlayerView, options: Sequence[Plan]) -> int:
        if self.used >= len(self.choices):
            raise ReplayError(
                f"seat {view.seat} has a decision ({len(options)} options, rolls "
                f"{view.rolls}) after the kernel's {len(self.choices)} recorded choices"
            )
        offered, chosen = self.choices[self.used]
        if offered != len(options) or not 0 <= chosen < len(options):
            raise ReplayError(
                f"choice {self.used} of seat {view.seat}: the kernel chose {chosen} of "
                f"{offered} options, the reference offers {len(options)}"
            )
        self.used += 1
        return chosen


def replay(
    rules: Rules,
    seed: int,
    game: int,
    policies: str | Sequence[str],
    choices: Sequence[tuple[int, int]],
    *,
    start: Any = None,
    start_seat: int | None = None,
) -> tuple[dict[str, Any], list[list[int]]]:
    """The reference engine's game with the expert seats replaying `choices`:
    (its row, final progress), as `reference.play_game(...)` `.row()` and `.final`."""
    # The reference engine is loaded only when a game is replayed.
    from ludosim.reference import play_game

    names = resolve_policies(policies, rules.players)
    player = ReplayedChoices(choices)
    seats: list[Any] = [player if parse_policy(n).is_expert else n for n in names]
    result = play_game(
        rules, seed, game=game, policies=seats, start=start, start_seat=start_seat, record=False
    )
    if player.used != len(player.choices):
        raise ReplayError(
            f"the reference game used {player.used} of the kernel's "
            f"{len(player.choices)} recorded choices"
        )
    return result.row(), result.final
