"""Progress without a terminal: a line on time however the games come, a steady ETA,
and a sweep that reports from inside its chunks while writing the same rows."""

from __future__ import annotations

import io
import itertools

import pandas.testing as pdt
import pytest

from ludosim import results
from ludosim.cli.progress import ProgressLines, _Ticker
from ludosim.run import simulate as simulate_module
from ludosim.sweep import SweepSpec, run_sweep


class Clock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _printer(every: float = 10.0, window: float = 60.0) -> tuple[ProgressLines, Clock, io.StringIO]:
    clock, out = Clock(), io.StringIO()
    return ProgressLines("sweep", every, out, clock=clock, window=window), clock, out


def _eta_seconds(line: str) -> int:
    """`ETA 1m05s` -> 65."""
    text = line.rsplit("ETA ", 1)[1]
    minutes, _, seconds = text.rstrip("s").rpartition("m")
    return int(minutes or 0) * 60 + int(seconds)


def test_lines_come_at_most_every_interval_however_often_games_are_reported() -> None:
    lines, clock, out = _printer(every=10.0)
    emitted: list[float] = []
    for step in range(1, 1001):  # a report every 0.1 s for 100 s
        clock.now = step * 0.1
        before = lines.lines
        lines(step * 100, 1_000_000)
        if lines.lines > before:
            emitted.append(clock.now)
    gaps = [b - a for a, b in itertools.pairwise(emitted)]
    assert len(emitted) == 10 and min(gaps) >= 10.0 - 1e-9
    assert all("games/s, ETA" in line for line in out.getvalue().splitlines())


def test_a_silent_stretch_still_gets_its_line_from_the_ticker() -> None:
    """A compile or a long slice reports nothing; `tick()` prints on time anyway."""
    lines, clock, out = _printer(every=10.0)
    lines(0, 50_000)
    for second in range(1, 36):  # 35 s without a report: the first slice compiles
        clock.now = float(second)
        lines.tick()
    assert out.getvalue().splitlines() == [
        "sweep: 0/50,000 games (0.0%), 10s so far",
        "sweep: 0/50,000 games (0.0%), 20s so far",
        "sweep: 0/50,000 games (0.0%), 30s so far",
    ]
    clock.now = 36.0
    lines.tick()  # 6 s after the last line: not yet
    assert len(out.getvalue().splitlines()) == 3


def test_eta_is_smoothed_over_the_window_and_ignores_the_compile() -> None:
    """1,000 games/s for two minutes, then one slow 5-second slice: the ETA moves by a
    fraction, where the last slice's own speed (100 games/s) would multiply it by ten."""
    lines, clock, out = _printer(every=10.0, window=60.0)
    lines(0, 400_000)
    clock.now = 30.0  # the first slice held a 30 s compile: it is not measured
    lines(1_000, 400_000)
    done = 1_000
    for second in range(31, 151):
        clock.now = float(second)
        done += 1_000
        lines(done, 400_000)
    steady = _eta_seconds(out.getvalue().splitlines()[-1])
    assert steady == pytest.approx((400_000 - 120_000) / 1_000, abs=12)
    clock.now = 155.0
    done += 500  # 100 games/s for 5 s
    lines(done, 400_000)
    clock.now = 160.0
    lines.tick()
    slowed = _eta_seconds(out.getvalue().splitlines()[-1])
    assert 0.9 * steady < slowed < 1.2 * steady


def test_the_rate_follows_a_lasting_change_of_speed_within_the_window() -> None:
    """A slower rule set later in a sweep: after a window at its speed, the ETA is its own."""
    lines, clock, out = _printer(every=10.0, window=60.0)
    done = 0
    for second in range(1, 61):  # 2,000 games/s
        clock.now = float(second)
        done += 2_000
        lines(done, 1_000_000)
    for second in range(61, 181):  # then 500 games/s
        clock.now = float(second)
        done += 500
        lines(done, 1_000_000)
    assert "500 games/s" in out.getvalue().splitlines()[-1]


def test_a_new_stage_counting_from_zero_starts_a_new_window() -> None:
    lines, clock, out = _printer(every=1.0)
    for second, done in ((1, 100), (2, 200), (3, 300)):
        clock.now = float(second)
        lines(done, 300)
    for second, done in ((4, 0), (5, 50), (6, 100)):  # the next study stage
        clock.now = float(second)
        lines(done, 1_000)
    assert out.getvalue().splitlines()[-1] == (
        "sweep: 100/1,000 games (10.0%), 50 games/s, ETA 18s"
    )


def test_the_ticker_thread_calls_tick_until_stopped() -> None:
    ticks: list[int] = []

    class Counting(ProgressLines):
        def tick(self) -> None:
            ticks.append(1)

    ticker = _Ticker(Counting("sweep", 0.01, io.StringIO()))
    while len(ticks) < 3:
        ticker.stopped.wait(0.01)
    ticker.stop()
    stopped_at = len(ticks)
    ticker.stopped.wait(0.05)
    assert not ticker.thread.is_alive() and len(ticks) == stopped_at


@pytest.mark.parametrize("summary_only", [False, True])
def test_a_sweep_writes_the_same_rows_whether_its_chunks_play_in_slices_or_whole(
    tmp_path, monkeypatch: pytest.MonkeyPatch, summary_only: bool
) -> None:
    spec = SweepSpec.from_options(
        preset="app", vary=["finish=exact,bounce"], games=600, seed=11, chunk_size=300,
        summary_only=summary_only,
    )  # fmt: skip
    whole = run_sweep(spec, tmp_path / "whole", threads=1)
    monkeypatch.setattr(simulate_module, "SLICE_SECONDS", 0.0)  # every slice the smallest
    seen: list[tuple[int, int]] = []
    sliced = run_sweep(
        spec, tmp_path / "sliced", threads=1, progress=lambda d, t: seen.append((d, t))
    )
    assert whole.complete and sliced.complete
    # Reports from inside each 300-game chunk, in order, ending at every game.
    inside = [d for d, _ in seen if d % 300]
    assert len(inside) > 10 and seen[-1] == (1_200, 1_200)
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    pdt.assert_frame_equal(results.load(tmp_path / "sliced"), results.load(tmp_path / "whole"))
