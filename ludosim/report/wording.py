"""How numbers are written in findings, pages and the terminal: one place for all of them.

Estimates are rounded to what their interval supports: one decimal for a
half-width between 1 and 10, one more for each factor of ten narrower (a million
games narrow intervals to hundredths), at most four, and more where an interval that
excludes 0 would otherwise show a bound of 0. p-values get two
significant figures, and below 1e-16 (where double precision ends) `p < 1e-16`.
Game counts get thousands separators; "about N" counts two significant figures.
A number is rounded as a decimal, half away from zero, from its first 12 significant
digits: the same estimate computed two ways (a table's and a sentence's) differs in
its last bits, and those must never decide a digit (0.95 is written `1.0` both times).

Sentences are written for one of two readers (`VOICES`): a report page, which shows
its cell ids and its sections and may speak of itself ("This page makes 2
comparisons"), or the terminal, whose answer shows neither. A finding is worded once
per reader; `speaking("terminal")` sets the reader while sentences are written, and
the few words that differ are chosen by `said(page, terminal)`.
"""

from __future__ import annotations

import contextlib
import math
from collections.abc import Iterator, Sequence
from contextvars import ContextVar
from decimal import ROUND_HALF_UP, Decimal

MAX_DIGITS = 6  # decimals enough to show the sign of any bound an interval is stated with
P_FLOOR = 1e-16  # below this a p-value is written `< 1e-16`: doubles cannot resolve it


def num(x: float | None, digits: int = 1, sign: bool = False) -> str:
    """A rounded number, with its sign when asked; `n/a` when there is none."""
    if x is None or not math.isfinite(float(x)):
        return "n/a"
    text = f"{_decimal(float(x), digits):{'+' if sign else ''}.{digits}f}"
    # A value that rounds to zero carries no sign: `0.0`, not `+0.0` or `-0.0`.
    return text.lstrip("+-") if float(text) == 0 else text


def _decimal(x: float, digits: int) -> Decimal | float:
    """`x` rounded to `digits` decimals, half away from zero, from its first 12 significant
    digits (see the module docstring); a number too large for that stays a float."""
    if abs(x) >= 1e15:
        return x
    return Decimal(f"{x:.12g}").quantize(Decimal(1).scaleb(-digits), rounding=ROUND_HALF_UP)


def digits_for(low: float, high: float) -> int:
    """Decimals that show an interval of this width (see the module docstring)."""
    half = (float(high) - float(low)) / 2.0
    if not math.isfinite(half) or half <= 0:
        return 1
    d = min(4, max(1, 1 - math.floor(math.log10(half))))
    # An interval that excludes 0 is never written with a bound of 0 ("95% CI 0.00 to
    # +0.34" would read as touching it): one more decimal until the bound shows its sign.
    if low > 0 or high < 0:
        near = float(low) if low > 0 else float(high)
        while d < MAX_DIGITS and float(f"{near:.{d}f}") == 0:
            d += 1
    return d


def pct(p: float, digits: int = 1) -> str:
    """A share as a percentage: `25.4%`."""
    return f"{num(100.0 * p, digits)}%"


def ci(low: float, high: float, digits: int = 1, sign: bool = False, unit: str = "") -> str:
    """`95% CI 1.2 to 3.4`."""
    return f"95% CI {num(low, digits, sign)} to {num(high, digits, sign)}{unit}"


def estimate(
    x: float,
    low: float,
    high: float,
    unit: str = "",
    sign: bool = True,
    with_ci: bool = True,
    digits: int | None = None,
) -> str:
    """`+0.67 pp (95% CI +0.55 to +0.79)`; with `with_ci=False` just `(+0.55 to +0.79)`."""
    d = digits_for(low, high) if digits is None else digits
    interval = ci(low, high, d, sign) if with_ci else f"{num(low, d, sign)} to {num(high, d, sign)}"
    space = "" if unit in ("", "%") else " "
    return f"{num(x, d, sign)}{space}{unit} ({interval})"


def amount(x: float, unit: str) -> str:
    """A size in its unit, singular where the number is one: `1 round`, `2 rounds`, `0.25 pp`."""
    if unit in ("rounds", "turns", "games") and float(x) == 1:
        unit = unit[:-1]
    space = "" if unit in ("", "%") else " "
    return f"{float(x):g}{space}{unit}"


def p_text(p: float) -> str:
    """A p-value to two significant figures; never `0`."""
    if p is None or not math.isfinite(float(p)):
        return "p = n/a"
    if p < P_FLOOR:
        return f"p < {P_FLOOR:g}"
    return f"p = {p:.2g}" if p >= 1e-3 else f"p = {p:.1e}"


def games(n: int) -> str:
    """`1,000 games`."""
    return f"{int(n):,} game{'s' if int(n) != 1 else ''}"


def about(n: int | None) -> int | None:
    """Round up to two significant figures: `about N games` is no more precise than that."""
    if n is None:
        return None
    step = 10 ** max(0, len(str(int(n))) - 2)
    return int(math.ceil(n / step) * step)


def each(counts: Sequence[int]) -> str:
    """`504,188 games each`, or `about 505,000 games each` when the counts differ."""
    values = [int(g) for g in counts]
    if min(values) == max(values):
        return f"{games(values[0])} each"
    mean = float(sum(values)) / len(values)
    step = 10 ** max(0, math.floor(math.log10(mean)) - 2)  # three significant figures
    return f"about {int(round(mean / step) * step):,} games each"


def of(k: int, n: int) -> str:
    """`all 3`, `none of the 3` or `2 of the 3`."""
    if k == n and n > 1:
        return f"all {n}"
    if k == 0 and n > 1:
        return f"none of the {n}"
    return f"{k} of the {n}"


def listing(names: Sequence[str], most: int = 6) -> str:
    """`a, b and c`; beyond `most` names, `a, b, ... and 4 more`."""
    names = list(names)
    if len(names) > most:
        return ", ".join(names[:most]) + f" and {len(names) - most} more"
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + f" and {names[-1]}"


def one_in(share: float) -> str:
    """A difference of shares as games at a table: `1 game in 150`.

    `share` is a fraction (0.0067 for +0.67 pp); its sign is the caller's to say.
    """
    share = abs(float(share))
    if not math.isfinite(share) or share <= 0:
        return "no game"
    k = 1.0 / share
    if k < 1.5:
        return f"{share:.1f} games in 1"
    return f"1 game in {_round_count(k):,}"


def _round_count(k: float) -> int:
    """Two significant figures at most: 147 -> 150, 28.4 -> 28."""
    if k < 100:
        return round(k)
    step = 10 ** (math.floor(math.log10(k)) - 1)
    return int(round(k / step) * step)


# ---------------------------------------------------------------------- voice
VOICES = ("page", "terminal")  # who reads the sentences: a report page or a command's answer
_VOICE: ContextVar[str] = ContextVar("ludosim_voice", default="page")


def voice() -> str:
    """The reader the sentences now being written are for: one of `VOICES`."""
    return _VOICE.get()


@contextlib.contextmanager
def speaking(to: str) -> Iterator[None]:
    """Write the sentences of this block for `to` (one of `VOICES`)."""
    if to not in VOICES:
        raise ValueError(f"voice {to!r} is not one of {', '.join(VOICES)}")
    token = _VOICE.set(to)
    try:
        yield
    finally:
        _VOICE.reset(token)


def said(page: str, terminal: str) -> str:
    """`page`'s words on a page, `terminal`'s at the terminal (`speaking`)."""
    return terminal if _VOICE.get() == "terminal" else page


__all__ = [
    "P_FLOOR",
    "VOICES",
    "about",
    "ci",
    "digits_for",
    "each",
    "estimate",
    "games",
    "listing",
    "num",
    "of",
    "one_in",
    "p_text",
    "pct",
    "said",
    "speaking",
    "voice",
]
