"""Statistics primitives shared by tournaments, analyses, findings and tests.

Plain numpy/math, no simulation and no pandas: every function takes counts, arrays
or estimates with their intervals. All intervals are two-sided 95% by default (`Z95`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist

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


def median_ci(values: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(median, lower, upper): distribution-free order-statistic CI of the median.

    The number B of observations below the true median is Binomial(n, 1/2), so the
    interval [x_(j), x_(n+1-j)] (1-based order statistics) covers the median with
    probability 1 - 2 P(B <= j - 1). j is the largest rank with
    P(B <= j - 1) <= alpha / 2, so the coverage is at least 95% (conservative; ties,
    as in integer turn counts, only make it more so). The binomial tail is summed
    exactly in log space, which stays accurate for millions of games.
    """
    x = np.sort(np.asarray(values, dtype=float))
    n = x.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    median = float(np.median(x))
    alpha = 2.0 * (1.0 - normal_cdf(z))
    k = np.arange(n)
    # log pmf(k) of Binomial(n, 1/2) by the ratio pmf(k+1)/pmf(k) = (n-k)/(k+1).
    log_pmf = np.concatenate(([0.0], np.cumsum(np.log(n - k) - np.log(k + 1)))) - n * math.log(2)
    cdf = np.cumsum(np.exp(log_pmf))  # cdf[i] = P(B <= i)
    # j - 1 = the largest i with cdf[i] <= alpha/2, so j = that i + 1 (1-based rank).
    small = np.nonzero(cdf <= alpha / 2 + 1e-12)[0]
    if small.size == 0:
        return (median, math.nan, math.nan)  # too few games for a 95% interval
    j = int(small[-1]) + 1
    return (median, float(x[j - 1]), float(x[n - j]))


def quantile_ci(values: np.ndarray, q: float, z: float = Z95) -> tuple[float, float, float]:
    """(q-quantile, lower, upper): distribution-free order-statistic CI of a quantile.

    The number B of observations below the true q-quantile is Binomial(n, q), so
    [x_(j), x_(k)] (1-based order statistics) covers it with probability
    P(j <= B < k); j and k are the ranks where B's cdf crosses alpha/2 and
    1 - alpha/2, the normal approximation of the binomial with a continuity
    correction (n q (1 - q) >= 10 at the sizes it is used for). `median_ci` is the
    exact version at q = 1/2.
    """
    x = np.sort(np.asarray(values, dtype=float))
    n = x.size
    if n == 0:
        return (math.nan, math.nan, math.nan)
    estimate = float(np.quantile(x, q))
    half = z * math.sqrt(n * q * (1.0 - q))
    j = math.floor(n * q - half)
    k = math.ceil(n * q + half) + 1
    if j < 1 or k > n:
        return (estimate, math.nan, math.nan)  # too few games for an interval this wide
    return (estimate, float(x[j - 1]), float(x[k - 1]))


def imbalance(wins: Sequence[int], bootstrap: int = 400, seed: int = 0) -> tuple[float, float]:
    """(estimate, standard error) of how far positions' win shares are from fair, in pp.

    `wins[k]` counts the games won by turn-order position k (games with a winner).
    The estimate is 100 sqrt(max(0, mean_k[(p_k - 1/n)^2 - p_k (1 - p_k) / N])): the
    root mean square deviation from the fair share, less the part the noise of N
    games adds on average (each p_k varies by p_k (1 - p_k) / N), so that equal
    shares give about 0 at any N rather than a noise floor. The standard error is
    the spread of the estimate over `bootstrap` multinomial resamples of the counts
    (parametric bootstrap, drawn from `seed`: the same counts give the same error).
    """
    counts = np.asarray(wins, dtype=float)
    total, n = counts.sum(), counts.size
    if total <= 0 or n < 2:
        return (math.nan, math.nan)

    def statistic(c: np.ndarray) -> np.ndarray:
        p = c / total
        noise = p * (1.0 - p) / total
        return 100.0 * np.sqrt(np.maximum(0.0, ((p - 1.0 / n) ** 2 - noise).mean(axis=-1)))

    rng = np.random.default_rng(seed)
    draws = rng.multinomial(int(total), counts / total, size=bootstrap)
    return (float(statistic(counts)), float(statistic(draws.astype(float)).std(ddof=1)))


def normal_cdf(z: float) -> float:
    """P(Z <= z) for a standard normal variable."""
    return 0.5 * math.erfc(-z / math.sqrt(2.0))


def diff_proportions(
    x1: int, n1: int, x0: int, n0: int, z: float = Z95
) -> tuple[float, float, float]:
    """(p1 - p0, lower, upper) for independent samples: Newcombe's hybrid score interval.

    L = d - sqrt((p1 - l1)^2 + (u0 - p0)^2), U = d + sqrt((u1 - p1)^2 + (p0 - l0)^2)
    with (l, u) the Wilson intervals of each proportion (Newcombe 1998, method 10).
    Unlike the Wald interval it stays inside [-1, 1] and behaves near 0 and 1.
    """
    if n1 <= 0 or n0 <= 0:
        return (math.nan, math.nan, math.nan)
    p1, p0 = x1 / n1, x0 / n0
    l1, u1 = wilson_interval(x1, n1, z)
    l0, u0 = wilson_interval(x0, n0, z)
    d = p1 - p0
    return (
        d,
        d - math.sqrt((p1 - l1) ** 2 + (u0 - p0) ** 2),
        d + math.sqrt((u1 - p1) ** 2 + (p0 - l0) ** 2),
    )


def diff_means(a: np.ndarray, b: np.ndarray, z: float = Z95) -> tuple[float, float, float]:
    """(mean(a) - mean(b), lower, upper) for independent samples: Welch's normal interval.

    se = sqrt(s_a^2 / n_a + s_b^2 / n_b) with sample variances (ddof=1).
    """
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if a.size < 2 or b.size < 2:
        return (math.nan, math.nan, math.nan)
    d = float(a.mean() - b.mean())
    se = math.sqrt(a.var(ddof=1) / a.size + b.var(ddof=1) / b.size)
    return (d, d - z * se, d + z * se)


def zero_crossing(x: Sequence[float], y: Sequence[float]) -> float:
    """First x where y, positive before, reaches zero (linear interpolation); NaN if never.

    Points are taken in increasing x. A y of exactly 0 after a positive one is its own
    crossing; a curve that starts at or below zero never "stops paying" and gives NaN.
    """
    order = np.argsort(np.asarray(x, dtype=float), kind="stable")
    xs = np.asarray(x, dtype=float)[order]
    ys = np.asarray(y, dtype=float)[order]
    for i in range(1, xs.size):
        if ys[i - 1] > 0 >= ys[i]:
            return float(xs[i - 1] + (xs[i] - xs[i - 1]) * ys[i - 1] / (ys[i - 1] - ys[i]))
    return math.nan


def score_test_p(successes: int, trials: int, p0: float) -> float:
    """Two-sided p-value of the score test of a binomial proportion against `p0`.

    z = (x/n - p0) / sqrt(p0 (1 - p0) / n) against the standard normal. The Wilson
    interval is this test inverted: it excludes `p0` exactly when p < 0.05, so the
    p-value and the interval printed beside it never disagree.
    """
    if trials <= 0 or not 0.0 < p0 < 1.0:
        return math.nan
    z = (successes / trials - p0) / math.sqrt(p0 * (1.0 - p0) / trials)
    return 2.0 * (1.0 - normal_cdf(abs(z)))


def interval_p(estimate: float, low: float, high: float, z: float = Z95) -> float:
    """Two-sided p-value of "the effect is zero" from an estimate and its normal CI.

    se = (high - low) / (2 z); p = 2 (1 - Phi(|estimate| / se)). Meant for the
    symmetric normal intervals (paired, Welch, factorial contrasts). A zero-width
    interval gives 0 (or 1 when the estimate is exactly zero).
    """
    se = (high - low) / (2.0 * z)
    if math.isnan(se) or math.isnan(estimate):
        return math.nan
    if se <= 0:  # no spread at all (an exact contrast): zero is excluded unless it is the value
        return 1.0 if estimate == 0 else 0.0
    return 2.0 * (1.0 - normal_cdf(abs(estimate) / se))


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error rate), in the input order.

    Sorted ascending p_(1) <= ... <= p_(m): adjusted p_(i) = max over j <= i of
    min(1, (m - j + 1) p_(j)). Rejecting where the adjusted value is below 0.05 keeps
    the chance of any false rejection among the m tests at most 5%. NaNs stay NaN and
    do not count towards m.
    """
    values = [float(p) for p in p_values]
    known = sorted((p, i) for i, p in enumerate(values) if not math.isnan(p))
    m = len(known)
    out = [math.nan] * len(values)
    running = 0.0
    for rank, (p, i) in enumerate(known):
        running = max(running, min(1.0, (m - rank) * p))
        out[i] = running
    return out


def z_for(alpha: float) -> float:
    """The two-sided normal quantile for level `alpha`: z_for(0.05) == Z95."""
    return NormalDist().inv_cdf(1.0 - alpha / 2.0)
