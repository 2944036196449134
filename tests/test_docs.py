"""README.md's preset and toggle tables are generated from `ludosim.rules`: they cannot drift."""

from __future__ import annotations

import importlib.util
from pathlib import Path

from ludosim.rules import PRESETS, TOGGLES

ROOT = Path(__file__).resolve().parents[1]


def _generator():
    spec = importlib.util.spec_from_file_location("gen_toggles", ROOT / "docs" / "gen_toggles.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_readme_tables_match_the_code() -> None:
    readme = (ROOT / "README.md").read_text()
    assert _generator().render(readme) == readme, (
        "README.md's preset/toggle tables are out of date: run python docs/gen_toggles.py --write"
    )


def test_tables_list_every_toggle_and_preset() -> None:
    gen = _generator()
    toggles = gen.toggles_table()
    rows = {line.split(" | ")[0]: line for line in toggles.splitlines()}
    for name, toggle in TOGGLES.items():
        row = rows[f"| `{name}`"]
        assert toggle.description in row and toggle.allowed() in row
        assert all(seed[:3] in row for seed in toggle.seeds)
    presets = gen.presets_table()
    for preset in PRESETS.values():
        assert f"| `{preset.name}` |" in presets
        assert all(seed in presets for seed in preset.seeds)
