"""The command line: help and examples, output of each command, clean errors, docs.

`simulate` and `bench` are tested as adapters against stand-in library modules,
so these tests check the CLI's wiring whatever state the engine is in.
"""

from __future__ import annotations

import importlib
import re
import shlex
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from ludosim import RulesError, play
from ludosim.cli.app import app, command_names, main
from ludosim.cli.params import SEED_HELP, SEED_MISSING
from ludosim.results import Summary, summarize
from ludosim.rules.model import PRESETS, TOGGLES, Rules, presets
from ludosim.rules.options import parse_sets, rules_from_options
from ludosim.run.bench import bench_policies

ROOT = Path(__file__).resolve().parents[2]
runner = CliRunner()


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def example_of(name: str) -> str:
    """The example that ends the help text of command `name`."""
    command = next(c for c in app.registered_commands if (c.name or c.callback.__name__) == name)
    doc = (command.callback.__doc__ or "").strip()
    return doc.splitlines()[-1].strip()


# ------------------------------------------------------------------------------- help
def test_commands() -> None:
    assert command_names() == [
        "presets",
        "policies",
        "rules",
        "play",
        "simulate",
        "compare",
        "whatif",
        "bench",
        "tournament",
        "ratings",
        "skill",
        "unfold",
        "duels",
        "sweep",
        "report",
        "exact",
        "tune",
        "design",
    ]


@pytest.mark.parametrize("name", command_names())
def test_help_exists_and_ends_with_an_example(name: str) -> None:
    example = example_of(name)
    assert example.startswith(f"Example: ludosim {name}"), example
    result = invoke(name, "--help")
    assert result.exit_code == 0
    assert example.removeprefix("Example: ") in " ".join(result.stdout.split())


def test_top_level_help_lists_every_command() -> None:
    result = invoke("--help")
    assert result.exit_code == 0
    assert all(name in result.stdout for name in command_names())
    assert "Example: ludosim" in result.stdout


@pytest.mark.parametrize("name", command_names())
def test_an_example_writes_under_runs(name: str) -> None:
    """A help example run as it stands never writes into the folder it is run from."""
    args = shlex.split(example_of(name).removeprefix("Example: "))
    outs = [args[i + 1] for i, arg in enumerate(args[:-1]) if arg in ("--out", "-o")]
    assert all(out.startswith("runs/") for out in outs), outs


@pytest.mark.parametrize("name", ["presets", "policies", "rules", "play"])
def test_examples_run(name: str) -> None:
    args = shlex.split(example_of(name).removeprefix("Example: "))
    assert args[0] == "ludosim"
    result = invoke(*args[1:])
    assert result.exit_code == 0, result.stderr
    assert result.stdout


# ---------------------------------------------------------------------------- presets
def test_presets_lists_names_seeds_and_descriptions() -> None:
    result = invoke("presets")
    assert result.exit_code == 0
    for preset in PRESETS.values():
        assert preset.name in result.stdout
        for seed in preset.seeds:
            assert seed in result.stdout
        assert preset.description.split()[0] in result.stdout


# ------------------------------------------------------------------------------ rules
@pytest.mark.parametrize("name", presets())
def test_rules_lists_every_toggle(name: str) -> None:
    result = invoke("rules", "--preset", name)
    assert result.exit_code == 0, result.stderr
    for toggle in TOGGLES:
        assert toggle in result.stdout
    assert Rules.preset(name).hash() in result.stdout


def test_rules_toml_round_trips() -> None:
    result = invoke("rules", "-p", "killer", "--set", "players=5", "--set", "sides=6", "--toml")
    assert result.exit_code == 0, result.stderr
    expected = Rules.preset("killer").replace(players=5, sides=6)
    assert result.stdout == expected.to_toml()
    assert Rules.from_toml(result.stdout) == expected


# ------------------------------------------------------------------------------- play
@pytest.mark.parametrize("name", presets())
def test_play_prints_transcript_and_ranking(name: str) -> None:
    result = invoke("play", "--preset", name, "--seed", "7")
    assert result.exit_code == 0, result.stderr
    game = play(Rules.preset(name), seed=7)
    lines = result.stdout.splitlines()
    assert lines[: len(game.transcript)] == game.transcript
    assert "turn 1: seat" in result.stdout
    tail = "\n".join(lines[len(game.transcript) :])
    assert f"seat {game.winner} won after {game.turns} turns" in tail
    # Turn order in its own words: `--positions` means board positions in `play`.
    assert "place" in tail and "turn order" in tail and "position" not in tail
    assert "Turn order: 0 is the seat that moved first" in tail
    assert ("points" in tail) == (Rules.preset(name).scoring == "megajogos")
    places = [int(row.split()[1]) for row in tail.splitlines() if row.startswith("│")]
    assert places == list(range(1, Rules.preset(name).players + 1))


def test_play_with_sets_game_and_policy() -> None:
    result = invoke(
        "play", "-p", "danish", "--seed", "3", "--game", "2", "--set", "players=2",
        "--policy", "random", "--policy", "random",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    game = play(Rules.preset("danish").replace(players=2), seed=3, game=2)
    assert result.stdout.startswith("\n".join(game.transcript))


def test_play_is_deterministic() -> None:
    assert (
        invoke("play", "-p", "app", "--seed", "11").stdout
        == invoke("play", "-p", "app", "--seed", "11").stdout
    )


# ----------------------------------------------------------------------------- errors
BAD_ARGS = [
    (["rules", "-p", "app", "--set", "players"], "'players' is not TOGGLE=VALUE"),
    (["rules", "-p", "app", "--set", "players=9"], "players=9"),
    (["rules", "-p", "app", "--set", "colour=red"], "unknown toggle 'colour'"),
    (["rules", "-p", "app", "--set", "players=5"], "players/sides"),
    (["rules", "-p", "app", "--set", "players=2", "--set", "players=3"], "given twice"),
    (["rules", "-p", "dutch"], "unknown preset 'dutch'"),
    (["play", "-p", "app", "--seed", "1", "--set", "finish=overshoot"], "finish="),
    (["rules", "-p", "app", "--set", "six_limit=7"], "allowed values: 0, 2, 3, 4, 5, 6"),
    (["rules", "-p", "app", "--set", "bonus_stacking=two"], "allowed values: stack, one"),
    (
        ["rules", "-p", "app", "--set", "block_landing=bounce"],
        "allowed values: coexist, lander_home, capture, forbidden",
    ),
    (
        ["rules", "-p", "danish", "--set", "start_attempts_when=never"],
        "start_attempts_when='never' is not allowed; allowed values: always, game_start",
    ),
    (["rules", "-p", "killer", "--set", "bonus_stacking=one"], "roll_then_move/bonus_stacking"),
    (["play", "-p", "app", "--seed", "-1"], "seed"),
    (["play", "-p", "app", "--seed", "1", "--policy", "clever"], "unknown policy 'clever'"),
    (["simulate", "-p", "app", "--seed", "1", "--set", "bogus"], "'bogus' is not TOGGLE=VALUE"),
    (["whatif", "0:Y/Y/Y/Y", "-p", "app", "--seed", "1"], "seat 0 has 1 pieces; these rules"),
]


@pytest.mark.parametrize(("args", "message"), BAD_ARGS, ids=[" ".join(a) for a, _ in BAD_ARGS])
def test_errors_are_one_line_on_stderr(args: list[str], message: str) -> None:
    result = invoke(*args)
    assert result.exit_code == 2
    assert result.stdout == ""
    assert "Traceback" not in result.output
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    assert message in lines[0]


def installed() -> str:
    """The `ludosim` console script of this environment (`python -m ludosim.cli.app` would
    warn that the package imported the module before runpy ran it)."""
    return str(Path(sys.executable).with_name("ludosim"))


def test_errors_through_the_installed_entry_point() -> None:
    """The real process: exit code 2, one line on stderr, no traceback."""
    out = subprocess.run(
        [installed(), "play", "-p", "app", "--seed", "1", "--set", "x"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert "Traceback" not in out.stderr
    assert out.stderr.count("\n") == 1 and out.stderr.startswith("error: ")


def test_main_entry_point(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["presets"])
    assert info.value.code == 0
    assert "killer" in capsys.readouterr().out
    with pytest.raises(SystemExit) as info:
        main([])
    assert info.value.code == 0
    assert "Usage: ludosim" in capsys.readouterr().out


USAGE_ERRORS = [
    (["play"], "Missing option '--preset'"),
    (["play", "-p", "app"], "--seed is required"),
    (["play", "-p", "app", "--seed", "x"], "--seed"),
    (["play", "-p", "app", "--seed", "1", "--bogus"], "--bogus"),
    (["nosuch"], "nosuch"),
    (["rules", "-p", "app", "--set", "x"], "'x' is not TOGGLE=VALUE"),
]


@pytest.mark.parametrize(
    ("args", "message"), USAGE_ERRORS, ids=[" ".join(a) for a, _ in USAGE_ERRORS]
)
def test_usage_errors_are_one_line_too(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Through `main`, typer's own usage errors are one line as well."""
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines


# ---------------------------------------------------------------------------- options
def test_rules_from_options_is_preset_plus_one_replace() -> None:
    sets = ["pass_opponents=all", "first_player=seat0"]
    expected = Rules.preset("app").replace(pass_opponents="all", first_player="seat0")
    assert rules_from_options("app", sets) == expected
    assert rules_from_options("app") == Rules.preset("app")
    # all sets in one call: the order of interdependent toggles does not matter
    assert rules_from_options("killer", ["players=5", "sides=6"]) == rules_from_options(
        "killer", ["sides=6", "players=5"]
    )


def test_parse_sets() -> None:
    assert parse_sets(["a=1", " safe = starts,stars ", "seating="]) == {
        "a": "1",
        "safe": "starts,stars",
        "seating": "",
    }
    assert parse_sets(["x=a=b"]) == {"x": "a=b"}
    for bad in ("novalue", "=3", ""):
        with pytest.raises(RulesError, match="is not TOGGLE=VALUE"):
            parse_sets([bad])


# ----------------------------------------------------- simulate and bench (as adapters)
@pytest.fixture
def fake_simulate(monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    calls: dict[str, Any] = {}

    def simulate(rules: Rules, games: int, seed: int, **kwargs: Any) -> pd.DataFrame:
        calls["simulate"] = (rules, games, seed, kwargs)
        if kwargs.get("summary"):
            return Summary(
                games=games,
                truncated=1,
                no_winner=1,
                sums={"turns": 247 * games, "rolls": 0, "end_turns": 0},
                sums_sq={"turns": 0, "rolls": 0, "end_turns": 0},
                seats=pd.DataFrame(index=range(4)),
                wins_by_position=pd.Series([games - 2, 1, 0, 0]),
                places=pd.DataFrame(),
                hist=pd.DataFrame(),
            )
        n = rules.players
        winner = [(g * 3) % n for g in range(games)]
        return pd.DataFrame(
            {
                "game": range(games),
                "first": [g % n for g in range(games)],
                "winner": winner,
                "turns": [100 + g for g in range(games)],
                "truncated": [False] * games,
                **{f"place_{s}": [1 if w == s else 2 for w in winner] for s in range(n)},
            }
        )

    def write_parquet(df: pd.DataFrame, path: Path, *, overwrite: bool = True) -> None:
        calls["write_parquet"] = (len(df), Path(path))

    monkeypatch.setattr(importlib.import_module("ludosim.run.simulate"), "simulate", simulate)
    monkeypatch.setattr(importlib.import_module("ludosim.results"), "write_parquet", write_parquet)
    return calls


def test_simulate_prints_a_summary(fake_simulate: dict[str, Any]) -> None:
    result = invoke(
        "simulate", "-p", "app", "--set", "pass_opponents=all", "--games", "8", "--seed", "5",
        "--threads", "2",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rules, games, seed, kwargs = fake_simulate["simulate"]
    assert rules == Rules.preset("app").replace(pass_opponents="all")
    assert (games, seed) == (8, 5)
    assert kwargs.pop("progress") is not None
    assert kwargs == {"policies": "random", "summary": False, "threads": 2}
    assert "app pass_opponents=all: 8 games" in result.stdout
    # 103.5 turns / 4 players: the length in rounds, with its interval
    assert "25.9 rounds" in result.stdout and "game length" in result.stdout
    assert "win share" in result.stdout and "position 3" in result.stdout
    assert "position 0 is the seat that moved first" in result.stdout
    assert "Findings" in result.stdout and "Games last" in result.stdout
    assert "write_parquet" not in fake_simulate


def test_simulate_writes_parquet(fake_simulate: dict[str, Any], tmp_path: Path) -> None:
    out = tmp_path / "app.parquet"
    result = invoke("simulate", "-p", "app", "--games", "4", "--seed", "1", "--out", str(out))
    assert result.exit_code == 0, result.stderr
    assert fake_simulate["write_parquet"] == (4, out)
    assert "threads" not in fake_simulate["simulate"][3], "the library's default thread count"
    assert str(out) in result.stdout


def test_simulate_summary_flag(fake_simulate: dict[str, Any]) -> None:
    result = invoke("simulate", "-p", "italian", "--games", "4", "--seed", "1", "--summary")
    assert result.exit_code == 0, result.stderr
    assert fake_simulate["simulate"][3]["summary"] is True
    assert "italian: 4 games, 1 stopped at max_turns" in result.stdout
    assert "61.75 rounds" in result.stdout or "61.8 rounds" in result.stdout  # 247 turns / 4
    # 3 of the 4 games with a finisher were won by position 0 (the stand-in's totals)
    assert "position 0" in result.stdout and "--summary keeps totals" in result.stdout
    both = invoke("simulate", "-p", "app", "--games", "4", "--seed", "1", "--summary", "--out", "x")
    assert both.exit_code == 2 and "--summary keeps no per-game rows" in both.stderr


def test_simulate_summary_with_the_real_kernel() -> None:
    """`--summary` prints the estimates the per-game rows give (it once crashed: the
    adapter test above stood in a DataFrame for the library's `Summary`)."""
    rows = invoke("simulate", "-p", "app", "--games", "300", "--seed", "12")
    totals = invoke("simulate", "-p", "app", "--games", "300", "--seed", "12", "--summary")
    assert rows.exit_code == 0 and totals.exit_code == 0, rows.stderr + totals.stderr
    assert "app: 300 games" in totals.stdout

    def estimates(text: str) -> list[tuple[str, ...]]:
        cells = [line.split("│")[1:-1] for line in text.splitlines() if line.startswith("│")]
        return [tuple(c.strip() for c in row) for row in cells]

    assert len(estimates(totals.stdout)) == 2 + 1 + 4  # length twice, the edge, 4 positions
    assert estimates(totals.stdout) == estimates(rows.stdout)


def test_bench_calls_run_bench(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: dict[str, Any] = {}

    def run_bench(**kwargs: Any) -> pd.DataFrame:
        calls.update(kwargs)
        return pd.DataFrame({"preset": kwargs["presets"], "games_per_s": [12345.0]})

    module = types.ModuleType("ludosim.run.bench")
    module.run_bench = run_bench  # type: ignore[attr-defined]
    module.bench_policies = bench_policies  # type: ignore[attr-defined]
    module.COLUMNS = {"games_per_s": "games played per second"}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ludosim.run.bench", module)
    result = invoke("bench", "--preset", "app", "--games", "1000", "--threads", "1")
    assert result.exit_code == 0, result.stderr
    assert calls.pop("progress") is not None
    assert calls == {"presets": ["app"], "games": 1000, "threads": [1], "reference_games": 100}
    assert "12,345" in result.stdout
    assert "games_per_s: games played per second" in result.stdout  # each column explained
    calls.clear()
    result = invoke("bench", "-p", "app", "--policy", "balanced", "--policy", "skipper:0.5")
    assert result.exit_code == 0, result.stderr
    assert calls["policies"] == ["balanced", "skipper:0.5"]
    bad = invoke("bench", "--preset", "dutch")
    assert bad.exit_code == 2 and "unknown preset" in bad.stderr
    bad = invoke("bench", "--preset", "app", "--policy", "lucky")
    assert bad.exit_code == 2 and "unknown policy 'lucky'" in bad.stderr


def test_missing_library_module_is_a_clean_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "ludosim.run.bench", None)  # import raises ImportError
    result = invoke("bench", "--preset", "app")
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ludosim.run.bench is not available")


def test_study_options_default_to_the_studies_own_sizes() -> None:
    """`skill` and `unfold` write their sizes' defaults in the options (their --help shows
    them without importing the studies, so the command line starts fast): the same values
    as the studies' own defaults, which a study file that leaves a size out gets."""
    import dataclasses

    from typer.main import get_command

    from ludosim.studies.skill import Study
    from ludosim.studies.unfold import UnfoldStudy

    group = get_command(app)
    for name, study in (("skill", Study), ("unfold", UnfoldStudy)):
        options = {p.name: p.default for p in group.commands[name].params}  # type: ignore[attr-defined]
        own = {
            f.name: f.default
            for f in dataclasses.fields(study)
            if f.name in options and f.default is not dataclasses.MISSING
        }
        assert len(own) >= 2, name
        assert {k: options[k] for k in own} == own, name


# ------------------------------------------------------------------------------- docs
def test_every_command_is_documented_in_readme() -> None:
    readme = (ROOT / "README.md").read_text()
    for name in command_names():
        assert f"ludosim {name}" in readme, f"README.md does not show `ludosim {name}`"
    assert "make run" in readme and "make test" in readme


# --------------------------------------------------------------------------- progress
def test_simulate_in_slices_gives_the_same_rows(monkeypatch: pytest.MonkeyPatch) -> None:
    """With a progress callback the kernel runs in slices; game g still depends on (seed, g)."""
    simulate_module = importlib.import_module("ludosim.run.simulate")
    rules = Rules.preset("app")
    whole = simulate_module.simulate(rules, 3000, 5, threads=1)
    monkeypatch.setattr(simulate_module, "SLICE_SECONDS", 0.0)  # every slice the smallest
    seen: list[tuple[int, int]] = []
    sliced = simulate_module.simulate(
        rules, 3000, 5, threads=1, progress=lambda done, total: seen.append((done, total))
    )
    assert len(seen) > 3, "several slices"
    assert seen[-1] == (3000, 3000)
    assert [d for d, _ in seen] == sorted({d for d, _ in seen})
    pd.testing.assert_frame_equal(sliced, whole)
    seen.clear()
    summary = simulate_module.simulate(
        rules, 3000, 5, threads=1, summary=True, progress=lambda d, t: seen.append((d, t))
    )
    assert seen[-1] == (3000, 3000)
    assert summary.sums == summarize(rules, whole).sums


def test_tournament_reports_progress_over_all_rotations(fake_simulate: dict[str, Any]) -> None:
    from ludosim.studies.tournament import tournament

    def simulate(rules: Rules, games: int, seed: int, **kwargs: Any) -> pd.DataFrame:
        kwargs["progress"](games, games)
        return pd.DataFrame({"winner": [0] * games})

    seen: list[tuple[int, int]] = []
    tournament(
        Rules.preset("app"), ["random", "runner", "random", "random"], 400, 1,
        simulate_fn=simulate, progress=lambda d, t: seen.append((d, t)),
    )  # fmt: skip
    assert seen == [(100, 400), (200, 400), (300, 400), (400, 400)]


def test_progress_bar_on_a_terminal_and_quiet_otherwise(monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["simulate", "-p", "app", "--games", "2000", "--seed", "3", "--threads", "1"]
    monkeypatch.setenv("LUDOSIM_PROGRESS_SECONDS", "1000")  # no line in so short a run
    plain = invoke(*args)  # stderr is not a terminal here: lines, not a bar
    assert plain.exit_code == 0, plain.stderr
    assert "━" not in plain.stderr and "ETA" not in plain.stderr
    cli = sys.modules["ludosim.cli.output"]  # where the commands ask for the progress mode
    monkeypatch.setattr(cli, "mode", lambda quiet: "off" if quiet else "bar")  # a terminal
    shown = invoke(*args)
    assert shown.exit_code == 0, shown.stderr
    assert "simulate" in shown.stderr and "2,000/2,000" in shown.stderr
    assert "ETA" in shown.stderr and "games/s" in shown.stderr
    assert shown.stdout == plain.stdout  # the bar never mixes into the results
    quiet = invoke(*args, "-q")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    assert quiet.stdout == plain.stdout


def test_bar_wanted_only_on_a_terminal_without_quiet(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludosim.cli import progress

    class Stream:
        def __init__(self, tty: bool) -> None:
            self.tty = tty

        def isatty(self) -> bool:
            return self.tty

    monkeypatch.setattr(progress.sys, "stderr", Stream(True))
    assert progress.wanted(quiet=False) and not progress.wanted(quiet=True)
    monkeypatch.setattr(progress.sys, "stderr", Stream(False))
    assert not progress.wanted(quiet=False)


# --------------------------------------------------------------------------- policies
def test_policies_lists_every_policy_its_parameters_and_the_features() -> None:
    from ludosim.rules.policies import FEATURES, NAMED, tuned_names

    result = invoke("policies")
    assert result.exit_code == 0, result.stderr
    text = " ".join(result.stdout.split())
    for name in [*NAMED, "skipper:Q", "weights:F=W,...", "tuned:PATH", *tuned_names()]:
        assert name in result.stdout, name
    for feature in FEATURES:
        assert feature in result.stdout, feature
    assert "capture=100" in text  # aggressive's weights


@pytest.mark.parametrize(
    "args",
    [
        ["play", "-p", "app", "--seed", "1"],
        ["simulate", "-p", "app", "--seed", "1", "--games", "10"],
        ["bench", "-p", "app"],
        ["tournament", "-p", "app", "--seed", "1"],
        ["sweep", "-p", "app", "--dry-run"],
    ],
    ids=lambda a: a[0],
)
@pytest.mark.parametrize("spelling", ["foo", "random,foo", "repeated"])
def test_unknown_policy_names_the_allowed_ones(args: list[str], spelling: str) -> None:
    given = ["--policy", "random", "--policy", "foo"] if spelling == "repeated" else [
        "--policy", spelling
    ]  # fmt: skip
    result = invoke(*args, *given)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        "error: unknown policy 'foo'; allowed: random, runner, aggressive, defensive, balanced, "
        "pacifist, skipper:Q[:BASE], weights:feature=w,..., tuned:PATH, tuned-PRESET, "
        "expert[:R[:H]], fictive[:H]"
    ]


def test_policy_lists_comma_separated_or_repeated_are_the_same() -> None:
    seats = ["aggressive", "random", "weights:capture=5,progress=1", "runner"]
    commas = invoke("play", "-p", "app", "--seed", "4", "--policy", ",".join(seats))
    repeated = invoke(
        "play", "-p", "app", "--seed", "4", *[a for p in seats for a in ("--policy", p)]
    )
    assert commas.exit_code == 0, commas.stderr
    assert commas.stdout == repeated.stdout
    assert play(Rules.preset("app"), seed=4, policies=seats).transcript[0] in commas.stdout
    sweep = ["sweep", "-p", "app", "--seed", "1", "--games", "100", "--dry-run", "--out", "x"]
    commas = invoke(*sweep, "--policy", "balanced,random,random,random")
    repeated = invoke(*sweep, "--policy", "balanced", "--policy", "random,random,random")
    assert commas.exit_code == 0, commas.stderr
    assert commas.stdout == repeated.stdout and "balanced,random,random,random" in commas.stdout


def test_tournament_reads_the_old_spelling_with_a_note(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludosim.report.answers import Answer

    calls: list[list[str]] = []

    def tournament_answer(rule_set: Any, names: list[str], games: int, seed: int, **kw: Any):
        calls.append(list(names))
        return Answer("tournament", "t", pd.DataFrame({"of": names}))

    module = types.ModuleType("ludosim.studies.tournament")
    module.tournament_answer = tournament_answer  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ludosim.studies.tournament", module)
    base = ["tournament", "-p", "app", "--seed", "1"]
    notes = []
    for given in (
        ["--policy", "balanced,runner,random,random"],
        ["--policies", "balanced,runner,random,random"],
        ["--policy", "balanced", "--policy", "runner", "--policy", "random", "--policy", "random"],
    ):
        result = invoke(*base, *given)
        assert result.exit_code == 0, result.stderr
        notes.append(result.stderr)
    assert calls == [["balanced", "runner", "random", "random"]] * 3
    assert notes[0] == notes[2] == ""
    assert notes[1].splitlines() == [
        "note: --policies is now --policy (the same values); --policies still works"
    ]
    none = invoke(*base)
    assert none.exit_code == 2 and "--policy A,B,..." in none.stderr


# ------------------------------------------------------------------------------ flags
def _flag_options() -> list[tuple[str, str]]:
    from typer.main import get_command

    group = get_command(app)
    found = []
    for name, command in group.commands.items():  # type: ignore[attr-defined]
        for param in command.params:
            if getattr(param, "is_flag", False):
                found.append((name, param.opts[0]))
    return found


def test_boolean_options_are_shown_as_flags_in_help() -> None:
    flags = _flag_options()
    assert ("rules", "--toml") in flags and ("simulate", "--quiet") in flags
    for name in {n for n, _ in flags} | {"play"}:
        result = invoke(name, "--help")
        assert result.exit_code == 0
        assert "<bool>" not in result.stdout, name
        for line in result.stdout.splitlines():
            for command, flag in flags:
                if command == name and f" {flag} " in line:
                    # the flag is followed by its help text, not by a value placeholder
                    after = line.split(flag, 1)[1]
                    assert "<" not in after.split("  ")[0], line
    assert "<bool>" not in invoke("--help").stdout


# ----------------------------------------------------------------------------- report
def test_report_on_a_missing_input_creates_nothing(tmp_path: Path) -> None:
    out = tmp_path / "reports" / "missing"
    result = invoke("report", str(tmp_path / "runs" / "nothing"), "--out", str(out))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and "no such sweep folder or Parquet file" in lines[0]
    assert not out.exists() and not (tmp_path / "reports").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    result = invoke("report", str(empty), "--out", str(out))
    assert result.exit_code == 2 and "holds no .parquet results" in result.stderr
    assert not out.exists()


# ---------------------------------------------------------------------- help that reads
def _help(name: str) -> str:
    result = runner.invoke(app, [name, "--help"], env={"COLUMNS": "200"})  # no wrapping
    assert result.exit_code == 0, result.output
    return result.stdout


def test_bracketed_toml_headers_show_as_written() -> None:
    assert "[[rule_set]] tables" in _help("skill")
    assert "[[rule_set]], [[race_check]]" in _help("unfold")


# Typer's type placeholders: what an option takes is said by its metavar instead.
TYPE_PLACEHOLDER = re.compile(r"<(str|int|float|bool|path|file|list\[[a-z]+\])>")


@pytest.mark.parametrize("name", command_names())
def test_help_names_values_not_python_types(name: str) -> None:
    text = _help(name)
    assert not TYPE_PLACEHOLDER.search(text), TYPE_PLACEHOLDER.findall(text)


@pytest.mark.parametrize("name", command_names())
def test_every_option_says_its_default(name: str) -> None:
    """An option says what happens when it is left out: `[default: ...]`, in words, or
    that it is required (where typer cannot mark it: a study file may stand in)."""
    from typer.main import get_command

    command = get_command(app).commands[name]  # type: ignore[attr-defined]
    for param in command.params:
        if param.param_type_name != "option" or param.is_flag or param.required or param.hidden:
            continue  # hidden: an old spelling, read with a note naming the new one
        if param.name in ("sets", "vary", "rule_set") or param.opts[0] == "--seed":
            continue  # nothing by default, said by "repeat for more"; the seed has none
        shown = param.default is not None and param.show_default is not False
        said = (param.help or "").lower()
        assert shown or "default" in said or "required" in said, f"{name} {param.opts[0]}"


def _seed_option(name: str) -> Any:
    from typer.main import get_command

    command = get_command(app).commands[name]  # type: ignore[attr-defined]
    return next((p for p in command.params if "--seed" in p.opts), None)


SEEDED = [n for n in command_names() if _seed_option(n) is not None]


def test_seed_is_marked_and_refused_alike_everywhere() -> None:
    assert set(SEEDED) == {
        "play", "simulate", "compare", "whatif", "tournament", "ratings", "skill", "unfold",
        "sweep", "tune", "design", "exact", "duels",
    }  # fmt: skip
    helps = {_seed_option(n).help for n in SEEDED}
    assert all(h.startswith(SEED_HELP) for h in helps), helps
    assert {_seed_option(n).required for n in SEEDED} == {False}
    needs = {
        "play": ["-p", "app"],
        "simulate": ["-p", "app"],
        "compare": ["app", "app+finish=bounce"],
        "whatif": ["0:Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y/Y,Y,Y,Y", "-p", "app"],
        "tournament": ["-p", "app", "--policy", "random"],
        "ratings": ["-p", "app"],
        "skill": ["-p", "app", "--out", "x"],
        "unfold": ["-p", "app", "--out", "x"],
        "sweep": ["-p", "app", "--out", "x"],
        "tune": ["-p", "app", "--out", "x.toml"],
        "design": ["-p", "app", "--out", "x"],
        "exact": ["-p", "maedn", "--duel"],  # the solo race draws nothing: no seed
        "duels": ["-p", "maedn", "--out", "x"],
    }
    for name in SEEDED:
        result = invoke(name, *needs[name])
        assert result.exit_code == 2, (name, result.output)
        assert result.stderr.splitlines() == [f"error: {SEED_MISSING}"], (name, result.stderr)


def test_install_hints_use_the_readme_wording() -> None:
    from ludosim.rules.errors import install_hint, missing_extra

    readme = (ROOT / "README.md").read_text()
    for extra in ("skill", "rl", "pettingzoo", "dask"):
        assert f"pip install -e '.[{extra}]'" in readme and install_hint(extra) in readme
        assert install_hint(extra) in missing_extra("this", "a package", extra)
    # Every hint in the package comes from the helper.
    for path in (ROOT / "ludosim").rglob("*.py"):
        if path.name != "errors.py":
            assert "pip install" not in path.read_text(), path


@pytest.mark.parametrize("name", command_names())
def test_help_paragraphs_wrap_to_the_terminal(name: str) -> None:
    """A paragraph of a command's help is one line for the terminal to wrap: on a wide
    terminal it is not broken where the docstring's source lines were."""
    result = CliRunner().invoke(app, [name, "--help"], env={"COLUMNS": "400"})
    assert result.exit_code == 0
    lines = [" ".join(line.split()) for line in result.output.splitlines()]
    doc = app.registered_commands[command_names().index(name)].callback.__doc__
    for paragraph in doc.split("\n\n"):
        words = " ".join(paragraph.split())
        start = words[:300].rsplit(" ", 1)[0] if len(words) > 300 else words
        assert any(start in line for line in lines), (name, start[:60])


def test_the_study_options_default_to_the_studies_own_defaults() -> None:
    """A study run from options plays what the same study from a file plays by default."""
    import dataclasses
    import inspect

    from ludosim.cli import commands_studies
    from ludosim.studies.skill import Study
    from ludosim.studies.unfold import UnfoldStudy

    for command, study in ((commands_studies.skill, Study), (commands_studies.unfold, UnfoldStudy)):
        options = inspect.signature(command).parameters
        fields = {f.name: f.default for f in dataclasses.fields(study)}
        shared = [name for name in options if name in fields and name not in ("seed", "name")]
        assert len(shared) >= 2, command.__name__
        for name in shared:
            if fields[name] is not dataclasses.MISSING and options[name].default is not None:
                assert options[name].default == fields[name], (command.__name__, name)


@pytest.mark.parametrize(
    ("command", "option"),
    [("skill", ["--strongest", "runner"]), ("unfold", ["--policy", "runner"]),
     ("design", ["--holdout", "3"])],
)  # fmt: skip
def test_a_study_file_with_an_option_it_holds_is_refused_naming_the_option(
    command: str, option: list[str], tmp_path: Path
) -> None:
    study = tmp_path / "study.toml"
    study.write_text('seed = 1\npreset = "app"\n', encoding="utf-8")
    out = tmp_path / "out"
    result = runner.invoke(app, [command, str(study), *option, "--out", str(out)])
    assert result.exit_code == 2
    assert f"give it alone or use {option[0]} without it" in result.output
    assert not out.exists()  # refused before anything is played or written
