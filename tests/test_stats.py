"""Statistics helpers against textbook values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ludosim.stats import chi2_sf, mean_ci, wilson_interval


@pytest.mark.parametrize(
    ("statistic", "dof", "tail"),
    [
        (3.841458820694124, 1, 0.05),  # the familiar 5% critical value with 1 dof
        (5.991464547107979, 2, 0.05),  # 2 dof: the tail is exp(-x/2)
        (2.0, 2, math.exp(-1.0)),
        (18.307038053275146, 10, 0.05),
        (124.3421134, 100, 0.05),
        (0.0, 3, 1.0),
    ],
)
def test_chi2_upper_tail_matches_tables(statistic: float, dof: int, tail: float) -> None:
    assert chi2_sf(statistic, dof) == pytest.approx(tail, rel=1e-6)


def test_wilson_interval_by_hand() -> None:
    """30 successes in 100: centre (0.3 + z²/200)/(1 + z²/100), half-width per Wilson (1927)."""
    z = 1.959963984540054
    n, p = 100, 0.3
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low, high = wilson_interval(30, 100)
    assert low == pytest.approx(centre - half) and high == pytest.approx(centre + half)
    assert low == pytest.approx(0.2189488529, abs=1e-9)
    assert high == pytest.approx(0.3958485463, abs=1e-9)


def test_wilson_interval_stays_in_unit_range() -> None:
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
    assert all(math.isnan(v) for v in wilson_interval(0, 0))


def test_mean_ci_uses_sample_standard_error() -> None:
    values = np.array([1.0, 2.0, 3.0, 4.0])
    mean, low, high = mean_ci(values)
    se = np.std(values, ddof=1) / 2.0
    assert mean == 2.5
    assert high - mean == pytest.approx(1.959963984540054 * se)
    assert mean - low == pytest.approx(high - mean)
