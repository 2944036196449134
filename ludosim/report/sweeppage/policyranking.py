"""Policies on the sweep page: a tournament's ranking and every pair of policies,
paired by game (findings), and the section of win rates per policy."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import pandas as pd

from ludosim.report import analysis, figures, interactive
from ludosim.report.contrasts import Contrast, Test
from ludosim.report.figures import Panel
from ludosim.report.finding import DIFFERENCES, Finding, all_equivalent, not_told_apart, verdict
from ludosim.report.htmlpage import PageSection, PageTable, html_table, page_figure
from ludosim.report.sweeppage.pagedesign import _seated
from ludosim.report.sweeppage.pagestate import _needed, _Page, _per, _sentence, _sizing_text
from ludosim.report.sweeppage.sweepresults import _caption, _cell_ids, _per_game, _Results
from ludosim.report.wording import ci as ci_text
from ludosim.report.wording import digits_for, estimate, games, listing, num, of, one_in, pct
from ludosim.results.measures import WIN
from ludosim.results.stats import Z95


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
                    equivalent=all_equivalent([t], page.measures[WIN.name].smallest),
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
        same = not t.resolved and all_equivalent([pair(names[0], o)[0] for o in tied], win_smallest)
        head = Finding("policies", text, t.resolved, None, True, "ranking", sign * t.estimate,
                       lo, hi, "pp", DIFFERENCES, t.p_adjusted, t.games,
                       equivalent=same)  # fmt: skip
        return [head, *details]

    return render


def _digits_of(row: pd.Series) -> int:
    """The decimals of a win share as its row of the estimates table writes it."""
    return digits_for(100 * row["ci_low"], 100 * row["ci_high"])


def _share(row: pd.Series, digits: int) -> str:
    """A win share with its interval: `27.1% (95% CI 26.9 to 27.3)`."""
    return estimate(100 * row["win_rate"], 100 * row["ci_low"], 100 * row["ci_high"], "%",
                    sign=False, digits=digits)  # fmt: skip


def _tournament(res: _Results, out: Path) -> PageSection | None:
    if not _per_game(res) or "policies" not in res.df.columns:
        return None
    if res.design is not None and res.design.kind not in ("tournament", "single"):
        # Pooled over cells that ask different questions (a skipper at each detection
        # probability, one seat's policy against the same seat's baseline), a policy's
        # win rate answers none of them: those pages state each seat's own comparison.
        return None
    table = analysis.win_table(res.df)
    if len(table) < 2:
        return None  # one policy everywhere: nothing to compare
    table.to_csv(out / "win_table.csv", index=False)
    truncated = int((res.df["winner"].to_numpy() < 0).sum())
    what = (
        "Win rate of each policy pooled over every seat and cell it played, Wilson 95% CIs, "
        "best first; the dashed line is the fair share (mean of 1/players). "
        + (
            f"The {truncated:,} games truncated without a finisher count as losses for every seat."
            if truncated
            else "No game was truncated."
        )
    )
    caption = _caption(res, _cell_ids(res), what)
    fig = figures.ranking(table)
    item = page_figure(out, fig, "policy_ranking.png", "Policy ranking", caption)
    panel = Panel("win_rate", "ci_low", "ci_high", "win rate", reference=None, fmt="{:.3f}")
    ordered = table.sort_values("win_rate", ascending=False, kind="stable")
    item.interactive = interactive.bokeh_forest(
        ordered, ordered["policy"].astype(str).tolist(), [panel],
        {"seat_games": "seat-games", "wins": "wins"},
    )  # fmt: skip
    return PageSection(
        "Policies",
        figures=[item],
        tables=[PageTable("Win rate per policy", "win_table.csv", html_table(table), caption)],
    )
