"""`engine.on_slow_compile`: the command line's notice that a first run is compiling."""

from __future__ import annotations

import time

from numba import njit
from numba.core import event

from ludosim.engine import _SlowCompile, on_slow_compile


def test_a_long_compile_calls_back_once() -> None:
    calls: list[int] = []
    listener = _SlowCompile(lambda: calls.append(1), after=0.01)
    listener.on_start(None)
    listener.on_start(None)  # a callee compiles inside
    time.sleep(0.2)
    listener.on_end(None)
    listener.on_end(None)
    listener.on_start(None)  # a later compile: already said
    time.sleep(0.2)
    listener.on_end(None)
    assert calls == [1]


def test_a_short_compile_says_nothing() -> None:
    calls: list[int] = []
    listener = _SlowCompile(lambda: calls.append(1), after=5.0)
    listener.on_start(None)
    listener.on_end(None)
    time.sleep(0.05)
    assert calls == [] and listener.timer is None


def test_numba_compiles_are_heard_and_compiled_calls_are_not() -> None:
    @njit
    def add_one(x: int) -> int:
        return x + 1

    heard: list[int] = []

    class Counting(_SlowCompile):
        def on_start(self, event: object) -> None:
            heard.append(1)
            super().on_start(event)

    listener = Counting(lambda: None, after=60.0)
    with event.install_listener("numba:compile", listener):
        add_one(1)
        assert heard and listener.depth == 0 and listener.timer is None
        heard.clear()
        add_one(2)  # compiled already: no event
    assert heard == []


def test_on_slow_compile_listens_to_numba_compile_events() -> None:
    calls: list[int] = []
    with on_slow_compile(lambda: calls.append(1), after=0.05):
        # A compile event as numba sends it, lasting longer than `after`.
        with event.trigger_event("numba:compile", data={}):
            time.sleep(0.3)
    with event.trigger_event("numba:compile", data={}):
        time.sleep(0.3)  # after the block: not listened to any more
    assert calls == [1]
