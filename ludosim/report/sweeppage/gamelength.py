"""Game length on the sweep page: its findings (mean rounds per cell, a tournament's
pooled length, which cells are longest) and its section (forest, grid, distributions)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report import analysis, figures
from ludosim.report.figures import Panel
from ludosim.report.finding import Finding
from ludosim.report.htmlpage import PageSection, PageTable, html_table, page_figure
from ludosim.report.sweeppage.pagestate import _Page, _sentence, ends_by_points
from ludosim.report.sweeppage.pairs import _pairs_ranking
from ludosim.report.sweeppage.sweepresults import (
    FEW_CELLS,
    _caption,
    _cell_ids,
    _per_cell_figures,
    _Results,
)
from ludosim.report.wording import ci as ci_text
from ludosim.report.wording import digits_for, each, games, num, said
from ludosim.results.measures import LENGTH


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
    limit = page.move_limit(cell)
    if limit > 0:
        values = np.asarray(page.rows_of[cell]["turns"], dtype=float)
        ended = int(np.sum(values >= limit * n))
        truncated += (
            f"; the move limit of {limit:,} turns each ended {ended:,} of them, whose length is "
            "the limit's and not a race's, so this cell is left out of the comparisons of "
            "game length"
        )
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


def _lengths(res: _Results, out: Path) -> PageSection | None:
    if "turns" not in res.df.columns:
        return None
    stats = analysis.game_length(res.df, by="cell")
    stats.insert(1, "name", stats["cell"].astype(str).map(res.label))
    stats.to_csv(out / "game_length.csv", index=False)
    rounds_of = _with_rounds(res.df)
    dist = analysis.length_distribution(rounds_of, "rounds", by="cell")
    dist.to_csv(out / "length_distribution.csv", index=False)
    rounds = stats[stats["measure"] == "rounds"].reset_index(drop=True)
    turns = stats[stats["measure"] == "turns"].set_index("cell")["mean"]
    ids = _cell_ids(res)
    text = (
        "Rounds until the winner finished: player turns divided by the players, so that "
        "games of different player counts compare. Means with 95% normal-approximation "
        "CIs, medians with 95% order-statistic (binomial) CIs; game_length.csv also has "
        "turns, rolls and, with play_to_end, turns until the game ended."
    )
    if ends_by_points(res.cells):
        text += (
            " Under a move limit a game ends when every seat has played its turns, or earlier "
            "when a seat finishes: the length of a game the limit ends is the limit's, fixed by "
            "the rules, so cells with a move limit are shown here but left out of every "
            "comparison of game length."
        )
    section = PageSection("Game length", text=text)
    panel = Panel("mean", "mean_ci_low", "mean_ci_high", "mean rounds per game",
                  reference=None)  # fmt: skip
    section.figures += _per_cell_figures(
        res, out, rounds, panel, "length",
        ("Mean game length per cell",
         "Mean rounds per game with its 95% CI, one row per cell, longest first."),
        ("Mean game length across the grid", "mean rounds"),
        diverging=False, fmt="{:.0f}",
    )  # fmt: skip
    if len(ids) <= FEW_CELLS:
        shown = dist.assign(label=dist["cell"].astype(str).map(res.label))
        means = dict(zip(rounds["cell"].astype(str).map(res.label), rounds["mean"], strict=True))
        fig = figures.length_overlay(shown, means, "rounds")
        what = (
            "Distribution of game length in rounds, every cell on one shared axis; "
            "dotted lines and triangles mark the means."
        )
        section.figures.append(
            page_figure(
                out,
                fig,
                "length_distribution.png",
                "Game length distribution",
                _caption(res, ids, what),
            )
        )
    table = rounds[
        ["cell", "name", "games", "mean", "mean_ci_low", "mean_ci_high", "median",
         "median_ci_low", "median_ci_high", "q05", "q95"]
    ].copy()  # fmt: skip
    table["mean turns"] = table["cell"].map(turns)
    section.tables.append(
        PageTable("Rounds per game", "game_length.csv", html_table(table), "95% CIs.")
    )
    return section


def _with_rounds(df: pd.DataFrame) -> pd.DataFrame:
    """The rows with a `rounds` column: turns / the players of each row's cell."""
    players = {c: analysis.players_of(g) for c, g in df.groupby("cell", observed=True)}
    n = analysis._per_cell(df, {str(c): float(p) for c, p in players.items()})
    return df.assign(rounds=df["turns"].to_numpy(float) / n)
