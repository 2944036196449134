"""`ludosim sweep`: spec expansion, validation before play, resume, backends, load.

Every test plays tiny sweeps (a few hundred games per cell, chunks of tens of
games) so the whole file runs in well under a minute.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import tomllib
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest

from ludosim import results
from ludosim.sweep import SweepError, SweepSpec, expand, plan, run_sweep, spec_hash, store
from ludosim.sweep import execute as sweep_execute

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent  # this file's folder: on the child processes' path


def _fake_simulate(rules, games, seed, policies="random", *, summary=False, threads=None,
                   first_game=0, **_):  # fmt: skip
    """Stand-in kernel, deterministic in (seed, game), until ludosim.simulate exists."""
    g = np.arange(first_game, first_game + games, dtype=np.int64)
    h = (g * 2654435761 + seed * 97 + rules.six_limit * 13 + rules.players) % 1000003
    n = rules.players
    df = pd.DataFrame(
        {
            "game": g,
            "first": (h % n).astype("int8"),
            "winner": ((h // 7) % n).astype("int8"),
            "turns": (50 + h % 200).astype("int32"),
            "truncated": np.zeros(games, bool),
        }
    )
    for s in range(n):
        df[f"place_{s}"] = ((h + s) % n + 1).astype("int8")
    if summary:
        return pd.DataFrame({"games": [games], "turns_sum": [int(df["turns"].sum())]})
    return df


def _real_or_fake():
    try:
        from ludosim.run.simulate import simulate
    except ImportError:
        return _fake_simulate
    return simulate


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Route the sweep to the kernel through a counter: (first_game, games) per chunk."""
    kernel = _real_or_fake()
    seen: list[tuple[int, int]] = []

    def counting(rules, games, seed, **kwargs):
        seen.append((kwargs.get("first_game", 0), games))
        return kernel(rules, games, seed, **kwargs)

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: counting)
    return seen


def small_spec(**changes) -> SweepSpec:
    options = dict(
        preset="app", vary=["six_limit=0,3", "finish=exact,bounce"], games=200, seed=5,
        chunk_size=64,
    )  # fmt: skip
    options.update(changes)
    return SweepSpec.from_options(**options)


# ------------------------------------------------------------------ spec
def test_grid_expands_full_factorial_with_named_cells() -> None:
    cells = expand(small_spec())
    assert [c.id for c in cells] == ["c000", "c001", "c002", "c003"]
    assert cells[3].name == "six_limit=3 finish=bounce"
    assert (cells[3].rules.six_limit, cells[3].rules.finish) == (3, "bounce")
    assert all(c.games == 200 and c.seed == 5 for c in cells)
    assert cells[0].chunks(64) == [(0, 64), (64, 128), (128, 192), (192, 200)]


def test_one_at_a_time_varies_from_the_base_and_skips_the_base_value() -> None:
    # app has six_limit=3 and finish=exact: only the other values make cells.
    cells = expand(small_spec(mode="one-at-a-time"))
    assert [c.name for c in cells] == ["base", "six_limit=0", "finish=bounce"]


def test_toml_with_variants_matches_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "grid.toml"
    path.write_text(
        textwrap.dedent(
            """
            preset = "app"
            games = 200
            seed = 5
            chunk_size = 64
            [vary]
            six_limit = [0, 3]
            finish = ["exact", "bounce"]
            """
        )
    )
    spec = SweepSpec.from_toml(path)
    assert spec.name == "grid"
    assert spec_hash(spec) == spec_hash(small_spec())

    path.write_text(
        textwrap.dedent(
            """
            games = 100
            seed = 1
            [set]
            max_turns = 5000
            [vary]
            policies = ["random"]
            [variants.app]
            preset = "app"
            [variants.killer2]
            preset = "killer"
            set = { players = 2, seating = [0, 2] }
            """
        )
    )
    cells = expand(SweepSpec.from_toml(path))
    assert [c.name for c in cells] == ["app policies=random", "killer2 policies=random"]
    assert cells[1].rules.players == 2 and cells[1].rules.max_turns == 5000
    assert cells[1].policies == ("random", "random")


def test_vary_accepts_bracketed_values_holding_commas() -> None:
    spec = SweepSpec.from_options(
        preset="danish", vary=["safe=[],[starts,globes]"], games=10, seed=1
    )
    assert [c.rules.safe for c in expand(spec)] == [(), ("starts", "globes")]


def test_vary_holds_typed_values_whichever_way_the_spec_is_given(tmp_path: Path) -> None:
    """Text, TOML and Python values of `vary` parse once, on construction, to the same
    typed values; a copy keeps them and writes the same manifest spec."""
    options = SweepSpec.from_options(
        preset="danish", vary=["six_limit=0,3", "safe=[],[globes,starts]"], seed=1
    )
    path = tmp_path / "grid.toml"
    path.write_text(
        "preset = 'danish'\nseed = 1\n[vary]\nsix_limit = [0, 3]\nsafe = [[], 'globes,starts']\n"
    )
    given = SweepSpec(
        preset="danish", seed=1, vary={"six_limit": ["0", 3], "safe": ["", ["starts", "globes"]]}
    )
    typed = {"six_limit": (0, 3), "safe": ((), ("starts", "globes"))}
    for spec in (options, SweepSpec.from_toml(path), given):
        assert spec.vary == typed
        assert spec.with_overrides(games=20).vary == typed
        assert spec.to_dict()["vary"] == {"six_limit": [0, 3], "safe": [[], ["starts", "globes"]]}
    with pytest.raises(SweepError, match=r"vary\.six_limit: six_limit='7' is not allowed"):
        SweepSpec(preset="app", seed=1, vary={"six_limit": ["0", "7"]})


def test_dry_run_plan_lists_cells_and_plays_nothing(calls: list) -> None:
    df = plan(small_spec())
    assert list(df["cell"]) == ["c000", "c001", "c002", "c003"]
    assert {"six_limit", "finish", "policies", "games", "seed", "rules_hash", "chunks"} <= set(
        df.columns
    )
    assert df["chunks"].tolist() == [4, 4, 4, 4]
    assert calls == []


# ------------------------------------------------------------ bad inputs
@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"vary": ["sixlimit=0,3"]}, "vary.sixlimit: unknown toggle"),
        ({"vary": ["six_limit=0,7"]}, "vary.six_limit: six_limit='7' is not allowed"),
        ({"sets": ["finish=maybe"]}, "set.finish: finish='maybe' is not allowed"),
        ({"vary": ["players=4,5"]}, "cell c001 (players=5): players/sides"),
        ({"vary": ["six_limit=0,0"]}, "vary.six_limit lists 0 twice"),
        ({"vary": ["six_limit"]}, "is not TOGGLE=V1,V2"),
        ({"mode": "random"}, "mode='random' is not allowed"),
        ({"policies": "clever"}, "unknown policy 'clever'"),
        ({"preset": "nope"}, "unknown preset 'nope'"),
    ],
)
def test_bad_specs_fail_before_any_game(
    tmp_path: Path, calls: list, options: dict, message: str
) -> None:
    with pytest.raises(SweepError) as info:
        run_sweep(small_spec(**options), tmp_path / "out")
    assert message in str(info.value)
    assert "\n" not in str(info.value)
    assert calls == []
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(
    ("table", "line", "message"),
    [
        ("set", "scoring = 'steps'\nhome_bonus = inf", "home_bonus=inf is not an integer"),
        ("set", "scoring = 'steps'\nmove_limit = nan", "move_limit=nan is not an integer"),
        ("set", "enter_faces = [1.5]", "enter_faces has face 1.5"),
        ("set", "star_offsets = [4, inf]", "star_offsets=inf is not an integer"),
        ("set", "teams = [0, 1, 0, 1.5]", "teams=1.5 is not an integer"),
        ("vary", "max_turns = [1000, inf]", "max_turns=inf is not an integer"),
        ("vary", "start_out = [0, 0.5]", "start_out=0.5 is not an integer"),
        ("vary", "win_pieces = [nan, 2]", "win_pieces=nan is not an integer"),
        ("vary", "players = [2, -inf]", "players=-inf is not an integer"),
    ],
)
def test_a_sweep_file_refuses_a_whole_number_toggle_that_is_not_one(
    tmp_path: Path, calls: list, table: str, line: str, message: str
) -> None:
    """Never truncated to what would be played, never an OverflowError: one line, no folder."""
    path = tmp_path / "sweep.toml"
    path.write_text(f"preset = 'app'\nseed = 1\ngames = 100\n[{table}]\n{line}\n")
    with pytest.raises(SweepError) as info:
        run_sweep(SweepSpec.from_toml(path), tmp_path / "out")
    assert message in str(info.value)
    assert "allowed" in str(info.value)
    assert "\n" not in str(info.value)
    assert calls == []
    assert not (tmp_path / "out").exists()


def test_impossible_combination_names_the_cell_in_killer() -> None:
    spec = SweepSpec.from_options(preset="killer", vary=["six_limit=0,3"], games=10, seed=1)
    with pytest.raises(SweepError, match=r"cell c001 \(six_limit=3\): roll_then_move/six_limit"):
        expand(spec)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("preset = 'app'\ngames = \n", "is not valid TOML"),
        ("preset = 'app'\ngamez = 10\n", "unknown key 'gamez'"),
        ("preset = 'app'\n[vary]\nsix_limit = 3\n", "vary.six_limit must be a list"),
        ("preset = 'app'\n[variants.x]\npreset = 'app'\nsets = {}\n", "variants.x: unknown key"),
        ("preset = 'app'\n[set]\nsix = 3\n", "set.six: unknown toggle"),
    ],
)
def test_malformed_toml_is_one_clear_error(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text)
    with pytest.raises(SweepError) as info:
        SweepSpec.from_toml(path)
    assert str(info.value).startswith(str(path))
    assert message in str(info.value)


def test_unwritable_folder_fails_before_any_game(tmp_path: Path, calls: list) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    # A folder under a regular file can never be created, even by root (chmod would not do).
    with pytest.raises(SweepError, match="is not writable"):
        run_sweep(small_spec(), blocker / "out")
    with pytest.raises(SweepError, match="is a file"):
        run_sweep(small_spec(), blocker)
    assert calls == []


def test_folder_of_another_sweep_is_refused_unless_new(tmp_path: Path, calls: list) -> None:
    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    before = len(calls)
    with pytest.raises(SweepError, match="holds a different sweep"):
        run_sweep(small_spec(seed=6), out)
    assert len(calls) == before
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(SweepError, match="is not a sweep folder"):
        run_sweep(small_spec(), tmp_path / "other")

    result = run_sweep(small_spec(seed=6), out, new=True)
    assert result.moved_aside is not None and result.moved_aside.name.startswith("out.replaced-")
    # The old sweep is moved, not deleted: it still loads.
    assert results.load(result.moved_aside).shape[0] == 800
    assert results.load_manifest(out)["spec"]["seed"] == 6


# ------------------------------------------------------ resume and repair
def _chunk_files(out: Path) -> dict[Path, tuple[int, int]]:
    return {p: (p.stat().st_ino, p.stat().st_mtime_ns) for p in out.rglob("chunk-*.parquet")}


def test_rerun_skips_finished_chunks_and_repairs_damaged_ones(tmp_path: Path, calls: list) -> None:
    out = tmp_path / "out"
    first = run_sweep(small_spec(), out)
    assert (first.chunks_computed, first.chunks_skipped) == (16, 0)
    clean = results.load(out)

    files = sorted(out.rglob("chunk-*.parquet"))
    truncated, foreign = files[1], files[6]
    truncated.write_bytes(truncated.read_bytes()[:-100])  # the footer is gone
    foreign.write_bytes(files[0].read_bytes())  # whole, but another chunk's rows
    (files[2].parent / ".chunk-000000000064.parquet.999.tmp").write_bytes(b"partial")
    kept = {p: v for p, v in _chunk_files(out).items() if p not in (truncated, foreign)}
    calls.clear()

    second = run_sweep(small_spec(), out)
    assert (second.chunks_computed, second.chunks_skipped) == (2, 14)
    assert len(second.repaired) == 2
    assert "unreadable" in " ".join(second.repaired) and "stamped" in " ".join(second.repaired)
    assert len(calls) == 2
    assert {p: v for p, v in _chunk_files(out).items() if p in kept} == kept
    assert not list(out.rglob("*.tmp"))
    pdt.assert_frame_equal(results.load(out), clean)

    calls.clear()
    third = run_sweep(small_spec(), out)
    assert (third.chunks_computed, third.chunks_skipped, calls) == (0, 16, [])
    manifest = results.load_manifest(out)
    assert manifest["complete"] is True
    assert [r["computed"] for r in manifest["runs"]] == [16, 2, 0]


_CHILD = """
import sys, time
sys.path.insert(0, {tests!r})
import test_sweep
from ludosim.sweep import execute, SweepSpec, run_sweep
kernel = test_sweep._real_or_fake()
def slow(*args, **kwargs):
    time.sleep(0.15)  # slow enough for the parent to kill it between chunks
    return kernel(*args, **kwargs)
execute._kernel = lambda: slow
run_sweep(test_sweep.small_spec(), {out!r})
"""


def test_resume_after_sigkill_equals_a_clean_run(tmp_path: Path, calls: list) -> None:
    out = tmp_path / "killed"
    script = _CHILD.format(tests=str(HERE), out=str(out))
    child = subprocess.Popen([sys.executable, "-c", script], cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while len(list(out.rglob("chunk-*.parquet"))) < 5:
            assert child.poll() is None, "the sweep ended before it could be killed"
            assert time.monotonic() < deadline, "no chunks written within 60 s"
            time.sleep(0.02)
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    survivors = _chunk_files(out)
    assert 5 <= len(survivors) < 16

    resumed = run_sweep(small_spec(), out)
    assert resumed.chunks_skipped == len(survivors)
    assert resumed.chunks_computed == 16 - len(survivors) == len(calls)
    assert {p: v for p, v in _chunk_files(out).items() if p in survivors} == survivors
    chunks = results.load_manifest(out)["chunks"]
    assert all(state["computed"] <= 1 for cell in chunks.values() for state in cell.values())

    clean = run_sweep(small_spec(), tmp_path / "clean")
    assert clean.chunks_computed == 16
    pdt.assert_frame_equal(results.load(out), results.load(tmp_path / "clean"))


def test_rows_do_not_depend_on_chunk_size(tmp_path: Path, calls: list) -> None:
    run_sweep(small_spec(chunk_size=64), tmp_path / "a")
    run_sweep(small_spec(chunk_size=1000), tmp_path / "b")
    pdt.assert_frame_equal(results.load(tmp_path / "a"), results.load(tmp_path / "b"))


def test_dask_local_cluster_gives_the_same_rows(tmp_path: Path, calls: list) -> None:
    distributed = pytest.importorskip("distributed")
    run_sweep(small_spec(), tmp_path / "local")
    # In-process workers: fast to start, and they see this test's kernel.
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster) as client,
    ):
        result = run_sweep(small_spec(), tmp_path / "dask", dask=client, threads=1)
    assert result.chunks_computed == 16
    pdt.assert_frame_equal(results.load(tmp_path / "local"), results.load(tmp_path / "dask"))
    assert results.load_manifest(tmp_path / "dask")["runs"][0]["backend"] == "dask:client"


def test_unreachable_scheduler_is_a_clean_error(tmp_path: Path, calls: list) -> None:
    with pytest.raises(SweepError, match="is not allowed; use local or a scheduler"):
        run_sweep(small_spec(), tmp_path / "x", dask="somewhere")


# ------------------------------------------------------------------ load
def test_load_round_trip_with_cells_joined(tmp_path: Path, calls: list) -> None:
    out = tmp_path / "out"
    spec = small_spec()
    run_sweep(spec, out)
    df = results.load(out, cells=True)
    assert len(df) == 800
    assert df["cell"].dtype == "category"
    assert list(df["cell"].cat.categories) == ["c000", "c001", "c002", "c003"]
    for cell in expand(spec):
        rows = df[df["cell"] == cell.id]
        assert rows["game"].tolist() == list(range(200))
        assert (rows["six_limit"] == cell.rules.six_limit).all()
        assert (rows["finish"] == cell.rules.finish).all()
        assert (rows["name"] == cell.name).all()
        kernel = _real_or_fake()
        direct = kernel(cell.rules, 200, 5, policies="random")
        got = rows.drop(columns=["cell", "name", "policies", "six_limit", "finish"])
        pdt.assert_frame_equal(got.reset_index(drop=True), direct, check_like=False)

    cells = results.load_cells(out)
    assert len(cells) == 4 and {"rules_hash", "pass_opponents", "policies"} <= set(cells.columns)
    one = sorted((out / "rows" / "cell=c002").glob("chunk-*.parquet"))[1]
    part = results.load(one)
    assert part["cell"].tolist() == ["c002"] * 64 and part["game"].iloc[0] == 64
    assert len(results.load(out / "rows" / "cell=c002", cells=True)) == 200
    with pytest.raises(results.ResultsError, match="does not exist"):
        results.load(tmp_path / "missing")


def test_load_mixed_player_counts_keeps_integer_columns(tmp_path: Path, calls: list) -> None:
    spec = SweepSpec.from_options(preset="app", vary=["players=2,3"], games=50, seed=1)
    run_sweep(spec, tmp_path / "out")
    df = results.load(tmp_path / "out", cells=True)
    assert df["place_0"].dtype == "int8"
    assert df["place_2"].isna().sum() == 50 and df["place_2"].dtype == "Int8"
    assert set(df["players"]) == {2, 3}


def test_incomplete_sweep_loads_with_a_warning(
    tmp_path: Path, calls: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stopped before its last chunk (games 192-199 of c003), a sweep loads what it finished
    and says what it has not; a chunk it finished and then lost is refused instead
    (tests/test_bad_input.py)."""
    out = tmp_path / "out"
    _interrupt_after(15, calls, monkeypatch)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(small_spec(), out)
    with pytest.warns(results.IncompleteSweep, match="1 of 16 chunks not yet computed"):
        assert len(results.load(out)) == 800 - 8


def test_manifest_records_versions_spec_and_chunk_states(tmp_path: Path, calls: list) -> None:
    from ludosim import __version__
    from ludosim.rules.model import SEMANTICS_VERSION

    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    manifest = json.loads((out / store.MANIFEST).read_text())
    assert manifest["ludosim_version"] == __version__
    assert manifest["semantics_version"] == SEMANTICS_VERSION
    assert manifest["spec"]["vary"] == {"six_limit": [0, 3], "finish": ["exact", "bounce"]}
    assert manifest["spec_hash"] == spec_hash(small_spec())
    state = manifest["chunks"]["c000"]["128"]
    assert (state["state"], state["rows"], state["stop"], state["computed"]) == ("done", 64, 192, 1)


# The sweep files of analyses/; the studies of `ludosim skill` and `ludosim unfold` list
# their rule sets as [[rule_set]] tables (tests/studies/test_skill.py,
# tests/studies/test_leads.py), those of `ludosim design` their free house rules
# (tests/studies/test_design.py), and `ludosim duels` its [[duel]] tables
# (tests/studies/test_duels.py).
SWEEP_FILES = sorted(
    p
    for p in (ROOT / "analyses").glob("*.toml")
    if not {"rule_set", "free", "duel"} & set(tomllib.loads(p.read_text(encoding="utf-8")))
)


@pytest.mark.parametrize("path", SWEEP_FILES, ids=lambda p: p.name)
def test_example_sweep_files_expand(path: Path) -> None:
    cells = expand(SweepSpec.from_toml(path))
    assert cells and len({c.name for c in cells}) == len(cells)


def _interrupt_after(chunks: int, calls: list, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Route the sweep to a kernel that plays `chunks` chunks, then raises KeyboardInterrupt.

    Returns the counting kernel of `calls`, to route the sweep back to it.
    """
    counting = sweep_execute._kernel()

    def interrupted(rules, games, seed, **kwargs):
        if len(calls) == chunks:
            raise KeyboardInterrupt
        return counting(rules, games, seed, **kwargs)

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: interrupted)
    return counting


def test_ctrl_c_keeps_finished_chunks_and_marks_the_run(
    tmp_path: Path, calls: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    counting = _interrupt_after(6, calls, monkeypatch)
    out = tmp_path / "out"
    with pytest.raises(KeyboardInterrupt):
        run_sweep(small_spec(), out)
    assert len(list(out.rglob("chunk-*.parquet"))) == 6
    manifest = results.load_manifest(out)
    assert (manifest["runs"][0]["status"], manifest["complete"]) == ("interrupted", False)
    monkeypatch.setattr(sweep_execute, "_kernel", lambda: counting)
    assert run_sweep(small_spec(), out).chunks_skipped == 6


def test_manifest_size_does_not_grow_with_pending_chunks(
    tmp_path: Path, calls: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Pending chunks are implicit: 160 one-game chunks cost the manifest no more than 4."""
    counting = _interrupt_after(2, calls, monkeypatch)
    sizes = {}
    for chunk_size in (1, 40):
        out = tmp_path / f"chunks-{chunk_size}"
        calls.clear()
        with pytest.raises(KeyboardInterrupt):
            run_sweep(small_spec(games=40, chunk_size=chunk_size), out)
        manifest = results.load_manifest(out)
        recorded = [s for cell in manifest["chunks"].values() for s in cell.values()]
        assert [s["state"] for s in recorded] == ["done", "done"]
        sizes[chunk_size] = (out / store.MANIFEST).stat().st_size
    # The two manifests differ only in the chunk size written in the spec and in
    # timestamps and durations, never by an entry per planned chunk.
    assert abs(sizes[1] - sizes[40]) < 100, sizes
    monkeypatch.setattr(sweep_execute, "_kernel", lambda: counting)
    resumed = run_sweep(small_spec(games=40, chunk_size=1), tmp_path / "chunks-1")
    assert (resumed.chunks_skipped, resumed.chunks_computed) == (2, 158)
    assert len(results.load(tmp_path / "chunks-1")) == 4 * 40


def test_listed_pending_chunks_are_dropped_on_resume(tmp_path: Path, calls: list) -> None:
    """A manifest listing pending chunks resumes, and lists only finished ones afterwards."""
    out = tmp_path / "out"
    run_sweep(small_spec(), out)
    manifest = json.loads((out / store.MANIFEST).read_text())
    states = manifest["chunks"]["c001"]
    states["64"] = {"stop": 128, "state": "pending", "computed": 0}
    states["128"] = {"stop": 192, "state": "pending", "computed": 1}
    (out / store.MANIFEST).write_text(json.dumps(manifest))
    calls.clear()
    again = run_sweep(small_spec(), out)
    # Both files are whole on disk: adopted, not recomputed.
    assert (again.chunks_skipped, again.chunks_computed, again.adopted) == (16, 0, 2)
    states = results.load_manifest(out)["chunks"]["c001"]
    assert (states["64"]["state"], states["64"]["computed"]) == ("done", 1)
    assert (states["128"]["state"], states["128"]["computed"]) == ("done", 1)
    listed = [
        s["state"] for cell in results.load_manifest(out)["chunks"].values() for s in cell.values()
    ]
    assert listed == ["done"] * 16


def test_progress_callback_counts_every_game(tmp_path: Path, calls: list) -> None:
    seen: list[tuple[int, int]] = []
    result = run_sweep(small_spec(), tmp_path / "out", progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, 800) and seen[-1] == (800, 800)
    # At the start, at the end of each of the 16 chunks, and while a chunk plays.
    ends = {200 * cell + stop for cell in range(4) for stop in (64, 128, 192, 200)}
    assert ends <= {d for d, _ in seen}
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)
    assert result.describe().startswith("sweep complete: 4 cells, 800 games, 16 chunks")


def test_summary_only_keeps_chunk_totals_that_add_up_to_the_cell(
    tmp_path: Path, calls: list
) -> None:
    simulate = pytest.importorskip("ludosim.run.simulate")
    spec = SweepSpec.from_options(
        preset="italian", vary=["players=2,4"], games=200, seed=3, chunk_size=64, summary_only=True
    )
    out = tmp_path / "out"
    run_sweep(spec, out)
    assert not (out / "rows").exists()
    chunks = results.load(out)
    assert len(chunks) == 8 and chunks["games"].sum() == 400
    assert chunks[["cell", "start", "stop"]].iloc[1].tolist() == ["c000", 64, 128]
    got = results.summaries(out)
    for cell in expand(spec):
        want = simulate.simulate(cell.rules, 200, 3, summary=True)
        have = got[cell.id]
        assert (have.games, have.truncated, have.no_winner) == (200, want.truncated, want.no_winner)
        assert have.sums == want.sums and have.sums_sq == want.sums_sq
        pdt.assert_frame_equal(have.seats, want.seats, check_dtype=False)
        pdt.assert_frame_equal(have.places, want.places, check_dtype=False)
        pdt.assert_series_equal(have.wins_by_position, want.wins_by_position, check_dtype=False)
        pdt.assert_frame_equal(have.hist, want.hist, check_dtype=False)
    # Rerunning skips every chunk: summary chunks are checked like row chunks.
    assert run_sweep(spec, out).chunks_skipped == 8


def test_load_widens_a_column_stored_narrower_in_some_files(tmp_path: Path) -> None:
    """`returned_<s>` is int8 when its values fit, else int16: files may differ."""
    import pandas as pd

    folder = tmp_path / "rows"
    folder.mkdir()
    narrow = pd.DataFrame({"game": [0, 1], "returned_0": pd.array([1, 2], dtype="int8")})
    wide = pd.DataFrame({"game": [2], "returned_0": pd.array([300], dtype="int16")})
    narrow.to_parquet(folder / "chunk-0.parquet", index=False)
    wide.to_parquet(folder / "chunk-1.parquet", index=False)
    df = results.load(folder)
    assert df["returned_0"].dtype == "int16"
    assert df["returned_0"].tolist() == [1, 2, 300]


def test_load_reads_a_simulate_out_file(tmp_path: Path) -> None:
    simulate = pytest.importorskip("ludosim.run.simulate")
    from ludosim.rules.model import Rules

    df = simulate.simulate(Rules.preset("danish"), 100, 2)
    path = results.write_parquet(df, tmp_path / "one.parquet")
    loaded = results.load(path)
    assert "cell" not in loaded.columns
    pdt.assert_frame_equal(loaded, df)
    assert loaded.attrs == df.attrs
    assert loaded.attrs["rules_hash"] == Rules.preset("danish").hash()


def test_dask_local_string_starts_and_stops_its_own_cluster(tmp_path: Path) -> None:
    pytest.importorskip("distributed")
    spec = small_spec(vary=["six_limit=0,3"], games=100, chunk_size=50)
    run_sweep(spec, tmp_path / "local")
    # Real worker processes: they import ludosim and the real kernel themselves.
    result = run_sweep(spec, tmp_path / "dask", dask="local", workers=2)
    assert result.chunks_computed == 4
    pdt.assert_frame_equal(results.load(tmp_path / "local"), results.load(tmp_path / "dask"))
