"""The entry points' calls skip numba's re-typing once a compiled copy is found."""

from __future__ import annotations

import numpy as np
from numba import literally, njit
from numba.core import event

from ludosim.engine.dispatch import LiteralKernel
from ludosim.rules.model import Rules
from ludosim.run.simulate import kernel_game, simulate


class _Typings(event.Listener):
    """Counts numba's compile events: each call through the dispatcher of a function
    asking for literals starts one, even when the copy is already compiled."""

    def __init__(self) -> None:
        self.count = 0

    def on_start(self, ev: event.Event) -> None:
        self.count += 1

    def on_end(self, ev: event.Event) -> None:
        pass


@njit
def _scaled(values: np.ndarray, by: int, negate: bool) -> int:
    literally(negate)
    total = values.sum() * by
    return -total if negate else total


def test_a_found_copy_is_called_without_typing_and_answers_as_the_dispatcher() -> None:
    kernel = LiteralKernel(_scaled, literal=[2])
    values = np.arange(5)
    assert kernel(values, 3, True) == _scaled(values, 3, True) == -30
    typings = _Typings()
    with event.install_listener("numba:compile", typings):
        assert kernel(values, 2, True) == -20  # the copy found: no typing
        assert typings.count == 0
        assert _scaled(values, 2, True) == -20  # the dispatcher types on every call
        assert typings.count > 0
        seen = typings.count
        assert kernel(values, 2, False) == 20  # another flag value: through the dispatcher
        assert typings.count > seen
        seen = typings.count
        assert kernel(values, 4, False) == 40
        assert typings.count == seen
    # Another argument type is another copy, looked up anew.
    assert kernel(np.arange(5.0), 1, False) == 10.0


def test_the_engines_entry_points_play_the_same_games_found_or_not() -> None:
    import ludosim.engine as engine

    rules = Rules.preset("danish")
    rows = simulate(rules, 6, seed=3, policies="balanced")
    kernel_game(rules, 3, 0, policies="balanced")  # finds the copy
    typings = _Typings()
    with event.install_listener("numba:compile", typings):
        games = [kernel_game(rules, 3, g, policies="balanced")[0] for g in range(6)]
        assert typings.count == 0
        assert simulate(rules, 6, seed=3, policies="balanced").equals(rows)
        assert typings.count == 0
    assert [g["turns"] for g in games] == rows["turns"].tolist()
    assert isinstance(engine.run_batch, LiteralKernel)
