"""What the skill page states (`study_findings`): the relative skill level, the
fixed pair, the strongest players, the rating spread, the meta-game and the headline
answers with skilled players, decided in the page's two families; the page's tests,
registered before any is decided, and their sentences (`_Plan`).
"""

from __future__ import annotations

import math
from dataclasses import replace

import pandas as pd

from ludosim.report.claims import (
    Claims,
    Sample,
    decided_games,
    described,
    first_sentence,
    names,
    needed,
    page_order,
    sizing,
    stated,
    told,
    verdict,
    wins_of,
)
from ludosim.report.contrasts import Test
from ludosim.report.exploratory import beyond_chance, exploratory_text, is_exploratory, leads
from ludosim.report.finding import DIFFERENCES, VALUES, Finding
from ludosim.report.wording import each, estimate, games, num, of, pct
from ludosim.rules.policies import policy_file
from ludosim.studies import relative_skill
from ludosim.studies.skill.spec import (
    FIXED_FIELD,
    FIXED_MEASURE,
    FIXED_PLAYER,
    OPPONENTS,
    SUPPORT_WEIGHT,
)
from ludosim.studies.skill.tables import SkillTables
from ludosim.studies.skill.words import SMALLEST_EDGE, TITLES, _measure, _Names


class _Plan:
    """The tests of the skill page, registered before any is decided, and their sentences."""

    def __init__(self, skill: pd.DataFrame, order: list[str], who: _Names, claims: Claims):
        self.skill, self.order, self.who, self.claims = skill, order, who, claims
        self.fixed: dict[str, tuple[pd.Series, Test]] = {}
        self.shares: dict[tuple[str, str], tuple[pd.Series, Test]] = {}
        self.changes: dict[str, tuple[pd.Series, Test]] = {}
        self.edges: dict[tuple[str, str], tuple[pd.Series, Test]] = {}
        fair = {r: 1.0 / who.players(r) for r in order}
        for r in order:
            row = _measure(skill, r, FIXED_MEASURE)
            if row is not None:
                self.fixed[r] = (row, self._share(f"fixed:{r}", row, fair[r]))
        for r in order:
            for measure in ("win_share_vs_random", "win_share_vs_balanced",
                            "pacifist_share_vs_balanced", "pacifist_share_vs_strongest",
                            "skipper_share_vs_balanced", "skipper_share_vs_strongest"):  # fmt: skip
                row = _measure(skill, r, measure)
                if row is not None and row["player"] != row["opponent"]:
                    if measure.endswith("_vs_strongest") and self._same_match(r, measure, row):
                        continue
                    self.shares[(r, measure)] = (row, self._share(f"{measure}:{r}", row, fair[r]))
            for opponent in OPPONENTS:
                row = _measure(skill, r, f"head_to_head_vs_{opponent}")
                if row is not None and row["player"] != opponent and row["games"] > 0:
                    key = f"head_to_head_vs_{opponent}"
                    self.shares[(r, key)] = (row, self._share(f"{key}:{r}", row, 0.5))
            for kind in ("random", "strongest"):
                row = _measure(skill, r, f"first_player_advantage_{kind}")
                if row is not None:
                    wins = wins_of(float(row["estimate"]) + fair[r], int(row["games"]))
                    test = claims.share(f"first_{kind}:{r}", wins, int(row["games"]), fair[r])
                    self.edges[(r, kind)] = (row, test)
            row = _measure(skill, r, "first_player_advantage_change")
            if row is not None:
                sample = Sample.of_interval(row["estimate"], row["ci_low"], row["ci_high"],
                                            int(row["games"]))  # fmt: skip
                self.changes[r] = (row, claims.difference(f"first_change:{r}", sample, "paired"))

    def _same_match(self, r: str, measure: str, row: pd.Series) -> bool:
        """Whether a `_vs_strongest` capture row is the `_vs_balanced` match again (the
        strongest is balanced: `skipper:1:balanced` is `skipper:1`), which the page tests
        once. Tables written before the study played it once still hold both rows."""
        twin = _measure(self.skill, r, measure.replace("_vs_strongest", "_vs_balanced"))
        return twin is not None and (
            (str(twin["player"]), str(twin["opponent"])) == (str(row["player"]),
                                                            str(row["opponent"])))  # fmt: skip

    def _share(self, key: str, row: pd.Series, reference: float) -> Test:
        n = int(row["games"])
        return self.claims.share(key, wins_of(row["estimate"], n), n, reference)

    # ------------------------------------------------------------ the fixed pair
    def fixed_pair(self) -> list[Finding]:
        """balanced's win share against three random players, per rule set: one heuristic
        against random play. It is not ranked between rule sets: how well balanced suits a
        rule set is not how much the rule set rewards skill (the relative skill level is)."""
        out: list[Finding] = []
        if self.fixed:
            ordered = sorted(self.fixed, key=lambda r: -self.fixed[r][1].estimate)
            listed = "; ".join(f"{r} {told(self.fixed[r][1], '%', sign=False)}" for r in ordered)
            out.append(Finding("skill", (
                f"{FIXED_PLAYER}'s edge over random players, one heuristic against random "
                f"play: its win share in every seat position against three {FIXED_FIELD} "
                f"players, highest first: {listed}. It says how well this one heuristic suits "
                "each rule set, not how much a rule set rewards skill (the relative skill level "
                "above does), so the page does not rank rule sets by it; each share is tested "
                "against the fair share in the page's family of values."
            ), True, headline=True, kind="note"))  # fmt: skip
        for r, (row, t) in self.fixed.items():
            text = (
                f"Under {r}, {FIXED_PLAYER} wins {told(t, '%', sign=False)} of {games(t.games)} "
                f"against three {FIXED_FIELD} players, against a fair share of "
                f"{pct(float(row['fair']), 0)}: {verdict(t)}."
            )
            out.append(stated("skill", text, t, "value", "%", VALUES))
        return out

    # ------------------------------------------------------------ the strongest players
    def strongest_players(self) -> list[Finding]:
        off = [r for r in self.order if (row := _measure(self.skill, r, "win_share_vs_random"))
               is not None and self.who.off(str(row["player"]), r)]  # fmt: skip
        text = (
            "Each ladder's strongest player (its top rating) is measured under its own rule set "
            "only: the strongest players differ between rule sets, so these statements are not "
            "compared across them."
        )
        if off:
            text += f" Under {names(off)} the strongest player plays off its rules."
        out = [Finding("strongest", text, True, headline=True, kind="note")]
        for r in self.order:
            for opponent in OPPONENTS:
                item = self.shares.get((r, f"win_share_vs_{opponent}"))
                if item is None:
                    continue
                row, t = item
                out.append(stated("strongest", (
                    f"Under {r}, the strongest player, {self.who(str(row['player']), r)}, wins "
                    f"{told(t, '%', sign=False)} of {games(t.games)} against three "
                    f"{opponent} players, against a fair share of {pct(float(row['fair']), 0)}: "
                    f"{verdict(t)}."
                ), t, "value", "%", VALUES))  # fmt: skip
            for opponent in OPPONENTS:
                item = self.shares.get((r, f"head_to_head_vs_{opponent}"))
                if item is not None:
                    out.append(self._head_to_head(r, opponent, *item))
            row = _measure(self.skill, r, "win_share_vs_balanced")
            if row is not None and row["player"] == "balanced":
                out.append(Finding("strongest", (
                    f"Under {r} the strongest player is balanced itself: there is no edge over "
                    "balanced to measure."
                ), True, kind="note"))  # fmt: skip
        return out

    def _head_to_head(self, r: str, opponent: str, row: pd.Series, t: Test) -> Finding:
        player = self.who(str(row["player"]), r)
        text = (
            f"Under {r}, head to head against {opponent} (two seats each), {player} wins "
            f"{told(t, '%', sign=False)} of {decided_games(t.games)} against one half: "
            f"{verdict(t)}"
        )
        ahead = _measure(self.skill, r, f"games_to_be_ahead_of_{opponent}")
        known = ahead is not None and math.isfinite(ahead["estimate"])
        if t.resolved and t.estimate > 50 and known:
            text += (
                f"; it is ahead of {opponent} with 95% probability after about "
                f"{_count(ahead['estimate'])} games (95% CI {_count(ahead['ci_low'])} to "
                f"{_count(ahead['ci_high'])})"
            )
        elif not t.resolved:
            text += "; no match length puts it surely ahead at this size"
        return stated("strongest", text + ".", t, "value", "%", VALUES)

    # ------------------------------------------------------------ skilled headline answers
    def skilled_answers(self) -> list[Finding]:
        out: list[Finding] = []
        if not self.changes:
            return out
        moved = [r for r, (_, t) in self.changes.items() if t.resolved]
        still = [r for r in self.changes if r not in moved]
        games_each = each([t.games for _, t in self.changes.values()])
        listed = "; ".join(
            f"{r}, {estimate(t.estimate, t.ci_low, t.ci_high, 'pp')}"
            for r, (_, t) in self.changes.items() if t.resolved
        )  # fmt: skip
        # Sized by the measure the headline states, the change, from every rule set's test
        # (resolved or not): a run too small for its smallest effect is exploratory, and
        # then a resolved change is a lead to confirm on fresh games, not "beyond chance".
        tests = [t for _, t in self.changes.values()]
        have = int(min(t.games for t in tests))
        smallest = 100 * SMALLEST_EDGE / self.who.players(self.order[0])
        size = needed(tests, smallest, self.claims.differences)
        lead = is_exploratory(size, have)
        self.changes_are_leads = lead
        text = (
            "With each rule set's strongest player in every seat instead of random players (the "
            "same dice, paired by game, the games decided in both: "
            f"{games_each}), the first player's edge changes "
        )
        if moved:
            with leads(lead):
                text += f"{beyond_chance()} under {listed}"
            text += f"; the change is not resolved under {names(still)}" if still else ""
        else:
            text += f"by an amount not resolved under any of the {len(still)} rule sets"
        text += " (each change in the page's family of comparisons)."
        if lead:
            out.append(Finding("skilled", exploratory_text(
                have, int(size or 0), f"detecting a change of {num(smallest, 2)} pp (1% of a "
                "fair share) in the first player's edge with 80% power after the correction",
                "per rule set", "the first player's edges and their changes under every rule set",
            ), False, size, headline=True, kind="note"))  # fmt: skip
            text += " This run is exploratory for this measure (above): read it as a lead."
        elif still:
            text += " " + sizing(f"a change of {num(smallest, 2)} pp (1% of a fair share)",
                                 size, have)  # fmt: skip
        out.append(Finding("skilled", text, True, headline=True, kind="note", exploratory=lead))
        out += self._capture_headlines()
        for r in self.order:
            out += self._skilled_rule_set(r)
        return out

    def _capture_headlines(self) -> list[Finding]:
        out = []
        for kind, verb in CAPTURE_KINDS:
            for opponent in ("balanced", "strongest"):
                measure = f"{kind}_share_vs_{opponent}"
                found = [(r, *self.shares[(r, measure)]) for r in self.order
                         if (r, measure) in self.shares]  # fmt: skip
                if not found:
                    continue
                below = [r for r, _, t in found if t.resolved and t.estimate < 100 * _fair(self, r)]
                above = [r for r, _, t in found if t.resolved and t.estimate > 100 * _fair(self, r)]
                rest = [r for r, _, _ in found if r not in below and r not in above]
                shares = [t.estimate for _, _, t in found]
                against = "three balanced players" if opponent == "balanced" else (
                    "three of each rule set's strongest player")  # fmt: skip
                parts = []
                if below:
                    parts.append(f"below the fair share under {of(len(below), len(found))}")
                if above:
                    parts.append(f"above it under {of(len(above), len(found))}")
                if rest:
                    parts.append(f"not resolved under {names(rest)}")
                n = len(found)
                out.append(Finding("skilled", (
                    f"{first_sentence(verb)}, against {against} (measured under {n} rule "
                    f"set{'s' if n != 1 else ''}): a seat's win share is {'; '.join(parts)} ("
                    + (f"from {num(min(shares), 1)}% to {num(max(shares), 1)}%; " if n > 1 else "")
                    + "each against its fair share, in the page's family of values)."
                ), True, headline=True, kind="note"))  # fmt: skip
        return out

    def _skilled_rule_set(self, r: str) -> list[Finding]:
        out = []
        fair = _fair(self, r)
        for kind in ("random", "strongest"):
            item = self.edges.get((r, kind))
            if item is None:
                continue
            row, t = item
            seats = "random players" if kind == "random" else self.who(str(row["player"]), r)
            edge = (t.estimate - 100 * fair, t.ci_low - 100 * fair, t.ci_high - 100 * fair)
            text = (
                f"Under {r}, with {seats} in every seat, the first player wins "
                f"{pct(t.estimate / 100, 2)} of {decided_games(t.games)}: an edge of "
                f"{estimate(*edge, 'pp')} over the fair share of {pct(fair, 0)}; {verdict(t)}."
            )
            out.append(stated("skilled", text, t, "value", "pp", VALUES, value=edge))
        item = self.changes.get(r)
        if item is not None:
            row, t = item
            text = (
                f"Under {r}, the first player's edge with {self.who(str(row['player']), r)} in "
                f"every seat minus with random players: {told(t, 'pp')}, paired by game over "
                f"{t.games:,} games decided in both; {verdict(t)}."
            )
            change = stated("skilled", text, t, "difference", "pp", DIFFERENCES)
            # At an exploratory size the change is a lead to confirm, flagged as such.
            out.append(replace(change, exploratory=getattr(self, "changes_are_leads", False)))
        for kind, verb in CAPTURE_KINDS:
            for opponent in ("balanced", "strongest"):
                item = self.shares.get((r, f"{kind}_share_vs_{opponent}"))
                if item is None:
                    continue
                row, t = item
                text = (
                    f"Under {r}, {verb}: {self.who(str(row['player']), r)} wins "
                    f"{told(t, '%', sign=False)} of {games(t.games)} against "
                    f"three {self.who(str(row['opponent']), r)}, against a fair share of "
                    f"{pct(fair, 0)}: {verdict(t)}."
                )
                out.append(stated("skilled", text, t, "value", "%", VALUES))
        return out


CAPTURE_KINDS = (("pacifist", "never capturing"), ("skipper", "skipping forced captures"))


def _fair(plan: _Plan, rule_set: str) -> float:
    return 1.0 / plan.who.players(rule_set)


def _count(x: float) -> str:
    return "unbounded" if not math.isfinite(x) else f"{int(x):,}"


def _half(rows: pd.DataFrame) -> float:
    return float(((rows["ci_high"] - rows["ci_low"]) / 2).max())


def study_findings(tables: SkillTables) -> list[Finding]:
    """What the study's tables say, as `ludosim.report.finding.Finding`s (topics `TITLES`), in the
    order the page states them.

    Two families (`ludosim.studies`): the differences (every pair of rule sets
    on the relative skill level RS, every rule set's change of the first-player
    edge from random to skilled seats) and the values (win shares against the
    fair share, head-to-head shares against one half, first-player edges against
    zero), each Holm-corrected. Rule sets are ranked by RS only
    (`relative_skill.RelativeSkillPlan`); the fixed pair's win share is stated per
    rule set as what it is, one heuristic against random play. A tuned player off
    its rules (`off_its_rules`) is named as such and enters no comparison between
    rule sets.
    """
    skill, meta = tables.skill, tables.metagame
    order = list(dict.fromkeys(skill["rule_set"]))
    who = _Names(tables)
    claims = Claims()
    relative = relative_skill.RelativeSkillPlan(tables.rs, order, claims)
    plan = _Plan(skill, order, who, claims)
    claims.adjust()
    ranked = "every pair of rule sets on the relative skill level RS, and " if (
        relative.ranking is not None) else ""  # fmt: skip
    out = [
        *relative.findings(),
        claims.about(
            f"{ranked}every rule set's change of the first player's edge from random to "
            "skilled seats",
            "win shares against the fair share, head-to-head shares against one half, "
            "first-player edges against zero",
        ),
        *_about(skill, order, who),
        *plan.fixed_pair(),
        *plan.strongest_players(),
        *_spread_findings(skill[skill["measure"] == "rating_sd"], tables.ladder, order),
        *_metagame_findings(meta, order, who),
        *plan.skilled_answers(),
    ]
    return page_order(out, TITLES)


def _about(skill: pd.DataFrame, order: list[str], who: _Names) -> list[Finding]:
    out = []
    off = {}
    for r in order:
        row = _measure(skill, r, "win_share_vs_random")
        if row is not None and (tuned := who.off(str(row["player"]), r)) is not None:
            off.setdefault((str(row["player"]), tuned), []).append(r)
    for (player, tuned), rule_sets in off.items():
        out.append(Finding("about", (
            f"A tuned player is judged only on the rules it was tuned for. Under "
            f"{names(rule_sets)} the strongest player, {player}, was tuned for {tuned} and "
            "plays off its rules: its numbers there say what it does under those rules, not "
            "how much play tuned for them would gain, and it enters no comparison between rule "
            "sets (those use balanced against three random players, the same pair under every "
            "rule set)."
        ), True, headline=True, kind="note"))  # fmt: skip
    share = skill[skill["measure"].str.startswith("win_share")]
    pairs = skill[skill["measure"].str.startswith("head_to_head")]
    spread = skill[skill["measure"] == "rating_range"]
    if len(share) and len(pairs) and len(spread):
        out.append(Finding("about", (
            f"Every rule set: the ladder played {int(spread['games'].max()):,} games, each match "
            f"against a field {int(share['games'].max()):,} games, each head-to-head pair "
            f"{int(pairs['games'].max()):,} decided games. Win shares are known to within "
            f"±{num(100 * _half(share), 1)} pp (largest half-width of their 95% intervals), "
            f"head-to-head shares to within ±{num(100 * _half(pairs), 1)} pp."
        ), True, headline=True, kind="note"))  # fmt: skip
    return out


def _spread_findings(spread: pd.DataFrame, ladder: pd.DataFrame, order: list[str]) -> list[Finding]:
    """The rating spread (the standard deviation of the ladder's `mu`), named for the
    literature's measure of Duersch, Lambrecht and Oechssler (2020), per rule set."""
    rows = spread.set_index("rule_set").reindex(order).dropna(subset=["estimate"])
    if rows.empty:
        return []
    tuned = sorted({str(p) for p in ladder["player"] if policy_file(str(p))})
    why = (
        f"each ladder holds its own tuned player ({names(tuned)}; off its rules where the rule "
        "set is not the one it was tuned for), so the ladders differ"
        if tuned
        else "the page has no test of the difference between two bootstrap spreads"
    )
    text = (
        "Beside the relative skill level, an outcome-dispersion measure: the rating spread of "
        'Duersch, Lambrecht and Oechssler (2020, "Measuring skill and chance in games", '
        "European Economic Review), the standard deviation of the players' ratings (they use "
        "Elo ratings of a game's players; here the Plackett-Luce mu of the ladder); the more "
        "outcomes follow skill, the wider the ratings spread. Spreads are stated per rule set, "
        "each with its bootstrap interval, and not ranked across rule sets: a spread depends on "
        f"the whole ladder, and {why}."
    )
    out = [Finding("spread", text, True, headline=True, kind="note")]
    for rule_set, r in rows.iterrows():
        value = (float(r["estimate"]), float(r["ci_low"]), float(r["ci_high"]))
        text = (
            f"Under {rule_set} the rating spread (standard deviation of the ladder's "
            f"Plackett-Luce mu) is {num(value[0], 2)} (95% bootstrap CI {num(value[1], 2)} to "
            f"{num(value[2], 2)}, {games(int(r['games']))}); mu is on openskill's scale, where "
            "every player starts at 25."
        )
        out.append(described("spread", text, value, "mu", int(r["games"])))
    return out


def _mix_text(rows: pd.DataFrame, rule_set: str, who: _Names) -> str:
    support = rows[rows["weight"] > SUPPORT_WEIGHT]
    if len(support) == 1:
        return f"pure {who(str(support['player'].iloc[0]), rule_set)}"
    return "a mix of " + ", ".join(
        f"{who(str(r.player), rule_set)} {num(100 * r.weight, 0)}%" for r in support.itertuples()
    )


def _metagame_findings(meta: pd.DataFrame, order: list[str], who: _Names) -> list[Finding]:
    out = []
    stable = []
    for rule_set in order:
        rows = meta[meta["rule_set"] == rule_set].sort_values("weight", ascending=False)
        if rows.empty:
            continue
        mix = _mix_text(rows, rule_set, who)
        inside = rows["weight"] > SUPPORT_WEIGHT
        resamples = int(rows["resamples"].iloc[0])
        least = float(rows.loc[inside, "support_share"].min()) if resamples else math.nan
        if resamples:
            sure = bool((rows.loc[inside, "support_share"] >= 0.95).all()
                        and (rows.loc[~inside, "support_share"] <= 0.05).all())  # fmt: skip
            others = rows[~inside & (rows["support_share"] > 0.05)]
            kept = ", ".join(
                f"{r.player} in {num(100 * r.support_share, 0)}%" for r in rows[inside].itertuples()
            )
            text = (
                f"Under {rule_set} the equilibrium is {mix}. Its support over "
                f"{resamples:,} resampled head-to-head matrices: {kept}"
            )
            if len(others):
                text += "; also " + ", ".join(
                    f"{r.player} in {num(100 * r.support_share, 0)}%" for r in others.itertuples()
                )
            text += (
                "." if sure else "; which way of playing is stable is not resolved at this size."
            )
        else:
            sure = False
            text = f"Under {rule_set} the equilibrium is {mix} (no resamples: not resolved)."
        stable.append((rule_set, mix, sure))
        out.append(Finding("metagame", text, sure, None, False, "value", 100 * least, None, None,
                           "% of resamples", None, None, int(resamples)))  # fmt: skip
    sure_ones = [f"{mix} under {r}" for r, mix, sure in stable if sure]
    unsure = [r for r, _, sure in stable if not sure]
    text = "Stable under resampling: " + ("; ".join(sure_ones) if sure_ones else "none")
    if unsure:
        text += f". Not resolved at this size under {names(unsure)}"
    out.insert(0, Finding("metagame", text + ".", not unsure, headline=True, kind="note"))
    return out
