"""HTML report of a results folder: one self-contained `index.html`, PNGs and CSVs.

    make_report("runs/toggles-app", "reports/toggles-app")   # -> reports/toggles-app/index.html

The report reads only results (`ludosim.results.load`, its cells table and manifest)
and computes everything with `ludosim.analysis`; `ludosim.findings` says in sentences
what the results show, and the page opens with those findings: whether the sweep's
precision target was met (when it had one), then per topic its headline and the
statements behind it, folded when there are many. Then come the sections that the
results support, each choosing its figures by the shape of the results:

- game length and first-player advantage: a forest plot (dot and interval per cell,
  sorted) for any number of cells; small multiples of the grid for a full factorial;
  overlaid length distributions on one shared axis only for a few cells;
- win rates by position and seat: dots for a few cells, a heatmap for many;
- toggle effects (one toggle changed from a base) and factorial effects as forests;
- the skip-cost curve when `detect_skip` varies and a seat plays `skipper:Q`;
- a policy ranking when policies differ;
- the cells table last.

The page carries its figures inside it (PNG data URIs) and an interactive Bokeh
version of the forest plots (the library inlined once, so the page works offline);
the PNGs and CSV tables are also written beside it for slides and scripts. Every
figure's caption says what was simulated (preset, changed toggles, policies, games,
seed) and the command that reproduces it; the sweep is written back as `sweep.toml`,
so a sweep that cannot be written as one command line is still one command away.
Drawing lives in `ludosim.figures`, which imports matplotlib and Bokeh lazily.
"""

from __future__ import annotations

import math
import os
import shlex
import shutil
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ludosim import analysis, figures
from ludosim.analysis import value_text
from ludosim.errors import LudosimError
from ludosim.figures import Panel
from ludosim.findings import TITLES, Finding, findings
from ludosim.results import ResultsError, load, load_cells, load_manifest
from ludosim.results.errors import reason, write_error
from ludosim.sweep import PrecisionError, SweepError, parse_target, precision_status, store
from ludosim.sweep.spec import POLICIES_KEY, spec_command, spec_toml

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Cells listed by name in a caption; more are summarised (cells.csv lists them all).
CAPTION_CELLS = 8
SPEC_FILE = "sweep.toml"
# Up to this many cells, length distributions are overlaid and win rates by position
# drawn as dots with a legend; beyond it the lines would hide each other.
FEW_CELLS = 6
# A full-factorial grid is drawn as small multiples up to this many panels.
MAX_PANELS = 16
# A topic's per-cell statements (and the precision table) are listed open up to this
# many; more are folded under their headline, which answers the question for all.
OPEN_DETAILS = 6
# Below this a p-value is written `< 1e-16`: doubles cannot resolve it (it reads as 0).
P_FLOOR = 1e-16


class ReportError(LudosimError, ValueError):
    """The report cannot be written where asked."""


@dataclass
class PageFigure:
    file: str
    title: str
    caption: str
    src: str = ""  # the PNG as a data URI
    interactive: Any = None  # a Bokeh model drawn on the page above the PNG
    div: str = ""  # its HTML once embedded
    command: str = ""  # reproduces the results the figure shows


@dataclass
class PageTable:
    title: str
    csv: str
    html: str
    caption: str
    command: str = ""


@dataclass
class PageSection:
    title: str
    text: str = ""
    figures: list[PageFigure] = field(default_factory=list)
    tables: list[PageTable] = field(default_factory=list)


@dataclass
class Topic:
    """A findings topic on the page: its heading, headline sentences and details."""

    title: str
    headlines: list[Finding]
    details: list[Finding]

    @property
    def folded(self) -> bool:
        return len(self.details) > OPEN_DETAILS


@dataclass
class _Precision:
    """Whether the sweep's precision target was met: one sentence and a per-cell table."""

    sentence: str
    html: str
    rows: int

    @property
    def folded(self) -> bool:
        return self.rows > OPEN_DETAILS


@dataclass
class _Results:
    """What the report is made of: rows, the cells table and where they came from."""

    path: Path
    df: pd.DataFrame
    cells: pd.DataFrame
    manifest: dict[str, Any] | None
    command: str  # reproduces the results
    labels: dict[str, str] = field(default_factory=dict)  # cell id -> label (CLI spelling)

    def label(self, cell: str) -> str:
        return self.labels.get(str(cell), str(cell))


# ------------------------------------------------------------------------- public
def make_report(results_path: str | Path, out_dir: str | Path, title: str | None = None) -> Path:
    """Write `index.html`, its PNG figures and CSV tables into `out_dir`; return the page.

    `results_path` is anything `ludosim.results.load` reads: a sweep folder (the full
    report), a part of one, or a single Parquet file (`simulate --out`: one cell, no
    provenance beyond the file). Raises `ResultsError` when nothing can be read and
    `ReportError` when `out_dir` cannot be created or written (a full disk, a
    read-only folder: one line naming the file and the cause).

    The files are written into a hidden folder inside `out_dir` under the
    folder's lock and moved into place only when all of them are written, so a
    failed report leaves the previous one (or nothing) behind, never part of one.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(
            f"cannot create the report folder {out}: {reason(exc)}; choose --out"
        ) from None
    try:
        with store.locked(out, "report"):
            for stale in out.glob(".report-*.tmp"):
                # Left by a report that was killed: the lock says none is running.
                shutil.rmtree(stale, ignore_errors=True)
            stage = out / f".report-{os.getpid()}.tmp"
            try:
                stage.mkdir()
                page = _write_report(Path(results_path), out, stage, title)
                for item in sorted(stage.iterdir()):
                    os.replace(item, out / item.name)
            finally:
                shutil.rmtree(stage, ignore_errors=True)
    except OSError as exc:
        raise ReportError(f"{write_error(exc, out)}; the report was not written") from None
    return out / page.name


def _write_report(results_path: Path, out: Path, stage: Path, title: str | None) -> Path:
    """Every file of the report, written into `stage` (`out` is where they will be)."""
    res = _read(results_path, out, stage)
    sections = []
    for build in (_lengths, _win_rates, _toggles, _skip, _tournament, _factorial):
        section = build(res, stage)
        if section is not None:
            sections.append(section)
    sections.append(_cells(res, stage))
    for section in sections:
        # Every figure, and every table whose caption says what was simulated, says how.
        for item in [*section.figures, *section.tables]:
            if isinstance(item, PageFigure) or "Simulated:" in item.caption:
                item.command = res.command
    name = res.manifest.get("spec", {}).get("name") if res.manifest else None
    page_title = title or f"ludosim report: {name or res.path.name}"
    page = stage / "index.html"
    page.write_text(_render(page_title, res, _findings(res), sections, out), encoding="utf-8")
    return page


def cell_labels(cells: pd.DataFrame) -> dict[str, str]:
    """cell id -> its label in the command line's spelling, unique within the table.

    Labels are the cells' names (`six_limit=0 finish=bounce`, a variant's name) with
    values as `--set` takes them back: `true`/`false`, and an empty set as `{}`.
    """
    names = analysis.describe_cells(cells)
    labels = {str(c): str(n) for c, n in names.items()}
    counts = pd.Series(list(labels.values())).value_counts()
    return {c: f"{n} ({c})" if counts[n] > 1 else n for c, n in labels.items()}


# -------------------------------------------------------------------- reading
def _read(path: Path, out: Path, stage: Path) -> _Results:
    try:
        manifest: dict[str, Any] | None = load_manifest(path)
    except ResultsError:
        manifest = None
    if manifest is not None:
        df = load(path, cells=True)
        cells = load_cells(path)
        present = {str(c) for c in df["cell"].unique()}
        cells = cells[cells["cell"].astype(str).isin(present)].reset_index(drop=True)
        spec = manifest.get("spec") or {}
        (stage / SPEC_FILE).write_text(
            "# Written by ludosim report from the sweep's manifest.json\n" + spec_toml(spec),
            encoding="utf-8",
        )
        command = spec_command(spec, path) or (
            f"ludosim sweep {shlex.quote(str(out / SPEC_FILE))} --out {shlex.quote(str(path))}"
        )
        return _Results(path, df, cells, manifest, command, cell_labels(cells))
    df = load(path)
    if "cell" not in df.columns:
        df = df.assign(cell=pd.Categorical(["all"] * len(df)))
    ids = [str(c) for c in df["cell"].unique()]
    cells = pd.DataFrame(
        {"cell": ids, "name": [path.stem if c == "all" else c for c in ids], "seed": None}
    )
    counts = df["cell"].astype(str).value_counts()
    cells["games"] = [int(counts[c]) for c in ids]
    command = f"(no sweep manifest: rows read from {path})"
    return _Results(path, df, cells, None, command, cell_labels(cells))


# ---------------------------------------------------------------- provenance
def _changed_toggles(row: pd.Series) -> list[str]:
    """`toggle=value` for each toggle of a cell that differs from its preset."""
    return [f"{name}={value_text(row[name])}" for name in analysis.changed_toggles(row)]


def _describe(res: _Results, cell_ids: Sequence[str]) -> str:
    """What was simulated for these cells: rules, policies, games, seed.

    Up to `CAPTION_CELLS` cells are listed one by one; more are summarised by their
    presets, the changes they share and the toggles that vary (cells.csv lists each).
    """
    cells = res.cells.set_index(res.cells["cell"].astype(str))
    ids = [c for c in cell_ids if c in cells.index]
    if len(ids) > CAPTION_CELLS:
        parts = [_summary(cells.loc[ids])]
    else:
        parts = []
        for cell in ids:
            row = cells.loc[cell]
            preset = row.get("preset")
            rules = (
                f"preset {preset}" + "".join(f", {c}" for c in _changed_toggles(row))
                if isinstance(preset, str) and preset
                else "rules not recorded"
            )
            policies = row.get("policies") if "policies" in row.index else None
            parts.append(
                f"{cell} “{res.label(cell)}”: {rules}; policies "
                f"{policies if isinstance(policies, str) else 'not recorded'}"
            )
    games = sorted({int(g) for g in cells.loc[[c for c in cell_ids if c in cells.index], "games"]})
    seeds = (
        sorted({int(s) for s in cells["seed"].dropna()})
        if "seed" in cells.columns and cells["seed"].notna().any()
        else []
    )
    games_text = "/".join(f"{g:,}" for g in games) + " games per cell"
    seed_text = f"seed {', '.join(map(str, seeds))}" if seeds else "seed not recorded"
    return "Simulated: " + "; ".join(parts) + f". {games_text}, {seed_text}."


def _summary(cells: pd.DataFrame) -> str:
    """Many cells in one phrase: presets, shared changes, varying toggles, policies."""
    presets = sorted({str(p) for p in cells["preset"].dropna()}) if "preset" in cells else []
    shared = set.intersection(*(set(_changed_toggles(row)) for _, row in cells.iterrows()))
    varying = [c for c in analysis.toggle_columns(cells) if cells[c].astype(str).nunique() > 1]
    policies = list(dict.fromkeys(cells["policies"].astype(str))) if "policies" in cells else []
    text = f"{len(cells)} cells (each listed in cells.csv) of preset {', '.join(presets) or '?'}"
    if shared:
        text += " with " + ", ".join(sorted(shared))
    if varying:
        text += ", varying " + ", ".join(varying)
    if policies:
        text += "; policies " + (" / ".join(policies) if len(policies) <= 4 else "varied")
    return text


def _caption(res: _Results, cell_ids: Sequence[str], what: str) -> str:
    """What the figure shows and what was simulated; the template adds the command."""
    return f"{what} {_describe(res, cell_ids)}"


# ------------------------------------------------------------------- sections
def _findings(res: _Results) -> list[Finding]:
    return findings(res.df, res.cells)


def _topics(found: Sequence[Finding]) -> list[Topic]:
    return group_findings(found, TITLES)


def group_findings(found: Sequence[Finding], titles: Mapping[str, str]) -> list[Topic]:
    """Findings grouped under a heading per topic (`titles[topic]`), headlines first."""
    topics: dict[str, Topic] = {}
    for f in found:
        topic = topics.setdefault(f.topic, Topic(titles.get(f.topic, f.topic), [], []))
        (topic.headlines if f.headline else topic.details).append(f)
    return list(topics.values())


_MEASURE_TEXT = {
    "first_player_advantage": "the first-player advantage",
    "mean_turns": "the mean game length",
}


def _precision(res: _Results) -> _Precision | None:
    """The precision target of a sweep that used one, and in how many cells it was met."""
    if res.manifest is None or not res.manifest.get("precision"):
        return None
    try:
        status = precision_status(res.path)
        target = parse_target(str(status["target"].iloc[0])) if len(status) else None
    except (SweepError, PrecisionError):
        return None  # a part of a sweep, or a target this version cannot read
    if target is None:
        return None
    met = status["met"].astype(bool)
    unit = "pp" if target.unit == "pp" else ("turn" if target.value == 1 else "turns")
    sentence = (
        f"Precision target ±{target.value:g} {unit} on "
        f"{_MEASURE_TEXT.get(target.measure, target.measure)} (half-width of its 95% "
        f"interval): met in {int(met.sum())} of {len(status)} cells"
    )
    missed = status[~met]
    if len(missed):
        capped = missed[missed["capped"].astype(bool)]
        parts = []
        if len(capped):
            parts.append(f"{len(capped)} would need more than the sweep's max_games")
        if len(missed) > len(capped):
            parts.append(f"{len(missed) - len(capped)} have not played all their planned games")
        sentence += f"; of the others, {' and '.join(parts)}"
    table = status[["cell", "name", "games", "planned", "estimate", "half_width", "met"]].copy()
    table["name"] = table["cell"].astype(str).map(res.label)
    table["met"] = table["met"].map({True: "yes", False: "no"})
    for column in ("estimate", "half_width"):
        table[column] = table[column].map(lambda v: f"{v:.3f}" if math.isfinite(v) else "")
    table = table.rename(columns={"estimate": f"estimate ({target.unit})",
                                  "half_width": f"half_width ({target.unit})"})  # fmt: skip
    return _Precision(sentence + ".", html_table(table), len(table))


def _cells(res: _Results, out: Path) -> PageSection:
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
    # The CSV keeps every column, with toggle values as `--set` takes them back.
    written = res.cells.copy()
    for column in analysis.toggle_columns(written):
        written[column] = [value_text(v, column) for v in written[column]]
    written.to_csv(out / "cells.csv", index=False)
    caption = "One row per cell: its toggles that differ between cells, policies, games, seed."
    shown_table = PageTable("Cells", "cells.csv", html_table(table), caption)
    return PageSection("Cells", tables=[shown_table])


def _lengths(res: _Results, out: Path) -> PageSection | None:
    if "turns" not in res.df.columns:
        return None
    stats = analysis.game_length(res.df, by="cell")
    stats.insert(1, "name", stats["cell"].astype(str).map(res.label))
    stats.to_csv(out / "game_length.csv", index=False)
    dist = analysis.length_distribution(res.df, "turns", by="cell")
    dist.to_csv(out / "length_distribution.csv", index=False)
    turns = stats[stats["measure"] == "turns"].reset_index(drop=True)
    ids = _cell_ids(res)
    section = PageSection(
        "Game length",
        text=(
            "Player turns until the winner finished. Means with 95% normal-approximation "
            "CIs, medians with 95% order-statistic (binomial) CIs; game_length.csv also has "
            "rolls and, with play_to_end, turns until the game ended."
        ),
    )
    panel = Panel("mean", "mean_ci_low", "mean_ci_high", "mean player turns per game",
                  reference=None)  # fmt: skip
    section.figures += _per_cell_figures(
        res, out, turns, panel, "length",
        ("Mean game length per cell",
         "Mean player turns per game with its 95% CI, one row per cell, longest first."),
        ("Mean game length across the grid", "mean player turns"),
        diverging=False, fmt="{:.0f}",
    )  # fmt: skip
    if len(ids) <= FEW_CELLS:
        shown = dist.assign(label=dist["cell"].astype(str).map(res.label))
        means = dict(zip(turns["cell"].astype(str).map(res.label), turns["mean"], strict=True))
        fig = figures.length_overlay(shown, means, "turns")
        what = (
            "Distribution of game length in player turns, every cell on one shared axis; "
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
    table = turns[
        ["cell", "name", "games", "mean", "mean_ci_low", "mean_ci_high", "median",
         "median_ci_low", "median_ci_high", "q05", "q95"]
    ]  # fmt: skip
    section.tables.append(
        PageTable("Turns per game", "game_length.csv", html_table(table), "95% CIs.")
    )
    return section


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
    section = PageSection(
        "Win rates by position and seat",
        text=(
            "First-player advantage: the win rate of the player who took the first turn "
            "minus the fair share 1/players, in percentage points. Games without a "
            "finisher are excluded."
        ),
    )
    panel = Panel("advantage_pp", "advantage_ci_low", "advantage_ci_high",
                  "first-player advantage (percentage points; 0 = fair)")  # fmt: skip
    section.figures += _per_cell_figures(
        res, out, first, panel, "first_player_advantage",
        ("First-player advantage per cell",
         "Win rate of the first player minus 1/players with its 95% CI, one row per "
         "cell, largest first; the dashed line is no advantage."),
        ("First-player advantage across the grid", "first-player advantage (pp)"),
        diverging=True, fmt="{:+.1f}",
    )  # fmt: skip
    labels = {c: res.label(c) for c in ids}
    tables = [(by_position, "position", "By position (0 = first turn)"),
              (by_seat, "seat", "By seat")]  # fmt: skip
    if len(ids) <= FEW_CELLS:
        fig = figures.rate_dots(tables, labels)
        what = (
            "Win rate with Wilson 95% CIs by turn-order position and by seat; the dashed "
            "line is 1/players."
        )
    else:
        fig = figures.rate_heatmap(tables, labels)
        what = (
            "Win rate minus 1/players (percentage points) by turn-order position and by "
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
         "advantage_ci_low", "advantage_ci_high", "chi2", "dof", "p_value"]
    ]  # fmt: skip
    section.tables.append(
        PageTable(
            "First-player advantage",
            "first_player_advantage.csv",
            html_table(shown),
            "Advantage = win rate of position 0 minus 1/players, in percentage points, "
            "with 95% CI; chi-square test of equal chances for every position.",
        )
    )
    return section


def _toggles(res: _Results, out: Path) -> PageSection | None:
    if not _per_game(res) or len(res.cells) < 2 or not analysis.find_baselines(res.cells):
        return None
    effects = analysis.toggle_effects(res.df, res.cells)
    if effects.empty:
        return None
    # Cells that differ only in who sits where are a tournament: the policy ranking
    # compares them, not an effect of "changing the policies" from one rotation.
    effects = effects[effects["toggle"] != POLICIES_KEY].reset_index(drop=True)
    if effects.empty:
        return None
    effects.to_csv(out / "toggle_effects.csv", index=False)
    bases = effects["base"].astype(str).unique()
    effects["label"] = [
        (f"{res.label(b)}: " if len(bases) > 1 else "") + f"{t} {bv} → {v}"
        for b, t, bv, v in zip(
            effects["base"].astype(str), effects["toggle"], effects["base_value"],
            effects["value"], strict=True,
        )
    ]  # fmt: skip
    order = np.argsort(-effects["turns_effect"].abs().to_numpy(), kind="stable")
    ordered = effects.iloc[order].reset_index(drop=True)
    panels = [
        Panel("turns_effect", "turns_ci_low", "turns_ci_high", "Δ mean player turns"),
        Panel("fpa_effect_pp", "fpa_ci_low", "fpa_ci_high", "Δ first-player advantage (pp)"),
    ]
    ids = sorted(set(effects["cell"].astype(str)) | set(bases))
    what = (
        "Effect of changing one toggle from its base cell (base value → new value) on mean "
        "game length and on the first-player advantage, with 95% CIs paired by game "
        "(common random numbers); largest length effect first, dashed line at no effect."
    )
    fig = figures.forest(ordered, ordered["label"].tolist(), panels)
    item = page_figure(out, fig, "toggle_effects.png", "Toggle effects", _caption(res, ids, what))
    item.interactive = figures.bokeh_forest(
        ordered, ordered["label"].tolist(), panels, {"cell": "cell", "games": "games"}
    )
    shown = effects[
        ["base", "cell", "toggle", "base_value", "value", "turns_effect", "turns_ci_low",
         "turns_ci_high", "fpa_effect_pp", "fpa_ci_low", "fpa_ci_high", "method"]
    ]  # fmt: skip
    return PageSection(
        "Toggle effects",
        figures=[item],
        tables=[PageTable("Toggle effects", "toggle_effects.csv", html_table(shown), "95% CIs.")],
    )


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


def _tournament(res: _Results, out: Path) -> PageSection | None:
    if not _per_game(res) or "policies" not in res.df.columns:
        return None
    table = analysis.win_table(res.df)
    if len(table) < 2:
        return None  # one policy everywhere: nothing to compare
    table.to_csv(out / "win_table.csv", index=False)
    what = (
        "Win rate of each policy pooled over every seat and cell it played, Wilson 95% CIs, "
        "best first; the dashed line is the fair share (mean of 1/players). Truncated "
        "games without a finisher count as losses."
    )
    caption = _caption(res, _cell_ids(res), what)
    fig = figures.ranking(table)
    item = page_figure(out, fig, "policy_ranking.png", "Policy ranking", caption)
    panel = Panel("win_rate", "ci_low", "ci_high", "win rate", reference=None, fmt="{:.3f}")
    ordered = table.sort_values("win_rate", ascending=False, kind="stable")
    item.interactive = figures.bokeh_forest(
        ordered, ordered["policy"].astype(str).tolist(), [panel],
        {"seat_games": "seat-games", "wins": "wins"},
    )  # fmt: skip
    return PageSection(
        "Policies",
        figures=[item],
        tables=[PageTable("Win rate per policy", "win_table.csv", html_table(table), caption)],
    )


def _factorial(res: _Results, out: Path) -> PageSection | None:
    if not _per_game(res) or (res.manifest or {}).get("spec", {}).get("mode") != "grid":
        return None
    vary = (res.manifest.get("spec") or {}).get("vary") or {}
    factors = [k for k, v in vary.items() if len(v) == 2 and k in res.cells.columns]
    if len(factors) < 2:
        return None
    try:
        parts = [
            analysis.factorial_effects(res.df, res.cells, factors, r)
            for r in ("turns", "first_win")
        ]
    except analysis.AnalysisError:
        return None
    table = pd.concat(parts, ignore_index=True)
    table.to_csv(out / "factorial_effects.csv", index=False)
    caption = _caption(
        res,
        _cell_ids(res),
        "Main effects and two-way interactions (±1 coding: mean at the second level minus "
        "mean at the first) on turns and on the first player's win rate, with 95% CIs.",
    )
    section = PageSection(
        "Factorial effects",
        tables=[
            PageTable("Factorial effects", "factorial_effects.csv", html_table(table), caption)
        ],
    )
    turns, first = (p.reset_index(drop=True) for p in parts)
    if len(turns) != len(first) or list(turns["term"]) != list(first["term"]):
        return section
    lead = list(turns.columns[: list(turns.columns).index("term")])
    both = turns.assign(
        win=100 * first["effect"], win_low=100 * first["ci_low"], win_high=100 * first["ci_high"]
    )
    labels, groups = [], []
    for _, row in both.iterrows():
        group = " ".join(f"{c}={value_text(row[c])}" for c in lead)
        groups.append(group)
        term = str(row["term"])
        if "low" in row.index and isinstance(row["low"], str) and " x " not in term:
            term += f" ({value_text(row['low'])} → {value_text(row['high'])})"
        labels.append(f"{group}: {term}" if group else term)
    panels = [
        Panel("effect", "ci_low", "ci_high", "effect on mean player turns"),
        Panel("win", "win_low", "win_high", "effect on first player's win rate (pp)"),
    ]
    fig = figures.forest(both, labels, panels, groups=groups)
    what = (
        "Main effects (second level minus first, levels in brackets) and two-way "
        "interactions on mean game length and on the first player's win rate, with 95% "
        "CIs; dashed line at no effect."
    )
    item = page_figure(out, fig, "factorial_effects.png", "Factorial effects",
                   _caption(res, _cell_ids(res), what))  # fmt: skip
    item.interactive = figures.bokeh_forest(both, labels, panels)
    section.figures.append(item)
    return section


# ----------------------------------------------------------------- figures
def page_figure(out: Path, fig: Figure, file: str, title: str, caption: str) -> PageFigure:
    """Write the figure as PNG beside the page and keep it for embedding."""
    png = figures.png_bytes(fig)
    (out / file).write_bytes(png)
    return PageFigure(file, title, caption, src=figures.data_uri(png))


def _per_cell_figures(
    res: _Results,
    out: Path,
    table: pd.DataFrame,
    panel: Panel,
    stem: str,
    forest: tuple[str, str],
    grid_text: tuple[str, str],
    *,
    diverging: bool,
    fmt: str,
) -> list[PageFigure]:
    """One measure per cell: a forest of every cell (largest first) and, for a full
    factorial grid, its heatmap panels. `forest` is (title, caption), `grid_text`
    (title, colour-bar label); the PNGs are `<stem>.png` and `<stem>_grid.png`."""
    ordered = table.sort_values(panel.value, ascending=False, kind="stable")
    shown = [_forest_figure(res, out, ordered, [panel], f"{stem}.png", *forest)]
    grid = _grid(res)
    if grid is not None:
        values = table.set_index(table["cell"].astype(str))[panel.value]
        grid_png = f"{stem}_grid.png"
        shown.append(
            _grid_figure(res, out, grid, values, grid_png, *grid_text, diverging=diverging, fmt=fmt)
        )
    return shown


def _forest_figure(
    res: _Results,
    out: Path,
    table: pd.DataFrame,
    panels: Sequence[Panel],
    file: str,
    title: str,
    what: str,
) -> PageFigure:
    """A forest plot of one row per cell (static and interactive)."""
    ids = table["cell"].astype(str).tolist()
    labels = [res.label(c) for c in ids]
    item = page_figure(out, figures.forest(table, labels, panels), file, title,
                   _caption(res, ids, what))  # fmt: skip
    item.interactive = figures.bokeh_forest(
        table, labels, panels, {"cell": "cell", "games": "games"}
    )
    return item


@dataclass(frozen=True)
class _Grid:
    """A full-factorial grid: the factors drawn on rows, columns and panels."""

    table: pd.DataFrame  # cell plus one text column per factor
    row: str
    col: str
    panels: tuple[str, ...]
    levels: dict[str, list[str]]


def _grid(res: _Results) -> _Grid | None:
    """The sweep's full-factorial grid of two or more varied keys, if it is one."""
    spec = (res.manifest or {}).get("spec") or {}
    if spec.get("mode") != "grid":
        return None
    factors = [k for k, v in (spec.get("vary") or {}).items()
               if len(v) > 1 and k in res.cells.columns]  # fmt: skip
    if "variant" in res.cells.columns and res.cells["variant"].astype(str).nunique() > 1:
        factors.insert(0, "variant")
    if len(factors) < 2:
        return None
    table = pd.DataFrame({"cell": res.cells["cell"].astype(str)})
    for factor in factors:
        table[factor] = res.cells[factor].map(value_text).astype(str)
    levels = {f: list(dict.fromkeys(table[f])) for f in factors}
    size = math.prod(len(v) for v in levels.values())
    if size != len(table) or table.duplicated(factors).any():
        return None
    # The two factors with most levels span each panel (later ones on ties: the
    # innermost loops of the grid); the others pick the panel.
    by_levels = sorted(factors, key=lambda f: (len(levels[f]), factors.index(f)))
    row, col = by_levels[-2], by_levels[-1]
    panels = tuple(f for f in factors if f not in (row, col))
    if math.prod(len(levels[f]) for f in panels) > MAX_PANELS:
        return None
    return _Grid(table, row, col, panels, levels)


def _grid_figure(
    res: _Results,
    out: Path,
    grid: _Grid,
    values: pd.Series,
    file: str,
    title: str,
    label: str,
    *,
    diverging: bool,
    fmt: str,
) -> PageFigure:
    table = grid.table.assign(value=grid.table["cell"].map(values))
    fig = figures.heatmap_grid(
        table, grid.row, grid.col, grid.panels, grid.levels, "value",
        label=label, diverging=diverging, fmt=fmt,
    )  # fmt: skip
    panels = f", one panel per {' and '.join(grid.panels)}" if grid.panels else ""
    what = (
        f"{label.capitalize()} for every cell of the grid: {grid.row} down, {grid.col} "
        f"across{panels}; one colour scale for all panels. CIs are in the forest plot above."
    )
    return page_figure(out, fig, file, title, _caption(res, grid.table["cell"].tolist(), what))


# ------------------------------------------------------------------ helpers
def _per_game(res: _Results) -> bool:
    """Per-game rows with winners and first players (a summary-only sweep has none)."""
    return res.manifest is not None and {"turns", "winner", "first"} <= set(res.df.columns)


def _cell_ids(res: _Results) -> list[str]:
    return [str(c) for c in res.cells["cell"]]


def html_table(df: pd.DataFrame) -> str:
    shown = df.copy()
    for column in [c for c in shown.columns if str(c).startswith("p_")]:
        shown[column] = shown[column].map(_p_cell)
    return shown.to_html(
        index=False, border=0, classes="data", na_rep="", float_format=lambda v: f"{v:.4g}"
    )


def _p_cell(p: Any) -> str:
    """A p-value for a table cell: four significant figures, `< 1e-16` below the floor."""
    try:
        value = float(p)
    except (TypeError, ValueError):
        return "" if p is None else str(p)
    if not math.isfinite(value):
        return ""
    return f"< {P_FLOOR:g}" if value < P_FLOOR else f"{value:.4g}"


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #222; line-height: 1.4; }
section, figure, .scroll { max-width: 100%; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption, .caption { font-size: 0.9em; color: #444; }
code { background: #f4f4f4; padding: 0 0.2em; }
table.data { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
table.data th, table.data td { border-bottom: 1px solid #ddd; padding: 0.2em 0.6em;
                               text-align: right; }
/* Wide tables scroll inside their own box; the cell id stays in view while they do. */
.scroll { overflow-x: auto; width: fit-content; max-width: 100%; border: 1px solid #e4e4e4;
          border-radius: 3px;
          /* A shadow on the side that has more columns: it moves with the scrolling. */
          background: linear-gradient(to right, #fff 30%, rgba(255, 255, 255, 0)),
                      linear-gradient(to left, #fff 30%, rgba(255, 255, 255, 0)) 100% 0,
                      radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, 0.18), transparent),
                      radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, 0.18), transparent)
                      100% 0;
          background-repeat: no-repeat; background-size: 40px 100%, 40px 100%, 14px 100%, 14px 100%;
          background-attachment: local, local, scroll, scroll; }
.scroll table.data { margin: 0; }
table.data th, table.data td { white-space: nowrap; }
table.data th:first-child, table.data td:first-child { position: sticky; left: 0;
                                                       background: #fff; text-align: left; }
.interactive { margin-bottom: 0.5em; }
details summary { cursor: pointer; font-size: 0.9em; color: #444; }
#findings h3 { margin: 1.2em 0 0.3em; }
#findings p.headline { margin: 0.3em 0; font-size: 1.05em; }
#findings ul { margin: 0.3em 0; }
#findings li { margin: 0.3em 0; font-size: 0.92em; }
#findings li.unresolved { color: #7a4b00; }
#findings .precision { background: #f4f8fb; border-left: 3px solid #5b8db8; padding: 0.4em 0.8em; }
.badge { font-size: 0.8em; border: 1px solid #c98a00; border-radius: 3px; padding: 0 0.3em;
         margin-left: 0.3em; }
</style>
{{ resources | safe }}
</head>
<body>
<h1>{{ title }}</h1>
<p>{{ intro }}</p>
<p>Generated by <code>{{ command }}</code>. Every interval is 95%.
Figures are also written as PNG and tables as CSV beside this page.</p>
<section id="findings">
<h2>Findings</h2>
{% if precision %}
<p class="precision">{{ precision.sentence }}</p>
{% if precision.folded %}<details><summary>Precision per cell ({{ precision.rows }} cells)</summary>
{% endif %}
<div class="scroll">{{ precision.html | safe }}</div>
{% if precision.folded %}</details>{% endif %}
{% endif %}
{% for topic in topics %}
<h3>{{ topic.title }}</h3>
{% for f in topic.headlines %}
<p class="finding headline {{ 'resolved' if f.resolved else 'unresolved' }}"
   data-topic="{{ f.topic }}">
{{- f.text }}{% if not f.resolved %} <span class="badge">not resolved</span>{% endif %}</p>
{% endfor %}
{% if topic.details %}
{% if topic.folded %}
<details><summary>All {{ topic.details | length }} statements behind this</summary>
{% endif %}
<ul>
{% for f in topic.details %}
<li class="finding {{ 'resolved' if f.resolved else 'unresolved' }}" data-topic="{{ f.topic }}">
{{- f.text }}{% if not f.resolved %} <span class="badge">not resolved</span>{% endif %}</li>
{% endfor %}
</ul>
{% if topic.folded %}</details>{% endif %}
{% endif %}
{% else %}
<p>No findings: these results hold nothing the findings compare.</p>
{% endfor %}
</section>
{% for section in sections %}
<section>
<h2>{{ section.title }}</h2>
{% if section.text %}<p>{{ section.text }}</p>{% endif %}
{% for fig in section.figures %}
<figure>
{% if fig.div %}
<div class="interactive">{{ fig.div | safe }}</div>
<details><summary>Static image ({{ fig.file }})</summary>
<img src="{{ fig.src }}" data-file="{{ fig.file }}" alt="{{ fig.title }}">
</details>
{% else %}
<img src="{{ fig.src }}" data-file="{{ fig.file }}" alt="{{ fig.title }}">
{% endif %}
<figcaption><b>{{ fig.title }}.</b> {{ fig.caption }}
{% if fig.command %}Reproduce: <code>{{ fig.command }}</code>{% endif %}
PNG: <a href="{{ fig.file }}">{{ fig.file }}</a></figcaption>
</figure>
{% endfor %}
{% for table in section.tables %}
{% if table.title != section.title %}<h3>{{ table.title }}</h3>{% endif %}
<div class="scroll">{{ table.html | safe }}</div>
<p class="caption">{{ table.caption }}
{% if table.command %}Reproduce: <code>{{ table.command }}</code>{% endif %}
CSV: <a href="{{ table.csv }}">{{ table.csv }}</a></p>
{% endfor %}
</section>
{% endfor %}
{{ script | safe }}
</body>
</html>
"""


def _render(
    title: str,
    res: _Results,
    found: Sequence[Finding],
    sections: Sequence[PageSection],
    out: Path,
) -> str:
    intro = (
        f"{len(res.df):,} games in {len(res.cells)} cell(s), read from {res.path}. "
        f"Reproduce the results with: {res.command}"
    )
    if res.manifest is not None:
        intro += (
            f" (ludosim {res.manifest.get('ludosim_version', '?')}, simulation semantics "
            f"version {res.manifest.get('semantics_version', '?')}; the sweep as a file: "
            f"{SPEC_FILE})"
        )
    command = f"ludosim report {shlex.quote(str(res.path))} --out {shlex.quote(str(out))}"
    return render_page(title, intro, command, _topics(found), sections, _precision(res))


def render_page(
    title: str,
    intro: str,
    command: str,
    topics: Sequence[Topic],
    sections: Sequence[PageSection],
    precision: _Precision | None = None,
) -> str:
    """The single-file HTML page: title, intro, the command that wrote it, findings, sections.

    `topics` are the findings grouped by `group_findings`; figures with an
    interactive Bokeh model get it drawn above their PNG.
    """
    import jinja2

    shown = [f for s in sections for f in s.figures if f.interactive is not None]
    resources, script, divs = figures.bokeh_page([f.interactive for f in shown])
    for item, div in zip(shown, divs, strict=True):
        item.div = div
    # autoescape: captions hold toggle values and file names, not trusted HTML.
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(_TEMPLATE).render(
        title=title,
        intro=intro,
        command=command,
        topics=list(topics),
        precision=precision,
        sections=sections,
        resources=resources,
        script=script,
    )
