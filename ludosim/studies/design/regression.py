"""The model (`fit_model`): per measure, a meta-regression over the screening's rule sets
with a lack-of-fit variance component, and its 95% prediction interval (`Model.predict`);
the lack of fit that rule sets on games of their own show (`misfit_from`,
`with_held_out_misfit`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd

from ludosim.report.contrasts import ALPHA, CellSamples
from ludosim.results.measures import MEASURES
from ludosim.studies.design.stages import StageSamples


@dataclass
class Model:
    """One measure's random-effects meta-regression over the free toggles' codes.

    `terms` are the columns after the intercept; `coef` (intercept first) and `cov`
    their estimates and covariance; `misfit` the lack-of-fit variance (tau^2: how far
    rule sets lie from the model beyond their games' noise, a property of the model
    and the game that does not shrink as a measurement plays more games); `level` the
    variance of the model's level from the screening's shared dice (its rule sets
    played the same games, so their common error moves the whole fit and does not
    cancel against a measurement on other dice); `df` the residual degrees of freedom.
    """

    measure: str
    terms: list[tuple[int, ...]]
    coef: np.ndarray
    cov: np.ndarray
    misfit: float
    level: float
    df: int
    screened_misfit: float = 0.0  # the part the screening's own residuals show

    def row(self, codes: np.ndarray) -> np.ndarray:
        codes = np.atleast_2d(codes)
        parts = [np.ones(len(codes))] + [np.prod(codes[:, list(t)], axis=1) for t in self.terms]
        return np.column_stack(parts)

    def variance(self, codes: np.ndarray, noise: np.ndarray | float) -> np.ndarray:
        """The variance of a measurement around the prediction: the coefficients'
        uncertainty, the lack of fit, the level's shared dice and the measurement's own
        noise (`noise`, its standard error)."""
        x = self.row(codes)
        var_model = np.einsum("ij,jk,ik->i", x, self.cov, x)
        return var_model + self.misfit + self.level + np.asarray(noise, dtype=float) ** 2

    def t(self) -> float:
        from scipy import stats

        return float(stats.t.ppf(1 - ALPHA / 2, max(self.df, 1)))

    def predict(self, codes: np.ndarray, noise: np.ndarray | float) -> tuple[np.ndarray, ...]:
        """(prediction, low, high): the 95% prediction interval of a measurement whose own
        standard error is `noise`."""
        mean = self.row(codes) @ self.coef
        half = self.t() * np.sqrt(self.variance(codes, noise))
        low = mean - half
        if MEASURES[self.measure].statistic == "imbalance":
            low = np.maximum(low, 0.0)  # a distance from fair is never below 0
        return mean, low, mean + half


def fit_model(
    measure: str,
    codes: np.ndarray,
    table: pd.DataFrame,
    model_terms: list[tuple[int, ...]],
    level: float = 0.0,
    paired: bool = False,
) -> Model:
    """A measure's estimates on the design's codes: a meta-regression with a
    lack-of-fit variance component (statsmodels WLS).

    The rule sets' estimates have known standard errors `se`; what scatters beyond
    them is lack of fit, estimated by the method of moments of DerSimonian and Laird
    (1986) as extended to meta-regression (Raudenbush 2009):
    `tau^2 = max(0, (Q - df) / (tr W - tr((X'WX)^-1 X'W^2 X)))`, with `Q` the weighted
    residual sum of squares of the fit with weights `W = 1 / se^2`. The model is then
    refitted with weights `1 / (se^2 + tau^2)`; its covariance is that fit's, unscaled.
    `level`: the variance of the screening's shared error (`screening_level`). With
    `paired` (the rule sets played the same games, and `level` was measured from their
    covariance), the part of each estimate's noise that scatters it around the model is
    its own variance less the shared part, `se^2 - level`: with the whole `se^2`, shared
    dice that cancel between rule sets would be taken for noise, and hide lack of fit.
    """
    import statsmodels.api as sm

    y = table["estimate"].to_numpy(float)
    var = np.maximum(table["se"].to_numpy(float), 1e-9) ** 2
    if paired:
        var = np.maximum(var - level, 1e-3 * var)
    probe = Model(measure, model_terms, np.zeros(0), np.zeros((0, 0)), 0.0, 0.0, 0)
    x = probe.row(codes)
    w = 1.0 / var
    fixed = sm.WLS(y, x, weights=w).fit()
    df = round(fixed.df_resid)
    misfit = 0.0
    if df > 0:
        bread = np.linalg.pinv((x.T * w) @ x)
        denominator = w.sum() - np.trace(bread @ ((x.T * w**2) @ x))
        if denominator > 0:
            misfit = max(0.0, (float(fixed.ssr) - df) / denominator)
    fit = sm.WLS(y, x, weights=1.0 / (var + misfit)).fit()
    cov = np.asarray(fit.normalized_cov_params)
    params = np.asarray(fit.params)
    return Model(measure, model_terms, params, cov, misfit, float(level), df, misfit)


def misfit_from(model: Model, codes: np.ndarray, measured: np.ndarray, se: np.ndarray) -> float:
    """The lack of fit that measurements on games of their own show: the method of moments
    over their prediction errors, `mean(r^2 - (x'Cx + level + se^2))`, at least 0.

    The screening's residuals cannot show an effect the design aliases with a term the
    model keeps (a three-toggle interaction read as a two-toggle one): the fit absorbs it.
    Rule sets outside the design, on other dice, show it as error beyond what the model's
    other variances explain."""
    codes = np.atleast_2d(codes)
    if not len(codes):
        return 0.0
    r = np.asarray(measured, dtype=float) - model.row(codes) @ model.coef
    explained = replace(model, misfit=0.0).variance(codes, np.asarray(se, dtype=float))
    return max(0.0, float(np.mean(r**2 - explained)))


def with_held_out_misfit(
    model: Model, codes: np.ndarray, measured: np.ndarray, se: np.ndarray
) -> Model:
    """The model with the larger of the screening's lack of fit and the holdout's.

    A lack of fit estimated from `h` held-out rule sets has about `h` degrees of freedom
    however many the screening's residuals have: where the holdout's is kept, the
    prediction interval's t quantile takes the smaller of the two counts."""
    held = misfit_from(model, codes, measured, se)
    if held <= model.screened_misfit:
        return replace(model, misfit=model.screened_misfit)
    return replace(model, misfit=held, df=min(model.df, len(np.atleast_2d(codes))))


def screening_level(samples: StageSamples, ids: Sequence[str], measure: str) -> float:
    """The variance of the screening's common error in one measure: that of the mean of
    all its rule sets' estimates, from the per-game covariance of the shared games.

    A statistic that is not a mean of per-game values has no such covariance; its
    level is bounded by one rule set's own variance (the correlation at most 1)."""
    sample = samples.means[measure]
    if isinstance(sample, CellSamples):
        c = sample.contrast({p: 1.0 / len(ids) for p in ids})
        return float(c.se**2)
    return float(np.median([sample.se[p] ** 2 for p in ids]))
