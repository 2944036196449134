"""Every pair of cells on one measure, and the top and bottom of their ranking (the
sweep page's `pairs` design, for game length and the first player's edge)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping

from ludosim.report.finding import DIFFERENCES, Finding, all_equivalent, not_told_apart
from ludosim.report.sweeppage.pagestate import (
    _at_table,
    _compare,
    _Compared,
    _effect_text,
    _finding,
    _how,
    _needed_for,
    _Page,
    _per,
    _sentence,
    _sizing_of,
    _verdict,
)
from ludosim.report.wording import estimate, listing, num, of
from ludosim.results.measures import FIRST, LENGTH, Measure

# A count of pairs that differ names them up to this many (the statements below list all).
NAMED_PAIRS = 4


# ----------------------------------------------------------------- pairs
def _pairs(page: _Page, measure: Measure) -> dict[tuple[str, str], _Compared]:
    """Every pair of cells on one measure, registered in the page's family."""
    out = {}
    for a, b in itertools.combinations(page.ids, 2):
        label = f"{page.names(a)} against {page.names(b)}"
        out[(a, b)] = _compare(
            page, measure, {a: 1.0, b: -1.0}, label, f"pair:{measure.name}:{a}|{b}", cell=a, base=b
        )
    return out


def _pair(pairs: Mapping[tuple[str, str], _Compared], a: str, b: str) -> tuple[_Compared, float]:
    """The comparison of a and b, and the sign that turns it into a - b."""
    return (pairs[(a, b)], 1.0) if (a, b) in pairs else (pairs[(b, a)], -1.0)


def _oriented(c: _Compared, sign: float) -> tuple[float, float, float]:
    t = c.test
    lo, hi = sorted((sign * t.ci_low, sign * t.ci_high))
    return sign * t.estimate, lo, hi


def _pairs_ranking(page: _Page, measure: Measure) -> Callable[[], list[Finding]]:
    """A pairs design on one measure: the top and bottom of the ranking, and every pair."""
    pairs = _pairs(page, measure)
    samples = page.samples(measure)
    topic = "length" if measure is LENGTH or measure.name == LENGTH.name else "first_player"

    def render() -> list[Finding]:
        means = {c: samples.means[c] for c in page.ids}
        order = sorted(page.ids, key=lambda c: -means[c])
        compared = list(pairs.values())
        needed = _needed_for(page, compared)
        out = []
        words = _ranking_words(measure)
        for end, cells in (("top", order), ("bottom", order[::-1])):
            if measure.name == FIRST.name and end == "bottom":
                continue  # the first player's ranking asks where the edge is largest
            first, second = cells[0], cells[1]
            c, sign = _pair(pairs, first, second)
            gap, lo, hi = _oriented(c, sign)
            tied = [o for o in cells[1:] if not _pair(pairs, first, o)[0].test.resolved]
            value = c.scale.factor * means[first] if measure.name != FIRST.name else None
            word = words[end]
            unit = c.scale.unit
            if c.test.resolved:
                text = (
                    f"{word[0]} under {page.names(first)}"
                    + (f", {num(value, 1)} {unit}" if value is not None else "")
                    + f"; {word[2]} {page.names(second)}, the next, by "
                    + estimate(abs(gap), *sorted((abs(lo), abs(hi))), unit, sign=False)
                    + f"; {_verdict(c)}."
                )
            else:
                names = listing([page.names(x) for x in [first, *tied]])
                alike = [_pair(pairs, first, o)[0].test for o in tied]
                text = (
                    f"{word[1]}: {not_told_apart(names, alike, c.scale.smallest, unit)} "
                    f"({page.names(first)} against {page.names(second)}: "
                    f"{estimate(gap, lo, hi, unit)}, {_verdict(c)})."
                )
            out.append(
                Finding(
                    topic,
                    text,
                    c.test.resolved,
                    None if c.test.resolved else needed,
                    True,
                    "ranking",
                    gap,
                    lo,
                    hi,
                    unit,
                    DIFFERENCES,
                    c.test.p_adjusted,
                    c.test.games,
                    equivalent=not c.test.resolved and all_equivalent(alike, c.scale.smallest),
                )
            )
        differ = [c for c in compared if c.test.resolved]
        summary = (
            f"{_sentence(of(len(differ), len(compared)))} pairs of {page.noun} differ in the "
            f"{measure.title} beyond chance"
        )
        # A count names what it counts: the pairs themselves, when they are few and not all.
        if 0 < len(differ) < len(compared) and len(differ) <= NAMED_PAIRS:
            summary += ": " + listing([c.label for c in differ])
        summary += "."
        if not differ:
            summary += " " + _sizing_of(compared, needed, page.per_cell_games(), _per(page))
        out.append(Finding(topic, summary, True, headline=True, kind="note"))
        for c in sorted(differ, key=lambda x: -abs(x.test.estimate)):
            text = f"{c.label}: {measure.title} {_effect_text(c, _how(c))}; {_verdict(c)}"
            practical = _at_table(c, page)
            out.append(_finding(topic, c, text + (f"; {practical}." if practical else ".")))
        return out

    return render


def _ranking_words(measure: Measure) -> dict[str, tuple[str, str, str]]:
    """Per end of a ranking: its sentence, its heading when nothing is resolved, and how
    the leader compares with the next."""
    if measure.name == LENGTH.name:
        return {
            "top": ("Games are longest", "Longest games", "longer than"),
            "bottom": ("Games are shortest", "Shortest games", "shorter than"),
        }
    return {
        "top": ("The first player's edge is largest", "Largest first-player edge", "larger than")
    }
