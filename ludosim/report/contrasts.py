"""Comparisons between cells as linear contrasts of cell means, and their families.

Every difference a page states (a one-toggle change, a pair of cells, a factorial
main effect or interaction, the gap between the first and the second of a
ranking) is a linear contrast `sum_c w_c mean_c` of per-game values of one
measure. `CellSamples` holds those values for every cell, grouped so that cells
which played the same games with the same seats are *paired*: their per-game
values sit side by side in one matrix and their covariance is estimated, so the
common random numbers of a sweep narrow the interval exactly as much as they
should. Cells with other games or other seats are independent samples.

With `S_g` the covariance of the per-game values of pairing group `g` (games
with a value in every cell of the group) and `n_g` its games, a contrast's
variance is `sum_g w_g' S_g w_g / n_g`: the paired variance inside a group, the
sum of independent variances across groups. Its interval is the normal one,
`estimate +- z se`, and its p-value the two-sided normal test of zero.

A `Family` collects every test a page decides and adjusts them together
(Holm's step-down, family-wise error rate `ALPHA`), so that the chance of any
false claim of a difference on the page stays at most 5% however many cells,
topics and comparisons the page holds. `games_to_detect` sizes a run from a
stated smallest effect of interest, never from an observed estimate.

`practical_size` is the one place where a comparison's size is set against its
smallest effect of interest, from its interval and never from its estimate:
"practical" only when the whole interval clears the smallest effect, "no change
that matters" only when the whole interval lies inside it (an equivalence test,
Schuirmann's two one-sided tests read off the interval). In a family of m tests
that interval is the one at the family's Bonferroni level `1 - ALPHA/m`
(`corrected_interval`, `size_of`): claims of size and of sameness are corrected
over the same m comparisons as the claims of difference beside them (Holm 1979;
Schuirmann 1987).

A quantity the rules fix (cells whose every game gives one value, such as the length
of games that a move limit ends) is never tested: `Family.add` keeps such a test out of
the family (`Family.fixed`), so it is neither counted nor decided (`is_fixed`).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results.stats import Z95, holm, normal_cdf, z_for

ALPHA = 0.05  # the family-wise error rate of every page's decisions
POWER = 0.8  # the power runs are sized for from a smallest effect of interest

PerGame = Callable[[Any, int], np.ndarray]


@dataclass(frozen=True)
class CellRows:
    """One cell's per-game columns as arrays, in game order, and its number of players.

    Indexing by column name gives the array, as a DataFrame's column would: the
    measures' per-game functions take either.
    """

    columns: dict[str, np.ndarray]
    players: int

    def __getitem__(self, name: str) -> np.ndarray:
        return self.columns[name]

    def __len__(self) -> int:
        return len(next(iter(self.columns.values()))) if self.columns else 0


def cell_rows(df: pd.DataFrame, columns: Sequence[str] | None = None) -> dict[str, CellRows]:
    """Every cell's rows of `df` (with `cell`) as `CellRows`, cells in order of appearance.

    One sort of the whole table instead of a pandas group per cell: pages of many
    cells are decided thousands of times in the calibration tests. A cell's
    players are its `place_<s>` columns without nulls.
    """
    names = [c for c in (columns or df.columns) if c != "cell" and c in df.columns]
    places = [c for c in df.columns if c.startswith("place_") and c[6:].isdigit()]
    codes, uniques = pd.factorize(df["cell"], sort=False)
    if "game" in df.columns:
        # lexsort sorts by its last key first: by cell, then by game within a cell.
        order = np.lexsort((df["game"].to_numpy(), codes))
    else:
        order = np.argsort(codes, kind="stable")
    sorted_codes = codes[order]
    bounds = np.flatnonzero(np.diff(sorted_codes)) + 1
    pieces = np.split(order, bounds)
    arrays = {c: df[c].to_numpy() for c in dict.fromkeys([*names, *places])}
    out = {}
    for piece in pieces:
        if piece.size == 0:
            continue
        cell = str(uniques[codes[piece[0]]])
        held = sum(1 for c in places if not pd.isna(arrays[c][piece]).any())
        out[cell] = CellRows({c: arrays[c][piece] for c in names}, held)
    return out


@dataclass(frozen=True)
class _Group:
    """Cells that played the same games with the same seats: one paired sample."""

    cells: tuple[str, ...]
    games: int  # games with a value in every cell of the group
    mean: np.ndarray  # per cell, over those games
    cov: np.ndarray  # cells x cells, ddof = 1


@dataclass(frozen=True)
class Contrast:
    """A linear contrast's estimate, standard error and 95% interval."""

    estimate: float
    se: float
    games: int  # the fewest games behind any cell of the contrast
    method: str  # "paired", "independent" or "mixed"

    @property
    def ci_low(self) -> float:
        return self.estimate - Z95 * self.se

    @property
    def ci_high(self) -> float:
        return self.estimate + Z95 * self.se

    @property
    def p_value(self) -> float:
        """Two-sided normal test of a zero contrast."""
        if not math.isfinite(self.se) or not math.isfinite(self.estimate):
            return math.nan
        if self.se <= 0:
            return 1.0 if self.estimate == 0 else 0.0
        return 2.0 * (1.0 - normal_cdf(abs(self.estimate) / self.se))

    def scaled(self, factor: float) -> Contrast:
        return Contrast(self.estimate * factor, self.se * abs(factor), self.games, self.method)


class CellSamples:
    """Per-game values of one measure in every cell, grouped for pairing.

    `values(rows, players)` gives the per-game values of one cell's rows (NaN
    where a game has none, such as a first-player win without a finisher).
    Cells pair when they hold exactly the same game indices and the same number
    of players: the same dice dealt to the same seats.
    """

    def __init__(self, rows_of: Mapping[str, CellRows], values: PerGame) -> None:
        keyed: dict[tuple, list[tuple[str, np.ndarray]]] = {}
        self.players: dict[str, int] = {}
        self.means: dict[str, float] = {}
        self.counts: dict[str, int] = {}
        for cell, rows in rows_of.items():
            n = rows.players
            v = np.asarray(values(rows, n), dtype=float)
            self.players[cell] = n
            known = v[~np.isnan(v)]
            self.means[cell] = float(known.mean()) if known.size else math.nan
            self.counts[cell] = int(known.size)
            games = rows.columns.get("game")
            unique = games is not None and (games.size < 2 or bool(np.all(np.diff(games) > 0)))
            key = (n, games.tobytes()) if unique else (n, object())  # no index: never paired
            keyed.setdefault(key, []).append((cell, v))
        self.groups: list[_Group] = []
        self.group_of: dict[str, tuple[int, int]] = {}
        for members in keyed.values():
            matrix = np.column_stack([v for _, v in members])
            matrix = matrix[~np.isnan(matrix).any(axis=1)]
            k, n = matrix.shape[1], matrix.shape[0]
            mean = matrix.mean(axis=0) if n else np.full(k, math.nan)
            cov = np.atleast_2d(np.cov(matrix, rowvar=False)) if n > 1 else np.full((k, k), np.nan)
            index = len(self.groups)
            self.groups.append(_Group(tuple(c for c, _ in members), n, mean, cov))
            for j, (cell, _) in enumerate(members):
                self.group_of[cell] = (index, j)

    def paired(self, a: str, b: str) -> bool:
        return self.group_of[a][0] == self.group_of[b][0]

    def contrast(self, weights: Mapping[str, float]) -> Contrast:
        """`sum_c w_c mean_c` with its standard error (see the module docstring)."""
        estimate, variance, games, used = 0.0, 0.0, [], []
        by_group: dict[int, np.ndarray] = {}
        for cell, w in weights.items():
            if w == 0:
                continue
            g, j = self.group_of[cell]
            by_group.setdefault(g, np.zeros(len(self.groups[g].cells)))[j] += w
        for g, w in by_group.items():
            group = self.groups[g]
            estimate += float(w @ group.mean)
            variance += float(w @ group.cov @ w) / max(group.games, 1)
            games.append(group.games)
            used.append(int(np.count_nonzero(w)))
        if len(by_group) == 1 and used[0] > 1:
            method = "paired"
        elif all(u == 1 for u in used):
            method = "independent"
        else:
            method = "mixed"
        se = math.sqrt(variance) if variance >= 0 else math.nan
        return Contrast(estimate, se, min(games) if games else 0, method)

    def difference(self, a: str, b: str) -> Contrast:
        """mean(a) - mean(b)."""
        return self.contrast({a: 1.0, b: -1.0})

    def fixed(self, cells: Iterable[str]) -> bool:
        """Every game of each of `cells` gives one and the same value: a quantity the rules
        fix (the length of games a move limit ends, say), which no test can mean anything
        of. Cells whose values vary, even alike in every cell, are not fixed."""
        return all(self.counts[c] > 1 and self.sd(c) == 0 for c in cells)

    def sd(self, cell: str) -> float:
        """Per-game standard deviation of one cell."""
        g, j = self.group_of[cell]
        return math.sqrt(float(self.groups[g].cov[j, j]))


class CellEstimates:
    """One estimate and its standard error per cell, for statistics that are not means.

    A percentile or an imbalance over positions is no mean of per-game values, so
    it has no per-game covariance between cells: contrasts of such estimates treat
    the cells as independent samples, `var = sum_c w_c^2 se_c^2`. Common random
    numbers make paired cells positively correlated, so this variance is an upper
    bound and its intervals are conservative.
    """

    def __init__(self, estimates: Mapping[str, float], se: Mapping[str, float],
                 games: Mapping[str, int]) -> None:  # fmt: skip
        self.means = dict(estimates)
        self.se = dict(se)
        self.counts = dict(games)

    def contrast(self, weights: Mapping[str, float]) -> Contrast:
        used = [c for c, w in weights.items() if w]
        estimate = sum(w * self.means[c] for c, w in weights.items() if w)
        variance = sum(w * w * self.se[c] ** 2 for c, w in weights.items() if w)
        games = min((self.counts[c] for c in used), default=0)
        return Contrast(float(estimate), math.sqrt(variance), games, "independent")

    def difference(self, a: str, b: str) -> Contrast:
        return self.contrast({a: 1.0, b: -1.0})


# ------------------------------------------------------------------------- families
@dataclass
class Test:
    """One decision of a page: an estimate, its interval and how the family decided it.

    `estimate`, `ci_low` and `ci_high` are in the unit the page states; `p_value`
    is the unadjusted two-sided p-value, `p_adjusted` the family's (Holm).
    `resolved` is set when the family is adjusted: `p_adjusted < ALPHA`.
    """

    key: str
    estimate: float
    ci_low: float
    ci_high: float
    p_value: float
    games: int
    method: str = ""
    sd: float = math.nan  # per-game sd behind the estimate (for sizing), in its unit
    p_adjusted: float = math.nan
    resolved: bool = False
    family_size: int = 1  # the tests of its family, set when the family is adjusted
    fixed: bool = False  # the rules fix the quantity: every game of every cell gives one value

    @classmethod
    def of(cls, key: str, c: Contrast, scale: float = 1.0, p_factor: float = 1.0) -> Test:
        """A test of contrast `c`, stated in units `scale` times the contrast's.

        `p_factor` multiplies the p-value (2 for a ranking whose order was read
        from the data: either order could have been tested).
        """
        s = c.scaled(scale)
        return cls(
            key,
            s.estimate,
            s.ci_low,
            s.ci_high,
            min(1.0, p_factor * c.p_value),
            c.games,
            c.method,
            s.se * math.sqrt(max(c.games, 1)),
        )


@dataclass
class Family:
    """The tests a page decides together, adjusted by Holm's step-down method."""

    name: str
    what: str  # what its tests are, for a reader: "comparisons between rule sets"
    tests: list[Test] = field(default_factory=list)
    fixed: list[Test] = field(default_factory=list)  # quantities the rules fix: not tested

    def add(self, test: Test) -> Test:
        """Add `test` to the family, unless the rules fix its quantity (`is_fixed`): such a
        test is kept in `fixed`, never decided nor counted."""
        if is_fixed(test):
            test.p_value = math.nan
            self.fixed.append(test)
        else:
            self.tests.append(test)
        return test

    def adjust(self) -> None:
        """Holm-adjust every test's p-value over the family and decide it at `ALPHA`; each
        test learns the family's size, the level its size against a smallest effect is
        read at (`size_of`)."""
        adjusted = holm([t.p_value for t in self.tests])
        for t, p in zip(self.tests, adjusted, strict=True):
            t.p_adjusted = p
            t.resolved = bool(math.isfinite(p) and p < ALPHA)
            t.family_size = max(self.size, 1)
        for t in self.fixed:
            t.p_adjusted, t.resolved = math.nan, False

    @property
    def size(self) -> int:
        return sum(1 for t in self.tests if math.isfinite(t.p_value))

    def z(self) -> float:
        """The Bonferroni quantile of the family: the level its largest test is held to."""
        return z_for(ALPHA / max(self.size, 1))


def games_to_detect(sd: float, effect: float, tests: int, power: float = POWER) -> int | None:
    """Games per cell to detect a true `effect` with `power`, at the family's level.

    `sd` is the per-game standard deviation behind the estimate (for a paired
    difference, that of the per-game differences), in the unit of `effect`.
    n = ((z_{1 - alpha/(2 tests)} + z_power) sd / effect)^2: Bonferroni's level,
    which Holm's never falls below. None when sd or effect is not positive.
    """
    if not (math.isfinite(sd) and sd > 0 and math.isfinite(effect) and effect != 0):
        return None
    z_alpha = z_for(ALPHA / max(tests, 1))
    z_power = z_for(2.0 * (1.0 - power))
    return math.ceil(((z_alpha + z_power) * sd / abs(effect)) ** 2)


# ------------------------------------------------------------------ practical size
# How a comparison stands against its smallest effect of interest (docs/analysis.md,
# "Practical size"). Each is decided from the 95% interval, never from the estimate: an
# estimate just past the smallest effect with an interval reaching well inside it is no
# evidence of a change that matters, and a failed test is no evidence of none.
PRACTICAL = "practical"  # resolved, the whole interval beyond ±smallest
POSSIBLY_BELOW = "possibly below"  # resolved, the interval reaching inside ±smallest
BELOW = "below"  # resolved, the whole interval inside ±smallest
EQUIVALENT = "equivalent"  # not resolved, the whole interval inside ±smallest
OPEN = "open"  # not resolved, the interval beyond ±smallest: not resolved at this size
SIZES = (PRACTICAL, POSSIBLY_BELOW, BELOW, EQUIVALENT, OPEN)


def practical_size(
    resolved: bool,
    ci_low: float,
    ci_high: float,
    smallest: float,
    *,
    estimate: float | None = None,
    tests: int = 1,
) -> str:
    """Where a comparison stands against its smallest effect of interest: one of `SIZES`.

    `resolved` is the family's decision (Holm); `ci_low`, `ci_high` its 95% interval and
    `smallest` the smallest effect of interest (positive), all in one unit. A resolved
    effect is `PRACTICAL` only when its interval clears the smallest effect on one side
    (`ci_low >= smallest` or `ci_high <= -smallest`: a one-sided test at 2.5% that the
    effect is at least that large), `BELOW` when its interval lies within
    [-smallest, smallest], else `POSSIBLY_BELOW`. An effect not resolved is `EQUIVALENT`
    when its interval lies within [-smallest, smallest] (both one-sided tests of the
    equivalence margin reject at 2.5%: Schuirmann 1987; Lakens 2017), else `OPEN`. An
    interval that is not finite clears nothing and lies inside nothing.

    `tests`: the size of the family the comparison was decided in. With more than one the
    interval is first widened to the family's Bonferroni level (`corrected_interval`,
    about `estimate`, the midpoint when not given), so that each one-sided test is at
    `ALPHA/(2 tests)`: no claim of size or of sameness escapes the correction its family's
    differences are held to.
    """
    if not (math.isfinite(smallest) and smallest > 0):
        raise ValueError(f"a smallest effect of interest must be positive, not {smallest!r}")
    if tests > 1:
        middle = (ci_low + ci_high) / 2.0 if estimate is None else estimate
        ci_low, ci_high = corrected_interval(middle, ci_low, ci_high, tests)
    finite = math.isfinite(ci_low) and math.isfinite(ci_high)
    inside = finite and -smallest <= ci_low and ci_high <= smallest
    if not resolved:
        return EQUIVALENT if inside else OPEN
    if finite and (ci_low >= smallest or ci_high <= -smallest):
        return PRACTICAL
    return BELOW if inside else POSSIBLY_BELOW


def corrected_interval(
    estimate: float, ci_low: float, ci_high: float, tests: int = 1
) -> tuple[float, float]:
    """A 95% interval widened to the Bonferroni level `1 - ALPHA/tests` of a family of
    `tests` tests: each side scaled from `Z95` to `z_for(ALPHA/tests)` about the estimate,
    so a Wilson interval keeps its asymmetry. With one test it is the interval itself."""
    if tests <= 1:
        return ci_low, ci_high
    k = z_for(ALPHA / tests) / Z95
    return estimate - k * (estimate - ci_low), estimate + k * (ci_high - estimate)


def corrected_level(tests: int) -> float:
    """The coverage of `corrected_interval` in a family of `tests` tests: `1 - ALPHA/tests`."""
    return 1.0 - ALPHA / max(tests, 1)


def size_of(test: Test, smallest: float) -> str:
    """`practical_size` of a decided test, read at its family's Bonferroni level: the one
    correction its claims of difference and of size share."""
    return practical_size(test.resolved, test.ci_low, test.ci_high, smallest,
                          estimate=test.estimate, tests=test.family_size)  # fmt: skip


def is_fixed(test: Test) -> bool:
    """The rules fix the quantity `test` compares (`Test.fixed`, from
    `CellSamples.fixed`): no test of it means anything."""
    return test.fixed


def adjust_all(families: Iterable[Family]) -> None:
    for family in families:
        family.adjust()


def rank_gap(
    samples: CellSamples, ordered: Sequence[str], scale: float = 1.0, key: str = ""
) -> Test:
    """Test of the first of `ordered` against the second: `mean(first) - mean(second)`."""
    return Test.of(key, samples.difference(ordered[0], ordered[1]), scale)


__all__ = [
    "ALPHA",
    "BELOW",
    "EQUIVALENT",
    "OPEN",
    "POSSIBLY_BELOW",
    "POWER",
    "PRACTICAL",
    "SIZES",
    "CellEstimates",
    "CellRows",
    "CellSamples",
    "Contrast",
    "Family",
    "Test",
    "adjust_all",
    "cell_rows",
    "corrected_interval",
    "corrected_level",
    "games_to_detect",
    "is_fixed",
    "practical_size",
    "rank_gap",
    "size_of",
]
