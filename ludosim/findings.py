"""Findings: what a results table says, in sentences a reader can quote.

`findings(df, cells)` turns the analysis tables of `ludosim.analysis` into a list of
`Finding`s for the questions the results can answer: how long games last, whether the
first player is favoured (per cell, against zero and against the other cells), what
skipping a forced capture costs and where it stops paying, how policies rank in a
tournament, which toggle moves the game most, and which interaction stands out in a
factorial design. Each question opens with a headline (`Finding.headline`): a short
sentence that answers it across all cells and can be quoted; the per-cell statements
behind it follow. Each sentence gives the estimate, its 95% interval and the games
behind it; one whose interval cannot decide the question says so, with about how many
games per cell would (`Finding.games_needed`, from `ludosim.stats.games_needed`).
`TITLES` names each topic for a reader.

When several tests answer one question (every cell against zero, every pair of cells,
every one-toggle change, every interaction) the decision is Holm's step-down
correction over those tests (`ludosim.stats.holm`), and the sentence names it; the
intervals printed are the plain 95% ones. The games needed are then sized with the
Bonferroni quantile for that many tests, a slight overestimate for Holm.

Numbers are written as the tables hold them, rounded to what their interval
supports: one decimal for a half-width between 1 and 10 (turns, percentage points),
one more for each factor of ten narrower; detection probabilities to two decimals;
p-values to two significant figures, and below 1e-16 (where double precision ends)
as `p < 1e-16`.
Toggle values and cell names are in the spelling `--set` accepts
(`ludosim.analysis.value_text`: `true`/`false`, an empty set `{}`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd

from ludosim import analysis
from ludosim.analysis import value_text
from ludosim.stats import games_needed, holm, interval_p, z_for, zero_crossing

# The question a study is built for comes first (a tournament's ranking, a skip
# sweep's break-even, a toggle sweep's effects); length and first player close.
TOPICS = ("policies", "skip_cost", "toggles", "interactions", "length", "first_player")
TITLES = {
    "length": "Game length",
    "first_player": "First-player advantage",
    "skip_cost": "Skip cost",
    "policies": "Policies",
    "toggles": "Toggle effects",
    "interactions": "Interactions",
}
ALPHA = 0.05  # family-wise error rate of every decision


@dataclass(frozen=True)
class Finding:
    """One quotable statement about a results table.

    topic: one of `TOPICS`. text: one or two plain-text sentences with the estimate,
    its 95% interval and the games behind it. resolved: False when the interval is too
    wide to decide the question at this size. games_needed: when not resolved, about
    how many games per cell would decide it (None when no size would, e.g. a zero
    estimate, or when it cannot be estimated). headline: True for the sentence that
    answers the topic's question across all cells; False for the statements behind it
    (one per cell, value or change).
    """

    topic: str
    text: str
    resolved: bool
    games_needed: int | None = None
    headline: bool = False


def findings(df: pd.DataFrame, cells: pd.DataFrame) -> list[Finding]:
    """Every finding the per-game rows `df` (with `cell`) and their `cells` table support.

    `df` and `cells` are what `ludosim.results.load(path, cells=True)` and
    `ludosim.results.load_cells(path)` return (a report's `_Results.df` and `.cells`).
    Topics without what they need (no skipper, no rotated policies, no base cell, no
    factorial design, a column missing) give no findings; the order is `TOPICS`, and
    within a topic the headlines come first.
    """
    if df.empty or "winner" not in df.columns:
        return []
    if "cell" not in df.columns:
        df = df.assign(cell="all")
    design = _design(df, cells)  # shared by the toggles' main effects and the interactions
    topics: list[Callable[[], list[Finding]]] = [
        lambda: _policies(df, cells),
        lambda: _skip_cost(df, cells),
        lambda: _toggles(df, cells, design),
        lambda: _interactions(df, design),
        lambda: _length(df, cells),
        lambda: _first_player(df, cells),
    ]
    out: list[Finding] = []
    for topic in topics:
        try:
            found = topic()
        except analysis.AnalysisError:
            continue  # the table lacks what this topic needs (the error names it): no finding
        out.extend(sorted(found, key=lambda f: not f.headline))  # stable: headlines first
    return out


# ------------------------------------------------------------------ wording
def _num(x: float, digits: int = 1, sign: bool = False) -> str:
    """A rounded number, with its sign when asked; `n/a` for NaN (too few games)."""
    if x is None or not math.isfinite(float(x)):
        return "n/a"
    return f"{float(x):{'+' if sign else ''}.{digits}f}"


def _digits(low: float, high: float) -> int:
    """Decimals that show an interval of this width: one for a half-width of 1 to 10,
    one more per factor of ten below (a million games narrow intervals to hundredths)."""
    half = (float(high) - float(low)) / 2.0
    if not math.isfinite(half) or half <= 0:
        return 1
    return min(4, max(1, 1 - math.floor(math.log10(half))))


def _pct(p: float, digits: int = 1) -> str:
    return f"{_num(100.0 * p, digits)}%"


def _ci(low: float, high: float, digits: int = 1, sign: bool = False, unit: str = "") -> str:
    return f"95% CI {_num(low, digits, sign)} to {_num(high, digits, sign)}{unit}"


def _p(p: float) -> str:
    """A p-value to two significant figures; never `0`: below 1e-16 doubles cannot say."""
    if not math.isfinite(float(p)):
        return "p = n/a"
    if p < 1e-16:
        return "p < 1e-16"
    return f"p = {p:.2g}" if p >= 1e-3 else f"p = {p:.1e}"


def _est(
    x: float,
    low: float,
    high: float,
    unit: str,
    sign: bool = True,
    ci: bool = True,
    digits: int | None = None,
) -> str:
    """`+0.67 pp (95% CI +0.55 to +0.79)`; with `ci=False` just `(+0.55 to +0.79)`."""
    d = _digits(low, high) if digits is None else digits
    interval = _ci(low, high, d, sign) if ci else f"{_num(low, d, sign)} to {_num(high, d, sign)}"
    space = "" if unit in ("", "%") else " "
    return f"{_num(x, d, sign)}{space}{unit} ({interval})"


def _each(games: pd.Series) -> str:
    """`504,188 games each`, or `about 505,000 games each` when the cells differ."""
    values = [int(g) for g in games]
    if min(values) == max(values):
        return f"{_games(values[0])} each"
    mean = float(np.mean(values))
    step = 10 ** max(0, math.floor(math.log10(mean)) - 2)  # three significant figures
    return f"about {int(round(mean / step) * step):,} games each"


def _of(k: int, n: int) -> str:
    """`all 3` or `2 of the 3`."""
    return f"all {n}" if k == n and n > 1 else f"{k} of the {n}"


def _listing(names: list[str], most: int = 6) -> str:
    if len(names) <= most:
        return ", ".join(names)
    return ", ".join(names[:most]) + f" and {len(names) - most} more"


def _games(n: int) -> str:
    return f"{int(n):,} game{'s' if int(n) != 1 else ''}"


def _about(n: int | None) -> int | None:
    """Round up to two significant figures: `about N games` is no more precise than that."""
    if n is None:
        return None
    step = 10 ** max(0, len(str(int(n))) - 2)
    return int(math.ceil(n / step) * step)


def _unresolved(n: int | None) -> str:
    if n is None:
        return "not resolved at this size"
    return f"not resolved at this size: needs about {n:,} games per cell"


def _names(cells: pd.DataFrame) -> dict[Any, str]:
    """cell id -> name, values spelled as `--set` takes them (`true`, `{}` for an empty set)."""
    if "cell" not in cells.columns:
        return {}
    return analysis.describe_cells(cells)


def _namer(cells: pd.DataFrame) -> Callable[[str], str]:
    """cell -> its name alone when names are unique (`killer`), else the id and name."""
    names = _names(cells)
    unique = len(set(names.values())) == len(names)
    label = _labeller(cells)

    def name(cell: Any) -> str:
        return names.get(str(cell), str(cell)) if unique else label(cell)

    return name


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


def _labeller(cells: pd.DataFrame) -> Callable[[str], str]:
    names = _names(cells)

    def label(cell: Any) -> str:
        name = names.get(str(cell), str(cell))
        return str(cell) if name == str(cell) else f"{cell} ({name})"

    return label


def _decide(
    p_holm: float, estimate: float, low: float, high: float, games: int, tests: int
) -> tuple[bool, int | None]:
    """(resolved, games per cell needed) for a test decided by Holm over `tests` tests."""
    if p_holm < ALPHA:
        return True, None
    z = z_for(ALPHA / max(tests, 1))
    return False, _about(games_needed(games, estimate, low, high, z_needed=z))


def _holm_of(estimates: pd.Series, lows: pd.Series, highs: pd.Series) -> list[float]:
    """Holm-adjusted p-values of "zero" for estimates with normal 95% intervals."""
    return holm([interval_p(*t) for t in zip(estimates, lows, highs, strict=True)])


def _verdict(
    low: float, high: float, resolved: bool, needed: int | None, tests: int, what: str
) -> str:
    """Whether the 95% interval excludes zero and, with several tests, whether Holm agrees."""
    excludes = low > 0 or high < 0
    interval = f"its 95% interval {'excludes' if excludes else 'includes'} zero"
    if tests <= 1:
        return interval if resolved else f"{interval}: {_unresolved(needed)}"
    holm_text = f"Holm's correction over the {tests} {what}"
    if resolved:
        return f"{interval}, also after {holm_text}"
    if excludes:
        return f"{interval}, but not after {holm_text}: {_unresolved(needed)}"
    return f"{interval}: {_unresolved(needed)} (sized for {holm_text})"


# ------------------------------------------------------------------ length
def _seatings_only(df: pd.DataFrame, cells: pd.DataFrame) -> bool:
    """A tournament whose cells differ only in where the same policies sit."""
    if not analysis.rotated_policies(df) or "policies" not in cells.columns:
        return False
    rules = [c for c in analysis.toggle_columns(cells) if c != "policies"]
    return all(cells[c].astype(str).nunique() == 1 for c in rules)


def _length(df: pd.DataFrame, cells: pd.DataFrame) -> list[Finding]:
    """Which cell has the longest and the shortest games; then every cell's mean and median.

    In a tournament whose cells are only seatings of the same policies, which
    seating has the longest games is not a question anyone asks: the cells are
    pooled into one statement about the game the policies play.
    """
    if _seatings_only(df, cells):
        seatings = cells["policies"].nunique()
        pooled = _length(df.assign(cell="all"), cells.iloc[:0])[0]
        text = pooled.text[0].lower() + pooled.text[1:]
        return [Finding("length", f"Over all {seatings} seatings, {text}", True, headline=True)]
    label, name = _labeller(cells), _namer(cells)
    table = analysis.game_length(df, by="cell")
    turns = table[table["measure"] == "turns"].reset_index(drop=True)
    out = []
    for row in turns.itertuples(index=False):
        truncated = (
            f", {row.truncated:,} of them stopped at max_turns (their length a lower bound)"
            if row.truncated
            else ""
        )
        median = f"median {_num(row.median, 0)}"
        if math.isfinite(row.median_ci_low):
            median += f" ({_ci(row.median_ci_low, row.median_ci_high, 0)})"
        d = _digits(row.mean_ci_low, row.mean_ci_high)
        said = (
            f"games last {_num(row.mean, d)} turns on average "
            f"({_ci(row.mean_ci_low, row.mean_ci_high, d)}), {median}; "
            f"{_games(row.games)}{truncated}."
        )
        if len(turns) == 1:
            return [Finding("length", said[0].upper() + said[1:], True, headline=True)]
        out.append(Finding("length", f"{label(row.cell)}: {said}", True))
    longest = turns.loc[turns["mean"].idxmax()]
    shortest = turns.loc[turns["mean"].idxmin()]
    apart = bool(shortest["mean_ci_high"] < longest["mean_ci_low"])
    text = (
        f"Games are longest under {name(longest['cell'])}, "
        f"{_mean(longest, 'turns', ci=True)}, and shortest under {name(shortest['cell'])}, "
        f"{_mean(shortest, '', ci=False)}"
        f"; {_each(turns['games'])}"
        + ("." if apart else "; their 95% intervals overlap: not resolved at this size.")
    )
    return [Finding("length", text, apart, headline=True), *out]


def _mean(row: pd.Series, unit: str, ci: bool) -> str:
    return _est(row["mean"], row["mean_ci_low"], row["mean_ci_high"], unit, False, ci)


# ------------------------------------------------------------ first player
def _first_player(df: pd.DataFrame, cells: pd.DataFrame) -> list[Finding]:
    """Whether the first player is favoured in every cell; then each cell and the pairs."""
    if "first" not in df.columns:
        return []
    label = _labeller(cells)
    tests = analysis.first_player_tests(df, by="cell")
    tests = tests[tests["games"] > 0].reset_index(drop=True)
    m = len(tests)
    if m == 0:
        return []
    if m == 1:
        return [_first_player_one(tests.iloc[0])]
    pairs = analysis.first_player_differences(df)
    out = [_first_player_headline(tests, cells), _family(tests, pairs, cells)]
    for row in tests.itertuples(index=False):
        resolved, needed = _decide(
            row.p_holm, row.advantage_pp, row.advantage_ci_low, row.advantage_ci_high,
            row.games, m,
        )  # fmt: skip
        decision = _verdict(
            row.advantage_ci_low, row.advantage_ci_high, resolved, needed, m, "cells' tests"
        )
        mine = pairs[(pairs["cell"] == row.cell) | (pairs["other"] == row.cell)]
        apart = mine[mine["p_holm"] < ALPHA]
        others = [label(o) for o in apart["other"].where(apart["cell"] == row.cell, apart["cell"])]
        if not others:
            compared = "indistinguishable from every other cell"
        elif len(others) == m - 1:
            compared = "it differs from every other cell"
        else:
            compared = f"it differs from {len(others)} of the other {m - 1}: {_listing(others)}"
        d = _digits(row.advantage_ci_low, row.advantage_ci_high)
        text = (
            f"{label(row.cell)}: the first player wins {_pct(row.win_rate, d)} of "
            f"{_games(row.games)} with a finisher "
            f"({_ci(100 * row.ci_low, 100 * row.ci_high, d)}%; fair share {_pct(row.fair, d)}), "
            f"an advantage of {_num(row.advantage_pp, d, sign=True)} pp "
            f"({_ci(row.advantage_ci_low, row.advantage_ci_high, d, sign=True)}); {decision}; "
            f"Holm-adjusted {_p(row.p_holm)}; {compared} "
            f"(Holm over the {len(pairs)} pairs of cells)."
        )
        out.append(Finding("first_player", text, resolved, needed))
    return out


def _first_player_one(row: Any) -> Finding:
    """One cell: the advantage against zero, answer first."""
    resolved, needed = _decide(
        row.p_holm, row.advantage_pp, row.advantage_ci_low, row.advantage_ci_high, row.games, 1
    )
    d = _digits(row.advantage_ci_low, row.advantage_ci_high)
    effect = _est(row.advantage_pp, row.advantage_ci_low, row.advantage_ci_high, "pp")
    share = (
        f"The first player wins {_pct(row.win_rate, d)} of {_games(row.games)} with a "
        f"finisher (fair share {_pct(row.fair, d)})."
    )
    if resolved:
        kind = "advantage" if row.advantage_pp > 0 else "disadvantage"
        text = (
            f"The first player has a measurable {kind}: {effect}, its 95% interval excludes "
            f"zero ({_p(row.p_zero)}). {share}"
        )
    else:
        text = (
            f"The first player's advantage is {_unresolved(needed)}: {effect}, its 95% "
            f"interval includes zero. {share}"
        )
    return Finding("first_player", text, resolved, needed, headline=True)


def _first_player_headline(tests: pd.DataFrame, cells: pd.DataFrame) -> Finding:
    """Across cells: where the first player is favoured, and the largest and smallest edge."""
    name, noun, m = _namer(cells), _noun(cells), len(tests)
    decided = tests["p_holm"] < ALPHA
    plus = tests[decided & (tests["advantage_pp"] > 0)]
    minus = tests[decided & (tests["advantage_pp"] < 0)]
    open_ = tests[~decided]
    hi = tests.loc[tests["advantage_pp"].idxmax()]
    lo = tests.loc[tests["advantage_pp"].idxmin()]
    span = (
        f"largest under {name(hi['cell'])}, "
        f"{_advantage(hi, ci=True)}, smallest under {name(lo['cell'])}, "
        f"{_advantage(lo, ci=False)}"
    )
    tail = f"Holm-corrected over {m} cells, {_each(tests['games'])}."
    needs = [
        _decide(r.p_holm, r.advantage_pp, r.advantage_ci_low, r.advantage_ci_high, r.games, m)[1]
        for r in open_.itertuples(index=False)
    ]
    known = [n for n in needs if n is not None]
    needed = max(known) if known else None  # what resolves every open cell
    if len(plus) == m or len(minus) == m:
        kind = "advantage" if len(plus) == m else "disadvantage"
        text = f"The first player has a measurable {kind} under all {m} {noun}: {span}; {tail}"
        return Finding("first_player", text, True, headline=True)
    if open_.shape[0] == m:
        needed = min(known) if known else None  # the largest advantage is the first told
        sized = (
            f" Telling the largest from zero needs about {needed:,} games per cell."
            if needed
            else ""
        )
        text = (
            f"The first player's advantage is not resolved at this size under any of the "
            f"{m} {noun}: {span}; {tail}{sized}"
        )
        return Finding("first_player", text, False, needed, headline=True)
    parts = []
    if len(plus):
        parts.append(
            f"a measurable advantage under {len(plus)} of {m} {noun} "
            f"({_listing([name(c) for c in plus['cell']])})"
        )
    if len(minus):
        parts.append(
            f"a measurable disadvantage under {len(minus)} of {m} "
            f"({_listing([name(c) for c in minus['cell']])})"
        )
    text = (
        f"The first player has {' and '.join(parts)}; under the other {len(open_)} "
        f"({_listing([name(c) for c in open_['cell']])}) it is {_unresolved(needed)}. "
        f"{span[0].upper() + span[1:]}; {tail}"
    )
    return Finding("first_player", text, False, needed, headline=True)


def _advantage(row: pd.Series, ci: bool) -> str:
    return _est(row["advantage_pp"], row["advantage_ci_low"], row["advantage_ci_high"], "pp", ci=ci)


def _family(tests: pd.DataFrame, pairs: pd.DataFrame, cells: pd.DataFrame) -> Finding:
    """Across cells: the pair whose advantages differ most, and how many pairs differ."""
    name, p = _namer(cells), len(pairs)
    top = pairs.loc[pairs["diff_pp"].abs().idxmax()]
    resolved, needed = _decide(
        top["p_holm"], top["diff_pp"], top["ci_low"], top["ci_high"], int(top["games"]), p
    )
    paired = "paired by game" if top["method"] == "paired" else "independent samples"
    d = _digits(top["ci_low"], top["ci_high"])
    verdict = _verdict(top["ci_low"], top["ci_high"], resolved, needed, p, "pairs of cells")
    differ = int((pairs["p_holm"] < ALPHA).sum())
    count = (
        "no pair of cells differs beyond chance"
        if differ == 0
        else f"{differ} of the {p} pairs of cells differ beyond chance"
    )
    text = (
        f"The advantage differs most between {name(top['cell'])} and {name(top['other'])}: "
        f"{_num(top['diff_pp'], d, sign=True)} pp "
        f"({_ci(top['ci_low'], top['ci_high'], d, sign=True)}; "
        f"{_games(int(top['games']))}, {paired}); {verdict}; {count} (Holm)."
    )
    return Finding("first_player", text, resolved, needed, headline=True)


# --------------------------------------------------------------- skip cost
def _skip_cost(df: pd.DataFrame, cells: pd.DataFrame) -> list[Finding]:
    """Per skipping seat: where skipping stops paying; then each detection probability."""
    out = []
    for seat in analysis.skipper_seats(df):
        try:
            curve = analysis.skip_cost(df, seat, cells=cells)
        except analysis.AnalysisError:
            continue  # no baseline policy for that seat: nothing to compare with
        values = []
        for row in curve.itertuples(index=False):
            diff, low, high = 100 * row.diff, 100 * row.diff_ci_low, 100 * row.diff_ci_high
            resolved = bool(low > 0 or high < 0)
            needed = None if resolved else _about(games_needed(row.games, diff, low, high))
            if resolved:
                verdict = "skipping pays" if diff > 0 else "skipping costs"
            else:
                verdict = _unresolved(needed)
            paired = "paired by game" if row.method == "paired" else "independent samples"
            d = _digits(low, high)
            text = (
                f"At detect_skip = {value_text(row.detect_skip, 'detect_skip')}, "
                f"seat {seat} playing "
                f"{row.policy} wins {_pct(row.win_rate, d)} of {_games(row.games)} against "
                f"{_pct(row.win_rate_base, d)} when it plays {row.baseline}: "
                f"{_num(diff, d, sign=True)} pp ({_ci(low, high, d, sign=True)}, {paired}); "
                f"{verdict}."
            )
            values.append(Finding("skip_cost", text, resolved, needed))
        if len(values) == 1:
            out.append(replace(values[0], headline=True))
            continue
        if math.isfinite(curve["break_even"].iloc[0]):
            out.append(_break_even(curve, seat))
        else:
            out.append(_skip_summary(curve, seat, values))
        out.extend(values)
    return out


def _skip_change(row: pd.Series) -> str:
    """`+3.1 pp (95% CI +1.2 to +5.0) at detect_skip = 0`."""
    low, high = 100 * row["diff_ci_low"], 100 * row["diff_ci_high"]
    at = value_text(row["detect_skip"], "detect_skip")
    return f"{_est(100 * row['diff'], low, high, 'pp')} at detect_skip = {at}"


def _who(curve: pd.DataFrame, seat: int) -> str:
    return f"seat {seat} ({curve['policy'].iloc[0]} against {curve['baseline'].iloc[0]})"


def _break_even(curve: pd.DataFrame, seat: int) -> Finding:
    """Where the change reaches zero, with the band where its 95% interval does."""
    x = curve["detect_skip"].to_numpy(float)
    at = float(curve["break_even"].iloc[0])
    early = zero_crossing(x, curve["diff_ci_low"].to_numpy(float))
    late = zero_crossing(x, curve["diff_ci_high"].to_numpy(float))
    lowest, highest = float(x.min()), float(x.max())
    low_text = _num(early, 2) if math.isfinite(early) else f"at or below {_num(lowest, 2)}"
    high_text = _num(late, 2) if math.isfinite(late) else f"above {_num(highest, 2)}"
    resolved = math.isfinite(early) and math.isfinite(late)
    ends = curve.sort_values("detect_skip", kind="stable")
    text = (
        f"Skipping forced captures stops paying for {_who(curve, seat)} at a detection "
        f"probability of about {_num(at, 2)}; the 95% interval of the change crosses zero "
        f"between {low_text} and {high_text}. The change runs from "
        f"{_skip_change(ends.iloc[0])} to {_skip_change(ends.iloc[-1])} "
        f"({_games(int(curve['games'].min()))} per value, linear interpolation between the "
        f"{len(curve)} values swept)"
        + ("." if resolved else "; not resolved at this size: more games or values needed.")
    )
    return Finding("skip_cost", text, resolved, headline=True)


def _skip_summary(curve: pd.DataFrame, seat: int, values: list[Finding]) -> Finding:
    """No crossing: at which detection probabilities skipping pays, costs or is undecided."""
    groups: dict[str, list[str]] = {"pays": [], "costs": [], "open": []}
    for row, f in zip(curve.itertuples(index=False), values, strict=True):
        key = "open" if not f.resolved else ("pays" if row.diff > 0 else "costs")
        groups[key].append(value_text(row.detect_skip, "detect_skip"))
    parts = []
    if groups["pays"]:
        parts.append(f"pays at detect_skip = {', '.join(groups['pays'])}")
    if groups["costs"]:
        parts.append(f"costs at detect_skip = {', '.join(groups['costs'])}")
    needs = [f.games_needed for f in values if f.games_needed is not None]
    needed = max(needs) if needs else None
    if groups["open"]:
        parts.append(
            f"is not resolved at this size at detect_skip = {', '.join(groups['open'])}"
            + (f" (needs about {needed:,} games per cell)" if needed else "")
        )
    top = curve.loc[curve["diff"].abs().idxmax()]
    said = parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} and {parts[-1]}"
    text = (
        f"Skipping forced captures by {_who(curve, seat)} {said}. The largest "
        f"change is {_skip_change(top)}; {_games(int(curve['games'].min()))} per value."
    )
    resolved = not groups["open"]
    return Finding("skip_cost", text, resolved, None if resolved else needed, headline=True)


# ---------------------------------------------------------------- policies
def _policies(df: pd.DataFrame, cells: pd.DataFrame) -> list[Finding]:
    """Tournament sweeps: best and worst policy; then the ranking and each neighbour in it."""
    if not analysis.rotated_policies(df):
        return []
    table = analysis.win_table(df).sort_values("win_rate", ascending=False, kind="stable")
    pairs = analysis.policy_differences(df)
    seatings = df["policies"].nunique()
    per_cell = max(1, round(len(df) / max(seatings, 1)))
    d = _digits(100 * table["ci_low"].min(), 100 * table["ci_high"].min())
    ranks = "; ".join(
        f"{i}. {r.policy} {_pct(r.win_rate, d)} ({_ci(100 * r.ci_low, 100 * r.ci_high, d)}%)"
        for i, r in enumerate(table.itertuples(index=False), start=1)
    )
    details = [
        Finding(
            "policies",
            f"Policy ranking over {seatings} seatings, each policy in every seat "
            f"({_games(len(df))} in all): {ranks}; fair share {_pct(table['fair'].mean(), d)}.",
            True,
        )
    ]
    names = table["policy"].tolist()
    for better, worse in itertools.pairwise(names):
        row = pairs[
            ((pairs["policy"] == better) & (pairs["other"] == worse))
            | ((pairs["policy"] == worse) & (pairs["other"] == better))
        ].iloc[0]
        sign = 1.0 if row["policy"] == better else -1.0
        diff, low, high = sign * row["diff_pp"], sign * row["ci_low"], sign * row["ci_high"]
        low, high = min(low, high), max(low, high)
        resolved, needed = _decide(row["p_holm"], diff, low, high, per_cell, len(pairs))
        verdict = _verdict(low, high, resolved, needed, len(pairs), "pairs of policies")
        details.append(
            Finding(
                "policies",
                f"{better} wins {_num(diff, _digits(low, high), sign=True)} pp more often than "
                f"{worse} ({_ci(low, high, _digits(low, high), sign=True)}; "
                f"{_games(int(row['games']))}, paired by game); "
                f"{verdict}.",
                resolved,
                needed,
            )
        )
    best, worst = table.iloc[0], table.iloc[-1]
    neighbours = details[1:]
    apart = sum(f.resolved for f in neighbours)
    first = neighbours[0]
    lead = (
        f"ahead of {names[1]} beyond chance"
        if first.resolved
        else f"but not told from {names[1]}: {_unresolved(first.games_needed)}"
    )
    text = (
        f"{best['policy']} wins most often, "
        f"{_rate(best, True, d)}, {lead}; {worst['policy']} least, {_rate(worst, False, d)}"
        f"; fair share {_pct(table['fair'].mean(), d)}. "
        f"{_of(apart, len(neighbours)).capitalize()} neighbours in the ranking are told apart "
        f"(Holm over the {len(pairs)} pairs); "
        f"{_games(len(df))} over {seatings} seatings."
    )
    headline = Finding("policies", text, first.resolved, first.games_needed, headline=True)
    return [headline, *details]


def _rate(row: pd.Series, ci: bool, digits: int) -> str:
    return _est(
        100 * row["win_rate"], 100 * row["ci_low"], 100 * row["ci_high"], "%", False, ci, digits
    )


# ----------------------------------------------------------------- toggles
_RULE_TEXT = {  # how `analysis.baselines` chose the base
    "given": "the cell named as the base",
    "sweep start": "the sweep's starting point",
    "preset": "the cell holding the preset's own value",
    "first cell": "the first cell listed (none holds the preset's value)",
}

_MEASURES = (
    # (column, interval columns, what it moves, unit)
    ("turns_effect", "turns_ci_low", "turns_ci_high", "the game length", "turns"),
    ("fpa_effect_pp", "fpa_ci_low", "fpa_ci_high", "the first player's advantage", "pp"),
)


def _toggles(df: pd.DataFrame, cells: pd.DataFrame, design: pd.DataFrame) -> list[Finding]:
    """Which one-toggle change from the base moves length and first-player advantage most."""
    if len(cells) < 2 or "cell" not in cells.columns:
        return []
    try:
        effects = (
            analysis.toggle_effects(df, cells) if analysis.find_baselines(cells) else pd.DataFrame()
        )
    except analysis.AnalysisError:
        effects = pd.DataFrame()
    if not effects.empty and analysis.rotated_policies(df):
        # A tournament's seatings differ in policies only: the policies findings rank them.
        effects = effects[effects["toggle"] != "policies"]
    if effects.empty:
        return _main_effects(df, design)
    label = _labeller(cells)
    out = []
    for base, changes in effects.groupby("base", sort=False):
        m = len(changes)
        rule = _RULE_TEXT.get(str(changes["base_rule"].iloc[0]), str(changes["base_rule"].iloc[0]))
        tops = []
        for column, lo_col, hi_col, what, unit in _MEASURES:
            adjusted = _holm_of(changes[column], changes[lo_col], changes[hi_col])
            top = int(np.nanargmax(np.abs(changes[column].to_numpy(float))))
            row = changes.iloc[top]
            resolved, needed = _decide(
                adjusted[top], row[column], row[lo_col], row[hi_col], int(row["games"]), m
            )
            moving = sum(1 for q in adjusted if q < ALPHA)
            toggle = str(row["toggle"])
            before, after = value_text(row["base_value"], toggle), value_text(row["value"], toggle)
            change = f"{toggle} {before} -> {after}"
            paired = "paired by game" if row["method"] == "paired" else "independent samples"
            d = _digits(row[lo_col], row[hi_col])
            effect = (
                f"{_num(row[column], d, sign=True)} {unit} "
                f"({_ci(row[lo_col], row[hi_col], d, sign=True)}; "
                f"{_games(int(row['games']))} per cell, {paired})"
            )
            verdict = _verdict(row[lo_col], row[hi_col], resolved, needed, m, "changes")
            if m == 1:
                text = (
                    f"From the base {label(base)}, {rule}, {change} moves {what} by {effect}; "
                    f"{verdict}."
                )
            else:
                text = (
                    f"From the base {label(base)}, {rule}, the one-toggle change of {m} that "
                    f"moves {what} most is {change}: {effect}; {verdict}. {moving} of the {m} "
                    f"changes move{'s' if moving == 1 else ''} {what} beyond chance (Holm)."
                )
            out.append(Finding("toggles", text, resolved, needed))
            short = _est(row[column], row[lo_col], row[hi_col], unit)
            tops.append((change, short, what, resolved, needed, moving, int(row["games"])))
        out.append(_toggle_headline(label(base), rule, m, tops))
    return out


def _toggle_headline(base: str, rule: str, m: int, tops: list[tuple]) -> Finding:
    """Per base: the change that moves length most and the one that moves the advantage most."""
    (c_len, e_len, _, r_len, n_len, k_len, games), (c_fp, e_fp, _, r_fp, n_fp, k_fp, _) = tops
    if m == 1:
        text = (
            f"From the base {base}, {rule}, {c_len} moves the game length by {e_len} and the "
            f"first player's advantage by {e_fp}; {_games(games)} per cell"
        )
    else:
        moves = (
            f"{c_len} moves both the game length most, {e_len}, and the first player's "
            f"advantage most, {e_fp}"
            if c_len == c_fp
            else f"{c_len} moves the game length most, {e_len}, and {c_fp} the first "
            f"player's advantage most, {e_fp}"
        )
        text = (
            f"From the base {base}, {rule}, {moves}. Changes beyond chance (Holm over the {m}): "
            f"{k_len} of {m} on the length, {k_fp} of {m} on the advantage; "
            f"{_games(games)} per cell"
        )
    open_ = [
        f"the {what} change is {_unresolved(needed)}"
        for what, resolved, needed in (("length", r_len, n_len), ("advantage", r_fp, n_fp))
        if not resolved
    ]
    text += ("; " + " and ".join(open_) if open_ else "") + "."
    needs = [n for n, r in ((n_len, r_len), (n_fp, r_fp)) if not r and n is not None]
    return Finding("toggles", text, r_len and r_fp, max(needs) if needs else None, headline=True)


# --------------------------------------------------------------- factorial
def _factors(cells: pd.DataFrame) -> list[str]:
    """Varying toggles with exactly two values: the candidate factors of a 2^k design."""
    return [
        c
        for c in analysis.toggle_columns(cells)
        if c in cells.columns and cells[c].astype(str).nunique() == 2
    ]


def _design(df: pd.DataFrame, cells: pd.DataFrame) -> pd.DataFrame:
    """Main effects and interactions on turns and first_win; empty without a full design."""
    factors = _factors(cells)
    if len(factors) < 2 or len(cells) < 4:
        return pd.DataFrame()
    try:
        return pd.concat(
            [analysis.factorial_effects(df, cells, factors, r) for r in ("turns", "first_win")],
            ignore_index=True,
        )
    except analysis.AnalysisError:
        return pd.DataFrame()


def _stratum(row: pd.Series, table: pd.DataFrame) -> str:
    """`with players=2, pass_opponents=all` for the toggles outside the design."""
    keys = [c for c in table.columns[: list(table.columns).index("term")]]
    return (" with " + ", ".join(f"{k}={value_text(row[k], k)}" for k in keys)) if keys else ""


def _effect_units(response: str) -> tuple[str, str, float]:
    if response == "first_win":
        return "the first player's win rate", "pp", 100.0
    return "the game length", response, 1.0


def _factorial_finding(table: pd.DataFrame, topic: str, kind: str, games: int) -> list[Finding]:
    """The largest term of `table` (main effects or interactions) per response and stratum.

    Without strata each response's sentence is its headline; with strata (toggles
    outside the design, such as players) one headline per response sums them up.
    """
    out = []
    tops: dict[str, list[tuple[Finding, str, float, float, float, str]]] = {}
    lead = list(table.columns[: list(table.columns).index("term")])
    groups = (
        table.groupby([*lead, "response"], sort=False)
        if lead
        else table.groupby("response", sort=False)
    )
    for _, terms in groups:
        m = len(terms)
        adjusted = _holm_of(terms["effect"], terms["ci_low"], terms["ci_high"])
        top = int(np.nanargmax(np.abs(terms["effect"].to_numpy(float))))
        row = terms.iloc[top]
        what, unit, scale = _effect_units(str(row["response"]))
        effect, low, high = scale * row["effect"], scale * row["ci_low"], scale * row["ci_high"]
        resolved, needed = _decide(adjusted[top], effect, low, high, games, m)
        verdict = _verdict(low, high, resolved, needed, m, kind)
        term = str(row["term"])
        if row["factors"] == 1:
            level_low, level_high = value_text(row["low"], term), value_text(row["high"], term)
            term = f"{term} {level_low} -> {level_high}"
        name = "interaction" if kind == "interactions" else "main effect"
        text = (
            f"The largest {name} on {what}{_stratum(row, table)} is {term}: "
            f"{_num(effect, _digits(low, high), sign=True)} {unit} "
            f"({_ci(low, high, _digits(low, high), sign=True)}; "
            f"{_games(games)} per cell, {row['method']} contrasts); {verdict}."
        )
        found = Finding(topic, text, resolved, needed)
        out.append(found)
        tops.setdefault(str(row["response"]), []).append(
            (found, term, effect, low, high, _stratum(row, table))
        )
    if not lead:
        return [replace(f, headline=True) for f in out]
    name = "interaction" if kind == "interactions" else "main effect"
    for response, found in tops.items():
        out.append(_strata_headline(topic, name, response, found, lead, games))
    return out


def _strata_headline(
    topic: str,
    name: str,
    response: str,
    found: list[tuple[Finding, str, float, float, float, str]],
    lead: list[str],
    games: int,
) -> Finding:
    """One response over the strata: the term that leads most often, and the largest."""
    what, unit, _ = _effect_units(response)
    terms = pd.Series([t for _, t, *_ in found])
    common, k = str(terms.mode().iloc[0]), int((terms == terms.mode().iloc[0]).sum())
    _, term, effect, low, high, stratum = max(found, key=lambda x: abs(x[2]))
    g = len(found)
    told = sum(x[0].resolved for x in found)
    needs = [x[0].games_needed for x in found if not x[0].resolved and x[0].games_needed]
    # The stratum that needs the fewest games is the first to be decided.
    needed = min(needs) if needs else None
    if told == g:
        verdict = f"all {g} differ from zero (Holm within each stratum)"
    elif told == 0:
        verdict = f"none differs from zero: {_unresolved(needed)} (for the nearest one)"
    else:
        verdict = (
            f"{_of(told, g)} differ{'s' if told == 1 else ''} from zero (Holm within each "
            f"stratum, no correction across the {g} strata)"
        )
    text = (
        f"The largest {name} on {what} is {common} in "
        f"{f'all {g}' if k == g else f'{k} of the {g}'} strata ({' x '.join(lead)}); "
        f"largest of all {term}{stratum}: {_est(effect, low, high, unit)}; "
        f"{_games(games)} per cell. Of these {g} largest, {verdict}."
    )
    return Finding(topic, text, told == g, None if told == g else needed, headline=True)


def _cell_games(df: pd.DataFrame) -> int:
    return int(df.groupby("cell", observed=True).size().min())


def _main_effects(df: pd.DataFrame, design: pd.DataFrame) -> list[Finding]:
    """No base cell but a factorial design: the largest main effect per response."""
    if design.empty:
        return []
    main = design[design["factors"] == 1]
    return _factorial_finding(main, "toggles", "main effects", _cell_games(df))


def _interactions(df: pd.DataFrame, design: pd.DataFrame) -> list[Finding]:
    """Factorial designs: the largest two-way interaction and whether it is told from zero."""
    if design.empty or not (design["factors"] == 2).any():
        return []
    pairs = design[design["factors"] == 2]
    return _factorial_finding(pairs, "interactions", "interactions", _cell_games(df))


__all__ = ["TITLES", "TOPICS", "Finding", "findings"]
