"""Strategies: how a seat chooses among the options the rules allow.

The only policy so far is `random` (RULES.md section 7): uniform among the
legal options, in the engines' fixed option order, drawing `below(k)` from the
game's stream when there are `k > 1` options and nothing otherwise. Policies
are referred to by name so both engines can share them; each has a small
integer code for the compiled kernel.
"""

from __future__ import annotations

from collections.abc import Sequence

from ludosim.errors import LudosimError

POLICY_CODES: dict[str, int] = {"random": 0}

POLICY_DESCRIPTIONS: dict[str, str] = {
    "random": "uniform among the legal moves (or Killer plans); one draw when there is a choice",
}


class PolicyError(LudosimError, ValueError):
    """An unknown policy name, or the wrong number of policies for the seats."""


def resolve_policies(policies: str | Sequence[str], players: int) -> tuple[str, ...]:
    """One policy name per seat, validated: a single name applies to every seat."""
    names = [policies] * players if isinstance(policies, str) else list(policies)
    if len(names) != players:
        raise PolicyError(f"policies lists {len(names)} policies for {players} players")
    for name in names:
        if name not in POLICY_CODES:
            raise PolicyError(f"unknown policy {name!r}; allowed values: {', '.join(POLICY_CODES)}")
    return tuple(names)
