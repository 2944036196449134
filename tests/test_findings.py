"""Findings: the sentences carry the analysis tables' numbers, and say when they cannot decide."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ludosim import analysis, results
from ludosim.findings import TOPICS, Finding, findings
from ludosim.rules import format_value
from ludosim.stats import Z95, score_test_p
from ludosim.sweep import SweepSpec
from ludosim.sweep.spec import cells_frame, expand

FIXTURE = Path(__file__).parent / "fixtures" / "results_small"


def fixture(name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = FIXTURE / name
    return results.load(path, cells=True), results.load_cells(path)


def of(found: list[Finding], topic: str) -> list[Finding]:
    return [f for f in found if f.topic == topic]


def details(found: list[Finding], topic: str) -> list[Finding]:
    """The statements behind a topic's headline: one per cell, value or change."""
    return [f for f in of(found, topic) if not f.headline]


def headlines(found: list[Finding], topic: str) -> list[Finding]:
    return [f for f in of(found, topic) if f.headline]


def sweep(
    rows: Callable[[pd.Series, np.random.Generator], dict[str, np.ndarray]],
    games: int,
    seed: int = 0,
    **options: object,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A real cells table (`expand` of a spec) and per-game rows drawn by `rows(cell, rng)`.

    Every cell holds games 0..games-1 (common random numbers, as a sweep plays them);
    the varying toggles, name and policies are joined as `results.load(cells=True)` does.
    """
    spec = SweepSpec.from_options(games=games, seed=1, **options)
    cells = cells_frame(expand(spec), full=True)
    varying = [c for c in analysis.toggle_columns(cells) if cells[c].astype(str).nunique() > 1]
    parts = []
    for _, cell in cells.iterrows():
        rng = np.random.default_rng(seed)  # the same stream in every cell
        drawn = rows(cell, rng)
        n = int(cell["players"])
        part = pd.DataFrame({"game": np.arange(games), "truncated": False, **drawn})
        for s in range(n):
            part[f"place_{s}"] = 1
        part["cell"] = cell["cell"]
        for column in ["name", "policies", *varying]:
            part[column] = cell[column]
        parts.append(part)
    df = pd.concat(parts, ignore_index=True)
    df["cell"] = df["cell"].astype("category")
    return df, cells


def first_wins(share: dict[str, float], games: int) -> Callable:
    """Rows where the first player (seat 0) wins `share[cell name]` of the games exactly."""

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        n = int(cell["players"])
        wins = round(share[str(cell["name"])] * games)
        winner = np.where(np.arange(games) < wins, 0, 1 + np.arange(games) % (n - 1))
        return {
            "first": np.zeros(games, "int8"),
            "winner": winner.astype("int8"),
            "turns": rng.integers(50, 150, games),
        }

    return rows


# ------------------------------------------------------------------ fixtures
def test_every_finding_has_a_known_topic_and_says_how_many_games() -> None:
    for name in ("toggles", "skip"):
        found = findings(*fixture(name))
        assert found and {f.topic for f in found} <= set(TOPICS)
        for f in found:
            assert "game" in f.text and "95%" in f.text
            assert f.resolved or "not resolved at this size" in f.text
            if f.games_needed is not None:
                assert f"needs about {f.games_needed:,} games per cell" in f.text


def test_every_topic_opens_with_its_headline() -> None:
    for name in ("toggles", "skip"):
        found = findings(*fixture(name))
        topics = list(dict.fromkeys(f.topic for f in found))
        assert topics == [t for t in TOPICS if t in topics]  # topics in their order
        for topic in topics:
            flags = [f.headline for f in of(found, topic)]
            assert flags[0], topic  # the answer comes first
            assert flags == sorted(flags, reverse=True), topic  # then only the details


def test_length_headline_names_the_longest_and_shortest_cell() -> None:
    df, cells = fixture("toggles")
    table = analysis.game_length(df, by="cell")
    table = table[table["measure"] == "turns"].set_index("cell")
    (head,) = headlines(findings(df, cells), "length")
    names = cells.set_index("cell")["name"]
    longest, shortest = table["mean"].idxmax(), table["mean"].idxmin()
    assert head.text.startswith(
        f"Games are longest under {names[longest]}, {table.loc[longest, 'mean']:.1f} turns "
        f"(95% CI {table.loc[longest, 'mean_ci_low']:.1f} to "
        f"{table.loc[longest, 'mean_ci_high']:.1f}), and shortest under {names[shortest]}, "
        f"{table.loc[shortest, 'mean']:.1f} ({table.loc[shortest, 'mean_ci_low']:.1f} to "
        f"{table.loc[shortest, 'mean_ci_high']:.1f})"
    )
    assert "300 games each" in head.text


def test_length_sentences_carry_the_game_length_table() -> None:
    df, cells = fixture("toggles")
    table = analysis.game_length(df, by="cell")
    table = table[table["measure"] == "turns"].set_index("cell")
    texts = [f.text for f in details(findings(df, cells), "length")]
    assert len(texts) == len(cells)
    for cell, text in zip(cells["cell"], texts, strict=True):
        row = table.loc[cell]
        assert text.startswith(f"{cell} (")
        assert f"{row['mean']:.1f} turns on average" in text
        assert f"95% CI {row['mean_ci_low']:.1f} to {row['mean_ci_high']:.1f}" in text
        assert f"median {row['median']:.0f}" in text
        assert f"{row['games']:,} games" in text


def test_first_player_sentences_carry_the_tests_and_holm() -> None:
    df, cells = fixture("toggles")
    tests = analysis.first_player_tests(df, by="cell").set_index("cell")
    found = findings(df, cells)
    per_cell = details(found, "first_player")
    assert len(per_cell) == len(cells)  # one per cell, behind two headlines
    for f in per_cell:
        cell = f.text.split(" ")[0]
        row = tests.loc[cell]
        assert f"an advantage of {row['advantage_pp']:+.1f} pp" in f.text
        assert f"95% CI {row['advantage_ci_low']:+.1f} to {row['advantage_ci_high']:+.1f}" in f.text
        assert f"of {int(row['games']):,} games with a finisher" in f.text
        assert "Holm's correction over the 6 cells' tests" in f.text
        assert f.resolved == (row["p_holm"] < 0.05)
    names = cells.set_index("cell")["name"]
    overall, family = headlines(found, "first_player")
    top_cell = tests["advantage_pp"].idxmax()
    top = tests.loc[top_cell]
    assert (
        f"largest under {names[top_cell]}, {top['advantage_pp']:+.1f} pp (95% CI "
        f"{top['advantage_ci_low']:+.1f} to {top['advantage_ci_high']:+.1f})" in overall.text
    )
    assert "Holm-corrected over 6 cells, 300 games each" in overall.text
    assert overall.resolved == bool((tests["p_holm"] < 0.05).all())
    pairs = analysis.first_player_differences(df)
    top = pairs.loc[pairs["diff_pp"].abs().idxmax()]
    assert family.text.startswith(
        f"The advantage differs most between {names[top['cell']]} and {names[top['other']]}: "
        f"{top['diff_pp']:+.1f} pp"
    )
    assert "over the 15 pairs of cells" in family.text
    # Each cell is compared with the others in words, never as "0 of the other 5".
    differ = (pairs["p_holm"] < 0.05).sum()
    assert differ == 0 and all(
        "indistinguishable from every other cell" in f.text for f in per_cell
    )
    assert not any("differs from 0 of" in f.text for f in found)


def test_p_values_are_never_written_as_zero() -> None:
    """2,000 games in each of two cells, the first player winning 90%: p underflows to 0."""
    games = 2000
    share = {"six_limit=0": 0.9, "six_limit=3": 0.8}
    df, cells = sweep(first_wins(share, games), games, preset="app", sets=["players=2"],
                      vary=["six_limit=0,3"])  # fmt: skip
    tests = analysis.first_player_tests(df, by="cell")
    assert (tests["p_holm"] == 0).all()  # beyond what doubles hold
    found = findings(df, cells)
    per_cell = details(found, "first_player")
    assert len(per_cell) == 2 and all("Holm-adjusted p < 1e-16" in f.text for f in per_cell)
    assert not any(re.search(r"\bp = 0(?![.\d])", f.text) for f in found)
    (overall, _) = headlines(found, "first_player")
    assert overall.text.startswith(
        "The first player has a measurable advantage under all 2 rule sets: largest under "
        "six_limit=0, +40.0 pp"
    )


def test_toggle_sentences_name_the_base_and_the_largest_change() -> None:
    df, cells = fixture("toggles")
    effects = analysis.toggle_effects(df, cells)
    found = of(findings(df, cells), "toggles")
    # one headline per base, then its length and first-player advantage statements
    assert len([f for f in found if f.headline]) == effects["base"].nunique()
    assert len([f for f in found if not f.headline]) == 2 * effects["base"].nunique()
    for base, changes in effects.groupby("base"):
        top = changes.loc[changes["turns_effect"].abs().idxmax()]
        text = next(f.text for f in found if f"base {base} (" in f.text and "game length" in f.text)
        assert "the sweep's starting point" in text
        assert f"{top['toggle']} {top['base_value']} -> {top['value']}" in text
        assert f"{top['turns_effect']:+.1f} turns" in text
        assert f"95% CI {top['turns_ci_low']:+.1f} to {top['turns_ci_high']:+.1f}" in text


def test_skip_sentences_carry_the_skip_cost_curve() -> None:
    df, cells = fixture("skip")
    curve = analysis.skip_cost(df, cells=cells)
    found = findings(df, cells)
    (head,) = headlines(found, "skip_cost")  # one seat skips
    found = details(found, "skip_cost")
    assert len(found) == len(curve)
    if math.isnan(curve["break_even"].iloc[0]):
        top = curve.loc[curve["diff"].abs().idxmax()]
        assert f"The largest change is {100 * top['diff']:+.1f} pp" in head.text
    else:
        assert "stops paying" in head.text
    for f, row in zip(found, curve.itertuples(), strict=True):
        assert f"At detect_skip = {format_value(row.detect_skip)}," in f.text
        assert f"{100 * row.diff:+.1f} pp" in f.text
        assert f"95% CI {100 * row.diff_ci_low:+.1f} to {100 * row.diff_ci_high:+.1f}" in f.text
        assert f.resolved == (row.diff_ci_low > 0 or row.diff_ci_high < 0)


def test_skip_cost_at_one_detection_probability() -> None:
    df, cells = fixture("skip")
    keep = cells[cells["detect_skip"] == 0.5]
    one = df[df["cell"].astype(str).isin(keep["cell"])].drop(columns="detect_skip")
    found = of(findings(one, keep), "skip_cost")
    assert len(found) == 1  # no break-even from one value
    assert found[0].text.startswith("At detect_skip = 0.5, seat 0 playing skipper:1")


# ------------------------------------------------------------ not resolved
def test_a_small_advantage_is_not_resolved_and_sized() -> None:
    """40 games, the first of 2 players wins 22: +5 pp, interval across zero."""
    games = 40
    df, cells = sweep(first_wins({"base": 0.55}, games), games, preset="app", sets=["players=2"])
    (f,) = of(findings(df, cells), "first_player")
    assert not f.resolved and f.headline
    assert f.text.startswith("The first player's advantage is not resolved at this size")
    assert "+5.0 pp (95% CI" in f.text and "its 95% interval includes zero" in f.text
    # The normal-approximation size that makes a 95% interval exclude zero at this effect.
    p, fair = 0.55, 0.5
    formula = Z95**2 * p * (1 - p) / (p - fair) ** 2
    assert f.games_needed is not None and formula / 2 <= f.games_needed <= 2 * formula
    assert f"needs about {f.games_needed:,} games per cell" in f.text


# ----------------------------------------------------- multiple comparisons
def test_holm_decides_the_cells_first_player_tests() -> None:
    """Three cells: one clearly favoured, one with p ~ 0.03 alone, one fair (400 games)."""
    games = 400
    share = {
        "pass_opponents=all": 0.65,
        "pass_opponents=singles": 0.555,
        "pass_opponents=none": 0.5,
    }
    df, cells = sweep(
        first_wins(share, games), games, preset="app", sets=["players=2"],
        vary=["pass_opponents=all,singles,none"],
    )  # fmt: skip
    raw = score_test_p(round(0.555 * games), games, 0.5)
    assert 0.0167 < raw < 0.05  # significant alone, not after Holm over three tests
    found = {f.text.split(" ")[0]: f for f in details(findings(df, cells), "first_player")}
    strong, marginal, fair = found["c000"], found["c001"], found["c002"]
    assert strong.resolved and "also after Holm's correction over the 3 cells' tests" in strong.text
    assert not marginal.resolved
    assert "excludes zero, but not after Holm's correction over the 3 cells' tests" in (
        marginal.text
    )
    assert not fair.resolved and fair.games_needed is None  # a zero effect: no size decides it
    overall = headlines(findings(df, cells), "first_player")[0]
    assert not overall.resolved
    assert overall.text.startswith(
        "The first player has a measurable advantage under 1 of 3 rule sets "
        "(pass_opponents=all); under the other 2 (pass_opponents=singles, "
        "pass_opponents=none) it is not resolved at this size"
    )


# ------------------------------------------------------------ toggle bases
def test_toggle_base_is_the_preset_value_not_the_first_listed() -> None:
    """`--vary six_limit=0,3` on app: the preset has 3, so the change reads 3 -> 0."""
    games = 200

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {
            "first": rng.integers(0, 4, games).astype("int8"),
            "winner": rng.integers(0, 4, games).astype("int8"),
            "turns": rng.integers(100, 120, games) + (8 if cell["six_limit"] == 0 else 0),
        }

    df, cells = sweep(rows, games, preset="app", vary=["six_limit=0,3"])
    assert list(cells["six_limit"]) == [0, 3]
    effects = analysis.toggle_effects(df, cells)
    assert list(effects[["base", "base_rule", "base_value", "value"]].iloc[0]) == [
        "c001", "preset", "3", "0",
    ]  # fmt: skip
    assert effects["turns_effect"].iloc[0] == pytest.approx(8.0)
    text = next(f.text for f in findings(df, cells) if f.topic == "toggles")
    assert "From the base c001 (six_limit=3), the cell holding the preset's own value" in text
    assert "six_limit 3 -> 0 moves the game length by +8.0 turns" in text


def test_toggle_values_in_the_cli_spelling() -> None:
    games = 100

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {
            "first": rng.integers(0, 4, games).astype("int8"),
            "winner": rng.integers(0, 4, games).astype("int8"),
            "turns": rng.integers(100, 200, games),
        }

    df, cells = sweep(rows, games, preset="app", vary=["play_to_end=false"], mode="one-at-a-time")
    texts = [f.text for f in findings(df, cells) if f.topic == "toggles"]
    assert texts and all("play_to_end true -> false" in t for t in texts)
    assert not any(re.search(r"\b(True|False)\b", t) for t in texts)


# --------------------------------------------------- policies, interactions
def test_policy_ranking_of_a_tournament() -> None:
    games = 1000
    order = ["aggressive", "defensive", "runner", "balanced"]
    seatings = [",".join(order[r:] + order[:r]) for r in range(4)]
    strength = {"runner": 4.0, "aggressive": 1.0, "defensive": 1.0, "balanced": 1.0}

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        names = str(cell["policies"]).split(",")
        weights = np.array([strength[p] for p in names])
        return {
            "first": np.zeros(games, "int8"),
            "winner": rng.choice(4, games, p=weights / weights.sum()).astype("int8"),
            "turns": rng.integers(100, 200, games),
        }

    vary = "policies=" + ",".join(f"[{s}]" for s in seatings)
    df, cells = sweep(rows, games, preset="app", vary=[vary])
    head, *found = of(findings(df, cells), "policies")
    table = analysis.win_table(df).sort_values("win_rate", ascending=False)
    top = table.iloc[0]
    assert top["policy"] == "runner"
    assert head.headline and head.text.startswith(
        f"runner wins most often, {100 * top['win_rate']:.1f}% (95% CI "
        f"{100 * top['ci_low']:.1f} to {100 * top['ci_high']:.1f}), ahead of "
        f"{table.iloc[1]['policy']} beyond chance"
    )
    assert f"{table.iloc[-1]['policy']} least, {100 * table.iloc[-1]['win_rate']:.1f}%" in head.text
    assert f"1. runner {100 * top['win_rate']:.1f}%" in found[0].text
    assert "4,000 games in all" in found[0].text
    assert found[1].text.startswith(
        f"runner wins +{100 * (top['win_rate'] - table.iloc[1]['win_rate']):.1f} pp"
    )
    assert found[1].resolved and "also after Holm's correction over the 6 pairs" in found[1].text
    assert not of(findings(df, cells), "toggles")  # seatings are ranked, not toggles


def test_a_tournament_of_seatings_has_one_pooled_game_length() -> None:
    games = 500
    order = ["aggressive", "defensive", "runner", "balanced"]
    seatings = [",".join(order[r:] + order[:r]) for r in range(4)]

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {
            "first": np.zeros(games, "int8"),
            "winner": rng.integers(0, 4, games).astype("int8"),
            "turns": rng.integers(100, 200, games),
        }

    vary = "policies=" + ",".join(f"[{s}]" for s in seatings)
    df, cells = sweep(rows, games, preset="app", vary=[vary])
    (only,) = of(findings(df, cells), "length")
    pooled = analysis.game_length(df.assign(cell="all"), by="cell")
    turns = pooled[pooled["measure"] == "turns"].iloc[0]
    assert only.headline and only.text.startswith(
        f"Over all 4 seatings, games last {turns['mean']:.1f} turns on average"
    )
    assert "2,000 games" in only.text


def _interacting_rows(games: int) -> Callable[[pd.Series, np.random.Generator], dict]:
    """Rows of `games` games whose turns grow by 12 only with six_limit=3 and finish=bounce."""

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        both = cell["six_limit"] == 3 and cell["finish"] == "bounce"
        return {
            "first": rng.integers(0, 4, games).astype("int8"),
            "winner": rng.integers(0, 4, games).astype("int8"),
            "turns": rng.integers(100, 200, games) + (12 if both else 0),
        }

    return rows


def test_largest_interaction_of_a_factorial_design() -> None:
    games = 300
    rows = _interacting_rows(games)

    df, cells = sweep(rows, games, preset="app", vary=["six_limit=0,3", "finish=exact,bounce"])
    table = analysis.factorial_effects(df, cells, ["six_limit", "finish"])
    term = table[table["factors"] == 2].iloc[0]
    found = of(findings(df, cells), "interactions")
    text = next(f for f in found if "game length" in f.text)
    assert f"six_limit x finish: {term['effect']:+.1f} turns" in text.text
    # +12 turns in the (+1, +1) cell only: (1/2) * 12 = 6; paired contrasts cancel the noise.
    assert term["effect"] == pytest.approx(6.0)
    assert text.resolved and "its 95% interval excludes zero" in text.text


def test_one_headline_per_response_over_the_strata_of_a_factorial_design() -> None:
    """pass_opponents has three values: it splits the 2x2 design into three strata."""
    games = 300
    rows = _interacting_rows(games)

    vary = ["six_limit=0,3", "finish=exact,bounce", "pass_opponents=all,singles,none"]
    df, cells = sweep(rows, games, preset="app", vary=vary)
    table = analysis.factorial_effects(df, cells, ["six_limit", "finish"])
    found = findings(df, cells)
    pairs = table[(table["factors"] == 2) & (table["response"] == "turns")]
    assert len(pairs) == 3 and pairs["effect"].to_numpy() == pytest.approx(6.0)
    heads = headlines(found, "interactions")
    assert len(heads) == 2  # game length and the first player's win rate
    (length,) = [f for f in heads if "game length" in f.text]
    assert length.text.startswith(
        "The largest interaction on the game length is six_limit x finish in all 3 strata "
        "(pass_opponents); largest of all six_limit x finish with pass_opponents="
    )
    assert ": +6.0 turns (95% CI" in length.text
    assert length.resolved and "Of these 3 largest, all 3 differ from zero" in length.text
    assert len(details(found, "interactions")) == 2 * 3  # one per response and stratum
