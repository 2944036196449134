"""ludosim's `maedn` against OpenSpiel's `maedn` (a peer people trust), in distribution.

`benchmarks/peer_openspiel.py` says which toggles match OpenSpiel's documented
rule choices and how each side is measured; docs/rules.md section 6 gives the
numbers at 20,000 games. Both sides play uniformly random moves from fixed
seeds; each measure (mean rolls, mean captures, seat 0's win share) must agree
within |z| < 3.29 (the two-sided 99.9% interval of the difference contains 0),
and the roll counts' distributions by a KS test at level 0.001. The second test
shows the check has power: a rule OpenSpiel does not play (three start tries)
is told apart. 3,000 games a side in the everyday suite (about 20 s of
OpenSpiel), 20,000 with `LUDOSIM_VERIFY=1`. Skipped where `open-spiel` is not
installed.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pandas as pd
import pytest
from conftest import VERIFY

pytest.importorskip("pyspiel")

Z_999 = 3.29  # two-sided 99.9% normal quantile
GAMES = 20_000 if VERIFY else 3_000


def _harness():
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "peer_openspiel.py"
    spec = importlib.util.spec_from_file_location("peer_openspiel", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["peer_openspiel"] = module
    spec.loader.exec_module(module)
    return module


peer = _harness()


@pytest.fixture(scope="module")
def openspiel() -> pd.DataFrame:
    return peer.openspiel_games(GAMES, seed=11)


def test_maedn_agrees_with_openspiel_in_distribution(openspiel: pd.DataFrame) -> None:
    ours = peer.ludosim_games(GAMES, seed=11)
    for c in peer.compare(ours, openspiel):
        z = c.difference / ((c.ci_high - c.ci_low) / (2 * 1.96))
        assert abs(z) < Z_999, c
    assert peer.ks_p(ours["rolls"].to_numpy(), openspiel["rolls"].to_numpy()) > 0.001
    # Games cut at MAX_ROLLS are rare on both sides (a few in a thousand).
    assert ours["truncated"].mean() < 0.01 and openspiel["truncated"].mean() < 0.01


def test_the_comparison_tells_a_different_rule_apart(openspiel: pd.DataFrame) -> None:
    rules = peer.OPENSPIEL_RULES.replace(start_attempts=3)
    df = peer.simulate(rules, games=GAMES, seed=11)
    ours = openspiel.assign(rolls=df["rolls"].to_numpy())
    (rolls, *_) = peer.compare(ours, openspiel)
    assert rolls.ci_low > 0  # three tries make games longer, beyond the interval
    assert rolls.difference / ((rolls.ci_high - rolls.ci_low) / (2 * 1.96)) > Z_999
