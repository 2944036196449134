"""The skill study: the meta-game's equilibrium solver, determinism, the CLI and its tables."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytest.importorskip("openskill")
pytest.importorskip("scipy")

from ludosim.cli import main
from ludosim.ratings import DEFAULT_PLAYERS
from ludosim.skill import (
    LADDER_COLUMNS,
    METAGAME_COLUMNS,
    PAIR_COLUMNS,
    SKILL_COLUMNS,
    RuleSet,
    SkillError,
    Study,
    default_players,
    head_to_head_seatings,
    load_study,
    resample_equilibria,
    skill_study,
    symmetric_equilibrium,
)

LADDER = ("random", "runner", "balanced", "aggressive")


def _share(payoff: list[list[float]]) -> np.ndarray:
    """Head-to-head shares from an antisymmetric payoff in units of one half."""
    return 0.5 + 0.5 * np.asarray(payoff, dtype=float)


def test_rock_paper_scissors_has_the_uniform_equilibrium() -> None:
    share = _share([[0, -1, 1], [1, 0, -1], [-1, 1, 0]])
    assert symmetric_equilibrium(share) == pytest.approx([1 / 3, 1 / 3, 1 / 3], abs=1e-9)


def test_a_dominant_way_of_playing_is_the_pure_equilibrium() -> None:
    # Player 1 beats both others; 0 beats 2.
    share = _share([[0, -0.2, 0.4], [0.2, 0, 0.1], [-0.4, -0.1, 0]])
    assert symmetric_equilibrium(share) == pytest.approx([0, 1, 0], abs=1e-9)


def test_an_unequal_cycle_has_its_hand_computed_mix() -> None:
    # Rock-paper-scissors where rock's win counts twice: the mix x solves x @ P = 0,
    # P = [[0, -1, 2], [1, 0, -1], [-2, 1, 0]]: x = (1, 2, 1) / 4.
    share = 0.5 + np.array([[0, -1, 2], [1, 0, -1], [-2, 1, 0]]) / 4
    assert symmetric_equilibrium(share) == pytest.approx([0.25, 0.5, 0.25], abs=1e-9)


def test_a_clear_dominance_stays_in_every_resample_and_resamples_repeat() -> None:
    """Player 0 wins 900 of 1,000 decided games against each other player: a binomial
    resample puts it below one half with probability far under 1e-100, so it is the
    pure equilibrium of every resample."""
    wins = np.array([[0, 900, 900], [100, 0, 520], [100, 480, 0]], dtype=float)
    decided = np.full((3, 3), 1000.0)
    first = resample_equilibria(wins, decided, 50, seed=4)
    assert first[:, 0] == pytest.approx(np.ones(50))
    assert np.array_equal(first, resample_equilibria(wins, decided, 50, seed=4))


def test_head_to_head_seatings_split_the_seats() -> None:
    assert head_to_head_seatings("a", "b", 4) == [["a", "a", "b", "b"]]
    assert head_to_head_seatings("a", "b", 2) == [["a", "b"]]
    assert head_to_head_seatings("a", "b", 3) == [["a", "a", "b"], ["b", "b", "a"]]


def test_default_ladder_adds_the_shipped_tuned_player() -> None:
    assert default_players("app") == [*DEFAULT_PLAYERS, "tuned-app"]


def _small(seed: int = 5, **sizes: int) -> Study:
    base = dict(
        games=40, match_games=40, pair_games=40, bootstrap=5, resamples=20, headline_games=40
    )
    return Study((RuleSet("app"),), seed, LADDER, **{**base, **sizes})


@pytest.fixture(scope="module")
def tables():
    return skill_study(_small())


def test_the_tables_have_their_columns(tables) -> None:
    assert list(tables.skill.columns) == list(SKILL_COLUMNS)
    assert list(tables.ladder.columns) == list(LADDER_COLUMNS)
    assert list(tables.metagame.columns) == list(METAGAME_COLUMNS)
    assert list(tables.pairs.columns) == list(PAIR_COLUMNS)
    measures = set(tables.skill["measure"])
    assert {"win_share_vs_random", "win_share_vs_balanced", "rating_range", "rating_sd"} <= measures
    assert tables.metagame["weight"].sum() == pytest.approx(1.0)
    assert len(tables.pairs) == len(LADDER) * (len(LADDER) - 1)  # both orders of 6 pairs


def test_the_strongest_is_the_ladder_top(tables) -> None:
    top = tables.ladder.iloc[0]["player"]
    # Every measure of the strongest player; the headline answers also seat random
    # players (first-player advantage) and the pacifist.
    own = ~tables.skill["measure"].str.match(r"first_player_advantage_random|pacifist_share")
    assert set(tables.skill.loc[own, "player"]) - {""} == {top}
    strongest = tables.skill[tables.skill["measure"] == "pacifist_share_vs_strongest"]
    assert strongest["opponent"].tolist() in ([top], [])


def test_same_seed_same_tables(tables) -> None:
    again = skill_study(_small())
    for name in ("skill", "ladder", "metagame", "pairs"):
        pd.testing.assert_frame_equal(getattr(tables, name), getattr(again, name))


def test_a_named_strongest_player_is_measured(tables) -> None:
    named = skill_study(Study((RuleSet("app"),), 5, LADDER, "runner", 40, 40, 40, 5, 20, 40))
    rows = named.skill[named.skill["measure"] == "win_share_vs_random"]
    assert rows["player"].tolist() == ["runner"]


def test_games_to_be_ahead_follow_the_head_to_head_share(tables) -> None:
    from ludosim.ratings import games_to_be_ahead

    rows = tables.skill.set_index("measure")
    for opponent in ("random", "balanced"):
        share = rows.at[f"head_to_head_vs_{opponent}", "estimate"]
        games = rows.at[f"games_to_be_ahead_of_{opponent}", "estimate"]
        if share > 0.5:
            assert games == games_to_be_ahead(share)
        else:
            assert np.isnan(games)


# ------------------------------------------------------------------------------ CLI
def _run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as info:
        main(args)
    out = capsys.readouterr()
    return int(info.value.code or 0), out.out, out.err


@pytest.mark.parametrize(
    ("args", "field"),
    [
        (["--preset", "nope", "--seed", "1"], "preset"),
        (["--preset", "app", "--seed", "1", "--games", "0"], "games"),
        (["--preset", "app"], "--seed"),
        (["--preset", "app", "--seed", "1", "--players", "random,nobody"], "nobody"),
        (["--preset", "app", "--seed", "1", "--vary", "finish=sideways"], "finish"),
    ],
)
def test_bad_input_is_one_line_and_exit_code_2(
    args: list[str], field: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = _run(["skill", *args, "--out", str(tmp_path / "out")], capsys)
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and field in err


def test_a_bad_study_file_names_the_key(tmp_path: Path, capsys) -> None:
    study = tmp_path / "s.toml"
    study.write_text('seed = 1\ngamez = 3\n[[rule_set]]\npreset = "app"\n')
    code, _, err = _run(["skill", str(study), "--out", str(tmp_path / "o")], capsys)
    assert code == 2 and "gamez" in err and len(err.strip().splitlines()) == 1
    with pytest.raises(SkillError, match="gamez"):
        load_study(study)


def test_cli_writes_the_tables_and_the_page(tmp_path: Path, capsys) -> None:
    out = tmp_path / "skill"
    code, stdout, err = _run(
        ["skill", "--preset", "app", "--vary", "finish=bounce", "--players", ",".join(LADDER),
         "--games", "40", "--match-games", "40", "--pair-games", "40", "--bootstrap", "3",
         "--resamples", "10", "--headline-games", "80", "--seed", "2", "--out", str(out), "-q"],
        capsys,
    )  # fmt: skip
    assert code == 0, err
    assert "wrote" in stdout
    skill = pd.read_csv(out / "skill.csv")
    assert list(skill.columns) == list(SKILL_COLUMNS)
    assert list(dict.fromkeys(skill["rule_set"])) == ["app", "app finish=bounce"]
    # The headline answers: first player with random and skilled seats, and the pacifist
    # (captures are optional under app) against balanced and the strongest.
    measures = set(skill["measure"])
    assert {"first_player_advantage_random", "first_player_advantage_strongest",
            "pacifist_share_vs_balanced"} <= measures  # fmt: skip
    fpa = skill[skill["measure"] == "first_player_advantage_random"]
    assert (fpa["games"] <= 80).all() and (fpa["ci_low"] < fpa["estimate"]).all()
    assert list(pd.read_csv(out / "ladder.csv").columns) == list(LADDER_COLUMNS)
    assert list(pd.read_csv(out / "metagame.csv").columns) == list(METAGAME_COLUMNS)
    page = (out / "index.html").read_text()
    assert "How much each rule set rewards skill" in page and "The strategy meta-game" in page
    for png in ("win_shares.png", "games_to_be_ahead.png", "metagame.png", "head_to_head.png"):
        assert (out / png).stat().st_size > 0


def test_the_study_of_analyses_loads() -> None:
    study = load_study(Path(__file__).resolve().parents[1] / "analyses" / "skill.toml")
    labels = [r.label for r in study.rule_sets]
    assert labels[:5] == ["app", "italian", "danish", "danish-globe", "killer"]
    assert all(label.startswith("app ") for label in labels[5:])
