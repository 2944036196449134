"""One sweep page being decided: its rows, design and families (`_Page`), and a
comparison (`_Compared`) with the words every topic states it in.

Every comparison a topic makes is registered here in the page's `differences`
family; the sizes that detect a smallest effect of interest are recorded for the
page's exploratory check.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.contrasts import (
    POWER,
    PRACTICAL,
    CellSamples,
    Family,
    Test,
    cell_rows,
    size_of,
)
from ludosim.report.exploratory import games_needed
from ludosim.report.finding import (
    DIFFERENCES,
    VALUES,
    Finding,
    _size,
    all_equivalent,
    size_words,
    verdict,
)
from ludosim.report.sweeppage.pagedesign import PageDesign
from ludosim.report.wording import amount, digits_for, games, num, of, one_in, said, voice
from ludosim.report.wording import ci as ci_text
from ludosim.results.measures import FIRST, LENGTH, Measure, winning_sides
from ludosim.results.schema import PLAYERS_MAX

# ------------------------------------------------------------------- the page
# The places show the teams (`measures.winning_sides`).
_PLACES = tuple(f"place_{s}" for s in range(PLAYERS_MAX))
_ROW_COLUMNS = ("game", "first", "winner", "turns", "truncated", *_PLACES)


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
        self._sides: dict[str, int] = {}
        # Every test of the differences family with what it compares: `comparisons`.
        self.entries: list[tuple[dict[str, Any], Test]] = []
        # measure -> why cells were left out of its comparisons -> those cells
        self.apart: dict[str, dict[str, list[str]]] = {}
        self._limits: dict[str, int] | None = None

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

    def won(self) -> str:
        """`with a winner` where a cell ends games by points (`move_limit`), whose winner
        need not have finished; else `with a finisher`."""
        return "with a winner" if ends_by_points(self.cells) else "with a finisher"

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

    def sides(self, cell: str) -> int:
        """The sides the first player's edge has its fair share among: the players, or
        under `teams` the teams (`measures.winning_sides`)."""
        if cell not in self._sides:
            self._sides[cell] = winning_sides(self.rows_of[cell], self.players(cell))[1]
        return self._sides[cell]

    def first_side(self, cell: str) -> str:
        """Who the first player's edge is of in `cell`: the first player, or its team."""
        return (
            "the first player's team"
            if self.sides(cell) < self.players(cell)
            else ("the first player")
        )

    def per_cell_games(self) -> int:
        return min(len(self.rows_of[c]) for c in self.ids)

    def move_limit(self, cell: str) -> int:
        """The cell's `move_limit` (0: its games end when a side finishes)."""
        if self._limits is None:
            cells = self.cells
            self._limits = {}
            if "move_limit" in cells.columns and "cell" in cells.columns:
                limits = pd.to_numeric(cells["move_limit"], errors="coerce").fillna(0)
                self._limits = dict(zip(cells["cell"].astype(str), limits.astype(int), strict=True))
        return int(self._limits.get(str(cell), 0))

    def seats_per_side(self, cell: str) -> int:
        """1 where every seat plays for itself, the partners of a team under `teams`."""
        return max(1, self.players(cell) // max(self.sides(cell), 1))

    def kind_of(self, measure: Measure, cell: str) -> str:
        """What a cell's value of `measure` is, where cells differ in it: "" for a value
        every cell shares, else the reason it compares only with cells of its own kind."""
        if measure.name == LENGTH.name and self.move_limit(cell) > 0:
            return MOVE_LIMIT_APART
        if measure.name == FIRST.name and self.seats_per_side(cell) > 1:
            return TEAMS_APART
        return ""

    def comparable(self, measure: Measure, cells: Sequence[str]) -> bool:
        """Whether `cells` compare on `measure` like with like: game length only between
        cells whose games end when a side finishes (a move limit fixes the length of the
        games it ends, so it is no race's length), the first player's edge only between
        cells whose sides are alike (a team's edge against 1/teams is not a seat's edge
        against 1/players). Cells left out are recorded, for the page's notes."""
        kinds = {self.kind_of(measure, c) for c in cells}
        if kinds == {""}:
            return True
        if measure.name == FIRST.name and len(kinds) == 1:
            return True  # teams against teams: each side's edge against 1/teams
        for c in cells:
            if reason := self.kind_of(measure, c):
                apart = self.apart.setdefault(measure.name, {}).setdefault(reason, [])
                if c not in apart:
                    apart.append(c)
        if measure.name == FIRST.name:
            solo = [c for c in cells if not self.kind_of(measure, c)]
            apart = self.apart.setdefault(measure.name, {}).setdefault(SOLO_APART, [])
            apart += [c for c in solo if c not in apart]
        return False


# Why cells were left out of a measure's comparisons (`_Page.comparable`), as the notes say.
MOVE_LIMIT_APART = "move limit"
TEAMS_APART = "teams"
SOLO_APART = "seats"


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
        counts = {page.sides(c) for c in cells}
        if len(counts) == 1:
            n = counts.pop()
            # Per-game values are n * won - 1 (n sides): a difference of means / n is one
            # of shares.
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
    samples = page.samples(measure)
    contrast = samples.contrast(weights)
    test = Test.of(key, contrast, scale.factor, p_factor)
    test.fixed = samples.fixed(cells)  # a quantity the rules fix: kept out of the family
    # The fair share of the first player's edge is among the sides (seats, or teams).
    count = page.sides if measure.name == FIRST.name else page.players
    counts = {count(c) for c in cells}
    players = counts.pop() if len(counts) == 1 else None
    page.register(test, key.partition(":")[0], measure.name, label, scale.unit, cell, base, players)
    return _Compared(test, measure, scale, label, cells, tuple(len(page.rows_of[c]) for c in cells))


def ends_by_points(cells: pd.DataFrame) -> bool:
    """Some cell ends its games by points after a move limit (ties are then possible)."""
    if "move_limit" not in cells.columns:
        return False
    return bool((pd.to_numeric(cells["move_limit"], errors="coerce").fillna(0) > 0).any())


def _paired_text(method: str) -> str:
    return {"paired": "paired by game", "independent": "independent samples"}.get(
        method, "partly paired"
    )


def _verdict(c: _Compared) -> str:
    """`resolved` or `not resolved`, with what the interval rules out when it can."""
    return verdict(c.test, c.scale.smallest, c.scale.unit)


def _size_note(c: _Compared) -> str:
    """`, smaller than 1 round, the smallest effect that matters` after a resolved effect a
    headline lists, when its interval does not clear the smallest effect; else ``."""
    t = c.test
    note = size_words(size_of(t, c.scale.smallest), c.scale.smallest, c.scale.unit,
                      short=True, tests=t.family_size)  # fmt: skip
    return f", {note}" if t.resolved and note else ""


def _sizes_note(told: Sequence[_Compared]) -> str:
    """After a term resolved in several strata: how many of them clear the smallest effect
    of interest, when not all do (`; beyond 1 round, the smallest effect that matters, in 1
    of the 3`); one stratum reads as `_size_note`."""
    if len(told) == 1:
        return _size_note(told[0])
    clear = sum(size_of(c.test, c.scale.smallest) == PRACTICAL for c in told)
    if clear == len(told):
        return ""
    smallest = {c.scale.smallest for c in told}
    # Strata of different player counts hold different smallest effects in pp: no one number.
    s = amount(float(_size(smallest.pop())), told[0].scale.unit) if len(smallest) == 1 else ""
    what = f"{s}, the smallest effect that matters" if s else "the smallest effect that matters"
    return f"; beyond {what}, in {of(clear, len(told))}"


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
        equivalent=all_equivalent([t], c.scale.smallest),
    )


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] if text else text


def _per(page: _Page) -> str:
    """What a count of games is per: `cell` on a page, what a cell is at the terminal."""
    return said("cell", page.one())
