"""Where numba caches the kernel: a per-source-hash folder, without touching numba's settings.

Each check runs in a fresh interpreter, because numba picks a function's cache
folder when the function is decorated, and this process has already imported
the kernel.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import importlib, json, sys
import numba
before = numba.config.CACHE_DIR
import ludosim.engine as engine
from ludosim.engine.plans import plan_key_step
plan_key_step(3)  # compiles and writes the cache
sys.path.insert(0, sys.argv[1])
user = importlib.import_module("user_code")
user.twice(2)
print(json.dumps({
    "before": before,
    "after": numba.config.CACHE_DIR,
    "kernel_folder": engine.cache_dir(),
    "kernel_path": plan_key_step._cache._cache_path,
    "user_path": user.twice._cache._cache_path,
}))
"""

USER_CODE = """
from numba import njit


@njit(cache=True)
def twice(x):
    return 2 * x
"""


def _probe(tmp_path: Path, **env: str) -> dict:
    (tmp_path / "user").mkdir()
    (tmp_path / "user" / "user_code.py").write_text(USER_CODE)
    environ = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    environ.update(XDG_CACHE_HOME=str(tmp_path / "xdg"), PYTHONPATH=str(ROOT), **env)
    out = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path / "user")],
        env=environ,
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is cached without the JIT"
)
def test_only_the_kernel_goes_to_the_hash_folder(tmp_path: Path) -> None:
    got = _probe(tmp_path)
    assert got["after"] == got["before"] == "", "importing the kernel changed numba's CACHE_DIR"
    folder = Path(got["kernel_folder"])
    assert folder.parent == tmp_path / "xdg" / "ludosim"
    assert folder.name.startswith("numba-")
    assert Path(got["kernel_path"]).parent == folder
    assert list(Path(got["kernel_path"]).glob("plans.plan_key_step-*.nbi")), "no index written"
    # A user's own function keeps numba's locator: its module's __pycache__.
    assert Path(got["user_path"]) == tmp_path / "user" / "__pycache__"
    assert list(Path(got["user_path"]).glob("user_code.twice-*.nbi"))
    assert not list(folder.rglob("user_code*"))


@pytest.mark.skipif(
    os.environ.get("NUMBA_DISABLE_JIT") == "1", reason="nothing is cached without the JIT"
)
def test_a_user_set_numba_cache_dir_wins(tmp_path: Path) -> None:
    mine = tmp_path / "numba-cache"
    got = _probe(tmp_path, NUMBA_CACHE_DIR=str(mine))
    assert got["before"] == got["after"] == str(mine)
    assert Path(got["kernel_path"]).parent == mine
    assert Path(got["user_path"]).parent == mine
