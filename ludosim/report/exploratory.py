"""When a run is too small to quote: the one rule every output states it by.

A run is *exploratory* when it has fewer games than the measure its output is
about needs to detect that measure's smallest effect of interest
(`ludosim.results.measures`) with `contrasts.POWER` at its family's level, and no
precision target that it met. Pages decide it in `findings.page_findings`
(`PageFindings.exploratory`, with a note that starts with `PREFIX`); the terminal
answers (`ludosim.report.answers.Answer`) carry the same flag and note, and an
answer decided without a page (`whatif`) sizes its measure with `games_needed`,
so the arithmetic stays `contrasts.games_to_detect`.

An exploratory note says so plainly, first word `Exploratory:`, with the games
the run has and about how many the measure would need: its findings are leads to
confirm with a larger run, not results to quote.

Nothing at an exploratory size says "beyond chance": while sentences are written
inside `leads()`, `beyond_chance()` words a resolved difference as a lead to confirm
on fresh games, on pages, in `findings.json` (`as_leads` flags each `Finding`) and at
the terminal alike.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import replace
from typing import TypeVar

from ludosim.report.contrasts import POWER, games_to_detect
from ludosim.report.wording import about

F = TypeVar("F")  # a `finding.Finding` (a frozen dataclass with `exploratory`)
PREFIX = "Exploratory:"
LEAD = "a lead to confirm on fresh games"
LEADS = "leads to confirm on fresh games"
_EXPLORING: ContextVar[bool] = ContextVar("ludosim_exploring", default=False)


@contextlib.contextmanager
def leads(on: bool = True) -> Iterator[None]:
    """Write the sentences of this block for an exploratory run (`on`): what a family
    resolved is a lead to confirm, never a change "beyond chance"."""
    token = _EXPLORING.set(on)
    try:
        yield
    finally:
        _EXPLORING.reset(token)


def exploring() -> bool:
    """Whether the sentences now being written are of an exploratory run (`leads`)."""
    return _EXPLORING.get()


def beyond_chance(plural: bool = False, negative: bool = False) -> str:
    """`beyond chance`, or inside `leads()` `(a lead to confirm on fresh games)` (`plural`:
    `(leads to confirm on fresh games)`): the words after a resolved difference. `negative`:
    after a difference not resolved ("none moves it beyond chance"), inside `leads()`
    `at this size`."""
    if not _EXPLORING.get():
        return "beyond chance"
    if negative:
        return "at this size"
    return f"({LEADS if plural else LEAD})"


def as_leads(found: Sequence[F]) -> list[F]:
    """Every finding of an exploratory run flagged `exploratory` (a lead to confirm)."""
    return [replace(f, exploratory=True) for f in found]


def lead_words() -> str:
    """` Read these as leads to confirm on fresh games.` after a sentence of resolved
    differences written for an exploratory run (`leads`), else ``."""
    return f" Read these as {LEADS}." if exploring() else ""


def games_needed(sd: float, smallest: float, tests: int, pooled: int = 1) -> int | None:
    """About how many games detect `smallest` with `POWER` over a family of `tests` tests.

    `sd` is the per-game standard deviation behind the estimate, in the unit of
    `smallest`; estimates that pool the games of `pooled` cells need that many times
    fewer per cell. Two significant figures (`wording.about`): a size planned from a
    spread is no more precise than that. None when `sd` or `smallest` is not positive.
    """
    total = games_to_detect(sd, smallest, tests, POWER)
    return None if total is None else about(total / max(pooled, 1))


def is_exploratory(needed: int | None, have: int, target_met: bool = False) -> bool:
    """The rule: fewer games than the measure needs, and no precision target met."""
    return not target_met and needed is not None and have < needed


def exploratory_text(have: int, needed: int, what: str, per: str = "", read: str = "") -> str:
    """The plain note of an exploratory run, starting with `PREFIX`.

    `what`: the detection the run is short of ("a change of 1 pp in a seat's win
    chance with 80% power over the 4 seats"); `per`: what the games count
    ("per cell"); `read`: what to read as leads ("the win chances").
    """
    per = f" {per}" if per else ""
    read = read or "the findings on it"
    return (
        f"{PREFIX} this run has {have:,} games{per} and no precision target; {what} needs "
        f"about {needed:,} games{per}. Read {read} as leads to confirm with a larger run, "
        "not as results to quote."
    )


def exploratory_note(texts: Iterable[str]) -> str:
    """The exploratory note among these statements (the first that starts with `PREFIX`),
    or "" when there is none."""
    return next((t for t in texts if t.startswith(PREFIX)), "")


__all__ = [
    "LEAD",
    "LEADS",
    "PREFIX",
    "as_leads",
    "beyond_chance",
    "exploratory_note",
    "exploratory_text",
    "exploring",
    "games_needed",
    "is_exploratory",
    "lead_words",
    "leads",
]
