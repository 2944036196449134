"""Shared pytest options.

`--regen-golden` rewrites `tests/golden/*.txt` from the current reference
engine instead of diffing against them; use it only when a change to the
games played is intended (and bump `SEMANTICS_VERSION` with it).
"""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.txt from the reference engine instead of comparing",
    )


@pytest.fixture
def regen_golden(request: pytest.FixtureRequest) -> bool:
    """True when the run was started with `--regen-golden`."""
    return bool(request.config.getoption("--regen-golden"))
