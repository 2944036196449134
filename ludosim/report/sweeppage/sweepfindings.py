"""Findings: what a results table says, in sentences a reader can quote.

`page_findings(df, cells)` decides every question the results can answer and
writes it as `Finding`s: how long games last, whether the first player is
favoured, what skipping a forced capture costs, how policies rank in a
tournament, what each one-toggle change does, which factorial effects and
interactions there are. `findings(df, cells)` is its list of findings alone.

How a page decides (docs/analysis.md, "Findings"):

- **Same games merged first.** Cells that play the same games (a toggle that
  cannot act, `ludosim.rules.canonical`) are merged before anything is compared, and
  the page says which (`analysis.merge_same_games`).
- **One family of differences per page.** Every comparison the page states
  between cells (a toggle effect, a pair of cells, a factorial effect, a policy
  against another, a skip cost, the gap behind a ranking) is one `Test` of the
  page's `differences` family, decided by Holm's correction over all of them at
  a 5% family-wise error rate: the chance that a page makes any false claim of a
  difference stays at most 5%, however many cells and topics it holds. Which
  comparisons are made follows from the design, never from the data: the
  one-toggle changes from a base, the terms of a factorial design, else every
  pair of cells; each is tested once.
- **Values against a fixed reference** (each cell's first player against its
  fair share, each cell's turn order against equal shares) are a second
  family, `values`, also Holm.
- **Like with like.** Game length is compared in rounds (turns / players); the
  first player's edge in percentage points between cells of one player count and
  as a share of the fair share between counts (`ludosim.results.measures`). Cells pair
  by game only when they hold the same games and the same seats.
- **Rankings** ("longest", "best") are resolved only when the first differs
  from the second in the family; otherwise the page says which are tied. A gap
  whose order was read from the data (the largest of several effects against
  the next) is tested with its p-value doubled.
- **Sizes from a smallest effect of interest**, never from an observed
  estimate: "detecting 1 round needs about N games per cell", with the
  family's level and 80% power (`contrasts.games_to_detect`). A run smaller
  than that, without a precision target met, is marked exploratory.
- **Practical size**: headlines say what an effect means at a table.

**Two readers.** Every finding is worded twice from the same decisions: for the
page (`PageFindings.findings`, which `findings.json` holds) and for the terminal
(`PageFindings.terminal`, the same findings in the same order): no cell ids, no
sections to point at, no page speaking of itself (`ludosim.report.wording.said`).

`TITLES` names each topic for a reader. Numbers are written by
`ludosim.report.wording`; toggle values and cell names in the spelling `--set`
accepts (`ludosim.report.analysis.value_text`).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any

import pandas as pd

from ludosim.report import analysis
from ludosim.report.exploratory import as_leads, leads
from ludosim.report.finding import Finding, PageFindings
from ludosim.report.sweeppage.factorial import _factorial
from ludosim.report.sweeppage.firstplayer import _first_player
from ludosim.report.sweeppage.gamelength import _length
from ludosim.report.sweeppage.pagedesign import PageDesign, page_design
from ludosim.report.sweeppage.pagenotes import _notes
from ludosim.report.sweeppage.pagestate import _Page
from ludosim.report.sweeppage.policyranking import _policies
from ludosim.report.sweeppage.skipcost import _skip_cost
from ludosim.report.sweeppage.toggleeffects import _base_effects
from ludosim.report.wording import speaking
from ludosim.results.measures import with_smallest

# The question a study is built for comes first (a tournament's ranking, a skip
# sweep's break-even, a toggle sweep's effects); length and first player close.
TOPICS = (
    "about",
    "policies",
    "skip_cost",
    "seat",
    "toggles",
    "interactions",
    "length",
    "first_player",
)
TITLES = {
    "about": "How to read these findings",
    "length": "Game length",
    "first_player": "First-player advantage",
    "skip_cost": "Skip cost",
    "seat": "The seat that changed policy",
    "policies": "Policies",
    "toggles": "Toggle effects",
    "interactions": "Interactions",
}


COMPARISON_COLUMNS = (
    "key", "kind", "measure", "label", "cell", "base", "unit", "estimate", "ci_low",
    "ci_high", "p_value", "p_adjusted", "resolved", "games", "method", "players",
)  # fmt: skip


def findings(df: pd.DataFrame, cells: pd.DataFrame, **options: Any) -> list[Finding]:
    """The findings of `page_findings(df, cells, **options)`."""
    return page_findings(df, cells, **options).findings


def page_findings(
    df: pd.DataFrame,
    cells: pd.DataFrame | None = None,
    *,
    design: PageDesign | None = None,
    smallest: Mapping[str, float] | None = None,
    target_met: bool | Collection[str] = False,
) -> PageFindings:
    """Every finding the per-game rows `df` (with `cell`) and their `cells` table support.

    `df` and `cells` are what `ludosim.results.load(path, cells=True)` and
    `ludosim.results.load_cells(path)` return; `design` is `page_design(cells)`,
    computed here when not given (pass it to decide many tables of the same
    cells). `smallest`: smallest effects of interest by measure name
    (`ludosim.results.measures`), overriding the defaults. `target_met`: the run met a
    precision target it was sized by, so it is not exploratory however small (True), or
    the names of the measures such a target holds (only those are waived).
    Topics without what they need give no findings; the order is `TOPICS`,
    headlines first within a topic.
    """
    if df.empty or "winner" not in df.columns:
        return PageFindings([])
    if "cell" not in df.columns:
        df = df.assign(cell="all")
    if design is None:
        if cells is None or "cell" not in cells.columns or cells.empty:
            ids = [str(c) for c in df["cell"].unique()]
            cells = pd.DataFrame({"cell": ids, "name": ids})
        design = page_design(cells)
    page = _Page(analysis.without_cells(df, design.merged), design, with_smallest(smallest))
    renders: list[Callable[[], list[Finding]]] = []
    for build in (_policies, _skip_cost, _effects, _length, _first_player):
        try:
            render = build(page)
        except analysis.AnalysisError:
            continue  # the table lacks what this topic needs (the error names it)
        if render is not None:
            renders.append(render)
    for family in page.families:
        family.adjust()

    def worded() -> list[Finding]:
        # Rendering only words what the families decided: once per reader, alike.
        out = [f for render in renders for f in render()]
        notes = _notes(page, design.merged, target_met)
        order = {t: i for i, t in enumerate(TOPICS)}
        return sorted(
            [*notes, *out], key=lambda f: (order.get(f.topic, len(order)), not f.headline)
        )

    found = worded()
    with leads(page.exploratory):
        # An exploratory page is known once its sizes are: worded again, its resolved
        # differences read as leads to confirm, never as "beyond chance".
        if page.exploratory:
            found = as_leads(worded())
        with speaking("terminal"):
            terminal = [replace(f, text=t.text) for f, t in zip(found, worded(), strict=True)]
    table = pd.DataFrame(
        [
            {
                **meta,
                "estimate": t.estimate,
                "ci_low": t.ci_low,
                "ci_high": t.ci_high,
                "p_value": t.p_value,
                "p_adjusted": t.p_adjusted,
                "resolved": t.resolved,
                "games": t.games,
                "method": t.method,
            }
            for meta, t in page.entries
        ],
        columns=list(COMPARISON_COLUMNS),
    )
    return PageFindings(found, page.families, list(design.merged), page.exploratory, table,
                        terminal)  # fmt: skip


# ------------------------------------------------------------ toggle effects
def _effects(page: _Page) -> Callable[[], list[Finding]] | None:
    if page.design == "base":
        return _base_effects(page)
    if page.design == "factorial":
        return _factorial(page)
    return None
