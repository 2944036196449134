"""The sweep page's tables of cells: every cell with its toggles, policies, games and
seed, and the per-cell totals of a summary-only sweep."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from ludosim.report import analysis
from ludosim.report.analysis import value_text
from ludosim.report.htmlpage import PageSection, PageTable, html_table
from ludosim.report.sweeppage.sweepresults import _cell_ids, _describe, _Results
from ludosim.results import summary_from_frame
from ludosim.results.stats import Z95, wilson_interval


def _cells(res: _Results, out: Path) -> PageSection:
    same = {m.kept: ", ".join(m.merged) for m in (res.design.merged if res.design else [])}
    shown = [
        c
        for c in ("cell", "name", "variant", "preset", "policies", "games", "seed", "rules_hash")
        if c in res.cells.columns
    ]
    varying = [
        c for c in analysis.toggle_columns(res.cells) if res.cells[c].astype(str).nunique() > 1
    ]
    table = res.cells[shown[:4] + varying + shown[4:]].copy()
    for column in varying:
        table[column] = table[column].map(value_text)
    if "name" in table.columns:
        table["name"] = table["cell"].astype(str).map(res.label)
    if same:
        table["same games as"] = table["cell"].astype(str).map(same).fillna("")
    # The CSV keeps every cell and column, with toggle values as `--set` takes them back.
    written = (res.all_cells if res.all_cells is not None else res.cells).copy()
    for column in analysis.toggle_columns(written):
        written[column] = [value_text(v, column) for v in written[column]]
    written.to_csv(out / "cells.csv", index=False)
    caption = "One row per cell: its toggles that differ between cells, policies, games, seed."
    if same:
        caption += (
            " Cells that play the same games as another are counted once; cells.csv lists "
            "every cell."
        )
    shown_table = PageTable("Cells", "cells.csv", html_table(table), caption)
    return PageSection("Cells", tables=[shown_table])


def _summaries(res: _Results, out: Path) -> PageSection | None:
    """Per cell of a summary-only sweep: games, mean rounds and the first player's win
    rate with their 95% intervals, from the chunks' totals."""
    if not res.kind.summary_only:
        return None
    rows = []
    for cell, group in res.df.groupby("cell", observed=True, sort=False):
        totals = summary_from_frame(group)
        n, games = totals.players, totals.games
        mean, half = totals.mean("turns") / n, Z95 * totals.std("turns") / math.sqrt(games) / n
        finished = games - totals.no_winner
        wins = int(totals.wins_by_position.iloc[0])
        low, high = wilson_interval(wins, finished)
        rate = wins / finished if finished else math.nan
        rows.append(
            {
                "cell": str(cell),
                "name": res.label(str(cell)),
                "players": n,
                "games": games,
                "no_winner": totals.no_winner,
                "mean_rounds": mean,
                "mean_ci_low": mean - half,
                "mean_ci_high": mean + half,
                "mean_turns": totals.mean("turns"),
                "first_wins": wins,
                "win_rate": rate,
                "advantage_pp": 100 * (rate - 1 / n),
                "advantage_ci_low": 100 * (low - 1 / n),
                "advantage_ci_high": 100 * (high - 1 / n),
            }
        )
    table = pd.DataFrame(rows)
    table.to_csv(out / "summaries.csv", index=False)
    caption = (
        "Mean rounds per game with its 95% normal interval; the first player's win rate "
        "over games with a finisher and its advantage over 1/players (pp) with the Wilson "
        f"95% interval. {_describe(res, _cell_ids(res))}"
    )
    return PageSection(
        "Per-cell totals",
        text=(
            "A summary-only sweep keeps one row of additive totals per chunk; a cell's "
            "totals are their sum (ludosim.results.summaries)."
        ),
        tables=[PageTable("Per-cell totals", "summaries.csv", html_table(table), caption)],
    )
