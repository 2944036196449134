"""The notebooks of analyses/ run top to bottom from their own folder, and are stored with
the outputs they produce.

Each notebook is executed with nbclient in a fresh kernel, with analyses/ as the working
directory (as when opened in Jupyter there), under a time limit per notebook. The text of
every output of the fresh run must equal the stored one: the notebooks use fixed seeds, so
a stored notebook whose numbers differ from what its code now gives is stale.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

ANALYSES = Path(__file__).resolve().parents[2] / "analyses"
# Seconds a whole notebook may take (its figures need about 10-20 s once the kernel is
# compiled; a first compile adds up to 30 s per rule variant).
NOTEBOOK_TIMEOUT_S = {
    "tour.ipynb": 180,
    "sweep-analysis.ipynb": 180,
    "luck-or-skill.ipynb": 180,
    "design.ipynb": 180,
}
FIGURES = {"tour.ipynb": 3, "sweep-analysis.ipynb": 4, "luck-or-skill.ipynb": 3, "design.ipynb": 1}


def _texts(notebook: object) -> list[list[str]]:
    """Per code cell, the text of its outputs: streams and text/plain results."""
    out = []
    for cell in notebook.cells:  # type: ignore[attr-defined]
        if cell.cell_type != "code":
            continue
        texts: list[str] = []
        streaming = False
        for output in cell.outputs:
            if output.output_type == "stream":
                # The kernel cuts printed text into stream messages as timing falls:
                # consecutive ones are one text.
                if streaming:
                    texts[-1] += output.text
                else:
                    texts.append(output.text)
                streaming = True
                continue
            streaming = False
            if output.output_type in ("execute_result", "display_data"):
                texts.append(output.data.get("text/plain", ""))
        out.append(texts)
    return out


def _figures(notebook: object) -> int:
    return sum(
        "image/png" in output.get("data", {})
        for cell in notebook.cells  # type: ignore[attr-defined]
        if cell.cell_type == "code"
        for output in cell.outputs
    )


def test_every_notebook_is_tested() -> None:
    assert sorted(p.name for p in ANALYSES.glob("*.ipynb")) == sorted(NOTEBOOK_TIMEOUT_S)


@pytest.mark.parametrize("name", sorted(NOTEBOOK_TIMEOUT_S))
def test_notebook_runs_from_its_folder_and_matches_its_stored_outputs(name: str) -> None:
    path = ANALYSES / name
    stored = nbformat.read(path, as_version=4)
    code = [c for c in stored.cells if c.cell_type == "code"]
    assert code and all(c.outputs for c in code), f"{name} is stored without its outputs"
    assert not any(o.output_type == "error" for c in code for o in c.outputs)
    assert _figures(stored) == FIGURES[name], "figures are shown inline and stored"
    assert "matplotlib.use(" not in "".join(c.source for c in code), "no forced backend"

    fresh = nbformat.read(path, as_version=4)
    limit = NOTEBOOK_TIMEOUT_S[name]
    started = time.monotonic()
    nbclient.NotebookClient(
        fresh, timeout=limit, kernel_name="python3", resources={"metadata": {"path": ANALYSES}}
    ).execute()
    seconds = time.monotonic() - started
    assert seconds < limit, f"{name} took {seconds:.0f} s (limit {limit} s)"
    assert _figures(fresh) == FIGURES[name]
    assert _texts(fresh) == _texts(stored), (
        f"{name}: its stored outputs are stale; re-run it from analyses/ with "
        f"`../.venv/bin/jupyter-execute --inplace {name}`"
    )
