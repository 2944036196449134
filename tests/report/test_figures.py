"""`ludosim.report.figures` draws what it is given without hiding it: legends outside the data,
labels inside the image, one row per item, and no plotting library until asked.

The tables here are made up in the shapes `ludosim.report.analysis` writes; the report's
choice between figures is tested in test_report.py.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from ludosim.report import figures, interactive
from ludosim.report.figures import Panel
from ludosim.sweep import SweepSpec, spec_hash

ANALYSES = Path(__file__).parents[2] / "analyses"


def _rates(cells: int, players: int = 4) -> pd.DataFrame:
    rows = [
        {"cell": f"c{c:03d}", "position": p, "seat": p, "win_rate": 0.25 + 0.01 * (c - p),
         "ci_low": 0.2 + 0.01 * (c - p), "ci_high": 0.3 + 0.01 * (c - p), "fair": 1 / players}
        for c in range(cells)
        for p in range(players)
    ]  # fmt: skip
    return pd.DataFrame(rows)


def _distribution(labels: list[str]) -> pd.DataFrame:
    rng = np.random.default_rng(1)
    parts = []
    for i, label in enumerate(labels):
        values, counts = np.unique(
            rng.integers(100 + 20 * i, 300 + 20 * i, 500), return_counts=True
        )
        parts.append(
            pd.DataFrame(
                {"label": label, "value": values, "count": counts, "cdf": np.cumsum(counts) / 500}
            )
        )
    return pd.concat(parts, ignore_index=True)


def _forest_table(n: int) -> pd.DataFrame:
    mean = np.linspace(100, 400, n)
    return pd.DataFrame({"mean": mean, "low": mean - 5, "high": mean + 5})


PANEL = Panel("mean", "low", "high", "mean player turns", reference=None)


def test_legends_sit_outside_the_data_area() -> None:
    labels = {f"c{c:03d}": f"cell {c} with a long label" for c in range(6)}
    rates = _rates(6)
    drawn = [
        figures.rate_dots([(rates, "position", "by position"), (rates, "seat", "by seat")], labels),
        figures.length_overlay(
            _distribution(list(labels.values())),
            {label: 200.0 + i for i, label in enumerate(labels.values())},
            "turns",
        ),
        figures.curve(
            pd.DataFrame(
                {
                    "detect_skip": [0.0, 0.5, 1.0],
                    "diff": [0.02, 0.0, -0.02],
                    "diff_ci_low": [0.01, -0.01, -0.03],
                    "diff_ci_high": [0.03, 0.01, -0.01],
                    "break_even": 0.5,
                    "seat": 0,
                    "policy": "skipper:1",
                }
            ),
            "detect_skip",
            ["seat", "policy"],
            "detect_skip",
            "Δ win rate (pp)",
        ),
    ]
    for fig in drawn:
        assert fig.legends, "the figure should have a legend"
        assert not figures.legend_overlaps_data(fig)


def test_the_legend_check_sees_a_legend_over_the_data() -> None:
    fig = figures.new_figure(4, 3)
    ax = fig.subplots()
    ax.plot([0, 1], [0, 1], label="a line")
    ax.legend(loc="center")
    assert figures.legend_overlaps_data(fig)


@pytest.mark.parametrize("rows", [1, 6, 100])
def test_a_forest_has_one_labelled_row_per_item_and_grows_with_them(rows: int) -> None:
    labels = [
        f"six_limit={i % 2} finish=bounce pass_opponents=all players={i} "
        "policies=pacifist,balanced,balanced,balanced"
        for i in range(rows)
    ]
    fig = figures.forest(_forest_table(rows), labels, [PANEL, PANEL])
    ax = fig.axes[0]
    # Labels longer than LABEL_WIDTH wrap at spaces onto more lines; the rows grow.
    shown = [t.get_text() for t in ax.get_yticklabels()]
    assert [t.replace("\n", " ") for t in shown] == labels
    assert all(len(line) <= figures.LABEL_WIDTH for t in shown for line in t.split("\n"))
    assert fig.get_figheight() > figures.rows_height(rows)
    # nothing clipped: the saved image's tight box holds every row label
    renderer = fig.canvas.get_renderer()
    fig.draw(renderer)
    box = fig.get_tightbbox(renderer)
    for label in ax.get_yticklabels():
        extent = label.get_window_extent(renderer).transformed(fig.dpi_scale_trans.inverted())
        assert box.x0 <= extent.x0 + 1e-6 and extent.x1 <= box.x1 + 1e-6
    assert figures.png_bytes(fig)[:8] == b"\x89PNG\r\n\x1a\n"


def test_many_cells_get_a_heatmap_of_rates_with_every_cell_on_its_own_row() -> None:
    labels = {f"c{c:03d}": f"cell {c}" for c in range(36)}
    rates = _rates(36)
    fig = figures.rate_heatmap([(rates, "position", "by position")], labels)
    image = fig.axes[0].get_images()[0].get_array()
    assert image.shape == (36, 4)
    assert image[0, 0] == pytest.approx(100 * (0.25 - 0.25))
    assert image[5, 1] == pytest.approx(100 * 0.04)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == list(labels.values())


def test_heatmap_grid_puts_each_cell_in_its_panel_row_and_column() -> None:
    levels = {"six_limit": ["0", "3"], "finish": ["exact", "bounce"], "players": ["2", "3", "4"]}
    rows = [
        {"six_limit": s, "finish": f, "players": p,
         "value": 100 * int(p) + 10 * int(s) + (f == "bounce")}
        for s in levels["six_limit"]
        for f in levels["finish"]
        for p in levels["players"]
    ]  # fmt: skip
    fig = figures.heatmap_grid(
        pd.DataFrame(rows), "finish", "players", ["six_limit"], levels, "value",
        label="mean turns", diverging=False,
    )  # fmt: skip
    panels = [ax for ax in fig.axes if ax.get_images()]
    assert [ax.get_title() for ax in panels] == ["six_limit=0", "six_limit=3"]
    grid = panels[1].get_images()[0].get_array()
    assert grid[1, 2] == 400 + 30 + 1  # finish=bounce, players=4 at six_limit=3


def test_ranking_puts_the_best_policy_on_top() -> None:
    table = pd.DataFrame(
        {"policy": ["runner", "balanced", "aggressive"], "win_rate": [0.2, 0.35, 0.15],
         "ci_low": [0.18, 0.33, 0.13], "ci_high": [0.22, 0.37, 0.17], "fair": 0.25}
    )  # fmt: skip
    fig = figures.ranking(table)
    assert [t.get_text() for t in fig.axes[0].get_yticklabels()] == [
        "balanced", "runner", "aggressive"
    ]  # fmt: skip


def test_bokeh_forest_embeds_with_the_library_inlined_once() -> None:
    labels = ["a", "b", "c"]
    models = [interactive.bokeh_forest(_forest_table(3), labels, [PANEL]) for _ in range(2)]
    resources, script, divs = interactive.bokeh_page(models)
    assert len(divs) == 2 and all("data-root-id" in d for d in divs)
    assert "<script" in resources
    assert not re.search(r"<script[^>]*\bsrc=", resources)  # inline, nothing fetched
    assert 100_000 < len(resources) < 3_000_000
    assert "HoverTool" in script


def test_importing_figures_loads_no_plotting_library_and_the_kernel_never_imports_it() -> None:
    code = (
        "import sys; import ludosim.report.figures, ludosim.run.simulate\n"
        "assert not {'matplotlib', 'bokeh'} & {m.split('.')[0] for m in sys.modules}\n"
        "import ludosim.engine, ludosim.sweep\n"
        "del sys.modules['ludosim.report.figures']\n"
        "import ludosim.run.simulate, ludosim.sweep.execute\n"
        "assert 'ludosim.report.figures' not in sys.modules\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


# The sweep files of analyses/; the studies of `ludosim skill` and `ludosim unfold` list
# their rule sets as [[rule_set]] tables (tests/studies/test_skill.py,
# tests/studies/test_leads.py), those of `ludosim design` their free house rules
# (tests/studies/test_design.py), and `ludosim duels` its [[duel]] tables
# (tests/studies/test_duels.py).
SWEEP_FILES = sorted(
    p
    for p in ANALYSES.glob("*.toml")
    if not {"rule_set", "free", "duel"} & set(tomllib.loads(p.read_text(encoding="utf-8")))
)


@pytest.mark.parametrize("file", SWEEP_FILES, ids=lambda p: p.stem)
def test_every_analysis_file_round_trips_through_to_toml(file: Path, tmp_path: Path) -> None:
    spec = SweepSpec.from_toml(file)
    again = tmp_path / file.name
    again.write_text(spec.to_toml(), encoding="utf-8")
    assert spec_hash(SweepSpec.from_toml(again)) == spec_hash(spec)


def test_skip_cost_legend_gives_the_break_even_value() -> None:
    table = pd.DataFrame(
        {
            "detect_skip": [0.0, 0.5, 1.0],
            "diff": [0.02, 0.004, -0.02],
            "diff_ci_low": [0.01, -0.006, -0.03],
            "diff_ci_high": [0.03, 0.014, -0.01],
            "break_even": 0.6,
            "seat": 0,
            "policy": "skipper:1",
        }
    )
    fig = figures.curve(table, "detect_skip", ["seat", "policy"], "detect_skip", "Δ (pp)")
    (legend,) = fig.legends
    texts = [t.get_text() for t in legend.get_texts()]
    assert texts == ["seat 0, policy skipper:1 (stops paying at about 0.60, dotted)"]
    (line,) = [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == ":"]
    assert list(line.get_xdata()) == [0.6, 0.6]
    # no break-even: no dotted line and no value in the legend
    fig = figures.curve(
        table.assign(break_even=float("nan")), "detect_skip", ["seat", "policy"], "x", "y"
    )
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["seat 0, policy skipper:1"]
    assert not [ln for ln in fig.axes[0].get_lines() if ln.get_linestyle() == ":"]
