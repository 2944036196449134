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

import math
import os
import shlex
import shutil
from collections.abc import Sequence
from pathlib import Path

import pandas as pd

from ludosim.report.finding import Finding
from ludosim.report.htmlpage import (
    FINDINGS_FILE,
    GLOSSARY,
    WITH_A_WINNER,
    PageFigure,
    PageSection,
    Topic,
    _Precision,
    group_findings,
    html_table,
    render_page,
    write_findings,
)
from ludosim.report.sweeppage.cellstable import _cells, _summaries
from ludosim.report.sweeppage.factorial import _factorial_section
from ludosim.report.sweeppage.firstplayer import _win_rates
from ludosim.report.sweeppage.gamelength import _lengths
from ludosim.report.sweeppage.pagestate import ends_by_points
from ludosim.report.sweeppage.policyranking import _tournament
from ludosim.report.sweeppage.readresults import SPEC_FILE, _read
from ludosim.report.sweeppage.skipcost import _skip
from ludosim.report.sweeppage.sweepfindings import TITLES, page_findings
from ludosim.report.sweeppage.sweepresults import _Results
from ludosim.report.sweeppage.toggleeffects import _toggles
from ludosim.results import FolderNotCreated, output_folder
from ludosim.results.failures import reason, write_error
from ludosim.rules import checks
from ludosim.rules.errors import LudosimError

COMPARISONS_FILE = "comparisons.csv"


class ReportError(LudosimError, ValueError):
    """The report cannot be written where asked."""


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
    title = checks.optional_text("title", title, error=ReportError)
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
    for build in (
        _summaries,
        _lengths,
        _win_rates,
        _toggles,
        _skip,
        _tournament,
        _factorial_section,
    ):
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


def _topics(found: Sequence[Finding]) -> list[Topic]:
    return group_findings(found, TITLES)


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
    glossary = GLOSSARY
    if ends_by_points(res.cells):
        # The term the page's win shares use, in place of "with a finisher".
        glossary = tuple(WITH_A_WINNER if t == "with a finisher" else (t, d) for t, d in GLOSSARY)
        limits = pd.to_numeric(res.cells.set_index("cell")["move_limit"], errors="coerce")
        limited = res.df[res.df["cell"].astype(str).map(limits.fillna(0)) > 0]
        level = int(((limited["winner"] < 0) & ~limited["truncated"].astype(bool)).sum())
        intro += (
            f". Of the {len(limited):,} games whose move limit ends them by points, "
            f"{level:,} ({100 * level / max(len(limited), 1):.1f}%) ended level: they have "
            "no winner."
        )
    return render_page(title, intro, command, _topics(found), sections, precision,
                       glossary=glossary, lead=lead)  # fmt: skip
