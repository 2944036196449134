"""The error of the results layer."""

from __future__ import annotations

from ludosim.errors import LudosimError


class ResultsError(LudosimError, ValueError):
    """A path that holds no readable results, or results that do not fit their schema."""
