"""Every study with a page takes the same steps under the same names (ludosim.studies)."""

from __future__ import annotations

import inspect

import pytest

from ludosim.studies import design, skill, unfold

STEPS = ("load_study", "play_study", "write_tables", "read_tables", "study_findings",
         "study_page", "run_study")  # fmt: skip


@pytest.mark.parametrize("module", [skill, unfold, design], ids=lambda m: m.__name__)
def test_a_study_module_has_every_step(module: object) -> None:
    missing = [name for name in STEPS if not callable(getattr(module, name, None))]
    assert not missing, f"{module.__name__} lacks {missing}"
    page = inspect.signature(module.study_page).parameters
    assert list(page)[:3] == ["tables", "out", "title"]
    assert page["title"].default is None
    assert list(inspect.signature(module.write_tables).parameters)[:2] == ["tables", "out"]
    assert next(iter(inspect.signature(module.read_tables).parameters)) == "folder"
    assert list(inspect.signature(module.study_findings).parameters) == ["tables"]


@pytest.mark.parametrize("module", [skill, unfold, design], ids=lambda m: m.__name__)
def test_the_steps_are_named_once(module: object) -> None:
    # The old per-study spellings would be a second name for the same step.
    stem = module.__name__.rsplit(".", 1)[1]
    old = [f"{stem}_page", f"{stem}_findings", f"run_{stem}", f"load_{stem}", f"{stem}_study"]
    assert not [name for name in old if hasattr(module, name)]
