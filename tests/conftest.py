"""Shared pytest options, the one reading of `LUDOSIM_VERIFY`, and the tests' import path.

`--regen-golden` rewrites `tests/golden/*.txt` from the current reference
engine instead of diffing against them; use it only when a change to the
games played is intended (and bump `SEMANTICS_VERSION` with it).

`VERIFY` is true when `LUDOSIM_VERIFY` is set to anything but `0` (`make
verify` sets it to 1): the longer checks then run at their full size. It is the
one reading of that variable. Tests marked `slow` run only then; every other
test runs in the everyday suite, some of them at a smaller size without it
(`full_or(full, quick)` picks the size).

The tests live in one folder per layer of the package (`rules/`, `engine/`, ...;
`project/` for the docs, README and notebooks; `engine/kernel/` for the kernel-level
tests that `make coverage` runs). Test files import the shared helpers here
(`scenario_helpers`, `design_helpers`, `page_helpers`, this `conftest`) and each
other's helpers (`from test_kernel_agreement import assert_same_games`) by plain name
from any folder: this file puts `tests/` and every folder of tests on the import path.
Test file names are unique across the folders: pytest, too, imports each test file by
its plain name (the folders have no `__init__.py`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

TESTS = Path(__file__).resolve().parent
FOLDERS = sorted({p.parent for p in TESTS.rglob("test_*.py")} - {TESTS})
for _folder in [TESTS, *FOLDERS]:
    if str(_folder) not in sys.path:
        sys.path.insert(0, str(_folder))

VERIFY = os.environ.get("LUDOSIM_VERIFY", "") not in ("", "0")


def full_or(full: int, quick: int) -> int:
    """`full` under `make verify` (`VERIFY`), else the everyday suite's smaller `quick`."""
    return full if VERIFY else quick


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.txt from the reference engine instead of comparing",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the `slow` tests unless `make verify` (LUDOSIM_VERIFY=1) asked for them."""
    if VERIFY:
        return
    skip = pytest.mark.skip(reason="slow: make verify (LUDOSIM_VERIFY=1) only")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was started with `--regen-golden`."""
    return bool(request.config.getoption("--regen-golden"))


@pytest.fixture
def whole_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk played in one kernel call (no pieces of a few seconds), so that the
    calls a test records are the chunks computed (`ludosim.sweep.partial`)."""
    monkeypatch.setattr("ludosim.sweep.partial.FIRST_PIECE", 10**9)
