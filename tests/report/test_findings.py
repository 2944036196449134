"""Findings: the sentences carry the numbers, compare like with like, are decided in one
family per page, and say what they mean at a table."""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ludosim import results
from ludosim.report import analysis
from ludosim.report.contrasts import (
    ALPHA,
    BELOW,
    EQUIVALENT,
    OPEN,
    POSSIBLY_BELOW,
    PRACTICAL,
    SIZES,
    practical_size,
)
from ludosim.report.contrasts import Test as Decided  # not `Test*`: pytest would collect it
from ludosim.report.findings import (
    KINDS,
    TOPICS,
    Finding,
    finding_records,
    findings,
    page_design,
    page_findings,
    verdict,
)
from ludosim.results.measures import MeasureError, with_smallest
from ludosim.results.stats import Z95, holm, wilson_interval
from ludosim.sweep import SweepError, SweepSpec
from ludosim.sweep.spec import cells_frame, expand

FIXTURE = Path(__file__).parents[1] / "fixtures" / "results_small"


def fixture(name: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    path = FIXTURE / name
    return results.load(path, cells=True), results.load_cells(path)


def of(found: list[Finding], topic: str) -> list[Finding]:
    return [f for f in found if f.topic == topic]


def details(found: list[Finding], topic: str) -> list[Finding]:
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
        for s in range(n):  # the winner first, as the engines place it
            part[f"place_{s}"] = np.where(part["winner"] == s, 1, 2)
        part["cell"] = cell["cell"]
        for column in ["name", "policies", *varying]:
            part[column] = cell[column]
        parts.append(part)
    df = pd.concat(parts, ignore_index=True)
    df["cell"] = df["cell"].astype("category")
    return df, cells


def random_rows(games: int, turns: Callable[[pd.Series], float] = lambda cell: 0.0) -> Callable:
    """Fair games of 100-200 turns, plus `turns(cell)` turns in every game of the cell."""

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        n = int(cell["players"])
        return {
            "first": rng.integers(0, n, games).astype("int8"),
            "winner": rng.integers(0, n, games).astype("int8"),
            "turns": rng.integers(100, 200, games) + round(turns(cell)),
        }

    return rows


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
@pytest.mark.parametrize("name", ["toggles", "skip"])
def test_every_finding_has_a_topic_a_kind_and_its_family(name: str) -> None:
    found = page_findings(*fixture(name))
    assert found.findings
    families = {f.name: f for f in found.families}
    for f in found.findings:
        assert f.topic in TOPICS and f.kind in KINDS
        if f.kind in ("difference", "ranking"):
            # A claim of a difference is one of the page's family's tests, adjusted by Holm.
            assert f.family == "differences" and math.isfinite(f.p_adjusted)
            assert f.resolved == (f.p_adjusted < ALPHA)
            assert f.estimate is not None and f.ci_low <= f.estimate <= f.ci_high
            assert f.games and f.unit
    tests = families["differences"].tests
    assert len({t.key for t in tests}) == len(tests)  # each comparison is tested once
    assert [t.p_adjusted for t in tests] == pytest.approx(holm([t.p_value for t in tests]))


def test_findings_json_holds_every_field_of_every_finding() -> None:
    found = findings(*fixture("toggles"))
    records = json.loads(json.dumps(finding_records(found)))
    assert [r["text"] for r in records] == [f.text for f in found]
    needed = {"topic", "kind", "text", "estimate", "ci_low", "ci_high", "family",
              "p_adjusted", "resolved", "games"}  # fmt: skip
    assert all(needed <= set(r) for r in records)
    assert any(r["kind"] == "difference" and r["p_adjusted"] is not None for r in records)


def test_the_page_states_its_family_and_its_smallest_effects() -> None:
    found = page_findings(*fixture("toggles"))
    about = [f.text for f in of(found.findings, "about")]
    size = found.family("differences").size
    assert any(
        t.startswith(f"This page makes {size} comparisons between rule sets, each counted once")
        and "Holm's correction" in t
        for t in about
    )
    assert any("1 round of game length" in t and "0.25 pp with 4 players" in t for t in about)


# ----------------------------------------------------------- like with like
def test_lengths_compare_in_rounds_across_player_counts() -> None:
    """Two and four players, both 50 rounds a game: the same length, whatever the turns."""
    games = 2000
    df, cells = sweep(random_rows(games, lambda c: 50 * int(c["players"]) - 150), games,
                      preset="app", vary=["players=2,4"])  # fmt: skip
    found = page_findings(df, cells)
    lengths = found.comparisons[found.comparisons["measure"] == "length"]
    assert set(lengths["unit"]) == {"rounds"}
    # 150-250 turns with four players, 50-150 with two: 50 rounds on average either way
    # (the difference's standard error is about 0.36 rounds).
    assert abs(lengths["estimate"].iloc[0]) < 2
    # Different seats: the cells are independent samples, never paired by game.
    assert set(found.comparisons["method"]) == {"independent"}
    firsts = found.comparisons[found.comparisons["measure"] == "first"]
    assert set(firsts["unit"]) == {"% of a fair share"}


def test_first_player_differences_are_in_points_within_one_player_count() -> None:
    df, cells = fixture("toggles")
    found = page_findings(df, cells)
    firsts = found.comparisons[found.comparisons["measure"] == "first"]
    assert set(firsts["unit"]) == {"pp"}
    assert set(found.comparisons["method"]) == {"paired"}  # same games, same seats


# ------------------------------------------------------ one family per page
def test_a_toggle_effect_is_one_test_not_also_a_pair_of_cells() -> None:
    games = 500
    df, cells = sweep(random_rows(games), games, preset="app", vary=["six_limit=0,3"])
    found = page_findings(df, cells)
    keys = [t.key for t in found.family("differences").tests]
    # One change on two measures; no pair of the same two cells tested again.
    assert sorted(k.split(":")[0] for k in keys) == ["effect", "effect"]
    assert found.family("differences").size == 2


def test_holm_over_the_page_decides_what_one_cell_alone_would_not() -> None:
    """Three cells against the base: an effect with p ~ 0.03 alone is not resolved after Holm."""
    games = 4000
    shift = {"pass_opponents=all": 30.0, "pass_opponents=singles": 1.6, "pass_opponents=none": 0}

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        return {
            "first": rng.integers(0, 4, games).astype("int8"),
            "winner": rng.integers(0, 4, games).astype("int8"),
            # independent noise per cell: the pairing cannot cancel it
            "turns": np.random.default_rng(int(shift[cell["name"]] * 10)).integers(100, 200, games)
            + shift[str(cell["name"])],
        }

    df, cells = sweep(rows, games, preset="app", vary=["pass_opponents=all,singles,none"])
    found = page_findings(df, cells)
    tests = {t.key: t for t in found.family("differences").tests}
    strong = tests["effect:length:c002->c000"]
    marginal = tests["effect:length:c002->c001"]
    assert strong.resolved
    assert marginal.p_value < ALPHA <= marginal.p_adjusted and not marginal.resolved


# ------------------------------------------------------------------ rankings
def test_a_ranking_is_resolved_only_when_the_first_beats_the_second() -> None:
    games = 3000

    def extra(cell: pd.Series) -> float:
        return {"a": 40.0, "b": 40.0, "c": 0.0}[str(cell["name"])]

    df, cells = sweep(random_rows(games, extra), games,
                      variants=["a=app", "b=italian", "c=danish"])  # fmt: skip
    found = page_findings(df, cells)
    (top,) = [
        f for f in of(found.findings, "length") if f.kind == "ranking" and "Longest" in f.text
    ]
    assert not top.resolved
    assert top.text.startswith("Longest games: a and b are the same within ±1 round")
    # The sameness is read off the interval at the family's corrected level.
    assert "(corrected over 6 tests) rules out effects beyond ±1 round" in top.text
    (bottom,) = [f for f in of(found.findings, "length") if "shortest" in f.text.lower()]
    assert bottom.resolved and bottom.text.startswith("Games are shortest under c")


def test_the_largest_change_is_tied_unless_it_beats_the_next() -> None:
    """Two changes of the same size: both resolved, which moves it most is tied."""
    games = 2000

    def extra(cell: pd.Series) -> float:
        return 0.0 if str(cell["name"]) == "pass_opponents=none" else 40.0

    df, cells = sweep(random_rows(games, extra), games, preset="app",
                      vary=["pass_opponents=all,singles,none"])  # fmt: skip
    head = [f for f in headlines(page_findings(df, cells).findings, "toggles")
            if "game length" in f.text]  # fmt: skip
    assert len(head) == 1
    assert "2 of the 2 one-toggle changes move the game length" not in head[0].text
    # 2,000 games are exploratory: the changes are leads, never "beyond chance".
    assert "all 2 one-toggle changes move the game length (leads to confirm on fresh games)" in (
        head[0].text
    )
    assert "beyond chance" not in head[0].text and head[0].exploratory
    assert "Which moves it most cannot be told at this size" in head[0].text


# ------------------------------------------------------------ same games
def test_cells_that_play_the_same_games_are_merged_and_named() -> None:
    df, cells = fixture("skip")
    found = page_findings(df, cells)
    (same,) = [f for f in of(found.findings, "about") if "play the same games" in f.text]
    assert same.text.startswith("c002 and c004 play the same games as c000 (detect_skip")
    assert "no seat skips a forced capture" in same.text
    compared = set(found.comparisons["cell"]) | set(found.comparisons["base"])
    assert not compared & {"c002", "c004"}
    lengths = [f for f in details(found.findings, "length")]
    assert len(lengths) == 4  # six cells, two of them copies


def test_design_of_a_page_comes_from_its_cells_alone() -> None:
    df, cells = fixture("toggles")
    design = page_design(cells)
    assert design.kind == "base"
    assert [base for base, _, _ in design.bases] == ["c000", "c003"]
    assert page_findings(df, design=design).findings == findings(df, cells)


# ------------------------------------------------------------ first player
def test_first_player_against_its_fair_share_with_the_practical_size() -> None:
    games = 20_000
    df, cells = sweep(first_wins({"base": 0.2575}, games), games, preset="app")
    (f,) = of(findings(df, cells), "first_player")
    assert f.headline and f.resolved and f.family == "values"
    assert f.text.startswith("The first player wins 25.75% of 20,000 games with a finisher")
    assert "against a fair share of 25.00%" in f.text
    assert "+3.0% of a fair share" in f.text  # +0.75 pp over 25%
    assert "at a table, about 1 game in 130 more than a fair share" in f.text


def test_turn_order_beyond_the_first_player_is_tested_and_shown() -> None:
    """Three players: the first gets its share, the third wins far less than the second."""
    games = 6000

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        position = rng.choice(3, games, p=[1 / 3, 0.38, 1 - 1 / 3 - 0.38])
        return {"first": np.zeros(games, "int8"), "winner": position.astype("int8"),
                "turns": rng.integers(100, 200, games)}  # fmt: skip

    df, cells = sweep(rows, games, preset="app", sets=["players=3"])
    (f,) = of(findings(df, cells), "first_player")
    assert "By turn order (position 0 moves first): 0: 33." in f.text
    assert "chi-square test of equal shares resolved" in f.text


def test_p_values_are_never_written_as_zero() -> None:
    games = 20_000
    df, cells = sweep(first_wins({"base": 0.40}, games), games, preset="app")
    (f,) = of(findings(df, cells), "first_player")
    assert "Holm-adjusted p < 1e-16" in f.text
    assert not re.search(r"p = 0(\.0+)?\b", f.text)


# ----------------------------------------------------------- toggle effects
def test_toggle_base_is_the_preset_value_not_the_first_listed() -> None:
    """`--vary six_limit=0,3` on app: the preset has 3, so the change reads 3 -> 0."""
    games = 400
    df, cells = sweep(random_rows(games, lambda c: 40 if c["six_limit"] == 0 else 0), games,
                      preset="app", vary=["six_limit=0,3"])  # fmt: skip
    found = findings(df, cells)
    head = next(f.text for f in headlines(found, "toggles") if "game length" in f.text)
    assert (
        head.startswith(
            "From the base c001 (six_limit=3), the cell holding the preset's own value, the change "
            "six_limit 3 -> 0"
        )
        or "six_limit 3 -> 0 +10.0 rounds" in head
    )  # 40 turns over four players
    effect = next(f for f in details(found, "toggles") if "game length" in f.text)
    assert effect.estimate == pytest.approx(10.0) and effect.unit == "rounds"
    assert effect.resolved and "games about" in effect.text and "% longer" in effect.text


def test_toggle_values_in_the_cli_spelling() -> None:
    games = 100
    df, cells = sweep(random_rows(games), games, preset="app", vary=["play_to_end=false"],
                      mode="one-at-a-time")  # fmt: skip
    texts = [f.text for f in findings(df, cells) if f.topic == "toggles"]
    assert texts and all("play_to_end true -> false" in t for t in texts)
    assert not any(re.search(r"\b(True|False)\b", t) for t in texts)


def test_an_unresolved_change_says_what_its_interval_rules_out() -> None:
    games = 20_000
    df, cells = sweep(random_rows(games), games, preset="app", vary=["six_limit=0,3"])
    effect = next(f for f in details(findings(df, cells), "toggles") if "length" in f.text)
    assert not effect.resolved
    # Paired games with identical turns: the interval is exactly zero wide.
    assert "rules out effects beyond ±1 rounds" in effect.text or effect.ci_high - effect.ci_low < 1


def test_a_change_its_interval_rules_out_is_badged_as_none_that_matters() -> None:
    """Not resolved, but its whole interval inside the smallest effect: the badge says what
    the sentence says (no change that matters), not "not resolved"; one whose interval
    reaches beyond the smallest effect keeps "not resolved"."""
    from ludosim.report.htmlpage import _badge

    games = 20_000
    df, cells = sweep(random_rows(games), games, preset="app", vary=["six_limit=0,3"])
    found = details(findings(df, cells), "toggles")
    length = next(f for f in found if "length" in f.text)
    assert not length.resolved and length.equivalent
    assert "no change that matters" in length.text
    assert ">no change that matters<" in _badge(length)
    wide = replace(length, ci_low=-5.0, ci_high=5.0, equivalent=False)
    assert ">not resolved<" in _badge(wide)
    assert _badge(replace(length, resolved=True, exploratory=False)) == ""
    assert ">a lead to confirm<" in _badge(replace(length, resolved=True, exploratory=True))


# --------------------------------------------------------------- factorial
def _interacting_rows(games: int) -> Callable[[pd.Series, np.random.Generator], dict]:
    """Rows whose turns grow by 48 (12 rounds) only with six_limit=3 and finish=bounce."""

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        both = cell["six_limit"] == 3 and cell["finish"] == "bounce"
        return {
            "first": rng.integers(0, 4, games).astype("int8"),
            "winner": rng.integers(0, 4, games).astype("int8"),
            "turns": rng.integers(100, 200, games) + (48 if both else 0),
        }

    return rows


def test_interaction_of_a_factorial_design_in_rounds() -> None:
    games = 300
    df, cells = sweep(_interacting_rows(games), games, preset="app",
                      vary=["six_limit=0,3", "finish=exact,bounce"])  # fmt: skip
    found = findings(df, cells)
    (term,) = [f for f in details(found, "interactions") if "game length" in f.text]
    # +12 rounds in the (+1, +1) cell only: (1/2) * 12 = 6; paired contrasts cancel the noise.
    assert term.estimate == pytest.approx(6.0) and term.resolved
    assert term.text.startswith("Interaction of six_limit x finish on the game length: +6.0")


def test_factorial_headline_counts_each_term_over_the_strata() -> None:
    games = 300
    vary = ["six_limit=0,3", "finish=exact,bounce", "pass_opponents=all,singles,none"]
    df, cells = sweep(_interacting_rows(games), games, preset="app", vary=vary)
    found = findings(df, cells)
    heads = headlines(found, "interactions")
    assert len(heads) == 2  # game length and the first player's edge
    (length,) = [f for f in heads if "game length" in f.text]
    assert "in each of the 3 strata of pass_opponents" in length.text
    assert "six_limit x finish is resolved in all 3 strata, +6.0 rounds (95% CI" in length.text
    assert len(details(found, "interactions")) == 2 * 3  # one per measure and stratum


def test_strata_of_different_player_counts_are_sized_by_the_strictest() -> None:
    # The smallest first-player edge of interest is 0.5 pp with two players and 0.25 pp
    # with four: the four-player strata need the most games, so they size the headline.
    games = 300
    vary = ["six_limit=0,3", "finish=exact,bounce", "players=2,3,4"]
    fair = random_rows(games)

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        return fair(cell, np.random.default_rng(int(str(cell["cell"])[1:])))  # own games

    df, cells = sweep(rows, games, preset="app", vary=vary)
    page = page_findings(df, cells)
    (edge,) = [f for f in headlines(page.findings, "toggles") if "first player's edge" in f.text]
    assert (
        "Detecting a change of 0.25 pp in the first player's edge (the smallest of "
        "interest with 4 players) with 80% power" in edge.text
    )
    terms = page.comparisons[page.comparisons["kind"] == "term"]
    assert set(terms["players"]) == {2, 3, 4}  # each term within one player count


# ---------------------------------------------------------------- policies
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
    found = page_findings(df, cells)
    head, *rest = of(found.findings, "policies")
    table = analysis.win_table(df).sort_values("win_rate", ascending=False)
    top = table.iloc[0]
    assert top["policy"] == "runner"
    assert head.headline and head.kind == "ranking" and head.resolved
    assert head.text.startswith(f"runner wins most often, {100 * top['win_rate']:.1f}% (95% CI")
    assert f"ahead of {table.iloc[1]['policy']}, the next, by +" in head.text
    assert "at a table about 1 game in" in head.text
    assert found.family("differences").size == 6  # every pair of four policies, once
    assert f"1. runner {100 * top['win_rate']:.1f}%" in rest[0].text
    assert not of(found.findings, "toggles")  # seatings are ranked, not toggles
    (length,) = of(found.findings, "length")
    assert length.text.startswith("Over all 4 seatings, games last")


def test_tied_policies_are_named_not_ranked() -> None:
    games = 500
    order = ["aggressive", "defensive", "runner", "balanced"]
    seatings = [",".join(order[r:] + order[:r]) for r in range(4)]
    df, cells = sweep(random_rows(games), games, preset="app",
                      vary=["policies=" + ",".join(f"[{s}]" for s in seatings)])  # fmt: skip
    (head,) = headlines(findings(df, cells), "policies")
    assert not head.resolved and "but it, defensive, runner and balanced" in head.text
    assert "cannot be told apart at this size" in head.text


# ----------------------------------------------------------------- skip cost
def test_skip_cost_is_decided_in_the_page_family() -> None:
    df, cells = fixture("skip")
    found = page_findings(df, cells)
    skip = details(found.findings, "skip_cost")
    assert len(skip) == 3  # three detection probabilities
    for f in skip:
        assert f.kind == "difference" and f.family == "differences"
        assert f.text.startswith("At detect_skip = ")
        assert ("skipping costs" in f.text or "skipping pays" in f.text) == f.resolved
    (head,) = headlines(found.findings, "skip_cost")
    assert head.text.startswith("Skipping forced captures by seat 0 (skipper:1 against balanced)")


# ------------------------------------------------------ smallest effects
def test_smallest_effects_are_checked_and_set_per_sweep() -> None:
    assert with_smallest({"length": 2})["length"].smallest == 2.0
    for bad in ({"lenght": 1}, {"length": 0}, {"first": "x"}):
        with pytest.raises(MeasureError, match="smallest_effects"):
            with_smallest(bad)
    spec = SweepSpec.from_dict({"preset": "app", "seed": 1, "smallest_effects": {"length": 2}})
    assert spec.to_dict()["smallest_effects"] == {"length": 2.0}
    again = {k: v for k, v in spec.to_dict().items() if v is not None}
    assert SweepSpec.from_dict(again).smallest_effects == {"length": 2.0}
    with pytest.raises(SweepError, match="smallest_effects: unknown measure 'turns'"):
        SweepSpec.from_dict({"preset": "app", "seed": 1, "smallest_effects": {"turns": 2}})
    # A larger smallest effect needs fewer games.
    df, cells = fixture("toggles")
    small = page_findings(df, cells).findings
    large = page_findings(df, cells, smallest={"length": 4.0, "first": 4.0}).findings

    def needed(found: list[Finding]) -> int:
        return max(f.games_needed or 0 for f in found)

    assert needed(large) < needed(small)


# ------------------------------------------------------------- one seat changes
def test_a_seat_that_changes_policy_is_asked_what_it_wins() -> None:
    """Seat 0 plays pacifist in one cell and balanced in the other: the page states the
    seat's own win share against before, paired by game, in the page's one family."""
    games = 4000

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        drawn = random_rows(games)(cell, rng)
        if str(cell["policies"]).startswith("pacifist"):
            # Seat 0 gives up a third of its wins (to seat 1): about -8 pp of 25%.
            lost = (drawn["winner"] == 0) & (np.arange(games) % 3 == 0)
            drawn["winner"] = np.where(lost, 1, drawn["winner"]).astype("int8")
        return drawn

    seatings = "policies=[balanced],[pacifist,balanced,balanced,balanced]"
    df, cells = sweep(rows, games, preset="app", vary=[seatings])
    found = page_findings(df, cells)
    (head,) = [f for f in found.findings if f.topic == "seat"]
    assert head.headline and head.resolved and head.unit == "pp"
    assert head.text.startswith(
        "Seat 0 playing pacifist instead of balanced (from policies=balanced) wins"
    )
    assert head.estimate is not None and -10 < head.estimate < -6
    keys = set(found.comparisons.loc[found.comparisons["kind"] == "seat", "key"])
    assert len(keys) == 1  # one test, counted in the page's differences family
    assert found.family("differences").size == 3  # with length and the first player's edge


# ------------------------------------------------------------- practical size
@pytest.mark.parametrize(
    ("resolved", "low", "high", "size"),
    [
        # The whole interval clears the smallest effect (1), on either side: practical.
        (True, 1.2, 2.0, PRACTICAL),
        (True, -2.0, -1.2, PRACTICAL),
        (True, 1.0, 1.5, PRACTICAL),
        (True, -1.5, -1.0, PRACTICAL),
        # An estimate of +1.004 with its interval reaching down to 0.907 is not practical.
        (True, 0.907, 1.102, POSSIBLY_BELOW),
        (True, -1.102, -0.907, POSSIBLY_BELOW),
        (True, -1.28, -0.33, POSSIBLY_BELOW),
        (True, 0.33, 1.28, POSSIBLY_BELOW),
        # Resolved, the whole interval inside ±1: smaller than the smallest effect.
        (True, 0.08, 0.37, BELOW),
        (True, -0.37, -0.08, BELOW),
        (True, 0.5, 1.0, BELOW),
        # Not resolved: no change that matters only when the interval lies inside ±1.
        (False, -0.3, 0.4, EQUIVALENT),
        (False, -1.0, 1.0, EQUIVALENT),
        (False, -0.9, -0.05, EQUIVALENT),
        (False, -1.28, -0.33, OPEN),
        (False, 0.33, 1.28, OPEN),
        (False, -0.5, 1.5, OPEN),
        (False, -1.5, 0.5, OPEN),
        (False, -3.0, 3.0, OPEN),
        # No interval: it clears nothing and rules out nothing.
        (True, math.nan, math.nan, POSSIBLY_BELOW),
        (False, math.nan, math.nan, OPEN),
    ],
)
def test_practical_size_reads_the_interval_never_the_estimate(
    resolved: bool, low: float, high: float, size: str
) -> None:
    assert practical_size(resolved, low, high, 1.0) == size
    # The margin scales with its unit: the same interval in tenths of the smallest effect.
    if math.isfinite(low):
        assert practical_size(resolved, low / 10, high / 10, 0.1) == size


def test_practical_size_needs_a_positive_smallest_effect() -> None:
    for bad in (0.0, -1.0, math.nan):
        with pytest.raises(ValueError, match="smallest effect"):
            practical_size(True, 1.0, 2.0, bad)


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_practical_size_is_calibrated_at_the_margin(sign: float) -> None:
    """Normal estimates with known true effects, decided as a page decides one test (its 95%
    interval, resolved when it excludes 0). At a true effect of exactly the smallest effect,
    neither "practical" nor "no change that matters" may be said in more than 2.5% of the
    draws (each is a one-sided test at 2.5%: Schuirmann's two one-sided tests read off the
    95% interval); well inside and well beyond the margin, each is said almost always."""
    rng = np.random.default_rng(7)
    draws, se, smallest = 4000, 0.25, 1.0

    def rates(true: float) -> dict[str, float]:
        counts = dict.fromkeys(SIZES, 0)
        for x in sign * true + se * rng.standard_normal(draws):
            low, high = x - Z95 * se, x + Z95 * se
            counts[practical_size(low > 0 or high < 0, low, high, smallest)] += 1
        return {k: v / draws for k, v in counts.items()}

    def held(rate: float, most: float) -> bool:
        """The rate's 95% Wilson interval reaches down to `most`."""
        low, _ = wilson_interval(round(rate * draws), draws)
        return low <= most

    # True effect at +-smallest (with se 0.25: an interval about +-0.49 wide).
    at = rates(smallest)
    assert held(at[PRACTICAL], 0.025), at
    assert held(at[EQUIVALENT], 0.025), at
    assert at[POSSIBLY_BELOW] > 0.9, at  # resolved, but the interval reaches inside the margin
    # True effect zero: no change that matters, unless the interval reaches the margin.
    zero = rates(0.0)
    assert zero[EQUIVALENT] > 0.9 and zero[PRACTICAL] == 0, zero
    # A true effect three smallest effects away: practical almost always.
    far = rates(3.0)
    assert far[PRACTICAL] > 0.99 and far[EQUIVALENT] == 0, far


def _test(estimate: float, low: float, high: float, resolved: bool) -> Decided:
    """A test as its family left it: resolved at a Holm-adjusted p of 0.001, else 0.5."""
    p = 0.001 if resolved else 0.5
    return Decided("x", estimate, low, high, p, 1000, p_adjusted=p, resolved=resolved)


def test_a_verdict_states_the_practical_size_from_the_interval() -> None:
    """The wording of every sweep page's comparison: an effect of +1.004 (0.907 to 1.102)
    against a smallest effect of 1 is resolved, possibly below it; a failed test whose
    interval reaches past the margin never reads as no difference."""
    said = verdict(_test(1.004, 0.907, 1.102, True), 1.0, "rounds")
    assert said.startswith("resolved, possibly below the smallest effect that matters")
    assert "reaches inside ±1 round" in said
    said = verdict(_test(0.22, 0.08, 0.37, True), 1.0, "pp")
    assert said.startswith("resolved, but smaller than the smallest effect that matters")
    assert "within ±1 pp" in said
    assert verdict(_test(3.0, 2.5, 3.5, True), 1.0, "pp") == "resolved"
    said = verdict(_test(0.1, -0.4, 0.6, False), 1.0, "pp")
    assert said.startswith("not resolved; its interval rules out effects beyond ±1 pp")
    assert said.endswith("no change that matters")
    said = verdict(_test(-0.8, -1.28, 0.33, False), 1.0, "%")
    assert said == "not resolved at this size; it cannot rule out a change of 1%"
    assert "no change that matters" not in said
    said = verdict(_test(-0.8, -1.28, -0.33, False), 1.0, "%")
    assert "excludes 0" in said and said.endswith("it cannot rule out a change of 1%")


def _shifted_rows(games: int, shift_rounds: float, sd_turns: float) -> Callable:
    """Four players; turns of the cell with six_limit=0 lengthened by `shift_rounds`; each
    cell with its own noise of sd `sd_turns`, so that the interval of the change has a
    width set by the test and no pairing narrows it."""

    def rows(cell: pd.Series, rng: np.random.Generator) -> dict[str, np.ndarray]:
        noise = np.random.default_rng(100 + int(str(cell["cell"])[1:])).normal(0, sd_turns, games)
        shift = 4 * shift_rounds if int(cell["six_limit"]) == 0 else 0.0
        return {
            "first": rng.integers(0, 4, games).astype("int8"),
            "winner": rng.integers(0, 4, games).astype("int8"),
            "turns": np.round(800 + shift + noise).astype(int),
        }

    return rows


def _length_change(shift_rounds: float, sd_turns: float) -> tuple[Finding, Finding]:
    """The headline and the one change of the game length, from the base six_limit=3."""
    games = 4000
    df, cells = sweep(_shifted_rows(games, shift_rounds, sd_turns), games, preset="app",
                      vary=["six_limit=0,3"])  # fmt: skip
    found = findings(df, cells)
    (head,) = [f for f in headlines(found, "toggles") if "game length" in f.text]
    (change,) = [f for f in details(found, "toggles") if "game length" in f.text]
    return head, change


def test_a_resolved_change_below_the_smallest_effect_says_so_on_the_page() -> None:
    # 0.3 rounds with a half-width of about 0.1: resolved, the whole interval below 1 round.
    head, change = _length_change(0.3, 9.0)
    assert change.resolved and change.ci_low is not None and change.ci_high is not None
    assert 0 < change.ci_low and change.ci_high < 1
    assert "resolved, but smaller than the smallest effect that matters" in change.text
    # Headlined by its size: no change of 1 round, not a change that moves the length.
    assert "does not move the game length by as much as 1 round" in head.text
    assert "resolved but smaller than that" in head.text
    # 0.9 rounds with a half-width of about 0.3: resolved, the interval straddling 1 round.
    head, change = _length_change(0.9, 27.0)
    assert change.resolved and change.ci_low is not None and change.ci_high is not None
    assert 0 < change.ci_low < 1 < change.ci_high
    assert "resolved, possibly below the smallest effect that matters" in change.text
    assert "possibly below 1 round, the smallest effect that matters" in head.text
    # 3 rounds, the whole interval beyond 1: resolved and practical, nothing to add.
    head, change = _length_change(3.0, 27.0)
    assert change.resolved and change.ci_low is not None and change.ci_low > 1
    assert "smallest effect that matters" not in change.text + head.text


def test_a_change_not_resolved_is_no_evidence_of_none() -> None:
    """A change whose interval reaches past the smallest effect is not resolved at this
    size: the page never says it changes nothing that matters."""
    head, change = _length_change(0.0, 140.0)
    assert not change.resolved and change.ci_low is not None and change.ci_high is not None
    assert change.ci_low < -1 or change.ci_high > 1
    assert "it cannot rule out a change of 1 round" in change.text
    assert "no change that matters" not in change.text + head.text
    assert "so a change that matters is not ruled out" in head.text
    assert head.games_needed is not None  # the page asks for the games that would decide it
    # The same null change measured tightly: now its interval rules out a change that matters.
    head, change = _length_change(0.0, 9.0)
    assert not change.resolved and "no change that matters" in change.text
    assert "no change that matters" in head.text and head.games_needed is None


def test_an_interval_that_excludes_zero_never_shows_a_bound_of_zero() -> None:
    """`95% CI 0.00 to +0.34` would read as touching 0 while the interval excludes it:
    the bound gets the decimals that show its sign; an interval around 0 keeps its own."""
    from ludosim.report.wording import estimate

    assert estimate(0.17, 0.001, 0.34, "pp") == "+0.170 pp (95% CI +0.001 to +0.340)"
    assert estimate(-0.5, -1.0, -0.0004, "pp").endswith("to -0.0004)")
    assert estimate(0.1, -0.2, 0.4, "pp") == "+0.10 pp (95% CI -0.20 to +0.40)"


def test_a_count_of_pairs_that_differ_names_them() -> None:
    """`2 of the 3 pairs ... differ` says which, when they are few and not all."""
    games = 4_000
    longer = {"a": 0.0, "b": 0.0, "c": 40.0}  # c is 10 rounds longer than a and b
    df, cells = sweep(random_rows(games, lambda cell: longer[str(cell["name"])]), games,
                      variants=["a=app", "b=app+six_limit=0", "c=app+finish=bounce"])  # fmt: skip
    found = findings(df, cells)
    (count,) = [f for f in headlines(found, "length") if "pairs of rule sets" in f.text]
    # Counted by practical size: 10 rounds clear the smallest effect of 1 round.
    assert count.text.startswith(
        "Of the 3 pairs of rule sets compared on the game length, 2 by more than 1 round"
    )
    named = count.text.split("Those resolved: ", 1)[1].split(". ", 1)[0]
    assert "c" in named and named.count(" against ") == 2
    pairs = [f for f in details(found, "length") if f.family == "differences" and f.resolved]
    assert sorted(f.text.split(":")[0] for f in pairs) == sorted(named.rstrip(".").split(" and "))
