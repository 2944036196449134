"""How to read a sweep page: its families, the cells merged as the same games, its
smallest effects of interest, whether it is exploratory, seating caveats."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ludosim.report.analysis import SameGames
from ludosim.report.contrasts import ALPHA, POWER, corrected_level
from ludosim.report.exploratory import is_exploratory
from ludosim.report.finding import Finding, _size
from ludosim.report.sweeppage.pagestate import (
    MOVE_LIMIT_APART,
    SOLO_APART,
    TEAMS_APART,
    _Page,
)
from ludosim.report.wording import listing, said
from ludosim.results.measures import FIRST, LENGTH, WIN


def _title(page: _Page, name: str) -> str:
    measure = page.measures.get(name)
    return measure.title if measure is not None else name


# ------------------------------------------------------------------ notes
def _smallest_text(page: _Page) -> str:
    """The smallest effects of interest the page sizes by, in its players' terms."""
    length, first, win = (page.measures[m] for m in (LENGTH.name, FIRST.name, WIN.name))
    sides = sorted({(page.sides(c), page.sides(c) < page.players(c)) for c in page.ids})
    per = ", ".join(
        f"{_size(first.smallest / n)} pp with {n} {'team' if teams else 'player'}{'s' * (n > 1)}"
        for n, teams in sides
    )
    parts = [
        f"{_size(length.smallest)} round{'s' * (length.smallest != 1)} of game length",
        f"{_size(first.smallest)}% of a fair share of the first player's edge ({per})",
    ]
    if page.design in ("tournament", "skip"):
        parts.append(f"{_size(win.smallest)} pp of win share")
    return f"Smallest effects of interest: {listing(parts)}."


def _given(page: _Page, cell: str) -> str:
    """A cell as its merge note names it: its id on a page, its name at the terminal."""
    return said(str(cell), page.layout.given_names.get(str(cell), page.names(cell)))


def _size_rule(page: _Page) -> str:
    """How claims of size and sameness share the families' correction."""
    m = page.differences.size
    level = 100 * corrected_level(m)
    return (
        "Whether a difference is at least the smallest effect of interest, smaller than it, "
        "or none that matters (an equivalence: two one-sided tests, Schuirmann 1987) is read "
        f"from its interval at the family's Bonferroni level ({level:.{_digits(level)}f}% over "
        f"the {m} comparisons; each one-sided test at {_p(ALPHA / (2 * m))}; a cell against "
        "its fair share at the level of its own family), so claims of sameness are held to "
        "the same correction as the claims of difference beside them (Holm 1979)."
    )


def _digits(level: float) -> int:
    digits = 1
    while digits < 4 and float(f"{level:.{digits}f}") >= 100.0:
        digits += 1
    return digits


def _p(x: float) -> str:
    return f"{x:.2g}"


def _apart_notes(page: _Page) -> list[Finding]:
    """What was left out of a measure's comparisons, and why, in words (`_Page.comparable`)."""
    out = []
    limited = page.apart.get(LENGTH.name, {}).get(MOVE_LIMIT_APART, [])
    if limited:
        out.append(
            Finding(
                "about",
                f"Game length is counted in rounds until the winner finished; a move limit ends "
                f"a game when every seat has played its turns, and such a game's length is the "
                f"limit's, fixed by the rules, not a race's. The {len(limited)} {page.noun} with "
                f"a move limit ({listing([page.names(c) for c in limited])}) are therefore left "
                "out of the comparisons of game length (their lengths are stated, not tested): "
                "a quantity the rules fix is never tested nor counted in a family.",
                True,
                headline=True,
                kind="note",
            )
        )
    teams = page.apart.get(FIRST.name, {}).get(TEAMS_APART, [])
    solo = page.apart.get(FIRST.name, {}).get(SOLO_APART, [])
    if teams and solo:
        out.append(
            Finding(
                "about",
                "Under teams the first player's side is its team, whose edge is measured "
                "against 1/teams; a seat's edge in a game without teams is measured against "
                "1/players. The two are not the same quantity, so the first player's edge is "
                "compared only between cells of alike sides: "
                f"{listing([page.names(c) for c in teams])} among themselves, and "
                f"{listing([page.names(c) for c in solo])} among themselves.",
                True,
                headline=True,
                kind="note",
            )
        )
    return out


# The measures that judge whether a page is exploratory, where it is about one of them: a
# tournament and a skip-cost page answer with win shares, so the first player's edge
# they also state cannot make them exploratory. Other pages are judged by every measure.
JUDGED_BY: dict[str, tuple[str, ...]] = {"tournament": (WIN.name,), "skip": (WIN.name,)}


def _notes(
    page: _Page, merged: Sequence[SameGames], target_met: bool | Collection[str]
) -> list[Finding]:
    """How to read the page: its families, the cells merged, its size, seating caveats.

    `target_met`: True when the run met a precision target that holds every measure the
    page states, or the names of the measures a met target holds (the others are still
    judged by their sizes)."""
    out = []
    m = page.differences.size
    if m:
        out.append(
            Finding(
                "about",
                said("This page makes ", "") + f"{m} comparison{'s' if m != 1 else ''} between "
                f"{page.noun if page.design != 'tournament' else 'policies'}, each counted once "
                f"and decided together by Holm's correction: the chance that any of them is a "
                f"false claim of a difference is at most {round(100 * ALPHA)}%. "
                + said(
                    "Each cell against its fair share is a family of its own",
                    f"The tests of each {page.one()}'s turn order against its fair share are a "
                    "family of their own",
                )
                + f" ({page.values.size} tests, Holm). "
                + _size_rule(page),
                True,
                headline=True,
                kind="note",
            )
        )
    out += _apart_notes(page)
    for same in merged:
        why = "; ".join(same.reasons) if same.reasons else "the same rules and policies"
        out.append(
            Finding(
                "about",
                f"{listing([_given(page, c) for c in same.merged])} "
                f"{'plays' if len(same.merged) == 1 else 'play'} "
                f"the same games as {_given(page, same.kept)} ({why}): "
                f"they are counted once, as {page.labels(same.kept)}.",
                True,
                headline=True,
                kind="note",
            )
        )
    smallest = _smallest_text(page)
    judged = JUDGED_BY.get(page.design)
    waived = set(page.sizing) if target_met is True else set(target_met or ())
    sizing = {
        n: k for n, k in page.sizing.items() if (judged is None or n in judged) and n not in waived
    }
    needed = max(sizing.values(), default=0)
    have = page.per_cell_games()
    if is_exploratory(needed or None, have):
        page.exploratory = True
        short = [_title(page, n) for n, k in sizing.items() if k > have]
        what = f"the {listing(short)}" if short else "the smallest effects of interest"
        target = (
            f"a precision target met on the {listing([_title(page, n) for n in waived])} only"
            if waived
            else "no precision target"
        )
        out.append(
            Finding(
                "about",
                f"Exploratory: this run has {have:,} games"
                + said(" per cell", "" if len(page.ids) == 1 else f" per {page.one()}")
                + f" and {target}; "
                f"detecting the smallest effect of interest in {what} with "
                f"{round(100 * POWER)}% power after the correction needs about {needed:,}. "
                "Read the findings on it as leads to confirm with a larger run, not as results "
                f"to quote. {smallest}",
                True,
                headline=True,
                kind="note",
            )
        )
    elif m:
        out.append(Finding("about", smallest, True, headline=True, kind="note"))
    if page.layout.seat0:
        out.append(
            Finding(
                "about",
                "Under first_player=seat0 each turn-order position always sits on the same arm, "
                "so what a position wins includes the seating's geometry (with three players "
                "on four arms one arm is empty, behind one seat and ahead of another).",
                True,
                headline=True,
                kind="note",
            )
        )
    return out
