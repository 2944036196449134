"""Analyses against tables small enough to compute every expected number by hand.

Each expected value is written from its formula in the test (docs/analysis.md),
independently of the implementation, so a wrong formula cannot check itself.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ludosim.report import analysis
from ludosim.results import stats
from ludosim.results.stats import Z95, chi2_sf

FIXTURE = Path(__file__).parents[1] / "fixtures" / "results_small"


def games(players: int, first, winner, turns=None, game=None, **extra) -> pd.DataFrame:
    """A per-game table with the columns the analyses read."""
    k = len(winner)
    df = pd.DataFrame(
        {
            "game": np.arange(k) if game is None else game,
            "first": np.asarray(first, dtype="int8"),
            "winner": np.asarray(winner, dtype="int8"),
            "turns": np.arange(k) + 10 if turns is None else turns,
            "truncated": np.asarray(winner) < 0,
        }
    )
    # Places as the engines give them: the winner 1, the others 2, 3, ... in seat order
    # (every seat its own side; a game without a winner in seat order).
    for s in range(players):
        df[f"place_{s}"] = [_place(w, s, players) for w in winner]
    for name, value in extra.items():
        df[name] = value
    return df


def _place(winner: int, seat: int, players: int) -> int:
    order = [winner, *(s for s in range(players) if s != winner)] if winner >= 0 else None
    return (order or list(range(players))).index(seat) + 1


def wilson(x: int, n: int) -> tuple[float, float]:
    """Wilson score interval, written out: (p + z²/2n ± z sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)."""
    z = Z95
    p = x / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# ------------------------------------------------------------------------ game length
def test_game_length_mean_sd_quantiles_and_cis() -> None:
    turns = np.array([1, 2, 3, 4, 10, 5, 6, 7, 8, 9])
    df = games(2, [0] * 10, [0] * 10, turns=turns)
    df["rolls"] = turns + 1
    df["end_turns"] = turns  # equal to turns: not reported
    out = analysis.game_length(df)
    assert list(out["measure"]) == ["rounds", "turns", "rolls"]
    # Rounds are turns over the two players: the scale that compares player counts.
    assert out.iloc[0]["mean"] == pytest.approx(5.5 / 2)
    assert out.iloc[0]["median"] == pytest.approx(5.5 / 2)
    row = out.iloc[1]
    # mean 5.5, sd with ddof=1: sqrt(sum (x - 5.5)^2 / 9) = sqrt(82.5 / 9)
    sd = math.sqrt(82.5 / 9)
    assert row["mean"] == pytest.approx(5.5)
    assert row["sd"] == pytest.approx(sd)
    assert row["mean_ci_low"] == pytest.approx(5.5 - Z95 * sd / math.sqrt(10))
    assert row["mean_ci_high"] == pytest.approx(5.5 + Z95 * sd / math.sqrt(10))
    # Binomial(10, 1/2): P(B <= 1) = 11/1024 <= 0.025 < P(B <= 2) = 56/1024, so j = 2:
    # the interval runs from the 2nd to the 9th smallest value.
    assert (row["median"], row["median_ci_low"], row["median_ci_high"]) == (5.5, 2.0, 9.0)
    # numpy's linear quantile of 1..10 at q is 1 + 9q.
    assert row["q05"] == pytest.approx(1.45)
    assert row["q25"] == pytest.approx(3.25)
    assert row["q95"] == pytest.approx(9.55)
    assert (row["min"], row["max"], row["games"], row["truncated"]) == (1, 10, 10, 0)
    assert out.iloc[2]["mean"] == pytest.approx(6.5)


def test_game_length_reports_end_turns_when_it_differs_and_groups() -> None:
    df = games(2, [0] * 4, [0] * 4, turns=[10, 20, 30, 40])
    df["end_turns"] = [10, 25, 30, 50]
    df["cell"] = ["a", "a", "b", "b"]
    out = analysis.game_length(df, by="cell")
    assert list(out.columns[:2]) == ["cell", "measure"]
    assert list(zip(out["cell"], out["measure"], out["mean"], strict=True)) == [
        ("a", "rounds", 7.5),
        ("a", "turns", 15.0),
        ("a", "end_turns", 17.5),
        ("b", "rounds", 17.5),
        ("b", "turns", 35.0),
        ("b", "end_turns", 40.0),
    ]
    # 2 games: a 95% order-statistic interval needs at least 6 (1/32 > 0.025).
    assert math.isnan(out.iloc[0]["median_ci_low"])


def test_length_distribution_pmf_and_cdf() -> None:
    df = games(2, [0] * 5, [0] * 5, turns=[3, 1, 3, 2, 3])
    out = analysis.length_distribution(df, "turns")
    assert out.to_dict("list") == {
        "value": [1, 2, 3],
        "count": [1, 1, 3],
        "pmf": [0.2, 0.2, 0.6],
        "cdf": [0.2, 0.4, 1.0],
    }


# ------------------------------------------------------------------------- win rates
def test_first_player_advantage_two_players() -> None:
    # Positions (winner - first) mod 2: six games won by position 0, four by position 1,
    # one truncated game without a finisher.
    first = [0, 1, 0, 1, 0, 1, 0, 1, 0, 1, 0]
    winner = [0, 1, 0, 1, 0, 1, 1, 0, 1, 0, -1]
    out = analysis.first_player_advantage(games(2, first, winner))
    assert list(out["position"]) == [0, 1]
    assert list(out["wins"]) == [6, 4]
    assert set(out["games"]) == {10} and set(out["excluded"]) == {1}
    row = out.iloc[0]
    low, high = wilson(6, 10)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx((low, high))
    assert row["advantage_pp"] == pytest.approx(10.0)
    assert row["advantage_ci_low"] == pytest.approx(100 * (low - 0.5))
    assert row["advantage_ci_high"] == pytest.approx(100 * (high - 0.5))
    # chi2 = ((6 - 5)^2 + (4 - 5)^2) / 5 = 0.4 with 1 dof: P(|Z| >= sqrt(0.4)).
    assert row["chi2"] == pytest.approx(0.4)
    assert row["dof"] == 1
    assert row["p_value"] == pytest.approx(math.erfc(math.sqrt(0.4) / math.sqrt(2)))


def test_first_player_advantage_positions_wrap_around() -> None:
    # 4 players: first 3, winner 1 -> position 2; first 2, winner 2 -> 0; first 1, winner 0 -> 3.
    out = analysis.first_player_advantage(games(4, [3, 2, 1, 3], [1, 2, 0, 1]))
    assert list(out["wins"]) == [1, 0, 2, 1]
    # expected 1 each: chi2 = (0 + 1 + 1 + 0) / 1 = 2 with 3 dof
    assert out["chi2"].iloc[0] == pytest.approx(2.0)
    assert out["p_value"].iloc[0] == pytest.approx(chi2_sf(2.0, 3))
    assert out["fair"].iloc[0] == 0.25


def test_first_player_advantage_by_cell_with_different_player_counts() -> None:
    two = games(2, [0, 0], [0, 1]).assign(cell="two")
    three = games(3, [0, 0, 0], [0, 0, 2]).assign(cell="three")
    df = pd.concat([two, three], ignore_index=True)  # place_2 is NaN for the 2-player cell
    out = analysis.first_player_advantage(df, by="cell")
    assert list(out["cell"]) == ["two", "two", "three", "three", "three"]
    assert list(out["wins"]) == [1, 1, 2, 0, 1]
    assert list(out["players"]) == [2, 2, 3, 3, 3]


def test_seat_win_rates() -> None:
    out = analysis.seat_win_rates(games(3, [0, 1, 2, 0], [2, 2, 1, -1]))
    assert list(out["wins"]) == [0, 1, 2]
    assert list(out["games"]) == [3, 3, 3]
    assert out.iloc[2]["ci_low"] == pytest.approx(wilson(2, 3)[0])


def test_win_table_with_given_policies_pools_seats() -> None:
    df = games(3, [0] * 5, [0, 1, 2, 1, -1])
    out = analysis.win_table(df, ["a", "b", "b"])
    assert out.set_index("policy")[["seat_games", "wins"]].to_dict("index") == {
        "a": {"seat_games": 5, "wins": 1},
        "b": {"seat_games": 10, "wins": 3},  # seat 1 won twice, seat 2 once
    }
    row = out.set_index("policy").loc["b"]
    assert row["win_rate"] == pytest.approx(0.3)
    assert (row["ci_low"], row["ci_high"]) == pytest.approx(wilson(3, 10))
    assert row["fair"] == pytest.approx(1 / 3)


def test_win_table_reads_the_policies_column_of_a_sweep() -> None:
    # A two-rotation tournament played as two cells.
    df = games(2, [0] * 4, [0, 0, 1, 0], policies=["x,y", "x,y", "y,x", "y,x"])
    out = analysis.win_table(df).set_index("policy")
    assert out.loc["x", "wins"] == 3 and out.loc["x", "seat_games"] == 4
    assert out.loc["y", "wins"] == 1


# -------------------------------------------------------------------------- skip cost
def test_seat_effect_independent_uses_newcombe() -> None:
    treated = games(2, [0] * 10, [0] * 7 + [1] * 3, game=np.arange(10))
    baseline = games(2, [0] * 10, [0] * 5 + [1] * 5, game=np.arange(10, 20))
    row = analysis.seat_effect(treated, baseline, seat=0).iloc[0]
    assert row["method"] == "newcombe"
    assert (row["diff"], row["diff_ci_low"], row["diff_ci_high"]) == pytest.approx(
        stats.diff_proportions(7, 10, 5, 10)
    )
    assert (row["win_rate"], row["win_rate_base"]) == pytest.approx((0.7, 0.5))


def test_seat_effect_paired_by_game() -> None:
    treated = games(2, [0] * 6, [0, 0, 0, 1, 0, -1])
    baseline = games(2, [0] * 6, [0, 1, 1, 1, 0, 0]).iloc[::-1]  # order does not matter
    row = analysis.seat_effect(treated, baseline, seat=0).iloc[0]
    # game 5 is dropped (no finisher on one side); differences 0, 1, 1, 0, 0
    d = np.array([0, 1, 1, 0, 0], dtype=float)
    half = Z95 * d.std(ddof=1) / math.sqrt(5)
    assert row["method"] == "paired"
    assert row["games"] == 5
    assert (row["diff"], row["diff_ci_low"], row["diff_ci_high"]) == pytest.approx(
        (0.4, 0.4 - half, 0.4 + half)
    )


def test_skip_cost_curve_and_break_even() -> None:
    parts = []
    for detect, skipper_wins in ((0.0, 7), (1.0, 3)):
        base = games(2, [0] * 10, [0] * 5 + [1] * 5)
        skip = games(2, [0] * 10, [0] * skipper_wins + [1] * (10 - skipper_wins))
        parts += [
            base.assign(detect_skip=detect, policies="balanced"),
            skip.assign(detect_skip=detect, policies="skipper:1,balanced"),
        ]
    out = analysis.skip_cost(pd.concat(parts, ignore_index=True), seat=0)
    assert list(out["detect_skip"]) == [0.0, 1.0]
    assert list(out["policy"]) == ["skipper:1", "skipper:1"]
    assert list(out["baseline"]) == ["balanced", "balanced"]
    assert out["diff"].tolist() == pytest.approx([0.2, -0.2])
    # paired differences at detect 0: two games 1 - 0, eight 0 -> mean 0.2
    d = np.array([0] * 5 + [1] * 2 + [0] * 3, dtype=float)
    assert out.iloc[0]["diff_ci_high"] == pytest.approx(0.2 + Z95 * d.std(ddof=1) / math.sqrt(10))
    assert out["break_even"].tolist() == pytest.approx([0.5, 0.5])


def test_skip_cost_with_a_baseline_at_one_detection_probability() -> None:
    base = games(2, [0] * 4, [0, 0, 1, 1]).assign(detect_skip=0.0, policies="balanced")
    skips = [
        games(2, [0] * 4, w).assign(detect_skip=q, policies="skipper:0.5,balanced")
        for q, w in ((0.0, [0, 0, 0, 1]), (0.5, [0, 1, 1, 1]))
    ]
    out = analysis.skip_cost(pd.concat([base, *skips], ignore_index=True))
    assert out["diff"].tolist() == pytest.approx([0.25, -0.25])


def test_skip_cost_needs_a_skipper() -> None:
    df = games(2, [0] * 2, [0, 1]).assign(detect_skip=0.0, policies="balanced")
    with pytest.raises(analysis.AnalysisError, match="skipper"):
        analysis.skip_cost(df)


# ---------------------------------------------------------------------- toggle effects
def cells_table() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "cell": ["c0", "c1", "c2", "c3"],
            "name": ["base", "x=2", "y=b", "x=2 y=b"],
            "x": [1, 2, 1, 2],
            "y": ["a", "a", "b", "b"],
            "policies": ["random"] * 4,
            "games": [4] * 4,
            "seed": [1] * 4,
        }
    )


def test_find_baselines() -> None:
    assert analysis.find_baselines(cells_table().iloc[:3]) == ["c0"]
    assert analysis.find_baselines(cells_table()) == []  # a full grid has no centre


def test_toggle_effects_paired() -> None:
    base = games(2, [0, 0, 1, 1], [0, 1, 1, 0], turns=[10, 20, 30, 40])
    x2 = games(2, [0, 0, 1, 1], [0, 0, 1, 0], turns=[12, 21, 35, 40])
    y_b = games(2, [0, 0, 1, 1], [0, 1, 1, 0], turns=[10, 20, 30, 44])
    both = games(2, [0, 0, 1, 1], [1, 1, 1, 1], turns=[1, 1, 1, 1])
    df = pd.concat(
        [t.assign(cell=c) for t, c in ((base, "c0"), (x2, "c1"), (y_b, "c2"), (both, "c3"))]
    )
    out = analysis.toggle_effects(df, cells_table(), "c0")
    assert list(out["cell"]) == ["c1", "c2"]  # c3 changes two toggles
    assert list(out["toggle"]) == ["x", "y"]
    assert list(zip(out["base_value"], out["value"], strict=True)) == [("1", "2"), ("a", "b")]
    row = out.iloc[0]
    d = np.array([2, 1, 5, 0], dtype=float)
    half = Z95 * d.std(ddof=1) / 2
    assert row["method"] == "paired"
    assert (row["turns_effect"], row["turns_ci_low"], row["turns_ci_high"]) == pytest.approx(
        (2.0, 2.0 - half, 2.0 + half)
    )
    # first-player wins: base [1, 0, 1, 0], x=2 [1, 1, 1, 0] -> advantage 25 pp vs 0 pp
    w = np.array([0, 1, 0, 0], dtype=float)
    half = 100 * Z95 * w.std(ddof=1) / 2
    assert (row["fpa_pp"], row["base_fpa_pp"]) == pytest.approx((25.0, 0.0))
    assert (row["fpa_effect_pp"], row["fpa_ci_low"], row["fpa_ci_high"]) == pytest.approx(
        (25.0, 25.0 - half, 25.0 + half)
    )


def test_toggle_effects_independent_cells() -> None:
    base = games(2, [0] * 4, [0, 1, 1, 0], turns=[10, 20, 30, 40])
    x2 = games(2, [0] * 4, [0, 0, 1, 0], turns=[12, 21, 35, 40], game=np.arange(4, 8))
    df = pd.concat([base.assign(cell="c0"), x2.assign(cell="c1")])
    row = analysis.toggle_effects(df, cells_table().iloc[:2]).iloc[0]
    assert row["method"] == "welch/newcombe"
    expected = stats.diff_means(np.array([12, 21, 35, 40.0]), np.array([10, 20, 30, 40.0]))
    assert (row["turns_effect"], row["turns_ci_low"], row["turns_ci_high"]) == pytest.approx(
        expected
    )
    d, low, _ = stats.diff_proportions(3, 4, 2, 4)
    assert (row["fpa_effect_pp"], row["fpa_ci_low"]) == pytest.approx((100 * d, 100 * low))


def factorial_rows(paired: bool) -> pd.DataFrame:
    # y = 10 + 2A + 3B + 1AB + game effect, A = x (1 -> -1, 2 -> +1), B = y (a -> -1, b -> +1)
    noise = np.array([0.0, 1.0, -2.0, 4.0])
    parts = []
    for i, (cell, a, b) in enumerate((("c0", -1, -1), ("c1", 1, -1), ("c2", -1, 1), ("c3", 1, 1))):
        mean = 10 + 2 * a + 3 * b + a * b
        game = np.arange(4) if paired else np.arange(4) + 4 * i
        # independent cells get their own noise order, so the contrasts are not exact
        parts.append(
            games(2, [0] * 4, [0] * 4, turns=mean + np.roll(noise, 0 if paired else i), game=game)
            .assign(cell=cell)
        )  # fmt: skip
    return pd.concat(parts, ignore_index=True)


def test_factorial_effects_paired_contrasts() -> None:
    out = analysis.factorial_effects(factorial_rows(True), cells_table(), ["x", "y"])
    assert list(out["term"]) == ["x", "y", "x x y"]
    # effect = mean at +1 minus mean at -1 = 2 x coefficient; the shared game effect cancels
    assert out["effect"].tolist() == pytest.approx([4.0, 6.0, 2.0])
    assert out["se"].tolist() == pytest.approx([0.0, 0.0, 0.0])
    assert list(out["low"][:2]) == ["1", "a"] and list(out["high"][:2]) == ["2", "b"]
    assert set(out["method"]) == {"paired"}


def test_factorial_effects_independent_cells() -> None:
    out = analysis.factorial_effects(factorial_rows(False), cells_table(), ["x", "y"])
    assert out["effect"].tolist() == pytest.approx([4.0, 6.0, 2.0])
    # SE = (1 / 2^(k-1)) sqrt(sum_c s_c^2 / n_c); every cell has the same spread here
    s2 = np.var([0.0, 1.0, -2.0, 4.0], ddof=1)
    assert out["se"].tolist() == pytest.approx([0.5 * math.sqrt(4 * s2 / 4)] * 3)
    assert out.iloc[0]["ci_low"] == pytest.approx(4.0 - Z95 * out.iloc[0]["se"])
    assert set(out["method"]) == {"independent"}


def test_factorial_effects_refuses_a_three_level_factor() -> None:
    cells = cells_table().assign(x=[1, 2, 3, 2])
    with pytest.raises(analysis.AnalysisError, match="2-level"):
        analysis.factorial_effects(factorial_rows(True), cells, ["x", "y"])


def test_missing_columns_are_one_clear_error() -> None:
    with pytest.raises(analysis.AnalysisError, match="first"):
        analysis.first_player_advantage(pd.DataFrame({"winner": [0], "place_0": [1]}))


# ------------------------------------------------------------------- on the fixture
def test_analyses_run_on_the_fixture_sweeps() -> None:
    from ludosim import results

    df = results.load(FIXTURE / "toggles", cells=True)
    cells = results.load_cells(FIXTURE / "toggles")
    effects = analysis.toggle_effects(df, cells)
    assert sorted(effects["toggle"]) == ["finish", "finish", "six_limit", "six_limit"]
    assert set(effects["method"]) == {"paired"}  # same seed, same games in every cell
    fpa = analysis.first_player_advantage(df, by="cell")
    assert set(fpa.groupby("cell", observed=True)["wins"].sum()) == {300}
    skip = results.load(FIXTURE / "skip", cells=True)
    curve = analysis.skip_cost(skip)
    assert list(curve["detect_skip"]) == [0.0, 0.5, 1.0]
    assert set(analysis.win_table(skip)["policy"]) == {"balanced", "skipper:1"}


# ------------------------------------------------------------------- toggle bases
def sweep_cells(**options: object) -> pd.DataFrame:
    from ludosim.sweep import SweepSpec
    from ludosim.sweep.spec import cells_frame, expand

    return cells_frame(expand(SweepSpec.from_options(games=10, seed=1, **options)), full=True)


def test_base_is_the_preset_value_when_every_cell_is_a_centre() -> None:
    # A grid of one toggle lists 0 first, but the app preset has six_limit=3.
    cells = sweep_cells(preset="app", vary=["six_limit=0,3"])
    assert list(cells["six_limit"]) == [0, 3]
    assert analysis.baselines(cells).to_dict("records") == [
        {"variant": "", "base": "c001", "rule": "preset"}
    ]
    assert analysis.find_baselines(cells) == ["c001"]


def test_base_is_the_sweep_start_when_the_sweep_names_one() -> None:
    # Starting from six_limit=0 (a `set`), one-at-a-time: the start is the base.
    cells = sweep_cells(
        preset="app", sets=["six_limit=0"], vary=["six_limit=0,3"], mode="one-at-a-time"
    )
    assert list(cells["six_limit"]) == [0, 3]
    assert analysis.baselines(cells)["rule"].tolist() == ["sweep start"]
    assert analysis.find_baselines(cells) == ["c000"]


def test_base_without_a_preset_is_the_first_centre() -> None:
    # Named by their changes (no starting point), no preset column: nothing to match.
    cells = cells_table().iloc[:2].assign(name=["x=1", "x=2"])
    assert analysis.baselines(cells).to_dict("records") == [
        {"variant": "", "base": "c0", "rule": "first cell"}
    ]


def test_toggle_effects_name_their_base_rule() -> None:
    cells = sweep_cells(preset="app", vary=["six_limit=0,3"])
    rows = [
        games(4, [0, 1, 2, 3], [0, 1, 2, 3], turns=[10, 20, 30, 40]).assign(cell="c000"),
        games(4, [0, 1, 2, 3], [0, 0, 2, 3], turns=[11, 21, 31, 41]).assign(cell="c001"),
    ]
    out = analysis.toggle_effects(pd.concat(rows), cells)
    row = out.iloc[0]
    assert (row["base"], row["base_rule"], row["cell"]) == ("c001", "preset", "c000")
    assert (row["base_value"], row["value"]) == ("3", "0")
    assert row["turns_effect"] == pytest.approx(-1.0)  # six_limit 3 -> 0, paired by game
    given = analysis.toggle_effects(pd.concat(rows), cells, "c000").iloc[0]
    assert (given["base_rule"], given["base_value"], given["value"]) == ("given", "0", "3")


# --------------------------------------------------- skip cost at one probability
def test_skipper_seats() -> None:
    df = games(2, [0] * 4, [0, 1, 0, 1], policies=["balanced"] * 2 + ["balanced,skipper:1"] * 2)
    assert analysis.skipper_seats(df) == [1]
    assert analysis.skipper_seats(df.assign(policies="random")) == []


def test_skip_cost_at_a_single_detection_probability() -> None:
    from ludosim import results

    path = FIXTURE / "skip"
    df, cells = results.load(path, cells=True), results.load_cells(path)
    full = analysis.skip_cost(df).set_index("detect_skip")
    for level in (0.0, 0.5, 1.0):
        keep = cells[cells["detect_skip"] == level]
        # A sweep of one value keeps no detect_skip column in its rows: cells say it.
        one = df[df["cell"].astype(str).isin(keep["cell"])].drop(columns="detect_skip")
        with pytest.raises(analysis.AnalysisError, match="detect_skip"):
            analysis.skip_cost(one)
        out = analysis.skip_cost(one, cells=keep)
        assert out["detect_skip"].tolist() == [level]
        assert out["method"].tolist() == ["paired"]  # the same games, seat 0 with its baseline
        assert out.iloc[0]["diff"] == pytest.approx(full.loc[level, "diff"])
        assert out.iloc[0]["diff_ci_low"] == pytest.approx(full.loc[level, "diff_ci_low"])
        assert math.isnan(out.iloc[0]["break_even"])  # nothing to interpolate


# ------------------------------------------------ first player across cells
def test_first_player_tests_holm_over_cells() -> None:
    # 2 players, 100 games each: the first player wins 65, 58 and 50 of them.
    parts = [
        games(2, [0] * 100, [0] * wins + [1] * (100 - wins)).assign(cell=cell)
        for cell, wins in (("a", 65), ("b", 58), ("c", 50))
    ]
    out = analysis.first_player_tests(pd.concat(parts), by="cell").set_index("cell")
    raw = [stats.score_test_p(w, 100, 0.5) for w in (65, 58, 50)]
    assert out["p_zero"].tolist() == pytest.approx(raw)
    assert out["p_holm"].tolist() == pytest.approx(stats.holm(raw))
    assert out.loc["a", "advantage_pp"] == pytest.approx(15.0)
    # The score test and the Wilson interval agree on "excludes 1/n".
    for cell in "abc":
        row = out.loc[cell]
        assert (row["p_zero"] < 0.05) == (
            row["advantage_ci_low"] > 0 or row["advantage_ci_high"] < 0
        )


def test_rotated_policies_and_their_paired_differences() -> None:
    df = games(2, [0] * 6, [0, 0, 1, 0, 1, 1], policies=["x,y"] * 3 + ["y,x"] * 3)
    assert analysis.rotated_policies(df) == ["x", "y"]
    assert analysis.rotated_policies(df.assign(policies="x,y")) == []  # never swapped seats
    row = analysis.policy_differences(df).iloc[0]
    # x sits at seat 0 in games 0-2 and seat 1 in games 3-5: it wins games 0, 1, 4 and 5
    x = np.array([1, 1, 0, 0, 1, 1], dtype=float)
    d = x - (1 - x)
    half = 100 * Z95 * d.std(ddof=1) / math.sqrt(6)
    assert (row["policy"], row["other"], row["games"]) == ("x", "y", 6)
    assert (row["diff_pp"], row["ci_low"]) == pytest.approx((100 * d.mean(), 100 * d.mean() - half))
    table = analysis.win_table(df).set_index("policy")
    assert row["diff_pp"] == pytest.approx(
        100 * (table.loc["x", "win_rate"] - table.loc["y", "win_rate"])
    )


def test_policy_wins_pools_seats_and_counts_unfinished_games() -> None:
    out = analysis.policy_wins(
        [(["a", "a", "b"], np.array([0, 1, 2, -1])), (["b", "a", "a"], np.array([0, 0]))]
    ).set_index("policy")
    assert out.loc["a", "seat_games"] == 2 * 4 + 2 * 2 and out.loc["a", "wins"] == 2
    assert out.loc["b", "seat_games"] == 4 + 2 and out.loc["b", "wins"] == 3
    assert out.loc["b", "fair"] == pytest.approx(1 / 3)
    assert (out.loc["a", "ci_low"], out.loc["a", "ci_high"]) == pytest.approx(wilson(2, 12))


# ----------------------------------------------------------- command summaries
def test_ranking_of_one_reference_game() -> None:
    from ludosim import Rules, play

    rules = Rules.preset("app")
    game = play(rules, seed=7)
    out = analysis.ranking(rules, game, ["a", "b", "c", "d"])
    assert out["place"].tolist() == sorted(game.places)
    assert out.iloc[0]["seat"] == game.winner
    first = out.set_index("seat").loc[game.first]
    assert first["position"] == 0  # turn order numbered as everywhere: 0 moved first
    assert out["pieces home"].max() == rules.pieces
    assert list(out.columns) == ["place", "seat", "position", "pieces home", "policy"]
