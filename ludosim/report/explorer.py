"""The explorer of a design's page: pick house rules, read what the model predicts.

One menu per free toggle (its two values, in words) and a table of every measure the model
predicts for the chosen rule set, with its 95% prediction interval; a rule set the
design confirmed shows its measured values beside them, marked "measured". It is
a Bokeh layout whose callback (`CustomJS`) evaluates the models in the browser from
their coefficients and covariance, embedded in the page: the page stays one offline
file, and the numbers are the ones `ludosim.studies.design.Model.predict` gives
(`predictions_html` writes the same table in Python, for the rule set the page opens
on and for the tests).

Models are passed as plain data (`ModelData`), so this module needs nothing of the
study that made them.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

# Plain data travels as JSON text: BokehJS turns a dict argument into a Map.
CALLBACK = """
const models = JSON.parse(models_json);
const measured = JSON.parse(measured_json);
const codes = selects.map((s) => (s.value === s.options[1] ? 1 : -1));
const key = codes.join(" ");
function digits(half) {
  if (!(half > 0) || !isFinite(half)) return 1;
  return Math.min(4, Math.max(1, 1 - Math.floor(Math.log10(half))));
}
function fmt(x, d) { return Number.isFinite(x) ? x.toFixed(d) : "n/a"; }
let rows = "";
for (const m of models) {
  const x = [1];
  for (const term of m.terms) x.push(term.reduce((p, i) => p * codes[i], 1));
  let mean = 0;
  for (let i = 0; i < x.length; i++) mean += x[i] * m.coef[i];
  let v = 0;
  for (let i = 0; i < x.length; i++) {
    for (let j = 0; j < x.length; j++) v += x[i] * m.cov[i][j] * x[j];
  }
  v += m.scale * m.noise * m.noise;
  const half = m.t * Math.sqrt(v);
  const low = m.floor === null ? mean - half : Math.max(m.floor, mean - half);
  const d = digits(half);
  let got = "";
  const seen = measured[key];
  if (seen && seen[m.name]) {
    const [e, lo, hi] = seen[m.name];
    const dm = digits((hi - lo) / 2);
    got = `${fmt(e, dm)} (${fmt(lo, dm)} to ${fmt(hi, dm)}) <b>measured</b>`;
  }
  rows += `<tr data-measure="${m.name}"><td>${m.title}</td><td class="pred">${fmt(mean, d)}</td>` +
          `<td>${fmt(low, d)} to ${fmt(mean + half, d)}</td><td>${m.unit}</td>` +
          `<td>${got}</td></tr>`;
}
div.text = head + rows + "</table>";
"""

HEAD = (
    '<table class="data explorer"><tr><th>measure</th><th>predicted</th>'
    "<th>95% prediction interval</th><th>unit</th><th>confirmed</th></tr>"
)


@dataclass(frozen=True)
class ModelData:
    """One measure's model as the explorer evaluates it.

    `terms` are tuples of free-toggle indices (a main effect or a product);
    `coef` starts with the intercept; `t` is the prediction interval's quantile and
    `noise` the standard error of the measurement it predicts.
    """

    name: str
    title: str
    unit: str
    terms: Sequence[tuple[int, ...]]
    coef: Sequence[float]
    cov: Sequence[Sequence[float]]
    scale: float
    t: float
    noise: float
    floor: float | None = None  # the lowest value the measure takes (0 for a distance)

    def predict(self, codes: Sequence[float]) -> tuple[float, float, float]:
        x = np.array([1.0] + [float(np.prod([codes[i] for i in t])) for t in self.terms])
        mean = float(x @ np.asarray(self.coef))
        var = float(x @ np.asarray(self.cov) @ x) + self.scale * self.noise**2
        half = self.t * math.sqrt(max(var, 0.0))
        low = mean - half if self.floor is None else max(self.floor, mean - half)
        return mean, low, mean + half


def _digits(half: float) -> int:
    if not (half > 0) or not math.isfinite(half):
        return 1
    return min(4, max(1, 1 - math.floor(math.log10(half))))


def predictions_html(
    models: Sequence[ModelData],
    codes: Sequence[float],
    measured: Mapping[str, Mapping[str, Sequence[float]]] | None = None,
) -> str:
    """The table the explorer shows for `codes`, written in Python (the same numbers)."""
    key = " ".join(str(int(c)) for c in codes)
    seen = (measured or {}).get(key, {})
    rows = ""
    for m in models:
        mean, low, high = m.predict(codes)
        d = _digits(high - mean)
        got = ""
        if m.name in seen:
            e, lo, hi = seen[m.name]
            dm = _digits((hi - lo) / 2)
            got = f"{e:.{dm}f} ({lo:.{dm}f} to {hi:.{dm}f}) <b>measured</b>"
        rows += (
            f'<tr data-measure="{m.name}"><td>{m.title}</td><td class="pred">{mean:.{d}f}</td>'
            f"<td>{low:.{d}f} to {high:.{d}f}</td><td>{m.unit}</td><td>{got}</td></tr>"
        )
    return HEAD + rows + "</table>"


def explorer(
    free: Sequence[tuple[str, str, Sequence[str]]],
    models: Sequence[ModelData],
    measured: Mapping[str, Mapping[str, Sequence[float]]] | None = None,
) -> Any:
    """The Bokeh layout: a menu per free toggle, `name="free-<toggle>"`, and the table,
    `name="predictions"`, opening on every toggle at its first value.

    `free`: (toggle, its menu's title, its two values as the menu shows them), in the
    models' code order: the menus read in words, so a family can use them, while the
    toggle names the menu for scripts and tests;
    `measured`: codes as text ("-1 1 -1 ...") -> measure -> (estimate, low, high).
    """
    from bokeh.layouts import column, row
    from bokeh.models import CustomJS, Div, Select

    for name, _, values in free:
        # The callback reads a menu's code from which of its two options is chosen.
        if len(values) != 2 or values[0] == values[1]:
            raise ValueError(f"explorer: {name} needs two distinct values, got {values!r}")
    # Values in words are whole clauses: two menus to a row leave room to read them.
    selects = [
        Select(title=title, options=list(values), value=values[0], name=f"free-{name}", width=440)
        for name, title, values in free
    ]
    start = [-1.0] * len(free)
    div = Div(text=predictions_html(models, start, measured), name="predictions", width=900)
    data = [
        {
            "name": m.name,
            "title": m.title,
            "unit": m.unit,
            "terms": [list(t) for t in m.terms],
            "coef": list(map(float, m.coef)),
            "cov": [list(map(float, r)) for r in m.cov],
            "scale": float(m.scale),
            "floor": m.floor,
            "t": float(m.t),
            "noise": float(m.noise),
        }
        for m in models
    ]
    seen = {k: {m: list(map(float, v)) for m, v in d.items()} for k, d in (measured or {}).items()}
    callback = CustomJS(
        args={
            "selects": selects,
            "div": div,
            "models_json": json.dumps(data),
            "measured_json": json.dumps(seen),
            "head": HEAD,
        },
        code=CALLBACK,
    )
    for select in selects:
        select.js_on_change("value", callback)
    menus = [row(*selects[i : i + 2]) for i in range(0, len(selects), 2)]
    return column(*menus, div)


__all__ = ["HEAD", "ModelData", "explorer", "predictions_html"]
