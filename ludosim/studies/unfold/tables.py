"""An unfold study's tables (`UnfoldTables`): the lead tables, the comeback measures, the
lead changes, the race checks and one row per rule set played; their files, written and
read back (`write_tables`, `read_tables`) so a page can be redrawn without playing again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ludosim.studies.study import read_frames, write_frames
from ludosim.studies.unfold.spec import UnfoldError, UnfoldStudy

LEADS_FILE = "leads.csv"
COMEBACKS_FILE = "comebacks.csv"
CHANGES_FILE = "lead_changes.csv"
RACE_FILE = "race_check.csv"
RUNS_FILE = "runs.csv"
RUN_COLUMNS = ("rule_set", "games", "decided", "every", "players", "race", "cut")


@dataclass
class UnfoldTables:
    """A study's tables; `runs` has one row per rule set (`RUN_COLUMNS`): games played,
    games with a winner, snapshot interval, players, the race in squares
    (`ludosim.studies.leads.race_length`), games cut at the snapshot cap."""

    study: UnfoldStudy
    leads: pd.DataFrame
    comebacks: pd.DataFrame
    changes: pd.DataFrame
    race: pd.DataFrame
    runs: pd.DataFrame

    def run(self, label: str) -> pd.Series:
        return self.runs.set_index("rule_set").loc[label]


def write_tables(tables: UnfoldTables, out: str | Path) -> Path:
    frames = {LEADS_FILE: tables.leads, COMEBACKS_FILE: tables.comebacks,
              CHANGES_FILE: tables.changes, RUNS_FILE: tables.runs}  # fmt: skip
    if len(tables.race):
        frames[RACE_FILE] = tables.race
    return write_frames(out, frames)


def read_tables(folder: str | Path, study: UnfoldStudy) -> UnfoldTables:
    """The tables `write_tables` wrote into `folder` for `study` (to redraw its page)."""
    names = (LEADS_FILE, COMEBACKS_FILE, CHANGES_FILE, RUNS_FILE)
    leads, comebacks, changes, runs = read_frames(folder, names, UnfoldError)
    race = read_frames(folder, (RACE_FILE,), UnfoldError)[0] if study.race_check else None
    return UnfoldTables(study, leads, comebacks, changes,
                        pd.DataFrame() if race is None else race, runs)  # fmt: skip
