"""An unfold study's tables (`UnfoldTables`): the lead tables, the comeback measures, the
lead changes, the race checks and one row per rule set played; their files, written and
read back (`write_tables`, `read_tables`) so a page can be redrawn without playing again.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

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
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    tables.leads.to_csv(folder / LEADS_FILE, index=False)
    tables.comebacks.to_csv(folder / COMEBACKS_FILE, index=False)
    tables.changes.to_csv(folder / CHANGES_FILE, index=False)
    tables.runs.to_csv(folder / RUNS_FILE, index=False)
    if len(tables.race):
        tables.race.to_csv(folder / RACE_FILE, index=False)
    return folder


def read_tables(folder: str | Path, study: UnfoldStudy) -> UnfoldTables:
    """The tables `write_tables` wrote into `folder` for `study` (to redraw its page)."""
    folder = Path(folder)
    try:
        race = pd.read_csv(folder / RACE_FILE) if study.race_check else pd.DataFrame()
        return UnfoldTables(
            study,
            pd.read_csv(folder / LEADS_FILE),
            pd.read_csv(folder / COMEBACKS_FILE),
            pd.read_csv(folder / CHANGES_FILE),
            race,
            pd.read_csv(folder / RUNS_FILE),
        )
    except OSError as exc:
        raise UnfoldError(f"{folder}: the study's tables cannot be read: {exc}") from None
