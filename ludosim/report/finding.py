"""What every page states, as data: the `Finding`, its kinds and families, and a
verdict's words.

The sweep page (`ludosim.report.sweeppage`) and every study's page (skill, unfold,
design, the relative skill level) state their findings as `Finding`s: a topic, plain
sentences, whether the page's correction resolved it, and the number behind it.
`DIFFERENCES` and `VALUES` name the two families a page decides them in;
`PageFindings` holds a page's findings with those families; `finding_records` is
`findings.json`. `verdict`, `sized`, `size_words` and `not_told_apart` word what a
family decided of one comparison against its smallest effect of interest, alike on
every page.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

import pandas as pd

from ludosim.report.analysis import SameGames
from ludosim.report.contrasts import (
    BELOW,
    EQUIVALENT,
    OPEN,
    POSSIBLY_BELOW,
    PRACTICAL,
    Family,
    Test,
    corrected_level,
    is_fixed,
    size_of,
)
from ludosim.report.wording import amount, p_text, said

KINDS = ("value", "difference", "ranking", "decision", "note")


DIFFERENCES = "differences"  # the page's family of comparisons between cells
VALUES = "values"  # the family of each cell against a fixed reference


@dataclass(frozen=True)
class Finding:
    """One quotable statement about a results table.

    topic: one of `TOPICS`. text: plain sentences with the estimate, its 95%
    interval and the games behind it. resolved: the family decided it (for a
    difference or a ranking: told from zero, or from the runner-up), or, for a
    plain value, that it has an interval. games_needed: when not resolved, about
    how many games per cell would detect the smallest effect of interest with 80%
    power. headline: the sentence that answers the topic's question; the others
    are the statements behind it. kind: `value` (one cell, perhaps against a fixed
    reference), `difference` (between cells, policies or rule changes), `ranking`
    (an order among them), `decision` (what to do, with a default: `resolved` when it
    departs from the default on a difference the family resolved, `basis` saying what it
    rests on) or `note` (how to read the page). estimate, ci_low,
    ci_high, unit: the number stated (None for notes); family: `differences`,
    `values` or None (a description, decided by nothing); p_adjusted: its
    family's Holm-adjusted p-value; games: the games behind it (per cell).
    equivalent: not resolved as a difference, but every interval behind it lies inside
    ±the smallest effect of interest (an equivalence by two one-sided tests at 2.5%
    each, Schuirmann 1987): the statement that no change that matters is there, which
    a page badges as such rather than as "not resolved". For a note summing up several
    comparisons: each of them is resolved or equivalent.
    exploratory: stated by a run too small for its smallest effects
    (`ludosim.report.exploratory`): a lead to confirm on fresh games, whatever `resolved`
    says of the family's decision.
    """

    topic: str
    text: str
    resolved: bool
    games_needed: int | None = None
    headline: bool = False
    kind: str = "value"
    estimate: float | None = None
    ci_low: float | None = None
    ci_high: float | None = None
    unit: str = ""
    family: str | None = None
    p_adjusted: float | None = None
    games: int | None = None
    equivalent: bool = False
    basis: str = ""
    exploratory: bool = False

    def to_dict(self) -> dict[str, Any]:
        """The finding as JSON-ready data (NaN written as null)."""
        out = asdict(self)
        for key, value in out.items():
            if isinstance(value, float) and not math.isfinite(value):
                out[key] = None
        return out


@dataclass
class PageFindings:
    """Everything a page states: its findings, the families that decided them, the
    cells merged as the same games, and whether the run is exploratory; `terminal`
    holds the same findings, in their order, worded for the terminal."""

    findings: list[Finding]
    families: list[Family] = field(default_factory=list)
    merged: list[SameGames] = field(default_factory=list)
    exploratory: bool = False
    comparisons: pd.DataFrame = field(default_factory=pd.DataFrame)
    terminal: list[Finding] = field(default_factory=list)

    def for_terminal(self, found: Sequence[Finding]) -> list[Finding]:
        """Each of `found` (findings of this page) in the terminal's words."""
        words = {id(f): t for f, t in zip(self.findings, self.terminal, strict=False)}
        return [words.get(id(f), f) for f in found]

    def family(self, name: str) -> Family | None:
        return next((f for f in self.families if f.name == name), None)


def finding_records(found: Sequence[Finding]) -> list[dict[str, Any]]:
    """`findings.json`: one object per finding (`Finding.to_dict`)."""
    return [f.to_dict() for f in found]


def verdict(t: Test, smallest: float, unit: str) -> str:
    """What the page decides of one comparison, in words a statistician would sign.

    The size against the smallest effect of interest comes from the interval alone
    (`contrasts.practical_size`): `resolved` when the family resolved it and its whole
    interval clears the smallest effect; resolved but smaller, or possibly smaller,
    said so; not resolved with an interval inside ±smallest, the interval rules out any
    change that matters (an equivalence test); otherwise not resolved at this size, and
    a change of the smallest size is not ruled out. Not resolved while the 95% interval,
    a per-comparison interval, excludes 0: the correction is what keeps it from being
    claimed, and the sentence says so with the adjusted p-value.
    """
    if is_fixed(t):
        return FIXED_WORDS
    size = size_of(t, smallest)
    words = size_words(size, smallest, unit, tests=t.family_size)
    said = sized(size, words)
    if said:
        return said
    if t.ci_low > 0 or t.ci_high < 0:
        return (
            f"not resolved once {_pages()} comparisons are counted "
            f"(Holm-adjusted "
            f"{p_text(t.p_adjusted)}; the 95% interval, for this comparison alone, excludes 0); "
            f"{words}"
        )
    return f"not resolved at this size; {words}"


def sized(size: str, words: str, p: str = "") -> str | None:
    """A verdict for every size but an open one (`contrasts.SIZES`), from `size_words`'s
    `words` and the adjusted p-value's text `p`; None for `OPEN`, which each page words
    in its own way (how many games it would take, whether the interval excludes 0)."""
    p = f" {p}" if p else ""
    return {
        PRACTICAL: f"resolved{p}",
        BELOW: f"resolved{p}, but {words}",
        POSSIBLY_BELOW: f"resolved{p}, {words}",
        EQUIVALENT: f"not resolved{p}; {words}",
    }.get(size)


FIXED_WORDS = "not tested: the rules fix it (no game varies it)"


def interval_words(tests: int = 1) -> str:
    """What "its interval" is in a size's words: the 95% interval of one test, or in a
    family of `tests` the interval at its Bonferroni level (`contrasts.corrected_interval`),
    named with its coverage: `its 99.8% interval (corrected over 30 tests)`."""
    if tests <= 1:
        return "its interval"
    level = 100.0 * corrected_level(tests)
    digits = 1
    while digits < 4 and float(f"{level:.{digits}f}") >= 100.0:
        digits += 1
    return f"its {level:.{digits}f}% interval (corrected over {tests} tests)"


def size_words(size: str, smallest: float, unit: str, short: bool = False, tests: int = 1) -> str:
    """A `contrasts.practical_size` category as the pages say it, `""` for `PRACTICAL`
    (whose `resolved` says it all).

    `short`: the few words a headline lists after an effect (`smaller than 1 pp, the
    smallest effect that matters`); else the clause a verdict ends on, with what the
    interval shows. `tests`: the size of the family, whose corrected interval the size
    was read from (`interval_words`).
    """
    s = amount(float(_size(smallest)), unit)
    its = interval_words(tests)
    if short:
        return {
            BELOW: f"smaller than {s}, the smallest effect that matters",
            POSSIBLY_BELOW: f"possibly below {s}, the smallest effect that matters",
            EQUIVALENT: f"no change that matters ({its} lies within ±{s})",
            OPEN: f"not resolved at this size (a change of {s} is not ruled out)",
        }.get(size, "")
    return {
        BELOW: (
            f"smaller than the smallest effect that matters ({its} lies within ±{s}, "
            "the smallest effect of interest)"
        ),
        POSSIBLY_BELOW: (
            f"possibly below the smallest effect that matters ({its} reaches inside "
            f"±{s}, the smallest effect of interest)"
        ),
        EQUIVALENT: (
            f"{its} rules out effects beyond ±{s} (the smallest effect of interest): "
            "no change that matters"
        ),
        OPEN: f"it cannot rule out a change of {s}",
    }.get(size, "")


def all_equivalent(tests: Sequence[Test], smallest: float | None) -> bool:
    """Every one of `tests` (at least one) is not resolved and its interval lies inside
    ±`smallest` (`contrasts.EQUIVALENT`): a sameness shown, not a test that merely failed."""
    return (
        smallest is not None
        and len(tests) > 0
        and all(size_of(t, smallest) == EQUIVALENT for t in tests)
    )


def not_told_apart(names: str, tests: Sequence[Test], smallest: float, unit: str) -> str:
    """`A and B are the same within ±1 round` when the intervals of their differences
    (`tests`, the leader against each other) show it (`all_equivalent`), else `A and
    B cannot be told apart at this size`: never "tied" from a test that merely failed to
    resolve."""
    if all_equivalent(tests, smallest):
        return f"{names} are the same within ±{amount(float(_size(smallest)), unit)}"
    return f"{names} cannot be told apart at this size"


def _size(x: float) -> str:
    """A smallest effect as it was set: `1`, `0.25`, `2.5` (no trailing zeros)."""
    return f"{x:.3g}"


def _pages(terminal: str = "all the") -> str:
    """Whose comparisons: `the page's` on a page, `terminal` (`all the`) at the terminal."""
    return said("the page's", terminal)


def counted_by_size(sizes: Sequence[str], smallest: float, unit: str) -> list[str]:
    """Comparisons counted by practical size (`contrasts.SIZES`), largest first, each
    clause worded by its size and never by its significance alone: `3 by more than 1
    round, the smallest effect that matters`, `9 resolved but possibly by less than 1
    round`, `2 resolved but by less than 1 round, smaller than the smallest effect that
    matters`, `1 the same within ±1 round`, `4 not resolved at this size`. Sizes with no
    comparison are left out."""
    s = amount(float(_size(smallest)), unit)
    words = {
        PRACTICAL: f"by more than {s}, the smallest effect that matters",
        POSSIBLY_BELOW: f"resolved but possibly by less than {s}",
        BELOW: f"resolved but by less than {s}, smaller than the smallest effect that matters",
        EQUIVALENT: f"the same within ±{s} (no change that matters)",
        OPEN: "not resolved at this size",
    }
    counts = {size: sum(1 for x in sizes if x == size) for size in words}
    return [f"{k} {words[size]}" for size, k in counts.items() if k]
