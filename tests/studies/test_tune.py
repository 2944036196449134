"""Tuned players: the CMA-ES search, its policy files and the shipped `tuned-<preset>` ones.

The searches here are tiny (2 generations of 4 candidates x 200 games) on the
fast `danish` preset: they check determinism, the seat rotation, the file
round trip and the errors, not that tuning helps. The shipped files are
checked against the command they record without rerunning it, and the `app`
score is replayed from its evaluation games; `LUDOSIM_VERIFY=1` (`make verify`)
reruns the `app`, `italian`, `king` and `killer` searches and compares.
"""

from __future__ import annotations

import shlex
import tomllib
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from ludosim import play, simulate
from ludosim.cli.app import app, main
from ludosim.results.stats import wilson_interval
from ludosim.rules.model import PRESETS, Rules
from ludosim.rules.options import rules_from_options
from ludosim.rules.policies import (
    BASE_FEATURES,
    FEATURES,
    SCALE,
    PolicyError,
    parse_policy,
    tuned_names,
)
from ludosim.studies.tournament import tournament
from ludosim.studies.tune import TuneError, _wins, tune

pytest.importorskip("cma")

ROOT = Path(__file__).resolve().parents[2]
SHIPPED = ROOT / "ludosim" / "rules" / "tuned"
TINY = {"generations": 2, "popsize": 4, "games": 200, "eval_games": 400}
FIELD = ("balanced", "balanced", "balanced")


@pytest.fixture(scope="module")
def tiny() -> object:
    return tune("danish", seed=11, **TINY)


def test_same_seed_same_weights_and_score(tiny: object) -> None:
    again = tune("danish", seed=11, **TINY)
    assert again.weights == tiny.weights
    assert again.score == tiny.score
    assert again.baseline == tiny.baseline
    assert again.history == tiny.history
    other = tune("danish", seed=12, **TINY)
    assert other.weights != tiny.weights


def test_weights_are_thousandths_of_every_feature(tiny: object) -> None:
    assert list(tiny.weights) == list(BASE_FEATURES)
    for w in tiny.weights.values():
        assert round(w * SCALE) / SCALE == w


def test_the_search_leaves_numpys_global_generator_alone() -> None:
    before = np.random.get_state()[1].copy()
    tune("danish", seed=3, generations=1, popsize=2, games=40, eval_games=40)
    assert np.array_equal(np.random.get_state()[1], before)


def test_progress_counts_every_game_up_to_the_total() -> None:
    calls: list[tuple[int, int]] = []
    tune("danish", seed=3, generations=2, popsize=2, games=41, eval_games=40,
         progress=lambda d, t: calls.append((d, t)))  # fmt: skip
    total = 2 * 2 * 40 + 4 * 40  # games rounded down to a multiple of 4 players
    assert calls[0] == (0, total) and calls[-1] == (total, total)
    assert [d for d, _ in calls] == sorted(d for d, _ in calls)


def test_a_candidate_plays_every_seat_like_a_tournament() -> None:
    """`_wins` over the rotation equals the tournament's pooled wins for the same games."""
    rules = Rules.preset("danish")
    policy = "weights:progress=2,capture=30"
    table = tournament(rules, [policy, *FIELD], 400, 5)
    row = table.set_index("policy").loc[policy]
    assert _wins(rules, policy, FIELD, 400, 5, 0, None) == row["wins"]


def test_score_is_the_win_rate_on_unseen_games_with_its_interval(
    tiny: object, tmp_path: Path
) -> None:
    path = tiny.write(tmp_path / "t.toml")
    data = tomllib.loads(path.read_text())
    score = data["score"]
    assert score["games"] == TINY["eval_games"]
    assert score["win_rate"] == pytest.approx(score["wins"] / score["games"], abs=1e-6)
    low, high = wilson_interval(score["wins"], score["games"])
    assert (score["ci_low"], score["ci_high"]) == (round(low, 6), round(high, 6))
    assert score["fair"] == 0.25
    # The search's games come first, then the selection games, then the evaluation
    # games: rerunning those gives the selection rates and the score.
    rules = Rules.preset("danish")
    first = TINY["generations"] * TINY["games"]
    m = TINY["eval_games"]
    assert _wins(rules, tiny.policy, FIELD, m, 11, first + m, None) == score["wins"]
    base = _wins(rules, "balanced", FIELD, m, 11, first + m, None)
    assert base == data["baseline"]["wins"]
    chosen = data["selection"]["chosen"]
    assert _wins(rules, tiny.policy, FIELD, m, 11, first, None) / m == data["selection"][chosen]


def test_the_start_is_kept_unless_the_search_mean_wins_more_selection_games(
    tiny: object,
) -> None:
    rates = {k: v.win_rate for k, v in tiny.selection.items()}
    assert set(rates) == {"search_mean", "start"}
    expected = "search_mean" if rates["search_mean"] > rates["start"] else "start"
    assert tiny.chosen == expected
    if tiny.chosen == "start":
        assert parse_policy(tiny.policy).weights == parse_policy("balanced").weights


def test_policy_file_round_trip_and_tuned_path_plays(tiny: object, tmp_path: Path) -> None:
    path = tiny.write(tmp_path / "danish.toml")
    data = tomllib.loads(path.read_text())
    assert data["weights"] == tiny.weights
    assert data["preset"] == "danish" and data["set"] == [] and data["field"] == list(FIELD)
    assert data["rules_hash"] == Rules.preset("danish").hash()
    assert data["seed"] == 11 and data["games"] == 200 and data["generations"] == 2
    assert data["command"].endswith(f"--out {path}")
    policy = parse_policy(f"tuned:{path}")
    assert policy.name == f"tuned:{path}"
    assert policy.weights == parse_policy(tiny.policy).weights
    rules = Rules.preset("danish")
    by_file = simulate(rules, 100, 2, policies=[f"tuned:{path}", *FIELD])
    by_weights = simulate(rules, 100, 2, policies=[tiny.policy, *FIELD])
    assert by_file["winner"].tolist() == by_weights["winner"].tolist()


def test_sets_change_the_rules_and_are_recorded(tmp_path: Path) -> None:
    result = tune("danish", ["six_limit=0"], seed=1, generations=1, popsize=2, games=40,
                  eval_games=40)  # fmt: skip
    assert result.rules_hash == rules_from_options("danish", ["six_limit=0"]).hash()
    assert "--set six_limit=0" in result.command(tmp_path / "x.toml")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"field_policies": "balanced,clever,random"}, "unknown policy 'clever'"),
        ({"field_policies": "balanced,balanced"}, "field lists 2 policies; 4 players need 3"),
        ({"generations": 0}, "generations must be an integer >= 1"),
        ({"popsize": 1}, "popsize must be an integer >= 2"),
        ({"games": 3}, "games must be an integer >= 4"),
        ({"seed": -1}, "seed must be"),
    ],
)
def test_bad_settings_name_the_field(kwargs: dict, message: str) -> None:
    args = {"seed": 1, **TINY, **kwargs}
    with pytest.raises((TuneError, PolicyError), match=message.replace("(", r"\(")):
        tune("danish", **args)


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--policy", "balanced,nosuch,random"], "unknown policy 'nosuch'"),
        (["--policy", "balanced,balanced"], "field lists 2 policies; 4 players need 3 opponents"),
        (["--generations", "0"], "generations must be an integer >= 1"),
        (["--start", "nosuch"], "unknown policy 'nosuch'"),
        (["--start", "skipper:0.5"], "start 'skipper:0.5' skips forced captures"),
    ],
)
def test_cli_bad_input_is_one_line_exit_2(extra: list[str], message: str, tmp_path: Path) -> None:
    out = tmp_path / "x.toml"
    args = ["tune", "-p", "danish", "--seed", "1", "--out", str(out), *extra]
    result = CliRunner().invoke(app, args)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and message in lines[0], lines
    assert not out.exists()


def test_unreadable_policy_files_are_policy_errors(tmp_path: Path) -> None:
    with pytest.raises(PolicyError, match="cannot be read"):
        parse_policy(f"tuned:{tmp_path / 'missing.toml'}")
    bad = tmp_path / "bad.toml"
    bad.write_text("[weights]\ncharm = 3\n")
    with pytest.raises(PolicyError, match=r"needs a \[weights\] table"):
        parse_policy(f"tuned:{bad}")
    with pytest.raises(PolicyError, match="unknown policy 'tuned-nosuch'"):
        parse_policy("tuned-nosuch")


def test_cli_writes_the_file_its_command_reproduces(tmp_path: Path) -> None:
    out = tmp_path / "cli.toml"
    args = ["tune", "--preset", "danish", "--policy", ",".join(FIELD), "--seed", "11"]
    args += ["--generations", "2", "--popsize", "4", "--games", "200", "--eval-games", "400"]
    result = CliRunner().invoke(app, [*args, "--out", str(out)])
    assert result.exit_code == 0, result.output
    data = tomllib.loads(out.read_text())
    assert shlex.split(data["command"])[1:] == [*args, "--out", str(out)]
    assert f"tuned:{out}" in result.stdout


def test_a_start_with_a_look_ahead_weight_has_it_searched_and_recorded(tmp_path: Path) -> None:
    start = "weights:progress=1,capture=20,sent_home=-30,danger=-20"
    settings = {"generations": 1, "popsize": 2, "games": 40, "eval_games": 40}
    result = tune("danish", seed=4, start=start, **settings)
    assert list(result.weights) == [*BASE_FEATURES, "danger"]
    assert result.weights["danger"] != -20  # the search moved it
    assert result.weights == tune("danish", seed=4, start=start, **settings).weights
    path = result.write(tmp_path / "s.toml")
    data = tomllib.loads(path.read_text())
    words = shlex.split(data["command"])
    assert data["start"] == words[words.index("--start") + 1] == parse_policy(start).name
    assert parse_policy(f"tuned:{path}").weights[FEATURES.index("danger")] != 0
    with pytest.raises(TuneError, match=r"start 'skipper:0\.5' skips forced captures"):
        tune("danish", seed=4, start="skipper:0.5", **settings)


# ------------------------------------------------------------------ shipped policies
def _command_settings(command: str) -> dict[str, object]:
    words = shlex.split(command)
    assert words[:2] == ["ludosim", "tune"], command
    settings: dict[str, object] = {"set": []}
    for flag, value in zip(words[2::2], words[3::2], strict=True):
        key = flag.removeprefix("--").replace("-", "_")
        key = "field" if key == "policy" else key  # the opponents, `field` in the file
        if key == "set":
            settings["set"].append(value)
        elif key in ("seed", "generations", "popsize", "games", "eval_games"):
            settings[key] = int(value)
        elif key == "field":
            settings[key] = value.split(",")
        else:
            settings[key] = value
    return settings


def test_a_tuned_policy_is_shipped_for_every_preset() -> None:
    assert tuned_names() == sorted(f"tuned-{p}" for p in PRESETS)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_shipped_file_matches_its_recorded_command(preset: str) -> None:
    path = SHIPPED / f"{preset}.toml"
    data = tomllib.loads(path.read_text())
    settings = _command_settings(data["command"])
    assert settings["out"] == f"ludosim/rules/tuned/{preset}.toml"
    for key in ("preset", "set", "field", "seed", "generations", "popsize", "games", "eval_games"):
        assert settings[key] == data[key], key
    assert settings.get("start", "balanced") == data["start"]
    assert data["rules_hash"] == rules_from_options(preset, data["set"]).hash()
    start = parse_policy(data["start"]).weights
    searched = [f for f, w in zip(FEATURES, start, strict=True) if f in BASE_FEATURES or w]
    assert list(data["weights"]) == searched
    policy = parse_policy(f"tuned-{preset}")
    assert policy.weights == tuple(round(data["weights"].get(f, 0) * SCALE) for f in FEATURES)
    score = data["score"]
    assert score["games"] == data["eval_games"]
    assert score["ci_low"] <= score["win_rate"] <= score["ci_high"]
    assert len(data["search_best"]) == data["generations"]


def test_shipped_policy_plays_alike_in_both_engines() -> None:
    """The reference engine and the kernel play a tuned policy game for game."""
    rules = Rules.preset("app")
    policies = ["tuned-app", "balanced", "tuned-danish", "random"]
    rows = simulate(rules, 30, 9, policies=policies)
    for game in range(30):
        ref = play(rules, 9, policies, game=game).row()
        assert (ref["winner"], ref["turns"]) == tuple(rows.loc[game, ["winner", "turns"]]), game


def test_a_shipped_score_replays_from_its_evaluation_games() -> None:
    """The shipped weights and `balanced` win the recorded games after the selection's."""
    data = tomllib.loads((SHIPPED / "app.toml").read_text())
    rules = rules_from_options("app", data["set"])
    first = data["generations"] * data["games"] + data["eval_games"]
    args = (tuple(data["field"]), data["eval_games"], data["seed"], first, None)
    assert _wins(rules, "tuned-app", *args) == data["score"]["wins"]
    assert _wins(rules, "balanced", *args) == data["baseline"]["wins"]


@pytest.mark.slow
@pytest.mark.parametrize("preset", ["app", "italian", "king", "killer"])
def test_rerunning_a_shipped_command_gives_its_weights(
    preset: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    shipped = tomllib.loads((SHIPPED / f"{preset}.toml").read_text())
    (tmp_path / "ludosim" / "rules" / "tuned").mkdir(parents=True)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as info:
        main([*shlex.split(shipped["command"])[1:], "-q"])
    assert info.value.code == 0
    rerun = tomllib.loads((tmp_path / "ludosim" / "rules" / "tuned" / f"{preset}.toml").read_text())
    assert rerun["weights"] == shipped["weights"]
    assert rerun["score"] == shipped["score"]
