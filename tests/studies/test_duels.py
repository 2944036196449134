"""The duels study (`ludosim duels`): its file, its page, and the calibration of its claims.

The page states each player's gap from the exact number it stands for, and RS measured
with the approximate players against the exact RS, in one Holm family. The calibration
draws the players' games from the exact values themselves (no gap): the page must claim
a gap in at most 5% of runs, judged by the upper end of a Wilson interval over the runs.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from typer.testing import CliRunner

from ludosim.cli.app import app
from ludosim.results.stats import wilson_interval
from ludosim.studies.duels import (
    Duel,
    DuelsError,
    DuelsStudy,
    DuelsTables,
    load_study,
    read_tables,
    run_study,
    study_findings,
)
from ludosim.studies.duels.tables import EXACT_COLUMNS, LUCK_COLUMNS, PLAYER_COLUMNS

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[2]


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "study.toml"
    path.write_text(text)
    return path


@pytest.mark.parametrize(
    ("text", "match"),
    [
        ('seed = 1\n[[duel]]\npreset = "app"\npieces = 3\n', "pieces must be 1 or 2"),
        ('seed = 1\n[[duel]]\npreset = "killer"\npieces = 1\n', "roll_then_move"),
        ('seed = 1\nsequences = 1\n[[duel]]\npreset = "app"\n', "sequences"),
        ('seed = 1\nplayers = ["nobody"]\n[[duel]]\npreset = "app"\n', "nobody"),
        ('seed = 1\n[[duel]]\npreset = "app"\ncolour = 2\n', "unknown keys colour"),
        ("seed = 1\n", "name at least one"),
        ('seed = 1\n[[duel]]\npreset = "app"\nset = { entry = 3 }\n', "entry"),
    ],
)
def test_a_bad_study_file_is_one_line_naming_the_fault(tmp_path, text, match) -> None:
    path = _write(tmp_path, text)
    with pytest.raises(DuelsError, match=match):
        load_study(path)
    result = runner.invoke(app, ["duels", str(path), "--out", str(tmp_path / "out")])
    assert result.exit_code == 2 and len(result.stderr.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_the_shipped_study_loads() -> None:
    study = load_study(ROOT / "analyses" / "duels.toml")
    assert len([d for d in study.duels if d.pieces == 2]) >= 3
    assert {"expert", "fictive"} <= set(study.players)


@pytest.fixture(scope="module")
def one_piece_page(tmp_path_factory) -> Path:
    study = DuelsStudy((Duel("app", 1), Duel("maedn", 1)), seed=3, sequences=20,
                       luck_games=2000, player_games=2000, players=("balanced",))  # fmt: skip
    out = tmp_path_factory.mktemp("duels") / "page"
    run_study(study, out)
    return out


def test_a_duel_without_choices_states_none_not_a_number(one_piece_page: Path) -> None:
    found = json.loads((one_piece_page / "findings.json").read_text())
    exact = [f for f in found if f["topic"] == "exact"]
    assert len(exact) == 2
    assert all("no roll leaves a choice" in f["text"] and f["estimate"] is None for f in exact)
    assert not [f for f in found if f["topic"] == "players"]  # nothing to measure
    tables = pd.read_csv(one_piece_page / "exact.csv")
    assert (tables["choices"] == 0).all() and tables["rs"].isna().all()
    html = (one_piece_page / "index.html").read_text()
    assert "no relative skill level is stated" in html and "no choices" in html


def test_the_engine_check_agrees_with_the_exact_first_mover(one_piece_page: Path) -> None:
    found = json.loads((one_piece_page / "findings.json").read_text())
    engine = [f for f in found if f["topic"] == "engine"]
    assert len(engine) == 2 and all(not f["resolved"] for f in engine)
    assert all(f["family"] == "values" for f in engine)


def test_luck_rows_add_up_in_every_game(one_piece_page: Path) -> None:
    luck = pd.read_csv(one_piece_page / "luck.csv")
    assert (luck["identity_gap"] < 1e-12).all() and (luck["fixed_point_gap"] < 1e-11).all()
    assert luck["share_choices"].isna().all()


def test_the_page_is_redrawn_from_its_tables(one_piece_page: Path, tmp_path: Path) -> None:
    from ludosim.studies.duels import study_page

    study = DuelsStudy((Duel("app", 1), Duel("maedn", 1)), seed=3, sequences=20,
                       luck_games=2000, player_games=2000, players=("balanced",))  # fmt: skip
    tables = read_tables(one_piece_page, study)
    study_page(tables, tmp_path)
    before = json.loads((one_piece_page / "findings.json").read_text())
    assert json.loads((tmp_path / "findings.json").read_text()) == before


# ----------------------------------------------------------------- calibration
W_OPT, W_CLAIR, CLAIR_SE, FIRST = 0.578, 0.805, 0.010, 0.5133


def _null_tables(rng: np.random.Generator, games: int, sequences: int) -> DuelsTables:
    """Two duels whose players play exactly as the numbers they stand for: the optimal
    player's and the clairvoyant's win shares, the exact first mover's; the clairvoyant
    known with its own Monte Carlo error."""
    study = DuelsStudy((Duel("app", 2), Duel("maedn", 2)), seed=1, sequences=sequences,
                       player_games=games)  # fmt: skip
    exact, players = [], []
    for duel in study.duels:
        clair = rng.normal(W_CLAIR, CLAIR_SE)
        half = 1.959964 * CLAIR_SE
        rs = (W_OPT - 0.5) / (clair - 0.5)
        rs_low, rs_high = (W_OPT - 0.5) / (clair + half - 0.5), (W_OPT - 0.5) / (clair - half - 0.5)
        exact.append(dict.fromkeys(EXACT_COLUMNS, 0) | {
            "duel": duel.label, "pieces": 2, "nodes": 100, "choices": 10, "random_first": FIRST,
            "w_optimal": W_OPT, "minimax_first": 0.51, "w_clairvoyant": clair,
            "w_clairvoyant_low": clair - half, "w_clairvoyant_high": clair + half, "rs": rs,
            "rs_low": rs_low, "rs_high": rs_high, "sequences": sequences,
        })  # fmt: skip
        truth = {"random": 0.5, "balanced": W_OPT, "expert": W_OPT, "fictive": W_CLAIR}
        for player, w in truth.items():
            first = rng.binomial(games, FIRST) if player == "random" else 0
            players.append({"duel": duel.label, "player": player, "games": games,
                            "wins": rng.binomial(games, w), "first_wins": first,
                            "truncated": 0})  # fmt: skip
    luck = pd.DataFrame(columns=list(LUCK_COLUMNS))
    return DuelsTables(study, pd.DataFrame(exact), pd.DataFrame(players, columns=list(
        PLAYER_COLUMNS)), luck)  # fmt: skip


def test_players_who_play_as_exact_play_are_not_claimed_off_it() -> None:
    rng = np.random.default_rng(2026)
    runs, claimed = 400, 0
    for _ in range(runs):
        tables = _null_tables(rng, games=4000, sequences=2000)
        decided = study_findings(tables).tests
        claimed += any(t.resolved for t in decided.values())
        assert len(decided) == 10  # 2 duels x (engine, 3 players, RS)
        assert {t.family_size for t in decided.values()} == {10}  # decided as one family
    low, _ = wilson_interval(claimed, runs)
    assert low <= 0.05, f"a gap claimed in {claimed} of {runs} null runs"


def test_a_real_gap_is_found() -> None:
    """The same design finds a player 5 points short of exact play."""
    rng = np.random.default_rng(7)
    tables = _null_tables(rng, games=20_000, sequences=2000)
    players = tables.players
    expert = players["player"] == "expert"
    players.loc[expert, "wins"] = (0.528 * players.loc[expert, "games"]).astype(int)
    tests = study_findings(tables).tests
    gaps = [t for k, t in tests.items() if k.endswith("|expert")]
    assert all(t.resolved and t.ci_high < 0 for t in gaps)
    assert all(math.isclose(t.estimate, -5.0, abs_tol=0.01) for t in gaps)


def test_show_game_prints_a_duel_roll_by_roll() -> None:
    args = ["exact", "--preset", "maedn", "--duel", "--sequences", "4", "--seed", "2"]
    result = runner.invoke(app, [*args, "--show-game", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    answer = json.loads(result.stdout)
    rolls = answer["game"]["rolls"]
    assert rolls and rolls[0]["mover"] == "random"  # game 1: role 1 moves first
    assert all(r["cost_pp"] == 0 for r in rolls)  # one piece: no choice, no cost
    alone = runner.invoke(app, ["exact", "--preset", "maedn", "--show-game", "1"])
    assert alone.exit_code == 2 and "--duel" in alone.stderr
