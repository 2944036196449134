"""Toggle effects on the sweep page: every one-toggle change from its base on length
and the first player's edge, the seat whose policy changed (findings), and the
section of toggle effects with the effect table the factorial section shares."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report import figures, interactive
from ludosim.report.contrasts import BELOW, EQUIVALENT, Test, size_of
from ludosim.report.exploratory import beyond_chance, lead_words
from ludosim.report.figures import Panel
from ludosim.report.finding import (
    DIFFERENCES,
    Finding,
    _pages,
    _size,
    interval_words,
)
from ludosim.report.htmlpage import PageSection, PageTable, html_table, page_figure
from ludosim.report.sweeppage.pagedesign import _seated
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
    _size_note,
    _sizing_of,
    _verdict,
)
from ludosim.report.sweeppage.sweepresults import _caption, _per_game, _Results
from ludosim.report.wording import amount, digits_for, listing, num, of, one_in, pct, said
from ludosim.results.measures import FIRST, LENGTH, WIN, Measure

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
                if not page.comparable(measure, (cell, base)):
                    continue  # not like with like: the notes say why
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
        # The seat wins with its side: under `teams` a partner's finish may complete it.
        try:
            out = (np.asarray(rows[f"place_{seat}"], dtype=np.int64) == 1).astype(float)
        except KeyError:
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
    # Headlined by practical size: a change resolved but smaller than the smallest effect of
    # interest is said to be one, never listed among the changes that move the measure.
    small = [c for c in moving if size_of(c.test, c.scale.smallest) == BELOW]
    large = [c for c in moving if c not in small]
    needed = _needed_for(page, compared)
    where = said(f"From the base {page.labels(base)}, {rule}", f"From {page.labels(base)}")
    within = False
    s = amount(float(_size(compared[0].scale.smallest)), compared[0].scale.unit)
    if moving:
        counted = f"{of(len(large), m)} one-toggle changes" if m > 1 else "its one change"
        text = ""
        if large:
            listed = "; ".join(
                f"{c.label} {_effect_text(c)}"
                + (f", {p}" if (p := _at_table(c, page)) else "")
                + _size_note(c)
                for c in large
            )
            verb = "moves" if len(large) == 1 else "move"
            text = (
                f"{where}, {counted} {verb} the {measure.title} "
                f"{beyond_chance(len(large) > 1)}: {listed}."
            )
        if small:
            listed = "; ".join(f"{c.label} {_effect_text(c)}" for c in small)
            k = len(small)
            if large:
                text += (
                    f" {_sentence(of(k, m))} {'is' if k == 1 else 'are'} resolved but smaller "
                    f"than {s}, the smallest effect that matters: {listed}."
                )
            else:
                subject = f"none of the {m} one-toggle changes moves" if m > 1 else (
                    f"the change {small[0].label} does not move")  # fmt: skip
                text = (
                    f"{where}, {subject} the {measure.title} by as much as {s}, the smallest "
                    f"effect that matters: {of(k, m) if m > 1 else 'it'} "
                    f"{'is' if k == 1 else 'are'} resolved but smaller than that, no change "
                    f"that matters ({listed})." + lead_words()
                )
        if gap is not None and len(large) >= 2:
            g = gap.test
            if g.resolved and size_of(g, gap.scale.smallest) == BELOW:
                # Worded by its size: the order is told, but by less than the smallest effect.
                text += (
                    f" The largest two, {large[0].label} and {large[1].label}, differ by less "
                    f"than {s}, the smallest effect that matters (by "
                    f"{num(abs(g.estimate), digits_for(g.ci_low, g.ci_high))} "
                    f"{gap.scale.unit}; {_verdict(gap)})."
                )
            elif g.resolved:
                text += (
                    f" The largest, {large[0].label}, moves it more than the next "
                    f"(by {num(abs(g.estimate), digits_for(g.ci_low, g.ci_high))} "
                    f"{gap.scale.unit}; {_verdict(gap)})."
                )
            else:
                text += (
                    f" Which moves it most cannot be told at this size ({large[0].label} "
                    f"against {large[1].label}: {_verdict(gap)})."
                )
    else:
        top = max(compared, key=lambda c: abs(c.test.estimate))
        subject = (
            f"none of the {m} one-toggle changes moves"
            if m > 1
            else f"the change {top.label} does not move"
        )
        # No change that matters only when every interval lies inside the smallest effect
        # (an equivalence test); a change merely not resolved is no evidence of none.
        within = all(size_of(c.test, c.scale.smallest) == EQUIVALENT for c in compared)
        text = (
            f"{where}, {subject} the {measure.title} {beyond_chance(negative=True)}"
            + (
                f" (the largest estimate: {top.label} {_effect_text(top)})"
                if m > 1
                else f" ({_effect_text(top)})"
            )
            + ". "
            + (
                f"{'Every' if m > 1 else 'Its'} "
                f"{interval_words(compared[0].test.family_size)[4:]} lies within ±{s}, the "
                "smallest effect of interest: no change that matters."
                if within
                else f"Not resolved at this size: not every interval lies within "
                f"±{s}, so a change that matters is not ruled out. "
                + _sizing_of(compared, needed, page.per_cell_games(), _per(page))
            )
        )
    settled = bool(moving) or within  # a size to detect is no question left open
    head = Finding("toggles", text.strip(), bool(moving), None if settled else needed, True,
                   "note", unit=compared[0].scale.unit, family=DIFFERENCES,
                   equivalent=within)  # fmt: skip
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


def _effect_table(res: _Results, kind: str) -> pd.DataFrame:
    """The page's comparisons of one kind (`effect`, `term`), one row per change or term,
    length and first-player edge side by side, as the findings decided them."""
    table = res.found.comparisons if res.found is not None else pd.DataFrame()
    if table.empty:
        return table
    rows = table[table["kind"] == kind]
    if rows.empty:
        return rows
    keys = ["label", "cell", "base"]
    length = rows[rows["measure"] == "length"].set_index(keys)
    first = rows[rows["measure"] == "first"].set_index(keys)
    both = pd.DataFrame(index=length.index)
    for prefix, part in (("length", length), ("first", first)):
        for column in ("estimate", "ci_low", "ci_high", "p_adjusted", "resolved"):
            both[f"{prefix}_{column}"] = part[column]
    both["first_unit"] = first["unit"]
    both["players"] = first["players"]
    both["games"] = length["games"]
    both["method"] = length["method"]
    return both.reset_index()


def _first_panel(table: pd.DataFrame, delta: str) -> tuple[pd.DataFrame, Panel]:
    """The first player's edge of an effect table as one panel on one scale.

    Effects in pp within one player count are drawn in pp; rows of different player
    counts (fair shares of 50%, 33% and 25%) are drawn relative to their fair share
    (pp times the players), so that equal lengths mean equal edges.
    """
    unit = str(table["first_unit"].iloc[0])
    players = pd.to_numeric(table.get("players"), errors="coerce")
    if unit == "pp" and players is not None and players.nunique() > 1 and players.notna().all():
        table = table.copy()
        for column in ("first_estimate", "first_ci_low", "first_ci_high"):
            table[f"{column}_rel"] = table[column] * players
        axis = f"{delta} first player's edge (% of a fair share)"
        return table, Panel("first_estimate_rel", "first_ci_low_rel", "first_ci_high_rel", axis)
    axis = f"{delta} first player's edge (" + ("pp" if unit == "pp" else "% of a fair share") + ")"
    return table, Panel("first_estimate", "first_ci_low", "first_ci_high", axis)


def _toggles(res: _Results, out: Path) -> PageSection | None:
    if not _per_game(res):
        return None
    effects = _effect_table(res, "effect")
    if effects.empty:
        return None
    effects.to_csv(out / "toggle_effects.csv", index=False)
    bases = effects["base"].astype(str).unique()
    effects["shown"] = [
        (f"{res.label(b)}: " if len(bases) > 1 else "") + str(label).replace(" -> ", " → ")
        for b, label in zip(effects["base"].astype(str), effects["label"], strict=True)
    ]
    order = np.argsort(-effects["length_estimate"].abs().to_numpy(), kind="stable")
    ordered = effects.iloc[order].reset_index(drop=True)
    ordered, first_panel = _first_panel(ordered, "Δ")
    panels = [
        Panel("length_estimate", "length_ci_low", "length_ci_high", "Δ mean rounds"),
        first_panel,
    ]
    ids = sorted(set(effects["cell"].astype(str)) | set(bases))
    what = (
        "Effect of changing one toggle from its base cell (base value → new value) on mean "
        "game length in rounds and on the first player's edge, with 95% CIs paired by game "
        "(common random numbers); largest length effect first, dashed line at no effect. "
        "Which effects are resolved is decided page-wide (Holm, toggle_effects.csv)."
    )
    fig = figures.forest(ordered, ordered["shown"].tolist(), panels)
    item = page_figure(out, fig, "toggle_effects.png", "Toggle effects", _caption(res, ids, what))
    item.interactive = interactive.bokeh_forest(
        ordered, ordered["shown"].tolist(), panels, {"cell": "cell", "games": "games"}
    )
    shown = effects[
        ["base", "cell", "label", "length_estimate", "length_ci_low", "length_ci_high",
         "length_resolved", "first_estimate", "first_ci_low", "first_ci_high",
         "first_resolved", "first_unit", "method"]
    ]  # fmt: skip
    return PageSection(
        "Toggle effects",
        figures=[item],
        tables=[
            PageTable(
                "Toggle effects",
                "toggle_effects.csv",
                html_table(shown),
                "95% CIs; resolved: decided by Holm's correction over every "
                "comparison of the page.",
            )
        ],
    )
