"""A design from end to end: every stage played into the tables (`play_study`), the tables
written and read back (`write_tables`, `read_tables`), a page redrawn from a design's
folder (`report_study`) and all of it at once (`run_study`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.contrasts import CellSamples, Family
from ludosim.results.measures import DESIGN_MEASURES
from ludosim.studies.design.confirmation import (
    COMPARISON_COLUMNS,
    CONFIRMED_COLUMNS,
    Player,
    confirm,
)
from ludosim.studies.design.decisions import decided, with_standings
from ludosim.studies.design.effects import active_terms, alias_table, effects_table, screening_tests
from ludosim.studies.design.plan import Plan, holdout_codes, plan_study
from ludosim.studies.design.regression import (
    Model,
    fit_model,
    screening_level,
    with_held_out_misfit,
)
from ludosim.studies.design.space import confirmation_noise, pick_candidates, same_games_as, search
from ludosim.studies.design.stages import Stage, play_stage
from ludosim.studies.design.study import (
    DesignError,
    DesignStudy,
    Progress,
    _spell,
    stage_seed,
    study_dict,
    study_from_dict,
)
from ludosim.studies.design.studypage import study_page
from ludosim.studies.design.tables import DesignTables, check_table, games_played, stages_table

STUDY_FILE = "design.json"


MODEL_FILE = "model.json"


CSV_FILES = (
    "points",
    "measures",
    "effects",
    "checks",
    "search",
    "confirmed",
    "comparisons",
    "stages",
)


def _points(plan: Plan, stage: Stage) -> pd.DataFrame:
    table = pd.DataFrame({"point": stage.ids, "stage": stage.name})
    for i, f in enumerate(plan.free):
        table[f.toggle] = [_spell(f.toggle, f.values[1 if x > 0 else 0]) for x in stage.codes[:, i]]
    table["label"] = [plan.label(row) for row in stage.codes]
    table["codes"] = [" ".join(f"{int(x):+d}" for x in row) for row in stage.codes]
    return table


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
    out = Path(out)
    plan = plan_study(study)
    play = player or play_stage
    seed = stage_seed(study.seed, "screen")
    screen = Stage("screen", plan.codes, study.screen_games, study.skill_games, seed)
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


def write_tables(tables: DesignTables, out: str | Path) -> Path:
    """The tables as CSV, the study and the models as JSON, into `out`.

    effects.csv and comparisons.csv carry the page's decision (`p_adjusted` and
    `resolved`: Holm over every comparison the page states; `size`: where the
    interval stands against the smallest effect of interest); effects.csv keeps the
    screening's own adjustment, which chose the model's interactions, as
    `p_screening`. aliases.csv lists the design's aliased terms (`alias_table`)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    page = decided(tables)
    frames = {name: getattr(tables, name) for name in CSV_FILES}
    frames["effects"] = page.effects
    frames["comparisons"] = page.comparisons
    for name, frame in frames.items():
        if name == "search":
            frame = frame.assign(codes=[" ".join(f"{x:+d}" for x in c) for c in frame["codes"]])
        frame.to_csv(folder / f"{name}.csv", index=False)
    alias_table(tables.plan).to_csv(folder / "aliases.csv", index=False)
    (folder / STUDY_FILE).write_text(
        json.dumps({**study_dict(tables.study), "games": tables.games}, indent=1) + "\n",
        encoding="utf-8",
    )
    models = {
        name: {
            "terms": [list(t) for t in m.terms],
            "coef": m.coef.tolist(),
            "cov": m.cov.tolist(),
            "misfit": m.misfit,
            "screened_misfit": m.screened_misfit,
            "level": m.level,
            "df": m.df,
        }
        for name, m in tables.models.items()
    }
    (folder / MODEL_FILE).write_text(json.dumps(models) + "\n", encoding="utf-8")
    return folder


def read_tables(folder: str | Path) -> DesignTables:
    """A design's tables from the CSV and JSON files `write_tables` wrote."""
    folder = Path(folder)
    try:
        data = json.loads((folder / STUDY_FILE).read_text(encoding="utf-8"))
        raw = json.loads((folder / MODEL_FILE).read_text(encoding="utf-8"))
        frames = {
            n: pd.read_csv(folder / f"{n}.csv", keep_default_na=False, na_values=[""])
            for n in CSV_FILES
        }
    except (OSError, ValueError) as exc:
        raise DesignError(
            f"{folder} holds no design's tables ({exc}); run ludosim design"
        ) from None
    if "optimal" not in data:
        raise DesignError(
            f"{folder / STUDY_FILE} holds a design whose skill measure is not the relative "
            "skill level (written by an earlier ludosim); rerun ludosim design on the study"
        )
    study = study_from_dict(data)
    plan = plan_study(study)
    if any("misfit" not in m for m in raw.values()):
        raise DesignError(
            f"{folder / MODEL_FILE} holds models without a lack-of-fit variance (written by an "
            "earlier ludosim); rerun ludosim design on the study to refit them"
        )
    models = {
        n: Model(
            n,
            [tuple(t) for t in m["terms"]],
            np.array(m["coef"]),
            np.array(m["cov"]),
            float(m["misfit"]),
            float(m["level"]),
            int(m["df"]),
            float(m.get("screened_misfit", m["misfit"])),
        )
        for n, m in raw.items()
    }
    # The page decides effects and comparisons anew: back to the screening's adjustment,
    # without what write_tables added.
    effects = frames["effects"]
    if "p_screening" in effects.columns:
        effects = effects.assign(p_adjusted=effects["p_screening"])
    frames["effects"] = effects.drop(columns=["p_screening", "size"], errors="ignore")
    frames["comparisons"] = frames["comparisons"][list(COMPARISON_COLUMNS)]
    search = frames["search"]
    search["codes"] = [tuple(int(x) for x in c.split()) for c in search["codes"]]
    if "same_as" in search.columns:  # "" (itself) reads back as a missing value
        search["same_as"] = search["same_as"].astype(object).where(search["same_as"].notna(), "")
    else:  # tables written before the search said which rule sets play the same games
        search["same_as"] = same_games_as(plan, np.array([list(c) for c in search["codes"]]))
    for column in ("point", "label"):
        for name in ("points", "measures", "checks", "confirmed"):
            if column in frames[name].columns:
                frames[name][column] = frames[name][column].astype(str)
    return DesignTables(
        study,
        plan,
        frames["points"],
        frames["measures"],
        frames["effects"],
        models,
        frames["checks"],
        search,
        frames["confirmed"],
        frames["comparisons"],
        {k: int(v) for k, v in data.get("games", {}).items()},
        frames["stages"].astype({"seed": str, "fictive_seed": str}),
    )


def is_design(folder: str | Path) -> bool:
    """Whether `folder` holds a design's tables (`ludosim design` wrote it)."""
    return (Path(folder) / STUDY_FILE).is_file()


def report_study(folder: str | Path, out: str | Path, title: str | None = None) -> Path:
    """A design's tables and page, read from `folder` and written into `out` (without the
    stages' sweeps: `make reports` keeps those under runs/)."""
    tables = read_tables(folder)
    write_tables(tables, out)
    return study_page(tables, out, title, played=folder)


def run_study(
    study: DesignStudy,
    out: str | Path,
    *,
    progress: Progress | None = None,
    player: Player | None = None,
    **run: Any,
) -> Path:
    """plan -> play -> tables -> findings -> page, into `out`; the page's path."""
    if not isinstance(study, DesignStudy):
        raise DesignError(
            f"run_study: study must be a DesignStudy (load_study or study_from_options), "
            f"got {study!r}"
        )
    if not isinstance(out, (str, Path)) or not str(out).strip():
        raise DesignError(f"run_study: out must be a folder's path, got {out!r}")
    tables = play_study(study, out, progress=progress, player=player, **run)
    write_tables(tables, out)
    return study_page(tables, out)
