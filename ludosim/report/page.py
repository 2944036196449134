"""HTML report of a results folder: one self-contained `index.html`, PNGs and CSVs.

    make_report("runs/toggles-app", "reports/toggles-app")   # -> reports/toggles-app/index.html

The report reads only results, through the results layer: `ludosim.results.describe`
says what a path holds (a sweep, part of one, a file; rows or summaries) and what a
sweep recorded of itself (its command, its spec as TOML, its precision status), and
`ludosim.results.load` reads the rows. It imports nothing from the sweep and computes
everything with `ludosim.report.analysis`; `ludosim.report.findings` says in sentences
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
Drawing lives in `ludosim.report.figures`, which imports matplotlib and Bokeh lazily.
"""

from __future__ import annotations

import json
import math
import os
import shlex
import shutil
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ludosim.report import analysis, figures
from ludosim.report.analysis import value_text, without_cells
from ludosim.report.figures import Panel
from ludosim.report.findings import (
    TITLES,
    Finding,
    PageDesign,
    PageFindings,
    finding_records,
    page_design,
    page_findings,
)
from ludosim.results import (
    FolderNotCreated,
    IncompleteSweep,
    ResultsError,
    ResultsKind,
    describe,
    load,
    load_cells,
    output_folder,
    summary_from_frame,
)
from ludosim.results.failures import reason, write_error
from ludosim.results.stats import Z95, wilson_interval
from ludosim.rules.errors import LudosimError
from ludosim.rules.model import Rules
from ludosim.rules.options import options_of, toggle_row
from ludosim.rules.policies import format_policies, resolve_policies
from ludosim.run.simulate import simulate_command

if TYPE_CHECKING:
    from markupsafe import Markup
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
# The answer box on a page's first screen holds at most this many statements.
ANSWERS = 6
# The topic of a page's method notes (families, sizes, seating): not an answer.
METHOD_TOPIC = "about"
# Below this a p-value is written `< 1e-16`: doubles cannot resolve it (it reads as 0).
P_FLOOR = 1e-16
# Beside every page: its findings as data, and every comparison its family decided.
FINDINGS_FILE = "findings.json"
COMPARISONS_FILE = "comparisons.csv"


class ReportError(LudosimError, ValueError):
    """The report cannot be written where asked."""


@dataclass
class PageFigure:
    file: str
    title: str
    caption: str
    src: str = ""  # the PNG as a data URI; empty for an interactive-only figure (no PNG)
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
    met: bool = False  # in every cell

    @property
    def folded(self) -> bool:
        return self.rows > OPEN_DETAILS


@dataclass
class _Results:
    """What the report is made of: rows, the cells table and where they came from.

    `df` and `cells` hold each game once: cells that play the same games as
    another (`design.merged`) are left out of both, and `all_cells` keeps them
    for the cells table.
    """

    kind: ResultsKind
    df: pd.DataFrame
    cells: pd.DataFrame
    command: str  # reproduces the results
    labels: dict[str, str] = field(default_factory=dict)  # cell id -> label (CLI spelling)
    design: PageDesign | None = None
    all_cells: pd.DataFrame | None = None
    found: PageFindings | None = None

    @property
    def path(self) -> Path:
        return self.kind.path

    @property
    def manifest(self) -> dict[str, Any] | None:
        """The sweep's manifest, None for a file or a folder of files."""
        return self.kind.manifest

    @property
    def games(self) -> int:
        """Games the results hold: rows, or the summed totals of a summary-only sweep."""
        return int(self.df["games"].sum()) if self.kind.summary_only else len(self.df)

    def label(self, cell: str) -> str:
        return self.labels.get(str(cell), str(cell))


# ------------------------------------------------------------------------- public
def make_report(results_path: str | Path, out_dir: str | Path, title: str | None = None) -> Path:
    """Write `index.html`, its PNG figures and CSV tables into `out_dir`; return the page.

    `results_path` is anything `ludosim.results.load` reads: a sweep folder (the full
    report), a part of one, or a single Parquet file (`simulate --out`: one cell,
    described by the rules, policies and seed in its metadata). What the path holds
    comes from `ludosim.results.describe`. Raises `ResultsError` when nothing can be
    read and `ReportError` when `out_dir` cannot be created or written (a full disk, a
    read-only folder: one line naming the file and the cause).

    The files are written into a hidden folder inside `out_dir` under the
    folder's lock and moved into place only when all of them are written, so a
    failed report leaves the previous one (or nothing) behind, never part of one.
    """
    for name, value in (("results_path", results_path), ("out_dir", out_dir)):
        if not isinstance(value, (str, os.PathLike)):
            raise ReportError(
                f"{name} must be a path (str or pathlib.Path), got {type(value).__name__}; "
                "make_report reads results written to disk (`ludosim.results.write_parquet`)"
            )
    out = Path(out_dir)
    try:
        # A report that fails (results that cannot be read, a full disk) leaves the
        # folder as it was: one this call created is removed again.
        with output_folder(out, "report"):
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
    except FolderNotCreated as exc:
        raise ReportError(
            f"cannot create the report folder {out}: {reason(exc)}; choose --out"
        ) from None
    except OSError as exc:
        raise ReportError(f"{write_error(exc, out)}; the report was not written") from None
    return out / page.name


def _write_report(results_path: Path, out: Path, stage: Path, title: str | None) -> Path:
    """Every file of the report, written into `stage` (`out` is where they will be)."""
    res = _read(results_path, out, stage)
    precision = _precision(res)
    res.found = page_findings(
        res.df,
        design=res.design,
        smallest=((res.manifest or {}).get("spec") or {}).get("smallest_effects"),
        target_met=precision is not None and precision.met,
    )
    write_findings(stage / FINDINGS_FILE, res.found.findings)
    res.found.comparisons.to_csv(stage / COMPARISONS_FILE, index=False)
    sections = []
    for build in (_summaries, _lengths, _win_rates, _toggles, _skip, _tournament, _factorial):
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
    page.write_text(_render(page_title, res, sections, out, precision), encoding="utf-8")
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
    kind = describe(path)
    if kind.sweep:
        return _read_sweep(kind, out, stage)
    return _read_runs(kind)


def _read_sweep(kind: ResultsKind, out: Path, stage: Path) -> _Results:
    """A sweep folder or a part of it: the cells table, the design, and the command
    and sweep file the sweep recorded."""
    # Summaries are added up per cell as they are; rows get each cell's labels. A page of
    # part of the games would state fewer games than the sweep has: it waits for them.
    with warnings.catch_warnings():
        warnings.simplefilter("error", IncompleteSweep)
        try:
            df = load(kind.path) if kind.summary_only else load(kind.path, cells=True)
        except IncompleteSweep as unfinished:
            raise ResultsError(f"{unfinished}, then report it") from None
    cells = load_cells(kind.path)
    present = {str(c) for c in df["cell"].unique()}
    cells = cells[cells["cell"].astype(str).isin(present)].reset_index(drop=True)
    design = page_design(cells)
    toml = kind.spec_toml
    if toml is not None:
        (stage / SPEC_FILE).write_text(
            "# Written by ludosim report from the sweep's manifest.json\n" + toml,
            encoding="utf-8",
        )
    if kind.command is not None:
        command = kind.command
    elif toml is not None:
        command = (
            f"ludosim sweep {shlex.quote(str(out / SPEC_FILE))} --out {shlex.quote(str(kind.root))}"
        )
    else:
        command = NO_SWEEP_COMMAND
    kept = design.cells
    return _Results(kind, without_cells(df, design.merged), kept, command, cell_labels(kept),
                    design, cells)  # fmt: skip


# The command of a sweep folder written before sweeps recorded theirs in the manifest.
NO_SWEEP_COMMAND = (
    "(not recorded: this sweep folder was written before sweeps recorded their command; "
    "its spec is in manifest.json, and resuming it with `ludosim sweep` records one)"
)


def _read_runs(kind: ResultsKind) -> _Results:
    """One Parquet file (one cell, described by its metadata) or a folder of them."""
    df = load(kind.path)
    if "cell" not in df.columns:
        cell = kind.path.stem if kind.holds == "file" else "all"
        df = df.assign(cell=pd.Categorical([cell] * len(df)))
    cells = _run_cells(kind, df)
    command = (simulate_command(kind.run, kind.path) if kind.run else None) or (
        f"(not recorded: rows read from {kind.path})"
    )
    return _Results(kind, df, cells, command, cell_labels(cells), page_design(cells), cells)


def _run_cells(kind: ResultsKind, df: pd.DataFrame) -> pd.DataFrame:
    """The cells table of a file: its rules (as the nearest preset and its changes, every
    toggle), policies, games and seed, from the run description in its metadata."""
    ids = [str(c) for c in df["cell"].unique()]
    counts = df["cell"].astype(str).value_counts()
    games = [int(counts[c]) for c in ids]
    rules = _run_rules(kind.run)
    if rules is None or len(ids) != 1:
        name = kind.path.stem
        return pd.DataFrame({"cell": ids, "name": [name if c == "all" else c for c in ids],
                             "seed": None, "games": games})  # fmt: skip
    chosen = options_of(rules)
    try:
        policies = format_policies(resolve_policies(kind.run.get("policies") or "random",
                                                    rules.players))  # fmt: skip
    except LudosimError:
        policies = None
    row = {"cell": ids[0], "name": chosen.label, "variant": "", "preset": chosen.preset,
           **toggle_row(rules), "policies": policies, "games": games[0],
           "seed": kind.run.get("seed"), "rules_hash": rules.hash()}  # fmt: skip
    return pd.DataFrame([row])


def _run_rules(run: Mapping[str, Any]) -> Rules | None:
    """The rules a file's run description records, or None (none, or unreadable now)."""
    try:
        return Rules.from_dict(run["rules"]) if run.get("rules") else None
    except (LudosimError, TypeError):
        return None


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
def write_findings(path: Path, found: Sequence[Finding]) -> None:
    """`findings.json`: the page's findings as data, in the order the page states them."""
    path.write_text(json.dumps(finding_records(found), indent=1) + "\n", encoding="utf-8")


def _topics(found: Sequence[Finding]) -> list[Topic]:
    return group_findings(found, TITLES)


def group_findings(found: Sequence[Finding], titles: Mapping[str, str]) -> list[Topic]:
    """Findings grouped under a heading per topic (`titles[topic]`), headlines first."""
    topics: dict[str, Topic] = {}
    for f in found:
        topic = topics.setdefault(f.topic, Topic(titles.get(f.topic, f.topic), [], []))
        (topic.headlines if f.headline else topic.details).append(f)
    return list(topics.values())


def answer_findings(topics: Sequence[Topic], lead: str | None = None) -> list[Finding]:
    """What a page answers, for the box on its first screen: an exploratory warning
    first, then the first headline of every topic but the page's method notes
    (`about`), the topic `lead` (what the page is about) before the others; at most
    `ANSWERS` statements, so the box fits one screen."""
    headlines = [t.headlines for t in topics if t.headlines]
    warning = [f for h in headlines for f in h if f.text.startswith("Exploratory:")]
    firsts = [h[0] for h in headlines if h[0].topic != METHOD_TOPIC]
    firsts.sort(key=lambda f: f.topic != lead)  # stable: the others keep the page's order
    return [*warning, *firsts][:ANSWERS]


def _badge(f: Finding) -> Markup:
    """The badge after an unresolved statement: `not resolved` for one claim, `not all
    resolved` for a note that sums up several (some of which may be resolved)."""
    from markupsafe import Markup

    if f.resolved:
        return Markup("")
    words = "not all resolved" if f.kind == "note" else "not resolved"
    return Markup(f' <span class="badge">{words}</span>')


# A sweep run to a precision target is about the target's measure: its topic answers first.
_TARGET_TOPIC = {"first_player_advantage": "first_player", "mean_turns": "length"}
_MEASURE_TEXT = {
    "first_player_advantage": "the first-player advantage",
    "mean_turns": "the mean game length",
}


def _precision(res: _Results) -> _Precision | None:
    """The precision target of a sweep that used one, and in how many of the page's cells
    it was met."""
    target = res.kind.precision
    if target is None:
        return None
    shown = res.all_cells if res.all_cells is not None else res.cells
    status = target.cells[target.cells["cell"].astype(str).isin(shown["cell"].astype(str))]
    if status.empty:
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
    return _Precision(sentence + ".", html_table(table), len(table), bool(met.all()))


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
    section = PageSection(
        "Game length",
        text=(
            "Rounds until the winner finished: player turns divided by the players, so that "
            "games of different player counts compare. Means with 95% normal-approximation "
            "CIs, medians with 95% order-statistic (binomial) CIs; game_length.csv also has "
            "turns, rolls and, with play_to_end, turns until the game ended."
        ),
    )
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
    section = PageSection(
        "Win rates by position and seat",
        text=(
            "First-player advantage: the win rate of the player who took the first turn "
            "minus the fair share 1/players, in percentage points, and relative to the fair "
            "share in percent (the scale that compares player counts). Games without a "
            "finisher are excluded."
        ),
    )
    if mixed:
        panel = Panel("relative_pct", "relative_pct_ci_low", "relative_pct_ci_high",
                      "first player's edge (% of a fair share; 0 = fair)")  # fmt: skip
        forest = ("First-player edge per cell",
                  "Win rate of the first player over the fair share 1/players, minus one, in "
                  "percent, with its 95% CI, one row per cell, largest first; the cells have "
                  "different player counts, so only relative edges compare. The dashed line "
                  "is no edge.")  # fmt: skip
        grid = ("First-player edge across the grid", "first player's edge (% of a fair share)")
    else:
        panel = Panel("advantage_pp", "advantage_ci_low", "advantage_ci_high",
                      "first-player advantage (percentage points; 0 = fair)")  # fmt: skip
        forest = ("First-player advantage per cell",
                  "Win rate of the first player minus 1/players with its 95% CI, one row per "
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
         "advantage_ci_low", "advantage_ci_high", "relative_pct", "chi2", "dof", "p_value"]
    ]  # fmt: skip
    section.tables.append(
        PageTable(
            "First-player advantage",
            "first_player_advantage.csv",
            html_table(shown),
            "Advantage = win rate of position 0 minus 1/players, in percentage points, "
            "with 95% CI; relative_pct = the advantage over the fair share, in percent; "
            "chi-square test of equal chances for every position (p-values before the "
            "correction; the findings state them after it).",
        )
    )
    return section


def _effect_table(res: _Results, kind: str) -> pd.DataFrame:
    """The page's comparisons of one kind (`effect`, `term`), one row per change or term,
    length and first-player edge side by side, as the findings decided them."""
    table = res.found.comparisons if res.found is not None else pd.DataFrame()
    if table.empty:
        return table
    rows = table[table["kind"] == kind]
    if rows.empty:
        return rows
    keys = ["label", "cell", "base"]
    length = rows[rows["measure"] == "length"].set_index(keys)
    first = rows[rows["measure"] == "first"].set_index(keys)
    both = pd.DataFrame(index=length.index)
    for prefix, part in (("length", length), ("first", first)):
        for column in ("estimate", "ci_low", "ci_high", "p_adjusted", "resolved"):
            both[f"{prefix}_{column}"] = part[column]
    both["first_unit"] = first["unit"]
    both["players"] = first["players"]
    both["games"] = length["games"]
    both["method"] = length["method"]
    return both.reset_index()


def _first_panel(table: pd.DataFrame, delta: str) -> tuple[pd.DataFrame, Panel]:
    """The first player's edge of an effect table as one panel on one scale.

    Effects in pp within one player count are drawn in pp; rows of different player
    counts (fair shares of 50%, 33% and 25%) are drawn relative to their fair share
    (pp times the players), so that equal lengths mean equal edges.
    """
    unit = str(table["first_unit"].iloc[0])
    players = pd.to_numeric(table.get("players"), errors="coerce")
    if unit == "pp" and players is not None and players.nunique() > 1 and players.notna().all():
        table = table.copy()
        for column in ("first_estimate", "first_ci_low", "first_ci_high"):
            table[f"{column}_rel"] = table[column] * players
        axis = f"{delta} first player's edge (% of a fair share)"
        return table, Panel("first_estimate_rel", "first_ci_low_rel", "first_ci_high_rel", axis)
    axis = f"{delta} first player's edge (" + ("pp" if unit == "pp" else "% of a fair share") + ")"
    return table, Panel("first_estimate", "first_ci_low", "first_ci_high", axis)


def _toggles(res: _Results, out: Path) -> PageSection | None:
    if not _per_game(res):
        return None
    effects = _effect_table(res, "effect")
    if effects.empty:
        return None
    effects.to_csv(out / "toggle_effects.csv", index=False)
    bases = effects["base"].astype(str).unique()
    effects["shown"] = [
        (f"{res.label(b)}: " if len(bases) > 1 else "") + str(label).replace(" -> ", " → ")
        for b, label in zip(effects["base"].astype(str), effects["label"], strict=True)
    ]
    order = np.argsort(-effects["length_estimate"].abs().to_numpy(), kind="stable")
    ordered = effects.iloc[order].reset_index(drop=True)
    ordered, first_panel = _first_panel(ordered, "Δ")
    panels = [
        Panel("length_estimate", "length_ci_low", "length_ci_high", "Δ mean rounds"),
        first_panel,
    ]
    ids = sorted(set(effects["cell"].astype(str)) | set(bases))
    what = (
        "Effect of changing one toggle from its base cell (base value → new value) on mean "
        "game length in rounds and on the first player's edge, with 95% CIs paired by game "
        "(common random numbers); largest length effect first, dashed line at no effect. "
        "Which effects are resolved is decided page-wide (Holm, toggle_effects.csv)."
    )
    fig = figures.forest(ordered, ordered["shown"].tolist(), panels)
    item = page_figure(out, fig, "toggle_effects.png", "Toggle effects", _caption(res, ids, what))
    item.interactive = figures.bokeh_forest(
        ordered, ordered["shown"].tolist(), panels, {"cell": "cell", "games": "games"}
    )
    shown = effects[
        ["base", "cell", "label", "length_estimate", "length_ci_low", "length_ci_high",
         "length_resolved", "first_estimate", "first_ci_low", "first_ci_high",
         "first_resolved", "first_unit", "method"]
    ]  # fmt: skip
    return PageSection(
        "Toggle effects",
        figures=[item],
        tables=[
            PageTable(
                "Toggle effects",
                "toggle_effects.csv",
                html_table(shown),
                "95% CIs; resolved: decided by Holm's correction over every "
                "comparison of the page.",
            )
        ],
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
    if not _per_game(res):
        return None
    table = _effect_table(res, "term")
    if table.empty:
        return None
    table = table.rename(columns={"cell": "stratum"})
    table.to_csv(out / "factorial_effects.csv", index=False)
    caption = _caption(
        res,
        _cell_ids(res),
        "Main effects and two-way interactions (±1 coding: mean at the second level minus "
        "mean at the first) on rounds and on the first player's edge, with 95% CIs; resolved "
        "by Holm's correction over every comparison of the page.",
    )
    section = PageSection(
        "Factorial effects",
        tables=[
            PageTable("Factorial effects", "factorial_effects.csv", html_table(table), caption)
        ],
    )
    strata = table["stratum"].astype(str)
    labels = [
        (f"{g}: " if g else "") + str(label).replace(" -> ", " → ")
        for g, label in zip(strata, table["label"], strict=True)
    ]
    plotted, first_panel = _first_panel(table, "effect on")
    panels = [
        Panel("length_estimate", "length_ci_low", "length_ci_high", "effect on mean rounds"),
        first_panel,
    ]
    fig = figures.forest(plotted, labels, panels, groups=strata.tolist())
    what = (
        "Main effects (second level minus first, levels in brackets) and two-way "
        "interactions on mean game length in rounds and on the first player's edge, with "
        "95% CIs; dashed line at no effect."
        + (
            " The edge is drawn relative to each stratum's fair share (pp times the players), "
            "since its strata differ in player count; factorial_effects.csv holds it in pp."
            if first_panel.value.endswith("_rel")
            else ""
        )
    )
    item = page_figure(out, fig, "factorial_effects.png", "Factorial effects",
                       _caption(res, _cell_ids(res), what))  # fmt: skip
    item.interactive = figures.bokeh_forest(plotted, labels, panels)
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
#findings p.note { color: #333; }
#findings .exploratory { background: #fff6e5; border-left: 3px solid #c98a00;
                        padding: 0.4em 0.8em; }
#answer { background: #f6f9f4; border: 1px solid #b9d3ad; border-radius: 4px;
          padding: 0.2em 1em 0.4em; }
#answer h2 { margin: 0.4em 0 0.2em; font-size: 1.2em; }
#answer li { margin: 0.35em 0; }
#answer li.exploratory { background: #fff6e5; border-left: 3px solid #c98a00;
                         padding: 0.2em 0.6em; list-style: none; margin-left: -1em; }
#glossary dt { font-weight: 600; margin-top: 0.5em; }
#glossary dd { margin-left: 1.5em; font-size: 0.92em; }
.badge { font-size: 0.8em; border: 1px solid #c98a00; border-radius: 3px; padding: 0 0.3em;
         margin-left: 0.3em; }
</style>
{{ resources | safe }}
</head>
<body>
<h1>{{ title }}</h1>
{% if answers %}
<section id="answer">
<h2>In short</h2>
<ul>
{% for f in answers %}
<li class="answer {{ 'resolved' if f.resolved else 'unresolved' }} {{ f.kind }}
{%- if f.text.startswith('Exploratory:') %} exploratory{% endif %}" data-topic="{{ f.topic }}">
{{- f.text }}{{ badge(f) }}</li>
{% endfor %}
</ul>
<p class="caption">The first statement of each topic below; every interval is 95%, and
the sections that follow give the method, the precision and every statement behind these.</p>
</section>
{% endif %}
<p>{{ intro }}</p>
<p>Generated by <code>{{ command }}</code>. Every interval is 95%.
Figures are also written as PNG and tables as CSV beside this page; the findings as data in
<a href="findings.json">findings.json</a>; the words they use are explained in the
<a href="#glossary">glossary</a> at the end.</p>
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
<p class="finding headline {{ 'resolved' if f.resolved else 'unresolved' }} {{ f.kind }}
{%- if f.text.startswith('Exploratory:') %} exploratory{% endif %}"
   data-topic="{{ f.topic }}" data-kind="{{ f.kind }}">
{{- f.text }}{{ badge(f) }}</p>
{% endfor %}
{% if topic.details %}
{% if topic.folded %}
<details><summary>All {{ topic.details | length }} statements behind this</summary>
{% endif %}
<ul>
{% for f in topic.details %}
<li class="finding {{ 'resolved' if f.resolved else 'unresolved' }} {{ f.kind }}"
    data-topic="{{ f.topic }}" data-kind="{{ f.kind }}">
{{- f.text }}{{ badge(f) }}</li>
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
{% if fig.src %}
<details><summary>Static image ({{ fig.file }})</summary>
<img src="{{ fig.src }}" data-file="{{ fig.file }}" alt="{{ fig.title }}">
</details>
{% endif %}
{% else %}
<img src="{{ fig.src }}" data-file="{{ fig.file }}" alt="{{ fig.title }}">
{% endif %}
<figcaption><b>{{ fig.title }}.</b> {{ fig.caption }}
{% if fig.command %}Reproduce: <code>{{ fig.command }}</code>{% endif %}
{#- An interactive-only figure has no PNG: neither an image nor a link to show. #}
{% if fig.src %}PNG: <a href="{{ fig.file }}">{{ fig.file }}</a>{% endif %}</figcaption>
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
<section id="glossary">
<h2>Glossary</h2>
<dl>
{% for term, text in glossary %}<dt>{{ term }}</dt><dd>{{ text }}</dd>
{% endfor %}</dl>
</section>
{{ script | safe }}
</body>
</html>
"""


def _render(
    title: str,
    res: _Results,
    sections: Sequence[PageSection],
    out: Path,
    precision: _Precision | None,
) -> str:
    cells = f"{len(res.cells)} cell{'s' * (len(res.cells) != 1)}"
    intro = (
        f"{res.games:,} games in {cells}, read from {res.path}. "
        f"Reproduce the results with: {res.command}"
    )
    recorded = res.manifest if res.manifest is not None else res.kind.run
    if recorded:
        intro += (
            f" (ludosim {recorded.get('ludosim_version', '?')}, simulation semantics "
            f"version {recorded.get('semantics_version', '?')}"
            + (f"; the sweep as a file: {SPEC_FILE})" if res.kind.spec_toml else ")")
        )
    if res.kind.summary_only:
        intro += (
            " The sweep kept per-chunk totals only (summary_only): the page gives each "
            "cell's totals; figures and findings need per-game rows."
        )
    command = f"ludosim report {shlex.quote(str(res.path))} --out {shlex.quote(str(out))}"
    found = res.found.findings if res.found is not None else []
    target = res.kind.precision
    lead = _TARGET_TOPIC.get(target.measure) if target is not None else None
    return render_page(title, intro, command, _topics(found), sections, precision, lead=lead)


# The words a page's findings use, each once, as every page ends on them.
GLOSSARY: tuple[tuple[str, str], ...] = (
    (
        "resolved",
        "decided by the page's correction: a difference whose Holm-adjusted p-value "
        "is below 0.05 (its sign is then known), a value told from its reference, or the first "
        "of a ranking told from the second. A resolved difference whose 95% interval does not "
        "clear the smallest effect of interest says so: smaller than the smallest effect that "
        "matters (the whole interval inside it), or possibly below it (the interval reaching "
        "inside it).",
    ),
    (
        "not resolved",
        "not decided at this size: the data are compatible with no difference "
        "(or a tie). It is not evidence that there is none, unless the whole 95% interval lies "
        "inside the smallest effect of interest (an equivalence test), which the sentence then "
        "says: no change that matters. Otherwise a change of that size is not ruled out.",
    ),
    (
        "family and Holm's correction",
        "every comparison a page makes between cells, policies "
        "or rule changes is one test of one family, and Holm's step-down method adjusts their "
        "p-values together, so that the chance of any false claim of a difference on the page "
        "is at most 5%. Each cell against a fixed reference (its fair share, equal shares for "
        "every position) is a second family, corrected the same way.",
    ),
    (
        "policy",
        "how a seat chooses among its legal moves: random, or a named weighting of what "
        "a move does (balanced, aggressive, pacifist and others, which the command "
        "ludosim policies lists), or a skipper that sometimes ignores a forced capture.",
    ),
    (
        "fair share",
        "1 / players: the share of games a seat would win if turn order did not matter.",
    ),
    (
        "edge, relative edge",
        "the first player's win share minus its fair share, in "
        "percentage points (pp); relative to the fair share, in percent (25.67% against 25% is "
        "+0.67 pp, +2.7%). Cells of different player counts compare only relative edges.",
    ),
    (
        "round",
        "every player taking one turn: player turns divided by the players. Lengths "
        "are compared in rounds, so that games of different player counts compare.",
    ),
    (
        "with a finisher",
        "games in which a seat finished; a game stopped at max_turns without "
        "one has no winner and is left out of win shares.",
    ),
    (
        "paired by game",
        "both cells played game g from the same dice (the common random "
        "numbers of a sweep), so a difference is taken game by game, which removes the noise the "
        "two share. Cells of different seats or games are independent samples.",
    ),
    (
        "smallest effect of interest",
        "the smallest difference worth a family's attention, "
        "stated before the games are played (defaults: 1 round of length, 1% of a fair share "
        'of first-player edge, 1 pp of win share). Sizes such as "needs about N games per '
        "cell\" come from it and the family's level, never from an observed estimate.",
    ),
    (
        "exploratory",
        "a run smaller than its smallest effects of interest need, without a "
        "precision target it met: its findings are leads to confirm, not results to quote.",
    ),
    (
        "the same games",
        "cells whose rules differ only in a toggle that cannot act (such as "
        "detect_skip when no seat skips) play the same games; they are counted once.",
    ),
    (
        "95% CI",
        "the 95% confidence interval: the range of true values compatible with the "
        "games played. Every interval on a page is 95%.",
    ),
)


def write_study_page(
    folder: Path,
    title: str,
    intro: str,
    command: str,
    found: Sequence[Finding],
    titles: Mapping[str, str],
    sections: Sequence[PageSection],
    glossary: Sequence[tuple[str, str]] = (),
) -> Path:
    """A study's page into `folder`: `index.html` (findings grouped under `titles`,
    then the sections, then the shared glossary and the study's own `glossary`
    terms) and `findings.json` beside it. Returns the page's path.

    A study's term named like a shared one replaces it in place: a study that states a
    measure in its own unit explains that unit, not the shared pages' other one."""
    own = dict(glossary)
    shared = [(term, own.pop(term, text)) for term, text in GLOSSARY]
    html = render_page(title, intro, command, group_findings(found, titles), sections,
                       glossary=(*shared, *own.items()))  # fmt: skip
    page = folder / "index.html"
    page.write_text(html, encoding="utf-8")
    write_findings(folder / FINDINGS_FILE, found)
    return page


def render_page(
    title: str,
    intro: str,
    command: str,
    topics: Sequence[Topic],
    sections: Sequence[PageSection],
    precision: _Precision | None = None,
    glossary: Sequence[tuple[str, str]] = GLOSSARY,
    lead: str | None = None,
) -> str:
    """The single-file HTML page: title, the answer box (`answer_findings`; `lead`, the
    topic the page is about, first), intro, the command that wrote it, findings,
    sections and the glossary of the words its findings use.

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
    topics = list(topics)
    return env.from_string(_TEMPLATE).render(
        title=title,
        intro=intro,
        command=command,
        answers=answer_findings(topics, lead),
        badge=_badge,
        topics=topics,
        precision=precision,
        sections=sections,
        glossary=list(glossary),
        resources=resources,
        script=script,
    )
