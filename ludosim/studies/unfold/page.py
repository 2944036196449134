"""The unfold page (`study_page`): the win chance from a lead, comebacks, lead
changes and the exact-solver check; a study from its games to its page
(`run_study`).
"""

from __future__ import annotations

import shlex
from pathlib import Path

import numpy as np
import pandas as pd

from ludosim.report.contrasts import Test
from ludosim.report.wording import estimate, p_text, pct
from ludosim.studies.leads import share_text
from ludosim.studies.parts import Parts, study_key
from ludosim.studies.study import PAGE_FILE, earlier_output, run_into_folder
from ludosim.studies.unfold.comebacks import MEASURES, PER_ROUND_BIN, PER_ROUND_CAP
from ludosim.studies.unfold.findings import (
    GLOSSARY_TERMS,
    LEAST_GAMES,
    TITLES,
    _value,
    decide,
)
from ludosim.studies.unfold.play import play_study
from ludosim.studies.unfold.spec import Progress, UnfoldError, UnfoldStudy
from ludosim.studies.unfold.tables import (
    CHANGES_FILE,
    COMEBACKS_FILE,
    LEADS_FILE,
    RACE_FILE,
    RUNS_FILE,
    UnfoldTables,
    write_tables,
)


def comeback_text(
    comebacks: pd.DataFrame, changes: dict[tuple[str, str], Test] | None = None
) -> pd.DataFrame:
    """The comeback table as a reader sees it: estimate (CI), change from the first rule set
    (CI) and its Holm-adjusted p in the page's family (`decide(...).changes`), as text."""
    rows = []
    for r in comebacks.itertuples():
        m = MEASURES[r.measure]
        test = (changes or {}).get((r.rule_set, r.measure))
        change = "" if test is None else estimate(test.estimate, test.ci_low, test.ci_high,
                                                   m.change_unit, with_ci=False)  # fmt: skip
        p = "" if test is None else p_text(test.p_adjusted).removeprefix("p ").lstrip("= ")
        rows.append((m.what, r.rule_set, _value(m, r.estimate, r.ci_low, r.ci_high).replace(
            "95% CI ", ""), f"{r.games:,}", change, p))  # fmt: skip
    columns = ["measure", "rule set", "estimate (95% CI)", "games", "change (95% CI)",
               "Holm-adjusted p"]  # fmt: skip
    return pd.DataFrame(rows, columns=columns)


def study_page(tables: UnfoldTables, out: str | Path, title: str | None = None) -> Path:
    """Write `index.html` with its PNG figures and `findings.json` beside the study's CSV
    tables in `out`; the page."""
    from ludosim.report import figures
    from ludosim.report.figures import Panel
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
    order = [r.label for r in study.rule_sets]
    decided = decide(tables)
    command = study.command() + f" --out {shlex.quote(str(folder))}"
    every = sorted({int(e) for e in tables.runs["every"]})
    simulated = (
        f"Simulated: {len(order)} rule sets, {study.games:,} games each with {study.policies} "
        f"players, seed {study.seed}; snapshots every {', '.join(map(str, every))} turns."
    )
    cut = {r.rule_set: r.cut for r in tables.runs.itertuples() if r.cut}
    if cut:
        simulated += (
            " Games longer than 256 snapshots keep their first 256: "
            + ", ".join(f"{k} {v:,}" for k, v in cut.items())
            + "."
        )
    sections = []

    # Leads in percent of each rule set's race: the bins line up across boards.
    in_shares = tables.leads.assign(
        lead_from=100 * tables.leads["share_from"],
        lead_to=np.where(tables.leads["share_to"] < 0, -1.0, 100 * tables.leads["share_to"]),
    )
    fair = sorted({1 / int(n) for n in tables.runs["players"]})
    curves = figures.win_chance_curves(
        in_shares, order, least=LEAST_GAMES, xlabel="lead (% of the race)",
        fair=fair[0] if len(fair) == 1 else None,
    )  # fmt: skip
    lead_fig = page_figure(folder, curves, "win_chance.png",
        "The leader's win chance by lead and phase",
        "Share of games the leader went on to win, by its lead over the best other seat as a "
        "share of its race (24ths of its pieces needed in the goal), in each phase (early: the "
        "leader has run less than a third of its race, mid: up to two thirds, late: more); bands: "
        f"Wilson 95% CIs; bins with at least {LEAST_GAMES} games. Each game counts once per bin "
        f"(its first snapshot there). {'Dashed: the fair share' if len(fair) == 1 else 'Fair'}"
        f" {', '.join(pct(f, 0) for f in fair)}: what a seat wins with no lead at all. "
        f"{simulated}")  # fmt: skip
    shown = tables.leads[(tables.leads["phase"] == "mid") & (tables.leads["games"] >= LEAST_GAMES)]
    bins = zip(shown["share_from"], shown["share_to"], strict=True)
    shown = shown.assign(lead=[share_text(a, b) for a, b in bins])
    mid = shown.pivot_table(index="lead", columns="rule_set", values="win_chance", sort=False)
    mid = mid[[c for c in order if c in mid.columns]]
    mid = mid.map(lambda v: "" if pd.isna(v) else f"{100 * v:.0f}%")
    mid.columns.name = None
    mid.index.name = "lead (share of the race)"
    sections.append(PageSection(
        "Win chance from a lead", figures=[lead_fig],
        tables=[PageTable("Mid-game win chance by lead", LEADS_FILE,
                          html_table(mid.reset_index()),
                          "The leader's win chance at mid-game per lead bin (a 24th of the race) "
                          f"and rule set, bins of at least {LEAST_GAMES} games; {LEADS_FILE} has "
                          "every phase and bin, in squares and in shares of the race, with its "
                          "games and Wilson 95% interval.")],
    ))  # fmt: skip

    comebacks = tables.comebacks
    wide = pd.DataFrame(index=order)
    panels = []
    labels = {"won_from_last_at_mid": "won from last at mid (%)",
              "decided_before_mid": "decided before mid (%)",
              "lead_changes_per_round": "lead changes per round",
              "drama_share": "drama (% of the race)"}  # fmt: skip
    for measure, label in labels.items():
        rows = comebacks[comebacks["measure"] == measure].set_index("rule_set")
        scale = MEASURES[measure].scale
        for col in ("estimate", "ci_low", "ci_high"):
            wide[f"{measure}_{col}"] = rows.loc[order, col].to_numpy(float) * scale
        ref = float(rows.loc[order[0], "estimate"]) * scale
        panels.append(Panel(f"{measure}_estimate", f"{measure}_ci_low", f"{measure}_ci_high",
                            label, reference=ref))  # fmt: skip
    forest = page_figure(folder, figures.forest(wide, order, panels), "comebacks.png",
        "Comebacks per rule set",
        f"Each measure with its 95% CI; dashed: the first rule set ({order[0]}). "
        "Won from last at mid: the winner had the least total when a seat first had run half "
        "its race. Decided before mid: the winner led for good from before that boundary. "
        "Lead changes per round of the game; drama: the winner's mean deficit while trailing, "
        f"as a share of the race. {simulated}")  # fmt: skip
    changes = figures.share_lines(tables.changes, "rule_set", "per_round", "share", order,
                                  xlabel=f"lead changes per round ({PER_ROUND_BIN:g} wide bins; "
                                  f"{PER_ROUND_CAP:g}: that many or more)",
                                  ylabel="share of games")  # fmt: skip
    changes_fig = page_figure(folder, changes, "lead_changes.png",
        "How often the lead changes hands",
        "Share of the games with a winner by lead changes per round (the game's lead changes "
        "divided by its rounds, so that games of different length compare). "
        f"{simulated}")  # fmt: skip
    sections.append(PageSection(
        "Comebacks", figures=[forest, changes_fig],
        tables=[PageTable("Comeback measures", COMEBACKS_FILE,
                          html_table(comeback_text(comebacks, decided.changes)),
                          "Per rule set and measure: estimate and 95% interval (Wilson for "
                          f"shares, normal for means), and the change from {order[0]} with its "
                          "interval and its Holm-adjusted p in the page's family of comparisons "
                          f"(findings above). Lead changes per round: {CHANGES_FILE}.")],
    ))  # fmt: skip

    if len(tables.race):
        race_fig = page_figure(folder, figures.race_check(tables.race), "race_check.png",
            "Simulated against exact win chances",
            "Two seats of one piece: per lead bin, the leader's simulated win share (dots, "
            "Wilson 95% CIs) and the exact solver's mean chance over the same positions "
            f"(line), from the first position with a piece in its home column; "
            f"{study.race_games:,} games per rule set, seed {study.seed + 1}.")  # fmt: skip
        sections.append(PageSection(
            "Check against the exact solver", figures=[race_fig],
            tables=[PageTable("Race check", RACE_FILE, html_table(tables.race),
                              "Per lead bin (the last row of each rule set: all bins): games, "
                              "leader wins, simulated and exact win chance, the exact expected "
                              "wins, their standard deviation and z.")],
        ))  # fmt: skip
    for section in sections:
        for item in section.figures:
            item.command = command
    intro = (
        f"How games unfold under {len(order)} rule sets: how much a lead is worth, how "
        f"often the lead changes and how often the last seat comes back. {simulated} Tables: "
        f"{LEADS_FILE}, {COMEBACKS_FILE}, {CHANGES_FILE}, {RUNS_FILE}"
        + (f", {RACE_FILE}" if len(tables.race) else "")
        + ". Definitions: docs/flow.md."
    )
    return write_study_page(folder, title or f"ludosim: the game as it unfolds ({study.name})",
                            intro, command, decided.findings, TITLES, sections,
                            GLOSSARY_TERMS)  # fmt: skip


def run_study(
    study: UnfoldStudy,
    out: str | Path,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Path:
    """Play `study`, write its CSV tables and its page into `out`; the page.

    `out` is checked before any game is played, and the tables before anything is
    written; a study that fails on the way leaves no files behind
    (`ludosim.studies.study.run_into_folder`). Each race check and rule set played is
    kept in `out/.parts` until the page is written: stopped (Ctrl-C, SIGTERM:
    `StudyStopped`), the same call again plays only the parts not kept.
    """

    def check(tables: UnfoldTables) -> None:
        found = set(tables.leads["rule_set"])
        for rule_set, every in zip(tables.runs["rule_set"], tables.runs["every"], strict=True):
            if rule_set not in found:
                raise UnfoldError(
                    f"every: no snapshot of {rule_set!r} found a leader: a game's first "
                    f"snapshot is at turn {every}, and its games ended before; choose a "
                    "smaller --every (0: two rounds of the seats); nothing was written"
                )

    def play(parts: Parts) -> UnfoldTables:
        return play_study(study, threads=threads, progress=progress, parts=parts)

    return run_into_folder(
        out, play, write_tables, study_page, check, what="unfold study",
        own=earlier_output(LEADS_FILE, COMEBACKS_FILE, CHANGES_FILE, RUNS_FILE, PAGE_FILE),
        key=study_key("unfold", study),
    )  # fmt: skip
