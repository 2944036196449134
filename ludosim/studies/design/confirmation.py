"""The confirmation (`confirm`): the candidates and the preset's own rules replayed once,
on games of their own, at a size fixed before the first game; the comparisons the page
decides.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results.measures import DESIGN_MEASURES
from ludosim.studies.design.plan import Plan
from ludosim.studies.design.spec import GOALS, Progress, stage_seed
from ludosim.studies.design.stages import Stage, StageSamples, play_stage

PRESET = "preset"  # the confirmation's name of the preset's own rules


def preset_codes(plan: Plan) -> np.ndarray:
    """The rule set that changes nothing: every free toggle at its first value."""
    return -np.ones(len(plan.free))


COMPARISON_COLUMNS = (
    "kind",
    "measure",
    "point",
    "other",
    "estimate",
    "ci_low",
    "ci_high",
    "se",
    "p_value",
    "games",
    "method",
)


def _compare(samples: StageSamples, measure: str, a: str, b: str, kind: str) -> dict[str, Any]:
    c = samples.means[measure].difference(a, b)
    return {
        "kind": kind,
        "measure": measure,
        "point": a,
        "other": b,
        "estimate": c.estimate,
        "ci_low": c.ci_low,
        "ci_high": c.ci_high,
        "se": c.se,
        "p_value": c.p_value,
        "games": c.games,
        "method": c.method,
    }


Player = Callable[..., tuple[pd.DataFrame, "StageSamples"]]


CONFIRMED_COLUMNS = ("point", "label", "changes", "games", "standing")


def confirm(
    plan: Plan,
    picked: np.ndarray,
    out: Path,
    *,
    progress: Progress | None = None,
    player: Player | None = None,
    **run: Any,
) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame, Stage]:
    """Replay the candidates and the preset's own rules, once, on games of their own.

    The confirmation is one look, sized before its first game (`confirm_games`
    random-seat games per rule set, twice `skill_games` of each of the relative skill
    level's players), on the
    confirmation's own stream (`stage_seed`): no game of the screening or the holdout
    is replayed, and every rule set of it plays the same games (paired). Nothing is
    dropped here: the page decides every comparison in its one family. Returns the
    measures, the candidates (`point`, `label`, `changes`, `games`; `standing` is
    filled by the page's decision), the preset's own rules first among them, the
    comparisons the page decides (each candidate against the best measured on the
    first goal, and each against the preset's own rules on every measure) and the stage.
    """
    study = plan.study
    goal_measure, direction = GOALS[study.goals[0]]
    reference = tuple(preset_codes(plan))
    others = [tuple(row) for row in picked if tuple(row) != reference]
    rows = [reference, *others]
    ids = [PRESET, *(f"k{i:02d}" for i in range(len(others)))]
    # Changing nothing is the default every candidate must beat: always confirmed.
    candidates = list(ids)
    stage = Stage(
        "confirm",
        np.array(rows),
        study.confirm_games,
        2 * study.skill_games,
        stage_seed(study.seed, "confirm"),
        ids,
    )
    table, samples = (player or play_stage)(plan, stage, out, progress=progress, **run)
    goal = table[table["measure"] == goal_measure].set_index("point")["estimate"]
    best = min(candidates, key=lambda p: -direction * goal[p])
    # Against the best measured, on the first goal; the preset's own difference from it
    # is a `vs preset` one already, and is not stated twice.
    comparisons = [
        _compare(samples, goal_measure, p, best, "vs best")
        for p in candidates
        if best != PRESET and p not in (best, PRESET)
    ]
    comparisons += [
        _compare(samples, m, p, PRESET, "vs preset")
        for p in candidates
        if p != PRESET
        for m in DESIGN_MEASURES
    ]
    by_id = dict(zip(ids, rows, strict=True))
    confirmed = pd.DataFrame(
        [
            {
                "point": p,
                "label": plan.label(by_id[p]),
                "changes": int(np.sum(np.asarray(by_id[p]) > 0)),
                "games": stage.games,
                "standing": "",
            }
            for p in candidates
        ],
        columns=list(CONFIRMED_COLUMNS),
    )
    return table, confirmed, pd.DataFrame(comparisons, columns=list(COMPARISON_COLUMNS)), stage
