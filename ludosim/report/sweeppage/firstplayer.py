"""The first player on the sweep page: each cell against its fair share and turn
order beyond the first (findings), and the section of win rates by position and seat."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from ludosim.report import analysis, figures
from ludosim.report.contrasts import EQUIVALENT, PRACTICAL, Test, size_of
from ludosim.report.exploratory import exploring
from ludosim.report.figures import Panel
from ludosim.report.finding import VALUES, Finding, _pages, _size, all_equivalent, verdict
from ludosim.report.htmlpage import PageSection, PageTable, html_table, page_figure
from ludosim.report.sweeppage.pagestate import _needed, _Page, _sentence
from ludosim.report.sweeppage.pairs import _pairs_ranking
from ludosim.report.sweeppage.sweepresults import (
    FEW_CELLS,
    _caption,
    _cell_ids,
    _per_cell_figures,
    _Results,
)
from ludosim.report.wording import ci as ci_text
from ludosim.report.wording import (
    digits_for,
    each,
    estimate,
    games,
    num,
    of,
    one_in,
    p_text,
    pct,
)
from ludosim.results.measures import FIRST
from ludosim.results.stats import score_test_p


# ----------------------------------------------------------- first player
def _first_player(page: _Page) -> Callable[[], list[Finding]] | None:
    """Each cell against its fair share (first player, and every position); pairs rank."""
    if "first" not in page.df.columns:
        return None
    positions: dict[str, list[dict[str, Any]]] = {}
    for cell in page.ids:
        rows = page.rows_of[cell]
        table = analysis.side_rows(rows, rows.players)
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
        f"{page.first_side(cell)} wins {pct(row['win_rate'], d)} of {games(int(row['games']))} "
        f"{page.won()}{_level_text(page, cell)} "
        f"({ci_text(100 * row['ci_low'], 100 * row['ci_high'], d)}%) against a fair "
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
        equivalent=all_equivalent([t], page.measures[FIRST.name].smallest * fair),
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
    smallest = {c: page.measures[FIRST.name].smallest * float(positions[c][0]["fair"])
                for c in ids}  # fmt: skip
    sizes = {c: size_of(tests[c], smallest[c]) for c in ids}
    # Not resolved, but its interval inside ±the smallest edge: fair, shown (an equivalence).
    fair = [c for c in ids if sizes[c] == EQUIVALENT]
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
    for side, word, first in ((plus, "more", True), (minus, "less", False)):
        if not side:
            continue
        # By practical size: how many of them by at least the smallest edge that matters.
        clear = [c for c in side if sizes[c] == PRACTICAL]
        under = f" under {of(len(side), m)} {page.noun}" if first else f" under {of(len(side), m)}"
        part = f"{word} than a fair share{under}"
        if len(clear) < len(side):
            part += (
                f" ({'none of them' if not clear else of(len(clear), len(side))} by at least "
                f"{_size(page.measures[FIRST.name].smallest)}% of a fair share, the smallest "
                "edge that matters)"
            )
        parts.append(part)
    undecided = m - len(plus) - len(minus) - len(fair)
    s_fair = _size(page.measures[FIRST.name].smallest)
    if parts:
        text = f"The first player wins {' and '.join(parts)}"
        if fair:
            others = "the other" if not undecided else "another"
            text += (
                f"; under {others} {len(fair)} its share is fair within ±{s_fair}% of a fair "
                "share (no edge that matters)"
            )
        if undecided:
            text += f"; under the other {undecided} it is not resolved"
    elif fair and not undecided:
        text = (
            f"The first player's share is fair within ±{s_fair}% of a fair share (no edge "
            f"that matters) under {of(len(fair), m)} {page.noun}"
        )
    else:
        text = f"The first player's edge is not resolved under any of the {m} {page.noun}"
        if fair:
            text = (
                f"The first player's edge is not resolved under {of(undecided, m)} "
                f"{page.noun}; under the other {len(fair)} its share is fair within "
                f"±{s_fair}% of a fair share (no edge that matters)"
            )
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
            f" At a table, under {page.names(best)} {page.first_side(best)} wins about "
            f"{one_in(tests[best].estimate / 100)} more than a fair share "
            f"({pct(row['win_rate'], 2)} against {pct(row['fair'], 2)})."
        )
    text += _level_games(page, ids, positions)
    return Finding("first_player", text, undecided == 0 and not fair, headline=True, kind="note",
                   family=VALUES, equivalent=undecided == 0 and bool(fair))  # fmt: skip


def _level(page: _Page, cell: str) -> int:
    """Games of `cell` that a move limit ended level on points (a tie for first: no winner,
    not truncated); 0 without a move limit."""
    if page.move_limit(cell) <= 0:
        return 0
    rows = page.rows_of[cell]
    no_winner = np.asarray(rows["winner"], dtype=np.int64) < 0
    truncated = np.asarray(rows["truncated"], dtype=bool) if "truncated" in rows.columns else False
    return int(np.sum(no_winner & ~truncated))


def _level_text(page: _Page, cell: str) -> str:
    """` (and 14,089 level games, left out)` after a cell's games won, where it has ties."""
    level = _level(page, cell)
    return f" (and {games(level)} ended level on points, left out)" if level else ""


def _level_games(
    page: _Page, ids: Sequence[str], positions: Mapping[str, Sequence[Mapping[str, Any]]]
) -> str:
    """` Level games ... are left out` where a move limit ends games on a tie: the first
    player's share is of the games won, and the sentence says so with how many."""
    level = {c: _level(page, c) for c in ids}
    tied = [c for c in ids if level[c]]
    if not tied:
        return ""
    shares = [level[c] / len(page.rows_of[c]) for c in tied]
    lo, hi = min(shares), max(shares)
    span = pct(lo, 1) if pct(lo, 1) == pct(hi, 1) else f"{pct(lo, 1)} to {pct(hi, 1)}"
    return (
        f" Level games (a tie on points at the move limit, no winner) are left out of the first "
        f"player's share, which is of the games won: {span} of the games under "
        f"{of(len(tied), len(ids))} {page.noun} with a move limit; a tie counts as a win for "
        "neither side."
    )


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
    uneven_words = "looks uneven, a lead to confirm on fresh games" if exploring() else (
        "is uneven beyond chance")  # fmt: skip
    text = (
        f"Turn order {uneven_words} (a chi-square test of equal shares over all "
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


def _win_rates(res: _Results, out: Path) -> PageSection | None:
    if not {"winner", "first"} <= set(res.df.columns):
        return None
    by_position = analysis.first_player_advantage(res.df, by="cell")
    by_seat = analysis.seat_win_rates(res.df, by="cell")
    by_position.to_csv(out / "first_player_advantage.csv", index=False)
    by_seat.to_csv(out / "seat_win_rates.csv", index=False)
    ids = _cell_ids(res)
    first = by_position[by_position["position"] == 0].copy().reset_index(drop=True)
    first.insert(1, "name", first["cell"].astype(str).map(res.label))
    # The edge over the fair share, relative to it: the scale that compares player counts.
    for source, column in (("advantage_pp", "relative_pct"),
                           ("advantage_ci_low", "relative_pct_ci_low"),
                           ("advantage_ci_high", "relative_pct_ci_high")):  # fmt: skip
        first[column] = first[source] / first["fair"]
    mixed = first["players"].nunique() > 1
    seats = by_seat.groupby("cell", observed=True)["players"].first()
    # Under teams a position's row counts the sides (teams), fewer than the seats.
    teamed = bool((first["players"].to_numpy() < seats.reindex(first["cell"]).to_numpy()).any())
    text = (
        "First-player advantage: the win rate of the player who took the first turn "
        "minus the fair share 1/players, in percentage points, and relative to the fair "
        "share in percent (the scale that compares player counts). Games without a "
        "finisher are excluded."
    )
    if teamed:
        text += (
            " Where partners play as teams the first player's side is its team: the "
            "team's win rate against the fair share 1/teams, and the positions are the "
            "teams in the turn order of their first seat."
        )
    section = PageSection("Win rates by position and seat", text=text)
    fair = "1/players (1/teams where partners play)" if teamed else "1/players"
    differ = "different fair shares" if teamed else "different player counts"
    if mixed:
        panel = Panel("relative_pct", "relative_pct_ci_low", "relative_pct_ci_high",
                      "first player's edge (% of a fair share; 0 = fair)")  # fmt: skip
        forest = ("First-player edge per cell",
                  f"Win rate of the first player over the fair share {fair}, minus one, in "
                  "percent, with its 95% CI, one row per cell, largest first; the cells have "
                  f"{differ}, so only relative edges compare. The dashed line is no "
                  "edge." + (" A team's edge and a seat's are shown side by side but never "
                             "compared: the page compares each only with its own kind."
                             if teamed else ""))  # fmt: skip
        grid = ("First-player edge across the grid", "first player's edge (% of a fair share)")
    else:
        panel = Panel("advantage_pp", "advantage_ci_low", "advantage_ci_high",
                      "first-player advantage (percentage points; 0 = fair)")  # fmt: skip
        forest = ("First-player advantage per cell",
                  f"Win rate of the first player minus {fair} with its 95% CI, one row per "
                  "cell, largest first; the dashed line is no advantage.")  # fmt: skip
        grid = ("First-player advantage across the grid", "first-player advantage (pp)")
    section.figures += _per_cell_figures(
        res, out, first, panel, "first_player_advantage", forest, grid,
        diverging=True, fmt="{:+.1f}",
    )  # fmt: skip
    labels = {c: res.label(c) for c in ids}
    tables = [(by_position, "position", "By position (0 = first turn)"),
              (by_seat, "seat", "By seat")]  # fmt: skip
    if len(ids) <= FEW_CELLS:
        fig = figures.rate_dots(tables, labels)
        what = (
            "Win rate with Wilson 95% CIs by turn-order position and by seat; the dashed "
            f"line is {fair}."
        )
    else:
        fig = figures.rate_heatmap(tables, labels)
        what = (
            f"Win rate minus {fair} (percentage points) by turn-order position and by "
            "seat, one row per cell; blank where a cell has fewer players. CIs are in "
            "first_player_advantage.csv and seat_win_rates.csv."
        )
    section.figures.append(
        page_figure(
            out, fig, "win_rates.png", "Win rates by position and seat", _caption(res, ids, what)
        )
    )
    shown = first[
        ["cell", "name", "players", "games", "excluded", "win_rate", "advantage_pp",
         "advantage_ci_low", "advantage_ci_high", "relative_pct", "chi2", "dof", "p_value"]
    ]  # fmt: skip
    section.tables.append(
        PageTable(
            "First-player advantage",
            "first_player_advantage.csv",
            html_table(shown),
            f"Advantage = win rate of position 0 minus {fair}, in percentage points, "
            "with 95% CI; relative_pct = the advantage over the fair share, in percent; "
            "chi-square test of equal chances for every position (p-values before the "
            "correction; the findings state them after it).",
        )
    )
    return section
