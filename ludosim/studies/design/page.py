"""A design's page (`study_page`): the findings, the recommended rule sets, the screening's
effects, the front between the goals, the model's check and the explorer
(`explorer_models`), with the command line that reproduces it, and effects.csv and
comparisons.csv rewritten with the page's decisions; a page redrawn from a design's
folder (`report_study`) and a study from its games to its page (`run_study`).
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pandas as pd

from ludosim.report.wording import estimate, listing
from ludosim.results.measures import DESIGN_MEASURES, MEASURES
from ludosim.studies.design.confirmation import Player
from ludosim.studies.design.findings import (
    TITLES,
    _set_line,
    _value,
    check_summary,
    decide,
    decided,
    recommendation,
    unmet_limits,
)
from ludosim.studies.design.play import play_study
from ludosim.studies.design.search import confirmation_noise
from ludosim.studies.design.spec import (
    GOALS,
    PLAYERS,
    SIZES,
    WEAK,
    DesignError,
    DesignStudy,
    Progress,
    _num,
    _value_text,
)
from ludosim.studies.design.tables import DesignTables, read_tables, write_tables
from ludosim.studies.design.words import menu_words

GLOSSARY_TERMS = (
    (
        "free house rule",
        "a toggle the design may change, screened at two values: the preset's "
        "own and one alternative.",
    ),
    (
        "resolution V",
        "a fraction of all the combinations of the free house rules chosen so that "
        "no main effect or two-toggle interaction is mixed up with another; some two-toggle "
        "interactions share a column with a three-toggle one (aliases.csv lists each such "
        "pair, and the page says how many), which the model takes to be nil.",
    ),
    (
        "main effect, interaction",
        "a main effect is the mean at a house rule's alternative minus "
        "the mean at the preset's value, over the design; an interaction is how much one house "
        "rule's effect depends on another's.",
    ),
    (
        "prediction interval",
        "where the model expects a measurement of a rule set to fall, 95% "
        "of the time: the model's own uncertainty, its lack of fit (which does not shrink "
        "with more games), the screening's shared dice and the noise of the games.",
    ),
    (
        "holdout",
        "rule sets outside the design, drawn at random and played on games of their own, "
        "to check the model's predictions.",
    ),
    (
        "confirmation",
        "candidates replayed once, with the preset's own rules, on games no other stage "
        "played (all on the same games, paired), at a size fixed before the first game; "
        "their values are measured, not predicted.",
    ),
    (
        "front",
        "the rule sets no other is predicted to beat on every goal beyond both prediction "
        "intervals: those that may be best.",
    ),
    (
        "relative skill",
        "the relative skill level RS of Dreef, Borm and van der Genugten (2004): "
        "(W(optimal) - 1/n) / (W(fictive) - 1/n), W a player's win share in one seat against "
        f"{WEAK} players, rotated through every position; the optimal player is the strongest "
        "play the design affords, the fictive player knows the dice in advance. 0 for a game "
        "of pure chance, 1 for pure skill; differences in RS.",
    ),
    # The shared pages' edge is in pp; this page states the first player's edge only
    # relative to the fair share, so its glossary says that unit and no other.
    (
        "edge, relative edge",
        "the first player's edge on this page is always its relative edge: its win share "
        "over the fair share, minus one, in % of a fair share (25.67% against 25% is +2.7% "
        "of a fair share), so that rule sets of different player counts compare.",
    ),
    (
        "turn-order imbalance",
        "the root mean square, over the turn-order positions, of each "
        "position's win share minus the fair share, less the part the games' noise adds, in pp.",
    ),
    ("long game", "the 90th percentile of the game length: one game in ten lasts longer."),
    (
        "comebacks",
        "the share of games won by a seat that was last at mid-game (the first turn at "
        "which some seat had run half its race), every seat random.",
    ),
    (
        "lead changes",
        "turns after which another seat leads the race (most progress), per round of the "
        "game, so that games of different length compare.",
    ),
    ("captures", "opponent pieces sent home, all seats together, per round of the game."),
)


def prediction_noise(tables: DesignTables) -> dict[str, float]:
    """`confirmation_noise` of a design's tables."""
    return confirmation_noise(tables.study, tables.measures)


def explorer_models(tables: DesignTables) -> list[Any]:
    from ludosim.report.explorer import ModelData

    noise = prediction_noise(tables)
    # The explorer adds `scale * noise^2` to the coefficients' variance: every part that
    # does not come from the coefficients (lack of fit, the screening's level, the
    # measurement's games) goes into that one noise, at scale 1.
    return [
        ModelData(
            name,
            MEASURES[name].title,
            MEASURES[name].unit,
            m.terms,
            m.coef.tolist(),
            m.cov.tolist(),
            1.0,
            m.t(),
            math.sqrt(m.misfit + m.level + noise[name] ** 2),
            0.0 if MEASURES[name].statistic == "imbalance" else None,
        )
        for name, m in tables.models.items()
    ]


def _measured_by_codes(tables: DesignTables) -> dict[str, dict[str, list[float]]]:
    """Confirmed rule sets' measured values, keyed by their codes as the explorer keys them."""
    out: dict[str, dict[str, list[float]]] = {}
    codes = tables.points.drop_duplicates("point").set_index("point")["codes"]
    for r in tables.confirmed.itertuples(index=False):
        key = " ".join(str(int(float(x))) for x in str(codes[r.point]).split())
        rows = tables.measures[
            (tables.measures["point"] == r.point) & (tables.measures["stage"] == "confirm")
        ]
        out[key] = {
            row.measure: [row.estimate, row.ci_low, row.ci_high]
            for row in rows.itertuples(index=False)
        }
    if codes.get("preset") is not None:
        pass
    return out


def study_page(
    tables: DesignTables,
    out: str | Path,
    title: str | None = None,
    played: str | Path | None = None,
) -> Path:
    """Write `index.html`, its PNGs and `findings.json` beside the tables in `out`;
    `played` is the folder the stages' sweeps were played into (default `out`), for the
    page's reproduce line."""
    from ludosim.report import figures
    from ludosim.report.explorer import explorer
    from ludosim.report.figures import Panel
    from ludosim.report.htmlpage import (
        PageFigure,
        PageSection,
        PageTable,
        html_table,
        page_figure,
        write_study_page,
    )

    folder = Path(out)
    folder.mkdir(parents=True, exist_ok=True)
    study, plan = tables.study, tables.plan
    found = decide(tables)
    # effects.csv and comparisons.csv carry the page's decision (`p_adjusted` and
    # `resolved`: Holm over every comparison the page states; `size`: where the interval
    # stands against the smallest effect of interest); effects.csv keeps the screening's
    # own adjustment, which chose the model's interactions, as `p_screening`.
    page = decided(tables)
    page.effects.to_csv(folder / "effects.csv", index=False)
    page.comparisons.to_csv(folder / "comparisons.csv", index=False)
    sections = []
    # Recommended rule sets, as measured
    labels = tables.points.drop_duplicates("point").set_index("point")["label"]
    rows = []
    stand = recommendation(tables, page).standings if not tables.confirmed.empty else {}
    for i, r in enumerate(tables.confirmed.itertuples(index=False), start=1):
        # A short name first: the rule sets' labels are too long to lead a table row.
        entry: dict[str, Any] = {"candidate": f"#{i}", "standing": stand[r.point],
                                 "changes": r.changes, "games": r.games}  # fmt: skip
        for name in DESIGN_MEASURES:
            row = _value(tables.measures, r.point, name, "confirm")
            m = MEASURES[name]
            entry[f"{m.title} ({m.unit})"] = estimate(
                row["estimate"], row["ci_low"], row["ci_high"], sign=False, with_ci=False
            )
        entry["rule set"] = labels[r.point]
        entry["options"] = _set_line(study, labels[r.point])
        rows.append(entry)
    if rows:
        confirmed = pd.DataFrame(rows)
        confirmed.to_csv(folder / "recommended.csv", index=False)
        sections.append(
            PageSection(
                "Recommended rule sets",
                text=(
                    "The preset's own rules and the candidates the model predicts may be best"
                    + (" within the limits" if study.limits else " (no limits asked)")
                    + ", drawn far apart, replayed once on games no other stage played "
                    "(paired among themselves): measured values with 95% intervals."
                ),
                tables=[
                    PageTable(
                        "Confirmed candidates",
                        "recommended.csv",
                        html_table(confirmed.drop(columns="options")),
                        "95% CIs. Standing on the first goal against the preset's own rules, "
                        "as the page decides it (Holm over the page): better or worse (resolved, "
                        "the interval reaching the smallest effect of interest), better or "
                        "worse by less than the smallest effect (resolved, the interval within "
                        "it), equally good (not resolved, the interval at the family's level "
                        "within the smallest effect) or not told apart. A change is recommended "
                        "only when it is better; among those, the fewest changes of those not "
                        "resolved worse than the best measured; else the preset as it is. "
                        "recommended.csv adds each rule set's options, which paste into any "
                        "ludosim command.",
                    )
                ],
            )
        )
    # Screening effects: the main effects of every free house rule on four measures
    effects = tables.effects[tables.effects["factors"] == 1]
    shown = ("length", "imbalance", "skill", "comebacks")
    wide = effects[effects["measure"] == shown[0]][["term"]].reset_index(drop=True)
    for name in shown:
        part = effects[effects["measure"] == name].reset_index(drop=True)
        wide[name], wide[f"{name}_low"], wide[f"{name}_high"] = (
            part["estimate"],
            part["ci_low"],
            part["ci_high"],
        )
    panels = [
        Panel(n, f"{n}_low", f"{n}_high", f"{MEASURES[n].title}\n({MEASURES[n].unit})")
        for n in shown
    ]
    fig = figures.forest(wide, wide["term"].tolist(), panels)
    what = (
        "Main effect of each free house rule (the preset's value -> the alternative) on "
        f"four measures, with 95% CIs, over the {len(plan.codes)} rule sets of the screening; "
        "every effect and interaction on every measure is in effects.csv."
    )
    screen = PageSection(
        "What each house rule does",
        figures=[page_figure(folder, fig, "effects.png", "Screening: main effects", what)],
    )
    screened = found.comparisons
    shown = screened[screened["practical"].astype(bool)][
        ["measure", "term", "estimate", "ci_low", "ci_high", "p_adjusted"]
    ]
    shown = shown.assign(
        unit=shown["measure"].map(lambda n: MEASURES[n].unit),
        measure=shown["measure"].map(lambda n: MEASURES[n].title),
    )
    screen.tables.append(
        PageTable(
            "Effects of practical size",
            "effects.csv",
            html_table(shown),
            "The effects the page resolved (Holm over its family) that reach the measure's "
            "smallest effect of interest; effects.csv holds every term on every measure, with "
            "its p-value before the correction.",
        )
    )
    sections.append(screen)
    # The front between two goals
    goals = study.goals if len(study.goals) > 1 else (study.goals[0], "skill")
    x, y = (GOALS[g][0] for g in goals[:2])
    measured = _measured_frame(tables, x, y)
    fig = figures.front(
        tables.search,
        x,
        y,
        f"{MEASURES[x].title} ({MEASURES[x].unit})",
        f"{MEASURES[y].title} ({MEASURES[y].unit})",
        measured,
        limits=bool(study.limits),
    )
    sections.append(
        PageSection(
            "What one goal costs of another",
            figures=[
                page_figure(
                    folder,
                    fig,
                    "front.png",
                    f"Front between {goals[0]} and {goals[1]}",
                    "Every rule set of the space as the model predicts it; the front with 95% "
                    "prediction "
                    "intervals; the confirmed candidates as measured.",
                )
            ],
        )
    )
    # The model's check
    if not tables.checks.empty:
        fig = figures.prediction_check(
            tables.checks, {n: f"{MEASURES[n].title} ({MEASURES[n].unit})" for n in DESIGN_MEASURES}
        )
        sections.append(
            PageSection(
                "How well the model predicts",
                figures=[
                    page_figure(
                        folder,
                        fig,
                        "model_check.png",
                        "Predicted against measured",
                        "Each rule set the model was not fitted on (held out, confirmed): its 95% "
                        "prediction "
                        "interval and the measured value; red where the interval misses it.",
                    )
                ],
                tables=[
                    PageTable(
                        "Checks by measure",
                        "checks.csv",
                        html_table(check_summary(tables)),
                        "Per measure: the lack of fit (the standard deviation of the rule "
                        "sets around the model beyond their games' noise), the held-out rule "
                        "sets the 95% prediction interval held with the exact 95% interval of "
                        "that share and its two-sided verdict, the confirmed candidates held, "
                        "and the root mean square error; checks.csv holds every check.",
                    )
                ],
            )
        )
    # The explorer
    free = [menu_words(f) for f in plan.free]
    layout = explorer(free, explorer_models(tables), _measured_by_codes(tables))
    item = PageFigure(
        "explorer",
        "Explorer",
        "Pick a value for each free house rule: the model's prediction of every "
        "measure with its 95% prediction interval; a confirmed rule set shows its "
        "measured values.",
        interactive=layout,
    )
    sections.append(PageSection("Explorer", figures=[item]))
    name = study.name or f"design-{study.preset}"
    limits = " and ".join(x.text for x in study.limits)
    intro = (
        f"Which house rules of {study.preset} best meet the "
        f"goal{'s' if len(study.goals) > 1 else ''} {listing(list(study.goals))}"
        + (f", within the limits {limits}" if limits else "")
        + f": {len(plan.free)} free house rules, {sum(tables.games.values()):,} games, seed "
        f"{study.seed}."
    )
    command = _command(study, played or folder, folder)
    return write_study_page(
        folder,
        title or f"ludosim design: {name}",
        intro,
        command,
        found.findings,
        TITLES,
        sections,
        GLOSSARY_TERMS,
    )


def _measured_frame(tables: DesignTables, x: str, y: str) -> pd.DataFrame:
    rows = []
    for r in tables.confirmed.itertuples(index=False):
        a, b = (_value(tables.measures, r.point, m, "confirm") for m in (x, y))
        rows.append(
            {
                x: a["estimate"],
                f"{x}_low": a["ci_low"],
                f"{x}_high": a["ci_high"],
                y: b["estimate"],
                f"{y}_low": b["ci_low"],
                f"{y}_high": b["ci_high"],
            }
        )
    columns = [f"{m}{end}" for m in (x, y) for end in ("", "_low", "_high")]
    return pd.DataFrame(rows, columns=columns)


def _command(study: DesignStudy, played: str | Path, page: str | Path) -> str:
    """The command line that plays the study into `played` (and, where the page lies
    elsewhere, the `ludosim report` that writes it into `page`)."""
    import shlex

    words = ["ludosim", "design", "--preset", study.preset, "--seed", str(study.seed)]
    for item in study.sets:
        words += ["--set", item]
    for f in study.free:
        words += [
            "--free",
            f"{f.toggle}={_value_text(f.toggle, f.values[0])},{_value_text(f.toggle, f.values[1])}",
        ]
    for goal in study.goals:
        words += ["--goal", goal]
    for limit in study.limits:
        words += ["--limit", f"{limit.measure}{limit.op}{_num(limit.value)}"]
    defaults = DesignStudy(preset=study.preset, seed=study.seed)
    for key in (*SIZES, *PLAYERS):
        if getattr(study, key) != getattr(defaults, key):
            words += [f"--{key.replace('_', '-')}", str(getattr(study, key))]
    words += ["--out", str(played)]
    line = " ".join(shlex.quote(w) for w in words)
    if Path(played).resolve() != Path(page).resolve():
        line += " && " + shlex.join(["ludosim", "report", str(played), "--out", str(page)])
    return line


def report_study(folder: str | Path, out: str | Path, title: str | None = None) -> Path:
    """A design's tables and page, read from `folder` and written into `out` (without the
    stages' sweeps: `make reports` keeps those under runs/)."""
    tables = read_tables(folder)
    write_tables(tables, out)
    return _answered(tables, study_page(tables, out, title, played=folder))


def run_study(
    study: DesignStudy,
    out: str | Path,
    *,
    progress: Progress | None = None,
    player: Player | None = None,
    **run: Any,
) -> Path:
    """plan -> play -> tables -> findings -> page, into `out`; the page's path."""
    if not isinstance(study, DesignStudy):
        raise DesignError(
            f"run_study: study must be a DesignStudy (load_study or study_from_options), "
            f"got {study!r}"
        )
    if not isinstance(out, (str, Path)) or not str(out).strip():
        raise DesignError(f"run_study: out must be a folder's path, got {out!r}")
    tables = play_study(study, out, progress=progress, player=player, **run)
    write_tables(tables, out)
    return _answered(tables, study_page(tables, out))


def _answered(tables: DesignTables, page: Path) -> Path:
    """`page`, unless no rule set could meet the limits: then a `DesignError` saying so
    (the page, written all the same, says it too)."""
    unmet = unmet_limits(tables)
    if unmet is not None:
        raise DesignError(f"{unmet} The page says the same: {page}")
    return page
