"""Skip cost on the sweep page: the skipping seat against its baseline at every
detection probability, the break-even (findings), and the skip-cost curve's section."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

import pandas as pd

from ludosim.report import analysis, figures
from ludosim.report.analysis import value_text
from ludosim.report.contrasts import Contrast, Test
from ludosim.report.finding import DIFFERENCES, Finding, all_equivalent, verdict
from ludosim.report.htmlpage import PageSection, PageTable, html_table, page_figure
from ludosim.report.sweeppage.pagestate import _needed, _Page, _paired_text, _per, _sizing_text
from ludosim.report.sweeppage.sweepresults import _caption, _cell_ids, _per_game, _Results
from ludosim.report.wording import ci as ci_text
from ludosim.report.wording import digits_for, games, num, one_in, pct
from ludosim.results.measures import WIN
from ludosim.results.stats import Z95, zero_crossing


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
                                      t.p_adjusted, t.games,
                                      equivalent=all_equivalent(
                                          [t], page.measures[WIN.name].smallest)))  # fmt: skip
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


def _skip(res: _Results, out: Path) -> PageSection | None:
    """Skip cost whenever a skipper plays, at every `detect_skip` present (one included)."""
    df = res.df
    if not _per_game(res) or "policies" not in df.columns:
        return None
    curves = []
    for seat in analysis.skipper_seats(df):
        try:
            curves.append(analysis.skip_cost(df, seat, cells=res.cells))
        except analysis.AnalysisError:
            continue  # that seat's policies do not form a skipper-vs-baseline pair
    if not curves:
        return None
    curve = pd.concat(curves, ignore_index=True)
    curve.to_csv(out / "skip_cost.csv", index=False)
    fig = figures.curve(curve, "detect_skip", ["seat", "policy"],
                        "detect_skip (probability a skip is caught)",
                        "Δ win rate of the skipping seat (pp)")  # fmt: skip
    what = (
        "Win-rate change of the skipping seat against the same seat playing its baseline "
        "policy, by detection probability (detect_skip), with 95% CIs paired by game; the "
        "dotted line marks where skipping stops paying (linear interpolation)."
    )
    return PageSection(
        "Cost of skipping forced captures",
        figures=[
            page_figure(out, fig, "skip_cost.png", "Skip cost", _caption(res, _cell_ids(res), what))
        ],
        tables=[PageTable("Skip cost", "skip_cost.csv", html_table(curve), "95% CIs.")],
    )
