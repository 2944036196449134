"""A design played (`play_study`): the screening, the held-out rule sets and the
confirmation, each a stage played and measured (`ludosim.studies.design.stages`), with
the model fitted on the screening and checked on the rule sets it was not fitted on, and
the search between them; the tables of it all.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from ludosim.report.contrasts import CellSamples, Family
from ludosim.results.measures import DESIGN_MEASURES
from ludosim.results.parquet import check_output_folder
from ludosim.results.paths import MANIFEST
from ludosim.run.runstages import Stage as RunStage
from ludosim.run.runstages import announce
from ludosim.studies.design.confirmation import (
    COMPARISON_COLUMNS,
    CONFIRMED_COLUMNS,
    Player,
    confirm,
)
from ludosim.studies.design.effects import active_terms, effects_table, screening_tests
from ludosim.studies.design.findings import with_standings
from ludosim.studies.design.plan import Plan, holdout_codes, plan_study
from ludosim.studies.design.regression import (
    fit_model,
    screening_level,
    with_held_out_misfit,
)
from ludosim.studies.design.search import confirmation_noise, pick_candidates, search
from ludosim.studies.design.spec import (
    DesignStudy,
    Progress,
    _spell,
    stage_seed,
)
from ludosim.studies.design.stages import Stage, play_stage, run_stages
from ludosim.studies.design.tables import (
    DesignTables,
    check_table,
    games_played,
    is_design,
    stages_table,
)


def _points(plan: Plan, stage: Stage) -> pd.DataFrame:
    table = pd.DataFrame({"point": stage.ids, "stage": stage.name})
    for i, f in enumerate(plan.free):
        table[f.toggle] = [_spell(f.toggle, f.values[1 if x > 0 else 0]) for x in stage.codes[:, i]]
    table["label"] = [plan.label(row) for row in stage.codes]
    table["codes"] = [" ".join(f"{int(x):+d}" for x in row) for row in stage.codes]
    return table


def _earlier_design(folder: Path) -> bool:
    """`folder` holds an earlier design: its tables, or the screening's sweep of a design
    stopped before them (resumed)."""
    return is_design(folder) or (folder / "screen-random" / MANIFEST).is_file()


def _run_plan(plan: Plan, screen: Stage) -> list[RunStage]:
    """Every sweep the design plays, as stages of the run: the confirmation's rule sets
    as many as the candidates and the preset (fewer when near-copies are dropped)."""
    study = plan.study
    stages = [screen]
    held = holdout_codes(plan, study.holdout, study.seed) if study.holdout else []
    if len(held):
        stages.append(Stage("holdout", held, study.screen_games, study.skill_games, 0))
    rows = min(len(plan.codes), study.candidates + 1)
    confirm = Stage("confirm", plan.codes[:rows], study.confirm_games, 2 * study.skill_games, 0)
    stages.append(confirm)
    return [run for stage in stages for run in run_stages(plan, stage)]


def play_study(
    study: DesignStudy,
    out: str | Path,
    *,
    progress: Progress | None = None,
    player: Player | None = None,
    **run: Any,
) -> DesignTables:
    """Plan, play every stage (resuming what `out` holds) and compute the tables.

    `run` is passed to `ludosim.sweep.run_sweep` (`dask`, `workers`, `threads`).
    `player(plan, stage, out, progress=..., **run)` plays a stage and returns its
    measures and samples: `play_stage` (the kernel, through sweeps) unless given (a
    test double of the measures needs no kernel).
    """
    # Before any game: a folder of other files, and a line-up the rule sets refuse.
    out = check_output_folder(out, "design", own=_earlier_design)
    plan = plan_study(study)
    play = player or play_stage
    seed = stage_seed(study.seed, "screen")
    screen = Stage("screen", plan.codes, study.screen_games, study.skill_games, seed)
    announce(progress, _run_plan(plan, screen))
    measures, samples = play(plan, screen, out, progress=progress, **run)
    points = [_points(plan, screen)]
    family = Family("screening", "screening effects")
    tests = screening_tests(plan, screen, samples, family)
    family.adjust()  # within the screening: which interactions the model keeps
    effects = effects_table(plan, tests)
    models = {
        name: fit_model(
            name,
            plan.codes,
            measures[measures["measure"] == name].set_index("point").loc[screen.ids],
            active_terms(effects, name, plan),
            screening_level(samples, screen.ids, name),
            isinstance(samples.means[name], CellSamples),
        )
        for name in DESIGN_MEASURES
    }
    tables = [measures]
    stages = [screen]
    if study.holdout:
        held = Stage(
            "holdout",
            holdout_codes(plan, study.holdout, study.seed),
            study.screen_games,
            study.skill_games,
            stage_seed(study.seed, "holdout"),
        )
        if len(held.codes):
            table, _ = play(plan, held, out, progress=progress, **run)
            tables.append(table)
            points.append(_points(plan, held))
            stages.append(held)
            for name in DESIGN_MEASURES:
                rows = table[table["measure"] == name].set_index("point").loc[held.ids]
                models[name] = with_held_out_misfit(
                    models[name],
                    held.codes,
                    rows["estimate"].to_numpy(float),
                    rows["se"].to_numpy(float),
                )
    space = search(plan, models, confirmation_noise(study, measures))
    picked = pick_candidates(space, study.candidates)
    confirmed = pd.DataFrame(columns=list(CONFIRMED_COLUMNS))
    comparisons = pd.DataFrame(columns=list(COMPARISON_COLUMNS))
    if len(picked):
        table, confirmed, comparisons, stage = confirm(
            plan, picked, out, progress=progress, player=player, **run
        )
        tables.append(table)
        points.append(_points(plan, stage))
        stages.append(stage)
    all_points = pd.concat(points, ignore_index=True)
    all_measures = pd.concat(tables, ignore_index=True)
    checks = check_table(plan, models, all_measures, all_points, _checked(all_points, confirmed))
    found = DesignTables(
        study,
        plan,
        all_points,
        all_measures,
        effects,
        models,
        checks,
        space,
        confirmed,
        comparisons,
        games_played(all_measures),
        stages_table(stages),
    )
    return with_standings(found)


def _checked(points: pd.DataFrame, confirmed: pd.DataFrame) -> dict[str, list[str]]:
    """The rule sets that check the models: every held-out one, and every confirmed
    candidate the screening did not play (the model was fitted on those)."""
    out: dict[str, list[str]] = {}
    held = points.loc[points["stage"] == "holdout", "point"]
    if len(held):
        out["holdout"] = list(held)
    screened = set(points.loc[points["stage"] == "screen", "codes"])
    mine = points[(points["stage"] == "confirm") & points["point"].isin(confirmed["point"])]
    unseen = [
        str(p) for p, c in zip(mine["point"], mine["codes"], strict=True) if c not in screened
    ]
    if unseen:
        out["confirm"] = unseen
    return out
