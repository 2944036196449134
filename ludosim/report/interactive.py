"""Interactive figures of a report (Bokeh, inline HTML): the twins of the static ones of
`ludosim.report.figures`, embedded in a page with the Bokeh library inlined once.

- `bokeh_forest`: the interactive twin of `figures.forest`, hover a row for its values.
- `bokeh_page`: the resources, script and divs that embed a page's models.

Bokeh is imported inside the functions that need it; importing this module costs
nothing and the simulation kernel never imports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import pandas as pd

from ludosim.report.figures import POINT, Panel


def bokeh_forest(
    table: pd.DataFrame,
    labels: Sequence[str],
    panels: Sequence[Panel],
    hover: Mapping[str, str] | None = None,
) -> Any:
    """The interactive twin of `forest`: hover a row for its values and interval.

    `hover` maps extra columns of `table` to the names shown on hover (games, cell).
    Returns a Bokeh layout; `bokeh_page` turns a list of them into HTML.
    """
    from bokeh.layouts import row
    from bokeh.models import ColumnDataSource, FactorRange, HoverTool, Range1d, Span
    from bokeh.plotting import figure

    names = list(dict.fromkeys(labels))
    y_range = FactorRange(factors=names[::-1])
    data: dict[str, list[Any]] = {"label": list(labels)}
    for column in hover or {}:
        data[column] = [str(v) for v in table[column]]
    plots = []
    for k, panel in enumerate(panels):
        values = table[panel.value].to_numpy(float)
        lows, highs = table[panel.low].to_numpy(float), table[panel.high].to_numpy(float)
        source = ColumnDataSource(
            {
                **data,
                "value": values,
                "low": lows,
                "high": highs,
                "text": [
                    f"{panel.fmt.format(v)} ({panel.fmt.format(lo)} to {panel.fmt.format(hi)})"
                    for v, lo, hi in zip(values, lows, highs, strict=True)
                ],
            }
        )
        # The axis always shows the reference line (no effect, fair share): Bokeh
        # sizes a data range from glyphs only, and a Span is not a glyph.
        finite = np.concatenate([lows, highs])
        finite = finite[np.isfinite(finite)]
        ends = [*finite, *([] if panel.reference is None else [panel.reference])] or [0.0, 1.0]
        low_end, high_end = float(min(ends)), float(max(ends))
        pad = 0.05 * (high_end - low_end or 1.0)
        plot = figure(
            y_range=y_range,
            x_range=Range1d(low_end - pad, high_end + pad),
            width=(1000 if len(panels) == 1 else 620) if k == 0 else 380,
            height=int(110 + 24 * max(len(names), 1)),
            x_axis_label=panel.xlabel,
            toolbar_location="above",
            tools="pan,wheel_zoom,box_zoom,reset,save",
        )
        plot.segment("low", "label", "high", "label", source=source, line_width=2, color=POINT)
        dots = plot.scatter("value", "label", source=source, size=7, color=POINT)
        tips = [("", "@label"), (panel.xlabel, "@text")]
        tips += [(name, f"@{column}") for column, name in (hover or {}).items()]
        plot.add_tools(HoverTool(renderers=[dots], tooltips=tips))
        if panel.reference is not None:
            plot.add_layout(
                Span(
                    location=panel.reference,
                    dimension="height",
                    line_dash="dashed",
                    line_color="grey",
                )
            )
        plot.yaxis.major_label_text_font_size = "12px"
        plot.xaxis.axis_label_text_font_style = "normal"
        if k > 0:
            plot.yaxis.visible = False
        plots.append(plot)
    return row(*plots) if len(plots) > 1 else plots[0]


def bokeh_page(models: Sequence[Any]) -> tuple[str, str, list[str]]:
    """(resources, script, divs) for embedding: the Bokeh library inlined once per page
    (its core bundle, about 1.3 MB, and the widgets' bundle when a model holds widgets),
    one script for all models, one div each."""
    from bokeh.embed import components
    from bokeh.models import Widget
    from bokeh.resources import Resources

    if not models:
        return "", "", []
    widgets = any(isinstance(m, Widget) for model in models for m in model.references())
    bundles = ["bokeh", "bokeh-widgets"] if widgets else ["bokeh"]
    resources = Resources(mode="inline", components=bundles).render_js()
    script, divs = components(list(models))
    return resources, script, list(divs)
