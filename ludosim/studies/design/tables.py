"""A design's tables (`DesignTables`): the rule sets played, their measures, the screening's
effects, the models and their check on rule sets they were not fitted on (`check_table`),
the search, the confirmed candidates and the stages (`stages_table`); written and read
back (`write_tables`, `read_tables`, `is_design`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from ludosim.studies.design.confirmation import COMPARISON_COLUMNS, PRESET, preset_codes
from ludosim.studies.design.effects import alias_table
from ludosim.studies.design.plan import Plan, plan_study
from ludosim.studies.design.regression import Model, with_held_out_misfit
from ludosim.studies.design.search import same_games_as
from ludosim.studies.design.spec import (
    DesignError,
    DesignStudy,
    player_seed,
    study_dict,
    study_from_dict,
)
from ludosim.studies.design.stages import Stage

TABLES = ("points", "measures", "effects", "model", "checks", "candidates", "confirmed")


@dataclass
class DesignTables:
    """Everything a design's page is made of (each a CSV of the study's folder).

    points: every rule set played (`point`, `stage`, the free toggles' values,
    `label`); measures: each measure of each played rule set with its interval;
    effects: the screening's effect of every term on every measure (p-values
    before the page's correction); model: each measure's terms and coefficients,
    with the covariance the explorer needs; checks: predicted against measured for
    the held-out and confirmed rule sets; search: every rule set of the space,
    predicted; confirmed: each candidate and its standing as the page decides it;
    comparisons: the confirmation's paired differences; stages: each stage's seed and
    games (the stages play disjoint games).
    """

    study: DesignStudy
    plan: Plan
    points: pd.DataFrame
    measures: pd.DataFrame
    effects: pd.DataFrame
    models: dict[str, Model]
    checks: pd.DataFrame
    search: pd.DataFrame
    confirmed: pd.DataFrame
    comparisons: pd.DataFrame
    games: dict[str, int] = field(default_factory=dict)  # games played per stage
    stages: pd.DataFrame = field(default_factory=pd.DataFrame)  # seeds and sizes per stage


def _codes_of(points: pd.DataFrame, ids: Sequence[str]) -> np.ndarray:
    by = points.drop_duplicates("point").set_index("point")["codes"]
    return np.array([[float(x) for x in by[p].split()] for p in ids])


def _noise(table: pd.DataFrame, ids: Sequence[str], measure: str) -> np.ndarray:
    rows = table[table["measure"] == measure].set_index("point")
    return rows.loc[list(ids), "se"].to_numpy(float)


def check_table(
    plan: Plan,
    models: Mapping[str, Model],
    measures: pd.DataFrame,
    points: pd.DataFrame,
    checked: Mapping[str, Sequence[str]],
) -> pd.DataFrame:
    """Each model's 95% prediction interval against the measurement, for rule sets it was
    not fitted on, with the measurement's own noise. `checked`: stage -> the rule sets of
    it to check. The holdout also estimates the lack of fit (`with_held_out_misfit`), so
    each held-out rule set is checked by the model whose lack of fit comes from the
    other held-out ones (leave one out): no measurement checks an interval it shaped."""
    rows = []
    for stage, ids in checked.items():
        ids = list(ids)
        if not ids:
            continue
        codes = _codes_of(points, ids)
        for name, model in models.items():
            noise = _noise(measures[measures["stage"] == stage], ids, name)
            got = measures[(measures["stage"] == stage) & (measures["measure"] == name)]
            got = got.set_index("point").loc[ids, "estimate"].to_numpy(float)
            if stage == "holdout":
                parts = []
                for j in range(len(ids)):
                    rest = np.arange(len(ids)) != j
                    own = with_held_out_misfit(model, codes[rest], got[rest], noise[rest])
                    parts.append(own.predict(codes[j : j + 1], noise[j : j + 1]))
                mean, low, high = (np.concatenate([p[k] for p in parts]) for k in range(3))
            else:
                mean, low, high = model.predict(codes, noise)
            for p, m, lo, hi, g in zip(ids, mean, low, high, got, strict=True):
                rows.append(
                    {
                        "stage": stage,
                        "point": p,
                        "measure": name,
                        "predicted": m,
                        "pi_low": lo,
                        "pi_high": hi,
                        "measured": g,
                        "inside": bool(lo <= g <= hi),
                    }
                )
    return pd.DataFrame(
        rows,
        columns=[
            "stage",
            "point",
            "measure",
            "predicted",
            "pi_low",
            "pi_high",
            "measured",
            "inside",
        ],
    )


def stages_table(stages: Sequence[Stage]) -> pd.DataFrame:
    """Each stage's rule sets, games and master seeds: the seeds differ, so no stage
    replays another's games (each sweep's manifest.json records the same seed). `seed`
    is the random-seat and the optimal player's sweeps', `fictive_seed` the fictive
    player's (`player_seed`); `skill_games` are each player's per rule set."""
    return pd.DataFrame(
        [
            {
                "stage": st.name,
                "rule_sets": len(st.ids),
                "games": st.games,
                "skill_games": st.skill_games,
                "seed": str(st.seed),
                "fictive_seed": str(player_seed(st.seed)),
            }
            for st in stages
        ],
        columns=["stage", "rule_sets", "games", "skill_games", "seed", "fictive_seed"],
    )


def games_played(measures: pd.DataFrame) -> dict[str, int]:
    """Games decided per stage: every rule set's random-seat games and both skill
    players' games."""

    rows = measures[measures["measure"].isin(["length", "skill"])]
    return {str(k): int(v) for k, v in rows.groupby("stage", sort=False)["games"].sum().items()}


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


def write_tables(tables: DesignTables, out: str | Path) -> Path:
    """The tables as CSV, the study and the models as JSON, into `out`.

    effects.csv holds the screening's own adjustment (`p_adjusted`, which chose the
    model's interactions) until the page is written beside it: `study_page` rewrites
    effects.csv and comparisons.csv with the page's decision. aliases.csv lists the
    design's aliased terms (`alias_table`)."""
    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    frames = {name: getattr(tables, name) for name in CSV_FILES}
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
    # without what the page added (`study_page`).
    effects = frames["effects"]
    if "p_screening" in effects.columns:
        effects = effects.assign(p_adjusted=effects["p_screening"])
    frames["effects"] = effects.drop(columns=["p_screening", "size"], errors="ignore")
    frames["comparisons"] = _as_confirmed_now(frames["comparisons"][list(COMPARISON_COLUMNS)])
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
    frames["confirmed"] = _with_preset(frames["confirmed"], plan)
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


def _with_preset(confirmed: pd.DataFrame, plan: Plan) -> pd.DataFrame:
    """The confirmed candidates with the preset's own rules first among them, as
    `confirm` writes them (tables written before it always did lack the row; the
    confirmation played the preset's rules all the same)."""
    if confirmed.empty or PRESET in set(confirmed["point"]):
        return confirmed
    row = {
        "point": PRESET,
        "label": plan.label(preset_codes(plan)),
        "changes": 0,
        "games": int(confirmed["games"].iloc[0]),
        "standing": "",
    }
    return pd.concat([pd.DataFrame([row]), confirmed], ignore_index=True)


def _as_confirmed_now(comparisons: pd.DataFrame) -> pd.DataFrame:
    """The comparisons without a `vs best` one that restates a `vs preset` one (the
    preset against the best, or anything against the preset as the best), which tables
    written before `confirm` left them out still hold."""
    vs_best = comparisons["kind"] == "vs best"
    restated = vs_best & ((comparisons["point"] == PRESET) | (comparisons["other"] == PRESET))
    return comparisons[~restated].reset_index(drop=True)


def is_design(folder: str | Path) -> bool:
    """Whether `folder` holds a design's tables (`ludosim design` wrote it)."""
    return (Path(folder) / STUDY_FILE).is_file()
