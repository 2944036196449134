"""What a duels study asks (`DuelsStudy`, `load_study`): its reduced games, their sizes,
the seed and the players measured against exact play, read from its file.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludosim.reference.duelgraph import check_duel, duel_rules
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.options import RuleSet, parse_sets, set_text
from ludosim.rules.policies import parse_policy
from ludosim.studies import defaults
from ludosim.studies.study import built_from_file, read_study_file, study_policies, study_seed

# The players measured against exact play by default: the ladder's middle heuristic, the
# optimal player and the fictive player of the skill pages.
PLAYERS = ("balanced", "expert", "fictive")


class DuelsError(LudosimError, ValueError):
    """A duels study that cannot be run: a bad study file, reduced game or size."""


@dataclass(frozen=True)
class Duel:
    """A preset reduced to a duel (`duel_rules`): `pieces` a side, then the changes `sets`
    (applied after the reduction, so `home_len=1` or `entry=21` shorten it further)."""

    preset: str
    pieces: int = 2
    sets: tuple[str, ...] = ()
    name: str = ""

    @property
    def label(self) -> str:
        return self.name or " ".join([self.preset, f"pieces={self.pieces}", *self.sets])

    def rules(self) -> Rules:
        return duel_rules(Rules.preset(self.preset), self.pieces, **parse_sets(self.sets))

    def rule_set(self) -> RuleSet:
        return RuleSet(self.preset, (f"pieces={self.pieces}", *self.sets), self.name)


@dataclass(frozen=True)
class DuelsStudy:
    """What to solve and play: the duels, the clairvoyant's dice sequences, the games
    walked on each duel's graph per pair of players (luck and cost), the kernel's games
    per player against random play, and the smallest gaps that matter."""

    duels: tuple[Duel, ...]
    seed: int
    sequences: int = defaults.DUELS["sequences"]
    luck_games: int = defaults.DUELS["luck_games"]
    player_games: int = defaults.DUELS["player_games"]
    players: tuple[str, ...] = PLAYERS
    smallest_win: float = 0.02  # a win share 2 points from exact play matters
    smallest_rs: float = 0.05  # as the skill pages' RS differences
    name: str = "duels"
    source: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if not self.duels:
            raise DuelsError("duels: name at least one [[duel]] with a preset")
        labels = [d.label for d in self.duels]
        if len(set(labels)) != len(labels):
            raise DuelsError(f"duels: each must appear once, got {', '.join(labels)}")
        for key in ("sequences", "luck_games", "player_games"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, int) or value < 2:
                raise DuelsError(f"{key}: must be a whole number >= 2, got {value!r}")
        for key in ("smallest_win", "smallest_rs"):
            value = getattr(self, key)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value < 1:
                raise DuelsError(f"{key}: must be a number between 0 and 1, got {value!r}")
        for player in self.players:
            parse_policy(player)
        for duel in self.duels:
            if duel.pieces not in (1, 2):
                raise DuelsError(f"duel {duel.label!r}: pieces must be 1 or 2, got {duel.pieces!r}")
            try:
                check_duel(duel.rules())
            except LudosimError as exc:
                raise DuelsError(f"duel {duel.label!r}: {exc}") from None

    def command(self, out: str = "") -> str:
        """The command line that plays this study."""
        where = f" --out {shlex.quote(out)}" if out else ""
        return f"ludosim duels {shlex.quote(self.source or 'STUDY.toml')}{where}"


_STUDY_KEYS = {
    "name", "seed", "sequences", "luck_games", "player_games", "players", "smallest_win",
    "smallest_rs", "duel",
}  # fmt: skip
_DUEL_KEYS = {"preset", "pieces", "set", "name"}


def _duel(path: Any, item: Any) -> Duel:
    where = f"study file {path}: duel"
    if not isinstance(item, Mapping) or not isinstance(item.get("preset"), str):
        raise DuelsError(f"{where} must be a [[duel]] table with a preset, got {item!r}")
    unknown = set(item) - _DUEL_KEYS
    if unknown:
        raise DuelsError(
            f"{where}: unknown keys {', '.join(sorted(unknown))}; allowed: "
            f"{', '.join(sorted(_DUEL_KEYS))}"
        )
    sets = item.get("set", {})
    if isinstance(sets, Mapping):
        sets = [set_text(k, v) for k, v in sets.items()]
    elif isinstance(sets, str) or not all(isinstance(s, str) for s in sets):
        raise DuelsError(f"{where}.set must be a table of TOGGLE = value, got {sets!r}")
    pieces = item.get("pieces", 2)
    if isinstance(pieces, bool) or not isinstance(pieces, int):
        raise DuelsError(f"{where}.pieces must be 1 or 2, got {pieces!r}")
    return Duel(item["preset"], pieces, tuple(sets), str(item.get("name", "")))


def load_study(path: str | Path) -> DuelsStudy:
    """A study from its TOML file: seed and sizes on top, one `[[duel]]` per reduced game."""
    data = read_study_file(path, _STUDY_KEYS, DuelsError)
    seed = study_seed(path, data, DuelsError)
    items = data.get("duel", [])
    if not isinstance(items, list):
        raise DuelsError(f"study file {path}: duel must be [[duel]] tables, got {items!r}")
    sizes = {k: data[k] for k in _STUDY_KEYS - {"seed", "duel", "players"} if k in data}
    if "players" in data:
        sizes["players"] = tuple(study_policies(path, data, "players", DuelsError))
    return built_from_file(
        path,
        DuelsError,
        lambda: DuelsStudy(tuple(_duel(path, i) for i in items), seed, source=str(path), **sizes),
    )
