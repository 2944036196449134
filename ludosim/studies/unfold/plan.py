"""What an unfold study plays, in order (`plan_study`): the race checks first (they are
quick, so a failing one costs no long run), then each rule set with its snapshot
interval (`UnfoldStudy.every_for`); the race checks on the seed after the study's.
"""

from __future__ import annotations

from dataclasses import dataclass

from ludosim.rules.options import RuleSet
from ludosim.studies.unfold.spec import UnfoldStudy


@dataclass(frozen=True)
class Part:
    """A rule set to play: a race check against the exact solver, or a rule set with
    snapshots every `every` turns."""

    rule_set: RuleSet
    games: int
    seed: int
    race: bool
    every: int = 0


def plan_study(study: UnfoldStudy) -> list[Part]:
    """The study's parts, in the order they are played."""
    races = [Part(r, study.race_games, study.seed + 1, True) for r in study.race_check]
    return races + [
        Part(r, study.games, study.seed, False, study.every_for(r.rules())) for r in study.rule_sets
    ]
