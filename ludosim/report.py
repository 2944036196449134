"""HTML report of a results folder: figures (PNG), tables (CSV) and one `index.html`.

    make_report("runs/toggles", "reports/toggles")   # -> reports/toggles/index.html

The report reads only results (`ludosim.results.load`, its cells table and manifest)
and computes everything with `ludosim.analysis`. Sections appear when the results
hold what they need: game length and win rates always; a tornado chart when cells
differ from a base in one toggle each; the skip-cost curve when `detect_skip` varies
and a seat plays `skipper:Q`; the policy table when policies differ; factorial
effects when a grid crosses two or more two-level toggles.

Every figure's caption says what was simulated (preset, changed toggles, policies,
games, seed) and the command that reproduces it. The sweep is also written back as
`sweep.toml` beside the page, so a sweep that cannot be written as one command line
(variants with their own settings) is still one command away.

matplotlib is imported inside the plotting helpers and drives an Agg canvas directly
(never pyplot), so importing this module is cheap and it never changes the backend of
a notebook that calls it. jinja2 is imported when the page is rendered.
"""

from __future__ import annotations

import math
import shlex
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from ludosim import analysis
from ludosim.errors import LudosimError
from ludosim.results import ResultsError, load, load_cells, load_manifest
from ludosim.rules import PRESETS, TOGGLES, Rules, format_value, parse_value

if TYPE_CHECKING:
    from matplotlib.figure import Figure

# Cells listed by name in a caption; more are summarised (cells.csv lists them all).
CAPTION_CELLS = 8
SPEC_FILE = "sweep.toml"
DEFAULT_CHUNK_SIZE = 250_000  # ludosim.sweep.DEFAULT_CHUNK_SIZE; only omitted from commands


class ReportError(LudosimError, ValueError):
    """The report cannot be written where asked."""


@dataclass
class _Figure:
    file: str
    title: str
    caption: str
    command: str = ""  # reproduces the results the figure shows


@dataclass
class _Table:
    title: str
    csv: str
    html: str
    caption: str
    command: str = ""


@dataclass
class _Section:
    title: str
    text: str = ""
    figures: list[_Figure] = field(default_factory=list)
    tables: list[_Table] = field(default_factory=list)


@dataclass
class _Results:
    """What the report is made of: rows, the cells table and where they came from."""

    path: Path
    df: pd.DataFrame
    cells: pd.DataFrame
    manifest: dict[str, Any] | None
    command: str  # reproduces the results

    def label(self, cell: str) -> str:
        return analysis.describe_cells(self.cells).get(cell, cell)


# ------------------------------------------------------------------------- public
def make_report(results_path: str | Path, out_dir: str | Path, title: str | None = None) -> Path:
    """Write `index.html`, its PNG figures and CSV tables into `out_dir`; return the page.

    `results_path` is anything `ludosim.results.load` reads: a sweep folder (the full
    report), a part of one, or a single Parquet file (`simulate --out`: one cell, no
    provenance beyond the file). Raises `ResultsError` when nothing can be read and
    `ReportError` when `out_dir` cannot be created.
    """
    out = Path(out_dir)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportError(f"cannot create the report folder {out}: {exc}; choose --out") from None
    res = _read(Path(results_path), out)
    sections = [_overview(res, out)]
    for build in (_lengths, _win_rates, _toggles, _skip, _tournament, _factorial):
        section = build(res, out)
        if section is not None:
            sections.append(section)
    for section in sections:
        # Every figure, and every table whose caption says what was simulated, says how.
        for item in [*section.figures, *section.tables]:
            if isinstance(item, _Figure) or "Simulated:" in item.caption:
                item.command = res.command
    name = res.manifest.get("spec", {}).get("name") if res.manifest else None
    page_title = title or f"ludosim report: {name or res.path.name}"
    page = out / "index.html"
    page.write_text(_render(page_title, res, sections, out), encoding="utf-8")
    return page


def sweep_command(spec: Mapping[str, Any], out: str | Path) -> str | None:
    """The `ludosim sweep` command line of a manifest's spec, or None if options cannot say it.

    Variants with their own `set` or policies exist only in sweep files; for those the
    report writes `sweep.toml` instead (see `spec_toml`).
    """
    words = ["ludosim", "sweep"]
    if spec.get("preset"):
        words += ["--preset", str(spec["preset"])]
    for variant in spec.get("variants") or []:
        if variant.get("set") or variant.get("policies"):
            return None
        words += ["--variant", f"{variant['name']}={variant.get('preset') or spec['preset']}"]
    for key, value in (spec.get("set") or {}).items():
        words += ["--set", f"{key}={_option_text(value)}"]
    for key, values in (spec.get("vary") or {}).items():
        words += ["--vary", f"{key}=" + ",".join(_vary_text(v) for v in values)]
    if spec.get("mode", "grid") != "grid":
        words += ["--mode", str(spec["mode"])]
    policies = spec.get("policies", "random")
    if policies != "random":
        words += ["--policy", _option_text(policies)]
    words += ["--games", str(spec["games"]), "--seed", str(spec["seed"])]
    if spec.get("chunk_size", DEFAULT_CHUNK_SIZE) != DEFAULT_CHUNK_SIZE:
        words += ["--chunk-size", str(spec["chunk_size"])]
    if spec.get("summary_only"):
        words.append("--summary-only")
    words += ["--out", str(out)]
    return " ".join(shlex.quote(w) for w in words)


def spec_toml(spec: Mapping[str, Any]) -> str:
    """A manifest's spec as a sweep file (`ludosim sweep FILE` plays the same cells)."""
    lines = ["# Written by ludosim report from the sweep's manifest.json"]
    for key in ("name", "preset", "mode", "policies", "games", "seed", "chunk_size"):
        if spec.get(key) is not None:
            lines.append(f"{key} = {_toml(spec[key])}")
    if spec.get("summary_only"):
        lines.append("summary_only = true")
    for table in ("set", "vary"):
        if spec.get(table):
            lines += ["", f"[{table}]"]
            lines += [f"{k} = {_toml(v)}" for k, v in spec[table].items()]
    for variant in spec.get("variants") or []:
        lines += ["", f"[variants.{_toml_key(variant['name'])}]"]
        if variant.get("preset"):
            lines.append(f"preset = {_toml(variant['preset'])}")
        if variant.get("policies"):
            lines.append(f"policies = {_toml(variant['policies'])}")
        if variant.get("set"):
            lines += ["", f"[variants.{_toml_key(variant['name'])}.set]"]
            lines += [f"{k} = {_toml(v)}" for k, v in variant["set"].items()]
    return "\n".join(lines) + "\n"


# -------------------------------------------------------------------- reading
def _read(path: Path, out: Path) -> _Results:
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
        (out / SPEC_FILE).write_text(spec_toml(spec), encoding="utf-8")
        command = sweep_command(spec, path) or (
            f"ludosim sweep {shlex.quote(str(out / SPEC_FILE))} --out {shlex.quote(str(path))}"
        )
        return _Results(path, df, cells, manifest, command)
    df = load(path)
    if "cell" not in df.columns:
        df = df.assign(cell=pd.Categorical(["all"] * len(df)))
    ids = [str(c) for c in df["cell"].unique()]
    cells = pd.DataFrame(
        {"cell": ids, "name": [path.stem if c == "all" else c for c in ids], "seed": None}
    )
    counts = df["cell"].astype(str).value_counts()
    cells["games"] = [int(counts[c]) for c in ids]
    return _Results(path, df, cells, None, f"(no sweep manifest: rows read from {path})")


# ---------------------------------------------------------------- provenance
def _changed_toggles(row: pd.Series) -> list[str]:
    """`toggle=value` for each toggle of a cell that differs from its preset."""
    preset = str(row.get("preset") or "")
    if preset not in PRESETS:
        return []
    base = Rules.preset(preset)
    changed = []
    for name in TOGGLES:
        if name not in row.index:
            continue
        value = row[name]
        value = value.item() if isinstance(value, np.generic) else value
        try:
            same = parse_value(name, value) == getattr(base, name)
        except (LudosimError, TypeError, ValueError):
            same = str(value) == format_value(getattr(base, name))
        if not same:
            text = format_value(value) if isinstance(value, tuple) else str(value)
            changed.append(f"{name}={text}")
    return changed


def _describe(res: _Results, cell_ids: Sequence[str]) -> str:
    """What was simulated for these cells: rules, policies, games, seed."""
    cells = res.cells.set_index(res.cells["cell"].astype(str))
    parts = []
    for cell in list(cell_ids)[:CAPTION_CELLS]:
        if cell not in cells.index:
            continue
        row = cells.loc[cell]
        preset = row.get("preset")
        rules = (
            f"preset {preset}" + "".join(f", {c}" for c in _changed_toggles(row))
            if isinstance(preset, str) and preset
            else "rules not recorded"
        )
        policies = row.get("policies") if "policies" in row.index else None
        parts.append(
            f"{cell} “{row.get('name', cell)}”: {rules}; policies "
            f"{policies if isinstance(policies, str) else 'not recorded'}"
        )
    more = len(cell_ids) - CAPTION_CELLS
    if more > 0:
        parts.append(f"and {more} more cells (cells.csv)")
    games = sorted({int(g) for g in cells.loc[[c for c in cell_ids if c in cells.index], "games"]})
    seeds = (
        sorted({int(s) for s in cells["seed"].dropna()})
        if "seed" in cells.columns and cells["seed"].notna().any()
        else []
    )
    games_text = "/".join(f"{g:,}" for g in games) + " games per cell"
    seed_text = f"seed {', '.join(map(str, seeds))}" if seeds else "seed not recorded"
    return "Simulated: " + "; ".join(parts) + f". {games_text}, {seed_text}."


def _caption(res: _Results, cell_ids: Sequence[str], what: str) -> str:
    """What the figure shows and what was simulated; the template adds the command."""
    return f"{what} {_describe(res, cell_ids)}"


# ------------------------------------------------------------------- sections
def _overview(res: _Results, out: Path) -> _Section:
    shown = [
        c
        for c in ("cell", "name", "variant", "preset", "policies", "games", "seed", "rules_hash")
        if c in res.cells.columns
    ]
    varying = [
        c for c in analysis.toggle_columns(res.cells) if res.cells[c].astype(str).nunique() > 1
    ]
    table = res.cells[shown[:4] + varying + shown[4:]]
    res.cells.to_csv(out / "cells.csv", index=False)
    text = (
        f"{len(res.df):,} games in {len(res.cells)} cell(s), read from {res.path}. "
        f"Reproduce the results with: {res.command}"
    )
    if res.manifest is not None:
        text += (
            f" (ludosim {res.manifest.get('ludosim_version', '?')}, simulation semantics "
            f"version {res.manifest.get('semantics_version', '?')}; the sweep as a file: "
            f"{SPEC_FILE})"
        )
    caption = "One row per cell: its toggles that differ between cells, policies, games, seed."
    return _Section(
        "Cells",
        text=text,
        tables=[_Table("Cells", "cells.csv", _html_table(table), caption)],
    )


def _lengths(res: _Results, out: Path) -> _Section | None:
    if "turns" not in res.df.columns:
        return None
    stats = analysis.game_length(res.df, by="cell")
    stats.insert(1, "name", stats["cell"].astype(str).map(res.label))
    stats.to_csv(out / "game_length.csv", index=False)
    dist = analysis.length_distribution(res.df, "turns", by="cell")
    dist.to_csv(out / "length_distribution.csv", index=False)
    section = _Section(
        "Game length",
        text=(
            "Player turns until the winner finished. Means with 95% normal-approximation "
            "CIs, medians with 95% order-statistic (binomial) CIs; game_length.csv also has "
            "rolls and, with play_to_end, turns until the game ended."
        ),
    )
    for group, cell_ids in _variant_groups(res).items():
        file = f"length{_slug(group)}.png"
        _save(lambda fig, ids=cell_ids: _plot_lengths(fig, res, dist, ids), out / file, (10, 4))
        what = "Distribution of game length in player turns (histogram and CDF)."
        section.figures.append(
            _Figure(
                file, f"Game length{' — ' + group if group else ''}", _caption(res, cell_ids, what)
            )
        )
    shown = stats[stats["measure"] == "turns"][
        ["cell", "name", "games", "mean", "mean_ci_low", "mean_ci_high", "median",
         "median_ci_low", "median_ci_high", "q05", "q95"]
    ]  # fmt: skip
    section.tables.append(
        _Table("Turns per game", "game_length.csv", _html_table(shown), "95% CIs.")
    )
    return section


def _win_rates(res: _Results, out: Path) -> _Section | None:
    if not {"winner", "first"} <= set(res.df.columns):
        return None
    by_position = analysis.first_player_advantage(res.df, by="cell")
    by_seat = analysis.seat_win_rates(res.df, by="cell")
    by_position.to_csv(out / "first_player_advantage.csv", index=False)
    by_seat.to_csv(out / "seat_win_rates.csv", index=False)
    ids = _cell_ids(res)
    _save(
        lambda fig: _plot_win_rates(fig, res, by_position, by_seat), out / "win_rates.png", (10, 4)
    )
    first = by_position[by_position["position"] == 0].copy()
    first.insert(1, "name", first["cell"].astype(str).map(res.label))
    shown = first[
        ["cell", "name", "players", "games", "excluded", "win_rate", "advantage_pp",
         "advantage_ci_low", "advantage_ci_high", "chi2", "dof", "p_value"]
    ]  # fmt: skip
    what = (
        "Win rate with Wilson 95% CIs by turn-order position (0 = took the first turn) and "
        "by seat; the dashed line is 1/players. Games without a finisher are excluded."
    )
    return _Section(
        "Win rates by position and seat",
        figures=[_Figure("win_rates.png", "Win rates", _caption(res, ids, what))],
        tables=[
            _Table(
                "First-player advantage",
                "first_player_advantage.csv",
                _html_table(shown),
                "Advantage = win rate of position 0 minus 1/players, in percentage points, "
                "with 95% CI; chi-square test of equal chances for every position.",
            )
        ],
    )


def _toggles(res: _Results, out: Path) -> _Section | None:
    if not _per_game(res) or len(res.cells) < 2 or not analysis.find_baselines(res.cells):
        return None
    effects = analysis.toggle_effects(res.df, res.cells)
    if effects.empty:
        return None
    effects.to_csv(out / "toggle_effects.csv", index=False)
    _save(lambda fig: _plot_tornado(fig, res, effects), out / "tornado.png",
          (10, 1.2 + 0.45 * len(effects)))  # fmt: skip
    ids = sorted(set(effects["cell"]) | set(effects["base"]))
    what = (
        "Effect of changing one toggle from the base cell on mean game length (turns) and on "
        "the first-player advantage (percentage points), with 95% CIs paired by game "
        "(common random numbers)."
    )
    shown = effects[
        ["base", "cell", "toggle", "base_value", "value", "turns_effect", "turns_ci_low",
         "turns_ci_high", "fpa_effect_pp", "fpa_ci_low", "fpa_ci_high", "method"]
    ]  # fmt: skip
    return _Section(
        "Toggle effects",
        figures=[_Figure("tornado.png", "Toggle effects (tornado)", _caption(res, ids, what))],
        tables=[_Table("Toggle effects", "toggle_effects.csv", _html_table(shown), "95% CIs.")],
    )


def _skip(res: _Results, out: Path) -> _Section | None:
    df = res.df
    if not _per_game(res) or not {"detect_skip", "policies"} <= set(df.columns):
        return None
    if (
        df["detect_skip"].nunique() < 2
        or not df["policies"].astype(str).str.contains("skipper:").any()
    ):
        return None
    seats = sorted(
        {
            s
            for text, rows in df.groupby("policies", observed=True, sort=False)
            for s, p in enumerate(analysis._seat_policies(text, analysis.players_of(rows)))
            if p.startswith("skipper:")
        }
    )
    curves = []
    for seat in seats:
        try:
            curves.append(analysis.skip_cost(df, seat))
        except analysis.AnalysisError:
            continue  # that seat's policies do not form a skipper-vs-baseline pair
    if not curves:
        return None
    curve = pd.concat(curves, ignore_index=True)
    curve.to_csv(out / "skip_cost.csv", index=False)
    _save(lambda fig: _plot_skip(fig, curve), out / "skip_cost.png", (7, 4))
    what = (
        "Win-rate change of the skipping seat against the same seat playing its baseline "
        "policy, by detection probability (detect_skip), with 95% CIs paired by game; the "
        "dotted line marks where skipping stops paying (linear interpolation)."
    )
    return _Section(
        "Cost of skipping forced captures",
        figures=[_Figure("skip_cost.png", "Skip cost", _caption(res, _cell_ids(res), what))],
        tables=[_Table("Skip cost", "skip_cost.csv", _html_table(curve), "95% CIs.")],
    )


def _tournament(res: _Results, out: Path) -> _Section | None:
    if not _per_game(res) or "policies" not in res.df.columns:
        return None
    table = analysis.win_table(res.df)
    if len(table) < 2:
        return None  # one policy everywhere: nothing to compare
    table.to_csv(out / "win_table.csv", index=False)
    caption = _caption(
        res,
        _cell_ids(res),
        "Win rate of each policy pooled over every seat and cell it played, Wilson 95% CIs; "
        "fair = mean of 1/players. Truncated games without a finisher count as losses.",
    )
    return _Section(
        "Policies",
        tables=[_Table("Win rate per policy", "win_table.csv", _html_table(table), caption)],
    )


def _factorial(res: _Results, out: Path) -> _Section | None:
    if not _per_game(res) or (res.manifest or {}).get("spec", {}).get("mode") != "grid":
        return None
    vary = (res.manifest.get("spec") or {}).get("vary") or {}
    factors = [k for k, v in vary.items() if len(v) == 2 and k in res.cells.columns]
    if len(factors) < 2:
        return None
    try:
        table = pd.concat(
            [
                analysis.factorial_effects(res.df, res.cells, factors, r)
                for r in ("turns", "first_win")
            ],
            ignore_index=True,
        )
    except analysis.AnalysisError:
        return None
    table.to_csv(out / "factorial_effects.csv", index=False)
    caption = _caption(
        res,
        _cell_ids(res),
        "Main effects and two-way interactions (±1 coding: mean at the second level minus "
        "mean at the first) on turns and on the first player's win rate, with 95% CIs.",
    )
    return _Section(
        "Factorial effects",
        tables=[_Table("Factorial effects", "factorial_effects.csv", _html_table(table), caption)],
    )


# ----------------------------------------------------------------- plotting
def _save(draw: Callable[[Figure], None], path: Path, size: tuple[float, float]) -> None:
    """Draw on a fresh Agg figure and write it as PNG (no pyplot, no global state)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=size, layout="constrained")
    FigureCanvasAgg(fig)
    draw(fig)
    fig.savefig(path, dpi=100)


def _plot_lengths(fig: Figure, res: _Results, dist: pd.DataFrame, cell_ids: Sequence[str]) -> None:
    """Histogram and CDF from the distinct lengths and their counts (never millions of points)."""
    hist, cdf = fig.subplots(1, 2)
    shown = dist[dist["cell"].astype(str).isin(cell_ids)]
    bins = np.histogram_bin_edges(shown["value"].to_numpy(float), bins=40)
    for cell in cell_ids:
        rows = shown[shown["cell"].astype(str) == cell]
        values = rows["value"].to_numpy(float)
        density, _ = np.histogram(values, bins=bins, weights=rows["count"], density=True)
        label = res.label(cell)
        hist.stairs(density, bins, label=label)
        cdf.step(values, rows["cdf"].to_numpy(float), where="post", label=label)
    hist.set(xlabel="turns", ylabel="density", title="Histogram")
    cdf.set(xlabel="turns", ylabel="P(turns ≤ x)", title="CDF")
    cdf.legend(fontsize="small")


def _plot_win_rates(
    fig: Figure, res: _Results, by_position: pd.DataFrame, by_seat: pd.DataFrame
) -> None:
    axes = fig.subplots(1, 2, sharey=True)
    for ax, table, key in ((axes[0], by_position, "position"), (axes[1], by_seat, "seat")):
        ids = list(dict.fromkeys(table["cell"].astype(str)))
        width = 0.8 / max(len(ids), 1)
        for i, cell in enumerate(ids):
            rows = table[table["cell"].astype(str) == cell]
            x = rows[key].to_numpy(float) - 0.4 + width * (i + 0.5)
            y = rows["win_rate"].to_numpy(float)
            err = np.vstack(
                [y - rows["ci_low"].to_numpy(float), rows["ci_high"].to_numpy(float) - y]
            )
            ax.errorbar(x, y, yerr=err, fmt="o", capsize=3, label=res.label(cell))
            for fair in rows["fair"].unique():
                ax.axhline(fair, color="grey", linestyle="--", linewidth=0.8)
        ax.set(xlabel=f"turn-order {key}" if key == "position" else "seat", ylabel="win rate")
        ax.set_xticks(sorted(table[key].unique()))
    axes[0].set_title("By turn-order position (0 = first)")
    axes[1].set_title("By seat")
    axes[1].legend(fontsize="small")


def _plot_tornado(fig: Figure, res: _Results, effects: pd.DataFrame) -> None:
    ordered = effects.iloc[
        np.argsort(-effects["turns_effect"].abs().to_numpy(), kind="stable")[::-1]
    ]
    labels = [
        f"{res.label(b)}: {t} {bv} → {v}"
        for b, t, bv, v in zip(
            ordered["base"], ordered["toggle"], ordered["base_value"], ordered["value"], strict=True
        )
    ]
    y = np.arange(len(ordered))
    turns, fpa = fig.subplots(1, 2, sharey=True)
    for ax, col, low, high, xlabel in (
        (turns, "turns_effect", "turns_ci_low", "turns_ci_high", "Δ mean turns"),
        (fpa, "fpa_effect_pp", "fpa_ci_low", "fpa_ci_high", "Δ first-player advantage (pp)"),
    ):
        values = ordered[col].to_numpy(float)
        err = np.vstack(
            [values - ordered[low].to_numpy(float), ordered[high].to_numpy(float) - values]
        )
        ax.barh(y, values, xerr=err, capsize=3, color=np.where(values >= 0, "tab:red", "tab:blue"))
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_xlabel(xlabel)
    turns.set_yticks(y, labels)


def _plot_skip(fig: Figure, curve: pd.DataFrame) -> None:
    ax = fig.subplots()
    for (seat, policy), rows in curve.groupby(["seat", "policy"], sort=False):
        x = rows["detect_skip"].to_numpy(float)
        y = 100 * rows["diff"].to_numpy(float)
        err = 100 * np.vstack(
            [rows["diff"] - rows["diff_ci_low"], rows["diff_ci_high"] - rows["diff"]]
        )
        ax.errorbar(x, y, yerr=err, fmt="o-", capsize=3, label=f"seat {seat}: {policy}")
        even = float(rows["break_even"].iloc[0])
        if not math.isnan(even):
            ax.axvline(even, linestyle=":", color="grey")
    ax.axhline(0, color="black", linewidth=0.8)
    ax.set(xlabel="detect_skip (probability a skip is caught)", ylabel="Δ win rate (pp)")
    ax.legend(fontsize="small")


# ------------------------------------------------------------------ helpers
def _per_game(res: _Results) -> bool:
    """Per-game rows with winners and first players (a summary-only sweep has none)."""
    return res.manifest is not None and {"turns", "winner", "first"} <= set(res.df.columns)


def _cell_ids(res: _Results) -> list[str]:
    return [str(c) for c in res.cells["cell"]]


def _variant_groups(res: _Results) -> dict[str, list[str]]:
    """Cells per variant (one figure each); one unnamed group without variants."""
    if "variant" not in res.cells.columns or res.cells["variant"].fillna("").eq("").all():
        return {"": _cell_ids(res)}
    groups: dict[str, list[str]] = {}
    for cell, variant in zip(res.cells["cell"], res.cells["variant"].fillna(""), strict=True):
        groups.setdefault(str(variant), []).append(str(cell))
    return groups


def _slug(text: str) -> str:
    clean = "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-")
    return f"-{clean}" if clean else ""


def _html_table(df: pd.DataFrame) -> str:
    return df.to_html(
        index=False, border=0, classes="data", na_rep="", float_format=lambda v: f"{v:.4g}"
    )


def _option_text(value: Any) -> str:
    """A value as `--set`/`--policy` text: lists with commas, booleans lower case."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple)):
        return ",".join(_option_text(v) for v in value)
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _vary_text(value: Any) -> str:
    # A value with commas of its own is bracketed, as `--vary` reads it.
    text = _option_text(value)
    return f"[{text}]" if isinstance(value, (list, tuple)) else text


def _toml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if value is None:
        return '""'
    text = str(value).replace("\\", "\\\\").replace('"', '\\"')
    return f'"{text}"'


def _toml_key(key: str) -> str:
    return key if key.replace("-", "").replace("_", "").isalnum() else _toml(key)


_TEMPLATE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{{ title }}</title>
<style>
body { font-family: system-ui, sans-serif; max-width: 1100px; margin: 2em auto; padding: 0 1em;
       color: #222; }
figure { margin: 1.5em 0; }
figure img { max-width: 100%; border: 1px solid #ddd; }
figcaption, .caption { font-size: 0.9em; color: #444; }
code { background: #f4f4f4; padding: 0 0.2em; }
table.data { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0; }
table.data th, table.data td { border-bottom: 1px solid #ddd; padding: 0.2em 0.6em;
                               text-align: right; }
.scroll { overflow-x: auto; }
</style>
</head>
<body>
<h1>{{ title }}</h1>
<p>Generated by <code>ludosim report {{ results }} --out {{ out }}</code>. Every interval is 95%.
Tables are also written as CSV beside this page.</p>
{% for section in sections %}
<section>
<h2>{{ section.title }}</h2>
{% if section.text %}<p>{{ section.text }}</p>{% endif %}
{% for fig in section.figures %}
<figure>
<img src="{{ fig.file }}" alt="{{ fig.title }}">
<figcaption><b>{{ fig.title }}.</b> {{ fig.caption }}
{% if fig.command %}Reproduce: <code>{{ fig.command }}</code>{% endif %}</figcaption>
</figure>
{% endfor %}
{% for table in section.tables %}
<h3>{{ table.title }}</h3>
<div class="scroll">{{ table.html | safe }}</div>
<p class="caption">{{ table.caption }}
{% if table.command %}Reproduce: <code>{{ table.command }}</code>{% endif %}
CSV: <a href="{{ table.csv }}">{{ table.csv }}</a></p>
{% endfor %}
</section>
{% endfor %}
</body>
</html>
"""


def _render(title: str, res: _Results, sections: Sequence[_Section], out: Path) -> str:
    import jinja2

    # autoescape: captions hold toggle values and file names, not trusted HTML.
    env = jinja2.Environment(autoescape=True, undefined=jinja2.StrictUndefined)
    return env.from_string(_TEMPLATE).render(
        title=title,
        results=shlex.quote(str(res.path)),
        out=shlex.quote(str(out)),
        sections=sections,
    )
