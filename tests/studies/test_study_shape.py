"""Every study with a page is a package of the same stages under the same names
(ludosim.studies): one module per stage, and each step in its stage's module."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from ludosim.studies import design, duels, skill, unfold

STUDIES = [skill, unfold, design, duels]
STEPS = ("load_study", "plan_study", "play_study", "write_tables", "read_tables",
         "study_findings", "study_page", "run_study")  # fmt: skip
# Where each step lives: the stage module of the same name in every study.
STAGE_OF = {"load_study": "spec", "plan_study": "plan", "play_study": "play",
            "write_tables": "tables", "read_tables": "tables", "study_findings": "findings",
            "study_page": "page", "run_study": "page"}  # fmt: skip


@pytest.mark.parametrize("module", STUDIES, ids=lambda m: m.__name__)
def test_a_study_module_has_every_step(module: object) -> None:
    missing = [name for name in STEPS if not callable(getattr(module, name, None))]
    assert not missing, f"{module.__name__} lacks {missing}"
    page = inspect.signature(module.study_page).parameters
    assert list(page)[:3] == ["tables", "out", "title"]
    assert page["title"].default is None
    assert list(inspect.signature(module.write_tables).parameters)[:2] == ["tables", "out"]
    assert next(iter(inspect.signature(module.read_tables).parameters)) == "folder"
    assert list(inspect.signature(module.study_findings).parameters) == ["tables"]
    assert next(iter(inspect.signature(module.plan_study).parameters)) == "study"


@pytest.mark.parametrize("module", STUDIES, ids=lambda m: m.__name__)
def test_each_step_lives_in_its_stage_module(module: object) -> None:
    folder = Path(module.__file__).parent
    stages = {p.stem for p in folder.glob("*.py")}
    assert set(STAGE_OF.values()) <= stages, f"{module.__name__} lacks a stage module"
    where = {name: getattr(module, name).__module__ for name in STEPS}
    assert where == {name: f"{module.__name__}.{STAGE_OF[name]}" for name in STEPS}


@pytest.mark.parametrize("module", STUDIES, ids=lambda m: m.__name__)
def test_the_steps_are_named_once(module: object) -> None:
    # The old per-study spellings would be a second name for the same step.
    stem = module.__name__.rsplit(".", 1)[1]
    old = [f"{stem}_page", f"{stem}_findings", f"run_{stem}", f"load_{stem}", f"{stem}_study"]
    assert not [name for name in old if hasattr(module, name)]


def test_a_full_disk_while_a_study_is_written_is_one_line(tmp_path: Path) -> None:
    """skill and unfold write through `run_into_folder`: a failed write is the one line
    a sweep or a report gives (`write_error`), never a traceback, and leaves no files."""
    import errno

    from ludosim.results.failures import ResultsError
    from ludosim.studies.study import run_into_folder

    out = tmp_path / "out"

    def write(tables: object, folder: Path) -> None:
        raise OSError(errno.ENOSPC, "No space left on device", str(folder / "skill.csv"))

    with pytest.raises(ResultsError) as info:
        run_into_folder(out, lambda: None, write, lambda t, f: f / "index.html", what="skill study")
    assert str(info.value) == (
        f"cannot write {out / 'skill.csv'}: the disk is full; the skill study was not written"
    )
    assert not list(out.glob("*.csv"))
