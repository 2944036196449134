"""Pages compare like with like, never test what the rules fix, headline by practical size,
hold claims of sameness to the family's correction and word exploratory runs as leads."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from ludosim.report import contrasts
from ludosim.report.contrasts import (
    ALPHA,
    BELOW,
    EQUIVALENT,
    OPEN,
    POSSIBLY_BELOW,
    PRACTICAL,
    Family,
    corrected_interval,
    practical_size,
    size_of,
)
from ludosim.report.exploratory import beyond_chance, exploring, leads
from ludosim.report.finding import counted_by_size, interval_words, verdict
from ludosim.report.findings import page_findings
from ludosim.results.stats import Z95, wilson_interval, z_for
from ludosim.sweep import SweepSpec
from ludosim.sweep.spec import cells_frame, expand


def _table(rows_of, games: int, **options: object) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A real cells table and per-game rows drawn by `rows_of(cell, rng)` (the same stream
    in every cell, as a sweep's common random numbers), places given by the rows."""
    spec = SweepSpec.from_options(games=games, seed=1, **options)
    cells = cells_frame(expand(spec), full=True)
    varying = [c for c in ("teams", "move_limit") if c in cells.columns]
    parts = []
    for _, cell in cells.iterrows():
        drawn = rows_of(cell, np.random.default_rng(0))
        part = pd.DataFrame({"game": np.arange(games), **drawn})
        part["cell"], part["name"], part["policies"] = cell["cell"], cell["name"], cell["policies"]
        for column in varying:
            part[column] = cell[column]
        parts.append(part)
    df = pd.concat(parts, ignore_index=True)
    df["cell"] = df["cell"].astype("category")
    return df, cells


# --------------------------------------------------------- quantities the rules fix
def _points_rows(games: int):
    """Two players; under a move limit every game lasts the limit and 2% end level."""

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        limit = int(cell["move_limit"])
        winner = rng.integers(0, 2, games)
        if limit:
            turns = np.full(games, 2 * limit)
            winner[: games // 50] = -1  # level on points
        else:
            turns = rng.integers(100, 200, games)
        places = {
            f"place_{s}": np.where(winner == s, 1, np.where(winner < 0, 1, 2)) for s in range(2)
        }
        return {"first": np.zeros(games, "int8"), "winner": winner.astype("int8"),
                "turns": turns, "truncated": np.zeros(games, bool), **places}  # fmt: skip

    return rows


def test_games_ended_by_a_move_limit_are_left_out_of_the_length_comparisons() -> None:
    games = 4000
    sets = ["scoring=steps", "players=2"]
    df, cells = _table(_points_rows(games), games, preset="king", mode="grid",
                       vary=["move_limit=0,20,40"], sets=sets)  # fmt: skip
    found = page_findings(df, cells)
    keys = [t.key for t in found.family("differences").tests]
    # Length: no change to a move limit is compared; the first player's edge is.
    assert not [k for k in keys if ":length:" in k]
    assert sorted(keys) == ["effect:first:c000->c001", "effect:first:c000->c002", "gap:first:c000"]
    assert not found.comparisons.query("measure == 'length'").shape[0]
    texts = [f.text for f in found.findings]
    (note,) = [t for t in texts if "a quantity the rules fix is never tested" in t]
    assert "left out of the comparisons of game length" in note
    assert not any("Shortest games" in t or "Longest games" in t for t in texts)
    limited = [t for t in texts if "the move limit of 20 turns each ended 4,000" in t]
    assert len(limited) == 1


def test_a_quantity_the_rules_fix_is_kept_out_of_the_family() -> None:
    family = Family("differences", "comparisons")
    fixed = contrasts.Test("fixed", -20.0, -20.0, -20.0, 0.0, 100, sd=0.0, fixed=True)
    tested = contrasts.Test("tested", 1.0, 0.5, 1.5, 1e-4, 100, sd=2.0)
    family.add(fixed)
    family.add(tested)
    family.adjust()
    assert family.size == 1 and family.tests == [tested] and family.fixed == [fixed]
    assert not fixed.resolved and math.isnan(fixed.p_adjusted)
    assert verdict(fixed, 1.0, "rounds").startswith("not tested: the rules fix it")


def test_level_games_under_a_move_limit_are_said_to_be_left_out() -> None:
    games = 4000
    df, cells = _table(_points_rows(games), games, preset="king", mode="grid",
                       vary=["move_limit=0,20"], sets=["scoring=steps", "players=2"])  # fmt: skip
    found = page_findings(df, cells)
    (head,) = [f for f in found.findings if f.topic == "first_player" and f.kind == "note"
               and f.text.startswith("The first player")]  # fmt: skip
    assert "Level games (a tie on points at the move limit, no winner) are left out" in head.text
    assert "2.0% of the games under 1 of the 2 rule sets" in head.text
    (cell,) = [f for f in found.findings if f.text.startswith("c001")
               and f.topic == "first_player"]  # fmt: skip
    assert "(and 80 games ended level on points, left out)" in cell.text


# ------------------------------------------------------------------- teams and seats
def _team_rows(games: int):
    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        winner = rng.integers(0, 4, games)
        team = [int(t) for t in str(cell["teams"]).split(",")] if cell["teams"] else [0, 1, 2, 3]
        won = np.asarray(team)[winner]
        places = {f"place_{s}": np.where(won == team[s], 1, 2) for s in range(4)}
        return {"first": np.zeros(games, "int8"), "winner": winner.astype("int8"),
                "turns": rng.integers(100, 200, games), "truncated": np.zeros(games, bool),
                **places}  # fmt: skip

    return rows


def test_a_teams_edge_is_never_compared_with_a_seats_edge() -> None:
    games = 4000
    vary = ["teams=[],[0,1,0,1],[0,0,1,1]", "home_unlock=none,capture"]
    df, cells = _table(_team_rows(games), games, preset="king", mode="grid", vary=vary)
    found = page_findings(df, cells)
    first = found.comparisons.query("measure == 'first'")
    # Pairs of alike sides only: the two solo cells, and the six pairs of the four team
    # cells, each team against 1/2; no team against a seat.
    teamed = set(cells.loc[cells["teams"] != "", "cell"])
    pairs = list(zip(first["cell"], first["base"], strict=True))
    assert len(pairs) == 1 + 6
    assert all((a in teamed) == (b in teamed) for a, b in pairs)
    assert (first["unit"] == "pp").all()
    assert len(found.comparisons.query("measure == 'length'")) == 15  # length compares all
    rankings = [f.text for f in found.findings if f.kind == "ranking" and f.topic == "first_player"]
    assert len(rankings) == 2 and any(t.startswith("Among the team games") for t in rankings)
    (note,) = [f.text for f in found.findings if "not the same quantity" in f.text]
    assert "a seat's edge in a game without teams is measured against 1/players" in note


# --------------------------------------------------------------- one correction
def test_the_corrected_interval_is_the_family_bonferroni_interval() -> None:
    assert corrected_interval(1.0, 0.5, 1.5, 1) == (0.5, 1.5)
    low, high = corrected_interval(1.0, 0.5, 1.5, 30)
    assert high - 1.0 == pytest.approx(0.5 * z_for(ALPHA / 30) / Z95)
    assert 1.0 - low == pytest.approx(high - 1.0)
    # A Wilson interval keeps its asymmetry.
    low, high = corrected_interval(0.1, 0.05, 0.2, 10)
    assert (0.1 - low) / (high - 0.1) == pytest.approx(0.05 / 0.1)
    assert interval_words(1) == "its interval"
    assert interval_words(30) == "its 99.8% interval (corrected over 30 tests)"
    assert interval_words(1000) == "its 99.995% interval (corrected over 1000 tests)"


def test_a_size_read_in_a_family_is_read_at_its_corrected_level() -> None:
    # 95% interval inside ±1, but the interval corrected over 30 tests reaches past it.
    t = contrasts.Test("t", 0.5, 0.05, 0.95, 0.03, 1000, p_adjusted=0.9, family_size=30)
    assert practical_size(False, 0.05, 0.95, 1.0) == EQUIVALENT
    assert size_of(t, 1.0) == OPEN
    t.family_size = 1
    assert size_of(t, 1.0) == EQUIVALENT


@pytest.mark.parametrize("m", [1, 10, 100])
def test_claims_of_sameness_are_calibrated_over_the_family(m: int) -> None:
    """m comparisons whose true effect is exactly the smallest effect of interest: the
    chance that the page says "no change that matters" of any of them is at most 5%
    (one-sided, by Bonferroni over the family), within the binomial tolerance of 2,000
    seeded pages; and the equivalence an effect of zero earns at the right size is found."""
    rng = np.random.default_rng(20261207)
    pages, delta, se = 2000, 1.0, 0.25
    false = 0
    for _ in range(pages):
        estimates = rng.normal(delta, se, m)
        sizes = [practical_size(False, e - Z95 * se, e + Z95 * se, delta, estimate=e, tests=m)
                 for e in estimates]  # fmt: skip
        false += any(s == EQUIVALENT for s in sizes)
    low, _ = wilson_interval(false, pages)
    assert low <= ALPHA / 2, (m, false)
    # A true zero measured tightly enough is found the same within the margin.
    tight = delta / (z_for(ALPHA / m) + 2.5)
    zeros = rng.normal(0.0, tight, 500)
    found = [practical_size(False, e - Z95 * tight, e + Z95 * tight, delta, estimate=e, tests=m)
             for e in zeros]  # fmt: skip
    assert sum(s == EQUIVALENT for s in found) > 0.95 * len(found)


def test_sizes_are_counted_by_size_not_by_significance() -> None:
    sizes = [PRACTICAL, PRACTICAL, POSSIBLY_BELOW, BELOW, BELOW, EQUIVALENT, OPEN]
    parts = counted_by_size(sizes, 1.0, "rounds")
    assert parts == [
        "2 by more than 1 round, the smallest effect that matters",
        "1 resolved but possibly by less than 1 round",
        "2 resolved but by less than 1 round, smaller than the smallest effect that matters",
        "1 the same within ±1 round (no change that matters)",
        "1 not resolved at this size",
    ]
    assert counted_by_size([OPEN], 0.25, "pp") == ["1 not resolved at this size"]


# ----------------------------------------------------------------- exploratory words
def test_exploratory_runs_never_say_beyond_chance() -> None:
    assert beyond_chance() == "beyond chance" and not exploring()
    with leads():
        assert exploring()
        assert beyond_chance() == "(a lead to confirm on fresh games)"
        assert beyond_chance(plural=True) == "(leads to confirm on fresh games)"
    assert not exploring()
    games = 1500  # far below what 1% of a fair share needs: exploratory

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        winner = rng.integers(0, 2, games)
        extra = 40 if str(cell["name"]).endswith("=0") else 0
        return {"first": np.zeros(games, "int8"), "winner": winner.astype("int8"),
                "turns": rng.integers(100, 200, games) + extra,
                "truncated": np.zeros(games, bool),
                **{f"place_{s}": np.where(winner == s, 1, 2) for s in range(2)}}  # fmt: skip

    df, cells = _table(rows, games, preset="app", mode="one-at-a-time",
                       vary=["six_limit=0"], sets=["players=2"])  # fmt: skip
    found = page_findings(df, cells)
    assert found.exploratory
    assert all(f.exploratory for f in found.findings)
    moved = [f for f in found.findings if f.headline and "moves the game length" in f.text]
    assert moved and "(a lead to confirm on fresh games)" in moved[0].text
    for words in (found.findings, found.terminal):
        assert not any("beyond chance" in f.text for f in words)
    assert all(r["exploratory"] for r in (f.to_dict() for f in found.findings))


# ------------------------------------------------------- fairness shown, not undecided
def test_a_first_player_shown_fair_is_not_called_not_resolved() -> None:
    games = 500_000

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        n = int(cell["players"])
        share = 0.51 if n == 2 else 0.25  # 2% of a fair share with two; fair with four
        wins = rng.random(games) < share
        winner = np.where(wins, 0, 1 + rng.integers(0, n - 1, games))
        places = {f"place_{s}": np.where(winner == s, 1, 2) for s in range(n)}
        places.update({f"place_{s}": np.full(games, -1) for s in range(n, 4)})
        return {"first": np.zeros(games, "int8"), "winner": winner.astype("int8"),
                "turns": rng.integers(100, 200, games), "truncated": np.zeros(games, bool),
                **places}  # fmt: skip

    df, cells = _table(rows, games, preset="king", mode="grid", vary=["players=2,4"])
    df = df.replace({-1: np.nan})
    found = page_findings(df, cells)
    (head,) = [f for f in found.findings if f.topic == "first_player" and f.kind == "note"
               and f.text.startswith("The first player")]  # fmt: skip
    assert "not resolved" not in head.text
    assert "its share is fair within ±1% of a fair share (no edge that matters)" in head.text
    assert head.equivalent and not head.resolved
    assert BELOW  # the sizes are the kit's
