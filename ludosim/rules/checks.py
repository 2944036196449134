"""Argument checks shared by the public functions: one wording for one kind of mistake.

Each check returns the value as a plain Python value, or raises the caller's
`LudosimError` subclass (`error`) with one line that names the argument, says
what was given and what is allowed. NumPy integers and floats count as numbers;
a bool is never a number.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from ludosim.rules.errors import LudosimError

ErrorType = type[LudosimError]


def _shown(value: Any) -> str:
    """A given value as the message shows it: its repr, cut short when long."""
    text = repr(value)
    return text if len(text) <= 60 else f"{text[:57]}..."


def is_integer(value: Any) -> bool:
    """An int or NumPy integer, not a bool."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def integer(
    name: str,
    value: Any,
    low: int,
    high: int | None = None,
    *,
    error: ErrorType,
    high_text: str | None = None,
) -> int:
    """`value` as an int in `low..high` (no upper bound when `high` is None)."""
    allowed = f">= {low}" if high is None else f"in {low}..{high_text or high}"
    if not is_integer(value):
        raise error(f"{name} must be an integer {allowed}, got {_shown(value)}")
    value = int(value)
    if value < low or (high is not None and value > high):
        raise error(f"{name} must be an integer {allowed}, got {value}")
    return value


def number(name: str, value: Any, *, error: ErrorType) -> float:
    """`value` as a finite float."""
    if not isinstance(value, numbers.Real) or is_flag(value):
        raise error(f"{name} must be a finite number, got {_shown(value)}")
    if not math.isfinite(float(value)):
        raise error(f"{name} must be a finite number, got {float(value)}")
    return float(value)


def is_flag(value: Any) -> bool:
    """True or False (NumPy's bool too)."""
    return isinstance(value, bool) or type(value).__name__ == "bool_"


def flag(name: str, value: Any, *, error: ErrorType) -> bool:
    """`value` as True or False; a string such as "no" is refused, not read as truthy."""
    if not is_flag(value):
        raise error(f"{name} must be True or False, got {_shown(value)}")
    return bool(value)


def text(name: str, value: Any, *, error: ErrorType, example: str = "") -> str:
    """`value` as a non-empty str."""
    if not isinstance(value, str) or not value.strip():
        hint = f", e.g. {example}" if example else ""
        raise error(f"{name} must be a non-empty str{hint}, got {_shown(value)}")
    return value


def optional_text(name: str, value: Any, *, error: ErrorType) -> str | None:
    """`value` as a str, or None."""
    if value is not None and not isinstance(value, str):
        raise error(f"{name} must be a str or None, got {_shown(value)}")
    return value


def rules(name: str, value: Any, *, error: ErrorType) -> Any:
    """`value` when it is a `ludosim.Rules`."""
    from ludosim.rules.model import Rules

    if not isinstance(value, Rules):
        raise error(
            f"{name} must be a ludosim.Rules, e.g. Rules.preset('app'), got {_shown(value)}"
        )
    return value
