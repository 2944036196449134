"""What an unfold study asks (`UnfoldStudy`, `load_study`): its rule sets, size, seed,
snapshot interval and race checks, read from its file.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet, study_options
from ludosim.rules.policies import parse_policy, refuse_search_under_teams
from ludosim.studies import defaults
from ludosim.studies.leads import has_home_column
from ludosim.studies.study import (
    built_from_file,
    read_study_file,
    study_policies,
    study_rule_sets,
    study_seed,
)

Progress = Callable[[int, int], None]


class UnfoldError(LudosimError, ValueError):
    """A study that cannot be run: a bad study file, rule set or size."""


@dataclass(frozen=True)
class UnfoldStudy:
    """What to play: rule sets, size, seed, the snapshot interval and the race checks.

    `every` 0 means two rounds (2 x players turns) for each rule set;
    `race_check` rule sets must have two players of one piece each.
    """

    rule_sets: tuple[RuleSet, ...]
    seed: int
    games: int = defaults.UNFOLD["games"]
    every: int = defaults.UNFOLD["every"]
    policies: str = "random"
    race_check: tuple[RuleSet, ...] = ()
    race_games: int = defaults.UNFOLD["race_games"]
    name: str = "unfold"
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.rule_sets:
            raise UnfoldError("rule sets: name at least one preset")
        labels = [r.label for r in self.rule_sets]
        if len(set(labels)) != len(labels):
            raise UnfoldError(f"rule sets: each must appear once, got {', '.join(labels)}")
        for key in ("games", "race_games"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise UnfoldError(f"{key}: must be a positive number of games, got {value!r}")
        if isinstance(self.every, bool) or not isinstance(self.every, int) or self.every < 0:
            raise UnfoldError(
                f"every: must be a number of turns >= 1 (0: two rounds), got {self.every!r}"
            )
        if not isinstance(self.policies, str):
            raise UnfoldError(
                f"policies: must be a policy name or a comma-separated line-up, got "
                f"{self.policies!r}"
            )
        for name in self.policies.split(","):
            parse_policy(name.strip())
        seen: dict[str, str] = {}
        for rule_set in self.rule_sets:
            # A bad preset or toggle fails here, before anything is played.
            rules = rule_set.rules()
            digest = rules.hash()
            if digest in seen:
                raise UnfoldError(
                    f"rule sets: {rule_set.label!r} plays the same rules as {seen[digest]!r}; "
                    "drop one (a --set to a preset's own value changes nothing)"
                )
            seen[digest] = rule_set.label
            try:
                # Not after the rule sets before it are played: refused now.
                line_up = [name.strip() for name in self.policies.split(",")]
                refuse_search_under_teams(line_up, rules.teams)
            except LudosimError as exc:
                raise UnfoldError(f"rule set {rule_set.label!r}: {exc}") from None
            max_turns = rules.max_turns
            if self.every > max_turns:
                # No game lasts longer, so not one snapshot would be taken.
                raise UnfoldError(
                    f"every: a snapshot every {self.every} turns is never taken under "
                    f"{rule_set.label!r}, whose games stop at max_turns={max_turns}; "
                    f"allowed: 1..{max_turns}, or 0 for two rounds of the seats"
                )
        for rule_set in self.race_check:
            rules = rule_set.rules()
            if rules.players != 2 or rules.pieces != 1:
                raise UnfoldError(
                    f"race_check {rule_set.label!r}: needs players=2 and pieces=1 (the exact "
                    f"solver's two-seat race), got players={rules.players}, pieces={rules.pieces}"
                )
            if not has_home_column(rules):
                raise UnfoldError(
                    f"race_check {rule_set.label!r}: a lone piece finishes on entering its "
                    "goal squares (finish_in_home), so no position has the pieces apart for "
                    "good before the end; the exact check does not apply"
                )

    def every_for(self, rules: Rules) -> int:
        return self.every or 2 * rules.players

    def command(self) -> str:
        """The command line that plays this study (`ludosim unfold ...`)."""
        if self.source:
            return f"ludosim unfold {shlex.quote(self.source)}"
        parts = ["ludosim unfold", shlex.join(study_options(self.rule_sets))]
        if self.every:
            parts.append(f"--every {self.every}")
        if self.policies != "random":
            parts.append(f"--policy {shlex.quote(self.policies)}")
        parts.append(f"--games {self.games} --seed {self.seed}")
        return " ".join(parts)


_STUDY_KEYS = {
    "name", "seed", "games", "every", "policies", "rule_set", "race_check", "race_games",
}  # fmt: skip


def load_study(path: str | Path) -> UnfoldStudy:
    """A study from its TOML file: seed and sizes on top, `[[rule_set]]` and `[[race_check]]`."""
    data = read_study_file(path, _STUDY_KEYS, UnfoldError)
    seed = study_seed(path, data, UnfoldError)
    # Tables, or rule-set texts (`rule_set = ["app", "app+finish=bounce"]`).
    rule_sets = tuple(study_rule_sets(path, data, "rule_set", UnfoldError))
    race_check = tuple(study_rule_sets(path, data, "race_check", UnfoldError))
    sizes = {k: data[k] for k in ("games", "every", "race_games", "name") if k in data}
    if "policies" in data:
        sizes["policies"] = ",".join(study_policies(path, data, "policies", UnfoldError))
    return built_from_file(
        path,
        UnfoldError,
        lambda: UnfoldStudy(rule_sets, seed, race_check=race_check, source=str(path), **sizes),
    )
