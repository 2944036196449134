"""Statistics helpers against textbook values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from ludosim.results import stats
from ludosim.results.stats import Z95, chi2_sf, mean_ci, wilson_interval


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


def test_median_ci_matches_an_exact_binomial_sum() -> None:
    n = 101
    x = np.arange(n, dtype=float)
    cdf = np.cumsum([math.comb(n, k) / 2**n for k in range(n)])
    j = int(np.nonzero(cdf <= 0.025)[0][-1]) + 1
    median, low, high = stats.median_ci(x)
    assert (median, low, high) == (50.0, x[j - 1], x[n - j])
    assert 1 - 2 * cdf[j - 1] >= 0.95 > 1 - 2 * cdf[j]
    # For large n the ranks approach n/2 -+ 1.96 sqrt(n)/2.
    _, low, high = stats.median_ci(np.arange(1_000_000, dtype=float))
    assert abs(low - (500_000 - Z95 * 500)) <= 2
    assert abs(high - (500_000 + Z95 * 500)) <= 2


def test_diff_proportions_is_newcombe_hybrid_score() -> None:
    d, low, high = stats.diff_proportions(30, 50, 20, 50)
    l1, u1 = wilson_interval(30, 50)
    l0, u0 = wilson_interval(20, 50)
    assert d == pytest.approx(0.2)
    assert low == pytest.approx(0.2 - math.sqrt((0.6 - l1) ** 2 + (u0 - 0.4) ** 2))
    assert high == pytest.approx(0.2 + math.sqrt((u1 - 0.6) ** 2 + (0.4 - l0) ** 2))


def test_diff_means_is_welch_normal() -> None:
    a, b = np.array([1.0, 2.0, 3.0, 6.0]), np.array([1.0, 1.0, 4.0])
    se = math.sqrt(np.var(a, ddof=1) / 4 + np.var(b, ddof=1) / 3)
    assert stats.diff_means(a, b) == pytest.approx((1.0, 1 - Z95 * se, 1 + Z95 * se))


def test_zero_crossing() -> None:
    assert stats.zero_crossing([0, 0.5, 1], [0.1, 0.02, -0.06]) == pytest.approx(0.625)
    assert stats.zero_crossing([1, 0, 0.5], [-0.06, 0.1, 0.02]) == pytest.approx(0.625)
    assert stats.zero_crossing([0, 0.5], [0.1, 0.0]) == pytest.approx(0.5)
    assert math.isnan(stats.zero_crossing([0, 1], [0.1, 0.05]))  # always pays
    assert math.isnan(stats.zero_crossing([0, 1], [-0.1, -0.2]))  # never paid


def test_holm_step_down_by_hand() -> None:
    # Sorted 0.01, 0.02, 0.04 with m = 3: 3 x 0.01, max(0.03, 2 x 0.02), max(0.04, 1 x 0.04)
    assert stats.holm([0.04, 0.01, 0.02]) == pytest.approx([0.04, 0.03, 0.04])
    assert stats.holm([0.5, 0.9]) == pytest.approx([1.0, 1.0])  # capped at 1, monotone
    out = stats.holm([0.01, math.nan])
    assert out[0] == pytest.approx(0.01) and math.isnan(out[1])  # NaN is not a test


def test_score_test_agrees_with_the_wilson_interval() -> None:
    """The Wilson interval is the score test inverted: it excludes p0 exactly when p < 0.05."""
    for trials in (20, 100, 1000):
        for successes in range(0, trials + 1, max(1, trials // 50)):
            low, high = wilson_interval(successes, trials)
            excluded = not low <= 0.25 <= high
            p = stats.score_test_p(successes, trials, 0.25)
            if abs(p - 0.05) > 1e-9:
                assert (p < 0.05) == excluded, (successes, trials, p)
    z = (60 / 100 - 0.5) / math.sqrt(0.25 / 100)
    assert stats.score_test_p(60, 100, 0.5) == pytest.approx(math.erfc(z / math.sqrt(2)))


def test_interval_p_from_a_normal_interval() -> None:
    assert stats.interval_p(2.0, 2.0 - Z95, 2.0 + Z95) == pytest.approx(math.erfc(2 / math.sqrt(2)))
    assert stats.interval_p(1.0, 0.0, 2.0) == pytest.approx(0.05)  # the bound touches zero
    assert stats.interval_p(3.0, 3.0, 3.0) == 0.0 and stats.interval_p(0.0, 0.0, 0.0) == 1.0


def test_z_for_matches_z95() -> None:
    assert stats.z_for(0.05) == pytest.approx(Z95)
    assert stats.normal_cdf(stats.z_for(0.01)) == pytest.approx(0.995)
