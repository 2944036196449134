"""Sample size for a precision target: Stein's two-stage procedure, as pure functions.

A target is the half-width of a 95% interval, either of the first-player
advantage (`0.25pp`: percentage points of P(first player wins)) or of the mean
game length (`1turn`: turns). Stage one plays a pilot of n0 games per cell and
estimates the standard deviation s of the per-game quantity (the 0/1
indicator "the first player won", over games with a finisher; or the turn
count). Stage two plays the cell up to

    n = max(n0, ceil((t * s / h) ** 2))

games, where t is the 97.5% quantile of Student's t with n0 - 1 degrees of
freedom and h the target. For normal data Stein (1945) showed that
(mean_n - mu) * sqrt(n) / s has exactly that t distribution, so mean_n +- h
covers mu with probability at least 95%; for the win indicator and the turn
count (bounded, far from normal per game) the coverage rests on the central
limit theorem for the mean of n >= n0 games, which is close to nominal at the
pilot sizes used here (thousands of games). No scipy: the t quantile is a
Cornish-Fisher expansion around the normal quantile.

Nothing here touches files: `ludosim.sweep.execute` plays the stages and
`ludosim.results.chunks` reads the chunk totals (`Moments`).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from statistics import NormalDist

from ludosim.results.chunks import Moments
from ludosim.results.stats import Z95, wilson_interval
from ludosim.rules.errors import LudosimError

CONFIDENCE = 0.95
DEFAULT_PILOT = 20_000
MIN_PILOT = 100
DEFAULT_MAX_GAMES = 10_000_000
# The two measures a target may name, by unit.
MEASURES = {"pp": "first_player_advantage", "turn": "mean_turns"}
ALLOWED_FORMS = (
    "a positive number with a unit: 0.25pp (half-width of the 95% interval of the "
    "first-player advantage, percentage points) or 1turn (of the mean game length, turns)"
)
_TARGET = re.compile(r"\s*([-+]?[0-9]*\.?[0-9]+(?:[eE][-+]?[0-9]+)?)\s*(pp|turns?)\s*")


class PrecisionError(LudosimError, ValueError):
    """A precision target is not one of the allowed forms; the message names them."""


@dataclass(frozen=True)
class Target:
    """A precision target: the half-width `value` of a 95% interval, in `unit` (pp or turn)."""

    value: float
    unit: str

    @property
    def measure(self) -> str:
        """`first_player_advantage` or `mean_turns`."""
        return MEASURES[self.unit]

    @property
    def half_width(self) -> float:
        """The target on the scale of the per-game quantity (a probability, or turns)."""
        return self.value / 100.0 if self.unit == "pp" else self.value

    def __str__(self) -> str:
        return f"{self.value:g}{self.unit}"


def parse_target(text: str) -> Target:
    """`"0.25pp"` -> Target(0.25, "pp"); `"1turn"`/`"2 turns"` -> Target(1.0, "turn").

    Anything else (no unit, an unknown unit, zero, a negative or non-finite
    number) is one `PrecisionError` naming `precision` and the allowed forms.
    """
    if not isinstance(text, str):
        raise PrecisionError(f"precision={text!r} is not allowed; give {ALLOWED_FORMS}")
    match = _TARGET.fullmatch(text)
    if match is None:
        raise PrecisionError(f"precision={text!r} is not allowed; give {ALLOWED_FORMS}")
    value = float(match.group(1))
    if not math.isfinite(value) or value <= 0:
        raise PrecisionError(f"precision={text!r} must be positive; give {ALLOWED_FORMS}")
    return Target(value=value, unit="pp" if match.group(2) == "pp" else "turn")


def normal_quantile(p: float) -> float:
    """The p quantile of the standard normal distribution."""
    return NormalDist().inv_cdf(p)


def t_quantile(p: float, dof: int) -> float:
    """The p quantile of Student's t with `dof` degrees of freedom, for dof >= 10.

    Cornish-Fisher expansion in 1/dof (Abramowitz and Stegun 26.7.5), four
    terms: about 1e-5 from the tables at dof = 10 and within 1e-6 from dof = 30
    (the pilots here have at least `MIN_PILOT` games).
    """
    if dof < 10:
        raise ValueError(f"t_quantile needs dof >= 10, got {dof}")
    z = normal_quantile(p)
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    g4 = (79 * z**9 + 776 * z**7 + 1482 * z**5 - 1920 * z**3 - 945 * z) / 92160
    return z + g1 / dof + g2 / dof**2 + g3 / dof**3 + g4 / dof**4


def required_games(sd: float, half_width: float, pilot: int, quantile: float) -> int:
    """Stein's second-stage size: max(pilot, ceil((quantile * sd / half_width) ** 2))."""
    if half_width <= 0:
        raise ValueError(f"half_width must be positive, got {half_width}")
    if sd < 0 or not math.isfinite(sd):
        raise ValueError(f"sd must be finite and >= 0, got {sd}")
    # The tiny relative slack keeps a value such as 4.000000000000001 (float noise
    # on an exact square) from asking for one more game than the formula means.
    needed = math.ceil((quantile * sd / half_width) ** 2 * (1 - 1e-12))
    return max(pilot, needed)


def sample_sd(moments: Moments, target: Target) -> tuple[float, int]:
    """(sd, count): the sample sd (ddof=1) of the target's per-game quantity and its count.

    For `pp` the quantity is the 0/1 indicator "the first player won" over games
    with a finisher; for `turn` it is `turns` over all games.
    """
    if target.unit == "pp":
        n, total, total_sq = moments.finished, moments.first_wins, moments.first_wins
    else:
        n, total, total_sq = moments.games, moments.turns_sum, moments.turns_sumsq
    if n < 2:
        return math.nan, n
    var = (total_sq - total * total / n) / (n - 1)
    return math.sqrt(max(var, 0.0)), n


@dataclass(frozen=True)
class CellPlan:
    """The second-stage size of one cell, from its pilot."""

    pilot: int
    sd: float  # of the per-game quantity, from the pilot
    required: int | None  # games the target needs before the cap; None: not estimable
    planned: int  # games the cell plays: min(required, max_games), at least the pilot

    @property
    def capped(self) -> bool:
        """True when the cell cannot reach the target: cut by max_games, or no estimate."""
        return self.required is None or self.planned < self.required


def plan_cell(pilot: Moments, target: Target, max_games: int) -> CellPlan:
    """Stein's n for one cell from its pilot totals, capped at `max_games`.

    For the first-player advantage only games with a finisher count, so the
    games needed for the interval are scaled up by the pilot's share of them.
    A pilot with fewer than two usable games (no finisher at all) cannot estimate
    a variance: the cell stays at its pilot and is marked capped.
    """
    n0 = pilot.games
    sd, count = sample_sd(pilot, target)
    if count < 2 or math.isnan(sd):
        return CellPlan(pilot=n0, sd=math.nan, required=None, planned=n0)
    quantile = t_quantile(0.5 + CONFIDENCE / 2, count - 1)
    needed = required_games(sd, target.half_width, count, quantile)
    if count < n0:
        needed = math.ceil(needed * n0 / count)
    required = max(n0, needed)
    return CellPlan(pilot=n0, sd=sd, required=required, planned=max(n0, min(required, max_games)))


def achieved(moments: Moments, target: Target) -> tuple[float, float]:
    """(estimate, half-width) of the target's 95% interval from all games of a cell.

    The intervals the report shows, in the target's unit: for `pp` the Wilson
    interval of P(first player wins), estimate in percent (the advantage
    subtracts 100/players, a constant that leaves the half-width alone); for
    `turn` the normal interval of the mean turns (sample sd, ddof=1).
    """
    if target.unit == "pp":
        n, k = moments.finished, moments.first_wins
        if n == 0:
            return math.nan, math.nan
        low, high = wilson_interval(k, n, Z95)
        return 100.0 * k / n, 100.0 * (high - low) / 2
    sd, n = sample_sd(moments, target)
    mean = moments.turns_sum / n if n else math.nan
    if n < 2:
        return mean, math.nan
    return mean, Z95 * sd / math.sqrt(n)
