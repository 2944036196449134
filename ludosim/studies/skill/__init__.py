"""How much each rule set rewards skill, and which way of playing is stable under it.

For each rule set (a preset plus `--set` toggles) and a ladder of players:

- the relative skill level RS = LE / (LE + RE) of Dreef, Borm and van der Genugten
  (2004) from the optimal and the fictive player against three `random` players
  (`ludosim.studies.relative_skill`), which the page ranks rule sets by;
- the ladder's multi-player ratings (`ludosim.studies.ratings`: openskill Plackett-Luce,
  bootstrap intervals), their spread (top minus bottom `mu`, and the standard
  deviation of `mu`, the rating spread of Duersch, Lambrecht and Oechssler 2020,
  with intervals from the same bootstrap refits);
- the strongest player (the ladder's top `mu`, or one named) against a field
  of `random` and a field of `balanced` players, in every seat position
  (`ludosim.studies.tournament`), win shares with Wilson 95% intervals;
- the fixed pair `balanced` against three `random` players, the same players
  under every rule set: one heuristic against random play, stated per rule set;
- head-to-head matches of every pair of ladder players: A in half the seats
  and B in the other half (`A,A,B,B` rotated through the four seat positions
  with four players; `A,B` rotated with two; with an odd number of seats A
  holds the larger half in half of the games and B in the other half). A's
  share of the decided games is its head-to-head win probability;
- from those the games the strongest player needs to be ahead of `balanced`
  and of `random` with 95% probability (`ratings.games_to_be_ahead`);
- the strategy meta-game: the symmetric zero-sum game whose payoff is the
  head-to-head share minus one half, its symmetric equilibrium mix by linear
  programming, and how often each player is in the equilibrium's support when
  the head-to-head matrix is resampled (binomial resamples of each pair's
  decided games).

Parts of a rule set play distinct games: the ladder plays the study's seed (as
`ludosim ratings --seed S` does), the match against random `seed + 1`, against
balanced `seed + 2`, every head-to-head pair `seed + 3` (common dice for all
pairs), the first-player runs `seed + 4` (random and skilled seats on the same
dice), the pacifist `seed + 5`, the skipper `seed + 6`, the fixed pair
`seed + 7`, and for RS the optimal player `seed + 8` and the fictive player
`seed + 9` (`relative_skill.OPTIMAL_SEED`, `FICTIVE_SEED`). Every rule set uses the
same seeds. Everything, bootstrap and
resamples included, follows from the seed.

What the page states, and how it decides it (the families, the fixed pair,
tuned players off their rules), is `study_findings`; docs/skill.md says it in
words.

`play_study` returns three tables (`SKILL_COLUMNS`, `LADDER_COLUMNS`,
`METAGAME_COLUMNS`) plus the head-to-head table (`PAIR_COLUMNS`) and the relative
skill levels (`relative_skill.RS_COLUMNS`);
`write_tables` writes them as CSV and `study_page` turns the tables into a page.

Its modules have the names every study's modules have (`ludosim.studies`), each
importing only from those before it: `spec` (what a study asks, its file), `plan` (each
rule set's ladder and sizes, the seeds of its parts), then the study's own `equilibrium`
(the meta-game) and `matches` (a player against a field, a head-to-head pair, the
headline answers), `tables` (the tables, written and read back), `play` (every rule set
played into the tables), `words` (the page's topics and glossary, a player off its
rules), `findings` (the page's tests and their sentences, what the page states) and
`page` (the page, and a study from its games to its page). This package holds their
public names.
"""

from __future__ import annotations

from ludosim.rules.options import RuleSet
from ludosim.studies.skill.equilibrium import resample_equilibria, symmetric_equilibrium
from ludosim.studies.skill.findings import CAPTURE_KINDS, study_findings
from ludosim.studies.skill.matches import (
    field_share,
    first_player_rows,
    head_to_head_seatings,
    headline_rows,
    play_pair,
)
from ludosim.studies.skill.page import run_study, study_page
from ludosim.studies.skill.plan import (
    BALANCED_SEED,
    FIRST_SEED,
    FIXED_SEED,
    LADDER_SEED,
    PACIFIST_SEED,
    PAIRS_SEED,
    RANDOM_SEED,
    SKIPPER_SEED,
    plan_study,
)
from ludosim.studies.skill.play import play_study
from ludosim.studies.skill.spec import (
    CONFIDENCE,
    FIXED_FIELD,
    FIXED_MEASURE,
    FIXED_PLAYER,
    OPPONENTS,
    SUPPORT_WEIGHT,
    SkillError,
    Study,
    default_players,
    load_study,
)
from ludosim.studies.skill.tables import (
    LADDER_COLUMNS,
    LADDER_FILE,
    METAGAME_COLUMNS,
    METAGAME_FILE,
    PAIR_COLUMNS,
    PAIRS_FILE,
    SKILL_COLUMNS,
    SKILL_FILE,
    SkillTables,
    read_tables,
    write_tables,
)
from ludosim.studies.skill.words import (
    GLOSSARY_TERMS,
    SMALLEST_EDGE,
    TITLES,
    TUNED_COLUMN,
    off_its_rules,
)

__all__ = [
    "BALANCED_SEED",
    "CAPTURE_KINDS",
    "CONFIDENCE",
    "FIRST_SEED",
    "FIXED_FIELD",
    "FIXED_MEASURE",
    "FIXED_PLAYER",
    "FIXED_SEED",
    "GLOSSARY_TERMS",
    "LADDER_COLUMNS",
    "LADDER_FILE",
    "LADDER_SEED",
    "METAGAME_COLUMNS",
    "METAGAME_FILE",
    "OPPONENTS",
    "PACIFIST_SEED",
    "PAIRS_FILE",
    "PAIRS_SEED",
    "PAIR_COLUMNS",
    "RANDOM_SEED",
    "SKILL_COLUMNS",
    "SKILL_FILE",
    "SKIPPER_SEED",
    "SMALLEST_EDGE",
    "SUPPORT_WEIGHT",
    "TITLES",
    "TUNED_COLUMN",
    "RuleSet",
    "SkillError",
    "SkillTables",
    "Study",
    "default_players",
    "field_share",
    "first_player_rows",
    "head_to_head_seatings",
    "headline_rows",
    "load_study",
    "off_its_rules",
    "plan_study",
    "play_pair",
    "play_study",
    "read_tables",
    "resample_equilibria",
    "run_study",
    "study_findings",
    "study_page",
    "symmetric_equilibrium",
    "write_tables",
]
