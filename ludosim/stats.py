"""Small statistics helpers shared by tournaments, analyses and tests.

Plain numpy/math, no simulation: every function takes counts or arrays.
"""

from __future__ import annotations

import math

import numpy as np

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% by default).

    Preferred over the normal (Wald) interval because it stays inside [0, 1]
    and keeps its coverage for rates near 0 or 1 and small samples.
    """
    if trials <= 0:
        return (math.nan, math.nan)
    p = successes / trials
    denom = 1.0 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denom
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denom
    # At 0 or n successes the bound is exactly 0 or 1; rounding would leave 1 - 1e-16.
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == trials else min(1.0, centre + half)
    return (low, high)


def mean_ci(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean, lower, upper): normal-approximation CI of the mean, sample sd with ddof=1."""
    values = np.asarray(values, dtype=float)
    n = values.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    mean = float(values.mean())
    if n == 1:
        return (mean, math.nan, math.nan)
    se = float(values.std(ddof=1)) / math.sqrt(n)
    return (mean, mean - z * se, mean + z * se)


def chi2_sf(statistic: float, dof: int) -> float:
    """Upper tail P(X >= statistic) of a chi-square distribution with `dof` degrees of freedom.

    Exact series for the regularised upper incomplete gamma function
    Q(dof/2, statistic/2); accurate to ~1e-12 for the sizes used here.
    """
    if statistic <= 0:
        return 1.0
    a, x = dof / 2.0, statistic / 2.0
    if x < a + 1.0:
        # lower series: P(a, x) = x^a e^-x / Gamma(a+1) * sum x^n / ((a+1)...(a+n))
        term = total = 1.0 / a
        n = 0
        while abs(term) > 1e-15 * abs(total) and n < 10_000:
            n += 1
            term *= x / (a + n)
            total += term
        lower = total * math.exp(-x + a * math.log(x) - math.lgamma(a))
        return max(0.0, 1.0 - lower)
    # continued fraction for Q(a, x) (Lentz's method)
    tiny = 1e-300
    b = x + 1.0 - a
    c = 1.0 / tiny
    d = 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)
