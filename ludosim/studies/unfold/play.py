"""Every part of an unfold study played into its tables (`play_study`): the race checks,
then each rule set with its snapshots.
"""

from __future__ import annotations

import pandas as pd

from ludosim.run.runstages import Stage, announce, begin, game_cost
from ludosim.studies.unfold.comebacks import comeback_table, lead_change_table, lead_tables
from ludosim.studies.unfold.plan import plan_study
from ludosim.studies.unfold.snapshots import play_cell, race_check
from ludosim.studies.unfold.spec import Progress, UnfoldStudy
from ludosim.studies.unfold.tables import RUN_COLUMNS, UnfoldTables


def play_study(
    study: UnfoldStudy, *, threads: int | None = None, progress: Progress | None = None
) -> UnfoldTables:
    """Play every part of `study` (`plan_study`); its tables."""
    parts = plan_study(study)
    total = sum(part.games for part in parts)
    done = 0

    def ticks(before: int) -> Progress | None:
        if progress is None:
            return None
        return lambda k, _: progress(before + k, total)

    checks, runs = [], []
    # Each part a stage of the run; a race check's solo games, and every part's random
    # or weighted players, cost about a random game.
    announce(progress, [Stage(f"{'race check' if p.race else 'rule set'} {p.rule_set.label}",
                              p.games, 1.0 if p.race else game_cost(study.policies))
                        for p in parts])  # fmt: skip
    for number, part in enumerate(parts, 1):
        begin(progress, number, at=done)
        if part.race:
            table = race_check(part.rule_set, part.games, part.seed, threads=threads,
                               progress=ticks(done))  # fmt: skip
            table.insert(0, "rule_set", part.rule_set.label)
            checks.append(table)
        else:
            runs.append(
                play_cell(part.rule_set, part.games, part.seed, part.every, study.policies,
                          threads=threads, progress=ticks(done))
            )  # fmt: skip
        done += part.games
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
