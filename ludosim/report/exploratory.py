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
"""

from __future__ import annotations

from collections.abc import Iterable

from ludosim.report.contrasts import POWER, games_to_detect
from ludosim.report.wording import about

PREFIX = "Exploratory:"


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


__all__ = ["PREFIX", "exploratory_note", "exploratory_text", "games_needed", "is_exploratory"]
