"""Win chance from a lead (`ludosim.studies.leads`), the exact race odds, and the `unfold` study."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from page_helpers import check_findings_file, glossary_terms
from typer.testing import CliRunner

from ludosim import Rules, simulate
from ludosim.cli.app import app
from ludosim.reference.exact import RaceOdds
from ludosim.results.stats import wilson_interval
from ludosim.rules.options import RuleSet
from ludosim.run.notation import parse_position
from ludosim.run.simulate import play_snapshots
from ludosim.studies.leads import (
    LeadTable,
    RaceCheck,
    agrees,
    bin_squares,
    lead_bin,
    lead_text,
    lead_width,
    race_length,
    share_text,
)
from ludosim.studies.unfold import (
    MEASURES,
    QUOTED_BIN,
    UnfoldError,
    UnfoldStudy,
    comeback_values,
    load_study,
    read_tables,
    study_findings,
    study_page,
)

RACE = Rules.preset("app").replace(players=2, pieces=1)
# Fixed-seed statistical checks: the tolerance is the 99.9% normal quantile.
Z999 = 3.29


def test_lead_width_is_a_24th_of_the_race() -> None:
    assert race_length(Rules.preset("app")) == 4 * 57
    assert race_length(Rules.preset("maedn")) == 4 * 44
    assert lead_width(Rules.preset("app")) == 10
    assert lead_width(RACE) == 2
    assert (lead_text(30, 40), lead_text(120, -1)) == ("30-39", "120+")
    assert (share_text(4 / 24, 5 / 24), share_text(23 / 24, -1)) == ("16.7-20.8%", "95.8%+")


def test_lead_bins_are_24ths_of_the_race_on_every_board() -> None:
    # A lead of (just over) a sixth of the race falls in bin 4 on the 228-square race of app and
    # on the 176-square race of maedn alike; the bins hold 9.5 and 7.3 squares.
    for race in (228, 176, 57):
        leads = np.arange(race + 1)
        bins = lead_bin(leads, race)
        assert bins[-(-race // 6)] == 4 and bins[-1] == 23 and bins[0] == 0
        for k in range(24):
            start, stop = bin_squares(k, race)
            held = leads[bins == k]
            assert held[0] == start and (stop == -1 or held[-1] == stop - 1)
            assert start / race >= k / 24 - 1e-12 and (
                stop == -1 or (stop - 1) / race < (k + 1) / 24
            )
    assert bin_squares(4, 228) == (38, 48) and bin_squares(4, 176) == (30, 37)


def test_lead_table_counts_each_game_once_per_cell() -> None:
    # One piece of a 57-step race each (race 57, bins of 57/24 squares). Game 0 has three
    # snapshots: (10, 5) early, lead 5 (bin 2: 5-7 squares); (12, 7) the same cell again;
    # (30, 30) a tie. Game 1: (40, 20), late (40 >= 2 x 57 / 3), lead 20 (bin 8: 19-21).
    # Seat 1 wins game 0, seat 0 game 1. Game 2 has no winner and does not count.
    snaps = np.full((3, 4, 2), -1, dtype=np.int16)
    snaps[0, :3] = [(10, 5), (12, 7), (30, 30)]
    snaps[1, :1] = [(40, 20)]
    snaps[2, :1] = [(40, 1)]
    table = LeadTable(RACE)
    table.add(np.array([1, 0, -1]), snaps)
    rows = table.table()
    assert rows[["phase", "lead_from", "lead_to", "games", "leader_wins"]].values.tolist() == [
        ["early", 5, 8, 1, 0],  # game 0's first snapshot there; seat 0 led and lost
        ["late", 19, 22, 1, 1],
    ]
    assert rows["share_from"].tolist() == [2 / 24, 8 / 24]
    assert (table.played, table.decided, table.cut) == (3, 2, 0)


def test_exact_race_odds_by_hand() -> None:
    odds = RaceOdds(RACE)
    # Both pieces one exact roll from the goal (app: exact finish, a 6 earns a
    # bonus that cannot be used): each turn finishes with probability 1/6 whatever
    # the distance, so the seat to move wins with (1/6) / (1 - (5/6)^2) = 6/11.
    assert odds.win_chance(55, 55) == pytest.approx(6 / 11, abs=1e-12)
    assert odds.win_chance(50, 55) == pytest.approx(6 / 11, abs=1e-12)
    assert odds.turns_pmf(55)[1] == pytest.approx(1 / 6)
    with pytest.raises(Exception, match="progress: 99 is not a position"):
        odds.turns_pmf(99)


@pytest.mark.parametrize(("position", "mover"), [("0:H1/30", 0), ("1:H3/Y", 1), ("0:45/H2", 0)])
def test_exact_race_odds_match_games_played_from_the_position(position: str, mover: int) -> None:
    start = parse_position(position, RACE)
    rows = simulate(RACE, 20_000, 5, start=start)
    wins = int((rows["winner"] == mover).sum())
    progress = start.reference(RACE).progress
    exact = RaceOdds(RACE).win_chance(progress[mover][0], progress[1 - mover][0])
    sd = np.sqrt(exact * (1 - exact) / len(rows))
    assert abs(wins / len(rows) - exact) <= Z999 * sd, (wins / len(rows), exact)


@pytest.mark.parametrize("finish", ["exact", "bounce"])
def test_the_lead_table_agrees_with_the_exact_solver(finish: str) -> None:
    rules = RACE.replace(finish=finish)
    rows, snaps = play_snapshots(rules, 6_000, 17, 1)
    check = RaceCheck(rules, 1)
    check.add(rows["first"].to_numpy(), rows["winner"].to_numpy(), snaps)
    table = check.table()
    assert table["games"].iloc[-1] > 5_000
    assert agrees(table, Z999), table.iloc[-1].to_dict()
    # The check can fail: with the seat to move taken the wrong way round the
    # same games are far from the exact chances.
    wrong = RaceCheck(rules, 1)
    wrong.add(1 - rows["first"].to_numpy(), rows["winner"].to_numpy(), snaps)
    assert not agrees(wrong.table(), Z999)


def test_race_check_needs_two_seats_of_one_piece() -> None:
    with pytest.raises(ValueError, match="players=2 and pieces=1"):
        RaceCheck(Rules.preset("app"), 1)


def test_the_win_chance_grows_with_the_lead() -> None:
    rules = Rules.preset("app")
    rows, snaps = play_snapshots(rules, 4_000, 3, 8)
    table = LeadTable(rules)
    table.add(rows["winner"].to_numpy(), snaps)
    mid = table.table(least=300)
    mid = mid[mid["phase"] == "mid"]
    assert len(mid) >= 4
    # Four seats: the leader by a hair wins about a quarter to a third; the largest
    # well-filled lead wins far more often (intervals apart).
    low, high = mid.iloc[0], mid.iloc[-1]
    assert high["ci_low"] > low["ci_high"]
    assert low["win_chance"] == pytest.approx(
        low["leader_wins"] / low["games"]
    ) and wilson_interval(int(low["leader_wins"]), int(low["games"])) == (
        low["ci_low"],
        low["ci_high"],
    )


def test_study_file_and_its_errors(tmp_path) -> None:
    path = tmp_path / "s.toml"
    path.write_text(
        'seed = 2\ngames = 500\n[[rule_set]]\npreset = "app"\n'
        '[[race_check]]\npreset = "app"\nset = ["players=2", "pieces=1"]\n'
    )
    study = load_study(path)
    assert study.rule_sets == (RuleSet("app"),) and study.games == 500
    assert study.every_for(Rules.preset("app")) == 8
    with pytest.raises(UnfoldError, match="race_check 'app': needs players=2 and pieces=1"):
        UnfoldStudy((RuleSet("app"),), 1, race_check=(RuleSet("app"),))
    with pytest.raises(UnfoldError, match="every: must be a number of turns"):
        UnfoldStudy((RuleSet("app"),), 1, every=-1)
    with pytest.raises(UnfoldError, match="games: must be a positive number"):
        UnfoldStudy((RuleSet("app"),), 1, games=0)
    path.write_text('seed = 2\nbogus = 1\n[[rule_set]]\npreset = "app"\n')
    with pytest.raises(UnfoldError, match="unknown keys bogus"):
        load_study(path)


STUDY = UnfoldStudy((RuleSet("app"), RuleSet("app", ("finish=bounce",))), 1, games=3000)


@pytest.fixture(scope="module")
def unfolded(tmp_path_factory) -> Path:
    """A small study played by the command: app and app with the bounce finish."""
    out = tmp_path_factory.mktemp("unfold") / "unfold"
    result = CliRunner().invoke(
        app,
        ["unfold", "--preset", "app", "--vary", "finish=bounce", "--games", "3000",
         "--seed", "1", "--out", str(out), "-q"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    return out


def test_unfold_command_writes_its_tables_and_page(unfolded: Path) -> None:
    out = unfolded
    leads = pd.read_csv(out / "leads.csv")
    assert set(leads["rule_set"]) == {"app", "app finish=bounce"}
    comebacks = pd.read_csv(out / "comebacks.csv")
    assert set(comebacks["measure"]) == {
        "won_from_last_at_mid", "decided_before_mid", "lead_changes_per_round", "drama_share",
        "max_deficit_share", "decided_share",
    }  # fmt: skip
    assert comebacks.groupby("rule_set")["games"].max().max() <= 3000
    html = (out / "index.html").read_text()
    assert "Win chance from a lead" in html and "Comebacks" in html
    for png in ("win_chance.png", "comebacks.png", "lead_changes.png"):
        assert (out / png).stat().st_size > 10_000
    runs = pd.read_csv(out / "runs.csv")
    assert runs["games"].tolist() == [3000, 3000] and runs["every"].tolist() == [8, 8]
    assert runs["race"].tolist() == [228, 228] and runs["players"].tolist() == [4, 4]
    # The page is drawn from the tables alone: redrawn from the CSVs it is the same.
    study_page(read_tables(out, STUDY), out)
    assert (out / "index.html").read_text() == html


def test_findings_json_beside_the_unfold_page_is_its_findings(unfolded: Path) -> None:
    found = study_findings(read_tables(unfolded, STUDY))
    records = check_findings_file(unfolded, found)
    kinds = {(r["kind"], r["family"]) for r in records}
    assert {("value", "values"), ("difference", "differences"), ("ranking", "differences"),
            ("note", None)} <= kinds  # fmt: skip
    terms = glossary_terms((unfolded / "index.html").read_text())
    assert {"resolved", "family and Holm's correction", "leader, lead", "phase", "race",
            "lead changes per round", "comeback from last place"} <= set(terms)  # fmt: skip


def test_leads_and_deficits_are_shares_of_the_race_and_changes_per_round(unfolded: Path) -> None:
    found = study_findings(read_tables(unfolded, STUDY))
    leads = [f for f in found if f.topic == "leads" and f.kind == "value"]
    assert leads
    for f in leads:
        # The win chance from a lead is stated beside its fair share, the lead as a share.
        assert "of the race" in f.text and "against a fair share of 25%" in f.text, f.text
        assert f.unit == "%" and 25.0 < f.estimate < 100.0
    deficits = [f for f in found if f.topic == "deficits" and f.kind != "note"]
    assert deficits and all(f.unit.endswith("of the race") for f in deficits)
    changes = [f for f in found if f.topic == "lead_changes" and f.kind != "note"]
    assert changes and all(f.unit == "per round" for f in changes)
    assert not any("squares):" in f.text and "deficit" in f.text for f in found)
    # Every change from the first rule set is one test of the page's family.
    differences = [f for f in found if f.kind == "difference"]
    assert len(differences) == len(MEASURES) and {f.family for f in differences} == {"differences"}


def test_comeback_values_are_normalised_by_rounds_and_race() -> None:
    games = pd.DataFrame(
        {"winner": [0, 2, -1], "turns": [300, 200, 1000], "lead_changes": [12, 4, 50],
         "decided_at": [150, 20, -1], "mid_at": [100, 40, -1], "last_at_mid": [0, 1, -1],
         "drama": [22.8, 0.0, -1.0], "max_deficit": [45.6, 0.0, -1]}
    )  # fmt: skip
    values = comeback_values(games, players=4, race=228)
    # 12 changes in 300 turns of four seats (75 rounds): 0.16 per round; 4 in 50 rounds.
    assert values["lead_changes_per_round"].tolist() == pytest.approx([0.16, 0.08])
    assert values["drama_share"].tolist() == pytest.approx([0.1, 0.0])
    assert values["max_deficit_share"].tolist() == pytest.approx([0.2, 0.0])
    assert values["decided_share"].tolist() == pytest.approx([0.5, 0.1])
    assert values["decided_before_mid"].tolist() == [0.0, 1.0]
    assert values["won_from_last_at_mid"].tolist() == [0.0, 1.0]


def _with_quoted(tables, wins: dict[str, tuple[int, int]]):
    """The tables with each rule set's quoted mid-game bin set to (leader wins, games)."""
    leads = tables.leads.copy()
    for label, (w, n) in wins.items():
        at = (leads["rule_set"] == label) & (leads["phase"] == "mid")
        at &= np.isclose(leads["share_from"], QUOTED_BIN / 24)
        leads.loc[at, ["leader_wins", "games", "win_chance"]] = [w, n, w / n]
    return replace(tables, leads=leads)


def test_equal_lead_win_chances_are_tied_and_a_large_gap_is_resolved(unfolded: Path) -> None:
    tables = read_tables(unfolded, STUDY)
    tied = study_findings(
        _with_quoted(tables, {"app": (1100, 2000), "app finish=bounce": (1100, 2000)})
    )
    ranking = [f for f in tied if f.kind == "ranking"]
    assert len(ranking) == 1 and not ranking[0].resolved
    assert "app and app finish=bounce cannot be told apart at this size" in ranking[0].text
    apart = study_findings(
        _with_quoted(tables, {"app": (1300, 2000), "app finish=bounce": (900, 2000)})
    )
    ranking = [f for f in apart if f.kind == "ranking"]
    assert ranking[0].resolved and "counts most under app:" in ranking[0].text
    assert "ahead of app finish=bounce, the next, by 20.0 pp" in ranking[0].text


def test_a_resolved_lead_ranking_states_its_practical_size(unfolded: Path) -> None:
    """1 pp apart on 200,000 games in the bin (95% CI about 0.7 to 1.3): the ranking is
    resolved, and its gap possibly below 1 pp, the smallest difference of interest."""
    tables = read_tables(unfolded, STUDY)
    found = study_findings(
        _with_quoted(tables, {"app": (110_000, 200_000), "app finish=bounce": (108_000, 200_000)})
    )
    (ranking,) = [f for f in found if f.kind == "ranking"]
    assert ranking.resolved and ranking.ci_low is not None and ranking.ci_low < 1
    assert "resolved (Holm-adjusted" in ranking.text
    assert "possibly below the smallest effect that matters" in ranking.text


def _with_change(tables, measure: str, diff: float, low: float, high: float):
    """The tables with app finish=bounce's change from app on `measure` set to `diff`
    (95% interval `low` to `high`), as shares of games."""
    comebacks = tables.comebacks.copy()
    at = (comebacks["rule_set"] == "app finish=bounce") & (comebacks["measure"] == measure)
    comebacks.loc[at, ["diff", "diff_low", "diff_high"]] = [diff, low, high]
    return replace(tables, comebacks=comebacks)


def _comeback_said(tables, diff: float, *interval: float) -> tuple[str, str]:
    """The headline and the change's sentence on comebacks from last place, the change's
    interval given by its two ends in either order."""
    low, high = sorted(interval)
    found = study_findings(_with_change(tables, "won_from_last_at_mid", diff, low, high))
    mine = [f for f in found if f.topic == "comebacks" and "last at mid-game" in f.text]
    (head,) = [f.text for f in mine if f.headline]
    (change,) = [f.text for f in mine if f.kind == "difference"]
    return head, change


@pytest.mark.parametrize("sign", [1.0, -1.0])
def test_a_comeback_change_states_its_practical_size_from_the_interval(
    unfolded: Path, sign: float
) -> None:
    """A resolved change below the smallest change of interest (1 pp) says so, in the
    headline and in its sentence; one whose interval straddles 1 pp is possibly below it;
    only one whose interval clears 1 pp reads as plainly resolved."""
    tables = read_tables(unfolded, STUDY)
    # +-0.22 pp (95% CI 0.08 to 0.37): resolved, but the whole interval inside +-1 pp.
    head, change = _comeback_said(tables, *(sign * x for x in (0.0022, 0.0008, 0.0037)))
    assert "; resolved (Holm-adjusted" in change
    # Read at the family's Bonferroni level: its interval corrected over the 7 comparisons.
    below = (
        "but smaller than the smallest effect that matters (its 99.3% interval (corrected over "
        "7 tests) lies within ±1 pp"
    )
    assert below in change
    assert "smaller than 1 pp, the smallest effect that matters)" in head
    # +-1.004 pp (95% CI 0.907 to 1.102): resolved, the interval straddling 1 pp.
    head, change = _comeback_said(tables, *(sign * x for x in (0.01004, 0.00907, 0.01102)))
    assert "possibly below the smallest effect that matters" in change
    assert "possibly below 1 pp, the smallest effect that matters)" in head
    # +-3 pp (95% CI 2.8 to 3.2): practical.
    head, change = _comeback_said(tables, *(sign * x for x in (0.03, 0.028, 0.032)))
    assert change.endswith("resolved (Holm-adjusted p < 1e-16).")
    assert "smallest effect that matters" not in head


def test_a_comeback_change_not_resolved_is_not_a_change_that_matters_unless_shown(
    unfolded: Path,
) -> None:
    tables = read_tables(unfolded, STUDY)
    # The interval reaches past +-1 pp: not resolved at this size, never "no change".
    head, change = _comeback_said(tables, 0.001, -0.012, 0.014)
    assert "not resolved at this size (Holm-adjusted" in change
    assert change.endswith("it cannot rule out a change of 1 pp.")
    assert "not resolved at this size, a change of 1 pp not ruled out, under finish=bounce" in head
    assert "no change that matters" not in head + change
    assert "Detecting a change of 1 pp" in head
    # The interval inside +-1 pp: an equivalence the page states, and no size to ask for.
    head, change = _comeback_said(tables, 0.0005, -0.003, 0.004)
    assert "(corrected over 7 tests) rules out effects beyond ±1 pp" in change
    assert change.endswith("no change that matters.")
    assert "no change that matters, each corrected interval within ±1 pp, under finish=bounce" in (
        head
    )
    assert "not resolved at this size" not in head and "Detecting" not in head


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--games", "10"], "--out is empty"),
        (["--out", "x"], "--preset: name at least one preset"),
        (["--preset", "app", "--out", "x"], "--seed is required"),
        (["--preset", "nope", "--seed", "1", "--out", "x"], "preset"),
        (["--preset", "app", "--seed", "1", "--every", "-3", "--out", "x"], "every"),
    ],
)
def test_unfold_bad_input_is_one_line(args: list[str], message: str, tmp_path) -> None:
    result = CliRunner().invoke(app, ["unfold", *args], catch_exceptions=False)
    assert result.exit_code == 2
    assert message in result.output


@pytest.mark.parametrize("name", ["leads", "comebacks"])
def test_the_studies_of_analyses_load(name: str) -> None:
    root = Path(__file__).resolve().parents[2]
    study = load_study(root / "analyses" / f"{name}.toml")
    assert study.name == name and study.games >= 100_000
    assert study.command() == f"ludosim unfold {root / 'analyses' / f'{name}.toml'}"


def test_race_check_refuses_a_goal_without_a_home_column() -> None:
    with pytest.raises(UnfoldError, match="finish_in_home"):
        UnfoldStudy((RuleSet("app"),), 1, race_check=(RuleSet("maedn", ("players=2", "pieces=1")),))


def test_a_study_refuses_the_same_rules_twice() -> None:
    with pytest.raises(UnfoldError, match="plays the same rules as 'app'"):
        UnfoldStudy((RuleSet("app"), RuleSet("app", ("pass_opponents=none",))), 1)
