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

import itertools
import math
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report import analysis
from ludosim.report.analysis import SameGames, value_text
from ludosim.report.contrasts import (
    ALPHA,
    BELOW,
    EQUIVALENT,
    OPEN,
    POSSIBLY_BELOW,
    POWER,
    PRACTICAL,
    CellSamples,
    Contrast,
    Family,
    Test,
    cell_rows,
    practical_size,
)
from ludosim.report.exploratory import games_needed, is_exploratory
from ludosim.report.wording import (
    amount,
    digits_for,
    each,
    estimate,
    games,
    listing,
    num,
    of,
    one_in,
    p_text,
    pct,
    said,
    speaking,
    voice,
)
from ludosim.report.wording import ci as ci_text
from ludosim.results.measures import FIRST, LENGTH, WIN, Measure, with_smallest
from ludosim.results.stats import Z95, score_test_p, zero_crossing

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
KINDS = ("value", "difference", "ranking", "note")
# A count of pairs that differ names them up to this many (the statements below list all).
NAMED_PAIRS = 4
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
    (an order among them) or `note` (how to read the page). estimate, ci_low,
    ci_high, unit: the number stated (None for notes); family: `differences`,
    `values` or None (a description, decided by nothing); p_adjusted: its
    family's Holm-adjusted p-value; games: the games behind it (per cell).
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


COMPARISON_COLUMNS = (
    "key", "kind", "measure", "label", "cell", "base", "unit", "estimate", "ci_low",
    "ci_high", "p_value", "p_adjusted", "resolved", "games", "method", "players",
)  # fmt: skip


def finding_records(found: Sequence[Finding]) -> list[dict[str, Any]]:
    """`findings.json`: one object per finding (`Finding.to_dict`)."""
    return [f.to_dict() for f in found]


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


# ----------------------------------------------------------------- the design
@dataclass
class PageDesign:
    """What a page compares, from its cells table alone (never from the results).

    cells: the cells table with cells that play the same games merged
    (`analysis.same_games`, listed in `merged`); ids: the kept cells in table
    order. kind: `single` (one cell), `tournament` (policies rotated through
    the seats), `skip` (a skipper against its baseline), `base` (one-toggle
    changes from base cells: `bases`), `factorial` (full 2^k designs:
    `strata`), else `pairs` (every pair of cells). names and labels: how cells
    are written (`killer`, `c004 (killer)`); noun: what the cells are to a
    reader.
    """

    cells: pd.DataFrame
    merged: list[SameGames]
    ids: list[str]
    kind: str
    names: dict[str, str]
    labels: dict[str, str]
    noun: str
    bases: list[tuple[str, str, list[tuple[str, str]]]] = field(default_factory=list)
    strata: list[analysis.Stratum] = field(default_factory=list)
    seat0: bool = False
    given_names: dict[str, str] = field(default_factory=dict)  # every cell, merged ones too


def page_design(cells: pd.DataFrame) -> PageDesign:
    """The `PageDesign` of a cells table: merged cells, the kind of design, the labels."""
    kept, merged = analysis.same_games(cells)
    kept = kept.reset_index(drop=True)
    ids = [str(c) for c in kept["cell"]]
    names = {str(k): v for k, v in _names(kept).items()}
    unique = len(set(names.values())) == len(names)
    labels = {c: (c if names.get(c, c) == c else f"{c} ({names[c]})") for c in ids}
    short = {c: (names.get(c, c) if unique else labels[c]) for c in ids}
    design = PageDesign(kept, merged, ids, "single", short, labels, _noun(kept))
    design.given_names = {str(k): v for k, v in _names(cells).items()}
    design.seat0 = "first_player" in kept.columns and bool(
        (kept["first_player"].astype(str) == "seat0").any()
    )
    if len(ids) < 2:
        return design
    seated = _seated(kept)
    if _rotated(seated):
        design.kind = "tournament"
    elif any(p.startswith("skipper:") for seats in seated.values() for p in seats):
        design.kind = "skip"
    elif bases := _bases(kept):
        design.kind, design.bases = "base", bases
    elif strata := _factorial_strata(kept):
        design.kind, design.strata = "factorial", strata
    else:
        design.kind = "pairs"
    return design


def _seated(cells: pd.DataFrame) -> dict[str, list[str]]:
    """cell -> the policy of every seat ({} without policies or players columns)."""
    if "policies" not in cells.columns or "players" not in cells.columns:
        return {}
    out = {}
    for cell, text, n in zip(cells["cell"], cells["policies"], cells["players"], strict=True):
        try:
            out[str(cell)] = analysis.seat_policies(text, int(n))
        except (analysis.AnalysisError, TypeError, ValueError):
            return {}
    return out


def _title(page: _Page, name: str) -> str:
    measure = page.measures.get(name)
    return measure.title if measure is not None else name


def _rotation_note(seated: Mapping[str, list[str]]) -> str:
    """When every seating is a rotation of one order, what that leaves confounded."""
    orders = [tuple(x) for x in seated.values()]
    if len(orders) < 2 or len(set(orders)) < 2:
        return ""
    first = orders[0]
    turns = {first[k:] + first[:k] for k in range(len(first))}
    if not all(o in turns for o in orders):
        return ""
    return (
        f" The seatings are rotations of one order ({', '.join(first)}): each policy always "
        "moves right after the same one, so what a neighbour does to it is part of its "
        "win share here."
    )


def _rotated(seated: Mapping[str, list[str]]) -> bool:
    """Every policy of the cells holds every seat in some cell: a tournament."""
    counts = {len(seats) for seats in seated.values()}
    if len(counts) != 1:
        return False
    seats_of: dict[str, set[int]] = {}
    for seats in seated.values():
        for seat, name in enumerate(seats):
            seats_of.setdefault(name, set()).add(seat)
    every = set(range(counts.pop()))
    return len(seats_of) >= 2 and all(s == every for s in seats_of.values())


def _bases(cells: pd.DataFrame) -> list[tuple[str, str, list[tuple[str, str]]]]:
    """(base, how it was chosen, [(changed cell, `toggle before -> after`)]) per base."""
    found = analysis.baselines(cells)
    if found.empty:
        return []
    texts = analysis.CellTexts(cells, analysis.comparison_columns(cells))
    ids = cells["cell"].astype(str).tolist()
    out = []
    for base, rule in zip(found["base"], found["rule"], strict=True):
        b = ids.index(str(base))
        changes = []
        for i, cell in enumerate(ids):
            changed = texts.differences(i, b)
            if i == b or len(changed) != 1:
                continue
            toggle = changed[0]
            before = value_text(cells.iloc[b][toggle], toggle)
            after = value_text(cells.iloc[i][toggle], toggle)
            changes.append((cell, f"{toggle} {before} -> {after}"))
        if changes:
            out.append((str(base), str(rule), changes))
    return out


# ------------------------------------------------------------------- the page
_ROW_COLUMNS = ("game", "first", "winner", "turns", "truncated")


class _Page:
    """The rows, design and families of one page, with the cells' samples per measure."""

    def __init__(self, df: pd.DataFrame, design: PageDesign, measures: dict[str, Measure]):
        self.df = df
        self.layout = design
        self.cells = design.cells
        self.design = design.kind
        self.measures = measures
        self.rows_of = cell_rows(df, _ROW_COLUMNS)
        self.ids = [c for c in design.ids if c in self.rows_of]
        self.ids += [c for c in self.rows_of if c not in self.ids]
        self.differences = Family(DIFFERENCES, "comparisons between cells")
        self.values = Family(VALUES, "cells against a fixed reference")
        self.families = [self.differences, self.values]
        self.noun = design.noun
        self.exploratory = False
        self.sizing: dict[str, int] = {}  # measure -> games per cell to detect its smallest
        self._samples: dict[str, CellSamples] = {}
        # Every test of the differences family with what it compares: `comparisons`.
        self.entries: list[tuple[dict[str, Any], Test]] = []

    def register(self, test: Test, kind: str, measure: str, label: str, unit: str,
                 cell: str = "", base: str = "", players: int | None = None) -> Test:  # fmt: skip
        """Add `test` to the differences family and to the page's comparisons table.

        `players`: the player count of every game behind the test, where they share one
        (a figure then puts effects in pp of different fair shares on one scale).
        """
        self.differences.add(test)
        meta = {"key": test.key, "kind": kind, "measure": measure, "label": label,
                "cell": cell, "base": base, "unit": unit, "players": players}  # fmt: skip
        self.entries.append((meta, test))
        return test

    def names(self, cell: str) -> str:
        return self.layout.names.get(str(cell), str(cell))

    def labels(self, cell: str) -> str:
        """`c004 (killer)` on a page; the terminal shows no cell ids."""
        if voice() == "terminal":
            return self.names(cell)
        return self.layout.labels.get(str(cell), str(cell))

    def one(self) -> str:
        """What one cell is to a reader at the terminal: `rule set`, `seating`, `cell`."""
        return {"rule sets": "rule set", "seatings": "seating"}.get(self.noun, "cell")

    def samples(self, measure: Measure) -> CellSamples:
        if measure.name not in self._samples:
            rows = {c: self.rows_of[c] for c in self.ids}
            self._samples[measure.name] = CellSamples(rows, measure.values)
        return self._samples[measure.name]

    def players(self, cell: str) -> int:
        return self.rows_of[cell].players

    def per_cell_games(self) -> int:
        return min(len(self.rows_of[c]) for c in self.ids)


# ---------------------------------------------------------------- measures
@dataclass
class _Scale:
    """How one measure's comparison is stated: its unit and the factor from raw values."""

    unit: str
    factor: float
    smallest: float  # the smallest effect of interest in `unit`


def _scale(page: _Page, measure: Measure, cells: Sequence[str]) -> _Scale:
    """Rounds for length; for the first player, pp within one player count, else % of fair."""
    if measure.name == FIRST.name:
        counts = {page.players(c) for c in cells}
        if len(counts) == 1:
            n = counts.pop()
            # Per-game values are n * won - 1: a difference of means / n is one of shares.
            return _Scale("pp", 100.0 / n, measure.smallest / n)
    return _Scale(measure.unit, measure.scale, measure.smallest)


@dataclass
class _Compared:
    """A comparison of the page: what it compares, in which unit, and its test."""

    test: Test
    measure: Measure
    scale: _Scale
    label: str
    cells: tuple[str, ...]
    sizes: tuple[int, ...] = ()  # games of each compared cell


def _compare(
    page: _Page,
    measure: Measure,
    weights: Mapping[str, float],
    label: str,
    key: str,
    p_factor: float = 1.0,
    cell: str = "",
    base: str = "",
) -> _Compared:
    cells = tuple(c for c, w in weights.items() if w)
    scale = _scale(page, measure, cells)
    contrast = page.samples(measure).contrast(weights)
    test = Test.of(key, contrast, scale.factor, p_factor)
    counts = {page.players(c) for c in cells}
    players = counts.pop() if len(counts) == 1 else None
    page.register(test, key.partition(":")[0], measure.name, label, scale.unit, cell, base, players)
    return _Compared(test, measure, scale, label, cells, tuple(len(page.rows_of[c]) for c in cells))


def _paired_text(method: str) -> str:
    return {"paired": "paired by game", "independent": "independent samples"}.get(
        method, "partly paired"
    )


def _verdict(c: _Compared) -> str:
    """`resolved` or `not resolved`, with what the interval rules out when it can."""
    return verdict(c.test, c.scale.smallest, c.scale.unit)


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
    size = practical_size(t.resolved, t.ci_low, t.ci_high, smallest)
    words = size_words(size, smallest, unit)
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


def size_words(size: str, smallest: float, unit: str, short: bool = False) -> str:
    """A `contrasts.practical_size` category as the pages say it, `""` for `PRACTICAL`
    (whose `resolved` says it all).

    `short`: the few words a headline lists after an effect (`smaller than 1 pp, the
    smallest effect that matters`); else the clause a verdict ends on, with what the
    interval shows.
    """
    s = amount(float(_size(smallest)), unit)
    if short:
        return {
            BELOW: f"smaller than {s}, the smallest effect that matters",
            POSSIBLY_BELOW: f"possibly below {s}, the smallest effect that matters",
            EQUIVALENT: f"no change that matters (its interval lies within ±{s})",
            OPEN: f"not resolved at this size (a change of {s} is not ruled out)",
        }.get(size, "")
    return {
        BELOW: (
            f"smaller than the smallest effect that matters (its interval lies within ±{s}, "
            "the smallest effect of interest)"
        ),
        POSSIBLY_BELOW: (
            f"possibly below the smallest effect that matters (its interval reaches inside "
            f"±{s}, the smallest effect of interest)"
        ),
        EQUIVALENT: (
            f"its interval rules out effects beyond ±{s} (the smallest effect of interest): "
            "no change that matters"
        ),
        OPEN: f"it cannot rule out a change of {s}",
    }.get(size, "")


def _size_note(c: _Compared) -> str:
    """`, smaller than 1 round, the smallest effect that matters` after a resolved effect a
    headline lists, when its interval does not clear the smallest effect; else ``."""
    t = c.test
    note = size_words(practical_size(t.resolved, t.ci_low, t.ci_high, c.scale.smallest),
                      c.scale.smallest, c.scale.unit, short=True)  # fmt: skip
    return f", {note}" if t.resolved and note else ""


def _sizes_note(told: Sequence[_Compared]) -> str:
    """After a term resolved in several strata: how many of them clear the smallest effect
    of interest, when not all do (`; beyond 1 round, the smallest effect that matters, in 1
    of the 3`); one stratum reads as `_size_note`."""
    if len(told) == 1:
        return _size_note(told[0])
    clear = sum(
        practical_size(c.test.resolved, c.test.ci_low, c.test.ci_high, c.scale.smallest)
        == PRACTICAL
        for c in told
    )
    if clear == len(told):
        return ""
    smallest = {c.scale.smallest for c in told}
    # Strata of different player counts hold different smallest effects in pp: no one number.
    s = amount(float(_size(smallest.pop())), told[0].scale.unit) if len(smallest) == 1 else ""
    what = f"{s}, the smallest effect that matters" if s else "the smallest effect that matters"
    return f"; beyond {what}, in {of(clear, len(told))}"


def not_told_apart(names: str, tests: Sequence[Test], smallest: float, unit: str) -> str:
    """`A and B are the same within ±1 round` when the intervals of their differences
    (`tests`, the leader against each other) show it (every one `EQUIVALENT`), else `A and
    B cannot be told apart at this size`: never "tied" from a test that merely failed to
    resolve."""
    if all(practical_size(t.resolved, t.ci_low, t.ci_high, smallest) == EQUIVALENT
           for t in tests):  # fmt: skip
        return f"{names} are the same within ±{amount(float(_size(smallest)), unit)}"
    return f"{names} cannot be told apart at this size"


def _size(x: float) -> str:
    """A smallest effect as it was set: `1`, `0.25`, `2.5` (no trailing zeros)."""
    return f"{x:.3g}"


def _effect_text(c: _Compared, note: str = "") -> str:
    """`+7.0 rounds (95% CI +4.1 to +9.8; paired by game, 300 games per cell)`."""
    t = c.test
    d = digits_for(t.ci_low, t.ci_high)
    space = "" if c.scale.unit in ("", "%") else " "
    inside = ci_text(t.ci_low, t.ci_high, d, sign=True) + (f"; {note}" if note else "")
    return f"{num(t.estimate, d, sign=True)}{space}{c.scale.unit} ({inside})"


def _how(c: _Compared, what: str = "per cell") -> str:
    """How a comparison was made: paired or not, and on how many games per cell."""
    sizes = sorted(set(c.sizes))
    if c.test.method != "paired" and len(sizes) > 1:
        return f"{_paired_text(c.test.method)}, {sizes[0]:,} to {sizes[-1]:,} games {what}"
    return f"{_paired_text(c.test.method)}, {games(c.test.games)} {what}"


def _at_table(c: _Compared, page: _Page) -> str:
    """What a comparison means at a table: a share of the game, or games in so many."""
    t, unit = c.test, c.scale.unit
    if c.measure.name == LENGTH.name:
        base = page.samples(LENGTH).means.get(c.cells[-1]) if c.cells else None
        if base and math.isfinite(base):
            share = t.estimate / base
            word = "longer" if share > 0 else "shorter"
            return f"games about {num(100 * abs(share), 1)}% {word}"
        return ""
    if unit == "pp":
        word = "more" if t.estimate > 0 else "fewer"
        return f"the first player wins about {one_in(t.estimate / 100)} {word}"
    return ""


def _needed(
    page: _Page,
    name: str,
    tests: Sequence[Test],
    smallest: float,
    family: Family | None = None,
    pooled: int = 1,
) -> int | None:
    """Games per cell to detect `smallest` with these tests' spread, at the family's level.

    The spread is the median per-game sd behind the tests; the size is recorded
    for the page's exploratory check. Tests that pool the games of `pooled` cells
    (a tournament's policies over its seatings) need that many times fewer per cell.
    """
    sds = [t.sd for t in tests if math.isfinite(t.sd)]
    if not sds:
        return None
    size = (family or page.differences).size
    n = games_needed(float(np.median(sds)), smallest, size, pooled)
    if n is not None:
        page.sizing[name] = max(page.sizing.get(name, 0), n)
    return n


def _strictest(compared: Sequence[_Compared]) -> list[_Compared]:
    """The comparisons held to the smallest effect of interest (pp of the most players).

    Strata of different player counts have different smallest effects in pp; the
    size that detects each stratum's smallest is the largest of them, so it is the
    strictest stratum that sizes the whole set.
    """
    strictest = min(c.scale.smallest for c in compared)
    return [c for c in compared if c.scale.smallest == strictest]


def _needed_for(page: _Page, compared: Sequence[_Compared]) -> int | None:
    if not compared:
        return None
    held = _strictest(compared)
    c = held[0]
    return _needed(page, c.measure.name, [x.test for x in held], c.scale.smallest)


def _sizing_text(
    title: str,
    smallest: float,
    unit: str,
    needed: int | None,
    have: int,
    what: str = "change",
    per: str = "cell",
) -> str:
    if needed is None:
        return ""
    size = f"{_size(smallest)} {unit if smallest != 1 or unit != 'rounds' else 'round'}"
    if needed <= have:
        return (
            f"This run has the games to detect a {what} of {size} in the {title} with "
            f"{round(100 * POWER)}% power after the correction (about {needed:,} games per {per} "
            f"needed; this run: {have:,})."
        )
    return (
        f"Detecting a {what} of {size} in the {title} with {round(100 * POWER)}% power after "
        f"the correction needs about {needed:,} games per {per} (this run: {have:,})."
    )


def _sizing_of(
    compared: Sequence[_Compared], needed: int | None, have: int, per: str = "cell"
) -> str:
    if not compared:
        return ""
    held = _strictest(compared)
    c = held[0]
    title = c.measure.title
    if len(held) < len(compared):  # strata of several player counts: name the strictest
        players = round(c.measure.smallest / c.scale.smallest)
        title += f" (the smallest of interest with {players} players)"
    return _sizing_text(title, c.scale.smallest, c.scale.unit, needed, have, per=per)


def _finding(
    topic: str, c: _Compared, text: str, headline: bool = False, kind: str = "difference"
) -> Finding:
    t = c.test
    return Finding(
        topic,
        text,
        t.resolved,
        None,
        headline,
        kind,
        t.estimate,
        t.ci_low,
        t.ci_high,
        c.scale.unit,
        DIFFERENCES,
        t.p_adjusted,
        t.games,
    )


# --------------------------------------------------------------- wording
def _names(cells: pd.DataFrame) -> dict[Any, str]:
    """cell id -> name, values spelled as `--set` takes them (`true`, `{}` for an empty set)."""
    if "cell" not in cells.columns:
        return {}
    return analysis.describe_cells(cells)


def _noun(cells: pd.DataFrame) -> str:
    """What the cells are to a reader: rule sets, seatings (a tournament) or cells."""
    if "cell" not in cells.columns or len(cells) < 2:
        return "cells"
    toggles = [
        c for c in analysis.toggle_columns(cells)
        if c in cells.columns and cells[c].astype(str).nunique() > 1
    ]  # fmt: skip
    seated = "policies" in cells.columns and cells["policies"].astype(str).nunique() > 1
    if toggles and not seated:
        return "rule sets"
    if seated and not toggles:
        return "seatings"
    return "cells"


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


# ----------------------------------------------------------------- length
def _length(page: _Page) -> Callable[[], list[Finding]] | None:
    """Every cell's mean length in rounds; in a pairs design, which is longest and shortest."""
    if "turns" not in page.df.columns:
        return None
    if page.design == "tournament":
        return lambda: [_pooled_length(page)]
    rounds, turns = {}, {}
    for cell in page.ids:
        rows = page.rows_of[cell]
        truncated = int(np.sum(rows["truncated"])) if "truncated" in rows.columns else 0
        values = np.asarray(rows["turns"], dtype=float)
        rounds[cell] = analysis.length_row(values / max(rows.players, 1), truncated)
        turns[cell] = {"mean": float(values.mean())}
    ranking = _pairs_ranking(page, LENGTH) if page.design == "pairs" else None

    def render() -> list[Finding]:
        details = [_cell_length(page, c, rounds[c], turns[c]) for c in page.ids]
        if len(page.ids) == 1:
            return [replace(details[0], headline=True)]
        if ranking is not None:
            return [*ranking(), *details]
        means = [rounds[c]["mean"] for c in page.ids]
        lo, hi = min(means), max(means)
        where = "Toggle effects" if page.design in ("base", "factorial") else "the topics above"
        text = (
            f"Mean game length runs from {num(lo, 1)} to {num(hi, 1)} rounds over the "
            f"{len(page.ids)} {page.noun} ({each([len(page.rows_of[c]) for c in page.ids])}); "
            + said(
                "which changes move it, with their intervals and the correction, is under "
                f"{where}.",
                "which changes move it is said above, with their intervals and the correction.",
            )
        )
        if page.design == "skip":
            text = (
                f"Mean game length runs from {num(lo, 1)} to {num(hi, 1)} rounds over the "
                f"{len(page.ids)} {page.noun} "
                f"({each([len(page.rows_of[c]) for c in page.ids])}); the cells are not "
                f"compared on length (the study compares win rates)."
            )
        head = Finding("length", text, True, headline=True, unit="rounds")
        return [head, *details]

    return render


def _cell_length(
    page: _Page, cell: str, rounds: Mapping[str, Any], turns: Mapping[str, Any]
) -> Finding:
    d = digits_for(rounds["mean_ci_low"], rounds["mean_ci_high"])
    median = f"median {num(rounds['median'], 1)} rounds"
    truncated = (
        f", {int(rounds['truncated']):,} of them stopped at max_turns (their length a lower bound)"
        if rounds["truncated"]
        else ""
    )
    n = page.players(cell)
    text = (
        f"games last {num(rounds['mean'], d)} rounds on average "
        f"({ci_text(rounds['mean_ci_low'], rounds['mean_ci_high'], d)}), {median}; "
        f"{num(turns['mean'], 1)} player turns with {n} player{'s' if n != 1 else ''}; "
        f"{games(int(rounds['games']))}{truncated}."
    )
    label = page.labels(cell)
    text = _sentence(text) if len(page.ids) == 1 else f"{label}: {text}"
    return Finding(
        "length",
        text,
        True,
        kind="value",
        estimate=float(rounds["mean"]),
        ci_low=float(rounds["mean_ci_low"]),
        ci_high=float(rounds["mean_ci_high"]),
        unit="rounds",
        games=int(rounds["games"]),
    )


def _pooled_length(page: _Page) -> Finding:
    """A tournament's seatings are one game: one statement over all of them."""
    table = analysis.game_length(page.df)
    rounds = table[table["measure"] == "rounds"].iloc[0]
    d = digits_for(rounds["mean_ci_low"], rounds["mean_ci_high"])
    seatings = len(page.ids)
    text = (
        f"Over all {seatings} seatings, games last {num(rounds['mean'], d)} rounds on average "
        f"({ci_text(rounds['mean_ci_low'], rounds['mean_ci_high'], d)}), median "
        f"{num(rounds['median'], 1)} rounds; {games(int(rounds['games']))}. Which seating "
        "has the longest games is not a question a tournament asks."
    )
    return Finding(
        "length",
        text,
        True,
        headline=True,
        estimate=float(rounds["mean"]),
        ci_low=float(rounds["mean_ci_low"]),
        ci_high=float(rounds["mean_ci_high"]),
        unit="rounds",
        games=int(rounds["games"]),
    )


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


# ----------------------------------------------------------- first player
def _first_player(page: _Page) -> Callable[[], list[Finding]] | None:
    """Each cell against its fair share (first player, and every position); pairs rank."""
    if "first" not in page.df.columns:
        return None
    positions: dict[str, list[dict[str, Any]]] = {}
    for cell in page.ids:
        rows = page.rows_of[cell]
        table = analysis.position_rows(rows["first"], rows["winner"], rows.players)
        if table and table[0]["games"] > 0:
            positions[cell] = table
    if not positions:
        return None
    ids = list(positions)
    tests: dict[str, Test] = {}
    spread: dict[str, Test] = {}
    for cell in ids:
        row = positions[cell][0]
        fair = float(row["fair"])
        p = score_test_p(int(row["wins"]), int(row["games"]), fair)
        tests[cell] = page.values.add(
            Test(
                f"first:{cell}",
                float(row["advantage_pp"]),
                float(row["advantage_ci_low"]),
                float(row["advantage_ci_high"]),
                p,
                int(row["games"]),
                sd=100 * math.sqrt(fair * (1 - fair)),
            )
        )
        if int(row["players"]) > 2:  # with two players the first is the whole turn order
            spread[cell] = page.values.add(
                Test(
                    f"positions:{cell}",
                    math.nan,
                    math.nan,
                    math.nan,
                    float(row["p_value"]),
                    int(row["games"]),
                )
            )
    ranking = _pairs_ranking(page, FIRST) if page.design == "pairs" else None

    def render() -> list[Finding]:
        first = page.measures[FIRST.name]
        for cell in ids:  # the size that detects the smallest edge against the fair share
            smallest = first.smallest / int(positions[cell][0]["players"])
            _needed(page, FIRST.name, [tests[cell]], smallest, page.values)
        details = [_cell_first(page, c, positions[c], tests[c], spread.get(c)) for c in ids]
        if len(ids) == 1:
            return [replace(details[0], headline=True)]
        out = [
            _first_headline(page, ids, positions, tests),
            *_spread_headline(page, positions, spread),
        ]
        if ranking is not None:
            out += ranking()
        return [*out, *details]

    return render


def _cell_first(
    page: _Page,
    cell: str,
    positions: Sequence[Mapping[str, Any]],
    t: Test,
    spread: Test | None,
) -> Finding:
    row = positions[0]
    d = digits_for(t.ci_low, t.ci_high)
    fair = float(row["fair"])
    relative = float(row["advantage_pp"]) / fair
    said = verdict(t, page.measures[FIRST.name].smallest * fair, "pp")
    text = (
        f"the first player wins {pct(row['win_rate'], d)} of {games(int(row['games']))} with a "
        f"finisher ({ci_text(100 * row['ci_low'], 100 * row['ci_high'], d)}%) against a fair "
        f"share of {pct(fair, d)}: an edge of {estimate(t.estimate, t.ci_low, t.ci_high, 'pp')}, "
        f"{num(relative, 1, sign=True)}% of a fair share; {said}"
        + ("" if "Holm-adjusted" in said else f" (Holm-adjusted {p_text(t.p_adjusted)})")
    )
    if t.resolved:
        word = "more" if t.estimate > 0 else "fewer"
        text += f"; at a table, about {one_in(t.estimate / 100)} {word} than a fair share"
    if spread is not None:
        shares = [float(r["win_rate"]) for r in positions]
        text += (
            ". By turn order (position 0 moves first): "
            + ", ".join(f"{i}: {pct(r, d)}" for i, r in enumerate(shares))
            + f"; spread {num(100 * (max(shares) - min(shares)), d)} pp between the best and "
            f"the worst position, chi-square test of equal shares "
            f"{'resolved' if spread.resolved else 'not resolved'} (Holm-adjusted "
            f"{p_text(spread.p_adjusted)})"
        )
    label = page.labels(cell)
    text = _sentence(text) + "." if len(page.ids) == 1 else f"{label}: {text}."
    return Finding(
        "first_player",
        text,
        t.resolved,
        kind="value",
        estimate=t.estimate,
        ci_low=t.ci_low,
        ci_high=t.ci_high,
        unit="pp",
        family=VALUES,
        p_adjusted=t.p_adjusted,
        games=t.games,
    )


def _first_headline(
    page: _Page,
    ids: Sequence[str],
    positions: Mapping[str, Sequence[Mapping[str, Any]]],
    tests: Mapping[str, Test],
) -> Finding:
    """Across cells: against its fair share, where the first player is favoured."""
    m = len(ids)
    plus = [c for c in ids if tests[c].resolved and tests[c].estimate > 0]
    minus = [c for c in ids if tests[c].resolved and tests[c].estimate < 0]
    rel = {c: float(positions[c][0]["advantage_pp"]) / float(positions[c][0]["fair"]) for c in ids}
    lo, hi = min(rel.values()), max(rel.values())
    counts = {int(positions[c][0]["players"]) for c in ids}
    span = (
        f"relative edges from {num(lo, 1, sign=True)}% to {num(hi, 1, sign=True)}% of a fair share"
    )
    if len(counts) == 1:
        # Each end as its own estimate is written everywhere: to the digits of its interval.
        low, high = (f(ids, key=lambda c: tests[c].estimate) for f in (min, max))
        ends = [num(tests[c].estimate, digits_for(tests[c].ci_low, tests[c].ci_high), sign=True)
                for c in (low, high)]  # fmt: skip
        span = f"{ends[0]} to {ends[1]} pp ({span})"
    parts = []
    if plus:
        parts.append(f"more than a fair share under {of(len(plus), m)} {page.noun}")
    if minus:
        parts.append(f"less than a fair share under {of(len(minus), m)}")
    undecided = m - len(plus) - len(minus)
    if parts:
        text = f"The first player wins {' and '.join(parts)}"
        if undecided:
            text += f"; under the other {undecided} it is not resolved"
    else:
        text = f"The first player's edge is not resolved under any of the {m} {page.noun}"
    text += (
        f" (each against its fair share, Holm over {_pages('the')} "
        f"{page.values.size} tests against a "
        f"fixed reference): {span}; {each([tests[c].games for c in ids])}."
    )
    # The largest edge relative to the fair share: points above 50% and above 25% do not
    # compare between player counts.
    best = max(plus, key=lambda c: rel[c], default=None)
    if best is not None:
        row = positions[best][0]
        text += (
            f" At a table, under {page.names(best)} the first player wins about "
            f"{one_in(tests[best].estimate / 100)} more than a fair share "
            f"({pct(row['win_rate'], 2)} against {pct(row['fair'], 2)})."
        )
    return Finding("first_player", text, undecided == 0, headline=True, kind="note", family=VALUES)


def _spread_headline(
    page: _Page,
    positions: Mapping[str, Sequence[Mapping[str, Any]]],
    spread: Mapping[str, Test],
) -> list[Finding]:
    """Across cells of three or more players: where turn order is uneven beyond the first.

    The chi-square test of each cell decides whether its positions' shares differ;
    the shares of the uneven ones are listed as they are, without ranking the cells.
    """
    if not spread:
        return []
    uneven = [c for c in page.ids if c in spread and spread[c].resolved]
    text = (
        f"Turn order is uneven beyond chance (a chi-square test of equal shares over all "
        f"positions, in the same family) under {of(len(uneven), len(spread))} {page.noun} with "
        "three or more players"
    )
    shown = []
    for cell in uneven[:3]:
        rows = positions[cell]
        shares = ", ".join(f"{i}: {pct(r['win_rate'], 1)}" for i, r in enumerate(rows))
        shown.append(f"{page.names(cell)} (positions {shares}; fair {pct(rows[0]['fair'], 1)})")
    if shown:
        more = f"; and {len(uneven) - 3} more" if len(uneven) > 3 else ""
        text += ": " + "; ".join(shown) + more
    return [Finding("first_player", text + ".", True, headline=True, kind="note", family=VALUES)]


# ------------------------------------------------------------ toggle effects
def _effects(page: _Page) -> Callable[[], list[Finding]] | None:
    if page.design == "base":
        return _base_effects(page)
    if page.design == "factorial":
        return _factorial(page)
    return None


_RULE_TEXT = {  # how `analysis.baselines` chose the base
    "given": "the cell named as the base",
    "sweep start": "the sweep's starting point",
    "preset": "the cell holding the preset's own value",
    "first cell": "the first cell listed (none holds the preset's value)",
}


def _base_effects(page: _Page) -> Callable[[], list[Finding]] | None:
    """Every one-toggle change from its base, on length and on the first player's edge."""
    plans: list[tuple[str, str, list[tuple[_Compared, str, str]], dict[str, _Compared]]] = []
    measures = (page.measures[LENGTH.name], page.measures[FIRST.name])
    seated = _seated(page.layout.cells)
    seat_changes: list[tuple[str, _Compared]] = []
    for base, rule, cells in page.layout.bases:
        if base not in page.rows_of:
            continue
        changes = []
        for cell, label in cells:
            if cell not in page.rows_of:
                continue
            for measure in measures:
                c = _compare(page, measure, {cell: 1.0, base: -1.0}, label,
                             f"effect:{measure.name}:{base}->{cell}", cell=cell,
                             base=base)  # fmt: skip
                changes.append((c, measure.name, cell))
            if (moved := _one_seat_changed(seated, base, cell)) is not None:
                # The question such a change asks is what the seat itself gains or
                # loses: its own win share, paired by game, in the page's family.
                seat, now, was = moved
                measure = _seat_wins(seat, page.measures[WIN.name].smallest)
                c = _compare(page, measure, {cell: 1.0, base: -1.0},
                             f"seat {seat} playing {now} instead of {was}",
                             f"seat:{seat}:{base}->{cell}", cell=cell, base=base)  # fmt: skip
                seat_changes.append((base, c))
        if not changes:
            continue
        gaps = {}
        for measure in measures:
            mine = [c for c, name, _ in changes if name == measure.name]
            if len(mine) >= 2:
                gaps[measure.name] = _gap_test(page, measure, mine, base)
        plans.append((base, rule, changes, gaps))
    if not plans:
        return None

    def render() -> list[Finding]:
        out = _seat_findings(page, seat_changes)
        for base, rule, changes, gaps in plans:
            rule_text = _RULE_TEXT.get(str(rule), str(rule))
            for name in (LENGTH.name, FIRST.name):
                mine = [c for c, m, _ in changes if m == name]
                out += _effects_of(page, base, rule_text, mine, gaps.get(name))
        return out

    return render


def _one_seat_changed(
    seated: Mapping[str, Sequence[str]], base: str, cell: str
) -> tuple[int, str, str] | None:
    """(seat, its policy in `cell`, its policy in `base`) when the two cells seat the same
    players but for exactly one seat; else None."""
    a, b = seated.get(cell), seated.get(base)
    if not a or not b or len(a) != len(b):
        return None
    moved = [s for s, (x, y) in enumerate(zip(a, b, strict=True)) if x != y]
    return (moved[0], a[moved[0]], b[moved[0]]) if len(moved) == 1 else None


def _seat_wins(seat: int, smallest: float) -> Measure:
    """Seat `seat`'s share of the games with a finisher, as a page measure."""

    def won(rows: Any, players: int) -> np.ndarray:
        winner = np.asarray(rows["winner"], dtype=np.int64)
        out = (winner == seat).astype(float)
        out[winner < 0] = np.nan
        return out

    return Measure(f"seat{seat}_win", f"seat {seat}'s win share", "pp", smallest, 1, won, 100.0)


def _more(t: Test) -> str:
    return "more" if t.estimate > 0 else "fewer"


def _seat_findings(page: _Page, changes: Sequence[tuple[str, _Compared]]) -> list[Finding]:
    """What the seat whose policy changed wins, against what it won before: one headline
    over every base, then one sentence per change."""
    if not changes:
        return []
    details = []
    for base, c in changes:
        t = c.test
        d = digits_for(t.ci_low, t.ci_high)
        means = page.samples(c.measure).means
        now, was = means.get(c.cells[0], math.nan), means.get(base, math.nan)
        text = (
            f"{c.label[:1].upper()}{c.label[1:]} (from {page.names(base)}) wins {pct(now, d)} "
            f"of the games against {pct(was, d)}: {_effect_text(c, _how(c))}; {_verdict(c)}"
            + (f"; at a table, about {one_in(t.estimate / 100)} {_more(t)}" if t.resolved else "")
            + "."
        )
        details.append(_finding("seat", c, text))
    if len(details) == 1:
        return [replace(details[0], headline=True)]
    tests = [c.test for _, c in changes]
    gains = [page.names(b) for b, c in changes if c.test.resolved and c.test.estimate > 0]
    losses = [page.names(b) for b, c in changes if c.test.resolved and c.test.estimate < 0]
    labels = list(dict.fromkeys(c.label for _, c in changes))
    who = labels[0] if len(labels) == 1 else "the seat that changed policy"
    parts = []
    if losses:
        parts.append(f"wins less in {of(len(losses), len(changes))} comparisons (from "
                     f"{listing(losses)})")  # fmt: skip
    if gains:
        parts.append(f"wins more in {of(len(gains), len(changes))} comparisons (from "
                     f"{listing(gains)})")  # fmt: skip
    if not parts:
        parts.append(f"is not told apart from before in any of the {len(changes)} comparisons")
    lo = min(t.estimate for t in tests)
    hi = max(t.estimate for t in tests)
    d = digits_for(lo, hi)
    text = (
        who[:1].upper() + who[1:] + " " + "; it ".join(parts)
        + f": changes from {num(lo, d, sign=True)} to {num(hi, d, sign=True)} pp of its win "
        f"share, each paired by game and decided with {_pages()} "
        "other comparisons."
    )  # fmt: skip
    resolved = all(t.resolved for t in tests)
    head = Finding("seat", text, resolved, None, True, "note", unit="pp", family=DIFFERENCES)
    return [head, *details]


def _gap_test(page: _Page, measure: Measure, compared: Sequence[_Compared], base: str) -> _Compared:
    """The largest effect against the next: a contrast of the two changed cells.

    With effects e1 = m1 - m0 and e2 = m2 - m0 (the same base), |e1| - |e2| is the
    contrast s1 (m1 - m0) - s2 (m2 - m0) with s the estimates' signs. The order was
    read from the data, so its p-value is doubled (either order could be tested).
    """
    ordered = sorted(compared, key=lambda c: -abs(c.test.estimate))
    top, nxt = ordered[0], ordered[1]
    s1 = 1.0 if top.test.estimate >= 0 else -1.0
    s2 = 1.0 if nxt.test.estimate >= 0 else -1.0
    weights: dict[str, float] = {}
    for cell, w in ((top.cells[0], s1), (nxt.cells[0], -s2), (base, s2 - s1)):
        weights[cell] = weights.get(cell, 0.0) + w
    label = f"{top.label} against {nxt.label}"
    return _compare(page, measure, weights, label, f"gap:{measure.name}:{base}", p_factor=2.0,
                    cell=top.cells[0], base=nxt.cells[0])  # fmt: skip


def _effects_of(
    page: _Page, base: str, rule: str, compared: list[_Compared], gap: _Compared | None
) -> list[Finding]:
    """One base and one measure: the headline over its changes, then each change."""
    if not compared:
        return []
    measure = compared[0].measure
    m = len(compared)
    moving = sorted([c for c in compared if c.test.resolved], key=lambda c: -abs(c.test.estimate))
    needed = _needed_for(page, compared)
    where = said(f"From the base {page.labels(base)}, {rule}", f"From {page.labels(base)}")
    within = False
    if moving:
        listed = "; ".join(
            f"{c.label} {_effect_text(c)}"
            + (f", {p}" if (p := _at_table(c, page)) else "")
            + _size_note(c)
            for c in moving
        )
        verb = "moves" if len(moving) == 1 else "move"
        counted = f"{of(len(moving), m)} one-toggle changes" if m > 1 else "its one change"
        text = f"{where}, {counted} {verb} the {measure.title} beyond chance: {listed}."
        if gap is not None and len(moving) >= 2:
            g = gap.test
            if g.resolved:
                text += (
                    f" The largest, {moving[0].label}, moves it more than the next "
                    f"(by {num(abs(g.estimate), digits_for(g.ci_low, g.ci_high))} "
                    f"{gap.scale.unit}; {_verdict(gap)})."
                )
            else:
                text += (
                    f" Which moves it most cannot be told at this size ({moving[0].label} "
                    f"against {moving[1].label}: {_verdict(gap)})."
                )
    else:
        top = max(compared, key=lambda c: abs(c.test.estimate))
        subject = (
            f"none of the {m} one-toggle changes moves"
            if m > 1
            else f"the change {top.label} does not move"
        )
        small = compared[0].scale
        # No change that matters only when every interval lies inside the smallest effect
        # (an equivalence test); a change merely not resolved is no evidence of none.
        within = all(
            practical_size(c.test.resolved, c.test.ci_low, c.test.ci_high, c.scale.smallest)
            == EQUIVALENT
            for c in compared
        )
        text = (
            f"{where}, {subject} the {measure.title} beyond chance"
            + (
                f" (the largest estimate: {top.label} {_effect_text(top)})"
                if m > 1
                else f" ({_effect_text(top)})"
            )
            + ". "
            + (
                f"{'Every' if m > 1 else 'Its'} interval lies within "
                f"±{amount(float(_size(small.smallest)), small.unit)}, the smallest effect of "
                "interest: no change that matters."
                if within
                else f"Not resolved at this size: not every interval lies within "
                f"±{amount(float(_size(small.smallest)), small.unit)}, so a change that "
                "matters is not ruled out. "
                + _sizing_of(compared, needed, page.per_cell_games(), _per(page))
            )
        )
    settled = bool(moving) or within  # a size to detect is no question left open
    head = Finding("toggles", text.strip(), bool(moving), None if settled else needed, True,
                   "note", unit=compared[0].scale.unit, family=DIFFERENCES)  # fmt: skip
    details = []
    for c in compared:
        practical = _at_table(c, page)
        text = (
            f"{c.label} (from {page.labels(base)}): {measure.title} {_effect_text(c, _how(c))}; "
            f"{_verdict(c)}" + (f"; {practical}" if c.test.resolved and practical else "") + "."
        )
        f = _finding("toggles", c, text)
        details.append(replace(f, games_needed=None if c.test.resolved else needed))
    return [head, *details]


# --------------------------------------------------------------- factorial
def _factors(cells: pd.DataFrame) -> list[str]:
    """Varying toggles with exactly two values: the candidate factors of a 2^k design."""
    return [
        c
        for c in analysis.toggle_columns(cells)
        if c in cells.columns and cells[c].astype(str).nunique() == 2
    ]


def _factorial_strata(cells: pd.DataFrame) -> list[analysis.Stratum]:
    factors = _factors(cells)
    if len(factors) < 2 or len(cells) < 4:
        return []
    try:
        return analysis.factorial_strata(cells, factors)
    except analysis.AnalysisError:
        return []


def _factorial(page: _Page) -> Callable[[], list[Finding]] | None:
    """Main effects and two-way interactions of every full 2^k design, on both measures."""
    strata = page.layout.strata
    if not strata:
        return None
    factors = list(strata[0].codes)
    k = len(factors)
    terms = [(f,) for f in factors] + list(itertools.combinations(factors, 2))
    levels = strata[0].levels
    compared: list[tuple[_Compared, tuple[str, ...], str]] = []
    for stratum in strata:
        where = ", ".join(f"{t}={value_text(v, t)}" for t, v in stratum.others.items())
        for measure in (page.measures[LENGTH.name], page.measures[FIRST.name]):
            for term in terms:
                signs = np.prod([stratum.codes[f] for f in term], axis=0) / 2 ** (k - 1)
                weights = dict(zip(stratum.cells, signs.tolist(), strict=True))
                if len(term) == 1:
                    f = term[0]
                    label = f"{f} {value_text(levels[f][0], f)} -> {value_text(levels[f][1], f)}"
                else:
                    label = " x ".join(term)
                c = _compare(page, measure, weights, label,
                             f"term:{measure.name}:{'x'.join(term)}:{where}",
                             cell=where)  # fmt: skip
                compared.append((c, term, where))
    strata_keys = list(strata[0].others)

    def render() -> list[Finding]:
        out = []
        for topic, size in (("toggles", 1), ("interactions", 2)):
            for name in (LENGTH.name, FIRST.name):
                mine = [(c, t, w) for c, t, w in compared if len(t) == size
                        and c.measure.name == name]  # fmt: skip
                out += _factorial_findings(page, topic, mine, strata_keys, factors)
        return out

    return render


def _factorial_findings(
    page: _Page,
    topic: str,
    compared: list[tuple[_Compared, tuple[str, ...], str]],
    strata_keys: list[str],
    factors: list[str],
) -> list[Finding]:
    if not compared:
        return []
    measure = compared[0][0].measure
    kind = "main effect" if topic == "toggles" else "interaction"
    needed = _needed_for(page, [c for c, _, _ in compared])
    by_term: dict[str, list[tuple[_Compared, str]]] = {}
    for c, _, where in compared:
        by_term.setdefault(c.label, []).append((c, where))
    g = len(next(iter(by_term.values())))
    design = said(f"the 2^{len(factors)} design of {', '.join(factors)}",
                  f"every combination of {listing(factors)}")  # fmt: skip
    if strata_keys:
        design += said(f", in each of the {g} strata of {' x '.join(strata_keys)}",
                       f", for each of the {g} combinations of {listing(strata_keys)}")  # fmt: skip
    parts = []
    for label, items in by_term.items():
        told = [c for c, _ in items if c.test.resolved]
        if told:
            # The smallest and the largest resolved effect, each with its own interval:
            # a range of estimates alone would state a resolved effect without one.
            ends = sorted(told, key=lambda c: c.test.estimate)
            low, high = _effect_text(ends[0]), _effect_text(ends[-1])
            size = low if low == high else f"from {low} to {high}"
            where = "" if g == 1 else f" in {of(len(told), g)} strata"
            parts.append(f"{label} is resolved{where}, {size}{_sizes_note(told)}")
        else:
            parts.append(f"{label} is not resolved{'' if g == 1 else ' in any stratum'}")
    told_all = sum(c.test.resolved for c, _, _ in compared)
    text = (
        f"{_sentence(kind)}s on the {measure.title} ({design}): " + "; ".join(parts) + ". "
        f"{_sentence(of(told_all, len(compared)))} {kind}s "
        f"{'is' if told_all == 1 else 'are'} resolved."
    )
    if told_all < len(compared):
        text += " " + _sizing_of(
            [c for c, _, _ in compared], needed, page.per_cell_games(), _per(page)
        )
    head = Finding(topic, text.strip(), told_all == len(compared),
                   None if told_all == len(compared) else needed, True, "note",
                   family=DIFFERENCES)  # fmt: skip
    details = []
    for c, _, where in compared:
        stratum = f" with {where}" if where else ""
        practical = _at_table(c, page) if c.test.resolved else ""
        text = (
            f"{_sentence(kind)} of {c.label}{stratum} on the {measure.title}: "
            f"{_effect_text(c, _how(c))}; {_verdict(c)}"
            + (f"; {practical}" if practical else "")
            + "."
        )
        f = _finding(topic, c, text)
        details.append(replace(f, games_needed=None if c.test.resolved else needed))
    return [head, *details]


# ---------------------------------------------------------------- policies
def _contrast_of(row: Any, diff: str, low: str, high: str) -> Contrast:
    """A contrast from an analysis table's estimate and normal 95% interval (in pp)."""
    se = (float(getattr(row, high)) - float(getattr(row, low))) / (2 * Z95)
    return Contrast(float(getattr(row, diff)), se, int(row.games), "paired")


def _policies(page: _Page) -> Callable[[], list[Finding]] | None:
    """Tournaments: every pair of policies, paired by game; the ranking's top."""
    if page.design != "tournament":
        return None
    table = analysis.win_table(page.df).sort_values("win_rate", ascending=False, kind="stable")
    pairs = analysis.policy_differences(page.df)
    tests: dict[tuple[str, str], Test] = {}
    for row in pairs.itertuples(index=False):
        c = _contrast_of(row, "diff_pp", "ci_low", "ci_high")
        tests[(row.policy, row.other)] = page.register(
            Test.of(f"policies:{row.policy}|{row.other}", c), "policies", WIN.name,
            f"{row.policy} against {row.other}", "pp", row.policy, row.other,
        )  # fmt: skip
    seatings = len(page.ids)
    per_cell = page.per_cell_games()

    def pair(a: str, b: str) -> tuple[Test, float]:
        return (tests[(a, b)], 1.0) if (a, b) in tests else (tests[(b, a)], -1.0)

    def render() -> list[Finding]:
        names = table["policy"].tolist()
        d = digits_for(100 * table["ci_low"].min(), 100 * table["ci_high"].min())
        fair = float(table["fair"].mean())
        ranks = "; ".join(
            f"{i}. {r.policy} {pct(r.win_rate, d)} ({ci_text(100 * r.ci_low, 100 * r.ci_high, d)}%)"
            for i, r in enumerate(table.itertuples(index=False), start=1)
        )
        details = [
            Finding(
                "policies",
                f"Policy ranking over {seatings} seatings, each policy in every seat "
                f"({games(len(page.df))} in all): {ranks}; fair share {pct(fair, d)}.",
                True,
                kind="value",
                games=len(page.df),
            )
        ]
        for better, worse in itertools.pairwise(names):
            t, sign = pair(better, worse)
            lo, hi = sorted((sign * t.ci_low, sign * t.ci_high))
            diff = sign * t.estimate
            dd = digits_for(lo, hi)
            text = (
                f"{better} wins {num(diff, dd, sign=True)} pp more often than {worse} "
                f"({ci_text(lo, hi, dd, sign=True)}; {games(t.games)}, paired by game); "
                f"{verdict(t, page.measures[WIN.name].smallest, 'pp')}"
                + (f"; at a table, about {one_in(diff / 100)} more" if t.resolved else "")
                + "."
            )
            details.append(
                Finding(
                    "policies",
                    text,
                    t.resolved,
                    None,
                    False,
                    "difference",
                    diff,
                    lo,
                    hi,
                    "pp",
                    DIFFERENCES,
                    t.p_adjusted,
                    t.games,
                )
            )
        best, worst = table.iloc[0], table.iloc[-1]
        t, sign = pair(names[0], names[1])
        tied = [o for o in names[1:] if not pair(names[0], o)[0].resolved]
        win_smallest = page.measures[WIN.name].smallest
        if t.resolved:
            lead = (
                f"ahead of {names[1]}, the next, by {num(sign * t.estimate, d, sign=True)} pp "
                f"({verdict(t, win_smallest, 'pp')}; at a table about "
                f"{one_in(sign * t.estimate / 100)} more)"
            )
        else:
            lead = "but " + not_told_apart(listing(["it", *tied]),
                                           [pair(names[0], o)[0] for o in tied], win_smallest,
                                           "pp")  # fmt: skip
        apart = sum(1 for x in tests.values() if x.resolved)
        win = page.measures[WIN.name]
        needed = _needed(page, WIN.name, list(tests.values()), win.smallest, pooled=seatings)
        text = (
            f"{best['policy']} wins most often, "
            f"{_share(best, _digits_of(best))}, "
            f"{lead}; {worst['policy']} least, {pct(worst['win_rate'], _digits_of(worst))}; "
            "fair share "
            f"{pct(fair, d)}. {_sentence(of(apart, len(tests)))} pairs of policies differ beyond "
            f"chance; {games(len(page.df))} over {seatings} seatings."
            + _rotation_note(_seated(page.layout.cells))
        )
        if apart < len(tests):
            text += " " + _sizing_text(
                "difference of win shares", win.smallest, "pp", needed, per_cell, per=_per(page)
            )
        lo, hi = sorted((sign * t.ci_low, sign * t.ci_high))
        head = Finding("policies", text, t.resolved, None, True, "ranking", sign * t.estimate,
                       lo, hi, "pp", DIFFERENCES, t.p_adjusted, t.games)  # fmt: skip
        return [head, *details]

    return render


def _digits_of(row: pd.Series) -> int:
    """The decimals of a win share as its row of the estimates table writes it."""
    return digits_for(100 * row["ci_low"], 100 * row["ci_high"])


def _share(row: pd.Series, digits: int) -> str:
    """A win share with its interval: `27.1% (95% CI 26.9 to 27.3)`."""
    return estimate(100 * row["win_rate"], 100 * row["ci_low"], 100 * row["ci_high"], "%",
                    sign=False, digits=digits)  # fmt: skip


# --------------------------------------------------------------- skip cost
def _skip_cost(page: _Page) -> Callable[[], list[Finding]] | None:
    """Per skipping seat and detection probability: its win rate against its baseline's."""
    if page.design != "skip":
        return None
    curves = []
    for seat in analysis.skipper_seats(page.df):
        try:
            curve = analysis.skip_cost(page.df, seat, cells=page.cells)
        except analysis.AnalysisError:
            continue  # no baseline policy for that seat: nothing to compare with
        tests = []
        for row in curve.itertuples(index=False):
            c = Contrast(
                100 * row.diff,
                100 * (row.diff_ci_high - row.diff_ci_low) / (2 * Z95),
                int(row.games),
                row.method,
            )
            at = value_text(row.detect_skip, "detect_skip")
            tests.append(
                page.register(
                    Test.of(f"skip:{seat}:{row.detect_skip}", c),
                    "skip",
                    WIN.name,
                    f"seat {seat}: {row.policy} against {row.baseline} at detect_skip={at}",
                    "pp",
                )
            )
        curves.append((seat, curve, tests))
    if not curves:
        return None

    def render() -> list[Finding]:
        out = []
        for seat, curve, tests in curves:
            values = []
            for row, t in zip(curve.itertuples(index=False), tests, strict=True):
                d = digits_for(t.ci_low, t.ci_high)
                said = verdict(t, page.measures[WIN.name].smallest, "pp")
                if t.resolved:
                    word = "skipping pays" if t.estimate > 0 else "skipping costs"
                    said = f"{word} ({said}; about {one_in(t.estimate / 100)})"
                paired = _paired_text(str(row.method))
                text = (
                    f"At detect_skip = {value_text(row.detect_skip, 'detect_skip')}, seat "
                    f"{seat} playing {row.policy} wins {pct(row.win_rate, d)} of "
                    f"{games(int(row.games))} against {pct(row.win_rate_base, d)} when it plays "
                    f"{row.baseline}: {num(t.estimate, d, sign=True)} pp "
                    f"({ci_text(t.ci_low, t.ci_high, d, sign=True)}, {paired}); {said}."
                )
                values.append(Finding("skip_cost", text, t.resolved, None, False, "difference",
                                      t.estimate, t.ci_low, t.ci_high, "pp", DIFFERENCES,
                                      t.p_adjusted, t.games))  # fmt: skip
            win = page.measures[WIN.name]
            # Sized even with one detect level: the skipper's win share is what the page
            # is about, so it alone judges whether the run is exploratory.
            needed = _needed(page, WIN.name, tests, win.smallest)
            if len(values) == 1:
                out.append(replace(values[0], headline=True))
                continue
            head = _skip_headline(curve, tests, seat)
            if not head.resolved:
                sizing = _sizing_text("skipper's win share", win.smallest, "pp", needed,
                                      page.per_cell_games(), per=_per(page))  # fmt: skip
                head = replace(head, **{"text": f"{head.text} {sizing}".strip(),
                                  "games_needed": needed})  # fmt: skip
            out.append(head)
            out.extend(values)
        return out

    return render


def _skip_headline(curve: pd.DataFrame, tests: Sequence[Test], seat: int) -> Finding:
    """Where skipping pays and where it costs, decided in the family; the break-even."""
    who = f"seat {seat} ({curve['policy'].iloc[0]} against {curve['baseline'].iloc[0]})"
    levels = [value_text(x, "detect_skip") for x in curve["detect_skip"]]
    pays = [lv for lv, t in zip(levels, tests, strict=True) if t.resolved and t.estimate > 0]
    costs = [lv for lv, t in zip(levels, tests, strict=True) if t.resolved and t.estimate < 0]
    open_ = [lv for lv, t in zip(levels, tests, strict=True) if not t.resolved]
    parts = []
    if pays:
        parts.append(f"pays at detect_skip = {', '.join(pays)}")
    if costs:
        parts.append(f"costs at detect_skip = {', '.join(costs)}")
    if open_:
        parts.append(f"is not resolved at detect_skip = {', '.join(open_)}")
    said = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    text = f"Skipping forced captures by {who} {said}"
    at = float(curve["break_even"].iloc[0])
    crossing = bool(pays and costs and math.isfinite(at))
    if crossing:
        x = curve["detect_skip"].to_numpy(float)
        early = zero_crossing(x, [t.ci_low / 100 for t in tests])
        late = zero_crossing(x, [t.ci_high / 100 for t in tests])
        band = (
            f" (the pointwise 95% intervals cross zero between {num(early, 2)} and {num(late, 2)})"
            if math.isfinite(early) and math.isfinite(late)
            else ""
        )
        text += (
            f": it stops paying at a detection probability of about {num(at, 2)}{band}, by linear "
            f"interpolation between the {len(curve)} values swept"
        )
    text += f"; {games(int(curve['games'].min()))} per value."
    return Finding("skip_cost", text, not open_, None, True, "note", family=DIFFERENCES)


# ------------------------------------------------------------------ notes
def _smallest_text(page: _Page) -> str:
    """The smallest effects of interest the page sizes by, in its players' terms."""
    length, first, win = (page.measures[m] for m in (LENGTH.name, FIRST.name, WIN.name))
    counts = sorted({page.players(c) for c in page.ids})
    per = ", ".join(
        f"{_size(first.smallest / n)} pp with {n} player{'s' * (n > 1)}" for n in counts
    )
    parts = [
        f"{_size(length.smallest)} round{'s' * (length.smallest != 1)} of game length",
        f"{_size(first.smallest)}% of a fair share of the first player's edge ({per})",
    ]
    if page.design in ("tournament", "skip"):
        parts.append(f"{_size(win.smallest)} pp of win share")
    return f"Smallest effects of interest: {listing(parts)}."


def _per(page: _Page) -> str:
    """What a count of games is per: `cell` on a page, what a cell is at the terminal."""
    return said("cell", page.one())


def _pages(terminal: str = "all the") -> str:
    """Whose comparisons: `the page's` on a page, `terminal` (`all the`) at the terminal."""
    return said("the page's", terminal)


def _given(page: _Page, cell: str) -> str:
    """A cell as its merge note names it: its id on a page, its name at the terminal."""
    return said(str(cell), page.layout.given_names.get(str(cell), page.names(cell)))


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
                + f" ({page.values.size} tests, Holm).",
                True,
                headline=True,
                kind="note",
            )
        )
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


__all__ = [
    "DIFFERENCES",
    "KINDS",
    "TITLES",
    "TOPICS",
    "VALUES",
    "Finding",
    "PageFindings",
    "finding_records",
    "findings",
    "page_findings",
    "size_words",
    "verdict",
]
