"""The game as it unfolds, per rule set: the win chance from a lead, and comebacks.

For each rule set of a study (`UnfoldStudy`, a TOML file in `analyses/` or
options of `ludosim unfold`) the kernel plays `games` games with the
game-flow counters and snapshots of the seats' totals every `every` turns
(`ludosim.run.simulate.play_snapshots`, in slices so memory stays flat), and
this package turns them into:

- the **lead table** (`ludosim.studies.leads.LeadTable`): the leader's win chance by
  lead and phase, Wilson 95% intervals;
- the **comeback measures** of docs/flow.md, each with its 95% interval, on
  scales that compare boards and game lengths like with like: the share of
  games won by a seat that was last at mid-game (the first boundary at which a
  seat had run half its race), the share decided before mid-game, lead changes
  per round (a round: every seat taking one turn), the drama and the largest
  deficit overcome as shares of the race (`ludosim.studies.leads.race_length`), and
  when the game was decided as a share of its turns; for every rule set after
  the first with as many players, the change from the first with its interval;
- the **distribution of lead changes per round**;
- where the study names two-seat one-piece rule sets (`race_check`), the
  check of the lead table against the exact solver (`ludosim.studies.leads.RaceCheck`).

The page decides what it states as `ludosim.studies` says: every change from
the first rule set and every pair of rule sets behind the lead ranking in one
family of differences, every win chance against its reference (the fair share
1/players, or 3 to 1) in a family of values, both corrected by Holm. Where a
change stands against its measure's smallest change of interest (`FlowMeasure`)
is read from its interval, never from its estimate, and said as the sweep pages
say it (`ludosim.report.contrasts.practical_size`).

Every rule set plays the study's seed (game `g` of every rule set starts from
the same random stream); the race checks play `seed + 1`.

Its modules have the names every study's modules have (`ludosim.studies`), each
importing only from those before it: `spec` (what a study asks and its file), `plan`
(the parts in the order they are played), then the study's own `snapshots` (a rule set
played with snapshots, the race check) and `comebacks` (the comeback measures and the
lead tables), `tables` (written and read back), `play` (every part played into the
tables), `findings` (what the page states) and `page` (the page, and a study from its
games to its page). This package holds their public names.
"""

from __future__ import annotations

from ludosim.studies.unfold.comebacks import (
    COMEBACK_COLUMNS,
    MEASURES,
    PER_ROUND_BIN,
    PER_ROUND_CAP,
    FlowMeasure,
    comeback_table,
    comeback_values,
    lead_change_table,
    lead_tables,
)
from ludosim.studies.unfold.findings import (
    FAVOURITE,
    GLOSSARY_TERMS,
    LEAST_GAMES,
    MEASURE_TOPICS,
    QUOTED_BIN,
    QUOTED_LEAD,
    TITLES,
    UnfoldFindings,
    decide,
    favourite_lead,
    quoted_bin,
    study_findings,
)
from ludosim.studies.unfold.page import comeback_text, run_study, study_page
from ludosim.studies.unfold.plan import plan_study
from ludosim.studies.unfold.play import play_study
from ludosim.studies.unfold.snapshots import SLICE_GAMES, CellRun, play_cell, race_check
from ludosim.studies.unfold.spec import UnfoldError, UnfoldStudy, load_study
from ludosim.studies.unfold.tables import (
    CHANGES_FILE,
    COMEBACKS_FILE,
    LEADS_FILE,
    RACE_FILE,
    RUN_COLUMNS,
    RUNS_FILE,
    UnfoldTables,
    read_tables,
    write_tables,
)

__all__ = [
    "CHANGES_FILE",
    "COMEBACKS_FILE",
    "COMEBACK_COLUMNS",
    "FAVOURITE",
    "GLOSSARY_TERMS",
    "LEADS_FILE",
    "LEAST_GAMES",
    "MEASURES",
    "MEASURE_TOPICS",
    "PER_ROUND_BIN",
    "PER_ROUND_CAP",
    "QUOTED_BIN",
    "QUOTED_LEAD",
    "RACE_FILE",
    "RUNS_FILE",
    "RUN_COLUMNS",
    "SLICE_GAMES",
    "TITLES",
    "CellRun",
    "FlowMeasure",
    "UnfoldError",
    "UnfoldFindings",
    "UnfoldStudy",
    "UnfoldTables",
    "comeback_table",
    "comeback_text",
    "comeback_values",
    "decide",
    "favourite_lead",
    "lead_change_table",
    "lead_tables",
    "load_study",
    "plan_study",
    "play_cell",
    "play_study",
    "quoted_bin",
    "race_check",
    "read_tables",
    "run_study",
    "study_findings",
    "study_page",
    "write_tables",
]
