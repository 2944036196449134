"""Figures of a report, static (matplotlib, PNG); their interactive twins (Bokeh, inline
HTML) are in `ludosim.report.interactive`.

Every function takes tidy tables that `ludosim.report.analysis` wrote and labels that the
caller already spelled (the report uses the CLI's spelling of values), and returns a
matplotlib `Figure` on an Agg canvas (never pyplot, so a notebook's backend is left
alone). Which figure suits which results is the report's choice;
this module only draws, and sizes each figure by what it holds:

- `forest`: one row per item (cell, effect, term) with a dot and its 95% interval,
  on panels that share the rows; the height grows with the rows, so 1 and 100 rows
  read alike and no label is clipped.
- `heatmap_grid`: a full-factorial grid as small multiples, two factors on the
  axes of each panel and one panel per combination of the others.
- `length_overlay`: a few length distributions on one shared x axis, means marked.
- `rate_dots`: win rates by turn-order position and seat for a few cells.
- `rate_heatmap`: the same for many cells, as differences from a fair share.
- `ranking`: policies ranked by win rate, with intervals.
- `curve`: an effect against a numeric setting (the skip-cost curve).
- `win_chance_curves`: the leader's win chance against its lead, a panel per phase
  and a line per rule set with its interval band.
- `share_lines`: a distribution (share per value) per rule set, as lines.
- `race_check`: simulated win shares with intervals against exact chances.
- `front`: a design's predicted rule sets on two measures, the front between them and
  the confirmed ones as measured.
- `prediction_check`: a model's predictions against measurements it was not fitted on.

Legends always sit outside the axes. matplotlib is imported inside the functions that
need it; importing this module costs nothing and the simulation
kernel never imports it.
"""

from __future__ import annotations

import base64
import io
import math
import textwrap
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

WIDTH = 9.0  # inches; PNGs are written at DPI, so 900 px wide
DPI = 100
ROW_HEIGHT = 0.24  # inches per row of a forest or heatmap
BASE_HEIGHT = 1.3  # inches for titles, axis labels and ticks
FONT_SIZE = 9
COLORS = ("tab:blue", "tab:orange", "tab:green", "tab:red", "tab:purple", "tab:brown")
POINT = "#1f4e79"


@dataclass(frozen=True)
class Panel:
    """One panel of a forest plot: which columns hold the dot and its interval."""

    value: str
    low: str
    high: str
    xlabel: str
    reference: float | None = 0.0  # a vertical line (no effect, fair share); None: none
    fmt: str = "{:.1f}"  # the value as hover text shows it
    log: bool = False  # a logarithmic x axis (values spanning decades, such as game counts)


# --------------------------------------------------------------------- static
def new_figure(width: float, height: float) -> Figure:
    """A blank figure on its own Agg canvas with constrained layout (nothing clipped)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    fig = Figure(figsize=(width, height), layout="constrained", dpi=DPI)
    FigureCanvasAgg(fig)
    return fig


def png_bytes(fig: Figure) -> bytes:
    """The figure as PNG; `bbox_inches="tight"` keeps every label inside the image."""
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=DPI, bbox_inches="tight", pad_inches=0.1)
    return buffer.getvalue()


def data_uri(png: bytes) -> str:
    """A PNG as a `data:` URI for an `<img src>` that needs no file beside the page."""
    return "data:image/png;base64," + base64.b64encode(png).decode("ascii")


LABEL_WIDTH = 60  # characters of a forest's row label before it wraps


def rows_height(rows: int, extra: float = 0.0) -> float:
    """Figure height in inches for `rows` rows of labels."""
    return BASE_HEIGHT + extra + ROW_HEIGHT * max(rows, 1)


def forest(
    table: pd.DataFrame,
    labels: Sequence[str],
    panels: Sequence[Panel],
    title: str = "",
    groups: Sequence[str] | None = None,
) -> Figure:
    """Dot-and-interval rows, first row at the top, panels side by side sharing the rows.

    `table` has one row per label, already in the order to draw (the caller sorts).
    `groups` (one key per row, equal keys adjacent) shades every other group, so rows
    that belong together read as a block.
    """
    import matplotlib as mpl
    from matplotlib.ticker import FuncFormatter, LogLocator, MaxNLocator, NullFormatter

    n = len(labels)
    # Long labels (a base and its change, a list of seats' policies) wrap onto more lines,
    # so that they do not squeeze the panels; the rows grow with them.
    labels = [textwrap.fill(str(label), LABEL_WIDTH, break_long_words=False,
                            break_on_hyphens=False) for label in labels]  # fmt: skip
    lines = max((label.count("\n") + 1 for label in labels), default=1)
    fig = new_figure(WIDTH, rows_height(n, ROW_HEIGHT * n * (lines - 1) * 0.8))
    axes = fig.subplots(1, len(panels), sharey=True, squeeze=False)[0]
    y = np.arange(n)
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for ax, panel in zip(axes, panels, strict=True):
            value = table[panel.value].to_numpy(float)
            low = table[panel.low].to_numpy(float)
            high = table[panel.high].to_numpy(float)
            # A bootstrap percentile interval may miss its own point estimate (few refits,
            # a skewed statistic): the bar then ends at the dot.
            err = np.clip(np.vstack([value - low, high - value]), 0.0, None)
            ax.errorbar(value, y, xerr=err, fmt="o", color=POINT, ecolor=POINT, capsize=2,
                        markersize=4, linewidth=1.2)  # fmt: skip
            if panel.reference is not None:
                ax.axvline(panel.reference, color="grey", linestyle="--", linewidth=0.8)
            for start, stop in _shaded(groups or []):
                ax.axhspan(start - 0.5, stop - 0.5, color="#f0f0f0", zorder=0, linewidth=0)
            ax.set_xlabel(panel.xlabel, fontsize=FONT_SIZE)
            if panel.log:
                ax.set_xscale("log")
                # Ticks at 1 and 3 per decade, written out (10, 30, 100): matplotlib's
                # labelled minor ticks crowd a narrow panel.
                ax.xaxis.set_major_locator(LogLocator(subs=(1.0, 3.0)))
                ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:,.0f}"))
                ax.xaxis.set_minor_formatter(NullFormatter())
            else:
                # Narrow side-by-side panels: few ticks keep their labels apart (four
                # panels leave room for three labels like `-0.10`).
                ax.xaxis.set_major_locator(MaxNLocator(nbins=5 if len(panels) < 4 else 3))
            ax.margins(x=0.1)  # a dot at the panel's edge would be cut in half
            ax.grid(axis="x", color="#e6e6e6", linewidth=0.6)
            ax.set_axisbelow(True)
            ax.tick_params(labelsize=FONT_SIZE)
        axes[0].set_yticks(y, labels, fontsize=FONT_SIZE)
        axes[0].set_ylim(n - 0.5, -0.5)
    if title:
        fig.suptitle(title, fontsize=FONT_SIZE + 1)
    return fig


def _text_on(image: Any, norm: Any, value: float) -> str:
    """White text on a dark heatmap cell, black on a light one (by luminance)."""
    shade = image.cmap(norm(value))
    return "white" if 0.299 * shade[0] + 0.587 * shade[1] + 0.114 * shade[2] < 0.5 else "black"


def heatmap_grid(
    table: pd.DataFrame,
    row: str,
    col: str,
    panel_factors: Sequence[str],
    levels: Mapping[str, Sequence[str]],
    value: str,
    *,
    label: str,
    diverging: bool,
    fmt: str = "{:.0f}",
) -> Figure:
    """Small multiples of a full-factorial grid: `row` x `col` in each panel.

    `table` has one row per cell with a text column per factor (values from `levels`,
    in that order) and the `value` to colour by. One panel per combination of
    `panel_factors` (a grid for two, a row for one, wrapped beyond); one colour scale
    for all panels, centred on 0 when `diverging`.
    """
    import matplotlib as mpl
    from matplotlib.colors import Normalize, TwoSlopeNorm

    combos = _combinations([list(levels[f]) for f in panel_factors])
    if len(panel_factors) == 2:
        nrows, ncols = len(levels[panel_factors[0]]), len(levels[panel_factors[1]])
    else:
        ncols = min(len(combos), 4)
        nrows = math.ceil(len(combos) / ncols)
    rl, cl = list(levels[row]), list(levels[col])
    # A column is wide enough for its level written out, up to where labels turn.
    longest = max(len(str(v)) for v in cl)
    turn = longest * len(cl) > 36
    column = 0.75 if turn else max(0.75, 0.09 * longest)
    wanted = 1.6 + ncols * (1.3 + column * len(cl))
    width = min(WIDTH * 1.4, wanted)
    # Columns squeezed below their size by the width cap: upright labels stay apart.
    angle = 90 if turn and width < wanted else (30 if turn else 0)
    height = 1.0 + nrows * (1.0 + 0.42 * len(rl))
    fig = new_figure(width, height)
    axes = fig.subplots(nrows, ncols, squeeze=False, sharex=True, sharey=True)
    values = table[value].to_numpy(float)
    finite = values[np.isfinite(values)]
    if diverging:
        span = float(np.max(np.abs(finite))) if finite.size else 1.0
        norm: Normalize = TwoSlopeNorm(0.0, -span or -1.0, span or 1.0)
        cmap = "RdBu_r"
    else:
        low, high = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        norm = Normalize(low, high if high > low else low + 1)
        cmap = "viridis"
    image = None
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for k, ax in enumerate(axes.flat):
            if k >= len(combos):
                ax.set_visible(False)
                continue
            combo = combos[k]
            part = table
            for factor, level in zip(panel_factors, combo, strict=True):
                part = part[part[factor] == level]
            grid = np.full((len(rl), len(cl)), np.nan)
            for _, r in part.iterrows():
                grid[rl.index(r[row]), cl.index(r[col])] = r[value]
            image = ax.imshow(grid, cmap=cmap, norm=norm, aspect="auto")
            for (i, j), v in np.ndenumerate(grid):
                if np.isfinite(v):
                    ax.text(j, i, fmt.format(v), ha="center", va="center",
                            fontsize=FONT_SIZE - 1, color=_text_on(image, norm, v))  # fmt: skip
            ax.set_xticks(range(len(cl)), cl, rotation=angle,
                          ha="right" if angle == 30 else "center")  # fmt: skip
            ax.set_yticks(range(len(rl)), rl)
            ax.tick_params(length=0)
            if panel_factors:
                ax.set_title(
                    ", ".join(f"{f}={v}" for f, v in zip(panel_factors, combo, strict=True)),
                    fontsize=FONT_SIZE,
                )
        for j in range(ncols):
            # The lowest drawn panel of each column carries its labels (a last row may be short).
            shown = [i for i in range(nrows) if i * ncols + j < len(combos)]
            if shown:
                lowest = axes[shown[-1], j]
                lowest.tick_params(labelbottom=True)
                lowest.set_xlabel(col)
        for ax in axes[:, 0]:
            ax.set_ylabel(row)
        if image is not None:
            fig.colorbar(image, ax=axes, label=label, shrink=0.9)
    return fig


def length_overlay(dist: pd.DataFrame, means: Mapping[str, float], xlabel: str) -> Figure:
    """Histograms and CDFs of a few cells on one shared x axis, each mean marked.

    `dist` has columns label, value, count, cdf (`analysis.length_distribution` with a
    label per cell); `means` maps a label to its mean. The legend sits below the axes.
    """
    import matplotlib as mpl

    fig = new_figure(WIDTH, 3.6 + 0.2 * math.ceil(len(means) / 2))
    hist, cdf = fig.subplots(1, 2, sharex=True)
    # Whole-unit bins from a whole number: a length in rounds is turns / players, so each
    # bin holds the same count of possible values and no bin is spiky from aliasing.
    values = dist["value"].to_numpy(float)
    width = max(1, round((values.max() - values.min()) / 50))
    start = math.floor(values.min())
    bins = np.arange(start, values.max() + width + 1, width, dtype=float)
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for i, (label, mean) in enumerate(means.items()):
            rows = dist[dist["label"] == label]
            values = rows["value"].to_numpy(float)
            color = COLORS[i % len(COLORS)]
            density, _ = np.histogram(values, bins=bins, weights=rows["count"], density=True)
            hist.stairs(density, bins, color=color, label=f"{label} (mean {mean:.1f})")
            cdf.step(values, rows["cdf"].to_numpy(float), where="post", color=color)
            for ax in (hist, cdf):
                ax.axvline(mean, color=color, linestyle=":", linewidth=1)
            hist.plot([mean], [1.0], marker="v", color=color, transform=hist.get_xaxis_transform(),
                      clip_on=False)  # fmt: skip
        unit = xlabel[:-1] if xlabel.endswith("s") else xlabel
        hist.set(xlabel=xlabel, ylabel=f"share of games per {unit}", title="Distribution")
        cdf.set(xlabel=xlabel, ylabel=f"P({xlabel} ≤ x)", title="Cumulative")
        fig.legend(loc="outside lower center", ncols=min(len(means), 2), fontsize=FONT_SIZE,
                   frameon=False)  # fmt: skip
    return fig


def percent_ticks() -> Any:
    """Tick labels for shares (0.255 -> `25.5%`), the unit the page's text uses."""
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _: f"{100 * v:.10g}%")


def rate_dots(tables: Sequence[tuple[pd.DataFrame, str, str]], labels: Mapping[str, str]) -> Figure:
    """Win rates with intervals for a few cells, one panel per (table, key, title).

    Each table has columns cell, KEY (position or seat), win_rate, ci_low, ci_high,
    fair; cells are offset side by side within a position. Legend below the axes.
    """
    import matplotlib as mpl

    fig = new_figure(WIDTH, 3.6 + 0.2 * math.ceil(len(labels) / 2))
    axes = fig.subplots(1, len(tables), sharey=True, squeeze=False)[0]
    ids = list(labels)
    width = 0.8 / max(len(ids), 1)
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for ax, (table, key, title) in zip(axes, tables, strict=True):
            for i, cell in enumerate(ids):
                rows = table[table["cell"].astype(str) == cell]
                x = rows[key].to_numpy(float) - 0.4 + width * (i + 0.5)
                y = rows["win_rate"].to_numpy(float)
                err = np.vstack([y - rows["ci_low"].to_numpy(float),
                                 rows["ci_high"].to_numpy(float) - y])  # fmt: skip
                ax.errorbar(x, y, yerr=err, fmt="o", capsize=2, markersize=4,
                            color=COLORS[i % len(COLORS)], label=labels[cell] if ax is axes[0]
                            else None)  # fmt: skip
            for fair in table["fair"].unique():
                ax.axhline(fair, color="grey", linestyle="--", linewidth=0.8)
            ax.set_xticks(sorted(table[key].unique()))
            ax.set(xlabel=key, title=title)
            ax.grid(axis="y", color="#e6e6e6", linewidth=0.6)
            ax.set_axisbelow(True)
        # The text states shares in %: the axis does too, not as fractions.
        axes[0].yaxis.set_major_formatter(percent_ticks())
        axes[0].set_ylabel("win rate (%)")
        fig.legend(loc="outside lower center", ncols=min(len(ids), 2), fontsize=FONT_SIZE,
                   frameon=False)  # fmt: skip
    return fig


def rate_heatmap(
    tables: Sequence[tuple[pd.DataFrame, str, str]], labels: Mapping[str, str]
) -> Figure:
    """Win rate minus the fair share (pp) per cell and position/seat, for many cells.

    Rows follow `labels` (cell id -> label, in order); a position a cell does not have
    (fewer players) stays blank. Values are written in the squares up to 60 rows.
    """
    import matplotlib as mpl
    from matplotlib.colors import TwoSlopeNorm

    ids = list(labels)
    fig = new_figure(WIDTH, rows_height(len(ids), 0.4))
    axes = fig.subplots(1, len(tables), sharey=True, squeeze=False)[0]
    grids = []
    for table, key, _ in tables:
        keys = sorted(int(k) for k in table[key].unique())
        grid = np.full((len(ids), len(keys)), np.nan)
        for _, r in table.iterrows():
            if str(r["cell"]) in labels:
                pp = 100 * (r["win_rate"] - r["fair"])
                grid[ids.index(str(r["cell"])), keys.index(int(r[key]))] = pp
        grids.append((grid, keys))
    finite = np.concatenate([g[np.isfinite(g)] for g, _ in grids])
    span = float(np.max(np.abs(finite))) if finite.size and np.max(np.abs(finite)) > 0 else 1.0
    norm = TwoSlopeNorm(0.0, -span, span)
    image = None
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for ax, (grid, keys), (_, key, title) in zip(axes, grids, tables, strict=True):
            image = ax.imshow(grid, cmap="RdBu_r", norm=norm, aspect="auto",
                              interpolation="nearest")  # fmt: skip
            if len(ids) <= 60:
                for (i, j), v in np.ndenumerate(grid):
                    if np.isfinite(v):
                        ax.text(j, i, f"{round(v, 1) + 0.0:+.1f}", ha="center", va="center",
                                fontsize=FONT_SIZE - 2, color=_text_on(image, norm, v))  # fmt: skip
            ax.set_xticks(range(len(keys)), [str(k) for k in keys])
            ax.set(xlabel=key, title=title)
            ax.tick_params(length=0)
        axes[0].set_yticks(range(len(ids)), [labels[c] for c in ids], fontsize=FONT_SIZE)
        if image is not None:
            fig.colorbar(image, ax=axes, label="win rate − fair share (pp)", shrink=0.8)
    return fig


def ranking(table: pd.DataFrame, label: str = "policy") -> Figure:
    """Horizontal bars of win rate with 95% intervals, best at the top, fair share dashed.

    `table` has columns LABEL, win_rate, ci_low, ci_high, fair (`analysis.win_table`).
    """
    import matplotlib as mpl

    ordered = table.sort_values("win_rate", ascending=False, kind="stable")
    n = len(ordered)
    fig = new_figure(WIDTH * 0.8, rows_height(n, 0.3) + 0.1 * n)
    ax = fig.subplots()
    y = np.arange(n)
    rate = ordered["win_rate"].to_numpy(float)
    err = np.vstack([rate - ordered["ci_low"].to_numpy(float),
                     ordered["ci_high"].to_numpy(float) - rate])  # fmt: skip
    with mpl.rc_context({"font.size": FONT_SIZE}):
        ax.barh(y, rate, xerr=err, capsize=3, color="#9ecae1", edgecolor=POINT, height=0.6)
        for i, (r, high) in enumerate(zip(rate, ordered["ci_high"].to_numpy(float),
                                          strict=True)):  # fmt: skip
            ax.text(high, i, f"  {100 * r:.1f}%", va="center", fontsize=FONT_SIZE)
        for fair in ordered["fair"].unique():
            ax.axvline(float(fair), color="grey", linestyle="--", linewidth=0.9)
        ax.set_yticks(y, ordered[label].astype(str).tolist())
        ax.set_ylim(n - 0.5, -0.5)
        ax.set_xlim(0, max(float(ordered["ci_high"].max()) * 1.2, 0.05))
        ax.xaxis.set_major_formatter(percent_ticks())
        ax.set_xlabel("win rate (% of the games played in which it won; dashed: fair share)")
        ax.grid(axis="x", color="#e6e6e6", linewidth=0.6)
        ax.set_axisbelow(True)
    return fig


def curve(table: pd.DataFrame, x: str, groups: Sequence[str], xlabel: str, ylabel: str) -> Figure:
    """Effect (pp) against a numeric setting with intervals, one line per group.

    `table` has columns X, diff, diff_ci_low, diff_ci_high, break_even and the
    `groups` columns; the dotted vertical line is each group's break-even point, and
    its legend entry gives the value.
    """
    import matplotlib as mpl

    fig = new_figure(WIDTH * 0.8, 4.2)
    ax = fig.subplots()
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for i, (key, rows) in enumerate(table.groupby(list(groups), sort=False)):
            color = COLORS[i % len(COLORS)]
            xs = rows[x].to_numpy(float)
            ys = 100 * rows["diff"].to_numpy(float)
            err = 100 * np.vstack([rows["diff"] - rows["diff_ci_low"],
                                   rows["diff_ci_high"] - rows["diff"]])  # fmt: skip
            name = ", ".join(f"{g} {k}" for g, k in zip(groups, key, strict=True))
            even = float(rows["break_even"].iloc[0])
            if not math.isnan(even):
                # The legend carries the number, so the dotted line needs no reading off.
                name += f" (stops paying at about {even:.2f}, dotted)"
                ax.axvline(even, linestyle=":", color=color)
            ax.errorbar(xs, ys, yerr=err, fmt="o-", capsize=3, color=color, label=name)
        ax.axhline(0, color="black", linewidth=0.8)
        ax.set(xlabel=xlabel, ylabel=ylabel)
        ax.grid(color="#e6e6e6", linewidth=0.6)
        ax.set_axisbelow(True)
        fig.legend(loc="outside lower center", fontsize=FONT_SIZE, frameon=False)
    return fig


# Lines of up to ten rule sets tell apart by colour; more cycle the dash pattern too.
_TAB10 = ("blue", "orange", "green", "red", "purple", "brown", "pink", "gray", "olive", "cyan")
LINE_COLORS = tuple(f"tab:{c}" for c in _TAB10)
DASHES = ("-", "--", ":", "-.")


def _line_style(i: int) -> dict[str, Any]:
    return {"color": LINE_COLORS[i % len(LINE_COLORS)],
            "linestyle": DASHES[(i // len(LINE_COLORS)) % len(DASHES)]}  # fmt: skip


def _legend_below(fig: Figure, entries: int) -> None:
    fig.legend(loc="outside lower center", ncols=min(entries, 4), fontsize=FONT_SIZE,
               frameon=False)  # fmt: skip


def win_chance_curves(
    leads: pd.DataFrame,
    order: Sequence[str],
    least: int = 1,
    phases: Sequence[str] = (),
    xlabel: str = "lead over the best other seat (squares)",
    fair: float | None = None,
) -> Figure:
    """The leader's win chance (%) against its lead, one panel per phase, a line per rule set.

    `leads` has columns rule_set, phase, lead_from, lead_to (-1: open), games,
    win_chance, ci_low, ci_high (`ludosim.studies.leads.LeadTable.table` with a rule set
    column); bins with fewer than `least` games are left out. Each bin is drawn
    at its middle (an open last bin at its start); the band is its interval.
    `xlabel` says the unit of lead_from and lead_to; `fair` (a share) draws the fair share
    as a dashed line.
    """
    import matplotlib as mpl

    phases = list(phases) or list(dict.fromkeys(leads["phase"]))
    fig = new_figure(WIDTH, 3.4 + 0.22 * math.ceil(len(order) / 4))
    axes = fig.subplots(1, len(phases), sharey=True, squeeze=False)[0]
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for ax, phase in zip(axes, phases, strict=True):
            for i, label in enumerate(order):
                rows = leads[(leads["rule_set"] == label) & (leads["phase"] == phase)
                             & (leads["games"] >= least)]  # fmt: skip
                if rows.empty:
                    continue
                width = (rows["lead_to"] - rows["lead_from"]).where(rows["lead_to"] >= 0, 0)
                x = rows["lead_from"].to_numpy(float) + width.to_numpy(float) / 2
                style = _line_style(i)
                ax.fill_between(x, 100 * rows["ci_low"], 100 * rows["ci_high"],
                                color=style["color"], alpha=0.18, linewidth=0)  # fmt: skip
                ax.plot(x, 100 * rows["win_chance"], linewidth=1.4,
                        label=label if phase == phases[0] else None, **style)  # fmt: skip
            if fair is not None:
                ax.axhline(100 * fair, color="grey", linestyle="--", linewidth=0.8,
                           label="fair share" if phase == phases[0] else None)  # fmt: skip
            ax.set_title(f"{phase} game", fontsize=FONT_SIZE + 1)
            ax.set_xlabel(xlabel)
            ax.grid(color="#e6e6e6", linewidth=0.6)
            ax.set_axisbelow(True)
        axes[0].set_ylabel("leader's win chance (%)")
        _legend_below(fig, len(order) + (fair is not None))
    return fig


def share_lines(
    table: pd.DataFrame,
    group: str,
    x: str,
    y: str,
    order: Sequence[str],
    xlabel: str,
    ylabel: str,
) -> Figure:
    """One line per `group` value (in `order`) of `y` (a share, drawn in %) against `x`."""
    import matplotlib as mpl

    fig = new_figure(WIDTH * 0.8, 3.6 + 0.22 * math.ceil(len(order) / 4))
    ax = fig.subplots()
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for i, label in enumerate(order):
            rows = table[table[group] == label]
            ax.plot(rows[x], 100 * rows[y], marker="o", markersize=2.5, linewidth=1.2,
                    label=label, **_line_style(i))  # fmt: skip
        ax.set(xlabel=xlabel, ylabel=f"{ylabel} (%)")
        ax.grid(color="#e6e6e6", linewidth=0.6)
        ax.set_axisbelow(True)
        _legend_below(fig, len(order))
    return fig


def race_check(race: pd.DataFrame) -> Figure:
    """Simulated win share (dots with Wilson 95% intervals) and the exact chance (line) per
    lead bin, a panel per rule set (`ludosim.studies.leads.RaceCheck.table` with a rule_set column;
    the rows with lead_to -1 are the totals and are not drawn)."""
    import matplotlib as mpl

    from ludosim.results.stats import wilson_interval

    labels = list(dict.fromkeys(race["rule_set"]))
    cols = min(len(labels), 2)
    rows_n = math.ceil(len(labels) / cols)
    fig = new_figure(WIDTH, 2.9 * rows_n + 0.4)
    axes = fig.subplots(rows_n, cols, squeeze=False, sharey=True).reshape(-1)
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for ax, label in zip(axes, labels, strict=False):
            rows = race[(race["rule_set"] == label) & (race["lead_to"] >= 0)]
            x = (rows["lead_from"] + rows["lead_to"]).to_numpy(float) / 2
            pairs = zip(rows["leader_wins"], rows["games"], strict=True)
            ci = np.array([wilson_interval(int(w), int(n)) for w, n in pairs])
            sim = 100 * rows["simulated"].to_numpy(float)
            err = np.vstack([sim - 100 * ci[:, 0], 100 * ci[:, 1] - sim])
            ax.errorbar(x, sim, yerr=err, fmt="o", markersize=3, capsize=2, color=POINT,
                        label="simulated")  # fmt: skip
            ax.plot(x, 100 * rows["exact"], color="tab:red", linewidth=1.3, label="exact")
            ax.set_title(label, fontsize=FONT_SIZE + 1)
            ax.set_xlabel("lead (squares)")
            ax.grid(color="#e6e6e6", linewidth=0.6)
            ax.set_axisbelow(True)
        for ax in axes[len(labels) :]:
            ax.set_visible(False)
        axes[0].set_ylabel("leader's win chance (%)")
        handles, names = axes[0].get_legend_handles_labels()
        fig.legend(handles, names, loc="outside lower center", ncols=2, fontsize=FONT_SIZE,
                   frameon=False)  # fmt: skip
    return fig


FRONT_BARS = 40  # the most front points drawn with their interval bars


def front(
    space: pd.DataFrame,
    x: str,
    y: str,
    xlabel: str,
    ylabel: str,
    measured: pd.DataFrame | None = None,
    *,
    limits: bool = True,
) -> Figure:
    """Predicted rule sets on two measures: every feasible one grey, the front with its
    95% prediction intervals, and the confirmed ones as measured (interval bars). The
    front is read over the intervals, so it is a set of points, not a curve: no line
    joins them.

    `space` has columns `x`, `y`, their `_low`/`_high`, `feasible` and `front` (and
    `same_as`: rows naming another rule set are left out);
    `measured` one row per confirmed rule set with `x`, `y` and their `_low`/`_high`;
    `limits`: whether the study asked any (without, every rule set is feasible and the
    legend names no limits).
    """
    import matplotlib as mpl

    fig = new_figure(WIDTH * 0.75, 4.2)
    ax = fig.subplots()
    with mpl.rc_context({"font.size": FONT_SIZE}):
        if "same_as" in space.columns:  # a rule set playing another's games is drawn once
            space = space[space["same_as"].fillna("").astype(str) == ""]
        feasible = space[space["feasible"].astype(bool)]
        others = space[~space["feasible"].astype(bool)]
        if len(others):
            ax.scatter(others[x], others[y], s=8, color="#dddddd", label="outside the limits")
        grey = "within the limits" if limits else "every rule set (no limits asked)"
        ax.scatter(feasible[x], feasible[y], s=10, color="#999999", label=grey)
        edge = feasible[feasible["front"].astype(bool)].sort_values(x)
        if len(edge) <= FRONT_BARS:
            ax.errorbar(edge[x], edge[y], xerr=_bars(edge, x), yerr=_bars(edge, y), fmt="o",
                        color=POINT, markersize=4, linewidth=1, capsize=2,
                        label="the front (predicted, 95% PI)")  # fmt: skip
        else:  # hundreds of bars hide the points: drawn faint, the points on top
            ax.errorbar(edge[x], edge[y], xerr=_bars(edge, x), yerr=_bars(edge, y), fmt="none",
                        ecolor=POINT, elinewidth=0.5, alpha=0.15, capsize=0)  # fmt: skip
            ax.scatter(edge[x], edge[y], s=12, color=POINT, zorder=3,
                       label="the front (predicted; 95% PI faint)")  # fmt: skip
        if measured is not None and len(measured):
            ax.errorbar(measured[x], measured[y], xerr=_bars(measured, x),
                        yerr=_bars(measured, y), fmt="s", color="tab:orange", markersize=5,
                        capsize=2, label="confirmed (measured, 95% CI)")  # fmt: skip
        ax.set_xlabel(xlabel, fontsize=FONT_SIZE)
        ax.set_ylabel(ylabel, fontsize=FONT_SIZE)
        ax.grid(color="#eeeeee", linewidth=0.6)
        _legend_below(fig, 4)
    return fig


def _bars(table: pd.DataFrame, column: str, low: str = "_low", high: str = "_high") -> Any:
    """Error-bar lengths below and above `column` from its `<column>_low/_high` bounds."""
    value = table[column].to_numpy(float)
    return np.clip(
        [value - table[f"{column}{low}"].to_numpy(float),
         table[f"{column}{high}"].to_numpy(float) - value],
        0,
        None,
    )  # fmt: skip


def prediction_check(checks: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Measured against predicted, one panel per measure: each rule set the model was not
    fitted on, its 95% prediction interval as a bar, the diagonal where they agree."""
    import matplotlib as mpl

    names = list(dict.fromkeys(checks["measure"]))
    cols = min(4, len(names))
    rows = math.ceil(len(names) / cols)
    fig = new_figure(WIDTH, 2.3 * rows + 0.6)
    axes = fig.subplots(rows, cols, squeeze=False).ravel()
    with mpl.rc_context({"font.size": FONT_SIZE}):
        for ax, name in zip(axes, names, strict=False):
            part = checks[checks["measure"] == name]
            inside = part["inside"].astype(bool).to_numpy()
            for mask, color in ((inside, POINT), (~inside, "tab:red")):
                sel = part[mask].assign(
                    predicted_low=part["pi_low"], predicted_high=part["pi_high"]
                )
                ax.errorbar(
                    sel["predicted"], sel["measured"], xerr=_bars(sel, "predicted"), fmt="o",
                    color=color, markersize=3, capsize=2, linewidth=0.8,
                )  # fmt: skip
            lo = float(min(part["pi_low"].min(), part["measured"].min()))
            hi = float(max(part["pi_high"].max(), part["measured"].max()))
            ax.plot([lo, hi], [lo, hi], color="grey", linestyle="--", linewidth=0.8)
            ax.set_title(labels.get(name, name), fontsize=FONT_SIZE)
            ax.set_xlabel("predicted", fontsize=FONT_SIZE - 1)
            ax.set_ylabel("measured", fontsize=FONT_SIZE - 1)
        for ax in axes[len(names) :]:
            ax.set_visible(False)
    return fig


def legend_overlaps_data(fig: Figure) -> bool:
    """Whether any legend of the figure lies over an axes' data area (a drawing check)."""
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    fig.draw(renderer)
    legends = [*fig.legends, *(ax.get_legend() for ax in fig.axes)]
    boxes = [lg.get_window_extent(renderer) for lg in legends if lg is not None]
    areas = [ax.get_window_extent(renderer) for ax in fig.axes if _is_data_axes(ax)]
    return any(b.overlaps(a) for b in boxes for a in areas)


def _is_data_axes(ax: Axes) -> bool:
    return ax.get_visible() and ax.get_label() != "<colorbar>"


def _shaded(groups: Sequence[str]) -> list[tuple[int, int]]:
    """(first row, row after the last) of every other run of equal group keys."""
    runs: list[tuple[int, int]] = []
    start = 0
    for i in range(1, len(groups) + 1):
        if i == len(groups) or groups[i] != groups[start]:
            runs.append((start, i))
            start = i
    return runs[1::2]


def _combinations(levels: Sequence[Sequence[str]]) -> list[tuple[str, ...]]:
    combos: list[tuple[str, ...]] = [()]
    for options in levels:
        combos = [(*c, o) for c in combos for o in options]
    return combos
