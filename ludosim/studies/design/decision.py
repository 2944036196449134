"""The designer's recommendation as a decision with a default (`recommend`): play the
preset as it is, unless the confirmation resolves a change better on the first goal.

Each confirmed candidate is compared with the preset's own rules on the first goal's
measure (the confirmation's `vs preset` differences, decided in the page's one family
by Holm's correction). Its standing says where that comparison stands against the
measure's smallest effect of interest:

- `BETTER` / `WORSE`: resolved in that direction, by an interval that reaches past the
  smallest effect (`SMALL_BETTER` / `SMALL_WORSE` when the interval lies within it: a
  real change too small to matter);
- `EQUALLY_GOOD`: not resolved, and its interval at the family's level lies within the
  smallest effect (two one-sided tests, Schuirmann 1987, at the Bonferroni level of the
  whole family, so the page's equivalence claims share its correction);
- `NOT_APART`: neither.

Only a `BETTER` candidate may be recommended. Among them the one with the fewest
changes wins of those the confirmation does not resolve worse than the best measured
(ties to the better measured); with none, the preset as it is. A loss within the
smallest effect does not put a candidate out of the running.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from ludosim.report.contrasts import ALPHA, BELOW, POSSIBLY_BELOW, PRACTICAL, practical_size
from ludosim.results.measures import MEASURES
from ludosim.results.stats import z_for
from ludosim.studies.design.confirmation import PRESET
from ludosim.studies.design.spec import GOALS

RECOMMENDED = "recommended"  # the decision: a change resolved better, or the preset as it is
AS_IS = "as it is"  # the preset's own rules, when a change is recommended instead
BETTER = "better"  # resolved better than the preset, the interval reaching the smallest effect
SMALL_BETTER = "better by less than the smallest effect"  # resolved, interval within it
EQUALLY_GOOD = "equally good"  # not resolved; within the smallest effect at the family's level
NOT_APART = "not told apart"  # neither resolved nor shown within the smallest effect
SMALL_WORSE = "worse by less than the smallest effect"  # resolved, interval within it
WORSE = "worse"  # resolved worse, the interval reaching the smallest effect

STANDINGS = (
    RECOMMENDED,
    AS_IS,
    BETTER,
    SMALL_BETTER,
    EQUALLY_GOOD,
    NOT_APART,
    SMALL_WORSE,
    WORSE,
)

# Why the decision is what it is (`Recommendation.basis`).
CHANGE_RESOLVED = "a change resolved better than the preset"
NONE_RESOLVED = "no change resolved better than the preset"


def standing(
    resolved: bool, estimate: float, se: float, ci_low: float, ci_high: float,
    smallest: float, family_size: int,
) -> str:  # fmt: skip
    """A candidate against the preset's own rules on the first goal.

    `estimate` (with `se`, `ci_low`, `ci_high`: its unadjusted 95% interval) is the gain
    in the goal's direction (positive = better), `resolved` the page's decision (Holm),
    `smallest` the measure's smallest effect of interest and `family_size` the number
    of comparisons the page decides together: an equivalence is claimed only when the
    interval at the family's Bonferroni level lies within the smallest effect."""
    size = practical_size(resolved, ci_low, ci_high, smallest)
    if resolved:
        if size in (PRACTICAL, POSSIBLY_BELOW):
            return BETTER if estimate > 0 else WORSE
        return SMALL_BETTER if estimate > 0 else SMALL_WORSE
    half = z_for(ALPHA / max(family_size, 1)) * se
    if -smallest <= estimate - half and estimate + half <= smallest:
        return EQUALLY_GOOD
    return NOT_APART


@dataclass(frozen=True)
class Recommendation:
    """What the page recommends: `pick` (a confirmed point, `PRESET` for the rules as they
    are), `basis` (`CHANGE_RESOLVED` or `NONE_RESOLVED`), each candidate's standing against
    the preset (`standings`, the preset's own `RECOMMENDED` or `AS_IS`) and the goal's
    measure."""

    pick: str
    basis: str
    standings: dict[str, str]
    measure: str

    @property
    def changes(self) -> bool:
        """Whether the page recommends changing the preset's rules."""
        return self.pick != PRESET


def _goal(comparisons: pd.DataFrame, kind: str, measure: str) -> pd.DataFrame:
    return comparisons[(comparisons["kind"] == kind) & (comparisons["measure"] == measure)]


def recommend(
    confirmed: pd.DataFrame,
    comparisons: pd.DataFrame,
    goal: str,
    family_size: int,
    values: dict[str, float],
) -> Recommendation:
    """The decision of a design's page (see the module's docstring).

    `confirmed`: the candidates (`point`, `changes`); `comparisons`: the confirmation's
    differences as the page decided them (`resolved` by Holm over `family_size`
    comparisons); `values`: each candidate's measured value on the goal's measure."""
    measure, direction = GOALS[goal]
    smallest = MEASURES[measure].smallest
    changes = dict(
        zip(confirmed["point"].astype(str), confirmed["changes"].astype(int), strict=True)
    )
    out: dict[str, str] = {}
    for r in _goal(comparisons, "vs preset", measure).itertuples(index=False):
        low, high = sorted((direction * r.ci_low, direction * r.ci_high))
        out[str(r.point)] = standing(
            bool(r.resolved), direction * r.estimate, r.se, low, high, smallest, family_size
        )
    better = [p for p, s in out.items() if s == BETTER]
    if not better:
        out[PRESET] = RECOMMENDED
        return Recommendation(PRESET, NONE_RESOLVED, _ordered(changes, out), measure)
    gain = {p: direction * values[p] for p in better}
    best = max(better, key=lambda p: gain[p])
    # The confirmation's `vs best` differences are against the best measured of every
    # candidate; a better one is out of the running only when resolved worse than it by
    # an interval that is not within the smallest effect (a loss too small to matter is
    # no reason to prefer more changes).
    beaten = {
        str(r.point)
        for r in _goal(comparisons, "vs best", measure).itertuples(index=False)
        if r.resolved
        and direction * r.estimate < 0
        and practical_size(True, r.ci_low, r.ci_high, smallest) != BELOW
    }
    group = [p for p in better if p == best or p not in beaten]
    pick = min(group, key=lambda p: (changes[p], -gain[p]))
    out[pick] = RECOMMENDED
    out[PRESET] = AS_IS
    return Recommendation(pick, CHANGE_RESOLVED, _ordered(changes, out), measure)


def _ordered(changes: dict[str, int], standings: dict[str, str]) -> dict[str, str]:
    """Every candidate's standing, in the confirmed table's order (the preset's own rules
    included where the table lacks them)."""
    points = list(changes)
    if PRESET not in points:
        points.insert(0, PRESET)
    return {p: standings.get(p, NOT_APART) for p in points}
