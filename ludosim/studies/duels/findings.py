"""What a duels page states (`study_findings`), decided as every study page decides.

Every claim against a fixed reference is one test of the page's family of values,
adjusted together by Holm's correction (`ludosim.report.claims.Claims`):

- each named player's win share against random play, against the exact number it
  stands for: the `fictive` player against the clairvoyant (its interval is the
  clairvoyant's Monte Carlo interval and the player's together), every other player
  against the exact optimal player;
- the relative skill level measured as the skill pages measure it, with the `expert`
  as the optimal player and the `fictive` player as the clairvoyant, against the exact
  one (delta-method interval, the two players' games independent);
- the kernel's random play against the exact first-mover win probability (a check of
  the engine, which should find no change that matters).

Where a gap stands against the smallest gap that matters (`smallest_win` in win share,
`smallest_rs` in RS) is read from its interval at the family's corrected level. The
exact numbers and the shares of luck are values with their intervals that decide
nothing. A duel where no roll leaves a choice says so in words, and states no RS and no
share of choices.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

import pandas as pd

from ludosim.report.claims import Claims, Sample, described, stated, told, verdict
from ludosim.report.contrasts import Test
from ludosim.report.finding import VALUES, Finding
from ludosim.report.wording import estimate
from ludosim.results.stats import wilson_interval
from ludosim.studies.duels.tables import DuelsTables
from ludosim.studies.relative_skill import RelativeSkill

TITLES = {
    "players": "How far the skill pages' players are from exact play",
    "exact": "Exact play in each reduced game",
    "luck": "Luck and choices: what decides a game",
    "engine": "The kernel against the exact numbers",
    "about": "How to read this page",
}
# The exact number each player stands for on the skill pages.
STANDS_FOR = {"fictive": "clairvoyant"}
ROLE = {"expert": "the optimal player", "fictive": "the fictive player"}


@dataclass
class DuelsFindings:
    """The page's findings and the tests behind them (key -> test)."""

    findings: list[Finding]
    tests: dict[str, Test] = field(default_factory=dict)


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def no_choice(row: pd.Series) -> bool:
    """No roll of the duel leaves a choice: every player plays alike."""
    return int(row["choices"]) == 0


def _reference(row: pd.Series, player: str) -> Sample:
    """The exact number `player` stands for, as a sample (the clairvoyant's interval)."""
    if STANDS_FOR.get(player) == "clairvoyant":
        return Sample.of_interval(row["w_clairvoyant"], row["w_clairvoyant_low"],
                                  row["w_clairvoyant_high"], int(row["sequences"]))  # fmt: skip
    return Sample(float(row["w_optimal"]), 0.0, 0)


def _exact_finding(row: pd.Series) -> Finding:
    label = row["duel"]
    edge = f"best play by both: the first mover wins {_pct(row['minimax_first'])}"
    if no_choice(row):
        text = (
            f"{label}: no roll leaves a choice ({int(row['nodes']):,} positions), so every "
            f"player plays alike and skill has no room: no relative skill level is stated. "
            f"The first mover wins {_pct(row['random_first'])}."
        )
        return Finding("exact", text, True, kind="value", estimate=None, games=0)
    clair = estimate(100 * row["w_clairvoyant"], 100 * row["w_clairvoyant_low"],
                     100 * row["w_clairvoyant_high"], "%", sign=False, digits=1)  # fmt: skip
    rs = estimate(row["rs"], row["rs_low"], row["rs_high"], sign=False)
    text = (
        f"{label}: the optimal player wins {_pct(row['w_optimal'])} against a random one "
        f"(exact, over both turn orders); the clairvoyant, who knows every roll to come, "
        f"wins {clair} ({int(row['sequences']):,} dice sequences solved exactly). The exact "
        f"relative skill level is RS = {rs}; {edge}."
    )
    return described("exact", text, (row["rs"], row["rs_low"], row["rs_high"]), "",
                     int(row["sequences"]))  # fmt: skip


def _luck_finding(row: pd.Series, luck: pd.DataFrame) -> Finding:
    label = row["duel"]
    mine = luck[luck["duel"] == label].set_index("matchup")
    rr = mine.loc["random vs random"]
    dice = estimate(100 * rr["share_dice"], 100 * rr["share_dice_low"],
                    100 * rr["share_dice_high"], "%", sign=False, digits=1)  # fmt: skip
    if no_choice(row):
        text = (f"{label}: the dice alone explain {dice} of the variance of who wins between "
                "two players; there are no choices to explain any.")  # fmt: skip
        value = (100 * rr["share_dice"], 100 * rr["share_dice_low"], 100 * rr["share_dice_high"])
        return described("luck", text, value, "%", int(rr["games"]))
    opt = mine.loc["optimal vs random"]
    choices = estimate(100 * opt["share_choices"], 100 * opt["share_choices_low"],
                       100 * opt["share_choices_high"], "%", sign=False, digits=1)  # fmt: skip
    cost = estimate(100 * rr["cost_0"], 100 * rr["cost_0_low"], 100 * rr["cost_0_high"],
                    "pp", sign=False)  # fmt: skip
    text = (
        f"{label}: between two random players the dice alone explain {dice} of the "
        f"variance of who wins; with the optimal player against a random one the choices "
        f"alone explain {choices}. A random move costs {cost} of win probability per roll "
        f"with a choice, against best play ({int(rr['games']):,} games walked per pair)."
    )
    value = (100 * opt["share_choices"], 100 * opt["share_choices_low"],
             100 * opt["share_choices_high"])  # fmt: skip
    return described("luck", text, value, "%", int(opt["games"]))


def study_findings(tables: DuelsTables) -> DuelsFindings:
    """The page's findings, every test decided before a sentence is written."""
    study = tables.study
    claims = Claims("duels")
    tests: dict[str, Test] = {}
    win_pp = 100 * study.smallest_win
    players = tables.players.set_index(["duel", "player"])
    for _, row in tables.exact.iterrows():
        label = row["duel"]
        rr = players.loc[(label, "random")]
        first = Sample.share(int(rr["first_wins"]), int(rr["games"]))
        exact_first = Sample(float(row["random_first"]), 0.0, 0)
        tests[f"{label}|engine"] = claims.between(f"{label}|engine", first, exact_first,
                                                  family=VALUES)  # fmt: skip
        if no_choice(row):
            continue
        for player in study.players:
            if (label, player) not in players.index:
                continue
            got = players.loc[(label, player)]
            sample = Sample.share(int(got["wins"]), int(got["games"]))
            key = f"{label}|{player}"
            tests[key] = claims.between(key, sample, _reference(row, player), family=VALUES)
        if (label, "expert") in players.index and (label, "fictive") in players.index:
            # RS as the skill pages measure it, from these two players' wins (two seats:
            # the beginner's share is 1/2), with the same delta-method interval.
            wins = [players.loc[(label, p), c] for p in ("expert", "fictive")
                    for c in ("wins", "games")]  # fmt: skip
            approx = RelativeSkill(*(int(w) for w in wins), players=2).sample()
            if approx is not None:
                exact = Sample.of_interval(row["rs"], row["rs_low"], row["rs_high"],
                                           int(row["sequences"]))  # fmt: skip
                tests[f"{label}|rs"] = claims.between(f"{label}|rs", approx, exact, scale=1.0,
                                                      family=VALUES)  # fmt: skip
    # Every test is a value against an exact reference: one family, the values.
    claims.adjust()

    # Duels with choices first: a topic's first finding is its headline.
    exact = tables.exact.iloc[
        sorted(range(len(tables.exact)), key=lambda i: no_choice(tables.exact.iloc[i]))
    ]
    found: list[Finding] = []
    summary = _players_summary(tables, tests)
    if summary is not None:
        found.append(summary)
    found += _player_findings(tables, tests, win_pp)
    for _, row in exact.iterrows():
        found.append(_exact_finding(row))
    walked = set(tables.luck["duel"])
    for _, row in exact.iterrows():
        if row["duel"] in walked:
            found.append(_luck_finding(row, tables.luck))
    found += _engine_findings(tables, exact, tests, win_pp)
    found.append(_about(claims))
    _headline_firsts(found)
    return DuelsFindings(found, tests)


def _players_summary(tables: DuelsTables, tests: dict[str, Test]) -> Finding | None:
    """The players topic in one statement: each player's range of gaps from the exact
    number it stands for over the duels with choices, and RS's, with how many of them
    the page's correction resolved."""
    labels = [r["duel"] for _, r in tables.exact.iterrows() if not no_choice(r)]
    if not labels:
        return None
    parts, used = [], []
    for player in (*tables.study.players, "rs"):
        found = [tests[f"{d}|{player}"] for d in labels if f"{d}|{player}" in tests]
        if not found:
            continue
        used += found
        low, high = min(t.estimate for t in found), max(t.estimate for t in found)
        k = sum(t.resolved for t in found)
        if player == "rs":
            parts.append(f"RS measured with the expert and the fictive player, as the skill "
                         f"pages measure it, lies {low:+.2f} to {high:+.2f} from the exact RS "
                         f"({k} of {len(found)} resolved)")  # fmt: skip
            continue
        ref = STANDS_FOR.get(player, "optimal")
        gap = (f"falls {-high:.1f} to {-low:.1f} points of win share short of" if high < 0
               else f"wins {low:+.1f} to {high:+.1f} points of win share beside")  # fmt: skip
        parts.append(f"{player} {gap} the exact {ref} player ({k} of {len(found)} gaps "
                     "resolved)")  # fmt: skip
    text = (
        f"In the {len(labels)} reduced games with choices, against random play: "
        + "; ".join(parts)
        + ". Each gap with its interval and its verdict is below; at full size these gaps "
        "are not measured."
    )
    return Finding("players", text, all(t.resolved for t in used), kind="note",
                   family=VALUES, games=min(t.games for t in used))  # fmt: skip


def _player_findings(tables, tests, win_pp) -> list[Finding]:
    study = tables.study
    played = tables.players.set_index(["duel", "player"])[["wins", "games"]]
    out = []
    for _, row in tables.exact.iterrows():
        label = row["duel"]
        if no_choice(row):
            continue
        for player in study.players:
            key = f"{label}|{player}"
            if key not in tests:
                continue
            t, (wins, games) = tests[key], played.loc[(label, player)]
            ref = STANDS_FOR.get(player, "optimal")
            ref_value = row["w_clairvoyant"] if ref == "clairvoyant" else row["w_optimal"]
            low, high = wilson_interval(int(wins), int(games))
            won = estimate(100 * wins / games, 100 * low, 100 * high, "%", sign=False)
            text = (
                f"{label}: {player} wins {won} against random play ({games:,} games); the "
                f"exact {ref} player wins {_pct(ref_value)}. The gap is {told(t, 'pp')}: "
                f"{verdict(t, win_pp, 'pp')}."
            )
            out.append(stated("players", text, t, "difference", "pp", VALUES, smallest=win_pp))
        key = f"{label}|rs"
        if key in tests:
            t = tests[key]
            text = (
                f"{label}: RS measured as the skill pages measure it (expert over fictive) "
                f"is off the exact RS ({row['rs']:.3f}) by {told(t, '')}: "
                f"{verdict(t, study.smallest_rs, '')}."
            )
            out.append(stated("players", text, t, "difference", "", VALUES,
                              smallest=study.smallest_rs))  # fmt: skip
    return out


def _engine_findings(tables, exact, tests, win_pp) -> list[Finding]:
    out = []
    played = tables.players.set_index(["duel", "player"])["games"]
    for _, row in exact.iterrows():
        label = row["duel"]
        t = tests[f"{label}|engine"]
        games = int(played.loc[(label, "random")])
        text = (
            f"{label}: in {games:,} kernel games of two random players the first mover's "
            f"share differs from the exact {_pct(row['random_first'])} by {told(t, 'pp')}: "
            f"{verdict(t, win_pp, 'pp')}."
        )
        out.append(stated("engine", text, t, "difference", "pp", VALUES, smallest=win_pp))
    return out


def _about(claims: Claims) -> Finding:
    text = (
        f"Each reduced game (a duel: two players, one or two pieces a side, a short board) "
        f"is solved exactly by value iteration over every position. The page states "
        f"{claims.values.size} gaps between a measured share and its exact value, decided "
        f"together by Holm's correction (at most 5% chance of any false claim); the exact "
        f"numbers, and the shares of luck with their intervals, decide nothing."
    )
    return Finding("about", text, True, headline=True, kind="note")


def _headline_firsts(found: list[Finding]) -> None:
    """The first finding of each topic is its headline (the page's answer box)."""
    seen: set[str] = set()
    for i, f in enumerate(found):
        if f.topic not in seen:
            seen.add(f.topic)
            found[i] = dataclasses.replace(f, headline=True)
