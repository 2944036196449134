"""Exact play in reduced games, and the skill pages' players measured against it.

A duels study (`DuelsStudy`, a TOML file in `analyses/`) names presets reduced to
duels (two players, one or two pieces each, the shortest board:
`ludosim.reference.duelgraph.duel_rules`). For each, this package

- solves it exactly (`ludosim.reference.duel`): random against random, the optimal
  player against random, best play by both, the clairvoyant, and the exact relative
  skill level RS;
- walks games on its graph (`ludosim.reference.duelgames`): the luck of every roll and
  the cost of every move under best play, and the shares of the result the turn order,
  the dice and the choices explain;
- plays the kernel's players (by default `balanced`, `expert` and `fictive`) against
  random play in the same reduced rules, and states how far each is from the exact
  number it stands for on the skill pages, and how far RS measured with them is from
  the exact RS.

Its modules are the stages every study has (`ludosim.studies`): `spec`, `plan`,
`tables`, `play`, `findings`, `page`.
"""

from __future__ import annotations

from ludosim.studies.duels.findings import TITLES, DuelsFindings, study_findings
from ludosim.studies.duels.page import GLOSSARY_TERMS, run_study, study_page
from ludosim.studies.duels.plan import plan_study
from ludosim.studies.duels.play import MATCHUPS, play_study
from ludosim.studies.duels.spec import PLAYERS, Duel, DuelsError, DuelsStudy, load_study
from ludosim.studies.duels.tables import (
    EXACT_FILE,
    LUCK_FILE,
    PLAYERS_FILE,
    DuelsTables,
    read_tables,
    write_tables,
)

__all__ = [
    "EXACT_FILE",
    "GLOSSARY_TERMS",
    "LUCK_FILE",
    "MATCHUPS",
    "PLAYERS",
    "PLAYERS_FILE",
    "TITLES",
    "Duel",
    "DuelsError",
    "DuelsFindings",
    "DuelsStudy",
    "DuelsTables",
    "load_study",
    "plan_study",
    "play_study",
    "read_tables",
    "run_study",
    "study_findings",
    "study_page",
    "write_tables",
]
