"""A duels study's page (`study_page`): exact play in reduced games, the skill pages'
players measured against it, and the luck and choices that decide a game; and a study
from its solving to its page (`run_study`).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.results.stats import wilson_interval
from ludosim.studies.duels.findings import STANDS_FOR, TITLES, no_choice, study_findings
from ludosim.studies.duels.play import play_study
from ludosim.studies.duels.spec import DuelsStudy
from ludosim.studies.duels.tables import (
    EXACT_FILE,
    LUCK_FILE,
    PLAYERS_FILE,
    DuelsTables,
    write_tables,
)
from ludosim.studies.study import PAGE_FILE, earlier_output, run_into_folder

GLOSSARY_TERMS = (
    ("duel", "a rule set reduced to two players with one or two pieces each on a short "
     "board (28 squares, or 21 with entry=21), small enough to solve every position."),
    ("optimal player", "the policy that wins most often against a random opponent, "
     "computed exactly (expectimax over every position)."),
    ("clairvoyant", "a player who knows every die roll to come, but not the opponent's "
     "choices, and plays best on them: solved exactly per dice sequence."),
    ("RS", "the relative skill level of Dreef, van der Genugten and Borm (2004): "
     "(W(optimal) - 1/2) / (W(clairvoyant) - 1/2), W a win share against random play over "
     "both turn orders; 0 pure luck, 1 all the room foreknowledge gives is skill's."),
    ("luck share", "the share of the variance of the results the dice explain alone: the "
     "squared correlation of the result with the sum of the luck of each roll; the "
     "choices' share likewise. The two are correlated, so they need not add up to 100%."),
    ("cost of a move", "the win probability the mover gives up against its best move, "
     "both valued under best play by both."),
)  # fmt: skip
LADDER = ("random", "balanced", "expert", "optimal", "fictive", "clairvoyant")


def _ladder_rows(tables: DuelsTables) -> pd.DataFrame:
    """One row per duel and player: its win share against random play with 95% bars."""
    rows = []
    players = tables.players.set_index(["duel", "player"])
    for _, e in tables.exact.iterrows():
        label = e["duel"]
        if no_choice(e):
            continue
        rows.append((label, "optimal", e["w_optimal"], e["w_optimal"], e["w_optimal"], "exact"))
        rows.append((label, "clairvoyant", e["w_clairvoyant"], e["w_clairvoyant_low"],
                     e["w_clairvoyant_high"], "exact"))  # fmt: skip
        for player in tables.study.players:
            if (label, player) not in players.index:
                continue
            got = players.loc[(label, player)]
            low, high = wilson_interval(int(got["wins"]), int(got["games"]))
            rows.append((label, player, got["wins"] / got["games"], low, high, "kernel"))
    return pd.DataFrame(rows, columns=["duel", "player", "w", "low", "high", "source"])


def ladder_figure(tables: DuelsTables) -> Any:
    """Win share against random play, per duel: the kernel's players beside the exact
    optimal player and clairvoyant."""
    from ludosim.report import figures

    rows = _ladder_rows(tables)
    duels = list(dict.fromkeys(rows["duel"]))
    fig = figures.new_figure(figures.WIDTH, figures.rows_height(len(duels) * 2, 0.6))
    ax = fig.subplots()
    order = [p for p in LADDER if p in set(rows["player"])]
    step = 0.8 / max(len(order), 1)
    for j, player in enumerate(order):
        mine = rows[rows["player"] == player]
        y = [duels.index(d) + (j - (len(order) - 1) / 2) * step for d in mine["duel"]]
        exact = mine["source"].iloc[0] == "exact" if len(mine) else False
        ax.errorbar(mine["w"] * 100, y,
                    xerr=[(mine["w"] - mine["low"]) * 100, (mine["high"] - mine["w"]) * 100],
                    fmt="D" if exact else "o", color=figures.LINE_COLORS[j % 10], capsize=2,
                    label=f"{player} ({'exact' if exact else 'kernel'})")  # fmt: skip
    ax.axvline(50, color="grey", lw=0.8, ls=":")
    ax.set_yticks(range(len(duels)), duels)
    ax.invert_yaxis()
    ax.set_xlabel("win share against a random opponent, both turn orders (%)")
    fig.legend(loc="outside lower center", ncols=3, frameon=False)
    return fig


def luck_figure(tables: DuelsTables) -> Any:
    """The share of the variance of the result the dice and the choices each explain."""
    from ludosim.report import figures

    luck = tables.luck
    labels = [f"{d} | {m}" for d, m in zip(luck["duel"], luck["matchup"], strict=True)]
    fig = figures.new_figure(figures.WIDTH, figures.rows_height(2 * len(labels), 0.6))
    ax = fig.subplots()
    rows = np.arange(len(luck))
    for j, (key, name) in enumerate((("dice", "the dice"), ("choices", "the choices"))):
        share = 100 * luck[f"share_{key}"].to_numpy(float)
        low = 100 * luck[f"share_{key}_low"].to_numpy(float)
        high = 100 * luck[f"share_{key}_high"].to_numpy(float)
        known = np.isfinite(share)
        if not known.any():
            continue  # no duel here has choices: no bar, and no legend entry
        ax.barh(rows[known] + (j - 0.5) * 0.4, share[known], height=0.38,
                xerr=[share[known] - low[known], high[known] - share[known]],
                color=figures.COLORS[j], label=name, capsize=2)  # fmt: skip
    ax.set_yticks(rows, labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 100)
    ax.set_xlabel("share of the variance of who wins that it explains alone (%)")
    fig.legend(loc="outside lower center", ncols=2, frameon=False)
    return fig


def _shown_exact(tables: DuelsTables) -> pd.DataFrame:
    e = tables.exact
    rs = [
        "no choices" if c == 0 else f"{r:.3f} ({lo:.3f}-{hi:.3f})"
        for c, r, lo, hi in zip(e["choices"], e["rs"], e["rs_low"], e["rs_high"], strict=True)
    ]
    return pd.DataFrame({
        "duel": e["duel"], "positions": e["nodes"], "rolls with a choice": e["choices"],
        "random: first mover wins": (100 * e["random_first"]).round(2),
        "optimal vs random (%)": (100 * e["w_optimal"]).round(2),
        "best play: first mover wins": (100 * e["minimax_first"]).round(2),
        "clairvoyant vs random (%)": [
            _interval_text(*w, 100, 1) for w in
            zip(e["w_clairvoyant"], e["w_clairvoyant_low"], e["w_clairvoyant_high"], strict=True)
        ],
        "RS exact": rs,
    })  # fmt: skip


def _shown_players(tables: DuelsTables) -> pd.DataFrame:
    p = tables.players.merge(tables.exact[["duel", "w_optimal", "w_clairvoyant", "choices"]],
                             on="duel")  # fmt: skip
    share = p["wins"] / p["games"]
    return pd.DataFrame({
        "duel": p["duel"], "player (against random)": p["player"], "games": p["games"],
        "wins (%)": (100 * share).round(2),
        "first mover wins (%)": (100 * p["first_wins"] / p["games"]).round(2),
        "stands for": ["" if pl == "random" else STANDS_FOR.get(pl, "optimal")
                       for pl in p["player"]],
        "exact (%)": [
            "" if pl == "random" else f"{100 * (wc if STANDS_FOR.get(pl) else wo):.2f}"
            for pl, wo, wc in zip(p["player"], p["w_optimal"], p["w_clairvoyant"], strict=True)
        ],
    })  # fmt: skip


def _interval_text(mean: float, low: float, high: float, scale: float, digits: int) -> str:
    if not np.isfinite(mean):
        return "none"
    return f"{scale * mean:.{digits}f} ({scale * low:.{digits}f}-{scale * high:.{digits}f})"


def _shown_luck(tables: DuelsTables) -> pd.DataFrame:
    luck = tables.luck
    rows = zip(luck["share_dice"], luck["share_dice_low"], luck["share_dice_high"], strict=True)
    choices = zip(luck["share_choices"], luck["share_choices_low"], luck["share_choices_high"],
                  strict=True)  # fmt: skip
    cost0 = zip(luck["cost_0"], luck["cost_0_low"], luck["cost_0_high"], strict=True)
    cost1 = zip(luck["cost_1"], luck["cost_1_low"], luck["cost_1_high"], strict=True)
    return pd.DataFrame({
        "duel": luck["duel"], "players (role 0 vs role 1)": luck["matchup"],
        "games": luck["games"],
        "dice explain (%)": [_interval_text(*r, 100, 1) for r in rows],
        "choices explain (%)": [_interval_text(*r, 100, 1) for r in choices],
        "role 0 cost per choice (pp)": [_interval_text(*r, 100, 2) for r in cost0],
        "role 1 cost per choice (pp)": [_interval_text(*r, 100, 2) for r in cost1],
        "largest identity gap": luck["identity_gap"].map(lambda v: f"{v:.0e}"),
    })  # fmt: skip


def study_page(tables: DuelsTables, out: str | Path, title: str | None = None) -> Path:
    """Write `index.html` with its figures and `findings.json` beside the tables; the page."""
    from ludosim.report.htmlpage import (
        PageSection,
        PageTable,
        html_table,
        page_figure,
        write_study_page,
    )

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    study = tables.study
    decided = study_findings(tables)
    command = study.command(str(folder))
    sizes = (
        f"Clairvoyant: {study.sequences:,} dice sequences per duel; luck and cost: "
        f"{study.luck_games:,} games walked per pair of players; kernel players: "
        f"{study.player_games:,} games each against random play; seed {study.seed}."
    )
    sections = []
    if len(_ladder_rows(tables)):
        ladder = page_figure(folder, ladder_figure(tables), "ladder.png",
            "Each player's win share against random play, beside exact play",
            "Diamonds: exact (the optimal player; the clairvoyant with its 95% Monte Carlo "
            "interval over dice sequences). Circles: the kernel's players with Wilson 95% "
            f"intervals. Dotted: 50%, what random play wins. {sizes}")  # fmt: skip
        sections.append(PageSection("The players against exact play", figures=[ladder],
            tables=[PageTable("Kernel players against random play", PLAYERS_FILE,
                              html_table(_shown_players(tables)),
                              "random: random against random (the first mover's share "
                              "checks the engine).")]))  # fmt: skip
    luck = page_figure(folder, luck_figure(tables), "luck.png",
        "What decides a game: the dice and the choices",
        "Share of the variance of the result (who wins) that the dice's luck and the "
        "choices' cost each explain alone (squared correlation, 95% Fisher intervals), per "
        "duel and pair of players: result = V(start) + luck + choices exactly, every term "
        "valued under best play by both. No bar: the term never varies (no choice ever "
        f"cost anything). {sizes}")  # fmt: skip
    sections.append(PageSection("Luck and choices", figures=[luck], tables=[
        PageTable("Exact values", EXACT_FILE, html_table(_shown_exact(tables)),
                  "Every number exact but the clairvoyant's (a Monte Carlo mean over dice "
                  "sequences, 95% interval) and RS, which rests on it."),
        PageTable("Luck and cost per matchup", LUCK_FILE, html_table(_shown_luck(tables)),
                  "Shares and costs with 95% intervals; none: no choice ever arose (or "
                  "cost anything). Largest identity gap: the largest |result - V(start) - "
                  "luck + cost_0 - cost_1| of any game (0 up to rounding). The CSV also "
                  "holds the turn order's share and fixed_point_gap, the largest mean luck "
                  "of a roll at any position (0 up to the value iteration's tolerance)."),
    ]))  # fmt: skip
    intro = (
        'The skill pages answer "luck or skill?" with two approximate players: the expert '
        "(a search) for optimal play and the fictive player (a search that foresees the "
        "game's own dice) for the clairvoyant. Here both are measured against exact play, "
        "in games small enough to solve every position: two players, one or two pieces "
        "each, the rules of each preset on a short board. Method and references: "
        "docs/skill.md and docs/exact.md (Duels)."
    )
    return write_study_page(folder, title or f"ludosim: exact play in reduced games "
                            f"({study.name})", intro, command, decided.findings, TITLES,
                            sections, GLOSSARY_TERMS)  # fmt: skip


def run_study(
    study: DuelsStudy,
    out: str | Path,
    *,
    threads: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> Path:
    """Solve and play `study`, write its tables and its page into `out`; the page."""
    return run_into_folder(
        out, lambda: play_study(study, threads=threads, progress=progress), write_tables,
        study_page, what="duels study",
        own=earlier_output(EXACT_FILE, PLAYERS_FILE, LUCK_FILE, PAGE_FILE),
    )  # fmt: skip
