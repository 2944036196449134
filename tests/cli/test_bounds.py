"""Bounded inputs: every size, seed, number and path is checked up front, in one line.

Each bound is checked through the library (the error names the field and the
allowed range) and through the command line (exit code 2, one line on stderr,
nothing written, no game played).
"""

from __future__ import annotations

import importlib
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from typer.testing import CliRunner

import ludosim
from ludosim import Rules, RulesError
from ludosim.cli.app import app
from ludosim.engine.state import (
    K,
)
from ludosim.results import ResultsError, schema
from ludosim.run.play import PlayError
from ludosim.run.simulate import SimulationError
from ludosim.sweep import SweepError, SweepSpec, check_run_options, expand, spec_from_command

runner = CliRunner()
# `ludosim.simulate` is the function the package exports: reach the module itself.
simulate_module = importlib.import_module("ludosim.run.simulate")
APP = Rules.preset("app")


def cli(*args: str) -> Any:
    return runner.invoke(app, list(args))


def assert_refused(result: Any, *words: str) -> None:
    """Exit code 2 and one line on stderr holding every word."""
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    for word in words:
        assert word in lines[0], lines[0]


@pytest.fixture
def no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if the command line reaches the kernel."""

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played before the input was checked")

    monkeypatch.setattr(simulate_module, "simulate", boom)


# ------------------------------------------------------------------ simulate
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, r"games must be an integer in 1\.\.1000000000000, got 0"),
        ({"games": 10**12 + 1}, r"games must be an integer in 1\.\.1000000000000"),
        ({"seed": -1}, r"seed must be in 0\.\.2\*\*64-1"),
        ({"seed": 2**64}, r"seed must be in 0\.\.2\*\*64-1"),
        ({"seed": None}, "seed must be"),
        ({"first_game": -1}, r"first_game must be an integer in 0\.\.9223372036854775807"),
        ({"first_game": 2**63}, "first_game must be an integer"),
        ({"first_game": 2**63 - 3}, r"past the last game number"),
        ({"threads": 0}, "threads must be an integer in 1.."),
        ({"threads": 10**6}, "threads must be an integer in 1.."),
        ({"chunk_size": 0}, r"chunk_size must be an integer in 1\.\.1000000000000"),
        ({"chunk_size": 10**12 + 1}, "chunk_size must be an integer in 1.."),
    ],
)
def test_simulate_bounds(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(SimulationError, match=message):
        ludosim.simulate(APP, **{"games": 5, "seed": 1, **kwargs})


def test_per_game_rows_that_cannot_fit_in_memory_are_refused_before_any_game() -> None:
    started = time.perf_counter()
    with pytest.raises(SimulationError, match=r"summary=True \(--summary\) or a sweep"):
        ludosim.simulate(APP, 10**12, 1)
    assert time.perf_counter() - started < 5


def test_numpy_integers_are_integers() -> None:
    df = ludosim.simulate(APP, np.int64(5), np.uint64(2**64 - 1), threads=np.int32(1))
    assert len(df) == 5 and df.attrs["seed"] == 2**64 - 1
    assert df.equals(ludosim.simulate(APP, 5, 2**64 - 1))
    with pytest.raises(SimulationError, match="games must be an integer"):
        ludosim.simulate(APP, np.True_, 1)


def test_max_turns_is_bounded_by_the_kernel_counters() -> None:
    with pytest.raises(
        RulesError, match=r"max_turns=.* out of range; allowed values: 100\.\.10000000"
    ):
        APP.replace(max_turns=2**70)
    assert APP.replace(max_turns=10**7).max_turns == 10**7


@pytest.mark.parametrize("bad", [1.5, float("inf"), float("nan")])
def test_a_start_position_of_no_whole_number_is_refused(bad: float) -> None:
    rows = [[-1.0] * APP.pieces for _ in range(APP.players)]
    rows[1][2] = bad
    with pytest.raises(SimulationError, match=r"start must be .* whole numbers"):
        ludosim.simulate(APP, games=5, seed=1, start=rows)


def test_simulate_command_bounds() -> None:
    base = ("simulate", "-p", "app", "--seed", "1")
    assert_refused(cli(*base, "--games", "0"), "games", "1..1000000000000")
    assert_refused(cli(*base, "--games", str(10**21)), "games", "1..1000000000000")
    assert_refused(cli("simulate", "-p", "app", "--seed", str(2**64)), "seed", "2**64-1")
    assert_refused(cli(*base, "--set", f"max_turns={2**70}"), "max_turns", "100..10000000")


def test_simulate_command_library_bounds_with_the_real_library(tmp_path: Path) -> None:
    base = ("simulate", "-p", "app", "--seed", "1", "--games", "5")
    assert_refused(cli(*base, "--threads", "0"), "threads", "1..")
    assert_refused(cli(*base[:-1], str(10**12)), "games=1,000,000,000,000", "--summary")
    assert not list(tmp_path.iterdir())


@pytest.mark.parametrize("where", ["empty", "folder", "under a file", "read-only"])
def test_simulate_out_is_checked_before_the_games(
    no_games: None, tmp_path: Path, where: str
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    readonly = tmp_path / "ro"
    readonly.mkdir()
    readonly.chmod(0o500)
    out, word = {
        "empty": ("", "empty path"),
        "folder": (str(tmp_path), "is a folder"),
        "under a file": (str(blocker / "x.parquet"), "cannot create its folder"),
        "read-only": (str(readonly / "x.parquet"), "not writable"),
    }[where]
    if where == "read-only" and _writable(readonly):
        pytest.skip("running as root: a read-only folder is writable")
    result = cli("simulate", "-p", "app", "--seed", "1", "--games", "5", "--out", out)
    assert_refused(result, "--out", word)


def test_simulate_out_onto_an_existing_file_is_refused_without_force(
    no_kernel: None, tmp_path: Path
) -> None:
    existing = tmp_path / "runs" / "app.parquet"
    existing.parent.mkdir()
    existing.write_bytes(b"the user's results")
    args = ("simulate", "-p", "app", "--seed", "1", "--games", "5", "--out", str(existing))
    assert_refused(cli(*args), "--out", str(existing), "already exists", "--force")
    assert existing.read_bytes() == b"the user's results"
    assert [p.name for p in existing.parent.iterdir()] == ["app.parquet"]


def test_simulate_force_replaces_an_existing_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pandas as pd

    def rows(rules: Rules, games: int, seed: int, **kwargs: Any) -> pd.DataFrame:
        return pd.DataFrame({"game": range(games)})

    existing = tmp_path / "app.parquet"
    existing.write_bytes(b"old")
    monkeypatch.setattr(simulate_module, "simulate", rows)
    args = ("simulate", "-p", "app", "--seed", "1", "--games", "5", "--out", str(existing))
    result = cli(*args, "--force", "-q")
    assert result.exit_code == 0, result.stderr
    assert pd.read_parquet(existing)["game"].tolist() == [0, 1, 2, 3, 4]


def _writable(folder: Path) -> bool:
    try:
        (folder / "probe").touch()
    except PermissionError:
        return False
    (folder / "probe").unlink()
    return True


def test_report_out_must_not_be_empty(tmp_path: Path) -> None:
    assert_refused(cli("report", str(tmp_path), "--out", ""), "--out is empty")


def test_load_of_none_is_a_results_error() -> None:
    with pytest.raises(ResultsError, match="path must name a results file or folder"):
        ludosim.load(None)  # type: ignore[arg-type]


# ------------------------------------------------------------------ play
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"game": -1}, r"game must be an integer in 0\.\.2\*\*63-1, got -1"),
        ({"game": 2**64}, r"game must be an integer in 0\.\.2\*\*63-1"),
        ({"seed": -1}, r"seed must be an integer in 0\.\.2\*\*64-1"),
        ({"seed": 2**64}, r"seed must be an integer in 0\.\.2\*\*64-1"),
        ({"game": 1.0}, "game must be an integer"),
    ],
)
def test_play_bounds(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(PlayError, match=message):
        ludosim.play(APP, **{"seed": 1, **kwargs})


def test_play_takes_numpy_integers() -> None:
    result = ludosim.play(APP, np.uint64(7), game=np.int64(3))
    assert result.row() == ludosim.play(APP, 7, game=3).row()


def test_play_command_bounds() -> None:
    assert_refused(cli("play", "-p", "app", "--seed", "1", "--game", "-1"), "game", "0..2**63-1")
    assert_refused(cli("play", "-p", "app", "--seed", "1", "--game", str(2**64)), "game")


# ------------------------------------------------------------------ ratings
@pytest.fixture
def no_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Fail the test if any game reaches the kernel, whichever module asked for it."""

    def boom(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a game was played before the input was checked")

    monkeypatch.setattr(simulate_module, "_prepare", boom)


@pytest.mark.parametrize("bootstrap", [-1, 1.5, float("nan"), "10", True])
def test_ratings_refuse_a_bad_bootstrap_before_any_game(no_kernel: None, bootstrap: Any) -> None:
    from ludosim.studies.ratings import RatingsError, ratings

    with pytest.raises(RatingsError, match="bootstrap must be an integer >= 0"):
        ratings(APP, games=60, seed=1, bootstrap=bootstrap)


def test_ratings_command_refuses_a_bad_bootstrap_before_any_game(no_kernel: None) -> None:
    result = cli("ratings", "-p", "app", "--seed", "1", "--games", "60", "--bootstrap", "-1")
    assert_refused(result, "bootstrap", ">= 0", "-1")


# ------------------------------------------------------------------ sweep
@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"games": 0}, r"games=0 is out of range; allowed: 1\.\.1000000000000"),
        ({"games": 10**21}, r"games=\d+ is out of range; allowed: 1\.\.1000000000000"),
        ({"seed": -1}, r"seed=-1 is out of range; allowed: 0\.\.2\*\*64-1"),
        ({"seed": 2**64}, r"allowed: 0\.\.2\*\*64-1"),
        ({"chunk_size": 0}, r"chunk_size=0 is out of range"),
        ({"games": 10**12}, r"4,000,000 chunk files per cell, more than 1,000,000"),
        ({"games": 10**7, "chunk_size": 1}, r"raise chunk_size to at least 10"),
    ],
)
def test_sweep_spec_bounds(changes: dict[str, Any], message: str) -> None:
    options = {"preset": "app", "games": 100, "seed": 1, **changes}
    with pytest.raises(SweepError, match=message):
        SweepSpec.from_options(**options)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"dask": "bogus"}, "--dask 'bogus' is not allowed"),
        ({"workers": 0}, r"workers=0 is out of range; allowed: 1\.\.1024"),
        ({"threads": 0}, r"threads=0 is out of range; allowed: 1\.\.1024"),
        ({"threads": 5000}, "threads=5000 is out of range"),
        ({"threads": 2.0}, "threads=2.0 must be an integer"),
    ],
)
def test_run_options_are_checked(kwargs: dict[str, Any], message: str) -> None:
    options: dict[str, Any] = {"dask": None, "workers": None, "threads": None, **kwargs}
    with pytest.raises(SweepError, match=message):
        check_run_options(**options)
    check_run_options("tcp://host:8786", 2, np.int64(3))


def test_a_sweep_file_without_seed_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "grid.toml"
    path.write_text('preset = "app"\ngames = 100\n')
    with pytest.raises(SweepError, match=r"grid\.toml: seed is required"):
        SweepSpec.from_toml(path)
    spec, _ = spec_from_command(path, seed=4)  # --seed supplies it
    assert spec.seed == 4
    result = cli("sweep", str(path), "--dry-run")
    assert_refused(result, "seed is required")


def test_identical_variants_are_refused() -> None:
    spec = SweepSpec.from_options(variants=["app", "copy=app"], games=100, seed=1)
    with pytest.raises(SweepError, match=r"cells c000 \(app\) and c001 \(copy\) are the same game"):
        expand(spec)
    assert_refused(
        cli("sweep", "--variant", "app", "--variant", "copy=app", "--seed", "1", "--dry-run",
            "--out", "x"),
        "same game",
    )  # fmt: skip


def test_dry_run_of_any_size_answers_at_once(tmp_path: Path) -> None:
    out = tmp_path / "out"
    base = ("sweep", "-p", "app", "--seed", "1", "--out", str(out), "--dry-run")
    started = time.perf_counter()
    assert_refused(cli(*base, "--games", str(10**21)), "games", "1..1000000000000")
    assert time.perf_counter() - started < 1
    started = time.perf_counter()
    result = cli(*base, "--games", str(10**12), "--chunk-size", str(10**7))
    assert time.perf_counter() - started < 1
    assert result.exit_code == 0, result.stderr
    assert "100,000" in result.stdout  # chunks, counted, not listed
    assert not out.exists()


@pytest.mark.parametrize(
    ("extra", "words"),
    [
        (("--out", ""), ("--out is empty",)),
        (("--out", "{out}", "--dask", "bogus"), ("--dask 'bogus'",)),
        (("--out", "{out}", "--dask", "local", "--workers", "0"), ("workers=0", "1..1024")),
        (("--out", "{out}", "--threads", "0"), ("threads=0", "1..1024")),
        (("--out", "{out}", "--games", "0"), ("games=0", "1..1000000000000")),
        (("--out", "{out}", "--seed", str(2**64)), ("seed=", "2**64-1")),
        (("--out", "{out}", "--chunk-size", "0"), ("chunk_size=0",)),
    ],
)
def test_sweep_command_bounds_create_no_folder(
    no_games: None, tmp_path: Path, extra: tuple[str, ...], words: tuple[str, ...]
) -> None:
    out = tmp_path / "out"
    args = [a.format(out=out) for a in extra]
    seed = [] if "--seed" in args else ["--seed", "1"]
    result = cli("sweep", "-p", "app", "--games", "100", *seed, *args)
    assert_refused(result, *words)
    assert not out.exists()


@pytest.mark.parametrize(
    ("line", "words"),
    [
        ("scoring = 'steps'\nhome_bonus = inf", ("home_bonus=inf", "0..1000")),
        ("enter_faces = [1.5]", ("enter_faces has face 1.5", "allowed faces")),
        ("teams = [0, 1, 0, nan]", ("teams=nan", "0..5")),
    ],
)
def test_a_sweep_file_with_a_toggle_no_integer_holds_is_one_line(
    no_games: None, tmp_path: Path, line: str, words: tuple[str, ...]
) -> None:
    path = tmp_path / "sweep.toml"
    path.write_text(f'preset = "app"\nseed = 1\ngames = 100\n[set]\n{line}\n')
    out = tmp_path / "out"
    assert_refused(cli("sweep", str(path), "--out", str(out), "-q"), *words)
    assert not out.exists()


def test_bounds_live_in_the_schema() -> None:
    assert schema.GAMES_MAX == 10**12
    assert schema.GAME_MAX == np.iinfo(np.int64).max
    assert schema.SEED_MAX == np.iinfo(np.uint64).max


# ------------------------------------------------------------------ flat summary memory
def test_the_summary_path_allocates_nothing_proportional_to_games(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A summary run gives the kernel the same row arrays for 10**4 and 10**12 games, and
    every call of a run (one per block, and with progress per slice) reuses the first's."""
    import ludosim.engine

    calls: list[list[np.ndarray]] = []

    def recording(lay, work, seed, first, chunk, has_start, start_seat, *args):
        arrays = [a for a in args if isinstance(a, np.ndarray)]
        assert len(arrays) == 4 and len(arrays[0]) <= 2**16
        arrays[1][:, K.PLACE, :] = 1  # no game is played: rows of zeros, every seat first
        calls.append(arrays)

    monkeypatch.setattr(ludosim.engine, "run_batch", recording)

    def footprint(games: int, **kwargs: Any) -> int:
        calls.clear()
        ludosim.simulate(APP, games, 1, summary=True, threads=2, **kwargs)
        first = calls[0]
        for arrays in calls:
            pairs = zip(arrays, first, strict=True)
            assert all(np.shares_memory(a, b) or a.size == 0 for a, b in pairs)
        return sum(a.base.nbytes if a.base is not None else a.nbytes for a in first)

    small = footprint(10**5)
    assert len(calls) == 2  # 10**5 games are two blocks
    assert footprint(10**7) == small < 8 * 2**20
    assert len(calls) == -(-(10**7) // 2**16)
    # With progress the games are played in slices, one kernel call each at least.
    assert footprint(10**6, progress=lambda done, total: None) == small
    assert len(calls) > 1
