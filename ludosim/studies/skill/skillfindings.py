"""What the skill page states (`study_findings`): the relative skill level, the
fixed pair, the strongest players, the rating spread, the meta-game and the headline
answers with skilled players, decided in the page's two families.
"""

from __future__ import annotations

import math

import pandas as pd

from ludosim.report.claims import Claims, described, names, page_order
from ludosim.report.finding import Finding
from ludosim.report.wording import games, num
from ludosim.rules.policies import policy_file
from ludosim.studies import relative_skill
from ludosim.studies.skill.skillclaims import _Plan
from ludosim.studies.skill.skillstudy import SUPPORT_WEIGHT
from ludosim.studies.skill.skilltables import SkillTables
from ludosim.studies.skill.skillwords import TITLES, _measure, _Names


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
