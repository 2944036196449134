"""Precision targets of `ludosim sweep`: Stein's two-stage sample size, resume, bad targets.

The pure functions are checked against Student-t table values and the
formula's own properties; the sweeps play the `app` preset with 2,000-game
pilots (a few thousand games per test, the kernel compiles once per process).
"""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pandas.testing as pdt
import pytest
from typer.testing import CliRunner

from ludosim import results
from ludosim.cli.app import app as cli_app
from ludosim.report import analysis
from ludosim.results import summarize
from ludosim.results.chunks import chunk_moments
from ludosim.rules.model import Rules
from ludosim.run.simulate import simulate
from ludosim.sweep import (
    SweepError,
    SweepSpec,
    plan,
    precision_status,
    run_sweep,
    spec_from_command,
    spec_hash,
    store,
)
from ludosim.sweep import execute as sweep_execute
from ludosim.sweep.precision import (
    MIN_PILOT,
    Moments,
    PrecisionError,
    Target,
    parse_target,
    plan_cell,
    required_games,
    sample_sd,
    t_quantile,
)

runner = CliRunner()


# ------------------------------------------------------------------ pure functions
@pytest.mark.parametrize(
    ("dof", "table", "tolerance"),
    # Two-sided 95% quantiles of Student's t (standard tables, 6 decimals).
    [(10, 2.228139, 1e-4), (30, 2.042272, 1e-5), (100, 1.983972, 1e-5), (1000, 1.962339, 1e-5)],
)
def test_t_quantile_matches_the_table(dof: int, table: float, tolerance: float) -> None:
    assert t_quantile(0.975, dof) == pytest.approx(table, abs=tolerance)


def test_t_quantile_refuses_few_degrees_of_freedom() -> None:
    with pytest.raises(ValueError, match="dof >= 10"):
        t_quantile(0.975, 5)


def test_required_games_is_steins_formula() -> None:
    # (2 * 0.5 / 0.01)^2 = 10,000 exactly: no extra game for floating-point noise.
    assert required_games(0.5, 0.01, 100, 2.0) == 10_000
    # (1.96 * 0.5 / 0.01)^2 = 9,604 exactly as well.
    assert required_games(0.5, 0.01, 100, 1.96) == 9_604
    assert required_games(0.5, 0.01, 100, 1.97) == math.ceil((1.97 * 50) ** 2)
    # Never fewer than the pilot already played.
    assert required_games(0.5, 0.01, 20_000, 2.0) == 20_000
    # Halving the half-width quadruples the games (up to the ceiling).
    assert required_games(0.43, 0.0025, 100, 1.96) == pytest.approx(
        4 * required_games(0.43, 0.005, 100, 1.96), abs=4
    )
    with pytest.raises(ValueError):
        required_games(0.5, 0.0, 100, 1.96)


@pytest.mark.parametrize(
    ("text", "value", "unit"),
    [
        ("0.25pp", 0.25, "pp"),
        ("2pp", 2.0, "pp"),
        ("1turn", 1.0, "turn"),
        (" 0.5 turns", 0.5, "turn"),
    ],
)
def test_parse_target(text: str, value: float, unit: str) -> None:
    target = parse_target(text)
    assert (target.value, target.unit) == (value, unit)
    assert parse_target(str(target)) == target


@pytest.mark.parametrize(
    "text", ["0.25", "-0.25pp", "0pp", "0turn", "1percent", "pp", "", "1e999pp"]
)
def test_bad_targets_name_precision_and_the_allowed_forms(text: str) -> None:
    with pytest.raises(PrecisionError) as info:
        parse_target(text)
    message = str(info.value)
    assert message.startswith("precision=")
    assert "0.25pp" in message and "1turn" in message
    assert "\n" not in message


def test_plan_cell_uses_the_indicator_variance_and_the_t_quantile() -> None:
    target = Target(1.0, "pp")
    pilot = Moments(games=1_000, finished=1_000, first_wins=300)
    sd, count = sample_sd(pilot, target)
    # Sample sd (ddof=1) of 300 ones and 700 zeros.
    assert sd == pytest.approx(math.sqrt(0.3 * 0.7 * 1000 / 999))
    assert count == 1_000
    cell = plan_cell(pilot, target, max_games=10**9)
    assert cell.required == math.ceil((t_quantile(0.975, 999) * sd / 0.01) ** 2)
    assert cell.planned == cell.required and not cell.capped
    # Games without a finisher do not count: half of them missing doubles the games.
    half = Moments(games=2_000, finished=1_000, first_wins=300)
    assert plan_cell(half, target, 10**9).planned == pytest.approx(2 * cell.planned, abs=2)
    # The cap cuts the plan and says so.
    capped = plan_cell(pilot, target, max_games=5_000)
    assert (capped.planned, capped.capped) == (5_000, True)
    # A pilot that already suffices is the whole cell.
    loose = plan_cell(pilot, Target(10.0, "pp"), 10**9)
    assert (loose.planned, loose.capped) == (1_000, False)


def test_plan_cell_for_mean_turns_uses_the_turns_sd() -> None:
    turns = [100 + (7 * g) % 61 for g in range(500)]
    pilot = Moments(
        games=500, finished=500, turns_sum=sum(turns), turns_sumsq=sum(t * t for t in turns)
    )
    sd = pd.Series(turns).std(ddof=1)
    cell = plan_cell(pilot, Target(0.5, "turn"), 10**9)
    assert cell.sd == pytest.approx(sd)
    assert cell.planned == math.ceil((t_quantile(0.975, 499) * sd / 0.5) ** 2)


@pytest.mark.parametrize(("pilot", "target_pp"), [(200, 2.0), (2_000, 1.0)])
def test_two_stage_interval_covers_close_to_nominal(pilot: int, target_pp: float) -> None:
    """Stein's rule on a 0/1 variable (p = 1/4, win indicator of a fair 4-player game).

    Replays the procedure with binomial draws: pilot, plan, second stage; the
    interval is the final mean +- the target. Coverage is not exact for 0/1 data,
    so it is checked to be within 3 binomial sds (0.010 at 4,000 replications) of 95%.
    """
    rng = np.random.default_rng(7)
    p, reps, covered = 0.25, 4_000, 0
    target = Target(target_pp, "pp")
    for _ in range(reps):
        k0 = int(rng.binomial(pilot, p))
        cell = plan_cell(Moments(games=pilot, finished=pilot, first_wins=k0), target, 10**9)
        assert cell.planned > pilot  # the second stage is exercised
        k = k0 + int(rng.binomial(cell.planned - pilot, p))
        covered += abs(k / cell.planned - p) <= target.half_width
    tolerance = 3 * math.sqrt(0.95 * 0.05 / reps)
    assert covered / reps == pytest.approx(0.95, abs=tolerance)


def test_no_finisher_leaves_the_cell_at_its_pilot_and_unmet() -> None:
    cell = plan_cell(Moments(games=500), Target(1.0, "pp"), 10**6)
    assert (cell.planned, cell.required, cell.capped) == (500, None, True)


# ------------------------------------------------------------------ spec and command line
def precision_spec(**changes) -> SweepSpec:
    options = dict(preset="app", precision="1pp", pilot=2_000, seed=1, chunk_size=2_500)
    options.update(changes)
    return SweepSpec.from_options(**options)


@pytest.fixture
def calls(monkeypatch: pytest.MonkeyPatch) -> list[tuple[int, int]]:
    """Route the sweep's kernel through a counter of (first_game, games) per chunk."""
    seen: list[tuple[int, int]] = []

    def counting(rules, games, seed, **kwargs):
        seen.append((kwargs.get("first_game", 0), games))
        return simulate(rules, games, seed, **kwargs)

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: counting)
    return seen


@pytest.mark.parametrize("text", ["0.25", "-1pp", "0pp", "3furlongs"])
def test_cli_refuses_a_bad_target_before_any_game(tmp_path: Path, calls: list, text: str) -> None:
    out = tmp_path / "out"
    result = runner.invoke(
        cli_app, ["sweep", "--preset", "app", "--seed", "1", "--out", str(out), "--precision", text]
    )
    assert result.exit_code == 2
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "precision=" in lines[0] and "0.25pp" in lines[0]
    assert calls == []
    assert not out.exists()


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"pilot": MIN_PILOT - 1}, f"pilot={MIN_PILOT - 1} must be at least {MIN_PILOT}"),
        ({"max_games": 1_000}, "max_games=1000 must be at least the pilot (2000)"),
    ],
)
def test_bad_pilot_or_cap_is_one_line(changes: dict, message: str) -> None:
    with pytest.raises(SweepError, match=message.replace("(", r"\(").replace(")", r"\)")):
        precision_spec(**changes)


def test_games_and_precision_exclude_each_other(tmp_path: Path) -> None:
    with pytest.raises(SweepError, match="precision and games are exclusive"):
        spec_from_command(preset="app", seed=1, out=tmp_path, games=100, precision="1pp")
    with pytest.raises(SweepError, match="max_games applies only with a precision target"):
        spec_from_command(preset="app", seed=1, out=tmp_path, max_games=100)
    file = tmp_path / "both.toml"
    file.write_text('preset = "app"\ngames = 100\nprecision = "1pp"\n')
    with pytest.raises(SweepError, match=r"both\.toml: precision and games are exclusive"):
        SweepSpec.from_toml(file)


def test_toml_and_options_give_the_same_sweep(tmp_path: Path) -> None:
    file = tmp_path / "p.toml"
    file.write_text(
        'preset = "app"\nprecision = "1pp"\npilot = 2000\nseed = 1\nchunk_size = 2500\n'
    )
    from_file, _ = spec_from_command(file)
    assert spec_hash(from_file) == spec_hash(precision_spec())
    assert spec_hash(precision_spec(precision="0.5pp")) != spec_hash(precision_spec())
    # --games on the command line turns a precision file into a fixed-size run.
    fixed, _ = spec_from_command(file, games=500)
    assert fixed.precision is None and fixed.games == 500
    # --precision replaces the file's games.
    sized = tmp_path / "g.toml"
    sized.write_text('preset = "app"\ngames = 500\nseed = 1\n')
    targeted, _ = spec_from_command(sized, precision="2turn")
    assert targeted.target() == Target(2.0, "turn")


# ------------------------------------------------------------------ sweeps
def _achieved_from_rows(path: Path) -> tuple[float, float]:
    """(advantage, half-width) of the report's first-player-advantage table."""
    table = analysis.first_player_advantage(results.load(path), by="cell")
    first = table[table["position"] == 0].iloc[0]
    half = (first["advantage_ci_high"] - first["advantage_ci_low"]) / 2
    return float(first["advantage_pp"]), float(half)


def test_two_stage_sweep_reaches_the_target(tmp_path: Path, calls: list) -> None:
    out = tmp_path / "out"
    result = run_sweep(precision_spec(), out)
    status = precision_status(out).iloc[0]
    # 1pp on a win rate near 1/4 needs about (1.96 * 0.43 / 0.01)^2 ~ 7,000 games:
    # the second stage ran, as games 2000.. of the same streams.
    assert status["planned"] > 2_000
    assert status["games"] == status["planned"] == result.cells[0].games
    # The pilot's chunk (played in pieces) ends at game 2000, where the second stage begins.
    assert calls[0][0] == 0 and 2_000 in [start for start, _ in calls]
    assert all(a + g == b for (a, g), (b, _) in itertools.pairwise(calls))
    assert sum(g for _, g in calls) == status["planned"]
    # The achieved half-width is the target up to the pilot's sampling error of the sd
    # (relative sd of s about 1.3% for a 0/1 variable near 1/4 on 2,000 games) and the
    # Wilson/normal difference (under 0.1% here): 10% is more than 7 of those sds.
    assert status["half_width"] == pytest.approx(1.0, rel=0.10)
    assert bool(status["met"]) and not bool(status["capped"])
    # The half-width and estimate are the report's first-player-advantage interval.
    advantage, half = _achieved_from_rows(out)
    assert status["half_width"] == pytest.approx(half, abs=1e-5)
    assert status["estimate"] == pytest.approx(advantage, abs=1e-5)
    manifest = results.load_manifest(out)
    assert manifest["complete"] is True
    assert manifest["cells"][0]["games"] == status["planned"]
    assert results.load_cells(out)["games"].tolist() == [status["planned"]]
    assert "precision 1pp met in 1/1 cells" in result.describe()


def test_mean_turns_target(tmp_path: Path, calls: list) -> None:
    out = tmp_path / "out"
    run_sweep(precision_spec(precision="3turn"), out)
    status = precision_status(out).iloc[0]
    turns = results.load(out)["turns"].to_numpy(float)
    assert len(turns) == status["games"] == status["planned"] > 2_000
    assert status["estimate"] == pytest.approx(turns.mean())
    half = 1.959963984540054 * turns.std(ddof=1) / math.sqrt(len(turns))
    assert status["half_width"] == pytest.approx(half)
    # Same tolerance argument as above: the turn count's sd (about 90 turns on app)
    # is estimated to about 2% from 2,000 games (excess kurtosis below 1).
    assert status["half_width"] == pytest.approx(3.0, rel=0.10)


def test_resume_after_the_pilot_gives_the_same_rows(
    tmp_path: Path, calls: list, monkeypatch: pytest.MonkeyPatch
) -> None:
    spec = precision_spec()
    out = tmp_path / "out"
    before = plan(spec, out)
    assert before["plan"].tolist() == ["pilot first"] and before["planned"].isna().all()
    assert before["games"].tolist() == [2_000]

    def stop_after_pilot(rules, games, seed, **kwargs):
        if kwargs.get("first_game", 0) >= spec.pilot:
            raise KeyboardInterrupt
        calls.append((kwargs.get("first_game", 0), games))
        return simulate(rules, games, seed, **kwargs)

    monkeypatch.setattr(sweep_execute, "_kernel", lambda: stop_after_pilot)
    with pytest.raises(KeyboardInterrupt):
        run_sweep(spec, out)
    manifest = results.load_manifest(out)
    assert manifest["complete"] is False
    assert [(r["stage"], r["status"]) for r in manifest["runs"]] == [
        ("pilot", "complete"),
        ("second", "interrupted"),
    ]
    planned = manifest["precision"]["cells"]["c000"]["planned"]
    # The dry run now shows the plan from the pilot on disk.
    after = plan(spec, out)
    assert after["plan"].tolist() == ["from pilot"]
    assert after["planned"].tolist() == after["games"].tolist() == [planned]

    calls.clear()
    monkeypatch.setattr(
        sweep_execute,
        "_kernel",
        lambda: (
            lambda r, g, s, **k: calls.append((k.get("first_game", 0), g)) or simulate(r, g, s, **k)
        ),
    )
    resumed = run_sweep(spec, out)
    assert all(start >= spec.pilot for start, _ in calls)  # the pilot is not replayed
    assert resumed.complete and resumed.cells[0].games == planned
    clean = tmp_path / "clean"
    run_sweep(spec, clean)
    pdt.assert_frame_equal(results.load(out), results.load(clean))
    assert precision_status(out).equals(precision_status(clean))


def test_cap_stops_short_and_says_so(tmp_path: Path, calls: list) -> None:
    out = tmp_path / "out"
    run_sweep(precision_spec(max_games=3_000), out)
    status = precision_status(out).iloc[0]
    assert (status["games"], status["planned"]) == (3_000, 3_000)
    assert bool(status["capped"]) and not bool(status["met"])
    assert status["half_width"] > 1.0


def test_summary_chunks_give_the_same_totals(tmp_path: Path) -> None:
    rules = Rules.preset("app")
    rows = simulate(rules, 500, 3)
    summary = results.summary_to_frame(summarize(rules, rows))
    store.write_frame_atomic(rows, tmp_path / "rows.parquet", {})
    store.write_frame_atomic(summary, tmp_path / "summary.parquet", {})
    from_rows = chunk_moments(tmp_path / "rows.parquet", summary_only=False)
    assert chunk_moments(tmp_path / "summary.parquet", summary_only=True) == from_rows
    finished = rows[rows["winner"] >= 0]
    assert from_rows.games == 500 and from_rows.finished == len(finished)
    first = analysis.first_player_advantage(rows).iloc[0]
    assert from_rows.first_wins == first["wins"]
    assert from_rows.turns_sum == int(rows["turns"].sum())


def test_fixed_size_sweep_has_no_precision_section(tmp_path: Path, calls: list) -> None:
    spec = SweepSpec.from_options(preset="app", games=300, seed=1)
    run_sweep(spec, tmp_path / "out")
    assert "precision" not in json.loads((tmp_path / "out" / store.MANIFEST).read_text())
    assert "precision" not in spec.to_dict()
    assert precision_status(tmp_path / "out").empty


@pytest.mark.usefixtures("whole_chunks")
def test_cli_dry_run_then_run(tmp_path: Path, calls: list) -> None:
    out = tmp_path / "out"
    args = ["sweep", "--preset", "app", "--seed", "1", "--out", str(out), "--precision", "2pp"]
    args += ["--pilot", "2000"]
    dry = runner.invoke(cli_app, [*args, "--dry-run"])
    assert dry.exit_code == 0, dry.stderr
    assert "pilot first" in dry.stdout and "precision 2pp" in dry.stdout
    assert calls == [] and not out.exists()
    # 2pp needs about (1.96 * 0.43 / 0.02)^2 ~ 1,800 games: the 2,000-game pilot suffices.
    run = runner.invoke(cli_app, args)
    assert run.exit_code == 0, run.stderr
    assert "precision 2pp met in 1/1 cells" in run.stdout
    assert calls == [(0, 2_000)]
    status = precision_status(out).iloc[0]
    assert status["games"] == status["planned"] == 2_000
    assert status["half_width"] <= 2.0
    again = runner.invoke(cli_app, [*args, "--dry-run"])
    assert "from pilot" in again.stdout


def test_a_precision_spec_renders_as_a_command_and_a_file_that_rebuild_it(tmp_path: Path) -> None:
    from ludosim.sweep.spec import spec_command, spec_hash

    spec = SweepSpec.from_options(
        preset="app", vary=["six_limit=0,3"], seed=4, precision="0.5pp", pilot=3_000
    )
    command = spec_command(spec.to_dict(), "runs/x")
    assert command is not None and "--precision 0.5pp" in command and "--games" not in command
    words = command.split()[2:]
    flags = dict(zip(words[::2], words[1::2], strict=True))
    again = SweepSpec.from_options(
        preset=flags["--preset"],
        vary=[flags["--vary"]],
        seed=int(flags["--seed"]),
        precision=flags["--precision"],
        pilot=int(flags["--pilot"]),
    )
    assert spec_hash(again) == spec_hash(spec)
    file = tmp_path / "spec.toml"
    file.write_text(spec.to_toml(), encoding="utf-8")
    keys = [line.split("=")[0].strip() for line in file.read_text(encoding="utf-8").splitlines()]
    assert "games" not in keys and "precision" in keys
    assert spec_hash(SweepSpec.from_toml(file)) == spec_hash(spec)
