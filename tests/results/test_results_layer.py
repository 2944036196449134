"""The results layer: one schema, the Summary round trip, one loader, chunk stamps."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest
from typer.testing import CliRunner

import ludosim
from ludosim import Rules, presets, results
from ludosim.results import ResultsError, schema
from ludosim.results.summary import summarize, summary_from_frame, summary_to_frame

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "ludosim"
BINS = 64  # short histograms: the round trip does not depend on their length
FIXTURE_HASH = "1d9e3d0b21530785"  # the spec hash of the toggles fixture


def fake_rows(rules: Rules, games: int, seed: int) -> pd.DataFrame:
    """Per-game rows in the schema's columns and dtypes, with arbitrary (valid) values."""
    rng = np.random.default_rng(seed)
    n = rules.players
    points = schema.has_points(rules)
    dtypes = schema.row_dtypes(n, points)
    first = rng.integers(0, n, games)
    places = np.argsort(rng.random((games, n)), axis=1) + 1
    winner = np.where(rng.random(games) < 0.05, -1, np.argmin(places, axis=1))
    data: dict[str, np.ndarray] = {
        "game": np.arange(games),
        "first": first,
        "winner": winner,
        "turns": rng.integers(20, 3 * BINS, games),
        "rolls": rng.integers(20, 4 * BINS, games),
        "end_turns": rng.integers(20, 3 * BINS, games),
        "truncated": winner < 0,
    }
    for s in range(n):
        data[f"place_{s}"] = places[:, s]
    for column in schema.row_columns(n, points)[len(data) :]:
        if column.startswith(("place_",)):
            continue
        data[column] = rng.integers(0, 9, games)
    df = pd.DataFrame({c: np.asarray(data[c]).astype(t) for c, t in dtypes.items()})
    assert list(df.columns) == schema.columns(rules)
    return df


def assert_same_summary(a: results.Summary, b: results.Summary) -> None:
    assert (a.games, a.truncated, a.no_winner) == (b.games, b.truncated, b.no_winner)
    assert a.sums == b.sums and a.sums_sq == b.sums_sq
    pdt.assert_frame_equal(a.seats, b.seats)
    pdt.assert_series_equal(a.wins_by_position, b.wins_by_position)
    pdt.assert_frame_equal(a.places, b.places)
    pdt.assert_frame_equal(a.hist, b.hist)


# ------------------------------------------------------------------ summary round trip
@pytest.mark.parametrize("preset", presets())
def test_summary_round_trips_through_its_one_row_frame(preset: str) -> None:
    rules = Rules.preset(preset)
    summary = summarize(rules, fake_rows(rules, 500, 1), bins=BINS)
    frame = summary_to_frame(summary)
    n, points = rules.players, schema.has_points(rules)
    assert list(frame.columns) == schema.summary_columns(n, points) + schema.hist_columns()
    assert ("seat0_points_sum" in frame.columns) == (rules.scoring == "megajogos")
    assert {"seat0_returned_sum", "seat0_returned_sumsq"} <= set(frame.columns)
    assert schema.summary_layout(frame.columns) == (n, points)
    assert_same_summary(summary_from_frame(frame), summary)


@pytest.mark.parametrize("preset", ["app", "italian"])  # italian scores points
def test_chunk_frames_add_up_to_the_summary_of_all_rows(preset: str) -> None:
    rules = Rules.preset(preset)
    rows = fake_rows(rules, 900, 2)
    chunks = pd.concat(
        [
            summary_to_frame(summarize(rules, rows.iloc[a : a + 300], bins=BINS))
            for a in (0, 300, 600)
        ],
        ignore_index=True,
    )
    assert_same_summary(summary_from_frame(chunks), summarize(rules, rows, bins=BINS))


def test_summary_rows_of_cells_with_different_player_counts_sum_per_cell() -> None:
    two = Rules.preset("app").replace(players=2)
    four = Rules.preset("app")
    frames = []
    for cell, rules in (("c000", two), ("c001", four)):
        frame = summary_to_frame(summarize(rules, fake_rows(rules, 200, 3), bins=BINS))
        frame.insert(0, "cell", cell)
        frames.append(frame)
    both = pd.concat(frames, ignore_index=True)  # two-player row: null seat2_*, seat3_*
    got = {cell: summary_from_frame(rows) for cell, rows in both.groupby("cell")}
    assert got["c000"].players == 2 and got["c001"].players == 4
    assert_same_summary(got["c001"], summary_from_frame(frames[1]))


def test_summary_from_frame_refuses_columns_of_no_layout() -> None:
    with pytest.raises(ResultsError, match="match no summary layout"):
        summary_from_frame(pd.DataFrame({"games": [3], "turns_sum": [9]}))


def test_summary_of_the_kernel_keeps_its_layout() -> None:
    summary = ludosim.simulate(Rules.preset("app"), 50, 4, summary=True)
    again = summary_from_frame(summary_to_frame(summary))
    assert_same_summary(again, summary)


# ------------------------------------------------------------------ loading
def test_load_is_the_single_entry_point() -> None:
    assert ludosim.load is results.load
    simulate_module = importlib.import_module("ludosim.run.simulate")
    assert "_prepare" in vars(simulate_module)
    for name in ("load", "write_parquet", "Summary", "summarize", "columns"):
        assert name not in vars(simulate_module) or vars(simulate_module)[name] is getattr(
            results, name, None
        ), f"ludosim.run.simulate defines its own {name}"
    assert "load" not in vars(simulate_module)


def test_load_reads_a_file_and_a_folder_with_their_run_description(tmp_path: Path) -> None:
    rules = Rules.preset("danish")
    a = fake_rows(rules, 30, 5)
    a.attrs = {"seed": 5, "rules_hash": rules.hash()}
    b = fake_rows(rules, 20, 6).assign(game=np.arange(30, 50))
    b.attrs = {"seed": 6}
    path = results.write_parquet(a, tmp_path / "run" / "a.parquet")
    results.write_parquet(b, tmp_path / "run" / "b.parquet")
    assert sorted(p.name for p in (tmp_path / "run").iterdir()) == ["a.parquet", "b.parquet"]
    one = ludosim.load(path)
    pdt.assert_frame_equal(one, a)
    assert one.attrs == a.attrs
    folder = ludosim.load(tmp_path / "run")
    assert folder["game"].tolist() == list(range(50))
    assert folder.attrs == a.attrs  # the first file's
    assert ludosim.load(str(path), columns=["turns"]).columns.tolist() == ["turns"]


@pytest.mark.parametrize("bad", [None, "", "   ", 42])
def test_load_of_no_path_is_a_clear_error(bad: object) -> None:
    with pytest.raises(ResultsError, match="path must"):
        ludosim.load(bad)  # type: ignore[arg-type]


def test_load_of_a_file_that_is_not_parquet_names_it(tmp_path: Path) -> None:
    path = tmp_path / "notes.parquet"
    path.write_text("hello")
    with pytest.raises(ResultsError, match=r"notes\.parquet is not a readable Parquet file"):
        ludosim.load(path)


def test_write_parquet_refuses_a_folder_and_leaves_no_temporary(tmp_path: Path) -> None:
    with pytest.raises(ResultsError, match="is a folder"):
        results.write_parquet(fake_rows(Rules.preset("app"), 5, 1), tmp_path)
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    with pytest.raises(ResultsError, match="cannot create its folder"):
        results.write_parquet(fake_rows(Rules.preset("app"), 5, 1), blocker / "x.parquet")
    results.write_parquet(fake_rows(Rules.preset("app"), 5, 1), tmp_path / "ok.parquet")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a-file", "ok.parquet"]


# ------------------------------------------------------------------ chunk stamps
FIXTURE = ROOT / "tests" / "fixtures" / "results_small" / "toggles"
FIRST = "chunk-000000000000.parquet"


def _swapped(tmp_path: Path) -> tuple[Path, Path]:
    """A copy of a sweep with cell c001's first chunk copied over c000's; (folder, chunk)."""
    out = tmp_path / "sweep"
    shutil.copytree(FIXTURE, out)
    chunk = out / "rows" / "cell=c000" / FIRST
    shutil.copyfile(out / "rows" / "cell=c001" / FIRST, chunk)
    return out, chunk


@pytest.mark.parametrize("part", ["", "rows", "rows/cell=c000", f"rows/cell=c000/{FIRST}"])
def test_a_chunk_copied_over_another_is_refused_naming_it(tmp_path: Path, part: str) -> None:
    out, chunk = _swapped(tmp_path)
    with pytest.raises(ResultsError) as info:
        ludosim.load(out / part if part else out)
    message = str(info.value)
    assert message.startswith(f"{chunk} holds cell c001, games 0-149 of sweep ")
    assert ", not cell c000; rerun the sweep's command" in message and "\n" not in message


def test_report_of_a_swapped_chunk_is_one_line_and_exit_2(tmp_path: Path) -> None:
    from ludosim.cli.app import app

    out, chunk = _swapped(tmp_path)
    result = CliRunner().invoke(app, ["report", str(out), "--out", str(tmp_path / "report")])
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith(f"error: {chunk} holds cell c001")
    assert not (tmp_path / "report").exists()


def test_a_chunk_of_another_sweep_or_range_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "sweep"
    shutil.copytree(FIXTURE, out)
    second = out / "rows" / "cell=c000" / "chunk-000000000150.parquet"
    shutil.copyfile(out / "rows" / "cell=c000" / FIRST, second)
    with pytest.raises(ResultsError, match=r"holds cell c000, games 0-149 of sweep \w+, not games"):
        ludosim.load(out)
    shutil.copyfile(FIXTURE / "rows" / "cell=c000" / second.name, second)
    ludosim.load(out)  # restored: whole again
    manifest = json.loads((out / "manifest.json").read_text())
    manifest["spec_hash"] = "0" * 16
    (out / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ResultsError, match=f"of sweep {FIXTURE_HASH}, not of sweep 0000"):
        ludosim.load(out)


def test_a_chunk_keeps_its_cell_outside_its_sweep_and_whole_sweeps_load(tmp_path: Path) -> None:
    loose = tmp_path / FIRST
    shutil.copyfile(FIXTURE / "rows" / "cell=c001" / FIRST, loose)
    df = ludosim.load(loose)
    assert df["cell"].astype(str).unique().tolist() == ["c001"] and len(df) == 150
    assert len(ludosim.load(FIXTURE)) == 1800
    for cell in ludosim.load(FIXTURE)["cell"].cat.categories:
        assert len(ludosim.load(FIXTURE / "rows" / f"cell={cell}")) == 300
