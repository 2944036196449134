"""Factorial effects on the sweep page: main effects and two-way interactions of
every full 2^k design (findings), and their section."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np

from ludosim.report import figures, interactive
from ludosim.report.analysis import value_text
from ludosim.report.contrasts import BELOW, size_of
from ludosim.report.exploratory import lead_words
from ludosim.report.figures import Panel
from ludosim.report.finding import DIFFERENCES, Finding, _size, all_equivalent
from ludosim.report.htmlpage import PageSection, PageTable, html_table, page_figure
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
    _sizes_note,
    _sizing_of,
    _verdict,
)
from ludosim.report.sweeppage.sweepresults import _caption, _cell_ids, _per_game, _Results
from ludosim.report.sweeppage.toggleeffects import _effect_table, _first_panel
from ludosim.report.wording import amount, listing, of, said
from ludosim.results.measures import FIRST, LENGTH


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
            if not page.comparable(measure, stratum.cells):
                continue  # not like with like in this stratum: the notes say why
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
            if all(size_of(c.test, c.scale.smallest) == BELOW for c in told):
                # Worded by its size: resolved, but smaller than the smallest effect.
                s = amount(float(_size(told[0].scale.smallest)), told[0].scale.unit)
                parts.append(
                    f"{label} is smaller than {s}, the smallest effect that matters, though "
                    f"resolved{where}: {size}"
                )
            else:
                parts.append(f"{label} is resolved{where}, {size}{_sizes_note(told)}")
        else:
            parts.append(f"{label} is not resolved{'' if g == 1 else ' in any stratum'}")
    told_all = sum(c.test.resolved for c, _, _ in compared)
    text = (
        f"{_sentence(kind)}s on the {measure.title} ({design}): " + "; ".join(parts) + ". "
        f"{_sentence(of(told_all, len(compared)))} {kind}s "
        f"{'is' if told_all == 1 else 'are'} resolved."
    ) + (lead_words() if told_all else "")
    # Settled: every effect not resolved has an interval inside the smallest effect
    # (an equivalence), so no size is left to detect; the sentence says so, as the badge.
    same = told_all < len(compared) and all(
        c.test.resolved or all_equivalent([c.test], c.scale.smallest) for c, _, _ in compared
    )
    if same:
        smallest = {c.scale.smallest for c, _, _ in compared}
        unit = compared[0][0].scale.unit
        bound = (
            f"±{amount(float(_size(smallest.pop())), unit)}, the smallest effect of interest"
            if len(smallest) == 1
            else "the smallest effect of interest of its stratum"
        )
        open_ = len(compared) - told_all
        text += (
            f" {'Every' if open_ > 1 else 'Its'} interval of {'those' if open_ > 1 else 'the one'}"
            f" not resolved lies within {bound}: no change that matters."
        )
    elif told_all < len(compared):
        text += " " + _sizing_of(
            [c for c, _, _ in compared], needed, page.per_cell_games(), _per(page)
        )
    head = Finding(topic, text.strip(), told_all == len(compared),
                   None if told_all == len(compared) or same else needed, True, "note",
                   family=DIFFERENCES, equivalent=same)  # fmt: skip
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


def _factorial_section(res: _Results, out: Path) -> PageSection | None:
    if not _per_game(res):
        return None
    table = _effect_table(res, "term")
    if table.empty:
        return None
    table = table.rename(columns={"cell": "stratum"})
    table.to_csv(out / "factorial_effects.csv", index=False)
    caption = _caption(
        res,
        _cell_ids(res),
        "Main effects and two-way interactions (±1 coding: mean at the second level minus "
        "mean at the first) on rounds and on the first player's edge, with 95% CIs; resolved "
        "by Holm's correction over every comparison of the page.",
    )
    section = PageSection(
        "Factorial effects",
        tables=[
            PageTable("Factorial effects", "factorial_effects.csv", html_table(table), caption)
        ],
    )
    strata = table["stratum"].astype(str)
    labels = [
        (f"{g}: " if g else "") + str(label).replace(" -> ", " → ")
        for g, label in zip(strata, table["label"], strict=True)
    ]
    plotted, first_panel = _first_panel(table, "effect on")
    panels = [
        Panel("length_estimate", "length_ci_low", "length_ci_high", "effect on mean rounds"),
        first_panel,
    ]
    fig = figures.forest(plotted, labels, panels, groups=strata.tolist())
    what = (
        "Main effects (second level minus first, levels in brackets) and two-way "
        "interactions on mean game length in rounds and on the first player's edge, with "
        "95% CIs; dashed line at no effect."
        + (
            " The edge is drawn relative to each stratum's fair share (pp times the players), "
            "since its strata differ in player count; factorial_effects.csv holds it in pp."
            if first_panel.value.endswith("_rel")
            else ""
        )
    )
    item = page_figure(out, fig, "factorial_effects.png", "Factorial effects",
                       _caption(res, _cell_ids(res), what))  # fmt: skip
    item.interactive = interactive.bokeh_forest(plotted, labels, panels)
    section.figures.append(item)
    return section
