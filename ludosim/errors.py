"""Exceptions raised by ludosim.

Every error says what was given, what is allowed and, where it helps, what to do
instead, so the CLI can print it as one line without a traceback.
"""

from __future__ import annotations


class LudosimError(Exception):
    """Base class of every error ludosim raises on purpose."""


class RulesError(LudosimError, ValueError):
    """A toggle has a bad value, or toggles combine into a game the engines cannot play."""


class ScenarioError(LudosimError, ValueError):
    """A hand-built position or move is not valid under the rules."""
