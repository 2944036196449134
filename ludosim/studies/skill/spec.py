"""What a skill study asks (`Study`, `load_study`): its rule sets, ladder, sizes and
seed, read from its file, and the pair it compares between rule sets.
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludosim.rules.errors import LudosimError
from ludosim.rules.options import RuleSet, study_options
from ludosim.rules.policies import TUNED_PREFIX, PolicyError, parse_policy, tuned_names
from ludosim.studies import defaults, ratings, relative_skill
from ludosim.studies.study import (
    built_from_file,
    read_study_file,
    study_policies,
    study_rule_sets,
    study_seed,
)

Progress = Callable[[int, int], None]

OPPONENTS = ("random", "balanced")  # the fields the strongest player is measured against
CONFIDENCE = 0.95  # "ahead with 95% probability"
SUPPORT_WEIGHT = 1e-3  # an equilibrium weight above this puts the player in the support
# The pair compared between rule sets: the same players under every rule set.
FIXED_PLAYER, FIXED_FIELD = "balanced", "random"
FIXED_MEASURE = "balanced_share_vs_random"


class SkillError(LudosimError, ValueError):
    """A skill study that cannot be run: a bad study file, ladder or size."""


@dataclass(frozen=True)
class Study:
    """What to play: rule sets, the ladder and the sizes.

    games: ladder games per rule set (over all seatings); match_games: games of
    the strongest player against each field (over the seat rotations);
    pair_games: games of each head-to-head pair; bootstrap: rating refits for
    the intervals of ratings and spreads; headline_games: games of the
    first-player advantage with random and with skilled seats (`headline_rows`);
    resamples: head-to-head matrices
    resampled for the equilibrium's sensitivity; skill_games: games of the optimal and
    of the fictive player against three random players, each, for the relative skill
    level (`ludosim.studies.relative_skill`); optimal: the optimal player, one name for
    every rule set or (rule set label, name) pairs, `expert` for a rule set not named;
    fictive: the fictive player.
    """

    rule_sets: tuple[RuleSet, ...]
    seed: int
    players: tuple[str, ...] | None = None
    strongest: str | None = None
    games: int = defaults.SKILL["games"]
    match_games: int = defaults.SKILL["match_games"]
    pair_games: int = defaults.SKILL["pair_games"]
    bootstrap: int = defaults.SKILL["bootstrap"]
    resamples: int = defaults.SKILL["resamples"]
    headline_games: int = defaults.SKILL["headline_games"]
    skill_games: int = defaults.SKILL["skill_games"]
    optimal: str | tuple[tuple[str, str], ...] = relative_skill.DEFAULT_OPTIMAL
    fictive: str = relative_skill.DEFAULT_FICTIVE
    name: str = "skill"
    source: str = field(default="", compare=False)  # the study file, if read from one

    def __post_init__(self) -> None:
        if not self.rule_sets:
            raise SkillError("rule sets: name at least one preset")
        labels = [r.label for r in self.rule_sets]
        if len(set(labels)) != len(labels):
            raise SkillError(f"rule sets: each must appear once, got {', '.join(labels)}")
        for key in ("games", "match_games", "pair_games", "headline_games", "skill_games"):
            value = getattr(self, key)
            if not _whole(value) or value < 1:
                raise SkillError(f"{key}: must be a positive number of games, got {value!r}")
        for key in ("bootstrap", "resamples"):
            value = getattr(self, key)
            if not _whole(value) or value < 0:
                raise SkillError(f"{key}: must be a whole number, 0 or more, got {value!r}")
        for rule_set in self.rule_sets:
            rule_set.rules()  # a bad preset or toggle fails here, before anything is played
        for name in [*(self.players or ()), *([self.strongest] if self.strongest else [])]:
            parse_policy(name)
        for key in ("optimal", "fictive"):
            for name in _optimal_names(getattr(self, key), key, labels):
                try:
                    parse_policy(name)
                except PolicyError as exc:
                    raise SkillError(f"{key}: {exc}") from None

    def command(self) -> str:
        """The command line that plays this study (`ludosim skill ...`)."""
        if self.source:
            return f"ludosim skill {shlex.quote(self.source)}"
        parts = ["ludosim skill", shlex.join(study_options(self.rule_sets))]
        if self.players:
            parts.append(f"--policy {shlex.quote(','.join(self.players))}")
        if self.strongest:
            parts.append(f"--strongest {shlex.quote(self.strongest)}")
        parts.append(
            f"--games {self.games} --match-games {self.match_games} "
            f"--headline-games {self.headline_games} "
            f"--pair-games {self.pair_games} --bootstrap {self.bootstrap} "
            f"--resamples {self.resamples} --skill-games {self.skill_games} --seed {self.seed}"
        )
        if isinstance(self.optimal, str) and self.optimal != relative_skill.DEFAULT_OPTIMAL:
            parts.append(f"--optimal {shlex.quote(self.optimal)}")
        if self.fictive != relative_skill.DEFAULT_FICTIVE:
            parts.append(f"--fictive {shlex.quote(self.fictive)}")
        return " ".join(parts)

    def optimal_player(self, rule_set: str) -> str:
        """The optimal player of the rule set labelled `rule_set` (its RS's W(optimal))."""
        chosen = self.optimal if isinstance(self.optimal, str) else dict(self.optimal)
        return relative_skill.optimal_for(chosen, rule_set)


def _whole(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _optimal_names(value: object, key: str, labels: list[str]) -> list[str]:
    """The player names of `optimal` or `fictive`: one name, or (label, name) pairs
    whose labels are rule sets of the study."""
    if isinstance(value, str) and value.strip():
        return [value]
    if key == "optimal" and isinstance(value, tuple) and value:
        for pair in value:
            if not (isinstance(pair, tuple) and len(pair) == 2
                    and all(isinstance(x, str) for x in pair)):  # fmt: skip
                raise SkillError(f"optimal: a table of rule set = player, got {value!r}")
            if pair[0] not in labels:
                raise SkillError(
                    f"optimal: no rule set is named {pair[0]!r}; the rule sets are "
                    f"{', '.join(labels)}"
                )
        return [name for _, name in value]
    form = "a player name, or a table of rule set = player" if key == "optimal" else (
        "a player name")  # fmt: skip
    raise SkillError(f"{key}: must be {form}, got {value!r}")


_STUDY_KEYS = {
    "name", "seed", "players", "strongest", "games", "match_games", "pair_games", "headline_games",
    "bootstrap", "resamples", "rule_set", "skill_games", "optimal", "fictive",
}  # fmt: skip


def load_study(path: str | Path) -> Study:
    """A study from its TOML file: sizes and seed on top, one `[[rule_set]]` per rule set.

    Each `[[rule_set]]` has `preset`, optional `set` (a list of `TOGGLE=VALUE`)
    and optional `name`. `players` is a list of policy names (default:
    `default_players` of each rule set's preset).
    """
    data = read_study_file(path, _STUDY_KEYS, SkillError)
    seed = study_seed(path, data, SkillError)
    # Tables, or rule-set texts (`rule_set = ["app", "app+finish=bounce"]`).
    sets = study_rule_sets(path, data, "rule_set", SkillError)
    sizes = {k: data[k] for k in ("games", "match_games", "pair_games", "headline_games",
                                  "bootstrap", "resamples", "skill_games")
             if k in data}  # fmt: skip
    players = (
        tuple(study_policies(path, data, "players", SkillError)) if "players" in data else None
    )
    chosen: dict[str, Any] = {}
    if "optimal" in data:
        optimal = data["optimal"]
        # A table names the optimal player per rule set label: kept as pairs, so the
        # study stays hashable and compares by value.
        chosen["optimal"] = tuple(optimal.items()) if isinstance(optimal, dict) else optimal
    if "fictive" in data:
        chosen["fictive"] = data["fictive"]

    def study() -> Study:
        return Study(
            tuple(sets), seed, players, data.get("strongest"),
            name=data.get("name", "skill"), source=str(path), **sizes, **chosen,
        )  # fmt: skip

    return built_from_file(path, SkillError, study)


def default_players(preset: str) -> list[str]:
    """The default ladder: the named policies of `ratings.DEFAULT_PLAYERS`, and
    `tuned-<preset>` when one is shipped."""
    players = list(ratings.DEFAULT_PLAYERS)
    tuned = TUNED_PREFIX + preset
    if tuned in tuned_names():
        players.append(tuned)
    return players
