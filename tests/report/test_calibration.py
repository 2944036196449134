"""The pages are honest: under the null they rarely claim a difference, and they find
planted effects as often as they say they would.

Null results are synthetic per-game rows (no kernel): every cell draws its games
from one distribution, with a game-level component shared by all cells as the
common random numbers of a sweep make it. A page "makes a false claim" when any
of its findings of kind `difference`, `ranking` or `decision` is resolved: every such claim
is false when the cells do not differ. Its rate over the replications must not
exceed the 5% family-wise error rate by more than the binomial tolerance: the
test fails when the lower bound of the rate's 95% Wilson interval is above 5%.

A planted effect is sized by the page's own rule (`contrasts.games_to_detect`:
80% power at the family's level); the page must find it at least that often,
within the same tolerance. A real null sweep (the kernel, three first-player
rules that cannot change any statistic under random play) runs in `make verify`.

`make test` runs fewer replications than `make verify` (`full_or`); each test still
fails when its false-claim rate is well above 5%: the bound, from the same Wilson
interval at the smaller count, is stated by each count below and checked by
`test_every_replication_count_can_fail` (`failing_count`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from conftest import VERIFY, full_or
from design_helpers import null_truth, stage_double

from ludosim.report.contrasts import ALPHA, POWER, games_to_detect
from ludosim.report.findings import Finding, PageDesign, page_design, page_findings
from ludosim.results.stats import wilson_interval
from ludosim.sweep import SweepSpec
from ludosim.sweep.spec import cells_frame, expand

# Per design; a page fails at 17 false claims of 200 (8.5%), 281 of 5,000 (5.6%).
REPLICATIONS = full_or(5000, 200)
GAMES = 400  # per cell: the rate of false claims does not depend on the size

# The cells of each design, as `ludosim sweep` expands them.
DESIGNS = {
    "one change (2 cells)": dict(preset="app", vary=["six_limit=0,3"]),
    "one toggle, three values (3 cells)": dict(
        preset="app", vary=["pass_opponents=all,singles,none"]
    ),
    "2^3 factorial (8 cells)": dict(
        preset="app", vary=["six_limit=0,3", "finish=exact,bounce", "bonus_on_capture=false,true"]
    ),
    "app-grid (36 cells, 2 to 4 players)": dict(
        preset="app",
        sets=["first_player=seat0"],
        vary=[
            "six_limit=0,3",
            "finish=exact,bounce",
            "pass_opponents=all,singles,none",
            "players=2,3,4",
        ],
    ),
    "five presets, every pair (5 cells)": dict(
        variants=["app", "italian", "danish", "king", "maedn"]
    ),
    # Seats and teams on one page: a team's edge is never compared with a seat's.
    "teams and seats (6 cells)": dict(
        preset="king", vary=["teams=[],[0,1,0,1],[0,0,1,1]", "home_unlock=none,capture"]
    ),
    # Move limits: no game length compared for the cells whose games a limit ends.
    "points formats (6 cells, move limits)": dict(
        preset="king",
        sets=["players=2", "scoring=steps"],
        vary=["start_out=0,4", "move_limit=0,20,40"],
    ),
}


def cells_of(design: str) -> pd.DataFrame:
    spec = SweepSpec.from_options(games=GAMES, seed=1, **DESIGNS[design])
    return cells_frame(expand(spec), full=True)


def null_rows(
    cells: pd.DataFrame,
    games: int,
    rng: np.random.Generator,
    planted: dict[str, float] | None = None,
) -> pd.DataFrame:
    """Per-game rows of every cell from one distribution, plus `planted` rounds of length.

    Each game has a component shared by every cell (half the length, and the
    winning position in half the games), so cells are correlated as a sweep's
    common random numbers make them. The first player wins its fair share.
    """
    k = len(cells)
    n = cells["players"].to_numpy(int)[:, None]  # cells x 1
    plant = np.array([(planted or {}).get(c, 0.0) for c in cells["cell"]])[:, None]
    rounds = rng.gamma(20.0, 2.0, games) + rng.gamma(20.0, 2.0, (k, games)) + plant
    first = (rng.random((k, games)) * n).astype(int)
    u = np.where(rng.random((k, games)) < 0.5, rng.random(games), rng.random((k, games)))
    position = np.minimum((u * n).astype(int), n - 1)
    columns = {
        "cell": pd.Categorical(np.repeat(cells["cell"].to_numpy(), games)),
        "game": np.tile(np.arange(games), k),
        "first": first.ravel().astype("int8"),
        "winner": ((first + position) % n).ravel().astype("int8"),
        "turns": np.round(rounds * n).ravel().astype("int32"),
        "truncated": np.zeros(k * games, bool),
    }
    # Under `teams` the winner's partners share its place, as the engines place them.
    teams = [_teams_of(cells, i) for i in range(k)]
    team = np.stack([np.array(t + [-1] * (int(n.max()) - len(t))) for t in teams])  # cells x seats
    winner_team = np.take_along_axis(team, (first + position) % n, axis=1).ravel()
    cell_of = np.repeat(np.arange(k), games)
    for s in range(int(n.max())):  # the winner first, as the engines place it
        seated = np.repeat(cells["players"].to_numpy(int) > s, games)
        won = columns["winner"] == s
        partner = (team[cell_of, s] >= 0) & (team[cell_of, s] == winner_team)
        columns[f"place_{s}"] = np.where(seated, np.where(won | partner, 1.0, 2.0), np.nan)
    return pd.DataFrame(columns)


def _teams_of(cells: pd.DataFrame, i: int) -> list[int]:
    """The team of each seat of cell `i` (-1 each where every seat plays for itself)."""
    players = int(cells["players"].iloc[i])
    text = str(cells["teams"].iloc[i]) if "teams" in cells.columns else ""
    parts = [p for p in text.replace("[", "").replace("]", "").split(",") if p.strip()]
    return [int(p) for p in parts] if parts else [-1] * players


def claims(found: list[Finding]) -> list[Finding]:
    """The resolved claims of a difference, a ranking or a decision departing from its
    default: all false under the null."""
    return [f for f in found if f.resolved and f.kind in ("difference", "ranking", "decision")]


def false_claim_rate(design: PageDesign, cells: pd.DataFrame, reps: int, seed: int) -> int:
    rng = np.random.default_rng(seed)
    bad = 0
    for _ in range(reps):
        rows = null_rows(cells, GAMES, rng)
        bad += bool(claims(page_findings(rows, cells, design=design).findings))
    return bad


def failing_count(reps: int) -> int:
    """The fewest false claims of `reps` that fail a test: the lower bound of their 95%
    Wilson interval is above the 5% family-wise rate."""
    return next(b for b in range(reps + 1) if wilson_interval(b, reps)[0] > ALPHA)


@pytest.mark.parametrize("name", list(DESIGNS))
def test_null_pages_rarely_claim_a_difference(name: str) -> None:
    cells = cells_of(name)
    design = page_design(cells)
    reps = REPLICATIONS
    bad = false_claim_rate(design, cells, reps, seed=2026)
    low, high = wilson_interval(bad, reps)
    # Fails only when the rate is above 5% beyond its own 95% interval.
    assert low <= ALPHA, (
        f"{name}: {bad} of {reps} null pages claim a difference "
        f"({100 * bad / reps:.1f}%, 95% CI {100 * low:.1f} to {100 * high:.1f}%)"
    )


def test_null_pages_of_every_design_are_decided_by_one_family() -> None:
    """The designs above make the comparisons of their kind, all in one family."""
    kinds = {name: page_design(cells_of(name)).kind for name in DESIGNS}
    assert kinds == {
        "one change (2 cells)": "base",
        "one toggle, three values (3 cells)": "base",
        "2^3 factorial (8 cells)": "factorial",
        "app-grid (36 cells, 2 to 4 players)": "factorial",
        "five presets, every pair (5 cells)": "pairs",
        "teams and seats (6 cells)": "pairs",
        "points formats (6 cells, move limits)": "pairs",
    }
    # Seats and teams: the first player's edge compared only among the two seat cells
    # (1 pair) and among the four team cells (6 pairs); every game length (15 pairs).
    cells = cells_of("teams and seats (6 cells)")
    found = page_findings(null_rows(cells, GAMES, np.random.default_rng(1)), cells)
    keys = [t.key for t in found.family("differences").tests]
    solo = {c for c, t in zip(cells["cell"], cells["teams"], strict=True) if not str(t).strip()}
    first = [k.split(":")[2].split("|") for k in keys if k.startswith("pair:first:")]
    assert len(first) == 7 and all((a in solo) == (b in solo) for a, b in first)
    assert sum(k.startswith("pair:length:") for k in keys) == 15
    # Move limits: game length compared only between the two cells without one.
    cells = cells_of("points formats (6 cells, move limits)")
    found = page_findings(null_rows(cells, GAMES, np.random.default_rng(1)), cells)
    keys = [t.key for t in found.family("differences").tests]
    assert sum(k.startswith("pair:length:") for k in keys) == 1
    cells = cells_of("2^3 factorial (8 cells)")
    found = page_findings(null_rows(cells, GAMES, np.random.default_rng(1)), cells)
    # 3 main effects and 3 interactions on each of two measures: 12 comparisons, once each.
    assert found.family("differences").size == 12
    assert len({t.key for t in found.family("differences").tests}) == 12


def test_a_planted_effect_is_found_as_often_as_the_page_says() -> None:
    """One change that lengthens games by the smallest effect of interest (1 round).

    The page says how many games per cell detect that with 80% power; played at
    that size, the change must be found in at least 80% of the replications
    (within the tolerance), and the unchanged toggle must not be.
    """
    name = "one toggle, three values (3 cells)"
    cells = cells_of(name)
    design = page_design(cells)
    base, _, changes = design.bases[0]
    target = changes[0][0]
    rng = np.random.default_rng(5)
    probe = page_findings(null_rows(cells, 2000, rng), design=design)
    tests = [t for t in probe.family("differences").tests if t.key.startswith("effect:length")]
    needed = games_to_detect(float(np.median([t.sd for t in tests])), 1.0,
                             probe.family("differences").size, POWER)  # fmt: skip
    assert needed is not None and 500 < needed < 20_000
    reps = 300 * (4 if VERIFY else 1)
    found = wrong = 0
    for _ in range(reps):
        df = null_rows(cells, needed, rng, planted={target: 1.0})
        result = page_findings(df, design=design).family("differences")
        by_key = {t.key: t for t in result.tests}
        found += by_key[f"effect:length:{base}->{target}"].resolved
        # The planted change is a true difference, and so is its lead over the unchanged
        # toggle (the gap behind "which moves it most"); nothing else is.
        true = {f"effect:length:{base}->{target}", f"gap:length:{base}"}
        wrong += any(t.resolved for k, t in by_key.items() if k not in true)
    low, high = wilson_interval(found, reps)
    assert high >= POWER, f"found {found} of {reps} (95% CI {low:.2f} to {high:.2f})"
    low, _ = wilson_interval(wrong, reps)
    assert low <= ALPHA, f"{wrong} of {reps} pages also claimed another difference"


def test_sizes_come_from_the_smallest_effect_not_the_estimate() -> None:
    """The same question on the same cells needs the same games, whatever the noise says."""
    cells = cells_of("one change (2 cells)")
    design = page_design(cells)
    needs: dict[str, set[int]] = {}
    for seed in range(6):
        found = page_findings(null_rows(cells, 4000, np.random.default_rng(seed)), design=design)
        for f in found.findings:
            if f.topic == "toggles" and f.headline and f.games_needed:
                needs.setdefault(f.unit, set()).add(f.games_needed)
            elif f.topic == "toggles" and f.headline:
                # No size is asked for only when the interval already rules out any change
                # that matters.
                assert "no change that matters" in f.text, f.text
    # Two significant figures of a size from the observed spread, never the estimate.
    assert "pp" in needs
    for unit, sizes in needs.items():
        assert max(sizes) / min(sizes) < 1.25, (unit, sizes)


def test_a_small_run_says_it_is_exploratory() -> None:
    cells = cells_of("one change (2 cells)")
    small = page_findings(null_rows(cells, 300, np.random.default_rng(3)), cells)
    assert small.exploratory
    notes = [f.text for f in small.findings if f.topic == "about"]
    assert any(t.startswith("Exploratory:") for t in notes)
    # A precision target that was met sized the run: not exploratory.
    sized = page_findings(null_rows(cells, 300, np.random.default_rng(3)), cells, target_met=True)
    assert not sized.exploratory


@pytest.mark.slow
def test_a_real_null_sweep_rarely_claims_a_difference(tmp_path: object) -> None:
    """Three first-player rules that, by the board's symmetry, cannot change any statistic
    under random play: roll-off, a random draw and seat 0 pick a first player whose game is
    the same in distribution (the roll-off draws its dice from the game's stream, so the
    games themselves differ). 200 seeds of 3 cells x 4,000 games."""
    from ludosim.rules.model import Rules
    from ludosim.run.simulate import simulate

    spec = SweepSpec.from_options(games=4000, seed=1, preset="app",
                                  vary=["first_player=roll-off,random,seat0"])  # fmt: skip
    cells = cells_frame(expand(spec), full=True)
    design = page_design(cells)
    reps, bad = 200, 0
    for seed in range(reps):
        parts = []
        for cell, rule in zip(cells["cell"], cells["first_player"], strict=True):
            rows = simulate(Rules.preset("app").replace(first_player=rule), 4000, seed + 1)
            parts.append(rows.assign(cell=cell))
        df = pd.concat(parts, ignore_index=True)
        df["cell"] = df["cell"].astype("category")
        bad += bool(claims(page_findings(df, design=design).findings))
    low, high = wilson_interval(bad, reps)
    assert low <= ALPHA, f"{bad} of {reps} real null pages claim a difference"
    assert math.isfinite(high)


# ------------------------------------------------------------------------ the designer
# Fails at 3 false claims of 20 (15%) in make test, 4 of 30 (13%) in make verify.
DESIGN_REPLICATIONS = full_or(30, 20)


def test_a_design_whose_house_rules_change_nothing_recommends_the_rules_as_they_are(
    tmp_path,  # type: ignore[no-untyped-def]
) -> None:
    # The page's own findings are read: every comparison it states (screening effects,
    # the confirmation's differences) is in its one family, so a page with any resolved
    # difference, ranking or decision makes a false claim; and a page that recommends
    # anything but the preset as it is gives advice that does nothing.
    from ludosim.studies import design as d

    false = changed = 0
    for rep in range(DESIGN_REPLICATIONS):
        study = d.study_from_options(
            "app",
            100 + rep,
            free=["finish", "pass_opponents", "six_limit", "start_attempts", "bonus_on_six"],
            goals=["short"],
            screen_games=600,
            skill_games=600,
            holdout=4,
            candidates=3,
            confirm_games=600,
        )
        tables = d.play_study(study, tmp_path / str(rep), player=stage_double(null_truth))
        findings = d.decide(tables).findings
        (card,) = [f for f in findings if f.kind == "decision"]
        false += bool(claims(findings))
        changed += card.resolved or d.recommendation(tables).pick != d.PRESET
    low, _ = wilson_interval(false, DESIGN_REPLICATIONS)
    assert low <= ALPHA, f"{false} of {DESIGN_REPLICATIONS} null designs claimed a difference"
    low, _ = wilson_interval(changed, DESIGN_REPLICATIONS)
    assert low <= ALPHA, f"{changed} of {DESIGN_REPLICATIONS} null designs recommend a change"


# ----------------------------------------------------------------------------- compare
# Fails at 5 false claims of 40 (12.5%), in make test as in make verify.
COMPARE_REPLICATIONS = 40


def test_compare_on_a_null_pair_rarely_claims_a_difference() -> None:
    # Two first-player rules that cannot change any statistic of random play (a roll-off
    # and a random draw: the board is symmetric), played by the kernel through
    # `compare`'s own looks: on different seeds, its findings claim a difference at most
    # 5% of the time within binomial noise.
    from ludosim.studies.compare import compare

    pair = ["app+players=2+first_player=roll-off", "app+players=2+first_player=random"]
    bad = 0
    for seed in range(COMPARE_REPLICATIONS):
        found = compare(pair, seed + 1, precision="2round", first_batch=1500, max_games=1500)
        bad += bool(claims(found.page.findings))
    low, _ = wilson_interval(bad, COMPARE_REPLICATIONS)
    assert low <= ALPHA, f"{bad} of {COMPARE_REPLICATIONS} null compares claimed a difference"


# ------------------------------------------------------------------ the skill page's RS
# Fails at 64 false claims of 1,000 (6.4%) in make test, 281 of 5,000 (5.6%) in make verify.
RS_REPLICATIONS = full_or(5000, 1000)


def test_two_identical_rule_sets_rarely_differ_in_relative_skill() -> None:
    # Two rule sets whose optimal and fictive players win the same share against three
    # random players (52% and 87%, 10,000 decided games each): the skill page's RS
    # comparison between them (`RelativeSkillPlan`, decided by its family) claims a
    # difference at most 5% of the time within binomial noise. Synthetic win counts from
    # one distribution, no kernel.
    from ludosim.report.claims import Claims
    from ludosim.rules.options import RuleSet
    from ludosim.studies.relative_skill import (
        RelativeSkill,
        RelativeSkillPlan,
        rs_frame,
        table_row,
    )

    rng = np.random.default_rng(2027)
    games = 10_000
    pair = (RuleSet("app"), RuleSet("app", ("finish=bounce",)))
    labels = [r.label for r in pair]
    bad = 0
    for _ in range(RS_REPLICATIONS):
        rows = [
            table_row(rs, RelativeSkill(int(rng.binomial(games, 0.52)), games,
                                        int(rng.binomial(games, 0.87)), games, 4),
                      "expert", "fictive")
            for rs in pair
        ]  # fmt: skip
        page = Claims()
        plan = RelativeSkillPlan(rs_frame(rows), labels, page)
        page.adjust()
        bad += bool(claims(plan.findings()))
    low, high = wilson_interval(bad, RS_REPLICATIONS)
    assert low <= ALPHA, (
        f"{bad} of {RS_REPLICATIONS} pairs of identical rule sets claim an RS difference "
        f"({100 * bad / RS_REPLICATIONS:.1f}%, 95% CI {100 * low:.1f} to {100 * high:.1f}%)"
    )


# ------------------------------------------------------------------------------ unfold
# Fails at 10 false claims of 100 (10%) in make test, 17 of 200 (8.5%) in make verify.
UNFOLD_REPLICATIONS = full_or(200, 100)


def test_unfold_pages_with_nothing_to_find_rarely_claim_a_difference() -> None:
    # The committed comebacks study's tables with every rule set made alike: each change
    # from the first rule set drawn from its null distribution (0, with its own standard
    # error), each rule set's lead bins won as often as the rule sets' pooled share. Every
    # resolved difference or ranking on such a page is false.
    from dataclasses import replace
    from pathlib import Path

    from ludosim.results.stats import Z95, normal_cdf
    from ludosim.studies import unfold as u

    root = Path(__file__).resolve().parents[2]
    study = u.load_study(root / "analyses" / "comebacks.toml")
    tables = u.read_tables(root / "reports" / "comebacks", study)
    compared = tables.comebacks["diff"].notna().to_numpy()
    cb = tables.comebacks
    se = ((cb["diff_high"] - cb["diff_low"]) / (2 * Z95)).to_numpy()[compared]
    leads = tables.leads
    players = {r.label: r.rules().players for r in study.rule_sets}
    group = [leads["rule_set"].map(players), leads["phase"], leads["share_from"]]
    pooled = leads.groupby(group)["leader_wins"].transform("sum") / leads.groupby(group)[
        "games"
    ].transform("sum")
    rng = np.random.default_rng(2028)
    bad = 0
    for _ in range(UNFOLD_REPLICATIONS):
        diff = rng.normal(0.0, se)
        changes = cb.copy()
        changes.loc[compared, "diff"] = diff
        changes.loc[compared, "diff_low"] = diff - Z95 * se
        changes.loc[compared, "diff_high"] = diff + Z95 * se
        changes.loc[compared, "p_value"] = [2 * (1 - normal_cdf(abs(z))) for z in diff / se]
        wins = rng.binomial(leads["games"].to_numpy(), pooled.to_numpy())
        null = replace(tables, comebacks=changes, leads=leads.assign(leader_wins=wins))
        bad += bool(claims(u.study_findings(null)))
    low, _ = wilson_interval(bad, UNFOLD_REPLICATIONS)
    assert low <= ALPHA, f"{bad} of {UNFOLD_REPLICATIONS} null unfold pages claimed a difference"


# ------------------------------------------------- the counts make test runs can fail
@pytest.mark.parametrize(
    ("reps", "bound"),
    [
        (REPLICATIONS, 0.085),
        (DESIGN_REPLICATIONS, 0.15),
        (COMPARE_REPLICATIONS, 0.125),
        (RS_REPLICATIONS, 0.064),
        (UNFOLD_REPLICATIONS, 0.10),
    ],
    ids=["null pages", "designs", "compares", "relative skill", "unfold"],
)
def test_every_replication_count_can_fail(reps: int, bound: float) -> None:
    """At the replications this run plays (fewer in make test), a test fails once its
    rate of false claims reaches `bound`, the rate stated by each count (at most 15%)."""
    assert failing_count(reps) / reps <= bound + 1e-9, failing_count(reps)
