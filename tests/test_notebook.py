"""analyses/explore.ipynb runs top to bottom on a small results folder.

The code cells are executed in order in one namespace (what "Run all" does),
against the checked-in sweep fixture, so a notebook that drifts from the
library's API fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOK = ROOT / "analyses" / "explore.ipynb"
FIXTURE = ROOT / "tests" / "fixtures" / "results_small" / "toggles"


def test_explore_notebook_runs_on_a_results_folder(monkeypatch) -> None:
    monkeypatch.setenv("LUDOSIM_RESULTS", str(FIXTURE))
    notebook = json.loads(NOTEBOOK.read_text())
    namespace: dict = {}
    for cell in notebook["cells"]:
        if cell["cell_type"] == "code":
            exec(compile("".join(cell["source"]), str(NOTEBOOK), "exec"), namespace)
    df, fpa, summary = namespace["df"], namespace["fpa"], namespace["summary"]
    assert isinstance(df, pd.DataFrame) and len(df) == 1800  # 6 cells x 300 games
    assert set(summary) == set(df["name"].unique())
    # The hand-made figure shows the same numbers as the library's table.
    for name, rate in summary.items():
        first = df[df["name"] == name]
        first = first[first["winner"] >= 0]
        assert abs(rate - (first["winner"] == first["first"]).mean()) < 1e-4
    assert len(namespace["fig"].axes[0].patches) == len(fpa)
