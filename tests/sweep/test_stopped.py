"""A sweep stopped in the middle of a chunk keeps the games it played.

The chunk is played in pieces; a stop writes the pieces played as the chunk's
partial file, and a rerun plays only the rest of the chunk, into the same chunk
as a sweep never stopped. Tiny sweeps, pieces of 16 games.
"""

from __future__ import annotations

from pathlib import Path

import pandas.testing as pdt
import pytest
import test_sweep  # the stand-in kernel and the small grid live there

from ludosim import results
from ludosim.sweep import execute as sweep_execute
from ludosim.sweep import run_sweep
from ludosim.sweep.partial import partial_name

small_spec = test_sweep.small_spec
calls = test_sweep.calls  # the fixture: (first_game, games) of every kernel call


@pytest.fixture
def pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 64 games played in pieces of 16."""
    monkeypatch.setattr(sweep_execute, "next_piece", lambda seconds, games: 16)


def _stop_at_call(n: int, calls: list, monkeypatch: pytest.MonkeyPatch, error=KeyboardInterrupt):
    """Stop the sweep at its `n`-th kernel call; returns the kernel to route it back to."""
    counting = sweep_execute._kernel()

    def stopping(rules, games, seed, **kwargs):
        if len(calls) == n:
            raise error
        return counting(rules, games, seed, **kwargs)

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: stopping)
    return counting


@pytest.mark.parametrize("summary_only", [False, True], ids=["rows", "summary"])
def test_a_stop_inside_a_chunk_keeps_its_pieces_and_a_rerun_plays_only_the_rest(
    summary_only: bool,
    tmp_path: Path,
    calls: list,
    pieces: None,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    spec = small_spec(summary_only=summary_only)
    out = tmp_path / "out"
    # Chunk 0 of c000 (4 pieces), then 2 pieces of chunk 64..127.
    counting = _stop_at_call(6, calls, monkeypatch)
    with pytest.raises(KeyboardInterrupt) as info:
        run_sweep(spec, out)
    stopped = info.value
    assert isinstance(stopped, sweep_execute.Stopped)
    assert (stopped.kept, stopped.done, stopped.total) == (96, 96, 800)
    assert stopped.kept_text() == "kept 96 games played (96 of 800 games are done)"
    part = "summary" if summary_only else "rows"
    partial = out / part / "cell=c000" / partial_name(64)
    assert partial.exists() and len(list(out.rglob("chunk-*.parquet"))) == 1
    assert results.load_manifest(out)["runs"][0]["kept_games"] == 96

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: counting)
    calls.clear()
    resumed = run_sweep(spec, out)
    assert resumed.complete and resumed.games_computed == 800 - 96
    assert calls[0] == (96, 16)  # on from where the partial file ends
    assert sum(games for _, games in calls) == 800 - 96
    assert not list(out.rglob("partial-*.parquet"))

    clean = run_sweep(spec, tmp_path / "clean")
    pdt.assert_frame_equal(results.load(out), results.load(tmp_path / "clean"))
    if summary_only:
        assert (
            results.summaries(out)["c000"].sums
            == results.summaries(tmp_path / "clean")["c000"].sums
        )
    assert clean.games_computed == 800


def test_sigterm_inside_a_chunk_keeps_its_pieces_too(
    tmp_path: Path, calls: list, pieces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    _stop_at_call(2, calls, monkeypatch, error=sweep_execute.Terminated)
    with pytest.raises(sweep_execute.Terminated) as info:
        run_sweep(small_spec(), out)
    assert info.value.kept == 32
    manifest = results.load_manifest(out)
    assert manifest["runs"][0]["status"] == "terminated"
    assert (out / "rows" / "cell=c000" / partial_name(0)).exists()


def test_a_partial_file_of_another_sweep_is_not_used(
    tmp_path: Path, calls: list, pieces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A partial file whose stamp is not this chunk's is removed and the chunk played whole."""
    out = tmp_path / "out"
    counting = _stop_at_call(2, calls, monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(small_spec(), out)
    partial = out / "rows" / "cell=c000" / partial_name(0)
    moved = out / "rows" / "cell=c001" / partial_name(0)
    moved.parent.mkdir(parents=True, exist_ok=True)
    partial.replace(moved)  # stamped for c000, lying in c001's place
    monkeypatch.setattr(sweep_execute, "_kernel", lambda: counting)
    calls.clear()
    run_sweep(small_spec(), out)
    assert sum(games for _, games in calls) == 800
    assert not list(out.rglob("partial-*.parquet"))
    pdt.assert_frame_equal(
        results.load(out), results.load(run_sweep(small_spec(), tmp_path / "clean").out)
    )


def test_the_sweep_command_says_how_many_games_it_kept(
    tmp_path: Path, calls: list, pieces: None, monkeypatch: pytest.MonkeyPatch
) -> None:
    from typer.testing import CliRunner

    from ludosim.cli.app import app

    _stop_at_call(3, calls, monkeypatch)
    out = tmp_path / "out"
    args = ["sweep", "--preset", "app", "--vary", "six_limit=0,3", "--games", "200"]
    args += ["--seed", "5", "--chunk-size", "64", "--out", str(out), "-q"]
    got = CliRunner().invoke(app, args)
    assert got.exit_code == 130, got.output
    assert "interrupted: kept 48 games played (48 of 400 games are done)" in got.output
