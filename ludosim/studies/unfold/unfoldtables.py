"""Every rule set and race check of a study played into its tables (`play_study`),
and the tables written and read back (`UnfoldTables`, `write_tables`, `read_tables`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from ludosim.studies.unfold.comebacks import comeback_table, lead_change_table, lead_tables
from ludosim.studies.unfold.snapshots import play_cell, race_check
from ludosim.studies.unfold.unfoldstudy import Progress, UnfoldError, UnfoldStudy

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


def play_study(
    study: UnfoldStudy, *, threads: int | None = None, progress: Progress | None = None
) -> UnfoldTables:
    """Play every rule set and race check of `study`; its tables."""
    total = study.games * len(study.rule_sets) + study.race_games * len(study.race_check)
    done = 0

    def part(before: int) -> Progress | None:
        if progress is None:
            return None
        return lambda k, _: progress(before + k, total)

    # The race checks are quick: played first, a failing one costs no long run.
    checks = []
    for rule_set in study.race_check:
        table = race_check(rule_set, study.race_games, study.seed + 1, threads=threads,
                           progress=part(done))  # fmt: skip
        table.insert(0, "rule_set", rule_set.label)
        checks.append(table)
        done += study.race_games
    runs = []
    for rule_set in study.rule_sets:
        rules = rule_set.rules()
        runs.append(play_cell(rule_set, study.games, study.seed, study.every_for(rules),
                              study.policies, threads=threads, progress=part(done)))  # fmt: skip
        done += study.games
    race = pd.concat(checks, ignore_index=True) if checks else pd.DataFrame()
    return UnfoldTables(
        study,
        lead_tables(runs),
        comeback_table(runs),
        lead_change_table(runs),
        race,
        pd.DataFrame(
            [(r.rule_set.label, r.leads.played, r.leads.decided, r.every, r.rules.players,
              r.leads.race, r.leads.cut) for r in runs],
            columns=list(RUN_COLUMNS),
        ),
    )  # fmt: skip


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
