"""Answers at the terminal: `--format table|json|csv`, one numbering of turn order, `compare`,
progress in a pipe, the one rule-set grammar and the one vocabulary of flags."""

from __future__ import annotations

import csv
import dataclasses
import io
import json
import os
import re
import subprocess
import sys
import types
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from typer.testing import CliRunner

from ludosim import Rules, simulate
from ludosim.cli.app import app
from ludosim.cli.progress import ProgressLines, duration, interval
from ludosim.report.answers import ESTIMATE_COLUMNS, Answer, rounded
from ludosim.report.findings import Finding
from ludosim.rules.errors import RulesError
from ludosim.rules.options import RuleSet, parse_vary, study_options, study_rule_sets
from ludosim.studies import compare as compare_module
from ludosim.studies.compare import CompareError, compare, parse_difference_target
from ludosim.sweep.spec import SweepError, SweepSpec, expand

runner = CliRunner()
FINDING_FIELDS = {f.name for f in dataclasses.fields(Finding)}


def invoke(*args: str) -> Any:
    return runner.invoke(app, list(args))


def json_of(*args: str) -> dict[str, Any]:
    result = invoke(*args, "--format", "json")
    assert result.exit_code == 0, result.stderr
    return json.loads(result.stdout)  # stdout holds the JSON and nothing else


def csv_of(*args: str) -> list[dict[str, str]]:
    result = invoke(*args, "--format", "csv")
    assert result.exit_code == 0, result.stderr
    return list(csv.DictReader(io.StringIO(result.stdout)))


def assert_findings_as_in_findings_json(found: list[dict[str, Any]]) -> None:
    assert found, "no findings"
    for record in found:
        assert set(record) == FINDING_FIELDS, record


# ------------------------------------------------------------------ rule-set text
def test_rule_set_text_is_one_grammar_that_round_trips() -> None:
    for text in ("app", "app+finish=bounce", "b=app+finish=bounce+six_limit=0", "app+safe=starts"):
        rule_set = RuleSet.parse(text)
        assert RuleSet.parse(rule_set.text) == rule_set
        assert rule_set.text == text
    named = RuleSet.parse("b=app+finish=bounce")
    assert (named.preset, named.sets, named.name) == ("app", ("finish=bounce",), "b")
    assert named.rules() == Rules.preset("app").replace(finish="bounce")
    assert RuleSet("app", ("finish=bounce",)).label == "app finish=bounce"  # as before
    assert RuleSet.from_item({"preset": "app", "set": {"six_limit": 0}}).sets == ("six_limit=0",)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "is empty"),
        ("app+finish", "'finish' is not TOGGLE=VALUE"),
        ("=app", "empty NAME"),
        ("dutch", "unknown preset 'dutch'"),
        ("app+finish=over", "finish='over' is not allowed"),
    ],
)
def test_bad_rule_set_text_names_the_grammar_or_the_value(text: str, message: str) -> None:
    with pytest.raises(RulesError, match=re.escape(message)):
        RuleSet.parse(text, "RULESET")


def test_sweep_starting_points_are_rule_sets(tmp_path: Path) -> None:
    spec = SweepSpec.from_options(
        preset="app", variants=["app", "b=app+finish=bounce", "danish+six_limit=3"], seed=1
    )
    starts = [rule_set for rule_set, _ in spec.starts()]
    assert [r.text for r in starts] == ["app", "b=app+finish=bounce", "danish+six_limit=3"]
    for cell, start in zip(expand(spec), starts, strict=True):
        assert cell.rules == start.rules() == cell.rule_set.rules()
    sweep_file = tmp_path / "s.toml"
    sweep_file.write_text('seed = 1\nvariants = ["app", "b=app+finish=bounce"]\n')
    from_file = expand(SweepSpec.from_toml(sweep_file))
    assert [c.name for c in from_file] == ["app", "b"]
    assert from_file[1].rules == Rules.preset("app").replace(finish="bounce")
    with pytest.raises(SweepError, match=r"--variant 'app.finish': 'finish' is not TOGGLE=VALUE"):
        SweepSpec.from_options(variants=["app+finish"], seed=1)


def test_a_weights_policy_with_commas_reads_the_same_in_files_and_flags(tmp_path: Path) -> None:
    weights = ("weights:capture=1.5,lead=2",) * 4  # the canonical spelling of the policy
    sweep_file = tmp_path / "w.toml"
    sweep_file.write_text('preset = "app"\nseed = 1\npolicies = "weights:lead=2,capture=1.5"\n')
    assert [c.policies for c in expand(SweepSpec.from_toml(sweep_file))] == [weights]
    sweep_file.write_text(
        'preset = "app"\nseed = 1\n[vary]\npolicies = ["weights:lead=2,capture=1.5", "random"]\n'
    )
    assert expand(SweepSpec.from_toml(sweep_file))[0].policies == weights
    axis = parse_vary(["policies=weights:lead=2,capture=1.5,random"])
    assert axis == {"policies": ("weights:lead=2,capture=1.5", "random")}
    flags = SweepSpec.from_options(
        preset="app", vary=["policies=weights:lead=2,capture=1.5,random"], seed=1
    )
    assert [c.policies for c in expand(flags)] == [weights, ("random",) * 4]
    result = invoke(
        "sweep", "-p", "app", "--seed", "1", "--dry-run", "--out", str(tmp_path / "x"),
        "--policy", "weights:lead=2,capture=1.5", "--format", "csv",
    )  # fmt: skip
    assert result.exit_code == 0, result.stderr
    rows = list(csv.DictReader(io.StringIO(result.stdout)))
    assert [r["policies"] for r in rows] == ["weights:capture=1.5,lead=2"]


# ------------------------------------------------------------- --vary and --rule-set
def test_vary_is_a_grid_axis_and_rule_set_adds_one() -> None:
    labels = [r.label for r in study_rule_sets(["app"], (), ["six_limit=0,3"])]
    assert labels == ["app", "app six_limit=0"]  # six_limit=3 is app's own: the preset
    grid = study_rule_sets(["app"], (), ["six_limit=0,3", "finish=exact,bounce"])
    assert [r.label for r in grid] == [
        "app", "app six_limit=0 finish=exact", "app six_limit=0 finish=bounce",
        "app six_limit=3 finish=bounce",
    ]  # fmt: skip
    more = study_rule_sets(["app"], (), (), ["app+finish=bounce+six_limit=0"])
    assert more[1].rules() == Rules.preset("app").replace(finish="bounce", six_limit=0)
    with pytest.raises(RulesError, match="--rule-set PRESET\\+finish=V\\+OTHER=W"):
        study_rule_sets(["app"], (), ["finish=bounce,six_limit=0"])
    # The options a study writes into its command give back its rule sets.
    chosen = study_rule_sets(["app", "danish"], ["players=2"], ["finish=bounce"], ["b=app"])
    words = study_options(chosen)
    flags = ("--preset", "--set", "--rule-set")
    take = {flag: [words[i + 1] for i, w in enumerate(words) if w == flag] for flag in flags}
    back = study_rule_sets(take["--preset"], take["--set"], (), take["--rule-set"])
    assert back == chosen


@pytest.fixture
def captured_unfold(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    from ludosim.studies import unfold

    studies: list[Any] = []

    def run_study(study: Any, out: Path, **kwargs: Any) -> Path:
        studies.append(study)
        # The findings file a run writes beside its page; the closing lines read it.
        out.mkdir(parents=True, exist_ok=True)
        (out / "findings.json").write_text("[]", encoding="utf-8")
        return out / "index.html"

    monkeypatch.setattr(unfold, "run_study", run_study)
    return studies


def test_unfold_vary_spells_a_grid_and_rule_set_one_more(
    captured_unfold: list[Any], tmp_path: Path
) -> None:
    base = ["unfold", "--preset", "app", "--seed", "1", "--out", str(tmp_path / "u")]
    grid = invoke(*base, "--vary", "six_limit=0,3")  # once: six_limit='0,3' is not allowed
    assert grid.exit_code == 0, grid.stderr
    more = invoke(*base, "--rule-set", "app+six_limit=0+finish=bounce")
    assert more.exit_code == 0, more.stderr
    first, second = captured_unfold
    assert [r.label for r in first.rule_sets] == ["app", "app six_limit=0"]
    assert second.rule_sets[1].rules() == Rules.preset("app").replace(six_limit=0, finish="bounce")
    assert "--rule-set app+six_limit=0" in first.command()
    twice = invoke(*base, "--rule-set", "app+six_limit=3")  # app's own value: the same rules
    assert twice.exit_code == 2 and "plays the same rules as 'app'" in twice.stderr


# ----------------------------------------------------------------- old spellings
@pytest.mark.parametrize(
    ("command", "old", "library"),
    [
        ("ratings", "--players", ("ludosim.studies.ratings", "ratings")),
        ("tune", "--field", ("ludosim.studies.tune", "tune")),
        ("skill", "--players", ("ludosim.studies.skill", "run_study")),
    ],
)
def test_old_spellings_of_policy_are_read_with_a_note(
    command: str,
    old: str,
    library: tuple[str, str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
) -> None:
    import importlib

    module = importlib.import_module(library[0])
    calls: list[Any] = []

    class Stop(Exception):
        pass

    def stand_in(*args: Any, **kwargs: Any) -> Any:
        calls.append((args, kwargs))
        raise Stop  # the adapter's part is done: the line-up reached the library

    monkeypatch.setattr(module, library[1], stand_in)
    line_up = "balanced,runner,random" if command == "tune" else "random,runner,balanced,pacifist"
    extra = {"tune": ["--out", str(tmp_path / "t.toml")], "skill": ["--out", str(tmp_path / "s")]}
    base = [command, "-p", "app", "--seed", "1", *extra.get(command, [])]
    seen = []
    for flag in ("--policy", old):
        result = invoke(*base, flag, line_up)
        assert isinstance(result.exception, Stop), result.output
        seen.append(result.stderr)
    assert seen[0] == ""
    assert seen[1].splitlines() == [
        f"note: {old} is now --policy (the same values); {old} still works"
    ]
    same = [(args, {k: v for k, v in kw.items() if k != "progress"}) for args, kw in calls]
    assert same[0] == same[1]


# --------------------------------------------------------------------- --format
def test_simulate_prints_rounded_estimates_and_parses_as_json_and_csv() -> None:
    args = ["simulate", "-p", "danish", "--games", "400", "--seed", "3"]
    table = invoke(*args, "-q")
    assert table.exit_code == 0, table.stderr
    assert not re.search(r"\d\.\d{5,}", table.stdout), "a number not rounded to its interval"
    assert "position 0 moves first" in table.stdout  # the page's wording of turn order
    data = json_of(*args)
    assert data["command"] == "simulate" and data["title"] == "danish: 400 games"
    assert_findings_as_in_findings_json(data["findings"])
    topics = {f["topic"] for f in data["findings"] if f["headline"]}
    assert {"length", "first_player"} <= topics
    measures = [e["measure"] for e in data["estimates"]]
    assert measures[:3] == ["game length", "player turns", "first player's edge"]
    assert [e["of"] for e in data["estimates"][3:]] == [f"position {k}" for k in range(4)]
    for record in data["estimates"]:
        assert list(record)[: len(ESTIMATE_COLUMNS)] == list(ESTIMATE_COLUMNS)
        assert record["ci_low"] <= record["estimate"] <= record["ci_high"]
    rows = csv_of(*args)
    assert [float(r["estimate"]) for r in rows] == pytest.approx(
        [e["estimate"] for e in data["estimates"]]
    )


def test_every_printing_command_takes_the_formats(tmp_path: Path) -> None:
    whatif = json_of("whatif", "0:Y,38,Y,Y/47,H2,20,Y/5,Y,Y,Y/5,3,26,15", "-p", "app",
                     "--games", "300", "--seed", "1")  # fmt: skip
    chances = [e for e in whatif["estimates"] if e["measure"] == "win chance"]
    assert [e["of"] for e in chances] == [f"seat {s}" for s in range(4)]
    assert sum(e["count"] for e in chances) == 300 and whatif["order"]
    exact = json_of("exact", "-p", "danish")
    assert [e["measure"] for e in exact["estimates"]] == ["turns", "rolls"]
    play = json_of("play", "-p", "app", "--seed", "7")
    assert play["transcript"][0].startswith("turn 1") or play["transcript"]
    assert sorted(e["turn order"] for e in play["estimates"]) == [0, 1, 2, 3]
    first = next(e for e in play["estimates"] if e["seat"] == play["first"])
    assert first["turn order"] == 0
    bad = invoke("simulate", "-p", "app", "--seed", "1", "--format", "yaml")
    assert bad.exit_code == 2
    assert bad.stderr.splitlines() == [
        "error: --format 'yaml' is not allowed; allowed values: table, json, csv"
    ]


def test_tournament_states_the_ranking_its_page_decides() -> None:
    args = ["tournament", "-p", "app", "--policy", "runner,random,random,random", "--games",
            "800", "--seed", "2"]  # fmt: skip
    data = json_of(*args)
    assert_findings_as_in_findings_json(data["findings"])
    ranking = [f for f in data["findings"] if f["topic"] == "policies" and f["headline"]]
    assert len(ranking) == 1 and ranking[0]["kind"] == "ranking"
    assert ranking[0]["text"].startswith("runner wins most often")
    assert [e["of"] for e in data["estimates"]] == ["runner", "random"]
    table = invoke(*args, "-q")
    assert "runner wins most often" in table.stdout


def test_the_sweep_summary_states_the_findings_of_its_report(tmp_path: Path) -> None:
    from ludosim.report.page import make_report

    out = tmp_path / "grid"
    data = json_of("sweep", "-p", "app", "--vary", "finish=exact,bounce", "--games", "600",
                   "--seed", "4", "--out", str(out))  # fmt: skip
    assert data["cells"] == 2 and data["games"] == 1200 and data["complete"]
    assert data["report"] == f"ludosim report {out} --out {out / 'report'}"
    make_report(out, out / "report")
    written = json.loads((out / "report" / "findings.json").read_text(encoding="utf-8"))
    assert data["findings"] == written  # decided as the report decides them
    table = invoke(
        "sweep",
        "-p",
        "app",
        "--vary",
        "finish=exact,bounce",
        "--games",
        "600",
        "--seed",
        "4",
        "--out",
        str(out),
        "-q",
    )  # fmt: skip  (resumed: nothing played)
    assert f"to write its page: ludosim report {out} --out {out / 'report'}" in table.stdout
    assert "Findings" in table.stdout and "2 cells, 1,200 games" in table.stdout


def test_rounded_writes_each_estimate_to_its_interval() -> None:
    table = pd.DataFrame(
        [
            {"measure": "game length", "of": "", "estimate": 112.34175, "ci_low": 111.66,
             "ci_high": 113.02, "unit": "rounds", "games": 4000},
            {"measure": "win share", "of": "seat 0", "estimate": 7.54321, "ci_low": 7.5,
             "ci_high": 7.6, "unit": "%", "games": 10**6},
            {"measure": "difference in game length", "of": "b - a", "estimate": 7.4682,
             "ci_low": 6.66, "ci_high": 8.28, "unit": "rounds", "games": 4000},
        ]
    )  # fmt: skip
    shown = rounded(table)
    assert shown["estimate"].tolist() == ["112.34 rounds", "7.543%", "+7.47 rounds"]
    assert shown["95% CI"].tolist() == ["111.66 to 113.02", "7.500 to 7.600", "+6.66 to +8.28"]
    answer = Answer("x", "t", table)
    assert json.loads(answer.to_json())["estimates"][0]["estimate"] == 112.34175  # unrounded


# ---------------------------------------------------------------------- compare
def test_compare_target_grammar_and_refusals() -> None:
    assert str(parse_difference_target("1round")) == "1round"
    assert parse_difference_target("0.25pp").unit == "pp"
    assert parse_difference_target("2 rounds").value == 2.0
    for bad in ("1turn", "0round", "pp", "-1pp"):
        with pytest.raises(CompareError, match="--precision"):
            parse_difference_target(bad)
    with pytest.raises(CompareError, match="at least two"):
        compare(["app"], 1)
    with pytest.raises(CompareError, match="are the same rules"):
        compare(["app", "app+six_limit=3"], 1)
    with pytest.raises(CompareError, match="one player count"):
        compare(["app", "app+players=2"], 1, precision="0.25pp")


def test_batches_grow_to_what_the_variance_asks_for() -> None:
    grow = compare_module._next_total
    assert grow(2000, 2.0, 1.0, 2000, 10**6) == 8000  # asks 8,800: at most 4x the games
    assert grow(2000, 1.1, 1.0, 2000, 10**6) == 4000  # asks 2,662: at least one batch more
    assert grow(8000, 1.2, 1.0, 2000, 10**6) == 12672  # 1.1 * 8000 * 1.44
    assert grow(8000, 3.0, 1.0, 2000, 9000) == 9000  # never beyond max_games


def test_compare_plays_paired_games_until_the_target_and_decides_them_as_a_page() -> None:
    seen: list[tuple[int, int]] = []
    result = compare(
        ["app", "app+finish=bounce"], 5, precision="1round", first_batch=500, threads=1,
        progress=lambda done, total: seen.append((done, total)),
    )  # fmt: skip
    assert result.met and result.looks[-1][1] <= 1.0
    assert [n for n, _ in result.looks] == sorted({n for n, _ in result.looks})
    assert result.games == result.looks[-1][0] and seen[-1] == (2 * result.games,) * 2
    # Common random numbers: game g of each rule set is game g of its own simulate run.
    for i, text in enumerate(["app", "app+finish=bounce"]):
        rows = result.rows[result.rows["cell"] == f"c{i}"].reset_index(drop=True)
        alone = simulate(RuleSet.parse(text).rules(), result.games, 5, threads=1)
        pd.testing.assert_series_equal(rows["winner"], alone["winner"])
        pd.testing.assert_series_equal(rows["turns"], alone["turns"])
    answer = result.answer()
    assert {f["topic"] for f in answer.to_dict()["findings"]} >= {"toggles", "length"}
    difference = answer.estimates[answer.estimates["measure"] == "difference in game length"]
    assert difference["ci_high"].iloc[0] - difference["estimate"].iloc[0] <= 1.0
    assert answer.details["met"] and answer.details["looks"][-1]["half_width"] <= 1.0


def test_compare_stops_at_max_games_and_says_the_target_was_not_met() -> None:
    result = compare(["app", "app+finish=bounce"], 2, precision="0.25pp", first_batch=300,
                     max_games=600, threads=1)  # fmt: skip
    assert (result.games, result.met) == (600, False)
    assert "not met within --max-games 600" in result.answer().notes[0]


def test_compare_merges_a_change_that_cannot_act() -> None:
    """One start attempt is one whenever it applies: the page counts the games once."""
    result = compare(["app", "app+start_attempts_when=game_start"], 3, first_batch=300, threads=1)
    assert result.met and len(result.looks) == 1  # identical games: a zero-width difference
    notes = [f.text for f in result.page.findings if f.topic == "about"]
    assert any("plays the same games as" in t for t in notes), notes


def test_compare_command_prints_the_findings(tmp_path: Path) -> None:
    args = ["compare", "app", "app+finish=bounce", "--seed", "1", "--first-batch", "500"]
    data = json_of(*args)
    assert data["rule_sets"] == ["app", "app+finish=bounce"] and data["met"]
    assert_findings_as_in_findings_json(data["findings"])
    table = invoke(*args, "-q")
    assert "finish exact -> bounce" in table.stdout and "Paired games" in table.stdout
    one = invoke("compare", "app", "--seed", "1")
    assert one.exit_code == 2 and "at least two rule sets" in one.stderr


# ------------------------------------------------------------------ exploratory
def exploratory_notes(data: dict[str, Any]) -> list[str]:
    return [f["text"] for f in data["findings"] if f["text"].startswith("Exploratory:")]


def assert_marked_exploratory(table: str, games: str) -> None:
    """The terminal says so plainly before any finding, and heads the findings as leads."""
    note = f"Exploratory: this run has {games} games"
    assert note in table, table
    lines = table.splitlines()
    first = next(i for i, line in enumerate(lines) if line.startswith(note))
    heads = [i for i, line in enumerate(lines) if line.startswith("Findings (")]
    assert all(i > first for i in heads), table
    assert all(lines[i].startswith("Findings (exploratory") for i in heads), table


def test_a_small_compare_is_exploratory_though_its_target_in_rounds_was_met() -> None:
    """2,000 paired games meet 1round, but the page also states the first player's
    edge, which needs about 100,000 games per rule set with two players: its
    "beyond chance" on 2,000 games is a lead, and the answer says so."""
    args = ["compare", "app+players=2", "app+players=2+finish=bounce", "--seed", "1"]
    data = json_of(*args)
    assert data["met"] and data["games"] == 2000
    assert data["exploratory"] is True
    (note,) = exploratory_notes(data)
    assert "first player's edge" in note and "2,000 games per cell" in note
    assert any("does not lift it" in n for n in data["notes"])
    table = invoke(*args, "-q").stdout
    assert_marked_exploratory(table, "2,000")
    assert table.count("Exploratory:") == 1  # said once, not again among the findings


def test_a_compare_with_the_games_its_measures_need_is_not_exploratory() -> None:
    # start_capacity=3 seldom acts, so the paired differences are narrow; each rule set's
    # first player against its fair share sizes the page, at about 96,000 games.
    data = json_of("compare", "app+players=2", "app+players=2+start_capacity=3", "--seed", "1",
                   "--first-batch", "110000", "--max-games", "110000", "-q")  # fmt: skip
    assert data["games"] == 110000
    assert data["exploratory"] is False and not exploratory_notes(data)
    assert not any("does not lift it" in n for n in data["notes"])


def test_simulate_marks_a_small_run_exploratory_by_its_measure() -> None:
    args = ["simulate", "-p", "app", "--set", "players=2", "--seed", "1"]
    small = json_of(*args, "--games", "2000", "-q")
    assert small["exploratory"] is True
    (note,) = exploratory_notes(small)
    assert "first player's edge" in note
    assert_marked_exploratory(invoke(*args, "--games", "2000", "-q").stdout, "2,000")
    large = json_of(*args, "--games", "100000", "-q")  # the edge needs about 79,000
    assert large["exploratory"] is False and not exploratory_notes(large)
    table = invoke(*args, "--games", "100000", "-q").stdout
    assert "Exploratory" not in table and "Findings (decided as" in table


def test_whatif_marks_a_small_run_exploratory_by_its_win_chances() -> None:
    position = "0:Y,38,Y,Y/47,H2,20,Y/5,Y,Y,Y/5,3,26,15"
    args = ["whatif", position, "-p", "app", "--seed", "1"]
    small = json_of(*args, "--games", "300", "-q")
    assert small["exploratory"] is True
    (note,) = exploratory_notes(small)
    assert "win chance" in note and "300 games" in note
    needed = small["findings"][0]["games_needed"]
    assert 10_000 < needed < 40_000, needed  # 1 pp at 80% power over 4 seats
    assert_marked_exploratory(invoke(*args, "--games", "300", "-q").stdout, "300")
    large = json_of(*args, "--games", "30000", "-q")
    assert large["exploratory"] is False and large["findings"] == []
    assert "Exploratory" not in invoke(*args, "--games", "30000", "-q").stdout


def test_a_small_tournament_is_exploratory_in_the_terminal_and_json() -> None:
    args = ["tournament", "-p", "app", "--policy", "runner,random,random,random", "--games",
            "800", "--seed", "2"]  # fmt: skip
    data = json_of(*args)
    assert data["exploratory"] is True and exploratory_notes(data)
    assert_marked_exploratory(invoke(*args, "-q").stdout, "200")  # games per seating


def test_a_tournament_is_judged_by_its_win_rate_comparisons() -> None:
    # 10,000 games per seating: the comparisons of win shares need about 8,500, while the
    # first player's edge, which a tournament does not ask about, would need 390,000.
    data = json_of("tournament", "-p", "app", "--policy", "balanced,random,random,random",
                   "--games", "40000", "--seed", "1", "-q")  # fmt: skip
    assert data["exploratory"] is False and not exploratory_notes(data)


# --------------------------------------------------------------------- progress
def test_progress_lines_every_interval_with_rate_and_eta() -> None:
    now = [0.0]
    out = io.StringIO()
    lines = ProgressLines("sweep", 5.0, out, clock=lambda: now[0])
    for t, done in ((1, 0), (3, 1000), (6, 4000), (8, 6000), (12, 10000)):
        now[0] = t
        lines(done, 20000)
    lines.close()
    text = out.getvalue().splitlines()
    # Lines at 6 s and 12 s; the rate from the first games done (at 3 s) on: 1,000 games/s.
    assert text == [
        "sweep: 4,000/20,000 games (20.0%), 1,000 games/s, ETA 16s",
        "sweep: 10,000/20,000 games (50.0%), 1,000 games/s, ETA 10s",
        "sweep: 10,000 games in 12s",
    ]
    assert duration(725) == "12m05s" and duration(11200) == "3h06m"


def test_progress_interval_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOSIM_PROGRESS_SECONDS", "2.5")
    assert interval() == 2.5
    for bad in ("0", "-1", "soon", "inf"):
        monkeypatch.setenv("LUDOSIM_PROGRESS_SECONDS", bad)
        assert interval() == 10.0


def test_a_command_in_a_pipe_prints_progress_lines_on_stderr() -> None:
    """The process as `make run | tee log` runs it: no terminal, so periodic lines."""
    ludosim = str(Path(sys.executable).with_name("ludosim"))
    args = [ludosim, "simulate", "-p", "app", "--games", "30000", "--seed", "1", "--threads", "1",
            "--format", "csv"]  # fmt: skip
    env = {**os.environ, "LUDOSIM_PROGRESS_SECONDS": "0.2"}
    piped = subprocess.run(args, capture_output=True, text=True, env=env, timeout=600)
    assert piped.returncode == 0, piped.stderr
    progress = re.compile(r"^simulate: [\d,]+/30,000 games \(\d+\.\d%\)")
    lines = [line for line in piped.stderr.splitlines() if progress.match(line)]
    assert len(lines) >= 2, piped.stderr
    assert any("games/s, ETA" in line for line in lines), piped.stderr
    assert piped.stderr.splitlines()[-1].startswith("simulate: 30,000 games in ")
    assert list(csv.DictReader(io.StringIO(piped.stdout)))  # stdout holds the CSV alone
    quiet = subprocess.run([*args, "-q"], capture_output=True, text=True, env=env, timeout=600)
    assert quiet.returncode == 0 and not any(
        progress.match(line) for line in quiet.stderr.splitlines()
    )
    assert quiet.stdout == piped.stdout


def test_bench_csv_is_its_timing_table(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludosim.run.bench import bench_policies

    module = types.ModuleType("ludosim.run.bench")
    module.run_bench = lambda **kw: pd.DataFrame(  # type: ignore[attr-defined]
        {"preset": kw["presets"], "games_per_s": [12345.5]}
    )
    module.bench_policies = bench_policies  # type: ignore[attr-defined]
    module.COLUMNS = {"games_per_s": "games played per second"}  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "ludosim.run.bench", module)
    assert csv_of("bench", "-p", "app") == [{"preset": "app", "games_per_s": "12345.5"}]
    data = json_of("bench", "-p", "app")
    assert data["notes"] == ["games_per_s: games played per second"]
