"""The relative skill level of each rule set (Dreef, Borm and van der Genugten 2004).

Dreef, Borm and van der Genugten ("A new relative skill measure for games with
chance elements", Managerial and Decision Economics 25, 2004, 255-264; after
Borm and van der Genugten, "On a relative measure of skill for games with chance
elements", TOP 9, 2001, 91-114) place a game between pure chance and pure skill
by three players of it:

- the *beginner*, who plays without knowing how: here `random`;
- the *optimal* player, the best play the project has for the rule set: `expert`
  (32 rollouts of 24 turns per option), or the player the study names;
- the *fictive* player, who also knows the chance outcomes in advance: here
  `fictive`, which plays each option out once on the game's own future dice.

W(p) is the share of the decided games won by one seat playing p against a field
of `random` players, that seat rotated through every seat position
(`ludosim.studies.tournament.play_rotations`). The beginner's W is 1/players
exactly, with no games played: with every seat `random` the players are
identical, so by symmetry each seat position, rotated, wins the same share of
the decided games. Then

- LE = W(optimal) - W(beginner), the *learning effect*: what learning the game
  gains;
- RE = W(fictive) - W(optimal), the *random effect*: what knowing the dice would
  gain on top of it;
- RS = LE / (LE + RE), the relative skill level: 0 where the best play wins no
  more than random play (a game of pure chance, for these players), 1 where
  knowing the dice adds nothing to it (pure skill).

LE + RE = W(fictive) - W(beginner); where it is not positive (the fictive player
wins no more than a beginner) RS is undefined and the row says so. RS is never
clipped: an optimal player below the beginner gives a negative RS, one above the
fictive player an RS above 1, and the row states it as measured.

W(optimal) and W(fictive) come from independent matches (`OPTIMAL_SEED`,
`FICTIVE_SEED`: offsets of the study seed no other part uses), so RS's standard
error is the delta method's on the ratio N / D, N = W(o) - 1/n, D = W(f) - 1/n,
with binomial variances v_o = W(o)(1 - W(o)) / n_o and v_f likewise:
se^2 = v_o / D^2 + N^2 v_f / D^4, and the 95% interval RS +- 1.96 se. Where D's
own 95% interval reaches zero the ratio has no bounded interval (Fieller's
would be unbounded too) and the row leaves it empty.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.claims import (
    Claims,
    Ranking,
    Sample,
    described,
    names,
    needed,
    ranking_finding,
    ranking_text,
    sizing,
)
from ludosim.report.exploratory import exploratory_text, is_exploratory
from ludosim.report.finding import Finding
from ludosim.report.wording import estimate, num, pct
from ludosim.results.stats import Z95, wilson_interval
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet
from ludosim.rules.policies import parse_policy
from ludosim.studies import defaults
from ludosim.studies.tournament import play_rotations

Progress = Callable[[int, int], None]

BEGINNER = "random"
DEFAULT_OPTIMAL = defaults.OPTIMAL
DEFAULT_FICTIVE = defaults.FICTIVE
# Offsets of the study seed for the optimal and the fictive player's matches: after
# every offset of `ludosim.studies.skill` (0 to 7), so their games are their own.
OPTIMAL_SEED, FICTIVE_SEED = 8, 9
# The smallest difference of RS between two rule sets that matters: a twentieth of
# the scale from pure chance (0) to pure skill (1). docs/skill.md says why.
SMALLEST_RS = 0.05
RS_FILE = "rs.csv"
RS_COLUMNS = (
    "rule_set", "preset", "set", "players", "beginner", "optimal", "fictive",
    "w_beginner", "w_optimal", "w_optimal_low", "w_optimal_high", "optimal_wins",
    "optimal_games", "w_fictive", "w_fictive_low", "w_fictive_high", "fictive_wins",
    "fictive_games", "le", "re", "rs", "rs_se", "rs_low", "rs_high", "defined",
)  # fmt: skip
TOPIC = "relative"
UNIT = "RS"  # differences of RS are stated in RS: `+0.14 RS (95% CI ...)`
TITLE = "Relative skill level of each rule set"


@dataclass(frozen=True)
class RelativeSkill:
    """RS from the optimal and the fictive player's wins against a field of beginners.

    `players`: seats at the table (W(beginner) = 1/players). Wins and games are
    the decided games of the player's rotated seat.
    """

    optimal_wins: int
    optimal_games: int
    fictive_wins: int
    fictive_games: int
    players: int

    @property
    def w_beginner(self) -> float:
        return 1.0 / self.players

    @property
    def w_optimal(self) -> float:
        return self.optimal_wins / self.optimal_games if self.optimal_games else math.nan

    @property
    def w_fictive(self) -> float:
        return self.fictive_wins / self.fictive_games if self.fictive_games else math.nan

    @property
    def le(self) -> float:
        """The learning effect W(optimal) - W(beginner)."""
        return self.w_optimal - self.w_beginner

    @property
    def re(self) -> float:
        """The random effect W(fictive) - W(optimal)."""
        return self.w_fictive - self.w_optimal

    @property
    def defined(self) -> bool:
        """RS is defined where LE + RE, the fictive player's edge over a beginner, is positive."""
        total = self.le + self.re
        return math.isfinite(total) and total > 0

    @property
    def rs(self) -> float:
        return self.le / (self.le + self.re) if self.defined else math.nan

    @property
    def se(self) -> float:
        """The delta method's standard error of RS, binomial variances (module docstring)."""
        if not self.defined:
            return math.nan
        d, n = self.le + self.re, self.le
        vo = self.w_optimal * (1.0 - self.w_optimal) / self.optimal_games
        vf = self.w_fictive * (1.0 - self.w_fictive) / self.fictive_games
        return math.sqrt(vo / d**2 + n**2 * vf / d**4)

    @property
    def bounded(self) -> bool:
        """The denominator's 95% interval stays above zero: RS has a bounded interval."""
        if not self.defined:
            return False
        vf = self.w_fictive * (1.0 - self.w_fictive) / self.fictive_games
        return self.le + self.re > Z95 * math.sqrt(vf)

    def interval(self) -> tuple[float, float]:
        """RS's 95% interval, (nan, nan) where it is undefined or unbounded."""
        if not self.bounded:
            return math.nan, math.nan
        return self.rs - Z95 * self.se, self.rs + Z95 * self.se

    def sample(self) -> Sample | None:
        """RS as a sample for the page's comparisons; None where it has no bounded interval."""
        if not self.bounded:
            return None
        return Sample(self.rs, self.se, min(self.optimal_games, self.fictive_games))


def seat_wins(
    rules: Rules,
    player: str,
    games: int,
    seed: int,
    threads: int | None = None,
    progress: Progress | None = None,
) -> tuple[int, int]:
    """(wins, decided games) of one seat playing `player` against `BEGINNER` in every
    other seat, the seat rotated through every seat position (games // players each)."""
    field = [player] + [BEGINNER] * (rules.players - 1)
    seatings = play_rotations(rules, field, games, seed, threads=threads, progress=progress)
    wins = decided = 0
    for seating, df in seatings:
        seat = seating.index(parse_policy(player).name)
        winner = df["winner"].to_numpy()
        wins += int((winner == seat).sum())
        decided += int((winner >= 0).sum())
    return wins, decided


def optimal_for(optimal: str | Mapping[str, str], rule_set: str) -> str:
    """The optimal player of `rule_set`: the study's one name, or its entry in the table."""
    if isinstance(optimal, str):
        return optimal
    return optimal.get(rule_set, DEFAULT_OPTIMAL)


def rs_row(
    rule_set: RuleSet,
    rules: Rules,
    optimal: str,
    fictive: str,
    games: int,
    seed: int,
    threads: int | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """One row of `rs.csv`: the optimal and the fictive player's matches, `games` each,
    on seeds `seed + OPTIMAL_SEED` and `seed + FICTIVE_SEED`, and RS from them."""
    from ludosim.rules.streams import MASK64

    played = []
    for i, (player, part) in enumerate(((optimal, OPTIMAL_SEED), (fictive, FICTIVE_SEED))):
        tick = None if progress is None else functools.partial(_offset, progress, i * games)
        played.append(seat_wins(rules, player, games, (seed + part) & MASK64, threads, tick))
    (wo, no), (wf, nf) = played
    return table_row(rule_set, RelativeSkill(wo, no, wf, nf, rules.players), optimal, fictive)


def _offset(progress: Progress, before: int, done: int, _: int) -> None:
    progress(before + done, 0)


def table_row(
    rule_set: RuleSet, measured: RelativeSkill, optimal: str, fictive: str
) -> dict[str, Any]:
    """The `rs.csv` row of a measured RS."""
    m = measured
    lo, hi = m.interval()
    o_low, o_high = wilson_interval(m.optimal_wins, m.optimal_games)
    f_low, f_high = wilson_interval(m.fictive_wins, m.fictive_games)
    return {
        "rule_set": rule_set.label, "preset": rule_set.preset, "set": " ".join(rule_set.sets),
        "players": m.players, "beginner": BEGINNER, "optimal": optimal, "fictive": fictive,
        "w_beginner": m.w_beginner, "w_optimal": m.w_optimal, "w_optimal_low": o_low,
        "w_optimal_high": o_high, "optimal_wins": m.optimal_wins,
        "optimal_games": m.optimal_games, "w_fictive": m.w_fictive, "w_fictive_low": f_low,
        "w_fictive_high": f_high, "fictive_wins": m.fictive_wins,
        "fictive_games": m.fictive_games, "le": m.le, "re": m.re, "rs": m.rs, "rs_se": m.se,
        "rs_low": lo, "rs_high": hi, "defined": m.defined,
    }  # fmt: skip


def measured(row: Mapping[str, Any] | pd.Series) -> RelativeSkill:
    """The `RelativeSkill` behind an `rs.csv` row (from its wins and games)."""
    return RelativeSkill(int(row["optimal_wins"]), int(row["optimal_games"]),
                         int(row["fictive_wins"]), int(row["fictive_games"]),
                         int(row["players"]))  # fmt: skip


def rs_text(m: RelativeSkill) -> str:
    """`0.436 (95% CI 0.409 to 0.463)`, `0.436 (interval unbounded)` or `undefined`."""
    if not m.defined:
        return "undefined"
    low, high = m.interval()
    if not math.isfinite(low):
        return f"{num(m.rs, 3)} (interval unbounded)"
    return estimate(m.rs, low, high, "", sign=False)


# ---------------------------------------------------------------------- findings
GLOSSARY_TERMS: tuple[tuple[str, str], ...] = (
    ("relative skill level", "RS = LE / (LE + RE) (Dreef, Borm and van der Genugten 2004): "
     "how much of what separates a beginner from a player who knows the dice in advance "
     "is learnable play; 0 for pure chance, 1 for pure skill."),
    ("learning effect", "LE: the optimal player's win share against three random players "
     "minus a random player's (1/players)."),
    ("random effect", "RE: the fictive player's win share against three random players "
     "minus the optimal player's: what knowing the dice in advance adds."),
    ("fictive player", "fictive: an expert that plays each option out once on the game's own "
     "future dice, so it knows the dice up to 24 turns ahead while play follows its "
     "rollout."),
    ("rating spread", "the standard deviation of the ladder's ratings: the skill measure of "
     "Duersch, Lambrecht and Oechssler (2020), the more skill the wider the ratings spread."),
)  # fmt: skip


class RelativeSkillPlan:
    """The RS comparisons of a page, registered in its families before any is decided.

    Every pair of rule sets with a bounded RS interval is one test of the page's
    differences family (`claims.Ranking`); `findings` states the ranking after the
    family is adjusted.
    """

    def __init__(self, rs: pd.DataFrame | None, order: Sequence[str], claims: Claims) -> None:
        self.claims = claims
        self.rows: dict[str, tuple[pd.Series, RelativeSkill]] = {}
        if rs is not None:
            by = rs.set_index("rule_set")
            for r in order:
                if r in by.index:
                    row = by.loc[r]
                    self.rows[r] = (row, measured(row))
        items = {r: s for r, (_, m) in self.rows.items() if (s := m.sample()) is not None}
        self.ranking = Ranking(claims, items, "rs", scale=1.0) if len(items) > 1 else None

    def findings(self) -> list[Finding]:
        if not self.rows:
            return []
        out: list[Finding] = [self._answer(), self._summary()]
        ranking = self.ranking
        if ranking is not None:
            have = min(s.games for s in ranking.items.values())
            size = needed(ranking.tests(), SMALLEST_RS, self.claims.differences)
            if is_exploratory(size, have):
                out.insert(0, Finding(TOPIC, exploratory_text(
                    have, int(size or 0), f"detecting a difference of {SMALLEST_RS:g} in RS "
                    "between two rule sets with 80% power after the correction",
                    "per player and rule set", "the RS ranking",
                ), False, size, headline=True, kind="note"))  # fmt: skip
            ends = ((True, "most"), (False, "least"))
            for top, word in ends[: 1 if len(ranking.items) == 2 else 2]:
                end = ranking.end(top)
                if end is None:
                    continue
                text = ranking_text(
                    end, f"By the relative skill level, skill pays {word}",
                    f"Where skill pays {word} by the relative skill level", UNIT,
                    lambda r: f"RS {rs_text(self.rows[r][1])}", SMALLEST_RS,
                )  # fmt: skip
                if not end.resolved and not end.same_within(SMALLEST_RS):
                    text += " " + sizing(f"a difference of {SMALLEST_RS:g} in RS", size, have)
                out.append(ranking_finding(TOPIC, end, text, UNIT, size, SMALLEST_RS))
        undefined = [r for r, (_, m) in self.rows.items() if not m.defined]
        unbounded = [r for r, (_, m) in self.rows.items() if m.defined and not m.bounded]
        if undefined:
            out.append(Finding(TOPIC, (
                f"Under {names(undefined)} RS is undefined: the fictive player wins no more "
                "than a random player (LE + RE is not positive), so there is no scale to place "
                "the optimal player on; these rule sets are not ranked."
            ), True, headline=True, kind="note"))  # fmt: skip
        if unbounded:
            out.append(Finding(TOPIC, (
                f"Under {names(unbounded)} the fictive player's edge over a random player is not "
                "resolved, so RS has no bounded interval and is not ranked."
            ), False, headline=True, kind="note"))  # fmt: skip
        out += [self._detail(r, row, m) for r, (row, m) in self.rows.items()]
        return out

    def _answer(self) -> Finding:
        """Luck or skill, in plain words: how far skill takes a player from a beginner's
        share towards the share of one who knew the dice, under the rule sets measured."""
        defined = {r: m for r, (_, m) in self.rows.items() if m.defined}
        if not defined:
            return Finding(TOPIC, (
                "Luck or skill: no rule set here has a relative skill level (the fictive "
                "player wins no more than a random one), so this page cannot say."
            ), True, headline=True, kind="note")  # fmt: skip
        low = min(defined, key=lambda r: defined[r].rs)
        high = max(defined, key=lambda r: defined[r].rs)
        row = self.rows[high][0]
        ends = (
            f"{pct(defined[low].rs, 0)} under {low} to {pct(defined[high].rs, 0)} under {high}"
            if low != high
            else f"{pct(defined[low].rs, 0)} under {low}"
        )
        text = (
            f"Luck or skill, in plain words: a beginner wins a fair "
            f"{pct(defined[high].w_beginner, 0)} of games against other beginners; a player who "
            f"knew every future roll would win far more. The strong player measured here "
            f"({row['optimal']}) gets {ends} of the way from the beginner's share to that "
            "player's: that part of winning is skill, the rest luck that this play did not "
            "overcome. Both players only approximate exact play (the strong player is a "
            "heuristic search, the one who knows the dice a search on them). How far they are "
            "from it is measured only in reduced games solved exactly (two players, two "
            "pieces each: `ludosim duels`, docs/skill.md); at this size it is not, so each "
            "share also carries an approximation error that its interval, which holds the "
            "games' noise, does not."
        )
        return Finding(TOPIC, text, True, headline=True, kind="note")

    def _summary(self) -> Finding:
        ordered = sorted(self.rows, key=lambda r: -_key(self.rows[r][1]))
        first = self.rows[ordered[0]][0]
        games_each = sorted({int(row["optimal_games"]) for row, _ in self.rows.values()})
        counted = f"{games_each[0]:,}" if len(games_each) == 1 else (
            f"{games_each[0]:,} to {games_each[-1]:,}")  # fmt: skip
        listed = "; ".join(f"{r} {rs_text(self.rows[r][1])}" for r in ordered)
        text = (
            "Relative skill level RS = LE / (LE + RE) of Dreef, Borm and van der Genugten "
            f"(2004), highest first: {listed}. The optimal player is {_players(self.rows)}, the "
            f"fictive player (who knows the dice in advance) {first['fictive']}, the beginner "
            f"random, each in one rotated seat against three random players ({counted} decided "
            "games each; the beginner wins 1/players by symmetry). 0: the best play wins no "
            "more than random play; 1: knowing the dice adds nothing to it."
        )
        return Finding(TOPIC, text, True, headline=True, kind="note")

    def _detail(self, r: str, row: pd.Series, m: RelativeSkill) -> Finding:
        low, high = m.interval()
        o_low, o_high = float(row["w_optimal_low"]), float(row["w_optimal_high"])
        f_low, f_high = float(row["w_fictive_low"]), float(row["w_fictive_high"])
        text = (
            f"Under {r}, against three random players {row['optimal']} wins "
            f"{pct(m.w_optimal, 1)} (95% CI {pct(o_low, 1)} to {pct(o_high, 1)}) of "
            f"{m.optimal_games:,} decided games and {row['fictive']} {pct(m.w_fictive, 1)} "
            f"({pct(f_low, 1)} to {pct(f_high, 1)}) of {m.fictive_games:,}, a random player "
            f"{pct(m.w_beginner, 0)} by symmetry: LE = {num(m.le, 3, sign=True)}, "
            f"RE = {num(m.re, 3, sign=True)}, RS = {rs_text(m)}."
        )
        value = (m.rs, low, high) if m.defined else (math.nan, math.nan, math.nan)
        return described(TOPIC, text, value, UNIT, min(m.optimal_games, m.fictive_games))


def _key(m: RelativeSkill) -> float:
    return m.rs if m.defined else -math.inf


def _players(rows: Mapping[str, tuple[pd.Series, RelativeSkill]]) -> str:
    chosen: dict[str, list[str]] = {}
    for r, (row, _) in rows.items():
        chosen.setdefault(str(row["optimal"]), []).append(r)
    if len(chosen) == 1:
        return next(iter(chosen))
    return "; ".join(f"{p} under {names(rs)}" for p, rs in chosen.items())


# -------------------------------------------------------------------------- page
def rs_order(rs: pd.DataFrame | None, order: Sequence[str]) -> list[str] | None:
    """The rule sets by RS, highest first (undefined last); None without an RS table."""
    if rs is None or rs.empty:
        return None
    by = {str(row["rule_set"]): _key(measured(row)) for _, row in rs.iterrows()}
    return sorted(order, key=lambda r: -by.get(r, -math.inf))


def rs_section(folder: Path, rs: pd.DataFrame, order: Sequence[str], simulated: str) -> Any:
    """The page's first section: RS per rule set (a forest, highest first) and rs.csv."""
    from ludosim.report import figures
    from ludosim.report.figures import Panel
    from ludosim.report.htmlpage import PageSection, PageTable, html_table, page_figure

    ranked = rs_order(rs, order) or list(order)
    by = rs.set_index("rule_set").reindex(ranked)
    wide = pd.DataFrame(index=ranked)
    for col in ("rs", "rs_low", "rs_high", "w_optimal", "w_optimal_low", "w_optimal_high",
                "w_fictive", "w_fictive_low", "w_fictive_high"):  # fmt: skip
        wide[col] = by[col].to_numpy(float)
    labels = [f"{r} ({by.at[r, 'optimal']})" for r in ranked]
    fair = float(by["w_beginner"].iloc[0])
    panels = [
        Panel("rs", "rs_low", "rs_high", "relative skill level RS", reference=0.0, fmt="{:.3f}"),
        Panel("w_optimal", "w_optimal_low", "w_optimal_high", "optimal vs 3 random",
              reference=fair, fmt="{:.3f}"),
        Panel("w_fictive", "w_fictive_low", "w_fictive_high", "fictive vs 3 random",
              reference=fair, fmt="{:.3f}"),
    ]  # fmt: skip
    fig = page_figure(folder, figures.forest(wide, labels, panels), "rs.png",
        "Relative skill level per rule set",
        "Left: RS = LE / (LE + RE) (Dreef, Borm and van der Genugten 2004) with its 95% "
        "interval (delta method), rule sets highest first; dashed: 0, a game of pure chance "
        "for these players (1 is pure skill). Middle and right: the optimal player (in "
        "brackets) and the fictive player, each in one rotated seat against three random "
        "players: win share of the decided games, Wilson 95% CIs; dashed: the beginner's "
        f"share 1/players. {simulated}",
    )  # fmt: skip
    shown = rs.drop(columns=["preset", "set", "optimal_wins", "fictive_wins"])
    table = PageTable("Relative skill levels", RS_FILE, html_table(shown),
                      "One row per rule set: W of the beginner (1/players, by symmetry), of "
                      "the optimal and of the fictive player against three random players "
                      "(Wilson 95% intervals), LE, RE, RS with its delta-method standard error "
                      "and 95% interval, and the decided games of each match; the CSV adds the "
                      "wins, each rule set's preset and --set toggles.")  # fmt: skip
    text = (
        "How much of what separates a beginner (random) from a player who knows the dice in "
        "advance (fictive) the best play the project has (the optimal player) already "
        "gains: RS = LE / (LE + RE), LE = W(optimal) - W(beginner), RE = W(fictive) - "
        "W(optimal), W a player's win share in one rotated seat against three random players. "
        "Pairwise differences of RS between rule sets are in the page's family of comparisons."
    )
    return PageSection(TITLE, text=text, figures=[fig], tables=[table])


def empty_table() -> pd.DataFrame:
    return pd.DataFrame(columns=list(RS_COLUMNS))


def rs_frame(rows: Sequence[Mapping[str, Any]]) -> pd.DataFrame:
    frame = pd.DataFrame(list(rows), columns=list(RS_COLUMNS))
    for col in ("players", "optimal_wins", "optimal_games", "fictive_wins", "fictive_games"):
        frame[col] = frame[col].astype(np.int64)
    return frame


__all__ = [
    "BEGINNER",
    "DEFAULT_FICTIVE",
    "DEFAULT_OPTIMAL",
    "FICTIVE_SEED",
    "OPTIMAL_SEED",
    "RS_COLUMNS",
    "RS_FILE",
    "SMALLEST_RS",
    "RelativeSkill",
    "RelativeSkillPlan",
    "measured",
    "optimal_for",
    "rs_frame",
    "rs_order",
    "rs_row",
    "rs_section",
    "rs_text",
    "seat_wins",
    "table_row",
]
