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
from ludosim.run.runstages import Stage, announce, begin, game_cost
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
        "sweep: waiting for the first results (0/50,000 games), 10s so far",
        "sweep: waiting for the first results (0/50,000 games), 20s so far",
        "sweep: waiting for the first results (0/50,000 games), 30s so far",
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


DESIGN = [
    Stage("screening", 1_000, cost=1.0),
    Stage("holdouts", 100, cost=1.0),
    Stage("confirmation", 100, cost=50.0),
]


def test_each_line_names_its_stage_and_no_gap_passes_the_interval() -> None:
    """A staged run through a pipe: reports at odd times, long silences and stage
    changes; the ticker's poll (here every 0.25 s) keeps every gap within 10 s."""
    lines, clock, out = _printer(every=10.0)
    lines.slack = 0.25
    announce(lines, DESIGN)
    emitted: list[float] = []
    reports = {7.3: 300, 9.9: 420, 41.0: 900, 44.4: 1_000}
    begin(lines, 1)
    for step in range(1, 4 * 200):
        clock.now = step * 0.25
        if clock.now == 50.0:
            begin(lines, 2)  # each stage counts from 0
        if clock.now == 120.0:
            begin(lines, 3)
        before = lines.lines
        for at, done in reports.items():
            if abs(clock.now - at) < 0.125:
                lines(done, 1_000)
        lines.tick()
        if lines.lines > before:
            emitted.append(clock.now)
    gaps = [b - a for a, b in itertools.pairwise([0.0, *emitted])]
    assert max(gaps) <= 10.0
    text = out.getvalue().splitlines()
    assert text[0].startswith("sweep: stage 1 of 3: screening: ")
    assert any(t.startswith("sweep: stage 2 of 3: holdouts: waiting for the first results of "
                            "holdouts (0/100 games)") for t in text)  # fmt: skip
    assert text[-1].startswith("sweep: stage 3 of 3: confirmation: ")


def test_the_eta_does_not_count_down_while_no_game_finishes() -> None:
    """14,000 of 572,000 games, then four minutes without a game: the ETA stays as it was
    when games last finished, and the line says since when."""
    lines, clock, out = _printer(every=10.0)
    done = 0
    for second in range(1, 11):
        clock.now = float(second)
        done += 1_400
        lines(done, 572_000)
    for second in range(11, 250):  # stalled
        clock.now = float(second)
        lines.tick()
    stalled = [t for t in out.getvalue().splitlines() if "no games finished" in t]
    assert len(stalled) >= 20
    assert len({_eta_seconds(t.split(" (as of")[0]) for t in stalled}) == 1
    assert "14,000/572,000 games (2.4%), 1,400 games/s, ETA 6m39s" in stalled[-1]
    assert "(as of 3m50s ago: no games finished since)" in stalled[-1]


def test_the_eta_is_the_whole_runs_weighted_by_each_stages_cost_per_game() -> None:
    """Halfway through a screening at 100 games/s, with a confirmation of dear games
    ahead: 500 cheap games, 100 holdouts and 100 games costing 50 each are left."""
    lines, clock, out = _printer(every=1.0)
    announce(lines, DESIGN)
    begin(lines, 1)
    for second in range(1, 6):
        clock.now = float(second)
        lines(100 * second, 1_000)
    assert out.getvalue().splitlines()[-1] == (
        "sweep: stage 1 of 3: screening: 500/1,000 games (50.0%), 100 games/s, ETA 56s"
    )
    clock.now = 6.0
    begin(lines, 3)  # the stage's own speed unknown yet: estimated from the work rate
    clock.now = 7.0
    lines.tick()
    assert out.getvalue().splitlines()[-1] == (
        "sweep: stage 3 of 3: confirmation: waiting for the first results of confirmation "
        "(0/100 games), 1s so far, ETA 50s at the earlier stages' speed"
    )


def test_a_search_player_makes_a_game_dearer() -> None:
    assert game_cost("random") == 1.0
    assert game_cost(["expert", "random", "random", "random"]) > 50 * game_cost("balanced")


def test_a_stage_without_games_still_speaks() -> None:
    """`report` reads and draws: no games, a stage, and a line every interval."""
    lines, clock, out = _printer(every=10.0)
    announce(lines, [Stage("reading the results and writing the page", 0)])
    begin(lines, 1)
    for second in range(1, 25):
        clock.now = float(second)
        lines.tick()
    assert out.getvalue().splitlines() == [
        "sweep: stage 1 of 1: reading the results and writing the page: waiting for the "
        f"first results of reading the results and writing the page, {s}s so far"
        for s in (10, 20)
    ]


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


class _Listener:
    """A progress callback that listens to the run's plan and stages."""

    def __init__(self) -> None:
        self.stages: list[str] = []
        self.begun: list[int | str] = []

    def __call__(self, done: int, total: int) -> None:
        pass

    def plan(self, stages) -> None:
        self.stages = [s.name for s in stages]

    def stage(self, index, at: int = 0) -> None:
        self.begun.append(index)


def test_a_tournament_names_each_seating_as_a_stage() -> None:
    from ludosim.rules.options import RuleSet
    from ludosim.studies.tournament import tournament_answer

    heard = _Listener()
    tournament_answer(RuleSet("app"), ["balanced", "random", "random", "random"], 40, 1,
                      progress=heard)  # fmt: skip
    assert len(heard.stages) == 4 and heard.begun == [1, 2, 3, 4]
    assert heard.stages[0] == "seating balanced, random, random, random"


def test_a_tuning_names_its_generations_and_its_last_games() -> None:
    pytest.importorskip("cma")
    from ludosim.studies.tune import tune

    heard = _Listener()
    tune("app", seed=1, generations=2, popsize=2, games=8, eval_games=8, progress=heard)
    assert heard.stages == ["generation 1 of 2", "generation 2 of 2", "selection games",
                            "evaluation games"]  # fmt: skip
    assert heard.begun == [1, 2, 3, 4]
