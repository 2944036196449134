"""Whether intervals hold what they claim: a stated coverage checked two-sided.

A model's 95% prediction intervals are checked on rule sets it was not fitted on: each
check is inside its interval or not. Too few inside means the intervals are too narrow;
too many means they are too wide (a claim of precision given away, and a sign that the
model's variance is misspecified). Both are misses, so the check is two-sided: the
exact binomial interval of the share inside (Clopper and Pearson 1934) either holds
the stated rate or lies wholly on one side of it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ludosim.report.contrasts import ALPHA

CONSISTENT = "consistent"
TOO_NARROW = "too narrow"
TOO_WIDE = "too wide"
VERDICTS = (CONSISTENT, TOO_NARROW, TOO_WIDE)


@dataclass(frozen=True)
class Coverage:
    """`inside` of `checked` intervals held their measurement; `low`, `high` the exact
    95% interval of that share; `verdict` one of `VERDICTS` against `stated`."""

    inside: int
    checked: int
    low: float
    high: float
    stated: float
    verdict: str

    @property
    def share(self) -> float:
        return self.inside / self.checked if self.checked else float("nan")

    def text(self) -> str:
        """`7 of 8 (88%, 95% CI 47 to 100%): consistent with the stated 95%`."""
        stated = f"{100 * self.stated:.0f}%"
        said = {
            CONSISTENT: f"consistent with the stated {stated}",
            TOO_NARROW: f"fewer than the stated {stated}: the intervals are too narrow",
            TOO_WIDE: f"more than the stated {stated}: the intervals are too wide",
        }[self.verdict]
        return (
            f"{self.inside} of {self.checked} ({100 * self.share:.0f}%, 95% CI "
            f"{100 * self.low:.0f} to {100 * self.high:.0f}%): {said}"
        )


def coverage_reach(checked: int, stated: float = 1 - ALPHA) -> str:
    """What a two-sided check of `checked` intervals can find, in words: at most how many
    inside shows them too narrow, and whether any count shows them too wide (with all
    inside, the exact interval's lower bound is (alpha/2)^(1/n); it clears `stated` only
    from the smallest n given here)."""
    from scipy import stats

    narrow = [
        k
        for k in range(checked + 1)
        if stats.binomtest(k, checked).proportion_ci(1 - ALPHA, method="exact").high < stated
    ]
    wide_from = math.ceil(math.log(ALPHA / 2) / math.log(stated))
    said = (
        f"with {checked} rule sets it finds the intervals too narrow only when at most "
        f"{max(narrow)} are inside"
        if narrow
        else f"with {checked} rule sets it cannot find the intervals too narrow"
    )
    if checked < wide_from:
        said += f", and cannot find them too wide (that needs {wide_from} or more, all inside)"
    return said


def coverage_check(inside: int, checked: int, stated: float = 1 - ALPHA) -> Coverage:
    """The two-sided check of a stated coverage from `inside` hits of `checked`
    independent checks (scipy's exact Clopper-Pearson interval at 95%)."""
    from scipy import stats

    if not 0 <= inside <= checked or checked < 1:
        raise ValueError(f"coverage needs 0 <= inside <= checked and checked >= 1, got "
                         f"{inside} of {checked}")  # fmt: skip
    ci = stats.binomtest(int(inside), int(checked)).proportion_ci(1 - ALPHA, method="exact")
    low, high = float(ci.low), float(ci.high)
    verdict = TOO_NARROW if high < stated else TOO_WIDE if low > stated else CONSISTENT
    return Coverage(int(inside), int(checked), low, high, stated, verdict)


__all__ = [
    "CONSISTENT",
    "TOO_NARROW",
    "TOO_WIDE",
    "VERDICTS",
    "Coverage",
    "coverage_check",
    "coverage_reach",
]
