"""Every part of an unfold study played into its tables (`play_study`): the race checks,
then each rule set with its snapshots.
"""

from __future__ import annotations

import pandas as pd

from ludosim.run.runstages import Stage, announce, begin, game_cost
from ludosim.studies.parts import Parts
from ludosim.studies.unfold.comebacks import comeback_table, lead_change_table, lead_tables
from ludosim.studies.unfold.plan import Part, plan_study
from ludosim.studies.unfold.snapshots import play_cell, race_check
from ludosim.studies.unfold.spec import Progress, UnfoldStudy
from ludosim.studies.unfold.tables import RUN_COLUMNS, UnfoldTables


def play_study(
    study: UnfoldStudy,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
    parts: Parts | None = None,
) -> UnfoldTables:
    """Play every part of `study` (`plan_study`); its tables.

    With `parts` each race check and rule set is saved as soon as it is played, and
    those an earlier run of the same study saved are taken instead of played again:
    the tables are the same either way (`ludosim.studies.parts`)."""
    plan = plan_study(study)
    parts = parts or Parts(None)
    names = [f"{number}: {_kind(part)} {part.rule_set.label}"
             for number, part in enumerate(plan, 1)]  # fmt: skip
    saved, left = parts.pending(names, plan)
    total = sum(part.games for _, part in left)
    done = 0

    def ticks(before: int) -> Progress | None:
        if progress is None:
            return None
        return lambda k, _: progress(before + k, total)

    # Each part left a stage of the run; a race check's solo games, and every part's
    # random or weighted players, cost about a random game.
    announce(progress, [Stage(f"{_kind(p)} {p.rule_set.label}", p.games,
                              1.0 if p.race else game_cost(study.policies))
                        for _, p in left])  # fmt: skip
    for number, (name, part) in enumerate(left, 1):
        begin(progress, number, at=done)
        if part.race:
            table = race_check(part.rule_set, part.games, part.seed, threads=threads,
                               progress=ticks(done))  # fmt: skip
            table.insert(0, "rule_set", part.rule_set.label)
            saved[name] = table
        else:
            saved[name] = play_cell(
                part.rule_set, part.games, part.seed, part.every, study.policies,
                threads=threads, progress=ticks(done),
            )  # fmt: skip
        parts.save(name, saved[name])
        done += part.games
    checks = [saved[name] for name, part in zip(names, plan, strict=True) if part.race]
    runs = [saved[name] for name, part in zip(names, plan, strict=True) if not part.race]
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


def _kind(part: Part) -> str:
    return "race check" if part.race else "rule set"
