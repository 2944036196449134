"""How the study pages (`ludosim skill`, `ludosim unfold`) decide what they state.

A study page states two kinds of claims, and decides each kind in one family,
as the sweep pages of `ludosim.report.findings` do:

- **values against a fixed reference** (a win share against the fair share
  1/players, a head-to-head share against one half, a first-player edge against
  zero, a win chance against 3 to 1): the `values` family;
- **differences** (a change from the page's first rule set, skilled against
  random seats on the same dice, every pair of rule sets behind a ranking): the
  `differences` family.

Each family is adjusted by Holm's step-down method at a 5% family-wise error
rate (`contrasts.Family`), so the chance that a page makes any false claim of a
difference stays at most 5% however many rule sets and measures it holds. The
comparisons are fixed by the study's design, before any number is read: every
pair of rule sets for a ranking (`Ranking`), every rule set against the first
for a change. A ranking ("most", "least") is resolved only when its first
differs from its second in the family; otherwise the page says which are tied
with the first. Sizes ("detecting 1 pp needs about N games per rule set") come
from a stated smallest effect of interest, never from an observed estimate
(`needed`). Where a difference stands against that smallest effect (practical,
possibly below it, below it, or no change that matters) is read from its interval,
never from its estimate (`contrasts.practical_size`), in the words of the sweep
pages (`verdict` with a smallest effect).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np

from ludosim.report.contrasts import (
    ALPHA,
    POWER,
    Contrast,
    Family,
    Test,
    games_to_detect,
    size_of,
)
from ludosim.report.finding import (
    DIFFERENCES,
    VALUES,
    Finding,
    all_equivalent,
    size_words,
    sized,
)
from ludosim.report.wording import about, amount, estimate, listing, p_text
from ludosim.results.stats import Z95, score_test_p, wilson_interval


@dataclass(frozen=True)
class Sample:
    """An estimate in its raw scale (a share, a mean), its standard error and its games."""

    estimate: float
    se: float
    games: int

    @classmethod
    def share(cls, wins: int, games: int) -> Sample:
        """A share of `games` with its binomial standard error."""
        if games <= 0:
            return cls(math.nan, math.nan, 0)
        p = wins / games
        return cls(p, math.sqrt(p * (1.0 - p) / games), games)

    @classmethod
    def of_interval(cls, value: float, low: float, high: float, games: int) -> Sample:
        """An estimate with a normal 95% interval: se = (high - low) / 2z."""
        return cls(float(value), (float(high) - float(low)) / (2.0 * Z95), int(games))


class Claims:
    """A study page's two families, and the tests each of its sentences states.

    `noun` says what the page compares ("rule sets"). Tests are added while the
    page is planned; `adjust` decides them all at once, before any sentence is
    written.
    """

    def __init__(self, noun: str = "rule sets") -> None:
        self.noun = noun
        self.differences = Family(DIFFERENCES, f"comparisons between {noun}")
        self.values = Family(VALUES, f"{noun} against a fixed reference")

    def difference(
        self, key: str, sample: Sample, method: str, scale: float = 100.0,
        family: str = DIFFERENCES,
    ) -> Test:  # fmt: skip
        """A difference already estimated (a - b, or a paired mean difference), a test of
        `family` (`values` for a value against a reference known with its own error)."""
        contrast = Contrast(sample.estimate, sample.se, sample.games, method)
        chosen = self.values if family == VALUES else self.differences
        return chosen.add(Test.of(key, contrast, scale))

    def between(
        self, key: str, a: Sample, b: Sample, scale: float = 100.0, family: str = DIFFERENCES
    ) -> Test:
        """`a - b` of two independent samples, normal interval."""
        joint = Sample(a.estimate - b.estimate, math.hypot(a.se, b.se), min(a.games, b.games))
        return self.difference(key, joint, "independent", scale, family)

    def share(
        self, key: str, wins: int, games: int, reference: float, scale: float = 100.0
    ) -> Test:
        """A share against a fixed `reference`: Wilson interval and the score test it inverts."""
        if games <= 0:
            return self.values.add(Test(key, math.nan, math.nan, math.nan, math.nan, 0))
        low, high = wilson_interval(wins, games)
        sd = scale * math.sqrt(reference * (1.0 - reference))
        test = Test(key, scale * wins / games, scale * low, scale * high,
                    score_test_p(wins, games, reference), games, "wilson", sd)  # fmt: skip
        return self.values.add(test)

    def adjust(self) -> None:
        for family in (self.differences, self.values):
            family.adjust()

    def about(self, differences: str, values: str) -> Finding:
        """The note that opens a page: which tests each family holds, and their correction."""
        m, k = self.differences.size, self.values.size
        text = (
            f"This page states {m} comparison{'s' if m != 1 else ''} ({differences}), each "
            f"made once, whatever its result, and decided together by Holm's correction: the "
            f"chance that any of them is a false claim of a difference is at most "
            f"{round(100 * ALPHA)}%. Each value against a fixed reference ({values}) is one "
            f"of a second family of {k} tests, corrected the same way."
        )
        return Finding("about", text, True, headline=True, kind="note")


def wins_of(fraction: float, games: int) -> int:
    """The wins behind a share written in a table as a fraction of `games`."""
    return round(float(fraction) * int(games))


def told(test: Test, unit: str, sign: bool = True) -> str:
    """A test's estimate with its interval: `+0.67 pp (95% CI +0.55 to +0.79)`."""
    return estimate(test.estimate, test.ci_low, test.ci_high, unit, sign=sign)


def decided_games(n: int) -> str:
    """`2,000 decided games`."""
    return f"{int(n):,} decided game{'s' if int(n) != 1 else ''}"


def verdict(test: Test, smallest: float | None = None, unit: str = "") -> str:
    """`resolved (Holm-adjusted p = ...)` or `not resolved (...)`; with the smallest effect
    of interest (`smallest`, in `unit`), where the interval puts the effect against it, as
    the sweep pages say it (`contrasts.practical_size`, `findings.size_words`):
    `resolved (...); smaller than the smallest effect that matters (its interval lies
    within ±1 pp, ...)`, `not resolved (...); its interval rules out effects beyond ±1 pp
    (...): no change that matters`, `not resolved at this size (...); it cannot rule out a
    change of 1 pp`. A practical effect reads `resolved (...)` alone."""
    p = f"(Holm-adjusted {p_text(test.p_adjusted)})"
    if smallest is None:
        return f"{'resolved' if test.resolved else 'not resolved'} {p}"
    # Read at the family's Bonferroni level: sameness corrected as differences are.
    size = size_of(test, smallest)
    words = size_words(size, smallest, unit, tests=test.family_size)
    return sized(size, words, p) or f"not resolved at this size {p}; {words}"


def stated(
    topic: str,
    text: str,
    test: Test,
    kind: str,
    unit: str,
    family: str,
    *,
    headline: bool = False,
    needed: int | None = None,
    value: tuple[float, float, float] | None = None,
    smallest: float | None = None,
    equivalent: bool | None = None,
) -> Finding:
    """A finding stating `test`'s number (or `value`: estimate, low, high, in `unit`);
    with the smallest effect of interest (`smallest`, in `unit`) it is marked equivalent
    when its interval shows no change that matters (`finding.all_equivalent`), unless
    `equivalent` says otherwise."""
    x, low, high = value if value is not None else (test.estimate, test.ci_low, test.ci_high)
    same = all_equivalent([test], smallest) if equivalent is None else equivalent
    return Finding(topic, text, test.resolved, None if test.resolved else needed, headline,
                   kind, x, low, high, unit, family, test.p_adjusted, test.games,
                   equivalent=same)  # fmt: skip


def described(
    topic: str, text: str, value: tuple[float, float, float], unit: str, games: int, **kw: bool
) -> Finding:
    """A finding that describes a number with its interval and decides nothing (no family)."""
    x, low, high = value
    return Finding(topic, text, True, None, kw.get("headline", False), "value", x, low, high,
                   unit, None, None, games)  # fmt: skip


def needed(tests: Iterable[Test], smallest: float, family: Family) -> int | None:
    """Games per rule set to detect `smallest` (in the tests' unit) with 80% power after the
    family's correction, from the median per-game spread behind the tests."""
    sds = [t.sd for t in tests if math.isfinite(t.sd) and t.sd > 0]
    if not sds:
        return None
    return about(games_to_detect(float(np.median(sds)), smallest, family.size, POWER))


def sizing(smallest: str, n: int | None, have: int) -> str:
    """`Detecting a change of 1 pp ... needs about N games per rule set (this run: M).`"""
    if n is None:
        return ""
    return (
        f"Detecting {smallest} with {round(100 * POWER)}% power after the correction needs about "
        f"{n:,} games per rule set (this run: {have:,})."
    )


# ------------------------------------------------------------------ rankings
@dataclass(frozen=True)
class RankEnd:
    """One end of a ranking: its first, the runner-up, their difference and who ties."""

    first: str
    second: str
    test: Test  # first minus second, in the ranking's unit (oriented)
    gap: tuple[float, float, float]  # estimate, low, high of first minus second
    tied: list[str]  # the others not told from the first in the family
    tied_tests: tuple[Test, ...] = ()  # the first against each of `tied`

    @property
    def resolved(self) -> bool:
        return self.test.resolved

    def same_within(self, smallest: float | None) -> bool:
        """Every interval of the first against those it cannot be told from lies inside
        ±`smallest` (`EQUIVALENT`): a tie that matters, not a test that merely failed."""
        return all_equivalent(self.tied_tests, smallest)


class Ranking:
    """Rule sets ranked on one measure: every pair is a test of the page's differences family.

    Registering every pair, fixed by the design, keeps the choice of which pair
    to state (the first and the second, read from the data) from biasing the
    family: whichever pair the data put at the top was tested anyway.
    """

    def __init__(self, claims: Claims, items: Mapping[str, Sample], key: str, scale: float = 100.0):
        self.items = dict(items)
        self.scale = scale
        self.pairs: dict[tuple[str, str], Test] = {}
        names = list(self.items)
        for i, a in enumerate(names):
            for b in names[i + 1 :]:
                self.pairs[(a, b)] = claims.between(
                    f"{key}:{a}|{b}", self.items[a], self.items[b], scale
                )

    def order(self) -> list[str]:
        """Largest estimate first (the order of the items on equal estimates)."""
        return sorted(self.items, key=lambda n: -self.items[n].estimate)

    def _against(self, a: str, b: str) -> tuple[Test, float]:
        return (self.pairs[(a, b)], 1.0) if (a, b) in self.pairs else (self.pairs[(b, a)], -1.0)

    def end(self, top: bool = True) -> RankEnd | None:
        """The top (largest) or bottom (smallest) of the ranking; None with fewer than two."""
        order = self.order() if top else self.order()[::-1]
        if len(order) < 2:
            return None
        first, second = order[0], order[1]
        test, sign = self._against(first, second)
        low, high = sorted((sign * test.ci_low, sign * test.ci_high))
        tied = [o for o in order[1:] if not self._against(first, o)[0].resolved]
        tied_tests = tuple(self._against(first, o)[0] for o in tied)
        return RankEnd(first, second, test, (sign * test.estimate, low, high), tied, tied_tests)

    def tests(self) -> list[Test]:
        return list(self.pairs.values())


def ranking_text(
    end: RankEnd,
    resolved_lead: str,
    tied_lead: str,
    unit: str,
    value: Callable[[str], str] = lambda name: "",
    smallest: float | None = None,
) -> str:
    """`X is largest under A: v; ahead of B, the next, by ...; resolved.` (`below B` at the
    bottom of a ranking), or those the first cannot be told from: `the same within ±x`
    only when every interval of their differences lies inside ±`smallest` (in `unit`),
    never "tied" from a test that merely failed to resolve."""
    x, low, high = end.gap
    if end.resolved:
        shown = value(end.first)
        by = estimate(abs(x), *sorted((abs(low), abs(high))), unit, sign=False)
        where = "ahead of" if x > 0 else "below"
        return (
            f"{resolved_lead} under {end.first}" + (f": {shown}" if shown else "")
            + f"; {where} {end.second}, the next, by {by}; {verdict(end.test, smallest, unit)}."
        )  # fmt: skip
    names = listing([end.first, *end.tied], most=12)
    told = (
        f"are the same within ±{amount(smallest or 0.0, unit)}"
        if end.same_within(smallest)
        else "cannot be told apart at this size"
    )
    return (
        f"{tied_lead}: {names} {told} "
        f"({end.first} against {end.second}: {estimate(x, low, high, unit)}, "
        f"{verdict(end.test, smallest, unit)})."
    )


def ranking_finding(
    topic: str,
    end: RankEnd,
    text: str,
    unit: str,
    needed_games: int | None,
    smallest: float | None = None,
) -> Finding:
    """The finding of one end of a ranking; equivalent when its first is the same within
    ±`smallest` as every one it cannot be told from (`RankEnd.same_within`)."""
    same = not end.resolved and end.same_within(smallest)
    return stated(topic, text, end.test, "ranking", unit, DIFFERENCES, headline=True,
                  needed=needed_games, value=end.gap, equivalent=same)  # fmt: skip


def page_order(found: Sequence[Finding], titles: Mapping[str, str]) -> list[Finding]:
    """Findings in the order a page shows them: by topic (the order of `titles`, then first
    appearance), headlines first within a topic. `findings.json` keeps this order."""
    topics = list(dict.fromkeys([*titles, *(f.topic for f in found)]))
    return sorted(found, key=lambda f: (topics.index(f.topic), not f.headline))


def first_sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


def names(items: Sequence[str]) -> str:
    return listing(list(items), most=12)


__all__ = [
    "Claims",
    "RankEnd",
    "Ranking",
    "Sample",
    "decided_games",
    "described",
    "first_sentence",
    "names",
    "needed",
    "page_order",
    "ranking_finding",
    "ranking_text",
    "sizing",
    "stated",
    "told",
    "verdict",
    "wins_of",
]
