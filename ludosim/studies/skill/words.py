"""The skill page's words: its topics and glossary, and how it names a player
(`off_its_rules`: a tuned player on rules it was not tuned for says so).
"""

from __future__ import annotations

import pandas as pd

from ludosim.rules.model import Rules
from ludosim.rules.policies import PolicyError, policy_file, read_policy_file
from ludosim.studies import relative_skill
from ludosim.studies.skill.tables import SkillTables

# The relative skill level answers the page's question, so it comes first; the rating
# spread, the literature's other measure, beside it.
TITLES = {
    relative_skill.TOPIC: relative_skill.TITLE,
    "spread": "Rating spread of the ladder (Duersch, Lambrecht and Oechssler 2020)",
    "about": "How to read these findings",
    "skill": "balanced's edge over random players: one heuristic against random play",
    "strongest": "The strongest player of each ladder",
    "metagame": "The strategy meta-game",
    "skilled": "The headline answers with skilled players",
}
TUNED_COLUMN = "tuned-<preset>"  # the shipped tuned player of each rule set, in one column
# The smallest effect of interest the page sizes the first-player runs from: 1% of a
# fair share of first-player edge (0.25 pp with four). RS's is `relative_skill.SMALLEST_RS`.
SMALLEST_EDGE = 0.01
GLOSSARY_TERMS: tuple[tuple[str, str], ...] = (
    ("ladder", "the players a rule set rates: every table of as many distinct players as "
     "seats, in every rotation of its seats."),
    ("rating mu", "a player's Plackett-Luce rating on openskill's scale, where every player "
     "starts at 25; its interval comes from refitting the ratings on resampled games."),
    ("rating range", "the top minus the bottom mu of a ladder: how far apart its players are."),
    ("strongest player", "the top of a rule set's ladder (or the player named by --strongest)."),
    ("fixed pair", "balanced in every seat position against three random players, the same "
     "players under every rule set: its win share says how well one heuristic does against "
     "random play under each rule set, not how much a rule set rewards skill."),
    ("off its rules", "a tuned player (tuned-<preset>, tuned:FILE) on rules other than those it "
     "was tuned for (another rules hash): its numbers there say what it does, not what tuned "
     "play would gain, and it enters no comparison between rule sets."),
    ("head to head", "two players, each in half of the seats, in every seat rotation; a "
     "player's share is the share of the decided games one of its seats won."),
    ("games to be ahead", "head-to-head games after which the stronger player has more wins "
     "with 95% probability, and keeps it in any longer match."),
    ("equilibrium", "the mix of ways of playing that breaks even against every pure way in the "
     "head-to-head meta-game; pure when one way of playing is beaten by no other."),
    ("support share", "the share of resampled head-to-head matrices in whose equilibrium a "
     "player has weight; the equilibrium is resolved when its players are in at least 95% "
     "of them and every other player in at most 5%."),
    ("first-player edge change", "the first player's edge with the strongest player in every "
     "seat minus with random players in every seat, paired game by game on the same dice."),
    *relative_skill.GLOSSARY_TERMS,
)  # fmt: skip


def _measure(skill: pd.DataFrame, rule_set: str, measure: str) -> pd.Series | None:
    rows = skill[(skill["rule_set"] == rule_set) & (skill["measure"] == measure)]
    return None if rows.empty else rows.iloc[0]


def off_its_rules(player: str, rules: Rules) -> str | None:
    """For a tuned player on rules it was not tuned for, the rules it was tuned for (`app`,
    `app finish=bounce`); None for a player on its own rules or not tuned to any rules.

    A player is tuned when it plays a policy file (`tuned-<preset>`, `tuned:FILE`, a
    skipper on one: `ludosim.rules.policies.policy_file`); it is on its rules where the
    file's `rules_hash` is the rule set's. A file that cannot be read counts as off.
    """
    path = policy_file(player)
    if path is None:
        return None
    try:
        data = read_policy_file(path)
    except PolicyError:
        return "other rules"
    if str(data.get("rules_hash", "")) == rules.hash():
        return None
    tuned = " ".join([str(data.get("preset", "")), *map(str, data.get("set", []))]).strip()
    return tuned or "other rules"


class _Names:
    """How the page names a rule set's players: a tuned player off its rules says so."""

    def __init__(self, tables: SkillTables) -> None:
        self.rules = {r.label: r.rules() for r in tables.study.rule_sets}

    def off(self, player: str, rule_set: str) -> str | None:
        rules = self.rules.get(rule_set)
        return None if rules is None else off_its_rules(player, rules)

    def __call__(self, player: str, rule_set: str) -> str:
        tuned = self.off(player, rule_set)
        return player if tuned is None else f"{player} (tuned for {tuned}, off its rules here)"

    def players(self, rule_set: str) -> int:
        rules = self.rules.get(rule_set)
        return 4 if rules is None else rules.players
