"""The skill page (`study_page`): the relative skill level, win shares against a
field, the ladders and their spread, the meta-game and the headline answers with
skilled players; a study from its games to its page (`run_study`).
"""

from __future__ import annotations

import math
import shlex
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.claims import names
from ludosim.rules.policies import TUNED_PREFIX
from ludosim.studies import relative_skill
from ludosim.studies.parts import Parts, study_key
from ludosim.studies.skill.findings import study_findings
from ludosim.studies.skill.play import play_study
from ludosim.studies.skill.spec import (
    FIXED_FIELD,
    FIXED_MEASURE,
    FIXED_PLAYER,
    OPPONENTS,
    SUPPORT_WEIGHT,
    Progress,
    Study,
)
from ludosim.studies.skill.tables import (
    LADDER_FILE,
    METAGAME_FILE,
    PAIRS_FILE,
    SKILL_FILE,
    SkillTables,
    write_tables,
)
from ludosim.studies.skill.words import GLOSSARY_TERMS, TITLES, TUNED_COLUMN, _Names
from ludosim.studies.study import PAGE_FILE, earlier_output, run_into_folder


def _column(player: str) -> str:
    """A player's column in the cross-rule-set figures: `tuned-<preset>` for the tuned one."""
    return TUNED_COLUMN if player.startswith(TUNED_PREFIX) else player


def _skill_rows(skill: pd.DataFrame, measure: str, order: list[str]) -> pd.DataFrame:
    rows = skill[skill["measure"] == measure].set_index("rule_set")
    return rows.reindex(order)


def study_page(tables: SkillTables, out: str | Path, title: str | None = None) -> Path:
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
    skill = tables.skill
    order = list(dict.fromkeys(skill["rule_set"]))
    command = study.command() + f" --out {shlex.quote(str(folder))}"
    simulated = (
        f"Simulated: {len(order)} rule sets ({'; '.join(order)}), seed {study.seed}; "
        f"ladder {study.games:,} games, matches {study.match_games:,}, pairs "
        f"{study.pair_games:,} games each, {study.bootstrap} rating refits, "
        f"{study.resamples:,} resampled matrices; headline answers {study.headline_games:,} "
        f"games each; relative skill {study.skill_games:,} games per player."
    )
    sections = []
    has_rs = tables.rs is not None and not tables.rs.empty
    if has_rs:
        sections.append(relative_skill.rs_section(folder, tables.rs, order, simulated))

    # Win shares: the fixed pair (one heuristic against random play), then the strongest
    # player; rule sets in the order of their relative skill level where there is one.
    who = _Names(tables)
    fixed = _skill_rows(skill, FIXED_MEASURE, order)
    rnd = _skill_rows(skill, "win_share_vs_random", order)
    bal = _skill_rows(skill, "win_share_vs_balanced", order)
    ranked = relative_skill.rs_order(tables.rs, order) or fixed.sort_values(
        "estimate", ascending=False, kind="stable").index.tolist()  # fmt: skip
    both = pd.DataFrame(index=ranked)
    for key, rows in (("fixed", fixed), ("random", rnd), ("balanced", bal)):
        for col, name in (("estimate", key), ("ci_low", f"{key}_low"), ("ci_high", f"{key}_high")):
            both[name] = rows.loc[ranked, col].to_numpy(float)
    labels = []
    for r in ranked:
        player = str(rnd.at[r, "player"])
        labels.append(f"{r} ({player}{', off its rules' if who.off(player, r) else ''})")
    fair = float(rnd["fair"].iloc[0])
    panels = [
        Panel("fixed", "fixed_low", "fixed_high", f"{FIXED_PLAYER} vs 3 {FIXED_FIELD}",
              reference=fair, fmt="{:.3f}"),
        Panel("random", "random_low", "random_high", "strongest vs 3 random",
              reference=fair, fmt="{:.3f}"),
        Panel("balanced", "balanced_low", "balanced_high", "strongest vs 3 balanced",
              reference=fair, fmt="{:.3f}"),
    ]  # fmt: skip
    shares = page_figure(folder, figures.forest(both, labels, panels), "win_shares.png",
        "Win shares against a field: the fixed pair and the strongest player",
        f"Left: {FIXED_PLAYER} against three {FIXED_FIELD} players, the same pair under every "
        "rule set: one heuristic against random play, which the findings do not rank (rule "
        f"sets sorted by {'their relative skill level' if has_rs else 'it'}). Middle and "
        "right: each rule set's strongest player (in brackets; a tuned player on rules it was "
        "not tuned for is marked off its rules) against three random and three balanced "
        "players. Win share over every seat position, Wilson 95% CIs; dashed: the fair share. "
        f"{simulated}",
    )  # fmt: skip

    # Games to be ahead, on a log axis (they span decades); an unbounded end is drawn
    # at the axis edge.
    ahead = pd.DataFrame(index=ranked)
    for opponent in OPPONENTS:
        rows = _skill_rows(skill, f"games_to_be_ahead_of_{opponent}", ranked)
        ahead[opponent] = rows["estimate"].astype(float)
        ahead[f"{opponent}_low"] = rows["ci_low"].astype(float)
        ahead[f"{opponent}_high"] = rows["ci_high"].astype(float)
    finite = ahead.to_numpy(float)[np.isfinite(ahead.to_numpy(float))]
    edge = 10 ** math.ceil(math.log10(max(float(finite.max()) if finite.size else 10.0, 10.0)))
    for opponent in OPPONENTS:
        unbounded = ahead[f"{opponent}_high"].isna() & ahead[opponent].notna()
        ahead.loc[unbounded, f"{opponent}_high"] = edge
    ahead_panels = [
        Panel(o, f"{o}_low", f"{o}_high", f"games to be ahead of {o} (95%)", reference=None,
              fmt="{:.0f}", log=True)
        for o in ("balanced", "random")
    ]  # fmt: skip
    games_fig = page_figure(folder, figures.forest(ahead, labels, ahead_panels),
        "games_to_be_ahead.png", "Games needed to be ahead",
        "Head-to-head games after which the strongest player (two seats) has more wins than "
        "the opponent (two seats) with 95% probability, and stays so; log scale; the interval "
        "comes from the head-to-head share's 95% CI, and one reaching the right edge is "
        "unbounded (the edge over that opponent is not resolved). No dot: the strongest player "
        f"is that opponent. {simulated}",
    )  # fmt: skip
    table = skill.drop(columns=["preset", "set"])
    sections.append(PageSection(
        "Win shares against a field", figures=[shares, games_fig],
        tables=[PageTable("Skill table", SKILL_FILE, html_table(table),
                          "One row per rule set and measure, with its 95% interval "
                          "(bootstrap for the rating spread, Wilson otherwise); the CSV adds "
                          "each rule set's preset and --set toggles.")],
    ))  # fmt: skip

    # The ladder: ratings minus each ladder's mean, and the spread.
    ladder = tables.ladder.copy()
    ladder["column"] = [_column(p) for p in ladder["player"]]
    ladder["centred"] = ladder["mu"] - ladder.groupby("rule_set")["mu"].transform("mean")
    columns = list(dict.fromkeys(
        ladder.groupby("column")["centred"].mean().sort_values(ascending=False).index
    ))  # fmt: skip
    grid = ladder.assign(**{"rule set": ladder["rule_set"].astype(str), "player": ladder["column"]})
    heat = figures.heatmap_grid(
        grid, "rule set", "player", (), {"rule set": order, "player": columns}, "centred",
        label="mu minus the ladder's mean", diverging=True, fmt="{:+.1f}",
    )  # fmt: skip
    off = sorted({r for r, p in zip(tables.ladder["rule_set"], tables.ladder["player"],
                                    strict=True) if who.off(str(p), str(r))})  # fmt: skip
    off_text = f" The {TUNED_COLUMN} column plays off its rules under {names(off)}." if off else ""
    ladder_fig = page_figure(folder, heat, "ladder.png", "The ladder under each rule set",
        "Plackett-Luce rating mu of each player minus the mean of its ladder; the bootstrap "
        f"95% CIs of mu are in ladder.csv. {TUNED_COLUMN}: each rule set's shipped tuned "
        f"player.{off_text} {simulated}")  # fmt: skip
    spread = pd.DataFrame(index=ranked)
    for measure in ("rating_range", "rating_sd"):
        rows = _skill_rows(skill, measure, ranked)
        spread[measure] = rows["estimate"]
        spread[f"{measure}_low"] = rows["ci_low"]
        spread[f"{measure}_high"] = rows["ci_high"]
    spread_panels = [
        Panel("rating_range", "rating_range_low", "rating_range_high", "top minus bottom mu",
              reference=None),
        Panel("rating_sd", "rating_sd_low", "rating_sd_high", "standard deviation of mu",
              reference=None),
    ]  # fmt: skip
    spread_fig = page_figure(folder, figures.forest(spread, ranked, spread_panels), "spread.png",
        "Spread of the ladder's ratings",
        "Top minus bottom mu and the standard deviation of mu (the rating spread of Duersch, "
        "Lambrecht and Oechssler 2020), bootstrap 95% CIs from "
        f"{study.bootstrap} refits; rule sets in the order of the win-share figure. {simulated}",
    )  # fmt: skip
    shown = tables.ladder.copy()
    sections.append(PageSection(
        TITLES["spread"], figures=[ladder_fig, spread_fig],
        tables=[PageTable("Ladders", LADDER_FILE, html_table(shown),
                          "Ratings per rule set, best mu first; ci_low/ci_high: bootstrap 95% "
                          "interval of mu.")],
    ))  # fmt: skip

    # The meta-game: weights and support shares, and the head-to-head matrices.
    meta = tables.metagame.copy()
    meta["column"] = [_column(p) for p in meta["player"]]
    long = pd.concat([
        meta.assign(what="equilibrium weight", value=meta["weight"]),
        meta.assign(what="share of resamples in the support", value=meta["support_share"]),
    ])  # fmt: skip
    long = long.assign(**{"rule set": long["rule_set"].astype(str), "player": long["column"]})
    levels = {"rule set": order, "player": columns,
              "what": ["equilibrium weight", "share of resamples in the support"]}  # fmt: skip
    meta_fig = page_figure(folder, figures.heatmap_grid(
        long, "rule set", "player", ("what",), levels, "value", label="weight or share",
        diverging=False, fmt="{:.2f}"),
        "metagame.png", "The strategy meta-game",
        "Left: the symmetric equilibrium mix of the head-to-head game (weights sum to 1 per "
        "rule set). Right: in how many of the resampled head-to-head matrices each player "
        f"has weight above {SUPPORT_WEIGHT:g} in the equilibrium. {simulated}",
    )  # fmt: skip
    pairs = tables.pairs.copy()
    pairs["edge"] = 100 * (pairs["share"] - 0.5)
    pairs = pairs.assign(**{
        "rule set": pairs["rule_set"].astype(str),
        "player": [_column(p) for p in pairs["player"]],
        "opponent": [_column(p) for p in pairs["opponent"]],
    })  # fmt: skip
    h2h = figures.heatmap_grid(
        pairs, "player", "opponent", ("rule set",),
        {"player": columns, "opponent": columns, "rule set": order}, "edge",
        label="head-to-head share − 50% (pp)", diverging=True, fmt="{:+.0f}",
    )  # fmt: skip
    h2h_fig = page_figure(folder, h2h, "head_to_head.png", "Head-to-head shares",
        "Share of the decided games won by the row's way of playing (two seats) against the "
        "column's (two seats), minus 50%, in pp; Wilson 95% CIs in head_to_head.csv. "
        f"{simulated}")  # fmt: skip
    sections.append(PageSection(
        "The strategy meta-game",
        text=(
            "Each pair of ladder players plays head to head: A in half the seats, B in the "
            "others, every seat position in turn. The symmetric zero-sum game whose payoff is "
            "A's share of the decided games minus one half has value 0; its equilibrium mix "
            "breaks even against every pure way of playing. Head-to-head tables: "
            f"{PAIRS_FILE}."
        ),
        figures=[meta_fig, h2h_fig],
        tables=[PageTable("Meta-game", METAGAME_FILE, html_table(tables.metagame),
                          "Equilibrium weight per player with the 2.5th and 97.5th "
                          "percentiles over the resamples, the share of resamples with the "
                          "player in the support, and its payoff against the mix (0 in the "
                          "support).")],
    ))  # fmt: skip
    skilled = _skilled_section(folder, skill, order, simulated, study)
    if skilled is not None:
        sections.append(skilled)
    for section in sections:
        for item in section.figures:
            item.command = command
    found = study_findings(tables)
    intro = (
        f"How much each of {len(order)} rule sets rewards skill, and which way of playing is "
        f"stable under it. {simulated} Tables: {relative_skill.RS_FILE + ', ' if has_rs else ''}"
        f"{SKILL_FILE}, {LADDER_FILE}, {METAGAME_FILE}, {PAIRS_FILE}."
    )
    return write_study_page(folder, title or f"ludosim skill study: {study.name}", intro,
                            command, found, TITLES, sections, GLOSSARY_TERMS)  # fmt: skip


def _skilled_section(
    folder: Path, skill: pd.DataFrame, order: list[str], simulated: str, study: Study
) -> Any:
    """The headline answers with skilled players: a forest of four panels, in pp."""
    from ludosim.report import figures
    from ludosim.report.figures import Panel
    from ludosim.report.htmlpage import PageSection, page_figure

    wide = pd.DataFrame(index=order)
    panels = []
    columns = [
        ("first_player_advantage_random", "1st player, random", False),
        ("first_player_advantage_strongest", "1st, strongest", False),
        ("first_player_advantage_change", "change", False),
        ("vs_balanced", "vs 3 balanced", True),
        ("vs_strongest", "vs 3 strongest", True),
    ]
    for key, label, share in columns:
        if share:
            rows = skill[skill["measure"].str.match(rf"(pacifist|skipper)_share_{key}$")]
        else:
            rows = skill[skill["measure"] == key]
        if rows.empty and not share:
            return None
        rows = rows.set_index("rule_set").reindex(order)
        fair = rows["fair"].fillna(0.0) if share else 0.0
        for col in ("estimate", "ci_low", "ci_high"):
            wide[f"{key}_{col}"] = 100 * (rows[col] - fair)
        panels.append(Panel(f"{key}_estimate", f"{key}_ci_low", f"{key}_ci_high", label))
    fig = page_figure(folder, figures.forest(wide, order, panels), "skilled_answers.png",
        "The headline answers with skilled players",
        "All in percentage points. First two panels: the first player's share of the decided "
        "games minus the fair share, with every seat random and with every seat the strongest "
        f"player ({study.headline_games:,} games each, the same dice); third: the second minus "
        "the first, paired by game. Last two: never capturing (pacifist, where "
        "captures are optional) or "
        "skipping every forced capture its best plan skips (skipper:1 over balanced or over the "
        "strongest, under forced captures), in every seat position against three balanced or "
        "three of the strongest: its win share minus the fair share. 95% CIs; dashed: no "
        f"effect. {simulated}")  # fmt: skip
    return PageSection(
        "The headline answers with skilled players",
        text="The first-player advantage, the cost of never capturing and the cost of skipping "
        "forced captures, measured with skilled players beside random ones: does the answer "
        "people quote from random play hold when everyone plays well? Numbers: skill.csv "
        "(measures first_player_advantage_random, _strongest and _change, pacifist_share_*, "
        "skipper_share_*).",
        figures=[fig],
    )


def run_study(
    study: Study,
    out: str | Path,
    *,
    threads: int | None = None,
    progress: Progress | None = None,
) -> Path:
    """Play `study` (`play_study`), write its CSV tables and its page into `out`; the page.

    `out` is checked before any game is played; a study that fails while writing
    leaves no files behind (`ludosim.studies.study.run_into_folder`). Each rule set
    played is kept in `out/.parts` until the page is written: stopped (Ctrl-C, SIGTERM:
    `StudyStopped`), the same call again plays only the rule sets not kept.
    """

    def play(parts: Parts) -> SkillTables:
        return play_study(study, threads=threads, progress=progress, parts=parts)

    return run_into_folder(
        out, play, write_tables, study_page, what="skill study",
        own=earlier_output(SKILL_FILE, LADDER_FILE, METAGAME_FILE, PAIRS_FILE, PAGE_FILE),
        key=study_key("skill", study),
    )  # fmt: skip
