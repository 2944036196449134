"""`simulate`: columns and dtypes, determinism, summary mode, Parquet, start positions."""

from __future__ import annotations

import numba
import numpy as np
import pandas as pd
import pytest

import ludosim
from ludosim import Rules, presets, simulate
from ludosim.reference import Game, Position
from ludosim.results import ResultsError, Summary, columns, summarize, write_parquet
from ludosim.results import load as load_written
from ludosim.rules.model import SEMANTICS_VERSION
from ludosim.rules.policies import resolve_policies
from ludosim.run.simulate import SimulationError

SMALL_DTYPES = {"game": "int64", "first": "int8", "winner": "int8", "turns": "int32"}
SMALL_DTYPES.update(rolls="int32", end_turns="int32", truncated="bool")


def _expected_dtype(column: str) -> str:
    if column in SMALL_DTYPES:
        return SMALL_DTYPES[column]
    return "int8" if column.startswith(("place_", "returned_")) else "int16"


@pytest.mark.parametrize("preset", presets())
def test_columns_and_dtypes(preset: str) -> None:
    rules = Rules.preset(preset)
    df = simulate(rules, games=40, seed=5)
    assert list(df.columns) == columns(rules)
    assert {c: str(t) for c, t in df.dtypes.items()} == {c: _expected_dtype(c) for c in df}
    assert ("points_0" in df) == (rules.scoring == "megajogos")
    assert df["game"].tolist() == list(range(40))
    places = df[[f"place_{s}" for s in range(rules.players)]].to_numpy()
    assert (np.sort(places, axis=1) == np.arange(1, rules.players + 1)).all()
    assert (df["winner"] >= 0).all() and not df["truncated"].any()


@pytest.mark.parametrize("preset", presets())
def test_row_size_is_compact(preset: str) -> None:
    """8 + 1 + 1 + 3 * 4 + 1 bytes, then per seat 1 (place) + 1 (returned) + 4 * 2 (counters).

    A row stays within 64 bytes (a million games in 64 MB): 63 for four players, except
    under megajogos scoring, whose `points_<s>` (int16, docs/api.md) add 8.
    """
    rules = Rules.preset(preset)
    df = simulate(rules, games=10, seed=1)
    points = 2 * rules.players if rules.scoring == "megajogos" else 0
    assert df.memory_usage(index=False).sum() / len(df) == 23 + 10 * rules.players + points
    assert (df.memory_usage(index=False).sum() / len(df) <= 64) == (points == 0)


def test_returned_widens_to_int16_when_a_count_does_not_fit_int8() -> None:
    from ludosim.engine import (
        H,
        K,
    )
    from ludosim.results.schema import STAT_COLUMNS
    from ludosim.run.simulate import _frame

    row = 1 + STAT_COLUMNS.index("returned")  # after place
    rules = Rules.preset("killer")
    head = np.zeros((3, H.SIZE), dtype=np.int32)
    seats = np.zeros((3, K.SIZE, 4), dtype=np.int16)
    seats[:, row, 1] = [0, 127, 3]
    assert _frame(rules, 0, head, seats)["returned_1"].dtype == "int8"
    seats[1, row, 1] = 128
    df = _frame(rules, 0, head, seats)
    assert [str(df[f"returned_{s}"].dtype) for s in range(4)] == ["int16"] * 4
    assert df["returned_1"].tolist() == [0, 128, 3]


def test_attrs_record_rules_seed_and_versions() -> None:
    rules = Rules.preset("killer")
    df = simulate(rules, games=3, seed=77)
    assert df.attrs["rules"] == rules.to_dict()
    assert df.attrs["rules_hash"] == rules.hash()
    assert df.attrs["seed"] == 77
    assert df.attrs["policies"] == ["random"] * 4
    assert df.attrs["semantics_version"] == SEMANTICS_VERSION
    assert df.attrs["ludosim_version"] == ludosim.__version__


@pytest.mark.parametrize("preset", ["app", "killer"])
def test_rows_do_not_depend_on_threads_or_chunks(preset: str) -> None:
    rules = Rules.preset(preset)
    base = simulate(rules, games=120, seed=9, threads=1, chunk_size=1000)
    threads = min(2, numba.config.NUMBA_NUM_THREADS)
    for kwargs in ({"threads": threads, "chunk_size": 7}, {"threads": threads}, {"chunk_size": 1}):
        pd.testing.assert_frame_equal(simulate(rules, games=120, seed=9, **kwargs), base)


def test_first_game_splits_a_run() -> None:
    rules = Rules.preset("danish-globe")
    whole = simulate(rules, games=50, seed=4)
    parts = [simulate(rules, games=20, seed=4), simulate(rules, games=30, seed=4, first_game=20)]
    pd.testing.assert_frame_equal(pd.concat(parts, ignore_index=True), whole)


def test_same_seed_same_rows_other_seed_other_rows() -> None:
    rules = Rules.preset("italian")
    a = simulate(rules, games=30, seed=1)
    pd.testing.assert_frame_equal(a, simulate(rules, games=30, seed=1))
    assert not a.equals(simulate(rules, games=30, seed=2))


@pytest.mark.parametrize("preset", ["app", "italian", "killer"])
def test_summary_matches_rows(preset: str) -> None:
    rules = Rules.preset(preset)
    df = simulate(rules, games=300, seed=12)
    summary = simulate(rules, games=300, seed=12, summary=True, chunk_size=17)
    assert isinstance(summary, Summary)
    expected = summarize(rules, df)
    assert summary.games == 300
    assert (summary.truncated, summary.no_winner) == (expected.truncated, expected.no_winner)
    assert summary.sums == expected.sums and summary.sums_sq == expected.sums_sq
    pd.testing.assert_frame_equal(summary.seats, expected.seats)
    pd.testing.assert_series_equal(summary.wins_by_position, expected.wins_by_position)
    pd.testing.assert_frame_equal(summary.places, expected.places)
    pd.testing.assert_frame_equal(summary.hist, expected.hist)
    assert summary.mean("turns") == pytest.approx(df["turns"].mean())
    assert summary.std("rolls") == pytest.approx(df["rolls"].std())
    assert set(summary.frames()) >= {"overall", "seats", "places", "hist"}
    assert summary.attrs["rules_hash"] == rules.hash()


def test_parquet_round_trip(tmp_path) -> None:
    rules = Rules.preset("italian")
    df = simulate(rules, games=25, seed=3)
    path = write_parquet(df, tmp_path / "run" / "a.parquet")
    back = load_written(path)
    pd.testing.assert_frame_equal(back, df)
    assert back.attrs["rules"] == rules.to_dict()
    assert back.attrs["seed"] == 3
    write_parquet(simulate(rules, games=5, seed=3, first_game=25), tmp_path / "run" / "b.parquet")
    both = load_written(tmp_path / "run")
    assert both["game"].tolist() == list(range(30))


def test_load_refuses_missing_paths(tmp_path) -> None:
    with pytest.raises(ResultsError, match="does not exist"):
        load_written(tmp_path / "nothing.parquet")
    with pytest.raises(ResultsError, match=r"holds no result files \(\*\.parquet\)"):
        load_written(tmp_path)


@pytest.mark.parametrize(("preset", "start_seat"), [("danish", 0), ("killer", 2), ("app", 3)])
def test_start_position_matches_reference(preset: str, start_seat: int) -> None:
    rules = Rules.preset(preset)
    rows = [[10, -1, 30, 52 if preset == "killer" else 50], [-1, -1, 0, 20]]
    rows += [[5, 5, -1, -1], [rules.goal, 40, -1, 12]]
    pos = Position.from_progress(rules, rows)
    df = simulate(rules, games=15, seed=8, start=pos, start_seat=start_seat)
    assert (df["first"] == start_seat).all()
    assert df.attrs["start"] == rows
    for game, kernel in enumerate(df.to_dict("records")):
        ref = Game(rules, 8, game, start=pos, record=False, start_seat=start_seat).play()
        assert ref.row() == kernel, game
    # rows of progress work as well as a Position
    pd.testing.assert_frame_equal(
        simulate(rules, games=15, seed=8, start=rows, start_seat=start_seat), df, check_like=True
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"games": 0}, r"games must be an integer in 1\.\.1000000000000, got 0"),
        ({"games": 2.5}, "games must be an integer"),
        ({"seed": -1}, "seed must be"),
        ({"seed": "7"}, "seed must be"),
        ({"seed": 2**64}, "seed must be"),
        ({"threads": 0}, "threads must be"),
        ({"chunk_size": 0}, "chunk_size must be"),
        ({"first_game": -3}, "first_game must be"),
        ({"start": [[0, 0, 0, 0]]}, "start needs 4 rows of 4"),
        ({"start": [[99, -1, -1, -1]] * 4}, "has progress 99"),
        ({"start": [[-1] * 4] * 4, "start_seat": 4}, r"start_seat must be an integer in 0\.\.3"),
    ],
)
def test_bad_arguments_are_refused(kwargs: dict, message: str) -> None:
    args = {"games": 5, "seed": 1, **kwargs}
    with pytest.raises(SimulationError, match=message):
        simulate(Rules.preset("app"), **args)


def test_policies_are_validated() -> None:
    rules = Rules.preset("app")
    with pytest.raises(ludosim.LudosimError, match="unknown policy"):
        simulate(rules, games=5, seed=1, policies="nonsense")
    with pytest.raises(ludosim.LudosimError, match="4 players"):
        simulate(rules, games=5, seed=1, policies=["random"] * 3)
    with pytest.raises(ludosim.LudosimError, match="Q must be a probability"):
        simulate(rules, games=5, seed=1, policies="skipper:2")


@pytest.mark.parametrize(
    "policies",
    [
        "aggressive",
        ["runner", "pacifist", "skipper:0.25", "weights:lead=2, capture=1.5"],
    ],
)
def test_every_policy_runs_and_is_recorded(policies: str | list[str]) -> None:
    rules = Rules.preset("killer")
    df = simulate(rules, games=20, seed=3, policies=policies)
    expected = resolve_policies(policies, rules.players)
    assert df.attrs["policies"] == list(expected)
    assert df.attrs["policies"][-1] in ("aggressive", "weights:capture=1.5,lead=2")
    summary = simulate(rules, games=20, seed=3, policies=policies, summary=True)
    assert summary.attrs["policies"] == list(expected)
    assert summary.sums == summarize(rules, df).sums


def test_policies_change_the_games_but_not_their_count() -> None:
    rules = Rules.preset("app")
    a = simulate(rules, games=200, seed=2, policies="random")
    b = simulate(rules, games=200, seed=2, policies="aggressive")
    assert len(a) == len(b) == 200
    assert not a.equals(b)
