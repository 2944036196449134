"""What a skill study plays under each rule set (`plan_study`): its ladder of players and
the games of each part (`RuleSetPlan`), checked before the first game; each part on a
seed of its own (`part_seed`, an offset from the study's seed).
"""

from __future__ import annotations

from dataclasses import dataclass

from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet
from ludosim.rules.policies import parse_policy, refuse_search_under_teams
from ludosim.rules.streams import MASK64
from ludosim.studies import ratings
from ludosim.studies.skill.spec import SkillError, Study, default_players

# Offsets of each part's seed from the study seed.
LADDER_SEED, RANDOM_SEED, BALANCED_SEED, PAIRS_SEED = 0, 1, 2, 3
FIRST_SEED, PACIFIST_SEED, SKIPPER_SEED, FIXED_SEED = 4, 5, 6, 7


def part_seed(seed: int, part: int) -> int:
    """The seed of the part `part` (an offset above) of a study seeded `seed`."""
    return (seed + part) & MASK64


@dataclass(frozen=True)
class RuleSetPlan:
    """One rule set's part of a study: its ladder and the games each part plays (the
    sizes asked for, rounded down to whole rotations of the seats)."""

    rule_set: RuleSet
    rules: Rules
    players: tuple[str, ...]
    ladder_games: int
    match_games: int
    pair_games: int
    games: int  # every game the rule set plays, for the study's progress


def _sizes(study: Study, rules: Rules, players: int) -> tuple[int, int, int]:
    """Games actually played per rule set by the ladder, each match and each pair."""
    n = rules.players
    ladder = (study.games // len(ratings.seatings(players, n))) * len(ratings.seatings(players, n))
    match = (study.match_games // n) * n
    patterns = 1 if n % 2 == 0 else 2
    pair = ((study.pair_games // patterns) // n) * n * patterns
    return ladder, match, pair


def _refuse_search_under_teams(
    study: Study, rule_set: RuleSet, rules: Rules, ladder: list[str]
) -> None:
    """The ladder's players and the relative skill level's optimal and fictive player,
    refused under `teams` when they search (`refuse_search_under_teams`): before any
    game, not when the rule set's turn comes."""
    players = [
        ("ladder", ladder),
        ("the optimal player of the relative skill level (--optimal)",
         [study.optimal_player(rule_set.label)]),
        ("the fictive player of the relative skill level (--fictive)", [study.fictive]),
    ]  # fmt: skip
    for role, names in players:
        try:
            refuse_search_under_teams(names, rules.teams)
        except LudosimError as exc:
            raise SkillError(f"rule set {rule_set.label}: {role}: {exc}") from None


def plan_study(study: Study) -> list[RuleSetPlan]:
    """Every rule set's plan; a ladder or a size a rule set cannot play is one `SkillError`."""
    plans = []
    for rule_set in study.rule_sets:
        rules = rule_set.rules()
        players = list(study.players or default_players(rule_set.preset))
        if study.strongest and study.strongest not in players:
            players.append(study.strongest)
        names = [parse_policy(p).name for p in players]
        if len(set(names)) != len(names):
            raise SkillError(f"players: each player must appear once, got {', '.join(names)}")
        if len(names) < max(rules.players, 2):
            raise SkillError(
                f"players: a ladder needs at least as many players as seats ({rules.players}), "
                f"got {len(names)}"
            )
        _refuse_search_under_teams(study, rule_set, rules, names)
        ladder, match, pair = _sizes(study, rules, len(names))
        if ladder < 1 or match < 1 or pair < 1:
            raise SkillError(
                f"games: too few for rule set {rule_set.label}: the ladder needs at least "
                f"{len(ratings.seatings(len(names), rules.players))} games, each match and pair "
                f"at least {2 * rules.players}"
            )
        pairs = len(names) * (len(names) - 1) // 2
        headline = 2 * study.headline_games + 2 * match
        skill = 2 * (study.skill_games // rules.players) * rules.players
        if skill < 1:
            raise SkillError(
                f"skill_games: too few for rule set {rule_set.label}: at least {rules.players}"
            )
        size = ladder + 3 * match + pairs * pair + headline + skill
        plans.append(RuleSetPlan(rule_set, rules, tuple(names), ladder, match, pair, size))
    return plans
