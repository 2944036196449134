"""The screening's effects: every main effect and two-toggle interaction on every measure,
as tests of a family (`screening_tests`, `effects_table`); the interactions the model
keeps (`active_terms`); the terms the design aliases (`alias_table`).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from ludosim.report.contrasts import Family, Test
from ludosim.results.measures import DESIGN_MEASURES, MEASURES
from ludosim.studies.design.plan import Plan
from ludosim.studies.design.spec import _spell
from ludosim.studies.design.stages import Stage, StageSamples


def terms(k: int) -> list[tuple[int, ...]]:
    """The screening's terms: every main effect, then every two-toggle interaction."""
    return [(i,) for i in range(k)] + list(itertools.combinations(range(k), 2))


def _term_name(plan: Plan, term: tuple[int, ...]) -> str:
    if len(term) == 1:
        f = plan.free[term[0]]
        return f"{f.toggle} {_spell(f.toggle, f.values[0])} -> {_spell(f.toggle, f.values[1])}"
    return " x ".join(plan.free[i].toggle for i in term)


def screening_tests(
    plan: Plan, stage: Stage, samples: StageSamples, family: Family
) -> list[tuple[str, tuple[int, ...], Test]]:
    """Every term's effect on every measure, as a test of `family`.

    A main effect is the mean at the alternative minus the mean at the preset's value,
    `sum_c x_c y_c / (N/2)`; an interaction the same with the product of two codes.
    The design is of resolution V, so no effect is aliased with another of these.
    """
    half = len(stage.ids) / 2
    out = []
    for name in DESIGN_MEASURES:
        sample = samples.means[name]
        for term in terms(len(plan.free)):
            signs = np.prod(stage.codes[:, list(term)], axis=1) / half
            weights = dict(zip(stage.ids, signs.tolist(), strict=True))
            key = f"effect:{name}:{'x'.join(plan.free[i].toggle for i in term)}"
            out.append((name, term, family.add(Test.of(key, sample.contrast(weights)))))
    return out


EFFECT_COLUMNS = (
    "measure",
    "term",
    "factors",
    "estimate",
    "ci_low",
    "ci_high",
    "p_value",
    "p_adjusted",
    "resolved",
    "practical",
    "games",
)


def effects_table(plan: Plan, tests: Sequence[tuple[str, tuple[int, ...], Test]]) -> pd.DataFrame:
    rows = []
    for name, term, t in tests:
        smallest = MEASURES[name].smallest
        rows.append(
            {
                "measure": name,
                "term": _term_name(plan, term),
                "factors": len(term),
                "estimate": t.estimate,
                "ci_low": t.ci_low,
                "ci_high": t.ci_high,
                "p_value": t.p_value,
                "p_adjusted": t.p_adjusted,
                "resolved": t.resolved,
                "practical": bool(t.resolved and abs(t.estimate) >= smallest),
                "games": t.games,
            }
        )
    return pd.DataFrame(rows, columns=list(EFFECT_COLUMNS))


def active_terms(effects: pd.DataFrame, measure: str, plan: Plan) -> list[tuple[int, ...]]:
    """The model's terms for one measure: every main effect, and the two-toggle
    interactions the screening resolved (`effects` decided within the screening)."""
    k = len(plan.free)
    names = {_term_name(plan, t): t for t in terms(k)}
    resolved = effects[
        (effects["measure"] == measure)
        & (effects["factors"] == 2)
        & effects["resolved"].astype(bool)
    ]
    return [(i,) for i in range(k)] + [names[t] for t in resolved["term"]]


def alias_table(plan: Plan) -> pd.DataFrame:
    """The aliases of the screening's two-toggle interactions with three-toggle ones:
    pairs of terms whose columns in the design are equal (`sign` +1) or opposite (-1),
    so that the design estimates their sum (or difference), not either alone. A design
    of resolution V aliases no main effect or two-toggle interaction with another, but
    two-toggle interactions with three-toggle ones (and main effects with four-toggle
    ones)."""
    k = len(plan.free)
    triples = itertools.combinations(range(k), 3)
    columns = {t: np.prod(plan.codes[:, list(t)], axis=1) for t in triples}
    rows = []
    for pair in itertools.combinations(range(k), 2):
        x = np.prod(plan.codes[:, list(pair)], axis=1)
        for triple, y in columns.items():
            if np.array_equal(x, y) or np.array_equal(x, -y):
                rows.append(
                    {
                        "term": _term_name(plan, pair),
                        "aliased_with": _term_name(plan, triple),
                        "sign": 1 if np.array_equal(x, y) else -1,
                    }
                )
    return pd.DataFrame(rows, columns=["term", "aliased_with", "sign"])
