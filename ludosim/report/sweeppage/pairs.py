"""Every pair of cells on one measure, and the top and bottom of their ranking (the
sweep page's `pairs` design, for game length and the first player's edge)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping

from ludosim.report.contrasts import BELOW, is_fixed, size_of
from ludosim.report.exploratory import lead_words
from ludosim.report.finding import (
    DIFFERENCES,
    Finding,
    _size,
    all_equivalent,
    counted_by_size,
    not_told_apart,
)
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
    _sizing_of,
    _verdict,
)
from ludosim.report.wording import amount, estimate, listing, num
from ludosim.results.measures import FIRST, LENGTH, Measure

# A count of pairs that differ names them up to this many (the statements below list all).
NAMED_PAIRS = 4


# ----------------------------------------------------------------- pairs
def _groups(page: _Page, measure: Measure) -> list[list[str]]:
    """The cells that compare on `measure`, in groups of alike cells (`_Page.kind_of`):
    game length among the cells without a move limit; the first player's edge among the
    cells whose seats play alone, and apart among those that play in teams."""
    kinds: dict[str, list[str]] = {}
    for cell in page.ids:
        kinds.setdefault(page.kind_of(measure, cell), []).append(cell)
    if measure.name == LENGTH.name:
        return [kinds.get("", [])]
    return list(kinds.values())


def _pairs(page: _Page, measure: Measure) -> dict[tuple[str, str], _Compared]:
    """Every pair of alike cells on one measure, registered in the page's family; a pair of
    cells that do not compare like with like is left out (`_Page.comparable`)."""
    out = {}
    for a, b in itertools.combinations(page.ids, 2):
        if not page.comparable(measure, (a, b)):
            continue
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


def _group_name(page: _Page, measure: Measure, cells: list[str], groups: int) -> str:
    """`Among the team games, ` before a ranking of one group of several; else ``."""
    if groups < 2:
        return ""
    teamed = page.kind_of(measure, cells[0])
    return "Among the team games, " if teamed else "Among the games of seats playing alone, "


def _pairs_ranking(page: _Page, measure: Measure) -> Callable[[], list[Finding]] | None:
    """A pairs design on one measure: the top and bottom of the ranking of each group of
    alike cells, and every pair. None when no two cells compare."""
    groups = [g for g in _groups(page, measure) if len(g) >= 2]
    pairs = _pairs(page, measure)
    if not pairs:
        return None
    topic = "length" if measure is LENGTH or measure.name == LENGTH.name else "first_player"

    def render() -> list[Finding]:
        compared = list(pairs.values())
        tested = [c for c in compared if not is_fixed(c.test)]
        needed = _needed_for(page, tested)
        out = []
        for group in groups:
            out += _ends(page, measure, pairs, group, topic, needed, len(groups))
        differ = [c for c in tested if c.test.resolved]
        # Counted by practical size, each pair against the smallest effect of its own fair
        # share (pairs of teams and of seats hold different ones in pp).
        parts = []
        for smallest in sorted({c.scale.smallest for c in tested}):
            mine = [c for c in tested if c.scale.smallest == smallest]
            sizes = [size_of(c.test, smallest) for c in mine]
            parts += counted_by_size(sizes, smallest, mine[0].scale.unit)
        n = len(tested)
        if len(parts) == 1 and n > 1:
            parts = [f"all {parts[0]}"]  # one size for every pair: all of them
        summary = (
            f"Of the {n} pair{'s' if n != 1 else ''} of {page.noun} compared on the "
            f"{measure.title}, " + "; ".join(parts) + "."
        )
        if 0 < len(differ) < len(tested) and len(differ) <= NAMED_PAIRS:
            # A count names what it counts: the pairs themselves, when they are few.
            summary += " Those resolved: " + listing([c.label for c in differ]) + "."
        summary += lead_words()
        if not differ:
            summary += " " + _sizing_of(tested, needed, page.per_cell_games(), _per(page))
        out.append(Finding(topic, summary.strip(), True, headline=True, kind="note"))
        for c in sorted(differ, key=lambda x: -abs(x.test.estimate)):
            text = f"{c.label}: {measure.title} {_effect_text(c, _how(c))}; {_verdict(c)}"
            practical = _at_table(c, page)
            out.append(_finding(topic, c, text + (f"; {practical}." if practical else ".")))
        return out

    return render


def _ends(
    page: _Page,
    measure: Measure,
    pairs: Mapping[tuple[str, str], _Compared],
    group: list[str],
    topic: str,
    needed: int | None,
    groups: int,
) -> list[Finding]:
    """The top (and for length the bottom) of one group's ranking, worded by the practical
    size of the gap to the next: a gap smaller than the smallest effect of interest is
    said to be one, never headlined as a lead."""
    means = {c: page.samples(measure).means[c] for c in group}
    order = sorted(group, key=lambda c: -means[c])
    out = []
    words = _ranking_words(measure)
    among = _group_name(page, measure, group, groups)
    for end, cells in (("top", order), ("bottom", order[::-1])):
        if measure.name == FIRST.name and end == "bottom":
            continue  # the first player's ranking asks where the edge is largest
        if end == "bottom" and len(group) == 2:
            continue  # of two cells the top says it all: one pair, stated once
        first, second = cells[0], cells[1]
        c, sign = _pair(pairs, first, second)
        gap, lo, hi = _oriented(c, sign)
        tied = [o for o in cells[1:] if not _pair(pairs, first, o)[0].test.resolved]
        value = c.scale.factor * means[first] if measure.name != FIRST.name else None
        word = words[end]
        unit = c.scale.unit
        size = size_of(c.test, c.scale.smallest)
        alike: list = []
        if c.test.resolved and size != BELOW:
            text = (
                f"{word[0]} under {page.names(first)}"
                + (f", {num(value, 1)} {unit}" if value is not None else "")
                + f"; {word[2]} {page.names(second)}, the next, by "
                + estimate(abs(gap), *sorted((abs(lo), abs(hi))), unit, sign=False)
                + f"; {_verdict(c)}."
            )
        elif c.test.resolved:
            s = amount(float(_size(c.scale.smallest)), unit)
            text = (
                f"{word[1]}: {page.names(first)} and {page.names(second)}, the next, differ by "
                f"less than {s}, the smallest effect that matters ({page.names(first)} "
                f"{word[2]} {page.names(second)} by "
                + estimate(abs(gap), *sorted((abs(lo), abs(hi))), unit, sign=False)
                + f"; {_verdict(c)})."
            )
        else:
            names = listing([page.names(x) for x in [first, *tied]])
            alike = [_pair(pairs, first, o)[0].test for o in tied]
            text = (
                f"{word[1]}: {not_told_apart(names, alike, c.scale.smallest, unit)} "
                f"({page.names(first)} against {page.names(second)}: "
                f"{estimate(gap, lo, hi, unit)}, {_verdict(c)})."
            )
        if among:
            text = among + text[:1].lower() + text[1:]
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
    return out


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
