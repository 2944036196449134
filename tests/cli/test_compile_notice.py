"""The command line's notice that a first run is compiling: `engine.on_slow_compile`, and
`run.warm.compile_notice`, which names the kind of game and its measured compile time;
`run.warm.warm`, which compiles the kinds ahead."""

from __future__ import annotations

import io
import time
from types import SimpleNamespace

from numba import literally, njit
from numba.core import event, types

from ludosim.engine import _SlowCompile, on_slow_compile
from ludosim.run import warm


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


# ------------------------------------------------------------ the kind and its measured time
def _runner_compile(name: str, flags: tuple[bool, ...] | None) -> dict[str, object]:
    """A numba compile event's data for a runner: its four kind flags as literals, or (the
    typing pass) as plain booleans, and `flow` (a run-time switch) between them as ever."""

    def function() -> None: ...

    function.__name__ = name
    flag_types = (types.boolean,) * 4 if flags is None else tuple(types.literal(f) for f in flags)
    flag_types = (*flag_types[:3], types.boolean, flag_types[3])  # `flow` before `expert`
    return {"dispatcher": SimpleNamespace(py_func=function), "args": (types.int64, *flag_types)}


EXPERT = (False, False, True, True)


def test_the_notice_names_the_kind_compiling_and_its_measured_time() -> None:
    heard: list[warm.Kind | None] = []
    with warm.compile_notice(heard.append, after=0.05):
        # The typing pass with plain booleans stops to ask for literals: never timed.
        with event.trigger_event("numba:compile", data=_runner_compile("run_batch", None)):
            time.sleep(0.3)
        assert heard == []
        with event.trigger_event("numba:compile", data=_runner_compile("run_batch", EXPERT)):
            time.sleep(0.3)
    assert heard == [warm.kind_of(EXPERT)]
    text = warm.notice_text(heard[0])
    seconds = warm.kind_of(EXPERT).seconds
    assert "the expert" in text and f"about {seconds:.0f} s" in text and "15-30" not in text


def test_a_compile_of_no_runner_gets_the_plain_notice() -> None:
    heard: list[warm.Kind | None] = []
    with warm.compile_notice(heard.append, after=0.05):
        with event.trigger_event("numba:compile", data={}):
            time.sleep(0.3)
    assert heard == [None]
    assert "compiling" in warm.notice_text(None) and " s " not in warm.notice_text(None)


def test_numba_reports_a_runner_with_its_flags_as_literals() -> None:
    """What the notice reads from numba: a function asking for literal flags is typed
    twice, first with plain booleans (no kind yet), then with the literals."""

    @njit
    def run_batch(x, plans, free, scoring, flow, expert):  # a runner's name and flags
        literally(plans)
        literally(free)
        literally(scoring)
        literally(expert)  # `flow` is a run-time switch: no literal
        return x + 1 if flow else x

    seen: list[tuple[warm.Kind | None, bool]] = []

    class Recording(warm._Notice):
        def on_start(self, event: event.Event) -> None:
            if self.depth == 0:
                seen.append(warm._kind_compiled(event.data))
            super().on_start(event)

    plans, free, scoring, flow, expert = False, True, False, True, False
    with event.install_listener("numba:compile", Recording(lambda kind: None, after=60.0)):
        run_batch(1, plans, free, scoring, flow, expert)
    assert seen == [(None, True), (warm.kind_of((plans, free, scoring, expert)), True)]


def test_every_kind_of_game_gets_a_measured_time() -> None:
    """Moves (listed, free, Killer's plans) x players (random, scoring, the expert): each
    combination the runners can be given maps to a row of KINDS, exactly where the table
    has it (the flow counters are a run-time switch of every kind)."""
    names = {k.name for k in warm.KINDS}
    assert len(names) == len(warm.KINDS) and any(k.tour for k in warm.KINDS)
    for plans, free in ((False, False), (False, True), (True, False)):
        for scoring, expert in ((False, False), (True, False), (True, True)):
            flags = (plans, free, scoring, expert)
            kind = warm.kind_of(flags)
            listed = [k for k in warm.KINDS if k.flags == flags]
            assert kind == (listed[0] if listed else kind) and kind.seconds > 0
            if not listed:  # nearest row: all but one flag alike
                assert sum(a == b for a, b in zip(kind.flags, flags, strict=True)) == 3


def test_the_kinds_table_rows_play_games_of_their_own_kind() -> None:
    """Each row's preset and policies give the kernel exactly the row's flags."""
    from ludosim import Rules
    from ludosim.run.simulate import _prepare

    for kind in warm.KINDS:
        rules = Rules.preset(kind.preset)
        prep = _prepare(rules, 2, 1, kind.policies(rules.players), None, None, 1, None, 0)
        played = (prep.roll_then_move, prep.free, prep.scoring, prep.expert)
        assert played == kind.flags, kind.name


def test_warm_compiles_each_kind_once_in_its_pool_and_says_so() -> None:
    kinds = [warm.kind_of((False,) * 4), warm.kind_of((False, True, False, False))]
    out = io.StringIO()
    spent = warm.warm(kinds, workers=2, stream=out)
    lines = out.getvalue().splitlines()
    assert set(spent) == {"random", "random+free"}
    assert lines[0].startswith("warm: 2 kinds of game, 2 processes")
    assert sum("ready, random" in line for line in lines) == 2
    assert lines[-1].startswith("warm: every kind ready in ")


def test_the_warm_up_estimates_what_is_left_from_the_table_and_moves_only_on_a_finish() -> None:
    from ludosim.run.warm import KINDS, _duration, time_left

    kinds = list(KINDS[:4])
    before = time_left(kinds, kinds, {}, ("run_batch",), workers=2)
    table = sum(k.seconds for k in kinds) / 2
    assert "by the table" in before and f"about {_duration(table)} of compiling" in before
    # One kind finished at twice its listed CPU: the rest is scaled by 2.
    done = {kinds[0].name: 2 * kinds[0].seconds}
    after = time_left(kinds[1:], kinds, done, ("run_batch",), workers=2)
    assert "times 2.0" in after
    assert time_left(kinds[1:], kinds, done, ("run_batch",), 2) == after  # nothing moved
