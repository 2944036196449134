"""What the unfold page states (`decide`, `study_findings`): the win chance from a
lead, the comeback measures and their changes, the exact-solver checks, decided in
the page's two families.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ludosim.report.claims import (
    Claims,
    Ranking,
    Sample,
    described,
    first_sentence,
    names,
    needed,
    page_order,
    ranking_finding,
    ranking_text,
    sizing,
    stated,
    verdict,
)
from ludosim.report.contrasts import EQUIVALENT, OPEN, Test, size_of
from ludosim.report.finding import DIFFERENCES, VALUES, Finding, size_words
from ludosim.report.wording import amount, estimate, games, num, of, p_text, pct
from ludosim.results.stats import Z95
from ludosim.studies.leads import BINS_PER_RACE, agrees, share_text
from ludosim.studies.unfold.comebacks import MEASURES, FlowMeasure
from ludosim.studies.unfold.tables import UnfoldTables

# The lead at which the page quotes each rule set's mid-game win chance, as a share of
# the race: the bin from 4/24 to 5/24 (16.7-20.8%), the same share on every board.
QUOTED_LEAD = 1 / 6
FAVOURITE = 0.75  # "a 3-to-1 favourite"
LEAST_GAMES = 200  # a lead bin is drawn, quoted and tested from this many games on
TITLES = {
    "about": "How to read these findings",
    "leads": "Win chance from a lead",
    "comebacks": "Comebacks and when games are decided",
    "lead_changes": "Lead changes",
    "deficits": "Deficits overcome",
    "exact": "Check against the exact solver",
}
# Which topic states each comeback measure.
MEASURE_TOPICS = {
    "won_from_last_at_mid": "comebacks",
    "decided_before_mid": "comebacks",
    "decided_share": "comebacks",
    "lead_changes_per_round": "lead_changes",
    "drama_share": "deficits",
    "max_deficit_share": "deficits",
}
QUOTED_BIN = int(QUOTED_LEAD * BINS_PER_RACE)  # the bin from 4/24 to 5/24 of the race
GLOSSARY_TERMS: tuple[tuple[str, str], ...] = (
    ("race", "every piece of a seat in its goal: pieces x (goal + 1) squares of total progress "
     "(228 with four pieces on a way of 57 steps, 176 on maedn's way of 44). Leads and "
     "deficits are stated as shares of it, so boards of 40 and 52 squares compare."),
    ("total", "a seat's progress plus one per piece (a piece in the yard counts 0)."),
    ("leader, lead", "the one seat with the largest total, and its total minus the largest "
     "total of the others; when several share the largest total nobody leads."),
    ("phase", "how much of its race the leader has run: early below a third, mid from a third "
     "to two thirds, late beyond."),
    ("lead bin", "leads grouped in 24ths of the race; each game counts once in a bin and phase, "
     "with its first snapshot there."),
    ("win chance from a lead", "the share of the games in a lead bin that the leader went on to "
     "win; stated beside the fair share 1/players, what a seat wins with no lead at all."),
    ("3-to-1 favourite", "a leader whose win chance is resolved above 75% in every lead bin "
     "from that lead on (each bin tested against 75%)."),
    ("mid-game", "the first turn boundary at which some seat had run half its race."),
    ("comeback from last place", "a game won by a seat that had the least total at mid-game."),
    ("decided", "the turn from which the winner led at every boundary to the end."),
    ("lead changes per round", "boundaries at which the lead passed from one seat to another, "
     "per round of the game (its turns divided by the players): games of different length "
     "compare."),
    ("drama", "the winner's mean deficit while it was not leading (Browne 2011), as a share of "
     "the race."),
    ("largest deficit overcome", "the winner's largest deficit to the best other seat, as a "
     "share of the race."),
    ("exact-solver check", "in a two-seat race of one piece each, once the pieces can no longer "
     "meet, the exact win chance of the leader (docs/flow.md); the simulated wins against it "
     "as a z score, one check per rule set, each with its own 5% tolerance."),
)  # fmt: skip


@dataclass
class UnfoldFindings:
    """What the page states, and the tests behind its table of changes."""

    findings: list[Finding]
    changes: dict[tuple[str, str], Test]  # (rule set, measure) -> its change from the first


def quoted_bin(table: pd.DataFrame) -> pd.Series | None:
    """The mid-game row of `table` (one rule set) of the lead bin from `QUOTED_LEAD` of the
    race, when it has at least `LEAST_GAMES` games."""
    rows = table[(table["phase"] == "mid") & (table["games"] >= LEAST_GAMES)]
    rows = rows[np.isclose(rows["share_from"], QUOTED_BIN / BINS_PER_RACE)]
    return None if rows.empty else rows.iloc[0]


def _bins(table: pd.DataFrame, phase: str = "mid") -> pd.DataFrame:
    return table[(table["phase"] == phase) & (table["games"] >= LEAST_GAMES)]


def favourite_lead(bins: pd.DataFrame, tests: list[Test]) -> int | None:
    """The position in `bins` (one phase, in lead order) from which the leader is a 3-to-1
    favourite: every bin from there resolved above `FAVOURITE` in its family."""
    above = np.array([t.resolved and t.estimate > 100 * FAVOURITE for t in tests], dtype=bool)
    if not above.any() or not above[-1]:
        return None
    below = np.nonzero(~above)[0]
    return 0 if not len(below) else int(below[-1]) + 1


def _runs_of(tables: UnfoldTables) -> dict[str, tuple[int, int]]:
    """Rule set -> (players, race in squares), from runs.csv."""
    runs = tables.runs.set_index("rule_set")
    return {str(k): (int(r["players"]), int(r["race"])) for k, r in runs.iterrows()}


def _value(m: FlowMeasure, est: float, low: float, high: float) -> str:
    return estimate(m.scale * est, m.scale * low, m.scale * high, m.unit, sign=False)


def _short(label: str, base: str) -> str:
    """A rule set's label without the base rule set's, where it only adds toggles to it."""
    return label.removeprefix(base + " ") if label.startswith(base + " ") else label


def decide(tables: UnfoldTables) -> UnfoldFindings:
    """Every finding of the page, decided in the page's two families (`ludosim.studies`)."""
    claims = Claims()
    order = [r.label for r in tables.study.rule_sets]
    runs = _runs_of(tables)
    players = {label: runs[label][0] for label in order}
    alike = [r for r in order if players[r] == players[order[0]]]
    # Leads: every quoted bin against its fair share; every mid bin against 3 to 1.
    quoted: dict[str, tuple[pd.Series, Test]] = {}
    favourites: dict[str, tuple[pd.DataFrame, list[Test]]] = {}
    for label in order:
        table = tables.leads[tables.leads["rule_set"] == label]
        row = quoted_bin(table)
        fair = 1.0 / players[label]
        if row is not None:
            test = claims.share(f"lead:{label}", int(row.leader_wins), int(row.games), fair)
            quoted[label] = (row, test)
        bins = _bins(table)
        favourites[label] = (bins, [
            claims.share(f"favourite:{label}:{b.share_from:.4f}", int(b.leader_wins),
                         int(b.games), FAVOURITE)
            for b in bins.itertuples()
        ])  # fmt: skip
    ranked = {r: Sample.share(int(quoted[r][0].leader_wins), int(quoted[r][0].games))
              for r in alike if r in quoted}  # fmt: skip
    ranking = Ranking(claims, ranked, "leads") if len(ranked) > 1 else None
    # Comebacks: every change from the first rule set (rule sets with as many players).
    changes: dict[tuple[str, str], Test] = {}
    for r in tables.comebacks.itertuples():
        if math.isnan(r.diff):
            continue
        m = MEASURES[r.measure]
        sample = Sample.of_interval(r.diff, r.diff_low, r.diff_high, int(r.games))
        changes[(r.rule_set, r.measure)] = claims.difference(
            f"change:{r.measure}:{r.rule_set}", sample, "independent", m.scale
        )
    claims.adjust()

    out = [claims.about(
        "every rule set's change from the first on each comeback measure, and every pair of "
        "rule sets behind the ranking of the win chance from a lead",
        "each rule set's win chance from a lead against its fair share, and each mid-game lead "
        "bin against 3 to 1",
    ), _scales_note(order, runs, alike)]  # fmt: skip
    out += _lead_findings(claims, order, runs, quoted, favourites, ranking)
    out += _comeback_findings(claims, tables.comebacks, order, alike, changes)
    out += _race_findings(tables.race)
    return UnfoldFindings(page_order(out, TITLES), changes)


def study_findings(tables: UnfoldTables) -> list[Finding]:
    """What the study's tables say, as `ludosim.report.finding.Finding`s (topics `TITLES`)."""
    return decide(tables).findings


def _scales_note(order: list[str], runs: dict[str, tuple[int, int]], alike: list[str]) -> Finding:
    races = {}
    for label in order:
        races.setdefault(runs[label][1], []).append(label)
    race_text = "; ".join(f"{race} squares under {names(labels)}" for race, labels in races.items())
    fair = {runs[r][0] for r in order}
    text = (
        "Scales: leads, the drama and the largest deficit overcome are stated as shares of the "
        f"race (every piece in the goal, or under win_pieces the pieces it needs: {race_text}), "
        "so boards of different sizes and quick wins compare; "
        "lead changes per round (every seat taking one turn), so games of different length "
        "compare; a win chance beside the fair share 1/players "
        f"({', '.join(pct(1 / n, 0) for n in sorted(fair))})."
    )
    others = [r for r in order if r not in alike]
    if others:
        text += (
            f" {names(others)} seat{'s' if len(others) == 1 else ''} another number of players "
            f"than {order[0]}: {'it is' if len(others) == 1 else 'they are'} not compared with "
            "the others (a share of games, a fair share and being last mean something else)."
        )
    return Finding("about", text, True, headline=True, kind="note")


def _lead_findings(
    claims: Claims,
    order: list[str],
    runs: dict[str, tuple[int, int]],
    quoted: dict[str, tuple[pd.Series, Test]],
    favourites: dict[str, tuple[pd.DataFrame, list[Test]]],
    ranking: Ranking | None,
) -> list[Finding]:
    out: list[Finding] = []
    share = share_text(QUOTED_BIN / BINS_PER_RACE, (QUOTED_BIN + 1) / BINS_PER_RACE)
    lead = f"a mid-game lead of {share} of the race"

    def chance(label: str) -> str:
        t = quoted[label][1]
        return (
            f"the leader wins {estimate(t.estimate, t.ci_low, t.ci_high, '%', sign=False)} "
            f"against a fair share of {pct(1 / runs[label][0], 0)}"
        )

    if ranking is not None:
        size = needed(ranking.tests(), 1.0, claims.differences)
        have = min(s.games for s in ranking.items.values())
        ends = ((True, ("counts most", "most")), (False, ("counts least", "least")))
        for top, words in ends[: 1 if len(ranking.items) == 2 else 2]:
            end = ranking.end(top)
            if end is None:
                continue
            text = ranking_text(end, f"{first_sentence(lead)} {words[0]}",
                                f"Where {lead} counts {words[1]}", "pp", chance, 1.0)  # fmt: skip
            if not end.resolved and not end.same_within(1.0):
                text += " " + sizing("a difference of 1 pp in that win chance", size, have)
                text = text.replace("games per rule set", "games in that bin per rule set")
            out.append(ranking_finding("leads", end, text, "pp", size, 1.0))
    for label in order:
        if label in quoted:
            row, t = quoted[label]
            race = runs[label][1]
            text = (
                f"Under {label}, {lead} ({int(row.lead_from)}-{int(row.lead_to) - 1} of {race} "
                f"squares): {chance(label)}, {games(int(row.games))} with such a lead; "
                f"{verdict(t)}."
            )
            out.append(stated("leads", text, t, "value", "%", VALUES))
        bins, tests = favourites[label]
        at = favourite_lead(bins, tests)
        if at is None:
            continue
        row, t = bins.iloc[at], tests[at]
        worst = max(x.p_adjusted for x in tests[at:])
        text = (
            f"Under {label}, from a mid-game lead of {pct(row.share_from, 1)} of the race "
            f"({int(row.lead_from)} of {runs[label][1]} squares) on, the leader is a 3-to-1 "
            f"favourite: every lead bin from there with {LEAST_GAMES} games or more is resolved "
            f"above 75% (there: {estimate(t.estimate, t.ci_low, t.ci_high, '%', sign=False)}; "
            f"largest Holm-adjusted {p_text(worst)})."
        )
        out.append(Finding("leads", text, True, None, False, "value", t.estimate, t.ci_low,
                           t.ci_high, "%", VALUES, worst, t.games))  # fmt: skip
    return out


def _comeback_findings(
    claims: Claims,
    comebacks: pd.DataFrame,
    order: list[str],
    alike: list[str],
    changes: dict[tuple[str, str], Test],
) -> list[Finding]:
    out: list[Finding] = []
    base = order[0]
    for measure, m in MEASURES.items():
        topic = MEASURE_TOPICS[measure]
        rows = comebacks[comebacks["measure"] == measure].set_index("rule_set")
        b = rows.loc[base]
        value = _value(m, b.estimate, b.ci_low, b.ci_high)
        head = f"{first_sentence(m.what)}: {value} under {base}"
        mine = [(r, changes[(r, measure)]) for r in alike[1:] if (r, measure) in changes]
        moved = sorted([x for x in mine if x[1].resolved], key=lambda x: -abs(x[1].estimate))
        # Where each change stands against the smallest change of interest, from its
        # interval: a resolved change below it says so, as on the sweep pages.
        # Read at the family's corrected level (`size_of`), as the sweep pages read them.
        sizes = {r: size_of(t, m.smallest) for r, t in mine}
        smallest = amount(m.smallest, m.change_unit)
        for sign, word in ((1, "higher"), (-1, "lower")):
            listed = [
                f"{_short(r, base)} ({estimate(t.estimate, t.ci_low, t.ci_high, m.change_unit)}"
                + (f"; {note}" if (note := size_words(sizes[r], m.smallest, m.change_unit,
                                                      short=True)) else "")
                + ")"
                for r, t in moved if sign * t.estimate > 0
            ]  # fmt: skip
            if listed:
                head += f"; {word} under {', '.join(listed)}"
        same = [_short(r, base) for r, _ in mine if sizes[r] == EQUIVALENT]
        still = [_short(r, base) for r, _ in mine if sizes[r] == OPEN]
        if same:
            head += (
                f"; no change that matters, each corrected interval within ±{smallest}, under "
                f"{', '.join(same)}"
            )
        if still:
            head += (
                f"; not resolved at this size, a change of {smallest} not ruled out, under "
                f"{', '.join(still)}"
            )
        if mine:
            head += f" (each change from {base}, in the page's family)"
        head += "."
        if still:  # a change ruled out by its interval leaves no size to ask for
            size = needed([t for _, t in mine], m.smallest, claims.differences)
            head += " " + sizing(f"a change of {smallest}", size, int(b.games))
        out.append(Finding(topic, head, True, headline=True, kind="note"))
        out.append(described(
            topic, f"Under {base}, {m.what}: {_value(m, b.estimate, b.ci_low, b.ci_high)}, "
            f"{games(int(b.games))} with a winner.",
            (m.scale * b.estimate, m.scale * b.ci_low, m.scale * b.ci_high), m.unit, int(b.games),
        ))  # fmt: skip
        for r, t in mine:
            row = rows.loc[r]
            text = (
                f"Under {r}, {m.what}: {_value(m, row.estimate, row.ci_low, row.ci_high)}; "
                f"{estimate(t.estimate, t.ci_low, t.ci_high, m.change_unit)} from {base} "
                f"(independent games, {int(row.games):,} and {int(b.games):,} with a winner); "
                f"{verdict(t, m.smallest, m.change_unit)}."
            )
            found = stated(topic, text, t, "difference", m.change_unit, DIFFERENCES,
                           smallest=m.smallest)  # fmt: skip
            out.append(found)
    return out


def _race_findings(race: pd.DataFrame) -> list[Finding]:
    out: list[Finding] = []
    if race.empty:
        return out
    totals = race[race["lead_to"] < 0]
    checks = len(totals)
    ok = [agrees(rows) for _, rows in race.groupby("rule_set", sort=False)]
    chance = 1.0 - (1.0 - 0.05) ** checks
    text = (
        f"The lead table is checked against the exact solver under {checks} two-seat one-piece "
        f"rule set{'s' if checks != 1 else ''}: each check is a z test of the leader's simulated "
        f"wins against the exact expectation, passed within |z| <= 1.96, a tolerance of 5% per "
        f"check, not corrected over the checks"
        + (f" (with {checks} checks that all hold, {pct(chance, 0)} of runs would show at least "
           "one beyond 1.96 by chance alone)" if checks > 1 else "")
        + (f". {of(sum(ok), checks).capitalize()} pass." if checks > 1
           else (". It passes." if all(ok) else ". It fails."))
    )  # fmt: skip
    out.append(Finding("exact", text, all(ok), headline=True, kind="note"))
    for (label, rows), passed in zip(race.groupby("rule_set", sort=False), ok, strict=True):
        total = rows[rows["lead_to"] < 0].iloc[0]
        n = int(total.games)
        gap = 100 * (float(total.simulated) - float(total.exact))
        half = 100 * Z95 * float(total.sd) / n
        text = (
            f"{label}: from the first position with a piece in its home column, the leader won "
            f"{int(total.leader_wins):,} of {n:,} games ({pct(total.simulated, 2)}); the exact "
            f"solver expects {total.expected_wins:,.1f} ({pct(total.exact, 2)}): z = "
            f"{num(total.z, 2, sign=True)}, "
            + ("within the per-check tolerance of 1.96." if passed
               else "beyond the per-check tolerance of 1.96: the check FAILS.")
        )  # fmt: skip
        out.append(Finding("exact", text, passed, None, False, "value", gap, gap - half,
                           gap + half, "pp", None, None, n))  # fmt: skip
    return out
